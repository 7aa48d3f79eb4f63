"""Agents: every agent plays every variant through the data alone, and does what it says."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import repository_catalog, rules_for, simulated, variant_ids

from generator.engine.moves import apply_move, legal_moves, pass_turn
from generator.engine.position import start_position
from generator.sim import fast
from generator.sim.agents import (
    FAST_AGENTS,
    FastAgent,
    ScoredAgent,
    UnknownAgent,
    check_agent_name,
    python_agent,
    same_play_as,
)
from generator.sim.encode import encode_rules
from generator.sim.runner import play_python_game
from generator.sim.stats import wilson
from generator.solver.published import finkel_variant


@pytest.mark.parametrize("variant", [v for v in variant_ids() if simulated(v)])
def test_every_fast_agent_finishes_games_on_every_variant(variant: str) -> None:
    packed = encode_rules(rules_for(variant)).packed()
    for agent in FastAgent:
        table = fast.play_games(packed, int(agent), int(FastAgent.RANDOM), 3, 0, 4)
        assert (table[:, fast.WINNER] >= 0).all(), f"{agent.label} did not finish on {variant}"


def trace_choices(variant: str, agent: FastAgent, games: int = 4):  # type: ignore[no-untyped-def]
    """(moves, chosen move) of every light decision with at least two moves."""
    rules = rules_for(variant)
    packed = encode_rules(rules).packed()
    for game in range(games):
        _, trace = fast.trace_game(packed, int(agent), int(FastAgent.RANDOM), 21, game)
        position = start_position(rules)
        for row in trace.tolist():
            throw, _, chosen = row[0], row[1], row[2]
            moves = legal_moves(rules, position, throw)
            if moves and position.to_move == 0 and len(moves) > 1:
                yield position, throw, moves, chosen
            position = (
                apply_move(rules, position, moves[chosen], throw)
                if moves
                else pass_turn(rules, position, throw)
            )


@pytest.mark.parametrize("variant", [v for v in variant_ids() if simulated(v)][:6])
def test_single_principle_agents_follow_their_principle(variant: str) -> None:
    rules = rules_for(variant)
    for _, _, moves, chosen in trace_choices(variant, FastAgent.CAPTURE):
        if any(m.captured for m in moves):
            assert moves[chosen].captured
    for _, _, moves, chosen in trace_choices(variant, FastAgent.EXTRA_THROW):
        if any(m.extra_throw for m in moves):
            assert moves[chosen].extra_throw
    for _, _, moves, chosen in trace_choices(variant, FastAgent.BEAR_OFF):
        if any(m.end == rules.off for m in moves):
            assert moves[chosen].end == rules.off
    for _, _, moves, chosen in trace_choices(variant, FastAgent.REARMOST):
        assert moves[chosen].start == min(m.start for m in moves if not m.is_pass)
    for _, _, _, chosen in trace_choices(variant, FastAgent.FIRST):
        assert chosen == 0
    for _, _, moves, chosen in trace_choices(variant, FastAgent.LAST):
        assert chosen == len(moves) - 1


def test_python_side_agents_see_the_kernel_moves() -> None:
    variant = variant_ids()[0]
    rules = rules_for(variant)
    packed = encode_rules(rules).packed()
    rng = np.random.default_rng(0)
    agent = ScoredAgent(FastAgent.GREEDY, packed)
    for position, throw, moves, _ in trace_choices(variant, FastAgent.RANDOM, games=2):
        assert 0 <= agent.choose(rules, position, throw, moves, rng) < len(moves)


def finkel() -> str:
    variant = finkel_variant(repository_catalog())
    if variant is None:
        pytest.skip("no variant plays Finkel's rules")
    return variant


def test_greedy_beats_random_clearly() -> None:
    packed = encode_rules(rules_for(finkel())).packed()
    table = fast.play_games(packed, fast.GREEDY, fast.RANDOM, 5, 0, 1_000)
    wins = int((table[:, fast.WINNER] == 0).sum())
    assert wilson(wins, 1_000)["low"] > 0.8


def test_first_move_loses_to_random() -> None:
    # RoyalUr-Analysis: First-Move wins 0.8% against Random (Finkel).
    packed = encode_rules(rules_for(finkel())).packed()
    table = fast.play_games(packed, fast.FIRST, fast.RANDOM, 5, 0, 1_000)
    wins = int((table[:, fast.WINNER] == 0).sum())
    assert wilson(wins, 1_000)["high"] < 0.1


def test_expectimax_plays_a_game_and_beats_random_more_often_than_not() -> None:
    rules = rules_for(finkel())
    agents = (python_agent("expectimax-2", rules), python_agent("random", rules))
    wins = sum(play_python_game(rules, agents, 3, g)[fast.WINNER] == 0 for g in range(6))
    assert wins >= 4


def test_perfect_agent_on_a_small_variant() -> None:
    catalog = repository_catalog()
    small = [
        v.id
        for v in catalog.variants.values()
        if v.simulate and catalog.resolve(v.id).value("pieces") <= 3
    ]
    if not small:
        pytest.skip("no simulated variant with three pieces or fewer")
    rules = rules_for(small[0])
    try:
        perfect = python_agent("perfect", rules)
    except Exception as error:  # the solver may be absent
        pytest.skip(f"no exact solution: {error}")
    random_agent = python_agent("random", rules)
    wins = sum(
        play_python_game(rules, (perfect, random_agent), 9, g)[fast.WINNER] == 0 for g in range(20)
    )
    assert wins >= 12


def test_agent_names() -> None:
    assert check_agent_name("expectimax-2") == "expectimax-2"
    assert set(FAST_AGENTS) >= {"random", "greedy", "safe", "capture"}
    with pytest.raises(UnknownAgent, match="unknown agent"):
        check_agent_name("grandmaster")


@pytest.mark.parametrize("variant", [v for v in variant_ids() if simulated(v)])
def test_same_play_as_names_an_agent_that_plays_identical_games(variant: str) -> None:
    packed = encode_rules(rules_for(variant)).packed()
    for agent in FastAgent:
        twin = FAST_AGENTS[same_play_as(agent.label, packed)]
        if twin is agent:
            continue
        for light, dark in ((agent, FastAgent.RANDOM), (FastAgent.RANDOM, agent)):
            swap = {agent: twin, FastAgent.RANDOM: FastAgent.RANDOM}
            table = fast.play_games(packed, int(light), int(dark), 9, 0, 40)
            twin_table = fast.play_games(packed, int(swap[light]), int(swap[dark]), 9, 0, 40)
            assert np.array_equal(table, twin_table), f"{agent.label} vs {twin.label}"
