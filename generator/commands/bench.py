"""Measure the simulator's speed against the readable engine and royalur; one figure a line.

Each line reads ``name: value unit``. Rates are given per wall-clock second, in one process
(one core), and per processor-second, which moves less with the machine's load; the ratios use
processor time, so all engines are compared on equal terms.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from generator.commands._lines import line
from generator.commands._options import MAX_SEED, positive_number, whole_number

ORDER = 8


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seconds",
        type=positive_number(3600),
        default=5.0,
        help="rough time per figure (default 5, at most 3600)",
    )
    parser.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=None, help="seed (default 20261130)"
    )
    parser.add_argument(
        "--browser",
        action="store_true",
        help="add the browser engine's figures, measured in headless Chromium"
        " (generator.commands._bench_browser.py)",
    )
    parser.add_argument(
        "--speed",
        nargs="+",
        default=[],
        metavar="RULEBOOK",
        help="with --browser: time random games in these played rulebooks ('all': every one),"
        " each against the kernel, instead of Finkel's rules alone",
    )
    parser.add_argument(
        "--computer",
        type=whole_number(0, 10**7),
        default=0,
        metavar="GAMES",
        help="with --browser: the computer against random in every played rulebook, GAMES a"
        " seat, beside the site's strongest agent's committed score",
    )


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from generator.commands._catalog import load_or_report
    from generator.engine.rules import compile_rules
    from generator.sim import fast
    from generator.sim.encode import encode_rules
    from generator.sim.records import DEFAULT_SEED
    from generator.sim.suite import simulated_variants
    from generator.solver.published import finkel_variant

    seed = DEFAULT_SEED if args.seed is None else args.seed
    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    variant = finkel_variant(catalog)
    if variant is None:
        print("no variant plays Finkel's rules; nothing to benchmark", file=sys.stderr)
        return 1
    timed = speed_rulebooks(args.speed, variant, [v.id for v in simulated_variants(catalog)])
    if isinstance(timed, str) or (args.speed and not args.browser):
        print(
            timed if isinstance(timed, str) else "--speed times the browser engine: add --browser",
            file=sys.stderr,
        )
        return 2
    rules = compile_rules(catalog.resolve(variant))
    packed = encode_rules(rules).packed()
    print(f"variant: {variant} (Finkel's rules), seed {seed}")
    line("machine load average (1 min, 2 cores free means below 1)", os.getloadavg()[0], "")

    began = time.perf_counter()
    fast.play_games(packed, fast.RANDOM, fast.RANDOM, seed, 0, 10)
    line("kernel load or compile time", time.perf_counter() - began, "s")
    games, elapsed, cpu, moves = 0, 0.0, 0.0, 0
    batch = 20_000
    while elapsed < args.seconds:
        began, began_cpu = time.perf_counter(), time.process_time()
        table = fast.play_games(packed, fast.RANDOM, fast.RANDOM, seed, games, batch)
        elapsed += time.perf_counter() - began
        cpu += time.process_time() - began_cpu
        games += batch
        moves += int(table[:, fast.MOVES].sum())
    kernel_rate = games / elapsed
    line("fast kernel finkel random-vs-random games per second (one core)", kernel_rate, "games/s")
    line("fast kernel finkel moves per second (one core)", moves / elapsed, "moves/s")
    line(
        "fast kernel finkel games per processor-second (less load-dependent)",
        games / cpu,
        "games/s",
    )
    line("fast kernel finkel throws per game", float(np.mean(table[:, fast.THROWS])), "throws")

    kernel_cpu_rate = games / cpu
    python_rate, python_cpu_rate = reference_engine_rate(rules, seed, args.seconds)
    line("reference python engine finkel games per second", python_rate, "games/s")
    line("reference python engine finkel games per processor-second", python_cpu_rate, "games/s")
    line(
        "ratio fast kernel / reference engine (processor time)",
        kernel_cpu_rate / python_cpu_rate,
        "x",
    )

    royalur_rates = royalur_finkel_rate(seed, args.seconds)
    if royalur_rates is None:
        print("royalur: not installed (pip install royalur==0.0.6); skipped")
    else:
        line("royalur 0.0.6 finkel random games per second", royalur_rates[0], "games/s")
        line("royalur 0.0.6 finkel games per processor-second", royalur_rates[1], "games/s")
        line(
            "ratio fast kernel / royalur (processor time)", kernel_cpu_rate / royalur_rates[1], "x"
        )
    solve_time(rules)
    if args.browser:
        from generator.commands._bench_browser import browser_lines

        played = {v.id: compile_rules(v) for v in simulated_variants(catalog)}
        browser_lines(played, timed, seed, args.seconds, args.computer)
    return 0


def speed_rulebooks(wanted: list[str], finkel: str, played: list[str]) -> list[str] | str:
    """The rulebooks whose browser speed ``--speed`` asks for (Finkel's rules when it names
    none), or a message naming those that are not played."""
    if not wanted:
        return [finkel]
    if wanted == ["all"]:
        return played
    unknown = [rulebook for rulebook in wanted if rulebook not in played]
    if unknown:
        return f"--speed: not a played rulebook: {', '.join(unknown)}; played: {', '.join(played)}"
    return list(dict.fromkeys(wanted))


def reference_engine_rate(rules: object, seed: int, seconds: float) -> tuple[float, float]:
    """Random-vs-random games a second on the readable engine (uniform choice in Python)."""
    from generator.engine.rules import Rules
    from generator.sim.agents import UniformRandom
    from generator.sim.runner import play_python_game

    assert isinstance(rules, Rules)
    agents = (UniformRandom(), UniformRandom())
    games, began, began_cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds:
        play_python_game(rules, agents, seed, games)
        games += 1
    return games / (time.perf_counter() - began), games / (time.process_time() - began_cpu)


def royalur_finkel_rate(seed: int, seconds: float) -> tuple[float, float] | None:
    """Random games a second with royalur 0.0.6's Finkel preset, dice thrown from our own
    seeded generator (royalur's dice use the global ``random`` module)."""
    try:
        from royalur import Game
    except ImportError:
        return None
    import numpy as np

    rng = np.random.default_rng(seed)
    throws = np.array([0, 1, 2, 3, 4])
    weights = np.array([1, 4, 6, 4, 1]) / 16
    games, began, began_cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds:
        game = Game.create_finkel()
        while not game.is_finished():
            if game.is_waiting_for_roll():
                game.roll_dice(int(rng.choice(throws, p=weights)))
            else:
                moves = game.find_available_moves()
                game.make_move(moves[int(rng.integers(len(moves)))])
        games += 1
    return games / (time.perf_counter() - began), games / (time.process_time() - began_cpu)


def solve_time(rules: object) -> None:
    from generator.engine.rules import Rules

    assert isinstance(rules, Rules)
    try:
        from generator.solver import solve, solve_estimate
    except ImportError:
        print("exact solve: generator.solver.solve is not available; skipped")
        return
    three = solve.with_pieces(rules, 3)
    solve.warm_up(three)
    solution = solve.solve(three, cache_dir=None)
    line("exact solve finkel 3 pieces a side (wall, compiled)", solution.seconds, "s")
    line("exact solve finkel 3 pieces positions", float(solution.states), "positions")
    line("exact solve finkel 3 pieces first player wins", 100 * solution.start_value, "%")
    line(
        "exact solve finkel 3 pieces positions per second (wall)",
        solution.states / solution.seconds,
        "positions/s",
    )
    line(
        "exact solve finkel 3 pieces positions per processor second",
        solution.states / solution.cpu_seconds,
        "positions/s",
    )
    line(
        "exact solve finkel 3 pieces solver bytes per position (peak arrays, all in memory)",
        (solution.memory_bytes - solve_estimate.PROCESS_BYTES) / solution.states,
        "bytes",
    )
    seven = solve_estimate.estimate(rules)
    line(
        f"exact solve finkel {rules.pieces} pieces estimated memory"
        " (checkpointed, with the process)",
        seven.memory_bytes / 2**30,
        "GiB",
    )
    line(
        f"exact solve finkel {rules.pieces} pieces estimated bytes per position"
        " (checkpointed arrays)",
        (seven.memory_bytes - solve_estimate.PROCESS_BYTES) / seven.states,
        "bytes",
    )
