"""The default suite covers every simulated variant, pairing and disputed ruling; a warm rerun
reads every record from the cache. Sample sizes are shrunk here: the sizes are the suite's
constants, the structure is what is tested."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import repository_catalog

from generator.sim import records as records_module
from generator.sim import suite as suite_module
from generator.sim.suite import default_suite
from generator.sim.variation import canonical, disagreements


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BASELINE_GAMES", "TABLE_GAMES", "SKILL_GAMES", "SENSITIVITY_GAMES"):
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
        seats = {tuple(r["agents"]) for r in suite.table[variant]}
        assert len(seats) == 2 * len(suite_module.TABLE_AGENTS)
        gap = suite.skill[variant]
        assert gap.as_first["agents"] == [gap.agent, "random"]
        assert gap.as_second["agents"] == ["random", gap.agent]
    disputed = disagreements(catalog, [catalog.resolve(v) for v in simulated])
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
