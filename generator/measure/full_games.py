"""The full games' perfect-play values, as a measurement that reads the committed
``results/full-games.json`` and computes nothing (``ur-variants full-games`` writes it:
:mod:`generator.sim.full_games`).

A record whose rules fingerprint is no longer the catalogue's is stale: it is not published as
the rulebook's value; the pages say the rulebook was solved before its rules changed and waits
to be solved again, and the build says so in its log. A rulebook with no record is pending.
"""

from __future__ import annotations

from generator.measure.core import Settings, Step
from generator.model.catalog import Catalog
from generator.sim import full_games
from generator.sim.full_games import Status


def read_full_games(catalog: Catalog, settings: Settings) -> Status:
    """Every simulated rulebook's full game: solved, stale or pending."""
    found = full_games.status(full_games.full_games(catalog), full_games.read_results())
    if found.stale:
        settings.log(
            f"full games: {', '.join(sorted(found.stale))} solved before their rules changed;"
            " shown as not yet solved until ur-variants full-games solves them again"
        )
    return found


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
