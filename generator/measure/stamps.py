"""The committed results' stamps checked: a results file made by code that now computes
differently is named in the build's warnings with its fix (:mod:`generator.sim.results_files`
explains the keys and the stamps). The file is still read: computing it again in a build can
take hours, and ``ur-variants verify --stamp`` tells a harmless change from a real one.

The build keeps this check cheap: it computes only the engine's digest (:data:`COMPUTED`,
seconds) and compares the other layers' digests only where they were already computed for the
code as it is now (by ``ur-variants verify`` or a results command, under ``.cache/behaviour``).
Computing the solver's and the claims' digests compiles the solver (minutes on a fresh clone),
so a layer not yet computed is named as unchecked, with the command that checks it."""

from __future__ import annotations

import functools

from generator.claims.behaviour import DIGESTS
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.results_files import KINDS, cached_digests, current_digests, stale_file

COMPUTED = ("engine",)
"""The layers whose digests a build computes when not yet known (seconds: perft counts and a
seeded game on three pinned rulebooks)."""


def stale_files(catalog: Catalog, settings: Settings) -> list[str]:
    """Why each committed results file is stale, one line a file (each also logged), comparing
    the layers whose digests are known cheaply; the others are named as not checked."""
    del catalog  # the stamps depend on the code and the pinned rulebooks only
    known = {**cached_digests(), **current_digests(DIGESTS, COMPUTED)}
    as_known = {name: functools.partial(str, digest) for name, digest in known.items()}
    found = [
        problem
        for kind in KINDS.values()
        if (problem := stale_file(kind, as_known, cache_dir=None, layers=known))
    ]
    for problem in found:
        settings.log(problem)
    unchecked = sorted({name for kind in KINDS.values() for name in kind.behaviour} - set(known))
    if unchecked:
        settings.log(
            f"results stamps: the {', '.join(unchecked)} digests are not computed for this code"
            " yet (minutes), so the build did not compare them; `ur-variants verify` does"
        )
    return found


STAMPS: Step[list[str]] = Step("results-stamps", stale_files, lambda _: [])
"""Warnings only: a stale file's figures are checked like any other's by their own steps."""
