"""Measure how tall rulebook pages are at desktop and phone width, and photograph them.

    .venv/bin/python scripts/page_heights.py [SITE] [--shots DIR] [PAGE ...]

SITE defaults to site/ (as `make site` builds it); PAGE defaults to the Great Book reading
(variants/finkel-great-book/). The site is served on 127.0.0.1 and read in Debian's Chromium
(/usr/bin/chromium) through Playwright at 1366x900 and 390x844. Prints one
`name: value unit` line per page and width (the document's full height in CSS pixels), and
saves a first-screen and a full-page screenshot of each into DIR (default
test-artifacts/heights/).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import ViewportSize, sync_playwright

from generator.site.local_server import CHROMIUM_ARGS, find_chromium, serve

ROOT = Path(__file__).resolve().parents[1]

SCREENS: dict[str, ViewportSize] = {
    "desktop": {"width": 1366, "height": 900},
    "phone": {"width": 390, "height": 844},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path, default=ROOT / "site")
    parser.add_argument("pages", nargs="*", default=["variants/finkel-great-book/"])
    parser.add_argument("--shots", type=Path, default=ROOT / "test-artifacts" / "heights")
    args = parser.parse_args()
    args.shots.mkdir(parents=True, exist_ok=True)
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("chromium is not installed; run `bash scripts/install-chromium.sh`")
    with serve(args.site) as served, sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=chromium, headless=True, args=CHROMIUM_ARGS
        )
        for path in args.pages:
            name = path.strip("/").replace("/", "-") or "home"
            for screen, viewport in SCREENS.items():
                context = browser.new_context(viewport=viewport, reduced_motion="reduce")
                page = context.new_page()
                page.goto(served.address(path))
                page.wait_for_load_state("load")
                height = page.evaluate("document.documentElement.scrollHeight")
                print(
                    f"{name} height at {screen} {viewport['width']}x{viewport['height']}: "
                    f"{height} px"
                )
                first = args.shots / f"{name}-{screen}.png"
                full = args.shots / f"{name}-{screen}-full.png"
                page.screenshot(path=str(first))
                page.screenshot(path=str(full), full_page=True)
                print(f"screenshots: {first} {full}")
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
