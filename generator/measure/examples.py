"""Worked examples: a position, a throw and every legal move, all played by the engine.

Positions come from seeded random playouts of the variant itself (the seed is derived from the
variant id with SHA-256, so the examples never change unless the rules do). One example is
chosen for each situation a reader asks about (:class:`ExampleKind`), when the variant has it: a
capture, an extra throw, a piece blocked by its own side or a safe square, and bearing off.
Each example keeps the move it shows (the capture, the bearing off ...), the position that move
leads to, and the pieces the throw cannot move with the engine's reason for each: data a page
draws and words without playing a move itself (:mod:`generator.site.examples`).

The engine's move types are re-exported here, so the pages read them from the measurement.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from generator.engine.moves import (
    Move,
    Refusal,
    Refused,
    apply_move,
    legal_moves,
    pass_turn,
    refused_pieces,
    successors,
    winner,
)
from generator.engine.position import Position, format_position, start_position
from generator.engine.rules import Rules, Side

__all__ = [
    "Example",
    "ExampleKind",
    "Move",
    "MoveLine",
    "Refusal",
    "Refused",
    "move_line",
    "worked_examples",
]


class ExampleKind(StrEnum):
    """What a worked example shows, in the order a page gives them."""

    CAPTURE = "capture"
    EXTRA_THROW = "extra-throw"
    BLOCKED = "blocked"
    BEAR_OFF = "bear-off"


@dataclass(frozen=True)
class MoveLine:
    """One legal move (``None``: no piece can move and the turn passes), where it leads, and
    the side that has won there (None: the game goes on)."""

    move: Move | None
    after: Position
    winner: Side | None = None

    @property
    def notation(self) -> str:
        return format_position(self.after)


def move_line(rules: Rules, move: Move | None, after: Position) -> MoveLine:
    """``move`` and the position it leads to, with the winner there as the engine finds it."""
    return MoveLine(move, after, winner(rules, after))


@dataclass(frozen=True)
class Example:
    kind: ExampleKind
    position: Position
    throw: int
    probability: Fraction
    moves: tuple[MoveLine, ...]
    shown: MoveLine
    """The move the example is about, drawn before and after."""
    refused: tuple[Refused, ...]

    @property
    def side(self) -> Side:
        return self.position.to_move

    @property
    def notation(self) -> str:
        return format_position(self.position)


def _seed(variant_id: str) -> int:
    return int.from_bytes(hashlib.sha256(variant_id.encode()).digest()[:8], "big")


def _shows(rules: Rules, kind: ExampleKind, move: Move) -> bool:
    """Whether ``move`` is the kind of move the example is about."""
    return {
        ExampleKind.CAPTURE: move.captured > 0,
        ExampleKind.BEAR_OFF: move.end == rules.off,
        ExampleKind.EXTRA_THROW: move.extra_throw,
        ExampleKind.BLOCKED: not move.is_pass,
    }[kind]


def _kind(
    rules: Rules, position: Position, throw: int, moves: tuple[Move, ...]
) -> ExampleKind | None:
    real = [m for m in moves if not m.is_pass]
    for kind in (ExampleKind.CAPTURE, ExampleKind.BEAR_OFF, ExampleKind.EXTRA_THROW):
        if any(_shows(rules, kind, m) for m in real):
            return kind
    if real and refused_pieces(rules, position, throw):
        return ExampleKind.BLOCKED
    return None


def worked_examples(rules: Rules, variant_id: str, *, plies: int = 1500) -> list[Example]:
    """Up to one example of each :class:`ExampleKind`, in that order, from at most ``plies``
    random moves (a reading that may never end still finishes quickly)."""
    rng = random.Random(_seed(variant_id))
    found: dict[ExampleKind, Example] = {}
    throws = [t for t, _ in rules.throws]
    weights = [float(p) for _, p in rules.throws]
    probability = dict(rules.throws)
    position = start_position(rules)
    depth = 0
    for _ in range(plies):
        if len(found) == len(ExampleKind):
            break
        if winner(rules, position) is not None:
            position, depth = start_position(rules), 0
        throw = rng.choices(throws, weights)[0]
        moves = legal_moves(rules, position, throw)
        kind = _kind(rules, position, throw, moves)
        # Skip the opening plies so the examples show a game under way.
        if kind is not None and kind not in found and depth > 12:
            found[kind] = _example(rules, kind, position, throw, probability[throw])
        # One random option, as ``successors`` lists them (a single pass when none moves);
        # only the chosen move is played.
        pick = rng.randrange(max(1, len(moves)))
        position = (
            apply_move(rules, position, moves[pick], throw)
            if moves
            else pass_turn(rules, position, throw)
        )
        depth += 1
    return [found[k] for k in ExampleKind if k in found]


def _example(
    rules: Rules, kind: ExampleKind, position: Position, throw: int, probability: Fraction
) -> Example:
    lines = tuple(
        move_line(rules, move, after) for move, after in successors(rules, position, throw)
    )
    shown = next(line for line in lines if line.move and _shows(rules, kind, line.move))
    return Example(
        kind=kind,
        position=position,
        throw=throw,
        probability=probability,
        moves=lines,
        shown=shown,
        refused=refused_pieces(rules, position, throw),
    )
