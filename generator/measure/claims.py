"""Every factual claim a source makes, checked with the engine, as a measurement (the checks
themselves are :mod:`generator.sim.claim_checks`)."""

from __future__ import annotations

import time

from generator.measure.core import Settings, Step
from generator.model.catalog import Catalog
from generator.sim.claim_checks import CheckSettings, ClaimResult, check_claim


def check_claims(catalog: Catalog, settings: Settings) -> dict[str, ClaimResult]:
    """Each claim's verdict by claim id, rulebooks in id order, cached under ``.cache/claims``."""
    check = CheckSettings(
        settings.claim_games, settings.seed, settings.cache_root / "claims", settings.refresh
    )
    results: dict[str, ClaimResult] = {}
    for vid in sorted(catalog.variants):
        for claim in catalog.variants[vid].claims:
            began = time.perf_counter()
            results[claim.id] = check_claim(catalog, claim, check)
            settings.log(
                f"claim {claim.id}: {results[claim.id].verdict}"
                f" ({time.perf_counter() - began:.1f} s)"
            )
    return results


def claim_problems(results: dict[str, ClaimResult]) -> list[str]:
    """A claim's verdict is words and its numbers are already worded: nothing to check."""
    return []


CLAIMS = Step("claim checks", check_claims, claim_problems)
