"""The "Change the rules" panel of a play page (issue 42, item 5): the data the panel's script
(``assets/ur-own-rules.js``) reads to let a reader answer any question the engine plays
differently, then play or simulate the result.

The answers themselves, as values the engine compiles, are the answers file's
(:func:`generator.measure.own_rules.own_rules`, ``play/answers.json``); the page carries what
a reader sees: each listed question's title, each answer in words (the vocabulary's short
label, and its full reading), the rulebooks that answer so (short names linked to their
pages), which answer is this rulebook's own, and a key for each answer that the address
carries (``?rules=<question>.<key>,...``). A route another rulebook plays is drawn here too, as
its rulebook page would draw it, for play to move onto when a reader chooses it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from generator.model.equipment import Board, Route
from generator.site.board import board_svg, route_description, square_names
from generator.site.context import SiteContext, variant_page

SIMULATED_GAMES = 10_000
"""Games the panel's simulation plays (issue 42: "simulates 10,000 games in a few seconds")."""
SIMULATION_SEED = 1
"""The simulation's fixed seed, shown beside its result."""


def answer_key(value: Any) -> str:
    """An answer as the address writes it: the runs of letters and digits of its canonical
    JSON joined by hyphens (``"rosettes"``, ``7``, ``[5, 4, 1]`` -> ``5-4-1``), ``none`` for
    an empty list. Readable, URL-safe, and the same while the value is."""
    runs = re.findall(r"[a-z0-9]+", json.dumps(value, sort_keys=True).lower())
    return "-".join(runs) or "none"


def answer_keys(values: list[Any]) -> list[str]:
    """Each answer's key, unique within its question (a repeat takes its place in the list)."""
    keys: list[str] = []
    for i, value in enumerate(values):
        key = answer_key(value)
        keys.append(key if key not in keys else f"{key}-{i + 1}")
    return keys


Link = Callable[[str], str]
"""The address, from the page, of a docs page (:func:`generator.site.play_pages.served_link`)."""


def _rulebooks(ctx: SiteContext, link: Link, ids: list[str]) -> list[dict[str, str]]:
    return [{"short": ctx.catalog.variants[v].short, "href": link(variant_page(v))} for v in ids]


def panel_questions(
    ctx: SiteContext, variant_id: str, link: Link, answers: dict[str, Any]
) -> list[dict[str, Any]]:
    """Each question of the answers file, in its order, with its answers in words; the
    rulebooks that answer so are linked through ``link``."""
    board = ctx.resolved[variant_id].board.id
    listed = []
    for entry in answers["questions"]:
        question = entry["id"]
        values = [a["value"] for a in entry["answers"]]
        listed.append(
            {
                "id": question,
                "title": ctx.catalog.questions[question].title,
                "answers": [
                    {
                        "key": key,
                        "words": ctx.words.label(question, answer["value"], board),
                        "phrase": ctx.words.describe(question, answer["value"], board),
                        "rulebooks": _rulebooks(ctx, link, answer["rulebooks"]),
                        "own": variant_id in answer["rulebooks"],
                    }
                    for key, answer in zip(answer_keys(values), entry["answers"], strict=True)
                ],
            }
        )
    return listed


def panel_data(
    ctx: SiteContext, variant_id: str, link: Link, answers: dict[str, Any]
) -> dict[str, Any]:
    """The panel's part of the page data: its questions, every played question's title (for
    a problem on one not listed), the simulation's size and seed, the z of its interval (the
    answers file's: Wilson's interval as :func:`generator.sim.stats.wilson` gives it), and
    the panel's words."""
    return {
        "questions": panel_questions(ctx, variant_id, link, answers),
        "titles": {q.id: q.title for q in ctx.catalog.questions.values() if q.drives_engine},
        "games": SIMULATED_GAMES,
        "seed": SIMULATION_SEED,
        "z": answers["z"],
        "words": ctx.words.data["own-rules"],
    }


def route_board(ctx: SiteContext, board: Board, route: Route) -> Markup:
    """A route's board as a play page draws it (its squares hooked for the script); its ids
    are the route's own, as every drawing a page carries, in a template or not, is read for
    its anchors (tests/browser/test_links.py: an id used twice is an ambiguous anchor)."""
    return board_svg(
        board,
        route,
        svg_id=f"play-route-{route.id}",
        title=str(ctx.words.data["own-rules"]["board-title"]),
        description=route_description(ctx.words, board, route),
        names=square_names(ctx.words, board, route),
        hooks=True,
    )


def other_boards(ctx: SiteContext, variant_id: str, answers: dict[str, Any]) -> dict[str, Markup]:
    """The board of each route the answers know other than this rulebook's own, by route."""
    own = ctx.resolved[variant_id].route.id
    equipment = ctx.catalog.equipment
    return {
        r: route_board(ctx, equipment.boards[equipment.routes[r].board], equipment.routes[r])
        for r in answers["equipment"]["routes"]
        if r != own
    }
