"""The board diagram as inline SVG, drawn from the board and route data alone.

Each player's route is an arrowed line through the centres of its cells, light's drawn above
and to the left of centre, dark's below and to the right, so the shared lane shows both.
Rosettes are drawn as eight-petal flowers; cells both routes pass through are shaded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from itertools import groupby

from generator.model.equipment import Board, Cell, Route, parse_cell
from generator.site.vocabulary import Vocabulary, listing, number_ranges

CELL = 52
MARGIN = 30
LIGHT_COLOUR = "#b5581c"
DARK_COLOUR = "#1d5a9e"


@dataclass(frozen=True)
class Pieces:
    """Pieces to draw on the board: how many of each side stand on each cell."""

    light: Counter[Cell]
    dark: Counter[Cell]


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


def _route_path(cells: Sequence[Cell], offset: float) -> str:
    points = [_centre(c) for c in cells]
    coords = " ".join(f"{x + offset:.1f},{y + offset:.1f}" for x, y in points)
    return coords


def board_svg(
    board: Board,
    route: Route | None,
    *,
    svg_id: str,
    title: str,
    description: str,
    names: Mapping[Cell, str],
    pieces: Pieces | None = None,
) -> str:
    """One ``<svg role="img">`` with a ``<title>`` and ``<desc>``; ``svg_id`` must be unique
    on the page (it prefixes the ids the arrow markers and the text alternative use).
    ``names`` gives each square's hover text in words (see :func:`square_names`)."""
    width = board.columns * CELL + 2 * MARGIN
    height = board.rows * CELL + 2 * MARGIN
    shared = route.shared_cells() if route else frozenset()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ur-board" role="img" '
        f'aria-labelledby="{svg_id}-title {svg_id}-desc" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">',
        f'<title id="{svg_id}-title">{escape(title)}</title>',
        f'<desc id="{svg_id}-desc">{escape(description)}</desc>',
        "<defs>",
        *(
            f'<marker id="{svg_id}-{name}" viewBox="0 0 10 10" refX="8" refY="5" '
            f'markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            for name, colour in (("light", LIGHT_COLOUR), ("dark", DARK_COLOUR))
        ),
        "</defs>",
    ]
    for cell in board.cells:
        x, y = _centre(cell)
        fill = "#efe3c8" if cell in shared else "#faf5ea"
        parts.append(
            f'<rect x="{x - CELL / 2:.1f}" y="{y - CELL / 2:.1f}" width="{CELL}" height="{CELL}" '
            f'fill="{fill}" stroke="#6b5a3a" stroke-width="1.5">'
            f"<title>{escape(names[cell])}</title></rect>"
        )
        if cell in board.rosettes:
            parts.append(_rosette(x, y))
    if route is not None:
        for name, cells, offset, colour in (
            ("light", route.light, -7.0, LIGHT_COLOUR),
            ("dark", route.dark, 7.0, DARK_COLOUR),
        ):
            parts.append(
                f'<polyline class="route-{name}" points="{_route_path(cells, offset)}" '
                f'fill="none" stroke="{colour}" stroke-width="2.5" stroke-linejoin="round" '
                f'stroke-opacity="0.85" marker-end="url(#{svg_id}-{name})"/>'
            )
            sx, sy = _centre(cells[0])
            parts.append(
                f'<circle cx="{sx + offset:.1f}" cy="{sy + offset:.1f}" r="4" fill="{colour}"/>'
            )
    if pieces is not None:
        parts.extend(_pieces(pieces))
    parts.append("</svg>")
    return "".join(parts)


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
    sides = []
    for side, cells in (("Light", route.light), ("Dark", route.dark)):
        runs = []
        step = 1
        for row, run in groupby(cells, key=lambda c: parse_cell(c)[0]):
            count = len(list(run))
            last = step + count - 1
            span = {1: f"square {step}", 2: f"squares {step} and {last}"}.get(
                count, f"squares {step} to {last}"
            )
            runs.append(f"{span} in {words.data['rows'].get(f'r{row}', f'row {row}')}")
            step += count
        rosettes = [str(i + 1) for i, c in enumerate(cells) if c in board.rosettes]
        sides.append(
            f"{side}'s route ({route.length} squares): {listing(runs)}, then off the board; "
            f"rosettes on its squares {listing(rosettes) or 'none'}."
        )
    shared = [i + 1 for i, c in enumerate(route.light) if c in route.shared_cells()]
    return (
        f"{board.title}. {' '.join(sides)} Squares both routes pass through (shaded): "
        f"light's squares {number_ranges(shared) if shared else 'none'}."
    )
