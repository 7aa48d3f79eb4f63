"""Read a finished solve from the solve cache, never solving.

:func:`generator.solver.solve.solve` solves whatever the cache lacks; a reader of a full game
(seven pieces a side: about an hour on two cores) must not start one by accident. A full game
is checkpointed in one of two folders (:func:`generator.solver.full_games.solve_full_game`): the
sweeps started from the committed fitted evaluation, or from 1/2 (the same values within the
tolerance); either, once complete and matching its checksums, is read here.
"""

from __future__ import annotations

from pathlib import Path

from generator.engine.rules import Rules
from generator.solver.solution import Solution
from generator.solver.solve import solution_path, starting_point
from generator.solver.solve_checkpoints import Checkpoints
from generator.solver.solve_space import geometry

FULL_GAME_TOLERANCE = 1e-13
"""The full games' tolerance (:data:`generator.solver.full_games.TOLERANCE`)."""


def solve_folders(
    rules: Rules, cache_dir: Path, tolerance: float = FULL_GAME_TOLERANCE
) -> list[Path]:
    """The folders a solve of ``rules`` may be checkpointed in: from the fitted start (when
    fits for these rules are committed), then from 1/2."""
    from generator.solver.fitted_agent import committed_weights

    fitted = starting_point(rules, committed_weights(rules))
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
