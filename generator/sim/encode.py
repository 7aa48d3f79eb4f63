"""Compiled :class:`~generator.engine.rules.Rules` as flat numpy arrays for the native kernel.

Nothing here knows a variant: every rule of :class:`Rules` becomes an array or a number, and the
kernel (:mod:`generator.sim.fast`) reads only these. Board cells become integer ids; progress
``0`` (in hand) and ``off`` (borne off) map to cell id ``-1``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from generator.engine.rules import Rules, Side

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


UNIT_STEPS = 1 << 53
"""Throw probabilities become integer thresholds out of 2**53 (exact for the usual dice)."""

# Header slots of the packed array.
H_PIECES, H_LENGTH, H_STACK, H_DEFENCE, H_EXACT, H_CAPTURE_EXTRA, H_MUST_MOVE = range(7)
H_DISTINCT, H_CELLS, H_THROWS, H_WIDTH, H_EXTRA_WITHOUT_MOVE = range(7, 12)
# Offsets of the packed segments: route cells [2, length + 2], attackable [cells],
# extra-throw cells [cells], throw values [throws], cumulative thresholds [throws],
# throw earns a throw [width], entry allowed [pieces, width], entry square [pieces].
O_ROUTE, O_ATTACK, O_EXTRA_CELL, O_THROW, O_THRESHOLD, O_THROW_EXTRA = range(12, 18)
O_ENTRY_ALLOWED, O_ENTRY_SQUARE = range(18, 20)
OFFSET_SLOTS = tuple(range(12, 20))
HEADER = 20


@dataclass(frozen=True)
class EncodedRules:
    """The arrays the kernel plays from; field names follow :class:`Rules`."""

    route_cells: IntArray
    """``[side, progress]`` -> cell id, ``-1`` in hand (0) and borne off (``off``)."""
    attackable: BoolArray
    """``[cell]``: an enemy piece here can be captured (capture cell and not safe)."""
    extra_cell: BoolArray
    """``[cell]``: landing here earns another throw."""
    throw_values: IntArray
    throw_cumulative: FloatArray
    """Cumulative probability of ``throw_values`` (the last entry is exactly 1)."""
    throw_extra: BoolArray
    """``[throw]``: the throw itself earns another throw (with a move)."""
    extra_without_move: bool
    """An extra-throw throw earns another throw even when it moves no piece (``False`` where
    no throw that occurs earns one, so that equal games encode equally)."""
    entry_allowed: BoolArray
    """``[piece, throw]``: the piece may enter with this throw."""
    entry_square: IntArray
    """``[piece]``: the entry step, or ``-1`` for "the throw's value"."""
    pieces: int
    route_length: int
    stack_limit: int
    stack_defence: int
    """0 when stacks never repel an attacker."""
    exact_bear_off: bool
    capture_extra: bool
    must_move: bool
    distinct: bool
    """Pieces with their own entry rules are told apart (not kept sorted)."""

    @property
    def off(self) -> int:
        return self.route_length + 1

    @property
    def cells(self) -> int:
        return int(self.attackable.shape[0])

    def packed(self) -> IntArray:
        """Everything in one int64 array (layout: the ``H_*`` and ``O_*`` indices).

        One array instead of sixteen keeps the kernel's reference counting out of its inner
        loop, which is what makes it fast.
        """
        throws = self.throw_values.shape[0]
        width = self.throw_extra.shape[0]
        thresholds = np.rint(self.throw_cumulative * UNIT_STEPS).astype(np.int64)
        thresholds[-1] = UNIT_STEPS
        segments: list[IntArray] = [
            self.route_cells.ravel(),
            self.attackable.astype(np.int64),
            self.extra_cell.astype(np.int64),
            self.throw_values,
            thresholds,
            self.throw_extra.astype(np.int64),
            self.entry_allowed.astype(np.int64).ravel(),
            self.entry_square,
        ]
        header = np.zeros(HEADER, dtype=np.int64)
        header[H_PIECES] = self.pieces
        header[H_LENGTH] = self.route_length
        header[H_STACK] = self.stack_limit
        header[H_DEFENCE] = self.stack_defence
        header[H_EXACT] = self.exact_bear_off
        header[H_CAPTURE_EXTRA] = self.capture_extra
        header[H_MUST_MOVE] = self.must_move
        header[H_DISTINCT] = self.distinct
        header[H_CELLS] = self.cells
        header[H_THROWS] = throws
        header[H_WIDTH] = width
        header[H_EXTRA_WITHOUT_MOVE] = self.extra_without_move
        offset = HEADER
        for slot, segment in zip(OFFSET_SLOTS, segments, strict=True):
            header[slot] = offset
            offset += segment.shape[0]
        return np.concatenate([header, *segments]).astype(np.int64)


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


def encode_rules(rules: Rules) -> EncodedRules:
    """Flatten ``rules`` into :class:`EncodedRules`."""
    cell_ids, route_cells = numbered_route_cells(rules)
    length = rules.route_length
    attackable = np.zeros(len(cell_ids), dtype=np.bool_)
    extra_cell = np.zeros(len(cell_ids), dtype=np.bool_)
    # Enemies only ever meet on cells both routes pass through; marking the others would not
    # change play, and leaving them out makes equal games encode equally (the sensitivity
    # runs rely on that to recognise a change that changes nothing).
    meeting = set(rules.cells[0]) & set(rules.cells[1])
    for cell, ident in cell_ids.items():
        attackable[ident] = (
            cell in meeting and cell in rules.capture_cells and cell not in rules.safe_cells
        )
        extra_cell[ident] = cell in rules.extra_throw_cells
    throws = [(t, p) for t, p in rules.throws if p > 0]
    values = np.array([t for t, _ in throws], dtype=np.int64)
    cumulative = np.cumsum([float(p) for _, p in throws]).astype(np.float64)
    cumulative[-1] = 1.0
    top = max(int(values.max()), max(rules.extra_throw_throws, default=0))
    throw_extra = np.zeros(top + 1, dtype=np.bool_)
    for t in rules.extra_throw_throws:
        throw_extra[t] = True
    entry_allowed = np.zeros((rules.pieces, top + 1), dtype=np.bool_)
    entry_square = np.full(rules.pieces, -1, dtype=np.int64)
    for piece, entry in enumerate(rules.entry):
        for t in range(1, top + 1):
            entry_allowed[piece, t] = entry.allows(t)
        if entry.square is not None:
            entry_square[piece] = entry.square
    return EncodedRules(
        route_cells=route_cells,
        attackable=attackable,
        extra_cell=extra_cell,
        throw_values=values,
        throw_cumulative=cumulative,
        throw_extra=throw_extra,
        extra_without_move=rules.extra_throw_without_move and bool(throw_extra[values].any()),
        entry_allowed=entry_allowed,
        entry_square=entry_square,
        pieces=rules.pieces,
        route_length=length,
        stack_limit=rules.stack_limit,
        stack_defence=rules.stack_defence or 0,
        exact_bear_off=rules.exact_bear_off,
        capture_extra=rules.extra_throw_on_capture,
        must_move=rules.must_move,
        distinct=rules.distinct_pieces,
    )
