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
from generator.solver import solve as solver  # noqa: E402
from generator.solver import solve_kernels as kernels  # noqa: E402
from generator.solver import solve_layer  # noqa: E402
from generator.solver.solve_small import small_game  # noqa: E402
from generator.solver.solve_space import state_index  # noqa: E402

POLICIES = (
    ("exact, first", 0, False),
    ("exact, last", 0, True),
    ("16-bit, first", 65535, False),
    ("16-bit, last", 65535, True),
)


def main(variant: str) -> int:
    rules = compile_rules(load_valid_catalog(ROOT / "variants").resolve(variant))
    if not solver.solution_path(solver.DEFAULT_CACHE, rules).exists():
        print(f"no cached solution of {variant}; run ur-variants solve {variant} first")
        return 1
    solution = solver.solve(rules, max_memory_bytes=64 * 2**30)
    # The small-game kernels want each layer's ids contiguous, in sweep order: renumber.
    game = small_game(rules)
    geo, configs = game.geometry, game.configurations
    values = np.empty(game.states)
    for members in game.layers:
        values[game.dense[members]] = solution.values[solution.ids_of(members)]
    lengths = {name: np.zeros_like(values) for name, _, _ in POLICIES}
    throws = int(geo.throw_values.shape[0])
    for layer in game.sweep():
        began = time.time()
        for name, levels, last in POLICIES:
            chosen = kernels.choose_policy(
                layer.size, layer.options, layer.counts, throws, values, levels, last
            )
            kernels.mark_endless(layer.base, layer.size, chosen, lengths[name])
            kernels.iterate_lengths(
                layer.base,
                layer.size,
                chosen,
                geo.throw_probs,
                lengths[name],
                solve_layer.LENGTH_TOLERANCE,
                solve_layer.MAX_SWEEPS,
            )
        print(f"layer {layer.number}: {layer.size:,} states in {time.time() - began:.0f} s")
        del layer  # its options: the next layer's are built before the loop sets it again
    start = game.dense[state_index(geo, configs, start_position(rules))]
    for name in lengths:
        print(f"{variant} perfect game length, {name}: {lengths[name][start]:.6f} throws")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "royalur-finkel"))
