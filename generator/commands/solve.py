"""Solve a variant exactly: the first player's win probability and a perfect game's length.

Value iteration over every position (generator/solver/solve.py); solutions are cached under
.cache/solve/ (or --cache-dir), so a rerun costs nothing, and every finished layer is
checkpointed there: a solve that was killed resumes from its last finished layer. --pieces
plays the variant with another number of pieces a side (e.g. Finkel's rules with 1 to 4),
--set QUESTION=VALUE with one ruling changed (as simulate does). The full seven-piece game
of Finkel's rules needs about 1.71 GiB by the solver's own estimate (within the default
limit). The states and memory a solve needs are counted before it starts, and a solve over
the limit is refused. --workers K solves on K MPI workers (generator/solver/cluster.py: a
local cluster, or the hosts --address names). --plan --workers K solves nothing: it prints a
distributed solve's plan for K workers (generator/solver/solve_plan.py: each worker's states
and memory, the values crossing workers each sweep, whether a worker fits --max-memory-gb).
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from generator.commands._options import add_set_argument, add_solve_arguments, whole_number
from generator.model.values import MAX_PIECES
from generator.processes import process_peak

if TYPE_CHECKING:
    from generator.engine.rules import Rules
    from generator.model.catalog_contents import Catalog
    from generator.sim.variation import Change
    from generator.solver.solution import Solution

ORDER = 40
MAX_WORKERS = 100_000


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
    parser.add_argument(
        "--plan",
        action="store_true",
        help="count the states and print a distributed solve's memory per worker and traffic"
        " per sweep for --workers, and whether it fits --max-memory-gb a worker; solves nothing",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, MAX_WORKERS),
        default=None,
        help="solve on this many MPI workers (a local cluster unless --address names hosts;"
        " needs the cluster extra), or with --plan the workers to plan for",
    )
    parser.add_argument(
        "--address",
        default=None,
        metavar="HOSTS",
        help="with --workers: the machines to run the workers on, as hosts separated by commas"
        " or a file of hosts, one a line (MPI's mpiexec reaches them over SSH)",
    )
    parser.add_argument(
        "--fitted-start",
        action="store_true",
        help="start each layer's sweeps from the committed fitted evaluation of the rules, as"
        " full-games does: fewer sweeps, the same values within the tolerance, in a cache folder"
        " of its own (from 1/2 where no fit is committed or a player may stall)",
    )
    parser.add_argument(
        "--write-results",
        action="store_true",
        help="with --plan and no --workers: cost each solve on the fewest rented machines it"
        " fits (an assumed machine and price) and write results/solve-plan.json",
    )


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
        load_named,
        parse_changes,
    )
    from generator.files import WriteError
    from generator.solver.solution import SolveRefused
    from generator.solver.solve import solve, with_pieces
    from generator.solver.solve_read import committed_start

    if args.address is not None and (args.workers is None or args.plan):
        print("--address: only with --workers K, to solve on those hosts", file=sys.stderr)
        return 2
    if args.address is not None:
        from generator.commands._cluster import unknown_host

        if (unknown := unknown_host(args.address)) is not None:
            print(unknown, file=sys.stderr)
            return 2
    if args.plan and (args.workers is None) != args.write_results:
        print(
            "--plan: give --workers K (the workers to plan for) or --write-results (the costed"
            " plan), not both",
            file=sys.stderr,
        )
        return 2
    if args.write_results and not args.plan:
        print("--write-results: only with --plan", file=sys.stderr)
        return 2
    catalog = load_named(args.root, args.variant)
    if isinstance(catalog, int):
        return catalog
    changes = parse_changes(args.set)
    if isinstance(changes, str):
        print(changes, file=sys.stderr)
        return 2
    if args.write_results:
        return write_costed_plan(args, catalog, changes)
    status = 0
    cache_dir = args.cache_dir or args.root / ".cache" / "solve"
    if not args.no_cache and not args.plan and (problem := unwritable(cache_dir)):
        print(problem, file=sys.stderr)
        return 2
    if args.workers is not None and not args.plan:
        from generator.commands._cluster import launch

        games = [compiled(catalog, variant, changes) for variant in args.variant]
        first = games[0]
        if first is None or None in games:
            return 2
        try:
            first = with_pieces(first, args.pieces) if args.pieces is not None else first
        except ValueError as error:  # more pieces than the rules name entries for
            print(f"{args.variant[0]}: {error}", file=sys.stderr)
            return 2
        return launch(args, cache_dir, first)
    for variant in args.variant:
        rules = compiled(catalog, variant, changes)
        if rules is None:
            return 2
        try:
            if args.pieces is not None:
                rules = with_pieces(rules, args.pieces)
            if args.plan:
                print_plan(variant, rules, args.workers, int(args.max_memory_gb * 2**30))
                continue
            solution = solve(
                rules,
                start=committed_start(rules) if args.fitted_start else None,
                cache_dir=None if args.no_cache else cache_dir,
                max_memory_bytes=int(args.max_memory_gb * 2**30),
                progress=(lambda line: print(f"  {line}", file=sys.stderr))
                if args.progress
                else None,
            )
        except (SolveRefused, ValueError) as error:  # PlanRefused too
            print(f"{variant}: {error}", file=sys.stderr)
            status = 2
            continue
        except (WriteError, OSError) as error:  # the cache folder filled up or went away
            print(f"{variant}: {error}", file=sys.stderr)
            return 1
        print_solution(variant, rules, changes, solution)
    return status


def print_solution(
    variant: str, rules: Rules, changes: list[Change], solution: Solution, where: str = ""
) -> None:
    """A solve's start value, length and figures, as ``solve`` prints them (``where``: how
    it was solved, when not by this process alone)."""
    peak_rss = process_peak()
    origin = "loaded from the cache" if solution.from_cache else f"solved now{where}"
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


def print_plan(variant: str, rules: Rules, workers: int, max_bytes: int) -> None:
    """The distributed solve's plan (:func:`generator.solver.solve_plan.plan`), printed."""
    from generator.solver.solve_plan import plan
    from generator.solver.solve_sweeps import CODED_STATES

    found = plan(rules, workers)
    gib = 2**30
    traffic = found.traffic
    how = (
        "counted exactly on this game"
        if traffic.exact
        else f"extrapolated from the share crossing with {traffic.measured_on_pieces} pieces a side"
    )
    pieces = f"{rules.pieces} piece{'s' * (rules.pieces != 1)} a side"
    print(f"{variant}, {pieces}, on {workers:,} worker(s) (a plan: nothing is solved)")
    counted = "counted" if found.states_exact else "guessed, an upper bound"
    print(f"  states:                     {found.states:,} ({counted})")
    print(
        f"  largest layer:              {found.largest_layer:,} states,"
        f" {found.states_per_worker:,} a worker"
    )
    print(
        f"  memory per worker:          {found.worker_bytes / gib:,.2f} GiB (tables every worker"
        f" holds: {found.shared_bytes / gib:,.2f} GiB; one process alone:"
        f" {found.single_bytes / gib:,.2f} GiB)"
    )
    print(
        f"  listed whole:               {found.held_whole_bytes / gib:,.2f} GiB a worker at most"
        " (the slot map of the layer and the next; the rest is split)"
    )
    print(
        f"  traffic per sweep:          {traffic.values:,} values, {traffic.bytes / gib:,.3f} GiB,"
        f" crossing workers in the largest layer ({how})"
    )
    print(f"  next layer, read once:      {traffic.once:,} values")
    codes = "name them" if found.codes_fit else "do not name them: more workers needed"
    print(
        f"  states a worker keeps:      about {found.slots_per_worker:,}; its 32-bit choice"
        f" codes {codes} (at most {CODED_STATES:,})"
    )
    limit = f"{max_bytes / gib:g} GiB a worker"
    if found.fits(max_bytes):
        print(f"  fits:                       yes, within {limit}")
    elif found.worker_bytes > max_bytes:
        print(f"  fits:                       no, over {limit}; more workers or more memory")
    else:
        print("  fits:                       no, its choice codes are too few; more workers")


def write_costed_plan(args: argparse.Namespace, catalog: Catalog, changes: list[Change]) -> int:
    """Each variant's solve costed on the fewest rented machines
    (:func:`generator.solver.plan_cost.costed_plan`), printed and written to
    ``results/solve-plan.json`` with the command that made it."""
    import time

    from generator.sim.results_files import provenance, write_results
    from generator.solver.full_games import read_results
    from generator.solver.plan_cost import PLAN_FILE, PLAN_FORMAT, costed_plan
    from generator.solver.solve import with_pieces

    began = time.perf_counter()
    games = {}
    for variant in args.variant:
        rules = compiled(catalog, variant, changes)
        if rules is None:
            return 2
        games[variant] = with_pieces(rules, args.pieces) if args.pieces else rules
    full_games = read_results(args.root / "results" / "full-games.json")
    if full_games is None:
        print(
            "results/full-games.json: missing or damaged; the plan is timed by it", file=sys.stderr
        )
        return 1
    try:
        results = costed_plan(games, full_games)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    memory_gib = results["rented_machine"]["memory_gib"]
    for variant, game in results["games"].items():
        if game["machines"] is None:
            print(
                f"{variant}, {game['pieces']} pieces a side: no number of machines of"
                f" {memory_gib} GiB: each would hold {game['every_machine_bytes'] / 2**30:,.0f}"
                " GiB alone (the slot map of the layer and the next, the tables and the process)"
            )
            continue
        print(
            f"{variant}, {game['pieces']} pieces a side: {game['machines']:,} machines of"
            f" {memory_gib} GiB, {game['worker_bytes'] / 2**30:.1f} GiB"
            f" a worker, {game['traffic_bytes'] / 2**30:.2f} GiB crossing a sweep,"
            f" {game['wall_hours']:.1f} hours, {game['dollars']:,.0f} dollars"
        )
    command = " ".join(["ur-variants", "solve", *args.variant, "--plan", "--write-results"])
    output = args.root / "results" / PLAN_FILE.name
    write_results(
        output,
        PLAN_FORMAT,
        {**results, **provenance(args.root, command, time.perf_counter() - began, {})},
    )
    print(f"written to {output}")
    return 0


def compiled(catalog: Catalog, variant: str, changes: list[Change]) -> Rules | None:
    """The rules of ``variant`` with ``changes``; ``None`` (the reason printed) when a change
    does not apply."""
    from generator.commands._catalog import changed_variant
    from generator.engine.rules import compile_rules

    changed = changed_variant(catalog, variant, changes)
    if isinstance(changed, str):
        print(changed, file=sys.stderr)
        return None
    return compile_rules(changed)
