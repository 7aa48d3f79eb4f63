"""Charts and board diagrams load, take up room on the page and carry a text alternative.

Contract: charts are ``<img>`` with alt text or inline ``<svg role="img">`` with a ``<title>``;
board diagrams are inline SVG with ``role="img"``. The HTML of every page is read for text
alternatives (the statistics page must show a chart, every rulebook a diagram); the browser
checks that they load and have a size on one page of each kind (see ``site_visit``).
"""

from __future__ import annotations

import pytest

from .conftest import SitePage, SiteVisit

pytestmark = pytest.mark.browser

STATISTICS = "statistics/"


def test_every_chart_and_diagram_has_a_text_alternative(
    site_pages: dict[str, SitePage], ruling_homes: dict[str, str], site_is_simulated: bool
) -> None:
    problems = []
    for path, built in site_pages.items():
        for medium in built.scan.media:
            if not medium.alternative:
                what = "alt text" if medium.kind == "img" else "a <title> (or aria-label)"
                problems.append(f"/{path}: {medium.kind} {medium.name} needs {what}")
    statistics = site_pages.get(STATISTICS)
    if statistics is None:
        problems.append(f"/{STATISTICS} was not built")
    elif not statistics.scan.media and site_is_simulated:
        problems.append(f"/{STATISTICS} shows no chart (img, or svg role=img)")
    for rulebook in sorted(set(ruling_homes.values())):
        rulebook_page = site_pages.get(rulebook)
        if rulebook_page and not any(m.kind == "svg" for m in rulebook_page.scan.media):
            problems.append(f"/{rulebook} shows no board diagram (inline svg role=img)")
    total = sum(len(built.scan.media) for built in site_pages.values())
    print(f"{total} charts and diagrams on {len(site_pages)} pages")
    assert not problems, "\n".join(problems)
    if not site_is_simulated:
        pytest.skip(
            "built with --no-simulate: the statistics charts were not made, so their presence "
            "was not checked (set UR_VARIANTS_BUILD_ARGS='' for a full build)"
        )


def test_charts_and_diagrams_load_and_take_up_room(site_visit: SiteVisit) -> None:
    assert STATISTICS in site_visit.media, f"the browser visit did not include /{STATISTICS}"
    problems = list(site_visit.broken_images)
    for path, media in site_visit.media.items():
        problems.extend(f"/{path}: {problem}" for medium in media for problem in medium.problems())
    assert not problems, "\n".join(problems)
