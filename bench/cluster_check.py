"""The distributed solve (``ur-variants solve VARIANT --workers K``) checked on this machine.

Usage (from the repository root, after ``make setup-test``, which installs MPI):

    .venv/bin/python bench/cluster_check.py compare VARIANT [--pieces N] --workers K
        [--cache-dir DIR] [--fitted-start]
    .venv/bin/python bench/cluster_check.py lost-worker [VARIANT] [--pieces N] [--workers K]
        [--memory-mib M] [--victim R] [--into S] [--cache-dir DIR]

``compare`` reads a finished distributed solve from ``DIR`` (default ``.cache/solve``) and the
single-process solve of the same rules (from the same cache, solved there if missing; both
from the committed fitted evaluation with ``--fitted-start``, as ``ur-variants solve
--fitted-start`` solves them) and
prints both first-player values to 10 decimals, the largest difference of any stored value
and expected length, and whether every bit agrees (exit 1 past the issue's 1e-9 percentage
points).

``lost-worker`` is a larger cluster on this machine with a lost worker: K workers (default 8,
on three-piece Finkel), every process the run starts capped at M MiB of address space (the
cap set on the command, ``RLIMIT_AS``, which ``mpiexec`` and MPICH's process manager pass
down: each worker gets its own cap of M, as a machine of its own would). Once the workers are
``S`` seconds into the game's largest layer, worker R is killed with SIGKILL; the script
prints how the run stopped and checks that the layer was unfinished (no worker checkpointed
it), runs the same command again and prints what the resumed run took up and solved again,
each worker's peak memory against the plan's figure a worker, and the comparison with the
single-process solve (exit 1 unless every bit agrees).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.engine.rules import Rules, compile_rules  # noqa: E402
from generator.model.catalog import load_catalog  # noqa: E402
from generator.sim.cache_files import read_json  # noqa: E402
from generator.solver.cluster import WORKING, WorkerCheckpoints  # noqa: E402
from generator.solver.cluster_check import compare_distributed, local_workers  # noqa: E402
from generator.solver.solve import solve, with_pieces  # noqa: E402
from generator.solver.solve_read import cluster_folder, committed_start  # noqa: E402


def rules_of(variant: str, pieces: int | None) -> Rules:
    catalog, _ = load_catalog(ROOT / "variants")
    rules = compile_rules(catalog.resolve(variant))
    return with_pieces(rules, pieces) if pieces is not None else rules


def compare(args: argparse.Namespace) -> int:
    rules = rules_of(args.variant, args.pieces)
    cache = args.cache_dir or ROOT / ".cache" / "solve"
    start = committed_start(rules) if args.fitted_start else None
    single = solve(rules, cache_dir=cache, start=start)
    found = compare_distributed(single, cache, args.workers, start)
    pieces = f"{rules.pieces} pieces a side"
    workers = f"{args.workers} worker{'s' * (args.workers != 1)}"
    print(f"{args.variant}, {pieces}, {workers} against one process")
    for line in found.lines():
        print(f"  {line}")
    return 0 if found.within_bound else 1


def capped(megabytes: int) -> Callable[[], None]:
    """Set before the command starts: every process it starts inherits the address-space cap,
    each process its own."""
    limit = megabytes * 2**20
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def largest_layer(rules: Rules) -> tuple[int, int]:
    """The game's largest layer and its states."""
    from generator.solver.solve_index import build_index
    from generator.solver.solve_space import enumerate_configurations, geometry

    geo = geometry(rules)
    index = build_index(geo, enumerate_configurations(rules, geo))
    layer = int(index.layer_sizes.argmax())
    return layer, int(index.layer_sizes[layer])


def wait_for_layer(run: subprocess.Popen[str], folder: Path, layer: int, into: float) -> float:
    """Wait until the workers are ``into`` seconds into ``layer``; when they started it."""
    while True:
        if run.poll() is not None:
            raise SystemExit(f"the run ended before layer {layer}: {run.communicate()}")
        working = read_json(folder / WORKING) if (folder / WORKING).exists() else None
        if isinstance(working, dict) and working["layer"] == layer:
            started = float(working["started"])
            if time.time() >= started + into:
                return started
        time.sleep(0.05)


def checkpointed(folder: Path, workers: int, layer: int) -> list[int]:
    """The workers that checkpointed ``layer``."""
    return [
        r for r in range(workers) if layer in WorkerCheckpoints(folder / f"worker-{r}").finished()
    ]


def lost_worker(args: argparse.Namespace) -> int:
    rules = rules_of(args.variant, args.pieces)
    cache = args.cache_dir or Path(tempfile.mkdtemp(prefix="cluster-lost-worker-"))
    folder = cluster_folder(cache, rules, args.workers)
    command = [
        sys.executable, "-m", "generator", "--root", str(ROOT), "solve", args.variant,
        "--pieces", str(rules.pieces), "--workers", str(args.workers), "--cache-dir", str(cache),
        "--progress",
    ]  # fmt: skip
    print("command:", " ".join(command[1:]))
    print(f"every process capped at {args.memory_mib:,} MiB of address space (RLIMIT_AS)")
    layer, states = largest_layer(rules)
    began = time.monotonic()
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        preexec_fn=capped(args.memory_mib),
    )  # fmt: skip
    started = wait_for_layer(run, folder, layer, args.into)
    victim = local_workers(run.pid).get(args.victim)
    if victim is None:
        raise SystemExit(f"worker {args.victim} not found among the run's processes")
    os.kill(victim, signal.SIGKILL)
    killed_into = time.time() - started
    _, err = run.communicate()
    print(
        f"first run: worker {args.victim} killed {killed_into:.1f} s into layer {layer}"
        f" ({states:,} states, the largest); exit {run.returncode} after"
        f" {time.monotonic() - began:.1f} s"
    )
    for line in err.splitlines():
        if line.startswith("  layer") or "stopped" in line:
            print(f"  {line.strip()}")
    done = checkpointed(folder, args.workers, layer)
    print(f"  workers that checkpointed layer {layer} before the stop: {done or 'none'}")
    began = time.monotonic()
    again = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, preexec_fn=capped(args.memory_mib)
    )
    print(f"same command again: exit {again.returncode} after {time.monotonic() - began:.1f} s")
    for line in (again.stderr + again.stdout).splitlines():
        if re.match(r"\s+(layer|first player|each worker|solve time)", line) or "resumed" in line:
            print(f"  {line.strip()}")
    if again.returncode != 0:
        print(again.stderr)
        return 1
    from generator.solver.solve_plan import plan

    planned = plan(rules, args.workers)
    print(f"plan's memory a worker: {planned.worker_bytes / 2**20:,.0f} MiB")
    found = compare_distributed(solve(rules, cache_dir=None), cache, args.workers)
    for line in found.lines():
        print(f"  {line}")
    return 0 if run.returncode != 0 and not done and found.same_bits else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/cluster_check.py")
    verbs = parser.add_subparsers(dest="verb", required=True)
    first = verbs.add_parser("compare", help="a finished distributed solve against one process")
    first.add_argument("variant")
    first.add_argument("--workers", type=int, required=True)
    first.add_argument("--fitted-start", action="store_true")
    second = verbs.add_parser("lost-worker", help="kill a worker mid-layer and resume")
    second.add_argument("variant", nargs="?", default="royalur-finkel")
    second.add_argument("--workers", type=int, default=8)
    second.add_argument("--memory-mib", type=int, default=768)
    second.add_argument("--victim", type=int, default=5)
    second.add_argument("--into", type=float, default=5.0)
    for verb in (first, second):
        verb.add_argument("--pieces", type=int, default=None)
        verb.add_argument("--cache-dir", type=Path, default=None)
    second.set_defaults(pieces=3)
    args = parser.parse_args(argv)
    return compare(args) if args.verb == "compare" else lost_worker(args)


if __name__ == "__main__":
    sys.exit(main())
