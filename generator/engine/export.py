"""Compiled rules as data: what the browser engine (``assets/ur-engine.js``) plays from.

:func:`export_rules` turns a rulebook's :class:`~generator.engine.rules.Rules` into a
JSON-ready dict holding every field :mod:`generator.engine.moves` consults (the routes as cell
names, the throws with their exact odds, entry, stacking, safety, the capture zone, extra
throws, forced moves, bearing off) and nothing else, under :data:`FORMAT`. Every field of
:class:`Rules` (and of :class:`EntryRule`) is either written (:data:`EXPORTED`,
:data:`ENTRY_EXPORTED`) or named as not needed with the reason (:data:`NOT_NEEDED`), and
:func:`import_rules` reads the dict back into the very :class:`Rules` it came from, so a rule
the engine gains and the export forgets fails ``tests/test_engine_export.py``.

The format (version 1)::

    {"format": 1, "rulebook": <id>, "rules": {
        "pieces": 7, "route_length": 14,
        "routes": {"L": [<cell>, ...], "D": [<cell>, ...]},  # step 1 first, cells "r<row>c<col>"
        "throws": [[<throw>, <numerator>, <denominator>], ...],  # exact odds, ascending
        "entry": [{"throws": null | [<throw>, ...], "square": null | <step>,
                   "name": null | <text>}, ...],               # one per piece, in piece order
        "stack_limit": 1, "stack_defence": null | <pieces>,
        "capture_cells": [<cell>, ...], "safe_cells": [<cell>, ...],
        "extra_throw_cells": [<cell>, ...], "extra_throw_throws": [<throw>, ...],
        "extra_throw_without_move": false, "extra_throw_on_capture": false,
        "exact_bear_off": true, "must_move": true}}

Entry ``throws`` ``null`` means any throw enters; ``square`` ``null`` means a throw of n enters
on step n. Cell lists are sorted; pieces with different entry rules are told apart
(:attr:`Rules.distinct_pieces`), which a reader derives from ``entry`` as the engine does.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from generator.engine.rules import EntryRule, Rules, Side

FORMAT = 1
"""Bump when a reader of an older export would play a rulebook differently."""

EXPORTED = {
    "route_length": "route_length",
    "cells": "routes",
    "pieces": "pieces",
    "throws": "throws",
    "entry": "entry",
    "stack_limit": "stack_limit",
    "capture_cells": "capture_cells",
    "safe_cells": "safe_cells",
    "stack_defence": "stack_defence",
    "extra_throw_cells": "extra_throw_cells",
    "extra_throw_throws": "extra_throw_throws",
    "extra_throw_without_move": "extra_throw_without_move",
    "extra_throw_on_capture": "extra_throw_on_capture",
    "exact_bear_off": "exact_bear_off",
    "must_move": "must_move",
}
"""Each field of :class:`Rules` the engine consults, and its key under ``rules``."""

NOT_NEEDED = {
    "variant": "the rulebook's id: no move depends on it (written as the file's 'rulebook')",
}
"""Each field of :class:`Rules` left out of ``rules``, and why."""

ENTRY_EXPORTED = ("throws", "square", "name")
"""The fields of :class:`EntryRule`, all written: ``name`` tells pieces apart (pieces with
different entry rules are distinct), so it changes which moves count as different."""

LARGEST_EXACT = 2**53
"""A JavaScript number holds every whole number up to here exactly, so a fraction of two such
numbers divides to the same float64 as Python's ``float(Fraction)`` (both round correctly)."""


class ExportError(ValueError):
    """Rules the export format cannot carry exactly (odds with huge terms)."""


def _cells(cells: frozenset[str]) -> list[str]:
    return sorted(cells)


def _odds(rules: Rules) -> list[list[int]]:
    odds = []
    for throw, probability in rules.throws:
        fraction = Fraction(probability)
        if fraction.denominator > LARGEST_EXACT or fraction.numerator > LARGEST_EXACT:
            raise ExportError(
                f"{rules.variant}: the odds {fraction} of throw {throw} have terms beyond 2**53,"
                " which a browser cannot hold exactly; write them as a smaller fraction"
            )
        odds.append([throw, fraction.numerator, fraction.denominator])
    return odds


def _entry(rule: EntryRule) -> dict[str, Any]:
    return {
        "throws": None if rule.throws is None else sorted(rule.throws),
        "square": rule.square,
        "name": rule.name,
    }


def export_rules(rules: Rules) -> dict[str, Any]:
    """The JSON-ready export of ``rules`` (the module docstring gives the format)."""
    return {
        "format": FORMAT,
        "rulebook": rules.variant,
        "rules": {
            "pieces": rules.pieces,
            "route_length": rules.route_length,
            "routes": {side.letter: list(rules.cells[side]) for side in Side},
            "throws": _odds(rules),
            "entry": [_entry(rule) for rule in rules.entry],
            "stack_limit": rules.stack_limit,
            "stack_defence": rules.stack_defence,
            "capture_cells": _cells(rules.capture_cells),
            "safe_cells": _cells(rules.safe_cells),
            "extra_throw_cells": _cells(rules.extra_throw_cells),
            "extra_throw_throws": sorted(rules.extra_throw_throws),
            "extra_throw_without_move": rules.extra_throw_without_move,
            "extra_throw_on_capture": rules.extra_throw_on_capture,
            "exact_bear_off": rules.exact_bear_off,
            "must_move": rules.must_move,
        },
    }


def import_rules(data: dict[str, Any]) -> Rules:
    """The :class:`Rules` an export describes: the inverse of :func:`export_rules` (the test
    that nothing the engine plays is lost; the browser engine reads the same fields)."""
    if data.get("format") != FORMAT:
        raise ExportError(f"expected an export of format {FORMAT}, got {data.get('format')!r}")
    r = data["rules"]
    entry = tuple(
        EntryRule(
            None if e["throws"] is None else frozenset(e["throws"]),
            e["square"],
            e["name"],
        )
        for e in r["entry"]
    )
    return Rules(
        variant=data["rulebook"],
        route_length=r["route_length"],
        cells=(tuple(r["routes"]["L"]), tuple(r["routes"]["D"])),
        pieces=r["pieces"],
        throws=tuple((t, Fraction(n, d)) for t, n, d in r["throws"]),
        entry=entry,
        stack_limit=r["stack_limit"],
        capture_cells=frozenset(r["capture_cells"]),
        safe_cells=frozenset(r["safe_cells"]),
        stack_defence=r["stack_defence"],
        extra_throw_cells=frozenset(r["extra_throw_cells"]),
        extra_throw_throws=frozenset(r["extra_throw_throws"]),
        extra_throw_without_move=r["extra_throw_without_move"],
        extra_throw_on_capture=r["extra_throw_on_capture"],
        exact_bear_off=r["exact_bear_off"],
        must_move=r["must_move"],
    )
