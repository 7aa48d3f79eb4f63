"""Each named agent against random play, rulebook by rulebook, as a measurement: the rulebook
pages' tables of players, the skill gap, and the players each page leaves out.

The check itself is :mod:`generator.solver.agent_check`: 50,000 seeded games a seat, both seats,
committed in ``results/agents-vs-random.json`` by ``ur-variants agents``. A rulebook's scores
are read from there while their fingerprint (:func:`generator.solver.agent_check.fingerprint`:
the rules as the kernel plays them, the agents' versions, the fitted agent's weights, the games
and the seed) is the one recorded; a rulebook whose fingerprint changed, or that is not there,
is measured again here with the same games and seed (cached under ``.cache/sim``), as
:mod:`generator.measure.exact` solves the games the committed exact results do not hold. The
committed file is a result, not a cache: ``--refresh`` does not play its games again.

The site uses an agent on a rulebook only where it clearly beats random there
(:func:`generator.solver.agent_check.qualifies`: at least 55 % over both seats, the whole 95 %
interval above that line); the others are listed as left out, with their score, so a page can
say which and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.engine.rules import compile_rules
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.agents import same_play_as
from generator.sim.encode import encode_rules
from generator.sim.records import DEFAULT_SEED
from generator.sim.sanity import result_problems
from generator.sim.suite import simulated_variants
from generator.solver import agent_check

Score = dict[str, Any]


@dataclass(frozen=True)
class AgentRow:
    """One line of a rulebook's table of players: the agents that play these games (more than
    one when they play identical games by construction,
    :func:`generator.sim.agents.same_play_as`), their share of wins against random in each
    seat and over both, with 95 % intervals, and the games played (both seats)."""

    agents: tuple[str, ...]
    first: dict[str, float]
    second: dict[str, float]
    both: dict[str, float]
    games: int


@dataclass(frozen=True)
class LeftOut:
    """An agent the site does not use on a rulebook, and its score there (both seats)."""

    agent: str
    score: dict[str, float]


@dataclass
class AgentScores:
    """The agents' check as the site uses it: committed scores still current, the rest
    measured in this build."""

    checked: dict[str, Any] | None = None
    """The check in the results file's layout (``scores``, ``fitted_v_best``, its games, seed
    and provenance), every rulebook's entry current; ``None`` when nothing was checked."""
    rows: dict[str, list[AgentRow]] = field(default_factory=dict)
    """Per rulebook, the agents that clearly beat random there, best first."""
    left_out: dict[str, list[LeftOut]] = field(default_factory=dict)
    """Per rulebook, the agents checked there that do not clearly beat random, worst first."""
    skill: dict[str, Score] = field(default_factory=dict)
    """Per rulebook, the strongest agent that clearly beats random (the fitted one first where
    it also beats the best simple agent, :func:`generator.solver.agent_check.qualified_agents`):
    its label under ``agent`` and its score (``estimate``, ``low``, ``high``, ``games``)."""
    measured: list[str] = field(default_factory=list)
    """Rulebooks whose committed scores were not current, measured again in this build."""

    def worst_agents(self) -> list[tuple[str, str, Score, int]]:
        """Each checked agent, the rulebook of its lowest score against random, that score,
        and in how many rulebooks it qualifies."""
        if self.checked is None:
            return []
        scores = self.checked["scores"]
        worst = agent_check.worst_scores(self.checked)
        passes = {
            agent: sum(s.get(agent, {}).get("qualifies", False) for s in scores.values())
            for agent in worst
        }
        return [(a, worst[a][0], worst[a][1], passes[a]) for a in sorted(worst)]

    def named(self) -> set[str]:
        """Every agent the statistics name: each one checked (used on some rulebooks, or on
        none, its worst score saying why)."""
        return {
            agent
            for by_agent in (self.checked or {}).get("scores", {}).values()
            for agent in by_agent
        }


def agent_scores(catalog: Catalog, settings: Settings) -> AgentScores:
    """The committed check, each simulated rulebook's scores read while current and measured
    again when not (:data:`generator.solver.agent_check.CHECK_GAMES` games a seat, its default
    seed), then sorted into the agents used and left out on each rulebook."""
    committed = agent_check.read_results()
    games, seed = agent_check.CHECK_GAMES, DEFAULT_SEED
    variants = simulated_variants(catalog)
    rules = {v.id: compile_rules(v) for v in variants}
    recorded = (committed or {}).get("fingerprints", {})
    if committed is not None and (committed["games_a_seat"], committed["seed"]) != (games, seed):
        recorded = {}
    now = {vid: agent_check.fingerprint(r, games, seed) for vid, r in rules.items()}
    stale = [v for v in variants if recorded.get(v.id) != now[v.id]]
    checked: dict[str, Any] | None = committed
    if stale:
        settings.log(
            f"agents against random: measuring {', '.join(v.id for v in stale)} again (their"
            " rules or agents changed since the committed check; ur-variants agents commits it)"
        )
        fresh = agent_check.measure_agents(
            catalog,
            games=games,
            seed=seed,
            jobs=settings.jobs,
            cache_dir=settings.cache_root / "sim",
            variants=stale,
        )
        checked = merged(committed, fresh, [v.id for v in variants])
    result = AgentScores(checked=checked, measured=[v.id for v in stale])
    if checked is None:
        return result
    for variant in variants:
        scores = checked["scores"].get(variant.id, {})
        packed = encode_rules(rules[variant.id]).packed()
        qualified = agent_check.qualified_agents(checked, variant.id)
        groups: dict[str, list[str]] = {}
        for agent in qualified:
            groups.setdefault(same_play_as(agent, packed), []).append(agent)
        result.rows[variant.id] = [row(agents, scores[agents[0]]) for agents in groups.values()]
        result.left_out[variant.id] = sorted(
            (LeftOut(a, scores[a]) for a in scores if a not in qualified),
            key=lambda left: (left.score["estimate"], left.agent),
        )
        if qualified:
            best = scores[qualified[0]]
            result.skill[variant.id] = {
                "agent": qualified[0],
                "games": best["games"],
                **{k: best[k] for k in ("estimate", "low", "high")},
            }
    return result


def row(agents: list[str], score: Score) -> AgentRow:
    both = {k: score[k] for k in ("estimate", "low", "high")}
    return AgentRow(tuple(agents), score["first"], score["second"], both, score["games"])


def merged(
    committed: dict[str, Any] | None, fresh: dict[str, Any], variants: list[str]
) -> dict[str, Any]:
    """The committed check with ``fresh`` rulebooks' entries in place of theirs, keeping only
    the rulebooks simulated now. Provenance stays the committed file's (``fresh`` has none);
    the rulebooks measured in the build are named apart (:attr:`AgentScores.measured`)."""
    base = committed if committed is not None else {**fresh, "fingerprints": {}, "scores": {}}
    out = {**base}
    for key in ("fingerprints", "scores", "fitted_v_best"):
        both = {**base.get(key, {}), **fresh.get(key, {})}
        out[key] = {vid: both[vid] for vid in variants if vid in both}
    return out


def score_problems(scores: AgentScores) -> list[str]:
    """Every impossible score: a share outside 0..1 or an interval that misses its estimate."""
    problems: list[str] = []
    if scores.checked is None:
        return problems
    for vid, by_agent in scores.checked["scores"].items():
        for agent, score in by_agent.items():
            seats = {"both": score, "first": score["first"], "second": score["second"]}
            for seat, share in seats.items():
                found = result_problems({"share": share})
                problems += [f"{agent} against random on {vid} ({seat}): {p}" for p in found]
    return problems


AGENTS = Step("agents against random", agent_scores, score_problems)
