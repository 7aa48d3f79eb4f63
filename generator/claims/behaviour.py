"""What the claim checks compute on pinned inputs, as one digest (the claims' part of the keys'
code half, :mod:`generator.engine.behaviour` explains the choice): for each pinned rulebook,
the exhaustive reachability tallies with two pieces a side
(:func:`generator.claims.reachability.reachability`) and the seeded greedy games' lengths
(:func:`generator.claims.game_minutes.game_lengths`); and the odds read from a pinned claim's
wording (:func:`generator.claims.dice.claimed_odds`)."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from generator.claims.dice import claimed_odds
from generator.claims.game_minutes import game_lengths
from generator.claims.reachability import reachability
from generator.engine.behaviour import behaviour_digest, pinned_rules
from generator.sim.behaviour import rounded
from generator.sim.results_files import KINDS, stamp_of
from generator.solver.behaviour import DIGESTS as SOLVER
from generator.solver.solve import with_pieces

PIECES = 2
GAMES = 40
SEED = 20261205
CLAIMED = "a throw of 2 comes up 6 times in 16, a 1 or a 3 four times in 16"
"""A sentence of the kind the dice claims read (its odds, as parsed, are part of the digest)."""


@functools.cache
def claims_digest() -> str:
    """The claim checks' behaviour on the pinned rulebooks."""
    outputs: dict[str, Any] = {
        rules.variant: rounded(
            {
                "reachability": dataclasses.asdict(reachability(with_pieces(rules, PIECES))),
                "lengths": dataclasses.asdict(game_lengths(rules, GAMES, SEED)),
            }
        )
        for rules in pinned_rules()
    }
    outputs["claimed odds"] = {str(k): str(v) for k, v in claimed_odds(CLAIMED).items()}
    return behaviour_digest(outputs)


DIGESTS = {**SOLVER, "claims": claims_digest}
"""Every layer's behaviour digest: the keys' code half for any results file."""


def stamp(name: str) -> dict[str, str]:
    """The behaviour stamp of the results file ``name`` written by the code as it is now."""
    return stamp_of(KINDS[name], DIGESTS)
