"""What the simulator computes on pinned inputs, as one digest (the kernel's part of the keys'
code half, :mod:`generator.engine.behaviour` explains the choice): for each pinned rulebook,
the positions the kernel reaches in three plies
(:func:`generator.sim.kernel_perft.kernel_perft_levels`) and the summary of a few seeded games
of each agent that needs no fit against the random agent (:func:`generator.sim.stats.summarise`,
the figures a record keeps)."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from generator.engine.behaviour import behaviour_digest, engine_digest, pinned_rules
from generator.sim import fast
from generator.sim.agents import FastAgent
from generator.sim.encode import encode_rules
from generator.sim.kernel_perft import kernel_perft_levels
from generator.sim.stats import summarise

GAMES = 40
SEED = 20261205
PERFT_DEPTH = 3
SIGNIFICANT = 10
"""Digits kept of a fraction: a sum's last bits may differ from one processor to another."""


def rounded(value: Any, digits: int = SIGNIFICANT) -> Any:
    """``value`` with every float to ``digits`` significant digits (lists and dicts through)."""
    if isinstance(value, float):
        return float(f"{value:.{digits}g}")
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, digits) for v in value]
    return value


@functools.cache
def kernel_digest() -> str:
    """The kernel's behaviour on the pinned rulebooks."""
    outputs = {}
    for rules in pinned_rules():
        packed = encode_rules(rules).packed()
        levels = kernel_perft_levels(rules, PERFT_DEPTH)
        games = {
            agent.label: summarise(fast.play_games(packed, int(agent), fast.RANDOM, SEED, 0, GAMES))
            for agent in FastAgent
            if agent != FastAgent.FITTED
        }
        outputs[rules.variant] = {
            "perft": [hashlib.sha256(level.tobytes()).hexdigest() for level in levels],
            "games": rounded(games),
        }
    return behaviour_digest(outputs)


DIGESTS = {"engine": engine_digest, "kernel": kernel_digest}
"""The behaviour digests of the layers up to the simulator
(:data:`generator.sim.results_files.Digests`)."""
