"""A perfect index of a game's unfinished positions, layer by layer, from small tables.

A state pairs the mover's configuration ``i`` with the opponent's ``j``
(:mod:`generator.solver.solve_space`); it is possible when each side respects its stacking limit
and no cell holds pieces of both sides. Only cells both routes use can be shared, so a
configuration's *mask* (the shared cells it occupies) decides whom it can meet: ``i`` and ``j``
fit exactly when their masks are disjoint. States are numbered without gaps:

* by *layer* ``L`` (pieces borne off by both sides: moves never lower it, and bearing off
  raises it by one), so a layer's values are contiguous and a solve needs only two layers;
* within a layer by perspective ``p`` and the mover ``i``;
* within a mover's row by the opponent's mask and then its id, among the opponent's
  configurations with ``L - borne(i)`` pieces borne off whose masks fit ``i``'s.

So ``id(p, i, j) = start[p, i, L] + prefix[p, borne(j), mask(i), mask(j)] + rank(j)``, where
``prefix`` counts the fitting opponents of earlier masks and ``rank`` is ``j``'s place among
the opponent configurations of its mask and borne count. The tables take
``perspectives * configurations * layers`` and ``perspectives * pieces * masks ** 2`` numbers,
not one per state.

Positions are swept in *waves* of equal total progress (both sides' progress summed), highest
first: a move that captures nothing raises the total, so within a sweep most successors of a
wave were already updated (:func:`generator.solver.solve_waves.layer_order`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from generator.solver.solve_space import BoolArray, Configurations, Geometry, IntArray

MAX_SHARED_CELLS = 62
"""Masks are 64-bit integers."""


class IndexRefused(ValueError):
    """The routes share more cells than a mask can hold."""


@dataclass(frozen=True)
class StateIndex:
    """The perfect index's tables (see the module's docstring)."""

    perspectives: int
    pieces: int
    borne: IntArray
    """``[config]`` pieces borne off."""
    progress: IntArray
    """``[config]`` summed progress of the pieces."""
    valid: BoolArray
    """``[side, config]``: the side can hold this configuration in an unfinished game."""
    mask: IntArray
    """``[side, config]``: bits of the shared cells occupied."""
    mask_id: IntArray
    """``[side, config]``: the mask's number among the side's masks."""
    rank: IntArray
    """``[side, config]``: place among the side's configurations of equal borne and mask."""
    prefix: npt.NDArray[np.int32]
    """``[p, borne, mover mask, opponent mask]``: fitting opponents of earlier masks."""
    start: IntArray
    """``[p, mover, layer]``: the id of the mover's first state in the layer."""
    layer_base: IntArray
    """``[layer]``: the layer's first id; the last entry is the number of states."""
    class_start: IntArray
    """``[side, class + 1]``: configurations of class ``borne * progress_classes + progress``
    are ``class_members[side, class_start[side, c]:class_start[side, c + 1]]``."""
    class_members: IntArray
    progress_classes: int

    @property
    def states(self) -> int:
        return int(self.layer_base[-1])

    @property
    def layer_sizes(self) -> IntArray:
        return np.diff(self.layer_base)

    def state_id(self, p: int, mover: int, opponent: int) -> int:
        """The id of the state (``-1`` when it is impossible or finished)."""
        if not (self.valid[p, mover] and self.valid[1 - p, opponent]):
            return -1
        if self.mask[p, mover] & self.mask[1 - p, opponent]:
            return -1
        layer = int(self.borne[mover] + self.borne[opponent])
        return int(
            self.start[p, mover, layer]
            + self.prefix[
                p, self.borne[opponent], self.mask_id[p, mover], self.mask_id[1 - p, opponent]
            ]
            + self.rank[1 - p, opponent]
        )


@dataclass(frozen=True)
class _Sides:
    """Per side: validity, masks, mask numbers, and counts by (borne, mask)."""

    borne: IntArray
    progress: IntArray
    valid: BoolArray
    mask: IntArray
    masks: list[IntArray]
    mask_id: IntArray
    counts: list[IntArray]
    """``counts[side][borne, mask id]``."""


def _sides(geo: Geometry, configs: Configurations) -> _Sides:
    table = configs.table
    n = geo.pieces
    used = [set(geo.cells[side][geo.cells[side] >= 0].tolist()) for side in range(2)]
    shared = sorted(used[0] & used[1])
    if len(shared) > MAX_SHARED_CELLS:
        raise IndexRefused(
            f"the routes share {len(shared)} cells; the solver handles at most {MAX_SHARED_CELLS}"
        )
    bit = np.zeros(int(geo.cells.max()) + 2, dtype=np.int64)
    bit[shared] = np.left_shift(1, np.arange(len(shared), dtype=np.int64))
    borne = (table == geo.off).sum(axis=1).astype(np.int64)
    progress = table.sum(axis=1).astype(np.int64)
    valid = np.zeros((2, configs.count), dtype=np.bool_)
    mask = np.zeros((2, configs.count), dtype=np.int64)
    mask_id = np.zeros((2, configs.count), dtype=np.int64)
    masks: list[IntArray] = []
    counts: list[IntArray] = []
    for side in range(2):
        cell = geo.cells[side][table]
        within_limit = np.ones(configs.count, dtype=np.bool_)
        for c in sorted(used[side]):
            within_limit &= (cell == c).sum(axis=1) <= geo.stack_limit
        mask[side] = np.bitwise_or.reduce(np.where(cell >= 0, bit[cell], 0), axis=1)
        valid[side] = within_limit & (borne < n)
        distinct = np.unique(mask[side][valid[side]])
        masks.append(distinct)
        mask_id[side] = np.clip(np.searchsorted(distinct, mask[side]), 0, len(distinct) - 1)
        count = np.zeros((n, len(distinct)), dtype=np.int64)
        np.add.at(count, (borne[valid[side]], mask_id[side][valid[side]]), 1)
        counts.append(count)
    return _Sides(borne, progress, valid, mask, masks, mask_id, counts)


def _fitting(sides: _Sides, p: int) -> npt.NDArray[np.int64]:
    """``[borne, mover mask, opponent mask + 1]``: opponents of earlier masks that fit."""
    fits = (sides.masks[p][:, None] & sides.masks[1 - p][None, :]) == 0
    count = sides.counts[1 - p]
    prefix = np.zeros((count.shape[0], fits.shape[0], fits.shape[1] + 1), dtype=np.int64)
    for b in range(count.shape[0]):
        np.cumsum(fits * count[b][None, :], axis=1, out=prefix[b, :, 1:])
    return prefix


def _rows(sides: _Sides, p: int, fitting_totals: IntArray) -> IntArray:
    """``[mover, layer]``: how many states the mover's row holds in each layer.

    ``fitting_totals[borne, mover mask]`` counts the fitting opponents with that many borne."""
    n = fitting_totals.shape[0]
    layers = 2 * n - 1
    rows = np.zeros((sides.borne.shape[0], layers), dtype=np.int64)
    movers = np.flatnonzero(sides.valid[p])
    for layer in range(layers):
        opponent_borne = layer - sides.borne[movers]
        ok = (opponent_borne >= 0) & (opponent_borne < n)
        chosen = movers[ok]
        rows[chosen, layer] = fitting_totals[opponent_borne[ok], sides.mask_id[p][chosen]]
    return rows


def build_index(geo: Geometry, configs: Configurations) -> StateIndex:
    """The perfect index of ``geo``'s unfinished positions."""
    sides = _sides(geo, configs)
    n, count = geo.pieces, configs.count
    masks = max(len(m) for m in sides.masks)
    layers = 2 * n - 1
    prefix = np.zeros((geo.perspectives, n, masks, masks + 1), dtype=np.int32)
    rows = []
    for p in range(geo.perspectives):
        fitting = _fitting(sides, p)
        if fitting[:, :, -1].max(initial=0) >= 2**31:
            raise IndexRefused("a mover's row would overflow the 32-bit index tables")
        prefix[p, :, : fitting.shape[1], : fitting.shape[2]] = fitting
        rows.append(_rows(sides, p, fitting[:, :, -1]))
    sizes = sum(row.sum(axis=0) for row in rows)
    layer_base = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    start = np.zeros((geo.perspectives, count, layers), dtype=np.int64)
    before = layer_base[:-1].copy()
    for p, row in enumerate(rows):
        start[p] = before[None, :] + np.cumsum(row, axis=0) - row
        before += row.sum(axis=0)
    rank = np.zeros((2, count), dtype=np.int64)
    classes = n * int(sides.progress.max() + 1)
    progress_classes = int(sides.progress.max() + 1)
    class_start = np.zeros((2, classes + 1), dtype=np.int64)
    class_members = np.full((2, count), -1, dtype=np.int64)
    for side in range(2):
        members = np.flatnonzero(sides.valid[side])
        group = sides.borne[members] * masks + sides.mask_id[side][members]
        order = members[np.lexsort((members, group))]
        keys = sides.borne[order] * masks + sides.mask_id[side][order]
        rank[side, order] = np.arange(order.size) - np.searchsorted(keys, keys, side="left")
        key = sides.borne[members] * progress_classes + sides.progress[members]
        by_class = members[np.lexsort((members, key))]
        class_members[side, : by_class.size] = by_class
        sorted_keys = sides.borne[by_class] * progress_classes + sides.progress[by_class]
        class_start[side] = np.searchsorted(sorted_keys, np.arange(classes + 1), side="left")
    return StateIndex(
        perspectives=geo.perspectives,
        pieces=n,
        borne=sides.borne,
        progress=sides.progress,
        valid=sides.valid,
        mask=sides.mask,
        mask_id=sides.mask_id,
        rank=rank,
        prefix=prefix,
        start=start,
        layer_base=layer_base,
        class_start=class_start,
        class_members=class_members,
        progress_classes=progress_classes,
    )
