"""The exact solver on several processes or machines: MPI (mpi4py), every worker one process.

``ur-variants solve VARIANT --workers K [--address HOSTS]`` starts K workers with ``mpiexec``
(on this machine, or on the hosts named); each runs :func:`solve_distributed`. A layer's states
are split among the workers as :data:`generator.solver.partition.CHOSEN` says (each wave cut
into K runs of the sweep order), each worker sweeps its runs with the single-process kernels,
and after each wave sends the others only the values they read
(:mod:`generator.solver.cluster_layer`). The workers store the bits one process stores
(``tests/test_cluster.py``). Each worker checkpoints its part of each finished layer
(:class:`WorkerCheckpoints`): a lost worker ends the run (MPI ends every worker), and the same
command resumes it from the last layer every worker finished, so the loss costs at most the
unfinished layer.

**Why MPI.** Ray, Dask distributed and mpi4py (with the MPICH wheel) were measured on this
workload on this machine (2 cores shared with other work), two worker processes each, by
``bench/cluster_engines.py --values 900000 --waves 60`` (the largest layer of four-piece
Finkel sends about 900,000 values a sweep between two workers, ``python -m
generator.solver.partition royalur-finkel 4 2``)::

                                        MPI        Ray        Dask
    start-up, two workers               0.45 s     45.7 s     20.7 s
    a wave's round trip (agree on the
      largest change)                   0.07 ms    6.3 ms     8.9 ms
    a wave's values, one to the other   0.13 ms    9.5 ms     14.0 ms   (15,000 floats)
    a sweep's values                    5.9 ms     22 ms      194 ms    (900,000 floats)
    the engine's own processes          2, 5 MiB   7, 517 MiB scheduler in the driver
    install (wheels)                    41 MB      199 MB     about 10 MB
    a worker killed                     every      the actor  the actor is lost,
                                        worker     restarts   the worker restarts
                                        ends       empty      empty

(MPI moves both directions at once, Ray and Dask one way; a first run with 2,000,000 values
gave the same order: 12, 49 and 107 ms.) A layer is swept in lock step: every wave ends with an
exchange, tens of thousands of times a layer, so the wave's round trip decides: MPI's is about
a hundred times shorter than Ray's or Dask's, whose actors answer through the client. (A
Bellman sweep also agrees on the largest change after every wave, its shortcut reads it; the
other sweeps agree once, at their end, the change riding on the last wave's values.) None
keeps a killed worker's state (Ray and Dask restart an empty actor), so recovery is the
checkpoints' job in every engine, and MPI's
ending the run loses nothing the checkpoints keep. MPI's wheels bring ``mpiexec`` and the
library themselves (the ``cluster`` extra); its ``mpiexec`` starts workers over SSH on the hosts
named, the way clusters and cloud machines are usually reached. MPI's own wait spins, which
on a machine whose cores are shared costs a turn of the scheduler a wave: the workers wait by
looking and sleeping instead (:func:`generator.solver.cluster_layer.wait`).

Scaling, measured by ``ur-variants solve royalur-finkel --pieces 2 --workers K`` against the
same without ``--workers`` (12,869 states, this machine at a load of 11 to 13 on its 2 cores):
one process 1.17 s wall, one worker 2.28 s, two workers 36.2 s, the same bits. A small game
is all exchange: each of its layers' sweeps is about sixty waves of a few hundred states, and
each wave waits for the other worker to be given a core. Two workers gain only where a wave's
work outweighs its round trip (0.07 ms on idle cores), in layers of millions of states.

Games that matter, each run by ``nice -n 10 ur-variants solve VARIANT --pieces N [--workers
K]`` and checked by ``bench/cluster_check.py compare VARIANT --pieces N --workers K`` (this
machine's 2 cores at a load of 8 to 15, these runs overlapping one another, so the wall times
are the load's as much as the solver's; processor time is the fairer figure)::

                                       one process    one worker     two workers
    royalur-finkel, 4 pieces a side (2,602,822 states, the largest layer 1,187,523)
      first player                     51.6159233557 %, 51.6159233557 %, 51.6159233557 %
      solve, wall                      287.2 s        445.6 s        345.5 s
      solve, processor (all workers)   82.0 s         108.7 s        216.5 s
      peak memory a worker             267 MiB        764 MiB        568 MiB (worker 0)
    merit-1976, 3 pieces a side, stacking (523,369 states, the largest layer 353,444)
      first player                     51.1662540723 %, 51.1662540723 %, 51.1662540723 %
      solve, wall                      54.4 s         52.8 s         348.9 s
      solve, processor (all workers)   17.8 s         18.5 s         144.3 s
      peak memory a worker             258 MiB        291 MiB        348, 356 MiB

Every stored value and expected length of the one- and two-worker solves equals the single
process's bit for bit (0 of 2,602,822 and of 523,369 differ; the issue's bound was 1e-9
percentage points). Two workers cost 2.6 (Finkel) and 8 (Merit) times the processor time of
one process (the exchange after every wave, and each worker waiting its turn at a core), and
their wall time gains nothing on 2 shared cores: the split is for memory, not speed, here. A
worker's peak is above the plan's (0.28 GiB a worker for four-piece Finkel): once a layer each
worker lists the states its share reads (:class:`Share`), which the plan does not count. It
lists them a chunk of states at a time (:func:`generator.solver.held_states.held_by_share`;
at first it listed every successor of its share at once, 14,350,795 in that game's largest
layer, 109 MiB as 64-bit ids, and their copies while sorted): the two workers' peaks went from
637 and 647 MiB to 383 and 384 MiB, the same bits (this machine, the same day and load, read
from each worker's ``VmHWM``; the table's 568 MiB was an earlier run's).

**A larger cluster with a lost worker**, ``bench/cluster_check.py lost-worker`` (three-piece
Finkel, 263,121 states, on 8 workers on this machine's 2 cores, load about 14): every process
of the run is capped at 768 MiB of address space (``RLIMIT_AS`` set on the command; MPICH's
``mpiexec`` and its process manager pass it to each worker, each capped alone, as a machine of
its own would be). Worker 5 was killed with SIGKILL 5.2 s into layer 0 (157,864 states, the
largest); the run stopped (exit 1 after 359 s) saying "kept layers 4 to 1, checkpointed by
every worker (105,257 states, 289.0 s of solving); lost layer 0 (157,864 states), stopped
about 6 s into its solve", and no worker had checkpointed layer 0. The same command resumed
after the 4 checkpointed layers, solved layer 0 again from its start (164.2 s wall, 158.9 s
processor on 8 workers, the 6 s it had run before the kill redone) and stored the single
process's bits (51.6201102238 %, 0 values and 0 lengths differ). Each worker's peak memory
was 195 MiB against the plan's 258 MiB a worker: on a game this small the cap holds the
process itself (Python, numba and MPI; a cap of 400 MiB stops every worker while importing
numba, each reserving about 440 MiB of address space), not the game (its values and lengths
are 4 MiB in all). Re-run on the code that keeps a worker's memory to its plan (2026-12-06,
a load of about 9): worker 5 killed 5.0 s into layer 0, the run stopped with exit 9 after
155.1 s keeping layers 4 to 1, the same command resumed and ended after 93.7 s with the same
bits, each worker's peak 192 to 194 MiB against the plan's 259 MiB.

**From the fitted evaluation.** One process solving a full game starts each layer's sweeps
from the committed fitted evaluation (:func:`generator.solver.solve.starting_point`); so do the
workers, with ``--fitted-start`` (``full-games --workers`` always, where fits are committed):
each worker evaluates its own states and sends the values to the workers that read them
before the first sweep (:meth:`generator.solver.cluster_layer.ClusterLayerSolve.begin`; without
that send they read unset values and stored other bits). Four-piece Finkel on two workers
(2026-12-06, a load of about 4): the largest layers' value sweeps 46 and 44 from 1/2, 36 and 39
from the fitted start; the whole run 79.3 s of processor and 145 s of wall from 1/2, 61.8 s and
125 s from the fitted start; both 51.6159233557 %, and the fitted run's values and lengths equal
one process's from the same start bit for bit (``bench/cluster_check.py compare ...
--fitted-start``). The costed plan's speed is the committed full games', solved from the fitted
start: the workers now start where those solves did.

What is split and what is not. A worker keeps the values and expected lengths of its share,
of the states its share's moves reach in its layer (their new values arrive after each wave)
and of those they reach in the next layer (asked once of their owners,
:class:`generator.solver.cluster_layer.Finished`), one array at a time as one process does:
the values while they are solved, then its own values put aside and the lengths. A stored
choice names the successor's slot among them, so the sweeps that evaluate stored choices read a
worker's arrays exactly as one process reads its own; a Bellman sweep finds a generated
successor's slot from its id by a bit a state of the layer and the next and a count every 64
states (:func:`generator.solver.solve_sweeps.slot`). The endless states are found in rounds of
marking and sending the marks on. The first worker writes each finished layer into the whole
solution's files, mapped from disk, a chunk of each worker's share at a time
(:func:`generator.solver.cluster_layer.send_to_first`). Nothing a state of the whole layer is
listed but the slot map and the index's tables (small): each worker lists its own runs of the
waves alone and finds who owns a state, and when it is swept, from the state itself
(:mod:`generator.solver.layer_split`). Until then every worker listed the layer's sweep order
and each state's owner whole, 24 bytes and a quarter a state of the largest layer. A stored
choice names a slot, so a worker's 32-bit codes name its own states: a layer past one process's
codes (Merit 1976's) is solved on enough workers that each keeps fewer.

Measured on five-piece Finkel (14,669,769 states, the largest layer 4,841,370) on two workers,
against the commit before, whose workers held the whole arrays: the same first-player value
(51.6026115570 %); the numpy memory a worker allocates for the largest layer (traced by
``tracemalloc`` over its setup, sweeps, endless search and a length sweep, with what it held
before the layer) 394 MiB against 608 MiB, the whole values and lengths having been 224 MiB of
it; the solver's working memory it reports 206 MiB against 352 MiB; each worker's process peak
1,065 and 1,006 MiB against 1,134 and 1,159 MiB (this machine, the same day, a seven-piece solve
running beside both). The process peak stays well above the arrays: the Python, numba and MPI
process itself (about 210 MiB before the first layer), the setup's temporary lists (a chunk of
successors at a time, :data:`generator.solver.held_states.READ_CHUNK`, about 130 MiB) and
memory the allocator keeps after them (``malloc_trim`` gave back about 100 MiB of a worker's
600 MiB at that layer). With each worker listing only its share
(:mod:`generator.solver.layer_split`), its reads merged chunk by chunk and glibc kept from
growing its heap layer by layer (:func:`generator.processes.give_back_large_allocations`), the
same solve's workers peaked at 1,005 and 1,004 MiB, the solver's working memory 193 MiB, the
same bits (this machine, two seven-piece solves and the tests beside it); the first version
of the split, which listed each chunk's reads with their keys and sorted them all at the end,
had peaked at 1,304 and 1,300 MiB. Most of what is left above the arrays is the setup of each
layer: one worker alone on five-piece Finkel's layer 2 held 389 MiB before it and 746 MiB at
its height, 620 MiB during the sweeps.

That setup then merged each chunk's successors into a sorted list of every state read so far:
a sort of the whole list a chunk, which grows with the square of the share (a share of 600
million states, Merit's at eight workers, would have taken some 2,300 chunks). It now marks
them in the slot map itself and writes their keys at their slots in a second pass
(:func:`generator.solver.held_states.held_by_share`): nothing is sorted, and a chunk is 65,536
states. The same states are kept in the same slots; on five-piece Finkel's largest layer, as
one share, the setup took 12.6 s of processor time against 16.4 s, and on six-piece Finkel's
(14,999,784 states) 44.4 s against 77.4 s. Four-piece Finkel's two workers peaked at 301 and
293 MiB (448 and 446 before; the plan's figure is 0.28 GiB), five-piece Finkel's at 743 and
730 MiB with 262,144-state chunks, the same bits.

Two more steps brought five-piece Finkel's workers to 497 and 491 MiB (51.6026115570 %, 771 s
wall, 628 s processor): a finished layer's run is dropped before the next layer lists its
states (it was kept until the next layer's run was made), and a worker's finished share is
made after the layer's choices are dropped. Read phase by phase on one worker alone, the
peak is now the lengths phase of the largest layer: the worker's share of one process's
arrays, and beside them its states' ids and put-aside values, the next layer's finished share
it asks of, and what asking takes. The plan counts those too
(:func:`generator.solver.solve_plan.beside_bytes`): 0.55 GiB a worker for that solve, where it
had said 0.39 GiB.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from generator.engine.rules import Rules
from generator.processes import process_peak
from generator.sim.cache_files import read_arrays, read_json, write_arrays, write_json
from generator.solver.cluster_layer import ClusterLayerSolve, Finished, send_to_first
from generator.solver.layer_split import split_layer
from generator.solver.solution import Solution, Totals
from generator.solver.solve import warm_up
from generator.solver.solve_checkpoints import release_pages, solution_checksum
from generator.solver.solve_estimate import checked_move_table, order_dtype
from generator.solver.solve_index import build_index
from generator.solver.solve_layer import run_layer
from generator.solver.solve_space import (
    FloatArray,
    IntArray,
    enumerate_configurations,
    geometry,
)

if TYPE_CHECKING:
    from mpi4py import MPI


class WorkerCheckpoints:
    """One worker's finished layers: ``layer-N.npz`` (its states' values and lengths, in its
    share's order) and ``layer-N.json`` (their checksum and the layer's figures), written
    atomically (:func:`generator.sim.cache_files.write_arrays`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _paths(self, layer: int) -> tuple[Path, Path]:
        return self.folder / f"layer-{layer}.npz", self.folder / f"layer-{layer}.json"

    def finish(
        self, layer: int, values: FloatArray, lengths: FloatArray, figures: dict[str, Any]
    ) -> None:
        arrays_path, record_path = self._paths(layer)
        checksum = write_arrays(arrays_path, {"values": values, "lengths": lengths})
        write_json(record_path, {"layer": layer, "sha256": checksum, "figures": figures})

    def load(self, layer: int, size: int) -> tuple[FloatArray, FloatArray, dict[str, Any]] | None:
        """The worker's part of a finished layer (``size`` states), or ``None`` (not
        finished, or damaged: reported, and the layer is solved again)."""
        arrays_path, record_path = self._paths(layer)
        record = read_json(record_path)
        saved = read_arrays(arrays_path, ("values", "lengths")) if record is not None else None
        if not isinstance(record, dict) or saved is None:
            return None
        arrays, checksum = saved
        if record.get("sha256") != checksum or arrays["values"].shape != (size,):
            return None
        return arrays["values"], arrays["lengths"], record["figures"]

    def finished(self) -> dict[int, dict[str, Any]]:
        """The figures of every layer this worker recorded as finished (the records alone:
        their arrays are checked when a resumed run loads them)."""
        found = {}
        for path in self.folder.glob("layer-*.json"):
            record = read_json(path)
            if isinstance(record, dict) and isinstance(record.get("figures"), dict):
                found[int(record["layer"])] = record["figures"]
        return found


WORKING = "working.json"
"""The layer the workers are solving (its number, states and start), written by the first
worker as each layer starts: what a lost worker's run loses (:func:`loss_report`)."""


def loss_report(folder: Path, workers: int) -> str:
    """What a stopped run of ``workers`` workers keeps (the layers every worker checkpointed,
    from which the same command resumes) and what it lost (the layer in progress, solved
    again), in words."""
    finished = [WorkerCheckpoints(folder / f"worker-{r}").finished() for r in range(workers)]
    kept = sorted(set.intersection(*(set(layers) for layers in finished)), reverse=True)
    if kept:
        records = [finished[0][layer] for layer in kept]
        states = sum(int(record["states"]) for record in records)
        seconds = sum(float(record["seconds"]) for record in records)
        where = f"layer {kept[0]}" if len(kept) == 1 else f"layers {kept[0]} to {kept[-1]}"
        kept_words = (
            f"kept {where}, checkpointed by every worker ({states:,} states,"
            f" {seconds:,.1f} s of solving)"
        )
    else:
        kept_words = "no layer was checkpointed by every worker yet"
    working = read_json(folder / WORKING)
    if isinstance(working, dict) and working.get("layer") not in kept:
        lost = time.time() - float(working["started"])
        lost_words = (
            f"lost layer {working['layer']} ({int(working['states']):,} states), stopped about"
            f" {lost:,.0f} s into its solve; the resumed run solves it again"
        )
    else:
        lost_words = "no layer was in progress"
    return f"{kept_words}; {lost_words}"


def solve_distributed(
    comm: MPI.Comm,
    rules: Rules,
    folder: Path,
    tolerance: float = 1e-13,
    progress: Callable[[str], None] | None = None,
    start: FloatArray | None = None,
) -> Solution | None:
    """Solve ``rules`` with the workers of ``comm`` (every worker calls this), each
    checkpointing its part of each finished layer under ``folder``; a rerun resumes from the
    last layer every worker finished. The first worker writes each finished layer into the
    whole solution's files (:func:`solution_arrays`) and returns the solution; the others
    return ``None``. With ``start`` (fitted weights,
    :func:`generator.solver.solve.starting_point`), each worker starts its share of a layer
    from that evaluation, as one process starts the layer: the bits one process stores from
    the same start."""
    from mpi4py import MPI

    compile_seconds = warm_up(rules)
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    moves = checked_move_table(geo, configs)
    first = comm.rank == 0
    whole = solution_arrays(folder, index.states) if first else None
    store = WorkerCheckpoints(folder / f"worker-{comm.rank}")
    totals, resuming, peak = Totals(), True, 0
    finished: Finished | None = None
    for layer in reversed(range(len(index.layer_sizes))):
        if index.layer_sizes[layer] == 0:
            continue
        base = int(index.layer_base[layer])
        layer_size = int(index.layer_sizes[layer])
        if resuming:
            split = split_layer(geo, index, layer, comm.size)
            _, own = split.share(comm.rank, index, order_dtype(geo.perspectives, configs.count))
            saved = store.load(layer, own.size)
            resuming = bool(comm.allreduce(saved is not None, op=MPI.LAND))
            if resuming and saved is not None:
                values, lengths, record = saved
                finished = Finished(own, values, lengths, split)
                _write_whole(comm, own, base, (values, lengths), whole, layer_size)
                totals.add(record)
                totals.resumed += 1
                continue
        if first:
            write_json(
                folder / WORKING,
                {"layer": layer, "states": int(index.layer_sizes[layer]), "started": time.time()},
            )
        run = ClusterLayerSolve(comm, rules, geo, configs, index, moves, layer, finished)
        record = run_layer(run, tolerance, start)
        finished = run.finished()
        own, values_sent = run.own_ids, run.share.values_sent
        # The next layer reads this one's values and lengths from `finished`; the rest of the
        # layer's arrays go before the next layer lists its own (kept until the next layer's
        # run was made, they were a third of a worker's peak on five-piece Finkel).
        del run
        _write_whole(
            comm, own, base, (finished.values_in_order, finished.lengths_in_order), whole,
            layer_size,
        )  # fmt: skip
        del own
        # The layer took as long as its slowest worker, and the processor time of them all.
        record["seconds"] = comm.allreduce(record["seconds"], op=MPI.MAX)
        record["cpu_seconds"] = comm.allreduce(record["cpu_seconds"], op=MPI.SUM)
        record["values_sent"] = comm.allreduce(values_sent, op=MPI.SUM)
        record["working_bytes"] = comm.allreduce(record["working_bytes"], op=MPI.MAX)
        record["peak_bytes"] = comm.allreduce(process_peak(), op=MPI.MAX)
        peak = max(peak, int(record["working_bytes"]))
        store.finish(layer, finished.values_in_order, finished.lengths_in_order, record)
        totals.add(record)
        if progress is not None:
            progress(
                f"layer {layer}: {int(index.layer_sizes[layer]):,} states on {comm.size}"
                f" workers, values {record['sweeps']} sweeps, lengths {record['length_sweeps']}"
                f" sweeps, {record['values_sent']:,} values sent a sweep;"
                f" {record['seconds']:.1f} s wall, {record['cpu_seconds']:.1f} s processor;"
                f" the busiest worker's peak so far {record['peak_bytes'] / 2**20:,.0f} MiB"
            )
    if whole is None:
        return None
    values, lengths = whole  # flushed layer by layer (_write_whole)
    solution = totals.solution(
        rules, geo, configs, index, values, lengths, peak, tolerance, from_cache=False
    )
    return _with_compile(solution, compile_seconds)


PARTIAL = ".partial.npy"
"""The ending of the whole solution's files while the first worker writes them."""


def solution_arrays(folder: Path, states: int) -> tuple[np.memmap, np.memmap]:
    """The whole solution's values and lengths, mapped from files the first worker writes
    layer by layer (``values.partial.npy``, ``lengths.partial.npy``; :func:`save_solution`
    names them ``values.npy`` and ``lengths.npy`` once they are whole). Mapped from disk, they
    cost the first worker no memory beyond the layer being written."""
    folder.mkdir(parents=True, exist_ok=True)
    return tuple(  # type: ignore[return-value]
        np.lib.format.open_memmap(folder / f"{name}{PARTIAL}", mode="w+", shape=(states,))
        for name in ("values", "lengths")
    )


def _write_whole(
    comm: MPI.Comm,
    ids: IntArray,
    base: int,
    arrays: tuple[FloatArray, FloatArray],
    whole: tuple[np.memmap, np.memmap] | None,
    size: int,
) -> None:
    """Every worker's share of a finished layer (``arrays``, its values and lengths at its
    states ``ids`` less ``base``) into the first worker's whole solution, whose pages then
    leave memory (the layer has ``size`` states)."""
    send_to_first(comm, ids, arrays, base, whole)
    for array in whole or ():
        array.flush()
        release_pages(array, base, base + size)


def _with_compile(solution: Solution, seconds: float) -> Solution:
    import dataclasses

    return dataclasses.replace(solution, compile_seconds=seconds)


def save_solution(
    folder: Path, solution: Solution, worker_peaks: list[int], fitted: bool = False
) -> None:
    """The solution's values and lengths (``values.npy``, ``lengths.npy``) and its start
    value and figures (``solution.json``: with the workers, the busiest one's peak memory,
    ``worker_peaks`` being each worker's, where the sweeps started, ``fitted`` saying the
    fitted evaluation, and the arrays' checksum), each written whole. The
    checksum lets a reader (:func:`generator.solver.solve_read.distributed_solution`) refuse
    arrays damaged or changed since, as a single process's checkpoints do."""
    from generator.files import name_whole, replace_file

    def saver(array: FloatArray) -> Callable[[BinaryIO], None]:
        return lambda file: np.save(file, array)

    for name, array in (("values", solution.values), ("lengths", solution.lengths)):
        partial = folder / f"{name}{PARTIAL}"
        if isinstance(array, np.memmap) and Path(str(array.filename)) == partial:
            array.flush()
            name_whole(partial, folder / f"{name}.npy")
        else:
            replace_file(folder / f"{name}.npy", saver(array))
    write_json(
        folder / "solution.json",
        {
            "start_value": solution.start_value,
            "expected_throws": solution.expected_throws
            if np.isfinite(solution.expected_throws)
            else None,
            "states": solution.states,
            "seconds": solution.seconds,
            "cpu_seconds": solution.cpu_seconds,
            "workers": len(worker_peaks),
            "worker_peak_bytes": max(worker_peaks),
            "start": "fitted evaluation" if fitted else "half",
            "sha256": solution_checksum(solution.values, solution.lengths),
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
    )
