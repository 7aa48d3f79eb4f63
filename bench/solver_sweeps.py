"""Wall and processor time of one layer's solver sweeps, per state: what a solve repeats.

Usage (from the repository root):

    .venv/bin/python bench/solver_sweeps.py [--variant royalur-finkel] [--pieces 5]
        [--layer N] [--repeat 3] [--mapped DIR]

Builds the rulebook's state index at that many pieces a side, fills every value with random
numbers (seeded: the sweeps' cost does not depend on how far the solve has gone, only on how
many moves they generate), and times on the layer (default: the largest) a Bellman sweep that
generates every move, then an evaluation sweep of the stored choices, split into its backup
and its commit, the best of ``--repeat`` runs each. With ``--mapped DIR`` the values live in a
file mapped from DIR, as in a checkpointed solve, instead of in the process's own memory: run
both to see what the mapping costs. One figure a line, ``name: value unit``; compare figures
measured in one run, or back to back, on a machine doing nothing else.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def processor_seconds() -> float:
    times = os.times()
    return times.user + times.system


def best_of(repeat: int, run: Callable[[], None]) -> tuple[float, float]:
    """The least wall and the least processor time of ``repeat`` runs."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), processor_seconds()
        run()
        wall = min(wall, time.perf_counter() - began)
        cpu = min(cpu, processor_seconds() - began_cpu)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", default="royalur-finkel")
    parser.add_argument("--pieces", type=int, default=5)
    parser.add_argument("--layer", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mapped", type=Path, default=None)
    args = parser.parse_args()

    from generator.engine.rules import compile_rules
    from generator.model.catalog import load_valid_catalog
    from generator.solver import solve as solver
    from generator.solver import solve_estimate
    from generator.solver import solve_sweeps as sweeps
    from generator.solver.solve_index import build_index
    from generator.solver.solve_space import enumerate_configurations, geometry

    root = Path(__file__).resolve().parents[1]
    rules = compile_rules(load_valid_catalog(root / "variants").resolve(args.variant))
    rules = solver.with_pieces(rules, args.pieces)
    solver.warm_up(rules)
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    moves = solve_estimate.checked_move_table(geo, configs)
    sizes = index.layer_sizes
    layer = int(np.argmax(sizes)) if args.layer is None else args.layer
    base = int(index.layer_base[layer])
    size = int(sizes[layer])
    table_args = (index.borne, index.mask_id, index.rank, index.prefix, index.start)
    order, places, wave_start, largest = solve_estimate.sweep_order(geo, configs, index, layer)
    waves = wave_start.shape[0] - 1

    rng = np.random.default_rng(1)
    folder = ""
    if args.mapped is None:
        values = rng.random(index.states)
    else:
        args.mapped.mkdir(parents=True, exist_ok=True)
        folder = tempfile.mkdtemp(dir=args.mapped)
        values = np.lib.format.open_memmap(
            Path(folder) / "values.npy", mode="w+", dtype=np.float64, shape=(index.states,)
        )
        values[:] = rng.random(index.states)
    throws = int(geo.throw_values.shape[0])
    policy = np.empty(size * throws, dtype=np.uint32)
    settled = np.zeros(size * throws, dtype=np.uint8)
    moved = np.zeros(size, dtype=np.uint8)
    new_values = np.empty(largest)
    drift_at = np.zeros(16)

    def each_wave(step: Callable[[int, int, bool], None]) -> Callable[[], None]:
        def run() -> None:
            for w in range(waves):
                first, last = int(wave_start[w]), int(wave_start[w + 1])
                step(first, last, last - first >= sweeps.PARALLEL_WAVE)

        return run

    def bellman(first: int, last: int, parallel: bool) -> None:
        backup = sweeps.bellman_wave if parallel else sweeps.bellman_wave_serial
        backup(
            first, last, order, base, base, values, *sweeps.NO_SLOTS, policy, settled, 1, np.inf,
            drift_at, new_values,
            geo.packed, configs.count, moves.arrays, geo.throw_probs, geo.perspectives,
            *table_args,
        )  # fmt: skip
        commit(first, last, parallel)

    def backup(first: int, last: int, parallel: bool) -> None:
        evaluate = sweeps.evaluate_wave if parallel else sweeps.evaluate_wave_serial
        evaluate(first, last, policy, geo.throw_probs, values, base, new_values, False)

    def commit(first: int, last: int, parallel: bool) -> None:
        write = sweeps.commit_wave if parallel else sweeps.commit_wave_serial
        write(first, last, base, values, new_values, places, moved)

    def evaluation(first: int, last: int, parallel: bool) -> None:
        backup(first, last, parallel)
        commit(first, last, parallel)

    print(f"rulebook: {args.variant}, {args.pieces} pieces a side")
    print(f"values: {'mapped from a file' if args.mapped else 'in the process'}")
    print(f"layer: {layer}")
    print(f"layer states: {size}")
    print(f"waves: {waves}")
    print(f"machine load average (1 min): {os.getloadavg()[0]:.1f}")
    each_wave(bellman)()  # compiles, and stores the choices the other sweeps read
    for name, step in (
        ("Bellman sweep, every move generated", bellman),
        ("evaluation sweep", evaluation),
        ("evaluation backup", backup),
        ("evaluation commit", commit),
    ):
        wall, cpu = best_of(args.repeat, each_wave(step))
        print(f"{name} wall: {wall / size * 1e9:.0f} ns a state")
        print(f"{name} processor: {cpu / size * 1e9:.0f} ns a state")
    if args.mapped is not None:
        del values
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
