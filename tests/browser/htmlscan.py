"""What a static HTML page offers a reader without running it: ids, links, redirects, cite blocks.

Read with :mod:`html.parser` (the standard library), so the link checker does not depend on the
browser or on the theme's JavaScript.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Attributes whose value is an address the browser fetches or follows.
LINK_ATTRIBUTES = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "script": ("src",),
    "img": ("src",),
    "source": ("src",),
    "audio": ("src",),
    "video": ("src", "poster"),
    "iframe": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "use": ("href", "xlink:href"),
    "image": ("href", "xlink:href"),
    "form": ("action",),
}
SRCSET_TAGS = {"img", "source"}
UNREAD_TAGS = {"script", "style", "template"}
WORD = re.compile(r"[^\W\d_]+")
REFRESH_URL = re.compile(r"^\s*\d+\s*;\s*url\s*=\s*(?P<url>.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Link:
    """One address found on a page, with where it was found (for error messages)."""

    tag: str
    attribute: str
    url: str
    line: int
    rel: tuple[str, ...] = ()


@dataclass
class CiteBlock:
    """A ``<details class="cite" data-ruling=...>`` block and the text of its ``<pre>`` forms."""

    ruling: str
    forms: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class StaticMedium:
    """An ``<img>`` or ``<svg role="img">`` and its text alternative as written in the HTML."""

    kind: str
    name: str
    alternative: str


@dataclass
class PageScan:
    ids: set[str] = field(default_factory=set)
    duplicate_ids: set[str] = field(default_factory=set)
    links: list[Link] = field(default_factory=list)
    refresh: str | None = None
    cite_blocks: list[CiteBlock] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    media: list[StaticMedium] = field(default_factory=list)

    @property
    def is_redirect(self) -> bool:
        """A redirect stub (mkdocs-redirects writes one per short address)."""
        return self.refresh is not None


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = PageScan()
        self._cite: CiteBlock | None = None
        self._pre_class: str | None = None
        self._pre_text: list[str] = []
        self._unread_depth = 0
        # Inside an <svg role="img">: element depth below it, and its direct <title> text.
        self._svg_depth = 0
        self._svg_name = ""
        self._svg_aria_label = ""
        self._svg_title: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag in UNREAD_TAGS:
            self._unread_depth += 1
        line = self.getpos()[0]
        self._note_ids(tag, values)
        rel = tuple(values.get("rel", "").lower().split())
        for attribute in LINK_ATTRIBUTES.get(tag, ()):
            if values.get(attribute):
                url = values[attribute].strip()
                self.scan.links.append(Link(tag, attribute, url, line, rel))
        if tag in SRCSET_TAGS and values.get("srcset"):
            for candidate in values["srcset"].split(","):
                if candidate.strip():
                    url = candidate.split()[0]
                    self.scan.links.append(Link(tag, "srcset", url, line))
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            match = REFRESH_URL.match(values.get("content", ""))
            if match:
                self.scan.refresh = match["url"].strip("'\"")
                self.scan.links.append(Link(tag, "content", self.scan.refresh, line))
        self._note_media(tag, values)
        classes = values.get("class", "").split()
        if tag == "details" and "cite" in classes:
            self._cite = CiteBlock(values.get("data-ruling", ""))
            self.scan.cite_blocks.append(self._cite)
        if tag == "pre" and self._cite is not None:
            forms = [c for c in classes if c.startswith("cite-")]
            self._pre_class = forms[0] if forms else None
            self._pre_text = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in UNREAD_TAGS:
            self._unread_depth -= 1
        if self._svg_depth > 1:
            self._svg_depth -= 1  # <rect/> and friends close at once

    def _note_media(self, tag: str, values: dict[str, str]) -> None:
        if tag == "img":
            medium = StaticMedium("img", values.get("src", "?"), values.get("alt", "").strip())
            self.scan.media.append(medium)
        elif self._svg_depth > 0:
            self._svg_depth += 1
            if tag == "title" and self._svg_depth == 2:
                self._svg_title = []
        elif tag == "svg" and values.get("role") == "img":
            self._svg_depth = 1
            self._svg_name = values.get("id") or f"at line {self.getpos()[0]}"
            self._svg_aria_label = values.get("aria-label", "").strip()
            self._svg_title = None

    def _close_svg_element(self, tag: str) -> None:
        if tag == "title" and self._svg_depth == 2 and self._svg_title is not None:
            self._svg_aria_label = self._svg_aria_label or "".join(self._svg_title).strip()
            self._svg_title = None
        self._svg_depth -= 1
        if self._svg_depth == 0:
            self.scan.media.append(StaticMedium("svg", self._svg_name, self._svg_aria_label))

    def handle_endtag(self, tag: str) -> None:
        if tag in UNREAD_TAGS:
            self._unread_depth = max(0, self._unread_depth - 1)
        if self._svg_depth > 0:
            self._close_svg_element(tag)
        if tag == "pre" and self._cite is not None and self._pre_class is not None:
            self._cite.forms[self._pre_class] = "".join(self._pre_text)
            self._pre_class = None
        if tag == "details":
            self._cite = None

    def handle_data(self, data: str) -> None:
        if self._svg_title is not None:
            self._svg_title.append(data)
        if self._unread_depth == 0:
            self.scan.words.update(word.casefold() for word in WORD.findall(data))
        if self._pre_class is not None:
            self._pre_text.append(data)

    def _note_ids(self, tag: str, values: dict[str, str]) -> None:
        names = [values["id"]] if "id" in values else []
        # <a name=...> is an old but valid fragment target.
        if tag == "a" and values.get("name"):
            names.append(values["name"])
        for name in names:
            if name in self.scan.ids:
                self.scan.duplicate_ids.add(name)
            self.scan.ids.add(name)


def scan_html(text: str) -> PageScan:
    scanner = _Scanner()
    scanner.feed(text)
    scanner.close()
    return scanner.scan
