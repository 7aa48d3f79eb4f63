"""What the engine computes on pinned inputs, as one digest: the keys' code half.

A committed result depends on its data (the rules, the seed, the games) and on the code that
computed it. The code is keyed by its *behaviour*, not its source: a digest of what the code
computes on a few pinned rulebooks (:data:`PINNED`), which changes when the engine plays a
game differently and not when a function is only renamed or moved
(:mod:`generator.sim.results_files` explains the keys). The engine's part: each pinned
rulebook's perft counts (distinct positions 1..k plies from the start,
:func:`generator.engine.goldens.choose_perft_depth`) and one seeded game written out move by
move (:func:`generator.engine.goldens.playthrough`), the golden records' own measures.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from generator.engine.goldens import choose_perft_depth, playthrough
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog import load_valid_catalog

VARIANTS = Path(__file__).resolve().parents[2] / "variants"
PINNED = ("finkel-english", "masters-page", "bell-1960")
"""The rulebooks every layer's behaviour is measured on: Finkel's reading (two players, four
binary dice, safe rosettes with an extra throw), the Masters' rules (captures on the central
rosette allowed differently) and Bell's (another board route and scoring of throws). A ruling
edited in one of them changes every digest, as a code change would: `ur-variants verify
--stamp` re-checks a sample of each file and re-stamps it."""


def behaviour_digest(outputs: Any) -> str:
    """The SHA-256 of ``outputs`` (plain JSON values) in canonical JSON."""
    text = json.dumps(outputs, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def pinned_rules() -> tuple[Rules, ...]:
    """The compiled rules of the :data:`PINNED` rulebooks."""
    catalog = load_valid_catalog(VARIANTS)
    return tuple(compile_rules(catalog.resolve(name)) for name in PINNED)


@functools.cache
def engine_digest() -> str:
    """The engine's behaviour: perft counts and one seeded game per pinned rulebook."""
    return behaviour_digest(
        {r.variant: [choose_perft_depth(r), playthrough(r, True)] for r in pinned_rules()}
    )
