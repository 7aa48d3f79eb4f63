"""Worked examples: the engine says which pieces a throw cannot move and why, and the pages
say it in words and draw the move before and after.

The positions here are built by hand from each rulebook's own route (the numbers are route
steps), so every reason the engine can give is met at least once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.engine.moves import Refusal, legal_moves, refused_pieces
from generator.engine.position import parse_position
from generator.engine.rules import compile_rules
from generator.measure.examples import worked_examples
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.examples import ExampleWords
from generator.site.render import environment
from generator.site.variant_pages import drawn_examples, evidence_tally
from generator.site.vocabulary import Vocabulary

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_valid_catalog(ROOT / "variants")


def test_each_piece_a_throw_cannot_move_has_the_rule_that_stops_it(catalog: Catalog) -> None:
    """Great Book rules (Bell's 14-square route, only the central rosette, step 8, safe, exact
    throw to bear off): with a 3, the piece in hand and the one on 2 land on their own pieces
    (3 and 5), the one on 5 on a dark piece safe on the central rosette, the one on 13 would
    pass the end; only the piece on 3 moves."""
    rules = compile_rules(catalog.resolve("finkel-great-book"))
    position = parse_position(rules, "0,0,0,2,3,5,13/0,0,0,0,0,0,8 L")
    refused = {(r.start, r.target): r.reason for r in refused_pieces(rules, position, 3)}
    assert refused == {
        (0, 3): Refusal.OWN_PIECE,
        (2, 5): Refusal.OWN_PIECE,
        (5, 8): Refusal.SAFE_SQUARE,
        (13, 16): Refusal.OVERSHOOTS,
    }
    assert [(m.start, m.end) for m in legal_moves(rules, position, 3)] == [(3, 6)]


def test_a_piece_that_enters_only_on_certain_throws_is_refused_other_throws(
    catalog: Catalog,
) -> None:
    rules = compile_rules(catalog.resolve("bell-1960"))
    entering = sorted(rules.entry[0].throws or ())
    other = next(t for t, _ in rules.throws if t > 0 and t not in entering)
    hand = ",".join(["0"] * rules.pieces)
    position = parse_position(rules, f"{hand}/{hand} L")
    reasons = {r.reason for r in refused_pieces(rules, position, other)}
    assert reasons == {Refusal.NOT_AN_ENTRY_THROW}
    assert not legal_moves(rules, position, other)


def test_every_piece_is_either_movable_or_refused(catalog: Catalog) -> None:
    """Across each rulebook's worked-example positions and every throw, legal moves and
    refusals together account for each piece not yet borne off, never both."""
    checked = 0
    for variant_id in catalog.variants:
        rules = compile_rules(catalog.resolve(variant_id))
        for example in worked_examples(rules, variant_id, plies=400):
            side = example.position.to_move
            for throw, _ in rules.throws:
                if throw <= 0:
                    continue
                moved = {
                    (m.piece if rules.distinct_pieces else -1, m.start)
                    for m in legal_moves(rules, example.position, throw)
                    if not m.is_pass
                }
                refused = {
                    (r.piece if rules.distinct_pieces else -1, r.start)
                    for r in refused_pieces(rules, example.position, throw)
                }
                pieces = {
                    (i if rules.distinct_pieces else -1, p)
                    for i, p in enumerate(example.position.pieces(side))
                    if p != rules.off
                }
                assert not moved & refused and moved | refused == pieces, (variant_id, throw)
                checked += 1
    assert checked > 50


def test_refusals_read_as_words_naming_the_square(catalog: Catalog) -> None:
    resolved = catalog.resolve("finkel-great-book")
    rules = compile_rules(resolved)
    words = Vocabulary.of(catalog.equipment)
    rosettes = {
        c: n for c in resolved.board.rosettes if (n := words.rosette_name(c, resolved.board.id))
    }
    writer = ExampleWords(rules, words, rosettes)
    position = parse_position(rules, "0,0,0,2,3,5,13/0,0,0,0,0,0,8 L")
    sentences = [writer.refusal(position.to_move, r, 3) for r in refused_pieces(rules, position, 3)]
    assert sentences[0].startswith("A piece in hand cannot enter: a piece of its own side")
    assert "square 8 (the central rosette), a safe square" in sentences[2]
    assert "past the end of its route, and it bears off only with exactly 2" in sentences[3]
    for sentence in sentences:
        assert not re.search(r"r\d+c\d+|->|\bnull\b", sentence), sentence


@pytest.fixture(scope="module")
def site_context(catalog: Catalog) -> SiteContext:
    return SiteContext(catalog, None, load_editions(ROOT / "variants"))


def test_examples_are_drawn_before_and_after_with_the_move_highlighted(
    site_context: SiteContext,
) -> None:
    drawn = drawn_examples(site_context, "finkel-great-book")
    assert {d.example.kind for d in drawn} == {"capture", "extra-throw", "blocked", "bear-off"}
    for d in drawn:
        for svg in (d.before_svg, d.after_svg):
            assert 'class="move-path"' in svg or 'class="move-square"' in svg
            assert svg.count('class="move-piece"') <= 1
            assert not re.search(r"r\d+c\d+", svg.split("<defs>")[0]), "grid name in the text"
        assert 'class="move-piece"' in d.before_svg
        side = d.example.side.name.capitalize()
        assert d.shown.startswith(side), d.shown
        assert len(d.moves) == len(d.example.moves)
        if d.example.kind == "blocked":
            assert d.refused and all("cannot" in line for line in d.refused)
            assert 'class="stuck-piece"' in d.before_svg or all(
                "in hand" in line for line in d.refused
            )
        if d.example.kind == "capture":
            assert "capturing" in d.shown
        if d.example.kind == "bear-off":
            assert "Bears off" in d.shown or "bears off" in d.shown
            assert 'class="move-piece"' not in d.after_svg


def test_the_evidence_tally_counts_the_data(site_context: SiteContext, catalog: Catalog) -> None:
    """Every rulebook's tally, level by level, against its own rulings, as its page words it; a
    derived rulebook also counts what it inherits."""
    words = site_context.words.data["evidence_tally"]
    tally_sentence = environment().get_template("_evidence_tally.md.j2").module.tally
    for variant_id, variant in catalog.variants.items():
        resolved = catalog.resolve(variant_id)
        own = [r for r in resolved.rulings.values() if not resolved.is_inherited(r)]
        counted = evidence_tally(site_context, variant_id)
        tally = str(tally_sentence(counted, words))
        opening = f"Of its {len(own)} rulings, " if len(own) > 1 else "One ruling of its own, "
        assert tally.startswith(opening), tally
        for level in {r.evidence for r in own}:
            count = sum(1 for r in own if r.evidence is level)
            said = f"{count} {words[level.value]}" if len(own) > 1 else words[level.value]
            assert said in tally, (variant.id, level, tally)
        inherited = len(resolved.rulings) - len(own)
        assert counted.inherited == inherited
        assert (f"; {inherited} more inherited from" in tally) == bool(inherited), tally
