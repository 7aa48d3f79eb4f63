"""Worked examples: a position, a throw and every legal move, all computed by the engine.

Positions come from seeded random playouts of the variant itself (the seed is derived from the
variant id with SHA-256, so the examples never change unless the rules do). One example is
chosen for each situation a reader asks about, when the variant has it: a capture, an extra
throw, a piece blocked by its own side or a safe square, and bearing off. Each example keeps
the move it shows (the capture, the bearing off ...), the position that move leads to, and the
pieces the throw cannot move with the engine's reason for each, so a page can draw the move
and say in words which piece is stuck and why.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from generator.engine.moves import (
    Move,
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
from generator.model.equipment import Cell
from generator.site.board import Pieces
from generator.site.vocabulary import Vocabulary, listing

KINDS = {
    "capture": "A capture",
    "extra-throw": "A move that earns another throw",
    "blocked": "A throw some pieces cannot use",
    "bear-off": "Bearing off",
}


@dataclass(frozen=True)
class MoveLine:
    """One legal move (``None``: no piece can move and the turn passes) and where it leads."""

    move: Move | None
    after: Position

    @property
    def notation(self) -> str:
        return format_position(self.after)


@dataclass(frozen=True)
class Example:
    kind: str
    title: str
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


def _shows(rules: Rules, kind: str, move: Move) -> bool:
    """Whether ``move`` is the kind of move the example is about."""
    return {
        "capture": move.captured > 0,
        "bear-off": move.end == rules.off,
        "extra-throw": move.extra_throw,
        "blocked": not move.is_pass,
    }[kind]


def _kind(rules: Rules, position: Position, throw: int, moves: tuple[Move, ...]) -> str | None:
    real = [m for m in moves if not m.is_pass]
    for kind in ("capture", "bear-off", "extra-throw"):
        if any(_shows(rules, kind, m) for m in real):
            return kind
    if real and refused_pieces(rules, position, throw):
        return "blocked"
    return None


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
        # One random option, as ``successors`` lists them (a single pass when none moves);
        # only the chosen move is played.
        pick = rng.randrange(max(1, len(moves)))
        position = (
            apply_move(rules, position, moves[pick], throw)
            if moves
            else pass_turn(rules, position, throw)
        )
        depth += 1
    return [found[k] for k in KINDS if k in found]


def _example(
    rules: Rules, kind: str, position: Position, throw: int, probability: Fraction
) -> Example:
    lines = tuple(MoveLine(move, after) for move, after in successors(rules, position, throw))
    shown = next(line for line in lines if line.move and _shows(rules, kind, line.move))
    return Example(
        kind=kind,
        title=KINDS[kind],
        position=position,
        throw=throw,
        probability=probability,
        moves=lines,
        shown=shown,
        refused=refused_pieces(rules, position, throw),
    )


# --- the drawing ---------------------------------------------------------------------------


def pieces_on_board(rules: Rules, position: Position) -> Pieces:
    counts: list[Counter[Cell]] = []
    for side in Side:
        counts.append(
            Counter(c for p in position.pieces(side) if (c := rules.cell(side, p)) is not None)
        )
    return Pieces(light=counts[0], dark=counts[1])


def landing(rules: Rules, move: Move, throw: int) -> int:
    """The progress the throw takes the piece to (before a stack may send it back)."""
    if not move.repelled:
        return move.end
    return rules.entry[move.piece].target(throw) if move.start == 0 else move.start + throw


def path_cells(rules: Rules, side: Side, move: Move, throw: int) -> tuple[Cell, ...]:
    """The squares the piece leaves, passes over and lands on, in order (its square in hand
    and off the board have none)."""
    first = max(move.start, 1)
    last = min(landing(rules, move, throw), rules.route_length)
    return tuple(rules.cells[side][step - 1] for step in range(first, last + 1))


# --- the words -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ExampleWords:
    """Positions, moves and refusals of one variant's examples in a reader's words: squares by
    their step on the mover's route, rosettes by name (never a grid name or the notation)."""

    rules: Rules
    words: Vocabulary
    rosettes: Mapping[Cell, str]

    def square(self, side: Side, progress: int) -> str:
        cell = self.rules.cells[side][progress - 1]
        name = self.rosettes.get(cell)
        return f"square {progress}" + (f" ({name})" if name else "")

    def piece(self, side: Side, index: int, progress: int) -> str:
        """ "the piece on square 7", "a piece in hand", "the swallow" (named pieces)."""
        if self.rules.distinct_pieces and self.rules.entry[index].name:
            name = str(self.rules.entry[index].name).replace("-", " ")
            where = "in hand" if progress == 0 else f"on {self.square(side, progress)}"
            return f"the {name} ({where})"
        return "a piece in hand" if progress == 0 else f"the piece on {self.square(side, progress)}"

    def position(self, position: Position) -> str:
        """Where each side's pieces stand, as squares of its own route."""
        parts = []
        for side in Side:
            pieces = position.pieces(side)
            steps = sorted(p for p in pieces if 0 < p < self.rules.off)
            on = (
                f"on {'squares' if len(steps) > 1 else 'square'} "
                f"{listing([str(s) for s in steps])} of its route"
                if steps
                else "none on the board"
            )
            hand = sum(1 for p in pieces if p == 0) or "none"
            off = sum(1 for p in pieces if p == self.rules.off) or "none"
            parts.append(f"{side.name.capitalize()}: {on}, {hand} in hand, {off} borne off.")
        return " ".join(parts)

    def move(self, side: Side, line: MoveLine, throw: int) -> str:
        """The move as a sentence: which piece goes where, what it captures, what follows."""
        move = line.move
        if move is None:
            return "No piece can move: the turn passes."
        if move.is_pass:
            return f"{side.name.capitalize()} declines to move; the turn passes."
        who = self.piece(side, move.piece, move.start)
        if move.repelled:
            target = self.square(side, landing(self.rules, move, throw))
            text = f"Moves {who} onto the enemy stack on {target}, which sends it back to hand"
        elif move.end == self.rules.off:
            text = f"Bears off {who}"
        elif move.start == 0:
            text = f"Enters {who} onto {self.square(side, move.end)}"
        else:
            text = f"Moves {who} to {self.square(side, move.end)}"
        if move.captured:
            count = "the" if move.captured == 1 else f"all {move.captured}"
            pieces = "piece" if move.captured == 1 else "pieces"
            text += f", capturing {count} {side.other.name.lower()} {pieces} there (back to hand)"
        if winner(self.rules, line.after) is not None:
            text += f"; {side.name.lower()} has borne off every piece and wins"
        elif line.after.to_move == side:
            text += f"; {side.name.lower()} throws again"
        return text + "."

    def refusal(self, side: Side, refused: Refused, throw: int) -> str:
        """Which piece the throw cannot move, and the rule that stops it."""
        who = self.piece(side, refused.piece, refused.start)
        entry = self.rules.entry[refused.piece]
        target = (
            self.square(side, refused.target)
            if refused.target <= self.rules.route_length
            else "the end of its route"
        )
        why = str(self.words.data["refusals"][refused.reason.value]).format(
            target=target,
            throw=throw,
            exact=self.rules.off - refused.start,
            throws=self.words.throws(sorted(entry.throws or ())),
        )
        verb = "enter" if refused.start == 0 else "move"
        return f"{who[:1].upper()}{who[1:]} cannot {verb}: {why}."
