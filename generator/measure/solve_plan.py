"""The costed plan of the full games past one machine, as a measurement that reads the
committed ``results/solve-plan.json`` and computes nothing (``ur-variants solve ... --plan
--write-results`` writes it: :mod:`generator.solver.plan_cost`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.solver.plan_cost import PLAN_FILE, read_plan


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
    def fitting(self) -> dict[str, dict[str, Any]]:
        """The games some number of the machines holds."""
        return {vid: game for vid, game in self.games.items() if game["machines"] is not None}

    @property
    def unfit(self) -> dict[str, dict[str, Any]]:
        """The games no number of the machines holds: each would hold more than its memory
        alone."""
        return {vid: game for vid, game in self.games.items() if game["machines"] is None}

    @property
    def largest(self) -> str:
        """The rulebook of the fitting game with the most positions."""
        return max(self.fitting, key=lambda vid: int(self.games[vid]["states"]))

    @property
    def smallest(self) -> str:
        """The rulebook of the fitting game with the fewest positions."""
        return min(self.fitting, key=lambda vid: int(self.games[vid]["states"]))

    @property
    def coded_states(self) -> int:
        """The states a machine's 32-bit choice codes name."""
        from generator.solver.solve_sweeps import CODED_STATES

        return CODED_STATES


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
    """A game with no machines, no states or a negative time or price; a game that fits no
    machine though what each would hold is within its memory."""
    if found is None:
        return []
    fitting = [
        f"solve plan of {vid}: {name} is {game[name]}"
        for vid, game in found.fitting.items()
        for name in ("machines", "states", "wall_hours", "dollars")
        if not game[name] > 0
    ]
    memory = int(found.machine["memory_gib"]) * 2**30
    unfit = [
        f"solve plan of {vid}: no machine fits, yet each would hold only"
        f" {game['every_machine_bytes']:,} bytes alone"
        for vid, game in found.unfit.items()
        if not game["every_machine_bytes"] > memory
    ]
    none = [] if found.fitting else ["solve plan: no game fits any number of machines"]
    return fitting + unfit + none


SOLVE_PLAN = Step("solve plan", read_solve_plan, plan_problems)
