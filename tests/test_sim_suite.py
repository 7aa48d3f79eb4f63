"""The default suite covers every simulated variant, pairing and disputed ruling; a warm rerun
reads every record from the cache. Sample sizes are shrunk here: the sizes are the suite's
constants, the structure is what is tested."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
from conftest import repository_catalog

from generator.measure.suite import chance_check
from generator.model.play_checks import answer_problems
from generator.sim import records as records_module
from generator.sim import suite as suite_module
from generator.sim.suite import Effect, default_suite, sensitivity_changes, simulated_variants
from generator.sim.variation import alternatives, canonical


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BASELINE_GAMES", "SENSITIVITY_GAMES"):
        monkeypatch.setattr(suite_module, name, 20)


def test_suite_structure_and_warm_rerun(
    tiny: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = repository_catalog()
    suite = default_suite(catalog, seed=3, jobs=1, cache_dir=tmp_path)
    simulated = [v.id for v in catalog.variants.values() if v.simulate]
    assert sorted(suite.baseline) == sorted(simulated)
    for variant in simulated:
        assert suite.baseline[variant]["agents"] == ["random", "random"]
    disputed = alternatives(catalog, [catalog.resolve(v) for v in simulated])
    for effect in suite.effects:
        assert effect.question in disputed
        own = canonical(catalog.resolve(effect.variant).value(effect.question))
        assert canonical(effect.change.value) != own
        if not effect.same_game:
            assert effect.changed["changes"] == [effect.change.as_dict()]
        assert effect.win_rate["low"] <= effect.win_rate["estimate"] <= effect.win_rate["high"]
    for skipped in suite.skipped:
        assert skipped.reason
    assert set(suite.by_question()) <= set(disputed)
    keys = [r["key"] for r in suite.records()]
    assert len(keys) == len(set(keys))

    def refuse(*args: object, **kwargs: object) -> list[object]:
        if args and args[0]:
            raise AssertionError("a warm rerun simulated again")
        return []

    monkeypatch.setattr(records_module, "run_requests", refuse)
    again = default_suite(catalog, seed=3, jobs=1, cache_dir=tmp_path)
    assert [r["key"] for r in again.records()] == keys


def test_measured_readings_are_tried_wherever_they_fit() -> None:
    """A reading a question asks to measure (``measure``) is tried on every simulated rulebook
    that does not already give it, except where the answer does not fit the rest of the
    rulebook (a throw's extra throw without a move, where no throw earns one)."""
    catalog = repository_catalog()
    variants = simulated_variants(catalog)
    tried = {
        (v.id, c.question, canonical(c.value)) for v, c, _ in sensitivity_changes(catalog, variants)
    }
    measured = [(q.id, value) for q in catalog.questions.values() for value in q.measure]
    assert measured, "no question asks for a reading to be measured"
    for question, value in measured:
        for variant in variants:
            values = {**variant.machine_values(), question: value}
            fits = all(q != question for q, _ in answer_problems(values))
            own = canonical(variant.value(question)) == canonical(value)
            expected = fits and not own
            assert ((variant.id, question, canonical(value)) in tried) == expected, (
                f"{variant.id} {question}={value}: expected {'tried' if expected else 'not tried'}"
            )


@dataclass(frozen=True)
class FakeEffect:
    same_game: bool
    win_rate: dict[str, float]
    throws: dict[str, float]


def interval(low: float, high: float) -> dict[str, float]:
    return {"estimate": (low + high) / 2, "low": low, "high": high}


def test_chance_check_counts_intervals_that_exclude_zero() -> None:
    effects = [
        FakeEffect(False, interval(0.001, 0.02), interval(-3.0, 1.0)),
        FakeEffect(False, interval(-0.01, 0.01), interval(-9.0, -2.0)),
        FakeEffect(False, interval(-0.03, -0.002), interval(4.0, 8.0)),
        FakeEffect(True, interval(0.0, 0.0), interval(0.0, 0.0)),  # plays identically
    ]
    check = chance_check(cast("list[Effect]", effects))
    assert check is not None
    assert check["changes"] == 3
    assert (check["win_rate_clear"], check["throws_clear"]) == (2, 2)
    # among three changes, the two first-player intervals that barely miss zero do not stand
    # out (2.2 standard errors, 2.4 needed); the two large length effects do
    assert (check["win_rate_beyond"], check["throws_beyond"]) == (0, 2)
    assert check["by_chance"] == pytest.approx(0.15)
    assert check["win_rate_half_width"] == pytest.approx(0.01)
    assert chance_check(cast("list[Effect]", effects[3:])) is None
