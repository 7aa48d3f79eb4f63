"""The statistics page reads as a reader's page: conclusions first, every player it names
defined, no workshop in its path (commands and caches are on the page for implementers, linked
once), and chart text at least 12 pixels tall as a 390-pixel phone renders it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, ViewportSize

from generator.site.local_server import ServedSite

from .conftest import DESKTOP, PHONE, OpenPage, SitePage

pytestmark = pytest.mark.browser

STATISTICS = "statistics/"
METHOD = "statistics/method/"
SMALLEST_TEXT_PX = 12.0

_CHART_TEXT = """
async () => {
  const found = [];
  for (const img of document.querySelectorAll('figure.ur-chart img')) {
    const doc = new DOMParser().parseFromString(
      await (await fetch(img.src)).text(), 'image/svg+xml');
    const width = Number(doc.documentElement.getAttribute('viewBox').split(/\\s+/)[2]);
    const scale = img.getBoundingClientRect().width / width;
    for (const text of doc.querySelectorAll('text')) {
      const style = [text, ...ancestors(text)].map((e) => e.getAttribute('style') || '').join(';');
      const size = style.match(/font-size:\\s*([\\d.]+)px/)
        || style.match(/font:[^;]*?([\\d.]+)px/);
      if (size) found.push({chart: img.src.split('/').pop(), text: text.textContent,
                            px: Number(size[1]) * scale});
    }
  }
  return found;
  function ancestors(e) { const up = []; while ((e = e.parentElement)) up.push(e); return up; }
}
"""


@pytest.fixture
def open_statistics(
    open_page: OpenPage,
    site: ServedSite,
    site_pages: dict[str, SitePage],
    site_is_simulated: bool,
) -> OpenPage:
    """Opens the statistics page in a guarded page (of a given viewport); skips the test when
    the site was built with --no-simulate (the page then has no figures)."""
    if not site_is_simulated:
        pytest.skip("built with --no-simulate: the statistics page has no figures")
    assert STATISTICS in site_pages and METHOD in site_pages

    def opener(viewport: ViewportSize = DESKTOP) -> Page:
        page = open_page(viewport=viewport)
        page.goto(site.address(STATISTICS))
        return page

    return opener


def test_chart_text_is_readable_on_a_phone(open_statistics: OpenPage) -> None:
    page = open_statistics(viewport=PHONE)
    texts = page.evaluate(_CHART_TEXT)
    assert len({t["chart"] for t in texts}) >= 3, texts
    small = [t for t in texts if t["px"] < SMALLEST_TEXT_PX]
    assert not small, f"chart text under {SMALLEST_TEXT_PX} px on a phone: {small[:5]}"


def test_conclusions_come_first_and_workshop_is_on_its_own_page(
    open_statistics: OpenPage, site: ServedSite
) -> None:
    reader = open_statistics()
    headings = reader.eval_on_selector_all("article h2", "hs => hs.map(h => h.id)")
    assert headings[0] == "conclusions", headings
    text = reader.inner_text("article")
    for workshop in (".cache/", "ur-variants build", "ur-variants solve", "Memory", "Positions"):
        assert workshop not in text, f"{workshop!r} is in the reader's path on /{STATISTICS}"
    links = reader.eval_on_selector_all(
        "article a",
        "as => as.filter(a => a.pathname.endsWith('/statistics/method/')).map(a => a.hash)",
    )
    # One way to the workshop, and the full games too large for one machine lead to the
    # costed plan there.
    assert sorted(links) == ["", "#past-one-machine"], links
    reader.goto(site.address(METHOD))
    method = reader.inner_text("article")
    assert "ur-variants build --seed" in method and "ur-variants build --refresh" in method


_DEFINED_PLAYERS = """
() => {
  let e = document.getElementById('players');
  while (e && e.tagName !== 'UL') e = e.nextElementSibling;
  return e ? [...e.querySelectorAll(':scope > li > strong')].map((s) => s.textContent.trim()) : [];
}
"""
_SKILL_PLAYERS = """
() => {
  let e = document.getElementById('skill');
  while (e && !e.querySelector?.('table') && e.tagName !== 'TABLE') e = e.nextElementSibling;
  const table = e && (e.tagName === 'TABLE' ? e : e.querySelector('table'));
  const cells = table ? [...table.querySelectorAll('tbody td:nth-child(2)')] : [];
  return cells.map((d) => d.textContent.trim());
}
"""


def test_every_player_named_is_defined_once(open_statistics: OpenPage) -> None:
    reader = open_statistics()
    defined = reader.evaluate(_DEFINED_PLAYERS)
    assert len(defined) == len(set(defined)) >= 3, defined
    named = reader.evaluate(_SKILL_PLAYERS)
    assert named, "no skill table after #skill"
    assert set(named) <= set(defined), f"players named but not defined: {set(named) - set(defined)}"


_FITTED_ROWS = """
() => {
  let e = document.getElementById('fitted');
  while (e && e.tagName !== 'TABLE' && !e.querySelector?.('table')) e = e.nextElementSibling;
  const table = e && (e.tagName === 'TABLE' ? e : e.querySelector('table'));
  return table ? [...table.querySelectorAll('tbody tr')].map(
    (r) => [...r.querySelectorAll('td')].map((d) => d.textContent.trim())) : [];
}
"""


def test_the_fitted_player_is_measured_for_implementers(
    open_statistics: OpenPage, site: ServedSite
) -> None:
    """Wherever the skill gap names the fitted player, the page for implementers gives its
    exact figures at the solved size and its measured full-game scores, rulebook by rulebook."""
    reader = open_statistics()
    if "Fitted" not in reader.evaluate(_SKILL_PLAYERS):
        pytest.skip("the skill gap does not use the fitted player in this build")
    reader.goto(site.address(METHOD))
    rows = reader.evaluate(_FITTED_ROWS)
    assert rows, "no table of the fitted player's figures after #fitted"
    for row in rows:
        assert len(row) == 7 and all(row), row
        assert row[3].count("%") == 2 and "(" in row[5] and "against" in row[6], row
