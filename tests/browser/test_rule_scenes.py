"""Rules you can touch, read in Chromium: on a rulebook page each "How to play" row with a scene
shows its rule on a small board when its title is focused (keyboard), hovered (mouse) or tapped
(phone), and the page is no taller for it; the page passes axe; screenshots at both sizes for a
person to look at. Its worked examples are stepped through, board by board, with buttons or
the arrow keys, and read as a plain sequence without scripts."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from generator.site.local_server import ServedSite

from .conftest import OpenPage, record_screenshot
from .test_accessibility import CONTENT, axe_findings

pytestmark = pytest.mark.browser

RULEBOOK = "variants/royalur-finkel/"
"""RoyalUr.net's Finkel rules: every step with a scene has one (moving, capturing, a rosette,
bearing off, winning)."""
TITLES = ("Goal", "Moving", "Capturing", "Extra throws", "Bearing off")
SCENES = ".rule-scene"


def board_shown(page: Page, index: int) -> bool:
    return page.locator(SCENES).nth(index).locator(".rule-scene-board").is_visible()


def page_height(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollHeight"))


def test_each_row_shows_its_board_on_focus_and_hover_without_a_jump(
    open_page: OpenPage, site: ServedSite, screenshot_folder: Path, request: pytest.FixtureRequest
) -> None:
    page = open_page(viewport={"width": 1280, "height": 900})
    page.goto(site.address(RULEBOOK))
    scenes = page.locator(SCENES)
    titles = [scenes.nth(i).locator("strong").first.inner_text() for i in range(scenes.count())]
    assert titles == list(TITLES)
    before = page_height(page)
    assert not any(board_shown(page, i) for i in range(len(TITLES))), "hidden until asked"
    for index in range(len(TITLES)):
        scenes.nth(index).focus()
        assert board_shown(page, index), f"{titles[index]}: focus shows no board"
        box = scenes.nth(index).locator(".rule-scene-board svg").bounding_box()
        assert box and box["width"] >= 200, f"{titles[index]}: its board is {box}"
        assert page_height(page) == before, f"{titles[index]}: the page grew"
    scenes.nth(2).focus()
    shot = screenshot_folder / "rule-scene-capturing-desktop.png"
    scenes.nth(2).scroll_into_view_if_needed()
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)
    page.locator("h1").click()  # focus leaves: the board goes
    assert not board_shown(page, 2)
    page.mouse.move(0, 0)
    scenes.nth(1).hover()
    assert board_shown(page, 1), "hovering shows the board"


def test_a_tap_on_a_phone_shows_the_rows_board(
    open_page: OpenPage, site: ServedSite, screenshot_folder: Path, request: pytest.FixtureRequest
) -> None:
    phone: ViewportSize = {"width": 390, "height": 844}
    page = open_page(viewport=phone)
    page.goto(site.address(RULEBOOK))
    scene = page.locator(SCENES).nth(1)
    scene.scroll_into_view_if_needed()
    scene.click()  # a tap focuses the title, as a click does
    assert board_shown(page, 1), "a tap shows the board"
    box = scene.locator(".rule-scene-board").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= phone["width"] + 1, box
    shot = screenshot_folder / "rule-scene-moving-phone.png"
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)


def test_a_rulebook_page_with_its_scenes_passes_the_accessibility_check(
    open_page: OpenPage, site: ServedSite
) -> None:
    page = open_page()
    page.goto(site.address(RULEBOOK))
    page.wait_for_selector(CONTENT)
    page.locator(SCENES).first.focus()
    found = [f for f in axe_findings(page) if f.in_content or f.exception is None]
    assert not found, f"/{RULEBOOK}: " + "\n".join(str(f) for f in found)


def test_a_worked_example_is_stepped_through_with_buttons_and_keys(
    open_page: OpenPage, site: ServedSite, screenshot_folder: Path, request: pytest.FixtureRequest
) -> None:
    page = open_page(viewport={"width": 1280, "height": 900})
    page.goto(site.address(RULEBOOK))
    fold = page.locator("details.example-fold").first
    fold.locator(":scope > summary").click()
    figures = fold.locator(".example-boards > figure")
    steps = fold.locator(".example-steps")
    assert figures.count() == 2 and steps.count() == 1
    assert figures.nth(0).is_visible() and not figures.nth(1).is_visible()
    assert steps.inner_text().count("Step 1 of 2") == 1
    steps.get_by_role("button", name="Next").click()
    assert not figures.nth(0).is_visible() and figures.nth(1).is_visible()
    assert "Step 2 of 2" in steps.inner_text()
    steps.scroll_into_view_if_needed()
    shot = screenshot_folder / "worked-example-step-2-desktop.png"
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)
    page.keyboard.press("ArrowLeft")  # focus stayed on Next: the keys step too
    assert figures.nth(0).is_visible() and "Step 1 of 2" in steps.inner_text()
    page.keyboard.press("ArrowRight")
    assert figures.nth(1).is_visible()


def test_without_scripts_a_worked_example_is_a_plain_sequence(
    browser: Browser, site: ServedSite
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.address(RULEBOOK))
    fold = page.locator("details.example-fold").first
    fold.locator(":scope > summary").click()
    figures = fold.locator(".example-boards > figure")
    assert figures.count() == 2 and all(figures.nth(i).is_visible() for i in range(2))
    assert fold.locator(".example-steps").count() == 0
    context.close()
