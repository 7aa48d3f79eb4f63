"""The one-ruling effects as the pages read them: each measured effect joined with its exact
record (:func:`generator.measure.exact_effects.with_exact`), its effect on the full game
(:func:`generator.measure.full_games.with_full`) and its significance among every change
measured (:class:`Significance`), grouped by question.

A page never weighs an interval against chance itself: whether a difference is measurable is
decided here, once, with the family of every change that alters play
(:func:`generator.sim.stats.beyond_chance`), and the page words the verdict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from generator.measure.core import Results
from generator.measure.exact_effects import EXACT_EFFECTS, with_exact
from generator.measure.full_games import FULL_GAMES, with_full
from generator.measure.suite import SUITE
from generator.sim.stats import beyond_chance, family_size
from generator.sim.suite import Effect

__all__ = [
    "Effect",
    "Judged",
    "QuestionEffects",
    "Significance",
    "judge",
    "question_effects",
    "significance",
]


class Significance(Enum):
    """What a measured difference's 95 % interval says, among ``family`` changes measured."""

    NO_EFFECT = "no-effect"
    """Zero lies inside the interval."""
    WITHIN_CHANCE = "within-chance"
    """Zero lies outside it, but so many intervals would leave out zero by chance alone."""
    MEASURABLE = "measurable"
    """It stands clear of zero even among every change measured."""

    @property
    def excludes_zero(self) -> bool:
        return self is not Significance.NO_EFFECT

    @property
    def measurable(self) -> bool:
        return self is Significance.MEASURABLE


def significance(interval: Mapping[str, float], family: int) -> Significance:
    """One interval (``estimate``, ``low``, ``high``) judged among ``family`` changes."""
    if interval["low"] <= 0 <= interval["high"]:
        return Significance.NO_EFFECT
    if beyond_chance(interval, family):
        return Significance.MEASURABLE
    return Significance.WITHIN_CHANCE


@dataclass(frozen=True)
class Judged:
    """One effect's two figures, each judged (:attr:`Effect.significance`)."""

    win_rate: Significance
    """The change in the first player's wins."""
    throws: Significance
    """The change in throws per game."""


def judge(effect: Effect, family: int) -> Effect:
    """``effect`` carrying the significance of its figures among ``family`` changes."""
    judged = Judged(significance(effect.win_rate, family), significance(effect.throws, family))
    return dataclasses.replace(effect, significance=judged)


@dataclass(frozen=True)
class QuestionEffects:
    """Every measured one-ruling effect by question, joined and judged (empty when the build
    did not measure), and how many changes that alter play each was judged among."""

    by_question: dict[str, list[Effect]] = field(default_factory=dict)
    family: int = 0


def question_effects(results: Results | None) -> QuestionEffects:
    """The suite's effects by question, each with its exact record, its full-game effect and
    its significance (none when the build did not run the suite)."""
    suite = results.get(SUITE) if results else None
    if results is None or suite is None:
        return QuestionEffects()
    exact = results.get(EXACT_EFFECTS)
    solved = results.get(FULL_GAMES)
    joined = {q: with_full(with_exact(e, exact), solved) for q, e in suite.by_question().items()}
    family = family_size(e for effects in joined.values() for e in effects)
    return QuestionEffects(
        {q: [judge(e, family) for e in effects] for q, effects in joined.items()}, family
    )
