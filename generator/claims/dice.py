"""The claims about the dice, checked exactly against the variant's outcome table: the odds a
claim states (``dice-odds``) and coins thrown with heads counted giving the same spread
(``coins-same-spread``)."""

from __future__ import annotations

import math
import re
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
from generator.words import WORD_NUMBERS, listing, number_word


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


def check_dice_odds(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    for problem in odds_problems(claim.claim):
        raise ValueError(unreadable(catalog, claim, problem))
    rules = compile_rules(catalog.resolve(claim.variant))
    exact = dict(rules.throws)
    stated = claimed_odds(claim.claim)
    numbers = {
        f"throw {t}": f"claimed {stated.get(t, '—')}, exact {p}" for t, p in sorted(exact.items())
    }
    if not stated:
        return ClaimResult(
            claim.id,
            claim.variant,
            claim.check,
            UNCHECKED,
            "The claim's words give no odds in the form 'N in M'.",
            "",
            numbers,
        )
    wrong = {t: p for t, p in stated.items() if exact.get(t, Fraction(0)) != p}
    covered = set(stated) == {t for t, p in exact.items() if p > 0}
    verdict = SUPPORTED if not wrong and covered else (PARTLY if not wrong else CONTRADICTED)
    summary = (
        "Every stated probability equals the exact odds of the dice."
        if not wrong
        else "Stated odds differ from the exact odds for throws "
        + listing(sorted(wrong), None)
        + "."
    )
    if not wrong and not covered:
        summary += " Some throws the dice can give are not mentioned."
    method = "Exact outcome table of the variant's dice (binomial counts of the marked lots)."
    return ClaimResult(
        claim.id, claim.variant, claim.check, verdict, summary, method, numbers, True
    )


def check_coins_spread(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """Coins thrown and heads counted against the variant's dice, outcome by outcome, exactly.
    The number of coins is the first number word of the claim ("Four coins ...")."""
    coins = coin_count(claim.claim)
    if coins is None:
        raise ValueError(unreadable(catalog, claim, coin_problem(claim.claim) or ""))
    rules = compile_rules(catalog.resolve(claim.variant))
    spread = {k: Fraction(math.comb(coins, k), 2**coins) for k in range(coins + 1)}
    dice = {throw: Fraction(p) for throw, p in rules.throws if p > 0}
    same = spread == dice

    def table(odds: dict[int, Fraction]) -> str:
        return listing([f"{throw}: {odds[throw]}" for throw in sorted(odds)], None)

    named = number_word(coins)
    numbers = {f"{named} coins, heads counted": table(spread), "this rulebook's dice": table(dice)}
    summary = (
        f"Exactly the same: {named} coins give every throw with the chance the dice give it."
        if same
        else f"Not the same: {named} coins and the dice give different chances."
    )
    method = (
        "Exact fractions: the chance of k heads in n fair coins, C(n, k) / 2^n, against the"
        " rulebook's dice table, throw by throw. The dice table itself rests on the rulebook's"
        " dice ruling (how often each die falls marked)."
    )
    return ClaimResult(
        claim.id,
        claim.variant,
        claim.check,
        SUPPORTED if same else CONTRADICTED,
        summary,
        method,
        numbers,
        True,
    )
