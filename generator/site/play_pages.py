"""The play pages: ``/play/<rulebook-id>/`` for every rulebook the site plays and ``/play/``
listing them by family (:mod:`generator.site.families`).

Each page draws the rulebook's board as its rulebook page does (:func:`board_svg`, with each
square's cell as a hook for the script) and carries, as data the script reads
(``assets/ur-play.js``), what the rules file does not: each side's route as cells (to place
pieces), the rulebook's throws as its own lots or dice fall (which lots came up marked), and,
for each event of play, the words that say it and the rulebook's ruling that decides it (its
answer to the event's rule question, ``play: events:`` in the vocabulary). The moves
themselves are the browser engine's (``assets/ur-engine.js``, from ``play/rules/<id>.json``).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Collection
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from generator.engine.rules import compile_rules
from generator.measure.own_rules import own_rules
from generator.model.equipment import Dice
from generator.site.board import rulebook_board
from generator.site.context import SiteContext, docs_url, short_page, variant_page
from generator.site.families import families
from generator.site.own_rules_panel import other_boards, panel_data
from generator.site.play_files import hint_paths
from generator.site.render import environment, render

PLAY_INDEX = "play/index.md"
SCRIPT = "assets/ur-play.js"
PLAY_SEARCH_BOOST = 0.5
"""A play page repeats its rulebook's name and title: search ranks it below the rulebook page,
so a rulebook's name leads to its rules first (tests/browser/test_search.py)."""


def play_page(variant_id: str) -> str:
    return f"play/{variant_id}.md"


def served_link(page: str, target: str) -> str:
    """The link from docs page ``page`` to docs file ``target`` as the browser follows it:
    for raw HTML and the script's data, which mkdocs does not rewrite (pages are served as
    folders, ``play/<id>/``)."""
    folder = docs_url(page) or "."
    path = posixpath.relpath(docs_url(target) or ".", folder)
    return path + "/" if target.endswith(".md") else path


def lots(dice: Dice) -> list[dict[str, Any]]:
    """Each way the throw can fall: its throw, chance, and either how many of how many binary
    lots came up marked or the outcome's own words (astragals: "sheep 2, ox yes")."""
    binary = all(o.label.endswith(" marked") for o in dice.outcomes)
    count = len(dice.outcomes) - 1
    return [
        {
            "throw": o.throw,
            "chance": float(Fraction(o.probability)),
            "marked": int(o.label.split()[0]) if binary else None,
            "lots": count if binary else None,
            "words": None if binary else o.label,
        }
        for o in dice.outcomes
        if o.probability > 0
    ]


def event_rulings(ctx: SiteContext, variant_id: str, page: str) -> dict[str, Any]:
    """Each event's words and the link to the ruling that decides it in this rulebook (none
    where the event's question has no ruling here)."""
    rulings = ctx.resolved[variant_id].rulings
    events = {}
    for key, event in ctx.words.data["play"]["events"].items():
        ruling = rulings.get(event["question"]) if event["question"] else None
        events[key] = {
            "words": event["words"],
            "href": served_link(page, short_page(ruling.id)) if ruling else None,
            "title": ctx.ruling_title(ruling) if ruling else None,
            "question": event["question"],
        }
    return events


def page_data(
    ctx: SiteContext,
    variant_id: str,
    page: str,
    answers: dict[str, Any] | None = None,
    hinted: bool = False,
) -> dict[str, Any]:
    """What the script needs beyond the rules file, and the words it says; with ``answers``
    (:func:`generator.measure.own_rules.own_rules`), the "Change the rules" panel's data
    (:mod:`generator.site.own_rules_panel`) and each dice's lots, for a changed dice; where the
    game is solved and shipped (``hinted``), where the perfect-play hint's files are."""
    resolved = ctx.resolved[variant_id]
    rules = compile_rules(resolved)
    words = {k: v for k, v in ctx.words.data["play"].items() if k != "events"}
    return {
        **({"hint": hint_data(ctx, page, variant_id)} if hinted else {}),
        "rulebook": variant_id,
        "routes": {"L": list(rules.cells[0]), "D": list(rules.cells[1])},
        "safe": sorted(rules.safe_cells),
        "rosettes": sorted(rules.extra_throw_cells),
        "extraThrows": sorted(rules.extra_throw_throws),
        "lots": lots(resolved.dice),
        "events": event_rulings(ctx, variant_id, page),
        "words": words,
        **({} if answers is None else own_rules_data(ctx, variant_id, page, answers)),
    }


def own_rules_data(
    ctx: SiteContext, variant_id: str, page: str, answers: dict[str, Any]
) -> dict[str, Any]:
    dice = ctx.catalog.equipment.dice
    return {
        "own": panel_data(ctx, variant_id, lambda target: served_link(page, target), answers),
        "diceLots": {d: lots(dice[d]) for d in answers["equipment"]["dice"]},
    }


def hint_data(ctx: SiteContext, page: str, variant_id: str) -> dict[str, Any]:
    """Where the perfect-play hint's files are (:func:`hint_paths`), and its words."""
    values, index = hint_paths(variant_id)
    return {
        "values": served_link(page, values),
        "index": served_link(page, index),
        "words": ctx.words.data["play-hint"],
    }


def script_json(data: dict[str, Any]) -> Markup:
    """``data`` as JSON safe inside a ``<script>`` element (no ``</`` can close it) and on
    one line (Markdown leaves an HTML block alone only until its first blank line)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def rulebook_play_page(
    ctx: SiteContext, variant_id: str, answers: dict[str, Any], hinted: bool = False
) -> str:
    resolved = ctx.resolved[variant_id]
    variant = resolved.variant
    page = play_page(variant_id)
    title, description = ctx.words.page("play", short=variant.short, title=variant.title)
    return render(
        environment(),
        "play.md.j2",
        fm={
            **ctx.front_matter(title, description),
            "hide": ["toc"],
            "search_boost": PLAY_SEARCH_BOOST,
        },
        title=title,
        v=variant,
        pieces=resolved.value("pieces"),
        dice=resolved.rulings["dice"].text if "dice" in resolved.rulings else None,
        link=ctx.linker(page),
        rulebook=variant_page(variant_id),
        index=PLAY_INDEX,
        board=rulebook_board(ctx.words, resolved, "play-board", hooks=True),
        data=script_json(page_data(ctx, variant_id, page, answers, hinted)),
        hinted=hinted,
        hint_words=ctx.words.data["play-hint"],
        boards=other_boards(ctx, variant_id, answers),
        script=served_link(page, SCRIPT),
        words=ctx.words.data["play"],
        own=ctx.words.data["own-rules"],
    )


def play_pages(
    ctx: SiteContext, played: Collection[str], hinted: Collection[str] = ()
) -> dict[str, str]:
    """A page for each ``played`` rulebook (those with a rules file) and the index; those
    ``hinted`` (their solved game shipped) offer the perfect-play hint."""
    if not played:
        return {}
    answers = own_rules(ctx.catalog)
    pages = {
        play_page(v): rulebook_play_page(ctx, v, answers, v in hinted)
        for v in ctx.variant_ids
        if v in played
    }
    groups = [
        (family, [ctx.catalog.variants[v] for v in family.rulebooks if v in played])
        for family in families(ctx)
    ]
    pages[PLAY_INDEX] = render(
        environment(),
        "play-index.md.j2",
        fm=ctx.front_matter(*ctx.words.page("play-index")),
        groups=[(family, members) for family, members in groups if members],
        link=ctx.linker(PLAY_INDEX),
        play_page=play_page,
        common=ctx.words.data["common_rules"],
    )
    return pages
