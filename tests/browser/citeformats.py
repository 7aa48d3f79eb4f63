"""Each citation form, read by the libraries reference managers and scholars use.

BibTeX by pybtex (the BibTeX reimplementation behind Sphinx's bibliographies), RIS by rispy,
CSL-JSON by citeproc-py (the processor renders it in a named style, which fails on an item it
cannot use). Each reader returns the problems it finds, empty when the entry imports cleanly.
"""

from __future__ import annotations

import json
from datetime import date

import rispy
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as csl_formatter
from citeproc.source.json import CiteProcJSON
from pybtex.database import parse_string
from pybtex.scanner import PybtexError

AUTHOR = "Ur Variants contributors"
CSL_STYLE = "harvard-cite-them-right"


def bibtex_problems(text: str, url_end: str) -> list[str]:
    """One biblatex ``@online`` entry: corporate author kept whole, protected title, url, date
    (no bare ``month`` number), version."""
    try:
        data = parse_string(text, "bibtex")
    except PybtexError as error:
        return [f"BibTeX does not parse: {error}\n{text}"]
    if len(data.entries) != 1:
        return [f"BibTeX holds {len(data.entries)} entries, expected 1"]
    entry = next(iter(data.entries.values()))
    problems = []
    if entry.type != "online":
        problems.append(f"BibTeX type @{entry.type}, expected @online")
    authors = entry.persons.get("author", [])
    if [str(p) for p in authors] != [f"{{{AUTHOR}}}"]:
        problems.append(
            f"BibTeX author {[str(p) for p in authors]} is not the braced corporate name"
        )
    title = entry.fields.get("title", "")
    if not (title.startswith("{") and title.endswith("}")):
        problems.append(f"BibTeX title {title!r} is not brace-protected")
    if "month" in entry.fields or "year" in entry.fields:
        problems.append("BibTeX gives year/month fields; biblatex takes one ISO date")
    try:
        date.fromisoformat(entry.fields.get("date", ""))
    except ValueError:
        problems.append(f"BibTeX date {entry.fields.get('date')!r} is not YYYY-MM-DD")
    if not entry.fields.get("version"):
        problems.append("BibTeX has no version (the edition)")
    if not entry.fields.get("url", "").endswith(url_end):
        problems.append(f"BibTeX url {entry.fields.get('url')!r} does not end with {url_end}")
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


def render_csl(item: dict[str, object]) -> str:
    bibliography = CitationStylesBibliography(
        CitationStylesStyle(CSL_STYLE, validate=False), CiteProcJSON([item]), csl_formatter.plain
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
    if record.get("authors") and record["authors"] != [f"{AUTHOR},"]:
        problems.append(f"RIS author {record['authors']} is not the corporate name")
    if record.get("urls") and not record["urls"][0].endswith(url_end):
        problems.append(f"RIS url {record['urls']} does not end with {url_end}")
    return problems


def plain_problems(text: str, url_end: str, csl_text: str) -> list[str]:
    """The plain citation is exactly citeproc-py's rendering of the same entry's CSL-JSON."""
    expected = render_csl(csl_items(csl_text)[0])
    if " ".join(text.split()) != expected:
        return [f"plain citation {text!r} is not citeproc-py's {expected!r}"]
    return [] if url_end in text else [f"plain citation does not give the address {url_end}"]
