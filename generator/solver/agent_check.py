"""Does each named agent beat random play, rulebook by rulebook?

An agent stands for skill on a rulebook's page only if it clearly beats a player picking moves
uniformly at random there: over both seats (moving first and moving second, equally often) it
must win at least :data:`QUALIFYING_SCORE` of its games, with the whole 95 % interval above
that line. Each agent plays :data:`CHECK_GAMES` seeded games a seat against random in every
simulated rulebook (about a third of a point either side, both seats together).

The fitted agent (:mod:`generator.solver.fitted_agent`) is checked like the others, and also
plays :data:`HEAD_TO_HEAD_GAMES` games a seat against the simple agent that scores best
against random in the same rulebook (``fitted_v_best``).

Too slow for every build (some minutes of one core), the check is committed in
``results/agents-vs-random.json`` with its command, commit, date and machine
(``ur-variants agents`` writes it; the games are cached as simulation records under
``.cache/sim``). Each rulebook's scores carry the :func:`fingerprint` of what decided their
games, so a build reads them while that is unchanged and measures a rulebook again when it is
not (:mod:`generator.measure.agents`). Where a game is solved, the perfect player is an agent
as well: its exact score against random is in ``results/exact-effects.json``
(:mod:`generator.solver.exact_effects`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.variant import ResolvedVariant
from generator.sim import rekey, results_files
from generator.sim.agents import FastAgent
from generator.sim.encode import encode_rules
from generator.sim.records import (
    DEFAULT_CACHE,
    DEFAULT_SEED,
    RecordSpec,
    digest,
    simulate,
)
from generator.solver import fitted_agent

QUALIFYING_SCORE = 0.55
EVEN = 0.5
CHECK_GAMES = 50_000
RESULTS_FORMAT = 2
"""2: each rulebook's :func:`fingerprint`, and each score's interval in each seat."""
RESULTS_FILE = results_files.RESULTS_DIR / "agents-vs-random.json"
RANDOM = FastAgent.RANDOM.label
CHECKED_AGENTS = tuple(a.label for a in FastAgent if a is not FastAgent.RANDOM)
FITTED = FastAgent.FITTED.label
HEAD_TO_HEAD_GAMES = 10_000
"""Games a seat of the fitted agent against the best simple agent (about two thirds of a
point either side, both seats together)."""


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


def fingerprint(rules: Rules, games: int = CHECK_GAMES, seed: int = DEFAULT_SEED) -> str:
    """Everything a rulebook's scores depend on: the kernel's packed rules (rulebooks playing
    the same game share them), the agents checked, the fitted agent's committed weights for
    these rules (none: it is not played), the games a seat (against random and head to head)
    and the seed. Scores recorded under another fingerprint are not this rulebook's scores any
    more (the code that plays them is the file's behaviour stamp)."""
    weights = fitted_agent.committed_weights(rules)
    content = {
        "packed": encode_rules(rules).packed().tolist(),
        "agents": list(CHECKED_AGENTS),
        "fitted_weights": None if weights is None else digest(weights.tolist()),
        "games": games,
        "head_to_head": min(games, HEAD_TO_HEAD_GAMES),
        "seed": seed,
    }
    return rekey.keyed(lambda old: digest({**content, **old}), rekey.RECORD)


def playable(agent: str, rules: Rules) -> bool:
    """Whether ``agent`` can be checked on ``rules`` without fitting anything: the fitted agent
    only where its fit is committed for these very rules (fitting takes minutes)."""
    return agent != FITTED or fitted_agent.committed_weights(rules) is not None


def qualifies(score: dict[str, float]) -> bool:
    """At least :data:`QUALIFYING_SCORE`, with the whole interval above it."""
    return score["low"] > QUALIFYING_SCORE


def seat_specs(
    variant: ResolvedVariant, agent: str, rival: str, games: int, seed: int
) -> tuple[RecordSpec, RecordSpec]:
    """The two runs that measure ``agent`` against ``rival``: moving first, then second."""
    return (
        RecordSpec(variant, (agent, rival), games, seed),
        RecordSpec(variant, (rival, agent), games, seed),
    )


def score_entry(as_first: dict[str, Any], as_second: dict[str, Any]) -> dict[str, Any]:
    """An agent's score against random as the results file keeps it, from its two runs
    (:func:`seat_specs`): over both seats, in each, the games and whether it qualifies."""
    score = both_seats(as_first, as_second)
    seats = {
        "first": first_rate(as_first),
        "second": flipped(first_rate(as_second)),
        "games": as_first["games"] + as_second["games"],
    }
    return {**score, **seats, "qualifies": qualifies(score)}


def duel_entry(rival: str, as_first: dict[str, Any], as_second: dict[str, Any]) -> dict[str, Any]:
    """The fitted agent's score against ``rival`` as the results file keeps it, from its two
    runs (:func:`seat_specs`)."""
    games = as_first["games"] + as_second["games"]
    return {"rival": rival, **both_seats(as_first, as_second), "games": games}


def measure_agents(
    catalog: Catalog,
    *,
    games: int = CHECK_GAMES,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    cache_dir: Path = DEFAULT_CACHE,
    log: Callable[[str], None] | None = None,
    agents: Sequence[str] = CHECKED_AGENTS,
    earlier: dict[str, Any] | None = None,
    variants: Sequence[ResolvedVariant] | None = None,
) -> dict[str, Any]:
    """Every checked agent against random in every simulated rulebook (or in ``variants``),
    both seats: the results file's content (without provenance), each rulebook with its
    :func:`fingerprint`. Only ``agents`` are played, the fitted one only where it is
    :func:`playable`; the others' scores are kept from ``earlier`` results of the same
    fingerprint (their games are the same games, a game's dice depending only on the seed and
    its number), which are named with their provenance under ``kept``."""
    from generator.sim.suite import simulated_variants

    variants = list(simulated_variants(catalog) if variants is None else variants)
    rules = {v.id: compile_rules(v) for v in variants}
    prints = {vid: fingerprint(r, games, seed) for vid, r in rules.items()}
    kept = [agent for agent in CHECKED_AGENTS if agent not in agents]
    if kept:
        _check_keepable(earlier, kept, prints, games, seed)
    specs = [
        spec
        for v in variants
        for agent in agents
        if playable(agent, rules[v.id])
        for spec in seat_specs(v, agent, RANDOM, games, seed)
    ]
    if log:
        log(f"{len(specs)} runs of {games:,} games")
    records = simulate(specs, cache_dir=cache_dir, jobs=jobs, label="agents v random")
    scores: dict[str, dict[str, Any]] = {}
    for i in range(0, len(specs), 2):
        spec = specs[i]
        scores.setdefault(spec.variant.id, {})[spec.agents[0]] = score_entry(*records[i : i + 2])
    for vid in [v.id for v in variants]:
        for agent in kept:
            if agent in earlier["scores"][vid]:  # type: ignore[index]
                scores.setdefault(vid, {})[agent] = earlier["scores"][vid][agent]  # type: ignore[index]
        scores[vid] = {a: scores[vid][a] for a in CHECKED_AGENTS if a in scores.get(vid, {})}
    rivals = {v.id: best_simple(scores[v.id]) for v in variants}
    head_to_head = min(games, HEAD_TO_HEAD_GAMES)
    duels = [
        spec
        for v in variants
        if FITTED in scores[v.id]
        for spec in seat_specs(v, FITTED, rivals[v.id], head_to_head, seed)
    ]
    duel_records = simulate(duels, cache_dir=cache_dir, jobs=jobs, label="fitted v best")
    fitted_v_best = {
        spec.variant.id: duel_entry(rivals[spec.variant.id], *duel_records[i : i + 2])
        for i, spec in enumerate(duels)
        if i % 2 == 0
    }
    return {
        "games_a_seat": games,
        "seed": seed,
        "fingerprints": prints,
        "qualifying_score": QUALIFYING_SCORE,
        "cpu_seconds": sum(float(r["elapsed_seconds"]) for r in records + duel_records),
        "scores": scores,
        "head_to_head_games_a_seat": head_to_head,
        "fitted_v_best": fitted_v_best,
        "kept": {"agents": kept, **kept_provenance(earlier, kept)} if kept else None,
    }


def kept_provenance(earlier: dict[str, Any] | None, kept: list[str]) -> dict[str, Any]:
    """Who measured the kept scores: the earlier results' own provenance, or the one they
    kept in turn when those scores were kept there too."""
    if earlier is None:
        return {}
    source = earlier.get("kept") or {}
    if not set(kept) <= set(source.get("agents", [])):
        source = earlier
    return {k: source[k] for k in KEPT_PROVENANCE}


KEPT_PROVENANCE = ("command", "commit", "date", "machine")


def _check_keepable(
    earlier: dict[str, Any] | None,
    kept: list[str],
    fingerprints: dict[str, str],
    games: int,
    seed: int,
) -> None:
    """Refuse to keep scores that are missing or were measured differently: with other games
    or another seed, or on rules other than ``fingerprints`` (rulebook id -> its
    :func:`fingerprint` now). A kept fitted agent may be missing where it is not playable."""
    if earlier is None:
        raise ValueError("no earlier results to keep the other agents' scores from: check all")
    if earlier["games_a_seat"] != games or earlier["seed"] != seed:
        raise ValueError(
            f"the earlier results played {earlier['games_a_seat']:,} games a seat with seed"
            f" {earlier['seed']}, not {games:,} with seed {seed}: check every agent"
        )
    for vid, now in fingerprints.items():
        if earlier.get("fingerprints", {}).get(vid) != now:
            raise ValueError(
                f"the earlier results measured {vid} on other rules or agents: check all"
            )
        missing = [a for a in kept if a not in earlier["scores"].get(vid, {}) and a != FITTED]
        if missing:
            raise ValueError(f"the earlier results lack {', '.join(missing)} on {vid}: check all")


def fit_all(
    catalog: Catalog,
    *,
    jobs: int = 1,
    cache_dir: Path | None = fitted_agent.DEFAULT_CACHE,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every simulated rulebook's fit of the fitted agent (rulebooks playing one game share
    it): the content of ``results/fitted-agent.json``, without provenance. Fits are keyed by
    :func:`generator.solver.fitted_agent.fingerprint`."""
    from generator.engine.rules import compile_rules
    from generator.sim.suite import simulated_variants

    games: dict[str, tuple[Rules, list[str]]] = {}
    for variant in simulated_variants(catalog):
        rules = compile_rules(variant)
        games.setdefault(fitted_agent.fingerprint(rules), (rules, []))[1].append(variant.id)
    keys = list(games)
    work = functools.partial(fitted_agent.cached_fit, cache_dir=cache_dir)
    rules_list = [games[key][0] for key in keys]
    if jobs > 1:
        from generator.sim.runner import worker_pool

        with worker_pool(jobs) as pool:
            fits = list(pool.map(work, rules_list))
    else:
        fits = [work(rules) for rules in rules_list]
    entries = {}
    for key, result in zip(keys, fits, strict=True):
        entries[key] = {"variants": games[key][1], **result.as_dict()}
        if log:
            log(
                f"{', '.join(games[key][1])}: fitted at {result.pieces} pieces"
                f" (R² {result.r_squared:.3f}); exactly {100 * result.fitted_v_random:.2f} %"
                f" against random, {100 * result.fitted_v_perfect:.2f} % against perfect play"
            )
    return {
        "cpu_seconds": sum(f.cpu_seconds for f in fits),
        "fits": entries,
    }


def best_simple(scores: dict[str, dict[str, Any]]) -> str:
    """The agent other than the fitted one with the best score against random."""
    simple = [agent for agent in scores if agent != FITTED]
    return max(simple, key=lambda agent: (scores[agent]["estimate"], agent))


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
        passed = sum(s.get(agent, {}).get("qualifies", False) for s in results["scores"].values())
        lines.append(
            f"{agent}: qualifies in {passed} of {len(results['scores'])} rulebooks; worst"
            f" {100 * score['estimate']:.1f} % ({100 * score['low']:.1f}-{100 * score['high']:.1f})"
            f" on {variant}"
        )
    duels = results.get("fitted_v_best", {})
    if duels:
        vid, duel = min(duels.items(), key=lambda item: item[1]["estimate"])
        lines.append(
            f"fitted against the best simple agent: worst {100 * duel['estimate']:.1f} %"
            f" ({100 * duel['low']:.1f}-{100 * duel['high']:.1f}) against {duel['rival']}"
            f" on {vid}"
        )
    return lines


def read_results(path: Path = RESULTS_FILE) -> dict[str, Any] | None:
    """The committed check, or ``None`` when missing, damaged or of another layout."""
    return results_files.read_results(path, RESULTS_FORMAT)


def qualified_agents(results: dict[str, Any] | None, variant: str) -> list[str]:
    """The agents that clearly beat random on ``variant``, best first (none without results):
    the fitted agent first where it also beats the best simple agent head to head (its 95 %
    interval above one half), last where it does not; the others by their score."""
    if results is None:
        return []
    scores = results["scores"].get(variant, {})
    passing = [agent for agent, score in scores.items() if score["qualifies"]]
    duel = results.get("fitted_v_best", {}).get(variant)
    fitted_rank = -1 if duel is not None and duel["low"] > EVEN else 1

    def rank(agent: str) -> tuple[int, float, str]:
        return (fitted_rank if agent == FITTED else 0, -scores[agent]["estimate"], agent)

    return sorted(passing, key=rank)
