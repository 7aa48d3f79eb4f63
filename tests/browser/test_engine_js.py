"""The browser engine (``assets/ur-engine.js``) plays exactly the Python engine's game, in
Chromium, for every rulebook the site plays.

For each rulebook, positions met in seeded random games of the Python engine (thousands, the
games' final positions among them) times every throw: the engine's ``moves`` must be the
Python engine's resulting positions in its order, ``winner`` its winner, and ``choose`` the
move the kernel's computer plays (the fitted agent's first best-scoring move, or greedy's).
The same for rules no rulebook uses (a voluntary pass, bearing off with a larger throw, a kept
throw without a move, named pieces), given to the engine as data. Malformed positions are
refused as the Python engine refuses them. ``throws`` are the exact odds, and random games
in the browser give the first player's share and the game length the kernel gives, within
sampling error (both computed here, on the same rulebook).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import other_answer_on_unmoved_extra_throws, rules_for, simulated, variant_ids
from playwright.sync_api import Browser, Page

from generator.engine.export import export_rules, import_rules
from generator.engine.goldens import random_game
from generator.engine.moves import successors, winner
from generator.engine.position import Position, format_position, parse_position
from generator.engine.rules import Rules
from generator.sim import fast
from generator.sim.agents import FastAgent, kernel_state
from generator.sim.encode import IntArray, encode_rules
from generator.site.local_server import ServedSite
from generator.site.play_files import RULES_FOLDER

pytestmark = pytest.mark.browser

ENGINE = "assets/ur-engine.js"
POSITIONS = 2_000
"""Distinct positions a rulebook is checked on, times each of its throws."""
CHANGED_POSITIONS = 500
SEED = 20261205
RANDOM_GAMES = 5_000
COMPUTER_GAMES = 1_000
Z_LIMIT = 4.0
"""How many standard errors the browser's figures may stray from the kernel's: beyond 4 the
chance is 1 in 16,000 a rulebook, so a failure is a difference in play, not bad luck."""
MALFORMED_PER_RULEBOOK = 400
PLAYED = [v for v in variant_ids() if simulated(v)]


def sample_positions(rules: Rules, seed: int, count: int) -> list[Position]:
    """``count`` distinct positions met before a throw in seeded random games of the Python
    engine, then every such game's final position (won: the engine must say so)."""
    rng = random.Random(seed)
    seen: dict[Position, None] = {}
    finals: dict[Position, None] = {}
    while len(seen) < count:
        last = None
        for ply in random_game(rules, rng, max_throws=5_000, must_end=False):
            seen.setdefault(ply.before, None)
            last = ply.after
            if len(seen) >= count:
                break
        if last is not None and winner(rules, last) is not None:
            finals.setdefault(last, None)
    return [*seen, *finals]


@functools.cache
def packed_rules(rules: Rules) -> IntArray:
    return encode_rules(rules).packed()


def kernel_choice(rules: Rules, weights: np.ndarray | None, position: Position, throw: int) -> int:
    """The index among the legal moves of the move the kernel's computer plays: the first
    best-scoring move of the fitted agent (with ``weights``) or of greedy (without)."""
    packed = packed_rules(rules)
    agent = FastAgent.GREEDY if weights is None else FastAgent.FITTED
    scores = np.zeros(fast.MAX_MOVES, dtype=np.float64)
    state = kernel_state(packed, position)
    used = fast.no_weights(packed) if weights is None else weights
    n = fast.score_moves(int(agent), packed, state, int(position.to_move), throw, scores, used)
    return int(np.argmax(scores[:n])) if n else 0


def load_engine(page: Page, site: ServedSite) -> None:
    """The engine imported on the home page, as a play page would: ``window.UrEngine``."""
    page.goto(site.address(""))
    page.evaluate("async (url) => { await import(url); }", site.address(ENGINE))
    assert page.evaluate("typeof window.UrEngine.load") == "function"


def engine_data(built_site: Path, rulebook: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (built_site / RULES_FOLDER / f"{rulebook}.json").read_text(encoding="utf-8")
    )
    return data


PLAY_IN_BROWSER = """([positions, throws]) => positions.map((p) => ({
  winner: game.winner(p),
  moves: throws.map((t) => game.moves(p, t)),
  chosen: throws.map((t) => game.choose(p, t)),
}))"""


def differences(page: Page, rules: Rules, weights: np.ndarray | None, count: int) -> list[str]:
    """Every case (position x throw) on which ``window.game`` and the Python engine differ;
    prints how many cases were checked."""
    positions = sample_positions(rules, SEED, count)
    throws = [t for t, _ in rules.throws]
    texts = [format_position(p) for p in positions]
    got = page.evaluate(PLAY_IN_BROWSER, [texts, throws])
    problems = []
    for position, text, answer in zip(positions, texts, got, strict=True):
        won = winner(rules, position)
        if answer["winner"] != (None if won is None else won.letter):
            problems.append(f"{text}: winner {answer['winner']}, Python {won}")
        for throw, moves, chosen in zip(throws, answer["moves"], answer["chosen"], strict=True):
            expected = [format_position(after) for _, after in successors(rules, position, throw)]
            if moves != expected:
                problems.append(f"{text} throw {throw}: moves {moves}, Python {expected}")
                continue
            alone = won is not None or len(expected) == 1
            pick = 0 if alone else kernel_choice(rules, weights, position, throw)
            if chosen != expected[pick]:
                problems.append(f"{text} throw {throw}: chose {chosen}, kernel {expected[pick]}")
    cases = len(positions) * len(throws)
    print(f"{rules.variant}: {len(positions)} positions x {len(throws)} throws = {cases} cases,")
    print(f"  {len(problems)} mismatches")
    return problems


@pytest.mark.parametrize("rulebook", PLAYED)
def test_the_browser_engine_plays_the_python_engines_game(
    rulebook: str, page: Page, site: ServedSite, built_site: Path
) -> None:
    rules = rules_for(rulebook)
    data = engine_data(built_site, rulebook)
    assert import_rules(data) == rules, "the served rules are not the rulebook's own"
    load_engine(page, site)
    page.evaluate("async (id) => { window.game = await UrEngine.load(id); }", rulebook)
    assert page.evaluate("game.throws") == [[t, float(p)] for t, p in rules.throws]
    hand = ",".join(["0"] * rules.pieces)
    assert page.evaluate("game.start()") == f"{hand}/{hand} L"
    weights = data["computer"].get("weights")
    problems = differences(page, rules, None if weights is None else np.asarray(weights), POSITIONS)
    assert problems == [], f"{len(problems)} mismatches, the first:\n" + "\n".join(problems[:10])


def changed_rules() -> list[Rules]:
    """Rules no played rulebook has: the answers the rulebooks did not give, and named pieces
    that need not finish (``simulate: false``)."""
    merit = rules_for("merit-1976")
    return [
        dataclasses.replace(merit, must_move=False, exact_bear_off=False),
        dataclasses.replace(merit, stack_defence=None, extra_throw_on_capture=True),
        dataclasses.replace(rules_for("finkel-great-book"), must_move=False),
        *other_answer_on_unmoved_extra_throws(),
        rules_for("tablet-finkel-2007-double-or-quits"),
    ]


def test_rules_no_rulebook_uses_play_alike_too(page: Page, site: ServedSite) -> None:
    load_engine(page, site)
    problems = []
    for rules in changed_rules():
        page.evaluate("(data) => { window.game = UrEngine.fromRules(data); }", export_rules(rules))
        problems += differences(page, rules, None, CHANGED_POSITIONS)
    assert problems == [], f"{len(problems)} mismatches, the first:\n" + "\n".join(problems[:10])


def malformed(rules: Rules, rng: random.Random) -> list[str]:
    """Positions written wrongly, by hand and by mutating good ones at random (some of the
    mutants are still good positions, written another way: both engines must read them)."""
    hand = ",".join(["0"] * rules.pieces)
    off = str(rules.off)
    written = [
        "",
        "L",
        "start",
        f"{hand}/{hand}",
        f"{hand}/{hand} l",
        f"{hand}/{hand} L D",
        f"{hand}/{hand}/{hand} L",
        f"{hand},0/{hand} L",
        f"{hand}/{hand[:-2]} D",
        f"-1{hand[1:]}/{hand} L",
        f"{hand[:-1]}{int(off) + 1}/{hand} L",
        f"{hand[:-1]}1_0/{hand} L",
        f"{hand[:-1]}\u0663/{hand} L",
        f"{','.join([off] * rules.pieces)}/{','.join([off] * rules.pieces)} L",
        f"  {hand}/{hand}\tD  ",
        f"{hand}/{hand}\u3000L",
        f"{hand}/{hand}\ufeffL",
        f"{hand}/{hand}\x1fL",
        f"{hand[:-1]}0000005/{hand} L",
        f"{hand[:-1]}+5/{hand} L",
        f"{hand[:-1]}5.0/{hand} L",
        f"{hand[:-1]} 5/{hand} L",
    ]
    good = [format_position(p) for p in sample_positions(rules, SEED, 50)]
    alphabet = "0123456789,/ LD-x\t"
    mutants = []
    while len(mutants) < MALFORMED_PER_RULEBOOK:
        text = list(rng.choice(good))
        at = rng.randrange(len(text) + 1)
        kind = rng.randrange(3)
        if kind == 0 and at < len(text):
            del text[at]
        elif kind == 1:
            text.insert(at, rng.choice(alphabet))
        elif at < len(text):
            text[at] = rng.choice(alphabet)
        mutants.append("".join(text))
    return written + mutants


def python_reading(rules: Rules, text: str, throw: int) -> dict[str, Any]:
    try:
        position = parse_position(rules, text)
    except ValueError as error:
        return {"error": str(error)}
    return {"moves": [format_position(after) for _, after in successors(rules, position, throw)]}


READ_IN_BROWSER = """([texts, t]) => texts.map((p) => {
  try { return { moves: game.moves(p, t) }; } catch (error) { return { error: error.message }; }
})"""


@pytest.mark.parametrize("rulebook", ["finkel-english", "merit-1976", "tablet-finkel-2007"])
def test_malformed_positions_are_refused_as_the_python_engine_refuses_them(
    rulebook: str, page: Page, site: ServedSite
) -> None:
    """Each position either both engines read (and give the same moves) or both refuse; the
    message is the Python engine's wherever it shows the input as typed (Python quotes it as
    ``repr`` does, escaping tabs and quotes, which the browser's message does not copy)."""
    rules = rules_for(rulebook)
    texts = malformed(rules, random.Random(f"{SEED} {rulebook}"))
    throw = max(t for t, _ in rules.throws)
    load_engine(page, site)
    page.evaluate("async (id) => { window.game = await UrEngine.load(id); }", rulebook)
    got = page.evaluate(READ_IN_BROWSER, [texts, throw])
    problems = []
    refused = 0
    for text, answer in zip(texts, got, strict=True):
        expected = python_reading(rules, text, throw)
        refused += "error" in expected
        if set(answer) != set(expected) or ("moves" in expected and answer != expected):
            problems.append(f"{text!r}: browser {answer}, Python {expected}")
        elif "error" in expected and answer != expected and repr(text) == f"'{text}'":
            problems.append(f"{text!r}: browser says {answer['error']!r}, Python {expected}")
    print(f"{rulebook}: {len(texts)} positions written wrongly or oddly, {refused} refused")
    assert refused > len(texts) // 2
    assert problems == [], "\n".join(problems[:10])


def test_bad_requests_to_the_engine_are_clear_errors(page: Page, site: ServedSite) -> None:
    load_engine(page, site)
    page.evaluate("async () => { window.game = await UrEngine.load('finkel-english'); }")
    messages = page.evaluate(
        """() => [
          () => game.moves('0,0/0,0 L', 2),
          () => game.moves(game.start(), 2.5),
          () => game.moves(42, 2),
          () => game.simulate(0, 1, 'random', 'random'),
          () => game.simulate(10, 1, 'random', 'perfect'),
          () => UrEngine.fromRules({ format: 99 }),
        ].map((call) => { try { call(); return null; } catch (error) { return error.message; } })"""
    )
    assert all(messages), messages
    refused = page.evaluate(
        "async () => { try { await UrEngine.load('../x'); } catch (e) { return e.message; } }"
    )
    assert "no rulebook is called" in refused


def test_a_rulebook_the_site_does_not_play_is_not_found(browser: Browser, site: ServedSite) -> None:
    """Unguarded: the missing file's 404 is the point."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(site.address(""))
        message = page.evaluate(
            """async (url) => {
              const { UrEngine } = await import(url);
              try { await UrEngine.load('no-such-rulebook'); } catch (e) { return e.message; }
            }""",
            site.address(ENGINE),
        )
    finally:
        context.close()
    assert "no rules for the rulebook 'no-such-rulebook'" in message


def z_score(a: float, b: float, error: float) -> float:
    return 0.0 if a == b else abs(a - b) / error if error > 0 else math.inf


def shares_differ(wins_a: int, games_a: int, wins_b: int, games_b: int) -> float:
    """How many standard errors apart two shares are (pooled two-proportion test)."""
    pooled = (wins_a + wins_b) / (games_a + games_b)
    error = math.sqrt(pooled * (1 - pooled) * (1 / games_a + 1 / games_b))
    return z_score(wins_a / games_a, wins_b / games_b, error)


def games_apart(
    page: Page, rules: Rules, first: str, agent: FastAgent, games: int, weights: np.ndarray
) -> tuple[float, float]:
    """``games`` games of the browser's ``game`` and of the kernel, ``first`` (the kernel's
    ``agent``) against random: how many standard errors apart their first player's shares
    and their mean numbers of throws are."""
    packed = packed_rules(rules)
    table = fast.play_games(packed, int(agent), fast.RANDOM, SEED, 0, games, weights=weights)
    kernel_wins = int((table[:, fast.WINNER] == 0).sum())
    kernel_throws = table[:, fast.THROWS].astype(float)
    browser = page.evaluate(
        "([n, seed, first]) => game.simulate(n, seed, first, 'random')", [games, SEED, first]
    )
    assert browser["games"] == games
    share_z = shares_differ(browser["firstWins"], games, kernel_wins, games)
    length_error = kernel_throws.std() * math.sqrt(2 / games)
    length_z = z_score(browser["meanThrows"], kernel_throws.mean(), length_error)
    print(
        f"{rules.variant} {first} v random, {games} games: first player's share browser"
        f" {browser['firstWins'] / games:.4f}, kernel {kernel_wins / games:.4f}"
        f" (z {share_z:.2f}); throws {browser['meanThrows']:.1f} v"
        f" {kernel_throws.mean():.1f} (z {length_z:.2f}); {browser['seconds']:.2f} s"
    )
    return share_z, length_z


@pytest.mark.parametrize("rulebook", PLAYED)
def test_browser_games_match_the_kernels_within_sampling_error(
    rulebook: str, page: Page, site: ServedSite, built_site: Path
) -> None:
    """Random against random, and the computer (first) against random: the first player's
    share and the mean number of throws, browser against kernel, same rulebook."""
    rules = rules_for(rulebook)
    weights = engine_data(built_site, rulebook)["computer"].get("weights")
    load_engine(page, site)
    page.evaluate("async (id) => { window.game = await UrEngine.load(id); }", rulebook)
    computer = FastAgent.FITTED if weights is not None else FastAgent.GREEDY
    used = np.asarray(weights) if weights is not None else fast.no_weights(packed_rules(rules))
    for first, agent, games in (
        ("random", FastAgent.RANDOM, RANDOM_GAMES),
        ("computer", computer, COMPUTER_GAMES),
    ):
        assert max(games_apart(page, rules, first, agent, games, used)) <= Z_LIMIT


def test_random_games_under_rules_no_rulebook_uses_match_the_kernels(
    page: Page, site: ServedSite
) -> None:
    """Random games (the engine's own loop for them) where a player may pass, a larger throw
    bears off, or a throw is kept without a move: as the kernel's, within sampling error."""
    load_engine(page, site)
    for rules in (r for r in changed_rules() if simulated(r.variant)):
        page.evaluate("(data) => { window.game = UrEngine.fromRules(data); }", export_rules(rules))
        weights = fast.no_weights(packed_rules(rules))
        apart = games_apart(page, rules, "random", FastAgent.RANDOM, RANDOM_GAMES, weights)
        assert max(apart) <= Z_LIMIT, f"{rules.variant}, changed: {apart} standard errors apart"
