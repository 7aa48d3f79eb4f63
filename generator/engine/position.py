"""Positions and their one-line notation.

Notation: ``<light>/<dark> <side>``. Each side lists every piece's progress along its own route,
comma-separated: ``0`` in hand, ``1``..``L`` route steps, ``L+1`` borne off. Interchangeable
pieces are written in ascending order. ``<side>`` is ``L`` or ``D``, the side to move.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from generator.engine.rules import Rules, Side

_WHOLE = re.compile(r"-?[0-9]{1,6}")
"""A piece's progress as written: ASCII digits only (``int`` would also read ``1_0`` as 10)."""


@dataclass(frozen=True, order=True)
class Position:
    """A frozen game position: each side's pieces by progress, and the side to move."""

    light: tuple[int, ...]
    dark: tuple[int, ...]
    to_move: Side

    def pieces(self, side: Side) -> tuple[int, ...]:
        return self.dark if side else self.light

    def with_pieces(self, side: Side, pieces: tuple[int, ...], to_move: Side) -> Position:
        if side is Side.LIGHT:
            return Position(pieces, self.dark, to_move)
        return Position(self.light, pieces, to_move)


def start_position(rules: Rules) -> Position:
    """Every piece in hand, light to move."""
    hand = (0,) * rules.pieces
    return Position(hand, hand, Side.LIGHT)


def canonical(rules: Rules, pieces: tuple[int, ...]) -> tuple[int, ...]:
    """Interchangeable pieces are kept sorted, so equal positions compare equal."""
    return pieces if rules.distinct_pieces else tuple(sorted(pieces))


def format_position(position: Position) -> str:
    """The one-line notation of ``position``."""
    light = ",".join(map(str, position.light))
    dark = ",".join(map(str, position.dark))
    return f"{light}/{dark} {position.to_move.letter}"


def parse_position(rules: Rules, text: str) -> Position:
    """Parse the one-line notation, checking the position is possible under ``rules``.

    Raises ``ValueError`` saying what is wrong and what was expected.
    """
    parts = text.strip().split()
    if len(parts) != 2 or parts[1] not in ("L", "D") or parts[0].count("/") != 1:
        raise ValueError(
            f"expected '<light>/<dark> <L|D>' such as '0,0,3/0,5,15 L', got {text[:60]!r}"
        )
    sides = []
    for name, part in zip(("light", "dark"), parts[0].split("/"), strict=True):
        words = part.split(",")
        if not all(_WHOLE.fullmatch(word) for word in words):
            message = (
                f"{name} pieces must be whole numbers from 0 to {rules.off} separated by commas:"
                f" {part[:60]!r}"
            )
            raise ValueError(message)
        pieces = tuple(int(word) for word in words)
        if len(pieces) != rules.pieces:
            raise ValueError(f"{name} has {len(pieces)} pieces; this variant has {rules.pieces}")
        for progress in pieces:
            if not 0 <= progress <= rules.off:
                raise ValueError(
                    f"{name} progress {progress} is outside 0..{rules.off}"
                    f" (0 in hand, {rules.off} borne off)"
                )
        sides.append(canonical(rules, pieces))
    position = Position(sides[0], sides[1], Side.LIGHT if parts[1] == "L" else Side.DARK)
    if all(p == rules.off for p in (*position.light, *position.dark)):
        raise ValueError(
            "both sides have borne off every piece, but the game ends when the first side does;"
            f" leave some of one side's pieces below {rules.off}"
        )
    _check_occupancy(rules, position)
    return position


def _check_occupancy(rules: Rules, position: Position) -> None:
    owner: dict[str, Side] = {}
    for side in Side:
        counts = Counter(
            cell for p in position.pieces(side) if (cell := rules.cell(side, p)) is not None
        )
        for cell, count in counts.items():
            if count > rules.stack_limit:
                raise ValueError(
                    f"{count} {side.name.lower()} pieces on {cell}; at most {rules.stack_limit}"
                )
            if cell in owner:
                raise ValueError(f"both sides have pieces on {cell}")
            owner[cell] = side
