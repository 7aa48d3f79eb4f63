"""The full games' perfect-play values, as a measurement that reads the committed
``results/full-games.json`` and computes nothing (``ur-variants full-games`` writes it:
:mod:`generator.solver.full_games`).

A record whose rules fingerprint is no longer the catalogue's is stale: it is not published as
the rulebook's value; the pages say the rulebook was solved before its rules changed and waits
to be solved again, and the build says so in its log. A rulebook with no record is pending.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from generator.engine.rules import compile_rules
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.suite import Effect, playable_changes
from generator.sim.variation import canonical
from generator.solver import full_games

# The solver's full-game types are the measurement's result: the pages read them from here.
from generator.solver.full_games import PROCESS_BYTES as PROCESS_BYTES
from generator.solver.full_games import ChangeKey as ChangeKey
from generator.solver.full_games import FullEffect as FullEffect
from generator.solver.full_games import FullGame as FullGame
from generator.solver.full_games import Pending as Pending
from generator.solver.full_games import Status as Status
from generator.solver.full_games import groups as groups


def read_full_games(catalog: Catalog, settings: Settings) -> Status:
    """Every simulated rulebook's full game: solved, stale or pending; and the one-ruling
    changes whose changed rules play a solved game too (:attr:`Status.changes`)."""
    found = full_games.status(full_games.full_games(catalog), full_games.read_results())
    if found.stale:
        settings.log(
            f"full games: {', '.join(sorted(found.stale))} solved before their rules changed;"
            " shown as not yet solved until ur-variants full-games solves them again"
        )
    changes = (
        (variant.id, change, compile_rules(changed))
        for variant, change, changed in playable_changes(catalog)
        if variant.id in found.solved
    )
    return dataclasses.replace(found, changes=full_games.change_effects(changes, found.solved))


def with_full(effects: Sequence[Effect], found: Status | None) -> list[Effect]:
    """The sampled effects, each carrying its full-size exact effect where both full games
    are solved (:attr:`Effect.full`)."""
    if found is None:
        return list(effects)
    return [
        dataclasses.replace(
            e, full=found.changes.get((e.variant, e.question, canonical(e.change.value)))
        )
        for e in effects
    ]


def full_game_problems(found: Status) -> list[str]:
    """A chance outside 0..1, a perfect game under one throw, no positions."""
    problems = []
    for vid, record in found.solved.items():
        if not 0 <= record.first_player <= 1:
            problems.append(
                f"full game of {vid}: first player {record.first_player} is not a chance"
            )
        if record.expected_throws is not None and not record.expected_throws >= 1:
            problems.append(f"full game of {vid}: {record.expected_throws} throws is under one")
        if record.states <= 0:
            problems.append(f"full game of {vid}: no positions")
    return problems


FULL_GAMES = Step("full games", read_full_games, full_game_problems)
