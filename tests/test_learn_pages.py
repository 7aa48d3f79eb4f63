"""The newcomer's pages: /learn/ (the common rules in seven drawn steps) and /which-rules/
(the rulebooks by family and by the game they play), and the navigation by family.

The learn page's drawings and examples are built from the rulebook's data and played by the
engine: moving a rosette in a copy of the data moves it on every drawing and changes the
examples that use it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from generator.engine.equivalence import same_game_groups
from generator.engine.moves import Refusal, winner
from generator.engine.rules import Side
from generator.measure.lessons import Builder
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.model.schema import variant_schema
from generator.site.board import CELL, MARGIN
from generator.site.context import SiteContext, variant_page
from generator.site.edition import load_editions
from generator.site.families import families, family_words
from generator.site.full_games_view import full_games_view
from generator.site.learn_page import LEARN_PAGE, learn_page, throw_rows
from generator.site.navigation import Section, Titled, navigation
from generator.site.render import figure
from generator.site.which_rules_page import which_rules_page
from generator.solver import full_games

VARIANTS = Path(__file__).resolve().parent.parent / "variants"
STEPS = ("board", "throw", "moving", "rosettes", "capturing", "bearing-off")
"""The steps, by their headings' anchors; winning is told with bearing off (``#winning``)."""


def context(variants: Path) -> SiteContext:
    return SiteContext(load_valid_catalog(variants), None, load_editions(variants))


@pytest.fixture(scope="module")
def ctx() -> SiteContext:
    return context(VARIANTS)


@pytest.fixture(scope="module")
def learn(ctx: SiteContext) -> str:
    return learn_page(ctx)[LEARN_PAGE]


def common(ctx: SiteContext) -> str:
    return str(ctx.words.data["common_rules"])


def steps(text: str) -> dict[str, str]:
    """Each step's Markdown, by its heading's anchor."""
    found = {}
    parts = re.split(r"^## .*\{ #([a-z-]+) \}$", text, flags=re.M)
    for anchor, body in zip(parts[1::2], parts[2::2], strict=True):
        found[anchor] = body
    return found


def test_the_learn_page_teaches_every_step_with_a_drawing(ctx: SiteContext, learn: str) -> None:
    found = steps(learn)
    assert [s for s in found if s in STEPS] == list(STEPS)
    for step in STEPS:
        assert "<svg" in found[step], f"step {step} has no drawing"
    for step in STEPS[2:]:
        assert "**Example:**" in found[step], f"step {step} has no example"
    resolved = ctx.resolved[common(ctx)]
    assert f"square {resolved.route.length}" in found["board"]
    for row in throw_rows(resolved.dice):
        share = row.probability * 16
        assert f"{row.throw}: {share} in 16" in found["throw"], row
    assert "A throw moves one piece exactly that many squares" in found["moving"]
    assert '<span id="winning"></span>The first player to' in found["bearing-off"]
    assert "[the full rulebook](../variants/" in learn
    outside_drawings = re.sub(r"<svg.*?</svg>", "", learn, flags=re.S)
    assert "<a href" not in outside_drawings, "links as Markdown, which mkdocs resolves and checks"


def test_every_example_is_a_move_the_engine_plays(ctx: SiteContext) -> None:
    builder = Builder(ctx.resolved[common(ctx)])
    rules = builder.rules
    moving, rosette = builder.moving(), builder.rosette()
    capture, bear_off, won = builder.capture(), builder.bear_off(), builder.winning()
    assert moving and rosette and capture and bear_off and won
    assert moving.move.end == moving.move.start + moving.throw and not moving.move.captured
    assert rosette.move.extra_throw and rosette.after.to_move is Side.LIGHT
    assert rules.cell(Side.LIGHT, rosette.move.end) in builder.rosettes
    assert [r.reason for r in rosette.refused] == [Refusal.SAFE_SQUARE]
    assert capture.move.captured == 1 and capture.after.dark.count(0) == rules.pieces
    assert bear_off.move.end == rules.off
    assert [r.reason for r in bear_off.refused] == [Refusal.OVERSHOOTS]
    assert winner(rules, won.after) is Side.LIGHT


def rosette_centres(svg: str) -> set[tuple[str, str]]:
    return set(re.findall(r'<g class="rosette"[^>]*><ellipse cx="([\d.]+)" cy="([\d.]+)"', svg))


def test_the_drawings_and_examples_follow_the_data(tmp_path: Path, learn: str) -> None:
    """Light's first rosette moved one square back (step 4 to step 3) in a copy of the data:
    the drawings put it there and the rosette example lands on square 3."""
    copy = tmp_path / "variants"
    shutil.copytree(VARIANTS, copy)
    equipment = copy / "equipment.yml"
    text = equipment.read_text(encoding="utf-8")
    old = "rosettes: [r1c1, r3c1, r2c4, r1c7, r3c7]"
    assert old in text, "the Ur board's rosettes are written otherwise; update this test"
    equipment.write_text(text.replace(old, old.replace("r1c1", "r1c2"), 1), encoding="utf-8")
    moved = learn_page(context(copy))[LEARN_PAGE]
    before, after = rosette_centres(learn), rosette_centres(moved)
    x1, x2 = MARGIN + 0.5 * CELL, MARGIN + 1.5 * CELL  # the centres of columns 1 and 2
    y = MARGIN + 0.5 * CELL - 9  # the top petal of a rosette in row 1
    assert (f"{x1:.1f}", f"{y:.1f}") in before and (f"{x1:.1f}", f"{y:.1f}") not in after
    assert (f"{x2:.1f}", f"{y:.1f}") in after
    rosettes = steps(moved)["rosettes"]
    assert "to square 3" in rosettes and "throws again" in rosettes
    assert "to square 4" in steps(learn)["rosettes"]


def test_every_rulebook_has_a_family_with_words(ctx: SiteContext) -> None:
    allowed = variant_schema()["$defs"]["family"]["enum"]
    assert [entry["id"] for entry in family_words()] == allowed
    grouped = [vid for family in families(ctx) for vid in family.rulebooks]
    assert sorted(grouped) == sorted(ctx.variant_ids)
    assert families(ctx)[0].rulebooks[0] == common(ctx)


def test_the_navigation_groups_the_rulebooks_by_family(ctx: SiteContext) -> None:
    pages = {variant_page(v) for v in ctx.variant_ids} | {"variants/index.md", LEARN_PAGE}
    nav = navigation(ctx, pages)
    assert nav[1] == Titled("Learn to play", LEARN_PAGE), "learning comes right after home"
    rulebooks = next(e for e in nav if isinstance(e, Section) and e.title == "Rulebooks")
    sections = [e for e in rulebooks.pages if isinstance(e, Section)]
    assert [s.title for s in sections] == [f.title for f in families(ctx)]
    listed = [p.page for s in sections for p in s.pages if isinstance(p, Titled)]
    assert sorted(listed) == sorted(variant_page(v) for v in ctx.variant_ids)
    assert not any(isinstance(e, Titled) for e in rulebooks.pages), "no rulebook outside a family"


def per_variant(catalog: Catalog, ctx: SiteContext) -> dict[str, dict[str, object]]:
    """What the build gives the page: the same-game verdicts and the recorded full games."""
    simulated = {vid: r for vid, r in ctx.resolved.items() if r.variant.simulate}
    same = same_game_groups(simulated)
    found = full_games.status(full_games.full_games(catalog), full_games.read_results())
    view = full_games_view(found, ctx.variant_ids)
    return {
        vid: {
            "same_game": [catalog.variants[o] for o in same.get(vid, ())],
            "full_game": view.by_variant.get(vid),
        }
        for vid in ctx.variant_ids
    }


def test_which_rules_lists_rulebooks_of_one_game_together(ctx: SiteContext) -> None:
    figures = per_variant(ctx.catalog, ctx)
    text = which_rules_page(ctx, figures)["which-rules/index.md"]
    start = common(ctx)
    same = [start, *(v.id for v in figures[start]["same_game"])]  # type: ignore[attr-defined]
    assert len(same) > 1
    line = next(line for line in text.splitlines() if f"(../{variant_page(start)})" in line)
    assert "**One game," in line
    for vid in same:
        assert f"../variants/{vid}.md" in line, f"{vid} is not with {start}"
    solved = full_games.status(full_games.full_games(ctx.catalog), full_games.read_results())
    if start in solved.solved:
        share = figure("%.1f", 100 * solved.solved[start].first_player).replace(".", "&#46;")
        assert f"The first player wins {share} % of games with perfect play" in line
    for family in families(ctx):
        assert f"## {family.title}".replace("'", "&#39;") in text
    for vid in ctx.variant_ids:
        assert f"../variants/{vid}.md" in text, f"{vid} is missing"


def test_family_words_are_checked_against_the_schema(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from generator.site import families as module

    data = yaml.safe_load(module.DATA.read_text(encoding="utf-8"))
    data["families"] = data["families"][1:]
    broken = tmp_path / "families.yml"
    broken.write_text(yaml.safe_dump(data), encoding="utf-8")
    monkeypatch.setattr(module, "DATA", broken)
    with pytest.raises(module.FamilyError, match=r"families without words \['finkel'\]"):
        module.family_words()
