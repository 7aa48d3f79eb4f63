"""Every rulebook opens with how to play: before the summary, its table in one desktop screen
(the board follows it), each sentence a link to a ruling on the same page."""

from __future__ import annotations

import pytest

from generator.model.catalog_contents import Catalog
from generator.site.local_server import ServedSite

from .conftest import OpenPage

pytestmark = pytest.mark.browser

DESKTOP_SCREEN = {"width": 1366, "height": 900}

_SECTION = """
() => {
  const heading = document.getElementById('how-to-play');
  const summary = document.getElementById('summary');
  if (!heading || !summary) return null;
  const table = heading.nextElementSibling.querySelector('table') || heading.nextElementSibling;
  const anchors = [...table.querySelectorAll('a')];
  const links = anchors.map((a) => a.href);
  return {
    before: heading.getBoundingClientRect().top < summary.getBoundingClientRect().top,
    height: table.getBoundingClientRect().bottom - heading.getBoundingClientRect().top,
    links,
    missing: anchors.filter((a) => a.pathname !== location.pathname || !a.hash
                            || !document.getElementById(decodeURIComponent(a.hash.slice(1))))
                    .map((a) => a.href),
  };
}
"""


@pytest.mark.parametrize("variant", ["finkel-great-book", "royalur-finkel", "murray-1952-royalur"])
def test_how_to_play_comes_first_and_links_every_sentence(
    open_page: OpenPage, site: ServedSite, catalog: Catalog, variant: str
) -> None:
    page = open_page(viewport=DESKTOP_SCREEN)
    page.goto(site.address(f"variants/{variant}/"))
    found = page.evaluate(_SECTION)
    assert found is not None, f"/variants/{variant}/ has no #how-to-play before #summary"
    assert found["before"]
    answered = len(catalog.resolve(variant).rulings)
    assert len(found["links"]) >= answered - 4, found["links"]
    assert not found["missing"], f"sentences linking nowhere on the page: {found['missing']}"
    assert found["height"] <= DESKTOP_SCREEN["height"], f"{found['height']:.0f} px tall"
