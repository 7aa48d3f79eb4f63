"""A layer's split among the workers of a distributed solve, found without listing the layer.

The split is :data:`generator.solver.partition.CHOSEN`: each wave of the sweep order
(:func:`generator.solver.solve_waves.layer_order`) cut into ``K`` runs of equal length, worker
``r`` taking run ``r`` (:func:`generator.solver.partition.wave_runs`). A wave is sorted by its
*sort key* ``(opponent * perspectives + p) * C + mover``, so the states of one opponent lie
together and, within them, go by perspective and mover. That lets a worker find its share
without the whole order:

* a wave's states are counted by opponent (:func:`opponent_counts`), a number a configuration;
* each run's first state is found by its place among them (:func:`nth_state`): the runs'
  first sort keys, a few numbers a wave and worker, say who owns any state of the layer
  (:meth:`LayerSplit.owner_of`), the next layer asking for finished values by them too;
* a worker lists its own runs alone (:meth:`LayerSplit.share`).

So a worker's memory for its layer grows with its share, not the layer: the layer's sweep
order and each state's owner were 24 bytes a state of the largest layer on every worker
(108 GiB for Merit 1976 at seven pieces) before this split. Counting a layer's waves costs a
worker one pass over the layer's states, without storing them (a few seconds a hundred million).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from generator.solver.partition import wave_runs
from generator.solver.solve_estimate import layer_shape
from generator.solver.solve_index import StateIndex
from generator.solver.solve_space import Geometry, IntArray
from generator.solver.solve_sweeps import state_id
from generator.solver.solve_waves import second_of_pair

PAST_EVERY = np.iinfo(np.int64).max
"""The first sort key of a run that is empty at a wave's end (a wave of fewer states than
workers): past every state."""


@njit(cache=True)
def _movers(shape: Any, total: int, p: int, j: int) -> tuple[int, int]:
    """The range of ``class_members[p]`` holding the movers of perspective ``p`` that meet the
    opponent ``j`` in the layer's waves of total progress ``total`` (an empty range if none)."""
    layer, pieces, borne, progress, valid = shape[0], shape[2], shape[3], shape[4], shape[5]
    class_start, progress_classes = shape[7], shape[9]
    if not valid[1 - p, j]:
        return 0, 0
    b = layer - borne[j]
    q = total - progress[j]
    if b < 0 or b >= pieces or q < 0 or q >= progress_classes:
        return 0, 0
    c = b * progress_classes + q
    return class_start[p, c], class_start[p, c + 1]


@njit(cache=True)
def _meets(shape: Any, second: bool, p: int, i: int, j: int) -> bool:
    """Whether the mover ``i`` of perspective ``p`` and the opponent ``j`` form a state of the
    wave (their pieces share no cell, and it is the pair's first or second as asked)."""
    perspectives, valid, mask = shape[1], shape[5], shape[6]
    if mask[p, i] & mask[1 - p, j] != 0:
        return False
    return second_of_pair(p, i, j, perspectives, valid, mask) == second


@njit(cache=True)
def opponent_counts(shape: Any, total: int, second: bool, counts: np.ndarray) -> int:
    """How many states of the wave (``total``, ``second``) each opponent configuration has,
    into ``counts``; returns the wave's states."""
    perspectives, class_members = shape[1], shape[8]
    states = 0
    for j in range(counts.shape[0]):
        n = 0
        for p in range(perspectives):
            lo, hi = _movers(shape, total, p, j)
            for e in range(lo, hi):
                if _meets(shape, second, p, class_members[p, e], j):
                    n += 1
        counts[j] = n
        states += n
    return states


@njit(cache=True)
def nth_state(shape: Any, total: int, second: bool, j: int, n: int) -> int:
    """The sort key of the ``n``-th state (from 0) of the wave whose opponent is ``j``."""
    perspectives, count, class_members = shape[1], shape[3].shape[0], shape[8]
    for p in range(perspectives):
        lo, hi = _movers(shape, total, p, j)
        for e in range(lo, hi):
            i = class_members[p, e]
            if _meets(shape, second, p, i, j):
                if n == 0:
                    return int((j * perspectives + p) * count + i)
                n -= 1
    return -1


@njit(cache=True)
def list_run(
    shape: Any,
    total: int,
    second: bool,
    first_key: int,
    n: int,
    keys: np.ndarray,
    ids: np.ndarray,
    at: int,
    base: int,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> None:
    """The ``n`` states of the wave from the sort key ``first_key`` on, in sweep order, into
    ``keys`` (``(p * C + mover) * C + opponent``) and ``ids`` (less ``base``) from ``at``."""
    perspectives, borne, class_members = shape[1], shape[3], shape[8]
    count = borne.shape[0]
    k = at
    j = first_key // (perspectives * count)
    while k < at + n:
        for p in range(perspectives):
            lo, hi = _movers(shape, total, p, j)
            for e in range(lo, hi):
                i = class_members[p, e]
                if k == at + n or (j * perspectives + p) * count + i < first_key:
                    continue
                if _meets(shape, second, p, i, j):
                    keys[k] = (p * count + i) * count + j
                    ids[k] = state_id(p, i, j, borne, mask_id, rank, prefix, start) - base
                    k += 1
        j += 1


@njit(cache=True)
def _owners(
    shape: Any,
    wave_of: np.ndarray,
    bounds: np.ndarray,
    keys: np.ndarray,
    owner: np.ndarray,
    place: np.ndarray,
) -> None:
    """Each state's (keys ``(p * C + mover) * C + opponent``) worker into ``owner`` and its
    place in the sweep order, as ``wave * (perspectives * C * C) + sort key``, into ``place``."""
    perspectives, borne, progress, valid, mask = shape[1], shape[3], shape[4], shape[5], shape[6]
    count = borne.shape[0]
    span = perspectives * count * count
    for k in range(keys.shape[0]):
        key = keys[k]
        p = key // (count * count)
        i = (key // count) % count
        j = key % count
        second = second_of_pair(p, i, j, perspectives, valid, mask)
        w = wave_of[2 * (progress[i] + progress[j]) + (1 if second else 0)]
        if w < 0:
            raise AssertionError("solver bug: a state outside the layer's waves")
        sort_key = (j * perspectives + p) * count + i
        row = bounds[w]
        r = np.searchsorted(row, sort_key, side="right") - 1
        owner[k] = r
        place[k] = w * span + sort_key


@dataclass(frozen=True)
class LayerSplit:
    """Where each worker's run of each wave of a layer begins."""

    shape: tuple[Any, ...]
    """What decides the layer's states (:data:`generator.solver.solve_waves.LayerShape`)."""
    workers: int
    totals: IntArray
    """Each wave's total progress, in sweep order (waves with states only)."""
    seconds: npt.NDArray[np.bool_]
    """Whether each wave holds the second states of their pairs."""
    runs: IntArray
    """``[wave, r]``: the place within the wave where worker ``r``'s run begins (``workers +
    1`` entries a wave, the last the wave's size), as
    :func:`generator.solver.partition.wave_runs` cuts it."""
    bounds: IntArray
    """``[wave, r]``: the sort key of the first state of worker ``r``'s run
    (:data:`PAST_EVERY` for the empty runs at a wave's end and the entry after the last)."""
    wave_of: IntArray
    """``[2 * total + second]``: the wave's number, or ``-1``."""

    @property
    def waves(self) -> int:
        return int(self.totals.shape[0])

    def run_lengths(self, worker: int) -> IntArray:
        """The length of ``worker``'s run of each wave."""
        return np.asarray(self.runs[:, worker + 1] - self.runs[:, worker], dtype=np.int64)

    def share(self, worker: int, index: StateIndex, key_dtype: Any) -> tuple[Any, IntArray]:
        """``worker``'s share of the layer in sweep order: its states' keys and ids less the
        layer's base (listed run by run, never the whole layer)."""
        lengths = self.run_lengths(worker)
        at = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
        keys = np.empty(int(at[-1]), dtype=key_dtype)
        ids = np.empty(int(at[-1]), dtype=np.int64)
        base = int(index.layer_base[self.shape[0]])
        for w in range(self.waves):
            if lengths[w] == 0:
                continue
            list_run(
                self.shape, int(self.totals[w]), bool(self.seconds[w]),
                int(self.bounds[w, worker]), int(lengths[w]), keys, ids, int(at[w]), base,
                index.mask_id, index.rank, index.prefix, index.start,
            )  # fmt: skip
        return keys, ids

    def owner_of(self, keys: npt.NDArray[np.integer]) -> tuple[npt.NDArray[np.int32], IntArray]:
        """The worker of each state of the layer (keys ``(p * C + mover) * C + opponent``)
        and its place in the sweep order (numbers that sort as the order does)."""
        owner = np.empty(keys.shape[0], dtype=np.int32)
        place = np.empty(keys.shape[0], dtype=np.int64)
        _owners(self.shape, self.wave_of, self.bounds, keys.astype(np.int64), owner, place)
        return owner, place

    def wave_of_place(self, place: IntArray) -> IntArray:
        """The wave of each place that :meth:`owner_of` gave."""
        perspectives, count = int(self.shape[1]), int(self.shape[3].shape[0])
        return np.asarray(place // (perspectives * count * count), dtype=np.int64)


def split_layer(geo: Geometry, index: StateIndex, layer: int, workers: int) -> LayerSplit:
    """The split of ``layer`` among ``workers`` (:class:`LayerSplit`): each wave's states
    counted by opponent, and each run's first state found by its place."""
    shape = layer_shape(geo, index, layer)
    progress_classes = index.progress_classes
    count = int(index.borne.shape[0])
    counts = np.empty(count, dtype=np.int64)
    totals: list[int] = []
    seconds: list[bool] = []
    runs: list[IntArray] = []
    bounds: list[IntArray] = []
    wave_of = np.full(2 * (2 * progress_classes - 1), -1, dtype=np.int64)
    for total in range(2 * progress_classes - 2, -1, -1):
        for second in (False, True):
            size = int(opponent_counts(shape, total, second, counts))
            if size == 0:
                continue
            wave_of[2 * total + int(second)] = len(totals)
            cut = np.concatenate(([0], np.cumsum(counts)))
            places = wave_runs(np.array([0, size], dtype=np.int64), workers)[0]
            row = np.full(workers + 1, PAST_EVERY, dtype=np.int64)
            for r in range(workers):
                if places[r] < size:
                    j = int(np.searchsorted(cut, places[r], side="right")) - 1
                    row[r] = nth_state(shape, total, second, j, int(places[r] - cut[j]))
            totals.append(total)
            seconds.append(second)
            runs.append(places)
            bounds.append(row)
    return LayerSplit(
        shape,
        workers,
        np.array(totals, dtype=np.int64),
        np.array(seconds, dtype=np.bool_),
        np.array(runs, dtype=np.int64).reshape(-1, workers + 1),
        np.array(bounds, dtype=np.int64).reshape(-1, workers + 1),
        wave_of,
    )
