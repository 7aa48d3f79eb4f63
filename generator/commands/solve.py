"""Solve a variant exactly: the first player's win probability and a perfect game's length.

Value iteration over every position (generator/solver/solve.py); solutions are cached under
.cache/solve/ (or --cache-dir), so a rerun costs nothing, and every finished layer is
checkpointed there: a solve that was killed resumes from its last finished layer. --pieces
plays the variant with another number of pieces a side (e.g. Finkel's rules with 1 to 4),
--set QUESTION=VALUE with one ruling changed (as simulate does). The full seven-piece game
of Finkel's rules needs about 1.71 GiB by the solver's own estimate (within the default
limit). The states and memory a solve needs are counted before it starts, and a solve over
the limit is refused.
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import tempfile
from pathlib import Path

from generator.commands._options import add_set_argument, add_solve_arguments, whole_number
from generator.model.values import MAX_PIECES

ORDER = 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", nargs="+", help="variant id(s), e.g. finkel-three-piece")
    parser.add_argument(
        "--pieces",
        type=whole_number(1, MAX_PIECES),
        default=None,
        help=f"pieces a side, 1 to {MAX_PIECES} (default: the variant's own)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="solve again even if .cache/solve/ has it"
    )
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="where solutions and checkpoints live (default: .cache/solve under --root)",
    )
    add_solve_arguments(parser, 4.0)
    add_set_argument(parser, "solve")


def unwritable(folder: Path) -> str | None:
    """Why ``folder`` cannot hold solutions (a file, a place that cannot be made or written),
    found before the solve starts, or ``None``: it is made if missing, and a file is made in it
    and removed."""
    fix = "give a folder you can write, or --no-cache"
    try:
        if folder.exists() and not folder.is_dir():
            return f"--cache-dir {folder}: is a file, not a folder; {fix}"
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return f"--cache-dir {folder}: cannot write there ({error.strerror or error}); {fix}"
    return None


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import (
        changed_variant,
        load_named,
        parse_changes,
    )
    from generator.engine.rules import compile_rules
    from generator.files import WriteError
    from generator.solver.solution import SolveRefused
    from generator.solver.solve import solve, with_pieces

    catalog = load_named(args.root, args.variant)
    if isinstance(catalog, int):
        return catalog
    changes = parse_changes(args.set)
    if isinstance(changes, str):
        print(changes, file=sys.stderr)
        return 2
    status = 0
    cache_dir = args.cache_dir or args.root / ".cache" / "solve"
    if not args.no_cache and (problem := unwritable(cache_dir)):
        print(problem, file=sys.stderr)
        return 2
    for variant in args.variant:
        changed = changed_variant(catalog, variant, changes)
        if isinstance(changed, str):
            print(changed, file=sys.stderr)
            return 2
        rules = compile_rules(changed)
        try:
            if args.pieces is not None:
                rules = with_pieces(rules, args.pieces)
            solution = solve(
                rules,
                cache_dir=None if args.no_cache else cache_dir,
                max_memory_bytes=int(args.max_memory_gb * 2**30),
                progress=(lambda line: print(f"  {line}", file=sys.stderr))
                if args.progress
                else None,
            )
        except (SolveRefused, ValueError) as error:
            print(f"{variant}: {error}", file=sys.stderr)
            status = 2
            continue
        except (WriteError, OSError) as error:  # the cache folder filled up or went away
            print(f"{variant}: {error}", file=sys.stderr)
            return 1
        peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        origin = "loaded from the cache" if solution.from_cache else "solved now"
        if solution.resumed_layers:
            origin += f", resumed after {solution.resumed_layers} checkpointed layer(s)"
        pieces = f"{rules.pieces} piece{'s' * (rules.pieces != 1)} a side"
        played = "".join(f", {change.label}" for change in changes)
        print(f"{variant}{played}, {pieces} ({origin})")
        print(f"  first player (light) wins:  {100 * solution.start_value:.10f} %")
        if math.isinf(solution.expected_throws):
            print("  perfect game length:        unbounded (perfect play can stall for ever)")
            print(
                "  note: where play can stall, a value is the iteration's fixed point from 1/2,"
                " not a probability of winning a game that surely ends"
            )
        else:
            print(f"  perfect game length:        {solution.expected_throws:.6f} throws (expected)")
        if solution.endless:
            print(f"  states where play can stall: {solution.endless:,}")
        print(f"  states (side to move):      {solution.states:,}")
        print(f"  solver memory:              {solution.memory_bytes / 2**20:,.3f} MiB")
        print(f"  process peak memory:        {peak_rss / 2**20:,.1f} MiB")
        print(
            f"  solve time:                 {solution.seconds:.2f} s wall,"
            f" {solution.cpu_seconds:.2f} s CPU ({solution.sweeps} sweeps,"
            f" {solution.bellman_sweeps} of them generating every move)"
        )
        if not solution.from_cache:
            print(f"  native compile or load:     {solution.compile_seconds:.2f} s")
    return status
