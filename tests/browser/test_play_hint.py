"""The perfect-play hint on the play pages, in Chromium: the script's lookup against the solver
on positions met in random games; with the hint on, the chances it says and the move it marks
against the solver's values of the Python engine's moves; no hint control where no solved game
ships; axe clean with the hint on; and screenshots of the board mid-game with the hint.

The expected values are the solver's own (:class:`generator.solver.solution.Solution`, solved
into a temporary cache), not the shipped files."""

from __future__ import annotations

import random
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import random_positions, rules_for
from playwright.sync_api import Page

from generator.engine.moves import successors, winner
from generator.engine.position import Position, format_position, parse_position
from generator.engine.rules import Side
from generator.site.local_server import ServedSite
from generator.site.statistics_page import percent
from generator.solver.solution import Solution
from generator.solver.solve import solve
from generator.solver.solve_read import FULL_GAME_TOLERANCE

from .conftest import DESKTOP, PHONE, OpenPage, record_screenshot
from .test_accessibility import axe_findings
from .test_play import COMMON, open_play

pytestmark = pytest.mark.browser

SHIPPED = "finkel-three-piece"
TIE = 1e-12
"""As ``assets/ur-hint.js``: moves whose chances differ by less are equal."""
MID_GAME = "3,5,0/2,8,0 L"
"""Pieces on the shared row and on both sides' own squares: step numbers under pieces."""


@pytest.fixture(scope="module")
def solution(tmp_path_factory: pytest.TempPathFactory) -> Solution:
    cache = tmp_path_factory.mktemp("hint-solve")
    return solve(rules_for(SHIPPED), tolerance=FULL_GAME_TOLERANCE, cache_dir=cache)


def light_chance(solution: Solution, position: Position) -> float:
    """The chance that light wins from ``position`` with perfect play."""
    mover = solution.win_probability(position)
    return mover if position.to_move is Side.LIGHT else 1 - mover


def best_moves(solution: Solution, position: Position, throw: int) -> tuple[set[str], float]:
    """The positions the perfect moves lead to, and light's chance after them."""
    rules = solution.rules
    scored = []
    for _, after in successors(rules, position, throw):
        light = light_chance(solution, after)
        scored.append((light if position.to_move is Side.LIGHT else 1 - light, light, after))
    top = max(own for own, _, _ in scored)
    best = [(light, after) for own, light, after in scored if own >= top - TIE]
    return {format_position(after) for _, after in best}, best[0][0]


def chances_said(page: Page, light: float) -> None:
    words = page.locator('[data-play="hint-text"]').inner_text()
    assert f"Light wins {percent(light)} of games" in words, words
    assert f"dark {percent(1 - light)}." in words, words


def hint_on(page: Page) -> None:
    button = page.locator('[data-play="hint"]')
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    page.wait_for_function(
        "() => /wins/.test(document.querySelector('[data-play=hint-text]').textContent)"
    )


def test_the_scripts_lookup_is_the_solvers(
    page: Page, site: ServedSite, solution: Solution
) -> None:
    rules = solution.rules
    positions = random_positions(rules, seed=3, count=1500)
    open_play(page, site, SHIPPED)
    found = page.evaluate(
        """async ([hintUrl, positions]) => {
          const { solvedGame } = await import(hintUrl);
          const data = JSON.parse(document.querySelector('#play-data').textContent);
          const g = await UrEngine.load(data.rulebook);
          const solved = await solvedGame(data.hint, g);
          return positions.map((p) => solved.lightChance(p));
        }""",
        [site.address("assets/ur-hint.js"), [format_position(p) for p in positions]],
    )
    wrong = [
        f"{format_position(p)}: script {got}, solver {light_chance(solution, p)}"
        for p, got in zip(positions, found, strict=True)
        if got != light_chance(solution, p)
    ]
    assert not wrong, f"{len(wrong)} of {len(positions)}: " + "; ".join(wrong[:5])


def test_the_hint_marks_the_perfect_move_and_says_the_chances(
    page: Page, site: ServedSite, solution: Solution
) -> None:
    rules = solution.rules
    open_play(page, site, SHIPPED)
    page.select_option('select[data-play-player="D"]', "person")
    assert page.locator('[data-play="hint-text"]').is_hidden()
    hint_on(page)
    choose = random.Random(5)
    checked = ties = 0
    for _ in range(120):
        position = parse_position(rules, page.evaluate("new URL(location).searchParams.get('p')"))
        if winner(rules, position) is not None:
            break
        chances_said(page, light_chance(solution, position))
        page.locator('[data-play="throw"]').click()
        options = page.locator("#ur-play [data-option]")
        if not options.count():
            continue
        throw = int(page.locator('[data-play="lots"] strong').inner_text())
        best, light = best_moves(solution, position, throw)
        marked = page.eval_on_selector_all(
            "#ur-play .play-best", "(nodes) => nodes.map((n) => n.dataset.after)"
        )
        assert set(marked) == best, f"{format_position(position)} threw {throw}"
        said = page.locator('[data-play="hint-text"]').inner_text()
        assert said.startswith("Equally perfect moves:" if len(best) > 1 else "Perfect move:")
        chances_said(page, light)
        checked += 1
        ties += len(best) > 1
        options.nth(choose.randrange(options.count())).click()
    assert checked >= 20
    print(f"{checked} throws with a choice checked, {ties} with equal perfect moves")


def test_pages_without_a_solved_game_have_no_hint(page: Page, site: ServedSite) -> None:
    open_play(page, site, COMMON)
    assert page.locator('[data-play="hint"]').count() == 0
    assert page.locator('[data-play="hint-text"]').count() == 0


def test_no_accessibility_violation_with_the_hint_on(page: Page, site: ServedSite) -> None:
    open_play(page, site, SHIPPED, "?p=" + quote(MID_GAME))
    page.locator('[data-play="hint"]').focus()
    page.keyboard.press("Enter")  # reachable and pressed from the keyboard
    page.wait_for_function(
        "() => /wins/.test(document.querySelector('[data-play=hint-text]').textContent)"
    )
    for _ in range(20):
        page.locator('[data-play="throw"]').click()
        if page.locator("#ur-play [data-option]").count():
            break
        page.wait_for_function("() => !document.querySelector('[data-play=throw]').disabled")
    findings = [f for f in axe_findings(page) if f.in_content]
    assert not findings, "\n".join(str(f) for f in findings)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_the_hint_mid_game(
    open_page: OpenPage,
    site: ServedSite,
    screenshot_folder: Path,
    request: pytest.FixtureRequest,
    size: str,
) -> None:
    page = open_page(viewport=DESKTOP if size == "desktop" else PHONE)
    for _ in range(20):  # a throw with a choice, from the same position
        open_play(page, site, SHIPPED, "?p=" + quote(MID_GAME))
        hint_on(page)
        page.locator('[data-play="throw"]').click()
        if page.locator("#ur-play [data-option]").count() > 1:
            break
    shot = screenshot_folder / f"play-hint-{SHIPPED}-{size}.png"
    page.screenshot(path=str(shot), full_page=True)
    record_screenshot(request.config, shot)
