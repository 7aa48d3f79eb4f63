"""Exact values of a game under three pairings: perfect v perfect, random v random, perfect v
random; no sampling.

Over the solver's positions, layer by layer with every option stored
(:mod:`generator.solver.solve_small`), for the side to move in each position:

- ``perfect``: its chance of winning when both sides play perfectly (the solver's values,
  computed here the same way), and ``perfect_lengths``, the expected throws left under the
  solver's policy (the first best move in the engine's order);
- ``random``: its chance of winning when both sides pick uniformly among the legal moves (the
  simulator's random agent), and ``random_lengths``, the expected throws left then. This is
  policy evaluation: with the policy fixed the values solve a linear system,
  ``R(s) = sum over throws of p * mean over moves of R(next)`` (``1 - R`` where the turn passes);
- ``perfect_vs_random`` and ``random_vs_perfect``: the chance that the side to move wins when
  it follows the solver's policy against a random opponent, and when it plays at random
  against the solver's policy (:func:`generator.solver.policy_kernels.iterate_mixed_values`).

Borne-off pieces never come back, so each layer (pieces borne off by both sides) depends only
on itself and on layers already done; each is solved by Gauss-Seidel sweeps until the largest
change is below the tolerance, as the solver does.

The figures of a game's start (:class:`ExactFigures`) are cached as JSON under
``.cache/exact``, keyed by the rules' content (:func:`generator.solver.solve.rules_key`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from generator.engine.position import Position, start_position
from generator.engine.rules import Rules, Side
from generator.sim.cache_files import read_json, write_json
from generator.sim.results_files import code_key
from generator.solver import solve
from generator.solver.solution import SolveRefused
from generator.solver.solve import rules_key, with_pieces
from generator.solver.solve_estimate import estimate
from generator.solver.solve_layer import LENGTH_TOLERANCE, MAX_SWEEPS
from generator.solver.solve_small import small_game
from generator.solver.solve_space import Configurations, FloatArray, Geometry, state_index

TOLERANCE = 1e-13
"""Largest change of a value in a sweep at which a layer counts as converged (the solver's)."""

ZERO_EFFECT = 1e-9
"""An exact effect smaller than this (in absolute value) is zero: far above the sweeps'
tolerance and the rounding of sums of a few hundred thousand terms, far below any difference
a player could notice."""

DEFAULT_MAX_STATES = 1_000_000
"""The largest game (positions with a side to move) evaluated for the site: three pieces a
side on the 14- and 16-square routes fit (263,121 and 512,349 positions, a few seconds each),
three on the 27-square routes do not (about eight million)."""

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "exact"


@dataclass(frozen=True)
class PolicyValues:
    """Every position's value under the three pairings (see the module docstring)."""

    rules: Rules
    geometry: Geometry
    configurations: Configurations
    dense: npt.NDArray[np.int32]
    """``[state index]`` -> state id, ``-1`` for impossible or finished states."""
    perfect: FloatArray
    perfect_lengths: FloatArray
    random: FloatArray
    random_lengths: FloatArray
    perfect_vs_random: FloatArray
    random_vs_perfect: FloatArray
    states: int
    cpu_seconds: float
    endless: int
    """Positions from which perfect play can go on for ever (infinite expected length)."""

    def value(self, table: FloatArray, position: Position) -> float:
        """``table``'s chance that the side to move in ``position`` wins (1 or 0 when the
        game is over)."""
        off = self.rules.off
        if all(p == off for p in position.pieces(position.to_move)):
            return 1.0
        if all(p == off for p in position.pieces(position.to_move.other)):
            return 0.0
        return float(table[self._ident(position)])

    def throws_left(self, table: FloatArray, position: Position) -> float:
        """``table``'s expected throws left from ``position`` (0 when the game is over)."""
        off = self.rules.off
        if any(all(p == off for p in position.pieces(side)) for side in Side):
            return 0.0
        return float(table[self._ident(position)])

    def _ident(self, position: Position) -> int:
        index = state_index(self.geometry, self.configurations, position)
        ident = int(self.dense[index]) if index >= 0 else -1
        if ident < 0:
            raise ValueError(f"position {position} is impossible under these rules")
        return ident

    def figures(self) -> ExactFigures:
        """The figures of the game's start (light moves first)."""
        start = start_position(self.rules)
        return ExactFigures(
            pieces=self.rules.pieces,
            states=self.states,
            perfect_first=self.value(self.perfect, start),
            perfect_throws=_finite(self.throws_left(self.perfect_lengths, start)),
            random_first=self.value(self.random, start),
            random_throws=self.throws_left(self.random_lengths, start),
            perfect_moving_first=self.value(self.perfect_vs_random, start),
            perfect_moving_second=1.0 - self.value(self.random_vs_perfect, start),
            cpu_seconds=self.cpu_seconds,
        )


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class ExactFigures:
    """A game's exact figures from the start, first player = light."""

    pieces: int
    states: int
    perfect_first: float
    """The first player's chance of winning when both play perfectly."""
    perfect_throws: float | None
    """Expected throws of a perfect game; ``None`` when perfect play can go on for ever."""
    random_first: float
    """The first player's chance of winning when both pick moves uniformly at random."""
    random_throws: float
    """Expected throws of a game between two random players."""
    perfect_moving_first: float
    """The perfect player's chance of beating a random one when it moves first."""
    perfect_moving_second: float
    """... and when the random player moves first."""
    cpu_seconds: float

    @property
    def skill(self) -> float:
        """The perfect player's chance of beating a random one, seats drawn evenly."""
        return (self.perfect_moving_first + self.perfect_moving_second) / 2

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> ExactFigures:
        return ExactFigures(**data)


def evaluate(
    rules: Rules,
    *,
    tolerance: float = TOLERANCE,
    max_states: int = DEFAULT_MAX_STATES,
    progress: Callable[[str], None] | None = None,
) -> PolicyValues:
    """Every position's values under the three pairings; refuses games of more than
    ``max_states`` positions (:class:`generator.solver.solve.SolveRefused`)."""
    from generator.solver import policy_kernels as random_play
    from generator.solver import solve_kernels as kernels

    size_of = estimate(rules)
    if size_of.states > max_states:
        raise SolveRefused(
            f"{rules.variant} with {rules.pieces} pieces a side has {size_of.states:,} positions,"
            f" over the {max_states:,} evaluated exactly here; evaluate fewer pieces"
        )
    warm_up(rules)
    began = time.process_time()
    game = small_game(rules)
    geo, states = game.geometry, game.states
    perfect = np.full(states, 0.5)
    perfect_lengths = np.zeros(states)
    # Random v random, its lengths, perfect v random, random v perfect (policy_kernels).
    tables = np.full((4, states), 0.5)
    tables[1] = 0.0
    tolerances = np.array([tolerance, LENGTH_TOLERANCE])
    throws = int(geo.throw_values.shape[0])
    probs = geo.throw_probs
    endless = 0
    for layer in game.sweep():
        base, size, options, counts = layer.base, layer.size, layer.options, layer.counts
        sweeps = {
            "perfect values": kernels.iterate_values(
                base, size, options, counts, probs, perfect, tolerance, MAX_SWEEPS
            )
        }
        chosen = kernels.choose_policy(size, options, counts, throws, perfect, 0, False)
        endless += kernels.mark_endless(base, size, chosen, perfect_lengths)
        sweeps["perfect lengths"] = kernels.iterate_lengths(
            base, size, chosen, probs, perfect_lengths, LENGTH_TOLERANCE, MAX_SWEEPS
        )
        sweeps["random play"] = random_play.iterate_random_play(
            base, size, options, counts, chosen, probs, tables, tolerances, MAX_SWEEPS
        )
        for name, (done, change) in sweeps.items():
            if done < 0:
                raise RuntimeError(
                    f"{rules.variant}: {name} in layer {layer.number} did not converge in"
                    f" {MAX_SWEEPS} sweeps (last change {change:.3g})"
                )
        if progress is not None:
            progress(f"layer {layer.number}: {size:,} positions, sweeps {sweeps}")
    return PolicyValues(
        rules=rules,
        geometry=geo,
        configurations=game.configurations,
        dense=game.dense,
        perfect=perfect,
        perfect_lengths=perfect_lengths,
        random=tables[0],
        random_lengths=tables[1],
        perfect_vs_random=tables[2],
        random_vs_perfect=tables[3],
        states=states,
        cpu_seconds=time.process_time() - began,
        endless=endless,
    )


_warm = False


def warm_up(rules: Rules) -> None:
    """Compile the native kernels (or load numba's cached build) on the one-piece game, so
    that a measured evaluation's processor time is the evaluation's own."""
    global _warm
    if not _warm:
        _warm = True
        solve.warm_up(rules)
        evaluate(with_pieces(rules, 1))


def figures_path(cache_dir: Path, rules: Rules, tolerance: float = TOLERANCE) -> Path:
    """The cached figures of ``rules``: their data key and the source of the code that
    evaluates them (:func:`generator.sim.results_files.code_key`)."""
    code = code_key("engine", "sim", "solver")
    return cache_dir / f"{rules_key(rules, tolerance)}.p{code}.json"


def exact_figures(
    rules: Rules,
    *,
    cache_dir: Path | None = DEFAULT_CACHE,
    max_states: int = DEFAULT_MAX_STATES,
) -> ExactFigures:
    """The start figures of ``rules`` (from the cache when present)."""
    path = figures_path(cache_dir, rules) if cache_dir is not None else None
    if path is not None:
        cached = read_json(path)
        if isinstance(cached, dict):
            try:
                return ExactFigures.from_dict(cached)
            except TypeError:
                pass  # another layout: recompute
    figures = evaluate(rules, max_states=max_states).figures()
    if path is not None:
        write_json(path, figures.as_dict())
    return figures


__all__ = [
    "DEFAULT_MAX_STATES",
    "ZERO_EFFECT",
    "ExactFigures",
    "PolicyValues",
    "evaluate",
    "exact_figures",
    "warm_up",
]
