"""One worker of a distributed solve (``python -m generator.commands._cluster_worker``, started
by ``mpiexec`` from :func:`generator.commands._cluster.launch`): it loads the rules as ``solve``
does and solves them with the other workers; the first prints the solution."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def worker(argv: list[str]) -> int:
    """One worker: load the rules as ``solve`` does and solve them with the others."""
    from mpi4py import MPI

    from generator.commands._catalog import load_named, parse_changes
    from generator.commands.solve import compiled, print_solution
    from generator.processes import give_back_large_allocations, process_peak
    from generator.solver.cluster import save_solution, solve_distributed
    from generator.solver.solve import with_pieces
    from generator.solver.solve_read import cluster_folder, committed_start

    parser = argparse.ArgumentParser(prog="generator.commands._cluster_worker")
    parser.add_argument("variant")
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--pieces", type=int, default=None)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--fitted-start", action="store_true")
    args = parser.parse_args(argv)
    give_back_large_allocations()  # a worker's memory is what the plan counts
    comm = MPI.COMM_WORLD
    catalog = load_named(args.root, [args.variant])
    changes = parse_changes(args.set)
    if isinstance(catalog, int) or isinstance(changes, str):
        return 2  # the launcher checked both; a worker on another machine may not see them
    rules = compiled(catalog, args.variant, changes)
    if rules is None:
        return 2
    if args.pieces is not None:
        rules = with_pieces(rules, args.pieces)
    # The launcher named the fitted start only where the committed fits hold these rules.
    start = committed_start(rules) if args.fitted_start else None
    folder = cluster_folder(args.cache_dir, rules, comm.size, start=start)
    first = comm.rank == 0

    def say(line: str) -> None:
        print(f"  {line}", file=sys.stderr, flush=True)

    solution = solve_distributed(
        comm, rules, folder, progress=say if first and args.progress else None, start=start
    )
    # Each worker's own high-water mark.
    peaks = comm.gather(process_peak(), root=0)
    if solution is not None and peaks is not None:  # the first worker
        save_solution(folder, solution, peaks, fitted=start is not None)
        print_solution(args.variant, rules, changes, solution, f" on {comm.size} workers")
        mib = ", ".join(f"{peak / 2**20:,.0f}" for peak in peaks)
        print(f"  each worker's peak memory:  {mib} MiB (worker 0 first)")
        print(f"  values and lengths:         {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(worker(sys.argv[1:]))
