"""``/which-rules/``: "Which rules should I play?" The rulebooks grouped by family
(:mod:`generator.site.families`) and, within a family, by the game they actually play: rulebooks
whose rules the engine finds play exactly the same game
(:func:`generator.engine.equivalence.same_game_groups`) are one entry, however their sources
word them. Each game says who uses it (its rulebooks' titles), how it differs from the common
rules, and, where the full game is solved, how often the first player wins with perfect play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.model.variant import Variant
from generator.site.context import SiteContext, variant_page
from generator.site.families import Family, families
from generator.site.full_games_view import solved_game
from generator.site.learn_page import LEARN_PAGE, WHICH_RULES_PAGE
from generator.site.render import environment, figure, render
from generator.site.variant_pages import Departure, departures

WHICH_RULES_SEARCH_BOOST = 2
"""Above the rulebooks and far above the pair pages, below the learn page (whose title shares
the words "rules" and "play")."""
MOST_DIFFERENCES_NAMED = 3
"""A game differing from the common rules in more ways than this lists only their questions."""


@dataclass(frozen=True)
class Game:
    """One game and the rulebooks of a family that play it."""

    rulebooks: tuple[Variant, ...]
    pieces: int
    route: int
    throws: tuple[int, int]
    differences: tuple[Departure, ...]
    first_player: str | None
    """How often the first player wins with perfect play, as "51.5 %" (None: not solved)."""
    is_start: bool


@dataclass(frozen=True)
class FamilyGames:
    family: Family
    games: tuple[Game, ...]


def games_of(
    ctx: SiteContext, family: Family, per_variant: dict[str, Any], start: str
) -> tuple[Game, ...]:
    """The family's rulebooks as games, in the family's order: each rulebook joins the game of
    the first rulebook before it that plays the same game."""
    groups: list[list[str]] = []
    for vid in family.rulebooks:
        same = {v.id for v in (per_variant.get(vid) or {}).get("same_game", [])}
        home = next((g for g in groups if g[0] in same), None)
        if home is None:
            groups.append([vid])
        else:
            home.append(vid)
    return tuple(_game(ctx, group, per_variant, start) for group in groups)


def _game(ctx: SiteContext, group: list[str], per_variant: dict[str, Any], start: str) -> Game:
    first = ctx.resolved[group[0]]
    table = first.dice.table()
    solved = solved_game((per_variant.get(group[0]) or {}).get("full_game"))
    return Game(
        rulebooks=tuple(ctx.catalog.variants[vid] for vid in group),
        pieces=int(first.value("pieces")),
        route=first.route.length,
        throws=(table[0][0], table[-1][0]),
        differences=tuple(departures(ctx, group[0])),
        first_player=f"{figure('%.1f', 100 * solved.record.first_player)} %" if solved else None,
        is_start=start in group,
    )


def which_rules_page(ctx: SiteContext, per_variant: dict[str, Any]) -> dict[str, str]:
    """The page, from the families, the engine's same-game verdicts and the solved games."""
    page = WHICH_RULES_PAGE
    start = ctx.words.data["common_rules"]
    grouped = [FamilyGames(f, games_of(ctx, f, per_variant, start)) for f in families(ctx)]
    first = [ctx.catalog.variants[vid] for vid in ctx.variant_ids if vid == start]
    shorter = [v for v in ctx.catalog.variants.values() if v.kind.value == "teaching-shortening"]
    text = render(
        environment(),
        "which-rules.md.j2",
        fm={
            **ctx.front_matter(*ctx.words.page("which-rules")),
            "search_boost": WHICH_RULES_SEARCH_BOOST,
        },
        link=ctx.linker(page),
        families=grouped,
        start=first[0] if first else None,
        start_game=next((g for fg in grouped for g in fg.games if g.is_start), None),
        shorter=shorter,
        learn=LEARN_PAGE if first else None,
        rulebooks=len(ctx.variant_ids),
        games=sum(len(fg.games) for fg in grouped),
        variant_page=variant_page,
        named=MOST_DIFFERENCES_NAMED,
    )
    return {page: text}
