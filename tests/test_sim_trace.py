"""The native kernel plays the reference engine's game, move for move, on every variant.

The kernel emits a trace of each throw (throw, legal-move count, chosen index, position after);
each step is replayed through :mod:`generator.engine.moves` and must be exactly the reference
engine's successor. Agents with different tastes steer the games into different corners
(captures, extra throws, bearing off, stacks, per-piece entries).
"""

from __future__ import annotations

import pytest
from conftest import other_answer_on_unmoved_extra_throws, rules_for, simulated, variant_ids

from generator.engine.moves import apply_move, legal_moves, pass_turn, winner
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules, Side
from generator.sim import fast
from generator.sim.encode import encode_rules

PAIRINGS = [
    (fast.RANDOM, fast.RANDOM),
    (fast.GREEDY, fast.CAPTURE),
    (fast.SAFE, fast.LAST),
    (fast.REARMOST, fast.EXTRA),
]
GAMES_PER_PAIRING = 3
CAP_FOR_ENDLESS = 2_000
"""Throws traced for a variant kept for the record (``simulate: false``) that need not end."""


def replay(rules: Rules, trace: list[list[int]]) -> Position:
    pieces = rules.pieces
    position = start_position(rules)
    for step, row in enumerate(trace):
        throw, count, chosen, side_after = row[0], row[1], row[2], row[3]
        light = tuple(row[4 : 4 + pieces])
        dark = tuple(row[4 + pieces : 4 + 2 * pieces])
        assert winner(rules, position) is None, f"step {step}: the game was already over"
        moves = legal_moves(rules, position, throw)
        assert count == len(moves), f"step {step}: kernel saw {count} moves, engine {moves}"
        if not moves:
            assert chosen == -1
            expected = pass_turn(rules, position, throw)
        else:
            assert 0 <= chosen < len(moves)
            expected = apply_move(rules, position, moves[chosen], throw)
        if winner(rules, expected) is None:
            assert Side(side_after) == expected.to_move, f"step {step}: side to move differs"
        assert (light, dark) == (expected.light, expected.dark), f"step {step} throw {throw}"
        position = expected
    return position


def replay_pairings(rules: Rules, must_end: bool) -> None:
    """Kernel games of every pairing, each replayed step by step through the engine."""
    packed = encode_rules(rules).packed()
    cap = fast.DEFAULT_MAX_THROWS if must_end else CAP_FOR_ENDLESS
    for light, dark in PAIRINGS:
        for game in range(GAMES_PER_PAIRING):
            result, trace = fast.trace_game(packed, light, dark, 7, game, max_throws=cap)
            final = replay(rules, trace.tolist())
            if must_end:
                assert result[fast.WINNER] >= 0, f"{rules.variant}: game {game} did not finish"
                assert winner(rules, final) == Side(int(result[fast.WINNER]))
            assert result[fast.THROWS] == len(trace)
            assert result[fast.MOVES] + result[fast.PASSES] == result[fast.THROWS]
            assert result[fast.TURNS] == result[fast.THROWS] - result[fast.EXTRAS]


@pytest.mark.parametrize("variant", variant_ids())
def test_kernel_games_replay_through_the_reference_engine(variant: str) -> None:
    replay_pairings(rules_for(variant), simulated(variant))


def test_kernel_follows_the_other_answer_on_a_throw_that_moves_nothing() -> None:
    """Where a throw earns another throw, the kernel also follows the engine under the answer
    the rulebook did not give to whether that throw is kept when it moves nothing (sensitivity
    runs and ``--set`` play it)."""
    flipped = other_answer_on_unmoved_extra_throws()
    assert flipped, "no variant has a throw that earns another throw"
    for rules in flipped:
        replay_pairings(rules, must_end=True)


def test_a_game_depends_only_on_seed_and_number() -> None:
    rules = rules_for(variant_ids()[0])
    packed = encode_rules(rules).packed()
    alone = fast.play_games(packed, fast.RANDOM, fast.RANDOM, 11, 5, 1)
    among = fast.play_games(packed, fast.RANDOM, fast.RANDOM, 11, 0, 10)
    other_seed = fast.play_games(packed, fast.RANDOM, fast.RANDOM, 12, 0, 10)
    assert (alone[0] == among[5]).all()
    assert not (among == other_seed).all()
