"""The perfect-play hint's data: every played rulebook whose full game (its own pieces a side)
is small enough to ship, solved exactly, with what the browser needs to look a position up.

The play page's hint (``assets/ur-hint.js``) shows the perfect move and both players' chances;
it reads two files the site writes (:mod:`generator.site.play_files`): the solver's values in
its state order (float64, little-endian: the solver's tolerance, 1e-13, is far below float32's
resolution, so the browser's chances are the solver's own) and the tables of the solver's
perfect index (:mod:`generator.solver.solve_index`), with which the script ranks a position
exactly as :meth:`generator.solver.solution.Solution.index` does.

A game is shipped when it has at most :data:`MAX_HINT_STATES` states (8 bytes each). Today that
is only three-piece Finkel (263,121 states, 2.1 MB of values, solved in seconds); every other
played rulebook has five or seven pieces a side, millions of states or more. The values come
from the solve cache (``.cache/solve``, the folder ``ur-variants full-games`` fills), or are
solved there, at the full games' tolerance: a game this small solves in seconds, so a clean
checkout's build has its hints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from generator.engine.rules import Rules, compile_rules
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.suite import simulated_variants
from generator.solver.solution import Solution
from generator.solver.solve_space import code_space

MAX_HINT_STATES = 500_000
"""The largest game whose values a play page ships: 4 MB of float64 values, fetched only when
the reader turns the hint on."""
MAX_HINT_CODES = 2_000
"""Configuration codes a side beyond which a game is not even solved for the hint: a game's
states are 15 to 40 % of its codes squared (three-piece Finkel: 263,121 of 816 squared), so past
2,000 codes it would hold far more than :data:`MAX_HINT_STATES`."""


@dataclass(frozen=True)
class HintValues:
    """One rulebook's solved full game as the browser reads it."""

    index: dict[str, Any]
    """The perfect index's tables (:func:`index_tables`), as JSON."""
    values: bytes
    """``[state id]`` the chance that the side to move wins, float64 little-endian."""
    states: int
    first_player: float
    """The start's value: the chance that light, moving first, wins."""


def index_tables(solution: Solution) -> dict[str, Any]:
    """What ``assets/ur-hint.js`` needs to turn a position into its state id, as
    :meth:`Solution.index` and :meth:`StateIndex.state_id` do: each entry group's pieces and
    stride (the configuration's code), the code -> configuration map, and per configuration its
    pieces borne off, whether each side can hold it, its mask's number and its rank; ``start``
    (``[p, mover, layer]``) and ``prefix`` (``[p, borne, mover mask, opponent mask + 1]``),
    flattened. Two configurations fit when ``prefix`` grows between the opponent's mask and the
    next (the opponent's own mask and borne count hold at least one configuration), so the
    64-bit masks need not be shipped."""
    geo, index = solution.geometry, solution.state_index
    groups = [
        list(geo.slot_piece[int(start) : int(start) + int(size)])
        for start, size in zip(geo.group_start, geo.group_size, strict=True)
    ]
    return {
        "states": index.states,
        "perspectives": index.perspectives,
        "layers": int(index.start.shape[2]),
        "groups": groups,
        "strides": [int(s) for s in geo.group_stride],
        "codeToConfig": solution.configurations.code_to_config.tolist(),
        "borne": index.borne.tolist(),
        "valid": index.valid.astype(np.int8).tolist(),
        "maskId": index.mask_id.tolist(),
        "rank": index.rank.tolist(),
        "start": index.start.reshape(-1).tolist(),
        "prefixShape": list(index.prefix.shape),
        "prefix": index.prefix.reshape(-1).tolist(),
    }


def hint_values(rules: Rules, settings: Settings) -> HintValues | None:
    """The hint's data for ``rules`` (its own pieces), or ``None`` when the game is too large
    to ship; read from the solve cache, or solved into it."""
    if code_space(rules) > MAX_HINT_CODES:
        return None
    from generator.solver.solve import solve
    from generator.solver.solve_read import FULL_GAME_TOLERANCE, cached_solution

    cache = settings.cache_root / "solve"
    solution = None if settings.refresh else cached_solution(rules, cache)
    if solution is None:
        solution = solve(
            rules, tolerance=FULL_GAME_TOLERANCE, cache_dir=cache, use_cache=not settings.refresh
        )
    if solution.states > MAX_HINT_STATES:
        return None
    values = np.ascontiguousarray(solution.values, dtype="<f8").tobytes()
    return HintValues(index_tables(solution), values, solution.states, solution.start_value)


def play_hints(catalog: Catalog, settings: Settings) -> dict[str, HintValues]:
    """Every played rulebook's hint data, by rulebook id, where its full game ships."""
    found = {}
    for variant in simulated_variants(catalog):
        hint = hint_values(compile_rules(variant), settings)
        if hint is not None:
            found[variant.id] = hint
    return found


def hint_problems(hints: dict[str, HintValues]) -> list[str]:
    """A shipped value that is no chance at all (a damaged solve; NaN fails both bounds)."""
    problems = []
    for rulebook, hint in hints.items():
        values = np.frombuffer(hint.values, dtype="<f8")
        if values.size != hint.states or not np.all((values >= 0) & (values <= 1)):
            problems.append(f"hint values of {rulebook}: not {hint.states:,} chances from 0 to 1")
    return problems


PLAY_HINTS = Step("perfect-play hints", play_hints, hint_problems)
