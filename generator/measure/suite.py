"""The simulation suite as a measurement, and the figures derived from its records.

The suite itself (what is played, how many games, the seed) is :mod:`generator.sim.suite`;
here it is run with the build's settings, and its records are summarised into the figures a
page prints: each agent's score against a random player (agents that play identical games by
construction counted once), the skill gap, and how many one-ruling effects look real.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.engine.rules import compile_rules
from generator.measure.core import Settings, Step
from generator.model.catalog import Catalog
from generator.sim.agent_check import both_seats, first_rate, flipped, qualified_by_variant
from generator.sim.agent_check import read_results as agent_check_results
from generator.sim.agents import same_play_as
from generator.sim.encode import encode_rules
from generator.sim.sanity import result_problems
from generator.sim.suite import RANDOM, Effect, Suite, default_suite

Record = dict[str, Any]


def run_suite(catalog: Catalog, settings: Settings) -> Suite:
    """Every simulation the site reports (:func:`generator.sim.suite.default_suite`), read
    from ``.cache/sim`` when cached (unless ``settings.refresh``)."""
    return default_suite(
        catalog,
        seed=settings.seed,
        jobs=settings.jobs,
        cache_dir=settings.cache_root / "sim",
        use_cache=not settings.refresh,
        log=settings.log,
        skilled=qualified_by_variant(agent_check_results()),
    )


def skill_summary(suite: Suite, vid: str) -> dict[str, Any] | None:
    """The strongest cheap agent's win rate against random, averaged over both seats."""
    gap = suite.skill.get(vid)
    if gap is None:
        return None
    return {
        "agent": gap.agent,
        "as_first": first_rate(gap.as_first),
        "as_second": flipped(first_rate(gap.as_second)),
        "games": gap.as_first["games"] + gap.as_second["games"],
        **both_seats(gap.as_first, gap.as_second),
    }


@dataclass(frozen=True)
class AgentRow:
    """One line of a rulebook's agent table: the agents that play these games (more than one
    when they play identical games by construction, :func:`generator.sim.agents.same_play_as`),
    their share of wins against random in each seat and over both, and the games played."""

    agents: tuple[str, ...]
    first: dict[str, float]
    second: dict[str, float]
    both: dict[str, float]
    games: int


def agent_table(suite: Suite, vid: str, catalog: Catalog) -> list[AgentRow]:
    """Each cheap agent against random in both seats, agents identical here shown once."""
    packed = encode_rules(compile_rules(catalog.resolve(vid))).packed()
    seats: dict[str, dict[int, Record]] = {}
    for record in suite.table.get(vid, []):
        first, second = record["agents"]
        agent, seat = (first, 0) if first != RANDOM else (second, 1)
        seats.setdefault(agent, {})[seat] = record
    groups: dict[str, list[str]] = {}
    for agent in sorted(seats):
        if len(seats[agent]) == 2:
            groups.setdefault(same_play_as(agent, packed), []).append(agent)
    rows = []
    for agents in groups.values():
        as_first, as_second = seats[agents[0]][0], seats[agents[0]][1]
        rows.append(
            AgentRow(
                tuple(agents),
                first_rate(as_first),
                flipped(first_rate(as_second)),
                both_seats(as_first, as_second),
                as_first["games"] + as_second["games"],
            )
        )
    return rows


def excludes_zero(interval: dict[str, float]) -> bool:
    return interval["low"] > 0 or interval["high"] < 0


def chance_check(effects: Sequence[Effect]) -> dict[str, Any] | None:
    """How many one-ruling effects look real, against how many would by chance.

    With 95 % intervals, about one in twenty would exclude zero even if no change mattered;
    fewer here, since the intervals are conservative (:func:`generator.sim.stats.difference`).
    Changes that leave play identical are left out: their effect is exactly zero.
    """
    played = [e for e in effects if not e.same_game]
    if not played:
        return None
    return {
        "changes": len(played),
        "win_rate_clear": sum(excludes_zero(e.win_rate) for e in played),
        "throws_clear": sum(excludes_zero(e.throws) for e in played),
        "by_chance": len(played) / 20,
        "win_rate_half_width": statistics.median(
            (e.win_rate["high"] - e.win_rate["low"]) / 2 for e in played
        ),
    }


def suite_problems(suite: Suite) -> list[str]:
    """Every impossible figure in the suite: in its records, its effects and its skill gaps."""
    problems: list[str] = []
    for record in suite.records():
        found = result_problems(record.get("results", {}), record.get("games"))
        problems += [f"simulation record {record.get('created_by', '?')}: {p}" for p in found]
    for e in suite.effects:
        found = result_problems({"win_rate": e.win_rate, "throws": e.throws}, differences=True)
        problems += [f"effect of {e.change.label} on {e.variant}: {p}" for p in found]
    for vid in suite.skill:
        skill = skill_summary(suite, vid)
        if skill is not None:
            found = result_problems({"skill": skill}, differences=True)
            if not 0 <= skill["estimate"] <= 1:
                found.append(f"skill: {skill['estimate']} is not a share between 0 and 1")
            problems += [f"{vid} {p}" for p in found]
    return problems


SUITE = Step("simulation suite", run_suite, suite_problems)
