"""Compiled :class:`~generator.engine.rules.Rules` as one flat int64 array for the native kernel.

Nothing here knows a variant: the packed array is laid out by two tables, :data:`SCALARS` (the
header's numbers) and :data:`SEGMENTS` (arrays after the header, each found through an offset
slot), and every entry names the fields of :class:`Rules` it encodes. A new field of the
compiled rules is encoded by one entry here (and its ``H_``/``O_`` name for the kernel); a field
the kernel has no use for is listed in :data:`NOT_ENCODED` with the reason.
``tests/test_encode.py`` fails on a field that is neither, and on an entry that reads a field it
does not name. The kernel (:mod:`generator.sim.kernel_moves`) reads only this array.

Board cells become integer ids; progress ``0`` (in hand) and ``off`` (borne off) map to cell id
``-1``. The layout is part of every simulation record's key (the packed array is), so an entry
is only ever appended: the ones here reproduce the records' arrays bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from generator.engine.rules import Rules, Side

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


UNIT_STEPS = 1 << 53
"""Throw probabilities become integer thresholds out of 2**53 (exact for the usual dice)."""


def numbered_route_cells(rules: Rules) -> tuple[dict[str, int], IntArray]:
    """Number the cells the routes use (light's first, in route order) and give each side's
    route as cell numbers: ``route[side, progress]``, -1 in hand (0) and borne off (L + 1)."""
    cell_ids: dict[str, int] = {}
    for side in Side:
        for cell in rules.cells[side]:
            cell_ids.setdefault(cell, len(cell_ids))
    route = np.full((2, rules.route_length + 2), -1, dtype=np.int64)
    for side in Side:
        for step, cell in enumerate(rules.cells[side], start=1):
            route[side, step] = cell_ids[cell]
    return cell_ids, route


@dataclass(frozen=True)
class Frame:
    """What several entries share, worked out once from the fields in :data:`FRAME_READS`: the
    numbered cells, the throws that occur and how wide a per-throw array is."""

    cell_ids: dict[str, int]
    route_cells: IntArray
    """``[side, progress]`` -> cell id, ``-1`` in hand (0) and borne off (``off``)."""
    throw_values: IntArray
    """The throws of non-zero probability, in the dice table's order."""
    throw_cumulative: FloatArray
    """Cumulative probability of ``throw_values`` (the last entry is exactly 1)."""
    width: int
    """Per-throw arrays run over throws ``0 .. width - 1``."""


FRAME_READS = ("cells", "route_length", "throws", "extra_throw_throws")


def frame(rules: Rules) -> Frame:
    cell_ids, route_cells = numbered_route_cells(rules)
    throws = [(t, p) for t, p in rules.throws if p > 0]
    values = np.array([t for t, _ in throws], dtype=np.int64)
    cumulative = np.cumsum([float(p) for _, p in throws]).astype(np.float64)
    cumulative[-1] = 1.0
    top = max(int(values.max()), max(rules.extra_throw_throws, default=0))
    return Frame(cell_ids, route_cells, values, cumulative, top + 1)


Value = TypeVar("Value", int, IntArray)


@dataclass(frozen=True)
class Entry(Generic[Value]):
    """One slot of the packed array: its name, the :class:`Rules` fields it encodes (besides
    those the :class:`Frame` reads) and how."""

    name: str
    reads: tuple[str, ...]
    encode: Callable[[Rules, Frame], Value]


def _cell_flags(rules: Rules, at: Frame, marked: Callable[[str], bool]) -> IntArray:
    flags = np.zeros(len(at.cell_ids), dtype=np.int64)
    for cell, ident in at.cell_ids.items():
        flags[ident] = marked(cell)
    return flags


def _attackable(rules: Rules, at: Frame) -> IntArray:
    """``[cell]``: an enemy piece here can be captured. Enemies only ever meet on cells both
    routes pass through; marking the others would not change play, and leaving them out makes
    equal games encode equally (the sensitivity runs rely on that to recognise a change that
    changes nothing)."""
    meeting = set(rules.cells[Side.LIGHT]) & set(rules.cells[Side.DARK])
    return _cell_flags(rules, at, lambda c: c in meeting and c in rules.attackable_cells)


def _thresholds(rules: Rules, at: Frame) -> IntArray:
    """Cumulative throw probabilities out of :data:`UNIT_STEPS` (the last exactly all)."""
    thresholds = np.rint(at.throw_cumulative * UNIT_STEPS).astype(np.int64)
    thresholds[-1] = UNIT_STEPS
    return thresholds


def _throw_extra(rules: Rules, at: Frame) -> IntArray:
    """``[throw]``: the throw itself earns another throw (with a move)."""
    earns = np.zeros(at.width, dtype=np.int64)
    for t in rules.extra_throw_throws:
        earns[t] = 1
    return earns


def _extra_without_move(rules: Rules, at: Frame) -> int:
    """An extra-throw throw earns another throw even when it moves no piece (0 where no throw
    that occurs earns one, so that equal games encode equally)."""
    occurring = any(int(t) in rules.extra_throw_throws for t in at.throw_values)
    return int(rules.extra_throw_without_move and occurring)


def _entry_allowed(rules: Rules, at: Frame) -> IntArray:
    """``[piece, throw]`` (flattened): the piece may enter with this throw."""
    allowed = np.zeros((rules.pieces, at.width), dtype=np.int64)
    for piece, entry in enumerate(rules.entry):
        for t in range(1, at.width):
            allowed[piece, t] = entry.allows(t)
    return allowed.ravel()


def _entry_square(rules: Rules, at: Frame) -> IntArray:
    """``[piece]``: the entry step, or ``-1`` for "the throw's value"."""
    square = np.full(rules.pieces, -1, dtype=np.int64)
    for piece, entry in enumerate(rules.entry):
        if entry.square is not None:
            square[piece] = entry.square
    return square


SCALARS: tuple[Entry[int], ...] = (
    Entry("pieces", ("pieces",), lambda r, at: r.pieces),
    Entry("length", ("route_length",), lambda r, at: r.route_length),
    Entry("stack", ("stack_limit",), lambda r, at: r.stack_limit),
    Entry("defence", ("stack_defence",), lambda r, at: r.stack_defence or 0),
    Entry("exact", ("exact_bear_off",), lambda r, at: int(r.exact_bear_off)),
    Entry(
        "capture_extra", ("extra_throw_on_capture",), lambda r, at: int(r.extra_throw_on_capture)
    ),
    Entry("must_move", ("must_move",), lambda r, at: int(r.must_move)),
    Entry("distinct", ("entry",), lambda r, at: int(r.distinct_pieces)),
    Entry("cells", (), lambda r, at: len(at.cell_ids)),
    Entry("throws", (), lambda r, at: int(at.throw_values.shape[0])),
    Entry("width", (), lambda r, at: at.width),
    Entry(
        "extra_without_move",
        ("extra_throw_without_move", "extra_throw_throws"),
        _extra_without_move,
    ),
)
"""The header's numbers, in slot order (``0`` for a false rule, ``1`` for a true one; a stack
defence of ``0``: stacks never repel)."""

SEGMENTS: tuple[Entry[IntArray], ...] = (
    Entry("route", (), lambda r, at: at.route_cells.ravel()),
    Entry("attack", ("cells", "capture_cells", "safe_cells"), _attackable),
    Entry(
        "extra_cell",
        ("extra_throw_cells",),
        lambda r, at: _cell_flags(r, at, lambda c: c in r.extra_throw_cells),
    ),
    Entry("throw", (), lambda r, at: at.throw_values),
    Entry("threshold", (), _thresholds),
    Entry("throw_extra", ("extra_throw_throws",), _throw_extra),
    Entry("entry_allowed", ("pieces", "entry"), _entry_allowed),
    Entry("entry_square", ("pieces", "entry"), _entry_square),
)
"""The arrays after the header, in order; offset slot ``O_<NAME>`` holds where each starts:
route cells ``[2, length + 2]``, attackable ``[cells]``, extra-throw cells ``[cells]``, throw
values ``[throws]``, cumulative thresholds ``[throws]``, throw earns a throw ``[width]``, entry
allowed ``[pieces, width]``, entry square ``[pieces]``."""

NOT_ENCODED: dict[str, str] = {
    "variant": "a name: the kernel plays the same game whatever the rulebook is called",
}
"""The fields of :class:`Rules` the kernel does not read, each with the reason."""

ENTRIES: tuple[Entry[int] | Entry[IntArray], ...] = (*SCALARS, *SEGMENTS)
"""Every entry, in slot order."""

SLOT = {entry.name: slot for slot, entry in enumerate(ENTRIES)}
"""Each entry's slot in the header: a scalar's value, or where a segment starts."""
HEADER = len(SLOT)

# The slots as the kernels name them (numba reads module-level integers as constants).
H_PIECES, H_LENGTH, H_STACK = SLOT["pieces"], SLOT["length"], SLOT["stack"]
H_DEFENCE, H_EXACT, H_CAPTURE_EXTRA = SLOT["defence"], SLOT["exact"], SLOT["capture_extra"]
H_MUST_MOVE, H_DISTINCT, H_CELLS = SLOT["must_move"], SLOT["distinct"], SLOT["cells"]
H_THROWS, H_WIDTH = SLOT["throws"], SLOT["width"]
H_EXTRA_WITHOUT_MOVE = SLOT["extra_without_move"]
O_ROUTE, O_ATTACK, O_EXTRA_CELL = SLOT["route"], SLOT["attack"], SLOT["extra_cell"]
O_THROW, O_THRESHOLD, O_THROW_EXTRA = SLOT["throw"], SLOT["threshold"], SLOT["throw_extra"]
O_ENTRY_ALLOWED, O_ENTRY_SQUARE = SLOT["entry_allowed"], SLOT["entry_square"]


@dataclass(frozen=True)
class EncodedRules:
    """The rules as the kernel plays them: :data:`SCALARS`' values and :data:`SEGMENTS`'
    arrays, in table order."""

    scalars: tuple[int, ...]
    segments: tuple[IntArray, ...]

    def packed(self) -> IntArray:
        """Everything in one int64 array: the scalars, then each segment's offset, then the
        segments (the ``H_*`` and ``O_*`` slots).

        One array instead of sixteen keeps the kernel's reference counting out of its inner
        loop, which is what makes it fast.
        """
        sizes = [int(segment.shape[0]) for segment in self.segments]
        offsets = HEADER + np.cumsum([0, *sizes[:-1]], dtype=np.int64)
        header = np.array([*self.scalars, *offsets], dtype=np.int64)
        return np.concatenate([header, *self.segments]).astype(np.int64)


def encode_rules(rules: Rules) -> EncodedRules:
    """Flatten ``rules`` into :class:`EncodedRules`, entry by entry."""
    at = frame(rules)
    return EncodedRules(
        scalars=tuple(int(entry.encode(rules, at)) for entry in SCALARS),
        segments=tuple(np.asarray(entry.encode(rules, at), dtype=np.int64) for entry in SEGMENTS),
    )
