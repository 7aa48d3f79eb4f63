"""JSON Schema checks whose errors read as ``file:line: message`` with the fix."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from generator.model.yamlsource import Document, Problem, shown

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
}
"""What each pattern asks for, in words, for its error message."""

MAX_ID_LENGTH = 80
"""Ids become page addresses and navigation entries: a few words, never a paragraph."""
MAX_THROW = 100
"""No dice throws more; a throw, an entry square or a throw earning another throw above it is
a typing slip, and the engine sizes tables by it."""

_ID = {"type": "string", "pattern": _ID_PATTERN, "maxLength": MAX_ID_LENGTH}
_CELLS = {"type": "array", "items": {"type": "string", "pattern": _CELL_PATTERN}}

_VERSION: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "match": {"type": "string", "minLength": 1},
        "label": {"type": "string", "minLength": 1},
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
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "author", "year", "language", "kind"],
                "properties": {
                    "id": _ID,
                    "title": {"type": "string", "minLength": 1},
                    "author": {"type": "string", "minLength": 1},
                    "year": {"type": ["integer", "null"]},
                    "language": {"type": "string", "pattern": _LANGUAGE},
                    "kind": {"$ref": "#/$defs/kind"},
                    "seed": {"type": ["string", "null"]},
                    "url": {"type": ["string", "null"], "pattern": _URL_PATTERN},
                    "note": {"type": ["string", "null"]},
                    "versions": {"type": "array", "minItems": 1, "items": _VERSION},
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
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "explanation", "engine", "value"],
                "properties": {
                    "id": _ID,
                    "title": {"type": "string", "minLength": 1},
                    "explanation": {"type": "string", "minLength": 1},
                    "engine": {"type": "string", "minLength": 1},
                    "value": {"type": "string", "minLength": 1},
                    "measure": {"type": "array", "minItems": 1},
                },
            },
        }
    },
}

_PROBABILITY = {"type": ["string", "integer", "number"], "maxLength": 40, "maximum": 1}
"""A probability such as 1/8 or 0.125: a short fraction (a long one cannot be printed)."""

EQUIPMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["boards", "routes", "dice"],
    "properties": {
        "boards": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "rows", "columns", "missing", "rosettes"],
                "properties": {
                    "id": _ID,
                    "title": {"type": "string"},
                    "rows": {"type": "integer", "minimum": 1, "maximum": 9},
                    "columns": {"type": "integer", "minimum": 1, "maximum": 30},
                    "missing": _CELLS,
                    "rosettes": _CELLS,
                },
            },
        },
        "routes": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title", "board", "light", "dark"],
                "properties": {
                    "id": _ID,
                    "title": {"type": "string"},
                    "board": _ID,
                    "light": {**_CELLS, "minItems": 1},
                    "dark": {"anyOf": [{"const": "mirror"}, {**_CELLS, "minItems": 1}]},
                },
            },
        },
        "dice": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "title"],
                "properties": {
                    "id": _ID,
                    "title": {"type": "string"},
                    "lots": {"type": "integer", "minimum": 1, "maximum": 12},
                    "marked": _PROBABILITY,
                    "counts": {
                        "type": "object",
                        "additionalProperties": {"type": "integer", "minimum": 0},
                    },
                    "outcomes": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["throw", "p"],
                            "properties": {
                                "throw": {"type": "integer", "minimum": 0, "maximum": MAX_THROW},
                                "p": _PROBABILITY,
                                "label": {"type": "string"},
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


def _where(path: tuple[str | int, ...]) -> str:
    if not path:
        return "the file"
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _message(error: jsonschema.ValidationError) -> tuple[tuple[str | int, ...], str]:
    # jsonschema types these as possibly unset; on a reported error they are always set.
    schema_here: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    expected: Any = error.validator_value
    instance: Any = error.instance
    path = tuple(error.absolute_path)
    where = _where(path)
    validator = error.validator
    if validator == "additionalProperties":
        allowed = sorted(schema_here.get("properties", {}))
        extra = sorted(set(instance) - set(allowed))
        key = extra[0] if extra else "?"
        return (*path, key), (
            f"unknown key {key!r} in {where}; expected one of: {', '.join(allowed)}"
            " (check the spelling)"
        )
    if validator == "required":
        missing = str(error.message).split("'")[1] if "'" in error.message else error.message
        return path, f"missing key {missing!r} in {where}; add it (see variants/README.md)"
    if validator == "type":
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
            f"{where} is {len(instance):,} characters long; shorten it to at most {expected}"
        )
    if validator == "maximum":
        return path, f"{where} is too large; at most {expected}, got {shown(instance)}"
    if validator == "anyOf" and "label" in schema_here.get("properties", {}):
        return path, f"{where}: give the version's label, date or commit (at least one)"
    if validator == "oneOf" and "lots" in schema_here.get("oneOf", [{}])[0].get("required", []):
        return path, f"{where}: give either lots with counts, or outcomes (not both)"
    return path, f"{where}: {error.message}"


def check(document: Document, schema: dict[str, Any]) -> list[Problem]:
    """Every schema violation in ``document``, in file order."""
    if "$defs" not in schema:
        schema = _with_kind(schema)
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    for error in validator.iter_errors(document.data):
        path, message = _message(error)
        problems.append(document.problem(path, message))
    return sorted(problems, key=lambda p: p.line)
