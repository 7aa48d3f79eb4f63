"""The no-draw claim's check (generator/claims/reachability.py) finds a draw where the rules
allow one: a rule under which both sides can finish on the same move, and dice under which no
game can ever be won, each make it fail; the rules as published pass."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest

from generator.claims import reachability as reachability_module
from generator.claims.claim_checks import check_claim
from generator.claims.reachability import _small, reachability
from generator.claims.verdicts import CONTRADICTED, SUPPORTED, CheckSettings, ClaimResult
from generator.engine.moves import apply_move as engine_apply_move
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules, Side, compile_rules
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim

DATA = Path(__file__).parent / "data" / "site" / "variants"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_valid_catalog(DATA)


def _no_draw(catalog: Catalog) -> Claim:
    claim = next(c for c in catalog.variants["fixture-game"].claims if c.check == "no-draw")
    return claim


def _check(catalog: Catalog) -> ClaimResult:
    return check_claim(catalog, _no_draw(catalog), CheckSettings(games=20, seed=1, cache_dir=None))


def _finishing_together(rules: Rules, position: Position, move: object, throw: int) -> Position:
    """A house rule that allows a draw: the move that bears off a side's last piece also bears
    off the enemy's pieces standing on the last square of their route, so both sides can
    finish on the same move (the engine's own rules end the game at the first)."""
    after = engine_apply_move(rules, position, move, throw)  # type: ignore[arg-type]
    mover = position.to_move
    if not all(p == rules.off for p in after.pieces(mover)):
        return after
    theirs = tuple(rules.off if p == rules.route_length else p for p in after.pieces(mover.other))
    return after.with_pieces(mover.other, theirs, after.to_move)


def test_the_published_rules_allow_no_draw(catalog: Catalog) -> None:
    result = _check(catalog)
    assert result.verdict == SUPPORTED
    assert result.finding.reachability.drawn_moves == 0


def test_a_rule_letting_both_sides_finish_together_is_found(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reachability_module, "apply_move", _finishing_together)
    result = _check(catalog)
    assert result.verdict == CONTRADICTED
    assert result.finding.reachability.drawn_moves > 0


def test_dice_that_can_never_bear_off_make_every_game_endless(catalog: Catalog) -> None:
    """Throws of 0 and 2 only, with exact bearing off one step past an even route: no piece
    can ever leave, so no game can be won and every one is drawn by never ending."""
    rules = _small(compile_rules(catalog.resolve("fixture-game")))
    assert rules.exact_bear_off and (rules.route_length + 1) % 2 == 1
    even = dataclasses.replace(rules, throws=((0, Fraction(1, 2)), (2, Fraction(1, 2))))
    found = reachability(even)
    assert found.unending == found.positions > 0
    assert found.drawn_moves == 0
    start = start_position(even)
    assert all(p == 0 for s in Side for p in start.pieces(s))
