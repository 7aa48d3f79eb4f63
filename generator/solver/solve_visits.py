"""How often perfect play passes through each position, exactly, from a solved game.

With the solver's policy fixed (of the moves of highest value, the first in the engine's
order: :func:`generator.solver.solve_kernels.choose_policy`), a game from the start is a Markov
chain over the solved states. The expected number of throws made from state ``s`` is

    N(s) = [s is the start] + sum over (u, t) with policy(u, t) = s of N(u) * p(t),

and the sum of ``N`` over all states is the expected length of a perfect game (a check:
``tests/test_solve_visits.py`` compares it with :attr:`Solution.expected_throws`). ``N`` is
found by pushing the start's unit of probability along the chosen moves until what is left
to push is below a tolerance; most moves advance, so sweeping from the least advanced states
to the most carries the flow through in few sweeps (a capture sends some back for the next).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from generator.engine.position import start_position
from generator.solver.solution import Solution
from generator.solver.solve_small import layer_states, transitions
from generator.solver.solve_space import FloatArray

VISIT_TOLERANCE = 1e-13
"""Probability left unpushed at which the visit counts count as converged."""

MAX_VISIT_SWEEPS = 1_000_000


def perfect_policy(solution: Solution) -> np.ndarray:
    """The solver's chosen option for every (state id, throw index), row ``id * throws + t``:
    rebuilt layer by layer from the solved values, as :func:`generator.solver.solve._solve` made
    them (the solution keeps values, not moves)."""
    from generator.solver import solve_kernels as kernels

    geo, configs = solution.geometry, solution.configurations
    throws = int(geo.throw_values.shape[0])
    chosen = np.empty((solution.states, throws), dtype=np.int32)
    values = np.asarray(solution.values)
    for members in reversed(layer_states(geo, configs, solution.rules.pieces)):
        size = int(members.size)
        if size == 0:
            continue
        options, counts = transitions(members, geo, configs, solution.dense)
        layer = kernels.choose_policy(size, options, counts, throws, values, 0, False)
        chosen[solution.dense[members]] = layer.reshape(size, throws)
    return chosen.ravel()


def expected_visits(solution: Solution) -> FloatArray:
    """``[state id]`` the expected number of throws made from each state in a game from the
    start with both sides playing the solver's policy."""
    chosen = perfect_policy(solution)
    start = solution.index(start_position(solution.rules))
    visits, sweeps = _push(
        start,
        chosen,
        solution.geometry.throw_probs,
        solution.states,
        VISIT_TOLERANCE,
        MAX_VISIT_SWEEPS,
    )
    if sweeps < 0:
        raise RuntimeError(f"{solution.rules.variant}: visit counts did not converge")
    return visits


@njit(cache=True)
def _push(
    start: int,
    chosen: np.ndarray,
    probs: np.ndarray,
    states: int,
    tolerance: float,
    max_sweeps: int,
) -> tuple[np.ndarray, int]:
    """Push the start's probability along the chosen options; (visits, sweeps) or sweeps ``-1``.

    State ids run layer by layer from the fewest pieces borne off (the start's layer) to the
    most (:mod:`generator.solver.solve_index`), the way the flow goes, so the sweep runs upwards."""
    throws = probs.shape[0]
    visits = np.zeros(states)
    residual = np.zeros(states)
    residual[start] = 1.0
    for sweep in range(max_sweeps):
        for s in range(states):
            mass = residual[s]
            if mass == 0.0:
                continue
            residual[s] = 0.0
            visits[s] += mass
            for t in range(throws):
                option = chosen[s * throws + t]
                if option >= 0:
                    residual[option >> 1] += mass * probs[t]
        if residual.sum() < tolerance:
            return visits, sweep + 1
    return visits, -1
