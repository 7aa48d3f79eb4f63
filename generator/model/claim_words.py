"""Numbers a claim's check reads from the claim's own words or reading, and their bounds.

A claim is checked by play (:mod:`generator.claims.claim_checks`), some of it from numbers in its
words: the coins of "Four coins, heads counted, ...", the odds of "a 1 in 16 chance". A number
out of bounds would hang a check (fifty million coins are 2**50,000,000 outcomes) or crash it
(no number at all, odds of "1 in 0"), and a reading's threshold that is not a number between
0 and 1 (``.nan`` is one in YAML) would turn its verdict. So each is checked when the
catalogue loads (:func:`check_claim_numbers`, one ``file:line`` message each), and the checks
read them only through these functions.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from generator.model.variant import Variant
from generator.model.yamlsource import Document, Problem, shown
from generator.words import WORD_NUMBERS

MAX_COINS = 32
"""Coins a claim may name: more than any set of dice here throws (four or five), and few
enough that the exact spread (a binomial count per outcome) is instant."""

MAX_ODDS = 10**6
"""The largest "M" of odds "N in M" a claim may state."""

ODDS = re.compile(r"(\d+)\s+in\s+(\d+)")
"""Odds as a claim states them: "1 in 16"."""

_DIGITS = 7
"""Digits read from a number in a claim's words; a longer one is out of every bound (and
Python refuses to read an integer of thousands of digits)."""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+|\d+", text.lower())


def coin_word(text: str) -> str | None:
    """The first number of ``text``, in figures or as a word of two or more ("Four coins"), as
    written; ``None`` when it names none."""
    return next(
        (w for w in _words(text) if w.isdigit() or WORD_NUMBERS.get(w, 0) >= 2),
        None,
    )


def coin_count(text: str) -> int | None:
    """The number of coins ``text`` names (:func:`coin_word`), or ``None`` when it names none
    or more than :data:`MAX_COINS`."""
    word = coin_word(text)
    if word is None:
        return None
    count = (int(word) if len(word) <= _DIGITS else None) if word.isdigit() else WORD_NUMBERS[word]
    return count if count is not None and 1 <= count <= MAX_COINS else None


def coin_problem(text: str) -> str | None:
    """What is wrong with the coins ``text`` names, or ``None``."""
    word = coin_word(text)
    if word is None:
        return (
            "names no number of coins; give it in words or figures, as in 'Four coins, heads"
            " counted, ...'"
        )
    if coin_count(text) is None:
        return f"names {shown(word)} coins; name from 1 to {MAX_COINS}"
    return None


def odds_problems(text: str) -> Iterator[str]:
    """What is wrong with each of the odds ``text`` states ("N in M")."""
    for match in ODDS.finditer(text):
        n, m = match.group(1), match.group(2)
        if len(n) > _DIGITS or len(m) > _DIGITS or not 1 <= int(m) <= MAX_ODDS or int(n) > int(m):
            yield (
                f"odds {shown(match.group(0))}: state them as 'N in M' with M from 1 to"
                f" {MAX_ODDS:,} and N at most M"
            )


def threshold_problem(threshold: float) -> str | None:
    """What is wrong with a reading's threshold, or ``None``: it is a share of games, a finite
    number strictly between 0 and 1 (``NaN`` compares false with every bound, so it is named
    here, not left to the schema's)."""
    if math.isfinite(threshold) and 0 < threshold < 1:
        return None
    return (
        f"the reading's threshold {shown(threshold)} is not a share strictly between 0 and 1;"
        " give one, e.g. 0.5 for 'more than half'"
    )


CHECKS_READING_COINS = ("coins-same-spread",)
CHECKS_READING_ODDS = ("dice-odds",)


def check_claim_numbers(catalog: object, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Each claim's numbers within their bounds: its reading's threshold, the coins or the
    odds its check reads from its words."""
    for i, claim in enumerate(variant.claims):
        path: tuple[str | int, ...] = ("claims", i)
        if claim.reading is not None:
            problem = threshold_problem(claim.reading.threshold)
            if problem is not None:
                yield doc.problem((*path, "reading", "threshold"), f"claim {claim.id}: {problem}")
        if claim.check in CHECKS_READING_COINS:
            problem = coin_problem(claim.claim)
            if problem is not None:
                yield doc.problem((*path, "claim"), f"claim {claim.id} {problem}")
        if claim.check in CHECKS_READING_ODDS:
            for problem in odds_problems(claim.claim):
                yield doc.problem((*path, "claim"), f"claim {claim.id}: {problem}")
