"""The parameters the engine plays, compiled from a resolved variant's machine values.

Nothing here knows a variant by name: every rule is a field of :class:`Rules`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from generator.model.equipment import Cell
from generator.model.variant import ResolvedVariant


class Side(enum.IntEnum):
    """The two players. Light moves first in every game the engine plays."""

    LIGHT = 0
    DARK = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def letter(self) -> str:
        return "LD"[self]


@dataclass(frozen=True)
class EntryRule:
    """How one piece enters: on which throws (``None``: any) and onto which route step.

    ``square`` ``None`` means the throw's value: a throw of n enters on step n.
    """

    throws: frozenset[int] | None
    square: int | None
    name: str | None = None

    def allows(self, throw: int) -> bool:
        return self.throws is None or throw in self.throws

    def target(self, throw: int) -> int:
        return throw if self.square is None else self.square


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to play one variant.

    Progress along a route: 0 is in hand, 1..``route_length`` are route steps, ``off`` is
    borne off. ``cells[side][step - 1]`` is the board cell of a route step.
    """

    variant: str
    route_length: int
    cells: tuple[tuple[Cell, ...], tuple[Cell, ...]]
    pieces: int
    throws: tuple[tuple[int, Fraction], ...]
    entry: tuple[EntryRule, ...]
    stack_limit: int
    capture_cells: frozenset[Cell]
    safe_cells: frozenset[Cell]
    stack_defence: int | None
    extra_throw_cells: frozenset[Cell]
    extra_throw_throws: frozenset[int]
    extra_throw_without_move: bool
    """A throw in ``extra_throw_throws`` earns another throw even when it moves no piece."""
    extra_throw_on_capture: bool
    exact_bear_off: bool
    must_move: bool

    @property
    def off(self) -> int:
        return self.route_length + 1

    @cached_property
    def distinct_pieces(self) -> bool:
        """Pieces with their own entry rules are told apart; otherwise they are interchangeable.

        Cached: every legal-move generation asks, and the answer never changes (fields only
        decide equality and hashing, so the cache changes neither)."""
        return len(set(self.entry)) > 1

    @cached_property
    def attackable_cells(self) -> frozenset[Cell]:
        """The cells where an enemy piece can be captured: capture cells that are not safe
        (the engine, the kernel's encoding and the solver's colour symmetry all read this)."""
        return self.capture_cells - self.safe_cells

    def cell(self, side: Side, progress: int) -> Cell | None:
        """The board cell of ``progress`` for ``side``; ``None`` in hand or borne off."""
        if 1 <= progress <= self.route_length:
            return self.cells[side][progress - 1]
        return None


class RulesError(ValueError):
    """Machine values that describe no game the engine can play (a value of the wrong kind for
    its question): raised, never asserted, so a verdict that rests on it is the same under
    ``python -O``."""


def _cells_of(value: object, rosettes: frozenset[Cell]) -> frozenset[Cell]:
    if value == "none":
        return frozenset()
    if value == "rosettes":
        return rosettes
    if not isinstance(value, list):
        raise RulesError(f"expected 'none', 'rosettes' or a list of squares, not {value!r}")
    return frozenset(value)


def _entry_rules(value: dict[str, Any], pieces: int) -> tuple[EntryRule, ...]:
    def rule(spec: dict[str, Any]) -> EntryRule:
        throws, square, name = spec["throws"], spec["square"], spec.get("name")
        return EntryRule(
            None if throws == "any" else frozenset(int(t) for t in throws),
            None if square == "throw" else int(square),
            name if isinstance(name, str) else None,
        )

    per_piece = value.get("per_piece")
    if isinstance(per_piece, list):
        return tuple(rule(spec) for spec in per_piece)
    return (rule(value),) * pieces


def compile_rules(variant: ResolvedVariant) -> Rules:
    """The :class:`Rules` a resolved variant's machine values describe."""
    v = variant.machine_values()
    route, board = variant.route, variant.board
    shared = route.shared_cells()
    capture_cells = shared if v["capture-zone"] == "shared" else frozenset(board.cells)
    return Rules(
        variant=variant.id,
        route_length=route.length,
        cells=(route.light, route.dark),
        pieces=v["pieces"],
        throws=variant.dice.table(),
        entry=_entry_rules(v["entry"], v["pieces"]),
        stack_limit=v["stacking"],
        capture_cells=capture_cells,
        safe_cells=_cells_of(v["safe-squares"], board.rosettes),
        stack_defence=v["stack-defence"],
        extra_throw_cells=_cells_of(v["rosette-extra-throw"], board.rosettes),
        extra_throw_throws=frozenset(v["throw-extra-throw"]),
        extra_throw_without_move=v["extra-throw-without-move"] == "throws-again",
        extra_throw_on_capture=bool(v["capture-extra-throw"]),
        exact_bear_off=v["bearing-off"] == "exact",
        must_move=bool(v["must-move"]),
    )
