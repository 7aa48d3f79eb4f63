"""The agents' check as the site uses it (generator/measure/agents.py): read from the committed
results while each rulebook's fingerprint is current, measured again where it is not, and no
page naming an agent on a rulebook where it does not clearly beat random (issue 15 item 2)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import VARIANTS

from generator.engine.rules import compile_rules
from generator.measure.agents import AGENTS, AgentScores, agent_scores, score_problems
from generator.measure.core import Results, Settings
from generator.measure.suite import SUITE
from generator.model.catalog_contents import Catalog
from generator.sim.suite import Suite, simulated_variants
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.render import environment
from generator.site.statistics_page import statistics_files
from generator.solver import agent_check


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    results = agent_check.read_results()
    assert results is not None, "results/agents-vs-random.json is missing: ur-variants agents"
    return results


def no_measuring(*args: object, **kwargs: object) -> dict[str, Any]:
    raise AssertionError("the build measured agents again: the committed check is not current")


@pytest.fixture(scope="module")
def scores(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> AgentScores:
    """The build's reading of the committed check (measuring nothing, or the test fails)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agent_check, "measure_agents", no_measuring)
        settings = Settings(cache_root=tmp_path_factory.mktemp("cache"), log=lambda _: None)
        return agent_scores(catalog, settings)


def test_the_committed_check_is_current_for_every_rulebook(
    catalog: Catalog, committed: dict[str, Any], scores: AgentScores
) -> None:
    """Every simulated rulebook's fingerprint is the one recorded, so a build reads them all
    (a changed rule or agent shows here until ``ur-variants agents`` is run again)."""
    for variant in simulated_variants(catalog):
        assert committed["fingerprints"][variant.id] == agent_check.fingerprint(
            compile_rules(variant)
        ), f"{variant.id}: its rules or agents changed since the check; ur-variants agents"
    assert scores.measured == []
    assert score_problems(scores) == []


def test_a_changed_rulebook_is_measured_again_and_only_it(
    catalog: Catalog, committed: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    stale = "royalur-finkel"
    altered = {**committed, "fingerprints": {**committed["fingerprints"], stale: "old"}}
    monkeypatch.setattr(agent_check, "read_results", lambda: altered)
    asked: list[list[str]] = []
    score = {**committed["scores"][stale]["safe"], "estimate": 0.9, "low": 0.89}

    def measure(catalog: Catalog, **kwargs: Any) -> dict[str, Any]:
        asked.append([v.id for v in kwargs["variants"]])
        return {
            **{k: committed[k] for k in ("games_a_seat", "seed", "qualifying_score")},
            "fingerprints": {stale: "new"},
            "scores": {stale: {"safe": score}},
            "fitted_v_best": {},
        }

    monkeypatch.setattr(agent_check, "measure_agents", measure)
    found = agent_scores(catalog, Settings(cache_root=tmp_path, log=lambda _: None))
    assert asked == [[stale]] and found.measured == [stale]
    assert found.checked is not None
    assert found.checked["scores"][stale] == {"safe": score}
    assert found.skill[stale]["agent"] == "safe" and found.skill[stale]["estimate"] == 0.9
    other = next(v for v in committed["scores"] if v != stale)
    assert found.checked["scores"][other] == committed["scores"][other]
    assert found.checked["command"] == committed["command"]


def clears(score: dict[str, Any]) -> bool:
    """The issue's line, as the committed figures show it: at least 55 % over both seats, the
    whole interval above it."""
    return bool(score["estimate"] >= agent_check.QUALIFYING_SCORE and score["qualifies"])


def test_only_agents_that_beat_random_are_used(
    committed: dict[str, Any], scores: AgentScores
) -> None:
    """Tables and skill gap use an agent on a rulebook only where it clears the line there;
    every agent checked is either used or named as left out, never both."""
    for vid, by_agent in committed["scores"].items():
        used = {a for row in scores.rows[vid] for a in row.agents}
        left = {left.agent for left in scores.left_out[vid]}
        assert used | left == set(by_agent) and not used & left, vid
        for agent in used:
            assert clears(by_agent[agent]), f"{agent} is used on {vid} below the line"
        for agent in left:
            assert not by_agent[agent]["qualifies"], f"{agent} is left out on {vid} but clears it"
        if vid in scores.skill:
            assert clears(by_agent[scores.skill[vid]["agent"]]), vid
        else:
            assert not used, f"{vid} has players that beat random but no skill gap"


_ROW = re.compile(r"^\| (?P<names>[^|]+) \| [\d.]+ %", re.MULTILINE)


def test_no_rulebook_page_names_an_agent_below_the_line(
    catalog: Catalog, committed: dict[str, Any], scores: AgentScores
) -> None:
    """Each rulebook page's table of players names only agents that clear the line there; the
    others appear only in the one sentence that says they were left out and why."""
    results = Results(0, {AGENTS.name: scores})
    figures = statistics_files(SiteContext(catalog, None, load_editions(VARIANTS)), results)
    words = SiteContext(catalog, None, load_editions(VARIANTS)).words
    name_of = {agent: words.agent(agent).name for agent in agent_check.CHECKED_AGENTS}
    template = environment().get_template("_variant_players.md.j2")
    left_out_somewhere = 0
    for vid, by_agent in committed["scores"].items():
        block = html.unescape(
            template.render(statistics=figures.per_variant[vid], link=lambda target: target)
        )
        tabled = {n.strip() for m in _ROW.finditer(block) for n in m["names"].split(" = ")}
        assert tabled == {name_of[a] for row in scores.rows[vid] for a in row.agents}, vid
        for agent, score in by_agent.items():
            if not clears(score):
                assert name_of[agent] not in tabled, f"{agent} is tabled on {vid}"
        sentences = [line for line in block.splitlines() if "Left out here" in line]
        if scores.left_out[vid]:
            left_out_somewhere += 1
            assert len(sentences) == 1, f"{vid}: say once which players were left out"
            for left in scores.left_out[vid]:
                assert name_of[left.agent] in sentences[0], (vid, left.agent)
            assert "55 %" in sentences[0]
        else:
            assert not sentences
    assert left_out_somewhere, "no rulebook leaves an agent out: the test checks nothing"


def test_the_statistics_page_says_which_players_are_left_out(
    catalog: Catalog, committed: dict[str, Any], scores: AgentScores, tiny_suite: Suite
) -> None:
    """The statistics page's skill gap names only players that clear the line in that
    rulebook; the page defines every player it names and gives each one's worst score against
    random, the reason it is left out where it is."""
    results = Results(0, {AGENTS.name: scores, SUITE.name: tiny_suite})
    ctx = SiteContext(catalog, None, load_editions(VARIANTS))
    page = html.unescape(str(statistics_files(ctx, results).files["statistics/index.md"]))
    players = page[page.index("## The players") :]
    players = players[: players.index("\n## ")]
    for agent in agent_check.CHECKED_AGENTS:
        assert f"**{ctx.words.agent(agent).name}**" in players, agent
    for agent, _vid, _score, passes in scores.worst_agents():
        assert f"| {ctx.words.agent(agent).name} | {passes} of {len(committed['scores'])}" in page
    skill = page[page.index("## Skill gap") :]
    skill = skill[: skill.index("A player stands for skill")]
    by_name = {ctx.words.agent(a).name: a for a in agent_check.CHECKED_AGENTS}
    rows = [line.split(" | ") for line in skill.splitlines() if line.startswith("| [")]
    assert rows, "no skill gap table"
    for row in rows:
        first = re.search(r"\]\(([^)]+)\.md\)", row[0])
        assert first is not None, row
        vid = Path(first.group(1)).name
        agent = by_name[row[1].strip()]
        assert clears(committed["scores"][vid][agent]), f"{agent} named on {vid} below the line"


def test_impossible_scores_stop_the_build(scores: AgentScores) -> None:
    assert scores.checked is not None
    vid = next(iter(scores.checked["scores"]))
    agent = next(iter(scores.checked["scores"][vid]))
    bad = {**scores.checked["scores"][vid][agent], "estimate": 1.2, "high": 1.3}
    broken = AgentScores(
        checked={**scores.checked, "scores": {vid: {agent: bad}}}, rows={}, left_out={}
    )
    assert any("not a share" in p for p in score_problems(broken))
