"""Random against random on Finkel's rules agrees with the published figures.

Published (:mod:`generator.solver.published`): RoyalUr-Java
(https://github.com/RoyalUr/RoyalUr-Java), 1,336,400 games: 143.81 moves, 156.50 throws, first
player wins 51.15% ± 0.04; the standard deviations (20.0 moves, 22.3 throws) are royalur's, from
20,000 games. With n games here, each mean's standard error is sd / sqrt(n); the tolerance is four
standard errors plus the rounding of the published figure and four of the published run's (1,336,400
games), so a correct kernel fails about once in 15,000 runs.
"""

from __future__ import annotations

import math

import pytest
from conftest import repository_catalog

from generator.engine.rules import compile_rules
from generator.sim import fast
from generator.sim.encode import encode_rules
from generator.sim.stats import summarise
from generator.solver.published import (
    FINKEL_FIRST_PLAYER_WINS,
    FINKEL_FIRST_PLAYER_WINS_HALF_WIDTH,
    FINKEL_MOVES,
    FINKEL_MOVES_SD,
    FINKEL_ROUNDING,
    FINKEL_THROWS,
    FINKEL_THROWS_SD,
    finkel_variant,
)

GAMES = 40_000
PUBLISHED_GAMES = 1_336_400


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    catalog = repository_catalog()
    variant = finkel_variant(catalog)
    if variant is None:
        pytest.skip("no variant plays Finkel's rules as RoyalUr.net does")
    packed = encode_rules(compile_rules(catalog.resolve(variant))).packed()
    table = fast.play_games(packed, fast.RANDOM, fast.RANDOM, 20261130, 0, GAMES)
    return summarise(table)


def tolerance(sd: float) -> float:
    return 4 * sd / math.sqrt(GAMES) + FINKEL_ROUNDING + 4 * sd / math.sqrt(PUBLISHED_GAMES)


def test_mean_moves(results: dict[str, dict[str, float]]) -> None:
    assert abs(results["moves"]["mean"] - FINKEL_MOVES) < tolerance(FINKEL_MOVES_SD)


def test_mean_throws(results: dict[str, dict[str, float]]) -> None:
    assert abs(results["throws"]["mean"] - FINKEL_THROWS) < tolerance(FINKEL_THROWS_SD)


def test_first_player_win_rate(results: dict[str, dict[str, float]]) -> None:
    measured = results["first_player_win_rate"]["estimate"]
    se = math.sqrt(0.25 / GAMES)
    published_se = FINKEL_FIRST_PLAYER_WINS_HALF_WIDTH / 1.96
    assert abs(measured - FINKEL_FIRST_PLAYER_WINS) < 4 * math.hypot(se, published_se)


def test_standard_deviation_of_moves(results: dict[str, dict[str, float]]) -> None:
    # The spread of a normal sample's sd has standard error about sd / sqrt(2n).
    assert (
        abs(results["moves"]["sd"] - FINKEL_MOVES_SD)
        < 4 * FINKEL_MOVES_SD / math.sqrt(2 * GAMES) + 0.05
    )
