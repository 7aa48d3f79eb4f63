"""The browser engine measured in headless Chromium, for ``ur-variants bench --browser``: its
random games a second against the native kernel's on one core, its first player's share beside
the kernel's (the same game: the shares agree within sampling error), the computer's think
time per move, and with ``--computer GAMES`` the computer's score against random in every
played rulebook beside the site's strongest agent's committed score there.

The engine (``generator/site/assets/ur-engine.js``) and the rules files are written as the
build writes them into a temporary folder, served on loopback and driven by Playwright. The
rates are given per wall-clock second and per processor second (the page's main thread's, as
Chromium's DevTools protocol counts it, against the kernel process's): on a loaded machine the
wall-clock ratio follows how the scheduler shares the cores between two processes, so the
processor-time ratio is the one to compare.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import astuple, dataclass
from pathlib import Path
from statistics import median
from typing import Any

from generator.commands._lines import line
from generator.engine.rules import Rules
from generator.files import write_text
from generator.measure.play_rules import played
from generator.sim import fast
from generator.sim.encode import encode_rules
from generator.sim.stats import wilson
from generator.site.local_server import CHROMIUM_ARGS, find_chromium, serve
from generator.site.play_files import RULES_FOLDER, rules_file

ENGINE = Path(__file__).resolve().parent.parent / "site" / "assets" / "ur-engine.js"
REPEATS = 20
"""Each timed move is chosen this many times and the time divided: Chromium's clock reads in
steps of 0.1 ms on a page that is not cross-origin isolated, longer than most moves take."""
THINK_MOVES = 2000
ROUNDS = 4
PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head>'

WARM_UP = """async ([url, id, seed]) => {
  const { UrEngine } = await import(url);
  const game = await UrEngine.load(id);
  // the engine is compiled in tiers, the last after thousands of games
  for (let warm = 0; warm < 1; ) warm += game.simulate(2000, seed + 1, "random", "random").seconds;
}"""

BROWSER_GAMES = """async ([url, id, seed, seconds]) => {
  const { UrEngine } = await import(url);
  const game = await UrEngine.load(id);
  let games = 0, wins = 0, throws = 0, spent = 0;
  const batch = 2000;
  while (spent < seconds) {
    const run = game.simulate(batch, seed + games, "random", "random");
    games += batch; wins += run.firstWins; throws += run.meanThrows * batch; spent += run.seconds;
  }
  return { games, wins, throws, seconds: spent };
}"""

THINK_TIMES = """async ([url, id, moves, repeats]) => {
  const { UrEngine } = await import(url);
  const game = await UrEngine.load(id);
  let state = 7;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
  const draw = () => {
    let u = random(), k = 0;
    while (k < game.throws.length - 1 && u >= game.throws[k][1]) u -= game.throws[k++][1];
    return game.throws[k][0];
  };
  const times = [];
  let position = game.start();
  while (times.length < moves) {
    if (game.winner(position) !== null) position = game.start();
    const t = draw();
    const began = performance.now();
    for (let r = 0; r < repeats; r++) game.choose(position, t);
    times.push((performance.now() - began) / repeats);
    const after = game.moves(position, t);
    position = after[Math.floor(random() * after.length)];
  }
  return times;
}"""

COMPUTER_SCORE = """async ([url, id, games, seed]) => {
  const { UrEngine } = await import(url);
  const game = await UrEngine.load(id);
  const first = game.simulate(games, seed, "computer", "random");
  const second = game.simulate(games, seed + games, "random", "computer");
  return { first: first.firstWins, second: games - second.firstWins, games };
}"""


@dataclass(frozen=True)
class Share:
    """Wins out of games."""

    wins: int
    games: int

    @property
    def estimate(self) -> float:
        return self.wins / self.games


@contextmanager
def engine_page(rules: dict[str, Rules]) -> Iterator[tuple[Any, str]]:
    """A Chromium page on a loopback site holding the engine and ``rules``' files, and the
    engine module's address."""
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError("chromium is not installed: run `bash scripts/install-chromium.sh`")
    with tempfile.TemporaryDirectory(prefix="ur-bench-") as temporary:
        folder = Path(temporary)
        (folder / "assets").mkdir()
        shutil.copy(ENGINE, folder / "assets" / ENGINE.name)
        (folder / RULES_FOLDER).mkdir(parents=True)
        for rulebook, compiled in rules.items():
            write_text(folder / RULES_FOLDER / f"{rulebook}.json", rules_file(played(compiled)))
        write_text(folder / "index.html", PAGE)
        with serve(folder) as site, sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=chromium, headless=True, args=CHROMIUM_ARGS
            )
            page = browser.new_page()
            page.goto(site.address(""))
            try:
                yield page, site.address("assets/ur-engine.js")
            finally:
                browser.close()


@dataclass(frozen=True)
class Run:
    """Random games timed: how many, the first player's wins, the throws, and the wall-clock
    and processor seconds they took."""

    games: int
    wins: int
    throws: float
    seconds: float
    processor: float

    def __add__(self, other: Run) -> Run:
        return Run(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


def alternating_runs(
    page: Any, url: str, rulebook: str, packed: Any, seed: int, seconds: float
) -> tuple[Run, Run]:
    """The browser engine's random games and the kernel's, about ``seconds`` each, timed in
    ROUNDS alternating rounds and summed, so that a change in the machine's load falls on
    both alike; each after untimed games that compile it."""
    page.evaluate(WARM_UP, [url, rulebook, seed])
    fast.play_games(packed, fast.RANDOM, fast.RANDOM, seed, 0, 10)
    browser = kernel = Run(0, 0, 0.0, 0.0, 0.0)
    for _ in range(ROUNDS):
        part = seconds / ROUNDS
        browser += browser_random_games(page, url, rulebook, seed + browser.games, part)
        kernel += kernel_random_games(packed, seed, kernel.games, part)
    return browser, kernel


def browser_random_games(page: Any, url: str, rulebook: str, seed: int, seconds: float) -> Run:
    """Random-against-random games the browser engine plays in about ``seconds``. Processor
    time is the page's main thread's, as Chromium counts it (the DevTools protocol's
    ``ThreadTime``)."""
    session = page.context.new_cdp_session(page)
    session.send("Performance.enable", {"timeDomain": "threadTicks"})
    before = thread_time(session)
    run = page.evaluate(BROWSER_GAMES, [url, rulebook, seed, seconds])
    processor = thread_time(session) - before
    session.detach()
    return Run(run["games"], run["wins"], run["throws"], run["seconds"], processor)


def thread_time(session: Any) -> float:
    """The processor seconds the page's main thread has run."""
    metrics = session.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "ThreadTime"))


def kernel_random_games(packed: Any, seed: int, first: int, seconds: float) -> Run:
    """Random-against-random games the kernel plays in about ``seconds``, from game number
    ``first`` of ``seed``."""
    games = wins = 0
    throws = elapsed = processor = 0.0
    batch = 20_000
    while elapsed < seconds:
        began, began_processor = time.perf_counter(), time.process_time()
        table = fast.play_games(packed, fast.RANDOM, fast.RANDOM, seed, first + games, batch)
        elapsed += time.perf_counter() - began
        processor += time.process_time() - began_processor
        games += batch
        wins += int((table[:, fast.WINNER] == 0).sum())
        throws += float(table[:, fast.THROWS].sum())
    return Run(games, wins, throws, elapsed, processor)


def speed_lines(
    page: Any, url: str, rulebook: str, rules: Rules, seed: int, seconds: float
) -> float:
    """Games a second in the browser and the kernel, per wall-clock and per processor
    second, their first player's shares and game lengths, and the computer's think time; the
    ratio of the two rates per processor second."""
    packed = encode_rules(rules).packed()
    browser, kernel = alternating_runs(page, url, rulebook, packed, seed, seconds)
    times = sorted(page.evaluate(THINK_TIMES, [url, rulebook, THINK_MOVES, REPEATS]))
    rates = [run.games / run.seconds for run in (browser, kernel)]
    processor_rates = [run.games / run.processor for run in (browser, kernel)]
    ratio = processor_rates[0] / processor_rates[1]
    in_browser, in_kernel = Share(browser.wins, browser.games), Share(kernel.wins, kernel.games)
    line(f"browser engine {rulebook} random-vs-random games per second", rates[0], "games/s")
    line(f"kernel {rulebook} random-vs-random games per second (one core)", rates[1], "games/s")
    line(f"ratio browser engine / kernel (wall clock), {rulebook}", rates[0] / rates[1], "x")
    line("browser engine games per processor-second", processor_rates[0], "games/s")
    line("kernel games per processor-second", processor_rates[1], "games/s")
    line(f"ratio browser engine / kernel (processor time), {rulebook}", ratio, "x")
    line("browser engine first player's share", 100 * in_browser.estimate, "%")
    line("kernel first player's share", 100 * in_kernel.estimate, "%")
    line("difference of the shares in standard errors", difference_z(in_browser, in_kernel), "")
    line("browser engine throws per game", browser.throws / browser.games, "throws")
    line("kernel throws per game", kernel.throws / kernel.games, "throws")
    line("browser computer think time per move, median", times[len(times) // 2], "ms")
    line("browser computer think time per move, worst", times[-1], "ms")
    line("browser computer moves timed", len(times), "moves")
    return ratio


def difference_z(a: Share, b: Share) -> float:
    """How many standard errors apart two shares are (two-proportion z)."""
    pooled = (a.wins + b.wins) / (a.games + b.games)
    error = math.sqrt(pooled * (1 - pooled) * (1 / a.games + 1 / b.games))
    return (a.estimate - b.estimate) / error if error else 0.0


def computer_lines(page: Any, url: str, rules: dict[str, Rules], games: int, seed: int) -> None:
    """Per rulebook, the browser computer's score against random over both seats, beside the
    site's strongest agent's committed score there (``results/agents-vs-random.json``)."""
    from generator.solver import agent_check

    committed = agent_check.read_results()
    for rulebook in rules:
        score = page.evaluate(COMPUTER_SCORE, [url, rulebook, games, seed])
        share = Share(score["first"] + score["second"], 2 * score["games"])
        interval = wilson(share.wins, share.games)
        best = strongest(committed, rulebook)
        line(f"browser computer against random, {rulebook}", 100 * share.estimate, "%")
        line(f"  95 % interval from, {rulebook}", 100 * interval["low"], "%")
        line(f"  95 % interval to, {rulebook}", 100 * interval["high"], "%")
        if best is not None:
            agent, estimate = best
            line(f"  site's strongest agent ({agent}), committed, {rulebook}", 100 * estimate, "%")
            line(
                f"  computer minus that agent, {rulebook}",
                100 * (share.estimate - estimate),
                "points",
            )


def strongest(committed: dict[str, Any] | None, rulebook: str) -> tuple[str, float] | None:
    """The agent with the best committed score against random among those the site uses on
    ``rulebook``, and that score."""
    from generator.solver import agent_check

    qualified = agent_check.qualified_agents(committed, rulebook)
    if committed is None or not qualified:
        return None
    scores = committed["scores"][rulebook]
    agent = max(qualified, key=lambda a: scores[a]["estimate"])
    return agent, float(scores[agent]["estimate"])


def browser_lines(
    rules: dict[str, Rules], timed: list[str], seed: int, seconds: float, computer_games: int
) -> None:
    """The browser section of ``ur-variants bench``, its speed figures for each rulebook in
    ``timed``; skipped with a line saying why where Playwright or Chromium is missing."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("browser engine: playwright is not installed (make setup-test); skipped")
        return
    if find_chromium() is None:
        print("browser engine: chromium is not installed (scripts/install-chromium.sh); skipped")
        return
    wanted = rules if computer_games else {rulebook: rules[rulebook] for rulebook in timed}
    with engine_page(wanted) as (page, url):
        ratios = [speed_lines(page, url, r, rules[r], seed, seconds) for r in timed]
        if len(ratios) > 1:
            ratio = "ratio browser engine / kernel (processor time)"
            line(f"{ratio}, lowest of {len(ratios)} rulebooks", min(ratios), "x")
            line(f"{ratio}, median of {len(ratios)} rulebooks", median(ratios), "x")
        if computer_games:
            computer_lines(page, url, rules, computer_games, seed)
