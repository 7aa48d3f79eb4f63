"""Markup in the data reaches the built site as text, never as markup (issue 10, item 3).

Every free-text field of every data file (titles, short names, summaries, ruling texts, quotes,
translations, notes, locators, source titles and authors, claims, question texts, dice labels)
gets a payload of HTML, Markdown and Markdown-extension markup; the site is built from that
copy and every built page is parsed: no element, attribute or link may come from the payload,
and a ruling text must read on the page exactly as written. Quotes must read verbatim too
(issue 11: a quote once showed ``if (roll.value() \\<= 0)``).
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import pybtex.database
import pytest
import rispy
import yaml
from conftest import copy_project

from generator.build import BuildOptions, build
from generator.model.catalog import load_catalog, load_valid_catalog
from generator.model.schema import MAX_LABEL, MAX_TITLE
from generator.model.values import MAX_NAME
from generator.site.charts import Interval, interval_chart
from generator.site.reference_pages import GlossaryError, Term, abbreviations, glossary_terms

PROJECT = Path(__file__).resolve().parent.parent
MARK = "ur-injected"
PAYLOAD = (
    f'# <script>alert("{MARK}")</script> <img src=x onerror=alert(1)> '
    f'[click {MARK}](javascript:alert(2)) <a href="data:text/html,{MARK}">d</a> '
    '{: onclick="alert(3)" } *em* _under_ `tick` if (roll.value() \\<= 0) &amp; a | b '
    '--8<-- "abbreviations.md" [^1] *[ur]: abbr {{ jinja }} {% raw %} ${x} $\\alpha$ \\n \\\\ '
    "{ unbalanced } } @string{x} ~^%"
)
"""What every text field ends with: a heading marker, HTML elements and event handlers, a
``javascript:`` link, a ``data:`` link, an attr_list attribute, emphasis, a code span, a
backslash, an entity, a table pipe, a snippet include, a footnote and an abbreviation, Jinja
and template syntax, TeX (``$``, backslashes) and unbalanced braces for the BibTeX export."""

RULEBOOK = "finkel-great-book"
TITLE = "[Three pieces](javascript:alert(2))"
"""The rulebook's whole title: a Markdown link to a script, shown in every page's navigation."""
SCRIPT = "<script>alert(1)</script>"
"""What the rulebook's first ruling text opens with."""

TEXT_KEYS = frozenset(
    {
        "author",
        "claim",
        "explanation",
        "label",
        "locator",
        "name",
        "note",
        "quote",
        "short",
        "summary",
        "text",
        "title",
        "translation",
    }
)

pytestmark = pytest.mark.slow


SHORT = "<b>{}[x](javascript:1)"
"""Short names are at most 24 characters: markup and a distinct number (they are labels)."""


SHORT_PAYLOAD = (
    f'<script>alert("{MARK}")</script> <img src=x onerror=alert(1)> '
    f'[click {MARK}](javascript:alert(2)) {{: onclick="alert(3)" }} {{{{ jinja }}}} ~^%'
)
"""The payload's most dangerous parts, for labels, locators and authors: the data allows them
only 200 characters, fewer than the whole payload."""
TINY_PAYLOAD = "<script>x</script>[x](javascript:1){{ y }}"
"""For piece names (60 characters at most)."""
BOUNDED = {
    "author": MAX_LABEL,
    "label": MAX_LABEL,
    "locator": MAX_LABEL,
    "title": MAX_TITLE,
    "name": MAX_NAME,
}
"""Text fields with a length bound the whole payload could overrun (variants/README.md)."""


def _injected(key: str, value: str, count: Iterator[int]) -> str:
    if key == "short":
        return SHORT.format(next(count))
    bound = BOUNDED.get(key)
    if bound is None:
        return f"{value} {PAYLOAD}"
    payload = next(p for p in (PAYLOAD, SHORT_PAYLOAD, TINY_PAYLOAD) if len(p) < bound - 8)
    return f"{value[: bound - len(payload) - 1]} {payload}"


def _inject(node: Any, count: Iterator[int], seeded: set[str]) -> Any:
    """``node`` with the payload in every text field; a quote from a kept seed page stays as
    it is (validation checks it against the page, character for character)."""
    if isinstance(node, dict):
        keep = {"quote"} if node.get("source") in seeded else set()
        return {
            key: _injected(key, value, count)
            if key in TEXT_KEYS - keep and isinstance(value, str)
            else _inject(value, count, seeded)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_inject(item, count, seeded) for item in node]
    return node


def _poisoned_project(target: Path) -> Path:
    copy_project(target)
    count = itertools.count(10)
    sources = yaml.safe_load((target / "variants/sources.yml").read_text(encoding="utf-8"))
    seeded = {s["id"] for s in sources["sources"] if s.get("seed")}
    for path in sorted((target / "variants").glob("*.yml")):
        data = _inject(yaml.safe_load(path.read_text(encoding="utf-8")), count, seeded)
        if path.stem == RULEBOOK:
            data["title"] = TITLE
            data["rulings"][0]["text"] = f"{SCRIPT} {data['rulings'][0]['text']}"
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    return target


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = _poisoned_project(tmp_path_factory.mktemp("poisoned"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1764460800")
        build(BuildOptions(root=root, simulate=False, log=lambda _: None))
    yield root


class _Page(HTMLParser):
    """The elements, attributes and text of one page, as a browser's parser would see them:
    also the text of the page's ``<title>``, of its navigation links and of every SVG title."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self.title = ""
        self.nav: list[str] = []
        self.svg_titles: list[str] = []
        self._open: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        self._in_script = tag == "script" and ("type", "application/json") not in attrs
        if tag == "title" and "svg" in self._open:
            self.svg_titles.append("")
        if tag == "a" and "md-nav__link" in (dict(attrs).get("class") or ""):
            self.nav.append("")
        if tag not in _VOID:
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False
        if tag in self._open:
            del self._open[len(self._open) - 1 - self._open[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        (self.scripts if self._in_script else self.text).append(data)
        if "title" in self._open and "svg" in self._open:
            self.svg_titles[-1] += data
        elif self._open[-1:] == ["title"]:
            self.title += data
        if "a" in self._open and self.nav and "nav" in self._open:
            self.nav[-1] += data


_VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})
"""HTML elements that have no end tag."""


def _words(text: str | list[str]) -> str:
    return " ".join("".join(text).split())


def _pages(site: Path) -> Iterator[tuple[str, _Page]]:
    for path in sorted(site.rglob("*.html")):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        yield str(path.relative_to(site)), page


def _offences(name: str, page: _Page) -> Iterator[str]:
    for tag, attrs in page.tags:
        if tag == "b" or (tag == "img" and ("src", "x") in attrs):
            yield f"{name}: <{tag}> from the data"
        for key, value in attrs:
            value = (value or "").strip().lower()
            if key.startswith("on"):
                yield f"{name}: event handler {key}={value!r}"
            if key in ("href", "src", "action") and value.startswith(("javascript:", "data:")):
                yield f"{name}: {key}={value!r}"
    for script in page.scripts:  # data in <script type="application/json"> is not run
        if "alert(" in script or MARK in script:
            yield f"{name}: script from the data: {script[:80]!r}"


def test_no_markup_from_the_data_reaches_a_page(poisoned: Path) -> None:
    pages = list(_pages(poisoned / "site"))
    assert len(pages) > 50
    offences = [o for name, page in pages for o in _offences(name, page)]
    assert not offences, "\n".join(offences[:30])


def test_the_payload_reads_as_text(poisoned: Path) -> None:
    catalog = load_valid_catalog(poisoned / "variants")
    variant = catalog.variants["finkel-great-book"]
    page = _Page()
    page.feed((poisoned / "site/variants/finkel-great-book/index.html").read_text("utf-8"))
    shown = " ".join("".join(page.text).split())
    assert variant.rulings[0].text.split()[0] in shown
    # The ruling text, its quote and its note all end with the payload, shown character for
    # character: once per text field at least.
    assert shown.count(" ".join(PAYLOAD.split())) >= 3 * len(variant.rulings)


def test_a_title_reads_as_text_in_navigation_page_titles_and_diagrams(poisoned: Path) -> None:
    """The rulebook's title, a Markdown link to ``javascript:``, is the text of its page's
    ``<title>`` and heading; its short name, markup and a ``javascript:`` link, is the text of the
    navigation link to it on every page (the navigation lists rulebooks by short name); no link to
    a script exists anywhere (test above). Its board diagram's SVG title names the short name."""
    page = _Page()
    page.feed((poisoned / f"site/variants/{RULEBOOK}/index.html").read_text("utf-8"))
    assert page.title.startswith(TITLE)
    assert TITLE in _words(page.text)
    short = load_valid_catalog(poisoned / "variants").variants[RULEBOOK].short
    assert f"The board and route of {short}" in [_words(t) for t in page.svg_titles]
    home = _Page()
    home.feed((poisoned / "site/index.html").read_text("utf-8"))
    assert short.startswith("<b>")
    assert _words(short) in [_words(n) for n in home.nav]


def test_a_ruling_text_opening_with_a_script_reads_as_text(poisoned: Path) -> None:
    variant = load_valid_catalog(poisoned / "variants").variants[RULEBOOK]
    assert variant.rulings[0].text.startswith(SCRIPT)
    for address in (f"variants/{RULEBOOK}/index.html", f"r/{variant.rulings[0].id}/index.html"):
        page = _Page()
        page.feed((poisoned / "site" / address).read_text("utf-8"))
        assert _words(variant.rulings[0].text) in _words(page.text), address


def test_the_search_index_holds_text_not_markup(poisoned: Path) -> None:
    """The theme's search shows each entry's title and text as HTML: both are parsed like a
    page; the payload is there, as characters."""
    index = json.loads((poisoned / "site/search/search_index.json").read_text("utf-8"))
    offences, shown = [], []
    for doc in index["docs"]:
        for field in ("title", "text"):
            page = _Page()
            page.feed(doc[field])
            offences += _offences(f"search {doc['location']} {field}", page)
            shown.append(_words(page.text))
    assert not offences, "\n".join(offences[:30])
    assert any(_words(PAYLOAD) in text for text in shown)


def test_citation_exports_keep_the_title_as_text(poisoned: Path) -> None:
    """BibTeX (parsed by pybtex: an unbalanced brace would break the file), RIS (rispy) and
    CSL-JSON carry the rulebook's title and every ruling's title as they are."""
    site = poisoned / "site"
    csl = json.loads((site / "citations.json").read_text("utf-8"))
    bib = pybtex.database.parse_string((site / "citations.bib").read_text("utf-8"), "bibtex")
    ris = rispy.loads((site / "citations.ris").read_text("utf-8"))
    assert len(csl) == len(bib.entries) == len(ris) > 50
    titles = {item["id"]: item["title"] for item in csl}
    assert TITLE in titles.values()
    assert any(_words(PAYLOAD) in title for title in titles.values())
    assert {entry["id"]: entry["title"] for entry in ris} == titles
    for key, entry in bib.entries.items():
        assert _bibtex_text(entry.fields["title"]) == titles[key], key


def _bibtex_text(field: str) -> str:
    """A BibTeX title field as its text (pybtex took off the field's braces; the pair inside
    keeps the case of every word): the protecting braces off, escapes undone."""
    inner = field[1:-1] if field.startswith("{") and field.endswith("}") else field
    return re.sub(
        r"\\(text[a-z]+)\{\}|\\([&%$#_])",
        lambda m: _TEX_WORDS.get(m.group(1) or "", m.group(2) or ""),
        inner,
    )


_TEX_WORDS = {
    "textbackslash": "\\",
    "textbraceleft": "{",
    "textbraceright": "}",
    "textasciitilde": "~",
    "textasciicircum": "^",
}


def test_quotes_read_verbatim_on_the_built_site(poisoned: Path) -> None:
    """Every quote of the unaltered data, as a reader sees it on the page (built from the real
    data by tests/test_site_build.py's fixture would cost a second build: the poisoned copy
    keeps every original quote as its prefix)."""
    from generator.site.render import with_sic

    original = load_valid_catalog(PROJECT / "variants")
    missing = []
    for vid, variant in original.variants.items():
        page = _Page()
        page.feed((poisoned / f"site/variants/{vid}/index.html").read_text("utf-8"))
        shown = " ".join("".join(page.text).split())
        for ruling in variant.rulings:
            for citation in ruling.sources:
                # verbatim but for the "[sic]" after a source's own slips (Citation.sic)
                quote = " ".join(with_sic(citation.quote or "", citation.sic).split())
                if quote and quote not in shown:
                    missing.append(f"{ruling.id}: {quote[:60]!r}")
    assert not missing, "\n".join(missing[:20])


@pytest.mark.parametrize("url", ["javascript:alert(1)", "data:text/html,x", "JaVaScRiPt:x", "//x"])
def test_validate_refuses_a_link_that_is_not_a_web_address(tmp_path: Path, url: str) -> None:
    shutil.copytree(PROJECT / "variants", tmp_path / "variants")
    path = tmp_path / "variants" / "sources.yml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["sources"][0]["url"] = url
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    _, problems = load_catalog(tmp_path / "variants")
    assert [p for p in problems if "not a web address" in p.message and "sources.yml" in str(p)]


def test_chart_labels_are_text_not_markup() -> None:
    label = '<script>alert("x")</script> $\\frac{1}{$'
    svg = interval_chart([Interval(label, 0.5, 0.4, 0.6)], title=label, axis=label)
    assert "<script" not in svg and "&lt;script&gt;" in svg


HOSTILE_DEFINITION = '<script>alert(1)</script> "q" & &amp; *em* [l](javascript:x) {: .c}'


def _with_tooltips(text: str, definitions: str) -> _Page:
    """``text`` rendered as the site renders a page: its abbreviations appended (snippets'
    auto_append) and the site's Markdown extensions."""
    page = _Page()
    page.feed(markdown.markdown(f"{text}\n\n{definitions}", extensions=_EXTENSIONS))
    return page


_EXTENSIONS = ["abbr", "attr_list", "def_list", "footnotes", "md_in_html", "tables"]


def test_a_glossary_definition_is_a_tooltip_of_text() -> None:
    """A definition with markup is the tooltip's text, character for character (issue 10:
    glossary abbreviations were not escaped)."""
    terms = [Term("x", "rosette", ("rosette",), HOSTILE_DEFINITION)]
    page = _with_tooltips("A rosette here.", abbreviations(terms))
    assert not list(_offences("glossary", page))
    titles = [dict(attrs).get("title") for tag, attrs in page.tags if tag == "abbr"]
    assert titles == [HOSTILE_DEFINITION]


@pytest.mark.parametrize("form", ["C++ [x]", "a\\b", "", " rosette", "two\nlines"])
def test_a_glossary_form_no_tooltip_can_hold_is_refused(form: str) -> None:
    """A form Markdown cannot read as an abbreviation would print its definition, markup and
    all, at the foot of every page: it is refused, naming the term and the fix."""
    with pytest.raises(GlossaryError, match=r"glossary\.yml: term 'x': form .* reword it"):
        abbreviations([Term("x", "x", (form,), HOSTILE_DEFINITION)])


def test_the_glossary_forms_are_all_tooltips() -> None:
    abbreviations(glossary_terms())
