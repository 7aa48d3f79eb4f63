"""The exact solver's checkpoint folders keep their names: a solve that has run for days resumes
from its folder by name (``generator.solver.solve.solution_path``), so a change to how results
are keyed must not rename the folder of a game already being solved."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.engine.rules import compile_rules
from generator.model.catalog_contents import Catalog
from generator.solver.full_games import TOLERANCE
from generator.solver.solve import solution_path
from generator.solver.solve_read import committed_start

# The folders under .cache/solve of the full games solved or being solved on 2026-12-05: the
# first three from 1/2, the seven-piece Masters games from the committed fitted start (its
# folder carries the start's digest, so the committed fit must keep being found by its key).
FOLDERS = {
    "finkel-three-piece": "424b7324d73372dadae7b0462068cd89a05787a4ae66e12350bfb41c0305fe39.v1.s4",
    "finkel-great-book": "5d914c559fc79b638b63a57c66af037797d36d8e2e566c75be90b185a45165a0.v1.s4",
    "finkel-spanish": "daa0e63e19b6b9050ca4aab9e02b77c6091ddac19014b66d896d31ae6d0132d7.v1.s4",
    "royalur-masters-four-dice": "c7e2b93f6e11793b3a2cb7e03fdd9b2f266166e58f63595f9d30ead90721c421"
    ".v1.s4.wb6820c3bbc8a3101",
    "masters-page-safe-rosettes": "018599e487c724262eb9c725539cfc9196947c674c0bdf571a55394f60b94450"
    ".v1.s4.w2e3439b787855550",
}
FITTED = {"royalur-masters-four-dice", "masters-page-safe-rosettes"}


@pytest.mark.parametrize("vid", sorted(FOLDERS))
def test_a_full_game_keeps_its_checkpoint_folder(catalog: Catalog, vid: str) -> None:
    rules = compile_rules(catalog.resolve(vid))
    fitted = vid in FITTED
    start = committed_start(rules) if fitted else None
    assert not fitted or start is not None
    assert solution_path(Path("cache"), rules, TOLERANCE, start).name == FOLDERS[vid]
