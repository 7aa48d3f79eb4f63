"""A layer's sweep order: its states wave by wave, listed or counted from the index's tables
(:mod:`generator.solver.solve_index`) without visiting any state twice. The sweeps that read it
are :mod:`generator.solver.solve_sweeps`."""

from __future__ import annotations

import numpy as np
from numba import njit

from generator.sim.kernel_moves import kernel
from generator.solver.solve_sweeps import state_id

LayerShape = tuple[
    int, int, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int
]
"""What decides a layer's states: (layer, perspectives, pieces, and the index's borne,
progress, valid, mask, class_start, class_members and progress_classes;
:class:`generator.solver.solve_index.StateIndex`)."""


@kernel(inline="always", _nrt=False)
def second_of_pair(
    p: int, i: int, j: int, perspectives: int, valid: np.ndarray, mask: np.ndarray
) -> bool:
    """Whether the state (``p``, mover ``i``, opponent ``j``) is the second of its pair (a
    state and its swap, the same pieces with the other side to move), whose wave comes after
    its partner's (:func:`layer_order`)."""
    partner = (1 - p) if perspectives == 2 else 0
    paired = valid[partner, j] and valid[1 - partner, i]
    paired = paired and mask[partner, j] & mask[1 - partner, i] == 0
    paired = paired and (perspectives == 2 or i != j)
    first = (p == 0) if perspectives == 2 else (i < j)
    return bool(paired and not first)


@njit(cache=True)
def _wave_part(
    total: int, second: bool, shape: LayerShape, keys: np.ndarray, counting: bool
) -> int:
    """The states of total progress ``total`` that come first in their pair (a state and its
    swap, the same pieces with the other side to move), or with ``second`` their partners,
    as keys ``(p * C + mover) * C + opponent`` into ``keys`` (unless ``counting``); returns
    how many."""
    (
        layer, perspectives, pieces, borne, progress, valid, mask, class_start, class_members,
        progress_classes,
    ) = shape  # fmt: skip
    count = borne.shape[0]
    k = 0
    for p in range(perspectives):
        for i in range(count):
            if not valid[p, i]:
                continue
            b = layer - borne[i]
            q = total - progress[i]
            if b < 0 or b >= pieces or q < 0 or q >= progress_classes:
                continue
            c = b * progress_classes + q
            for e in range(class_start[1 - p, c], class_start[1 - p, c + 1]):
                j = class_members[1 - p, e]
                if mask[p, i] & mask[1 - p, j] != 0:
                    continue
                if second != second_of_pair(p, i, j, perspectives, valid, mask):
                    continue
                if not counting:
                    keys[k] = (p * count + i) * count + j
                k += 1
    return k


@njit(cache=True)
def wave_sizes(shape: LayerShape) -> tuple[int, int, int]:
    """The layer's (states, waves, largest wave) in the order of :func:`layer_order`, counted
    without listing it. (A kernel of its own: it compiles in a fraction of the time of
    :func:`layer_order`, and a build that only estimates small solves needs no more.)"""
    progress_classes = shape[9]
    nowhere = np.empty(0, dtype=np.int64)
    states = waves = largest = 0
    for total in range(2 * progress_classes - 2, -1, -1):
        for second in (False, True):
            found = _wave_part(total, second, shape, nowhere, True)
            if found > 0:
                states += found
                waves += 1
                largest = max(largest, found)
    return states, waves, largest


@njit(cache=True)
def layer_order(
    shape: LayerShape,
    order: np.ndarray,
    places: np.ndarray,
    wave_start: np.ndarray,
    base: int,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> tuple[int, int, int]:
    """Fill ``order`` with the layer's states as keys ``(p * C + mover) * C + opponent``,
    wave by wave, ``places`` with each state's id minus ``base``, and ``wave_start`` with
    each wave's first place (one more entry at the end), sized by :func:`wave_sizes`.
    Returns (states, waves, largest wave).

    Waves go by total progress, highest first (a move that captures nothing raises it, so
    most successors are already updated). Each total gives two waves: first one state of
    each pair (a state and its swap, the other side to move after a pass), then the
    partners, which so read the first's new value (updating both from old values could
    swing for ever where both sides may pass). Within a wave the states are sorted by the
    opponent: the successors of a move that captures nothing are the opponent's states
    (:mod:`generator.solver.solve_index` numbers a mover's states together), so neighbours in
    the order read the same few thousand values, from the processor's cache."""
    perspectives, borne, progress_classes = shape[1], shape[3], shape[9]
    count = borne.shape[0]
    k = 0
    waves = 0
    largest = 0
    for total in range(2 * progress_classes - 2, -1, -1):
        for second in (False, True):
            found = _wave_part(total, second, shape, order[k:], False)
            if found == 0:
                continue
            wave = order[k : k + found]
            keys = wave.astype(np.int64)
            p = keys // (count * count)
            i = (keys // count) % count
            j = keys % count
            wave[:] = wave[np.argsort((j * perspectives + p) * count + i)]
            for a in range(k, k + found):
                key = order[a]
                p_a = key // (count * count)
                places[a] = (
                    state_id(
                        p_a, (key // count) % count, key % count, borne, mask_id, rank,
                        prefix, start,
                    )
                    - base
                )  # fmt: skip
            wave_start[waves] = k
            k += found
            waves += 1
            largest = max(largest, found)
    wave_start[waves] = k
    return k, waves, largest
