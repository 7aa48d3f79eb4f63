"""Links in prose: a ruling's note, a rulebook's summary or a claim's note names another ruling,
rulebook or source as ``[[id]]`` or ``[[id|words]]``.

The id stays in the data; a page shows the words (or, without words, the name the site gives
that ruling, rulebook or source) as a link to it, and plain text (a page description) shows the
words alone. A reference to an id the catalogue does not know is a data error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

REFERENCE = re.compile(r"\[\[(?P<id>[a-z0-9]+(?:-[a-z0-9]+)*)(?:\|(?P<words>[^\[\]|]+))?\]\]")
"""``[[id]]`` or ``[[id|words]]``."""
OPENING = re.compile(r"\[\[|\]\]")


@dataclass(frozen=True)
class Reference:
    """One ``[[...]]`` in a text: the id it names and the words to show, if given."""

    id: str
    words: str | None


def pieces(text: str) -> Iterator[str | Reference]:
    """The text in order: plain stretches and references."""
    at = 0
    for match in REFERENCE.finditer(text):
        if match.start() > at:
            yield text[at : match.start()]
        words = match.group("words")
        yield Reference(match.group("id"), " ".join(words.split()) if words else None)
        at = match.end()
    if at < len(text):
        yield text[at:]


def references(text: str | None) -> list[Reference]:
    return [p for p in pieces(text or "") if isinstance(p, Reference)]


def malformed(text: str | None) -> list[str]:
    """Each ``[[`` or ``]]`` that is not part of a well-formed reference."""
    rest = REFERENCE.sub("", text or "")
    return [m.group() for m in OPENING.finditer(rest)]
