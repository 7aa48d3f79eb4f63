"""Checks of each ruling's machine value against the form its question expects.

Each checker returns an error message (what was expected, and how to fix it) or ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.model.equipment import CELL_PATTERN, Equipment
from generator.model.yamlsource import shown

ValueCheck = Callable[[Any, Equipment], str | None]

MAX_PIECES = 7
MAX_THROW = 100
"""The largest throw (and entry square) a value may name; kept equal to
:data:`generator.model.schema.MAX_THROW` (a test checks)."""
MAX_STACK = 2 * MAX_PIECES
MAX_NAME = 60
"""Characters of a piece's name in per-piece entry rules, printed in running text (the
largest: storm-bird, 10)."""


def _enum(*allowed: Any) -> ValueCheck:
    def check(value: Any, _: Equipment) -> str | None:
        if any(value == a and type(value) is type(a) for a in allowed):
            return None
        options = " | ".join("null" if a is None else str(a).lower() for a in allowed)
        return f"value {shown(value)} is not one of: {options}"

    return check


def _ref(table: str) -> ValueCheck:
    def check(value: Any, equipment: Equipment) -> str | None:
        known: dict[str, Any] = getattr(equipment, table)
        if isinstance(value, str) and value in known:
            return None
        return (
            f"value {shown(value)} is not a known {table[:-1] if table != 'dice' else 'dice'} id;"
            f" use one of: {', '.join(sorted(known))} (variants/equipment.yml)"
        )

    return check


def _whole(low: int, high: int) -> ValueCheck:
    def check(value: Any, _: Equipment) -> str | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= low
        if ok and value <= high:
            return None
        return f"value {shown(value)} must be a whole number from {low} to {high}"

    return check


def _is_cell_list(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(c, str) and CELL_PATTERN.match(c) for c in value
    )


def _cells(*words: str) -> ValueCheck:
    def check(value: Any, _: Equipment) -> str | None:
        if value in words or _is_cell_list(value):
            return None
        return f"value {shown(value)} must be {' or '.join(words)} or a list of cells like [r2c4]"

    return check


def _is_throw(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_THROW


def _throw_list(value: Any, _: Equipment) -> str | None:
    if isinstance(value, list) and len(value) <= MAX_THROW and all(map(_is_throw, value)):
        return None
    return f"value {shown(value)} must be a list of throws from 1 to {MAX_THROW} such as [4], or []"


def _entry_rule(rule: Any, where: str) -> str | None:
    if not isinstance(rule, dict):
        return f"{where} must be a mapping like {{throws: any, square: throw}}"
    unknown = set(rule) - {"throws", "square", "name"}
    if unknown:
        # Keys of several types (1 and "foo") do not sort together: sort them as written.
        named = ", ".join(shown(key) for key in sorted(unknown, key=str))
        return f"{where} has unknown keys {named}; expected throws, square (and name)"
    throws = rule.get("throws")
    if throws != "any" and _throw_list(throws, Equipment({}, {}, {})) is not None:
        return f"{where}: throws must be any or a list of throws from 1 to {MAX_THROW}"
    square = rule.get("square")
    if square != "throw" and not _is_throw(square):
        return (
            f"{where}: square must be throw or a route step from 1 to {MAX_THROW},"
            f" got {shown(square)}"
        )
    name = rule.get("name")
    if name is not None and not isinstance(name, str):
        return f"{where}: name must be words, got {shown(name)}; quote it"
    if isinstance(name, str) and len(name) > MAX_NAME:
        return f"{where}: name is {len(name):,} characters long; shorten it to at most {MAX_NAME}"
    return None


def _entry(value: Any, _: Equipment) -> str | None:
    if isinstance(value, dict) and "per_piece" in value:
        if set(value) != {"per_piece"}:
            return "entry with per_piece takes no other keys"
        pieces = value["per_piece"]
        if not isinstance(pieces, list) or not pieces:
            return "entry per_piece must be a non-empty list of {name, throws, square}"
        for i, rule in enumerate(pieces):
            problem = _entry_rule(rule, f"entry per_piece[{i}]")
            if problem:
                return problem
            if not isinstance(rule.get("name"), str):
                return f"entry per_piece[{i}] needs a name"
        return None
    return _entry_rule(value, "entry")


VALUE_CHECKS: dict[str, ValueCheck] = {
    "board": _ref("boards"),
    "route": _ref("routes"),
    "dice": _ref("dice"),
    "pieces": _whole(1, MAX_PIECES),
    "start": _enum("light", "highest-throw", "highest-throw-rethrow-ties", "guess-lot"),
    "entry": _entry,
    "moves-per-throw": _enum("one-piece"),
    "stacking": _whole(1, MAX_STACK),
    "capture-zone": _enum("shared", "anywhere"),
    "safe-squares": _cells("none", "rosettes"),
    "stack-defence": lambda v, e: None if v is None else _whole(2, MAX_STACK)(v, e),
    "rosette-extra-throw": _cells("none", "rosettes"),
    "throw-extra-throw": _throw_list,
    "capture-extra-throw": _enum(True, False),
    "extra-throw-piece": _enum("any"),
    "must-move": _enum(True, False),
    "no-legal-move": _enum("pass"),
    "extra-throw-without-move": _enum("throws-again", "turn-passes", "does-not-arise"),
    "bearing-off": _enum("exact", "generous"),
    "winning": _enum("all-borne-off"),
    "illegal-move": _enum("taken-back"),
    "stakes": _enum(None),
    "special-squares": _enum(None),
}
