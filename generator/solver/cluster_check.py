"""A distributed solve (:mod:`generator.solver.cluster`) checked against the single-process
solve of the same rules: the start value, and every stored value and expected length.

The issue's bound is 1e-9 percentage points between the two; the workers sweep each wave with
the single process's kernels over the same values (Jacobi within a wave), so they are expected
to store the very same bits, and :class:`Comparison` says whether they do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from generator.solver.solution import Solution
from generator.solver.solve_space import FloatArray

BOUND_PP = 1e-9
"""Percentage points: the most a distributed value may differ from the single process's."""


@dataclass(frozen=True)
class Comparison:
    """The distributed solve's stored arrays against the single process's."""

    states: int
    single_start: float
    cluster_start: float
    largest_value_pp: float
    """The largest difference of a stored value, in percentage points."""
    largest_length: float
    """The largest difference of an expected length, in throws, over the finite ones."""
    same_endless: bool
    """The same states have endless (infinite) expected lengths in both."""
    differing_values: int
    differing_lengths: int
    """Stored numbers whose bits differ (lengths: the finite ones)."""

    @property
    def within_bound(self) -> bool:
        start_pp = 100 * abs(self.cluster_start - self.single_start)
        return self.same_endless and max(self.largest_value_pp, start_pp) <= BOUND_PP

    @property
    def same_bits(self) -> bool:
        return self.same_endless and self.differing_values == self.differing_lengths == 0

    def lines(self) -> list[str]:
        """The comparison in words, a figure a line."""
        return [
            f"states compared:            {self.states:,}",
            f"first player, one process:  {100 * self.single_start:.10f} %",
            f"first player, distributed:  {100 * self.cluster_start:.10f} %",
            f"largest value difference:   {self.largest_value_pp:.3g} percentage points"
            f" ({self.differing_values:,} values differ in any bit)",
            f"largest length difference:  {self.largest_length:.3g} throws"
            f" ({self.differing_lengths:,} finite lengths differ in any bit;"
            f" endless states {'the same' if self.same_endless else 'DIFFER'})",
            f"within {BOUND_PP:g} percentage points: {'yes' if self.within_bound else 'NO'};"
            f" the same bits: {'yes' if self.same_bits else 'no'}",
        ]


def compare_arrays(
    single: Solution, values: FloatArray, lengths: FloatArray, start: float
) -> Comparison:
    """The distributed ``values`` and ``lengths`` (and its printed ``start`` value) against
    ``single``'s, state by state."""
    if values.shape != single.values.shape or lengths.shape != single.lengths.shape:
        raise ValueError(
            f"the distributed solve stored {values.size:,} values and {lengths.size:,} lengths,"
            f" the single process {single.values.size:,}: not the same game"
        )
    finite = np.isfinite(single.lengths)
    same_endless = bool(np.array_equal(finite, np.isfinite(lengths)))
    length_gap = np.abs(lengths[finite] - single.lengths[finite])
    return Comparison(
        states=int(values.size),
        single_start=float(single.start_value),
        cluster_start=start,
        largest_value_pp=100 * float(np.abs(values - single.values).max(initial=0.0)),
        largest_length=float(length_gap.max(initial=0.0)),
        same_endless=same_endless,
        differing_values=int(np.count_nonzero(values != single.values)),
        differing_lengths=int(np.count_nonzero(lengths[finite] != single.lengths[finite])),
    )


def compare_distributed(
    single: Solution, cache_dir: Path, workers: int, start: FloatArray | None = None
) -> Comparison:
    """The distributed solve of ``single``'s rules on ``workers`` workers saved in
    ``cache_dir`` (read, its checksum verified, as
    :func:`generator.solver.solve_read.distributed_solution` reads it) against ``single``;
    both from the fitted ``start`` where given. Raises :class:`FileNotFoundError` naming the
    folder when it holds no finished one."""
    from generator.solver.solve_read import cluster_folder, distributed_solution

    found = distributed_solution(single.rules, cache_dir, workers, start=start)
    if found is None:
        raise FileNotFoundError(
            f"{cluster_folder(cache_dir, single.rules, workers, start=start)}: no finished"
            " distributed solve of these rules here (or a damaged one); run ur-variants solve"
            f" with --workers {workers} first"
        )
    cluster = found[0]
    return compare_arrays(single, cluster.values, cluster.lengths, cluster.start_value)


def local_workers(launcher: int) -> dict[int, int]:
    """The workers of a distributed solve started on this machine by process ``launcher``,
    by rank (MPICH's ``mpiexec`` tells each worker its rank in ``PMI_RANK``), read from
    ``/proc``: for killing one on purpose and reading their memory."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"generator.commands._cluster_worker" not in command:
            continue
        rank = [item[len(b"PMI_RANK=") :] for item in environ if item.startswith(b"PMI_RANK=")]
        if rank and launcher in _ancestry(int(entry.name)):
            found[int(rank[0])] = int(entry.name)
    return found


def _ancestry(pid: int) -> list[int]:
    """The processes ``pid`` descends from."""
    found = []
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
        found.append(pid)
    return found
