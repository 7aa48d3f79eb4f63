"""A distributed solve's plan, without solving: the states, each worker's share and memory,
and the values that cross workers each sweep, under the split of
:mod:`generator.solver.partition`.

States are counted as :func:`generator.solver.solve_estimate.estimate` counts them (exactly
where a side has few enough configurations: Merit 1976 and Selchow & Righter 1977 at seven
pieces; guessed otherwise: the tablet reading at five pieces, Murray's routes). Memory per
worker is the process and the index's tables (every worker holds them whole: they are small,
and any worker may need any configuration), its share of what grows with the layer (values,
lengths, stored choices, sweep order: the estimate's working memory less the tables, split
K ways), and the values it receives from others (its share of the crossing values, held
for the layer). Traffic per sweep of the largest layer is counted exactly where the game's
states can be listed here (:data:`MAX_LISTED_STATES`); otherwise it is the crossing share
measured on the largest layer of the same rules with fewer pieces, the most that can be listed,
times the largest layer's states (extrapolated, and the plan says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.engine.rules import Rules
from generator.solver import partition
from generator.solver.solve_estimate import (
    FLOAT_BYTES,
    PROCESS_BYTES,
    estimate,
    table_bytes,
)
from generator.solver.solve_index import build_index
from generator.solver.solve_space import enumerate_configurations, geometry

MAX_LISTED_STATES = 3_000_000
"""List every successor (:func:`partition.layer_graph`) only for games this small: about 20
successors a state, 8 bytes each, half a gigabyte at most."""


class PlanRefused(ValueError):
    """The plan's input cannot be planned (a worker count below one)."""


@dataclass(frozen=True)
class Traffic:
    """Values crossing workers in a sweep of the largest layer."""

    values: int
    measured_on_pieces: int
    """The pieces a side of the game the crossing share was counted on."""
    exact: bool
    """Counted on this game itself, not extrapolated from fewer pieces."""
    once: int
    """Finished next-layer values the workers read once for the layer."""

    @property
    def bytes(self) -> int:
        return FLOAT_BYTES * self.values


@dataclass(frozen=True)
class Plan:
    """A solve of ``rules`` on ``workers`` workers."""

    rules: Rules
    workers: int
    states: int
    states_exact: bool
    largest_layer: int
    states_per_worker: int
    """The largest layer's share of its busiest worker."""
    shared_bytes: int
    """What every worker holds whole: the process and the index's tables."""
    worker_bytes: int
    """The busiest worker's memory."""
    single_bytes: int
    """One process's memory for the checkpointed solve (:func:`estimate`)."""
    traffic: Traffic

    def fits(self, max_bytes: int) -> bool:
        return self.worker_bytes <= max_bytes


def _shared_bytes(rules: Rules, exact: bool) -> int:
    """The process and the index's tables (counted where the configurations were)."""
    if not exact:
        return PROCESS_BYTES
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    return PROCESS_BYTES + table_bytes(build_index(geo, configs), configs, geo)


def largest_layer_crossing(rules: Rules, workers: int) -> tuple[int, int, int]:
    """The largest layer's (states, values crossing a sweep, next-layer values read once)
    under :data:`partition.CHOSEN`, counted exactly."""
    solved = partition.game(rules)
    layer = int(solved.index.layer_sizes.argmax())
    graph = partition.layer_graph(solved, layer)
    found = partition.crossing(graph, partition.owners(graph, partition.CHOSEN, workers), workers)
    return found.states, found.per_sweep, found.once


def _traffic(rules: Rules, workers: int, states: int, largest: int) -> Traffic:
    from generator.solver.solve import with_pieces

    if states <= MAX_LISTED_STATES:
        _, values, once = largest_layer_crossing(rules, workers)
        return Traffic(values, rules.pieces, True, once)
    pieces = rules.pieces - 1
    while pieces > 1 and estimate(with_pieces(rules, pieces)).states > MAX_LISTED_STATES:
        pieces -= 1
    size, values, once = largest_layer_crossing(with_pieces(rules, pieces), workers)
    return Traffic(
        math.ceil(values / size * largest), pieces, False, math.ceil(once / size * largest)
    )


def plan(rules: Rules, workers: int) -> Plan:
    """The plan of solving ``rules`` on ``workers`` workers (:class:`Plan`)."""
    if workers < 1:
        raise PlanRefused(f"--workers must be at least 1, got {workers}")
    guess = estimate(rules)
    shared = _shared_bytes(rules, guess.exact)
    traffic = _traffic(rules, workers, guess.states, guess.largest_layer)
    received = FLOAT_BYTES * math.ceil((traffic.values + traffic.once) / workers)
    grows = guess.memory_bytes - shared
    return Plan(
        rules,
        workers,
        guess.states,
        guess.exact,
        guess.largest_layer,
        math.ceil(guess.largest_layer / workers),
        shared,
        shared + math.ceil(grows / workers) + received,
        guess.memory_bytes,
        traffic,
    )
