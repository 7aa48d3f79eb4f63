"""A browser page that watches what it does on the built site (served by
:func:`generator.site.local_server.serve`).

A reader's browser must never leave the machine for this site (no fonts, scripts or analytics
from elsewhere) and must not log errors. Every page a test opens is guarded: requests to any
host other than loopback are aborted and recorded, console errors, uncaught exceptions and
failed loopback responses are recorded, and the test fails if anything was recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playwright.sync_api import ConsoleMessage, Error, Page, Request, Response, Route

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
# Every address that is not on loopback. Matched inside the Playwright driver, so requests to
# the local server never make a round trip to Python (which made every page load slow).
LEAVES_LOOPBACK = re.compile(r"^(?!(?:https?|wss?)://(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?/)")


@dataclass
class Incidents:
    """Everything that went wrong on the pages of one test, as readable lines."""

    left_loopback: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    failed_loads: list[str] = field(default_factory=list)

    def report(self) -> str:
        sections = [
            ("requests that left loopback (blocked)", self.left_loopback),
            ("console errors and uncaught exceptions", self.console_errors),
            ("failed loads", self.failed_loads),
        ]
        return "\n".join(
            f"{title}:\n" + "\n".join(f"  {line}" for line in lines)
            for title, lines in sections
            if lines
        )


def is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in {"data", "blob", "about"}:
        return True
    return parts.hostname in LOOPBACK_HOSTS


def guard_page(page: Page, incidents: Incidents) -> None:
    """Abort and record non-loopback requests; record console errors and failed loads."""

    def route(route: Route) -> None:
        request = route.request
        if is_loopback(request.url):  # e.g. data: URLs, should the driver route them
            route.continue_()
            return
        referrer = request.headers.get("referer", "?")
        incidents.left_loopback.append(f"{request.method} {request.url} (from {referrer})")
        route.abort("blockedbyclient")

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            incidents.console_errors.append(f"{page.url}: {message.text}")

    def page_error(error: Error) -> None:
        incidents.console_errors.append(f"{page.url}: uncaught {error.name}: {error.message}")

    def response(response: Response) -> None:
        if response.status >= 400 and is_loopback(response.url):
            incidents.failed_loads.append(f"{response.status} {response.url} (on {page.url})")

    def request_failed(request: Request) -> None:
        failure = request.failure or "?"
        # Aborted navigations (a redirect superseding a load) are not a reader-visible failure.
        if is_loopback(request.url) and "ERR_ABORTED" not in failure:
            incidents.failed_loads.append(f"{request.url}: {failure} (on {page.url})")

    # On the context, not the page, so the theme's search worker is routed as well.
    page.context.route(LEAVES_LOOPBACK, route)
    page.on("console", console)
    page.on("pageerror", page_error)
    page.on("response", response)
    page.on("requestfailed", request_failed)
