"""The native-speed kernel: whole seeded games for any variant, from packed rule arrays.

No variant is named here: the rules arrive as one int64 array ``R``
(:meth:`generator.sim.encode.EncodedRules.packed`). Their moves are played by
:mod:`generator.sim.kernel_moves`, which mirrors the reference engine
(:mod:`generator.engine.moves`) step for step, with the same legal-move order, so a kernel game
replays move for move through the readable engine (``tests/test_sim_trace.py`` checks this for every
variant).

The game state is one int64 array ``S``: each side's pieces by progress (``S[side * P + i]``),
then each side's pieces per cell (``S[2P + side * C + cell]``), then ``C`` scratch flags.
Interchangeable pieces are kept sorted, like the reference engine's canonical positions.

Randomness: one 64-bit key per run comes from numpy's ``SeedSequence(seed)``; game ``g``'s
generator is xorshift64* seeded with splitmix64(key + g * golden ratio). A game's dice therefore
depend only on (seed, g), never on how games are split between worker processes.

Cheap agents run here, by integer id (:class:`generator.sim.agents.FastAgent`): each scores
every legal move (:func:`move_score`, from the evaluations of
:mod:`generator.sim.kernel_evaluation`) and plays a best one, breaking ties uniformly at random.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from generator.sim.encode import (
    H_CELLS,
    H_LENGTH,
    H_PIECES,
    H_THROWS,
    O_THRESHOLD,
    O_THROW,
    FloatArray,
    IntArray,
)
from generator.sim.kernel_evaluation import (
    evaluate,
    fitted_score,
    mean_throw,
    threatened,
)
from generator.sim.kernel_moves import (
    M_CAPTURED,
    M_END,
    M_EXTRA,
    M_PIECE,
    M_START,
    MAX_MOVES,
    MOVE_WIDTH,
    Header,
    all_off,
    apply_move,
    header,
    ix,
    keeps_throw_without_move,
    kernel,
    legal_moves,
)

RngState = npt.NDArray[np.uint64]
"""A one-element array holding a game's xorshift64* state."""


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

    random: all alike; first/last: the reference engine's move order; capture: captures; extra:
    moves earning another throw; rearmost: the least advanced piece (entering counts as least
    advanced); bear-off: bearing off; safe: fewest own pieces left within the enemy's reach;
    greedy: a one-ply :func:`~generator.sim.kernel_evaluation.evaluate` of the position after
    the move, plus the mean throw when the move earns another throw; fitted:
    :func:`~generator.sim.kernel_evaluation.fitted_score` with the weights ``W``."""
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
    fitted agent's weights (:func:`~generator.sim.kernel_evaluation.fitted_value`; unread by the
    other agents)."""
    K = header(R)
    pieces = K.pieces
    length = K.length
    off = length + 1
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
            again = keeps_throw_without_move(K, R, throw)
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
    ``weights``: the fitted agent's
    (:func:`~generator.sim.kernel_evaluation.fitted_value`), needed only when it plays."""
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
