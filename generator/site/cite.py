"""Citations of one ruling in three forms: plain text, BibTeX and CSL-JSON.

Every citation names the site version and the release date, because the text of a ruling can
change between versions (cite the edition, as the Stanford Encyclopedia of Philosophy asks),
and keeps the ruling id visible, because tools often drop the ``#fragment`` of a URL.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

SITE_NAME = "Royal Game of Ur variants"
DEFAULT_SITE_URL = "https://ur-variants.example.org/"
"""Placeholder address until the site has a host; set SITE_URL to the real one when building."""


def site_url() -> str:
    """The site's base URL (``SITE_URL`` or the default), always ending in ``/``."""
    url = os.environ.get("SITE_URL") or DEFAULT_SITE_URL
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
            f"cannot date the release: {root} has no git commit; set SOURCE_DATE_EPOCH"
        )
    return stamp


@dataclass(frozen=True)
class Citation:
    """The facts a citation of one ruling needs."""

    ruling_id: str
    title: str
    variant_title: str
    url: str
    version: str
    date: dt.date

    @property
    def key(self) -> str:
        return f"urvariants:{self.ruling_id}"

    def plain(self) -> str:
        return (
            f"“{self.title}” (ruling {self.ruling_id}), in {self.variant_title}. "
            f"{SITE_NAME}, version {self.version}, {self.date.isoformat()}. {self.url}"
        )

    def bibtex(self) -> str:
        fields = {
            "title": f"{{{_bibtex_escape(self.title)}}}",
            "howpublished": f"{{\\url{{{self.url}}}}}",
            "note": (
                f"{{{_bibtex_escape(SITE_NAME)}, version {self.version}, ruling "
                f"{self.ruling_id}, in: {_bibtex_escape(self.variant_title)}}}"
            ),
            "year": f"{{{self.date.year}}}",
            "month": f"{{{self.date.month}}}",
            "day": f"{{{self.date.day}}}",
        }
        body = ",\n".join(f"  {name:<12} = {value}" for name, value in fields.items())
        return f"@misc{{{self.key},\n{body}\n}}"

    def csl(self) -> dict[str, object]:
        return {
            "id": self.key,
            "type": "webpage",
            "title": self.title,
            "container-title": SITE_NAME,
            "version": self.version,
            "URL": self.url,
            "note": f"ruling {self.ruling_id}, in: {self.variant_title}",
            "issued": {"date-parts": [[self.date.year, self.date.month, self.date.day]]},
        }

    def csl_text(self) -> str:
        return json.dumps(self.csl(), indent=2, ensure_ascii=False)


def _bibtex_escape(text: str) -> str:
    for char in "&%$#_":
        text = text.replace(char, "\\" + char)
    return text


def bibliography_bib(citations: list[Citation]) -> str:
    return "\n\n".join(c.bibtex() for c in citations) + "\n"


def bibliography_json(citations: list[Citation]) -> str:
    return json.dumps([c.csl() for c in citations], indent=2, ensure_ascii=False) + "\n"
