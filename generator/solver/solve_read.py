"""Read a finished solve from the solve cache, never solving.

:func:`generator.solver.solve.solve` solves whatever the cache lacks; a reader of a full game
(seven pieces a side: about an hour on two cores) must not start one by accident. A full game
is checkpointed in one of two folders (:func:`generator.solver.full_games.solve_full_game`): the
sweeps started from the committed fitted evaluation, or from 1/2 (the same values within the
tolerance); either, once complete and matching its checksums, is read here. A distributed
solve (:mod:`generator.solver.cluster`) keeps its whole solution in a folder of its own, named
by the workers that solved it (:func:`cluster_folder`); it is read here too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

from generator.engine.rules import Rules
from generator.sim.cache_files import read_json
from generator.solver.solution import Solution, Totals
from generator.solver.solve import solution_path, starting_point
from generator.solver.solve_checkpoints import Checkpoints, solution_checksum
from generator.solver.solve_space import FloatArray, geometry

FULL_GAME_TOLERANCE = 1e-13
"""The full games' tolerance (:data:`generator.solver.full_games.TOLERANCE`)."""


def committed_start(rules: Rules) -> FloatArray | None:
    """The fitted evaluation a full game's sweeps start from: the committed fit of ``rules``
    (:func:`generator.solver.fitted_agent.committed_weights`), where one is committed and
    moving is compulsory (:func:`generator.solver.solve.starting_point`); else ``None``."""
    from generator.solver.fitted_agent import committed_weights

    return starting_point(rules, committed_weights(rules))


def start_as_begun(rules: Rules, plain: Path) -> FloatArray | None:
    """Where a full game's sweeps start: the committed fitted evaluation
    (:func:`committed_start`), unless a solve from 1/2 has begun in ``plain``, its folder (a
    single process's progress, a worker's finished layer or a whole solution), which then goes
    on as it began."""
    begun = (plain / "progress.json").exists() or (plain / "solution.json").exists()
    if begun or any(plain.glob("worker-*/layer-*.json")):
        return None
    return committed_start(rules)


def solve_folders(
    rules: Rules, cache_dir: Path, tolerance: float = FULL_GAME_TOLERANCE
) -> list[Path]:
    """The folders a solve of ``rules`` may be checkpointed in: from the fitted start (when
    fits for these rules are committed), then from 1/2."""
    fitted = committed_start(rules)
    folders = [solution_path(cache_dir, rules, tolerance, fitted)] if fitted is not None else []
    return [*folders, solution_path(cache_dir, rules, tolerance)]


def cached_solution(
    rules: Rules, cache_dir: Path, tolerance: float = FULL_GAME_TOLERANCE
) -> Solution | None:
    """The complete solve of ``rules`` in ``cache_dir`` (values memory-mapped from its file),
    or ``None`` when no folder holds a complete one. A damaged folder is reported (by
    :class:`generator.solver.solve.Checkpoints`) and skipped."""
    geo = geometry(rules)
    for folder in solve_folders(rules, cache_dir, tolerance):
        if not (folder / "progress.json").is_file():
            continue
        solution = Checkpoints(folder).load_complete(rules, geo, tolerance)
        if solution is not None:
            return solution
    return None


def cluster_folder(
    cache_dir: Path,
    rules: Rules,
    workers: int,
    tolerance: float = FULL_GAME_TOLERANCE,
    start: FloatArray | None = None,
) -> Path:
    """The folder of a distributed solve of ``rules`` on ``workers`` workers: the workers'
    checkpoints and the whole solution's values and lengths, apart from a single process's.
    Sweeps from a fitted ``start`` store other bits, so they have a folder of their own, as
    one process's do (:func:`generator.solver.solve.solution_path`)."""
    folder = solution_path(cache_dir / "cluster", rules, tolerance, start)
    return folder.parent / f"{folder.name}.workers{workers}"


def distributed_solution(
    rules: Rules,
    cache_dir: Path,
    workers: int,
    tolerance: float = FULL_GAME_TOLERANCE,
    start: FloatArray | None = None,
) -> tuple[Solution, dict[str, Any]] | None:
    """The finished distributed solve of ``rules`` on ``workers`` workers in ``cache_dir``
    (from the fitted ``start``, where given; values and lengths memory-mapped) and its
    figures (``solution.json``: start value, times, the workers and the busiest one's peak
    memory, where the sweeps started), or ``None`` when the folder holds no finished one, or
    one whose arrays do not fit these rules, their checksum (reported) or
    their start value."""
    from generator.solver.solve_index import build_index
    from generator.solver.solve_space import enumerate_configurations

    folder = cluster_folder(cache_dir, rules, workers, tolerance, start)
    figures = read_json(folder / "solution.json")
    if not isinstance(figures, dict):
        return None
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    try:
        values = np.load(folder / "values.npy", mmap_mode="r")
        lengths = np.load(folder / "lengths.npy", mmap_mode="r")
    except (OSError, ValueError):
        return None
    if values.shape != (index.states,) or lengths.shape != (index.states,):
        return None
    if figures.get("sha256") != solution_checksum(values, lengths):
        print(
            f"{folder}: values.npy and lengths.npy do not match the checksum in solution.json;"
            f" run the distributed solve on {workers} workers again (it rewrites them from its"
            " workers' checkpoints)",
            file=sys.stderr,
        )
        return None
    totals = Totals(seconds=float(figures["seconds"]), cpu_seconds=float(figures["cpu_seconds"]))
    peak = int(figures.get("worker_peak_bytes") or 0)
    solution = totals.solution(
        rules, geo, configs, index, values, lengths, peak, tolerance, from_cache=True
    )
    if solution.start_value != float(figures["start_value"]):
        return None
    return solution, figures


def any_distributed_solution(
    rules: Rules, cache_dir: Path, workers: int
) -> tuple[Solution, dict[str, Any]] | None:
    """The finished distributed solve of ``rules`` on ``workers`` workers, from the fitted
    start (when fits for these rules are committed), else from 1/2 (:func:`distributed_solution`),
    as :func:`cached_solution` finds one process's."""
    fitted = committed_start(rules)
    found = (
        distributed_solution(rules, cache_dir, workers, start=fitted)
        if fitted is not None
        else None
    )
    return found or distributed_solution(rules, cache_dir, workers)
