"""The committed results moved to data keys (:mod:`generator.sim.rekey` says why), once, by
``ur-variants verify --rekey``: the build's measurements that read ``results/`` run with keys
made as they were, so each finds its committed records as before and notes the new key of
every one it asks for; each results file is then rewritten with those keys, every figure and
its provenance untouched. Records the build does not ask for (their rules changed since they
were written) keep their old keys: they were not read before and are not read after."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from generator.measure.agents import AGENTS
from generator.measure.claims import CLAIMS
from generator.measure.core import Settings
from generator.measure.exact import EXACT
from generator.measure.exact_effects import EXACT_EFFECTS
from generator.measure.full_games import FULL_GAMES
from generator.measure.steps import measure
from generator.measure.suite import SUITE
from generator.model.catalog_contents import Catalog
from generator.sim import rekey
from generator.sim.results_files import KINDS, rekey_file

SUITE_FILE = "simulation-suite.json"
"""Its records also kept the engine's and simulator's numbers as fields: taken off, as a run
made now records none (:func:`generator.sim.records.build_record`)."""

READERS = (SUITE, AGENTS, EXACT, EXACT_EFFECTS, FULL_GAMES, CLAIMS)
"""The measurements that read records of ``results/`` by key (the others read none, or read
the solve cache, whose folders keep their names)."""


def rekey_results(
    catalog: Catalog, settings: Settings, results_dir: Path, say: Callable[[str], None]
) -> dict[str, int]:
    """Rewrite every results file under ``results_dir`` with the new keys of the records the
    build reads; how many keys each file had replaced, by name."""
    with rekey.migrating() as renamed:
        measure(catalog, dataclasses.replace(settings, jobs=1), READERS)
    say(f"{len(renamed)} keys renamed by the build's reads")
    counts = {}
    for name in KINDS:
        path = results_dir / name
        if path.exists():
            drop = rekey.RECORD if name == SUITE_FILE else ()
            counts[name] = rekey_file(path, renamed, drop)
            say(f"{path}: {counts[name]} keys replaced")
    return counts
