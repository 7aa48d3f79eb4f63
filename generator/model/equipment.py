"""Boards, routes and dice as validated values (``variants/equipment.yml``).

A board is a set of named cells ``r<row>c<column>`` on a grid with some cells missing; a route
is a list of waypoints joined by straight lines of cells (:func:`expand_waypoints`); dice are
exact outcome tables (:class:`Dice`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from generator.model.yamlsource import shown

Cell = str
"""A board cell named ``r<row>c<column>``, e.g. ``r2c4`` (the central rosette of the Ur board)."""

CELL_PATTERN = re.compile(r"^r([1-9][0-9]*)c([1-9][0-9]*)$")

PROBABILITY_FORM = r"^(?:[0-9]{1,9}/0*[1-9][0-9]{0,8}|[0-9]?\.[0-9]{1,9}|[0-9]{1,9})$"
"""A probability as written: a fraction ``1/8`` (never over 0), a decimal ``0.125`` or a whole
number, at most nine digits each side and no exponent. Checked before the text is read:
``Fraction("1e99999999")`` builds a hundred-million-digit number (hours), and a tiny exponent
a fraction no message can print."""


def parse_cell(cell: Cell) -> tuple[int, int]:
    """``"r2c4"`` -> ``(2, 4)``.

    >>> parse_cell("r2c4")
    (2, 4)
    """
    match = CELL_PATTERN.match(cell)
    if match is None:
        raise ValueError(f"{cell!r} is not a cell name like 'r2c4'")
    return int(match.group(1)), int(match.group(2))


def cell_name(row: int, column: int) -> Cell:
    return f"r{row}c{column}"


def mirror_cell(cell: Cell, rows: int) -> Cell:
    """The cell facing ``cell`` across the middle row (r1 <-> r3 on a three-row board)."""
    row, column = parse_cell(cell)
    return cell_name(rows + 1 - row, column)


def expand_waypoints(waypoints: Iterable[Cell]) -> tuple[Cell, ...]:
    """Join consecutive waypoints with straight lines of cells.

    >>> expand_waypoints(["r1c4", "r1c1", "r2c1", "r2c3"])
    ('r1c4', 'r1c3', 'r1c2', 'r1c1', 'r2c1', 'r2c2', 'r2c3')

    Raises ``ValueError`` when two waypoints share neither a row nor a column.
    """
    points = list(waypoints)
    if not points:
        return ()
    cells = [points[0]]
    for start, end in itertools.pairwise(points):
        (r0, c0), (r1, c1) = parse_cell(start), parse_cell(end)
        if r0 != r1 and c0 != c1:
            raise ValueError(f"waypoints {start} and {end} are not on one row or column")
        steps = max(abs(r1 - r0), abs(c1 - c0))
        if steps == 0:
            raise ValueError(f"waypoint {end} repeats the waypoint before it")
        dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
        cells.extend(cell_name(r0 + dr * i, c0 + dc * i) for i in range(1, steps + 1))
    return tuple(cells)


@dataclass(frozen=True)
class Board:
    """A board: the playable cells of a ``rows`` x ``columns`` grid, and its rosettes."""

    id: str
    title: str
    rows: int
    columns: int
    cells: tuple[Cell, ...]
    rosettes: frozenset[Cell]

    def has(self, cell: Cell) -> bool:
        return cell in self.cells


@dataclass(frozen=True)
class Route:
    """The cells each player's pieces pass through, in order (step 1 is ``light[0]``)."""

    id: str
    title: str
    board: str
    light: tuple[Cell, ...]
    dark: tuple[Cell, ...]

    @property
    def length(self) -> int:
        return len(self.light)

    def shared_cells(self) -> frozenset[Cell]:
        """Cells on both players' routes: the only cells where the two sides can meet."""
        return frozenset(self.light) & frozenset(self.dark)


@dataclass(frozen=True)
class Outcome:
    """One outcome of a throw: how far it moves (0 = no move) and its exact probability."""

    throw: int
    probability: Fraction
    label: str


@dataclass(frozen=True)
class Dice:
    """A chance device as an exact outcome table."""

    id: str
    title: str
    outcomes: tuple[Outcome, ...]

    def table(self) -> tuple[tuple[int, Fraction], ...]:
        """Throws with their total probability, ascending, equal throws merged.

        >>> four = binary_lots("four-binary", "", 4, {0: 0, 1: 1, 2: 2, 3: 3, 4: 4})
        >>> [(t, str(p)) for t, p in four.table()]
        [(0, '1/16'), (1, '1/4'), (2, '3/8'), (3, '1/4'), (4, '1/16')]
        """
        merged: dict[int, Fraction] = {}
        for outcome in self.outcomes:
            merged[outcome.throw] = merged.get(outcome.throw, Fraction(0)) + outcome.probability
        return tuple(sorted((t, p) for t, p in merged.items() if p > 0))

    def total(self) -> Fraction:
        return sum((o.probability for o in self.outcomes), Fraction(0))


def binary_lots(
    dice_id: str,
    title: str,
    lots: int,
    counts: Mapping[int, int],
    marked: Fraction = Fraction(1, 2),
) -> Dice:
    """Dice made of ``lots`` binary lots, each marked with probability ``marked``.

    ``counts`` maps the number of marked lots to the throw it counts as; it names no more
    marked lots than there are lots.
    """
    beyond = sorted(k for k in counts if not 0 <= k <= lots)
    if beyond:
        raise ValueError(
            f"counts names {shown(beyond[0])} marked lots, but there are {lots} lots;"
            f" give a throw for 0 to {lots} marked lots only"
        )
    outcomes = []
    for k in range(lots + 1):
        probability = Fraction(_binomial(lots, k)) * marked**k * (1 - marked) ** (lots - k)
        outcomes.append(Outcome(counts[k], probability, f"{k} marked"))
    return Dice(dice_id, title, tuple(outcomes))


def _binomial(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def parse_fraction(value: Any) -> Fraction:
    """A probability written as ``1/8``, ``0.125`` or ``1``; exact. Its written form
    (:data:`PROBABILITY_FORM`) is checked first, so no exponent or thousand-digit number is
    ever turned into a fraction.

    >>> parse_fraction("1/8"), parse_fraction(0.125), parse_fraction(1), parse_fraction(0.00001)
    (Fraction(1, 8), Fraction(1, 8), Fraction(1, 1), Fraction(1, 100000))
    >>> parse_fraction("1e99999999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: probability '1e99999999' has the wrong form; write a fraction such as 1/8 ...
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"{value!r} is not a probability like 1/8")
    # A float is read by its decimals: 0.00001 as written, not Python's 1e-05.
    text = format(Decimal(repr(value)), "f") if isinstance(value, float) else str(value).strip()
    if not re.match(PROBABILITY_FORM, text):
        raise ValueError(
            f"probability {str(value)[:40]!r} has the wrong form; write a fraction such as 1/8"
            " or a decimal such as 0.125 (at most nine digits each side, no exponent)"
        )
    return Fraction(text)


@dataclass(frozen=True)
class Equipment:
    boards: Mapping[str, Board]
    routes: Mapping[str, Route]
    dice: Mapping[str, Dice]
