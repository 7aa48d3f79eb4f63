"""No broken link or anchor anywhere on the built site.

A small crawler of our own (html.parser, over HTTP from the loopback server): starting from the
root, and from every HTML file in the build so an unlinked page is checked too, every internal
href/src must load and every #fragment must be an id on the page it points to. External links
are not fetched (CI has no network); the browser tests check that no page loads anything
external.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections import deque
from dataclasses import dataclass, field
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import pytest

from generator.site.local_server import ServedSite

from .conftest import SitePage
from .htmlscan import PageScan, scan_html

pytestmark = pytest.mark.browser

SKIPPED_SCHEMES = {"mailto", "tel", "javascript", "data"}


@dataclass
class Crawl:
    pages: dict[str, PageScan] = field(default_factory=dict)
    resources_ok: set[str] = field(default_factory=set)
    broken: list[str] = field(default_factory=list)
    fragments: list[tuple[str, str, str]] = field(default_factory=list)


def fetch(url: str, parse: bool) -> tuple[int, str, str]:
    """Status, content type and (for HTML to parse) text of one address; redirects followed."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            content_type = response.headers.get_content_type()
            body = response.read()
            text = body.decode("utf-8") if parse and content_type == "text/html" else ""
            return response.status, content_type, text
    except urllib.error.HTTPError as error:
        return error.code, "", ""


def crawl(site: ServedSite, seeds: list[str], known: dict[str, PageScan]) -> Crawl:
    """Fetch every internal address reachable from ``seeds``; pages already read from the
    build folder (``known``, by address) are not parsed again."""
    result = Crawl()
    queue = deque(seeds)
    seen = set(seeds)
    while queue:
        url = queue.popleft()
        status, content_type, text = fetch(url, parse=url not in known)
        if status != 200:
            result.broken.append(f"{url}: HTTP {status}")
            continue
        if content_type != "text/html":
            result.resources_ok.add(url)
            continue
        scan = known[url] if url in known else scan_html(text)
        result.pages[url] = scan
        for link in scan.links:
            target = urljoin(url, link.url)
            parts = urlsplit(target)
            if parts.scheme in SKIPPED_SCHEMES or not target.startswith(site.url):
                continue
            bare, fragment = urldefrag(target)
            if fragment:
                result.fragments.append(
                    (url, f"<{link.tag} {link.attribute}> line {link.line}", target)
                )
            if bare not in seen:
                seen.add(bare)
                queue.append(bare)
    return result


def test_no_broken_link_or_anchor(site: ServedSite, site_pages: dict[str, SitePage]) -> None:
    known = {site.address(path): page.scan for path, page in site_pages.items()}
    seeds = [site.url, *known]
    result = crawl(site, list(dict.fromkeys(seeds)), known)
    problems = list(result.broken)
    for page_url, where, target in result.fragments:
        bare, fragment = urldefrag(target)
        scan = result.pages.get(bare)
        if scan is None:
            if bare in result.resources_ok and bare.endswith(".svg"):
                continue  # a fragment inside an SVG sprite; the file itself loaded
            problems.append(f"{page_url} ({where}): {target} is not an HTML page")
        elif unquote(fragment) not in scan.ids:
            problems.append(f"{page_url} ({where}): no id {unquote(fragment)!r} on {bare}")
    print(
        f"link check: {len(result.pages)} pages, {len(result.resources_ok)} other files, "
        f"{len(result.fragments)} anchors"
    )
    assert len(result.pages) >= len(site_pages), "the crawl missed pages that were built"
    for url, scan in sorted(result.pages.items()):
        if scan.duplicate_ids:
            problems.append(
                f"{url}: ids used twice (ambiguous anchors): {sorted(scan.duplicate_ids)}"
            )
    assert not problems, f"{len(problems)} broken links or anchors:\n" + "\n".join(problems)
