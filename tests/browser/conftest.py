"""Fixtures for the reader-level tests: the site built once, served on loopback, read in Chromium.

The session builds the site into a temporary folder with the project's own command (set
``UR_VARIANTS_SITE=<folder>`` to test an already-built site instead, e.g. while editing tests),
serves it with :class:`http.server.ThreadingHTTPServer` on 127.0.0.1, and drives Debian's
Chromium through Playwright (no browser download: ``scripts/install-chromium.sh`` installs it).
Every page a test opens is guarded (see :mod:`browser.reader`); anything it records fails the
test.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, ViewportSize, sync_playwright

from generator.model.catalog_contents import Catalog
from generator.model.variant import Ruling
from generator.site.local_server import CHROMIUM_ARGS, ServedSite, find_chromium, serve

from .htmlscan import PageScan, scan_html
from .reader import Incidents, guard_page
from .views import Medium, broken_images, page_media

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000
INCIDENTS = pytest.StashKey[Incidents]()
SCREENSHOT_LOG = pytest.StashKey[list[Path]]()


# --- the built site ---------------------------------------------------------------------------


def build_arguments() -> list[str]:
    """Extra ``ur-variants build`` arguments (``UR_VARIANTS_BUILD_ARGS``, default none: the
    tests read the site exactly as ``make site`` builds it, statistics and charts included;
    ``--no-simulate`` gives a quicker build without them). Also describes a site given by
    UR_VARIANTS_SITE."""
    return shlex.split(os.environ.get("UR_VARIANTS_BUILD_ARGS", ""))


def build_site(out: Path) -> Path:
    """Build the whole site into ``out`` with the project's command, as a reader would get it."""
    command = [
        sys.executable,
        "-m",
        "generator",
        "--root",
        str(ROOT),
        "build",
        "--site-dir",
        str(out),
        *build_arguments(),
    ]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    if result.returncode != 0:
        pytest.fail(
            f"the site build failed ({' '.join(command)}, exit {result.returncode}):\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
    print(f"site built in {time.perf_counter() - started:.1f} s into {out}", file=sys.stderr)
    return out


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prebuilt = os.environ.get("UR_VARIANTS_SITE")
    if prebuilt:
        folder = Path(prebuilt)
        if not (folder / "index.html").is_file():
            pytest.fail(f"UR_VARIANTS_SITE={prebuilt} has no index.html; build the site first")
        return folder
    return build_site(tmp_path_factory.mktemp("build") / "site")


@pytest.fixture(scope="session")
def site_is_simulated() -> bool:
    """Whether the build ran the simulations (without them the statistics have no charts)."""
    return "--no-simulate" not in build_arguments()


@pytest.fixture(scope="session")
def site(built_site: Path) -> Iterator[ServedSite]:
    with serve(built_site) as served:
        yield served


@dataclass(frozen=True)
class SitePage:
    """One HTML file of the built site: its site path (``compare/``) and static scan."""

    path: str
    file: Path
    scan: PageScan


@pytest.fixture(scope="session")
def site_pages(built_site: Path) -> dict[str, SitePage]:
    """Every HTML page of the built site by site path (``index.html`` dropped, as served)."""
    pages: dict[str, SitePage] = {}
    for file in sorted(built_site.rglob("*.html")):
        relative = file.relative_to(built_site).as_posix()
        path = relative.removesuffix("index.html")
        pages[path] = SitePage(path, file, scan_html(file.read_text(encoding="utf-8")))
    return pages


# --- what the data says should be on the site ----------------------------------------------


@pytest.fixture(scope="session")
def ruling_homes(catalog: Catalog) -> dict[str, str]:
    """Ruling id -> site path of the rulebook that states it (``variants/<variant-id>/``).

    A derived variant shows only its own rulings; inherited ones link to the parent's page,
    so each ruling id has exactly one home.
    """
    return {
        ruling.id: f"variants/{variant.id}/"
        for variant in catalog.variants.values()
        for ruling in variant.rulings
    }


@pytest.fixture(scope="session")
def rulings_by_id(catalog: Catalog) -> dict[str, Ruling]:
    return {ruling.id: ruling for ruling in catalog.rulings()}


@pytest.fixture(scope="session")
def richest_rulebook(catalog: Catalog) -> str:
    """The site path of the rulebook with the most rulings of its own (chosen from the data)."""
    variant = max(catalog.variants.values(), key=lambda v: (len(v.rulings), v.id))
    return f"variants/{variant.id}/"


# --- the browser --------------------------------------------------------------------------------


def chromium_path() -> str:
    found = find_chromium()
    if found is None:
        pytest.fail("chromium is not installed; run `bash scripts/install-chromium.sh` (as root)")
    return found


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    launched = playwright_driver.chromium.launch(
        executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
    )
    yield launched
    launched.close()


OpenPage = Callable[..., Page]


@pytest.fixture
def open_page(
    request: pytest.FixtureRequest, browser: Browser, site: ServedSite
) -> Iterator[OpenPage]:
    """Open guarded pages (one fresh browser context each); the test fails on any incident."""
    incidents = Incidents()
    request.node.stash[INCIDENTS] = incidents
    contexts = []

    def opener(viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(
            viewport=viewport, reduced_motion="reduce", service_workers="block"
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        guard_page(page, incidents)
        return page

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture
def page(open_page: OpenPage) -> Page:
    """A guarded desktop-width page."""
    return open_page()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Fail the test (not its teardown) when its pages left loopback or logged errors."""
    result = yield
    incidents = item.stash.get(INCIDENTS, None)
    if incidents is not None and incidents.report():
        raise AssertionError(f"the browser recorded problems:\n{incidents.report()}")
    return result


# --- one browser visit of every page, shared by the tests that need one ---------------------


def page_kind(path: str) -> str:
    """Pages made from one template share a kind: ``variants/*/`` for every rulebook."""
    parts = path.strip("/").split("/")
    return parts[0] if len(parts) == 1 else f"{parts[0]}/*/"


def representative_pages(site_pages: dict[str, SitePage]) -> list[str]:
    """The largest page of each kind (the one most likely to break), redirect stubs excluded.

    Pages of one kind come from one template with the same scripts and styles, so one of each
    finds what the browser would find on all; the static checks read every page.
    """
    largest: dict[str, SitePage] = {}
    for built in site_pages.values():
        if built.scan.is_redirect:
            continue
        kind = page_kind(built.path)
        if kind not in largest or built.file.stat().st_size > largest[kind].file.stat().st_size:
            largest[kind] = built
    return sorted(page.path for page in largest.values())


@dataclass
class SiteVisit:
    """What the browser met on one page of each kind."""

    pages: list[str]
    incidents: Incidents
    load_failures: list[str]
    broken_images: list[str]
    media: dict[str, list[Medium]]


@pytest.fixture(scope="session")
def site_visit(browser: Browser, site: ServedSite, site_pages: dict[str, SitePage]) -> SiteVisit:
    """Open one page of each kind in a guarded page; record incidents, images and media."""
    incidents = Incidents()
    context = browser.new_context(
        viewport=DESKTOP, reduced_motion="reduce", service_workers="block"
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    guard_page(page, incidents)
    visit = SiteVisit(representative_pages(site_pages), incidents, [], [], {})
    started = time.perf_counter()
    for path in visit.pages:
        response = page.goto(site.address(path), wait_until="load")
        if response is None or response.status != 200:
            status = response.status if response else "no response"
            visit.load_failures.append(f"/{path}: HTTP {status}")
            continue
        visit.broken_images.extend(f"/{path}: {problem}" for problem in broken_images(page))
        visit.media[path] = page_media(page)
    context.close()
    print(
        f"browser visit: {len(visit.pages)} pages in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return visit


# --- screenshots --------------------------------------------------------------------------------


@pytest.fixture
def screenshot_folder(request: pytest.FixtureRequest) -> Path:
    """Where screenshots go; every file written is listed at the end of the test output."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    request.config.stash.setdefault(SCREENSHOT_LOG, [])
    return SCREENSHOTS


def record_screenshot(config: pytest.Config, path: Path) -> None:
    config.stash.setdefault(SCREENSHOT_LOG, []).append(path)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    shots = config.stash.get(SCREENSHOT_LOG, [])
    if shots:
        terminalreporter.section("screenshots for a person to look at")
        for shot in shots:
            terminalreporter.write_line(str(shot))
