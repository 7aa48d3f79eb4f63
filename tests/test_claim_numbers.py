"""Numbers a claim's check reads (generator/model/claim_words.py) are bounded and refused with
``file:line`` when the catalogue loads, so a claim can neither hang nor crash its check nor
turn its verdict: a ``NaN`` threshold, fifty million coins and a coin claim with no number
(issue 45, items 8, 13 and 17)."""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import VARIANTS

from generator.cli import main
from generator.model import claim_words
from generator.model.claim_words import MAX_COINS, coin_count, odds_problems, threshold_problem

GREAT_BOOK = "finkel-great-book.yml"
NO_DRAW = "- id: gb-claim-no-draw\n  claim: A draw is not possible.\n  check: no-draw\n"


def _coin_claim(text: str) -> Callable[[str], str]:
    def edit(yml: str) -> str:
        assert NO_DRAW in yml
        return yml.replace(
            NO_DRAW, f"- id: gb-claim-no-draw\n  claim: {text}\n  check: coins-same-spread\n"
        )

    return edit


def _nan_threshold(yml: str) -> str:
    assert yml.count("    threshold: 0.5\n") == 1
    return yml.replace("    threshold: 0.5\n", "    threshold: .nan\n")


CASES = {
    "nan threshold": (
        _nan_threshold,
        "    threshold: .nan",
        "gb-claim-central-rosette-decides",
        # the data's own check refuses any number that is not finite, before the claim's
        "reading.threshold must be a finite number, got nan",
    ),
    "fifty million coins": (
        _coin_claim("50000000 coins, heads counted, give the same spread as the dice."),
        "  claim: 50000000 coins",
        "gb-claim-no-draw",
        f"claim gb-claim-no-draw names '50000000' coins; name from 1 to {MAX_COINS}",
    ),
    "coins with no number": (
        _coin_claim("Coins, heads counted, give the same spread as the dice."),
        "  claim: Coins, heads counted",
        "gb-claim-no-draw",
        "claim gb-claim-no-draw names no number of coins",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_claim_number_out_of_bounds_is_refused_with_its_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit, line_text, claim, message = CASES[case]
    shutil.copytree(VARIANTS, tmp_path / "variants")
    path = tmp_path / "variants" / GREAT_BOOK
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if line_text in text)
    for command in (["validate"], ["claims", claim]):
        assert main(["--root", str(tmp_path), *command]) != 0
        err = capsys.readouterr().err
        here = f"{path}:{line}: "
        assert any(row.startswith(here) and message in row for row in err.splitlines()), err
        assert "Traceback" not in err


def test_coin_counts_are_bounded() -> None:
    assert coin_count("Four coins give exactly the same spread") == 4
    assert coin_count("Throw 5 coins") == 5
    assert coin_count(f"Throw {MAX_COINS + 1} coins") is None
    assert coin_count("Throw " + "9" * 5000 + " coins") is None  # past Python's digit limit
    assert coin_count("Coins, heads counted") is None


def test_odds_of_one_in_zero_or_beyond_the_bound_are_named() -> None:
    assert list(odds_problems("a four has a 1 in 16 chance, a two 3 in 8")) == []
    for text in ("1 in 0", "17 in 16", f"1 in {claim_words.MAX_ODDS + 1}", "1 in " + "9" * 5000):
        assert len(list(odds_problems(text))) == 1, text


@pytest.mark.parametrize("threshold", [math.nan, math.inf, -math.inf, 0.0, 1.0, -0.5, 2.0])
def test_a_threshold_must_be_a_share(threshold: float) -> None:
    assert threshold_problem(threshold) is not None
    assert threshold_problem(0.5) is None
