"""Evaluate every one-ruling change exactly and write results/exact-effects.json.

For each change the sensitivity runs make (one ruling of a simulated rulebook answered as
another rulebook answers it), the first player's chance and the expected throws under perfect
play and under random play, changed and unchanged, at three pieces a side where the game is
small enough (two on the longest routes); and each rulebook's figures at one to three pieces,
with the perfect player's chance against a random one (generator/solver/exact_effects.py). Each
game's figures are cached under .cache/exact/, so a rerun computes only what changed. About
half an hour of one core from cold; the site only reads the file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from generator.commands._options import MAX_JOBS, whole_number

ORDER = 42


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs", type=whole_number(1, MAX_JOBS), default=1, help="processes (default 1)"
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="where to write the results (default results/exact-effects.json)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="evaluate again even if .cache/exact/ has it"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def run(args: argparse.Namespace) -> int:
    from generator.claims.behaviour import stamp
    from generator.commands._catalog import load_or_report
    from generator.sim.results_files import publish
    from generator.solver.exact_effects import RESULTS_FORMAT, measure, summary

    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    began = time.perf_counter()
    results = measure(
        catalog,
        jobs=args.jobs,
        cache_dir=None if args.no_cache else args.root / ".cache" / "exact",
        log=None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True)),
    )
    command = "ur-variants exact" + (f" --jobs {args.jobs}" if args.jobs > 1 else "")
    output = args.output or args.root / "results" / "exact-effects.json"
    behaviour = stamp(output.name)
    publish(args.root, output, RESULTS_FORMAT, command, began, results, summary, behaviour)
    return 0
