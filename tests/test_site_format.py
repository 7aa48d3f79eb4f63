"""Numbers as the statistics page prints them."""

from __future__ import annotations

import pytest
from conftest import VARIANTS, repository_catalog

from generator.model.references import Reference, malformed, pieces
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.edition_pages import value_in_words
from generator.site.render import figure, figure_range, title_text
from generator.site.statistics_page import binary_size, same_value_series
from generator.site.variant_pages import NO_STEP, how_to_play, rule_sections


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "0 bytes"),
        (1023, "1023 bytes"),
        (1024, "1.0 KiB"),
        (40_000, "39 KiB"),
        (3 * 2**20, "3.0 MiB"),
        (int(3.3 * 2**30), "3.3 GiB"),
    ],
)
def test_binary_size(count: int, text: str) -> None:
    assert binary_size(count) == text


def test_identical_exact_values_share_one_line() -> None:
    series = {
        "A": [(1, 53.0049839525), (2, 51.8572907496)],
        "B": [(1, 53.0049839525), (2, 51.8572907496)],
        "C": [(1, 53.0049839525), (2, 51.9)],
        "D": [(1, 53.0049839525), (2, 51.8572907496), (3, 51.6)],
    }
    merged = same_value_series(series)
    assert list(merged) == ["A, B", "C", "D"]
    assert merged["A, B"] == series["A"]


def test_title_quotes_open_and_close() -> None:
    assert title_text('rules of "Murray (Suggested)"') == "rules of “Murray (Suggested)”"
    assert title_text('"Rosette", item "Nothing"') == "“Rosette”, item “Nothing”"


def test_figures_carry_a_true_minus_and_ranges_an_en_dash() -> None:
    assert figure("%+.1f", -1.25) == "\u22121.2"
    assert figure("%+.1f", 0.5) == "+0.5"
    assert figure("%.2f", 3) == "3.00"
    assert figure_range("%.1f", 48.04, 51.96) == "48.0\u201352.0"
    # Signed ends would put a sign against the dash: the range says "to".
    assert figure_range("%+.1f", -2.1, 1.9) == "\u22122.1 to +1.9"
    assert "-" not in figure_range("%.1f", -3, -1)


def test_a_link_in_prose_is_read_as_its_id_and_words() -> None:
    text = "See [[bell-dice]] and [[sr-route|the same route]]; [[not closed"
    assert [p for p in pieces(text) if isinstance(p, Reference)] == [
        Reference("bell-dice", None),
        Reference("sr-route", "the same route"),
    ]
    assert malformed(text) == ["[["]
    assert malformed("[[x|y]] and [[y]]") == []


def test_prose_shows_words_and_links_never_the_id() -> None:
    ctx = SiteContext(repository_catalog(), None, load_editions(VARIANTS))
    note = (
        "As [[bell-dice|Bell's dice]] borrow; see [[tablet-finkel-2007]] <b>and</b>"
        " [[finkel-2007]]."
    )
    shown = str(ctx.prose("questions/dice.md")(note))
    assert "[Bell&#39;s dice](../variants/bell-1960.md#bell-dice)" in shown
    short = ctx.catalog.variants["tablet-finkel-2007"].short
    assert f"({'../variants/tablet-finkel-2007.md'})" in shown and "Tablet" in short
    assert "(../sources/index.md#finkel-2007)" in shown
    assert "<b>" not in shown and "[[" not in shown
    plain = ctx.plain(note)
    assert plain.startswith("As Bell's dice borrow; see " + short)
    assert "[[" not in plain and "bell-dice" not in plain


def test_a_recorded_value_reads_as_words_on_the_changes_page() -> None:
    ctx = SiteContext(repository_catalog(), None, load_editions(VARIANTS))
    words = value_in_words(ctx, "bell-pieces", "7")
    assert words is not None and "7" in words and "pieces" in words
    dice = value_in_words(ctx, "bell-dice", '"selchow-righter-three"')
    assert dice is not None and "selchow-righter-three" not in dice
    assert value_in_words(ctx, "no-such-ruling", "7") is None


def test_how_to_play_leaves_out_a_question_that_does_not_arise() -> None:
    """RoyalUr.net's Finkel set earns no throw by a throw, so whether such a throw counts without
    a move does not arise: the rules give that ruling, how to play does not repeat it."""
    ctx = SiteContext(repository_catalog(), None, load_editions(VARIANTS))
    ruling = ctx.resolved["royalur-finkel"].rulings["extra-throw-without-move"]
    assert ruling.value == NO_STEP
    anchors = [a for step in how_to_play(ctx, "royalur-finkel") for _, a in step.sentences]
    sections = [s.anchor for s in rule_sections(ctx, "royalur-finkel")]
    assert ruling.id in sections and ruling.id not in anchors
    assert set(anchors) <= set(sections)
