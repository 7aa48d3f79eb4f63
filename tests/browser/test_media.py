"""Charts and board diagrams load, take up room on the page and carry a text alternative.

Contract: charts are ``<img>`` with alt text or inline ``<svg role="img">`` with a ``<title>``;
board diagrams are inline SVG with ``role="img"``. Checked on every page of the site (during the
shared browser visit), with the statistics page required to show at least one chart and every
rulebook at least one diagram.
"""

from __future__ import annotations

import pytest

from .conftest import SiteVisit

pytestmark = pytest.mark.browser


def test_every_chart_and_diagram_loads_and_has_a_text_alternative(
    site_visit: SiteVisit, ruling_homes: dict[str, str]
) -> None:
    problems = list(site_visit.broken_images)
    for path, media in site_visit.media.items():
        problems.extend(f"/{path}: {problem}" for medium in media for problem in medium.problems())
    charts = site_visit.media.get("statistics/")
    if charts is None:
        problems.append("/statistics/ was not built")
    elif not charts:
        problems.append("/statistics/ shows no chart (img, or svg role=img)")
    for rulebook in sorted(set(ruling_homes.values())):
        diagrams = [m for m in site_visit.media.get(rulebook, []) if m.kind == "svg"]
        if not diagrams:
            problems.append(f"/{rulebook} shows no board diagram (inline svg role=img)")
    total = sum(len(media) for media in site_visit.media.values())
    print(f"checked {total} charts and diagrams on {len(site_visit.media)} pages")
    assert not problems, "\n".join(problems)
