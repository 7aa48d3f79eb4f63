"""The learn page's lessons: for the common rules, one position built from the rulebook's data
for each step of a game (a piece moving, landing on a rosette, capturing, bearing off, winning),
the throw, and the move the engine plays there with what it leads to.

Nothing is typed by hand for one rulebook: each position is a piece a common throw
(:func:`common_throw`) short of a rosette, of an enemy in the middle row, of the end of the
route, on that rulebook's own route; the engine plays it and says which pieces the throw cannot
move. The page draws the scenes and words them (:mod:`generator.site.learn_page`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from generator.engine.moves import Move, Refusal, Refused, apply_move, legal_moves, refused_pieces
from generator.engine.moves import winner as winner_of
from generator.engine.position import Position, canonical
from generator.engine.rules import Rules, Side, compile_rules
from generator.measure.examples import MoveLine, move_line
from generator.model.equipment import Cell
from generator.model.variant import ResolvedVariant


@dataclass(frozen=True)
class Scene:
    """A position built from the rulebook's data, a throw, and the move the engine plays."""

    position: Position
    throw: int
    move: Move
    after: Position
    refused: tuple[Refused, ...]
    """The pieces this throw cannot move that the step is about (crossed on the drawing)."""
    line: MoveLine
    """The move and where it leads, as a page words it."""
    others: tuple[MoveLine, ...]
    """The other moves the same throw allows, each with where it leads."""


@dataclass(frozen=True)
class Lesson:
    """The learn page's scenes for one rulebook, by step (None: the rules have no such move),
    and the throw they use."""

    throw: int
    scenes: dict[str, Scene | None]


def lesson(resolved: ResolvedVariant) -> Lesson:
    """Every step's scene for ``resolved``, in the page's order."""
    builder = Builder(resolved)
    return Lesson(
        builder.throw,
        {
            "moving": builder.moving(),
            "rosette": builder.rosette(),
            "capture": builder.capture(),
            "bear-off": builder.bear_off(),
            "winning": builder.winning(),
        },
    )


class Builder:
    """The positions of the page's examples, built from one rulebook's rules for light."""

    def __init__(self, resolved: ResolvedVariant) -> None:
        self.resolved = resolved
        self.rules = compile_rules(resolved)
        self.rosettes = resolved.board.rosettes
        self.shared = resolved.route.shared_cells()
        self.throw = common_throw(self.rules)

    def light_cell(self, step: int) -> Cell:
        return self.rules.cells[Side.LIGHT][step - 1]

    def dark_step(self, cell: Cell) -> int:
        return self.rules.cells[Side.DARK].index(cell) + 1

    def plain(self, step: int) -> bool:
        """A square of light's route with nothing special: not a rosette, not shared."""
        cell = self.light_cell(step)
        return cell not in self.rosettes and cell not in self.shared

    def position(self, light: Iterable[int], dark: Iterable[int] = (), off: int = 0) -> Position:
        """Light to move; the pieces not named are in hand (``off`` of light's borne off)."""
        rules = self.rules
        placed = [*light, *(rules.off,) * off]
        light_pieces = (*placed, *(0,) * (rules.pieces - len(placed)))
        dark_placed = list(dark)
        dark_pieces = (*dark_placed, *(0,) * (rules.pieces - len(dark_placed)))
        return Position(canonical(rules, light_pieces), canonical(rules, dark_pieces), Side.LIGHT)

    def scene(
        self, position: Position, start: int, shows: Callable[[Move], bool], refusal: Refusal
    ) -> Scene | None:
        """The move of the piece on ``start`` if the engine allows it and it ``shows`` what the
        step is about; the refusals of kind ``refusal`` kept for the drawing."""
        throw = self.throw
        move = next((m for m in legal_moves(self.rules, position, throw) if m.start == start), None)
        if move is None or not shows(move):
            return None
        refused = tuple(
            r for r in refused_pieces(self.rules, position, throw) if r.reason is refusal
        )
        after = apply_move(self.rules, position, move, throw)
        others = tuple(
            move_line(self.rules, other, apply_move(self.rules, position, other, throw))
            for other in legal_moves(self.rules, position, throw)
            if other != move
        )
        line = move_line(self.rules, move, after)
        return Scene(position, throw, move, after, refused, line, others)

    def moving(self) -> Scene | None:
        """A piece on one of light's own squares moving the common throw to another."""
        t, length = self.throw, self.rules.route_length
        for start in range(1, length - t + 1):
            if self.plain(start) and self.plain(start + t):
                found = self.scene(
                    self.position([start]),
                    start,
                    lambda m: not m.extra_throw and not m.captured,
                    Refusal.OWN_PIECE,
                )
                if found:
                    return found
        return None

    def rosette(self) -> Scene | None:
        """A piece landing on a rosette that earns another throw; where a rosette both routes
        share is safe, an enemy piece on it and a light piece the throw cannot bring there."""
        t = self.throw
        steps = range(1, self.rules.route_length + 1)
        earning = [s for s in steps if self.light_cell(s) in self.rules.extra_throw_cells]
        guarded = [
            s
            for s in steps
            if self.light_cell(s) in self.rules.safe_cells & self.shared and s - t >= 1
        ]
        for target in earning:
            start = target - t
            if start < 1 or self.light_cell(start) in self.rosettes:
                continue
            light, dark = [start], []
            for safe in guarded:
                if safe != target and safe - t != start and self.plain_or_shared(safe - t):
                    light.append(safe - t)
                    dark.append(self.dark_step(self.light_cell(safe)))
                    break
            found = self.scene(
                self.position(light, dark), start, lambda m: m.extra_throw, Refusal.SAFE_SQUARE
            )
            if found:
                return found
        return None

    def plain_or_shared(self, step: int) -> bool:
        return step >= 1 and self.light_cell(step) not in self.rosettes

    def capture(self) -> Scene | None:
        """A light piece landing on a dark piece where the routes meet (preferably moving along
        the shared squares, as most captures do)."""
        t = self.throw
        options = []
        for target in range(t + 1, self.rules.route_length + 1):
            cell = self.light_cell(target)
            if cell in self.shared and cell not in self.rules.safe_cells:
                start = target - t
                if self.light_cell(start) not in self.rosettes:
                    options.append((self.light_cell(start) not in self.shared, target, start))
        for _, target, start in sorted(options):
            position = self.position([start], [self.dark_step(self.light_cell(target))])
            found = self.scene(position, start, lambda m: m.captured > 0, Refusal.SAFE_SQUARE)
            if found:
                return found
        return None

    def bear_off(self) -> Scene | None:
        """The throw takes one piece exactly off the board; a piece nearer the end cannot use
        it when bearing off needs the exact throw. The rest are already off."""
        t, length = self.throw, self.rules.route_length
        start = length + 1 - t
        light = [start] if t == 1 else [start, length]
        position = self.position(light, off=self.rules.pieces - len(light))
        return self.scene(position, start, lambda m: m.end == self.rules.off, Refusal.OVERSHOOTS)

    def winning(self) -> Scene | None:
        """The last piece borne off: the game is won."""
        start = self.rules.route_length + 1 - self.throw
        position = self.position([start], off=self.rules.pieces - 1)

        def wins(move: Move) -> bool:
            after = apply_move(self.rules, position, move, self.throw)
            return winner_of(self.rules, after) is Side.LIGHT

        return self.scene(position, start, wins, Refusal.OVERSHOOTS)


def common_throw(rules: Rules) -> int:
    """The likeliest throw that moves a piece (the smaller of equally likely ones)."""
    moving = [(p, -t) for t, p in rules.throws if t > 0]
    return -max(moving)[1]
