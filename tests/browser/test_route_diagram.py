"""The route diagram on a phone: every step of each side's route numbered, numbers that read
at 12 px or more, and a board that takes the screen's width.

Checked on every rulebook whose route is drawn differently (Bell's, Masters', both of Murray's
27-square routes, the twenty-squares board), in Chromium at 390 px.
"""

from __future__ import annotations

import pytest

from generator.model.catalog_contents import Catalog
from generator.site.local_server import ServedSite

from .conftest import PHONE, OpenPage

pytestmark = pytest.mark.browser

_STEPS = """
() => {
  const svg = document.querySelector('figure.ur-figure svg.ur-board');
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text.step')].map((t) => ({
    side: t.classList.contains('step-light') ? 'light'
        : t.classList.contains('step-dark') ? 'dark' : 'both',
    numbers: t.textContent.split('·').map(Number),
    px: t.getBoundingClientRect().height,
  }));
  return {width: box.width, texts};
}
"""


def _one_rulebook_per_route(catalog: Catalog) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for vid in sorted(catalog.variants):
        chosen.setdefault(catalog.resolve(vid).route.id, vid)
    return chosen


def test_every_step_is_numbered_and_readable_on_a_phone(
    open_page: OpenPage, site: ServedSite, catalog: Catalog
) -> None:
    problems = []
    for route_id, vid in _one_rulebook_per_route(catalog).items():
        length = catalog.resolve(vid).route.length
        page = open_page(viewport=PHONE)
        page.goto(site.address(f"variants/{vid}/"))
        drawn = page.evaluate(_STEPS)
        if drawn["width"] < 370:
            problems.append(f"{vid}: the board is {drawn['width']:.0f} px wide on a phone")
        numbered = {"light": set(), "dark": set()}
        for text in drawn["texts"]:
            for side in ("light", "dark") if text["side"] == "both" else (text["side"],):
                numbered[side].update(text["numbers"])
            # A glyph box is about 1.15 times the font size.
            if text["px"] < 12 * 1.1:
                problems.append(f"{vid}: step numbers {text['numbers']} are {text['px']:.1f} px")
        for side, steps in numbered.items():
            if steps != set(range(1, length + 1)):
                problems.append(f"{vid} ({route_id}): {side}'s steps drawn {sorted(steps)}")
        page.close()
    assert not problems, "; ".join(problems[:10])
