"""The measurement's readings of the rules, which the pages only read: the engine's verdicts as
a typed enum worded by the vocabulary, each effect's significance judged by the measurement,
and the worked examples' moves with where each leads."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from generator.engine.equivalence import compare_rulings
from generator.engine.moves import winner
from generator.engine.rules import compile_rules
from generator.measure.effects import Significance, question_effects, significance
from generator.measure.engine_readings import EngineReadings, Verdict
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.sim.stats import beyond_chance
from generator.site.vocabulary import Vocabulary

VARIANTS = Path(__file__).resolve().parent.parent / "variants"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_valid_catalog(VARIANTS)


@pytest.fixture(scope="module")
def readings(catalog: Catalog) -> EngineReadings:
    return EngineReadings(catalog)


def test_every_verdict_has_words_and_none_is_an_engine_message(catalog: Catalog) -> None:
    words = Vocabulary.of(catalog.equipment)
    said = {verdict: words.verdict(verdict) for verdict in Verdict}
    assert len(set(said.values())) == len(Verdict)
    for verdict, text in said.items():
        assert text != verdict.method and "engine" not in text, verdict


def test_a_reading_is_the_engines_verdict(catalog: Catalog, readings: EngineReadings) -> None:
    """Each (rulebook, another rulebook's ruling) verdict is the engine's, as an enum member;
    the catalogue gives every kind but the one for a value the engine cannot combine."""
    found: set[Verdict] = set()
    for a, b in itertools.permutations(sorted(catalog.variants)[:6], 2):
        host = readings.resolved[a]
        for question, theirs in readings.resolved[b].rulings.items():
            if question not in host.rulings:
                continue
            verdict = readings.verdict(a, theirs.id)
            assert verdict is compare_rulings(catalog, host, host.rulings[question], theirs)
            assert verdict.changes_play == (
                verdict in (Verdict.RULES_DIFFER, Verdict.CANNOT_COMBINE)
            )
            found.add(verdict)
    assert {Verdict.SAME_VALUE, Verdict.RULES_DIFFER, Verdict.RULES_EQUAL} <= found


@pytest.mark.parametrize(
    ("interval", "family", "expected"),
    [
        ({"estimate": -0.006, "low": -0.026, "high": 0.014}, 352, Significance.NO_EFFECT),
        ({"estimate": 0.0155, "low": 0.001, "high": 0.03}, 352, Significance.WITHIN_CHANCE),
        ({"estimate": 0.0155, "low": 0.001, "high": 0.03}, 1, Significance.MEASURABLE),
        ({"estimate": -0.09, "low": -0.099, "high": -0.081}, 348, Significance.MEASURABLE),
    ],
)
def test_significance_is_judged_by_the_measurement(
    interval: dict[str, float], family: int, expected: Significance
) -> None:
    judged = significance(interval, family)
    assert judged is expected
    assert judged.excludes_zero == (not interval["low"] <= 0 <= interval["high"])
    assert judged.measurable == (judged.excludes_zero and beyond_chance(interval, family))


def test_no_measurement_judges_no_effect() -> None:
    effects = question_effects(None)
    assert effects.by_question == {} and effects.family == 0


def test_every_example_move_carries_where_it_leads(readings: EngineReadings) -> None:
    """The pages word a move that wins without asking the engine: the reading says so."""
    checked = 0
    for variant_id in sorted(readings.resolved)[:5]:
        rules = compile_rules(readings.resolved[variant_id])
        for example in readings.examples(variant_id):
            assert example.shown in example.moves
            for line in example.moves:
                assert line.winner is winner(rules, line.after)
                checked += 1
    assert checked > 20
