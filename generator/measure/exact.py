"""Exact perfect-play values of every simulated rulebook at small piece counts, as a
measurement (the solver itself is :mod:`generator.solver.solve`).

Most of these games are in the committed results (``results/exact-effects.json``, each
rulebook's own game at 1, 2, ... pieces, :mod:`generator.solver.exact_effects`), computed by the
same solver at the same tolerance; a game is read from there while its rules' fingerprint is
the one recorded, and solved only when it is not (its rules changed, or it is not there). The
committed file is a result, not a cache: ``--refresh`` does not solve those games again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from generator.engine.rules import compile_rules
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.sanity import exact_problems
from generator.solver.exact_effects import committed_figures, fingerprint, read_results

EXACT_PIECES = (1, 2)
"""Piece counts solved exactly for every simulated variant (more is out of reach here)."""
MAX_SOLVED_PIECES = 3
"""A variant whose own piece count is at most this is also solved as played; up to this
count, a game the committed results hold is read from them (never solved by the build)."""


@dataclass(frozen=True)
class ExactValue:
    pieces: int
    first_player: float
    expected_throws: float
    states: int
    memory_bytes: int
    """Peak bytes of the solver's arrays. (Not the processor time: it differs from run to run,
    and two builds of one commit must publish the same figures.)"""
    game: str
    """The rules' fingerprint at this piece count: rulebooks with equal ones play one game
    here, whatever they play with more pieces."""


@dataclass
class ExactValues:
    """Per rulebook id: its solved piece counts, and why the solver refused a larger one."""

    values: dict[str, list[ExactValue]] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)


def solve_exact(catalog: Catalog, settings: Settings) -> ExactValues:
    """Perfect-play values of every simulated variant with 1 and 2 pieces (and its own count
    when that is at most 3): read from the committed results where they hold the game, else
    solved and cached under ``.cache/solve``; with 3 pieces too where the committed results
    hold that game. Three-piece solves of every variant
    (the 27-square routes and the named tablet pieces are large) would take most of a cold
    build; ``ur-variants solve VARIANT --pieces 3`` computes any of them on demand."""
    from generator.solver.solution import SolveRefused
    from generator.solver.solve import solve, with_pieces
    from generator.solver.solve_estimate import estimate

    cache = settings.cache_root / "solve"
    committed = committed_figures(read_results())
    exact = ExactValues()
    for vid in sorted(catalog.variants):
        resolved = catalog.resolve(vid)
        if not resolved.variant.simulate:
            continue
        rules = compile_rules(resolved)
        own = [rules.pieces] if rules.pieces <= MAX_SOLVED_PIECES else []
        values = []
        solved = {p for p in EXACT_PIECES if p <= rules.pieces} | set(own)
        read_only = set(range(1, min(rules.pieces, MAX_SOLVED_PIECES) + 1)) - solved
        for pieces in sorted(solved | read_only):
            game = with_pieces(rules, pieces)
            key = fingerprint(game)
            known = committed.get(key)
            if pieces in read_only and known is None:
                continue  # a larger game only where ur-variants exact has computed it
            if known is not None and known.perfect_throws is not None:
                memory = estimate(game).memory_bytes  # what a solve of it allocates, counted
                values.append(
                    ExactValue(
                        pieces,
                        known.perfect_first,
                        known.perfect_throws,
                        known.states,
                        memory,
                        key,
                    )
                )
                continue
            began = time.perf_counter()
            try:
                solution = solve(game, cache_dir=cache, use_cache=not settings.refresh)
            except (SolveRefused, ValueError) as error:
                exact.refused[vid] = str(error)
                continue
            values.append(
                ExactValue(
                    pieces,
                    solution.start_value,
                    solution.expected_throws,
                    solution.states,
                    solution.memory_bytes,
                    key,
                )
            )
            if not solution.from_cache:
                settings.log(
                    f"solved {vid} with {pieces} pieces in {time.perf_counter() - began:.1f} s"
                )
        exact.values[vid] = values
    return exact


def exact_value_problems(exact: ExactValues) -> list[str]:
    return [
        f"exact {vid} with {v.pieces} pieces: {problem}"
        for vid, values in exact.values.items()
        for v in values
        for problem in exact_problems(v.first_player, v.expected_throws, v.states)
    ]


EXACT = Step("exact solutions", solve_exact, exact_value_problems)
