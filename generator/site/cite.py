"""Citations of a ruling, a rulebook or the whole site: plain text, BibTeX, CSL-JSON and RIS.

Every citation names the site's edition (number and date), because a ruling's words can change
between editions (cite the edition, as the Stanford Encyclopedia of Philosophy asks), and points
at the short address ``/r/<id>/`` of a ruling, which keeps the id visible when a tool drops a
URL's ``#fragment``. The author is the corporate author "Ur Variants contributors", braced in
BibTeX so that no tool splits it into a first and last name.

The address is configuration: ``SITE_URL``. When it is unset there is no host to name, so a
citation carries the site-relative path (``/r/<id>/``); a small script on the page replaces it
with the address the page is served from, and the site-wide files say the address is unset.
The plain-text form is rendered from the CSL-JSON by citeproc-py in the Harvard "Cite Them
Right" style, never formatted by hand.
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
from typing import Literal

import citeproc
from citeproc.source.json import CiteProcJSON

from generator.site.settings import web_address

SITE_NAME = "Royal Game of Ur variants"
AUTHOR = "Ur Variants contributors"
"""The corporate author of every entry: the people who keep the rulebooks and their sources."""
CITATION_STYLE = "harvard-cite-them-right"
"""The CSL style (bundled with citeproc-py) of every plain-text citation."""
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

    @property
    def absolute(self) -> bool:
        return not self.url.startswith("/")

    def plain(self) -> str:
        item = self.csl()
        item.pop("custom", None)  # not a CSL variable: no style prints it
        return plain_citation(json.dumps(item, sort_keys=True))

    def bibtex(self) -> str:
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
        body = ",\n".join(f"  {name:<8} = {value}" for name, value in fields.items())
        return f"@online{{{self.key},\n{body}\n}}"

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
            ("AU", f"{AUTHOR},"),  # trailing comma: one corporate name, not first + last
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


@cache
def plain_citation(csl_json: str) -> str:
    """One bibliography entry, rendered by citeproc-py from one CSL-JSON item."""
    item = json.loads(csl_json)
    bibliography = citeproc.CitationStylesBibliography(
        _style(), CiteProcJSON([item]), citeproc.formatter.plain
    )
    bibliography.register(citeproc.Citation([citeproc.CitationItem(item["id"])]))
    return " ".join(str(bibliography.bibliography()[0]).split())


@cache
def _style() -> citeproc.CitationStylesStyle:
    return citeproc.CitationStylesStyle(CITATION_STYLE, validate=False)


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
    header = "" if all(c.absolute for c in citations) else f"% {UNCONFIGURED}\n\n"
    return header + "\n\n".join(c.bibtex() for c in citations) + "\n"


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
