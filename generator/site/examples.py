"""Worked examples drawn and put in words: the boards before and after the move, the squares
it passes, and every move and refusal as a sentence. The examples themselves (positions, the
moves the engine allows, the pieces it refuses and why) are measured:
:mod:`generator.measure.examples`; this module only reads them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.position import Position
from generator.engine.rules import Rules, Side
from generator.measure.examples import ExampleKind, Move, MoveLine, Refused
from generator.model.equipment import Cell
from generator.site.board import Pieces
from generator.site.vocabulary import Vocabulary
from generator.words import listing

KIND_TITLES = {
    ExampleKind.CAPTURE: "A capture",
    ExampleKind.EXTRA_THROW: "A move that earns another throw",
    ExampleKind.BLOCKED: "A throw some pieces cannot use",
    ExampleKind.BEAR_OFF: "Bearing off",
}
"""Each kind of worked example's heading."""


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
        if line.winner is not None:
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
