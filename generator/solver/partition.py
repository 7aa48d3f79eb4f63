"""How a distributed solve splits a layer among K workers, and the values that cross them.

The design (no cluster yet: this module measures it, :mod:`generator.solver.solve_plan` costs
it). A layer is solved as one process solves it (:mod:`generator.solver.solve_layer`): sweeps
over its waves, highest total progress first, each wave read from the values the earlier waves
left (Gauss-Seidel between waves, Jacobi within one). So that the distributed solve stores
the same bits, every worker takes part in every wave, and the states of a wave are split among
the workers:

* **The split: each wave cut into K contiguous runs of the sweep order** (:data:`CHOSEN`).
  Within a wave the order is sorted by the opponent's configuration
  (:func:`generator.solver.solve_waves.layer_order`), and a move that captures nothing makes
  the opponent the next mover, whose states the perfect index numbers together
  (:mod:`generator.solver.solve_index`): a run of opponents reads a few of the next waves'
  rows. Every worker holds ``1/K`` of each wave, so the waves stay parallel.
* **What a worker receives each sweep:** the new value of every successor in the layer that
  another worker owns, once per sweep (each value changes once a sweep), after the wave that
  wrote it and before the wave that reads it. Which states those are is fixed for the layer
  (the options do not change, only which is best), so the lists are exchanged once and a sweep
  sends values alone, 8 bytes each (float64, :data:`generator.solver.solve_estimate.FLOAT_BYTES`).
  The expected lengths' sweeps send the same number again.
* **What it receives once a layer:** the finished next layer's values (and lengths) of its
  states' bearing-off successors, which never change while the layer is solved.
* **What it checkpoints:** its part of the layer's values, lengths, stored choices and their
  records at the end of the layer (and the progress of an unfinished layer, as
  :class:`generator.solver.solve_checkpoints.Checkpoints` saves it), so a lost worker costs at
  most its unfinished layer; it keeps the finished next layer's values it read until its layer
  is done.

Candidate splits (:data:`SPLITS`), measured exactly by :func:`measure` over every layer: every
option of every throw of every state, the successors a sweep that generates every move reads
(the sweeps that evaluate stored choices read a subset). With four workers, the values crossing
workers in a sweep, per state of the game, and the balance (a perfect split's sweep time against
this one's, each wave waiting for its busiest worker; ``1``: every worker always busy), printed
by ``python -m generator.solver.partition VARIANT PIECES 4``::

    split             Finkel, 2 pieces    Finkel, 3 pieces
                      crossing  balance   crossing  balance
    index ranges      1.41      0.41      1.56      0.44
    opponent ranges   0.83      0.41      0.88      0.44
    borne classes     1.41      0.41      1.50      0.45
    sweep bands       0.55      0.26      0.57      0.25
    wave runs         1.51      0.97      1.50      1.00
    hashed (id mod K) 2.16      0.82      2.42      0.95

(Two pieces: 12,869 states; three: 263,121. A value read by two workers crosses twice.)
Splits that keep a worker's successors at home (bands of total progress; the pieces each side
has borne off, which no move within a layer changes; ranges of the opponent, who moves next)
leave most workers idle in each wave, as the waves are swept in turn: a sweep then takes two
to four times as long as a balanced one. Of the splits that keep every worker busy, runs of
each wave send the fewest values, about one and a half a state each sweep with four workers,
against well over two for a hashed split. (Ranges of the opponent send fewer because each
worker's reads fall in few other workers' rows; ranges balanced within each wave, one set a
wave, are what runs of the wave already are, as the order sorts a wave by the opponent.)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from generator.engine.rules import Rules
from generator.sim.kernel_moves import MAX_MOVES, header
from generator.solver.solve_estimate import FLOAT_BYTES, checked_move_table, sweep_order
from generator.solver.solve_index import StateIndex, build_index
from generator.solver.solve_moves import WIN, MoveArrays, MoveTable, table_successors
from generator.solver.solve_space import (
    Configurations,
    Geometry,
    IntArray,
    enumerate_configurations,
    geometry,
)
from generator.solver.solve_sweeps import state_id

SPLITS = ("index-ranges", "opponent-ranges", "borne-classes", "sweep-bands", "wave-runs", "hashed")
"""The candidate splits :func:`owners` knows."""

CHOSEN = "wave-runs"
"""The split a distributed solve uses (the module's docstring says why)."""


@dataclass(frozen=True)
class LayerGraph:
    """A layer's states in sweep order and every option's successor."""

    layer: int
    base: int
    size: int
    places: npt.NDArray[np.integer[Any]]
    """Each place of the sweep order's state id less ``base``."""
    wave_start: npt.NDArray[np.int64]
    opponent: IntArray
    """Each place's opponent configuration."""
    mover: IntArray
    """Each place's perspective and mover ``p * C + i``."""
    opponent_borne: IntArray
    """Each place's opponent's pieces borne off."""
    first: IntArray
    """Successors of place ``k`` are ``successor[first[k]:first[k + 1]]``."""
    successor: IntArray
    """State ids (this layer's and the next's; a win has none)."""


@njit(cache=True)
def _successors(
    keys: np.ndarray,
    packed: np.ndarray,
    count: int,
    table_arrays: MoveArrays,
    throws: int,
    perspectives: int,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
    first: np.ndarray,
    out: np.ndarray,
    out_keys: np.ndarray,
    counting: bool,
) -> int:
    """Every option's successor id of each state (keys ``(p * C + i) * C + j``) into ``out``,
    and its key into ``out_keys`` unless that is empty, ``first`` marking each state's start
    (unless ``counting``); returns how many."""
    K = header(packed)
    movers = np.zeros(MAX_MOVES, dtype=np.int64)
    opponents = np.zeros(MAX_MOVES, dtype=np.int64)
    keeps = np.zeros(MAX_MOVES, dtype=np.bool_)
    n = 0
    for k in range(keys.shape[0]):
        key = keys[k]
        p = key // (count * count)
        i = (key // count) % count
        j = key % count
        next_p = (1 - p) if perspectives == 2 else 0
        if not counting:
            first[k] = n
        for t in range(throws):
            found = table_successors(
                K, packed, table_arrays, count, throws, i, j, p, t, movers, opponents, keeps
            )
            for m in range(found):
                if movers[m] == WIN:
                    continue
                if not counting:
                    if keeps[m]:
                        to_p, to_mover, to_opponent = p, movers[m], opponents[m]
                    else:
                        to_p, to_mover, to_opponent = next_p, opponents[m], movers[m]
                    out[n] = state_id(to_p, to_mover, to_opponent, borne, mask_id, rank,
                                      prefix, start)  # fmt: skip
                    if out_keys.shape[0] > 0:
                        out_keys[n] = (to_p * count + to_mover) * count + to_opponent
                n += 1
    if not counting:
        first[keys.shape[0]] = n
    return n


@dataclass(frozen=True)
class Game:
    """What the partition reads of a game: its geometry, configurations, index and moves."""

    rules: Rules
    geo: Geometry
    configs: Configurations
    index: StateIndex
    moves: MoveTable


def game(rules: Rules) -> Game:
    """The solver's tables for ``rules`` (as :func:`generator.solver.solve._solve` builds them)."""
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    return Game(rules, geo, configs, index, checked_move_table(geo, configs))


def successors(solved: Game, keys: IntArray) -> tuple[IntArray, IntArray]:
    """Every option's successor id of the states ``keys`` (``(p * C + i) * C + j``): the
    successors of ``keys[k]`` are ``successor[first[k]:first[k + 1]]``; returns
    ``(first, successor)``."""
    first, successor, _ = _listed_successors(solved, keys, False)
    return first, successor


def successors_with_keys(solved: Game, keys: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """:func:`successors`, and each successor's key ``(p * C + i) * C + j`` too."""
    return _listed_successors(solved, keys, True)


def _listed_successors(
    solved: Game, keys: IntArray, with_keys: bool
) -> tuple[IntArray, IntArray, IntArray]:
    geo, index = solved.geo, solved.index
    args = (
        keys, geo.packed, solved.configs.count, solved.moves.arrays,
        int(geo.throw_values.shape[0]), geo.perspectives, index.borne, index.mask_id,
        index.rank, index.prefix, index.start,
    )  # fmt: skip
    first = np.zeros(keys.shape[0] + 1, dtype=np.int64)
    nowhere = np.empty(0, dtype=np.int64)
    total = _successors(*args, first, nowhere, nowhere, True)
    successor = np.empty(total, dtype=np.int64)
    successor_keys = np.empty(total if with_keys else 0, dtype=np.int64)
    _successors(*args, first, successor, successor_keys, False)
    return first, successor, successor_keys


def wave_runs(wave_start: IntArray, workers: int) -> IntArray:
    """Where each worker's run of each wave starts under :data:`CHOSEN`: row ``w`` holds the
    ``workers + 1`` places cutting wave ``w`` into runs (worker ``r``'s is
    ``runs[w, r]:runs[w, r + 1]``), as :func:`owners` assigns them."""
    begin = np.asarray(wave_start[:-1], dtype=np.int64)[:, None]
    length = np.diff(np.asarray(wave_start, dtype=np.int64))[:, None]
    # owners: place k goes to (k - begin) * K // length, so run r starts at the first k with
    # (k - begin) * K >= r * length.
    share = np.arange(workers + 1, dtype=np.int64)[None, :] * length
    return np.asarray(begin - np.floor_divide(-share, workers), dtype=np.int64)


def layer_graph(solved: Game, layer: int) -> LayerGraph:
    """The layer's sweep order and each state's successors."""
    geo, index = solved.geo, solved.index
    order = sweep_order(geo, solved.configs, index, layer)
    keys = order.order.astype(np.int64)
    count = solved.configs.count
    first, successor = successors(solved, keys)
    base = int(index.layer_base[layer])
    return LayerGraph(
        layer, base, int(index.layer_base[layer + 1]) - base, order.places, order.wave_start,
        keys % count, keys // count, index.borne[keys % count], first, successor,
    )  # fmt: skip


def owners(graph: LayerGraph, split: str, workers: int) -> IntArray:
    """Each state's worker (by id less the layer's base) under the named split."""
    size, places = graph.size, graph.places.astype(np.int64)
    owner = np.empty(size, dtype=np.int64)
    by_place = np.arange(size, dtype=np.int64)
    if split == "index-ranges":
        return by_place * workers // size
    if split == "hashed":
        return by_place % workers
    if split == "sweep-bands":
        owner[places] = by_place * workers // size
        return owner
    if split == "wave-runs":
        wave = np.repeat(np.arange(graph.wave_start.size - 1), np.diff(graph.wave_start))
        begin = graph.wave_start[wave]
        length = graph.wave_start[wave + 1] - begin
        owner[places] = (by_place - begin) * workers // length
        return owner
    if split == "opponent-ranges":
        ranked = np.lexsort((places, graph.opponent))
    elif split == "borne-classes":
        # The pieces each side has borne off: no move within a layer changes them, and a move
        # that hands the turn over swaps them, so the unordered pair keeps successors at home.
        borne = np.stack([graph.layer - graph.opponent_borne, graph.opponent_borne])
        ranked = np.lexsort((places, borne.max(axis=0), borne.min(axis=0)))
    else:
        raise ValueError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
    owner[places[ranked]] = by_place * workers // size
    return owner


@dataclass(frozen=True)
class Crossing:
    """The values a split sends in one layer (:func:`crossing`)."""

    states: int
    per_sweep: int
    """Same-layer values that reach a worker from another, summed over workers: each once a
    sweep."""
    once: int
    """Next-layer values a worker reads and does not own (every one: the next layer is held
    by whoever solved it), once for the layer."""
    busiest: int
    """Summed over the waves, the largest worker's share of each: a sweep's critical path."""
    largest: int
    """The most states one worker owns."""


def crossing(graph: LayerGraph, owner: IntArray, workers: int) -> Crossing:
    """Exactly how many values cross workers in a sweep of ``graph``'s layer under ``owner``."""
    counts = np.diff(graph.first)
    place_owner = owner[graph.places.astype(np.int64)]
    reader = np.repeat(place_owner, counts)
    target = graph.successor - graph.base
    inside = target < graph.size
    remote = inside & (owner[np.where(inside, target, 0)] != reader)
    per_sweep = np.unique(reader[remote] * graph.size + target[remote]).size
    outside = target[~inside]
    once = np.unique(reader[~inside] * (int(outside.max(initial=0)) + 1) + outside).size
    busiest = 0
    for w in range(graph.wave_start.size - 1):
        part = place_owner[graph.wave_start[w] : graph.wave_start[w + 1]]
        busiest += int(np.bincount(part, minlength=workers).max())
    largest = int(np.bincount(owner, minlength=workers).max())
    return Crossing(graph.size, per_sweep, once, busiest, largest)


@dataclass(frozen=True)
class Measured:
    """A split's crossings summed over a game's layers."""

    split: str
    workers: int
    states: int
    per_sweep: int
    once: int
    busiest: int
    largest: int

    @property
    def cross_fraction(self) -> float:
        """Values crossing a sweep, a share of the game's states."""
        return self.per_sweep / self.states

    @property
    def balance(self) -> float:
        """A perfect split's sweep time against this one's (``1``: every worker always busy)."""
        return self.states / (self.workers * self.busiest)

    @property
    def bytes_per_sweep(self) -> int:
        return FLOAT_BYTES * self.per_sweep


def measure(rules: Rules, workers: int, splits: tuple[str, ...] = SPLITS) -> list[Measured]:
    """Every split's crossings with ``workers`` workers, counted over every layer of
    ``rules``'s game (every option's successor listed: small games only)."""
    solved = game(rules)
    totals = {split: [0, 0, 0, 0, 0] for split in splits}
    for layer in range(len(solved.index.layer_sizes)):
        if int(solved.index.layer_sizes[layer]) == 0:
            continue
        graph = layer_graph(solved, layer)
        for split in splits:
            found = crossing(graph, owners(graph, split, workers), workers)
            for slot, figure in enumerate(
                (found.states, found.per_sweep, found.once, found.busiest, found.largest)
            ):
                totals[split][slot] = (
                    max(totals[split][slot], figure) if slot == 4 else totals[split][slot] + figure
                )
    return [Measured(split, workers, *totals[split]) for split in splits]


def main(argv: list[str]) -> int:
    """``python -m generator.solver.partition VARIANT PIECES WORKERS``: each split's figures."""
    from generator.engine.rules import compile_rules
    from generator.model.catalog import load_catalog
    from generator.solver.solve import with_pieces

    variant, pieces, workers = argv[0], int(argv[1]), int(argv[2])
    catalog, _ = load_catalog(Path(__file__).resolve().parents[2] / "variants")
    rules = with_pieces(compile_rules(catalog.resolve(variant)), pieces)
    for found in measure(rules, workers):
        print(
            f"{variant} {pieces} pieces, {workers} workers, {found.split}: {found.states:,}"
            f" states, {found.per_sweep:,} cross a sweep ({found.cross_fraction:.3f}),"
            f" {found.once:,} next-layer values once, balance {found.balance:.3f},"
            f" largest {found.largest:,}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
