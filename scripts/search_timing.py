"""Time from opening a page to the first search result, in headless Chromium (issue 40 item 5).

Serves a built site on a local port, opens its home page afresh for each try (no browser cache),
types a query into the theme's search box and waits for the first result; prints the median and
slowest time per query and the search index's size. A benchmark, not a test: machines are shared
and noisy, so compare figures measured in one run (for instance two sites, before and after).

    .venv/bin/python scripts/search_timing.py site [other-site ...] [--tries 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from generator.site.local_server import CHROMIUM_ARGS, find_chromium, serve

QUERIES = ("how to play", "Merit", "rosette")
SEARCH_INPUT = "input.md-search__input"
SEARCH_HITS = ".md-search-result a[href]"


def first_result_seconds(url: str, query: str, tries: int) -> list[float]:
    """Seconds from navigation start to the first result shown, one fresh browser context a try."""
    times: list[float] = []
    loads: list[float] = []
    with sync_playwright() as p:
        chromium = find_chromium()
        if chromium is None:
            raise SystemExit("chromium is not installed; run `bash scripts/install-chromium.sh`")
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        for _ in range(tries):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            start = time.perf_counter()
            page.goto(url)
            loads.append(time.perf_counter() - start)
            page.locator(SEARCH_INPUT).click()
            page.locator(SEARCH_INPUT).press_sequentially(query)
            page.wait_for_selector(SEARCH_HITS, timeout=120_000)
            times.append(time.perf_counter() - start)
            first = page.locator(SEARCH_HITS).first.get_attribute("href")
            context.close()
        browser.close()
    print(
        f"    first hit for {query!r}: {first}; the page itself loaded in"
        f" {statistics.median(loads):.2f} s (median)"
    )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--tries", type=int, default=5)
    args = parser.parse_args()
    for site in args.sites:
        index = site / "search" / "search_index.json"
        print(f"{site}: search index {index.stat().st_size:,} bytes")
        with serve(site) as served:
            for query in QUERIES:
                times = first_result_seconds(served.address(""), query, args.tries)
                print(
                    f"  {query!r}: median {statistics.median(times):.2f} s,"
                    f" slowest {max(times):.2f} s over {len(times)} tries"
                )


if __name__ == "__main__":
    main()
