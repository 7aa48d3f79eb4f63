"""A solve's checkpoints: each finished layer's values and lengths, kept with a checksum, and
an unfinished layer's progress (:class:`LayerProgress`), so a killed solve resumes with the same
bits (:class:`Checkpoints`)."""

from __future__ import annotations

import mmap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from generator.engine.rules import Rules
from generator.sim.cache_files import (
    Release,
    arrays_checksum,
    read_arrays,
    read_json,
    report_damaged,
    write_arrays,
    write_json,
)
from generator.solver.solution import Solution, Totals
from generator.solver.solve_index import StateIndex, build_index
from generator.solver.solve_space import (
    FloatArray,
    Geometry,
    enumerate_configurations,
)


@dataclass
class LayerProgress:
    """An unfinished layer's solve at the start of a sweep: going on from it gives the same
    bits as never stopping. Taken before a Bellman sweep (``phase`` ``"values"``) or before a
    sweep of the expected lengths (``"lengths"``)."""

    layer: int
    phase: Literal["values", "lengths"]
    values: FloatArray
    """The layer's values so far: a view of the solve's own array (saved, or read into it)."""
    lengths: FloatArray
    """The layer's expected lengths so far (all 0 before their phase), likewise."""
    policy: npt.NDArray[np.uint32]
    settled: npt.NDArray[np.uint8]
    counters: dict[str, Any]
    """The sweeps' counts, the drift and its history, and the time spent so far."""
    release: Release | None = None
    """Told of each chunk saved (:func:`generator.sim.cache_files.write_arrays`): the array
    the phase does not use is saved without all of its pages coming into memory."""

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        return {
            "values": self.values,
            "lengths": self.lengths,
            "policy": self.policy,
            "settled": self.settled,
        }


class Checkpoints:
    """A solve's folder: ``values.npy`` and ``lengths.npy`` (float64, one entry per state,
    filled layer by layer through memory maps) and ``progress.json`` (written atomically with
    a format version and a checksum, :func:`generator.sim.cache_files.write_json`), which
    lists each finished layer with the SHA-256 of its values and lengths and its figures.

    A layer counts as finished only once its arrays are flushed and its record written. While
    a layer is solved, its progress is saved every
    :data:`generator.solver.solve_layer.PROGRESS_EVERY` seconds
    (``layer-N.npz`` and ``layer-N.json``, :class:`LayerProgress`), so a killed solve loses at
    most that much work and goes on with the same bits. A finished layer whose arrays no
    longer match their checksum is reported and solved again, with every layer below it;
    damaged progress is reported and its layer started again."""

    def __init__(self, folder: Path, resume: bool = True) -> None:
        self.folder = folder
        self.resume = resume
        """``False``: start afresh, whatever the folder holds."""
        self.record_path = folder / "progress.json"
        self._record: dict[str, Any] = {}
        self._read: dict[str, Any] | None = None
        self._was_read = False
        self._reported = False

    def _report(self, path: Path, reason: str) -> None:
        """Report damage once: a damaged solve is solved again once."""
        if not self._reported:
            report_damaged(path, reason)
        self._reported = True

    def _arrays(self, states: int, mode: Literal["r+", "r", "w+"]) -> tuple[FloatArray, FloatArray]:
        return tuple(  # type: ignore[return-value]
            np.lib.format.open_memmap(
                self.folder / f"{name}.npy", mode=mode, dtype=np.float64, shape=(states,)
            )
            if mode == "w+"
            else np.load(self.folder / f"{name}.npy", mmap_mode=mode)
            for name in ("values", "lengths")
        )

    def _read_record(self, states: int) -> dict[str, Any] | None:
        """The checkpoint record (read once: :func:`generator.sim.cache_files.read_json` reports
        damage itself)."""
        if not self._was_read:
            self._was_read = True
            record = read_json(self.record_path)
            if record is None and self.record_path.exists():
                self._reported = True  # read_json said why
            self._read = record if isinstance(record, dict) or record is None else {}
        record = self._read
        if record is None:
            return None
        if record.get("states") != states or not isinstance(record.get("layers"), dict):
            self._report(self.record_path, "it is not the record of this solve")
            return None
        return record

    def _verified(
        self,
        states: int,
        index: StateIndex,
        values: FloatArray,
        lengths: FloatArray,
        record: dict[str, Any],
    ) -> dict[int, dict[str, Any]]:
        """The finished layers whose arrays still match their checksums, from the top layer
        down to the first that does not."""
        layers: dict[str, Any] = record.get("layers", {})
        good: dict[int, dict[str, Any]] = {}
        sizes = index.layer_sizes
        for layer in reversed(range(len(sizes))):
            if sizes[layer] == 0:
                continue
            entry = layers.get(str(layer))
            if entry is None:
                break
            checksum = _layer_checksum(index, layer, values, lengths)
            first, last = int(index.layer_base[layer]), int(index.layer_base[layer + 1])
            for array in (values, lengths):  # read once to check: not kept in memory
                release_pages(array, first, last)
            if entry.get("sha256") != checksum:
                self._report(self.folder, f"layer {layer} does not match its checksum")
                break
            good[layer] = entry
        return good

    def open(
        self, states: int, index: StateIndex
    ) -> tuple[FloatArray, FloatArray, dict[int, dict[str, Any]]]:
        """The solve's arrays (mapped for writing) and the layers already finished."""
        self.folder.mkdir(parents=True, exist_ok=True)
        record = self._read_record(states) if self.resume else None
        if record is not None:
            try:
                values, lengths = self._arrays(states, "r+")
                if values.shape != (states,) or lengths.shape != (states,):
                    raise ValueError("shape")
            except (OSError, ValueError) as error:
                self._report(self.folder, f"its arrays are unreadable ({type(error).__name__})")
            else:
                good = self._verified(states, index, values, lengths, record)
                self.release(values, lengths, 0)  # checked; read again as the layers need them
                self._record = {"states": states, "layers": {str(k): v for k, v in good.items()}}
                return values, lengths, good
        self._record = {"states": states, "layers": {}}
        values, lengths = self._arrays(states, "w+")
        return values, lengths, {}

    def finish(
        self,
        layer: int,
        index: StateIndex,
        values: FloatArray,
        lengths: FloatArray,
        figures: dict[str, Any],
    ) -> None:
        """Flush the layer's values and lengths, then record it as finished."""
        for array in (values, lengths):
            flush = getattr(array, "flush", None)
            if flush is not None:
                flush()
        entry = {**figures, "sha256": _layer_checksum(index, layer, values, lengths)}
        self._record["layers"][str(layer)] = entry
        write_json(self.record_path, self._record)
        self.forget_progress(layer)

    def _progress_paths(self, layer: int) -> tuple[Path, Path]:
        return self.folder / f"layer-{layer}.npz", self.folder / f"layer-{layer}.json"

    def keep_progress(self, progress: LayerProgress) -> None:
        """Save an unfinished layer's progress: its arrays, then the record naming their
        checksum (a kill between the two leaves a record that does not match, and the layer
        starts again)."""
        arrays_path, record_path = self._progress_paths(progress.layer)
        checksum = write_arrays(arrays_path, progress.arrays(), progress.release)
        record = {
            "layer": progress.layer,
            "phase": progress.phase,
            "counters": progress.counters,
            "sha256": checksum,
        }
        write_json(record_path, record)

    def progress_of(
        self,
        layer: int,
        index: StateIndex,
        throws: int,
        values: FloatArray,
        lengths: FloatArray,
    ) -> LayerProgress | None:
        """The saved progress of ``layer`` (``throws`` throws a state), or ``None``: none
        saved, or damaged (reported: the layer starts again, and whatever was read into its
        values and lengths is overwritten). The layer's values and lengths are read a chunk at
        a time straight into ``values`` and ``lengths`` (memory-mapped: each chunk's pages go
        once read), not into copies: a resumed layer needs no more memory than a fresh one."""
        arrays_path, record_path = self._progress_paths(layer)
        if not self.resume or not record_path.exists():
            return None
        record = read_json(record_path)
        names = ("values", "lengths", "policy", "settled")
        first, last = int(index.layer_base[layer]), int(index.layer_base[layer + 1])
        size = last - first
        whole = {"values": values, "lengths": lengths}

        def release(name: str, start: int, stop: int) -> None:
            release_pages(whole[name], first + start, first + stop)

        into = {"values": values[first:last], "lengths": lengths[first:last]}
        saved = read_arrays(arrays_path, names, into, release) if isinstance(record, dict) else None
        arrays, checksum = saved if saved is not None else (None, None)
        shapes = {
            "values": size,
            "lengths": size,
            "policy": size * throws,
            "settled": size * throws,
        }
        if (
            not isinstance(record, dict)
            or arrays is None
            or record.get("layer") != layer
            or record.get("phase") not in ("values", "lengths")
            or record.get("sha256") != checksum  # the arrays' own, verified as they were read
            or any(arrays[name].shape != (shapes[name],) for name in names)
        ):
            self._report(record_path, "it is not the saved progress of this layer")
            return None
        return LayerProgress(
            layer,
            record["phase"],
            arrays["values"],
            arrays["lengths"],
            arrays["policy"].astype(np.uint32, copy=False),
            arrays["settled"].astype(np.uint8, copy=False),
            record["counters"],
        )

    def forget_progress(self, layer: int) -> None:
        """Remove a finished layer's saved progress."""
        for path in self._progress_paths(layer):
            path.unlink(missing_ok=True)

    @staticmethod
    def release(values: FloatArray, lengths: FloatArray, start: int) -> None:
        """Let the pages of entries ``start`` onwards, flushed to disk, leave the process's
        memory: they are read from the file again if used (:func:`release_pages`)."""
        for array in (values, lengths):
            release_pages(array, start, array.shape[0])

    def complete(self, memory_bytes: int) -> None:
        self._record["complete"] = True
        self._record["memory_bytes"] = memory_bytes
        write_json(self.record_path, self._record)

    def mapped(self, states: int) -> tuple[FloatArray, FloatArray]:
        return self._arrays(states, "r")

    def load_complete(self, rules: Rules, geo: Geometry, tolerance: float) -> Solution | None:
        """The finished solution in this folder, or ``None`` (missing, unfinished, damaged)."""
        if not self.record_path.exists():
            return None
        configs = enumerate_configurations(rules, geo)
        index = build_index(geo, configs)
        states = index.states
        record = self._read_record(states)
        if record is None or not record.get("complete"):
            return None
        try:
            values, lengths = self._arrays(states, "r")
        except (OSError, ValueError) as error:
            self._report(self.folder, f"its arrays are unreadable ({type(error).__name__})")
            return None
        good = self._verified(states, index, values, lengths, record)
        if len(good) != int((index.layer_sizes > 0).sum()):
            return None
        totals = Totals()
        for entry in good.values():
            totals.add(entry)
        memory = int(record.get("memory_bytes", 0))
        return totals.solution(
            rules, geo, configs, index, values, lengths, memory, tolerance, from_cache=True
        )


def release_pages(array: FloatArray, start: int, stop: int) -> None:
    """Drop the whole pages holding ``array[start:stop]`` from the process's memory, where
    ``array`` maps a file (``np.memmap``; other arrays are left alone). The file keeps the
    data: the kernel writes dirty pages back before it lets them go, and a later read maps
    them in again."""
    mapped = getattr(array, "_mmap", None)
    if not isinstance(mapped, mmap.mmap) or stop <= start or not hasattr(mapped, "madvise"):
        return
    # np.memmap maps from its offset rounded down to the allocation granularity.
    skip = int(array.offset) % mmap.ALLOCATIONGRANULARITY  # type: ignore[attr-defined]
    page = mmap.PAGESIZE
    first = -(-(skip + start * array.itemsize) // page) * page
    last = (skip + stop * array.itemsize) // page * page
    if last > first:
        mapped.madvise(mmap.MADV_DONTNEED, first, last - first)


def _layer_checksum(index: StateIndex, layer: int, values: FloatArray, lengths: FloatArray) -> str:
    first, last = int(index.layer_base[layer]), int(index.layer_base[layer + 1])
    return arrays_checksum({"values": values[first:last], "lengths": lengths[first:last]})


def solution_checksum(values: FloatArray, lengths: FloatArray) -> str:
    """The checksum of a whole solution's ``values`` and ``lengths``, hashed a chunk at a
    time; a memory-mapped array's pages leave memory once hashed (a seven-piece game's are
    8 GB)."""
    arrays = {"values": values, "lengths": lengths}

    def release(name: str, start: int, stop: int) -> None:
        release_pages(arrays[name], start, stop)

    return arrays_checksum(arrays, release)
