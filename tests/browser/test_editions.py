"""A reader follows a citation to the words it cited, and cites with today's access date.

A ruling's citation leads to its edition's copy (``/editions/<N>/#<id>``), which shows the
ruling's words there; an older edition's copy shows the words that edition published (read
back from the history, :mod:`generator.site.edition_history`), which may differ from today's.
The Harvard form, which prints an access date, shows the day the page is read, filled in by
the page's own script.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page

from generator.site.edition import load_editions, load_lock
from generator.site.edition_history import read_editions
from generator.site.local_server import ServedSite

pytestmark = pytest.mark.browser

VARIANTS = Path(__file__).resolve().parents[2] / "variants"


def test_a_citation_leads_to_the_words_it_cited(page: Page, site: ServedSite) -> None:
    texts = read_editions(load_editions(VARIANTS), load_lock(VARIANTS))
    latest = texts[-1]
    # A ruling whose words differ between its first and its latest edition.
    rid, then = next(
        (rid, old.rulings[rid])
        for old in texts
        for rid, state in latest.rulings.items()
        if rid in old.rulings and old.rulings[rid].words not in (None, state.words)
    )
    page.goto(site.address(f"r/{rid}/"))
    page.locator("details.cite > summary").first.click()
    citation = page.locator("details.cite pre.cite-apa code").inner_text()
    cited = re.search(r"https?://\S+/editions/(\d+)/#" + re.escape(rid), citation)
    assert cited, f"the citation {citation!r} does not lead to an edition's copy of {rid}"
    page.goto(cited.group(0))
    heading = page.locator(f'[id="{rid}"]')
    assert heading.count() == 1 and heading.is_visible()
    words = page.locator(f'[id="{rid}"] + p.edition-copy-words').inner_text()
    assert words == latest.rulings[rid].words
    older = next(t for t in texts if t.rulings.get(rid) == then)
    page.goto(site.address(f"editions/{older.edition.number}/#{rid}"))
    old_words = page.locator(f'[id="{rid}"] + p.edition-copy-words').inner_text()
    assert old_words == then.words != words


def test_harvard_shows_the_day_it_is_read(page: Page, site: ServedSite) -> None:
    page.goto(site.address("about/"))
    block = page.locator("details.cite-page").first
    block.locator("summary").first.click()
    harvard = block.locator("pre.cite-harvard-cite-them-right code").inner_text()
    today = dt.date.today()
    assert f"(Accessed: {today.day} {today:%B %Y})" in harvard, harvard
    # APA 7 prints no access date for a dated page, so none is added.
    assert "Accessed" not in block.locator("pre.cite-apa code").inner_text()
