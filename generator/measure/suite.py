"""The simulation suite as a measurement, and the figures derived from its records.

The suite itself (what is played, how many games, the seed) is :mod:`generator.sim.suite`;
here it is run with the build's settings (its records read from the committed
``results/simulation-suite.json`` while current), and its records are summarised into the figures a
page prints: how many one-ruling effects look real. Each agent's score against a random player
and the skill gap are the agents' check (:mod:`generator.measure.agents`).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.sanity import result_problems
from generator.sim.stats import beyond_chance
from generator.sim.suite import EFFECT_HALF_WIDTH as EFFECT_HALF_WIDTH  # the pages read these
from generator.sim.suite import SENSITIVITY_GAMES as SENSITIVITY_GAMES
from generator.sim.suite import Effect, Suite, default_suite
from generator.sim.suite import Skipped as Skipped
from generator.sim.suite_results import read_committed

Record = dict[str, Any]


def run_suite(catalog: Catalog, settings: Settings) -> Suite:
    """Every simulation the site reports (:func:`generator.sim.suite.default_suite`): each
    run read from the committed records (``results/simulation-suite.json``,
    :mod:`generator.sim.suite_results`) while its key is there, the others read from
    ``.cache/sim`` when cached (unless ``settings.refresh``) or simulated. The committed file
    is a result, not a cache: ``refresh`` does not play its games again."""
    return default_suite(
        catalog,
        seed=settings.seed,
        jobs=settings.jobs,
        cache_dir=settings.cache_root / "sim",
        use_cache=not settings.refresh,
        log=settings.log,
        committed=read_committed(log=settings.log),
    )


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
        "win_rate_beyond": sum(beyond_chance(e.win_rate, len(played)) for e in played),
        "throws_beyond": sum(beyond_chance(e.throws, len(played)) for e in played),
        "by_chance": len(played) / 20,
        "win_rate_half_width": statistics.median(
            (e.win_rate["high"] - e.win_rate["low"]) / 2 for e in played
        ),
    }


def suite_problems(suite: Suite) -> list[str]:
    """Every impossible figure in the suite: in its records and its effects."""
    problems: list[str] = []
    for record in suite.records():
        found = result_problems(record.get("results", {}), record.get("games"))
        problems += [f"simulation record {record.get('created_by', '?')}: {p}" for p in found]
    for e in suite.effects:
        found = result_problems({"win_rate": e.win_rate, "throws": e.throws}, differences=True)
        problems += [f"effect of {e.change.label} on {e.variant}: {p}" for p in found]
    return problems


SUITE = Step("simulation suite", run_suite, suite_problems)
