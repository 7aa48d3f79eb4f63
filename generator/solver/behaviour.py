"""What the solver computes on pinned inputs, as one digest (the solver's part of the keys'
code half, :mod:`generator.engine.behaviour` explains the choice): for each pinned rulebook
played with two pieces a side, the exact solve's values and expected lengths
(:func:`generator.solver.solve.solve`, no cache read), the policy evaluation's start figures
(:func:`generator.solver.policy_eval.evaluate`) and the fitted agent's weights and exact
scores (:func:`generator.solver.fitted_agent.fit`)."""

from __future__ import annotations

import functools
from dataclasses import astuple
from typing import Any

from generator.engine.behaviour import behaviour_digest, pinned_rules
from generator.sim.behaviour import DIGESTS as SIMULATOR
from generator.sim.behaviour import rounded
from generator.solver.fitted_agent import fit
from generator.solver.policy_eval import evaluate
from generator.solver.solve import solve, with_pieces
from generator.solver.solve_estimate import estimate

PIECES = 2
"""Pieces a side in the pinned game: a small solve that still captures, enters and bears off
(compiling the solver's kernels, once per change to them, is most of the cost: minutes on a
loaded machine; then about three seconds a rulebook)."""


FIT_DIGITS = 6
"""Digits kept of the fitted agent's weights and scores: a least-squares fit's last digits
depend on the processor's linear-algebra kernels (an Intel machine computed a digest other than
the one stamped on 2026-12-05, from the same solver values), and the scores follow the
weights."""


@functools.cache
def solver_digest() -> str:
    """The solver's behaviour on the pinned rulebooks with :data:`PIECES` pieces."""
    outputs: dict[str, Any] = {}
    for rules in pinned_rules():
        small = with_pieces(rules, PIECES)
        solution = solve(small, cache_dir=None)
        found = fit(small).as_dict()
        figures = evaluate(small).figures().as_dict()
        for measured in (found, figures):
            del measured["cpu_seconds"]  # a measurement of the machine, not of the game
        outputs[rules.variant] = {
            **rounded(
                {
                    "values": solution.values.tolist(),
                    "lengths": solution.lengths.tolist(),
                    "figures": figures,
                }
            ),
            "fit": rounded(found, FIT_DIGITS),
        }
    return behaviour_digest(outputs)


@functools.cache
def estimate_digest() -> str:
    """What the memory estimate (:func:`generator.solver.solve_estimate.estimate`) counts on the
    pinned rulebooks with two and three pieces a side, as one digest, apart from
    :func:`solver_digest` (whose solves take minutes to compile): a size counted beforehand and
    kept in the results (:class:`generator.solver.full_games.Pending`) is current while it is
    the same, so a change to what the estimate counts has every size counted again, with no
    version number to bump. About five seconds."""
    return behaviour_digest(
        {
            f"{rules.variant}/{pieces}": astuple(estimate(with_pieces(rules, pieces)))
            for rules in pinned_rules()
            for pieces in (2, 3)
        }
    )


DIGESTS = {**SIMULATOR, "solver": solver_digest}
"""The behaviour digests of the layers up to the solver."""
