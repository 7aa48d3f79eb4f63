"""The engine's "plays identically" verdicts, checked a second way, as a measurement.

:func:`generator.engine.equivalence.compare_rulings` decides from the compiled rules that a
rulebook plays the same game with another rulebook's ruling in place of its own; this step
plays seeded random games under the rulebook and checks that the mixed rules generate the same
moves, every throw tried, at each position met (:func:`~generator.engine.equivalence.
sampled_agreement`), for every such verdict a pair of rulebooks gives, each rulebook's
ruling in the other's game (:func:`~generator.engine.equivalence.same_game_swaps`). The pair
pages print the count. One
position where the moves differ means the two ways disagree: the verdict is not published.

The checks are cached in ``.cache/cross-checks/``, keyed by the SHA-256 of every file under
``variants/``, the positions, the seed and the engine's version: a rebuild after a change
elsewhere plays no games.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.engine.equivalence import same_game_swaps, sampled_agreement, swapped_rules
from generator.engine.rules import compile_rules
from generator.measure.claims import catalogue_digest
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.cache_files import CACHE_FORMAT, content_key, read_json, write_json
from generator.sim.results_files import code_key

POSITIONS = 100
"""Positions of random games per verdict (every throw is tried at each)."""
SEED = 0


@dataclass(frozen=True)
class CrossCheck:
    """One "plays identically" verdict checked on random games: ``host``'s game with the
    ruling ``ruling`` (another rulebook's) in place of its own on that question."""

    host: str
    ruling: str
    positions: int
    differing: int
    """Positions where the two rules generate different moves for some throw."""


CrossChecks = dict[tuple[str, str], CrossCheck]
"""By (host rulebook, ruling id)."""


def _cache_path(settings: Settings, catalogue: str) -> Path:
    payload = {
        "catalogue": catalogue,
        "positions": POSITIONS,
        "seed": SEED,
        "code": code_key("engine", "measure/cross_checks.py"),
    }
    return settings.cache_root / "cross-checks" / f"{content_key(payload)}.v{CACHE_FORMAT}.json"


def _cached(path: Path) -> CrossChecks | None:
    rows: Any = read_json(path)
    if not isinstance(rows, list) or not all(
        isinstance(row, list) and len(row) == 4 for row in rows
    ):
        return None
    checks = [CrossCheck(str(h), str(r), int(p), int(d)) for h, r, p, d in rows]
    return {(c.host, c.ruling): c for c in checks}


def cross_check(catalog: Catalog, settings: Settings) -> CrossChecks:
    """Every "plays identically" verdict of a pair of rulebooks, checked on random games."""
    path = _cache_path(settings, catalogue_digest(catalog.root))
    cached = None if settings.refresh else _cached(path)
    if cached is not None:
        return cached
    checks: CrossChecks = {}
    for host, ruling in same_game_swaps(catalog):
        resolved = catalog.resolve(host)
        mixed = swapped_rules(catalog, resolved, ruling)
        if mixed is None:  # same_game_swaps yields none: a mix that cannot be played differs
            raise AssertionError(f"{host} with {ruling.id} cannot be played")
        positions, differing = sampled_agreement(
            compile_rules(resolved), mixed, positions=POSITIONS, seed=SEED
        )
        checks[host, ruling.id] = CrossCheck(host, ruling.id, positions, differing)
    rows = [[c.host, c.ruling, c.positions, c.differing] for c in checks.values()]
    write_json(path, rows)
    settings.log(f"engine cross-checks: {len(checks)} verdicts checked on random games")
    return checks


def cross_check_problems(checks: CrossChecks) -> list[str]:
    """A verdict the random games contradict (the two ways of deciding disagree)."""
    return [
        f"{c.host} with ruling {c.ruling}: the effective rules call it the same game, but the"
        f" moves differ at {c.differing} of {c.positions} positions of random games"
        for c in checks.values()
        if c.differing
    ]


CROSS_CHECKS = Step("engine cross-checks", cross_check, cross_check_problems)
