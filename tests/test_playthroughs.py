"""Golden playthroughs: one seeded random game per variant, diffed line by line.

Each file shows every throw, the legal moves in the engine's order, the move chosen and the
position after it, so a rules change shows up as a readable diff at the first ply it affects.
"""

from __future__ import annotations

import difflib
import re

import pytest
from conftest import PLAYTHROUGH_DIR, playthrough, variant_ids

from generator.engine.goldens import REGENERATE


@pytest.mark.parametrize("variant_id", variant_ids())
def test_playthrough_matches_golden(variant_id: str) -> None:
    path = PLAYTHROUGH_DIR / f"{variant_id}.txt"
    assert path.exists(), (
        f"variant {variant_id} has no golden playthrough {path.name}; {REGENERATE}"
    )
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(variant_id)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "engine now", lineterm="", n=4
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(f"{variant_id} now plays differently:\n{shown}\nIf meant, {REGENERATE}.")


def test_no_playthroughs_for_missing_variants() -> None:
    stale = sorted(p.stem for p in PLAYTHROUGH_DIR.glob("*.txt") if p.stem not in variant_ids())
    assert not stale, (
        f"golden playthroughs for variants that no longer exist: {stale}; {REGENERATE}"
    )


@pytest.mark.parametrize("variant_id", variant_ids())
def test_playthrough_is_consistent(variant_id: str) -> None:
    """Each ply's chosen move is one of its listed legal moves (or the pass when none)."""
    lines = (PLAYTHROUGH_DIR / f"{variant_id}.txt").read_text(encoding="utf-8").splitlines()
    legal = [line.removeprefix("  legal: ") for line in lines if line.startswith("  legal: ")]
    chosen = [line.removeprefix("  chosen: ") for line in lines if line.startswith("  chosen: ")]
    assert legal and len(legal) == len(chosen)
    for options, move in zip(legal, chosen, strict=True):
        if options == "none":
            assert move == "pass"
        else:
            assert move in options.split(" | ")
    assert re.fullmatch(r"winner (light|dark)|stopped after \d+ throws", lines[-1]), lines[-1]
