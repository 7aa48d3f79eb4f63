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

    def crossing_by_worker(self, workers: int) -> int:
        """The crossing values the busiest worker receives a sweep (split evenly)."""
        return math.ceil(self.values / workers)

    def read_by_worker(self, workers: int) -> int:
        """The finished next-layer values the busiest worker reads once (split evenly)."""
        return math.ceil(self.once / workers)

    def received_by_worker(self, workers: int) -> int:
        """Every value the busiest worker receives for the layer: its crossings and reads."""
        return math.ceil((self.values + self.once) / workers)


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
        """Whether the busiest worker fits in ``max_bytes`` and its choice codes name every
        state it keeps (:attr:`codes_fit`)."""
        return self.worker_bytes <= max_bytes and self.codes_fit

    @property
    def slots_per_worker(self) -> int:
        """The states the busiest worker keeps, about: its share of the largest layer and the
        values it receives (the crossing values and the next layer's reads, split evenly)."""
        return self.states_per_worker + self.traffic.received_by_worker(self.workers)

    @property
    def codes_fit(self) -> bool:
        """Whether a worker's 32-bit choice codes name every state it keeps (fewer than
        :data:`generator.solver.solve_sweeps.CODED_STATES`; a stored choice names a slot among
        them, :mod:`generator.solver.cluster_layer`)."""
        from generator.solver.solve_sweeps import CODED_STATES

        return self.slots_per_worker < CODED_STATES

    @property
    def held_whole_bytes(self) -> int:
        """What each worker lists for every state, whatever the workers (:func:`held_whole`)."""
        return held_whole(self.largest_layer)


SLOT_MAP_BYTES = 16 / 64
"""A worker's slot map (:func:`generator.solver.held_states.held_by_share`): a bit a state of the
layer it solves and the next, and a count (8 bytes) every 64 of them."""


def held_whole(largest_layer: int) -> int:
    """The bytes each worker of a distributed solve lists for every state of the layer it
    solves and the next, whatever the workers: its slot map, at most (the next layer taken to
    be as large as the largest). Everything else a worker holds is its share
    (:mod:`generator.solver.layer_split`)."""
    return math.ceil(SLOT_MAP_BYTES * 2 * largest_layer)


SHARE_BESIDE_BYTES = 36
"""What a worker holds for each state of its share beyond one process's arrays split among the
workers (:class:`generator.solver.cluster_layer.ClusterLayerSolve`): its states' ids (8
bytes), its values put aside while the lengths are swept (8), and its share of the next
layer, which the layer asks of (:class:`generator.solver.cluster_layer.Finished`: ids 8, their
order 4 and lengths 8 beside the values one process counts; the next layer's share taken to be
as large as this one's)."""

READ_NEXT_BYTES = 76
"""For each state of the next layer a worker reads: its id (8 bytes) and owner (4), and what
asking for its value or length takes at once (:meth:`generator.solver.cluster_layer.Finished.fetch`:
eight lists of 8 bytes, the asker's and the owner's)."""

CROSSING_BYTES = 8
"""For each value a worker receives after a wave: its slot in the lists of what the worker
sends and what it receives (4 bytes each, the sends taken to be as many)."""


def beside_bytes(share: int, traffic: Traffic, workers: int) -> int:
    """What the busiest worker holds beyond its part of one process's arrays and what it
    receives: :data:`SHARE_BESIDE_BYTES` a state of its share, :data:`READ_NEXT_BYTES` a
    state of the next layer it reads, :data:`CROSSING_BYTES` a value it receives a sweep
    (the reads and crossings split evenly). Its peak comes in the lengths phase of the largest
    layer, when all of these are held at once (five-piece Finkel, one worker alone). Five-piece
    Finkel's two workers peaked at 497 and 491 MiB (each process's ``VmHWM``, this machine),
    against 0.55 GiB planned with these bytes and 0.39 GiB without them."""
    return (
        SHARE_BESIDE_BYTES * share
        + READ_NEXT_BYTES * traffic.read_by_worker(workers)
        + CROSSING_BYTES * traffic.crossing_by_worker(workers)
    )


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
    received = FLOAT_BYTES * traffic.received_by_worker(workers)
    shared = counted.shared_bytes
    every = shared + held_whole(counted.largest)
    share = math.ceil(counted.largest / workers)
    return Plan(
        counted.rules,
        workers,
        counted.states,
        counted.exact,
        counted.largest,
        share,
        shared,
        every
        + math.ceil((counted.single_bytes - shared) / workers)
        + received
        + beside_bytes(share, traffic, workers),
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
    """The plan with the fewest workers whose busiest one fits in ``max_bytes`` and names
    every state it keeps in its choice codes (:meth:`Plan.fits`)."""
    every = counted.shared_bytes + held_whole(counted.largest)
    room = max_bytes - every
    if room <= 0:
        raise PlanRefused(
            f"every worker holds {every / 2**30:.2f} GiB of tables, slot map and the"
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
        share = found.worker_bytes - every
        workers = max(workers + 1, math.ceil(workers * share / room))
    raise PlanRefused(f"no plan of up to {MAX_PLANNED_WORKERS:,} workers fits a worker's memory")
