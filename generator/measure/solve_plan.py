"""The costed plan of the full games past one machine, as a measurement that reads the
committed ``results/solve-plan.json`` and computes nothing (``ur-variants solve ... --plan
--write-results`` writes it: :mod:`generator.solver.plan_cost`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.solver.plan_cost import PLAN_FILE, read_plan
from generator.solver.solve_plan import held_whole, over_codes


@dataclass(frozen=True)
class CostedPlan:
    """The plan's figures for each game, the machine and price assumed, the speed timed by
    and the command and date that made them."""

    games: dict[str, dict[str, Any]]
    machine: dict[str, Any]
    rate: dict[str, Any]
    command: str
    date: str

    @property
    def largest(self) -> str:
        """The rulebook whose game has the most positions."""
        return max(self.games, key=lambda vid: int(self.games[vid]["states"]))

    @property
    def smallest(self) -> str:
        """The rulebook whose game has the fewest positions."""
        return min(self.games, key=lambda vid: int(self.games[vid]["states"]))

    @property
    def coded_states(self) -> int:
        """The states of a layer and the next that the solver's choice codes name."""
        from generator.solver.solve_sweeps import CODED_STATES

        return CODED_STATES

    @property
    def all_over_codes(self) -> bool:
        """Whether every game's largest layer alone is more than the choice codes name
        (:func:`generator.solver.solve_plan.over_codes`)."""
        return all(over_codes(int(game["largest_layer"])) for game in self.games.values())

    def held_whole(self, vid: str) -> int:
        """The bytes each machine of today's solver would list of ``vid``'s game whatever the
        machines (:func:`generator.solver.solve_plan.held_whole`)."""
        return held_whole(int(self.games[vid]["largest_layer"]))


def read_solve_plan(catalog: Catalog, settings: Settings) -> CostedPlan | None:
    """The committed costed plan of the rulebooks the catalogue still holds, or ``None``."""
    if not PLAN_FILE.exists():
        return None  # no plan run yet: the method page says nothing of it
    found = read_plan()
    if found is None:
        settings.log(f"solve plan: {PLAN_FILE.name} is damaged or of another layout; not shown")
        return None
    games = {vid: game for vid, game in found["games"].items() if vid in catalog.variants}
    return CostedPlan(
        games, found["rented_machine"], found["rate"], found["command"], found["date"]
    )


def plan_problems(found: CostedPlan | None) -> list[str]:
    """A game with no machines, no states or a negative time or price."""
    if found is None:
        return []
    return [
        f"solve plan of {vid}: {name} is {game[name]}"
        for vid, game in found.games.items()
        for name in ("machines", "states", "wall_hours", "dollars")
        if not game[name] > 0
    ]


SOLVE_PLAN = Step("solve plan", read_solve_plan, plan_problems)
