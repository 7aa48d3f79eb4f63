"""A ruling's address takes the reader to that ruling: page#id and the short /r/<id>/ form.

Every ruling id in variants/*.yml is checked, so a new variant file is covered without editing
this test. One browser page is reused for all of them, which keeps the run to seconds.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error, Page, Route

from .conftest import SitePage
from .reader import ServedSite
from .views import heading_view_problem, jump_problems

pytestmark = pytest.mark.browser


def test_every_ruling_id_is_on_its_rulebook_once(
    site_pages: dict[str, SitePage], ruling_homes: dict[str, str]
) -> None:
    content_pages = {path: page for path, page in site_pages.items() if not page.scan.is_redirect}
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


LANDED = "<!doctype html><title>landed</title>"


def test_short_address_lands_on_the_ruling(
    page: Page, site: ServedSite, ruling_homes: dict[str, str]
) -> None:
    """Every /r/<id>/ ends at <rulebook>#<id>. For the last ruling of the first, middle and last
    rulebooks the page is loaded in full and the heading checked (the test above loads every
    rulebook fresh); for the others the rulebook's HTML is answered with a stub, because only
    the address reached is in question (the test above checks their headings on the real page)
    and the stub keeps hundreds of redirects to seconds."""
    problems = []
    stubbed = False
    rulebooks = f"{site.url}variants/**"

    def answer_with_stub(route: Route) -> None:
        route.fulfill(status=200, content_type="text/html", body=LANDED)

    grouped = by_rulebook(ruling_homes)
    homes = list(grouped)
    loaded_in_full = {homes[0], homes[len(homes) // 2], homes[-1]}
    for home, rulings in grouped.items():
        for index, ruling in enumerate(rulings):
            in_full = home in loaded_in_full and index == len(rulings) - 1
            if in_full and stubbed:
                page.unroute(rulebooks, answer_with_stub)
                stubbed = False
            elif not in_full and not stubbed:
                page.route(rulebooks, answer_with_stub)
                stubbed = True
            short = site.address(f"r/{ruling}/")
            expected = site.address(f"{home}#{ruling}")
            page.goto(short)
            try:
                page.wait_for_url(expected, wait_until="load" if in_full else "commit")
            except Error:
                problems.append(f"{short} ended at {page.url}, expected {expected}")
                continue
            problem = heading_view_problem(page, ruling) if in_full else ""
            if problem:
                problems.append(f"{short}: {problem}")
    assert not problems, "\n".join(problems)
