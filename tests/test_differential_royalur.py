"""Differential test against royalur 0.0.6, an independent engine (RoyalUr.net's authors).

For thousands of positions met in seeded random play, and every throw the dice can make,
our engine and royalur must give the same legal moves and the same successor positions
(pieces, whose turn it is, or who has won). The dice outcome tables must match exactly,
and so must the routes and rosettes, cell by cell.

royalur's lower-level API is used (``SimpleRuleSetProvider().create(settings, metadata)``),
working around its known 0.0.6 defects (read in its source, RoyalUr-Python,
https://github.com/RoyalUr/RoyalUr-Python):
``RuleSet.paths`` returns None, so the settings' paths are used; the three-dice "0 counts
as 4" dice cannot roll, so every roll is supplied as a ``Roll`` object.

Mapping: our progress p (1..L on the route) is royalur's path index p - 1; progress 0 is a
piece in hand (``PlayerState.piece_count``) and L + 1 a scored piece (``score``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from conftest import random_positions, repository_catalog, rules_for, variant_ids
from royalur import Board, GameMetadata, GameSettings, PlayerState, PlayerType
from royalur.model import BinaryDice, BinaryDice0AsMax, Piece, Roll
from royalur.model.dice import Dice
from royalur.rules.simple import SimpleRuleSetProvider
from royalur.rules.state import WaitingForMoveGameState, WaitingForRollGameState, WinGameState

from generator.engine.moves import successors, winner
from generator.engine.position import Position, format_position
from generator.engine.rules import Rules, Side

POSITIONS_PER_VARIANT = 1_500


def _blitz() -> Any:
    """RoyalUr.net's Blitz: the Masters preset with five pieces and an extra roll on capture."""
    return (
        GameSettings.create_masters()
        .with_starting_piece_count(5)
        .with_captures_grant_extra_rolls(True)
    )


ORACLES: dict[str, tuple[Callable[[], Any], Callable[[], Dice]]] = {
    "royalur-finkel": (GameSettings.create_finkel, lambda: BinaryDice("FourBinary", 4)),
    "royalur-masters": (GameSettings.create_masters, lambda: BinaryDice0AsMax("3Bin0Max", 3)),
    "royalur-masters-four-dice": (GameSettings.create_masters, lambda: BinaryDice("4Bin", 4)),
    "royalur-blitz": (_blitz, lambda: BinaryDice("FourBinary", 4)),
    "royalur-aseb": (GameSettings.create_aseb, lambda: BinaryDice("FourBinary", 4)),
}
"""Our variant id -> (royalur settings, royalur dice). royalur-masters is RoyalUr.net's
Masters (three dice, a throw of none counts as four); the four-dice one is royalur's preset."""

PLAYERS = {Side.LIGHT: PlayerType.LIGHT, Side.DARK: PlayerType.DARK}


def _require(variant_id: str) -> Rules:
    """The variant must exist: a missing oracle variant fails, it never skips."""
    assert variant_id in variant_ids(), (
        f"variant file variants/{variant_id}.yml is missing; the royalur differential test needs it"
    )
    return rules_for(variant_id)


class Oracle:
    """royalur's rule set for one variant, speaking our positions."""

    def __init__(self, variant_id: str, rules: Rules) -> None:
        make_settings, _ = ORACLES[variant_id]
        self.settings = make_settings()
        self.rules = rules
        self.ruleset = SimpleRuleSetProvider().create(self.settings, GameMetadata())
        self.paths = {side: self.settings.paths.get(PLAYERS[side]) for side in Side}

    def state(self, position: Position) -> Any:
        board = Board(self.settings.board_shape)
        players = {}
        for side in Side:
            pieces = position.pieces(side)
            for progress in pieces:
                if 1 <= progress <= self.rules.route_length:
                    index = progress - 1
                    board.set(self.paths[side][index], Piece(PLAYERS[side], index))
            players[side] = PlayerState(
                PLAYERS[side], pieces.count(0), pieces.count(self.rules.off)
            )
        return WaitingForRollGameState(
            board, players[Side.LIGHT], players[Side.DARK], PLAYERS[position.to_move]
        )

    def position(self, state: Any) -> tuple[str, str | None]:
        """Our notation of a royalur state (side to move irrelevant when won), and the winner."""
        sides = []
        for side in Side:
            player = state.get_player(PLAYERS[side])
            on_board = []
            for index, tile in enumerate(self.paths[side]):
                piece = state.board.get(tile)
                if piece is not None and piece.owner == PLAYERS[side]:
                    assert piece.path_index == index, "royalur piece index disagrees with its tile"
                    on_board.append(index + 1)
            pieces = [0] * player.piece_count + on_board + [self.rules.off] * player.score
            sides.append(",".join(map(str, sorted(pieces))))
        if isinstance(state, WinGameState):
            return f"{sides[0]}/{sides[1]}", state.get_winner().name
        turn = "L" if state.get_turn() == PlayerType.LIGHT else "D"
        return f"{sides[0]}/{sides[1]} {turn}", None

    def outcomes(self, position: Position, throw: int) -> dict[tuple[int, int], tuple[str, Any]]:
        """(start, end) progress of every legal move -> (next position, winner)."""
        state = self.state(position)
        roll = Roll(throw)
        moves = self.ruleset.find_available_moves(state.board, state.get_turn_player(), roll)
        if not moves:
            after = self.ruleset.apply_roll(state, roll)[-1]
            return {(-1, -1): self.position(after)}
        waiting = WaitingForMoveGameState(
            state.board, state.light_player, state.dark_player, state.get_turn(), roll, moves
        )
        result = {}
        for move in moves:
            start = 0 if move.is_introducing_piece() else move.source_piece.path_index + 1
            end = self.rules.off if move.is_scoring_piece() else move.dest_piece.path_index + 1
            assert (start, end) not in result, f"royalur gave two moves {start}->{end}"
            result[(start, end)] = self.position(self.ruleset.apply_move(waiting, move)[-1])
        return result


def ours(rules: Rules, position: Position, throw: int) -> dict[tuple[int, int], tuple[str, Any]]:
    result = {}
    for move, after in successors(rules, position, throw):
        key = (-1, -1) if move is None else (move.start, move.end)
        assert key not in result, f"our engine gave two moves {key}"
        won = winner(rules, after)
        text = format_position(after)
        result[key] = (text.rsplit(" ", 1)[0], won.name) if won is not None else (text, None)
    return result


@pytest.mark.parametrize("variant_id", list(ORACLES))
def test_dice_tables_match(variant_id: str) -> None:
    rules = _require(variant_id)
    probabilities = ORACLES[variant_id][1]().get_roll_probabilities()
    theirs = {throw: Fraction(p) for throw, p in enumerate(probabilities) if p > 0}
    assert dict(rules.throws) == theirs


@pytest.mark.parametrize("variant_id", list(ORACLES))
def test_board_and_routes_match(variant_id: str) -> None:
    rules = _require(variant_id)
    oracle = Oracle(variant_id, rules)
    for side in Side:
        cells = tuple(f"r{tile.x}c{tile.y}" for tile in oracle.paths[side])
        assert cells == rules.cells[side], f"{side.name} route differs from royalur's"
    board = repository_catalog().resolve(variant_id).board
    rosettes = {f"r{t.x}c{t.y}" for t in oracle.settings.board_shape.rosettes}
    assert rosettes == set(board.rosettes)
    assert rules.pieces == oracle.settings.starting_piece_count


@pytest.mark.parametrize("variant_id", list(ORACLES))
def test_moves_and_successors_match(variant_id: str) -> None:
    rules = _require(variant_id)
    oracle = Oracle(variant_id, rules)
    positions = random_positions(rules, seed=hash_seed(variant_id), count=POSITIONS_PER_VARIANT)
    compared = 0
    for position in positions:
        for throw, _ in rules.throws:
            expected = oracle.outcomes(position, throw)
            actual = ours(rules, position, throw)
            if actual != expected:
                pytest.fail(
                    f"{variant_id}: {format_position(position)} throw {throw}\n"
                    f"  royalur: {sorted(expected.items())}\n"
                    f"  ours:    {sorted(actual.items())}"
                )
            compared += len(expected)
    assert len(positions) == POSITIONS_PER_VARIANT
    assert compared > POSITIONS_PER_VARIANT


def hash_seed(text: str) -> int:
    """A stable seed from a name (``hash`` of a string changes between runs)."""
    return int.from_bytes(text.encode(), "big") % 2**32
