"""The key pages at a phone width and a desktop width: no sideways scrolling, and full-page
screenshots written to test-artifacts/screenshots/ for a person to look at (listed at the end
of the test output).

Wide content (the statistics' tables) may scroll inside its own box, but the page itself must
not be wider than the screen: a reader on a phone should never have to pan the whole page. The
one exception is the comparison with every rulebook on a desktop: its table scrolls with the
page, so that its header row and question column can stick (test_compare_picker.py checks
they do); nothing else on that page may stick out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize

from generator.site.local_server import ServedSite

from .conftest import DESKTOP, PHONE, OpenPage, record_screenshot

pytestmark = pytest.mark.browser

WIDTHS: dict[str, ViewportSize] = {"phone": PHONE, "desktop": DESKTOP}
PAGES = {"home": "", "rulebook": "RULEBOOK", "comparison": "compare/"}

# Elements that stick out past the right edge of the screen, deepest first, for the message.
_OVERFLOW = """
() => {
  const width = document.documentElement.clientWidth;
  const page = document.documentElement.scrollWidth;
  if (page <= width) return {page, width, culprits: [], outside: 0};
  const wide = [...document.body.querySelectorAll('*')]
    .filter((el) => el.getBoundingClientRect().right > width + 1 && el.children.length === 0);
  const seen = (el) => el.checkVisibility({opacityProperty: true, visibilityProperty: true});
  const outside = wide.filter((el) => !el.closest('#comparison') && seen(el)).length;
  const culprits = wide
    .slice(0, 5)
    .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}"> right edge at ` +
                 `${Math.round(el.getBoundingClientRect().right)} px`);
  return {page, width, culprits, outside};
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_page_fits_the_screen_and_is_photographed(
    request: pytest.FixtureRequest,
    open_page: OpenPage,
    site: ServedSite,
    richest_rulebook: str,
    screenshot_folder: Path,
    name: str,
    width: str,
) -> None:
    path = richest_rulebook if PAGES[name] == "RULEBOOK" else PAGES[name]
    page: Page = open_page(viewport=WIDTHS[width])
    page.goto(site.address(path))
    page.wait_for_load_state("load")
    shot = screenshot_folder / f"{name}-{width}.png"
    page.screenshot(path=shot, full_page=True)
    record_screenshot(request.config, shot)
    overflow: dict[str, object] = page.evaluate(_OVERFLOW)
    if name == "comparison" and width == "desktop":
        assert overflow["outside"] == 0, f"only the comparison table may be wider: {overflow}"
        return
    assert int(str(overflow["page"])) <= int(str(overflow["width"])), (
        f"/{path} at {WIDTHS[width]['width']} px is {overflow['page']} px wide "
        f"(screen {overflow['width']} px); sticking out: {overflow['culprits']}"
    )
