"""The committed exact results (results/exact-effects.json, results/agents-vs-random.json):
present, current with the catalogue, complete, and reproducible (one record recomputed)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from conftest import VARIANTS

from generator.engine.rules import compile_rules
from generator.model.catalog_contents import Catalog
from generator.sim.variation import with_change
from generator.solver import agent_check, exact_effects
from generator.solver.exact_effects import current_records, plan
from generator.solver.policy_eval import ExactFigures, exact_figures
from generator.solver.solve import with_pieces


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    results = exact_effects.read_results()
    assert results is not None, "results/exact-effects.json is missing: run ur-variants exact"
    return results


def test_committed_effects_are_current_and_complete(
    catalog: Catalog, committed: dict[str, Any]
) -> None:
    """Every change the sensitivity runs make has a current exact record; a stale record
    (its rules fingerprint no longer the catalogue's) is dropped."""
    current = list(current_records(catalog, committed))
    assert len(current) == len(plan(catalog)) == len(committed["effects"])
    stale = dict(committed, effects=[dict(committed["effects"][0], changed_key="0" * 64)])
    assert committed["effects"][0]["reason"] is not None or not list(
        current_records(catalog, stale)
    )
    for key in ("command", "commit", "date", "machine"):
        assert committed[key]


def test_rulebooks_worded_differently_share_the_games_of_a_change(
    catalog: Catalog, committed: dict[str, Any]
) -> None:
    """Read against the catalogue, each record knows the games it compares by their effect:
    the English and Spanish pages' Finkel, worded differently (different rule content), play
    one game, and still one game with three binary dice; with Murray's route they differ
    (the English page does not limit captures to the shared squares)."""
    current = {
        (r.variant, r.question, str(r.value)): r for r in current_records(catalog, committed)
    }

    def both(question: str, value: str) -> tuple[Any, Any]:
        return tuple(
            current[(vid, question, value)] for vid in ("finkel-english", "finkel-spanish")
        )

    english, spanish = both("dice", "three-binary")
    assert english.baseline_key != spanish.baseline_key
    assert english.games is not None and english.games == spanish.games
    english, spanish = both("route", "murray-royalur")
    assert english.games is not None and spanish.games is not None
    assert english.games[0] == spanish.games[0] and english.games[1] != spanish.games[1]


def test_one_committed_effect_recomputes(catalog: Catalog, committed: dict[str, Any]) -> None:
    """The smallest evaluated change, recomputed now, gives the committed figures."""
    records = [r for r in current_records(catalog, committed) if r.changed is not None]
    smallest = min(records, key=lambda r: r.changed.states if r.changed else 0)
    resolved = catalog.resolve(smallest.variant)
    changed = with_change(resolved, smallest.change, catalog.equipment)
    rules = with_pieces(compile_rules(changed), smallest.pieces or 1)
    again = exact_figures(rules, cache_dir=None)
    assert smallest.changed is not None
    for name in ("perfect_first", "random_first", "perfect_moving_first"):
        assert getattr(again, name) == pytest.approx(getattr(smallest.changed, name), abs=1e-11)


def test_rulebooks_carry_the_exact_skill(committed: dict[str, Any]) -> None:
    """Every simulated rulebook at one piece at least; the perfect player wins at least half
    its games against a random one (it wins its perfect-play value against anyone)."""
    assert committed["rulebooks"]
    for listed in committed["rulebooks"].values():
        assert [f["pieces"] for f in listed] == list(range(1, len(listed) + 1))
        skills = [ExactFigures.from_dict(_plain(f)).skill for f in listed]
        assert all(s >= 0.5 - 1e-12 for s in skills)


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    fields = {f.name for f in dataclasses.fields(ExactFigures)}
    return {k: v for k, v in data.items() if k in fields}


def test_committed_agent_check_covers_every_rulebook(catalog: Catalog) -> None:
    results = agent_check.read_results()
    assert results is not None, "results/agents-vs-random.json is missing: run ur-variants agents"
    simulated = {v.id for v in catalog.variants.values() if v.simulate}
    assert set(results["scores"]) == simulated
    for scores in results["scores"].values():
        assert set(scores) == set(agent_check.CHECKED_AGENTS)
        for score in scores.values():
            assert score["qualifies"] == (score["low"] > agent_check.QUALIFYING_SCORE)
            assert score["games"] == 2 * results["games_a_seat"]
            for seat in ("first", "second"):
                share = score[seat]  # the second seat's is one minus random's: rounding
                assert share["low"] - 1e-12 <= share["estimate"] <= share["high"] + 1e-12
            seats = (score["first"]["estimate"] + score["second"]["estimate"]) / 2
            assert score["estimate"] == pytest.approx(seats)
    worst = agent_check.worst_scores(results)
    assert set(worst) == set(agent_check.CHECKED_AGENTS)


def test_rulebook_figures_are_read_only_while_their_rules_are_current(
    catalog: Catalog, committed: dict[str, Any]
) -> None:
    """Every simulated rulebook's committed figures are current; a rulebook whose game at two
    pieces was computed under other rules keeps its one-piece figures only."""
    current = exact_effects.current_rulebooks(catalog, committed)
    assert {vid: len(listed) for vid, listed in current.items()} == {
        vid: len(listed) for vid, listed in committed["rulebooks"].items()
    }
    vid = sorted(committed["rulebooks"])[0]
    listed = [dict(f) for f in committed["rulebooks"][vid]]
    listed[1]["key"] = "0" * 64
    stale = dict(committed, rulebooks={vid: listed})
    assert [f.pieces for f in exact_effects.current_rulebooks(catalog, stale)[vid]] == [1]


def test_the_build_reads_committed_values_that_a_solve_reproduces(
    catalog: Catalog, tmp_path: Path
) -> None:
    """The build's exact values come from the committed results where they hold the game: the
    same figures, positions and memory as the build's own solve of it (one- and two-piece
    Finkel solved here, checkpointed as the build solves), three pieces a side where they hold
    it, and nothing solved. A game not in the results is solved."""
    from generator.measure import exact
    from generator.measure.core import Settings
    from generator.solver.solve import solve

    settings = Settings(cache_root=tmp_path, log=lambda _: None)
    read = exact.solve_exact(catalog, settings)
    assert not (tmp_path / "solve").exists()
    # Three pieces a side where the committed results hold that game, never solved here.
    assert [v.pieces for v in read.values["royalur-finkel"]] == [1, 2, 3]
    assert [v.pieces for v in read.values["murray-1952-ludii"]] == [1, 2]
    rules = compile_rules(catalog.resolve("royalur-finkel"))
    for value in read.values["royalur-finkel"][:2]:
        solved = solve(with_pieces(rules, value.pieces), cache_dir=tmp_path / "check")
        assert value.first_player == pytest.approx(solved.start_value, abs=1e-12)
        assert value.expected_throws == pytest.approx(solved.expected_throws, abs=1e-9)
        assert (value.states, value.memory_bytes) == (solved.states, solved.memory_bytes)
    committed_without = {"rulebooks": {}}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(exact, "read_results", lambda: committed_without)
        patch.setattr(exact, "EXACT_PIECES", (1,))
        patch.setattr(exact, "MAX_SOLVED_PIECES", 0)
        solved_now = exact.solve_exact(catalog, settings)
    assert (tmp_path / "solve").exists()
    assert [v.pieces for v in solved_now.values["royalur-finkel"]] == [1]


def test_the_statistics_page_gives_each_exact_figure_once_a_game(
    catalog: Catalog, tiny_suite: Any, tmp_path: Path
) -> None:
    """The tables of perfect play, of the largest exact effects and of exact skill give one
    row per game: rulebooks that play one game (or one change of one game) share it, every
    simulated rulebook is named in the perfect-play and skill tables, and no row repeats
    another's figures."""
    import html

    from generator.measure.core import Results, Settings
    from generator.measure.exact import EXACT, solve_exact
    from generator.measure.exact_effects import EXACT_EFFECTS, read_exact_effects
    from generator.measure.suite import SUITE
    from generator.site.context import SiteContext
    from generator.site.edition import load_editions
    from generator.site.statistics_page import statistics_files

    settings = Settings(cache_root=tmp_path, log=lambda _: None)
    exact = read_exact_effects(catalog, settings)
    values = solve_exact(catalog, settings)  # read from the committed results, none solved
    results = Results(0, {SUITE.name: tiny_suite, EXACT_EFFECTS.name: exact, EXACT.name: values})
    ctx = SiteContext(catalog, None, load_editions(VARIANTS))
    page = html.unescape(str(statistics_files(ctx, results).files["statistics/index.md"]))

    def rows(heading: str) -> list[str]:
        section = page[page.index(heading) :]
        table = section[section.index("|---") :].split("\n\n")[0]
        return table.splitlines()[1:]

    largest = rows("The largest exact effects")
    assert len(largest) == 10
    figures = [row.split(" | ", 1)[1] for row in largest]
    assert len(set(figures)) == len(figures), "two rows give one effect"
    assert any(" and [" in row for row in largest), "no effect shared by rulebooks of one game"
    simulated = [v for v in catalog.variants.values() if v.simulate]
    # Rulebooks that play one game at the sizes computed share a row (the Great Book's and
    # the three-piece rulebook's, one to three pieces a side), whatever their full games.
    for heading in ("## Perfect play", "## Skill, exactly"):
        table = rows(heading)
        for variant in simulated:
            assert sum(f"[{variant.short}]" in row for row in table) == 1, (heading, variant.id)
        assert len(table) < len(simulated)
        figures = [row.split(" | ", 1)[1] for row in table]
        assert len(set(figures)) == len(figures), f"{heading}: two rows give one game's figures"
        assert any("[Finkel (Great Book)]" in row and "[Three pieces]" in row for row in table)
