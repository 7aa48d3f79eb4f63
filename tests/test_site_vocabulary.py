"""The vocabulary layer: every machine value of the real catalogue reads as words.

The site test (tests/browser/test_reader_text.py) scans the built pages; this one checks the
words themselves, quickly, for every ruling value, square and kind in ``variants/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.model.play_checks import PlayProblem
from generator.model.variant_checks import KNOWN_CLAIM_CHECKS
from generator.sim.suite import Skipped, sensitivity_changes, simulated_variants
from generator.site.reader_text import machine_tokens, machine_words
from generator.site.vocabulary import NoWords, Vocabulary

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_valid_catalog(ROOT / "variants")


def test_every_ruling_value_reads_as_words(catalog: Catalog) -> None:
    words = Vocabulary.of(catalog.equipment)
    tokens = machine_tokens(catalog)
    for ruling in catalog.rulings():
        board = catalog.resolve(ruling.variant).board.id
        for text in (
            words.describe(ruling.question, ruling.value, board),
            words.label(ruling.question, ruling.value, board),
        ):
            assert text.strip(), ruling.id
            assert not machine_words([text], tokens), f"{ruling.id}: {text!r}"


def test_different_values_read_differently(catalog: Catalog) -> None:
    words = Vocabulary.of(catalog.equipment)
    seen: dict[tuple[str, str], str] = {}
    for ruling in catalog.rulings():
        key = (ruling.question, words.describe(ruling.question, ruling.value, "ur"))
        value = repr(ruling.value)
        assert seen.setdefault(key, value) == value, f"two values read {key[1]!r}"


def test_every_square_has_a_name_without_its_grid_name(catalog: Catalog) -> None:
    words = Vocabulary.of(catalog.equipment)
    tokens = machine_tokens(catalog)
    for route in catalog.equipment.routes.values():
        board = catalog.equipment.boards[route.board]
        for cell in board.cells:
            name = words.square_on_route(cell, board, route)
            assert cell not in name and not machine_words([name], tokens), name
    assert words.square_on_route("r2c4", board, catalog.equipment.routes["bell"]).startswith(
        "Square 8 of both routes (the central rosette"
    )


def test_a_value_without_words_is_an_error_naming_the_vocabulary(catalog: Catalog) -> None:
    words = Vocabulary.of(catalog.equipment)
    with pytest.raises(NoWords, match=r"vocabulary\.yml"):
        words.describe("start", "coin-toss")
    with pytest.raises(NoWords, match=r"equipment\.yml"):
        words.describe("dice", "no-such-dice")


def test_kinds_and_languages_read_as_words(catalog: Catalog) -> None:
    words = Vocabulary.of(catalog.equipment)
    for variant in catalog.variants.values():
        assert "-" not in words.kind(variant.kind.value)
    for source in catalog.sources.values():
        assert "-" not in words.kind(source.kind.value)
        assert words.language(source.language) != source.language


def test_every_claim_check_reads_as_words(catalog: Catalog) -> None:
    words = Vocabulary.of(catalog.equipment)
    for name in KNOWN_CLAIM_CHECKS:
        assert "-" not in words.check(name) and name not in words.check(name)
    with pytest.raises(NoWords, match=r"vocabulary\.yml"):
        words.check("no-such-check")


def test_every_change_the_engine_refuses_reads_as_words(catalog: Catalog) -> None:
    """The statistics method page says why the engine cannot play a changed rulebook in words:
    boards and routes by their titles, dice by their throws, never an equipment id."""
    words = Vocabulary.of(catalog.equipment)
    tokens = machine_tokens(catalog)
    refused = [
        outcome
        for _, _, outcome in sensitivity_changes(catalog, simulated_variants(catalog))
        if isinstance(outcome, Skipped)
    ]
    assert refused, "no change is refused: this test checks nothing"
    for skipped in refused:
        said = words.refusal(skipped.problem)
        assert said[:1].isupper() and said != skipped.reason, said
        assert not machine_words([said], tokens), f"{skipped.change.label}: {said!r}"
    with pytest.raises(NoWords, match=r"vocabulary\.yml"):
        words.refusal(PlayProblem("dice", "no-such-problem", "message"))
