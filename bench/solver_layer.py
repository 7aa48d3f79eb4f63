"""Solve one layer of a checkpointed solve again, and say where its time went.

Usage (from the repository root):

    .venv/bin/python bench/solver_layer.py [--variant royalur-finkel] [--pieces 7] [--layer 6]

Reads the checkpoint a finished solve left under ``.cache/solve`` (``ur-variants solve
--pieces N`` or ``ur-variants full-games``), copies its values and lengths into the process,
solves the layer again from them (the layers above it are read, as in a solve) and prints the
layer's figures, the wall time of each kernel the solver called, and the largest difference
from the checkpoint's values and lengths (0 when the solver is unchanged: the same bits), then
for each Bellman sweep the share of throws whose moves it generated (the others kept their
stored choice, :func:`generator.solver.solve_sweeps._bellman_wave`) and the drift it started from.
With ``--start fitted`` the layer starts from the fitted evaluation, as ``ur-variants
full-games`` solves do (``--checkpoint`` names such a solve's folder). Run it on two checkouts
in turn, each twice (old, new, old, new), to compare a change to the sweeps on a layer of a
size a quick solve never reaches (a seven-piece layer holds millions of states): this
machine's speed was seen to vary threefold within the hour (six-piece
Finkel's layer 4, the same code: 34.8 s, then 140.6 s of wall time). One figure a line.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KERNELS = (
    "bellman_wave",
    "bellman_wave_serial",
    "evaluate_wave",
    "evaluate_wave_serial",
    "commit_wave",
    "commit_wave_serial",
    "hot_floor",
    "evaluate_hot",
)


def timed(kernels: Any, names: tuple[str, ...]) -> dict[str, list[float]]:
    """Wrap each named kernel of the module ``kernels`` to count its calls and wall time."""
    spent: dict[str, list[float]] = {}

    def wrap(name: str, kernel: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            began = time.perf_counter()
            result = kernel(*args)
            entry = spent.setdefault(name, [0, 0.0])
            entry[0] += 1
            entry[1] += time.perf_counter() - began
            return result

        return run

    for name in names:
        if hasattr(kernels, name):
            setattr(kernels, name, wrap(name, getattr(kernels, name)))
    return spent


def generation_counted(kernels: Any) -> list[dict[str, float]]:
    """Wrap the Bellman sweeps of the module ``kernels`` to count, per sweep, the throws whose
    moves were generated: those whose record (``settled``) was written by this sweep, or has no
    lead (generated every sweep), and in the first sweep those with one option."""
    sweeps: list[dict[str, float]] = []

    def wrap(kernel: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            first, last, settled, sweep, drift, probs = (*args[:2], *args[9:12], args[17])
            result = kernel(*args)
            throws = probs.shape[0]
            records = settled[first * throws : last * throws]
            always = records == kernels.ALWAYS
            fresh = ((records >> kernels.SHIFT) == sweep) & ~always
            generated = fresh | (records == 0) | (always & (sweep == 1))
            if not sweeps or sweeps[-1]["sweep"] != sweep:
                sweeps.append({"sweep": sweep, "generated": 0, "throws": 0, "drift": drift})
            sweeps[-1]["generated"] += int(generated.sum())
            sweeps[-1]["throws"] += records.size
            return result

        return run

    for name in ("bellman_wave", "bellman_wave_serial"):
        setattr(kernels, name, wrap(getattr(kernels, name)))
    return sweeps


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", default="royalur-finkel")
    parser.add_argument("--pieces", type=int, default=7)
    parser.add_argument("--layer", type=int, default=6)
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--tolerance", type=float, default=1e-13)
    parser.add_argument(
        "--start",
        choices=("half", "fitted"),
        default="half",
        help="where the layer's sweeps start: 1/2, or the fitted evaluation as full-games does",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        help="the solve's folder, if not the plain solve's (e.g. one full-games started from"
        " the fitted evaluation: its name ends in .w and the weights' hash)",
    )
    args = parser.parse_args()

    from generator.engine.rules import compile_rules
    from generator.model.catalog import load_valid_catalog
    from generator.solver import solve as solver
    from generator.solver import solve_endless, solve_estimate, solve_layer
    from generator.solver import solve_sweeps as sweeps
    from generator.solver.solve_index import build_index
    from generator.solver.solve_space import enumerate_configurations, geometry

    root = Path(__file__).resolve().parents[1]
    rules = compile_rules(load_valid_catalog(root / "variants").resolve(args.variant))
    rules = solver.with_pieces(rules, args.pieces)
    folder = args.checkpoint or solver.solution_path(
        args.cache_dir or solver.DEFAULT_CACHE, rules, args.tolerance
    )
    if not (folder / "values.npy").exists():
        print(f"no checkpoint at {folder}: solve it first", file=sys.stderr)
        return 2
    solver.warm_up(rules)
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    base, size = int(index.layer_base[args.layer]), int(index.layer_sizes[args.layer])
    saved_values = np.load(folder / "values.npy", mmap_mode="r")
    saved_lengths = np.load(folder / "lengths.npy", mmap_mode="r")
    values, lengths = np.array(saved_values), np.array(saved_lengths)
    moves = solve_estimate.checked_move_table(geo, configs)
    spent = timed(sweeps, KERNELS)
    endless_spent = timed(solve_endless, ("mark_endless",))
    generation = generation_counted(sweeps)
    start = None
    if args.start == "fitted":
        from generator.solver.fitted_agent import weights_for

        start = solver.starting_point(rules, weights_for(rules))
    record = solve_layer.solve_layer(
        rules, geo, configs, index, moves, args.layer, values, lengths, args.tolerance,
        start=start,
    )  # fmt: skip
    print(
        f"rulebook: {args.variant}, {args.pieces} pieces a side, layer {args.layer},"
        f" starting from {'the fitted evaluation' if start is not None else '1/2'}"
    )
    for name, value in record.items():
        print(f"{name}: {value:.1f}" if isinstance(value, float) else f"{name}: {value}")
    spent.update(endless_spent)
    for name, (calls, seconds) in sorted(spent.items(), key=lambda item: -item[1][1]):
        print(f"{name} wall: {seconds:.1f} s in {calls} calls")
    new, old = slice(base, base + size), saved_values[base : base + size]
    finite = np.isfinite(saved_lengths[new])
    print(f"largest value difference from the checkpoint: {np.abs(values[new] - old).max():.3g}")
    gap = np.abs(lengths[new][finite] - saved_lengths[new][finite])
    print(f"largest length difference from the checkpoint: {gap.max() if gap.size else 0:.3g}")
    for entry in generation:
        share = entry["generated"] / max(entry["throws"], 1)
        print(
            f"Bellman sweep {entry['sweep']}: moves generated for {share:.1%} of throws,"
            f" from a drift of {entry['drift']:.3g}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
