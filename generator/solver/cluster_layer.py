"""One worker's share of a layer in a distributed solve (:mod:`generator.solver.cluster`).

Every worker runs the single-process layer solve (:class:`generator.solver.solve_layer.LayerSolve`,
its sweeps the kernels of :mod:`generator.solver.solve_sweeps`) over its own runs of each wave
(:func:`generator.solver.partition.wave_runs`, the split :data:`generator.solver.partition.CHOSEN`):
its share of the sweep order, stored choices and change records, renumbered from 0, so the
kernels sweep a share exactly as they sweep a whole layer. A state's new value depends only on
the values its wave started with (Jacobi within a wave), so cutting a wave into runs changes no
bit. What ties the workers together (:class:`ClusterLayerSolve`):

* after each wave, each worker sends every other the new values of the states it owns that the
  other reads (:class:`Share`: the lists are made once a layer, as a layer's options never
  change), and all agree on the wave's largest change, which the Bellman sweeps' shortcut
  and the stopping rule read;
* the hot states (:func:`generator.solver.solve_sweeps.evaluate_hot`) are swept in place in the
  sweep order, each reading the values just written: the workers take turns, run by run, each
  sending its new values on before the next run is swept;
* the endless states are a fixed point over the whole layer: each worker gathers every stored
  choice of the layer and finds them as one process does (a layer's choices, once, 4 bytes a
  throw and state);
* a finished layer's values and lengths are gathered by every worker: the next layer reads
  them (its bearing-off successors) and the last worker to finish holds the whole solution.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from generator.engine.rules import Rules
from generator.solver import partition
from generator.solver.solve_index import StateIndex
from generator.solver.solve_layer import HOT_SPREAD, LayerSolve
from generator.solver.solve_moves import MoveTable
from generator.solver.solve_space import Configurations, FloatArray, Geometry, IntArray

if TYPE_CHECKING:
    from mpi4py import MPI


def mine(runs: IntArray, worker: int) -> IntArray:
    """The places of the sweep order in ``worker``'s runs (:func:`partition.wave_runs`), wave
    by wave: its share's order."""
    first, last = runs[:, worker], runs[:, worker + 1]
    lengths = last - first
    starts = np.concatenate(([0], np.cumsum(lengths)))
    return np.repeat(first - starts[:-1], lengths) + np.arange(int(starts[-1]), dtype=np.int64)


MAX_PAUSE = 1e-3
"""Longest sleep between two looks at an unfinished exchange (:func:`wait`), in seconds."""


def wait(request: MPI.Request) -> None:
    """Wait for an exchange without spinning. MPI's own wait polls without pause; where
    workers share cores (more workers than cores, or other work on the machine) a worker
    spinning in it takes the processor from the worker it waits for, and every wave costs a
    turn of the scheduler. It looks, sleeps (0, then 10 microseconds, doubling to a
    millisecond) and looks again."""
    pause = 0.0
    while not request.Test():
        time.sleep(pause)
        pause = min(MAX_PAUSE, 2 * pause or 1e-5)


def reduce(comm: MPI.Comm, value: float, op: MPI.Op) -> float:
    """``value`` reduced over every worker by ``op`` (waiting as :func:`wait` does)."""
    mine_, into = np.array([value], dtype=np.float64), np.empty(1)
    wait(comm.Iallreduce(mine_, into, op=op))
    return float(into[0])


def gather_layer(
    comm: MPI.Comm, places: npt.NDArray[np.uint32], runs: IntArray, base: int, array: FloatArray
) -> None:
    """Give every worker the layer's entries of ``array`` that each worker owns (its runs'
    states, ``places`` the layer's sweep order's ids less ``base``)."""
    from mpi4py import MPI

    workers = comm.size
    shares = [mine(runs, r) for r in range(workers)]
    counts = np.array([s.size for s in shares], dtype=np.int64)
    ids = base + np.concatenate([places[s] for s in shares]).astype(np.int64)
    own = np.ascontiguousarray(array[base + places[shares[comm.rank]].astype(np.int64)])
    gathered = np.empty(int(counts.sum()))
    displs = np.concatenate(([0], np.cumsum(counts)[:-1]))
    comm.Allgatherv(own, [gathered, (counts, displs), MPI.DOUBLE])
    array[ids] = gathered


READ_CHUNK = 1 << 18
"""States whose successors :func:`read_in_layer` lists at a time (about twenty successors a
state, 8 bytes each: some 40 MiB a chunk, whatever the share)."""


def read_in_layer(
    solved: partition.Game, keys: npt.NDArray[np.integer], base: int, size: int
) -> IntArray:
    """The states of the layer (ids less ``base``, ``size`` of them) that the options of the
    states ``keys`` lead to, each once, in order. The next layer's are left out: they are read
    once, gathered. Listed a chunk of :data:`READ_CHUNK` states at a time, so the successor
    lists of a whole share are never held at once."""
    found = [np.empty(0, dtype=np.int64)]
    for start in range(0, keys.shape[0], READ_CHUNK):
        chunk = keys[start : start + READ_CHUNK].astype(np.int64)
        _, successor = partition.successors(solved, chunk)
        target = successor - base
        found.append(np.unique(target[target < size]))
    return np.unique(np.concatenate(found))


class Share:
    """The values a worker sends and receives after each wave of one layer: the new values of
    its states that other workers read, and theirs that it reads. Listed once a layer (each
    worker asks the owners for the states its options lead to), sent every wave."""

    def __init__(
        self,
        comm: MPI.Comm,
        solved: partition.Game,
        layer: int,
        places: npt.NDArray[np.uint32],
        order: npt.NDArray[np.integer],
        wave_start: IntArray,
    ) -> None:
        workers, rank = comm.size, comm.rank
        index = solved.index
        self.comm = comm
        self.base = base = int(index.layer_base[layer])
        size = int(index.layer_base[layer + 1]) - base
        self.waves = waves = wave_start.shape[0] - 1
        self.runs = runs = partition.wave_runs(wave_start, workers)
        place_of = np.empty(size, dtype=places.dtype)  # each state's place in the sweep order
        place_of[places] = np.arange(size, dtype=places.dtype)
        owner = np.empty(size, dtype=np.int32)
        for r in range(workers):
            owner[places[mine(runs, r)]] = r
        read = read_in_layer(solved, order[mine(runs, rank)], base, size)
        read = read[owner[read] != rank]
        # Each list goes in sweep order: the owner sends a wave's values in that order too.
        read = read[np.argsort(place_of[read])]
        asked = [read[owner[read] == r] for r in range(workers)]
        told = self._ask(asked)
        self.send_ids, self.send_counts = self._by_wave(told, place_of, wave_start)
        self.recv_ids, self.recv_counts = self._by_wave(asked, place_of, wave_start)
        # Waves that send nothing anywhere skip the exchange (every worker knows which).
        traffic = self.send_counts.sum(axis=1) + self.recv_counts.sum(axis=1)
        from mpi4py import MPI

        self.busy = np.empty(waves, dtype=np.int64)
        comm.Allreduce(traffic, self.busy, op=MPI.SUM)
        self.values_sent = int(self.send_counts.sum())

    def _ask(self, asked: list[IntArray]) -> list[IntArray]:
        """Send each owner the states this worker reads of it; the states each worker reads
        of this one."""
        from mpi4py import MPI

        workers = self.comm.size
        counts = np.array([a.size for a in asked], dtype=np.int64)
        told_counts = np.empty(workers, dtype=np.int64)
        self.comm.Alltoall(counts, told_counts)
        told = np.empty(int(told_counts.sum()), dtype=np.int64)
        self.comm.Alltoallv(
            [np.concatenate(asked), (counts, _displs(counts)), MPI.INT64_T],
            [told, (told_counts, _displs(told_counts)), MPI.INT64_T],
        )
        return np.split(told, np.cumsum(told_counts)[:-1])

    def _by_wave(
        self, lists: list[IntArray], place_of: npt.NDArray[np.integer], wave_start: IntArray
    ) -> tuple[list[IntArray], IntArray]:
        """Per wave, the ids (less the base) of ``lists`` whose state is in that wave,
        worker after worker, and the count for each worker (a waves x workers table)."""
        workers = len(lists)
        counts = np.zeros((self.waves, workers), dtype=np.int64)
        per_wave: list[list[IntArray]] = [[] for _ in range(self.waves)]
        for r, ids in enumerate(lists):
            wave = np.searchsorted(wave_start, place_of[ids], side="right") - 1
            counts[:, r] = np.bincount(wave, minlength=self.waves)
            cut = np.concatenate(([0], np.cumsum(counts[:, r])))
            for w in range(self.waves):
                per_wave[w].append(ids[cut[w] : cut[w + 1]])
        return [np.concatenate(parts) for parts in per_wave], counts

    def exchange(self, array: FloatArray, wave: int, change: float, agree: bool) -> float:
        """Every worker's new values of ``wave`` to the workers that read them; with
        ``agree``, the wave's largest change over every worker (sent with the values, each
        message headed by its sender's ``change``), else this worker's ``change``."""
        from mpi4py import MPI

        if self.busy[wave] == 0:
            return reduce(self.comm, change, MPI.MAX) if agree else change
        heads = 1 if agree else 0
        send, recv = self.send_counts[wave] + heads, self.recv_counts[wave] + heads
        out, into = np.empty(int(send.sum())), np.empty(int(recv.sum()))
        send_at, recv_at = _displs(send), _displs(recv)
        slots = np.ones(out.size, dtype=np.bool_)
        if agree:
            slots[send_at] = False
            out[send_at] = change
        out[slots] = array[self.base + self.send_ids[wave]]
        wait(
            self.comm.Ialltoallv(
                [out, (send, send_at), MPI.DOUBLE], [into, (recv, recv_at), MPI.DOUBLE]
            )
        )
        slots = np.ones(into.size, dtype=np.bool_)
        if agree:
            slots[recv_at] = False
            change = float(into[recv_at].max())
        array[self.base + self.recv_ids[wave]] = into[slots]
        return change

    def pass_on(self, array: FloatArray, wave: int, sender: int) -> None:
        """``sender``'s new values of ``wave`` to the workers that read them (the others
        wait for theirs)."""
        if self.busy[wave] == 0:
            return
        rank = self.comm.rank
        if rank == sender:
            cut = np.concatenate(([0], np.cumsum(self.send_counts[wave])))
            for r in range(self.comm.size):
                if cut[r + 1] > cut[r]:
                    ids = self.send_ids[wave][cut[r] : cut[r + 1]]
                    wait(self.comm.Isend(np.ascontiguousarray(array[self.base + ids]), dest=r))
            return
        count = self.recv_counts[wave]
        if count[sender] == 0:
            return
        start = int(count[:sender].sum())
        into = np.empty(int(count[sender]))
        wait(self.comm.Irecv(into, source=sender))
        array[self.base + self.recv_ids[wave][start : start + into.size]] = into


def _displs(counts: IntArray) -> IntArray:
    return np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)


class ClusterLayerSolve(LayerSolve):
    """A layer's solve by one worker of ``comm``: its runs of each wave swept with the
    single-process solve's kernels, the values others need sent after each wave. Every
    worker stores the bits one process would (``tests/test_cluster.py``)."""

    def __init__(
        self,
        comm: MPI.Comm,
        rules: Rules,
        geo: Geometry,
        configs: Configurations,
        index: StateIndex,
        moves: MoveTable,
        layer: int,
        values: FloatArray,
        lengths: FloatArray,
    ) -> None:
        super().__init__(rules, geo, configs, index, moves, layer, values, lengths, None, None)
        self.comm = comm
        solved = partition.Game(rules, geo, configs, index, moves)
        self.share = Share(comm, solved, layer, self.places, self.order, self.wave_start)
        self.layer_places = self.places
        own = mine(self.share.runs, comm.rank)
        self.order, self.places = self.order[own], self.places[own]
        lengths_of_runs = np.diff(self.share.runs[:, comm.rank : comm.rank + 2], axis=1)[:, 0]
        self.wave_start = np.concatenate(([0], np.cumsum(lengths_of_runs))).astype(np.int64)
        self.size = int(own.size)
        self.agree_every_wave = False
        self.sweep_change = 0.0

    def bellman(self) -> float:
        """A Bellman sweep: the workers agree on the largest change after every wave (its
        shortcut reads the sweep's change so far); other sweeps only at their end."""
        self.agree_every_wave = True
        try:
            return super().bellman()
        finally:
            self.agree_every_wave = False

    def wave_change(self, array: FloatArray, wave: int, change: float) -> float:
        """The values sent on; the largest change of the sweep so far, over every worker
        where they agree (this worker's own elsewhere, which the sweep's end makes good)."""
        self.sweep_change = change if wave == 0 else max(self.sweep_change, change)
        agree = self.agree_every_wave or wave == self.waves - 1
        return self.share.exchange(array, wave, self.sweep_change, agree)

    def hot_floor(self) -> tuple[int, int]:
        from mpi4py import MPI

        top = int(reduce(self.comm, float(self.moved.max(initial=0)), MPI.MAX))
        floor = max(1, top - HOT_SPREAD)  # as solve_sweeps.hot_floor, over every worker
        count = reduce(self.comm, float(np.count_nonzero(self.moved >= floor)), MPI.SUM)
        return floor, int(count)

    def hot_sweep(self, array: FloatArray, of_lengths: bool, floor: int) -> float:
        """The hot states swept in place in the sweep order: run after run, each worker in
        turn, its new values passed on before the next run."""
        from mpi4py import MPI

        from generator.solver import solve_sweeps as sweeps

        worst, throws = 0.0, self.throws
        for w in range(self.waves):
            for sender in range(self.comm.size):
                lo, hi = int(self.wave_start[w]), int(self.wave_start[w + 1])
                if sender == self.comm.rank and hi > lo:
                    change = sweeps.evaluate_hot(
                        self.moved[lo:hi], floor, self.places[lo:hi], self.base, array,
                        self.policy[lo * throws : hi * throws], self.geo.throw_probs, of_lengths,
                    )  # fmt: skip
                    worst = max(worst, float(change))
                self.share.pass_on(array, w, sender)
        return reduce(self.comm, worst, MPI.MAX)

    def mark_endless(self) -> int:
        """Every worker gathers the layer's stored choices and finds its endless states as
        one process does (a least fixed point over the whole layer)."""
        from mpi4py import MPI

        from generator.solver import solve_sweeps as sweeps

        throws, runs = self.throws, self.share.runs
        shares = [mine(runs, r) for r in range(self.comm.size)]
        counts = np.array([s.size * throws for s in shares], dtype=np.int64)
        gathered = np.empty(int(counts.sum()), dtype=np.uint32)
        self.comm.Allgatherv(self.policy, [gathered, (counts, _displs(counts)), MPI.UINT32_T])
        policy = np.empty((self.layer_states, throws), dtype=np.uint32)
        policy[np.concatenate(shares)] = gathered.reshape(-1, throws)
        endless = sweeps.mark_endless(
            self.base, self.layer_states, self.layer_places, policy.reshape(-1), throws,
            self.lengths,
        )  # fmt: skip
        return int(endless)

    def working_bytes(self) -> int:
        """This worker's share of the layer's working memory: its order, stored choices and
        records, and the lists of values it sends and receives."""
        share = self.share
        lists = sum(a.nbytes for a in (*share.send_ids, *share.recv_ids))
        return int(
            self.order.nbytes + self.places.nbytes + self.policy.nbytes + self.settled.nbytes
            + self.new_values.nbytes + 2 * self.size + lists + self.layer_places.nbytes
        )  # fmt: skip
