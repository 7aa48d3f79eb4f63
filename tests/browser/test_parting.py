"""Where two rulebooks part, read in Chromium: a pair page shows, for a question on which the two
play differently, one board per rulebook on the same position, side by side on a desktop and
stacked on a phone, each listing its legal moves; the page passes axe; screenshots at both sizes
for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize

from generator.site.local_server import ServedSite

from .conftest import OpenPage, record_screenshot
from .test_accessibility import CONTENT, axe_findings
from .test_layout import _OVERFLOW

pytestmark = pytest.mark.browser

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}
PAIR = "compare/bell-1960--finkel-english/"
"""Bell's 1960 rules against Finkel's English page: they part on safety, entry and extra
throws, each on a position the engine finds a few moves from the start."""
QUESTION = "safe-squares"


@pytest.mark.parametrize("size", SIZES)
def test_a_pair_page_draws_both_rulebooks_on_the_position_where_they_part(
    open_page: OpenPage,
    site: ServedSite,
    screenshot_folder: Path,
    request: pytest.FixtureRequest,
    size: str,
) -> None:
    page = open_page(viewport=SIZES[size])
    page.goto(site.address(PAIR) + f"#{QUESTION}")
    boards = page.locator(f"h3#{QUESTION} ~ .parting-boards").first.locator("figure")
    assert boards.count() == 2, "one board per rulebook"
    first, second = (boards.nth(i).bounding_box() for i in range(2))
    assert first and second and first["width"] >= 150 and second["width"] >= 150
    side_by_side = abs(first["y"] - second["y"]) < 1
    assert side_by_side == (size == "desktop"), f"{size}: boards at {first} and {second}"
    captions = [boards.nth(i).locator("figcaption").inner_text() for i in range(2)]
    assert "Bell 1960" in captions[0] and "Finkel" in captions[1]
    assert captions[0] != captions[1], "the two rulebooks' legal moves differ"
    assert page.locator(f"h3#{QUESTION} ~ .parting-boards strong").count() >= 2
    overflow = page.evaluate(_OVERFLOW)
    assert overflow["page"] <= overflow["width"], f"the pair page scrolls sideways: {overflow}"
    boards.first.scroll_into_view_if_needed()
    shot = screenshot_folder / f"pair-parting-{size}.png"
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)


def test_a_pair_page_with_its_partings_passes_the_accessibility_check(
    open_page: OpenPage, site: ServedSite
) -> None:
    page = open_page()
    page.goto(site.address(PAIR))
    page.wait_for_selector(CONTENT)
    found = [f for f in axe_findings(page) if f.in_content or f.exception is None]
    assert not found, f"/{PAIR}: " + "\n".join(str(f) for f in found)
