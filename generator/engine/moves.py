"""Legal moves and their results: the whole rulebook, as pure functions over positions.

A turn: throw, then move one piece by the throw (or pass when no move is legal). Another throw
follows when the move lands on an extra-throw cell, when the throw itself earns one, or on a
capture where the rules say so. A throw that earns another throw by itself but moves no piece
(no legal move, or a voluntary pass) earns it only where the rulebook says so (rule question
``extra-throw-without-move``, :attr:`Rules.extra_throw_without_move`); otherwise the turn
passes, as the Great Book page rules for any number thrown: "If no legal move exists for the
number thrown, the turn simply passes."
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass

from generator.engine.position import Position, canonical
from generator.engine.rules import Rules, Side
from generator.model.equipment import Cell


@dataclass(frozen=True)
class Move:
    """One piece moved by one throw.

    ``piece`` indexes the mover's piece tuple; ``start`` and ``end`` are progress values
    (``end`` is 0 when a stack repelled the piece). ``captured`` counts enemy pieces sent home.
    A voluntary pass (only where the rules let a player decline to move) has ``piece == -1``.
    """

    piece: int
    start: int
    end: int
    captured: int = 0
    repelled: bool = False
    extra_throw: bool = False

    @property
    def is_pass(self) -> bool:
        return self.piece < 0

    def describe(self, rules: Rules, side: Side) -> str:
        if self.is_pass:
            return "pass"
        origin = "hand" if self.start == 0 else f"{self.start}"
        if self.repelled:
            target = f"{self.start} -> repelled to hand"
        else:
            target = "off" if self.end == rules.off else f"{self.end}"
        text = f"{origin} -> {target}" if not self.repelled else target
        name = rules.entry[self.piece].name if rules.distinct_pieces else None
        flags = [f"captures {self.captured}"] * (self.captured > 0)
        flags += ["throws again"] * self.extra_throw
        label = f"{name}: " if name else ""
        return label + text + (f" ({', '.join(flags)})" if flags else "")


PASS = Move(piece=-1, start=-1, end=-1)


class Refusal(enum.Enum):
    """Why a piece cannot move with a throw, rule by rule as :func:`legal_moves` applies them:
    the throw does not enter it, carries it past the route's end (bearing off needs the exact
    throw), or lands it on its own piece, on an enemy safe on a safe square, or on an enemy
    where captures do not happen."""

    NOT_AN_ENTRY_THROW = "not-an-entry-throw"
    OVERSHOOTS = "overshoots"
    OWN_PIECE = "own-piece"
    SAFE_SQUARE = "safe-square"
    NO_CAPTURE_THERE = "no-capture-there"


@dataclass(frozen=True)
class Refused:
    """A piece the throw cannot move: where it stands, where the throw would take it (progress,
    past the route's end when it overshoots) and which rule stops it."""

    piece: int
    start: int
    target: int
    reason: Refusal


def _occupancy(rules: Rules, position: Position, side: Side) -> Counter[Cell]:
    return Counter(cell for p in position.pieces(side) if (cell := rules.cell(side, p)) is not None)


def legal_moves(rules: Rules, position: Position, throw: int) -> tuple[Move, ...]:
    """Every legal move for the side to move with ``throw``; empty when the turn passes.

    Interchangeable pieces at the same progress give one move, not several.
    """
    if throw <= 0 or winner(rules, position) is not None:
        return ()
    side = position.to_move
    mine = position.pieces(side)
    own = _occupancy(rules, position, side)
    enemy = _occupancy(rules, position, side.other)
    seen: set[tuple[int, int]] = set()
    moves: list[Move] = []
    for index, start in enumerate(mine):
        if start == rules.off:
            continue
        key = (index if rules.distinct_pieces else -1, start)
        if key in seen:
            continue
        seen.add(key)
        move = _move_piece(rules, side, index, start, throw, own, enemy)
        if isinstance(move, Move):
            moves.append(move)
    if moves and not rules.must_move:
        moves.append(PASS)
    return tuple(moves)


def _move_piece(
    rules: Rules,
    side: Side,
    index: int,
    start: int,
    throw: int,
    own: Counter[Cell],
    enemy: Counter[Cell],
) -> Move | Refusal:
    throw_extra = throw in rules.extra_throw_throws
    if start == 0:
        entry = rules.entry[index]
        if not entry.allows(throw):
            return Refusal.NOT_AN_ENTRY_THROW
        target = entry.target(throw)
    else:
        target = start + throw
    if target > rules.off:
        if rules.exact_bear_off or start == 0:
            return Refusal.OVERSHOOTS
        target = rules.off
    if target == rules.off:
        return Move(index, start, target, extra_throw=throw_extra)
    cell = rules.cells[side][target - 1]
    here = own[cell] - (rules.cell(side, start) == cell)
    if here >= rules.stack_limit:
        return Refusal.OWN_PIECE
    defenders = enemy[cell]
    if defenders:
        if cell in rules.safe_cells:
            return Refusal.SAFE_SQUARE
        if cell not in rules.capture_cells:
            return Refusal.NO_CAPTURE_THERE
        if rules.stack_defence is not None and defenders >= rules.stack_defence:
            return Move(index, start, 0, repelled=True, extra_throw=throw_extra)
    extra = (
        throw_extra
        or cell in rules.extra_throw_cells
        or (defenders > 0 and rules.extra_throw_on_capture)
    )
    return Move(index, start, target, captured=defenders, extra_throw=extra)


def refused_pieces(rules: Rules, position: Position, throw: int) -> tuple[Refused, ...]:
    """The pieces of the side to move that ``throw`` cannot move, each with the rule that stops
    it (one entry for interchangeable pieces at the same progress, as :func:`legal_moves`)."""
    if throw <= 0 or winner(rules, position) is not None:
        return ()
    side = position.to_move
    own = _occupancy(rules, position, side)
    enemy = _occupancy(rules, position, side.other)
    seen: set[tuple[int, int]] = set()
    refused = []
    for index, start in enumerate(position.pieces(side)):
        key = (index if rules.distinct_pieces else -1, start)
        if start == rules.off or key in seen:
            continue
        seen.add(key)
        outcome = _move_piece(rules, side, index, start, throw, own, enemy)
        if isinstance(outcome, Refusal):
            target = rules.entry[index].target(throw) if start == 0 else start + throw
            refused.append(Refused(index, start, target, outcome))
    return tuple(refused)


def apply_move(rules: Rules, position: Position, move: Move, throw: int) -> Position:
    """The position after ``move`` (``PASS`` included) was played with ``throw``."""
    side = position.to_move
    if move.is_pass:
        return pass_turn(rules, position, throw)
    mine = list(position.pieces(side))
    mine[move.piece] = move.end
    theirs = position.pieces(side.other)
    if move.captured:
        cell = rules.cells[side][move.end - 1]
        theirs = tuple(0 if rules.cell(side.other, p) == cell else p for p in theirs)
    moved = position.with_pieces(side, canonical(rules, tuple(mine)), side)
    moved = moved.with_pieces(side.other, canonical(rules, theirs), side)
    again = move.extra_throw and winner(rules, moved) is None
    return Position(moved.light, moved.dark, side if again else side.other)


def pass_turn(rules: Rules, position: Position, throw: int) -> Position:
    """The position after a throw that moves no piece: the turn passes, unless the throw
    earns another throw by itself and the rules keep that throw even without a move."""
    side = position.to_move
    again = rules.extra_throw_without_move and throw in rules.extra_throw_throws
    return Position(position.light, position.dark, side if again else side.other)


def winner(rules: Rules, position: Position) -> Side | None:
    """The side that has borne off every piece, if any. A draw is impossible: a game ends
    the moment one side's last piece leaves."""
    for side in Side:
        if all(p == rules.off for p in position.pieces(side)):
            return side
    return None


def successors(
    rules: Rules, position: Position, throw: int
) -> tuple[tuple[Move | None, Position], ...]:
    """Every (move, next position) for ``throw``; a single ``(None, next)`` when it passes."""
    moves = legal_moves(rules, position, throw)
    if not moves:
        return ((None, pass_turn(rules, position, throw)),)
    return tuple((m, apply_move(rules, position, m, throw)) for m in moves)
