"""The perfect-play hint's data (:mod:`generator.measure.play_hints`): which rulebooks ship
their solved game, and that the shipped tables and values give the solver's own value of every
position looked up in them, the start's being the committed full game's.

The lookup below follows ``assets/ur-hint.js`` ``stateId`` step by step (the browser test,
``tests/browser/test_play_hint.py``, checks the script itself against the solver)."""

from __future__ import annotations

import base64
import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import random_positions, rules_for

from generator.engine.position import Position, start_position
from generator.engine.rules import Side
from generator.measure.core import Settings
from generator.measure.play_hints import (
    MAX_HINT_STATES,
    HintValues,
    hint_problems,
    play_hints,
)
from generator.model.catalog_contents import Catalog
from generator.site.play_files import hint_files, hint_paths
from generator.solver.solution import Solution
from generator.solver.solve import solve
from generator.solver.solve_read import FULL_GAME_TOLERANCE

SHIPPED = "finkel-three-piece"
FULL_GAMES = Path(__file__).resolve().parent.parent / "results" / "full-games.json"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hint-cache")


@pytest.fixture(scope="module")
def hints(catalog: Catalog, cache: Path) -> dict[str, HintValues]:
    return play_hints(catalog, Settings(cache_root=cache))


@pytest.fixture(scope="module")
def solution(hints: dict[str, HintValues], cache: Path) -> Solution:
    """The solver's own solution, read from the cache the hints were solved into."""
    return solve(rules_for(SHIPPED), tolerance=FULL_GAME_TOLERANCE, cache_dir=cache / "solve")


def configuration(index: dict[str, Any], pieces: tuple[int, ...]) -> int:
    code = 0
    for group, stride in zip(index["groups"], index["strides"], strict=True):
        part = sorted(pieces[p] for p in group)
        code += sum(math.comb(v + i, i + 1) for i, v in enumerate(part)) * stride
    return int(index["codeToConfig"][code]) if code < len(index["codeToConfig"]) else -1


def shipped_chance(hint: HintValues, position: Position) -> float:
    """The chance that the side to move wins, looked up as the browser looks it up."""
    index = hint.index
    side = position.to_move
    mover = configuration(index, position.pieces(side))
    opponent = configuration(index, position.pieces(side.other))
    view = int(side) if index["perspectives"] == 2 else 0
    assert index["valid"][view][mover] and index["valid"][1 - view][opponent]
    _, borne_count, masks, slots = index["prefixShape"]
    borne = index["borne"][opponent]
    at = ((view * borne_count + borne) * masks + index["maskId"][view][mover]) * slots
    at += index["maskId"][1 - view][opponent]
    prefix = index["prefix"]
    assert prefix[at + 1] > prefix[at], f"{position}: the two sides' squares fit"
    layer = index["borne"][mover] + borne
    configs = len(index["borne"])
    state = index["start"][(view * configs + mover) * index["layers"] + layer]
    state += prefix[at] + index["rank"][1 - view][opponent]
    return float(np.frombuffer(hint.values, dtype="<f8")[state])


def test_only_the_small_solved_games_ship(hints: dict[str, HintValues]) -> None:
    """Three-piece Finkel ships; every other played rulebook has five or seven pieces a side."""
    assert set(hints) == {SHIPPED}
    hint = hints[SHIPPED]
    assert hint.states <= MAX_HINT_STATES
    assert len(hint.values) == 8 * hint.states == 8 * hint.index["states"]


def test_the_start_is_the_committed_full_game(hints: dict[str, HintValues]) -> None:
    committed = json.loads(FULL_GAMES.read_text())["payload"]["solved"][SHIPPED]
    hint = hints[SHIPPED]
    start = start_position(rules_for(SHIPPED))
    assert shipped_chance(hint, start) == pytest.approx(committed["first_player"], abs=1e-13)
    assert hint.first_player == pytest.approx(committed["first_player"], abs=1e-13)
    assert hint.states == committed["states"]


def test_the_shipped_values_are_the_solvers(
    hints: dict[str, HintValues], solution: Solution
) -> None:
    rules = rules_for(SHIPPED)
    positions = [start_position(rules), *random_positions(rules, seed=11, count=400)]
    assert {p.to_move for p in positions} == {Side.LIGHT, Side.DARK}
    for position in positions:
        assert shipped_chance(hints[SHIPPED], position) == solution.win_probability(position)


def test_the_files_carry_the_values_whole(hints: dict[str, HintValues]) -> None:
    files = hint_files(hints)
    values, index = hint_paths(SHIPPED)
    assert set(files) == {values, index}
    assert base64.b64decode(files[values]) == hints[SHIPPED].values
    assert json.loads(files[index]) == hints[SHIPPED].index


def test_a_damaged_value_is_not_published(hints: dict[str, HintValues]) -> None:
    hint = hints[SHIPPED]
    assert hint_problems(hints) == []
    values = np.frombuffer(hint.values, dtype="<f8").copy()
    values[7] = np.nan
    damaged = dataclasses.replace(hint, values=values.tobytes())
    assert hint_problems({SHIPPED: damaged}) == [
        f"hint values of {SHIPPED}: not 263,121 chances from 0 to 1"
    ]
