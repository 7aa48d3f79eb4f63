"""The words of the program a reader meets on a page without opening anything.

A reader page may keep the program's words (seed numbers, the computer players' names used as
names, "Bonferroni", "preset", "PyPI", JSON, file names, commands) as evidence, but only where a
reader asks for them: inside a closed fold (``<details>``, whose ``<summary>`` is read, since it
shows) or in quoted source code (``<code>``, ``<pre>``, and the caption of a quotation of code,
which names the file and function it quotes, as a page number names a book's place).
Everything else a reader sees, text and the page's description, is scanned here (issue 40
item 4).

The pages whose subject is the method or the machinery (:data:`METHOD_PAGES`) may say them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

from generator.site.reader_text import INLINE_TAGS, NOT_FOR_READERS, all_pages, archived
from generator.site.vocabulary import _data as vocabulary_data

METHOD_PAGES = (
    "about/",
    "methodology/",
    "statistics/",
    "claims/",  # each claim's check is named with its method: games, seeds, positions
    *(page.removesuffix("index.html") for page in NOT_FOR_READERS),
)
"""Site paths (prefixes) of the pages about how the figures and the site are made."""

UNREAD_TAGS = {"script", "style", "template", "code", "pre"}
"""Not scanned: scripts and styles, and quoted code (evidence, shown as code)."""


def _agent_names() -> list[str]:
    """The computer players' names (vocabulary ``agents``), other than the random player's."""
    agents = vocabulary_data()["agents"]
    return sorted((str(a["name"]) for key, a in agents.items() if key != "random"), key=len)


def program_patterns() -> dict[str, re.Pattern[str]]:
    """Each kind of program word and the pattern that finds it."""
    names = "|".join(re.escape(name) for name in reversed(_agent_names()))
    return {
        "seed": re.compile(r"\bseed(?:s|ed)?\b(?: \d+)?", re.IGNORECASE),
        "player's name": re.compile(rf"\b(?:the )?(?:{names}) (?:player|agent)s?\b"),
        "Bonferroni": re.compile(r"\bBonferroni\b"),
        "preset": re.compile(r"\bpresets?\b", re.IGNORECASE),
        "PyPI": re.compile(r"\bPyPI\b"),
        "JSON": re.compile(r"(?<!CSL-)\bJSON\b"),  # CSL-JSON is a citation format's name
        "YAML": re.compile(r"\bYAML\b"),
        "file name": re.compile(r"\b[\w-]+\.(?:ya?ml|py|json|js|csv|lock|md|txt)\b"),
        "command": re.compile(r"(?<![\w-])--[a-z][\w-]+|\bur-variants\b|\bmkdocs\b|\bpytest\b"),
        "code name": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    }


class _Visible(HTMLParser):
    """The text a reader sees with every fold closed: a fold's summary, not its inside (nor a
    fold's summary inside another closed fold)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self._run: list[str] = []
        self._folds: list[bool] = []  # per open <details>: whether we are in its <summary>
        self._unread = 0
        self._figures: list[bool] = []  # per open <figure>: whether it quotes source code

    def _flush(self) -> None:
        run = "".join(self._run)
        if run.strip():
            self.pieces.append(run)
        self._run = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag not in INLINE_TAGS:
            self._flush()
        if tag == "meta" and values.get("name") == "description" and values.get("content"):
            self.pieces.append(values["content"])
        if tag == "figure":
            self._figures.append(False)
        elif tag == "blockquote" and values.get("lang") == "zxx" and self._figures:
            self._figures[-1] = True
        if tag in UNREAD_TAGS or (tag == "figcaption" and self._figures and self._figures[-1]):
            self._unread += 1
        elif tag == "details":
            self._folds.append(False)
        elif tag == "summary" and self._folds:
            self._folds[-1] = True

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE_TAGS:
            self._flush()
        if tag in UNREAD_TAGS or (tag == "figcaption" and self._figures and self._figures[-1]):
            self._unread = max(0, self._unread - 1)
        elif tag == "figure" and self._figures:
            self._figures.pop()
        elif tag == "summary" and self._folds:
            self._folds[-1] = False
        elif tag == "details" and self._folds:
            self._folds.pop()

    def handle_data(self, data: str) -> None:
        if not self._unread and all(self._folds):
            self._run.append(data)


def visible_text(html: str) -> list[str]:
    reader = _Visible()
    reader.feed(html)
    reader.close()
    reader._flush()
    return reader.pieces


def program_words(pieces: Iterable[str]) -> Counter[str]:
    """Each program word found, as written (``seed 20261130``, ``the Fitted player``)."""
    found: Counter[str] = Counter()
    patterns = program_patterns()
    for text in pieces:
        for pattern in patterns.values():
            found.update(m.group() for m in pattern.finditer(text))
    return found


def scanned_pages(site: Path) -> list[Path]:
    """Every reader page but those about the method or the machinery, and the site's archive:
    the editions' copies and their list, which quote words as they were published then."""
    return [
        page
        for page in all_pages(site)
        if not page.relative_to(site).as_posix().startswith(METHOD_PAGES)
        and not archived(site, page)
        and page.relative_to(site).as_posix() != "editions/index.html"
    ]


def site_program_words(site: Path) -> dict[str, Counter[str]]:
    """Site path -> the program words a reader meets on it, for every page with any."""
    found = {}
    for page in scanned_pages(site):
        words = program_words(visible_text(page.read_text(encoding="utf-8")))
        if words:
            found[page.relative_to(site).as_posix().removesuffix("index.html")] = words
    return found
