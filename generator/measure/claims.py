"""Every factual claim a source makes, checked with the engine, as a measurement (the checks
themselves are :mod:`generator.claims.claim_checks`).

Each verdict is cached under ``.cache/claims/verdict-<key>``, the key being the SHA-256 of
every file under ``variants/`` (a check may read any rulebook: the tablet route reads them
all), the claim's id, the games, the seed and the engine's and the checks' versions; so a
rebuild after a change elsewhere (a template, the site's code) does not play the sampled
checks again. The sampled figures behind a verdict are read from the committed
``results/claim-figures.json`` while their key is current (:mod:`generator.claims.claim_checks`),
so a cold build plays no games.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from pathlib import Path
from typing import Any

from generator.claims.claim_checks import CHECKS, check_claim
from generator.claims.figures import committed_figures
from generator.claims.game_minutes import SECONDS_PER_THROW as SECONDS_PER_THROW
from generator.claims.verdicts import CLAIMS_VERSION, CheckSettings
from generator.claims.verdicts import ClaimResult as ClaimResult
from generator.engine import ENGINE_VERSION
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.cache_files import CACHE_FORMAT, content_key, read_json, write_json

CHECK_NAMES = tuple(sorted(CHECKS))
"""Every kind of claim check, by name (the claims page says how each tests a claim)."""


def catalogue_digest(root: Path) -> str:
    """The SHA-256 of every file under the catalogue's folder, names included."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


VERDICTS_VERSION = 2
"""Bump when a check words its verdict or lists its figures differently from the same
figures (:data:`CLAIMS_VERSION` keys the figures themselves, committed ones included): cached
verdicts are checked again, the committed figures still read."""


def _verdict_path(settings: Settings, catalogue: str, claim: str) -> Path:
    payload = {
        "catalogue": catalogue,
        "claim": claim,
        "games": settings.claim_games,
        "seed": settings.seed,
        "engine": ENGINE_VERSION,
        "claims": CLAIMS_VERSION,
        "verdicts": VERDICTS_VERSION,
    }
    return settings.cache_root / "claims" / f"verdict-{content_key(payload)}.v{CACHE_FORMAT}.json"


def _cached_verdict(path: Path) -> ClaimResult | None:
    payload: Any = read_json(path)
    names = {f.name for f in dataclasses.fields(ClaimResult)}
    if not isinstance(payload, dict) or set(payload) != names:
        return None
    numbers = payload["numbers"]
    if not isinstance(numbers, list) or not all(
        isinstance(row, list) and len(row) == 2 and all(isinstance(x, str) for x in row)
        for row in numbers
    ):
        return None  # written before the rows kept their order
    return ClaimResult(**{**payload, "numbers": dict(numbers)})


def _verdict_payload(result: ClaimResult) -> dict[str, Any]:
    """``result`` as the cache keeps it: the numbers as rows, so they keep the order the check
    gave them (the cache's JSON sorts an object's keys): a page built from the cache lists
    them as one built from a fresh check."""
    return {**dataclasses.asdict(result), "numbers": [list(row) for row in result.numbers.items()]}


def check_claims(catalog: Catalog, settings: Settings) -> dict[str, ClaimResult]:
    """Each claim's verdict by claim id, rulebooks in id order, cached under ``.cache/claims``."""
    check = CheckSettings(
        settings.claim_games,
        settings.seed,
        settings.cache_root / "claims",
        settings.refresh,
        committed=committed_figures(log=settings.log),
        log=settings.log,
    )
    catalogue = catalogue_digest(catalog.root)
    results: dict[str, ClaimResult] = {}
    for vid in sorted(catalog.variants):
        for claim in catalog.variants[vid].claims:
            path = _verdict_path(settings, catalogue, claim.id)
            cached = None if settings.refresh else _cached_verdict(path)
            if cached is not None:
                results[claim.id] = cached
                continue
            began = time.perf_counter()
            results[claim.id] = check_claim(catalog, claim, check)
            write_json(path, _verdict_payload(results[claim.id]))
            settings.log(
                f"claim {claim.id}: {results[claim.id].verdict}"
                f" ({time.perf_counter() - began:.1f} s)"
            )
    return results


def claim_problems(results: dict[str, ClaimResult]) -> list[str]:
    """A claim's verdict is words and its numbers are already worded: nothing to check."""
    return []


CLAIMS = Step("claim checks", check_claims, claim_problems)
