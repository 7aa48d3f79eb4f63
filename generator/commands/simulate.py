"""Simulate games of one or more variants between two agents and print the statistics.

Results are cached under .cache/sim/ (keyed by the rules, engine version, agents, games and
seed), so rerunning the same command costs nothing. Every figure has a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from generator.commands._options import (
    MAX_GAMES,
    MAX_JOBS,
    MAX_SEED,
    add_set_argument,
    whole_number,
)

ORDER = 5

DEFAULT_GAMES = 40_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variants", nargs="+", metavar="VARIANT", help="variant ids")
    parser.add_argument(
        "--games",
        type=whole_number(1, MAX_GAMES),
        default=DEFAULT_GAMES,
        help=f"games per variant ({DEFAULT_GAMES}; at most {MAX_GAMES:,})",
    )
    parser.add_argument(
        "--agents",
        default="random,random",
        help="FIRST,SECOND: the agent moving first and second (default random,random); agents:"
        " random, first, last, capture, extra-throw, rearmost, safe, bear-off, greedy, fitted,"
        " expectimax-1, expectimax-2, perfect",
    )
    parser.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=None, help="seed (default 20261130)"
    )
    parser.add_argument(
        "--jobs",
        type=whole_number(1, MAX_JOBS),
        default=None,
        help="worker processes (default: cores)",
    )
    add_set_argument(parser, "play")
    parser.add_argument("--no-cache", action="store_true", help="simulate even if cached")
    parser.add_argument("--json", action="store_true", help="print the records as JSON")


def run(args: argparse.Namespace) -> int:
    import os

    import generator.solver  # noqa: F401  (hands the perfect and fitted agents what they play from)
    from generator.commands._catalog import (
        changed_variant,
        load_named,
        parse_changes,
    )
    from generator.sim.agents import NoSolution, UnknownAgent, check_agent_name, exact_solution
    from generator.sim.records import DEFAULT_SEED, RecordSpec, simulate

    seed = DEFAULT_SEED if args.seed is None else args.seed
    jobs = args.jobs or os.cpu_count() or 1
    try:
        agents = tuple(check_agent_name(a.strip()) for a in args.agents.split(","))
    except UnknownAgent as error:
        print(error, file=sys.stderr)
        return 2
    if len(agents) != 2:
        print("--agents takes two agents separated by a comma, e.g. greedy,random", file=sys.stderr)
        return 2
    catalog = load_named(args.root, args.variants)
    if isinstance(catalog, int):
        return catalog
    changes = parse_changes(args.set)
    if isinstance(changes, str):
        print(changes, file=sys.stderr)
        return 2
    specs = []
    for variant_id in args.variants:
        variant = changed_variant(catalog, variant_id, changes)
        if isinstance(variant, str):
            print(variant, file=sys.stderr)
            return 2
        specs.append(RecordSpec(variant, (agents[0], agents[1]), args.games, seed, tuple(changes)))
    if "perfect" in agents:
        for spec in specs:
            try:
                exact_solution(spec.rules())  # solved (or loaded) once, before any worker
            except NoSolution as error:
                print(f"{spec.variant.id}: {error}", file=sys.stderr)
                return 2
    records = simulate(
        specs,
        cache_dir=args.root / ".cache" / "sim",
        jobs=jobs,
        progress=True,
        use_cache=not args.no_cache,
    )
    if args.json:
        print(json.dumps(records, indent=1))
        return 0
    for record in records:
        print_record(record)
    command = ["ur-variants", "simulate", *args.variants, "--games", str(args.games)]
    command += ["--agents", ",".join(agents), "--seed", str(seed)]
    for text in args.set:
        command += ["--set", text]
    print(f"seed {seed}; reproduce with: {shlex.join(command)}")
    return 0


def _interval(figure: dict[str, Any], key: str = "mean", scale: float = 1.0) -> str:
    value, low, high = figure[key] * scale, figure["low"] * scale, figure["high"] * scale
    return f"{value:.2f} ({low:.2f} to {high:.2f})"


def print_record(record: dict[str, Any]) -> None:
    results = record["results"]
    first, second = record["agents"]
    changed = ", ".join(f"{c['question']}={json.dumps(c['value'])}" for c in record["changes"])
    title = record["variant"] + (f" with {changed}" if changed else "")
    print(f"{title}: {first} (first) vs {second}, {record['games']:,} games, seed {record['seed']}")
    rate = results["first_player_win_rate"]
    rows = [
        ("first player wins %", _interval(rate, "estimate", 100.0)),
        ("throws per game", _interval(results["throws"])),
        ("moves per game", _interval(results["moves"])),
        ("turns per game", _interval(results["turns"])),
        ("captures", _interval(results["captures"])),
        ("passes", _interval(results["passes"])),
        ("rosette landings", _interval(results["rosette_landings"])),
        ("extra throws", _interval(results["extra_throws"])),
        ("loser's pieces off", _interval(results["loser_pieces_off"])),
        (
            f"minutes (at {results['minutes']['seconds_per_throw']:g} s a throw)",
            _interval(results["minutes"]),
        ),
    ]
    quantiles = results["throws"]["quantiles"]
    rows.append(
        ("throws p5/p50/p95", f"{quantiles['p5']:g} / {quantiles['p50']:g} / {quantiles['p95']:g}")
    )
    if results.get("unfinished_games"):
        rows.append(("unfinished games", str(results["unfinished_games"])))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    print(f"  (95% intervals; {record['elapsed_seconds']:.1f} s of play; {record['created_by']})")
