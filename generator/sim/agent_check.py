"""Does each named agent beat random play, rulebook by rulebook?

An agent stands for skill on a rulebook's page only if it clearly beats a player picking moves
uniformly at random there: over both seats (moving first and moving second, equally often) it
must win at least :data:`QUALIFYING_SCORE` of its games, with the whole 95 % interval above
that line. Each agent plays :data:`CHECK_GAMES` seeded games a seat against random in every
simulated rulebook (about a third of a point either side, both seats together).

Too slow for every build (some minutes of one core), the check is committed in
``results/agents-vs-random.json`` with its command, commit, date and machine
(``ur-variants agents`` writes it; the games are cached as simulation records under
``.cache/sim``). Where a game is solved, the perfect player is an agent as well: its exact
score against random is in ``results/exact-effects.json`` (:mod:`generator.sim.exact_effects`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.model.catalog import Catalog
from generator.sim import results_files
from generator.sim.agents import FastAgent
from generator.sim.records import DEFAULT_CACHE, DEFAULT_SEED, RecordSpec, simulate

QUALIFYING_SCORE = 0.55
CHECK_GAMES = 50_000
RESULTS_FORMAT = 1
RESULTS_FILE = results_files.RESULTS_DIR / "agents-vs-random.json"
RANDOM = FastAgent.RANDOM.label
CHECKED_AGENTS = tuple(a.label for a in FastAgent if a is not FastAgent.RANDOM)


def first_rate(record: dict[str, Any]) -> dict[str, float]:
    """The first player's share of wins in a run, with its 95 % interval."""
    rate: dict[str, float] = record["results"]["first_player_win_rate"]
    return rate


def flipped(rate: dict[str, float]) -> dict[str, float]:
    """The second player's share, from the first player's."""
    return {"estimate": 1 - rate["estimate"], "low": 1 - rate["high"], "high": 1 - rate["low"]}


def both_seats(as_first: dict[str, Any], as_second: dict[str, Any]) -> dict[str, float]:
    """An agent's share of wins against random over both seats (the mean of the two), from the
    run where it moves first and the run where random does, with a 95 % interval from the two
    independent runs' half-widths in quadrature, kept within 0 and 1 (a share)."""
    first, second = first_rate(as_first), flipped(first_rate(as_second))
    estimate = (first["estimate"] + second["estimate"]) / 2
    half = math.hypot(first["high"] - first["low"], second["high"] - second["low"]) / 4
    return {
        "estimate": estimate,
        "low": max(0.0, estimate - half),
        "high": min(1.0, estimate + half),
    }


def qualifies(score: dict[str, float]) -> bool:
    """At least :data:`QUALIFYING_SCORE`, with the whole interval above it."""
    return score["low"] > QUALIFYING_SCORE


def measure_agents(
    catalog: Catalog,
    *,
    games: int = CHECK_GAMES,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    cache_dir: Path = DEFAULT_CACHE,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every checked agent against random in every simulated rulebook, both seats: the
    results file's content (without provenance)."""
    from generator.sim.suite import simulated_variants

    variants = simulated_variants(catalog)
    specs = [
        RecordSpec(v, pair, games, seed)
        for v in variants
        for agent in CHECKED_AGENTS
        for pair in ((agent, RANDOM), (RANDOM, agent))
    ]
    if log:
        log(f"{len(specs)} runs of {games:,} games")
    records = simulate(specs, cache_dir=cache_dir, jobs=jobs, label="agents v random")
    scores: dict[str, dict[str, Any]] = {}
    for i in range(0, len(specs), 2):
        spec = specs[i]
        score = both_seats(records[i], records[i + 1])
        seats = {
            "as_first": first_rate(records[i])["estimate"],
            "as_second": 1 - first_rate(records[i + 1])["estimate"],
            "games": records[i]["games"] + records[i + 1]["games"],
        }
        entry = {**score, **seats, "qualifies": qualifies(score)}
        scores.setdefault(spec.variant.id, {})[spec.agents[0]] = entry
    return {
        "games_a_seat": games,
        "seed": seed,
        "qualifying_score": QUALIFYING_SCORE,
        "cpu_seconds": sum(float(r["elapsed_seconds"]) for r in records),
        "scores": scores,
    }


def worst_scores(results: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each agent's lowest score against random, and the rulebook where it happened."""
    worst: dict[str, tuple[str, dict[str, Any]]] = {}
    for variant, agents in results["scores"].items():
        for agent, score in agents.items():
            if agent not in worst or score["estimate"] < worst[agent][1]["estimate"]:
                worst[agent] = (variant, score)
    return worst


def summary(results: dict[str, Any]) -> list[str]:
    lines = []
    for agent, (variant, score) in sorted(worst_scores(results).items()):
        passed = sum(s[agent]["qualifies"] for s in results["scores"].values())
        lines.append(
            f"{agent}: qualifies in {passed} of {len(results['scores'])} rulebooks; worst"
            f" {100 * score['estimate']:.1f} % ({100 * score['low']:.1f}-{100 * score['high']:.1f})"
            f" on {variant}"
        )
    return lines


def read_results(path: Path = RESULTS_FILE) -> dict[str, Any] | None:
    """The committed check, or ``None`` when missing, damaged or of another layout."""
    return results_files.read_results(path, RESULTS_FORMAT)


def qualified_agents(results: dict[str, Any] | None, variant: str) -> list[str]:
    """The agents that clearly beat random on ``variant``, best first (none without results)."""
    if results is None:
        return []
    scores = results["scores"].get(variant, {})
    passing = [agent for agent, score in scores.items() if score["qualifies"]]
    return sorted(passing, key=lambda agent: (-scores[agent]["estimate"], agent))


def qualified_by_variant(results: dict[str, Any] | None) -> dict[str, list[str]] | None:
    """:func:`qualified_agents` for every rulebook checked; ``None`` without results."""
    if results is None:
        return None
    return {variant: qualified_agents(results, variant) for variant in results["scores"]}
