"""The measurement layer: its registry runs every step and refuses impossible figures, and
claim verdicts are cached by everything they depend on."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import VARIANTS

from generator.claims.verdicts import SUPPORTED, CheckSettings, ClaimResult
from generator.measure import claims
from generator.measure.core import Settings, Step
from generator.measure.cross_checks import CROSS_CHECKS
from generator.measure.steps import STEPS, measure
from generator.measure.suite import SUITE
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim
from generator.sim.sanity import FigureError


def test_the_registry_names_each_step_once() -> None:
    names = [step.name for step in STEPS]
    assert len(names) == len(set(names)) and {"simulation suite", "claim checks"} <= set(names)


def test_results_are_read_by_step_and_impossible_figures_stop_the_measurement(
    tmp_path: Path,
) -> None:
    ok = Step("ok", lambda catalog, settings: 0.5, lambda value: [])
    bad = Step("bad", lambda catalog, settings: 1.5, lambda value: [f"{value} is no share"])
    settings = Settings(cache_root=tmp_path)
    catalog = Catalog(root=tmp_path)
    results = measure(catalog, settings, steps=(ok,))
    assert results.of(ok) == 0.5 and results.get(bad) is None
    with pytest.raises(FigureError, match="is no share"):
        measure(catalog, settings, steps=(ok, bad))


def test_with_two_jobs_the_suite_and_cross_checks_run_here_and_the_rest_beside_them(
    tmp_path: Path,
) -> None:
    def where(name: str) -> Step[int]:
        return Step(name, lambda catalog, settings: os.getpid(), lambda value: [])

    suite, checks, other = where(SUITE.name), where(CROSS_CHECKS.name), where("other")
    catalog = Catalog(root=tmp_path)
    shared = measure(catalog, Settings(cache_root=tmp_path, jobs=2), (other, suite, checks))
    assert shared.of(suite) == shared.of(checks) == os.getpid() != shared.of(other)
    alone = measure(catalog, Settings(cache_root=tmp_path, jobs=1), (other, suite, checks))
    assert alone.of(suite) == alone.of(checks) == alone.of(other) == os.getpid()


@pytest.fixture
def counted_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every claim check run, by claim id (the checks themselves answer at once)."""
    ran: list[str] = []

    def check(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
        ran.append(claim.id)
        return ClaimResult(claim.id, claim.variant, claim.check, SUPPORTED, None)

    monkeypatch.setattr(claims, "check_claim", check)
    return ran


def test_claim_verdicts_are_reused_until_an_input_changes(
    tmp_path: Path, counted_checks: list[str]
) -> None:
    shutil.copytree(VARIANTS, tmp_path / "variants")
    catalog = load_valid_catalog(tmp_path / "variants")
    settings = Settings(cache_root=tmp_path / "cache", log=lambda _: None)
    every = sorted(c.id for v in catalog.variants.values() for c in v.claims)
    assert every

    first = claims.check_claims(catalog, settings)
    assert sorted(counted_checks) == every
    assert claims.check_claims(catalog, settings) == first
    assert sorted(counted_checks) == every  # read from the cache, not checked again

    claims.check_claims(catalog, Settings(cache_root=tmp_path / "cache", claim_games=10))
    claims.check_claims(catalog, Settings(cache_root=tmp_path / "cache", refresh=True))
    source = tmp_path / "variants" / "sources.yml"
    source.write_text(source.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    claims.check_claims(load_valid_catalog(tmp_path / "variants"), settings)
    assert sorted(counted_checks) == sorted(every * 4)
