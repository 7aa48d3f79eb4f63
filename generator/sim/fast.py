"""The native-speed kernel: whole seeded games for any variant, from packed rule arrays.

Every function mirrors the reference engine (:mod:`generator.engine.moves`) step for step, with
the same legal-move order, so a kernel game replays move for move through the readable engine
(``tests/test_sim_trace.py`` checks this for every variant). No variant is named here: the rules
arrive as one int64 array ``R`` (:meth:`generator.sim.encode.EncodedRules.packed`).

The game state is one int64 array ``S``: each side's pieces by progress (``S[side * P + i]``),
then each side's pieces per cell (``S[2P + side * C + cell]``), then ``C`` scratch flags.
Interchangeable pieces are kept sorted, like the reference engine's canonical positions.

Randomness: one 64-bit key per run comes from numpy's ``SeedSequence(seed)``; game ``g``'s
generator is xorshift64* seeded with splitmix64(key + g * golden ratio). A game's dice therefore
depend only on (seed, g), never on how games are split between worker processes.

Cheap agents run here, by integer id (:class:`generator.sim.agents.FastAgent`): each scores
every legal move and plays a best one, breaking ties uniformly at random.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit, uint64

from generator.sim.encode import (
    H_CAPTURE_EXTRA,
    H_CELLS,
    H_DEFENCE,
    H_DISTINCT,
    H_EXACT,
    H_EXTRA_WITHOUT_MOVE,
    H_LENGTH,
    H_MUST_MOVE,
    H_PIECES,
    H_STACK,
    H_THROWS,
    H_WIDTH,
    O_ATTACK,
    O_ENTRY_ALLOWED,
    O_ENTRY_SQUARE,
    O_EXTRA_CELL,
    O_ROUTE,
    O_THRESHOLD,
    O_THROW,
    O_THROW_EXTRA,
    FloatArray,
    IntArray,
)

Function = TypeVar("Function", bound=Callable[..., Any])

ix = uint64
"""Computed array indices in the kernels go through ``ix`` (constant ones need not). Numba
gives a signed index Python's meaning, so each access first checks for a negative index and
wraps it; an unsigned index skips that. Indices here are never negative by construction, and
skipping the check makes a game about a quarter faster (``ur-variants bench``).
``tests/test_sim_trace.py`` replays kernel games of every variant through the reference
engine."""
RngState = npt.NDArray[np.uint64]
"""A one-element array holding a game's xorshift64* state."""


def kernel(**options: Any) -> Callable[[Function], Function]:
    """Compile with numba (cached on disk), keeping the Python signature for type checking.

    ``_nrt=False`` on the inner functions keeps numba's reference counting of array
    arguments out of the inner loop (it otherwise costs a third of the running time).
    """

    def compile_function(function: Function) -> Function:
        return cast(Function, njit(cache=True, **options)(function))

    return compile_function


GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
STAR = np.uint64(0x2545F4914F6CDD1D)
S11 = np.uint64(11)
S12 = np.uint64(12)
S25 = np.uint64(25)
S27 = np.uint64(27)
S30 = np.uint64(30)
S31 = np.uint64(31)

# Agent ids (see generator.sim.agents.FastAgent for their rules).
RANDOM, FIRST, LAST, CAPTURE, EXTRA, REARMOST, SAFE, BEAR_OFF, GREEDY, FITTED = range(10)

# Columns of the per-game result table.
WINNER, THROWS, MOVES, TURNS, CAPTURES, PASSES, ROSETTES, EXTRAS, LOSER_OFF = range(9)
FIELDS = 9

# A move is six numbers: piece (-1: voluntary pass), start, end, pieces captured,
# earns another throw (0/1), repelled by a stack (0/1).
M_PIECE, M_START, M_END, M_CAPTURED, M_EXTRA, M_REPELLED = range(6)
MOVE_WIDTH = 6
MAX_MOVES = 16
"""More than any variant's legal moves: one per piece plus a voluntary pass."""

THREAT_WEIGHT = 0.5
"""Greedy's rough chance that a piece within the enemy's reach is hit next throw."""

WIN_SCORE = 1.0e9
"""A move that wins at once: above any evaluation."""


class Header(NamedTuple):
    """The packed rules' scalars and segment offsets (:mod:`generator.sim.encode`), read once
    per game: as locals they stay in registers, where reads of ``R`` would be repeated after
    every write to the state (numba cannot tell that the two arrays never overlap)."""

    pieces: int
    length: int
    cells: int
    width: int
    distinct: bool
    exact: bool
    stack_limit: int
    defence: int
    must_move: bool
    capture_extra: bool
    extra_without_move: bool
    route: int
    attack: int
    extra_cell: int
    throw_extra: int
    entry_allowed: int
    entry_square: int


@kernel(_nrt=False)
def header(R: IntArray) -> Header:
    return Header(
        R[H_PIECES],
        R[H_LENGTH],
        R[H_CELLS],
        R[H_WIDTH],
        R[H_DISTINCT] != 0,
        R[H_EXACT] != 0,
        R[H_STACK],
        R[H_DEFENCE],
        R[H_MUST_MOVE] != 0,
        R[H_CAPTURE_EXTRA] != 0,
        R[H_EXTRA_WITHOUT_MOVE] != 0,
        R[O_ROUTE],
        R[O_ATTACK],
        R[O_EXTRA_CELL],
        R[O_THROW_EXTRA],
        R[O_ENTRY_ALLOWED],
        R[O_ENTRY_SQUARE],
    )


@kernel()
def splitmix64(z: np.uint64) -> np.uint64:
    z = z + GOLDEN
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@kernel()
def game_state(key: np.uint64, game: int) -> np.uint64:
    """The generator state of game ``game`` of a run keyed ``key`` (never zero)."""
    state = splitmix64(key + np.uint64(game) * GOLDEN)
    if state == np.uint64(0):
        state = GOLDEN
    return state


@kernel(_nrt=False)
def next_bits(rng: RngState) -> int:
    """xorshift64*: 53 uniform random bits from the one-element state array ``rng``."""
    x = rng[0]
    x ^= x >> S12
    x ^= x << S25
    x ^= x >> S27
    rng[0] = x
    return int((x * STAR) >> S11)


@kernel(_nrt=False)
def below(rng: RngState, n: int) -> int:
    """A uniform integer in ``0..n-1``."""
    return (next_bits(rng) * n) >> 53  # n is a move count, far below 2**10: no overflow


@kernel(_nrt=False)
def draw_throw(R: IntArray, rng: RngState) -> int:
    """A throw: the number of cumulative thresholds the random bits pass picks its value
    (counted without an early exit, which the processor would mispredict)."""
    u = next_bits(rng)
    k = 0
    base = R[O_THRESHOLD]
    for j in range(R[H_THROWS] - 1):
        k += u >= R[ix(base + j)]
    return int(R[ix(R[O_THROW] + k)])


@kernel(_nrt=False, inline="always")
def landing_step(K: Header, R: IntArray, piece: int, start: int, throw: int) -> int:
    """The step ``piece`` at ``start`` reaches with ``throw`` (past the route's end unchecked):
    from hand its entry square, or the throw's value, where its entry rule lets it enter with
    this throw, else ``-1``; on the route ``start + throw``."""
    if start != 0:
        return start + throw
    if throw >= K.width or R[ix(K.entry_allowed + piece * K.width + throw)] == 0:
        return -1
    square = R[ix(K.entry_square + piece)]
    return throw if square < 0 else int(square)


ARRIVES, BLOCKED, REPELLED = range(3)
"""What a piece meets on the cell it moves to (:func:`landing`)."""


@kernel(_nrt=False, inline="always")
def landing(K: Header, R: IntArray, cell: int, defenders: int, gives: int) -> tuple[int, int]:
    """What a piece moving to ``cell``, held by ``defenders`` enemy pieces, meets there, and
    whether the move earns another throw (``gives``: the throw itself earns one).

    An enemy piece on a cell that is not a capture cell (or is safe) blocks the move; a stack
    of at least ``defence`` pieces repels the attacker to its hand (the throw's own extra
    throw only); otherwise the piece arrives, capturing any defenders, and a rosette (or a
    capture, where the rules say so) earns another throw."""
    if defenders > 0:
        if R[ix(K.attack + cell)] == 0:
            return BLOCKED, 0
        if K.defence > 0 and defenders >= K.defence:
            return REPELLED, gives
    if R[ix(K.extra_cell + cell)] != 0 or (defenders > 0 and K.capture_extra):
        return ARRIVES, 1
    return ARRIVES, gives


@kernel(_nrt=False, inline="always")
def legal_moves(K: Header, R: IntArray, S: IntArray, side: int, throw: int, mv: IntArray) -> int:
    """Fill ``mv`` with the legal moves of ``side`` for ``throw``; return how many.

    Same rules and order as :func:`generator.engine.moves.legal_moves`: pieces in index order
    (interchangeable pieces sorted, one move per distinct progress), then a voluntary pass
    (piece -1) when the rules do not force a move.
    """
    if throw <= 0:
        return 0
    pieces = K.pieces
    length = K.length
    cells = K.cells
    width = K.width
    distinct = K.distinct
    exact = K.exact
    stack_limit = K.stack_limit
    route = K.route
    other = 1 - side
    off = length + 1
    mine = side * pieces
    own_occ = 2 * pieces + side * cells
    enemy_occ = 2 * pieces + other * cells
    gives = 1 if throw < width and R[ix(K.throw_extra + throw)] != 0 else 0
    n = 0
    base = route + side * (length + 2)
    for i in range(pieces):
        start = S[ix(mine + i)]
        if start == off:
            if distinct:
                continue
            break
        if not distinct and i > 0 and S[ix(mine + i - 1)] == start:
            continue
        target = landing_step(K, R, i, start, throw)
        if target < 0:
            continue
        if target > off:
            if exact or start == 0:
                continue
            target = off
        row = n * MOVE_WIDTH
        if target == off:
            mv[ix(row + M_PIECE)] = i
            mv[ix(row + M_START)] = start
            mv[ix(row + M_END)] = off
            mv[ix(row + M_CAPTURED)] = 0
            mv[ix(row + M_EXTRA)] = gives
            mv[ix(row + M_REPELLED)] = 0
            n += 1
            continue
        cell = R[ix(base + target)]
        here = S[ix(own_occ + cell)]
        if R[ix(base + start)] == cell:
            here -= 1
        if here >= stack_limit:
            continue
        defenders = S[ix(enemy_occ + cell)]
        outcome, extra = landing(K, R, cell, defenders, gives)
        if outcome == BLOCKED:
            continue
        if outcome == REPELLED:
            mv[ix(row + M_PIECE)] = i
            mv[ix(row + M_START)] = start
            mv[ix(row + M_END)] = 0
            mv[ix(row + M_CAPTURED)] = 0
            mv[ix(row + M_EXTRA)] = extra
            mv[ix(row + M_REPELLED)] = 1
            n += 1
            continue
        mv[ix(row + M_PIECE)] = i
        mv[ix(row + M_START)] = start
        mv[ix(row + M_END)] = target
        mv[ix(row + M_CAPTURED)] = defenders
        mv[ix(row + M_EXTRA)] = extra
        mv[ix(row + M_REPELLED)] = 0
        n += 1
    if n > 0 and not K.must_move:
        row = n * MOVE_WIDTH
        mv[ix(row + M_PIECE)] = -1
        mv[ix(row + M_START)] = -1
        mv[ix(row + M_END)] = -1
        mv[ix(row + M_CAPTURED)] = 0
        mv[ix(row + M_EXTRA)] = gives if K.extra_without_move else 0
        mv[ix(row + M_REPELLED)] = 0
        n += 1
    return n


@kernel(_nrt=False)
def sort_side(S: IntArray, first: int, count: int) -> None:
    for i in range(first + 1, first + count):
        value = S[ix(i)]
        j = i - 1
        while j >= first and S[ix(j)] > value:
            S[ix(j + 1)] = S[ix(j)]
            j -= 1
        S[ix(j + 1)] = value


@kernel(_nrt=False, inline="always")
def settle(S: IntArray, first: int, i: int, last: int) -> None:
    """Restore the ascending order of ``S[first..last]`` after ``S[i]`` alone changed."""
    value = S[ix(i)]
    while i < last and S[ix(i + 1)] < value:
        S[ix(i)] = S[ix(i + 1)]
        i += 1
    while i > first and S[ix(i - 1)] > value:
        S[ix(i)] = S[ix(i - 1)]
        i -= 1
    S[ix(i)] = value


@kernel(_nrt=False, inline="always")
def send_home(K: Header, R: IntArray, S: IntArray, side: int, cell: int) -> None:
    """Capture: every piece of ``side`` on ``cell`` goes back to its hand."""
    pieces = K.pieces
    stride = K.length + 2
    theirs = side * pieces
    for j in range(pieces):
        if R[ix(K.route + side * stride + S[ix(theirs + j)])] == cell:
            S[ix(theirs + j)] = 0
    S[ix(2 * pieces + side * K.cells + cell)] = 0
    if not K.distinct:
        sort_side(S, theirs, pieces)


@kernel(_nrt=False, inline="always")
def apply_move(K: Header, R: IntArray, S: IntArray, side: int, mv: IntArray, m: int) -> None:
    """Play move ``m`` of ``mv`` in place (a pass changes nothing on the board)."""
    row = m * MOVE_WIDTH
    piece = mv[ix(row + M_PIECE)]
    if piece < 0:
        return
    pieces = K.pieces
    cells = K.cells
    stride = K.length + 2
    route = K.route
    other = 1 - side
    own_occ = 2 * pieces + side * cells
    before = R[ix(route + side * stride + mv[ix(row + M_START)])]
    if before >= 0:
        S[ix(own_occ + before)] -= 1
    end = mv[ix(row + M_END)]
    S[ix(side * pieces + piece)] = end
    after = R[ix(route + side * stride + end)]
    if after >= 0:
        S[ix(own_occ + after)] += 1
    if mv[ix(row + M_CAPTURED)] > 0:
        send_home(K, R, S, other, after)
    if not K.distinct:
        settle(S, side * pieces, side * pieces + piece, side * pieces + pieces - 1)


@kernel(_nrt=False)
def all_off(R: IntArray, S: IntArray, side: int) -> bool:
    pieces = R[H_PIECES]
    off = R[H_LENGTH] + 1
    for i in range(pieces):  # noqa: SIM110 (a generator is slower in the kernel)
        if S[ix(side * pieces + i)] != off:
            return False
    return True


@kernel(_nrt=False)
def threatened(R: IntArray, S: IntArray, side: int) -> tuple[int, int]:
    """(count, summed progress) of ``side``'s pieces the enemy could hit with its next throw.

    A piece is within reach when some enemy piece lands on its cell with some possible throw
    (blocks by other pieces are ignored), the cell allows captures, and no defending stack
    would repel the attacker.
    """
    pieces = R[H_PIECES]
    length = R[H_LENGTH]
    cells = R[H_CELLS]
    width = R[H_WIDTH]
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
            if q == 0:
                if R[ix(R[O_ENTRY_ALLOWED] + j * width + t)] == 0:
                    continue
                square = R[ix(R[O_ENTRY_SQUARE] + j)]
                target = t if square < 0 else square
            else:
                target = q + t
            if target <= length:
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


@kernel(_nrt=False)
def move_score(
    agent: int,
    K: Header,
    R: IntArray,
    S: IntArray,
    side: int,
    mv: IntArray,
    m: int,
    scratch: IntArray,
    W: FloatArray,
) -> float:
    """How much ``agent`` likes move ``m``; the agent plays a best-scoring move.

    random: all alike; first/last: the reference engine's move order; capture: captures;
    extra: moves earning another throw; rearmost: the least advanced piece (entering counts
    as least advanced); bear-off: bearing off; safe: fewest own pieces left within the
    enemy's reach; greedy: a one-ply :func:`evaluate` of the position after the move, plus
    the mean throw when the move earns another throw; fitted: :func:`fitted_score` with the
    weights ``W``.
    """
    row = m * MOVE_WIDTH
    off = R[H_LENGTH] + 1
    piece = mv[ix(row + M_PIECE)]
    if agent == RANDOM:
        return 0.0
    if agent == FIRST:
        return float(-m)
    if agent == LAST:
        return float(m)
    if agent == CAPTURE:
        return 1.0 if mv[ix(row + M_CAPTURED)] > 0 else 0.0
    if agent == EXTRA:
        return 1.0 if mv[ix(row + M_EXTRA)] != 0 else 0.0
    if agent == REARMOST:
        return -1.0 - off if piece < 0 else float(-mv[ix(row + M_START)])
    if agent == BEAR_OFF:
        return 1.0 if mv[ix(row + M_END)] == off else 0.0
    if agent == FITTED:
        return fitted_score(K, R, S, side, mv, m, W, scratch)
    for k in range(S.shape[0]):
        scratch[ix(k)] = S[ix(k)]
    apply_move(K, R, scratch, side, mv, m)
    if agent == SAFE:
        count, _ = threatened(R, scratch, side)
        return float(-count)
    value = evaluate(R, scratch, side)
    if mv[ix(row + M_EXTRA)] != 0:
        value += mean_throw(R)
    return value


@kernel(_nrt=False, inline="always")
def choose(
    agent: int,
    K: Header,
    R: IntArray,
    S: IntArray,
    side: int,
    mv: IntArray,
    n: int,
    scores: npt.NDArray[np.float64],
    scratch: IntArray,
    rng: RngState,
    W: FloatArray,
) -> int:
    """The index of the move ``agent`` plays: a best-scoring one, ties broken at random (the
    fitted agent takes the first, so that it is one fixed policy that
    :mod:`generator.solver.fitted_agent` can evaluate exactly)."""
    if n == 1:
        return 0
    if agent == RANDOM:
        return below(rng, n)
    if agent == FIRST:
        return 0
    if agent == LAST:
        return n - 1
    best = -1.0e300
    ties = 0
    for m in range(n):
        s = move_score(agent, K, R, S, side, mv, m, scratch, W)
        scores[ix(m)] = s
        if s > best:
            best = s
            ties = 1
        elif s == best:
            ties += 1
    pick = 0 if ties == 1 or agent == FITTED else below(rng, ties)
    for m in range(n):
        if scores[ix(m)] == best:
            if pick == 0:
                return m
            pick -= 1
    return 0


@kernel(_nrt=False)
def play_game(
    R: IntArray,
    agent_light: int,
    agent_dark: int,
    rng: RngState,
    max_throws: int,
    result: IntArray,
    trace: IntArray,
    tracing: bool,
    S: IntArray,
    scratch: IntArray,
    mv: IntArray,
    scores: npt.NDArray[np.float64],
    W: FloatArray,
) -> int:
    """Play one game from the start; fill ``result`` (the FIELDS columns) and, when tracing,
    ``trace[t] = (throw, moves available, chosen index or -1, side to move after, *light,
    *dark)``. Returns the number of throws; the winner stays -1 if ``max_throws`` ran out.

    ``S``, ``scratch``, ``mv`` and ``scores`` are work arrays (sized as in :func:`play_batch`); the
    caller allocates them once, so this function needs no memory management at all. ``W``: the
    fitted agent's weights (:func:`fitted_value`; unread by the other agents)."""
    K = header(R)
    pieces = K.pieces
    length = K.length
    off = length + 1
    width = K.width
    for k in range(S.shape[0]):
        S[ix(k)] = 0
    passes = moves = captures = rosettes = extras = 0
    for f in range(result.shape[0]):
        result[f] = 0
    result[WINNER] = -1
    side = 0
    throws = 0
    while throws < max_throws:
        throw = draw_throw(R, rng)
        throws += 1
        n = legal_moves(K, R, S, side, throw, mv)
        won = False
        m = -1
        if n == 0:
            passes += 1
            again = K.extra_without_move and throw < width and R[ix(K.throw_extra + throw)] != 0
        else:
            agent = agent_dark if side else agent_light
            m = choose(agent, K, R, S, side, mv, n, scores, scratch, rng, W)
            row = m * MOVE_WIDTH
            again = mv[ix(row + M_EXTRA)] != 0
            if mv[ix(row + M_PIECE)] < 0:
                passes += 1
            else:
                moves += 1
                if mv[ix(row + M_CAPTURED)] > 0:
                    captures += 1
                end = mv[ix(row + M_END)]
                route = K.route + side * (length + 2)
                if 1 <= end <= length and R[ix(K.extra_cell + R[ix(route + end)])] != 0:
                    rosettes += 1
                apply_move(K, R, S, side, mv, m)
                won = end == off and all_off(R, S, side)
        if won:
            again = False
        if again:
            extras += 1
        next_side = side if (again or won) else 1 - side
        if tracing:
            t = throws - 1
            trace[t, 0] = throw
            trace[t, 1] = n
            trace[t, 2] = m
            trace[t, 3] = next_side
            for i in range(2 * pieces):
                trace[t, 4 + i] = S[ix(i)]
        if won:
            result[WINNER] = side
            loser_off = 0
            for i in range(pieces):
                if S[ix((1 - side) * pieces + i)] == off:
                    loser_off += 1
            result[LOSER_OFF] = loser_off
            break
        side = next_side
    result[THROWS] = throws
    result[MOVES] = moves
    result[PASSES] = passes
    result[CAPTURES] = captures
    result[ROSETTES] = rosettes
    result[EXTRAS] = extras
    result[TURNS] = throws - extras
    return throws


@kernel()
def play_batch(
    R: IntArray,
    agent_light: int,
    agent_dark: int,
    key: np.uint64,
    first_game: int,
    max_throws: int,
    out: IntArray,
    W: FloatArray,
) -> None:
    """Play games ``first_game .. first_game + len(out) - 1``; row ``g`` of ``out`` gets game
    ``first_game + g``'s result columns (``W``: see :func:`play_game`)."""
    rng = np.zeros(1, dtype=np.uint64)
    trace = np.zeros((1, 1), dtype=np.int64)
    size = 2 * R[H_PIECES] + 3 * R[H_CELLS]
    S = np.zeros(size, dtype=np.int64)
    scratch = np.zeros(size, dtype=np.int64)
    mv = np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64)
    scores = np.zeros(MAX_MOVES, dtype=np.float64)
    for g in range(out.shape[0]):
        rng[0] = game_state(key, first_game + g)
        play_game(
            R,
            agent_light,
            agent_dark,
            rng,
            max_throws,
            out[g],
            trace,
            False,
            S,
            scratch,
            mv,
            scores,
            W,
        )


@kernel()
def score_moves(
    agent: int,
    R: IntArray,
    S: IntArray,
    side: int,
    throw: int,
    scores: npt.NDArray[np.float64],
    W: FloatArray,
) -> int:
    """Legal moves of ``side`` for ``throw`` in state ``S`` and ``agent``'s score of each
    (for Python-side agents and tests); returns the number of moves."""
    mv = np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64)
    scratch = np.zeros(S.shape[0], dtype=np.int64)
    K = header(R)
    n = legal_moves(K, R, S, side, throw, mv)
    for m in range(n):
        scores[m] = move_score(agent, K, R, S, side, mv, m, scratch, W)
    return n


def run_key(seed: int) -> np.uint64:
    """The run's 64-bit key, derived from ``seed`` by numpy's SeedSequence."""
    return np.uint64(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0])


DEFAULT_MAX_THROWS = 100_000
"""A game still running after this many throws is recorded as unfinished (winner -1)."""


def play_games(
    packed: IntArray,
    agent_light: int,
    agent_dark: int,
    seed: int,
    first_game: int,
    games: int,
    max_throws: int = DEFAULT_MAX_THROWS,
    weights: FloatArray | None = None,
) -> IntArray:
    """The result table (``games`` x FIELDS) of games ``first_game ..`` of run ``seed``;
    ``weights``: the fitted agent's (:func:`fitted_value`), needed only when it plays."""
    out = np.zeros((games, FIELDS), dtype=np.int64)
    W = no_weights(packed) if weights is None else weights
    play_batch(packed, agent_light, agent_dark, run_key(seed), first_game, max_throws, out, W)
    return out


def no_weights(packed: IntArray) -> FloatArray:
    """Weights for runs without the fitted agent (it would score every move alike)."""
    return np.zeros(3 + 2 * (int(packed[H_LENGTH]) + 2), dtype=np.float64)


def trace_game(
    packed: IntArray,
    agent_light: int,
    agent_dark: int,
    seed: int,
    game: int,
    max_throws: int = DEFAULT_MAX_THROWS,
    weights: FloatArray | None = None,
) -> tuple[IntArray, IntArray]:
    """Game ``game`` of run ``seed`` as (result columns, trace rows); see :func:`play_game`."""
    rng = np.array([game_state(run_key(seed), game)], dtype=np.uint64)
    result = np.zeros(FIELDS, dtype=np.int64)
    pieces = int(packed[H_PIECES])
    trace = np.zeros((max_throws, 4 + 2 * pieces), dtype=np.int64)
    size = 2 * pieces + 3 * int(packed[H_CELLS])
    throws = play_game(
        packed,
        agent_light,
        agent_dark,
        rng,
        max_throws,
        result,
        trace,
        True,
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64),
        np.zeros(MAX_MOVES, dtype=np.float64),
        no_weights(packed) if weights is None else weights,
    )
    return result, trace[:throws]


def state_array(packed: IntArray, light: tuple[int, ...], dark: tuple[int, ...]) -> IntArray:
    """The kernel state ``S`` of a position given as each side's progress tuple."""
    pieces = int(packed[H_PIECES])
    cells = int(packed[H_CELLS])
    stride = int(packed[H_LENGTH]) + 2
    route = int(packed[O_ROUTE])
    state = np.zeros(2 * pieces + 3 * cells, dtype=np.int64)
    for side, progress in enumerate((light, dark)):
        for i, p in enumerate(progress):
            state[side * pieces + i] = p
            cell = int(packed[route + side * stride + p])
            if cell >= 0:
                state[2 * pieces + side * cells + cell] += 1
    return state
