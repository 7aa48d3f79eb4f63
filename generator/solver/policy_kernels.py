"""Native kernels of policy evaluation: the value and length of games under fixed policies.

They read the layer transitions :func:`generator.solver.solve_kernels.build_transitions` builds
(``options[row, :counts[row]]``, ``row = state position * throws + throw index``; an option is
``WIN`` or ``2 * state id + keeps_turn``) and, like the solver's kernels, sweep one layer in
place (Gauss-Seidel) until the largest change in a sweep is below the tolerance. Every sweep
function returns ``(sweeps, last change)``, sweeps ``-1`` when ``max_sweeps`` passed first.

The uniformly random player picks each option of a row with the same probability, as the
simulator's random agent picks among :func:`generator.sim.kernel_moves.legal_moves` (the same moves,
one per distinct piece position, with the voluntary pass last).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from generator.solver.solve_kernels import WIN, option_worth


@njit(cache=True)
def iterate_random_play(
    base: int,
    size: int,
    options: np.ndarray,
    counts: np.ndarray,
    chosen: np.ndarray,
    probs: np.ndarray,
    tables: np.ndarray,
    tolerances: np.ndarray,
    max_sweeps: int,
) -> tuple[int, float]:
    """Sweep the four random-play tables of a layer together, in place, until each changes
    by less than its tolerance (``tolerances``: values, lengths):

    - ``tables[0]``, both random: ``R(s) = sum over throws of p * mean worth of the options``;
    - ``tables[1]``, the throws left then: ``L(s) = 1 + sum of p * mean of L(next)`` (``0``
      after a win);
    - ``tables[2]``, the player following ``chosen`` (one option per row) to move against a
      random one: ``F(s) = sum of p * worth of the chosen option``, seen through ``tables[3]``
      when the turn passes;
    - ``tables[3]``, the random player to move against it: ``A(s) = sum of p * mean worth of
      the options``, seen through ``tables[2]`` when the turn passes.

    Returns (sweeps, last change of a value), sweeps ``-1`` when ``max_sweeps`` passed."""
    throws = probs.shape[0]
    both, lengths, fixed, against = tables[0], tables[1], tables[2], tables[3]
    change = 0.0
    for sweep in range(max_sweeps):
        change = 0.0
        stretch = 0.0
        for a in range(size):
            random = 0.0
            length = 1.0
            mine = 0.0
            theirs = 0.0
            for t in range(throws):
                row = a * throws + t
                p = probs[t]
                n = int(counts[row])
                ahead = 0.0
                for o in range(n):
                    option = options[row, o]
                    random += p * option_worth(option, both, both) / n
                    theirs += p * option_worth(option, against, fixed) / n
                    if option != WIN:
                        ahead += lengths[option >> 1]
                length += p * ahead / n
                mine += p * option_worth(chosen[row], fixed, against)
            s = base + a
            change = max(change, abs(random - both[s]), abs(mine - fixed[s]))
            change = max(change, abs(theirs - against[s]))
            stretch = max(stretch, abs(length - lengths[s]))
            both[s] = random
            lengths[s] = length
            fixed[s] = mine
            against[s] = theirs
        if change < tolerances[0] and stretch < tolerances[1]:
            return sweep + 1, change
    return -1, change
