"""A newcomer's way in, read in Chromium: the home page links to /learn/ above the fold on a
desktop and on a phone; /learn/ and /which-rules/ show their drawings (screenshots at both
sizes for a person to look at) and /learn/ fits in about two desktop screens; and searching
"how to play", "rules" or "learn" leads to /learn/ first."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize

from generator.site.local_server import ServedSite

from .conftest import OpenPage, record_screenshot
from .test_accessibility import CONTENT, axe_findings
from .test_layout import _OVERFLOW
from .test_search import leads_with, search_hits

pytestmark = pytest.mark.browser

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
}
LEARN_SCREENS = 2
"""/learn/ is at most this many 1280 x 800 screens tall: six steps, each drawn (1,973 px, about
2.5 screens, on 5 December 2026 before the steps were tightened; 1,591 px after)."""
STEPS = ("board", "throw", "moving", "rosettes", "capturing", "bearing-off", "winning")

_FIRST_LEARN_LINK = """
() => {
  const link = [...document.querySelectorAll('.md-content a[href]')]
    .find((a) => new URL(a.href).pathname.endsWith('/learn/'));
  if (!link) return null;
  const box = link.getBoundingClientRect();
  return {top: box.top + scrollY, bottom: box.bottom + scrollY, text: link.textContent.trim()};
}
"""


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_links_to_learning_above_the_fold(
    open_page: OpenPage, site: ServedSite, size: str
) -> None:
    viewport = SIZES[size]
    page = open_page(viewport=viewport)
    page.goto(site.url)
    link = page.evaluate(_FIRST_LEARN_LINK)
    assert link is not None, "the home page has no link to /learn/"
    print(f"{size}: first link to /learn/ ({link['text']!r}) at {link['top']:.0f} px")
    assert link["bottom"] <= viewport["height"], f"{size}: the link ends at {link['bottom']:.0f} px"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", ["learn/", "which-rules/"])
def test_the_newcomers_pages_at_phone_and_desktop_size(
    open_page: OpenPage,
    site: ServedSite,
    screenshot_folder: Path,
    request: pytest.FixtureRequest,
    path: str,
    size: str,
) -> None:
    """Every step of /learn/ drawn, legibly wide, the page about two screens at desktop size;
    a section for each family on /which-rules/; both pages photographed whole."""
    page = open_page(viewport=SIZES[size])
    page.goto(site.address(path))
    if path == "learn/":
        for step in STEPS:
            drawing = page.locator(f".learn-step:has(#{step}) svg").first
            box = drawing.bounding_box()
            assert box and box["width"] >= 150, f"step {step}: its drawing is {box}"
        height = page.evaluate("document.documentElement.scrollHeight")
        print(f"/learn/ at {size}: {height} px tall")
        limit = LEARN_SCREENS * SIZES["desktop"]["height"]
        assert size != "desktop" or height <= limit, f"/learn/ is {height} px, over {limit:.0f}"
    else:
        assert page.locator(".md-content h2").count() >= 6, "a section for each family"
    overflow = page.evaluate(_OVERFLOW)
    assert overflow["page"] <= overflow["width"], f"/{path} scrolls sideways: {overflow}"
    shot = screenshot_folder / f"{path.strip('/')}-{size}.png"
    page.screenshot(path=shot, full_page=True)
    record_screenshot(request.config, shot)


@pytest.mark.parametrize("query", ["how to play", "rules", "learn"])
def test_a_newcomers_search_finds_learn_first(page: Page, site: ServedSite, query: str) -> None:
    page.goto(site.url)
    learn = site.address("learn/")
    hits = search_hits(page, query, functools.partial(leads_with, [learn]))
    assert hits and hits[0] == learn, f"searching {query!r}: first hits {hits[:5]}"


@pytest.mark.parametrize("path", ["learn/", "which-rules/"])
def test_the_newcomers_pages_pass_the_accessibility_check(
    page: Page, site: ServedSite, path: str
) -> None:
    page.goto(site.address(path))
    page.wait_for_selector(CONTENT)
    found = [f for f in axe_findings(page) if f.in_content or f.exception is None]
    assert not found, f"/{path}: " + "\n".join(str(f) for f in found)
