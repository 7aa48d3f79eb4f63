"""The claims about the dice, checked exactly against the variant's outcome table: the odds a
claim states (``dice-odds``) and coins thrown with heads counted giving the same spread
(``coins-same-spread``)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from generator.claims.verdicts import (
    CONTRADICTED,
    PARTLY,
    SUPPORTED,
    UNCHECKED,
    CheckSettings,
    ClaimResult,
    unreadable,
)
from generator.engine.rules import compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.claim_words import (
    ODDS,
    coin_count,
    coin_problem,
    odds_problems,
)
from generator.model.variant import Claim
from generator.words import WORD_NUMBERS


def claimed_odds(text: str) -> dict[int, Fraction]:
    """Read the odds a claim states, in either order of words.

    >>> sorted(claimed_odds("a four or a zero has a 1 in 16 chance, a two 3 in 8").items())
    [(0, Fraction(1, 16)), (2, Fraction(3, 8)), (4, Fraction(1, 16))]
    >>> sorted(claimed_odds("a 1 in 4 chance of throwing a one, a 3 in 8 chance of a 2").items())
    [(1, Fraction(1, 4)), (2, Fraction(3, 8))]
    """
    matches = list(ODDS.finditer(text))
    if not matches:
        return {}
    names_first = bool(_throw_names(text[: matches[0].start()]))
    found: dict[int, Fraction] = {}
    for i, match in enumerate(matches):
        if names_first:
            segment = text[matches[i - 1].end() if i else 0 : match.start()]
        else:
            segment = text[match.end() : matches[i + 1].start() if i + 1 < len(matches) else None]
        for name in _throw_names(segment):
            found[name] = Fraction(int(match.group(1)), int(match.group(2)))
    return found


def _throw_names(segment: str) -> list[int]:
    """Throws named in words ("a four") or as lone digits ("a 2") in ``segment``."""
    names = []
    for word in re.findall(r"[a-z]+|\d+", segment.lower()):
        if word in WORD_NUMBERS:
            names.append(WORD_NUMBERS[word])
        elif word.isdigit():
            names.append(int(word))
    return names


@dataclass(frozen=True)
class ThrowOdds:
    """One throw's odds: as the claim states them (``None``: not stated) and exactly."""

    throw: int
    claimed: Fraction | None
    exact: Fraction


@dataclass(frozen=True)
class DiceOdds:
    """The stated odds against the exact ones, throw by throw."""

    throws: tuple[ThrowOdds, ...]
    wrong: tuple[int, ...]
    """The throws whose stated odds differ from the exact ones, in order."""
    covered: bool
    """Whether the claim states odds for every throw the dice can give."""


def check_dice_odds(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    for problem in odds_problems(claim.claim):
        raise ValueError(unreadable(catalog, claim, problem))
    rules = compile_rules(catalog.resolve(claim.variant))
    exact = dict(rules.throws)
    stated = claimed_odds(claim.claim)
    wrong = {t: p for t, p in stated.items() if exact.get(t, Fraction(0)) != p}
    covered = set(stated) == {t for t, p in exact.items() if p > 0}
    finding = DiceOdds(
        tuple(ThrowOdds(t, stated.get(t), p) for t, p in sorted(exact.items())),
        tuple(sorted(wrong)),
        covered,
    )
    if not stated:
        return ClaimResult(claim.id, claim.variant, claim.check, UNCHECKED, finding)
    verdict = SUPPORTED if not wrong and covered else (PARTLY if not wrong else CONTRADICTED)
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, finding, True)


@dataclass(frozen=True)
class CoinsSpread:
    """The chances of each count of heads of ``coins`` fair coins, and of each throw of the
    rulebook's dice (throws that cannot happen left out)."""

    coins: int
    spread: tuple[tuple[int, Fraction], ...]
    dice: tuple[tuple[int, Fraction], ...]


def check_coins_spread(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """Coins thrown and heads counted against the variant's dice, outcome by outcome, exactly.
    The number of coins is the first number word of the claim ("Four coins ...")."""
    coins = coin_count(claim.claim)
    if coins is None:
        raise ValueError(unreadable(catalog, claim, coin_problem(claim.claim) or ""))
    rules = compile_rules(catalog.resolve(claim.variant))
    spread = {k: Fraction(math.comb(coins, k), 2**coins) for k in range(coins + 1)}
    dice = {throw: Fraction(p) for throw, p in rules.throws if p > 0}
    finding = CoinsSpread(coins, tuple(sorted(spread.items())), tuple(sorted(dice.items())))
    verdict = SUPPORTED if spread == dice else CONTRADICTED
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, finding, True)
