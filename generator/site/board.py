"""The board diagram as inline SVG, drawn from the board and route data alone.

Each player's route is an arrowed line through the centres of its cells, light's drawn above
and to the left of centre, dark's below and to the right, so the shared lane shows both. A
stretch a route passes a second time (Murray's 27-square routes double back) is drawn further
out and dashed, so the two passes can be told apart. Every square carries its step numbers,
light's above and dark's below (one number when both sides count it alike), so "step 12" in a
worked example is found without counting; the numbers are sized to read at 12 px or more on a
390 px wide phone. Rosettes are drawn as eight-petal flowers; cells both routes pass through
are shaded. A dot marks each route's entry square and an arrowhead its last square.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from markupsafe import Markup

from generator.model.equipment import Board, Cell, Route, parse_cell
from generator.model.variant import ResolvedVariant
from generator.site.render import markdown_text
from generator.site.vocabulary import Vocabulary, number_ranges
from generator.words import listing

CELL = 60
MARGIN = 30
LIGHT_COLOUR = "#b5581c"
DARK_COLOUR = "#1d5a9e"
LIGHT_INK = "#8a3a0c"
DARK_INK = "#163f73"
SHARED_INK = "#3a2a10"
PHONE_CONTENT_WIDTH = 358
"""CSS pixels a figure gets on a 390 px wide phone (the theme's side padding taken off)."""
SMALLEST_TEXT_PX = 12
LANE_OFFSETS = (8.0, 18.0)
"""How far from a cell's centre a route line runs on its first and on a later pass."""


@dataclass(frozen=True)
class Pieces:
    """Pieces to draw on the board: how many of each side stand on each cell."""

    light: Counter[Cell]
    dark: Counter[Cell]


MOVE_COLOUR = "#b0126f"
"""The highlighted move: a colour neither side's pieces or routes use."""


@dataclass(frozen=True)
class MovePath:
    """A move to highlight on a worked example's board: the squares the piece leaves, passes
    over and lands on, in order; the square whose piece is ringed (where it starts before the
    move, where it lands after); when it bears off, the route's last two squares (the arrow
    leaves the board their way); and the squares of pieces the throw cannot move (crossed)."""

    path: tuple[Cell, ...]
    ringed: Cell | None
    bears_off: tuple[Cell, Cell] | None = None
    crossed: tuple[Cell, ...] = ()


def _centre(cell: Cell) -> tuple[float, float]:
    row, column = parse_cell(cell)
    return MARGIN + (column - 0.5) * CELL, MARGIN + (row - 0.5) * CELL


def _rosette(x: float, y: float) -> str:
    petals = "".join(
        f'<ellipse cx="{x:.1f}" cy="{y - 9:.1f}" rx="4" ry="9" '
        f'transform="rotate({angle} {x:.1f} {y:.1f})"/>'
        for angle in range(0, 360, 45)
    )
    return (
        f'<g class="rosette" fill="#e9c46a" stroke="#8a6d1f" stroke-width="0.8">{petals}'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#8a6d1f"/></g>'
    )


def board_svg(
    board: Board,
    route: Route | None,
    *,
    svg_id: str,
    title: str,
    description: str,
    names: Mapping[Cell, str],
    pieces: Pieces | None = None,
    move: MovePath | None = None,
    hooks: bool = False,
) -> Markup:
    """One ``<svg role="img">`` with a ``<title>`` and ``<desc>``; ``svg_id`` must be unique
    on the page (it prefixes the ids the arrow markers and the text alternative use). Text
    from the data is escaped here for HTML and for Markdown (a board may stand inside a
    Markdown table cell, where a title's ``[x](javascript:…)`` would otherwise become a link),
    so pages may print the result as markup.
    ``names`` gives each square's hover text in words (see :func:`square_names`). With
    ``hooks`` each square carries its cell (``data-cell="r1c4"``), for a script to place
    pieces on it and take clicks (the play pages)."""
    width = board.columns * CELL + 2 * MARGIN
    height = board.rows * CELL + 2 * MARGIN
    shared = route.shared_cells() if route else frozenset()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ur-board" role="img" '
        f'aria-labelledby="{svg_id}-title {svg_id}-desc" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">',
        f'<title id="{svg_id}-title">{markdown_text(title)}</title>',
        f'<desc id="{svg_id}-desc">{markdown_text(description)}</desc>',
        "<defs>",
        *(
            f'<marker id="{svg_id}-{name}" viewBox="0 0 10 10" refX="8" refY="5" '
            f'markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            for name, colour in (("light", LIGHT_COLOUR), ("dark", DARK_COLOUR))
        ),
        f'<marker id="{svg_id}-move" viewBox="0 0 10 10" refX="8" refY="5" '
        f'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{MOVE_COLOUR}"/></marker>',
        "</defs>",
    ]
    for cell in board.cells:
        x, y = _centre(cell)
        fill = "#efe3c8" if cell in shared else "#faf5ea"
        hook = f' class="square" data-cell="{cell}"' if hooks else ""
        parts.append(
            f'<rect{hook} x="{x - CELL / 2:.1f}" y="{y - CELL / 2:.1f}" '
            f'width="{CELL}" height="{CELL}" '
            f'fill="{fill}" stroke="#6b5a3a" stroke-width="1.5">'
            f"<title>{markdown_text(names[cell])}</title></rect>"
        )
        if cell in board.rosettes:
            parts.append(_rosette(x, y))
    if route is not None:
        parts.extend(_route_lines(route, svg_id))
        parts.extend(_step_numbers(route, _label_size(width)))
    if move is not None:
        parts.extend(_move_path(move, svg_id))
    if pieces is not None:
        parts.extend(_pieces(pieces))
    if move is not None:
        parts.extend(_move_marks(move))
    parts.append("</svg>")
    return Markup("".join(parts))


def _label_size(width: int) -> int:
    """The font size, in drawing units, that reads at 12 px once the drawing is scaled down to
    a phone's content width."""
    return max(16, math.ceil(SMALLEST_TEXT_PX * width / PHONE_CONTENT_WIDTH))


def _passes(cells: Sequence[Cell]) -> list[int]:
    """For each step, how many times the route has been on that cell before (0, 1, ...)."""
    seen: Counter[Cell] = Counter()
    passes = []
    for cell in cells:
        passes.append(seen[cell])
        seen[cell] += 1
    return passes


def _route_lines(route: Route, svg_id: str) -> list[str]:
    """Each side's route as polylines: solid on a first pass, dashed and further out where
    the route runs over cells it has already crossed."""
    drawn = []
    for name, cells, sign, colour in (
        ("light", route.light, -1.0, LIGHT_COLOUR),
        ("dark", route.dark, 1.0, DARK_COLOUR),
    ):
        passes = _passes(cells)
        points = []
        for cell, times in zip(cells, passes, strict=True):
            x, y = _centre(cell)
            offset = sign * LANE_OFFSETS[min(times, len(LANE_OFFSETS) - 1)]
            points.append((x + offset, y + offset, times > 0))
        runs: list[list[tuple[float, float, bool]]] = []
        for i, point in enumerate(points):
            later = point[2] or (i > 0 and points[i - 1][2])
            if runs and runs[-1][-1][2] == later:
                runs[-1].append((point[0], point[1], later))
            else:
                start = [(points[i - 1][0], points[i - 1][1], later)] if i > 0 else []
                runs.append([*start, (point[0], point[1], later)])
        for index, run in enumerate(runs):
            coords = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in run)
            dashed = ' stroke-dasharray="7 4"' if run[-1][2] else ""
            arrow = f' marker-end="url(#{svg_id}-{name})"' if index == len(runs) - 1 else ""
            drawn.append(
                f'<polyline class="route-{name}" points="{coords}" fill="none" '
                f'stroke="{colour}" stroke-width="2.5" stroke-linejoin="round" '
                f'stroke-opacity="0.85"{dashed}{arrow}/>'
            )
        sx, sy, _ = points[0]
        drawn.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="5" fill="{colour}"/>')
    return drawn


def _step_numbers(route: Route, size: int) -> list[str]:
    """Each cell's step numbers: light's above the centre, dark's below, or one shared line
    when both sides number the cell alike."""
    steps: dict[Cell, tuple[list[int], list[int]]] = {}
    for index, cells in enumerate((route.light, route.dark)):
        for step, cell in enumerate(cells, start=1):
            steps.setdefault(cell, ([], []))[index].append(step)
    drawn = []
    for cell, (light, dark) in steps.items():
        x, y = _centre(cell)
        lines: list[tuple[str, list[int], float, str]] = []
        if light == dark:
            lines.append(("both", light, y + size * 0.35, SHARED_INK))
        else:
            if light:
                lines.append(("light", light, y - CELL * 0.22 + size * 0.35, LIGHT_INK))
            if dark:
                lines.append(("dark", dark, y + CELL * 0.22 + size * 0.35, DARK_INK))
        for side, numbers, baseline, ink in lines:
            text = "·".join(str(n) for n in numbers)
            drawn.append(
                f'<text class="step step-{side}" x="{x:.1f}" y="{baseline:.1f}" '
                f'text-anchor="middle" font-size="{size}" font-weight="600" fill="{ink}" '
                f'stroke="#fffdf7" stroke-width="4" paint-order="stroke" '
                f'aria-hidden="true">{text}</text>'
            )
    return drawn


def _move_path(move: MovePath, svg_id: str) -> list[str]:
    """The squares of the move outlined, and a line through them ending in an arrowhead (past
    the last square when the piece bears off)."""
    drawn = [
        f'<rect class="move-square" x="{x - CELL / 2 + 3:.1f}" y="{y - CELL / 2 + 3:.1f}" '
        f'width="{CELL - 6}" height="{CELL - 6}" fill="none" stroke="{MOVE_COLOUR}" '
        f'stroke-width="3" stroke-dasharray="6 3"/>'
        for x, y in map(_centre, move.path)
    ]
    points = [_centre(cell) for cell in move.path]
    if move.bears_off is not None:
        (px, py), (x, y) = map(_centre, move.bears_off)
        length = math.hypot(x - px, y - py) or 1.0
        points.append((x + (x - px) / length * CELL * 0.6, y + (y - py) / length * CELL * 0.6))
    if len(points) > 1:
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        drawn.append(
            f'<polyline class="move-path" points="{coords}" fill="none" stroke="{MOVE_COLOUR}" '
            f'stroke-width="5" stroke-linecap="round" stroke-linejoin="round" '
            f'stroke-opacity="0.8" marker-end="url(#{svg_id}-move)"/>'
        )
    return drawn


def _move_marks(move: MovePath) -> list[str]:
    """A ring round the moving piece, a cross on each piece the throw cannot move."""
    drawn = []
    if move.ringed is not None:
        x, y = _centre(move.ringed)
        drawn.append(
            f'<circle class="move-piece" cx="{x:.1f}" cy="{y:.1f}" r="21" fill="none" '
            f'stroke="{MOVE_COLOUR}" stroke-width="4"/>'
        )
    for cell in move.crossed:
        x, y = _centre(cell)
        x, y = x + 14, y - 14
        drawn.append(
            f'<g class="stuck-piece" stroke="#ffffff" stroke-width="2">'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="#7a1010"/>'
            f'<path d="M{x - 4:.1f},{y - 4:.1f} L{x + 4:.1f},{y + 4:.1f} '
            f'M{x + 4:.1f},{y - 4:.1f} L{x - 4:.1f},{y + 4:.1f}"/></g>'
        )
    return drawn


def _pieces(pieces: Pieces) -> list[str]:
    drawn = []
    for side, counts, fill, stroke, text in (
        ("light", pieces.light, "#fffdf7", LIGHT_COLOUR, "#3a2a10"),
        ("dark", pieces.dark, "#223548", DARK_COLOUR, "#ffffff"),
    ):
        for cell, count in sorted(counts.items()):
            x, y = _centre(cell)
            drawn.append(
                f'<circle class="piece-{side}" cx="{x:.1f}" cy="{y:.1f}" r="15" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="3"/>'
            )
            if count > 1:
                drawn.append(
                    f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="14" '
                    f'fill="{text}">{count}</text>'
                )
    return drawn


def square_names(words: Vocabulary, board: Board, route: Route) -> dict[Cell, str]:
    """Each square's name as a reader gives it: its steps on each route, its rosette."""
    return {cell: words.square_on_route(cell, board, route) for cell in board.cells}


def route_description(words: Vocabulary, board: Board, route: Route) -> str:
    """The text alternative of a board diagram: each side's route as runs of squares through
    the rows of the board, the rosettes' steps and the shared squares, all in words."""
    said = words.drawing
    sides = []
    for side, cells in (("light", route.light), ("dark", route.dark)):
        runs = []
        step = 1
        for row, run in groupby(cells, key=lambda c: parse_cell(c)[0]):
            count = len(list(run))
            last = step + count - 1
            span = said(
                {1: "one-square", 2: "two-squares"}.get(count, "squares"), first=step, last=last
            )
            named = words.data["rows"].get(f"r{row}")
            if named is None:
                named = said("row", row=row)
            runs.append(said("run", span=span, row=named))
            step += count
        rosettes = [str(i + 1) for i, c in enumerate(cells) if c in board.rosettes]
        sides.append(
            said(
                "side",
                side=said(side),
                length=route.length,
                runs=listing(runs),
                rosettes=listing(rosettes) or said("none"),
            )
        )
    shared = [i + 1 for i, c in enumerate(route.light) if c in route.shared_cells()]
    return said(
        "board",
        board=board.title,
        sides=" ".join(sides),
        shared=number_ranges(shared) if shared else said("none"),
    )


def rulebook_board(
    words: Vocabulary, resolved: ResolvedVariant, svg_id: str, hooks: bool = False
) -> Markup:
    """A rulebook's board with both routes, titled and described in words, as its page and
    its play page draw it (``hooks``: see :func:`board_svg`)."""
    return board_svg(
        resolved.board,
        resolved.route,
        svg_id=svg_id,
        title=str(words.data["drawings"]["route"]).format(short=resolved.variant.short),
        description=route_description(words, resolved.board, resolved.route),
        names=square_names(words, resolved.board, resolved.route),
        hooks=hooks,
    )
