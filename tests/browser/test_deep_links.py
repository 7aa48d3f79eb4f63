"""A ruling's address takes the reader to that ruling: page#id and the short /r/<id>/ form.

Every ruling id in variants/*.yml is checked, so a new variant file is covered without editing
this test. One browser page is reused for all of them, which keeps the run to seconds.
"""

from __future__ import annotations

from urllib.parse import urljoin

import pytest
from playwright.sync_api import Error, Page

from generator.site.local_server import ServedSite

from .conftest import SitePage
from .views import heading_view_problem, jump_problems

pytestmark = pytest.mark.browser


def test_every_ruling_id_is_on_its_rulebook_once(
    site_pages: dict[str, SitePage], ruling_homes: dict[str, str]
) -> None:
    """A ruling's id is an anchor on its rulebook page and nowhere else, apart from the copies of
    past editions (/editions/<N>/#<id>), where each ruling stands under its id by design."""
    content_pages = {
        path: page
        for path, page in site_pages.items()
        if not page.scan.is_redirect and not path.startswith("editions/")
    }
    problems = []
    for ruling, home in sorted(ruling_homes.items()):
        if home not in content_pages:
            problems.append(f"{ruling}: its rulebook page /{home} was not built")
            continue
        pages_with_id = sorted(p for p, page in content_pages.items() if ruling in page.scan.ids)
        if pages_with_id != [home]:
            problems.append(
                f"{ruling}: expected as an id on /{home} only, found on {pages_with_id}"
            )
        if ruling in content_pages[home].scan.duplicate_ids:
            problems.append(f"{ruling}: id used twice on /{home}")
        if f"r/{ruling}/" not in site_pages:
            problems.append(f"{ruling}: no short address /r/{ruling}/ was built")
    assert not problems, "\n".join(problems)


def by_rulebook(ruling_homes: dict[str, str]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for ruling, home in sorted(ruling_homes.items()):
        grouped.setdefault(home, []).append(ruling)
    return grouped


def test_opening_a_ruling_address_shows_its_heading(
    page: Page, site: ServedSite, ruling_homes: dict[str, str]
) -> None:
    """The first ruling of each rulebook by a fresh load of page#id (what a reader following a
    citation gets); the others on the loaded page, from its top, by changing the #fragment."""
    problems = []
    for home, rulings in by_rulebook(ruling_homes).items():
        page.goto("about:blank")
        page.goto(site.address(f"{home}#{rulings[0]}"))
        problem = heading_view_problem(page, rulings[0])
        if problem:
            problems.append(f"/{home}#{rulings[0]} (fresh load): {problem}")
        for ruling, problem in jump_problems(page, rulings[1:]):
            problems.append(f"/{home}#{ruling}: {problem}")
    assert not problems, "\n".join(problems)


def test_short_address_is_a_page_about_the_ruling(
    site_pages: dict[str, SitePage], site: ServedSite, ruling_homes: dict[str, str]
) -> None:
    """Every /r/<id>/ is a real page (not a redirect stub) whose link "in context" leads to
    <rulebook>#<id>, and which carries the citation tags reference managers read."""
    problems = []
    for ruling, home in sorted(ruling_homes.items()):
        short = site_pages.get(f"r/{ruling}/")
        if short is None:
            problems.append(f"/r/{ruling}/ was not built")
            continue
        if short.scan.is_redirect:
            problems.append(f"/r/{ruling}/ is a redirect stub, not a page")
        here = site.address(f"r/{ruling}/")
        targets = {urljoin(here, link.url) for link in short.scan.links}
        if site.address(f"{home}#{ruling}") not in targets:
            problems.append(f"/r/{ruling}/ does not link to /{home}#{ruling}")
        html = short.file.read_text(encoding="utf-8")
        if '<meta name="citation_title"' not in html or ruling not in html:
            problems.append(f"/r/{ruling}/ lacks its citation_title tag or its id")
    assert not problems, "\n".join(problems)


def test_short_address_leads_on_to_the_ruling(
    page: Page, site: ServedSite, ruling_homes: dict[str, str]
) -> None:
    """For the last ruling of the first, middle and last rulebooks: open /r/<id>/, follow its
    link to the ruling in context, and see the ruling's heading (every other short page's link
    is checked statically above)."""
    grouped = by_rulebook(ruling_homes)
    homes = list(grouped)
    problems = []
    for home in sorted({homes[0], homes[len(homes) // 2], homes[-1]}):
        ruling = grouped[home][-1]
        page.goto(site.address(f"r/{ruling}/"))
        page.locator("a.ruling-in-context").click()
        expected = site.address(f"{home}#{ruling}")
        try:
            page.wait_for_url(expected, wait_until="load")
        except Error:
            problems.append(f"/r/{ruling}/ led to {page.url}, expected {expected}")
            continue
        problem = heading_view_problem(page, ruling)
        if problem:
            problems.append(f"/r/{ruling}/ -> {expected}: {problem}")
    assert not problems, "\n".join(problems)
