"""The exact solver: every position's chance of winning under perfect play, computed rather
than sampled, and what is read from it.

:mod:`generator.solver.solve` solves a variant layer by layer (its kernels in
:mod:`generator.solver.solve_kernels`, :mod:`generator.solver.solve_sweeps`, its sweep order in
:mod:`generator.solver.solve_waves`); :mod:`generator.solver.cluster` solves one on several
processes or machines, each a share of every layer (:mod:`generator.solver.layer_split`);
:mod:`generator.solver.policy_eval` evaluates any fixed way of playing exactly;
:mod:`generator.solver.fitted_agent` fits the fitted agent on the solved values;
:mod:`generator.solver.exact_effects` and :mod:`generator.solver.full_games` write the exact
results the site reads.

Importing the package hands the simulation's perfect and fitted agents
(:mod:`generator.sim.agents`, a layer below, which imports nothing from here) the solved game
and the fitted weights they play from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.sim.agents import ExactPlay, use_exact_play

if TYPE_CHECKING:
    from generator.engine.rules import Rules
    from generator.sim.agents import PositionValue
    from generator.sim.encode import FloatArray


def _solution(rules: Rules) -> PositionValue:
    from generator.solver.solve import solve

    return solve(rules)


def _fitted_weights(rules: Rules) -> FloatArray:
    from generator.solver.fitted_agent import weights_for

    return weights_for(rules)


use_exact_play(ExactPlay(solution=_solution, fitted_weights=_fitted_weights))
