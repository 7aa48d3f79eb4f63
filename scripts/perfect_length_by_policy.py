"""Expected length of a perfect game under four ways of choosing among near-equal best moves.

The solver's expected length follows one policy: the first best move in the engine's order.
This script recomputes it, from a cached solution, for the first and the last best move, both
on the exact values and on values rounded to 16 bits (as a player reading a 16-bit database
would rank moves). Solve first, then run (from the repository root)::

    .venv/bin/ur-variants solve royalur-finkel --max-memory-gb 12
    .venv/bin/python scripts/perfect_length_by_policy.py royalur-finkel

Seven-piece Finkel, measured once (about 70 minutes, 11 GiB): exact values, first or last best
move, 209.869874 throws; 16-bit values, first 209.911, last 209.837.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.engine.position import start_position  # noqa: E402
from generator.engine.rules import compile_rules  # noqa: E402
from generator.model.catalog import load_valid_catalog  # noqa: E402
from generator.sim import solve as solver  # noqa: E402
from generator.sim import solve_kernels as kernels  # noqa: E402
from generator.sim.solve_space import enumerate_configurations, geometry, state_index  # noqa: E402

POLICIES = (("exact, first", 0, False), ("exact, last", 0, True))
POLICIES += (("16-bit, first", 65535, False), ("16-bit, last", 65535, True))


def layer_of_size(geo: object, configs: object) -> int:
    """How many state indices there are (perspectives * configurations squared)."""
    return int(geo.perspectives * configs.count**2)  # type: ignore[attr-defined]


def main(variant: str) -> int:
    rules = compile_rules(load_valid_catalog(ROOT / "variants").resolve(variant))
    geo = geometry(rules)
    if not solver.solution_path(solver.DEFAULT_CACHE, rules).exists():
        print(f"no cached solution of {variant}; run ur-variants solve {variant} first")
        return 1
    solution = solver.solve(rules, max_memory_bytes=64 * 2**30)
    configs = enumerate_configurations(rules, geo)
    layer_of = kernels.classify_states(
        configs.table, geo.cells, geo.off, geo.stack_limit, geo.perspectives
    )
    layers = solver._layer_states(layer_of, configs, rules.pieces)
    del layer_of
    # The small-game kernels want each layer's ids contiguous, in sweep order: renumber.
    dense = np.full(layer_of_size(geo, configs), -1, dtype=np.int32)
    values = np.empty(solution.states)
    base = 0
    for members in reversed(layers):
        dense[members] = np.arange(base, base + members.size, dtype=np.int32)
        values[base : base + members.size] = solution.values[solution.ids_of(members)]
        base += members.size
    lengths = {name: np.zeros_like(values) for name, _, _ in POLICIES}
    throws = int(geo.throw_values.shape[0])
    base = 0
    for layer, members in reversed(list(enumerate(layers))):
        size = int(members.size)
        began = time.time()
        options, counts = kernels.build_transitions(
            members, *solver._kernel_arguments(geo, configs, dense)
        )
        for name, levels, last in POLICIES:
            chosen = kernels.choose_policy(size, options, counts, throws, values, levels, last)
            kernels.mark_endless(base, size, chosen, lengths[name])
            kernels.iterate_lengths(
                base,
                size,
                chosen,
                geo.throw_probs,
                lengths[name],
                solver.LENGTH_TOLERANCE,
                solver.MAX_SWEEPS,
            )
        del options, counts
        base += size
        print(f"layer {layer}: {size:,} states in {time.time() - began:.0f} s", flush=True)
    start = dense[state_index(geo, configs, start_position(rules))]
    for name in lengths:
        print(f"{variant} perfect game length, {name}: {lengths[name][start]:.6f} throws")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "royalur-finkel"))
