"""Checks of the factual claims the sources make (the ``claims`` of variant files).

Each check is computed with the rules engine or the simulator, never asserted by hand, and
returns a verdict (:class:`~generator.claims.verdicts.Verdict`) with the figures behind it (a
dataclass of the check's own, :data:`FINDINGS`), which the claims page words. Exhaustive where
feasible (every reachable position of the two-piece game), sampled with 95 % Wilson or normal
intervals otherwise.
This module names the checks (:data:`CHECKS`) and runs one (:func:`check_claim`); each lives
in a module of its own.

Checks by name (``check:`` in a claim):

- ``dice-odds`` (:mod:`generator.claims.dice`): the odds the claim states (read from its
  words, "1 in 16") against the exact outcome table of the variant's dice.
- ``game-minutes`` (:mod:`generator.claims.game_minutes`): simulated game length in throws,
  turned into minutes at an explicit seconds-per-throw assumption, at every piece count the
  claim gives minutes for.
- ``central-rosette-decides`` (:mod:`generator.claims.central_rosette`): exactly, in perfect
  play, whether the side that first stands on the central rosette (the rosette both routes
  pass through) goes on to win more than the claim's reading of "most" (its ``reading``) of
  the games in which either side stands on it, by a forward pass over the solved game
  (:mod:`generator.claims.holder_wins`), with two, three and four pieces a side and with the
  rulebook's own when its full game's solve was at hand; beside it, the holder's chance per
  throw and the worth of holding the square (:mod:`generator.claims.rosette_worth`). The
  figures are committed in ``results/rosette-worth.json`` (written by ``ur-variants claims
  --write-results``), each under the key of the game and square it weighs; a build computes
  only the quick ones missing there, so a cold build need not compile the solver.
- ``play-cannot-lock`` (:mod:`generator.claims.reachability`): no reachable position where
  neither side can ever move (exhaustive for the variant's rules with two pieces a side;
  sampled for its own piece count, including how often pieces in hand can enter).
- ``no-draw`` (the same module): no move of a reachable position leaves both sides finished,
  from every reachable position a win can still be reached, and every sampled game ended with
  one winner.
- ``coins-same-spread`` (:mod:`generator.claims.dice`): coins thrown and heads counted against
  the variant's dice, exactly.
- ``tablet-route`` (:mod:`generator.claims.tablet_route`): the variant's route and piece count
  against what quotations of the tablet (in tablet-reading rulings) say on each.

The sampled figures (greedy games' lengths, how often pieces in hand can enter) and the
exhaustive reachability tallies are committed the same way in ``results/claim-figures.json``
(written by the same command), each under the key of the rules, the engine's, simulator's and
checks' versions, the games and the seed (:mod:`generator.claims.figures`): a cold build reads
them while current and plays no games; a stale one is computed (and said so), and a damaged
file is reported and computed around.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.claims.central_rosette import CentralRosette, check_central_rosette
from generator.claims.dice import CoinsSpread, DiceOdds, check_coins_spread, check_dice_odds
from generator.claims.game_minutes import GameMinutes, check_game_minutes
from generator.claims.reachability import NoDraw, Unlocked, check_no_draw, check_play_cannot_lock
from generator.claims.tablet_route import TabletRoute, check_tablet_route
from generator.claims.verdicts import CheckSettings, ClaimResult
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim

CHECKS: dict[str, Callable[[Catalog, Claim, CheckSettings], ClaimResult]] = {
    "dice-odds": check_dice_odds,
    "game-minutes": check_game_minutes,
    "central-rosette-decides": check_central_rosette,
    "play-cannot-lock": check_play_cannot_lock,
    "no-draw": check_no_draw,
    "tablet-route": check_tablet_route,
    "coins-same-spread": check_coins_spread,
}

FINDINGS: dict[str, type[Any]] = {
    "dice-odds": DiceOdds,
    "game-minutes": GameMinutes,
    "central-rosette-decides": CentralRosette,
    "play-cannot-lock": Unlocked,
    "no-draw": NoDraw,
    "tablet-route": TabletRoute,
    "coins-same-spread": CoinsSpread,
}
"""What each check finds (:attr:`ClaimResult.finding`): the figures the claims page words."""


def check_claim(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """The claim's verdict; an unknown check name is an error naming the known ones."""
    check = CHECKS.get(claim.check)
    if check is None:
        raise ValueError(
            f"claim {claim.id}: unknown check {claim.check!r}; known: {', '.join(sorted(CHECKS))}"
        )
    return check(catalog, claim, settings)
