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

    @property
    def over_codes(self) -> bool:
        """Whether the largest layer alone has more states than a stored choice names
        (:func:`over_codes`)."""
        return over_codes(self.largest_layer)

    @property
    def held_whole_bytes(self) -> int:
        """What each worker of today's distributed solve lists whole (:func:`held_whole`)."""
        return held_whole(self.largest_layer)


def over_codes(largest_layer: int) -> bool:
    """Whether a layer of ``largest_layer`` states alone is more than the solver's 32-bit
    choice codes name (:data:`generator.solver.solve_sweeps.CODED_STATES`, a layer and the next
    together): its solve is refused, on one process or many, until the codes are widened."""
    from generator.solver.solve_sweeps import CODED_STATES

    return largest_layer >= CODED_STATES


WHOLE_LIST_BYTES = 8 + 4 + 4 + 4 + 4
"""What each worker of today's distributed solve lists for every state of the layer it solves,
whatever the workers, at most: the layer's sweep order (a key of up to 8 bytes and an id of 4,
:func:`generator.solver.solve_estimate.sweep_order`, made whole and then cut to the worker's
share), each state's place in it and its owner (4 bytes each, while the exchange lists are
made, :class:`generator.solver.cluster_layer.Share`), and the owner of each state of the
finished next layer (4 bytes, :class:`generator.solver.cluster_layer.Finished`); and the slot
map of the layer and the next (two bits a state of the layer at most,
:func:`generator.solver.cluster_layer.slot_map`)."""


def held_whole(largest_layer: int) -> int:
    """The bytes each worker of today's distributed solve lists whatever the workers, at most
    (:data:`WHOLE_LIST_BYTES` a state of the largest layer, and its slot map). The values and
    lengths are split (:mod:`generator.solver.cluster_layer`); these lists are not yet, and
    the plan's memory a worker is for splitting them too."""
    return WHOLE_LIST_BYTES * largest_layer + math.ceil(largest_layer / 4)


def _shared_bytes(rules: Rules, exact: bool) -> int:
    """The process and the index's tables (counted where the configurations were)."""
    if not exact:
        return PROCESS_BYTES
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    return PROCESS_BYTES + table_bytes(build_index(geo, configs), configs, geo)


@dataclass(frozen=True)
class Measured:
    """The largest layer of the game whose crossings are counted: this game where it is small
    enough to list, else the same rules with the most pieces that are."""

    graph: partition.LayerGraph
    pieces: int
    exact: bool

    def traffic(self, workers: int, largest: int) -> Traffic:
        """The crossings with ``workers`` workers, scaled to a layer of ``largest`` states."""
        graph = self.graph
        owner = partition.owners(graph, partition.CHOSEN, workers)
        found = partition.crossing(graph, owner, workers)
        if self.exact:
            return Traffic(found.per_sweep, self.pieces, True, found.once)
        scale = largest / found.states
        return Traffic(
            math.ceil(found.per_sweep * scale), self.pieces, False, math.ceil(found.once * scale)
        )


def measured(rules: Rules, states: int) -> Measured:
    """The largest layer whose crossings stand for ``rules``'s (:class:`Measured`)."""
    from generator.solver.solve import with_pieces

    pieces = rules.pieces
    if states > MAX_LISTED_STATES:
        # Upward from one piece: downward from the game's own count, the estimate would build
        # the index of games of billions of states only to find them too large.
        pieces = 1
        while (
            pieces + 1 < rules.pieces
            and estimate(with_pieces(rules, pieces + 1)).states <= MAX_LISTED_STATES
        ):
            pieces += 1
    solved = partition.game(with_pieces(rules, pieces))
    layer = int(solved.index.layer_sizes.argmax())
    return Measured(partition.layer_graph(solved, layer), pieces, pieces == rules.pieces)


@dataclass(frozen=True)
class Counted:
    """What a plan counts once, whatever the workers."""

    rules: Rules
    states: int
    exact: bool
    largest: int
    shared_bytes: int
    single_bytes: int
    crossings: Measured


def count(rules: Rules) -> Counted:
    """The states, memory and crossing share of ``rules``'s solve."""
    guess = estimate(rules)
    return Counted(
        rules,
        guess.states,
        guess.exact,
        guess.largest_layer,
        _shared_bytes(rules, guess.exact),
        guess.memory_bytes,
        measured(rules, guess.states),
    )


def planned(counted: Counted, workers: int) -> Plan:
    """The plan of ``counted``'s solve on ``workers`` workers."""
    if workers < 1:
        raise PlanRefused(f"--workers must be at least 1, got {workers}")
    traffic = counted.crossings.traffic(workers, counted.largest)
    received = FLOAT_BYTES * math.ceil((traffic.values + traffic.once) / workers)
    shared = counted.shared_bytes
    return Plan(
        counted.rules,
        workers,
        counted.states,
        counted.exact,
        counted.largest,
        math.ceil(counted.largest / workers),
        shared,
        shared + math.ceil((counted.single_bytes - shared) / workers) + received,
        counted.single_bytes,
        traffic,
    )


def plan(rules: Rules, workers: int) -> Plan:
    """The plan of solving ``rules`` on ``workers`` workers (:class:`Plan`)."""
    if workers < 1:
        raise PlanRefused(f"--workers must be at least 1, got {workers}")
    return planned(count(rules), workers)


MAX_PLANNED_WORKERS = 1_000_000


def fewest_workers(counted: Counted, max_bytes: int) -> Plan:
    """The plan with the fewest workers whose busiest one fits in ``max_bytes``."""
    room = max_bytes - counted.shared_bytes
    if room <= 0:
        raise PlanRefused(
            f"every worker holds {counted.shared_bytes / 2**30:.2f} GiB of tables and the"
            f" process; a worker of {max_bytes / 2**30:g} GiB cannot; raise --max-memory-gb"
        )
    # Each worker's share shrinks with more workers while what it receives grows slowly:
    # start from the share alone and add workers until the busiest fits.
    workers = max(1, math.ceil((counted.single_bytes - counted.shared_bytes) / room))
    while workers <= MAX_PLANNED_WORKERS:
        found = planned(counted, workers)
        if found.fits(max_bytes):
            while workers > 1 and (fewer := planned(counted, workers - 1)).fits(max_bytes):
                found, workers = fewer, workers - 1
            return found
        share = found.worker_bytes - counted.shared_bytes
        workers = max(workers + 1, math.ceil(workers * share / room))
    raise PlanRefused(f"no plan of up to {MAX_PLANNED_WORKERS:,} workers fits a worker's memory")
