"""Statistics: Wilson intervals on known values, and summaries that keep the identities."""

from __future__ import annotations

import math

import numpy as np
import pytest

from generator.sim import fast
from generator.sim.stats import Z95, difference, mean_interval, summarise, wilson


def test_wilson_half_of_a_hundred() -> None:
    # Wilson (1927): 50 of 100 gives 0.4038 to 0.5962 at 95%.
    interval = wilson(50, 100)
    assert interval["estimate"] == 0.5
    assert interval["low"] == pytest.approx(0.40383, abs=1e-5)
    assert interval["high"] == pytest.approx(0.59617, abs=1e-5)


def test_wilson_none_of_ten_has_the_closed_form_upper_bound() -> None:
    interval = wilson(0, 10)
    assert interval["low"] == 0.0
    assert interval["high"] == pytest.approx(Z95**2 / (10 + Z95**2), rel=1e-12)


def test_wilson_is_never_outside_zero_one_and_contains_the_estimate() -> None:
    for successes, trials in [(1, 1), (999, 1000), (3, 7), (40_000, 40_000)]:
        interval = wilson(successes, trials)
        assert 0.0 <= interval["low"] <= interval["estimate"] <= interval["high"] <= 1.0


def test_wilson_half_width_at_forty_thousand_games_is_under_half_a_point() -> None:
    interval = wilson(20_000, 40_000)
    assert (interval["high"] - interval["low"]) / 2 < 0.005


def test_mean_interval_uses_the_standard_error() -> None:
    values = np.array([1, 2, 3, 4, 5] * 20)
    interval = mean_interval(values)
    se = np.std(values, ddof=1) / math.sqrt(len(values))
    assert interval["mean"] == 3.0
    assert interval["high"] - interval["mean"] == pytest.approx(Z95 * se)


def test_difference_adds_half_widths_in_quadrature() -> None:
    a = {"estimate": 0.5, "low": 0.49, "high": 0.51}
    b = {"estimate": 0.52, "low": 0.51, "high": 0.53}
    change = difference(a, b, "estimate")
    assert change["estimate"] == pytest.approx(0.02)
    assert change["high"] - change["estimate"] == pytest.approx(math.hypot(0.01, 0.01))


def test_summary_of_a_table() -> None:
    table = np.zeros((4, fast.FIELDS), dtype=np.int64)
    table[:, fast.WINNER] = [0, 0, 1, -1]
    table[:, fast.THROWS] = [10, 12, 14, 99]
    table[:, fast.MOVES] = [8, 9, 10, 0]
    table[:, fast.TURNS] = [7, 8, 9, 0]
    results = summarise(table)
    assert results["first_player_wins"] == 2
    assert results["finished_games"] == 3
    assert results["unfinished_games"] == 1
    assert results["throws"]["mean"] == 12.0
    assert sum(results["throws"]["histogram"]["counts"]) == 3
    assert results["minutes"]["mean"] == pytest.approx(
        12.0 * results["minutes"]["seconds_per_throw"] / 60
    )


def test_beyond_chance_is_the_interval_alone_for_one_change_and_stricter_for_many() -> None:
    """With one change, an estimate stands out exactly when its 95 % interval misses zero;
    among 352 (the one-ruling changes measured) it needs about 3.8 standard errors, not 1.96."""
    from generator.sim.stats import beyond_chance

    def interval(estimate: float, standard_errors: float) -> dict[str, float]:
        half = estimate / standard_errors * 1.959964
        return {"estimate": estimate, "low": estimate - half, "high": estimate + half}

    assert beyond_chance(interval(0.02, 2.0), 1)
    assert not beyond_chance(interval(0.02, 1.9), 1)
    assert not beyond_chance(interval(0.02, 3.7), 352)
    assert beyond_chance(interval(0.02, 3.9), 352)
    assert beyond_chance(interval(-0.02, 3.9), 352)
