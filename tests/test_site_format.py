"""Numbers as the statistics page prints them."""

from __future__ import annotations

import pytest
from conftest import ROOT, VARIANTS, repository_catalog

from generator.model.references import Reference, malformed, pieces
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.edition_pages import value_in_words
from generator.site.render import figure, figure_range, lower_first, title_text
from generator.site.statistics_page import binary_size, same_value_series
from generator.site.variant_pages import NO_STEP, how_to_play, rule_sections


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "0 bytes"),
        (1023, "1,023 bytes"),
        (1024, "1.0 KiB"),
        (40_000, "39 KiB"),
        (3 * 2**20, "3.0 MiB"),
        (int(3.3 * 2**30), "3.3 GiB"),
        (int(3740.4 * 2**30), "3,740 GiB"),
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
        "E": [(1, 53.0049839525), (2, 51.8572907496)],
    }
    merged = same_value_series(series)
    assert list(merged) == ["A, B and E", "C", "D"]
    assert merged["A, B and E"] == series["A"]


def test_title_quotes_open_and_close() -> None:
    assert title_text('rules of "Murray (Suggested)"') == "rules of “Murray (Suggested)”"
    assert title_text('"Rosette", item "Nothing"') == "“Rosette”, item “Nothing”"


def test_a_rulings_title_names_its_rulebook_without_nested_brackets() -> None:
    """A ruling's title (its page, its citations) is the question and the rulebook's short
    name; a short name with brackets of its own is set off by a dash instead."""
    ctx = SiteContext(repository_catalog(), None, load_editions(VARIANTS))
    titles = {rid: ctx.ruling_title(ruling) for rid, ruling in ctx.rulings.items()}
    assert titles["bell-bearing-off"] == "Bearing off (Bell 1960)"
    assert titles["gb-dice"] == "Dice and their odds — Finkel (Great Book)"
    for rid, title in titles.items():
        assert "((" not in title and "))" not in title, f"{rid}: {title}"
        assert ctx.catalog.variants[ctx.rulings[rid].variant].short in title, rid


def test_figures_carry_a_true_minus_and_ranges_an_en_dash() -> None:
    assert figure("%+.1f", -1.25) == "\u22121.2"
    assert figure("%+.1f", 0.5) == "+0.5"
    assert figure("%.2f", 3) == "3.00"
    assert figure_range("%.1f", 48.04, 51.96) == "48.0\u201352.0"
    # Signed ends would put a sign against the dash: the range says "to".
    assert figure_range("%+.1f", -2.1, 1.9) == "\u22122.1 to +1.9"
    assert "-" not in figure_range("%.1f", -3, -1)


@pytest.mark.parametrize(
    ("form", "value", "text"),
    [
        ("%.0f", 3982.2, "3,982"),
        ("%d", 40_000, "40,000"),
        ("%d", 2321.9, "2,321"),
        ("%d", 999, "999"),
        ("%.1f", 1467.54, "1,467.5"),
        ("%+.1f", -1234.5, "\u22121,234.5"),
        ("%.2f", 0.5, "0.50"),
    ],
)
def test_figures_from_a_thousand_carry_a_thousands_separator(
    form: str, value: float, text: str
) -> None:
    assert figure(form, value) == text


def test_a_figure_form_outside_the_printf_subset_is_refused() -> None:
    with pytest.raises(ValueError, match="figure form '%s'"):
        figure("%s", 3)


RAW_NUMBER_FORMATS = ("| int }}", '"{:,}".format', '"{:,.0f}".format', '" | format(')


def test_templates_format_every_figure_through_figure() -> None:
    """A reader sees numbers formatted one way (issue 12): templates call ``figure`` rather
    than Jinja's ``int``/``format`` or ``str.format``, which differ on thousands separators."""
    templates = ROOT / "generator" / "site" / "templates"
    raw = [
        f"{path.name}:{number}: {form}"
        for path in sorted(templates.glob("*.j2"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for form in RAW_NUMBER_FORMATS
        if form in line
    ]
    assert raw == []


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
    anchors = [a for step in how_to_play(ctx, "royalur-finkel") for _, a, _ in step.sentences]
    sections = [s.anchor for s in rule_sections(ctx, "royalur-finkel")]
    assert ruling.id in sections and ruling.id not in anchors
    # a question the sources leave open links to the page's list of them, "silent"
    assert set(anchors) - {"silent"} <= set(sections)


@pytest.mark.parametrize(
    ("text", "continued"),
    [
        ("Four binary lots", "four binary lots"),
        ("Bell's 14-square route", "Bell's 14-square route"),
        ("Masters’ 16-square route", "Masters’ 16-square route"),
        ("Murray's 27-square route", "Murray's 27-square route"),
        ("RoyalUr board", "RoyalUr board"),
        ("Landing on a rosette", "landing on a rosette"),
    ],
)
def test_a_sentence_continued_keeps_a_name_capitalised(text: str, continued: str) -> None:
    """Answers quoted mid-sentence ("there: ...", "say “...”") lose their capital, except a
    name's: "there: bell's 14-square route" read as a misprint on every rulebook page."""
    assert lower_first(text) == continued
