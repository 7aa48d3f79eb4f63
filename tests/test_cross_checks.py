"""The measurement that checks each "plays identically" verdict on random games: every verdict
a pair of rulebooks gives is checked once, cached by what decides it, and a contradicted
verdict stops the measurement."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import VARIANTS

from generator.engine.equivalence import same_game_swaps
from generator.measure import cross_checks
from generator.measure.core import Settings
from generator.measure.cross_checks import CROSS_CHECKS, POSITIONS, CrossCheck
from generator.measure.steps import measure
from generator.model.catalog import load_valid_catalog
from generator.sim.sanity import FigureError


def test_every_same_game_verdict_is_checked_once_then_read_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = load_valid_catalog(VARIANTS)
    swaps = [(host, ruling.id) for host, ruling in same_game_swaps(catalog)]
    assert swaps and len(swaps) == len(set(swaps))
    settings = Settings(cache_root=tmp_path, log=lambda _: None)
    checks = cross_checks.cross_check(catalog, settings)
    assert list(checks) == swaps
    assert all(c.positions == POSITIONS and c.differing == 0 for c in checks.values())

    def played(*args: object, **kwargs: object) -> tuple[int, int]:
        raise AssertionError("played again")

    monkeypatch.setattr(cross_checks, "sampled_agreement", played)
    assert cross_checks.cross_check(catalog, settings) == checks
    with pytest.raises(AssertionError, match="played again"):
        cross_checks.cross_check(catalog, Settings(cache_root=tmp_path, refresh=True))


def test_a_verdict_the_games_contradict_is_not_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = load_valid_catalog(VARIANTS)
    first = next(same_game_swaps(catalog))
    monkeypatch.setattr(cross_checks, "same_game_swaps", lambda catalog: iter([first]))
    monkeypatch.setattr(cross_checks, "sampled_agreement", lambda *a, **k: (POSITIONS, 2))
    settings = Settings(cache_root=tmp_path, log=lambda _: None)
    with pytest.raises(FigureError, match=f"moves differ at 2 of {POSITIONS} positions"):
        measure(catalog, settings, steps=(CROSS_CHECKS,))
    fine = CrossCheck(first[0], first[1].id, POSITIONS, 0)
    assert CROSS_CHECKS.problems({(fine.host, fine.ruling): fine}) == []


def test_a_pair_page_reports_the_cross_checks_of_both_rulebooks() -> None:
    """A difference the engine calls the same game both ways is checked both ways: each
    rulebook's ruling played in the other's game; the pair page sums what both found."""
    from generator.site.compare_pages import Comparer, Sampled, pair_differences
    from generator.site.context import SiteContext
    from generator.site.edition import load_editions

    catalog = load_valid_catalog(VARIANTS)
    swaps = {(host, ruling.id) for host, ruling in same_game_swaps(catalog)}
    ctx = SiteContext(catalog, None, load_editions(VARIANTS))
    a, b = "bell-1960", "royalur-finkel"
    question = "capture-zone"
    ra, rb = (ctx.resolved[v].rulings[question] for v in (a, b))
    assert {(a, rb.id), (b, ra.id)} <= swaps, "the example no longer plays alike both ways"
    checks = {
        (a, rb.id): CrossCheck(a, rb.id, POSITIONS, 0),
        (b, ra.id): CrossCheck(b, ra.id, POSITIONS, 1),
    }
    found = pair_differences(ctx, Comparer(ctx, checks), a, b, {})
    difference = next(d for d in found if d.question.id == question)
    assert not difference.changes_play
    assert difference.sampled == Sampled(2 * POSITIONS, 1, 2)
    only_a = pair_differences(ctx, Comparer(ctx, {(a, rb.id): checks[a, rb.id]}), a, b, {})
    assert next(d for d in only_a if d.question.id == question).sampled == Sampled(POSITIONS, 0, 1)
