"""The play pages, played in Chromium as a reader plays them: full games against the computer
to the end at desktop and phone sizes, one with the keyboard alone, a game between two people
with undo, the position's address kept and read back, a malformed address answered on the
page, axe on /play/ and a play page, and screenshots for a person to look at.

Every page is guarded (:mod:`browser.reader`): a request leaving the machine, a console error
or an uncaught exception fails the test. The games use the browser's reduced-motion setting,
under which the computer moves without its pause. What a page should show (the rulebook's
pieces, its rulings, the engine's start position) is read from the data and the engine, not
written here.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import Page

from generator.model.catalog_contents import Catalog
from generator.site.local_server import ServedSite

from .conftest import DESKTOP, PHONE, OpenPage, record_screenshot
from .test_accessibility import axe_findings
from .test_layout import _OVERFLOW

pytestmark = pytest.mark.browser

COMMON = "royalur-finkel"
"""The rules the site teaches first (the vocabulary's ``common_rules``)."""
SHORT = "finkel-three-piece"
"""A short game (three pieces a side) for the slower, keyboard-only game."""
MAX_STEPS = 3000
"""More page actions than any game here takes (a seven-piece game: about 200 throws)."""

_STATE = """
async () => {
  const data = JSON.parse(document.querySelector('#play-data').textContent);
  const g = await UrEngine.load(data.rulebook);
  const position = new URLSearchParams(location.search).get('p');
  return {position, winner: position ? g.winner(position) : null, start: g.start(),
          pieces: JSON.parse(document.querySelector('#play-data').textContent).routes.L.length};
}
"""

_BOARD = """
() => ({
  pieces: [...document.querySelectorAll('#ur-play .play-piece')].map((g) => {
    const c = g.querySelector('circle');
    return [g.getAttribute('class').split(' ')[1], c.getAttribute('cx'), c.getAttribute('cy'),
            g.querySelector('text')?.textContent ?? '1'];
  }).sort(),
  trays: [...document.querySelectorAll('#ur-play .play-tray')]
    .map((t) => t.firstChild?.textContent),
})
"""


def open_play(page: Page, site: ServedSite, rulebook: str, query: str = "") -> dict:
    page.goto(site.address(f"play/{rulebook}/{query}"))
    # The page says when its board has begun (the address may hold a position from the start).
    page.wait_for_function("() => document.getElementById('ur-play')?.dataset.ready === 'yes'")
    return json.loads(page.locator("#play-data").text_content() or "{}")


def state(page: Page) -> dict:
    return page.evaluate(_STATE)


def position_in_address(page: Page) -> str:
    return parse_qs(urlsplit(page.url).query)["p"][0]


def play_to_the_end(page: Page, choose: random.Random) -> int:
    """Throw and move (a random highlighted piece) by clicking until someone wins; the number
    of the reader's actions."""
    throw = page.locator('[data-play="throw"]')
    for step in range(MAX_STEPS):
        if state(page)["winner"]:
            return step
        options = page.locator("#ur-play [data-option]")
        if options.count():
            options.nth(choose.randrange(options.count())).click()
        elif throw.is_enabled():
            throw.click()
    raise AssertionError(f"no winner after {MAX_STEPS} actions")


def check_the_log(page: Page, data: dict, rulings: dict[str, str]) -> list[str]:
    """The log's events, each ruling link the rulebook's own ruling; the last one the win."""
    items = page.locator('[data-play="log"] li')
    texts = items.all_inner_texts()
    links = page.eval_on_selector_all(
        '[data-play="log"] a', "(links) => links.map((a) => a.getAttribute('href'))"
    )
    assert texts and links
    for href in links:
        ruling = href.rstrip("/").rsplit("/", 1)[-1]
        assert ruling in rulings, f"{href} is not a ruling of {data['rulebook']}"
    win = data["events"]["win"]
    assert items.last.locator("a").get_attribute("href") == win["href"]
    return texts


def resolved_rulings(catalog: Catalog, rulebook: str) -> dict[str, str]:
    return {r.id: q for q, r in catalog.resolve(rulebook).rulings.items()}


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_full_game_against_the_computer(
    open_page: OpenPage, site: ServedSite, catalog: Catalog, size: str
) -> None:
    page = open_page(viewport=DESKTOP if size == "desktop" else PHONE)
    data = open_play(page, site, COMMON)
    actions = play_to_the_end(page, random.Random(42))
    end = state(page)
    texts = check_the_log(page, data, resolved_rulings(catalog, COMMON))
    winner = data["words"]["sides"][end["winner"]]
    assert page.locator('[data-play="throw"]').is_disabled()
    assert winner in page.locator('[data-play="status"]').inner_text()
    print(f"{size}: {end['winner']} won after {actions} actions, {len(texts)} events logged")


def test_a_full_game_with_the_keyboard_alone(
    open_page: OpenPage, site: ServedSite, catalog: Catalog
) -> None:
    page = open_page()
    data = open_play(page, site, SHORT)
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.dataset.play") == "throw":
            break
    else:
        raise AssertionError("Tab never reached the Throw button")
    choose = random.Random(7)
    keys = 0
    while not state(page)["winner"]:
        focused = page.evaluate(
            "() => document.activeElement?.hasAttribute('data-option') ? 'piece'"
            " : document.activeElement?.dataset.play ?? ''"
        )
        if focused == "piece":
            for _ in range(choose.randrange(3)):
                page.keyboard.press("ArrowRight")
            page.keyboard.press(choose.choice(["Enter", " "]))
        elif focused == "throw":
            page.keyboard.press("Enter")
        else:
            page.wait_for_timeout(20)
        keys += 1
        assert keys < MAX_STEPS, "the keyboard game did not end"
    check_the_log(page, data, resolved_rulings(catalog, SHORT))
    print(f"keyboard: {state(page)['winner']} won after {keys} key steps")


def set_players(page: Page, light: str, dark: str) -> None:
    page.select_option('select[data-play-player="L"]', light)
    page.select_option('select[data-play-player="D"]', dark)


def test_two_people_on_one_device_with_undo(open_page: OpenPage, site: ServedSite) -> None:
    page = open_page()
    open_play(page, site, COMMON)
    set_players(page, "person", "person")
    throw = page.locator('[data-play="throw"]')
    undo = page.locator('[data-play="undo"]')
    assert undo.is_disabled()
    seen = [position_in_address(page)]
    sides = set()
    while len(seen) < 8:
        throw.click()
        options = page.locator("#ur-play [data-option]")
        if options.count():
            options.first.click()
        after = position_in_address(page)
        if after != seen[-1]:
            sides.add(seen[-1].split()[1])
            seen.append(after)
    assert sides == {"L", "D"}, "both people moved"
    events = page.locator('[data-play="log"] li').count()
    undo.click()
    assert position_in_address(page) in seen[:-1]
    assert page.locator('[data-play="log"] li').count() < events
    while not undo.is_disabled():
        undo.click()
    assert position_in_address(page) == seen[0]
    assert page.locator('[data-play="log"] li').count() == 0


def test_the_address_keeps_the_position(open_page: OpenPage, site: ServedSite) -> None:
    page = open_page()
    open_play(page, site, COMMON)
    set_players(page, "person", "person")  # no computer moves while the address is read
    throw = page.locator('[data-play="throw"]')
    start = position_in_address(page)

    def light_to_throw_anew() -> bool:
        """Light (a person on the reloaded page too) is to throw in a new position."""
        here = position_in_address(page)
        return here != start and here.endswith(" L") and throw.is_enabled()

    while not light_to_throw_anew():
        if page.locator("#ur-play [data-option]").count():
            page.locator("#ur-play [data-option]").last.click()
        elif throw.is_enabled():
            throw.click()
    shared = page.url
    position = position_in_address(page)
    board = page.evaluate(_BOARD)
    again = open_page()
    again.goto(shared)  # light is a person there too: the position waits for its throw
    again.wait_for_selector("#ur-play .play-piece")
    assert position_in_address(again) == position
    assert again.evaluate(_BOARD) == board
    assert again.locator(".play-error").is_hidden()
    query = parse_qs(urlsplit(shared).query)
    assert (query["light"], query["dark"]) == (["person"], ["person"])
    assert players_chosen(again) == ("person", "person"), "the shared players were not kept"
    print(f"shared {position!r}: {len(board['pieces'])} pieces drawn alike, the same players")


def players_chosen(page: Page) -> tuple[str, str]:
    light = page.locator('select[data-play-player="L"]').input_value()
    return light, page.locator('select[data-play-player="D"]').input_value()


def test_an_unknown_player_in_the_address_leaves_the_pages_own_choice(
    open_page: OpenPage, site: ServedSite
) -> None:
    page = open_page()
    open_play(page, site, COMMON)
    default = players_chosen(page)
    assert default == ("person", "computer")
    open_play(page, site, COMMON, "?light=robot&dark=person")
    assert players_chosen(page) == ("person", "person")


MALFORMED = (
    "nonsense",
    "0,0,0/0,0,0 L",
    "0,0,0,0,0,0,0/0,0,0,0,0,0,0 X",
    "99,0,0,0,0,0,0/0,0,0,0,0,0,0 L",
    "5,5,0,0,0,0,0/0,0,0,0,0,0,0 L",
    "15,15,15,15,15,15,15/15,15,15,15,15,15,15 L",
    "</script><b>",
    "",
)


@pytest.mark.parametrize("given", MALFORMED)
def test_a_malformed_address_shows_the_start_and_says_so(
    open_page: OpenPage, site: ServedSite, given: str
) -> None:
    page = open_page()
    data = open_play(page, site, COMMON, "?p=" + quote(given))
    error = page.locator(".play-error")
    assert error.is_visible()
    assert error.inner_text() == data["words"]["bad-address"]
    end = state(page)
    assert end["position"] == end["start"]
    hand = data["words"]["in-hand"]
    assert page.locator(".play-tray").first.inner_text().startswith(hand)
    assert page.locator("#ur-play .play-piece").count() == 0, "the start has every piece in hand"
    assert page.locator('[data-play="throw"]').is_enabled()


@pytest.mark.parametrize("path", ["play/", f"play/{COMMON}/"])
def test_no_accessibility_violation_on_the_play_pages(
    page: Page, site: ServedSite, path: str
) -> None:
    page.goto(site.address(path))
    if path != "play/":
        for _ in range(20):  # a position with pieces to choose: the controls axe must see
            page.locator('[data-play="throw"]').click()
            if page.locator("#ur-play [data-option]").count():
                break
            page.wait_for_function("() => !document.querySelector('[data-play=throw]').disabled")
    findings = [f for f in axe_findings(page) if f.in_content]
    assert not findings, "\n".join(str(f) for f in findings)


def test_every_played_rulebook_has_a_play_page_linked_from_its_rulebook(
    site: ServedSite, built_site: Path
) -> None:
    rules = sorted(p.stem for p in (built_site / "play" / "rules").glob("*.json"))
    assert rules
    index = (built_site / "play" / "index.html").read_text(encoding="utf-8")
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert 'href="play/"' in home
    for rulebook in rules:
        assert (built_site / "play" / rulebook / "index.html").is_file()
        assert f'href="{rulebook}/"' in index
        page = (built_site / "variants" / rulebook / "index.html").read_text(encoding="utf-8")
        assert f'href="../../play/{rulebook}/"' in page, f"{rulebook}'s page does not link"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_a_play_page(
    open_page: OpenPage,
    site: ServedSite,
    screenshot_folder: Path,
    request: pytest.FixtureRequest,
    size: str,
) -> None:
    page = open_page(viewport=DESKTOP if size == "desktop" else PHONE)
    position = "0,0,0,0,3,6,15/0,0,0,0,0,2,9 L"
    open_play(page, site, COMMON, "?p=" + quote(position))
    for _ in range(20):
        page.locator('[data-play="throw"]').click()
        options = page.locator("#ur-play [data-option]")
        if options.count() > 1:
            break
        if options.count() == 1:
            options.first.click()
        page.wait_for_function("() => !document.querySelector('[data-play=throw]').disabled")
    page.locator("#ur-play [data-option]").first.focus()
    fit = page.evaluate(_OVERFLOW)
    assert fit["outside"] == 0, f"{size}: wider than the screen: {fit['culprits']}"
    shot = screenshot_folder / f"play-{COMMON}-{size}.png"
    page.screenshot(path=str(shot), full_page=True)
    record_screenshot(request.config, shot)


EVENTS_EACH = 60
"""Events to watch in each rulebook: past its start, its entries and first captures."""


def test_every_played_rulebook_plays_on_its_page(
    open_page: OpenPage, site: ServedSite, built_site: Path, catalog: Catalog
) -> None:
    """The computer against itself on each page for a while (the full games above play two
    rulebooks to the end): each rulebook's own dice, entry, passes and extra throws said in
    words linked to its own rulings, with no page error."""
    page = open_page()
    rulebooks = sorted(p.stem for p in (built_site / "play" / "rules").glob("*.json"))
    log = page.locator('[data-play="log"] li')
    for rulebook in rulebooks:
        data = open_play(page, site, rulebook)
        set_players(page, "computer", "computer")
        page.wait_for_function(
            f"() => document.querySelectorAll('[data-play=log] li').length >= {EVENTS_EACH}"
        )
        set_players(page, "person", "person")
        rulings = resolved_rulings(catalog, rulebook)
        hrefs = page.eval_on_selector_all(
            '[data-play="log"] a', "(links) => links.map((a) => a.getAttribute('href'))"
        )
        assert hrefs and {h.rstrip("/").rsplit("/", 1)[-1] for h in hrefs} <= set(rulings)
        assert log.count() >= EVENTS_EACH and page.locator(".play-error").is_hidden()
        assert data["rulebook"] == rulebook
    print(f"{len(rulebooks)} rulebooks played for {EVENTS_EACH} events each")
