"""Native kernels of the exact solver: move generation, value iteration, expected length.

Moves come from the simulator's compiled rules (:mod:`generator.solver.solve_moves`, which calls
:func:`generator.sim.kernel_moves.legal_moves` and :func:`generator.sim.kernel_moves.apply_move`):
the rules exist once in native code. ``tests/test_solve.py`` checks the solved values against the
reference engine position by position. These kernels store every option of a layer, which is simple
and fast for small games (the exact policy evaluations read them);
:mod:`generator.solver.solve_sweeps` solves the large games without storing options.

An option is encoded as one integer: ``WIN`` when the move bears off the mover's last piece,
else ``2 * state + keeps_turn``. The value of an option for the mover is ``1`` (win),
``V[state]`` (the mover throws again) or ``1 - V[state]`` (the opponent is to move).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from generator.sim.kernel_moves import MAX_MOVES, MOVE_WIDTH, header
from generator.solver.solve_moves import WIN, load_state, successors

__all__ = ["WIN", "build_transitions", "classify_states", "iterate_values"]


@njit(cache=True)
def _side_ok(config: np.ndarray, cells_of_side: np.ndarray, stack_limit: int) -> bool:
    """No cell holds more of this side's pieces than the stacking limit (a route may revisit
    a cell, so distinct steps can share one)."""
    n = config.shape[0]
    for a in range(n):
        cell = cells_of_side[config[a]]
        if cell < 0:
            continue
        count = 0
        for b in range(n):
            if cells_of_side[config[b]] == cell:
                count += 1
        if count > stack_limit:
            return False
    return True


@njit(cache=True)
def classify_states(
    table: np.ndarray,
    cells: np.ndarray,
    off: int,
    stack_limit: int,
    perspectives: int,
) -> np.ndarray:
    """Layer of every state index (pieces borne off by both sides), ``-1`` when the state is
    impossible (two sides on one cell, a stack over the limit) or finished (a side is all off)."""
    count, n = table.shape
    borne = np.zeros(count, dtype=np.int64)
    ok = np.zeros((2, count), dtype=np.bool_)
    for c in range(count):
        for a in range(n):
            if table[c, a] == off:
                borne[c] += 1
        for side in range(2):
            ok[side, c] = _side_ok(table[c], cells[side], stack_limit)
    layer = np.full(perspectives * count * count, -1, dtype=np.int8)
    for p in range(perspectives):
        mine_side = p
        their_side = 1 - p
        for i in range(count):
            if borne[i] == n or not ok[mine_side, i]:
                continue
            for j in range(count):
                if borne[j] == n or not ok[their_side, j]:
                    continue
                clash = False
                for a in range(n):
                    cell = cells[mine_side, table[i, a]]
                    if cell < 0:
                        continue
                    for b in range(n):
                        if cells[their_side, table[j, b]] == cell:
                            clash = True
                if not clash:
                    layer[(p * count + i) * count + j] = borne[i] + borne[j]
    return layer


@njit(cache=True)
def build_transitions(
    states: np.ndarray,
    table: np.ndarray,
    code_to_config: np.ndarray,
    packed: np.ndarray,
    slot_piece: np.ndarray,
    throw_values: np.ndarray,
    group_start: np.ndarray,
    group_size: np.ndarray,
    group_stride: np.ndarray,
    binom: np.ndarray,
    perspectives: int,
    dense: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Options of every (state, throw) of a layer: ``options[row, :counts[row]]`` with
    ``row = state position * throws + throw index``, in the engine's move order (moves from
    :func:`generator.solver.solve_moves.successors`, the simulator's kernel). A row has at most
    one option per piece plus the pass. For small games (every state index in ``dense``);
    :mod:`generator.solver.solve_sweeps` solves large ones without storing options."""
    K = header(packed)
    count, n = table.shape
    throws = throw_values.shape[0]
    S = np.zeros(2 * K.pieces + 3 * K.cells, dtype=np.int64)
    scratch = np.zeros_like(S)
    mv = np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64)
    after = np.zeros(n, dtype=np.int64)
    movers = np.zeros(MAX_MOVES, dtype=np.int64)
    opponents = np.zeros(MAX_MOVES, dtype=np.int64)
    keeps = np.zeros(MAX_MOVES, dtype=np.bool_)
    rows = states.shape[0] * throws
    options = np.empty((rows, n + 1), dtype=np.int32)
    counts = np.empty(rows, dtype=np.int8)
    for a in range(states.shape[0]):
        state = states[a]
        p = state // (count * count)
        i = (state // count) % count
        j = state % count
        next_p = (1 - p) if perspectives == 2 else 0
        S[:] = 0
        load_state(K, packed, S, table, slot_piece, p, i)
        load_state(K, packed, S, table, slot_piece, 1 - p, j)
        for t in range(throws):
            row = a * throws + t
            found = successors(
                K,
                packed,
                S,
                scratch,
                mv,
                after,
                table,
                slot_piece,
                group_start,
                group_size,
                group_stride,
                binom,
                code_to_config,
                i,
                j,
                p,
                throw_values[t],
                movers,
                opponents,
                keeps,
            )
            if found > n + 1:
                raise AssertionError("solver bug: more options than pieces and a pass")
            for m in range(found):
                if movers[m] == WIN:
                    options[row, m] = WIN
                    continue
                if keeps[m]:
                    target = (p * count + movers[m]) * count + opponents[m]
                else:
                    target = (next_p * count + opponents[m]) * count + movers[m]
                ident = dense[target]
                if ident < 0:
                    raise AssertionError("solver bug: a move leads outside the solved space")
                options[row, m] = 2 * ident + (1 if keeps[m] else 0)
            counts[row] = found
    return options, counts


@njit(cache=True)
def option_worth(option: int, values: np.ndarray, opposite: np.ndarray) -> float:
    """What an option is worth to the mover: ``1`` for a win, the target's value in
    ``values`` when the mover throws again, else one minus its value in ``opposite`` (the
    same table in a solve; the other player's under policy evaluation)."""
    if option == WIN:
        return 1.0
    target = option >> 1
    if option & 1:
        return float(values[target])
    return 1.0 - float(opposite[target])


@njit(cache=True)
def iterate_values(
    base: int,
    size: int,
    options: np.ndarray,
    counts: np.ndarray,
    probs: np.ndarray,
    values: np.ndarray,
    tolerance: float,
    max_sweeps: int,
) -> tuple[int, float]:
    """Gauss-Seidel sweeps of V(s) = sum over throws of p * max over options, in place,
    until the largest change in a sweep is below ``tolerance``. Returns (sweeps, last change);
    sweeps is ``-1`` when ``max_sweeps`` passed without converging."""
    throws = probs.shape[0]
    change = 0.0
    for sweep in range(max_sweeps):
        change = 0.0
        for a in range(size):
            total = 0.0
            for t in range(throws):
                row = a * throws + t
                best = -1.0
                for o in range(counts[row]):
                    value = option_worth(options[row, o], values, values)
                    if value > best:
                        best = value
                total += probs[t] * best
            s = base + a
            delta = abs(total - values[s])
            if delta > change:
                change = delta
            values[s] = total
        if change < tolerance:
            return sweep + 1, change
    return -1, change


@njit(cache=True)
def choose_policy(
    size: int,
    options: np.ndarray,
    counts: np.ndarray,
    throws: int,
    values: np.ndarray,
    levels: int,
    last: bool,
) -> np.ndarray:
    """The optimal option per (state, throw): of the options of highest value, the first in
    the engine's move order (pieces by slot, then the pass), or the ``last``. With ``levels``
    above 0, values are first rounded to that many steps (as a player reading a table of
    rounded values ranks moves; ``scripts/perfect_length_by_policy.py``). The solver uses
    ``levels=0, last=False``."""
    chosen = np.empty(size * throws, dtype=np.int32)
    for row in range(chosen.shape[0]):
        best = -1.0
        pick = options[row, 0]
        for o in range(counts[row]):
            value = option_worth(options[row, o], values, values)
            if levels > 0:
                value = np.floor(value * levels + 0.5)
            if value > best or (last and value == best):
                best = value
                pick = options[row, o]
        chosen[row] = pick
    return chosen


@njit(cache=True)
def _spread_backwards(
    marked: np.ndarray, stack: np.ndarray, top: int, start: np.ndarray, source: np.ndarray
) -> None:
    """Mark every state that can reach a marked one: depth-first from the ``top`` states on
    ``stack``, over the reverse adjacency ``source[start[b]:start[b + 1]]`` (states stepping
    into ``b``)."""
    while top > 0:
        top -= 1
        b = stack[top]
        for e in range(start[b], start[b + 1]):
            a = source[e]
            if not marked[a]:
                marked[a] = True
                stack[top] = a
                top += 1


@njit(cache=True)
def mark_endless(base: int, size: int, chosen: np.ndarray, lengths: np.ndarray) -> int:
    """Set ``lengths`` to infinity for the layer's states from which, under the chosen policy,
    the game can go on for ever (e.g. both sides declining to move), and return how many.

    A state ends surely when every state it can reach can still reach the end; so: mark the
    states that can reach the end (a win, or an earlier-solved state that ends surely), then
    the states that can reach an unmarked state are endless. Both are backward searches over
    the policy's transitions.
    """
    throws = chosen.shape[0] // max(size, 1)
    edges = size * throws
    # Reverse adjacency of in-layer transitions, as compressed rows.
    start = np.zeros(size + 1, dtype=np.int64)
    for row in range(edges):
        option = chosen[row]
        if option != WIN and option >> 1 >= base:
            start[(option >> 1) - base + 1] += 1
    for a in range(size):
        start[a + 1] += start[a]
    fill = start[:-1].copy()
    source = np.empty(start[size], dtype=np.int64)
    for row in range(edges):
        option = chosen[row]
        if option != WIN and option >> 1 >= base:
            target = (option >> 1) - base
            source[fill[target]] = row // throws
            fill[target] += 1
    ends = np.zeros(size, dtype=np.bool_)
    stack = np.empty(size, dtype=np.int64)
    top = 0
    for row in range(edges):
        option = chosen[row]
        a = row // throws
        if ends[a]:
            continue
        if option == WIN or (option >> 1 < base and np.isfinite(lengths[option >> 1])):
            ends[a] = True
            stack[top] = a
            top += 1
    _spread_backwards(ends, stack, top, start, source)
    endless = np.zeros(size, dtype=np.bool_)
    top = 0
    for a in range(size):
        if not ends[a]:
            endless[a] = True
            stack[top] = a
            top += 1
    # A state that can step into an endless state, or into an earlier-solved endless state,
    # is endless too.
    for row in range(edges):
        option = chosen[row]
        a = row // throws
        earlier = option != WIN and option >> 1 < base
        if earlier and not endless[a] and not np.isfinite(lengths[option >> 1]):
            endless[a] = True
            stack[top] = a
            top += 1
    _spread_backwards(endless, stack, top, start, source)
    count = 0
    for a in range(size):
        if endless[a]:
            lengths[base + a] = np.inf
            count += 1
    return count


@njit(cache=True)
def iterate_lengths(
    base: int,
    size: int,
    chosen: np.ndarray,
    probs: np.ndarray,
    lengths: np.ndarray,
    tolerance: float,
    max_sweeps: int,
) -> tuple[int, float]:
    """Gauss-Seidel sweeps of E(s) = 1 + sum over throws of p * E(next under the policy),
    with E = 0 once the game is won: the expected number of throws left. States already
    marked endless (infinite) are skipped; no finite state can reach them."""
    throws = probs.shape[0]
    change = 0.0
    for sweep in range(max_sweeps):
        change = 0.0
        for a in range(size):
            if not np.isfinite(lengths[base + a]):
                continue
            total = 1.0
            for t in range(throws):
                option = chosen[a * throws + t]
                if option != WIN:
                    total += probs[t] * lengths[option >> 1]
            s = base + a
            delta = abs(total - lengths[s])
            if delta > change:
                change = delta
            lengths[s] = total
        if change < tolerance:
            return sweep + 1, change
    return -1, change
