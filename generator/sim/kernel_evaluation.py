"""The native kernel's evaluations of a game state: the leaf evaluation the greedy and
expectimax agents maximise (:func:`evaluate`: progress less the pieces at risk), and the fitted
agent's features and weighted value (:func:`feature_row`, :func:`fitted_value`,
:func:`fitted_score`; the weights are fitted by :mod:`generator.solver.fitted_agent`, whose
exact evaluation calls these same kernels).
"""

from __future__ import annotations

from generator.sim.encode import (
    H_CELLS,
    H_DEFENCE,
    H_LENGTH,
    H_PIECES,
    H_THROWS,
    O_ATTACK,
    O_ROUTE,
    O_THRESHOLD,
    O_THROW,
    FloatArray,
    IntArray,
)
from generator.sim.kernel_moves import (
    M_END,
    M_EXTRA,
    M_PIECE,
    MOVE_WIDTH,
    Header,
    all_off,
    apply_move,
    header,
    ix,
    kernel,
    landing_step,
)

THREAT_WEIGHT = 0.5
"""Greedy's rough chance that a piece within the enemy's reach is hit next throw."""

WIN_SCORE = 1.0e9
"""A move that wins at once: above any evaluation."""


@kernel(_nrt=False)
def threatened(R: IntArray, S: IntArray, side: int) -> tuple[int, int]:
    """(count, summed progress) of ``side``'s pieces the enemy could hit with its next throw.

    A piece is within reach when some enemy piece lands on its cell with some possible throw
    (blocks by other pieces are ignored), the cell allows captures, and no defending stack
    would repel the attacker.
    """
    K = header(R)
    pieces = R[H_PIECES]
    length = R[H_LENGTH]
    cells = R[H_CELLS]
    stride = length + 2
    route = R[O_ROUTE]
    defence = R[H_DEFENCE]
    reach = 2 * pieces + 2 * cells
    other = 1 - side
    for j in range(pieces):
        q = S[ix(other * pieces + j)]
        if q == length + 1:
            continue
        for k in range(R[H_THROWS]):
            t = R[ix(R[O_THROW] + k)]
            if t <= 0:
                continue
            target = landing_step(K, R, j, q, t)  # the entry rules, as a move reads them
            if 1 <= target <= length:
                S[ix(reach + R[route + other * stride + target])] = 1
    count = 0
    progress = 0
    for i in range(pieces):
        p = S[ix(side * pieces + i)]
        cell = R[ix(route + side * stride + p)]
        exposed = cell >= 0 and R[ix(R[O_ATTACK] + cell)] != 0 and S[ix(reach + cell)] != 0
        if exposed and not (defence > 0 and S[ix(2 * pieces + side * cells + cell)] >= defence):
            count += 1
            progress += p
    for c in range(cells):
        S[ix(reach + c)] = 0
    return count, progress


@kernel(_nrt=False)
def mean_throw(R: IntArray) -> float:
    total = 0.0
    previous = 0
    for k in range(R[H_THROWS]):
        threshold = R[ix(R[O_THRESHOLD] + k)]
        total += R[ix(R[O_THROW] + k)] * float(threshold - previous)
        previous = threshold
    return total / float(previous)


@kernel(_nrt=False)
def evaluate(R: IntArray, S: IntArray, side: int) -> float:
    """A rough value of state ``S`` for ``side``: own progress minus enemy progress, minus
    ``THREAT_WEIGHT`` times the progress of own pieces within the enemy's reach; 1e9 when
    ``side`` has borne off every piece."""
    if all_off(R, S, side):
        return 1.0e9
    if all_off(R, S, 1 - side):
        return -1.0e9
    pieces = R[H_PIECES]
    value = 0.0
    for i in range(pieces):
        value += S[ix(side * pieces + i)] - S[ix((1 - side) * pieces + i)]
    _, at_risk = threatened(R, S, side)
    return value - THREAT_WEIGHT * at_risk


@kernel(_nrt=False)
def throw_probability(R: IntArray, k: int) -> float:
    """The probability of the ``k``-th throw value (from the cumulative thresholds)."""
    base = R[O_THRESHOLD]
    before = 0 if k == 0 else R[ix(base + k - 1)]
    return float(R[ix(base + k)] - before) / float(R[ix(base + R[H_THROWS] - 1)])


@kernel(_nrt=False)
def exposure(K: Header, R: IntArray, S: IntArray, side: int) -> float:
    """The progress ``side`` expects to lose to the enemy's next throw: over the enemy's throws,
    the throw's probability times the summed progress of ``side``'s pieces that some enemy
    piece would land on with it (capturable squares, no repelling stack; blocks by other pieces
    ignored, as in :func:`threatened`). Uses the scratch flags of ``S`` and clears them."""
    pieces = K.pieces
    length = K.length
    cells = K.cells
    stride = length + 2
    other = 1 - side
    reach = 2 * pieces + 2 * cells
    own_occ = 2 * pieces + side * cells
    total = 0.0
    for k in range(R[H_THROWS]):
        t = R[ix(R[O_THROW] + k)]
        if t <= 0:
            continue
        for j in range(pieces):
            q = S[ix(other * pieces + j)]
            if q == length + 1:
                continue
            target = landing_step(K, R, j, q, t)
            if 0 <= target <= length:
                S[ix(reach + R[ix(K.route + other * stride + target)])] = 1
        lost = 0
        for i in range(pieces):
            p = S[ix(side * pieces + i)]
            cell = R[ix(K.route + side * stride + p)]
            if cell < 0 or R[ix(K.attack + cell)] == 0 or S[ix(reach + cell)] == 0:
                continue
            if K.defence > 0 and S[ix(own_occ + cell)] >= K.defence:
                continue
            lost += p
        total += throw_probability(R, k) * lost
        for c in range(cells):
            S[ix(reach + c)] = 0
    return total


@kernel(_nrt=False)
def feature_row(K: Header, R: IntArray, S: IntArray, side: int, out: FloatArray) -> None:
    """The terms of the fitted evaluation of state ``S`` with ``side`` to throw next, into
    ``out`` (:func:`weights_size` long), each scaled so that the same weights read any piece
    count: a constant; each side's expected loss to the other's next throw (:func:`exposure`,
    a fraction of all progress; ``side``'s first); then, step by step along the route (in
    hand, each square, borne off), the share of ``side``'s pieces standing there, and the
    same for the enemy."""
    pieces = K.pieces
    steps = K.length + 2
    scale = float(pieces * (K.length + 1))
    for k in range(out.shape[0]):
        out[ix(k)] = 0.0
    out[0] = 1.0
    out[1] = exposure(K, R, S, side) / scale
    out[2] = exposure(K, R, S, 1 - side) / scale
    for i in range(pieces):
        out[ix(3 + S[ix(side * pieces + i)])] += 1.0 / pieces
        out[ix(3 + steps + S[ix((1 - side) * pieces + i)])] += 1.0 / pieces


@kernel(_nrt=False)
def weights_size(R: IntArray) -> int:
    """How many terms :func:`feature_row` gives (and weights the fitted agent reads)."""
    return 3 + 2 * (int(R[H_LENGTH]) + 2)


@kernel(_nrt=False)
def fitted_value(K: Header, R: IntArray, S: IntArray, side: int, W: FloatArray) -> float:
    """The fitted estimate of ``side``'s chance of winning, ``side`` to throw next: the
    weights ``W`` times :func:`feature_row`, summed without building the row (1 or 0 when a
    side has borne off every piece)."""
    if all_off(R, S, side):
        return 1.0
    if all_off(R, S, 1 - side):
        return 0.0
    pieces = K.pieces
    steps = K.length + 2
    scale = float(pieces * (K.length + 1))
    value = W[0]
    value += W[1] * exposure(K, R, S, side) / scale
    value += W[2] * exposure(K, R, S, 1 - side) / scale
    placed = 0.0
    for i in range(pieces):
        placed += W[ix(3 + S[ix(side * pieces + i)])]
        placed += W[ix(3 + steps + S[ix((1 - side) * pieces + i)])]
    return float(value + placed / pieces)


@kernel(_nrt=False)
def fitted_score(
    K: Header,
    R: IntArray,
    S: IntArray,
    side: int,
    mv: IntArray,
    m: int,
    W: FloatArray,
    after: IntArray,
) -> float:
    """What the fitted agent expects from move ``m``: :data:`WIN_SCORE` when it wins at once;
    else its chance of winning by the fitted evaluation of the position after the move, with
    the side then to throw (itself when the move earns another throw, else the enemy) averaging
    over that throw's values, so it is a one-ply expectimax."""
    for k in range(S.shape[0]):
        after[ix(k)] = S[ix(k)]
    apply_move(K, R, after, side, mv, m)
    row = m * MOVE_WIDTH
    finishing = mv[ix(row + M_PIECE)] >= 0 and mv[ix(row + M_END)] == K.length + 1
    if finishing and all_off(R, after, side):
        return WIN_SCORE
    if mv[ix(row + M_EXTRA)] != 0:
        return fitted_value(K, R, after, side, W)
    return 1.0 - fitted_value(K, R, after, 1 - side, W)
