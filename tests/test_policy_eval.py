"""Exact values under random play and perfect v random (generator/solver/policy_eval.py).

Closed forms: with one piece a side every throw offers at most one move, so a random player
plays exactly as a perfect one; one piece each on its last square, the side to move wins 4/7
(jheled, ``doc/solve.rst``) whoever plays. Bellman checks recompute every table one step with
the reference engine's moves (a random player picks uniformly among them). The value of random
play is checked against the mean of simulated random games, and the perfect player's values
against the guarantee of perfect play: against any opponent it wins at least its perfect-play
value, and no opponent does better against it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import rules_for
from test_solve import exotic, finkel, random_positions

from generator.engine.moves import successors, winner
from generator.engine.position import Position, parse_position, start_position
from generator.engine.rules import Rules
from generator.sim import fast
from generator.sim.encode import encode_rules
from generator.sim.stats import mean_interval, wilson
from generator.solver.policy_eval import (
    ExactFigures,
    PolicyValues,
    evaluate,
    exact_figures,
    figures_path,
)
from generator.solver.solution import SolveRefused
from generator.solver.solve import solve, with_pieces


@pytest.fixture(scope="module")
def finkel_one() -> PolicyValues:
    return evaluate(finkel(1))


@pytest.fixture(scope="module")
def finkel_two() -> PolicyValues:
    return evaluate(finkel(2))


@pytest.mark.parametrize(
    ("notation", "exact"),
    [("14/14 L", Fraction(4, 7)), ("13/14 L", Fraction(116, 161)), ("14/13 L", Fraction(74, 161))],
)
def test_endgames_with_one_piece_are_the_same_under_any_play(
    finkel_one: PolicyValues, notation: str, exact: Fraction
) -> None:
    position = parse_position(finkel_one.rules, notation)
    for table in (finkel_one.perfect, finkel_one.random, finkel_one.perfect_vs_random):
        assert finkel_one.value(table, position) == pytest.approx(float(exact), abs=1e-12)


def test_last_squares_last_four_throws(finkel_one: PolicyValues) -> None:
    """Both on their last square: each throw ends the game with p = 1/4, so 4 throws."""
    position = parse_position(finkel_one.rules, "14/14 L")
    assert finkel_one.throws_left(finkel_one.random_lengths, position) == pytest.approx(4.0)


def test_one_piece_leaves_no_choice(finkel_one: PolicyValues) -> None:
    """One piece a side: at most one legal move per throw, so every pairing is the same game."""
    assert np.allclose(finkel_one.random, finkel_one.perfect, atol=1e-12)
    assert np.allclose(finkel_one.perfect_vs_random, finkel_one.perfect, atol=1e-12)
    assert np.allclose(finkel_one.random_vs_perfect, finkel_one.perfect, atol=1e-12)
    assert np.allclose(finkel_one.random_lengths, finkel_one.perfect_lengths, atol=1e-8)
    figures = finkel_one.figures()
    assert figures.skill == pytest.approx(0.5, abs=1e-12)


def test_perfect_values_are_the_solvers(finkel_two: PolicyValues) -> None:
    solution = solve(finkel_two.rules, cache_dir=None)
    figures = finkel_two.figures()
    # Two iterations (stored moves here, moves on the fly in the solver) stop within the
    # tolerance of the same fixed point, not at the same bits.
    assert figures.perfect_first == pytest.approx(solution.start_value, abs=1e-12)
    assert figures.perfect_throws == pytest.approx(solution.expected_throws, abs=1e-8)
    assert 100 * figures.perfect_first == pytest.approx(51.8572907496, abs=1e-9)


def random_backups(values: PolicyValues, position: Position) -> dict[str, float]:
    """One step of each table from ``position`` with the reference engine's moves: the random
    player's mean over them; the perfect player's best, bracketed over moves of equal perfect
    value (the solver's policy takes the first in its own piece order, which can differ from
    the engine's where pieces have their own entry rules)."""
    rules, mover = values.rules, position.to_move

    def worth(after: Position, own: np.ndarray, other: np.ndarray) -> float:
        won = winner(rules, after)
        if won is not None:
            return 1.0 if won is mover else 0.0
        if after.to_move is mover:
            return values.value(own, after)
        return 1.0 - values.value(other, after)

    backup = {"random": 0.0, "random_lengths": 1.0, "pvr_low": 0.0, "pvr_high": 0.0, "rvp": 0.0}
    for throw, probability in rules.throws:
        p = float(probability)
        afters = [after for _, after in successors(rules, position, throw)]
        backup["random"] += p * np.mean([worth(a, values.random, values.random) for a in afters])
        backup["random_lengths"] += p * np.mean(
            [values.throws_left(values.random_lengths, a) for a in afters]
        )
        perfect = [worth(a, values.perfect, values.perfect) for a in afters]
        tied = [
            worth(a, values.perfect_vs_random, values.random_vs_perfect)
            for a, v in zip(afters, perfect, strict=True)
            if v >= max(perfect) - 1e-12
        ]
        backup["pvr_low"] += p * min(tied)
        backup["pvr_high"] += p * max(tied)
        backup["rvp"] += p * np.mean(
            [worth(a, values.random_vs_perfect, values.perfect_vs_random) for a in afters]
        )
    return backup


def assert_bellman(values: PolicyValues, positions: list[Position]) -> None:
    tables = {"random": values.random, "rvp": values.random_vs_perfect}
    for position in positions:
        backup = random_backups(values, position)
        for name, table in tables.items():
            assert values.value(table, position) == pytest.approx(backup[name], abs=1e-11), name
        fixed = values.value(values.perfect_vs_random, position)
        assert backup["pvr_low"] - 1e-11 <= fixed <= backup["pvr_high"] + 1e-11
        length = values.throws_left(values.random_lengths, position)
        assert length == pytest.approx(backup["random_lengths"], abs=1e-7)


def test_finkel_two_satisfies_bellman_with_engine_moves(finkel_two: PolicyValues) -> None:
    positions = random_positions(finkel_two.rules, seed=3, count=300)
    assert_bellman(finkel_two, [*positions, start_position(finkel_two.rules)])


@pytest.mark.parametrize("extra_without_move", [True, False])
def test_every_optional_rule_matches_the_engine(extra_without_move: bool) -> None:
    """Stacks that repel, per-piece entry with two pieces sharing a rule (two moves where
    the engine tells them apart), generous bearing off, a voluntary pass, extra throws."""
    values = evaluate(exotic(3, 5, extra_without_move))
    assert values.rules.distinct_pieces
    assert_bellman(values, random_positions(values.rules, seed=4, count=250))


def assert_perfect_guarantee(values: PolicyValues) -> None:
    """Perfect play wins at least its value against anyone; random play against it at most
    the mover's perfect value."""
    assert np.all(values.perfect_vs_random >= values.perfect - 1e-11)
    assert np.all(values.random_vs_perfect <= values.perfect + 1e-11)
    figures = values.figures()
    assert figures.skill >= 0.5


def test_perfect_beats_random(finkel_two: PolicyValues) -> None:
    assert_perfect_guarantee(finkel_two)
    figures = finkel_two.figures()
    assert figures.perfect_moving_first > figures.perfect_first
    assert figures.perfect_moving_second > 1 - figures.perfect_first
    assert figures.skill > 0.7


@pytest.mark.parametrize("variant", ["royalur-masters", "tablet-finkel-2007", "bell-1960"])
def test_variants_with_two_pieces(variant: str) -> None:
    values = evaluate(with_pieces(rules_for(variant), 2))
    assert_perfect_guarantee(values)
    assert_bellman(values, random_positions(values.rules, seed=9, count=60))


def simulated_random_games(rules: Rules, games: int, seed: int) -> np.ndarray:
    packed = encode_rules(rules).packed()
    return fast.play_games(packed, fast.RANDOM, fast.RANDOM, seed, 0, games)


@pytest.mark.parametrize(("variant", "pieces"), [("royalur-finkel", 2), ("tablet-finkel-2007", 2)])
def test_random_value_is_the_mean_of_random_games(variant: str, pieces: int) -> None:
    """40,000 seeded random games: the exact first-player value and mean length lie inside
    the games' 99.9 % intervals (z = 3.29: one fixed seed, and a wrong value would be many
    intervals away)."""
    rules = with_pieces(rules_for(variant), pieces)
    figures = evaluate(rules).figures()
    table = simulated_random_games(rules, 40_000, seed=2024)
    assert np.all(table[:, fast.WINNER] >= 0)
    wins = wilson(int((table[:, fast.WINNER] == 0).sum()), len(table), z=3.29)
    assert wins["low"] <= figures.random_first <= wins["high"]
    throws = mean_interval(table[:, fast.THROWS])
    spread = (throws["high"] - throws["mean"]) * 3.29 / 1.96
    assert abs(figures.random_throws - throws["mean"]) <= spread
    assert figures.random_first != pytest.approx(figures.perfect_first, abs=1e-4)


def test_too_large_a_game_is_refused() -> None:
    with pytest.raises(SolveRefused, match=r"263,121 positions, over the 1,000"):
        evaluate(finkel(3), max_states=1_000)


def test_figures_are_cached_by_rule_content(tmp_path: Path) -> None:
    rules = finkel(2)
    first = exact_figures(rules, cache_dir=tmp_path)
    path = figures_path(tmp_path, rules)
    assert path.exists()
    again = exact_figures(rules, cache_dir=tmp_path)
    assert again == first
    assert ExactFigures.from_dict(first.as_dict()) == first
    assert math.isfinite(first.random_throws)
