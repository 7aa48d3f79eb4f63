"""Small games with every option stored: the layers, the numbering and the transitions that the
exact policy evaluation (:mod:`generator.solver.policy_eval`), the fitted agent's fit
(:mod:`generator.solver.fitted_agent`) and the visit counts (:mod:`generator.solver.solve_visits`)
read.

A state index is ``(p * C + mover) * C + opponent``
(:func:`generator.solver.solve_space.state_index`, ``C`` configurations a side, ``p`` the mover's
perspective). Borne-off pieces never come back and a move bears off at most one, so the states are
layered by the pieces borne off by both sides, and a layer's moves lead only into itself and the
next layer. A small game is swept layer by layer from the most borne off to the fewest, as the
solver does (:mod:`generator.solver.solve`); its states are numbered consecutively in that order
(within a layer, the most advanced first), and each layer's options are built when it is reached
(:func:`generator.solver.solve_kernels.build_transitions`: every (state, throw)'s options in the
simulator kernel's move order, so a random player here picks among the moves the simulator offers).
Large games are solved without storing options (:mod:`generator.solver.solve_sweeps`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from generator.engine.rules import Rules
from generator.solver.solve_space import (
    Configurations,
    Geometry,
    IntArray,
    enumerate_configurations,
    geometry,
)


def layer_states(geo: Geometry, configs: Configurations, pieces: int) -> list[IntArray]:
    """The state indices of each layer (``[k]``: ``k`` pieces borne off by both sides, the
    finished states left out), the most advanced states of a layer first (the sum of both
    sides' progress, ties in index order)."""
    from generator.solver import solve_kernels as kernels

    layer_of = kernels.classify_states(
        configs.table, geo.cells, geo.off, geo.stack_limit, geo.perspectives
    )
    count = configs.count
    progress_sum = configs.table.sum(axis=1)
    layers = []
    for layer in range(2 * pieces - 1):
        members = np.flatnonzero(layer_of == layer).astype(np.int64)
        advanced = progress_sum[(members // count) % count] + progress_sum[members % count]
        layers.append(members[np.argsort(-advanced, kind="stable")])
    return layers


def transitions(
    members: IntArray, geo: Geometry, configs: Configurations, dense: npt.NDArray[np.int32]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]:
    """The options of every (state, throw) of a layer, ``options[row, :counts[row]]`` with
    ``row = position in members * throws + throw index``, the targets numbered by ``dense``
    (``[state index]`` -> state id; every state the layer's moves reach must have one):
    :func:`generator.solver.solve_kernels.build_transitions`."""
    from generator.solver import solve_kernels as kernels

    return kernels.build_transitions(
        members,
        configs.table,
        configs.code_to_config,
        geo.packed,
        geo.piece_of_slot,
        geo.throw_values,
        geo.group_start,
        geo.group_size,
        geo.group_stride,
        geo.binom,
        geo.perspectives,
        dense,
    )


@dataclass(frozen=True)
class Layer:
    """One layer of a small game as the sweep reaches it."""

    number: int
    """Pieces borne off by both sides."""
    base: int
    """The state id of its first state (its states are ``base`` to ``base + size - 1``)."""
    members: IntArray
    """Its state indices, in state id order."""
    options: npt.NDArray[np.int32]
    counts: npt.NDArray[np.int8]
    """:func:`transitions` of the layer."""

    @property
    def size(self) -> int:
        return int(self.members.size)


@dataclass(frozen=True)
class SmallGame:
    """A game's states, numbered for the stored-option kernels."""

    rules: Rules
    geometry: Geometry
    configurations: Configurations
    layers: list[IntArray]
    """:func:`layer_states`."""
    dense: npt.NDArray[np.int32]
    """``[state index]`` -> state id, ``-1`` for impossible or finished states; ids run from
    the most borne-off layer to the fewest."""
    states: int

    def sweep(self) -> Iterator[Layer]:
        """The layers that hold states, from the most borne off to the fewest, each with its
        transitions, built when it is reached and not kept here (a caller that lets go of a
        layer before asking for the next holds one layer's options at a time)."""
        base = 0
        for number in reversed(range(len(self.layers))):
            members = self.layers[number]
            if members.size == 0:
                continue
            geo, configs = self.geometry, self.configurations
            yield Layer(number, base, members, *transitions(members, geo, configs, self.dense))
            base += int(members.size)


def small_game(rules: Rules) -> SmallGame:
    """The states of ``rules`` (as given: pass the reduced game), numbered for a sweep."""
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    layers = layer_states(geo, configs, rules.pieces)
    dense = np.full(geo.perspectives * configs.count**2, -1, dtype=np.int32)
    base = 0
    for members in reversed(layers):
        dense[members] = np.arange(base, base + members.size, dtype=np.int32)
        base += int(members.size)
    return SmallGame(rules, geo, configs, layers, dense, base)


__all__ = ["Layer", "SmallGame", "layer_states", "small_game", "transitions"]
