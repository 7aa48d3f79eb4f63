"""Worked examples: a position, a throw and every legal move, all computed by the engine.

Positions come from seeded random playouts of the variant itself (the seed is derived from the
variant id with SHA-256, so the examples never change unless the rules do). One example is
chosen for each situation a reader asks about, when the variant has it: a capture, an extra
throw, a piece blocked by its own side or a safe square, and bearing off.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from generator.engine.moves import Move, legal_moves, successors, winner
from generator.engine.position import Position, format_position, start_position
from generator.engine.rules import Rules, Side
from generator.model.equipment import Cell
from generator.site.board import Pieces

KINDS = {
    "capture": "A capture",
    "extra-throw": "A move that earns another throw",
    "blocked": "A throw some pieces cannot use",
    "bear-off": "Bearing off",
}


@dataclass(frozen=True)
class MoveLine:
    description: str
    result: str


@dataclass(frozen=True)
class Example:
    kind: str
    title: str
    position: Position
    notation: str
    throw: int
    probability: Fraction
    moves: tuple[MoveLine, ...]
    pieces: Pieces
    in_hand: tuple[int, int]
    borne_off: tuple[int, int]

    @property
    def side(self) -> str:
        return self.position.to_move.name.lower()


def _seed(variant_id: str) -> int:
    return int.from_bytes(hashlib.sha256(variant_id.encode()).digest()[:8], "big")


def _kind(rules: Rules, position: Position, throw: int, moves: tuple[Move, ...]) -> str | None:
    real = [m for m in moves if not m.is_pass]
    if any(m.captured for m in real):
        return "capture"
    if any(m.end == rules.off for m in real):
        return "bear-off"
    if any(m.extra_throw for m in real):
        return "extra-throw"
    movable = {p for p in position.pieces(position.to_move) if p != rules.off}
    if real and len({m.start for m in real}) < len(movable):
        return "blocked"
    return None


def _pieces_on_board(rules: Rules, position: Position) -> Pieces:
    counts: list[Counter[Cell]] = []
    for side in Side:
        counts.append(
            Counter(c for p in position.pieces(side) if (c := rules.cell(side, p)) is not None)
        )
    return Pieces(light=counts[0], dark=counts[1])


def worked_examples(rules: Rules, variant_id: str, *, plies: int = 1500) -> list[Example]:
    """Up to one example of each kind in :data:`KINDS`, in that order, from at most ``plies``
    random moves (a reading that may never end still finishes quickly)."""
    rng = random.Random(_seed(variant_id))
    found: dict[str, Example] = {}
    throws = [t for t, _ in rules.throws]
    weights = [float(p) for _, p in rules.throws]
    probability = dict(rules.throws)
    position = start_position(rules)
    depth = 0
    for _ in range(plies):
        if len(found) == len(KINDS):
            break
        if winner(rules, position) is not None:
            position, depth = start_position(rules), 0
        throw = rng.choices(throws, weights)[0]
        moves = legal_moves(rules, position, throw)
        kind = _kind(rules, position, throw, moves)
        # Skip the opening plies so the examples show a game under way.
        if kind is not None and kind not in found and depth > 12:
            found[kind] = _example(rules, kind, position, throw, probability[throw])
        options = successors(rules, position, throw)
        position = options[rng.randrange(len(options))][1]
        depth += 1
    return [found[k] for k in KINDS if k in found]


def _example(
    rules: Rules, kind: str, position: Position, throw: int, probability: Fraction
) -> Example:
    side = position.to_move
    lines = []
    for move, after in successors(rules, position, throw):
        text = "no legal move: the turn passes" if move is None else move.describe(rules, side)
        if after.to_move == side and winner(rules, after) is None:
            text += "; the same player throws again" if "throws again" not in text else ""
        lines.append(MoveLine(text, format_position(after)))
    return Example(
        kind=kind,
        title=KINDS[kind],
        position=position,
        notation=format_position(position),
        throw=throw,
        probability=probability,
        moves=tuple(lines),
        pieces=_pieces_on_board(rules, position),
        in_hand=tuple(sum(1 for p in position.pieces(s) if p == 0) for s in Side),  # type: ignore[arg-type]
        borne_off=tuple(sum(1 for p in position.pieces(s) if p == rules.off) for s in Side),  # type: ignore[arg-type]
    )
