"""Reader-facing facts derived from a resolved variant: dice odds and route shape.

These are computed from the equipment and the rulings, never typed by hand, so a page can
never disagree with the data the engine plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from generator.model.equipment import Dice, Route
from generator.model.variant import ResolvedVariant


@dataclass(frozen=True)
class Odds:
    """One throw with its exact probability."""

    throw: int
    probability: Fraction

    @property
    def fraction(self) -> str:
        return f"{self.probability.numerator}/{self.probability.denominator}"

    @property
    def percent(self) -> str:
        return f"{float(self.probability) * 100:.2f} %"


def dice_odds(dice: Dice) -> list[Odds]:
    """Each throw of ``dice`` with its exact probability, equal throws merged."""
    return [Odds(throw, p) for throw, p in dice.table()]


def mean_throw(dice: Dice) -> Fraction:
    """The expected number of squares one throw moves (a throw of 0 moves nothing)."""
    return sum((t * p for t, p in dice.table()), Fraction(0))


def fraction_text(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


@dataclass(frozen=True)
class RouteShape:
    """How a route divides into private and shared squares (the shared ones are contested)."""

    length: int
    shared: int
    private_before: int
    private_after: int
    rosette_steps: tuple[int, ...]


def route_shape(route: Route, rosettes: frozenset[str]) -> RouteShape:
    """Count the shared squares and the private runs before and after them (light's route)."""
    shared = route.shared_cells()
    steps = [cell in shared for cell in route.light]
    first = steps.index(True) if any(steps) else len(steps)
    last = len(steps) - 1 - steps[::-1].index(True) if any(steps) else len(steps) - 1
    return RouteShape(
        length=route.length,
        shared=len(shared),
        private_before=first,
        private_after=len(steps) - 1 - last,
        rosette_steps=tuple(i + 1 for i, cell in enumerate(route.light) if cell in rosettes),
    )


def minimum_pips(variant: ResolvedVariant) -> int:
    """Squares every piece must travel to bear off, summed: pieces x (route length + 1)."""
    pieces: int = variant.value("pieces")
    return pieces * (variant.route.length + 1)
