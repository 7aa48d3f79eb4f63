"""The sentences of a seed page, split the same way every time, so that a data file can
account for each one (``variants/seed-sentences.yml``).

A sentence ends at ".", "!" or "?" followed by a space and a capital, a digit, an opening
quote or bracket; lines, list items and table cells are never joined. List markers ("- ",
"1. ") are dropped, pieces with no letter (separators, bare numbers) are skipped, and a
sentence the page repeats word for word is kept once.
"""

from __future__ import annotations

import re

_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-Þ0-9¿¡\"“«(\[])")
_MARKER = re.compile(r"^(?:- |\d+\. )")
_LETTER = re.compile(r"[^\W\d_]")


def _pieces(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        return [cell.strip() for cell in line.strip("|").split("|")]
    return [_MARKER.sub("", line)]


def sentences(text: str) -> list[str]:
    """Every sentence of ``text``, once each, in order of first appearance."""
    found: dict[str, None] = {}
    for line in text.splitlines():
        for piece in _pieces(line):
            for sentence in _END.split(piece.strip()):
                if _LETTER.search(sentence):
                    found.setdefault(sentence.strip(), None)
    return list(found)
