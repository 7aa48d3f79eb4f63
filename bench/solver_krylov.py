"""Sweeps a layer's evaluation needs: the solver's sweeps against Krylov methods and a coarse
correction, the choices held fixed (what the solver's evaluation sweeps do between Bellman
sweeps). A lever measured for the seven-piece time, not a part of the solver.

Usage (from the repository root; needs SciPy, which the project does not depend on:
``.venv/bin/uv pip install --python .venv/bin/python scipy``):

    .venv/bin/python bench/solver_krylov.py [--variant royalur-finkel] [--pieces 4]

Solves the game, takes the final choices of its largest layer, and writes the layer's
evaluation as the linear system ``(I - M) x = b`` (``M``: the throws' chances, negative where
the turn passes, since the mover's value is one minus the opponent's; ``b``: wins and the next
layer's values). From every value at 1/2, it counts until the values move by less than the
solver's tolerance: the solver's sweep (Jacobi within a wave, Gauss-Seidel between waves);
GMRES(30) and BiCGSTAB with one such sweep as the preconditioner (an iteration of GMRES costs
about two sweeps, of BiCGSTAB four: a product with the matrix costs about what a sweep does,
both reading every successor once); and the sweep followed by an exact correction on
aggregates of states (the waves; the mover's pieces; the opponent's pieces). One figure a line,
``name: value unit``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TOLERANCE = 1e-13


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", default="royalur-finkel")
    parser.add_argument("--pieces", type=int, default=4)
    args = parser.parse_args()
    try:
        import scipy.sparse as sp
        import scipy.sparse.linalg as spla
    except ImportError:
        print("needs SciPy: .venv/bin/uv pip install --python .venv/bin/python scipy")
        return 2

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
    final = np.array(solver.solve(rules, cache_dir=None).values)
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    moves = solve_estimate.checked_move_table(geo, configs)
    layer = int(np.argmax(index.layer_sizes))
    base, size = int(index.layer_base[layer]), int(index.layer_sizes[layer])
    order, places, wave_start, largest = solve_estimate.sweep_order(geo, configs, index, layer)
    waves = wave_start.shape[0] - 1
    throws, probs = int(geo.throw_values.shape[0]), geo.throw_probs
    policy = np.empty(size * throws, dtype=np.uint32)
    settled = np.zeros(size * throws, dtype=np.uint8)
    scratch = final.copy()  # the Bellman sweep writes nothing back: it only stores choices
    for w in range(waves):
        sweeps.bellman_wave_serial(
            int(wave_start[w]), int(wave_start[w + 1]), order, base, base, scratch,
            *sweeps.NO_SLOTS, policy, settled, 1, np.inf, np.zeros(16), np.empty(largest),
            geo.packed, configs.count, moves.arrays, probs, geo.perspectives, index.borne,
            index.mask_id, index.rank, index.prefix, index.start,
        )  # fmt: skip

    own = places.astype(np.int64)  # row k of the order is state own[k] of the layer
    codes = policy.reshape(size, throws).astype(np.int64)
    b = np.zeros(size)
    rows, cols, data = [], [], []
    for t in range(throws):
        code, p = codes[:, t], float(probs[t])
        win = code == int(sweeps.WIN_CODE)
        target, keep = code >> 1, (code & 1) == 1
        inside, outside = ~win & (target < size), ~win & (target >= size)
        b[own[win]] += p
        later = final[base + target[outside]]
        b[own[outside]] += p * np.where(keep[outside], later, 1 - later)
        b[own[inside]] += np.where(keep[inside], 0.0, p)
        rows.append(own[inside])
        cols.append(target[inside])
        data.append(np.where(keep[inside], p, -p))
    M = sp.csr_matrix(
        (np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))), shape=(size, size)
    )
    A = (sp.identity(size, format="csr") - M).tocsr()
    exact = final[base : base + size]
    wave_rows = [own[int(wave_start[w]) : int(wave_start[w + 1])] for w in range(waves)]
    wave_M = [M[r] for r in wave_rows]

    def sweep(x: Any, rhs: Any) -> Any:
        for r, part in zip(wave_rows, wave_M, strict=True):
            x[r] = rhs[r] + part @ x
        return x

    def until_still(step: Callable[[Any], None]) -> tuple[int, float]:
        x = np.full(size, 0.5)
        for n in range(1, 100_000):
            old = x.copy()
            step(x)
            if np.abs(x - old).max() < TOLERANCE:
                return n, float(np.abs(x - exact).max())
        raise RuntimeError("did not converge")

    print(f"rulebook: {args.variant}, {args.pieces} pieces a side")
    print(f"layer: {layer}")
    print(f"layer states: {size}")
    print(f"layer waves: {waves}")
    print(f"successors in the layer: {M.nnz}")
    n, error = until_still(lambda x: sweep(x, b))
    print(f"solver sweeps: {n} sweeps")
    print(f"solver sweeps, largest error left: {error:.1e}")

    preconditioner = spla.LinearOperator((size, size), matvec=lambda r: sweep(np.zeros(size), r))
    calls: list[object] = []
    Run = Callable[[Callable[[object], None]], Any]  # a Krylov solve, its callback given
    krylov: tuple[tuple[str, Run, int], ...] = (
        ("GMRES(30)", lambda cb: spla.gmres(
            A, b, x0=np.full(size, 0.5), M=preconditioner, rtol=1e-14, atol=0, restart=30,
            maxiter=1000, callback=cb, callback_type="pr_norm"), 2),
        ("BiCGSTAB", lambda cb: spla.bicgstab(
            A, b, x0=np.full(size, 0.5), M=preconditioner, rtol=1e-14, atol=0, maxiter=1000,
            callback=cb), 4),
    )  # fmt: skip
    for name, solve_with, cost in krylov:
        calls.clear()
        x, _ = solve_with(calls.append)
        print(f"{name} iterations: {len(calls)} iterations")
        print(f"{name} cost: {cost * len(calls)} sweeps")
        print(f"{name} largest error left: {float(np.abs(x - exact).max()):.1e}")

    keys = order.astype(np.int64)
    by_wave = np.repeat(np.arange(waves), np.diff(wave_start))
    groups = {
        "waves": by_wave,
        "mover's pieces": (keys // configs.count) % configs.count,
        "opponent's pieces": keys % configs.count,
    }
    for name, key in groups.items():
        labels = np.empty(size, dtype=np.int64)
        labels[own] = np.unique(key, return_inverse=True)[1]
        count = int(labels.max()) + 1
        R = sp.csr_matrix((np.ones(size), (labels, np.arange(size))), shape=(count, size))
        coarse = spla.splu((R @ A @ R.T).tocsc())

        def corrected(x: Any, R: Any = R, coarse: Any = coarse) -> None:
            sweep(x, b)
            x += R.T @ coarse.solve(R @ (b - A @ x))

        n, error = until_still(corrected)
        print(f"sweep and correction on {name} ({count} groups): {n} iterations")
        print(f"sweep and correction on {name}, cost: {2 * n} sweeps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
