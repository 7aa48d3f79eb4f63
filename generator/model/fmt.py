"""Canonical layout for variant files and the bibliography: fixed key order, one style.

``ur-variants fmt`` rewrites files this way; the tests fail when a file is not canonical.
Files are read and written as data, so comments are not kept: notes belong in ``note``.
The one change to the data itself is typographic: a page range in the edition's own words
(a title, note, locator, summary or ruling text) takes an en dash, "pp. 12–14", as readers
expect; a quote, a translation and anything inside double quotes stay as the source prints them.
A locator follows its source's title after a comma ("A History of Board-Games Other Than Chess,
pp. 19–21"), so one that opens with a page or volume abbreviation writes it in lower case.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

VARIANT_KEYS = (
    "id",
    "title",
    "short",
    "kind",
    "family",
    "derives_from",
    "simulate",
    "summary",
    "rulings",
    "claims",
)
RULING_KEYS = ("id", "question", "value", "text", "evidence", "sources", "note")
CLAIM_KEYS = ("id", "claim", "check", "reading", "sources", "note")
CITATION_KEYS = ("source", "locator", "contrary", "quote", "sic", "code", "translation")
SOURCE_KEYS = (
    "id",
    "title",
    "author",
    "year",
    "language",
    "kind",
    "seed",
    "url",
    "seen",
    "versions",
    "note",
)
VERSION_KEYS = ("match", "label", "date", "commit")


PROSE_KEYS = frozenset({"title", "summary", "text", "note", "locator", "claim"})
"""Keys whose text is the edition's own words (never a quote): typeset by :func:`en_dashes`."""
PAGE_RANGE = re.compile(
    r"(?P<lead>\b(?:[Pp]p?\.|pages?|[A-Z][A-Za-z'’]+ \d{4}:) ?)(?P<first>\d+)-(?P<last>\d+)\b"
)
"""A page range after "p.", "pp.", "pages" or an author-year citation ("Finkel 2007: 21-22")."""
QUOTED = re.compile(r'"[^"]*"|“[^”]*”')


def en_dashes(text: str) -> str:
    """Page ranges with an en dash, except inside double quotes (quoted as printed).

    >>> en_dashes('pp. 19-21; Ludii cites it as "Murray 1951: 20-21", and Finkel 2007: 21-22')
    'pp. 19–21; Ludii cites it as "Murray 1951: 20-21", and Finkel 2007: 21–22'
    """
    parts = []
    at = 0
    for quoted in QUOTED.finditer(text):
        parts += [PAGE_RANGE.sub(_dash, text[at : quoted.start()]), quoted.group()]
        at = quoted.end()
    return "".join([*parts, PAGE_RANGE.sub(_dash, text[at:])])


def _dash(match: re.Match[str]) -> str:
    return f"{match['lead']}{match['first']}\u2013{match['last']}"


OPENING_ABBREVIATION = re.compile(r"^(Pp?|Vols?|Nos?)\. ")
"""A locator's opening "Pp.", "P.", "Vol." or "No.": written lower case after a title."""


def lower_abbreviation(locator: str) -> str:
    """The locator with an opening page, volume or number abbreviation in lower case, as it
    reads after the title it follows.

    >>> lower_abbreviation("Pp. 19–21, the tablet's reverse")
    "pp. 19–21, the tablet's reverse"
    >>> lower_abbreviation("Vol. 1, the Royal Game of Ur")
    'vol. 1, the Royal Game of Ur'
    >>> lower_abbreviation("Rule 4")
    'Rule 4'
    """
    return OPENING_ABBREVIATION.sub(lambda m: m.group().lower(), locator)


def _typeset(mapping: dict[str, Any]) -> dict[str, Any]:
    typeset = {
        k: en_dashes(v) if k in PROSE_KEYS and isinstance(v, str) else v for k, v in mapping.items()
    }
    if isinstance(typeset.get("locator"), str):
        typeset["locator"] = lower_abbreviation(typeset["locator"])
    return typeset


def _ordered(mapping: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    mapping = _typeset(mapping)
    known = {k: mapping[k] for k in keys if k in mapping}
    extra = {k: v for k, v in mapping.items() if k not in keys}
    return {**known, **extra}


def _citations(items: Any) -> Any:
    if not isinstance(items, list):
        return items
    return [_ordered(c, CITATION_KEYS) if isinstance(c, dict) else c for c in items]


def _with_citations(item: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """``item`` in key order with its citations ordered; an absent ``sources`` stays absent."""
    if "sources" in item:
        item = {**item, "sources": _citations(item["sources"])}
    return _ordered(item, keys)


def canonical_variant(data: dict[str, Any]) -> dict[str, Any]:
    result = _ordered(data, VARIANT_KEYS)
    if isinstance(result.get("rulings"), list):
        result["rulings"] = [
            _with_citations(r, RULING_KEYS) if isinstance(r, dict) else r for r in result["rulings"]
        ]
    if isinstance(result.get("claims"), list):
        result["claims"] = [
            _with_citations(c, CLAIM_KEYS) if isinstance(c, dict) else c for c in result["claims"]
        ]
    return result


def _source(entry: dict[str, Any]) -> dict[str, Any]:
    """A bibliography entry in key order, its versions too."""
    versions = entry.get("versions")
    if isinstance(versions, list):
        entry = {
            **entry,
            "versions": [_ordered(v, VERSION_KEYS) if isinstance(v, dict) else v for v in versions],
        }
    return _ordered(entry, SOURCE_KEYS)


def canonical_sources(data: dict[str, Any]) -> dict[str, Any]:
    """The bibliography in key order; entries that are not mappings are left as they are."""
    sources = data.get("sources", [])
    if not isinstance(sources, list):
        return _ordered(data, ("sources",))
    ordered = [_source(s) if isinstance(s, dict) else s for s in sources]
    return _ordered({**data, "sources": ordered}, ("sources",))


class _Dumper(yaml.SafeDumper):
    pass


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    flow = all(isinstance(v, str | int | float | bool) for v in value) and len(str(value)) < 80
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(list, _represent_list)


def dump(data: dict[str, Any]) -> str:
    text: str = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=False,
        indent=2,
    )
    return text


def canonical_text(path: Path, data: Any) -> str:
    """The canonical text of a variant file or the bibliography, given its parsed data."""
    if path.name == "sources.yml":
        return dump(canonical_sources(data))
    return dump(canonical_variant(data))
