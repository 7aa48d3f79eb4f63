"""Rulebook pages that end (issue 40 item 3): what a player needs first, the evidence one click
away, and nothing a reader could reach before lost.

- Every rulebook page, measured at 1280×800 (``document.body.scrollHeight``), is at most
  :data:`TALLEST` px tall and the median at most :data:`MEDIAN` px; the figures, phone width
  included, are printed.
- The board sits right under the how-to-play table, and the table says a throw moves one piece
  that many squares.
- Every quotation of a rulebook's own rulings is still on its page, inside a closed fold, or on
  the ruling's own page, which the rulebook links.
- The first screen of RoyalUr Finkel's rulebook, photographed at phone and desktop size.
"""

from __future__ import annotations

import re
import statistics
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize

from generator.model.catalog_contents import Catalog
from generator.site.local_server import ServedSite
from generator.site.vocabulary import _data as vocabulary_data

from .conftest import PHONE, OpenPage, record_screenshot

pytestmark = pytest.mark.browser

SCREEN: ViewportSize = {"width": 1280, "height": 800}
MEDIAN = 8_000
TALLEST = 10_000
BOARD_GAP = 200
"""At most this many px from the end of the how-to-play table to the top of the board."""


def _heights(
    open_page: OpenPage, site: ServedSite, catalog: Catalog, screen: ViewportSize
) -> dict[str, int]:
    page = open_page(viewport=screen)
    heights = {}
    for vid in sorted(catalog.variants):
        page.goto(site.address(f"variants/{vid}/"), wait_until="load")
        heights[vid] = int(page.evaluate("document.body.scrollHeight"))
    return heights


def _said(name: str, heights: dict[str, int]) -> str:
    tallest = max(heights, key=lambda vid: heights[vid])
    return (
        f"{name}: median {statistics.median(heights.values()):,.0f} px, tallest "
        f"{heights[tallest]:,} px ({tallest}), of {len(heights)} rulebook pages"
    )


def test_rulebook_pages_end(open_page: OpenPage, site: ServedSite, catalog: Catalog) -> None:
    desktop = _heights(open_page, site, catalog, SCREEN)
    phone = _heights(open_page, site, catalog, PHONE)
    print(_said("1280×800", desktop), file=sys.stderr)
    print(_said(f"{PHONE['width']}×{PHONE['height']}", phone), file=sys.stderr)
    assert statistics.median(desktop.values()) <= MEDIAN, _said("1280×800", desktop)
    assert max(desktop.values()) <= TALLEST, _said("1280×800", desktop)


_TABLE_AND_BOARD = """
() => {
  const heading = document.getElementById('how-to-play');
  const table = heading.nextElementSibling.querySelector('table') || heading.nextElementSibling;
  const board = document.getElementById('route-board-title').closest('svg');
  return {
    gap: board.getBoundingClientRect().top - table.getBoundingClientRect().bottom,
    rows: [...table.querySelectorAll('tr')].map((row) => row.textContent),
  };
}
"""


@pytest.mark.parametrize("variant", ["royalur-finkel", "finkel-great-book", "merit-1976"])
def test_the_board_is_under_the_how_to_play_table(
    open_page: OpenPage, site: ServedSite, variant: str
) -> None:
    page = open_page(viewport=SCREEN)
    page.goto(site.address(f"variants/{variant}/"))
    found = page.evaluate(_TABLE_AND_BOARD)
    assert 0 <= found["gap"] <= BOARD_GAP, f"the board is {found['gap']:.0f} px below the table"
    one_piece = vocabulary_data()["values"]["moves-per-throw"]["one-piece"]["phrase"]
    assert any(one_piece in row for row in found["rows"]), found["rows"]


# --- nothing lost ----------------------------------------------------------------------------


class _FoldedText(HTMLParser):
    """A page's words, those inside closed folds (``<details>``), and the addresses it links to."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.folded: list[str] = []
        self.text: list[str] = []
        self.links: set[str] = set()
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "details":
            self._depth += 1
            if "open" in values:
                raise AssertionError("a fold is open when the page loads")
        if tag == "a" and values.get("href"):
            self.links.add(str(values["href"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._depth:
            self.folded.append(data)


def _words(text: str) -> str:
    """Text as its words alone, lower case (markup, punctuation and [sic] marks dropped)."""
    return " ".join(re.findall(r"\w+", text.replace("[sic]", "").lower()))


def _page(site: Path, path: str) -> _FoldedText:
    reader = _FoldedText()
    reader.feed((site / path / "index.html").read_text(encoding="utf-8"))
    return reader


def test_every_quotation_is_one_click_away(built_site: Path, catalog: Catalog) -> None:
    """A rulebook's own rulings' quotations were on its page; each still is, folded, or on the
    ruling's page the rulebook links to."""
    checked = 0
    lost = []
    for vid, variant in sorted(catalog.variants.items()):
        page = _page(built_site, f"variants/{vid}")
        folded = _words(" ".join(page.folded))
        for ruling in variant.rulings:
            for citation in ruling.sources:
                if not citation.quote:
                    continue
                checked += 1
                quote = _words(citation.quote)
                if quote in folded:
                    continue
                linked = any(re.search(rf"/r/{re.escape(ruling.id)}/?$", h) for h in page.links)
                own = _words(" ".join(_page(built_site, f"r/{ruling.id}").text))
                if not (linked and quote in own):
                    lost.append(f"{vid}: {ruling.id}: {citation.quote[:60]!r}")
    assert checked > 100, f"only {checked} quotations checked"
    assert not lost, f"{len(lost)} of {checked} quotations no longer reachable: {lost[:10]}"


def test_a_closed_fold_hides_its_quotations(open_page: OpenPage, site: ServedSite) -> None:
    """Folds are closed when the page loads: a quotation shows only once its fold is opened."""
    page = open_page(viewport=SCREEN)
    page.goto(site.address("variants/royalur-finkel/"))
    quote = page.locator("details.ruling-evidence figure.source-quote").first
    assert not quote.is_visible()
    quote.locator("xpath=ancestor::details[1]/summary").click()
    assert quote.is_visible()


# --- the first screen, photographed ------------------------------------------------------------


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_first_screen_of_a_rulebook_is_photographed(
    request: pytest.FixtureRequest,
    open_page: OpenPage,
    site: ServedSite,
    screenshot_folder: Path,
    screen: str,
) -> None:
    common = vocabulary_data()["common_rules"]
    page = open_page(viewport=PHONE if screen == "phone" else SCREEN)
    page.goto(site.address(f"variants/{common}/"))
    page.wait_for_load_state("load")
    for part in ("first-screen", "how-to-play"):
        shot = screenshot_folder / f"rulebook-{part}-{screen}.png"
        if part == "how-to-play":
            page.locator("#how-to-play").scroll_into_view_if_needed()
            page.evaluate("document.getElementById('how-to-play').scrollIntoView()")
        page.screenshot(path=shot)
        record_screenshot(request.config, shot)
    assert page.locator("#how-to-play").count() == 1
