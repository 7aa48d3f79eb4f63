"""Run the simulation suite the site reports: every rulebook's baseline and every one-ruling change.

Random against random, 40,000 games a rulebook and a few thousand for each ruling changed, one
seed (generator/sim/suite.py). As the build runs it: each run is read from
results/simulation-suite.json while its key (rules, engine, agents, games, seed) is there, else
from .cache/sim/ or simulated; prints how many runs and effects there are.

With --write-results, every run is taken from .cache/sim/ or simulated, not from the committed
file, and all of them are written to results/simulation-suite.json with the command, commit,
date and machine; the build reads them from there while their rules are unchanged. About a
minute of processor time from cold.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time

from generator.commands._options import MAX_JOBS, add_results_arguments, whole_number

ORDER = 6


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs", type=whole_number(1, MAX_JOBS), default=1, help="processes (default 1)"
    )
    add_results_arguments(
        parser,
        "sim",
        "simulate again",
        "take no run from the committed file and write every run to results/simulation-suite.json",
    )


def run(args: argparse.Namespace) -> int:
    from generator.claims.behaviour import stamp
    from generator.commands._catalog import load_or_report
    from generator.sim.results_files import publish
    from generator.sim.suite import default_suite
    from generator.sim.suite_results import (
        RESULTS_FILE,
        RESULTS_FORMAT,
        WRITE_COMMAND,
        committed_layout,
        read_committed,
        summary,
    )

    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    log = functools.partial(print, file=sys.stderr, flush=True)
    began = time.perf_counter()
    suite = default_suite(
        catalog,
        jobs=args.jobs,
        cache_dir=args.root / ".cache" / "sim",
        use_cache=not args.no_cache,
        log=log,
        committed=None if args.write_results else read_committed(log=log),
    )
    played = [e for e in suite.effects if not e.same_game]
    print(
        f"{len(suite.baseline)} rulebooks, {len(played)} one-ruling changes played"
        f" ({len(suite.effects) - len(played)} more play the same game), seed {suite.seed}"
    )
    if args.write_results:
        changed = [e.changed for e in played]
        results = committed_layout(suite.baseline.values(), changed)
        command = WRITE_COMMAND + (" --no-cache" if args.no_cache else "")
        command += f" --jobs {args.jobs}" if args.jobs > 1 else ""
        output = args.root / "results" / RESULTS_FILE.name
        behaviour = stamp(RESULTS_FILE.name)
        publish(args.root, output, RESULTS_FORMAT, command, began, results, summary, behaviour)
    return 0
