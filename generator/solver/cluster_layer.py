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
* the endless states are least fixed points over the whole layer: each worker marks its own
  states as one process does, the workers send on the marks others read, and they go on
  until no worker marks another (the fixed points do not depend on the order of marking);
* a finished layer's values and lengths stay with their owners: a worker asks the owners for
  those its next layer reads (its bearing-off successors), once, and the first worker writes
  each finished layer into the whole solution's files, on disk.

A worker keeps only the values and lengths it writes and reads (:class:`Held`): its share,
the states of its layer its share's options lead to, and those of the next layer; a stored
choice names the successor's slot among them, so the kernels that evaluate stored choices read
a worker's arrays as they read a whole layer's, and the Bellman sweeps find a successor's slot
from its id by a bit a state of the layer and the next
(:func:`generator.solver.solve_sweeps.slot`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from numba import njit

from generator.engine.rules import Rules
from generator.solver import partition
from generator.solver import solve_sweeps as sweeps
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


def layer_owner(
    places: npt.NDArray[np.uint32], runs: IntArray, workers: int
) -> npt.NDArray[np.int32]:
    """Each state's worker (by id less the layer's base; ``places`` the layer's sweep order's
    ids less the base, ``runs`` its split, :func:`partition.wave_runs`)."""
    owner = np.empty(places.size, dtype=np.int32)
    for r in range(workers):
        owner[places[mine(runs, r)]] = r
    return owner


def gather_to_first(
    comm: MPI.Comm,
    places: npt.NDArray[np.uint32],
    runs: IntArray,
    base: int,
    own: FloatArray,
    whole: FloatArray | None,
) -> None:
    """Write every worker's ``own`` entries of a finished layer (its share's, in its runs'
    order) into the first worker's ``whole`` array (``places`` the layer's sweep order's ids
    less ``base``)."""
    from mpi4py import MPI

    workers = comm.size
    shares = [mine(runs, r) for r in range(workers)]
    counts = np.array([s.size for s in shares], dtype=np.int64)
    gathered = np.empty(int(counts.sum())) if comm.rank == 0 else None
    comm.Gatherv(
        np.ascontiguousarray(own), [gathered, (counts, _displs(counts)), MPI.DOUBLE], root=0
    )
    if whole is not None and gathered is not None:
        whole[base + np.concatenate([places[s] for s in shares]).astype(np.int64)] = gathered


class Finished:
    """A worker's share of a finished layer: its states' values and lengths in its share's
    order (``ids``, less the layer's base), and every state's owner, so that the next layer can
    ask for the ones it reads (:meth:`fetch`)."""

    def __init__(
        self,
        ids: npt.NDArray[np.integer],
        values: FloatArray,
        lengths: FloatArray,
        owner: npt.NDArray[np.int32],
    ) -> None:
        self.values_in_order, self.lengths_in_order = values, lengths
        self.by_id = np.argsort(ids).astype(np.uint32)
        self.ids = np.asarray(ids, dtype=np.uint32)[self.by_id]
        self.owner = owner

    def fetch(self, comm: MPI.Comm, wanted: IntArray, name: str) -> FloatArray:
        """The values (``name`` ``"values"``) or lengths of the states ``wanted`` (ids less the
        base), from their owners; every worker calls this at once, each with its own wants."""
        from mpi4py import MPI

        workers = comm.size
        owner = self.owner[wanted]
        by_owner = np.argsort(owner, kind="stable")
        counts = np.bincount(owner, minlength=workers).astype(np.int64)
        told_counts = np.empty(workers, dtype=np.int64)
        comm.Alltoall(counts, told_counts)
        told = np.empty(int(told_counts.sum()), dtype=np.int64)
        comm.Alltoallv(
            [np.ascontiguousarray(wanted[by_owner], dtype=np.int64), (counts, _displs(counts)),
             MPI.INT64_T],
            [told, (told_counts, _displs(told_counts)), MPI.INT64_T],
        )  # fmt: skip
        at = np.searchsorted(self.ids, told)
        if told.size and not np.array_equal(self.ids[np.minimum(at, self.ids.size - 1)], told):
            raise AssertionError("solver bug: a worker was asked for a state it does not own")
        array = self.values_in_order if name == "values" else self.lengths_in_order
        into = np.empty(wanted.size)
        comm.Alltoallv(
            [np.ascontiguousarray(array[self.by_id[at]]), (told_counts, _displs(told_counts)),
             MPI.DOUBLE],
            [into, (counts, _displs(counts)), MPI.DOUBLE],
        )  # fmt: skip
        answer = np.empty(wanted.size)
        answer[by_owner] = into
        return answer


@njit(cache=True)
def slot_map(held: npt.NDArray[np.int64], span: int) -> tuple[np.ndarray, np.ndarray]:
    """The bits and ranks of :func:`generator.solver.solve_sweeps.slot` for the sorted states
    ``held`` (ids less the layer's base) among ``span`` states of the layer and the next."""
    words = (span + 63) // 64
    bits = np.zeros(words, dtype=np.uint64)
    ranks = np.zeros(words + 1, dtype=np.int64)
    for place in held:
        bits[place >> 6] |= np.uint64(1) << np.uint64(place & 63)
        ranks[(place >> 6) + 1] += 1
    for w in range(words):
        ranks[w + 1] += ranks[w]
    return bits, ranks


READ_CHUNK = 1 << 18
"""States whose successors :func:`read_in_layer` lists at a time (about twenty successors a
state, 8 bytes each: some 40 MiB a chunk, whatever the share)."""


def read_by_share(
    solved: partition.Game, keys: npt.NDArray[np.integer], base: int, size: int
) -> tuple[IntArray, IntArray]:
    """The states (ids less ``base``) that the options of the states ``keys`` lead to, each
    once, in order: those of the layer (below ``size``) and those of the next. Listed a chunk
    of :data:`READ_CHUNK` states at a time, so the successor lists of a whole share are never
    held at once."""
    inside, outside = [np.empty(0, dtype=np.int64)], [np.empty(0, dtype=np.int64)]
    for start in range(0, keys.shape[0], READ_CHUNK):
        chunk = keys[start : start + READ_CHUNK].astype(np.int64)
        _, successor = partition.successors(solved, chunk)
        target = successor - base
        inside.append(np.unique(target[target < size]))
        outside.append(np.unique(target[target >= size]))
    return np.unique(np.concatenate(inside)), np.unique(np.concatenate(outside))


def read_in_layer(
    solved: partition.Game, keys: npt.NDArray[np.integer], base: int, size: int
) -> IntArray:
    """The states of the layer (ids less ``base``, ``size`` of them) that the options of the
    states ``keys`` lead to, each once, in order (:func:`read_by_share`)."""
    return read_by_share(solved, keys, base, size)[0]


class Share:
    """What a worker keeps of one layer and the values it sends and receives after each wave:
    ``held``, the states it keeps (ids less the layer's base, sorted: its own, those of the
    layer its options lead to, then those of the next layer); the new values of its states that
    other workers read, and theirs that it reads, by slot in ``held``. Listed once a layer
    (each worker asks the owners for the states its options lead to), sent every wave."""

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
        self.owner = owner = layer_owner(places, runs, workers)
        own = mine(runs, rank)
        read, self.read_next = read_by_share(solved, order[own], base, size)
        self.held = np.union1d(np.union1d(places[own].astype(np.int64), read), self.read_next)
        self.kept = int(self.held.size)
        """The states this worker keeps: its slots."""
        self.inside = int(self.held.size - self.read_next.size)
        """The held states of the layer itself: slots below this."""
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
    ) -> tuple[list[npt.NDArray[np.uint32]], IntArray]:
        """Per wave, the slots in ``held`` of the states of ``lists`` (ids less the base) in
        that wave, worker after worker, and the count for each worker (a waves x workers
        table)."""
        workers = len(lists)
        counts = np.zeros((self.waves, workers), dtype=np.int64)
        per_wave: list[list[IntArray]] = [[] for _ in range(self.waves)]
        for r, ids in enumerate(lists):
            wave = np.searchsorted(wave_start, place_of[ids], side="right") - 1
            counts[:, r] = np.bincount(wave, minlength=self.waves)
            cut = np.concatenate(([0], np.cumsum(counts[:, r])))
            for w in range(self.waves):
                per_wave[w].append(ids[cut[w] : cut[w + 1]])
        slots = [
            np.searchsorted(self.held, np.concatenate(parts)).astype(np.uint32)
            for parts in per_wave
        ]
        return slots, counts

    def exchange(self, array: npt.NDArray[Any], wave: int, change: float, agree: bool) -> float:
        """Every worker's new values of ``wave`` to the workers that read them (``array`` by
        slot; floats, or the marks of the endless search); with ``agree``, the wave's largest
        change over every worker (sent with the values, each message headed by its sender's
        ``change``), else this worker's ``change``."""
        from mpi4py import MPI

        if self.busy[wave] == 0:
            return reduce(self.comm, change, MPI.MAX) if agree else change
        heads = 1 if agree else 0
        send, recv = self.send_counts[wave] + heads, self.recv_counts[wave] + heads
        out = np.empty(int(send.sum()), dtype=array.dtype)
        into = np.empty(int(recv.sum()), dtype=array.dtype)
        send_at, recv_at = _displs(send), _displs(recv)
        slots = np.ones(out.size, dtype=np.bool_)
        if agree:
            slots[send_at] = False
            out[send_at] = change
        out[slots] = array[self.send_ids[wave]]
        wait(self.comm.Ialltoallv([out, (send, send_at)], [into, (recv, recv_at)]))
        slots = np.ones(into.size, dtype=np.bool_)
        if agree:
            slots[recv_at] = False
            change = float(into[recv_at].max())
        array[self.recv_ids[wave]] = into[slots]
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
                    wait(self.comm.Isend(np.ascontiguousarray(array[ids]), dest=r))
            return
        count = self.recv_counts[wave]
        if count[sender] == 0:
            return
        start = int(count[:sender].sum())
        into = np.empty(int(count[sender]))
        wait(self.comm.Irecv(into, source=sender))
        array[self.recv_ids[wave][start : start + into.size]] = into


def _displs(counts: IntArray) -> IntArray:
    return np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)


class ClusterLayerSolve(LayerSolve):
    """A layer's solve by one worker of ``comm``: its runs of each wave swept with the
    single-process solve's kernels, over the states it keeps (:class:`Share`), the values
    others need sent after each wave; the next layer's values it reads asked of their owners
    (``finished``, none for the first layer solved). Every worker stores the bits one process
    would (``tests/test_cluster.py``)."""

    def __init__(
        self,
        comm: MPI.Comm,
        rules: Rules,
        geo: Geometry,
        configs: Configurations,
        index: StateIndex,
        moves: MoveTable,
        layer: int,
        finished: Finished | None,
    ) -> None:
        nowhere = np.empty(0)  # the worker's own arrays are made below, once it knows its share
        super().__init__(rules, geo, configs, index, moves, layer, nowhere, nowhere, None, None)
        self.comm = comm
        solved = partition.Game(rules, geo, configs, index, moves)
        self.share = share = Share(comm, solved, layer, self.places, self.order, self.wave_start)
        self.layer_places = self.places
        own = mine(share.runs, comm.rank)
        self.own_ids = self.places[own]
        """The ids (less the base) of this worker's states, in its share's order."""
        self.order = self.order[own]
        self.places = np.searchsorted(share.held, self.own_ids).astype(self.places.dtype)
        lengths_of_runs = np.diff(share.runs[:, comm.rank : comm.rank + 2], axis=1)[:, 0]
        self.wave_start = np.concatenate(([0], np.cumsum(lengths_of_runs))).astype(np.int64)
        self.size = int(own.size)
        # The worker's arrays hold its slots (Share.held) from 0: the layer's, then the next's.
        self.base = 0
        self.own = slice(0, share.inside)
        self.held, self.ranks = slot_map(share.held, self.following)
        self.bellman_kernels = (sweeps.bellman_wave_slotted, sweeps.bellman_wave_slotted_serial)
        share.held = share.held[:0]  # listed: the slot map finds a state's slot from now on
        if finished is None and share.read_next.size:
            raise AssertionError("solver bug: the first layer solved reads a later layer")
        self.next_layer = finished
        # As one process, a float a state kept at a time: the values, then the lengths.
        self.values, self.lengths = self.slot_array("values"), np.empty(0)
        self.own_values = np.empty(0)
        self.agree_every_wave = False
        self.sweep_change = 0.0

    def slot_array(self, name: str) -> FloatArray:
        """An array of this worker's slots, with the next layer's ``name`` (values or lengths)
        asked of their owners."""
        share = self.share
        array = np.empty(share.kept)
        if self.next_layer is not None:
            wanted = share.read_next - self.layer_states
            array[share.inside :] = self.next_layer.fetch(self.comm, wanted, name)
        return array

    def solve_lengths(self) -> None:
        """The expected lengths, once the values are final: this worker's own values are put
        aside and the rest dropped, then the lengths kept in their place."""
        self.own_values = self.values[self.places]
        self.values = np.empty(0)
        self.lengths = self.slot_array("lengths")
        super().solve_lengths()

    def finished(self) -> Finished:
        """This worker's share of the layer, once solved, for the next layer to ask of."""
        return Finished(self.own_ids, self.own_values, self.lengths[self.places], self.share.owner)

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
        """The layer's endless states, found as one process finds them (its two least fixed
        points, :func:`generator.solver.solve_endless.mark_endless`), each worker marking its
        own states and sending on the marks others read, until no worker marks another; how
        many in the whole layer."""
        from mpi4py import MPI

        from generator.solver import solve_endless as endless_search

        inside = self.share.inside
        ends = np.zeros(inside, dtype=np.bool_)
        self._to_fixed_point(ends, spreading=False)
        endless = ~ends
        self._to_fixed_point(endless, spreading=True)
        endless_search.write_endless(0, inside, self.lengths, endless)
        return int(reduce(self.comm, float(np.count_nonzero(endless[self.places])), MPI.SUM))

    def _to_fixed_point(self, flags: npt.NDArray[np.bool_], spreading: bool) -> None:
        """Mark ``flags`` (:func:`generator.solver.solve_endless.mark_until_fixed`) and send
        them on, round after round, until a round in which no worker marked any."""
        from mpi4py import MPI

        from generator.solver.solve_endless import mark_until_fixed

        while True:
            marked = mark_until_fixed(
                0, self.share.inside, self.places, self.policy, self.throws, self.lengths, flags,
                spreading,
            )  # fmt: skip
            for wave in range(self.waves):
                self.share.exchange(flags, wave, 0.0, False)
            if reduce(self.comm, float(marked), MPI.SUM) == 0:
                return

    def working_bytes(self) -> int:
        """This worker's memory for the layer: its order, stored choices and records, the
        values and lengths it keeps and their slot map, and the lists of values it sends and
        receives (and the layer's sweep order and owners, which it still lists whole)."""
        share = self.share
        lists = sum(a.nbytes for a in (*share.send_ids, *share.recv_ids))
        kept = 8 * share.kept + self.own_values.nbytes + self.held.nbytes + self.ranks.nbytes
        return int(
            self.order.nbytes + self.places.nbytes + self.policy.nbytes + self.settled.nbytes
            + self.new_values.nbytes + 2 * self.size + lists + self.layer_places.nbytes
            + share.read_next.nbytes + share.owner.nbytes + kept
        )  # fmt: skip
