"""Check the committed results: compute a random sample of their records again and compare.

A checksum says a results file is whole, not that its figures came from a run: an edited
record with its checksum recomputed reads like any other. This command picks --sample records
at random from each results file (among those the build reads), computes each again as the
command that wrote it does (same rules, games and seed; no cache read), and prints every
figure as `file: key (what): figure: committed X, recomputed Y, ok` or DIFFERS, beyond the
tolerance stated for it (generator/measure/verify.py). The seed that chose them is printed:
--seed repeats a check. Records that took more than two minutes of processor time to compute
(the seven-piece games: hours) are listed as skipped, with the command that checks them
(--record KEY, or --include-slow); a full game with a published value is compared with it.
Each file's behaviour stamp is checked: a file made by code that computes differently now is
named as stale; --stamp gives each stale file whose sample reproduced the current code's stamp
(README.md, "How results are keyed"). Exits 1 when a figure differs, a file is damaged or one
is left stale.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

from generator.commands._options import MAX_SEED, whole_number

ORDER = 48


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sample",
        type=whole_number(0, 100_000),
        default=1,
        help="records computed again in each file (default 1; 0: only the checks that compute"
        " nothing, against published values)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        default=None,
        help="seed choosing the records (default: a new one, printed)",
    )
    parser.add_argument(
        "--files",
        nargs="+",
        default=None,
        metavar="FILE",
        help="results files to check, e.g. full-games.json (default: every one)",
    )
    parser.add_argument(
        "--record",
        action="append",
        default=[],
        metavar="KEY",
        help="check this record (its key, or the start of it) instead of a sample; repeatable",
    )
    parser.add_argument(
        "--include-slow",
        action="store_true",
        help="sample records that take more than two minutes too (a full game: hours)",
    )
    parser.add_argument(
        "--stamp",
        action="store_true",
        help="stamp each stale file whose sample reproduced with the current code's behaviour",
    )
    parser.add_argument(
        "--rekey",
        action="store_true",
        help="once: rewrite the results files with keys of their data alone (the records the"
        " build reads, found by their old keys), every figure kept, and stop",
    )
    parser.add_argument(
        "--results-dir",
        type=Path,
        default=None,
        help="the folder of results files (default results/ of the project)",
    )


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import load_or_report
    from generator.measure.verify import Request, results_file, verify
    from generator.measure.verify_files import FILES

    try:
        files = FILES if args.files is None else tuple(results_file(f) for f in args.files)
    except KeyError as error:
        print(f"--files: {error.args[0]}", file=sys.stderr)
        return 2
    results_dir = args.results_dir or args.root / "results"
    if not results_dir.is_dir():
        print(f"{results_dir}: no such folder; name the folder of results files", file=sys.stderr)
        return 2
    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    if args.rekey:
        from generator.build import BuildOptions, measure_settings
        from generator.measure.rekey_results import rekey_results

        rekey_results(catalog, measure_settings(BuildOptions(args.root)), results_dir, print)
        return 0
    seed = secrets.randbelow(10**9) if args.seed is None else args.seed
    print(f"seed {seed} (--seed {seed} checks the same records again)", flush=True)
    request = Request(
        files, args.sample, seed, args.include_slow, tuple(args.record), stamp=args.stamp
    )
    began = time.perf_counter()
    tally = verify(catalog, results_dir, request, lambda line: print(line, flush=True))
    print(
        f"{tally.checked} figures checked ({tally.records} records computed again),"
        f" {tally.differ} differ; {tally.skipped} records skipped as slow;"
        f" {time.perf_counter() - began:.0f} s"
    )
    if tally.unreadable:
        print(f"damaged: {', '.join(tally.unreadable)}")
    if tally.stamped:
        print(f"stamped: {', '.join(tally.stamped)}")
    if tally.stale:
        print(f"stale: {', '.join(tally.stale)} (`ur-variants verify --stamp --files NAME`)")
    if unknown := [r for r in args.record if r not in tally.named]:
        print(f"--record: no record the build reads is filed as {', '.join(unknown)}")
        return 2
    return 0 if tally.passed else 1
