"""A small, strict BibTeX reader for the site's "Cite this ruling" blocks.

Strict where reference managers are lenient, so a malformed entry fails here instead of being
half-imported by a reader's tool: exactly one entry, a known entry type, a citation key,
``name = value`` fields separated by commas, values in balanced braces, double quotes or bare
digits, no field given twice, nothing after the closing brace. The grammar is BibTeX's as
documented in Patashnik, "BibTeXing" (1988), section 2, and the btparse manual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The standard styles' entry types plus biblatex's @online, which reference managers import.
ENTRY_TYPES = frozenset(
    {
        "article",
        "book",
        "booklet",
        "inbook",
        "incollection",
        "inproceedings",
        "manual",
        "misc",
        "online",
        "techreport",
        "unpublished",
    }
)
_HEAD = re.compile(r"\s*@(?P<type>[A-Za-z]+)\s*(?P<open>[{(])\s*(?P<key>[^\s,{}()\"#%'=]+)\s*,")
_NAME = re.compile(r"\s*(?P<name>[A-Za-z][A-Za-z0-9_:.+-]*)\s*=\s*")
_NUMBER = re.compile(r"[0-9]+")


class BibtexError(ValueError):
    """The text is not one well-formed BibTeX entry; the message says where."""


@dataclass(frozen=True)
class BibtexEntry:
    entry_type: str
    key: str
    fields: dict[str, str]


def parse_entry(text: str) -> BibtexEntry:
    head = _HEAD.match(text)
    if head is None:
        raise BibtexError(f"expected '@type{{key,' at the start, found {text[:40]!r}")
    entry_type = head["type"].lower()
    if entry_type not in ENTRY_TYPES:
        raise BibtexError(f"unknown entry type @{head['type']}")
    closer = "}" if head["open"] == "{" else ")"
    fields: dict[str, str] = {}
    position = head.end()
    while True:
        rest = text[position:].lstrip()
        if rest.startswith(closer):
            position = len(text) - len(rest) + 1
            break
        name_match = _NAME.match(text, position)
        if name_match is None:
            raise BibtexError(
                f"expected 'name = value' at offset {position}: {text[position:][:40]!r}"
            )
        name = name_match["name"].lower()
        if name in fields:
            raise BibtexError(f"field {name!r} is given twice")
        value, position = _value(text, name_match.end())
        fields[name] = value
        rest = text[position:].lstrip()
        if rest.startswith(","):
            position = len(text) - len(rest) + 1
        elif not rest.startswith(closer):
            raise BibtexError(f"expected ',' or {closer!r} after field {name!r}: {rest[:40]!r}")
    if text[position:].strip():
        raise BibtexError(f"text after the entry: {text[position:].strip()[:40]!r}")
    return BibtexEntry(entry_type, head["key"], fields)


def _value(text: str, start: int) -> tuple[str, int]:
    """One field value (braced, quoted or a bare number) and the offset just after it."""
    if start >= len(text):
        raise BibtexError("the entry ends inside a field")
    opener = text[start]
    if opener == "{":
        end = _balanced_end(text, start)
        return text[start + 1 : end], end + 1
    if opener == '"':
        index = start + 1
        depth = 0
        while index < len(text):
            char = text[index]
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth < 0:
                    raise BibtexError(f"unbalanced '}}' in quoted value at offset {index}")
            elif char == '"' and depth == 0:
                return text[start + 1 : index], index + 1
            index += 1
        raise BibtexError(f"quoted value opened at offset {start} never closes")
    number = _NUMBER.match(text, start)
    if number is None:
        raise BibtexError(
            f'a value must be {{braced}}, "quoted" or a number: {text[start:][:40]!r}'
        )
    return number.group(), number.end()


def _balanced_end(text: str, start: int) -> int:
    """Offset of the brace closing the one at ``start``.

    BibTeX counts every brace, escaped or not, so ``\\{`` must be balanced too.
    """
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise BibtexError(f"brace opened at offset {start} never closes")
