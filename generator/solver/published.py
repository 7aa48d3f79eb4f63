"""Published figures this project checks itself against.

Finkel's rules as RoyalUr.net plays them, random against random (uniform over legal moves):
RoyalUr-Java's array engine (https://github.com/RoyalUr/RoyalUr-Java), 1,336,400 games, and the
``royalur`` 0.0.6 package (RoyalUr-Python, https://github.com/RoyalUr/RoyalUr-Python), 20,000
games, measured on this machine with the counting conventions of :mod:`generator.sim.stats`.
"""

from __future__ import annotations

from typing import Any

from generator.model.catalog_contents import Catalog

FINKEL_MOVES = 143.81
"""RoyalUr-Java, 1,336,400 games (royalur's 20,000 games gave 143.69 ± 0.14)."""
FINKEL_MOVES_SD = 20.0
"""From royalur's 20,000 games: the RoyalUr-Java run reported means only."""
FINKEL_THROWS = 156.50
"""RoyalUr-Java, 1,336,400 games (royalur's 20,000 games gave 156.41 ± 0.16)."""
FINKEL_THROWS_SD = 22.3
"""From royalur's 20,000 games."""
FINKEL_ROUNDING = 0.005
"""Half the last printed digit of the RoyalUr-Java means."""
FINKEL_FIRST_PLAYER_WINS = 0.5115
FINKEL_FIRST_PLAYER_WINS_HALF_WIDTH = 0.0004 * 1.96
"""RoyalUr-Java's 1.3 M games give 51.15% ± 0.04 (one standard error)."""

PREFERRED_FINKEL = "royalur-finkel"
"""The variant that encodes RoyalUr.net's Finkel rule set, when present."""

FINKEL_MACHINE_VALUES: dict[str, Any] = {
    "board": "ur",
    "route": "bell",
    "dice": "four-binary",
    "pieces": 7,
    "entry": {"throws": "any", "square": "throw"},
    "stacking": 1,
    "stack-defence": None,
    "rosette-extra-throw": "rosettes",
    "throw-extra-throw": [],
    "capture-extra-throw": False,
    "must-move": True,
    "bearing-off": "exact",
}
"""RoyalUr.net's Finkel: Bell's route, seven pieces, four binary dice, a rosette earns another
throw, exact bearing off. The shared rosette is safe (``safe-squares`` ``rosettes`` or the
central rosette alone: on Bell's route the other rosettes are private, so both play alike, as
do both capture zones, since the sides only meet on shared squares)."""

FINKEL_SAFE_SQUARES = ("rosettes", ["r2c4"])


def finkel_variant(catalog: Catalog) -> str | None:
    """The id of a variant playing Finkel's rules as RoyalUr.net does, or ``None``."""
    if PREFERRED_FINKEL in catalog.variants:
        return PREFERRED_FINKEL
    for variant_id in sorted(catalog.variants):
        values = catalog.resolve(variant_id).machine_values()
        same = all(values.get(q) == v for q, v in FINKEL_MACHINE_VALUES.items())
        if same and values.get("safe-squares") in FINKEL_SAFE_SQUARES:
            return variant_id
    return None


SOLVED_BY = "RoyalUr.net and Jeroen Olieslagers' independent solver"
"""Who publishes the values below, in words a reader knows them by (the solver is
JeroenOlieslagers/game_of_ur on GitHub)."""

PERFECT_FIRST_PLAYER: dict[str, dict[str, Any]] = {
    vid: {"value": value, "decimals": 10, "source": SOLVED_BY}
    for vid, value in (
        ("royalur-finkel", 0.515404732509),
        ("royalur-blitz", 0.504052555093),
        ("royalur-masters", 0.504809002027),
    )
}
"""The first player's chance under perfect play in the full games RoyalUr.net has solved (Finkel,
Blitz, Masters with three dice), as JeroenOlieslagers/game_of_ur's ``README.md`` publishes them
(https://github.com/JeroenOlieslagers/game_of_ur; RoyalUr.net's solved game,
https://royalur.net/solved), in percent to ``decimals`` places, by the rulebook that plays
RoyalUr.net's rules."""
