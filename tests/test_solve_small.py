"""The small-game layers and numbering (generator/solver/solve_small.py) that policy evaluation,
the fitted agent's fit and the visit counts share: the sweep reaches every state once, in
state id order, and no move leads to a layer not yet swept (pieces borne off never come back)."""

from __future__ import annotations

import numpy as np
from test_solve import exotic, finkel

from generator.engine.position import start_position
from generator.engine.rules import Rules
from generator.solver.solve import solve
from generator.solver.solve_kernels import WIN
from generator.solver.solve_small import small_game
from generator.solver.solve_space import state_index


def check_sweep(rules: Rules) -> None:
    game = small_game(rules)
    numbered = np.flatnonzero(game.dense >= 0)
    assert sorted(game.dense[numbered]) == list(range(game.states))
    assert sum(int(m.size) for m in game.layers) == game.states
    throws = int(game.geometry.throw_values.shape[0])
    reached = 0
    numbers = []
    for layer in game.sweep():
        assert layer.base == reached
        assert list(game.dense[layer.members]) == list(range(reached, reached + layer.size))
        assert layer.counts.shape == (layer.size * throws,)
        for row in range(layer.options.shape[0]):
            options = layer.options[row, : layer.counts[row]]
            targets = options[options != WIN] >> 1
            assert (targets < reached + layer.size).all(), (layer.number, row)
        reached += layer.size
        numbers.append(layer.number)
    assert reached == game.states
    assert numbers == sorted(numbers, reverse=True) and numbers[-1] == 0
    start = state_index(game.geometry, game.configurations, start_position(rules))
    assert reached - layer.size <= game.dense[start] < reached  # nothing borne off yet


def test_the_sweep_numbers_every_state_once_and_moves_lead_only_to_swept_layers() -> None:
    check_sweep(finkel(2))
    check_sweep(exotic(2))


def test_the_solver_and_the_small_game_count_the_same_states() -> None:
    rules = finkel(2)
    assert small_game(rules).states == solve(rules, cache_dir=None).states
