"""Every page of the site, opened in the browser, stays on the machine and logs no error.

The guard on the page (see :mod:`browser.reader`) blocks and records every request that would
leave loopback, and records console errors, uncaught exceptions and failed loads on every page
visited (the shared visit of every content page, see ``site_visit``); any of them fails this
test. Redirect stubs are opened by the deep-link tests, under the same guard.
"""

from __future__ import annotations

import pytest

from .conftest import SiteVisit

pytestmark = pytest.mark.browser


def test_every_page_loads_offline_without_errors(site_visit: SiteVisit) -> None:
    assert site_visit.pages, "the build has no pages"
    problems = site_visit.load_failures + site_visit.broken_images
    report = site_visit.incidents.report()
    assert not problems and not report, "\n".join([*problems, report])
