"""The site, opened in the browser, stays on the machine and logs no error.

The guard on every page a test opens (see :mod:`browser.reader`) blocks and records requests
that would leave loopback, and records console errors, uncaught exceptions and failed loads;
any of them fails that test. This test opens one page of each kind (the largest: every
rulebook comes from one template, every comparison pair from another) through the shared
``site_visit``; the other tests add every rulebook, every short address and the key pages
under the same guard. The static part reads every page: nothing in the HTML would make a
browser fetch from another host.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from .conftest import SitePage, SiteVisit

pytestmark = pytest.mark.browser

# Links a browser follows by itself when it renders the page (not <a href>, not rel=canonical).
FETCHED_LINK_RELS = {"stylesheet", "icon", "preload", "modulepreload", "manifest", "prefetch"}


def test_pages_of_every_kind_load_offline_without_errors(site_visit: SiteVisit) -> None:
    assert site_visit.pages, "the build has no pages"
    problems = site_visit.load_failures + site_visit.broken_images
    report = site_visit.incidents.report()
    print(f"opened {len(site_visit.pages)} pages: {site_visit.pages}")
    assert not problems and not report, "\n".join([*problems, report])


def test_no_page_refers_to_a_resource_on_another_host(site_pages: dict[str, SitePage]) -> None:
    problems = []
    for path, built in site_pages.items():
        for link in built.scan.links:
            if link.tag == "a" or link.tag == "meta" or link.tag == "form":
                continue
            if link.tag == "link" and not (set(link.rel) & FETCHED_LINK_RELS):
                continue
            parts = urlsplit(link.url)
            if parts.scheme in {"http", "https"} or link.url.startswith("//"):
                problems.append(
                    f"/{path} line {link.line}: <{link.tag} {link.attribute}> {link.url}"
                )
    assert not problems, "pages would fetch from other hosts:\n" + "\n".join(problems)
