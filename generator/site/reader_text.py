"""The words a reader sees on a built page, and the machine or workshop words among them.

Reader-visible text is every text node outside ``<script>``, ``<style>`` and ``<template>``
(SVG ``<title>`` and ``<desc>`` included), plus the ``title``, ``alt``, ``aria-label`` and
``placeholder`` attributes and the page's description (what search results and link previews
show). Text runs through inline elements (a glossary ``<abbr>``, a link, a code span) as a
reader reads it, so a word split by markup is still one word. The citation forms
(``<pre class="cite-...">``: BibTeX and CSL-JSON are machine-readable on purpose) are left out,
and so are addresses (``/r/tablet-dice/``, ``urvariants:...``): a citation names its address.
So is text marked ``class="archived"`` (a ruling's earlier wordings, the editions' summaries):
it is quoted as an earlier edition published it, words since reworded included.

Machine words are grid cell names (``r2c4``) and "cells", ``null``, JSON objects, git commit
hashes, the hyphenated value tokens of the data (``four-binary``, ``commercial-rules``) and the
ids of rulings, rulebooks, sources, claims and claim checks (``bell-dice``, ``tablet-finkel-2007``,
``game-minutes``); workshop words are phrases about how the project gathered its sources rather
than about the sources (:data:`WORKSHOP`), the seed pages' numbers among them. One such phrase
is asked for: a bibliography entry says, once, that this edition did not see the source
(``<p class="not-seen">Not seen by this edition.</p>``); that paragraph, word for word, is set
apart (:attr:`ReaderText.not_seen`) instead of read, and the phrase anywhere else still counts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from generator.site.reference_pages import NOT_SEEN

UNREAD_TAGS = {"script", "style", "template"}
READ_ATTRIBUTES = ("title", "alt", "aria-label", "placeholder")
INLINE_TAGS = {
    "a", "abbr", "b", "bdi", "cite", "code", "dfn", "em", "i", "kbd", "mark", "q", "s", "samp",
    "small", "span", "strong", "sub", "sup", "time", "u", "var",
}  # fmt: skip
"""Elements inside a line of text: the words around them are read as one run."""
CELL = re.compile(r"\br\d+c\d+\b")
CELLS = re.compile(r"\bcells?\b", re.IGNORECASE)
GIT_HASH = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
"""A commit hash, full or abbreviated: seven or more hex digits, with a digit and a letter."""
ADDRESS = re.compile(r"\S*(?:/|urvariants:)\S*")
"""A path or address printed as text (a citation's ``/r/<id>/``): ids belong there."""
NULL = re.compile(r"\bnull\b")
JSON = re.compile(r"[{\[]\s*\"[\w-]+\"\s*:")
TOKEN = re.compile(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b")
WORKSHOP = (
    re.compile(r"\b[\w/-]+\.ya?ml\b"),
    re.compile(r"\bgenerator/[\w/]+\.py\b"),
    re.compile(r"could not be retrieved"),
    re.compile(r"stored copy"),
    re.compile(r"\bseeds? \d{3}(?:(?:, | and | or |, and )\d{3})*\b"),
    re.compile(r"search tools?"),
    re.compile(r"stored version"),
    re.compile(r"readable through"),
    re.compile(r"seen by this edition"),
    re.compile(r"could not be read"),
    re.compile(r"not retrievable"),
    re.compile(r"available to this project"),
    re.compile(r"research note"),
    re.compile(r"\bscraped\b"),
    re.compile(r"\bworktree\b"),
    re.compile(r"\bnot recovered\b"),
    re.compile(r"\bunchecked digest\b"),
    re.compile(r"\b(?:pages?|part|summary) (?:not )?seen\b"),
)
"""Phrases about how the project worked: file names as prose, retrieval, the seed pages' numbers."""


@dataclass
class ReaderText:
    """The reader-visible pieces of text of one page, in document order."""

    pieces: list[str] = field(default_factory=list)
    not_seen: int = 0
    """Paragraphs ``<p class="not-seen">`` saying exactly :data:`NOT_SEEN` (set apart)."""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text = ReaderText()
        self._unread = 0
        self._skip = 0  # inside a citation form
        self._run: list[str] = []  # the current line of text, through inline elements
        self._not_seen = False  # the current run is a bibliography entry's "not seen" line

    def _flush(self) -> None:
        run = "".join(self._run)
        if self._not_seen and " ".join(run.split()) == NOT_SEEN:
            self.text.not_seen += 1
        elif run.strip():
            self.text.pieces.append(run)
        self._run = []
        self._not_seen = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag not in INLINE_TAGS:
            self._flush()
            self._not_seen = tag == "p" and "not-seen" in values.get("class", "").split()
        if tag == "meta" and values.get("name") == "description" and values.get("content"):
            self.text.pieces.append(values["content"])
        if tag in UNREAD_TAGS:
            self._unread += 1
        classes = values.get("class", "").split()
        cited = tag == "pre" and any(c.startswith("cite-") for c in classes)
        if self._skip or cited or "archived" in classes:
            self._skip += 1
        if self._unread or self._skip:
            return
        for name in READ_ATTRIBUTES:
            if values.get(name):
                self.text.pieces.append(values[name])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE_TAGS:
            self._flush()
        if tag in UNREAD_TAGS:
            self._unread = max(0, self._unread - 1)
        if self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._unread and not self._skip:
            self._run.append(data)


def read_page(html: str) -> ReaderText:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    reader._flush()
    return reader.text


def reader_text(html: str) -> list[str]:
    return read_page(html).pieces


def machine_tokens(catalog: Any) -> frozenset[str]:
    """Every hyphenated machine value of the data (ruling values, equipment ids, kinds) that is
    not also a word of the equipment's titles, and every id of a ruling, rulebook, source,
    claim or claim check."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            # A named piece ("storm-bird") is called by its name on the page too.
            for key, item in value.items():
                if key != "name":
                    walk(item)

    for ruling in catalog.rulings():
        walk(ruling.value)
    equipment = catalog.equipment
    found.update(equipment.boards, equipment.routes, equipment.dice)
    found.update(v.kind.value for v in catalog.variants.values())
    found.update(s.kind.value for s in catalog.sources.values())
    ids = {r.id for r in catalog.rulings()} | set(catalog.variants) | set(catalog.sources)
    ids.update(r.evidence.value for r in catalog.rulings())
    for variant in catalog.variants.values():
        ids.update(c.id for c in variant.claims)
        ids.update(c.check for c in variant.claims)
    # A hyphenated word the data itself uses as prose ("the later twenty-squares board") is
    # English as well as an id.
    prose = " ".join(
        item.title
        for kind in (equipment.boards, equipment.routes, equipment.dice)
        for item in kind.values()
    )
    values = {t for t in found if "-" in t and t not in prose}
    return frozenset(values | {i for i in ids if "-" in i})


def machine_words(pieces: Iterable[str], tokens: frozenset[str]) -> Counter[str]:
    """Each machine word found, with how often."""
    found: Counter[str] = Counter()
    for text in pieces:
        found.update(m.group() for m in CELL.finditer(text))
        found.update(m.group().lower() for m in CELLS.finditer(text))
        found.update("null" for _ in NULL.finditer(text))
        found.update("JSON" for _ in JSON.finditer(text))
        found.update("git hash" for _ in GIT_HASH.finditer(text))
        prose = ADDRESS.sub(" ", text)
        found.update(m.group() for m in TOKEN.finditer(prose) if m.group() in tokens)
    return found


def workshop_words(pieces: Iterable[str]) -> Counter[str]:
    found: Counter[str] = Counter()
    for text in pieces:
        for pattern in WORKSHOP:
            found.update(m.group().lower() for m in pattern.finditer(text))
    return found


NOT_FOR_READERS = {
    "r/index.html": "the index of rulings by id: a list of addresses, where ids are the subject",
    "statistics/method/index.html": "the implementers' page: commands, caches and engine values",
    "changes/index.html": "the edition log: a changed ruling's old words, quoted as they were",
}
"""Pages whose subject is the machinery; every other page is scanned for machine words."""


def reader_pages(site: Path) -> list[Path]:
    skipped = {site / page for page in NOT_FOR_READERS}
    return [p for p in all_pages(site) if p not in skipped]


def page_machine_words(site: Path, page: Path, tokens: frozenset[str]) -> Counter[str]:
    """The machine words of one built page. A ruling's own page (``/r/<id>/``) may name its id:
    its citation says which ruling it is."""
    parts = page.relative_to(site).parts
    if archived(site, page):
        return Counter()
    found = machine_words(reader_text(page.read_text(encoding="utf-8")), tokens)
    if parts[0] == "r" and len(parts) == 3:
        del found[parts[1]]
    return found


def archived(site: Path, page: Path) -> bool:
    """An edition's copy (``/editions/<N>/``): it shows each ruling's words and note as that
    edition published them, words since reworded included, so that a citation leads to what
    it cited. The reader-text rules apply to the site as it is now, not to its archive."""
    parts = page.relative_to(site).parts
    return len(parts) == 3 and parts[0] == "editions" and parts[1].isdigit()


def all_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.parts)
