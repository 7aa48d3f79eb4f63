"""Native kernels of the fitted agent's exact evaluation (:mod:`generator.solver.fitted_agent`).

They read the solver's positions as :func:`generator.solver.solve_kernels.build_transitions` does (a
state index ``(p * C + mover) * C + opponent``, loaded into the simulator kernel's state array by
:func:`generator.solver.solve_moves.load_state`) and call the simulator's own evaluation
(:func:`generator.sim.kernel_evaluation.feature_row`,
:func:`generator.sim.kernel_evaluation.fitted_score`), so the agent evaluated exactly here is the
agent the simulator plays.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from generator.sim.kernel_evaluation import feature_row, fitted_score
from generator.sim.kernel_moves import MAX_MOVES, MOVE_WIDTH, Header, header, legal_moves
from generator.solver.solve_kernels import option_worth
from generator.solver.solve_moves import load_state


@njit(cache=True)
def _load(
    K: Header,
    packed: np.ndarray,
    S: np.ndarray,
    table: np.ndarray,
    slot_piece: np.ndarray,
    state: int,
    count: int,
) -> int:
    """Write state index ``state`` into ``S``; return the side to move (its perspective)."""
    p = state // (count * count)
    S[:] = 0
    load_state(K, packed, S, table, slot_piece, p, (state // count) % count)
    load_state(K, packed, S, table, slot_piece, 1 - p, state % count)
    return p


@njit(cache=True)
def state_features(
    states: np.ndarray,
    table: np.ndarray,
    slot_piece: np.ndarray,
    packed: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[a]`` = the features of state ``states[a]`` for its side to move."""
    K = header(packed)
    count = table.shape[0]
    S = np.zeros(2 * K.pieces + 3 * K.cells, dtype=np.int64)
    for a in range(states.shape[0]):
        side = _load(K, packed, S, table, slot_piece, states[a], count)
        feature_row(K, packed, S, side, out[a])


@njit(cache=True)
def fitted_policy(
    states: np.ndarray,
    table: np.ndarray,
    slot_piece: np.ndarray,
    packed: np.ndarray,
    throw_values: np.ndarray,
    options: np.ndarray,
    counts: np.ndarray,
    W: np.ndarray,
) -> np.ndarray:
    """The option the fitted agent plays in each (state, throw) row of a layer (the first of
    its best-scoring moves, as :func:`generator.sim.fast.choose` plays it); ``-2`` marks a row
    whose moves the simulator and the transitions count differently (a bug, reported)."""
    K = header(packed)
    count = table.shape[0]
    throws = throw_values.shape[0]
    S = np.zeros(2 * K.pieces + 3 * K.cells, dtype=np.int64)
    after = np.zeros_like(S)
    mv = np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64)
    chosen = np.empty(states.shape[0] * throws, dtype=np.int32)
    for a in range(states.shape[0]):
        side = _load(K, packed, S, table, slot_piece, states[a], count)
        for t in range(throws):
            row = a * throws + t
            n = legal_moves(K, packed, S, side, throw_values[t], mv)
            if counts[row] != max(n, 1):
                chosen[row] = -2
                continue
            pick = 0
            best = -1.0e300
            for m in range(n):
                score = fitted_score(K, packed, S, side, mv, m, W, after)
                if score > best:
                    best = score
                    pick = m
            chosen[row] = options[row, pick]
    return chosen


@njit(cache=True)
def iterate_pair(
    base: int,
    size: int,
    first: np.ndarray,
    second: np.ndarray,
    probs: np.ndarray,
    tables: np.ndarray,
    tolerance: float,
    max_sweeps: int,
) -> tuple[int, float]:
    """Two fixed policies (one option per row) against each other, in place, by Gauss-Seidel
    sweeps until no value changes by ``tolerance``: ``tables[0][s]`` is the chance that the
    player following ``first`` wins with it to move in ``s``, ``tables[1][s]`` the same for
    ``second``; each sees the other's table when the turn passes. Returns (sweeps, last
    change), sweeps ``-1`` when ``max_sweeps`` passed."""
    throws = probs.shape[0]
    one, two = tables[0], tables[1]
    change = 0.0
    for sweep in range(max_sweeps):
        change = 0.0
        for a in range(size):
            x = 0.0
            y = 0.0
            for t in range(throws):
                row = a * throws + t
                x += probs[t] * option_worth(first[row], one, two)
                y += probs[t] * option_worth(second[row], two, one)
            s = base + a
            change = max(change, abs(x - one[s]), abs(y - two[s]))
            one[s] = x
            two[s] = y
        if change < tolerance:
            return sweep + 1, change
    return -1, change


Evaluation = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""What the fitted evaluation of a solver's state reads: the configuration table, the slots'
pieces, the packed rules and the weights."""


@njit(cache=True)
def _fitted_chunk(
    first: int, last: int, order: np.ndarray, places: np.ndarray, base: int,
    values: np.ndarray, evaluation: Evaluation,
) -> None:  # fmt: skip
    """:func:`fitted_start` for the sweep-order places ``first`` to ``last`` (excluded)."""
    table, slot_piece, packed, weights = evaluation
    K = header(packed)
    count = table.shape[0]
    S = np.zeros(2 * K.pieces + 3 * K.cells, dtype=np.int64)
    row = np.empty(weights.shape[0])
    for k in range(first, last):
        side = _load(K, packed, S, table, slot_piece, int(order[k]), count)
        feature_row(K, packed, S, side, row)
        estimate = 0.0
        for f in range(weights.shape[0]):
            estimate += row[f] * weights[f]
        values[base + places[k]] = min(1.0, max(0.0, estimate))


@njit(cache=True, parallel=True)
def fitted_start(
    order: np.ndarray, places: np.ndarray, base: int, values: np.ndarray, evaluation: Evaluation
) -> None:
    """``values[base + places[k]]`` = the fitted evaluation of state ``order[k]`` (the
    solver's sweep order, :func:`generator.solver.solve.sweep_order`), clipped to [0, 1]: where a
    solve's sweeps of a layer start instead of 1/2. Each of the layer's chunks, on its own
    thread, has its own scratch state: nothing of the size of the layer is allocated."""
    size = order.shape[0]
    chunks = min(64, max(size, 1))
    for c in prange(chunks):
        _fitted_chunk(
            c * size // chunks, (c + 1) * size // chunks, order, places, base, values, evaluation
        )
