"""The committed results' keys moved from hand-bumped versions to their data alone (issue 41
item 5), without computing any figure again.

Before, every data key (a simulation record's, a rulebook's agent fingerprint, a solve's rules
key, a fit's, a claim figure's) also digested version numbers bumped by hand when the code
changed (``ENGINE_VERSION`` and the rest). Now the code half of a key is the file's behaviour
stamp (:mod:`generator.sim.results_files`), and a key digests only its data. The numbers those
keys held are kept here, frozen, as the migration's data: nothing bumps them, and nothing but
:func:`keyed` (while :func:`migrating`) reads them.

Each key function builds its key through :func:`keyed`. While :func:`migrating`, it returns the
key as it was (so every committed record is still found, every cache still hit) and records
which new key replaces it; :func:`rewrite` then puts the new keys in the committed files, every
figure untouched. ``ur-variants verify --rekey`` runs the build's measurements that way and
rewrites ``results/``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

RECORD = {"engine_version": 2, "sim_version": 1}
"""What a simulation record's and an agent check's key held: the engine's and simulator's
versions (:attr:`generator.sim.records.RecordSpec.key`,
:func:`generator.solver.agent_check.fingerprint`)."""
FITTED_RECORD = {**RECORD, "fit_version": 2}
"""And a record played by the fitted agent, its fit's version."""
RULES = {"engine": 2, "solver": 3}
"""What a solve's rules key held (:func:`generator.solver.solve.rules_key`); the solve's
checkpoint folders keep these in their names (:func:`generator.solver.solve.solution_path`)."""
FIT = {"suffix": ".f2"}
"""What a fit's key appended (:func:`generator.solver.fitted_agent.fingerprint`)."""
FIGURE = {"engine": 2, "claims": 6}
"""What a claim figure's key held (:func:`generator.claims.figures.figure_key`)."""
GAME_LENGTHS = {"sim": 1}
"""And the greedy games' lengths, the simulator's version
(:func:`generator.claims.game_minutes.game_lengths_cached`)."""

_renamed: dict[str, str] | None = None
"""Old key -> new key, while :func:`migrating`."""


def keyed(make: Callable[[Mapping[str, Any]], str], legacy: Mapping[str, Any]) -> str:
    """The key ``make({})``; while :func:`migrating`, the old key ``make(legacy)`` instead,
    the new one noted as its replacement (keys made inside ``make`` are new ones there)."""
    global _renamed
    renamed = _renamed
    if renamed is None:
        return make({})
    _renamed = None
    try:
        new = make({})
    finally:
        _renamed = renamed
    old = make(legacy)
    renamed[old] = new
    return old


@contextlib.contextmanager
def migrating() -> Iterator[dict[str, str]]:
    """Within it, keys are made as they were; yields the renames noted (old -> new)."""
    global _renamed
    outer, _renamed = _renamed, {}
    try:
        yield _renamed
    finally:
        _renamed = outer


def rewrite(value: Any, rename: Callable[[str], str]) -> Any:
    """``value`` (plain JSON values) with every dict key and string passed through ``rename``
    (an old key to its new one); everything else as it was."""
    if isinstance(value, dict):
        return {rename(k): rewrite(v, rename) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite(v, rename) for v in value]
    if isinstance(value, str):
        return rename(value)
    return value
