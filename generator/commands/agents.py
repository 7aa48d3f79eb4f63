"""Check that each named agent beats random play, in every simulated rulebook, both seats.

Each cheap agent plays 50,000 seeded games a seat against a uniformly random player; it
qualifies on a rulebook when its share of wins over both seats is at least 55 % with the whole
95 % interval above that (generator/sim/agent_check.py). Writes
results/agents-vs-random.json with the command, commit, date and machine; the games are
cached under .cache/sim/. Prints each agent's worst score. A few minutes of one core.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from generator.commands._options import MAX_JOBS, MAX_SEED, whole_number

ORDER = 44


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs", type=whole_number(1, MAX_JOBS), default=1, help="processes (default 1)"
    )
    parser.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=None, help="seed (default 20261130)"
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="where to write the results (default results/agents-vs-random.json)",
    )


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import load_or_report
    from generator.sim.agent_check import RESULTS_FORMAT, measure_agents, summary
    from generator.sim.records import DEFAULT_SEED
    from generator.sim.results_files import publish

    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    began = time.perf_counter()
    seed = DEFAULT_SEED if args.seed is None else args.seed
    results = measure_agents(
        catalog,
        seed=seed,
        jobs=args.jobs,
        cache_dir=args.root / ".cache" / "sim",
        log=lambda line: print(line, file=sys.stderr, flush=True),
    )
    command = "ur-variants agents" + (f" --jobs {args.jobs}" if args.jobs > 1 else "")
    command += f" --seed {seed}" if args.seed is not None else ""
    output = args.output or args.root / "results" / "agents-vs-random.json"
    publish(args.root, output, RESULTS_FORMAT, command, began, results, summary)
    return 0
