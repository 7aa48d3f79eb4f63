"""Exact one-ruling effects and the agents' check against random: sizes, records, the
committed results (generator/solver/exact_effects.py, generator/solver/agent_check.py)."""

from __future__ import annotations

import dataclasses
import html
from pathlib import Path
from typing import Any

import pytest
from conftest import rules_for
from test_solve import finkel

from generator.model.catalog_contents import Catalog
from generator.solver import agent_check
from generator.solver.exact_effects import EffectRecord, pieces_for, plan
from generator.solver.full_games import FullEffect, FullGame
from generator.solver.policy_eval import ZERO_EFFECT, ExactFigures, exact_figures


def test_three_pieces_on_short_routes_two_on_long_ones() -> None:
    assert pieces_for([rules_for("royalur-finkel")]) == 3
    assert pieces_for([rules_for("royalur-masters")]) == 3
    assert pieces_for([rules_for("murray-1952-ludii")]) == 2
    assert pieces_for([rules_for("royalur-finkel"), rules_for("murray-1952-ludii")]) == 2
    assert pieces_for([rules_for("finkel-three-piece")]) == 3
    assert pieces_for([finkel(7)], max_states=100) is None


def figures(first: float, throws: float | None = 50.0) -> ExactFigures:
    return ExactFigures(3, 10, first, throws, first, 40.0, 0.8, 0.7, 0.1)


def record(before: ExactFigures | None, after: ExactFigures | None) -> EffectRecord:
    return EffectRecord("v", "safe-squares", "none", 3, "a", "b", before, after)


def test_an_effect_is_zero_below_the_tolerance() -> None:
    same = record(figures(0.5), figures(0.5 + ZERO_EFFECT / 2))
    assert same.is_zero("perfect_first")
    assert same.changes_the_game is False
    moved = record(figures(0.5), figures(0.5 + 2 * ZERO_EFFECT))
    assert moved.effect("perfect_first") == pytest.approx(2 * ZERO_EFFECT)
    assert moved.changes_the_game is True
    assert record(None, None).changes_the_game is None
    endless = record(figures(0.5, None), figures(0.5))
    assert endless.effect("perfect_throws") is None
    assert EffectRecord.from_dict(moved.as_dict()) == moved


def test_counts_say_which_changes_move_the_first_players_chance() -> None:
    """The statistics page's conclusion counts the changes whose exact effect on the first
    player's chance is not zero, in perfect and in random play, apart."""
    from generator.measure.exact_effects import ExactEffects

    def changed(name: str, perfect: float, random: float) -> EffectRecord:
        after = ExactFigures(3, 10, perfect, 50.0, random, 40.0, 0.8, 0.7, 0.1)
        return EffectRecord("v", name, "x", 3, "a", "b", figures(0.5), after)

    found = ExactEffects(
        by_change={
            ("v", "both", "x"): changed("both", 0.51, 0.49),
            ("v", "perfect", "x"): changed("perfect", 0.52, 0.5),
            ("v", "none", "x"): changed("none", 0.5, 0.5),
            ("v", "unknown", "x"): record(None, None),
        }
    )
    counts = found.counts()
    assert (counts["first_perfect"], counts["first_random"]) == (2, 1)
    assert (counts["evaluated"], counts["moving"], counts["zero"]) == (3, 2, 1)
    assert [r.question for r in found.largest("perfect_first")] == ["perfect", "both"]


def test_rulebooks_playing_one_change_of_one_game_show_one_effect() -> None:
    """The statistics page's table of the largest effects gives one row per effect: rulebooks
    worded differently whose change makes one game of one game are listed together, a
    rulebook whose change makes another game keeps its own row."""
    from generator.measure.exact_effects import ExactEffects

    def changed(vid: str, games: tuple[str, str], perfect: float) -> EffectRecord:
        after = ExactFigures(3, 10, perfect, 50.0, 0.5, 40.0, 0.8, 0.7, 0.1)
        base = EffectRecord(vid, "route", "murray", 3, vid, vid + "'", figures(0.5), after)
        return dataclasses.replace(base, games=games)

    records = [
        changed("spanish", ("finkel", "finkel on murray"), 0.48),
        changed("english", ("english", "english on murray"), 0.47),
        changed("french", ("finkel", "finkel on murray"), 0.48),
    ]
    found = ExactEffects(by_change={(r.variant, r.question, r.value): r for r in records})
    rows = found.largest_games("perfect_first")
    assert [[r.variant for r in row] for row in rows] == [["english"], ["french", "spanish"]]
    assert [[r.variant for r in row] for row in found.largest_games("perfect_first", 1)] == [
        ["english"]
    ]


def test_a_change_of_piece_count_is_not_shown_at_fewer_pieces(catalog: Catalog) -> None:
    planned = plan(catalog)
    by_question = {p.change.question for p in planned if p.reason is not None}
    assert by_question == {"pieces"}
    assert all(p.baseline is not None for p in planned if p.change.question != "pieces")


def run_record(first_rate: float, games: int, half: float) -> dict[str, Any]:
    rate = {"estimate": first_rate, "low": first_rate - half, "high": first_rate + half}
    return {"games": games, "results": {"first_player_win_rate": rate}}


def test_both_seats_average_the_agents_share() -> None:
    score = agent_check.both_seats(run_record(0.62, 100, 0.02), run_record(0.44, 100, 0.02))
    assert score["estimate"] == pytest.approx(0.59)
    assert score["high"] - score["estimate"] == pytest.approx((2 * 0.04**2) ** 0.5 / 4)
    assert agent_check.qualifies(score)
    weak = agent_check.both_seats(run_record(0.58, 100, 0.02), run_record(0.47, 100, 0.02))
    assert weak["estimate"] > agent_check.QUALIFYING_SCORE
    assert not agent_check.qualifies(weak)  # 55.5 %, but the interval reaches below 55 %


def test_qualified_agents_best_first() -> None:
    results = {
        "scores": {
            "v": {
                "greedy": {"estimate": 0.6, "qualifies": True},
                "safe": {"estimate": 0.7, "qualifies": True},
                "last": {"estimate": 0.3, "qualifies": False},
            }
        }
    }
    assert agent_check.qualified_agents(results, "v") == ["safe", "greedy"]
    assert agent_check.qualified_agents(results, "w") == []
    assert agent_check.qualified_agents(None, "v") == []


def test_figures_cache_lives_where_asked(tmp_path: Path) -> None:
    rules = finkel(1)
    exact_figures(rules, cache_dir=tmp_path)
    assert len(list(tmp_path.glob("*.json"))) == 1


def render_effect_row(
    exact: EffectRecord | None, changes_play: bool = True, full: FullEffect | None = None
) -> str:
    """The question page's effect table with one row carrying ``exact`` (and ``full``, its
    effect on the full game), as a reader reads it (character references decoded)."""
    from types import SimpleNamespace as Row

    from generator.measure.effects import Judged, significance
    from generator.site.reference_pages import EffectRow
    from generator.site.render import environment

    interval = {"estimate": 0.003, "low": -0.017, "high": 0.023}
    judged = significance(interval, 352)
    effect = Row(
        variant="v",
        question="q",
        change=Row(value="x"),
        win_rate=interval,
        throws=interval,
        changed=Row(games=2555, seed=1),
        exact=exact,
        full=full,
        significance=Judged(judged, judged),
    )
    return html.unescape(
        environment()
        .get_template("_question_effect.md.j2")
        .render(
            q=Row(drives_engine=True, measure=()),
            effect=[EffectRow(effect, ("v",))],
            variants={"v": Row(id="v", short="V")},
            link=lambda target: target,
            variant_page=lambda vid: f"{vid}.md",
            label=lambda question, value: value,
            verdict=lambda e: Row(changes_play=changes_play),
            family=352,
        )
    )


def test_question_rows_show_the_exact_effect_and_call_a_zero_effect_no_effect() -> None:
    moved = render_effect_row(record(figures(0.5), figures(0.5123)))
    assert (
        "| perfect play +1.23 points, 0.0 throws; random play +1.23 points, 0.0 throws"
        " (three pieces a side) | a different game |" in moved
    )
    endless = render_effect_row(record(figures(0.5, None), figures(0.5123)))
    assert "perfect play +1.23 points, unbounded;" in endless
    zero = render_effect_row(record(figures(0.5), figures(0.5)))
    assert "none, exactly (three pieces a side)" in zero
    assert "a different game by the rules, with no effect at three pieces a side" in zero
    assert "| the same game |" in render_effect_row(None, changes_play=False)
    assert "| not computed | a different game |" in render_effect_row(None)


def pair_page_with_exact(
    safe: EffectRecord | None, route: EffectRecord | None, full: FullEffect | None = None
) -> str:
    """The fixture pair's page (its rulebooks differ in safe squares and route, both of which
    change the rules) with one measured effect on each carrying ``safe`` and ``route``, as a
    reader reads it; the sampled effects show nothing measurable."""
    from types import SimpleNamespace as Row

    from generator.measure.effects import Judged, significance
    from generator.model.catalog import load_valid_catalog
    from generator.site.compare_pages import Comparer, pair_pages
    from generator.site.context import SiteContext
    from generator.site.edition import load_editions

    folder = Path(__file__).parent / "data" / "site" / "variants"
    ctx = SiteContext(load_valid_catalog(folder), None, load_editions(folder))
    interval = {"estimate": 0.0, "low": -0.02, "high": 0.02}
    judged = Judged(significance(interval, 2), significance(interval, 2))

    def effect(question: str, value: Any, exact: EffectRecord | None, full: Any = None) -> Row:
        return Row(variant="fixture-game", change=Row(value=value), win_rate=interval,
                   throws=interval, changed=Row(games=2555), exact=exact, full=full,
                   same_game=False, significance=judged)  # fmt: skip

    effects = {
        "safe-squares": [effect("safe-squares", "rosettes", safe)],
        "route": [effect("route", "masters", route, full)],
    }
    pages = pair_pages(ctx, Comparer(ctx), {}, effects, family=2)
    page = pages["compare/fixture-child--fixture-game.md"]
    assert "&#42;" not in page, "the template's own bold markup came out escaped"
    return html.unescape(page)


def test_a_pair_page_calls_a_change_of_the_game_only_where_an_exact_effect_moves() -> None:
    """Exact beats sampled: the headline names a changed game where an exact figure moves, and
    a difference whose exact effect is zero as a change of the rules that changes nothing, with
    the piece count; the sampled intervals only support; without exact figures, the engine's
    verdict stands."""
    zero, moved = record(figures(0.5), figures(0.5)), record(figures(0.5), figures(0.52))
    text = pair_page_with_exact(zero, moved)
    short = text.split("In short")[1].split("**2**")[0]
    assert "play the same game except for route (" in short
    assert "safe squares (" not in short
    assert "Computed exactly with three pieces a side, it changes the game." in short
    assert (
        "The difference in safe squares changes the rules, but computed exactly with three"
        " pieces a side it changes nothing." in short
    )
    assert "Sampled one at a time in the full game, none of the differences" in short
    assert "computed exactly, **1** of those changes the game and **1** changes nothing" in text
    # Not "**2** change the game and **0** change nothing": all, or none, in words.
    assert "of them change the rules of play, and computed exactly, all **2** change the game." in (
        pair_page_with_exact(moved, moved)
    )
    assert "**Verdict:** a different game by the rules, with no effect at three" in text
    assert "**Verdict:** a different game, computed exactly with three pieces" in text

    both_zero = pair_page_with_exact(zero, zero).split("In short")[1].split("**2**")[0]
    assert "differ in the rules of route and safe squares, but computed exactly with three" in (
        both_zero
    )
    assert "none of these differences changes the game" in both_zero
    assert "change the rules of play, but computed exactly, none of them changes the game." in (
        pair_page_with_exact(zero, zero)
    )
    assert "play the same game except" not in both_zero

    unknown = pair_page_with_exact(None, None).split("In short")[1].split("**2**")[0]
    assert "play the same game except for route (" in unknown
    assert "and safe squares (" in unknown and "exactly" not in unknown


def full_game(key: str, pieces: int, first: float, throws: float | None) -> FullGame:
    """A made-up solved full game (only its key, pieces and figures matter here)."""
    return FullGame("v", key, pieces, first, throws, 10, 1, 1.0, 1.0, 3, 2, {})


def test_a_change_between_two_solved_full_games_shows_its_exact_full_effect() -> None:
    """Where the rulebook's full game and the changed one are both solved, the exact column
    adds their difference under perfect play and the verdict rests on it; a change of the
    piece count, which fewer pieces cannot show, gets its full-game answer instead."""
    moved = record(figures(0.5), figures(0.4997))
    full = FullEffect(full_game("a", 7, 0.515405, 209.87), full_game("b", 7, 0.515533, 199.17))
    row = render_effect_row(moved, full=full)
    assert "(three pieces a side); solved in full, seven pieces a side: the first player" in row
    assert "the first player's chance +0.013 points, game length −10.7 throws, both with" in row
    assert row.rstrip().endswith("both with perfect play | a different game |")
    assert "solved in full" not in render_effect_row(moved)

    fewer = dataclasses.replace(record(None, None), reason="the change shows only in the full game")
    pieces = FullEffect(full_game("a", 7, 0.5155, 199.2), full_game("b", 3, 0.5159, 66.7))
    row = render_effect_row(fewer, full=pieces)
    assert "| solved in full, seven pieces a side, three once changed: the first player's" in row
    assert "game length −132.5 throws" in row and "shows only in the full game" not in row

    same = FullEffect(full_game("a", 7, 0.5, 200.0), full_game("a", 7, 0.5, 200.0))
    assert not same.changes_the_game
    equal = FullEffect(full_game("a", 7, 0.5, 200.0), full_game("b", 7, 0.5, 200.0))
    assert not equal.changes_the_game, "two games with the same figures: no effect"
    endless = FullEffect(full_game("a", 7, 0.5, 200.0), full_game("b", 7, 0.5, None))
    assert endless.changes_the_game and endless.throws is None

    page = pair_page_with_exact(None, moved, full)
    assert "**Verdict:** a different game, computed exactly in the full game." in page
    assert "solved in full, seven pieces a side: the first player's chance +0.013" in page
