"""Statistics with uncertainty for a table of simulated games.

Every figure carries a 95% interval: a Wilson score interval for the first player's win rate
(Wilson 1927, "Probable inference, the law of succession, and statistical inference", JASA 22),
and mean ± 1.96 standard errors for counts per game (normal approximation, fine for the
thousands of games every record holds).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from generator.sim import fast

Z95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""

SECONDS_PER_THROW = 10.0
"""An assumed pace at a table (throw, choose, move): converts throws into minutes. It is an
assumption, printed next to every duration; no source measures it."""

QUANTILES = {"p5": 5, "p25": 25, "p50": 50, "p75": 75, "p95": 95}
HISTOGRAM_BINS = 30


def wilson(successes: int, trials: int, z: float = Z95) -> dict[str, float]:
    """The Wilson score interval of a proportion: ``{"estimate", "low", "high"}``."""
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return {"estimate": p, "low": max(0.0, centre - half), "high": min(1.0, centre + half)}


def mean_interval(values: npt.NDArray[Any]) -> dict[str, float]:
    """Mean with a 95% interval (normal approximation): ``{"mean", "low", "high"}``."""
    n = len(values)
    mean = float(np.mean(values))
    se = float(np.std(values, ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return {"mean": mean, "low": mean - Z95 * se, "high": mean + Z95 * se}


def distribution(values: npt.NDArray[Any]) -> dict[str, Any]:
    """Mean with interval, standard deviation, quantiles and a histogram of whole numbers."""
    summary: dict[str, Any] = mean_interval(values)
    summary["sd"] = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
    points = np.percentile(values, list(QUANTILES.values()))
    summary["quantiles"] = {name: float(p) for name, p in zip(QUANTILES, points, strict=True)}
    low, high = int(values.min()), int(values.max()) + 1
    width = max(1, math.ceil((high - low) / HISTOGRAM_BINS))
    edges = np.arange(low, high + width, width)
    counts, _ = np.histogram(values, bins=edges)
    summary["histogram"] = {"edges": edges.tolist(), "counts": counts.tolist()}
    return summary


def difference(a: dict[str, float], b: dict[str, float], key: str) -> dict[str, float]:
    """``b - a`` for two independent estimates with 95% intervals (half-widths add in
    quadrature). With common random numbers the runs are positively correlated, so this
    interval is conservative."""
    half_a = (a["high"] - a["low"]) / 2
    half_b = (b["high"] - b["low"]) / 2
    half = math.hypot(half_a, half_b)
    estimate = b[key] - a[key]
    return {"estimate": estimate, "low": estimate - half, "high": estimate + half}


Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of every 95 % interval here."""


def beyond_chance(interval: Mapping[str, float], family: int) -> bool:
    """Whether an estimate with a 95 % interval stands clear of zero even among ``family``
    such estimates: its distance from zero, in standard errors, beyond the normal quantile of
    1 - 0.025 / family (Bonferroni: all ``family`` intervals widened so would together miss
    zero only one time in twenty if no estimate moved). One 95 % interval in twenty excludes
    zero by chance alone, so among hundreds of changes that alone says little.

    >>> beyond_chance({"estimate": 0.021, "low": 0.001, "high": 0.041}, 348)
    False
    >>> beyond_chance({"estimate": -0.09, "low": -0.099, "high": -0.081}, 348)
    True
    """
    half = (interval["high"] - interval["low"]) / 2
    if half <= 0:
        return interval["estimate"] != 0
    needed = NormalDist().inv_cdf(1 - 0.025 / max(family, 1))
    return abs(interval["estimate"]) * Z95 / half >= needed


def family_size(effects: Iterable[Any]) -> int:
    """How many one-ruling effects were measured that change play: the family
    :func:`beyond_chance` weighs each against (an effect of a change that leaves play as it
    was is exactly zero, not an estimate)."""
    return sum(1 for e in effects if not e.same_game)


def summarise(table: npt.NDArray[np.int64]) -> dict[str, Any]:
    """The ``results`` block of a record from a per-game table (columns: fast.FIELDS)."""
    finished = table[table[:, fast.WINNER] >= 0]
    games = len(finished)
    if games == 0:
        raise ValueError("no game finished; raise max_throws or check the variant terminates")
    wins = int(np.sum(finished[:, fast.WINNER] == 0))
    throws = finished[:, fast.THROWS]
    minutes = throws * SECONDS_PER_THROW / 60.0
    minutes_summary = mean_interval(minutes)
    low_minutes, high_minutes = np.percentile(minutes, [5, 95])
    return {
        "first_player_wins": wins,
        "first_player_win_rate": wilson(wins, games),
        "throws": distribution(throws),
        "moves": distribution(finished[:, fast.MOVES]),
        "turns": distribution(finished[:, fast.TURNS]),
        "captures": mean_interval(finished[:, fast.CAPTURES]),
        "passes": mean_interval(finished[:, fast.PASSES]),
        "rosette_landings": mean_interval(finished[:, fast.ROSETTES]),
        "extra_throws": mean_interval(finished[:, fast.EXTRAS]),
        "loser_pieces_off": mean_interval(finished[:, fast.LOSER_OFF]),
        "minutes": {
            "seconds_per_throw": SECONDS_PER_THROW,
            **minutes_summary,
            "p5": float(low_minutes),
            "p95": float(high_minutes),
        },
        "finished_games": games,
        "unfinished_games": int(len(table) - games),
    }
