"""Native kernels that solve a layer without storing its moves, on every core.

Successors are generated when needed (:func:`generator.sim.solve_moves.successors`, the
simulator's rules kernel) and found by the perfect index (:mod:`generator.sim.solve_index`).
A layer is solved by *modified policy iteration*: a Bellman sweep generates every move, takes
the best option of each throw (the first of equal value, in the engine's order), stores that
choice (4 bytes per position and throw) and updates the values; then cheap sweeps evaluate the
stored choices until the values move much less than in the Bellman sweep; repeat until a
Bellman sweep changes no value by more than the tolerance (the stopping rule of plain value
iteration). The expected length and the states where play can go on for ever are found from
the final choices.

Sweeps run wave by wave (equal total progress, highest first; :func:`layer_order`). Within a
wave the positions are split among the threads, each reads the values the wave started with
and the new values are written back after the wave (Jacobi within a wave, Gauss-Seidel between
waves), so the result does not depend on the number of threads or their timing.

A stored choice is ``WIN_CODE`` (the move bears off the last piece) or
``2 * (successor id - layer base) + keeps turn``: below the layer's size it is in this layer,
above it in the next (a move bears off at most one piece).
"""

from __future__ import annotations

import os

# Threads waiting at the end of a wave sleep instead of spinning: on a machine shared with
# other work a spinning thread burns the processor time another needs (set before numba starts
# its OpenMP threads, at the first parallel call).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
from numba import njit, prange

from generator.sim.fast import MAX_MOVES, MOVE_WIDTH, header
from generator.sim.solve_moves import WIN, load_state, successors

WIN_CODE = np.uint32(2**32 - 1)
CHUNKS = 64
"""Pieces a wave is cut into for the threads (any number gives the same result)."""


@njit(cache=True)
def state_id(
    p: int,
    mover: int,
    opponent: int,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> int:
    """:meth:`generator.sim.solve_index.StateIndex.state_id` for a possible state."""
    b = borne[opponent]
    return int(
        start[p, mover, borne[mover] + b]
        + prefix[p, b, mask_id[p, mover], mask_id[1 - p, opponent]]
        + rank[1 - p, opponent]
    )


@njit(cache=True)
def layer_order(
    layer: int,
    perspectives: int,
    pieces: int,
    borne: np.ndarray,
    progress: np.ndarray,
    valid: np.ndarray,
    mask: np.ndarray,
    class_start: np.ndarray,
    class_members: np.ndarray,
    progress_classes: int,
    order: np.ndarray,
    places: np.ndarray,
    wave_start: np.ndarray,
    counting: bool,
    base: int,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> tuple[int, int, int]:
    """Fill ``order`` with the layer's states as keys ``(p * C + mover) * C + opponent``,
    wave by wave (total progress from highest to lowest), ``places`` with each state's id
    minus ``base``, and ``wave_start`` with each wave's first place (one more entry at the
    end). A state and its swap (the same pieces, the other side to move) are neighbours, so
    that a thread updates both in turn: with passes between them, updating them together
    (Jacobi) could swing for ever. With ``counting``, only count. Returns (states, waves,
    largest wave)."""
    count = borne.shape[0]
    k = 0
    waves = 0
    largest = 0
    for total in range(2 * progress_classes - 2, -1, -1):
        begin = k
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
                    # The swapped state (the opponent to move, after a pass) follows its
                    # partner; it is listed once, with the partner that comes first.
                    partner = (1 - p) if perspectives == 2 else 0
                    paired = valid[partner, j] and valid[1 - partner, i]
                    paired = paired and mask[partner, j] & mask[1 - partner, i] == 0
                    first = (p == 0) if perspectives == 2 else (i <= j)
                    if paired and not first:
                        continue
                    if not counting:
                        order[k] = (p * count + i) * count + j
                        places[k] = state_id(p, i, j, borne, mask_id, rank, prefix, start) - base
                    k += 1
                    if paired and (perspectives == 2 or i != j):
                        if not counting:
                            order[k] = (partner * count + j) * count + i
                            places[k] = (
                                state_id(partner, j, i, borne, mask_id, rank, prefix, start) - base
                            )
                        k += 1
        if k > begin:
            if not counting:
                wave_start[waves] = begin
            waves += 1
            largest = max(largest, k - begin)
    if not counting:
        wave_start[waves] = k
    return k, waves, largest


@njit(cache=True)
def _swapped(key: int, count: int, perspectives: int) -> int:
    """The key of the state after a pass to the opponent."""
    p = key // (count * count)
    i = (key // count) % count
    j = key % count
    partner = (1 - p) if perspectives == 2 else 0
    return (partner * count + j) * count + i


@njit(cache=True)
def _unit_start(order: np.ndarray, first: int, k: int, count: int, perspectives: int) -> int:
    """``k``, or ``k + 1`` when ``order[k]`` is the second of a pair (pairs stay together)."""
    if k > first and k < order.shape[0]:
        key = order[k]
        if order[k - 1] == _swapped(key, count, perspectives) and order[k - 1] != key:
            return k + 1
    return k


@njit(cache=True)
def _value(target: int, values: np.ndarray, fresh_id: int, fresh_value: float) -> float:
    """``values[target]``, or the partner's value just computed in this wave."""
    return fresh_value if target == fresh_id else values[target]


@njit(cache=True)
def _option(
    mover: int,
    opponent: int,
    keep: bool,
    p: int,
    next_p: int,
    base: int,
    values: np.ndarray,
    fresh_id: int,
    fresh_value: float,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> tuple[np.uint32, float]:
    """The stored code and the mover's value of one option."""
    if mover == WIN:
        return WIN_CODE, 1.0
    if keep:
        target = state_id(p, mover, opponent, borne, mask_id, rank, prefix, start)
        return np.uint32(2 * (target - base) + 1), _value(target, values, fresh_id, fresh_value)
    target = state_id(next_p, opponent, mover, borne, mask_id, rank, prefix, start)
    return np.uint32(2 * (target - base)), 1.0 - _value(target, values, fresh_id, fresh_value)


@njit(cache=True)
def _chunk(
    first: int, last: int, c: int, chunks: int, order: np.ndarray, count: int, P: int
) -> tuple[int, int]:
    """The places of chunk ``c`` of the wave, never splitting a state from its swap."""
    size = last - first
    lo = _unit_start(order, first, first + size * c // chunks, count, P)
    hi = (
        last
        if c == chunks - 1
        else _unit_start(order, first, first + size * (c + 1) // chunks, count, P)
    )
    return lo, hi


@njit(cache=True)
def _fresh(
    k: int,
    lo: int,
    first: int,
    order: np.ndarray,
    count: int,
    perspectives: int,
    base: int,
    places: np.ndarray,
    new_values: np.ndarray,
) -> tuple[int, float]:
    """The swap partner updated just before ``order[k]`` in this chunk: (id, new value), or
    (-1, 0) when there is none."""
    if k > lo and order[k - 1] == _swapped(order[k], count, perspectives):
        return base + places[k - 1], new_values[k - 1 - first]
    return -1, 0.0


def _bellman_wave(
    first: int,
    last: int,
    order: np.ndarray,
    places: np.ndarray,
    base: int,
    values: np.ndarray,
    policy: np.ndarray,
    new_values: np.ndarray,
    packed: np.ndarray,
    table: np.ndarray,
    slot_piece: np.ndarray,
    group_start: np.ndarray,
    group_size: np.ndarray,
    group_stride: np.ndarray,
    binom: np.ndarray,
    code_to_config: np.ndarray,
    throw_values: np.ndarray,
    probs: np.ndarray,
    perspectives: int,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> float:
    """One Bellman backup of the wave ``order[first:last]``: new values into ``new_values``,
    the best option of each throw into ``policy`` (row ``k`` of the order); returns the largest
    change. :func:`commit_wave` writes the values."""
    size = last - first
    chunks = min(CHUNKS, size)
    worst = np.zeros(chunks)
    count, n = table.shape
    throws = throw_values.shape[0]
    for c in prange(chunks):
        K = header(packed)
        S = np.zeros(2 * K.pieces + 3 * K.cells, dtype=np.int64)
        scratch = np.zeros_like(S)
        mv = np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64)
        after = np.zeros(n, dtype=np.int64)
        movers = np.zeros(MAX_MOVES, dtype=np.int64)
        opponents = np.zeros(MAX_MOVES, dtype=np.int64)
        keeps = np.zeros(MAX_MOVES, dtype=np.bool_)
        change = 0.0
        lo, hi = _chunk(first, last, c, chunks, order, count, perspectives)
        for k in range(lo, hi):
            key = order[k]
            p = key // (count * count)
            i = (key // count) % count
            j = key % count
            next_p = (1 - p) if perspectives == 2 else 0
            fresh_id, fresh_value = _fresh(
                k, lo, first, order, count, perspectives, base, places, new_values
            )
            S[:] = 0
            load_state(K, packed, S, table, slot_piece, p, i)
            load_state(K, packed, S, table, slot_piece, 1 - p, j)
            total = 0.0
            for t in range(throws):
                found = successors(
                    K, packed, S, scratch, mv, after, table, slot_piece, group_start,
                    group_size, group_stride, binom, code_to_config, i, j, p, throw_values[t],
                    movers, opponents, keeps,
                )  # fmt: skip
                best = -1.0
                pick = WIN_CODE
                for m in range(found):
                    code, value = _option(
                        movers[m], opponents[m], keeps[m], p, next_p, base, values, fresh_id,
                        fresh_value, borne, mask_id, rank, prefix, start,
                    )  # fmt: skip
                    if value > best:
                        best = value
                        pick = code
                policy[k * throws + t] = pick
                total += probs[t] * best
            new_values[k - first] = total
            change = max(change, abs(total - values[base + places[k]]))
        worst[c] = change
    return float(worst.max())


def _evaluate_wave(
    first: int,
    last: int,
    order: np.ndarray,
    places: np.ndarray,
    base: int,
    values: np.ndarray,
    policy: np.ndarray,
    probs: np.ndarray,
    new_values: np.ndarray,
    lengths: bool,
    count: int,
    perspectives: int,
) -> float:
    """One backup of the wave under the stored choices: the win probability, or with
    ``lengths`` the expected throws left (``1 + sum p * E(next)``, ``0`` after a win; states
    already infinite are left alone). Returns the largest change."""
    size = last - first
    chunks = min(CHUNKS, size)
    worst = np.zeros(chunks)
    throws = probs.shape[0]
    for c in prange(chunks):
        change = 0.0
        lo, hi = _chunk(first, last, c, chunks, order, count, perspectives)
        for k in range(lo, hi):
            own = base + places[k]
            if lengths and not np.isfinite(values[own]):
                new_values[k - first] = values[own]
                continue
            fresh_id, fresh_value = _fresh(
                k, lo, first, order, count, perspectives, base, places, new_values
            )
            total = 1.0 if lengths else 0.0
            for t in range(throws):
                code = policy[k * throws + t]
                if code == WIN_CODE:
                    if not lengths:
                        total += probs[t]
                    continue
                value = _value(base + (code >> 1), values, fresh_id, fresh_value)
                if lengths or code & 1:
                    total += probs[t] * value
                else:
                    total += probs[t] * (1.0 - value)
            new_values[k - first] = total
            change = max(change, abs(total - values[own]))
        worst[c] = change
    return float(worst.max())


def _commit_wave(
    first: int, last: int, base: int, values: np.ndarray, new_values: np.ndarray, places: np.ndarray
) -> None:
    for k in prange(first, last):
        values[base + places[k]] = new_values[k - first]


PARALLEL_WAVE = 20_000
"""Waves smaller than this run on one thread (same result: the waves are cut into the same
chunks either way); starting the threads costs more than they save."""

bellman_wave = njit(cache=True, parallel=True)(_bellman_wave)
evaluate_wave = njit(cache=True, parallel=True)(_evaluate_wave)
commit_wave = njit(cache=True, parallel=True)(_commit_wave)
bellman_wave_serial = njit(cache=True)(_bellman_wave)
evaluate_wave_serial = njit(cache=True)(_evaluate_wave)
commit_wave_serial = njit(cache=True)(_commit_wave)


@njit(cache=True, parallel=True)
def mark_endless(
    base: int, size: int, places: np.ndarray, policy: np.ndarray, throws: int, lengths: np.ndarray
) -> int:
    """Set ``lengths`` to infinity for the layer's states from which, under the stored
    choices, the game can go on for ever, and return how many; the others start at 0.

    A state ends surely when some throw's choice wins or leads to a state that ends surely
    (in this layer, or a finite one in the next); the states that cannot reach the end, and
    every state whose choices can lead to one of them, are endless. Both are least fixed
    points, reached by repeated sweeps (the result does not depend on their order)."""
    ends = np.zeros(size, dtype=np.bool_)
    changed = 1
    while changed > 0:
        changed = 0
        for k in prange(size):
            a = places[k]
            if ends[a]:
                continue
            for t in range(throws):
                code = policy[k * throws + t]
                if code == WIN_CODE:
                    ends[a] = True
                else:
                    target = code >> 1
                    if target >= size:
                        if np.isfinite(lengths[base + target]):
                            ends[a] = True
                    elif ends[target]:
                        ends[a] = True
            if ends[a]:
                changed += 1
    endless = ~ends
    changed = 1
    while changed > 0:
        changed = 0
        for k in prange(size):
            a = places[k]
            if endless[a]:
                continue
            for t in range(throws):
                code = policy[k * throws + t]
                if code == WIN_CODE:
                    continue
                target = code >> 1
                if target >= size:
                    if not np.isfinite(lengths[base + target]):
                        endless[a] = True
                elif endless[target]:
                    endless[a] = True
            if endless[a]:
                changed += 1
    total = 0
    for a in range(size):
        if endless[a]:
            lengths[base + a] = np.inf
            total += 1
        else:
            lengths[base + a] = 0.0
    return total
