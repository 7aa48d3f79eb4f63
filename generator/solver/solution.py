"""A solved game (:class:`Solution`): every position's value under perfect play and its expected
length, read by position, and the figures of the solve that made it."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from generator.engine.position import Position, start_position
from generator.engine.rules import Rules
from generator.solver.solve_index import StateIndex
from generator.solver.solve_space import (
    Configurations,
    FloatArray,
    Geometry,
    IntArray,
    configuration_id,
)


class SolveRefused(ValueError):
    """The variant's state space is too large to solve on this machine."""


MAX_DENSE_SLOTS = 50_000_000
"""Largest :attr:`Solution.dense` built (200 MB)."""


@dataclass(frozen=True)
class Solution:
    """Every position's value under perfect play, and the expected length of a perfect game."""

    rules: Rules
    geometry: Geometry
    configurations: Configurations
    state_index: StateIndex
    """Positions -> ids (:mod:`generator.solver.solve_index`)."""
    values: FloatArray
    """``[state id]`` probability that the side to move wins (in memory, or mapped from the
    cache folder's file)."""
    lengths: FloatArray
    """``[state id]`` expected throws left under the optimal policy (the first best move in
    the engine's order); infinite where that policy can go on for ever."""
    states: int
    """Positions solved (possible, unfinished, side to move mover-relative)."""
    seconds: float
    """Wall time of the solve itself, summed over resumed runs (not the native compilation,
    not a cache load)."""
    cpu_seconds: float
    """Processor time of the solve, all threads, summed over resumed runs (the honest figure on
    a machine shared with other work)."""
    memory_bytes: int
    """Peak bytes of the solver's working arrays during the solve
    (:func:`generator.solver.solve_estimate.estimate`)."""
    sweeps: int
    """Sweeps over all layers (values): Bellman sweeps plus evaluation sweeps."""
    tolerance: float
    endless: int = 0
    """States from which perfect play can go on for ever (say, both sides declining to move
    where moving is not compulsory); their expected length is infinite."""
    from_cache: bool = False
    compile_seconds: float = 0.0
    """Time this call spent compiling the native kernels (or loading them from numba's cache);
    ``0`` once they are loaded in this process."""
    bellman_sweeps: int = 0
    """Of ``sweeps``, those that generated every move."""
    resumed_layers: int = 0
    """Layers read from a checkpoint of an interrupted run instead of solved now."""

    @functools.cached_property
    def dense(self) -> npt.NDArray[np.int32]:
        """``[state index]`` -> state id, ``-1`` for impossible or finished states, where a
        state index is ``(p * C + mover) * C + opponent`` (:func:`solve_space.state_index`):
        the table the small-game kernels read (:mod:`generator.solver.solve_small`). It holds a
        number for every pair of configurations, so it is refused above
        :data:`MAX_DENSE_SLOTS`."""
        count = self.configurations.count
        slots = self.geometry.perspectives * count * count
        if slots > MAX_DENSE_SLOTS:
            raise SolveRefused(f"{self.rules.variant}: {slots:,} state indices are too many")
        index = self.state_index
        dense = np.full(slots, -1, dtype=np.int32)
        mover, opponent = np.divmod(np.arange(count * count, dtype=np.int64), count)
        for p in range(self.geometry.perspectives):
            possible = index.valid[p, mover] & index.valid[1 - p, opponent]
            possible &= (index.mask[p, mover] & index.mask[1 - p, opponent]) == 0
            slots_of_p = p * count * count + np.flatnonzero(possible)
            dense[slots_of_p] = self.ids_of(slots_of_p)
        return dense

    def ids_of(self, slots: IntArray) -> IntArray:
        """The state ids of possible, unfinished states given by state index (see
        :attr:`dense`)."""
        index, count = self.state_index, self.configurations.count
        p, rest = np.divmod(slots, count * count)
        i, j = np.divmod(rest, count)
        ids = index.start[p, i, index.borne[i] + index.borne[j]]
        ids += index.prefix[p, index.borne[j], index.mask_id[p, i], index.mask_id[1 - p, j]]
        return np.asarray(ids + index.rank[1 - p, j], dtype=np.int64)

    def index(self, position: Position) -> int:
        """The solved state id of ``position``; raises ``ValueError`` for an impossible one."""
        side = position.to_move
        mover = configuration_id(self.geometry, self.configurations, position.pieces(side))
        other = configuration_id(self.geometry, self.configurations, position.pieces(side.other))
        p = int(side) if self.geometry.perspectives == 2 else 0
        ident = self.state_index.state_id(p, mover, other) if min(mover, other) >= 0 else -1
        if ident < 0:
            raise ValueError(f"position {position} is impossible or finished under these rules")
        return ident

    def win_probability(self, position: Position) -> float:
        """Probability that the side to move in ``position`` wins under perfect play."""
        finished = self._finished(position)
        if finished is not None:
            return finished
        return float(self.values[self.index(position)])

    def expected_throws_left(self, position: Position) -> float:
        """Expected throws until the game ends when both sides play perfectly."""
        if self._finished(position) is not None:
            return 0.0
        return float(self.lengths[self.index(position)])

    def _finished(self, position: Position) -> float | None:
        off = self.rules.off
        if all(p == off for p in position.pieces(position.to_move)):
            return 1.0
        if all(p == off for p in position.pieces(position.to_move.other)):
            return 0.0
        return None

    @property
    def start_value(self) -> float:
        """Probability that the first player (light, to move at the start) wins."""
        return self.win_probability(start_position(self.rules))

    @property
    def expected_throws(self) -> float:
        """Expected length, in throws, of a perfect-vs-perfect game from the start."""
        return self.expected_throws_left(start_position(self.rules))


@dataclass
class Totals:
    """Figures summed over the layers (and over resumed runs)."""

    seconds: float = 0.0
    cpu_seconds: float = 0.0
    sweeps: int = 0
    bellman: int = 0
    endless: int = 0
    resumed: int = 0

    def add(self, record: dict[str, Any]) -> None:
        self.seconds += float(record["seconds"])
        self.cpu_seconds += float(record["cpu_seconds"])
        self.sweeps += int(record["sweeps"])
        self.bellman += int(record["bellman_sweeps"])
        self.endless += int(record["endless"])

    def solution(
        self,
        rules: Rules,
        geo: Geometry,
        configs: Configurations,
        index: StateIndex,
        values: FloatArray,
        lengths: FloatArray,
        memory_bytes: int,
        tolerance: float,
        *,
        from_cache: bool,
    ) -> Solution:
        """The solution these figures sum up."""
        return Solution(
            rules=rules,
            geometry=geo,
            configurations=configs,
            state_index=index,
            values=values,
            lengths=lengths,
            states=index.states,
            seconds=self.seconds,
            cpu_seconds=self.cpu_seconds,
            memory_bytes=memory_bytes,
            sweeps=self.sweeps,
            tolerance=tolerance,
            endless=self.endless,
            from_cache=from_cache,
            bellman_sweeps=self.bellman,
            resumed_layers=self.resumed,
        )
