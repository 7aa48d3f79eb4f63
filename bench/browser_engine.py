"""The browser engine's speed against the native kernel's, measured in one run, one core each.

Usage (from the repository root, after ``make setup-test``; Chromium from
``scripts/install-chromium.sh``):

    .venv/bin/python bench/browser_engine.py [--rulebook ID] [--seconds S] [--seed N]

Writes the engine (``generator/site/assets/ur-engine.js``) and the rulebook's rules file, as
the build writes them, into a temporary folder, serves it on loopback and plays random
against random in headless Chromium (``UrEngine.simulate``, one thread) for about S seconds;
then the numba kernel plays the same rulebook, random against random, in this process for
about as long. Also the computer's think time per move in the browser, over positions met in
random play (each move chosen :data:`REPEATS` times, the time divided). One figure a line,
``name: value unit``; the rates are per wall-clock second (the browser gives no processor
time), so run it on an idle machine; the load average is printed first.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from generator.engine.rules import compile_rules
from generator.measure.play_rules import played as played_rulebook
from generator.model.catalog import load_catalog
from generator.sim import fast
from generator.sim.encode import encode_rules
from generator.site.local_server import CHROMIUM_ARGS, find_chromium, serve
from generator.site.play_files import RULES_FOLDER, rules_file

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "generator" / "site" / "assets" / "ur-engine.js"
REPEATS = 20
"""Each timed move is chosen this many times and the time divided: Chromium's clock reads in
steps of 0.1 ms on a page that is not cross-origin isolated, longer than most moves take."""
PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head>'

BROWSER_GAMES = """async ([url, id, seed, seconds]) => {
  const { UrEngine } = await import(url);
  const game = await UrEngine.load(id);
  game.simulate(500, seed + 1, "random", "random");  // compiled before it is timed
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


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="The browser engine's speed against the kernel's.")
    parser.add_argument("--rulebook", default="finkel-english", help="a rulebook the site plays")
    parser.add_argument("--seconds", type=float, default=5.0, help="rough time per engine")
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--moves", type=int, default=2000, help="computer moves timed")
    return parser.parse_args()


def line(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:,.{0 if value >= 100 else 3}f} {unit}", flush=True)


def browser_figures(folder: Path, args: argparse.Namespace) -> tuple[dict[str, Any], list[float]]:
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("chromium is not installed: run `bash scripts/install-chromium.sh`")
    with serve(folder) as site, sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=chromium, headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_page()
        page.goto(site.address(""))
        url = site.address("assets/ur-engine.js")
        played = page.evaluate(BROWSER_GAMES, [url, args.rulebook, args.seed, args.seconds])
        times = page.evaluate(THINK_TIMES, [url, args.rulebook, args.moves, REPEATS])
        browser.close()
    return played, times


def kernel_figures(args: argparse.Namespace, packed: Any) -> tuple[int, int, float, float]:
    fast.play_games(packed, fast.RANDOM, fast.RANDOM, args.seed, 0, 10)  # compiled, not timed
    games = wins = 0
    elapsed = cpu = 0.0
    batch = 20_000
    while elapsed < args.seconds:
        began, began_cpu = time.perf_counter(), time.process_time()
        table = fast.play_games(packed, fast.RANDOM, fast.RANDOM, args.seed, games, batch)
        elapsed += time.perf_counter() - began
        cpu += time.process_time() - began_cpu
        games += batch
        wins += int((table[:, fast.WINNER] == 0).sum())
    return games, wins, elapsed, cpu


def main() -> int:
    args = arguments()
    catalog, problems = load_catalog(ROOT / "variants")
    if problems or args.rulebook not in catalog.variants:
        raise SystemExit(f"no rulebook {args.rulebook!r} to play (or variants/ has problems)")
    rules = compile_rules(catalog.resolve(args.rulebook))
    print(f"rulebook: {args.rulebook}, seed {args.seed}, about {args.seconds:g} s an engine")
    line("machine load average (1 min, 2 cores free means below 1)", os.getloadavg()[0], "")
    with tempfile.TemporaryDirectory(prefix="ur-bench-") as temporary:
        folder = Path(temporary)
        (folder / "assets").mkdir()
        shutil.copy(ENGINE, folder / "assets" / ENGINE.name)
        (folder / RULES_FOLDER).mkdir(parents=True)
        (folder / RULES_FOLDER / f"{args.rulebook}.json").write_text(
            rules_file(played_rulebook(rules))
        )
        (folder / "index.html").write_text(PAGE)
        played, times = browser_figures(folder, args)
    games, wins, elapsed, cpu = kernel_figures(args, encode_rules(rules).packed())
    browser_rate = played["games"] / played["seconds"]
    kernel_rate = games / elapsed
    line("browser random-vs-random games per second (one thread)", browser_rate, "games/s")
    line("kernel random-vs-random games per second (one core)", kernel_rate, "games/s")
    line("kernel games per processor-second (less load-dependent)", games / cpu, "games/s")
    line("browser over kernel (wall clock)", browser_rate / kernel_rate, "")
    line("browser first player's share", played["wins"] / played["games"], "")
    line("kernel first player's share", wins / games, "")
    line("browser throws per game", played["throws"] / played["games"], "throws")
    ordered = sorted(times)
    line("computer think time, median", ordered[len(ordered) // 2], "ms")
    line("computer think time, mean", sum(ordered) / len(ordered), "ms")
    line("computer think time, worst", ordered[-1], "ms")
    line("computer moves timed", len(ordered), "moves")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
