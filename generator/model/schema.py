"""JSON Schema checks whose errors read as ``file:line: message`` with the fix."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from generator.model.equipment import PROBABILITY_FORM
from generator.model.yamlsource import Document, JsonPath, Problem, shown

_ID_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"
_CELL_PATTERN = "^r[1-9][0-9]*c[1-9][0-9]*$"
_LANGUAGE = "^[a-z]{2,3}$"
_URL_PATTERN = r"^https?://[^\s<>\"]+$"
_COMMIT_PATTERN = "^[0-9a-f]{40}$"
"""A full git commit hash: an abbreviated one can become ambiguous as a repository grows."""
_DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
"""A source's address: a web address only, so that no ``javascript:`` or ``data:`` link can be
published from the data."""
_FORMS = {
    _ID_PATTERN: "ids are lowercase words joined by hyphens",
    _CELL_PATTERN: "cells look like r2c4",
    _LANGUAGE: "languages are two- or three-letter codes such as en or es",
    _COMMIT_PATTERN: "a commit is the full 40-character hash in lowercase hex (git rev-parse)",
    _DATE_PATTERN: "a date is written YYYY-MM-DD",
    _URL_PATTERN: "it is not a web address; give one starting with https:// or http://"
    " (javascript:, data: and other schemes are refused)",
    PROBABILITY_FORM: "write a fraction such as 1/8 or a decimal such as 0.125"
    " (nine digits at most, no exponent)",
}
"""What each pattern asks for, in words, for its error message."""

MAX_ID_LENGTH = 80
"""Ids become page addresses and navigation entries: a few words, never a paragraph."""
MAX_THROW = 100
"""No dice throws more; a throw, an entry square or a throw earning another throw above it is
a typing slip, and the engine sizes tables by it."""

# Bounds on sizes: every rulebook in variants/ fits with room to spare (the largest real value
# is in brackets), so a value beyond one is a slip or a hostile file, never a real source.
# variants/README.md lists them; variant.schema.json repeats them (a test checks).
MAX_LABEL = 200
"""Characters of a short one-line name: a label, locator, author, version's words, a word
marked [sic] (the largest: a locator of 98)."""
MAX_TITLE = 500
"""Characters of a title (the largest: a dice title of 177)."""
MAX_SENTENCE = 2_000
"""Characters of a ruling's text, a claim, a reason or an explanation (the largest: a ruling
text of 345)."""
MAX_PROSE = 20_000
"""Characters of a summary, a note, a quote or a translation (the largest: a summary of
1,841)."""
MAX_URL = 2_000
"""Characters of a web address (the largest: 103)."""
MIN_YEAR, MAX_YEAR = -3000, 2100
"""A source's year: the game is some 4,500 years old, so a year outside these is a slip (the
sources span 1952 to 2024)."""
MAX_ENTRIES = 500
"""Sources, questions, boards, routes, dice, or a rulebook's rulings or claims (the largest:
23 questions)."""
MAX_CITATIONS = 20
"""Sources cited by one ruling or claim (the largest: 6)."""
MAX_VERSIONS = 20
"""Versions of one source (the largest: 4)."""
MAX_SIC = 20
"""Words marked [sic] in one citation (the largest: 1)."""
MAX_MEASURE = 20
"""Extra answers a question asks the sensitivity runs to measure (the largest: 1)."""
MAX_ROWS, MAX_COLUMNS = 9, 30
"""A board's grid (the largest: 3 x 12)."""
MAX_WAYPOINTS = 30
"""Waypoints of one side's route (the largest: 13)."""
MAX_FACES = 100
"""Outcomes listed for one chance device (the largest: 8)."""
MAX_LOTS = 12
"""Binary lots of one chance device (the largest: 4)."""

MULTI_LINE_KEYS = frozenset({"summary", "note", "quote", "translation"})
"""Prose that may run over several lines (the pages join them into one). Every other text is
one line: a line break in a title, label, locator or id would split a record of the citation
files (RIS has one field a line) or a table row of a page."""

_ID = {"type": "string", "pattern": _ID_PATTERN, "maxLength": MAX_ID_LENGTH}
_CELLS = {
    "type": "array",
    "maxItems": MAX_ROWS * MAX_COLUMNS,
    "items": {"type": "string", "pattern": _CELL_PATTERN},
}
_LABEL = {"type": "string", "minLength": 1, "maxLength": MAX_LABEL}
_WAYPOINTS = {**_CELLS, "minItems": 1, "maxItems": MAX_WAYPOINTS}
_TITLE = {"type": "string", "maxLength": MAX_TITLE}
_SENTENCE = {"type": "string", "minLength": 1, "maxLength": MAX_SENTENCE}
_PROSE = {"type": ["string", "null"], "maxLength": MAX_PROSE}

_VERSION: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "match": _LABEL,
        "label": _LABEL,
        "date": {"type": "string", "pattern": _DATE_PATTERN},
        "commit": {"type": "string", "pattern": _COMMIT_PATTERN},
    },
    "anyOf": [{"required": ["label"]}, {"required": ["date"]}, {"required": ["commit"]}],
}
"""One quoted version of a source: how the source names it, its date or its commit (at least
one), and which citations it covers (``match``: words of their locator)."""

SOURCES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["sources"],
    "properties": {
        "sources": {
            "type": "array",
            "maxItems": MAX_ENTRIES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "author", "year", "language", "kind"],
                "properties": {
                    "id": _ID,
                    "title": {**_TITLE, "minLength": 1},
                    "author": _LABEL,
                    "year": {"type": ["integer", "null"], "minimum": MIN_YEAR, "maximum": MAX_YEAR},
                    "language": {"type": "string", "pattern": _LANGUAGE},
                    "kind": {"$ref": "#/$defs/kind"},
                    "seed": {"type": ["string", "null"], "maxLength": MAX_LABEL},
                    "url": {
                        "type": ["string", "null"],
                        "pattern": _URL_PATTERN,
                        "maxLength": MAX_URL,
                    },
                    "note": _PROSE,
                    "versions": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": MAX_VERSIONS,
                        "items": _VERSION,
                    },
                    "seen": {"type": "boolean"},
                },
            },
        }
    },
}

QUESTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["questions"],
    "properties": {
        "questions": {
            "type": "array",
            "maxItems": MAX_ENTRIES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "explanation", "engine", "value"],
                "properties": {
                    "id": _ID,
                    "title": {**_TITLE, "minLength": 1},
                    "explanation": _SENTENCE,
                    "engine": _SENTENCE,
                    "value": _SENTENCE,
                    "measure": {"type": "array", "minItems": 1, "maxItems": MAX_MEASURE},
                },
            },
        }
    },
}

_PROBABILITY = {
    "type": ["string", "integer", "number"],
    "maxLength": 40,
    "pattern": PROBABILITY_FORM,
    "minimum": 0,
    "maximum": 1,
}
"""A probability such as 1/8 or 0.125: a short fraction (a long one cannot be printed), its
form checked before it is read (``1e99999999`` would take hours to turn into a fraction)."""

EQUIPMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["boards", "routes", "dice"],
    "properties": {
        "boards": {
            "type": "array",
            "maxItems": MAX_ENTRIES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "rows", "columns", "missing", "rosettes"],
                "properties": {
                    "id": _ID,
                    "title": _TITLE,
                    "rows": {"type": "integer", "minimum": 1, "maximum": MAX_ROWS},
                    "columns": {"type": "integer", "minimum": 1, "maximum": MAX_COLUMNS},
                    "missing": _CELLS,
                    "rosettes": _CELLS,
                },
            },
        },
        "routes": {
            "type": "array",
            "maxItems": MAX_ENTRIES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "board", "light", "dark"],
                "properties": {
                    "id": _ID,
                    "title": _TITLE,
                    "board": _ID,
                    "light": _WAYPOINTS,
                    "dark": {"anyOf": [{"const": "mirror"}, _WAYPOINTS]},
                },
            },
        },
        "dice": {
            "type": "array",
            "maxItems": MAX_ENTRIES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title"],
                "properties": {
                    "id": _ID,
                    "title": _TITLE,
                    "lots": {"type": "integer", "minimum": 1, "maximum": MAX_LOTS},
                    "marked": _PROBABILITY,
                    "counts": {
                        "type": "object",
                        "maxProperties": MAX_LOTS + 1,
                        "additionalProperties": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": MAX_THROW,
                        },
                    },
                    "outcomes": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": MAX_FACES,
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["throw", "p"],
                            "properties": {
                                "throw": {"type": "integer", "minimum": 0, "maximum": MAX_THROW},
                                "p": _PROBABILITY,
                                "label": {"type": "string", "maxLength": MAX_LABEL},
                            },
                        },
                    },
                },
                "oneOf": [
                    {"required": ["lots", "counts"], "not": {"required": ["outcomes"]}},
                    {"required": ["outcomes"], "not": {"required": ["lots"]}},
                ],
            },
        },
    },
}


@cache
def variant_schema() -> dict[str, Any]:
    """The JSON Schema for variant files (``generator/model/variant.schema.json``)."""
    text = resources.files("generator.model").joinpath("variant.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _with_kind(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "$defs": {"kind": variant_schema()["$defs"]["kind"]}}


_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


def _where(path: JsonPath) -> str:
    """A path as a reader finds it in the file: ``rulings[3].sources[0].quote``; a key that is
    not a plain word is shown quoted, so no character of it reaches the terminal raw."""
    if not path:
        return "the file"

    def part(p: str | int) -> str:
        if isinstance(p, int):
            return f"[{p}]"
        return f".{p}" if _PLAIN_KEY.match(p) else f"[{shown(p)}]"

    return "".join(map(part, path)).lstrip(".")


def _is_integer(_: Any, instance: Any) -> bool:
    """A whole number as written: ``3.0`` is not one (jsonschema would take it), since
    ``range(3.0)`` and a page printing "3.0 pieces" both go wrong."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(_: Any, instance: Any) -> bool:
    """A finite number: YAML's ``.nan`` and ``.inf`` are numbers no comparison can bound."""
    if isinstance(instance, float):
        return math.isfinite(instance)
    return _is_integer(_, instance)


# jsonschema's extend() has no type hints; what it returns is a validator class like the one given.
_Validator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_integer, "number": _is_number}
    ),
)


def _message(error: jsonschema.ValidationError) -> tuple[JsonPath, str]:
    # jsonschema types these as possibly unset; on a reported error they are always set.
    schema_here: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    expected: Any = error.validator_value
    instance: Any = error.instance
    path = tuple(error.absolute_path)
    where = _where(path)
    validator = error.validator
    if validator == "additionalProperties":
        allowed = sorted(schema_here.get("properties", {}))
        # Keys of several types (1 and "foo") do not sort together: sort them as written.
        extra = sorted(set(instance) - set(allowed), key=str)
        key = extra[0] if extra else "?"
        return (*path, str(key)), (
            f"unknown key {shown(key)} in {where}; expected one of: {', '.join(allowed)}"
            " (check the spelling)"
        )
    if validator == "required":
        missing = str(error.message).split("'")[1] if "'" in error.message else error.message
        return path, f"missing key {missing!r} in {where}; add it (see variants/README.md)"
    if validator == "type":
        if isinstance(instance, float) and not math.isfinite(instance):
            return path, f"{where} must be a finite number, got {instance}"
        types = expected if isinstance(expected, str) else " or ".join(expected)
        return path, f"{where} must be {types}, got {shown(instance)}"
    if validator == "enum":
        options = ", ".join(map(str, expected))
        return path, f"{where}: {shown(instance)} is not one of: {options}"
    if validator == "pattern":
        return path, (
            f"{where}: {shown(instance)} has the wrong form;"
            f" {_FORMS.get(str(expected), f'it must match {expected}')}"
        )
    if validator in ("minLength", "minItems"):
        return path, f"{where} must not be empty"
    if validator == "maxLength":
        return path, (
            f"{where} is {len(instance):,} characters long; shorten it to at most {expected:,}"
            " (the bounds are in variants/README.md)"
        )
    if validator in ("maxItems", "maxProperties"):
        return path, (
            f"{where} has {len(instance):,} entries; at most {expected:,} are allowed"
            " (the bounds are in variants/README.md)"
        )
    if validator == "maximum":
        return path, f"{where} is too large; at most {expected:,}, got {shown(instance)}"
    if validator == "minimum":
        return path, f"{where} is too small; at least {expected:,}, got {shown(instance)}"
    if validator == "anyOf" and "label" in schema_here.get("properties", {}):
        return path, f"{where}: give the version's label, date or commit (at least one)"
    if validator == "oneOf" and "lots" in schema_here.get("oneOf", [{}])[0].get("required", []):
        return path, f"{where}: give either lots with counts, or outcomes (not both)"
    return path, f"{where}: {error.message}"


_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""Characters refused in every text: control characters (Unicode category Cc) other than the
tab and the line break, the line and paragraph separators, the bidirectional embeddings,
overrides and isolates (U+202A to U+202E, U+2066 to U+2069: they reorder what a reader sees,
"Trojan Source"), and lone surrogates (no page can be written with one)."""
_LINE_BREAK = re.compile("[\t\n]")
"""What only prose may hold (:data:`MULTI_LINE_KEYS`)."""
_CHARACTER_NAMES = {
    "\t": "a tab",
    "\n": "a line break",
    "\r": "a carriage return",
    "\x00": "a null character",
    "\x07": "a bell character",
    "\x1b": "an escape character",
    "\x7f": "a delete character",
}


def _character(char: str) -> str:
    """A refused character in words, with its code point: "an escape character (U+001B)"."""
    name = _CHARACTER_NAMES.get(char) or unicodedata.name(char, "").lower()
    if not name:
        name = "a lone surrogate" if 0xD800 <= ord(char) <= 0xDFFF else "a control character"
    elif not name.startswith(("a ", "an ")):
        name = f"a {name}"
    return f"{name} (U+{ord(char):04X})"


def _texts(data: Any, path: JsonPath) -> Iterator[tuple[JsonPath, str, bool]]:
    """Every text in ``data`` with its path, keys included (``True`` for a key)."""
    if isinstance(data, dict):
        for key, value in data.items():
            here = (*path, key if isinstance(key, str) else str(key))
            if isinstance(key, str):
                yield here, key, True
            yield from _texts(value, here)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from _texts(item, (*path, i))
    elif isinstance(data, str):
        yield path, data, False


def check_characters(document: Document) -> Iterator[Problem]:
    """No text holds an invisible control or direction character (:data:`_INVISIBLE`), and
    only prose (:data:`MULTI_LINE_KEYS`) holds a line break or a tab: YAML lets a quoted
    ``"\\e"`` or ``"\\u202E"`` through, and the pages and citation files print text as it is."""
    for path, text, is_key in _texts(document.data, ()):
        where = f"the key {shown(text)} in {_where(path[:-1])}" if is_key else _where(path)
        found = _INVISIBLE.search(text)
        if found:
            yield document.problem(
                path,
                f"{where} holds {_character(found.group())} at character {found.start() + 1:,};"
                " delete it: invisible control and direction characters are refused",
            )
            continue
        prose = not is_key and bool(path) and path[-1] in MULTI_LINE_KEYS
        found = None if prose else _LINE_BREAK.search(text)
        if found:
            yield document.problem(
                path,
                f"{where} holds {_character(found.group())} at character {found.start() + 1:,}"
                " but must be one line (only a summary, note, quote or translation may have"
                " several); join the lines",
            )


_SIZE_BOUNDS = ("maxItems", "maxProperties")
"""Bounds past which the rest of a file is not checked (:func:`check`)."""


def check(document: Document, schema: dict[str, Any]) -> list[Problem]:
    """Every schema violation in ``document``, and every refused character
    (:func:`check_characters`), in file order."""
    if "$defs" not in schema:
        schema = _with_kind(schema)
    validator = _Validator(schema)
    problems = list(check_characters(document))
    for error in validator.iter_errors(document.data):
        path, message = _message(error)
        problems.append(document.problem(path, message))
        if error.validator in _SIZE_BOUNDS:
            # Past a size bound, checking the rest item by item could take minutes (200,000
            # outcomes: one), and the file is no real rulebook: this problem comes alone.
            break
    return sorted(problems, key=lambda p: p.line)
