"""One worker's share of a layer in a distributed solve (:mod:`generator.solver.cluster`).

Every worker runs the single-process layer solve (:class:`generator.solver.solve_layer.LayerSolve`,
its sweeps the kernels of :mod:`generator.solver.solve_sweeps`) over its own runs of each wave
(the split :data:`generator.solver.partition.CHOSEN`, found without listing the layer,
:mod:`generator.solver.layer_split`): its share of the sweep order, stored choices and change
records, renumbered from 0, so the kernels sweep a share exactly as they sweep a whole layer.
A state's new value depends only on the values its wave started with (Jacobi within a wave), so
cutting a wave into runs changes no bit. What ties the workers together
(:class:`ClusterLayerSolve`):

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
  each finished layer into the whole solution's files, on disk, a chunk at a time.

A worker keeps only the values and lengths it writes and reads (:class:`Share`): its share,
the states of its layer its share's options lead to, and those of the next layer; a stored
choice names the successor's slot among them, so the kernels that evaluate stored choices read
a worker's arrays as they read a whole layer's, and the Bellman sweeps find a successor's slot
from its id by a bit a state of the layer and the next
(:func:`generator.solver.solve_sweeps.slot`). It lists nothing a state of the whole layer but
that slot map: who owns a state, and where it comes in the sweep order, are found from the
state itself (:meth:`generator.solver.layer_split.LayerSplit.owner_of`). A stored choice names
a slot, so a worker's 32-bit codes name its own states, whatever the layer's size: a layer
too large for one process's codes is solved on enough workers.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from generator.engine.rules import Rules
from generator.solver import partition
from generator.solver import solve_sweeps as sweeps
from generator.solver.held_states import held_by_share, slots_in
from generator.solver.layer_split import LayerSplit, split_layer
from generator.solver.solution import SolveRefused
from generator.solver.solve_estimate import SweepOrder, order_dtype
from generator.solver.solve_index import StateIndex
from generator.solver.solve_layer import HOT_SPREAD, LayerSolve
from generator.solver.solve_moves import MoveTable
from generator.solver.solve_space import Configurations, FloatArray, Geometry, IntArray

if TYPE_CHECKING:
    from mpi4py import MPI


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


FIRST_CHUNK = 1 << 22
"""States whose values a worker sends the first worker at a time (:func:`send_to_first`):
64 MiB of ids and values, whatever the share."""


def send_to_first(
    comm: MPI.Comm,
    ids: IntArray,
    arrays: tuple[FloatArray, ...],
    base: int,
    whole: tuple[FloatArray, ...] | None,
) -> None:
    """Write every worker's ``arrays`` (its share of a finished layer, at its states ``ids``
    less ``base``) into the first worker's ``whole`` arrays, worker by worker and a chunk of
    :data:`FIRST_CHUNK` states at a time: the first worker never holds more than a chunk of
    another's share."""
    sizes = comm.allgather(int(ids.size))
    for sender in range(comm.size):
        for start in range(0, sizes[sender], FIRST_CHUNK):
            stop = min(sizes[sender], start + FIRST_CHUNK)
            if comm.rank == 0 and whole is not None:
                if sender == 0:
                    chunk_ids = ids[start:stop]
                    chunks = [array[start:stop] for array in arrays]
                else:
                    chunk_ids = np.empty(stop - start, dtype=np.int64)
                    wait(comm.Irecv(chunk_ids, source=sender))
                    chunks = [np.empty(stop - start) for _ in arrays]
                    for chunk in chunks:
                        wait(comm.Irecv(chunk, source=sender))
                for target, chunk in zip(whole, chunks, strict=True):
                    target[base + chunk_ids] = chunk
            elif comm.rank == sender:
                wait(comm.Isend(np.ascontiguousarray(ids[start:stop], dtype=np.int64), dest=0))
                for array in arrays:
                    wait(comm.Isend(np.ascontiguousarray(array[start:stop]), dest=0))


class Finished:
    """A worker's share of a finished layer: its states' values and lengths in its share's
    order (``ids``, less the layer's base), and the layer's split, which says who owns any of
    its states, so that the next layer can ask for the ones it reads (:meth:`fetch`)."""

    def __init__(
        self, ids: IntArray, values: FloatArray, lengths: FloatArray, split: LayerSplit
    ) -> None:
        self.values_in_order, self.lengths_in_order = values, lengths
        self.by_id = np.argsort(ids).astype(np.uint32)
        self.ids = np.asarray(ids, dtype=np.int64)[self.by_id]
        self.split = split

    def fetch(
        self, comm: MPI.Comm, wanted: IntArray, owner: npt.NDArray[np.int32], name: str
    ) -> FloatArray:
        """The values (``name`` ``"values"``) or lengths of the states ``wanted`` (ids less the
        base, owned by ``owner``, :meth:`LayerSplit.owner_of`), from their owners; every worker
        calls this at once, each with its own wants."""
        from mpi4py import MPI

        workers = comm.size
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


class Share:
    """What a worker keeps of one layer and the values it sends and receives after each wave:
    the states it keeps, by their slot map (:func:`generator.solver.held_states.held_by_share`:
    its own, those of the layer its options lead to, then those of the next layer, in order of
    id); the new values of its states that other workers read, and theirs that it reads, by
    slot. Listed once a layer (each worker asks the owners for the states its options lead
    to), sent every wave. ``span`` is the states of the layer and the next
    (``LayerSolve.following``)."""

    def __init__(
        self,
        comm: MPI.Comm,
        solved: partition.Game,
        split: LayerSplit,
        own_keys: npt.NDArray[np.integer],
        own_ids: IntArray,
        wave_start: IntArray,
        span: int,
    ) -> None:
        workers, rank = comm.size, comm.rank
        index, layer = solved.index, int(split.shape[0])
        self.comm = comm
        # The layer's first id and size, as LayerSolve.origin and layer_states have them.
        base = int(index.layer_base[layer])
        size = int(index.layer_base[layer + 1]) - base
        self.waves = split.waves
        held = held_by_share(solved, own_keys, own_ids, base, span, size)
        self.bits, self.ranks = held.bits, held.ranks
        """The slot map (:func:`generator.solver.solve_sweeps.slot`)."""
        self.kept = int(held.ids.size)
        """The states this worker keeps: its slots."""
        self.inside = held.inside
        """The held states of the layer itself: slots below this."""
        # Copies: views would keep every held state's id and key for the whole layer.
        self.read_next = held.ids[held.inside :].copy()
        self.read_next_keys = held.keys[held.inside :].copy()
        owner, place = split.owner_of(held.keys[: held.inside])
        others = owner != rank  # the rest are this worker's own
        read, owner, place = held.ids[: held.inside][others], owner[others], place[others]
        del held, others
        # Each list goes in sweep order: the owner sends a wave's values in that order too.
        by_place = np.argsort(place)
        read, owner, wave = read[by_place], owner[by_place], split.wave_of_place(place[by_place])
        asked = [read[owner == r] for r in range(workers)]
        told = self._ask(asked)
        # The states others ask of this worker are its own: their waves are those of its runs.
        by_id = np.argsort(own_ids)
        at_of = [by_id[np.searchsorted(own_ids, ids, sorter=by_id)] for ids in told]
        told_waves = [np.searchsorted(wave_start, at, side="right") - 1 for at in at_of]
        self.send_ids, self.send_counts = self._by_wave(told, told_waves)
        self.recv_ids, self.recv_counts = self._by_wave(
            asked, [wave[owner == r] for r in range(workers)]
        )
        # Waves that send nothing anywhere skip the exchange (every worker knows which).
        traffic = self.send_counts.sum(axis=1) + self.recv_counts.sum(axis=1)
        from mpi4py import MPI

        self.busy = np.empty(self.waves, dtype=np.int64)
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
        self, lists: list[IntArray], waves: list[IntArray]
    ) -> tuple[list[npt.NDArray[np.uint32]], IntArray]:
        """Per wave, the slots of the states of ``lists`` (ids less the base, in
        sweep order, each state's wave in ``waves``) in that wave, worker after worker, and
        the count for each worker (a waves x workers table)."""
        workers = len(lists)
        counts = np.zeros((self.waves, workers), dtype=np.int64)
        per_wave: list[list[IntArray]] = [[] for _ in range(self.waves)]
        for r, ids in enumerate(lists):
            counts[:, r] = np.bincount(waves[r], minlength=self.waves)
            cut = np.concatenate(([0], np.cumsum(counts[:, r])))
            for w in range(self.waves):
                per_wave[w].append(ids[cut[w] : cut[w + 1]])
        slots = [
            slots_in(self.bits, self.ranks, np.concatenate(parts).astype(np.int64))
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
        self.comm = comm
        self.split = split_layer(geo, index, layer, comm.size)
        nowhere = np.empty(0)  # the worker's own arrays are made below, once it knows its share
        # LayerSolve lists this worker's share alone (list_states): its keys, and its ids less
        # the layer's base as its places until the share is known.
        super().__init__(rules, geo, configs, index, moves, layer, nowhere, nowhere, None, None)
        solved = partition.Game(rules, geo, configs, index, moves)
        self.own_ids: IntArray = np.asarray(self.places, dtype=np.int64)
        """The ids (less the base) of this worker's states, in its share's order."""
        self.share = share = Share(
            comm, solved, self.split, self.order, self.own_ids, self.wave_start, self.following
        )
        if share.kept >= sweeps.CODED_STATES:
            raise SolveRefused(
                f"{rules.variant}: a worker keeps {share.kept:,} states of layer {layer} and"
                f" the next, more than the 32-bit choice codes name"
                f" ({sweeps.CODED_STATES:,}); use more workers"
            )
        self.places = slots_in(share.bits, share.ranks, self.own_ids)
        # The worker's arrays hold its slots (held_states.Held) from 0: the layer's, then the
        # next's.
        self.base = 0
        self.own = slice(0, share.inside)
        self.held, self.ranks = share.bits, share.ranks
        self.bellman_kernels = (sweeps.bellman_wave_slotted, sweeps.bellman_wave_slotted_serial)
        if finished is None and share.read_next.size:
            raise AssertionError("solver bug: the first layer solved reads a later layer")
        self.next_layer = finished
        self.next_owner = (
            finished.split.owner_of(share.read_next_keys)[0]
            if finished is not None
            else np.empty(0, dtype=np.int32)
        )
        share.read_next_keys = share.read_next_keys[:0]
        # As one process, a float a state kept at a time: the values, then the lengths.
        self.values, self.lengths = self.slot_array("values"), np.empty(0)
        self.own_values = np.empty(0)
        self.agree_every_wave = False
        self.sweep_change = 0.0

    def list_states(self, index: StateIndex) -> SweepOrder:
        """This worker's runs of the layer's waves (:meth:`LayerSplit.share`), with their ids
        less the layer's base in the places' stead; the layer itself is never listed."""
        split = self.split
        keys, ids = split.share(
            self.comm.rank, index, order_dtype(self.geo.perspectives, self.configs.count)
        )
        lengths = split.run_lengths(self.comm.rank)
        wave_start = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
        return SweepOrder(keys, ids, wave_start, max(1, int(lengths.max(initial=0))))

    def slot_array(self, name: str) -> FloatArray:
        """An array of this worker's slots, with the next layer's ``name`` (values or lengths)
        asked of their owners."""
        share = self.share
        array = np.empty(share.kept)
        if self.next_layer is not None:
            wanted = share.read_next - self.layer_states
            array[share.inside :] = self.next_layer.fetch(self.comm, wanted, self.next_owner, name)
        return array

    def begin(self, start: FloatArray | None) -> None:
        """The layer's starting values, as one process's: 1/2 in every slot of the layer, or
        the fitted evaluation of ``start`` at this worker's own states, sent to the workers
        that read them (the states of the layer it reads are others' own)."""
        super().begin(start)
        if start is not None:
            for wave in range(self.waves):
                self.share.exchange(self.values, wave, 0.0, agree=False)

    def solve_lengths(self) -> None:
        """The expected lengths, once the values are final: this worker's own values are put
        aside and the rest dropped, then the lengths kept in their place."""
        self.own_values = self.values[self.places]
        self.values = np.empty(0)
        self.lengths = self.slot_array("lengths")
        super().solve_lengths()

    def finished(self) -> Finished:
        """This worker's share of the layer, once solved, for the next layer to ask of. Its
        lengths are taken out and the layer's choices dropped first (the solve's figures are
        made): a worker's peak was its finished share made beside them."""
        lengths = self.lengths[self.places]
        self.lengths = np.empty(0)
        self.policy = self.policy[:0].copy()
        self.settled, self.moved = self.settled[:0].copy(), self.moved[:0].copy()
        return Finished(self.own_ids, self.own_values, lengths, self.split)

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
        """This worker's memory for the layer: its order, ids, stored choices and records, the
        values and lengths it keeps and their slot map, the next layer's states it reads and
        their owners, and the lists of values it sends and receives."""
        share = self.share
        lists = sum(a.nbytes for a in (*share.send_ids, *share.recv_ids))
        kept = 8 * share.kept + self.own_values.nbytes + self.held.nbytes + self.ranks.nbytes
        return int(
            self.order.nbytes + self.places.nbytes + self.own_ids.nbytes + self.policy.nbytes
            + self.settled.nbytes + self.new_values.nbytes + 2 * self.size + lists
            + share.read_next.nbytes + self.next_owner.nbytes + kept
        )  # fmt: skip
