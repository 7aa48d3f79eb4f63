"""Claim checks (generator/claims/claim_checks.py) on the small fixture catalogue."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import repository_catalog

from generator.claims.claim_checks import check_claim
from generator.claims.dice import claimed_odds
from generator.claims.reachability import reachability
from generator.claims.verdicts import (
    CONSISTENT_WITH_ASSUMPTION,
    CONTRADICTED,
    NOT_CONSISTENT_WITH_ASSUMPTION,
    SUPPORTED,
    UNSUPPORTED,
    CheckSettings,
    ClaimResult,
)
from generator.engine.rules import compile_rules
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim
from generator.site.claims_page import ClaimWords, claim_words
from generator.site.vocabulary import Vocabulary
from generator.solver.solve import with_pieces

DATA = Path(__file__).parent / "data" / "site" / "variants"


def worded(catalog: Catalog, result: ClaimResult) -> ClaimWords:
    """The claim's result in the claims page's words."""
    return claim_words(result, Vocabulary.of(catalog.equipment))


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_valid_catalog(DATA)


def _claim(check: str, text: str) -> Claim:
    return Claim("fx-test", text, check, (), None, "fixture-game")


def test_reachability_of_the_one_piece_game(catalog: Catalog) -> None:
    rules = with_pieces(compile_rules(catalog.resolve("fixture-game")), 1)
    found = reachability(rules)
    # One piece a side on Bell's route: 16 progress values each, minus the pairs that would
    # share a middle-lane square, times the side to move; some are unreachable.
    assert 0 < found.positions <= 2 * 16 * 16
    assert found.deadlocks == 0 and found.drawn_moves == 0 and found.unending == 0
    # A throw of 4 from step 12 cannot bear off exactly: some throws have no legal move.
    assert 0 < found.no_move_pairs < found.pairs


def test_no_draw_claim_is_supported(catalog: Catalog) -> None:
    claim = catalog.variants["fixture-game"].claims[0]
    result = check_claim(catalog, claim, CheckSettings(games=50, seed=1, cache_dir=None))
    assert result.verdict == SUPPORTED
    assert result.exhaustive


def test_piece_counts_read_as_words(catalog: Catalog) -> None:
    """Reader text says "with two pieces a side", never "2-piece" or "7 pieces"."""
    settings = CheckSettings(games=20, seed=1, cache_dir=None)
    claim = catalog.variants["fixture-game"].claims[0]
    texts = []
    for check in ("no-draw", "play-cannot-lock"):
        result = check_claim(catalog, dataclasses.replace(claim, check=check), settings)
        said = worded(catalog, result)
        texts += [said.summary, said.method, *dict(said.numbers)]
    coins = dataclasses.replace(
        claim, check="coins-same-spread", claim="Four coins, heads counted."
    )
    result = check_claim(catalog, coins, settings)
    said = worded(catalog, result)
    texts += [said.summary, *dict(said.numbers)]
    assert texts and any("two pieces a side" in text for text in texts)
    assert any("four coins" in text for text in texts)
    for text in texts:
        assert not re.search(r"\d+-piece|\b\d+ (pieces?|coins)\b", text), text


def test_dice_odds_are_compared_exactly(catalog: Catalog) -> None:
    right = _claim("dice-odds", "a zero or a four 1 in 16, a one or a three 1 in 4, a two 3 in 8")
    wrong = _claim("dice-odds", "a zero or a four 1 in 8, a one or a three 1 in 4, a two 3 in 8")
    settings = CheckSettings(games=10, seed=1, cache_dir=None)
    assert check_claim(catalog, right, settings).verdict == SUPPORTED
    assert check_claim(catalog, wrong, settings).verdict == CONTRADICTED


def test_claimed_odds_reads_both_word_orders() -> None:
    assert claimed_odds("a 3 in 8 chance of throwing a 2") == {2: Fraction(3, 8)}
    assert claimed_odds("a one or a three 1 in 4") == {1: Fraction(1, 4), 3: Fraction(1, 4)}


def test_unknown_check_names_the_known_ones(catalog: Catalog) -> None:
    with pytest.raises(ValueError, match="dice-odds"):
        check_claim(catalog, _claim("vibes", "x"), CheckSettings(1, 1, None))


def test_minutes_claim_is_only_consistent_with_an_assumed_pace(catalog: Catalog) -> None:
    settings = CheckSettings(games=200, seed=1, cache_dir=None)
    result = check_claim(
        catalog, _claim("game-minutes", "A game takes 1 to 1000 minutes."), settings
    )
    assert result.verdict == CONSISTENT_WITH_ASSUMPTION
    far = check_claim(catalog, _claim("game-minutes", "A game takes 5000 minutes."), settings)
    assert far.verdict == NOT_CONSISTENT_WITH_ASSUMPTION


def test_a_minutes_claim_is_checked_at_every_piece_count_it_names(catalog: Catalog) -> None:
    """ "So long with seven pieces, and so long with three": both games are played, and the
    claim fits only if both parts fit."""
    settings = CheckSettings(games=200, seed=1, cache_dir=None)
    both = "A game takes 1 to 1000 minutes with seven pieces, and 1 to 500 with three."
    result = check_claim(catalog, _claim("game-minutes", both), settings)
    assert result.verdict == CONSISTENT_WITH_ASSUMPTION
    said = worded(catalog, result)
    numbers = dict(said.numbers)
    seven, three = (
        float(numbers[f"throws per game, with {n} pieces a side"].split()[0])
        for n in ("seven", "three")
    )
    assert seven > 1.5 * three, "the two piece counts were not both played"
    assert numbers["minutes claimed, with three pieces a side"] == "1 to 500"
    assert "; with three pieces a side: " in said.summary
    assert "with seven and three pieces a side," in said.method
    half = "A game takes 1 to 1000 minutes with seven pieces, and 5000 with three."
    far = check_claim(catalog, _claim("game-minutes", half), settings)
    assert far.verdict == NOT_CONSISTENT_WITH_ASSUMPTION
    claimed = dict(worded(catalog, far).numbers)["minutes claimed, with three pieces a side"]
    assert claimed == "5,000"  # figures from 1,000 up carry a separator (issue 12)


def test_tablet_claim_splits_route_and_piece_count() -> None:
    """On the repository's data: no quotation of the tablet gives a route (unsupported); the
    tablet as Finkel is quoted gives five pieces, so a seven-piece claim is contradicted."""
    real = repository_catalog()
    claim = next(c for c in real.variants["finkel-great-book"].claims if c.check == "tablet-route")
    result = check_claim(real, claim, CheckSettings(games=10, seed=1, cache_dir=None))
    assert result.finding.route.verdict == UNSUPPORTED
    assert result.finding.pieces.verdict == CONTRADICTED
    numbers = dict(worded(real, result).numbers)
    assert (numbers["route: verdict"], numbers["piece count: verdict"]) == (
        "unsupported",
        "contradicted",
    )
    assert result.verdict == CONTRADICTED


def test_claims_command_prints_verdict_and_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """`ur-variants claims ID` reproduces a claim's verdict and figures; unknown ids are refused."""
    from generator.cli import main

    assert main(["claims", "gb-claim-coins-same-spread", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("gb-claim-coins-same-spread: supported")
    assert "four coins, heads counted: 0: 1/16" in out
    assert main(["claims", "no-such-claim"]) == 2
    assert "unknown claim no-such-claim" in capsys.readouterr().err


def test_every_verdict_and_check_has_its_words(catalog: Catalog) -> None:
    """The claims page can word every verdict (vocabulary.yml's claim-verdicts) and every
    check's finding (claim-findings.txt.j2's three macros per check), and each check names the
    finding it gives."""
    from generator.claims.claim_checks import CHECKS, FINDINGS
    from generator.claims.verdicts import Verdict
    from generator.site.claims_page import findings_template

    words = Vocabulary.of(catalog.equipment)
    assert all(words.claim_verdict(verdict) for verdict in Verdict)
    macros = findings_template(words)
    assert set(FINDINGS) == set(CHECKS)
    missing = [
        f"{check.replace('-', '_')}_{part}"
        for check in CHECKS
        for part in ("summary", "method", "rows")
        if not hasattr(macros, f"{check.replace('-', '_')}_{part}")
    ]
    assert missing == []
