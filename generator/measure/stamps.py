"""The committed results' stamps checked: a results file made by code that now computes
differently is named in the build's warnings with its fix (:mod:`generator.sim.results_files`
explains the keys and the stamps). The file is still read: computing it again in a build can
take hours, and ``ur-variants verify --stamp`` tells a harmless change from a real one."""

from __future__ import annotations

from generator.claims.behaviour import DIGESTS
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.results_files import KINDS, stale_file


def stale_files(catalog: Catalog, settings: Settings) -> list[str]:
    """Why each committed results file is stale, one line a file (each also logged)."""
    del catalog  # the stamps depend on the code and the pinned rulebooks only
    found = [problem for kind in KINDS.values() if (problem := stale_file(kind, DIGESTS))]
    for problem in found:
        settings.log(problem)
    return found


STAMPS: Step[list[str]] = Step("results-stamps", stale_files, lambda _: [])
"""Warnings only: a stale file's figures are checked like any other's by their own steps."""
