"""Solve the full games (each rulebook with its own pieces) and write results/full-games.json.

Each rulebook named is solved exactly with its own number of pieces a side
(generator/solver/full_games.py) and its record saved at once, with the command, commit, date
and machine that computed it; a later run adds rulebooks without redoing the others, and
runs at the same time each add theirs to what is on disk when they save. Solves
are checkpointed under .cache/solve (each finished layer, and an unfinished layer's progress
every 15 minutes), so a killed run resumes where it stopped.
Rulebooks playing the same game are solved once. Every simulated rulebook without a current
record is listed as pending with its size, counted beforehand (a few minutes the first time:
the largest games are counted, not guessed). With no rulebook named, only the pending list is
brought up to date. Seven pieces on Bell's route: 137,870,097 positions, under 2 GiB.

``--check`` solves nothing and writes nothing: each solved rulebook named (every one, when
none is) is read from its complete solve in .cache/solve, its start compared with its record,
and the stored figures checked one step against the reference engine's moves at positions met
in random play (generator/solver/bellman_check.py); exit 1 when a check fails.

``--workers K [--address HOSTS]`` solves one rulebook on K MPI workers (``ur-variants solve
--workers --fitted-start``: a local cluster, or the hosts named; from the committed fitted
evaluation, as one process solves a full game) and records it as a single process's solve is
recorded: the games too large for one machine become records the same way.
"""

from __future__ import annotations

import argparse
import functools
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

ORDER = 46

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from generator.engine.rules import Rules
    from generator.solver.full_games import FullGame


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from generator.commands._options import add_solve_arguments

    parser.add_argument(
        "variant", nargs="*", help="rulebook id(s) to solve, e.g. finkel-three-piece royalur-blitz"
    )
    parser.add_argument(
        "--pending",
        action="store_true",
        help="solve every pending rulebook that fits the memory limit, smallest first",
    )
    parser.add_argument(
        "--again",
        action="store_true",
        help="solve a named rulebook again even if it has a current record",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="the results file (default results/full-games.json)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="solve nothing: check each solved rulebook's cached solve against its record and,"
        " one step at a time, against the reference engine's moves",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=1000,
        help="with --check: positions met in random play to check (default 1000)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="with --check: the seed of the random games"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="solve the one rulebook named on this many MPI workers (a local cluster unless"
        " --address names hosts; needs the cluster extra), then record it",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="with --workers: the hosts to start the workers on, separated by commas, or a"
        " file of hosts, one a line",
    )
    add_solve_arguments(parser, 20.0)


def run(args: argparse.Namespace) -> int:
    from generator.claims.behaviour import stamp
    from generator.commands._catalog import load_named
    from generator.sim.results_files import publish
    from generator.solver import full_games as fg
    from generator.solver.solution import SolveRefused

    catalog = load_named(args.root, args.variant)
    if isinstance(catalog, int):
        return catalog
    games = fg.full_games(catalog)
    if not_simulated := [vid for vid in args.variant if vid not in games]:
        print(
            f"{', '.join(not_simulated)}: not simulated (the engine cannot be sure a game"
            " ends), so not solved either",
            file=sys.stderr,
        )
        return 2
    began = time.perf_counter()
    output = args.output or args.root / "results" / "full-games.json"
    results = fg.read_results(output) or fg.empty_results()
    if args.check:
        return _check(args, games, results)
    if args.workers is not None or args.address is not None:
        return _distributed(args, games, output, results, began)
    limit = int(args.max_memory_gb * 2**30)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    fg.refresh_pending(results, games, limit, log)
    queued = fg.pending_order(results) if args.pending else []
    targets = list(dict.fromkeys([*args.variant, *queued]))
    status = 0
    for vid in targets:
        if _kept(args, results, vid, games[vid], log):
            continue
        same = fg.solved_key(results, fg.fingerprint(games[vid]))
        if same is not None and same.variant != vid and not args.again:
            record = fg.copied(same, vid)
            log(f"{vid}: the same game as {same.variant}, whose record it copies")
        else:
            command = f"ur-variants full-games {shlex.quote(vid)}"
            log(f"{vid}: solving with {games[vid].pieces} pieces a side")
            try:
                record = fg.solve_full_game(
                    vid,
                    games[vid],
                    provenance=_provenance_at_start(args.root, command),
                    cache_dir=_solve_cache(args),
                    max_memory_bytes=limit,
                    progress=(lambda line: log(f"  {line}")) if args.progress else None,
                )
            except (SolveRefused, ValueError) as error:
                log(f"{vid}: {error}")
                status = 2
                continue
        results = _saved(record, results, output, games, limit, log)
    command = shlex.join(
        ["ur-variants", "full-games", *args.variant]
        + ["--pending"] * args.pending
        + ["--again"] * args.again
        + (["--max-memory-gb", f"{args.max_memory_gb:g}"] if args.max_memory_gb != 20 else [])
    )
    results = fg.with_saved(results, fg.read_results(output))
    fg.refresh_pending(results, games, limit, log)
    behaviour = stamp(output.name)
    publish(args.root, output, fg.RESULTS_FORMAT, command, began, results, fg.summary, behaviour)
    return status


def _solve_cache(args: argparse.Namespace) -> Path:
    """Where full games are checkpointed and their solves kept."""
    return Path(args.root) / ".cache" / "solve"


def _kept(
    args: argparse.Namespace,
    results: dict[str, Any],
    vid: str,
    rules: Rules,
    log: Callable[[str], None],
) -> bool:
    """Whether ``vid`` has a record for these rules, kept (and said so) unless ``--again``."""
    from generator.solver import full_games as fg

    current = results["solved"].get(vid)
    if current is None or current["key"] != fg.fingerprint(rules) or args.again:
        return False
    log(f"{vid}: already solved for these rules (--again solves it again)")
    return True


def _saved(
    record: FullGame,
    results: dict[str, Any],
    output: Path,
    games: dict[str, Rules],
    limit: int,
    log: Callable[[str], None],
) -> dict[str, Any]:
    """``results`` with ``record`` added to what is on disk, written at once; the results
    written."""
    from generator.solver import full_games as fg

    # Another run may have saved records while this one solved: add to what is on disk.
    results = fg.with_saved(results, fg.read_results(output))
    results["solved"][record.variant] = record.as_dict()
    fg.refresh_pending(results, games, limit, log)
    fg.write_results(output, results)
    log(f"{record.variant}: {100 * record.first_player:.10f} %, saved in {output}")
    return results


def _provenance_at_start(root: Path, command: str) -> Callable[[float], dict[str, Any]]:
    """Who computed a record: the commit and date when its solve started (the checkout may
    move on during a long solve), with the solve's wall time filled in at the end."""
    from generator.claims.behaviour import stamp
    from generator.sim.results_files import provenance

    at_start = provenance(root, command, 0.0, stamp("full-games.json"))
    return lambda seconds: {**at_start, "wall_seconds": round(seconds, 1)}


def _check(args: argparse.Namespace, games: dict[str, Rules], results: dict[str, Any]) -> int:
    """``--check``: each solved record's cached solve against the record and the engine."""
    import random

    from generator.solver import bellman_check
    from generator.solver import full_games as fg
    from generator.solver.solve_read import any_distributed_solution, cached_solution

    if args.positions < 1:
        print("--positions: at least 1", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"seed {seed} (--seed {seed} checks the same positions again)")
    solved = fg.status(games, results).solved
    if unsolved := [vid for vid in args.variant if vid not in solved]:
        print(f"{', '.join(unsolved)}: no current record to check", file=sys.stderr)
        return 2
    cache_dir = _solve_cache(args)
    status = 0
    for vid in args.variant or sorted(solved):
        record = solved[vid]
        workers = record.provenance.get("workers")
        if workers:  # solved on a cluster: its whole solution has a folder of its own
            read = any_distributed_solution(games[vid], cache_dir, int(workers))
            solution = read[0] if read is not None else None
        else:
            solution = cached_solution(games[vid], cache_dir)
        if solution is None:
            print(f"{vid}: no complete solve in {cache_dir}; not checked")
            if args.variant and status == 0:
                status = 2  # a rulebook named but not there to check
            continue
        start_agrees = abs(solution.start_value - record.first_player) <= 1e-12
        found = bellman_check.gaps(
            solution, bellman_check.positions_met(games[vid], seed, args.positions)
        )
        print(
            f"{vid}: first player {100 * solution.start_value:.10f} %"
            + (
                " as recorded"
                if start_agrees
                else f", the record says {100 * record.first_player:.10f} %"
            )
            + f"; {found.positions:,} positions checked one step with the reference engine's"
            f" moves: largest chance gap {found.value:.1e} (at most {bellman_check.VALUE_GAP:g}),"
            f" largest length gap {found.length:.1e} throws (at most {bellman_check.LENGTH_GAP:g}):"
            + (" ok" if start_agrees and found.hold else " FAILS")
        )
        if not (start_agrees and found.hold):
            status = 1
    return status


def _distributed(
    args: argparse.Namespace,
    games: dict[str, Rules],
    output: Path,
    results: dict[str, Any],
    began: float,
) -> int:
    """``--workers K``: the one rulebook named solved on K workers, then recorded."""
    from generator.claims.behaviour import stamp
    from generator.commands._cluster import launch, unknown_host
    from generator.sim.results_files import publish
    from generator.solver import full_games as fg
    from generator.solver.solve_read import cluster_folder, distributed_solution, start_as_begun

    if args.workers is None or args.workers < 1 or len(args.variant) != 1 or args.pending:
        print(
            "--workers K: at least one worker, and one rulebook named (not --pending);"
            " --address only with --workers",
            file=sys.stderr,
        )
        return 2
    if args.address is not None and (unknown := unknown_host(args.address)) is not None:
        print(unknown, file=sys.stderr)
        return 2
    vid = args.variant[0]
    rules = games[vid]
    log = functools.partial(print, file=sys.stderr, flush=True)
    if _kept(args, results, vid, rules, log):
        return 0
    cache_dir = _solve_cache(args)
    command = shlex.join(
        ["ur-variants", "full-games", vid, "--workers", str(args.workers)]
        + (["--address", args.address] if args.address else [])
    )
    at_start = _provenance_at_start(args.root, command)
    # From the fitted evaluation, as one process solves a full game, unless a run from 1/2
    # has begun: that one goes on as it began.
    start = start_as_begun(rules, cluster_folder(cache_dir, rules, args.workers))
    launched = argparse.Namespace(
        variant=[vid], no_cache=False, workers=args.workers, address=args.address,
        root=args.root, pieces=None, set=[], progress=args.progress,
        fitted_start=start is not None,
    )  # fmt: skip
    status = launch(launched, cache_dir, rules)
    if status != 0:
        return status
    found = distributed_solution(rules, cache_dir, args.workers, start=start)
    if found is None:
        print(
            f"{vid}: the workers finished but no whole solution is in {cache_dir} (with"
            " --address, the first worker's host keeps it: run this command there)",
            file=sys.stderr,
        )
        return 1
    record = fg.distributed_record(vid, rules, *found, at_start, args.address)
    results = _saved(record, results, output, games, int(args.max_memory_gb * 2**30), log)
    publish(
        args.root, output, fg.RESULTS_FORMAT, command, began, results, fg.summary,
        stamp(output.name),
    )  # fmt: skip
    return 0
