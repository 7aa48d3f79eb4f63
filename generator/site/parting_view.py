"""A pair page's parting positions drawn: for one question on which two rulebooks play
differently, the position the engine found where their legal results part
(:mod:`generator.measure.parting`), on two boards side by side, one per rulebook, each marking
a move that rulebook's answer allows and the other's does not (or allows with another result),
with every legal move of the throw in words. This module only reads the measurement.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from generator.engine.rules import Rules, Side, compile_rules
from generator.measure.examples import MoveLine
from generator.measure.parting import Parting
from generator.model.variant import ResolvedVariant, Variant
from generator.site.board import MovePath, board_svg, square_names
from generator.site.examples import ExampleWords, path_cells, pieces_on_board
from generator.site.vocabulary import Vocabulary


@dataclass(frozen=True)
class PartingSide:
    """One rulebook's board at the parting position, and its legal moves in words, each with
    whether the other rulebook's answer lacks it."""

    variant: Variant
    svg: Markup
    moves: tuple[tuple[str, bool], ...]

    @property
    def differing(self) -> tuple[str, ...]:
        return tuple(text for text, only in self.moves if only)


@dataclass(frozen=True)
class DrawnParting:
    """The parting as the page shows it: whose game the position is from, the side to move,
    the throw, how far from the start, where the pieces stand, and each rulebook's side (in
    the page's order)."""

    host: Variant
    mover: str
    throw: int
    plies: int
    position: str
    sides: tuple[PartingSide, PartingSide]


def draw_parting(
    words: Vocabulary,
    host: ResolvedVariant,
    variants: tuple[Variant, Variant],
    parting: Parting,
    anchor: str,
) -> DrawnParting:
    """Both boards of ``parting``, drawn on the host's board and route (the position is the
    host's game's; the other rulebook's answer is played on it)."""
    rules = compile_rules(host)
    board, route = host.board, host.route
    rosettes = {c: n for c in board.rosettes if (n := words.rosette_name(c, board.id))}
    writer = ExampleWords(rules, words, rosettes)
    side = parting.position.to_move
    mover = side.name.lower()
    names = square_names(words, board, route)
    where = writer.position(parting.position)

    def said(line: MoveLine) -> str:
        sentence = writer.move(side, line, parting.throw)
        return sentence if line.move is None else f"{mover.capitalize()} {lower(sentence)}"

    def drawn(variant: Variant, other: Variant) -> PartingSide:
        lines = parting.lines[variant.id]
        theirs = set(parting.lines[other.id])
        moves = tuple((said(line), line not in theirs) for line in lines)
        marked = next((line for line in lines if line not in theirs), None)
        title = words.drawing("parting", short=variant.short, side=mover, throw=parting.throw)
        svg = board_svg(
            board,
            route,
            svg_id=f"{anchor}-{variant.id}",
            title=title,
            description=f"{where} {' '.join(text for text, _ in moves)}",
            names=names,
            pieces=pieces_on_board(rules, parting.position),
            move=_marked(rules, marked, parting.throw, side) if marked else None,
        )
        return PartingSide(variant, svg, moves)

    a, b = variants
    game = a if a.id == parting.host else b
    return DrawnParting(
        game, mover, parting.throw, parting.plies, where, (drawn(a, b), drawn(b, a))
    )


def _marked(rules: Rules, line: MoveLine, throw: int, side: Side) -> MovePath | None:
    """The path of a move this rulebook's answer allows and the other's does not (none for a
    turn that passes)."""
    move = line.move
    if move is None or move.is_pass:
        return None
    bears_off = (rules.cells[side][-2], rules.cells[side][-1]) if move.end == rules.off else None
    return MovePath(path_cells(rules, side, move, throw), rules.cell(side, move.start), bears_off)


def lower(text: str) -> str:
    return text[:1].lower() + text[1:]
