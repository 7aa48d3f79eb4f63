"""The native kernel's rules: legal moves and their effect on a game state, for any variant,
from packed rule arrays (the state and the arrays as :mod:`generator.sim.fast` describes them).

Every function mirrors the reference engine (:mod:`generator.engine.moves`) step for step, with
the same legal-move order, so a kernel game replays move for move through the readable engine
(``tests/test_sim_trace.py`` checks this for every variant, and ``tests/test_perft.py`` that
they reach the engine's pinned perft positions). The exact solver's kernels generate their moves
here too (:mod:`generator.solver.solve_moves`), and ask here what a throw that moves no piece
does (:func:`keeps_throw_without_move`): the native code states each rule once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
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
    H_WIDTH,
    O_ATTACK,
    O_ENTRY_ALLOWED,
    O_ENTRY_SQUARE,
    O_EXTRA_CELL,
    O_ROUTE,
    O_THROW_EXTRA,
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


def kernel(**options: Any) -> Callable[[Function], Function]:
    """Compile with numba (cached on disk), keeping the Python signature for type checking.

    ``_nrt=False`` on the inner functions keeps numba's reference counting of array
    arguments out of the inner loop (it otherwise costs a third of the running time).
    """

    def compile_function(function: Function) -> Function:
        return cast(Function, njit(cache=True, **options)(function))

    return compile_function


# A move is six numbers: piece (-1: voluntary pass), start, end, pieces captured,
# earns another throw (0/1), repelled by a stack (0/1).
M_PIECE, M_START, M_END, M_CAPTURED, M_EXTRA, M_REPELLED = range(6)
MOVE_WIDTH = 6
MAX_MOVES = 16
"""More than any variant's legal moves: one per piece plus a voluntary pass."""


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


@kernel(_nrt=False, inline="always")
def throw_earns_throw(K: Header, R: IntArray, throw: int) -> bool:
    """The throw itself earns another throw with whatever move it makes (rule question
    ``throw-extra-throw``, :attr:`generator.engine.rules.Rules.extra_throw_throws`)."""
    return throw < K.width and R[ix(K.throw_extra + throw)] != 0


@kernel(_nrt=False, inline="always")
def keeps_throw_without_move(K: Header, R: IntArray, throw: int) -> bool:
    """What happens when a throw moves no piece (no legal move, or a voluntary pass): the
    turn passes, unless the throw earns another throw by itself and the rules keep that throw
    even without a move (rule question ``extra-throw-without-move``, as
    :func:`generator.engine.moves.pass_turn`). The one statement of the rule in native code:
    the simulator's games, the solver's options and the kernel's perft all ask here."""
    return K.extra_without_move and throw_earns_throw(K, R, throw)


@kernel(_nrt=False, inline="always")
def offers_pass(K: Header, moves: int) -> bool:
    """A player with ``moves`` legal moves may also decline to move (the voluntary pass,
    listed after them) where the rules do not force a move (rule question ``must-move``, as
    :func:`generator.engine.moves.legal_moves`)."""
    return moves > 0 and not K.must_move


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
    distinct = K.distinct
    exact = K.exact
    stack_limit = K.stack_limit
    route = K.route
    other = 1 - side
    off = length + 1
    mine = side * pieces
    own_occ = 2 * pieces + side * cells
    enemy_occ = 2 * pieces + other * cells
    gives = 1 if throw_earns_throw(K, R, throw) else 0
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
    if offers_pass(K, n):
        row = n * MOVE_WIDTH
        mv[ix(row + M_PIECE)] = -1
        mv[ix(row + M_START)] = -1
        mv[ix(row + M_END)] = -1
        mv[ix(row + M_CAPTURED)] = 0
        mv[ix(row + M_EXTRA)] = 1 if keeps_throw_without_move(K, R, throw) else 0
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
