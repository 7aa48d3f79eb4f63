"""Typing a ruling's key word into the site search finds that ruling's section.

The key word is chosen from the data: among the words of every ruling's text, the one found on
the fewest pages of the built site, so the expected hit is near the top. This is the only test
that touches the theme's chrome (mkdocs-material's search box and result list); if the builder
changes, only the selectors below change.

The search index is loaded whole before the first result shows ("Initializing search"), so it
has a budget; what keeps it small (pair pages indexed by their summary only, citation forms,
board pictures and position notation left out) must not hide a rulebook, question or source.
"""

from __future__ import annotations

import functools
import html
import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin, urlsplit, urlunsplit

import pytest
from playwright.sync_api import Page

from generator.model.catalog_contents import Catalog
from generator.model.variant import Ruling
from generator.site.local_server import ServedSite

from .conftest import SitePage
from .htmlscan import WORD
from .views import heading_view_problem

pytestmark = pytest.mark.browser

SEARCH_INPUT = "input.md-search__input"
SEARCH_HITS = ".md-search-result a[href]"
MIN_WORD_LENGTH = 6
SEARCH_INDEX = Path("search/search_index.json")
SEARCH_WAIT_MS = 45_000
"""How long a search may take to show its first results: the page loads and indexes the whole
search index first. Alone on the machine that takes a second or two; with a solve running
alongside, a search once took more than the 15 s Playwright allows by default (3 December
2026, with the index at 1.54 MB)."""
SEARCH_INDEX_BUDGET = 2_000_000
"""Bytes. 1.47 MB on 1 December 2026; 5.09 MB before the pair pages' repeated rulings, the
citation forms, board pictures and lists of ids left it. A reader's browser loads all of it
before the first result shows."""


def rarest_ruling_word(
    rulings: dict[str, Ruling], homes: dict[str, str], pages: dict[str, SitePage]
) -> tuple[str, str]:
    """(word, ruling id): a word of a ruling's text that appears on its rulebook and on as few
    other pages as possible (ties broken by ruling id, so the choice is stable)."""
    content = {path: page for path, page in pages.items() if not page.scan.is_redirect}
    candidates = []
    for ruling_id, ruling in rulings.items():
        home = homes[ruling_id]
        for word in {w.casefold() for w in WORD.findall(ruling.text)}:
            if len(word) < MIN_WORD_LENGTH or word not in content[home].scan.words:
                continue
            spread = sum(word in page.scan.words for page in content.values())
            candidates.append((spread, ruling_id, word))
    assert candidates, "no ruling text has a word to search for"
    spread, ruling_id, word = min(candidates)
    print(f"searching for {word!r} (on {spread} pages), expecting ruling {ruling_id}")
    return word, ruling_id


def without_query(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(query=""))


SETTLE_MS = 15_000
"""How long the hits may take to become those of the whole query once the first show. The
theme searches again at each key typed, so the first hits shown may answer only the first
letters ("Finkel (Spa"): under load, the whole query's answer once came after a reading of
the list (6 December 2026)."""


def search_hits(page: Page, query: str, answered: Callable[[list[str]], bool]) -> list[str]:
    """The addresses (without their highlighting query) of the hits of ``query`` typed into
    the search box of the page open, key by key as a reader types: read again until
    ``answered`` holds of them or :data:`SETTLE_MS` has passed; the last read is returned, for
    the test's assertion to judge. A wrong ranking fails: it never comes to hold."""
    search = page.locator(SEARCH_INPUT)
    search.click()
    search.press_sequentially(query, delay=20)
    page.wait_for_selector(SEARCH_HITS, timeout=SEARCH_WAIT_MS)
    waited = 0
    while True:
        hits = [
            without_query(urljoin(page.url, href))
            for href in page.locator(SEARCH_HITS).evaluate_all("(ls) => ls.map((a) => a.href)")
        ]
        if answered(hits) or waited >= SETTLE_MS:
            return hits
        page.wait_for_timeout(250)
        waited += 250


def leads_with(first: list[str], hits: list[str]) -> bool:
    """Whether ``hits`` begin with ``first``: what a search test waits for and asserts."""
    return hits[: len(first)] == first


def test_search_finds_a_ruling_by_its_key_word(
    page: Page,
    site: ServedSite,
    site_pages: dict[str, SitePage],
    rulings_by_id: dict[str, Ruling],
    ruling_homes: dict[str, str],
) -> None:
    word, ruling = rarest_ruling_word(rulings_by_id, ruling_homes, site_pages)
    expected = site.address(f"{ruling_homes[ruling]}#{ruling}")
    page.goto(site.url)
    # The theme adds ?h=<query> (to highlight the word on arrival); the place is the same.
    hits = search_hits(page, word, lambda hits: expected in hits)
    assert expected in hits, f"searching {word!r} should offer {expected}; hits: {hits}"

    page.locator(f'{SEARCH_HITS}[href$="#{ruling}"]').first.click()
    page.wait_for_url(lambda url: without_query(url) == expected)
    problem = heading_view_problem(page, ruling)
    assert not problem, f"after following the search hit: {problem}"


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("finkel-spanish", None),
        ("finkel-english", None),
        ("finkel-great-book", None),
        ("merit-1976", None),
        ("merit-1976", "Merit"),
        ("finkel-great-book", "Great Book"),
        ("finkel-spanish", "Spanish"),
    ],
)
def test_a_rulebooks_name_finds_its_own_page_before_any_pair_page(
    page: Page, site: ServedSite, catalog: Catalog, variant: str, words: str | None
) -> None:
    """Pair pages name two rulebooks each and are many (one per pair); they are down-weighted
    in search so that a rulebook's name (its short name, or the word a reader would type)
    leads to that rulebook first. A short name is typed as shown, parentheses and all
    ("Finkel (Spanish page)"): typed words are trimmed of punctuation as indexed words are."""
    name = words or catalog.variants[variant].short
    page.goto(site.url)
    own = site.address(f"variants/{variant}/")
    hits = search_hits(page, name, functools.partial(leads_with, [own]))
    assert hits, f"searching {name!r} found nothing"
    assert hits[0] == own, f"searching {name!r}: first hits {hits[:5]}"


def test_a_ruling_id_typed_into_search_finds_that_ruling_first(
    page: Page, site: ServedSite, rulings_by_id: dict[str, Ruling], ruling_homes: dict[str, str]
) -> None:
    """A ruling id is one word to search (its hyphens do not split it): typed whole, it leads
    to its rulebook and, first among that page's sections, to the ruling itself. Ids are taken
    across the data (every fortieth, in order), so several rulebooks and questions are tried."""
    problems = []
    for ruling in sorted(rulings_by_id)[::40]:
        home = site.address(ruling_homes[ruling])
        first_two = [home, f"{home}#{ruling}"]
        page.goto(site.url)
        hits = search_hits(page, ruling, functools.partial(leads_with, first_two))
        if hits[:2] != first_two:
            problems.append(f"{ruling}: first hits {hits[:3]}")
    assert not problems, "\n".join(problems)


def search_entries(built_site: Path) -> list[dict[str, str]]:
    entries: list[dict[str, str]] = json.loads(
        (built_site / SEARCH_INDEX).read_text(encoding="utf-8")
    )["docs"]
    return entries


def test_the_search_index_stays_within_its_budget(built_site: Path) -> None:
    size = (built_site / SEARCH_INDEX).stat().st_size
    assert size <= SEARCH_INDEX_BUDGET, (
        f"{SEARCH_INDEX} is {size:,} bytes, over its budget of {SEARCH_INDEX_BUDGET:,}: leave"
        " out of search what only repeats another page (data-search-exclude), or raise the"
        " budget knowingly"
    )


def test_every_reference_page_and_every_ruling_stays_searchable(
    built_site: Path,
    site_pages: dict[str, SitePage],
    rulings_by_id: dict[str, Ruling],
    ruling_homes: dict[str, str],
) -> None:
    """Each rulebook, question and source page is indexed with its text, each ruling's section
    with the ruling's own words, and each pair page by its title and summary."""
    entries = search_entries(built_site)
    text_at = {entry["location"]: entry["text"] for entry in entries}
    pages = {loc.split("#")[0] for loc in text_at}
    reference = [
        path
        for path, page in site_pages.items()
        if path.startswith(("variants/", "questions/", "sources/", "compare/"))
        and not page.scan.is_redirect
    ]
    assert reference, "no reference pages found in the built site"
    missing = [path for path in reference if path not in pages]
    assert not missing, f"pages missing from search: {missing[:10]}"
    unworded = []
    for ruling_id, ruling in rulings_by_id.items():
        text = text_at.get(f"{ruling_homes[ruling_id]}#{ruling_id}", "")
        first_words = " ".join(WORD.findall(ruling.text)[:4])
        if not first_words or first_words not in " ".join(WORD.findall(html.unescape(text))):
            unworded.append(ruling_id)
    assert not unworded, f"rulings whose words are not searchable: {unworded[:10]}"
