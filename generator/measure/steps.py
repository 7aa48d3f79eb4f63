"""The measurement step: one registry of measurements (:data:`STEPS`), run in order, checked.

A measurement is a :class:`~generator.measure.core.Step`: a name, a function from the
catalogue and the :class:`~generator.measure.core.Settings` to a result (computed, or read from
its cache under ``.cache/``), and a function listing that result's impossible figures. To add
one, write those two functions in a module of this package and append its step here; the site
reads its result with ``results.of(STEP)``, typed as the step's result.
"""

from __future__ import annotations

from typing import Any

from generator.measure.agents import AGENTS
from generator.measure.claims import CLAIMS
from generator.measure.core import Results, Settings, Step
from generator.measure.cross_checks import CROSS_CHECKS
from generator.measure.exact import EXACT
from generator.measure.exact_effects import EXACT_EFFECTS
from generator.measure.full_games import FULL_GAMES
from generator.measure.parting import PARTINGS
from generator.measure.play_hints import PLAY_HINTS
from generator.measure.solve_plan import SOLVE_PLAN
from generator.measure.stamps import STAMPS
from generator.measure.suite import SUITE
from generator.model.catalog_contents import Catalog
from generator.processes import Forked
from generator.sim.sanity import FigureError

STEPS: tuple[Step[Any], ...] = (
    SUITE,
    CROSS_CHECKS,
    AGENTS,
    EXACT,
    EXACT_EFFECTS,
    FULL_GAMES,
    SOLVE_PLAN,
    CLAIMS,
    PARTINGS,
    PLAY_HINTS,
    STAMPS,
)
"""Every measurement the build runs, in this order."""

HERE = frozenset({SUITE.name, CROSS_CHECKS.name})
"""The steps run in the build's own process when another runs the rest: the simulation
suite, which spreads its games over worker processes itself, and after it the engine
cross-checks (seconds of the engine from a cold cache, about the sum of the other steps
when the suite reads committed runs)."""


def measure(catalog: Catalog, settings: Settings, steps: tuple[Step[Any], ...] = STEPS) -> Results:
    """Run every measurement, then check all their figures: raise
    :class:`~generator.sim.sanity.FigureError` naming each impossible one, so nothing is
    published from a damaged measurement.

    The steps are independent. With more than one job, those of :data:`HERE` (or else the
    first) run here while the others run one after another in a forked process, using the
    core the suite's workers leave idle while it compiles and between its batches; each step
    computes the same result either way.
    """

    def run(chosen: list[Step[Any]]) -> dict[str, Any]:
        return {step.name: step.run(catalog, settings) for step in chosen}

    here = [step for step in steps if step.name in HERE] or list(steps[:1])
    rest = [step for step in steps if step not in here]
    if settings.jobs > 1 and rest:
        with Forked(lambda: run(rest)) as later:
            by_step = run(here)
            by_step.update(later.result())
    else:
        by_step = run(list(steps))
    problems = [p for step in steps for p in step.problems(by_step[step.name])]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise FigureError(f"impossible figure, not published: {problems[0]}{more}")
    return Results(settings.seed, by_step)
