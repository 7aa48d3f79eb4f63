"""The compiled rules as data (:mod:`generator.engine.export`), which the browser engine plays:
nothing the Python engine consults is left out, and the files the site serves are the export
of exactly the rulebooks the site plays. The browser engine itself is checked against the
Python engine in ``tests/browser/test_engine_js.py``."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest
from conftest import other_answer_on_unmoved_extra_throws, rules_for, variant_ids

from generator.engine.export import (
    ENTRY_EXPORTED,
    EXPORTED,
    FORMAT,
    NOT_NEEDED,
    ExportError,
    export_rules,
    import_rules,
)
from generator.engine.rules import EntryRule, Rules
from generator.model.catalog_contents import Catalog
from generator.sim.suite import simulated_variants
from generator.site.play_files import ANSWERS_FILE, RULES_FOLDER, play_files


def unlisted(rules_class: type) -> set[str]:
    """The fields of ``rules_class`` neither exported nor listed as not needed."""
    return (
        {field.name for field in dataclasses.fields(rules_class)} - set(EXPORTED) - set(NOT_NEEDED)
    )


def test_every_field_of_the_rules_is_exported_or_named_as_not_needed() -> None:
    assert unlisted(Rules) == set(), (
        "a field of Rules is neither exported nor listed as not needed: add it to export_rules"
        " and EXPORTED, or to NOT_NEEDED with the reason"
    )
    assert set(EXPORTED) | set(NOT_NEEDED) == {field.name for field in dataclasses.fields(Rules)}
    assert not set(EXPORTED) & set(NOT_NEEDED)
    assert set(ENTRY_EXPORTED) == {field.name for field in dataclasses.fields(EntryRule)}


def test_the_check_would_catch_a_new_field() -> None:
    """A field the engine gained would be in neither list (the check is not vacuous)."""
    grown = dataclasses.make_dataclass("Grown", [("new_rule", bool)], bases=(Rules,), frozen=True)
    assert unlisted(grown) == {"new_rule"}


@pytest.mark.parametrize("variant_id", variant_ids())
def test_the_export_reads_back_as_the_same_rules(variant_id: str) -> None:
    """Through JSON and back, every field the engine plays is the same (so nothing is lost)."""
    rules = rules_for(variant_id)
    data = json.loads(json.dumps(export_rules(rules)))
    assert data["format"] == FORMAT
    assert set(data["rules"]) == set(EXPORTED.values())
    assert import_rules(data) == rules
    assert import_rules(data).distinct_pieces == rules.distinct_pieces


def test_rules_the_rulebooks_do_not_use_read_back_too() -> None:
    """The other answers (a voluntary pass, bearing off with any larger throw, a stack that
    repels, a kept throw without a move, named pieces) survive the round trip as well."""
    base = rules_for("merit-1976")
    changed = [
        dataclasses.replace(base, must_move=False, exact_bear_off=False),
        dataclasses.replace(base, stack_defence=None, extra_throw_on_capture=True),
        *other_answer_on_unmoved_extra_throws(),
        rules_for("tablet-finkel-2007-double-or-quits"),
    ]
    for rules in changed:
        assert import_rules(json.loads(json.dumps(export_rules(rules)))) == rules


def test_odds_a_browser_cannot_hold_exactly_are_refused() -> None:
    rules = rules_for(variant_ids()[0])
    huge = Fraction(1, 3**40)
    odd = dataclasses.replace(rules, throws=((1, huge), (2, 1 - huge)))
    with pytest.raises(ExportError, match="beyond 2\\*\\*53"):
        export_rules(odd)


def test_an_export_of_another_format_is_refused() -> None:
    data = export_rules(rules_for(variant_ids()[0]))
    with pytest.raises(ExportError, match="format"):
        import_rules({**data, "format": FORMAT + 1})


def test_the_site_serves_the_rules_of_every_rulebook_it_plays(catalog: Catalog) -> None:
    files = play_files(catalog)
    played = [variant.id for variant in simulated_variants(catalog)]
    rules_files = sorted(f"{RULES_FOLDER}/{vid}.json" for vid in played)
    assert sorted(files) == sorted([*rules_files, ANSWERS_FILE])
    kept = [v.id for v in catalog.variants.values() if not v.simulate]
    assert not any(f"{RULES_FOLDER}/{vid}.json" in files for vid in kept), "kept for the record"
    for vid in played:
        data = json.loads(files[f"{RULES_FOLDER}/{vid}.json"])
        assert import_rules(data) == rules_for(vid)
        computer = data["computer"]
        assert computer["agent"] in ("fitted", "greedy")
        if computer["agent"] == "fitted":
            assert len(computer["weights"]) == 3 + 2 * (data["rules"]["route_length"] + 2)
