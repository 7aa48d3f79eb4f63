"""Native kernels that solve a layer without storing its moves, on every core.

Successors are generated when needed (from the move table,
:func:`generator.solver.solve_moves.table_successors`, which the simulator's rules kernel fills)
and found by the perfect index (:mod:`generator.solver.solve_index`).
A layer is solved by *modified policy iteration*: a Bellman sweep takes the best option of
each throw (the first of equal value, in the engine's order), stores that choice (4 bytes per
position and throw) and updates the values; then cheap sweeps evaluate the stored choices until
the values move much less than in the Bellman sweep; repeat until a Bellman sweep changes no
value by more than the tolerance (the stopping rule of plain value iteration). A Bellman sweep
generates a throw's moves only where its choice could have changed: each state and throw
records by how much its best option led the others, and while the values have moved by less
than half of that since, the stored choice stands (:func:`_bellman_wave`). The expected
length and the states where play can go on for ever are found from the final choices.

Sweeps run wave by wave (equal total progress, highest first, a state's swap in the next wave;
:func:`generator.solver.solve_waves.layer_order`). Within a wave the positions are split among
the threads, each reads the values the wave started with and the new values are written back
after the wave (Jacobi within a wave, Gauss-Seidel between waves), so the result does not
depend on the number of threads or their timing. Few successors lie in their own wave: a move
that captures nothing raises the total progress, a capture mostly lowers it, and a pass leads
to the swap, in the next wave.

After a full evaluation sweep, the error left is concentrated on a few positions (in
four-piece Finkel's largest layer, about 1 % of positions move by more than a thousandth of
the largest change; they are those where captures keep sending pieces back): those are swept
again on their own (:func:`hot_floor`, :func:`evaluate_hot`) before the next full sweep.
This is Gauss-Seidel in another order, so where moving is compulsory (the fixed point is
unique) it converges to the same values, in fewer full sweeps.

A stored choice is ``WIN_CODE`` (the move bears off the last piece) or
``2 * (successor id - layer base) + keeps turn``: below the layer's size it is in this layer,
above it in the next (a move bears off at most one piece).
"""

from __future__ import annotations

import math
import os
import types
from collections.abc import Callable
from typing import Any

# Threads waiting at the end of a wave sleep instead of spinning: on a machine shared with
# other work a spinning thread burns the processor time another needs (set before numba starts
# its OpenMP threads, at the first parallel call).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
from numba import njit, prange

from generator.sim.kernel_moves import MAX_MOVES, header, kernel
from generator.solver.solve_moves import WIN, MoveArrays, table_successors

# The helpers called once per option or throw (state_id, _option, _worth, _backup, _stands, and
# solve_moves' load_state, config_id and successors) are inlined and skip numba's reference
# counting of their array arguments, as the simulator's kernel does
# (generator.sim.kernel_moves.kernel): as plain calls, passing their arrays cost a quarter of a
# solve's processor time (four-piece Finkel, one run each: 91.9 s before, 68.0 s after, the same
# bits).

WIN_CODE = np.uint32(2**32 - 1)
CODED_STATES = 2**31 - 1
"""A stored choice names its successor in 32 bits, ``2 * place + again`` (:func:`_option`),
with :data:`WIN_CODE` kept for a win: it names fewer than this many states of a layer and the
next, and a layer solve with more is refused."""
CHUNKS = 64
"""Pieces a wave is cut into for the threads (any number gives the same result)."""


@kernel(inline="always", _nrt=False)
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
    """:meth:`generator.solver.solve_index.StateIndex.state_id` for a possible state."""
    b = borne[opponent]
    return int(
        start[p, mover, borne[mover] + b]
        + prefix[p, b, mask_id[p, mover], mask_id[1 - p, opponent]]
        + rank[1 - p, opponent]
    )


NO_SLOTS = (np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.int64))
"""The slot map of a process that holds every state of a layer and the next (the single
process), which :func:`bellman_wave` does not read: a state's slot is its place."""


@kernel(inline="always", _nrt=False)
def _bits_below(word: np.uint64, bit: int) -> int:
    """How many of ``word``'s bits below ``bit`` are set (a population count, by halves)."""
    x = word & ((np.uint64(1) << np.uint64(bit)) - np.uint64(1))
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel(inline="always", _nrt=False)
def slot(place: int, held: np.ndarray, ranks: np.ndarray) -> int:
    """Where a process that keeps only some states (a worker of a distributed solve keeps
    those its share writes and reads, :mod:`generator.solver.cluster_layer`) keeps the state
    ``place`` states past the layer's first: at its rank among the kept states. ``held`` has a
    bit a state of the layer and the next, set where it is kept, and ``ranks[w]`` counts the
    kept states before word ``w``."""
    word = place >> 6
    return int(ranks[word]) + _bits_below(held[word], place & 63)


@kernel(inline="always", _nrt=False)
def _option(
    mover: int,
    opponent: int,
    keep: bool,
    p: int,
    next_p: int,
    origin: int,
    base: int,
    values: np.ndarray,
    held: np.ndarray,
    ranks: np.ndarray,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> tuple[np.uint32, float]:
    """The stored code and the mover's value of one option, where the process holds every
    state of the layer and the next: a successor's place is its id less the layer's first id
    ``origin``, its value at ``base`` plus its place in ``values`` (``held`` and ``ranks`` are
    not read: :func:`_option_slotted` reads them)."""
    if mover == WIN:
        return WIN_CODE, 1.0
    if keep:
        target = state_id(p, mover, opponent, borne, mask_id, rank, prefix, start) - origin
        return np.uint32(2 * target + 1), values[base + target]
    target = state_id(next_p, opponent, mover, borne, mask_id, rank, prefix, start) - origin
    return np.uint32(2 * target), 1.0 - values[base + target]


@kernel(inline="always", _nrt=False)
def _option_slotted(
    mover: int,
    opponent: int,
    keep: bool,
    p: int,
    next_p: int,
    origin: int,
    base: int,
    values: np.ndarray,
    held: np.ndarray,
    ranks: np.ndarray,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> tuple[np.uint32, float]:
    """:func:`_option` for a process that keeps only some states (a worker of a distributed
    solve): the successor is named, and its value read, by its slot (:func:`slot`)."""
    if mover == WIN:
        return WIN_CODE, 1.0
    if keep:
        target = state_id(p, mover, opponent, borne, mask_id, rank, prefix, start)
        at = slot(target - origin, held, ranks)
        return np.uint32(2 * at + 1), values[base + at]
    target = state_id(next_p, opponent, mover, borne, mask_id, rank, prefix, start)
    at = slot(target - origin, held, ranks)
    return np.uint32(2 * at), 1.0 - values[base + at]


@njit(cache=True)
def _chunk(first: int, last: int, c: int, chunks: int) -> tuple[int, int]:
    """The places of chunk ``c`` of the wave ``first:last``."""
    size = last - first
    return first + size * c // chunks, first + size * (c + 1) // chunks


@kernel(inline="always", _nrt=False)
def _worth(code: int, values: np.ndarray, base: int) -> float:
    """What a stored choice is worth to the mover: ``1`` for a win, the successor's value
    when the mover throws again, else one minus it."""
    if code == WIN_CODE:
        return 1.0
    value = float(values[base + (code >> 1)])
    return value if code & 1 else 1.0 - value


@kernel(inline="always", _nrt=False)
def _backup(
    k: int, policy: np.ndarray, probs: np.ndarray, values: np.ndarray, base: int, lengths: bool
) -> float:
    """The backup of the state at place ``k`` of the order under its stored choices: the win
    probability, or with ``lengths`` the expected throws left (``1 + sum p * E(next)``, ``0``
    after a win). The same sums, in the same order, as a Bellman backup that picks them."""
    throws = probs.shape[0]
    total = 1.0 if lengths else 0.0
    for t in range(throws):
        code = policy[k * throws + t]
        if not lengths:
            total += probs[t] * _worth(code, values, base)
        elif code != WIN_CODE:
            total += probs[t] * values[base + (code >> 1)]
    return total


MARGIN = 1e-9
"""Kept below a recorded lead (:func:`_bellman_wave`): far more than the rounding of the
values' sums (1e-15)."""

ALWAYS = 255
"""A throw's record when it has one option: its choice always stands."""
SHIFT = 4
"""A throw's record is ``sweep << SHIFT | e``: in Bellman sweep ``sweep`` (1 to 15), its best
option led the next by at least ``2 * 2**-(e + 1)``; ``0``: no lead recorded."""


@kernel(inline="always", _nrt=False)
def _stands(record: int, drift: float, drift_at: np.ndarray) -> bool:
    """Whether a throw's stored choice still stands: the values have moved by less than half
    its recorded lead since it was recorded."""
    if record == ALWAYS:
        return drift < np.inf
    sweep = record >> SHIFT
    return sweep > 0 and drift - drift_at[sweep] < 2.0 ** -((record & 15) + 1)


@kernel(_nrt=False)
def _record(lead: float, sweep: int) -> int:
    """The record of a throw whose best option led the next by ``lead`` in Bellman sweep
    ``sweep`` (:data:`SHIFT`): the largest power of two at most half of it, less the margin."""
    if lead == np.inf:
        return ALWAYS
    half = lead / 2 - MARGIN
    if sweep >= 15 or half < 2.0**-16:
        return 0
    e = 0
    while 2.0 ** -(e + 1) > half:
        e += 1
    return (sweep << SHIFT) | e


def _bellman_wave(
    first: int,
    last: int,
    order: np.ndarray,
    origin: int,
    base: int,
    values: np.ndarray,
    held: np.ndarray,
    ranks: np.ndarray,
    policy: np.ndarray,
    settled: np.ndarray,
    sweep: int,
    drift: float,
    drift_at: np.ndarray,
    new_values: np.ndarray,
    packed: np.ndarray,
    count: int,
    table_arrays: MoveArrays,
    probs: np.ndarray,
    perspectives: int,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> None:
    """Bellman sweep ``sweep`` (from 1) over the wave ``order[first:last]``: new values into
    ``new_values``, the best option of each throw into ``policy`` (row ``k`` of the order).
    :func:`commit_wave` writes the values and measures the change. A successor's value is read
    at ``base`` plus its place (its id less the layer's first, ``origin``) in ``values``, or in
    :data:`bellman_wave_slotted` its slot (:func:`slot`).

    ``drift`` bounds how far any value of the layer has moved since its solve began (the sum
    of each earlier sweep's largest change, and this sweep's so far); ``drift_at[r]`` is its
    part before Bellman sweep ``r``. A throw whose best option led the next by ``lead`` when
    its moves were last generated keeps its choice while the values have moved by less than
    half of that since (no option can have gained ``lead`` on it); ``settled`` records it, a
    byte a state and throw (:func:`_record`). Such a throw is backed up from its stored choice
    without generating its moves, which gives the same bits as generating them."""
    size = last - first
    chunks = min(CHUNKS, size)
    throws = probs.shape[0]
    for c in prange(chunks):
        K = header(packed)
        movers = np.zeros(MAX_MOVES, dtype=np.int64)
        opponents = np.zeros(MAX_MOVES, dtype=np.int64)
        keeps = np.zeros(MAX_MOVES, dtype=np.bool_)
        lo, hi = _chunk(first, last, c, chunks)
        for k in range(lo, hi):
            row = k * throws
            key = order[k]
            p = key // (count * count)
            i = (key // count) % count
            j = key % count
            next_p = (1 - p) if perspectives == 2 else 0
            total = 0.0
            for t in range(throws):
                if _stands(settled[row + t], drift, drift_at):
                    total += probs[t] * _worth(policy[row + t], values, base)
                    continue
                found = table_successors(
                    K, packed, table_arrays, count, throws, i, j, p, t, movers, opponents, keeps
                )
                best = -1.0
                runner_up = -np.inf
                pick = WIN_CODE
                for m in range(found):
                    code, value = _option(
                        movers[m], opponents[m], keeps[m], p, next_p, origin, base, values,
                        held, ranks, borne, mask_id, rank, prefix, start,
                    )  # fmt: skip
                    if value > best:
                        runner_up = best if m > 0 else runner_up
                        best = value
                        pick = code
                    elif value > runner_up:
                        runner_up = value
                policy[row + t] = pick
                settled[row + t] = _record(best - runner_up, sweep)
                total += probs[t] * best
            new_values[k - first] = total


@kernel(inline="always", _nrt=False)
def _magnitude(change: float) -> np.uint8:
    """A change's binary exponent, shifted into a byte (``0``: no change): changes of the
    same magnitude share a code, and a code ten less is about a thousand times smaller."""
    if change == 0.0 or not np.isfinite(change):
        return np.uint8(0)
    return np.uint8(min(255, max(1, math.frexp(change)[1] + 128)))


def _evaluate_wave(
    first: int,
    last: int,
    policy: np.ndarray,
    probs: np.ndarray,
    values: np.ndarray,
    base: int,
    new_values: np.ndarray,
    lengths: bool,
) -> None:
    """One backup of the wave under the stored choices (:func:`_backup`) into
    ``new_values``; :func:`commit_wave` writes them and measures the change. (A state whose
    length is infinite backs up to infinity: some choice of it leads to such a state.)"""
    size = last - first
    chunks = min(CHUNKS, size)
    for c in prange(chunks):
        lo, hi = _chunk(first, last, c, chunks)
        for k in range(lo, hi):
            new_values[k - first] = _backup(k, policy, probs, values, base, lengths)


def _commit_wave(
    first: int,
    last: int,
    base: int,
    values: np.ndarray,
    new_values: np.ndarray,
    places: np.ndarray,
    moved: np.ndarray,
) -> float:
    """Write the wave's new values, record each state's change in ``moved`` (row ``k`` of
    the order, :func:`_magnitude`) and return the largest. The old value is read here, where
    it is overwritten, not in the sweep: the states of a wave lie far apart in the array, and
    each read costs a trip to memory."""
    size = last - first
    chunks = min(CHUNKS, size)
    worst = np.zeros(chunks)
    for c in prange(chunks):
        change = 0.0
        lo, hi = _chunk(first, last, c, chunks)
        for k in range(lo, hi):
            own = base + places[k]
            new = new_values[k - first]
            old = values[own]
            step = 0.0 if new == old else abs(new - old)  # an endless length stays infinite
            values[own] = new
            moved[k] = _magnitude(step)
            change = max(change, step)
        worst[c] = change
    return float(worst.max())


@njit(cache=True)
def hot_floor(moved: np.ndarray, spread: int) -> tuple[int, int]:
    """The smallest code (:func:`_magnitude`) within ``2**spread`` of the largest change, and
    how many states have at least that code: the hot states."""
    top = 0
    for k in range(moved.shape[0]):
        top = max(top, int(moved[k]))
    floor = max(1, top - spread)
    count = 0
    for k in range(moved.shape[0]):
        if moved[k] >= floor:
            count += 1
    return floor, count


@njit(cache=True)
def evaluate_hot(
    moved: np.ndarray,
    floor: int,
    places: np.ndarray,
    base: int,
    values: np.ndarray,
    policy: np.ndarray,
    probs: np.ndarray,
    lengths: bool,
) -> float:
    """One backup of the hot states (``moved`` at least ``floor``), in the sweep order and in
    place (Gauss-Seidel: each reads the values just written). Returns the largest change."""
    # One thread, in place. Swept wave by wave on both cores instead (Jacobi within a wave,
    # as the full sweeps), seven-piece Finkel's layer 6 spent 45.6 s here, not 27.2 s: each
    # wave wakes both threads twice, and Jacobi needs more sweeps (commit 201b4d3, reverted).
    worst = 0.0
    for k in range(moved.shape[0]):
        if moved[k] < floor:
            continue
        own = base + places[k]
        if lengths and not np.isfinite(values[own]):
            continue
        total = _backup(k, policy, probs, values, base, lengths)
        worst = max(worst, abs(total - values[own]))
        values[own] = total
    return worst


PARALLEL_WAVE = 20_000
"""Waves smaller than this run on one thread (same result: the waves are cut into the same
chunks either way); starting the threads costs more than they save."""


def _named(
    function: Callable[..., Any], name: str, **bound: Callable[..., Any]
) -> Callable[..., Any]:
    """``function`` under another name, with the module's functions named in ``bound``
    replaced. Numba's on-disk cache files a compiled function by its module, name and line,
    not by its options: compiled twice, once with ``parallel=True`` and once without, under one
    name, whichever was cached first was loaded for both, and the parallel sweeps ran on one
    thread."""
    code = function.__code__.replace(co_name=name, co_qualname=name)
    scope = {**function.__globals__, **bound} if bound else function.__globals__
    twin = types.FunctionType(code, scope, name, function.__defaults__)
    twin.__qualname__ = name
    twin.__doc__ = function.__doc__
    return twin


bellman_wave = njit(cache=True, parallel=True)(_named(_bellman_wave, "bellman_wave"))
evaluate_wave = njit(cache=True, parallel=True)(_named(_evaluate_wave, "evaluate_wave"))
commit_wave = njit(cache=True, parallel=True)(_named(_commit_wave, "commit_wave"))
bellman_wave_serial = njit(cache=True)(_named(_bellman_wave, "bellman_wave_serial"))
# A worker of a distributed solve reads successors by slot. Its own kernels, not a branch in
# the single process's: the slot lookup in bellman_wave, even never taken, made its sweeps
# 2.4 times slower (four-piece Finkel, bench/solver_sweeps.py, 2,223 against 884 ns a state).
bellman_wave_slotted = njit(cache=True, parallel=True)(
    _named(_bellman_wave, "bellman_wave_slotted", _option=_option_slotted)
)
bellman_wave_slotted_serial = njit(cache=True)(
    _named(_bellman_wave, "bellman_wave_slotted_serial", _option=_option_slotted)
)
evaluate_wave_serial = njit(cache=True)(_named(_evaluate_wave, "evaluate_wave_serial"))
commit_wave_serial = njit(cache=True)(_named(_commit_wave, "commit_wave_serial"))
