"""The forward pass over a solved game (generator/claims/holder_wins.py), against a reference
built another way: the small-game policy table (generator/solver/solve_visits.py), its visit
counts, and a plain numpy iteration of the games in which nobody has yet taken the square;
and the read-only loader of a cached solve (generator/solver/solve_read.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from conftest import repository_catalog, rules_for

from generator.claims import central_rosette
from generator.claims.claim_checks import check_claim
from generator.claims.holder_wins import holder_wins
from generator.claims.verdicts import CONTRADICTED, PARTLY, SUPPORTED, CheckSettings
from generator.engine.position import start_position
from generator.engine.rules import Side
from generator.sim.encode import numbered_route_cells
from generator.site.claims_page import claim_words
from generator.site.vocabulary import Vocabulary
from generator.solver.solution import Solution
from generator.solver.solve import solve, with_pieces
from generator.solver.solve_read import cached_solution
from generator.solver.solve_visits import expected_visits, perfect_policy

CENTRAL = "r2c4"


def _solved(pieces: int, variant: str = "finkel-great-book") -> Solution:
    return solve(with_pieces(rules_for(variant), pieces), cache_dir=None)


def _holders(solution: Solution) -> np.ndarray:
    """``[state id]`` 0 when nobody holds the central rosette, 1 the mover, 2 the opponent,
    read from the dense table of state indices (not from the pass's sweep order)."""
    geo, configs = solution.geometry, solution.configurations
    cell = numbered_route_cells(solution.rules)[0][CENTRAL]
    holds = [(geo.cells[side][configs.table] == cell).any(axis=1) for side in range(2)]
    count = configs.count
    held = np.zeros(solution.states, dtype=np.int8)
    for slot in np.flatnonzero(solution.dense >= 0):
        p, rest = divmod(int(slot), count * count)
        mover, opponent = divmod(rest, count)
        ident = solution.dense[slot]
        held[ident] = 1 if holds[p][mover] else 2 if holds[1 - p][opponent] else 0
    return held


def _reference(solution: Solution) -> tuple[float, float, float]:
    """(per-throw holder wins, share of games taken, first holder wins), by the visit counts
    and by iterating the not-yet-taken games' flow to a fixed point with numpy."""
    held = _holders(solution)
    chance = np.where(held == 1, solution.values, 1 - np.asarray(solution.values))
    visits = expected_visits(solution)
    per_throw = float((visits * chance)[held > 0].sum() / visits[held > 0].sum())
    chosen = perfect_policy(solution)
    throws = solution.geometry.throw_probs.shape[0]
    source = np.repeat(np.arange(solution.states), throws)
    odds = np.tile(solution.geometry.throw_probs, solution.states)
    moving = chosen >= 0
    target = np.where(moving, chosen >> 1, 0)
    fresh_edge = moving & (held[target] == 0)
    taken_edge = moving & (held[target] > 0)
    start = solution.index(start_position(solution.rules))
    flow = np.zeros(solution.states)
    for _ in range(100_000):
        pushed = np.zeros(solution.states)
        pushed[start] = 1.0
        np.add.at(pushed, target[fresh_edge], (flow[source] * odds)[fresh_edge])
        if np.abs(pushed - flow).max() < 1e-15:
            break
        flow = pushed
    weight = (flow[source] * odds)[taken_edge]
    taken = float(weight.sum())
    wins = float((weight * chance[target[taken_edge]]).sum())
    return per_throw, taken, wins / taken


def _lopsided(pieces: int) -> Solution:
    """The Great Book's game with a rosette on light's first square only: the colours differ,
    so the solver keeps a table for each side to move (two perspectives)."""
    rules = with_pieces(rules_for("finkel-great-book"), pieces)
    first = rules.cells[Side.LIGHT][0]
    lopsided = dataclasses.replace(rules, extra_throw_cells=rules.extra_throw_cells | {first})
    solution = solve(lopsided, cache_dir=None)
    assert solution.geometry.perspectives == 2
    return solution


@pytest.mark.parametrize(("pieces", "colours"), [(1, "same"), (2, "same"), (2, "differ")])
def test_the_pass_matches_a_reference_built_another_way(pieces: int, colours: str) -> None:
    solution = _solved(pieces) if colours == "same" else _lopsided(pieces)
    first, held, run = holder_wins(solution, CENTRAL)
    per_throw, taken, first_wins = _reference(solution)
    assert held is not None
    assert held.holder_wins == pytest.approx(per_throw, abs=1e-10)
    assert first.games_taken == pytest.approx(taken, abs=1e-10)
    assert first.first_holder_wins == pytest.approx(first_wins, abs=1e-10)
    assert held.held_throws < held.expected_throws == pytest.approx(solution.expected_throws)
    assert run.states == solution.states and run.sweeps > 0


def test_following_only_the_untaken_games_gives_the_same_per_game_figures() -> None:
    solution = _solved(2)
    whole, _, _ = holder_wins(solution, CENTRAL)
    alone, held, _ = holder_wins(solution, CENTRAL, per_throw=False)
    assert held is None
    assert alone.first_holder_wins == pytest.approx(whole.first_holder_wins, abs=1e-10)
    assert alone.games_taken == pytest.approx(whole.games_taken, abs=1e-10)


def test_a_square_passed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="passes r2c4 2 times"):
        holder_wins(_solved(1, "murray-1952-royalur"), CENTRAL)


def test_a_cached_solve_is_read_never_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = with_pieces(rules_for("finkel-great-book"), 2)
    assert cached_solution(rules, tmp_path) is None
    solve(rules, cache_dir=tmp_path, tolerance=1e-13)
    in_memory = holder_wins(_solved(2), CENTRAL)[0]
    monkeypatch.setattr("generator.solver.solve._solve", None)  # any solve would fail
    read = cached_solution(rules, tmp_path)
    assert read is not None and read.from_cache
    assert holder_wins(read, CENTRAL)[0] == in_memory


@pytest.mark.parametrize("threshold", [0.001, 0.9, "between"])
def test_central_rosette_verdict_follows_the_reading(
    threshold: float | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The verdict compares the share of games won by the side that first holds the rosette
    with the claim's own threshold, at each piece count: above everywhere supported, at or
    below everywhere contradicted, else partly."""
    for name in ("HOLDER_PIECES", "BUILD_PIECES", "WORTH_PIECES"):
        monkeypatch.setattr(central_rosette, name, (1, 2))
    monkeypatch.setattr(central_rosette, "committed_worths", lambda **_: {})
    catalog = repository_catalog()
    claim = next(
        c
        for c in catalog.variants["finkel-great-book"].claims
        if c.check == "central-rosette-decides"
    )
    shares = [holder_wins(_solved(n), CENTRAL)[0].first_holder_wins for n in (1, 2)]
    assert shares[0] != shares[1]
    level = sum(shares) / 2 if threshold == "between" else float(threshold)
    assert claim.reading is not None
    claim = dataclasses.replace(claim, reading=dataclasses.replace(claim.reading, threshold=level))
    result = check_claim(catalog, claim, CheckSettings(10, 1, tmp_path))
    expected = (
        SUPPORTED
        if all(s > level for s in shares)
        else CONTRADICTED
        if all(s <= level for s in shares)
        else PARTLY
    )
    assert result.verdict == expected
    assert expected == {0.001: SUPPORTED, 0.9: CONTRADICTED}.get(threshold, PARTLY)  # type: ignore[call-overload]
    assert result.exhaustive
    assert [count.first.pieces for count in result.finding.counts] == [1, 2]
    numbers = dict(claim_words(result, Vocabulary.of(catalog.equipment)).numbers)
    assert any("with two pieces a side" in label for label in numbers)
    assert not any("seven pieces" in label for label in numbers)


def test_a_rulebooks_full_game_is_followed_from_its_solve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ur-variants claims --rosette-of RULEBOOK`` reads the full game's solve, never solves:
    missing, it names the command that makes it; there, it prints the pass's figures."""
    from generator.cli import main

    command = ["claims", "--rosette-of", "finkel-three-piece", "--solve-cache", str(tmp_path)]
    assert main(command) == 1
    assert "ur-variants solve finkel-three-piece --pieces 3" in capsys.readouterr().err
    rules = rules_for("finkel-three-piece")
    solve(rules, cache_dir=tmp_path, tolerance=1e-13)
    assert main(command) == 0
    first = holder_wins(solve(rules, cache_dir=None), CENTRAL)[0]
    shown = capsys.readouterr().out
    assert f"won by the side that stood on it first: {100 * first.first_holder_wins:.4f} %" in shown
