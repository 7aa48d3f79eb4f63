"""Perfect-play visit counts (generator/solver/solve_visits.py), the worth of holding a square
(generator/claims/rosette_worth.py) and the committed figures the central-rosette claim check
reads (its verdict: tests/test_holder_wins.py)."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import pytest
from conftest import repository_catalog, rules_for

from generator.claims.claim_checks import check_claim
from generator.claims.figures import (
    WORTH_FILE,
    WORTH_FORMAT,
    WRITE_COMMAND,
    committed_worths,
    figure_key,
)
from generator.claims.rosette_worth import holding_worth
from generator.claims.verdicts import CheckSettings
from generator.engine.position import Position
from generator.engine.rules import Rules, Side
from generator.sim import results_files
from generator.solver.solution import Solution
from generator.solver.solve import solve, with_pieces
from generator.solver.solve_visits import expected_visits

CENTRAL = "r2c4"


def _solved(variant: str, pieces: int) -> Solution:
    return solve(with_pieces(rules_for(variant), pieces), cache_dir=None)


@pytest.mark.parametrize(("variant", "pieces"), [("finkel-great-book", 1), ("royalur-finkel", 2)])
def test_visits_add_up_to_the_expected_length(variant: str, pieces: int) -> None:
    """Every throw of a perfect game is made from some state: the visits sum to its length."""
    solution = _solved(variant, pieces)
    visits = expected_visits(solution)
    assert (visits >= 0).all()
    assert visits.sum() == pytest.approx(solution.expected_throws, abs=1e-9)


def _chance(solution: Solution, position: Position, holder: Side) -> float | None:
    """The holder's chance of winning in ``position``; ``None`` when it is impossible or
    finished (no throw is made from it)."""
    try:
        value = float(solution.values[solution.index(position)])
    except ValueError:
        return None
    return value if position.to_move is holder else 1 - value


def _moved(position: Position, holder: Side, step: int, shift: int) -> Position:
    pieces = list(position.pieces(holder))
    pieces[pieces.index(step)] = step + shift
    light, dark = (
        (tuple(pieces), position.dark) if holder is Side.LIGHT else (position.light, tuple(pieces))
    )
    return Position(light, dark, position.to_move)


def _reference_worth(solution: Solution, rules: Rules) -> tuple[float, float, float]:
    """(worth short, worth past, compared throws) position by position through the engine's
    positions and :meth:`Solution.win_probability`, not the vectorised index arithmetic."""
    step = next(p for p in range(1, rules.route_length + 1) if rules.cell(Side.LIGHT, p) == CENTRAL)
    visits = expected_visits(solution)
    totals = {-1: 0.0, 1: 0.0}
    weight = 0.0
    values = range(rules.off + 1)
    for light, dark in itertools.product(itertools.product(values, repeat=rules.pieces), repeat=2):
        if list(light) != sorted(light) or list(dark) != sorted(dark):
            continue
        # One table serves both colours when the rules are colour-symmetric: a dark-to-move
        # position is the same state as its colour swap, so count light to move only.
        for to_move in list(Side)[: solution.geometry.perspectives]:
            position = Position(light, dark, to_move)
            holders = [s for s in Side if step in position.pieces(s)]
            if not holders or _chance(solution, position, holders[0]) is None:
                continue
            holder = holders[0]
            here = _chance(solution, position, holder)
            moved = {
                k: _chance(solution, _moved(position, holder, step, k), holder) for k in totals
            }
            if here is None or None in moved.values():
                continue
            visited = float(visits[solution.index(position)])
            weight += visited
            for k in totals:
                totals[k] += visited * (here - moved[k])  # type: ignore[operator]
    return totals[-1] / weight, totals[1] / weight, weight


def test_holding_worth_matches_a_position_by_position_reference() -> None:
    rules = with_pieces(rules_for("finkel-great-book"), 2)
    solution = solve(rules, cache_dir=None)
    worth = holding_worth(solution, CENTRAL)
    short, past, weight = _reference_worth(solution, rules)
    assert worth.compared_throws == pytest.approx(weight, rel=1e-12)
    assert worth.worth_short == pytest.approx(short, abs=1e-12)
    assert worth.worth_past == pytest.approx(past, abs=1e-12)
    assert 0 < worth.compared_throws <= worth.held_throws < worth.expected_throws


def test_a_square_passed_twice_has_no_holding_worth() -> None:
    """Murray's route passes the central square twice: which visit holds it is undefined."""
    solution = _solved("murray-1952-royalur", 1)
    with pytest.raises(ValueError, match="passes r2c4 2 times"):
        holding_worth(solution, CENTRAL)


def test_committed_worths_are_current_and_read_without_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every central-rosette claim finds its worths in results/rosette-worth.json (written by
    ``ur-variants claims --write-results``, with who made them), so a build does not solve;
    the committed figures are a smaller game's exact worth and equal a solve of it (within
    the solver's tolerance)."""
    committed = results_files.read_results(WORTH_FILE, WORTH_FORMAT)
    assert committed is not None, "results/rosette-worth.json is missing"
    assert committed["command"].startswith("ur-variants claims --write-results")
    assert all(committed[key] for key in ("commit", "date", "machine"))
    catalog = repository_catalog()
    claims = [
        c
        for v in catalog.variants.values()
        for c in v.claims
        if c.check == "central-rosette-decides"
    ]
    assert claims, "no central-rosette claim: the committed worths check nothing"

    def no_solve(*args: object, **kwargs: object) -> Solution:
        raise AssertionError("a committed worth is stale or missing: the check solved")

    monkeypatch.setattr("generator.solver.solve.solve", no_solve)
    for claim in claims:
        result = check_claim(catalog, claim, CheckSettings(10, 1, tmp_path / claim.id))
        assert result.exhaustive, claim.id
    monkeypatch.undo()
    rules = rules_for("finkel-great-book")
    key = figure_key("holding-worth", with_pieces(rules, 2), {"cell": CENTRAL})
    # Equal within the solver's tolerance: the sweeps' order may change the last bits
    # (the solver's behaviour stamp catches what may change more).
    assert committed["worths"][key] == pytest.approx(
        dataclasses.asdict(holding_worth(_solved("finkel-great-book", 2), CENTRAL)),
        rel=1e-10,
        abs=1e-11,
    )


def test_a_damaged_worths_file_is_reported_and_read_as_empty(tmp_path: Path) -> None:
    """One worth altered behind the checksum: the file and the command that writes it again
    are named, and nothing is read (the checks compute the worths instead)."""
    data = json.loads(WORTH_FILE.read_text())
    worth = next(iter(data["payload"]["worths"].values()))
    number = next(k for k, v in worth.items() if isinstance(v, (int, float)))
    worth[number] += 1
    damaged = tmp_path / WORTH_FILE.name
    damaged.write_text(json.dumps(data))
    said: list[str] = []
    assert committed_worths(damaged, said.append) == {}
    assert len(said) == 1 and str(damaged) in said[0]
    assert WRITE_COMMAND in said[0]
    assert committed_worths(tmp_path / "missing.json", said.append) == {}
    assert len(said) == 1, "a missing file is no damage: the worths are computed quietly"
