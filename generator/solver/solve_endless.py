"""The states of a solved layer from which play can go on for ever under its stored choices
(:func:`mark_endless`): their expected length is infinite, and the length sweeps start the
others from 0. Stored choices are coded as :mod:`generator.solver.solve_sweeps` codes them."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from generator.solver.solve_sweeps import WIN_CODE


def mark_endless(
    base: int, size: int, places: np.ndarray, policy: np.ndarray, throws: int, lengths: np.ndarray
) -> int:
    """Set ``lengths`` to infinity for the layer's states from which, under the stored
    choices, the game can go on for ever, and return how many; the others start at 0.

    A state ends surely when some throw's choice wins or leads to a state that ends surely
    (in this layer, or a finite one in the next); the states that cannot reach the end, and
    every state whose choices can lead to one of them, are endless. Both are least fixed
    points, reached by repeated sweeps (:func:`mark_until_fixed`; the result does not depend on
    their order, so a distributed solve reaches them worker by worker)."""
    ends = np.zeros(size, dtype=np.bool_)
    mark_until_fixed(base, size, places, policy, throws, lengths, ends, False)
    endless = ~ends
    mark_until_fixed(base, size, places, policy, throws, lengths, endless, True)
    return write_endless(base, size, lengths, endless)


@njit(cache=True, parallel=True)
def mark_until_fixed(
    base: int,
    size: int,
    places: np.ndarray,
    policy: np.ndarray,
    throws: int,
    lengths: np.ndarray,
    flags: np.ndarray,
    spreading: bool,
) -> int:
    """Mark in ``flags`` the states at ``places`` (rows of ``policy``), given the marks already
    made, until no more can be; returns how many it marked. A state is marked when some throw's
    choice leads to a marked state of this layer (a slot below ``size``) or, in the next, to a
    state of finite length (its length at ``base`` plus its slot) or, ``spreading``, of
    infinite length; or, not ``spreading``, when a choice wins. Not ``spreading``: the states
    that end surely; ``spreading`` from the states that cannot: the endless states."""
    marked = 0
    changed = 1
    while changed > 0:
        changed = 0
        for k in prange(places.shape[0]):
            a = places[k]
            if flags[a]:
                continue
            for t in range(throws):
                code = policy[k * throws + t]
                if code == WIN_CODE:
                    hit = not spreading
                else:
                    target = code >> 1
                    if target >= size:
                        hit = np.isfinite(lengths[base + target]) != spreading
                    else:
                        hit = flags[target]
                if hit:
                    flags[a] = True
            if flags[a]:
                changed += 1
        marked += changed
    return marked


@njit(cache=True)
def write_endless(base: int, size: int, lengths: np.ndarray, endless: np.ndarray) -> int:
    """The starting lengths of the layer's ``size`` slots past ``base``: infinite where
    ``endless``, else 0; how many are endless."""
    total = 0
    for a in range(size):
        if endless[a]:
            lengths[base + a] = np.inf
            total += 1
        else:
            lengths[base + a] = 0.0
    return total
