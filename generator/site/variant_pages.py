"""One annotated rulebook per variant: ``docs/variants/<id>/index.md``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from generator.engine.rules import Rules, Side, compile_rules
from generator.model.variant import Evidence, Question, Ruling
from generator.site.board import board_svg, route_description, square_names
from generator.site.compare_pages import others_say
from generator.site.context import (
    EVIDENCE_HELP,
    SiteContext,
    pair_page,
    question_page,
    variant_page,
)
from generator.site.equivalence import Verdict, compare_rulings
from generator.site.examples import Example, worked_examples
from generator.site.facts import dice_odds, fraction_text, mean_throw, minimum_pips, route_shape
from generator.site.render import environment, render
from generator.site.vocabulary import listing


@dataclass(frozen=True)
class RuleSection:
    """One question of the rulebook as the variant answers it."""

    question: Question
    ruling: Ruling
    inherited: bool
    anchor: str


@dataclass(frozen=True)
class Difference:
    question: Question
    own: Ruling
    parent: Ruling
    verdict: Verdict


@dataclass(frozen=True)
class DrawnExample:
    example: Example
    svg: str
    anchor: str
    words: str
    """Where the pieces stand, in words."""


def rule_sections(ctx: SiteContext, variant_id: str) -> list[RuleSection]:
    resolved = ctx.resolved[variant_id]
    sections = []
    for qid, ruling in resolved.rulings.items():
        inherited = resolved.is_inherited(ruling)
        anchor = ruling.id if not inherited else f"inherited-{qid}"
        sections.append(RuleSection(ctx.catalog.questions[qid], ruling, inherited, anchor))
    return sections


@dataclass(frozen=True)
class PlayStep:
    """One group of the how-to-play summary: its sentences, each with its ruling's anchor."""

    title: str
    sentences: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Departure:
    """A question this rulebook answers otherwise than the common rules."""

    question: Question
    here: str
    common: str
    anchor: str


def how_to_play(ctx: SiteContext, variant_id: str) -> list[PlayStep]:
    """The rulebook in a screenful: its rulings in words, grouped in the order of a game
    (the groups are data: ``how_to_play`` in the vocabulary)."""
    sections = {s.question.id: s for s in rule_sections(ctx, variant_id)}
    steps = []
    for group in ctx.words.data["how_to_play"]:
        sentences = tuple(
            (ctx.describe(sections[q].ruling) + ".", sections[q].anchor)
            for q in group["questions"]
            if q in sections
        )
        if sentences:
            steps.append(PlayStep(group["title"], sentences))
    return steps


def departures(ctx: SiteContext, variant_id: str) -> list[Departure]:
    """Where this rulebook's play differs from the common rules (RoyalUr.net's Finkel set):
    the questions whose answer the engine finds changes the game, not merely its wording."""
    common_id = ctx.words.data["common_rules"]
    if variant_id == common_id or common_id not in ctx.resolved:
        return []
    common = ctx.resolved[common_id]
    found = []
    for section in rule_sections(ctx, variant_id):
        theirs = common.rulings.get(section.question.id)
        if theirs is None or not section.question.drives_engine:
            continue
        verdict = compare_rulings(ctx.catalog, ctx.resolved[variant_id], section.ruling, theirs)
        if verdict.changes_play:
            here, there = ctx.describe(section.ruling), ctx.describe(theirs)
            found.append(Departure(section.question, here, there, section.anchor))
    return found


def differences_from_parent(ctx: SiteContext, variant_id: str) -> list[Difference]:
    """The questions this variant rules on itself although its parent already did."""
    variant = ctx.catalog.variants[variant_id]
    if variant.derives_from is None:
        return []
    parent = ctx.resolved[variant.derives_from]
    host = ctx.resolved[variant_id]
    found = []
    for ruling in variant.rulings:
        theirs = parent.rulings.get(ruling.question)
        if theirs is None:
            continue
        verdict = compare_rulings(ctx.catalog, host, ruling, theirs)
        found.append(Difference(ctx.catalog.questions[ruling.question], ruling, theirs, verdict))
    return found


def position_in_words(rules: Rules, example: Example) -> str:
    """Where each side's pieces stand, as squares of its own route."""
    parts = []
    for side, hand, off in zip(Side, example.in_hand, example.borne_off, strict=True):
        steps = sorted(p for p in example.position.pieces(side) if 0 < p < rules.off)
        on = (
            f"on squares {listing([str(s) for s in steps])} of its route"
            if steps
            else "none on the board"
        )
        parts.append(f"{side.name.capitalize()}: {on}, {hand} in hand, {off} borne off.")
    return " ".join(parts)


def drawn_examples(ctx: SiteContext, variant_id: str) -> list[DrawnExample]:
    resolved = ctx.resolved[variant_id]
    rules = compile_rules(resolved)
    drawn = []
    for example in worked_examples(rules, variant_id):
        anchor = f"example-{example.kind}"
        words = position_in_words(rules, example)
        description = f"{words} {example.side.capitalize()} to move."
        svg = board_svg(
            resolved.board,
            None,
            svg_id=f"{anchor}-board",
            title=f"{example.title}: the position before the throw",
            description=description,
            names=square_names(ctx.words, resolved.board, resolved.route),
            pieces=example.pieces,
        )
        drawn.append(DrawnExample(example, svg, anchor, words))
    return drawn


def variant_context(ctx: SiteContext, variant_id: str, statistics: Any) -> dict[str, Any]:
    resolved = ctx.resolved[variant_id]
    variant = resolved.variant
    page = variant_page(variant_id)
    shape = route_shape(resolved.route, resolved.board.rosettes)
    rulings_here = [r for r in variant.rulings]
    answered = set(resolved.rulings)
    return {
        "fm": ctx.front_matter(variant.title, variant.summary),
        "page": page,
        "link": ctx.linker(page),
        "v": variant,
        "resolved": resolved,
        "kind_label": ctx.words.kind(variant.kind.value),
        "parent": ctx.catalog.variants.get(variant.derives_from or ""),
        "children": [ctx.catalog.variants[c] for c in sorted(ctx.catalog.children(variant_id))],
        "odds": dice_odds(resolved.dice),
        "mean_throw": fraction_text(mean_throw(resolved.dice)),
        "shape": shape,
        "pips": minimum_pips(resolved),
        "board_svg": board_svg(
            resolved.board,
            resolved.route,
            svg_id="route-board",
            title=f"The board and route of {variant.short}",
            description=route_description(ctx.words, resolved.board, resolved.route),
            names=square_names(ctx.words, resolved.board, resolved.route),
        ),
        "describe": ctx.describe,
        "export_name": export_path(variant_id),
        "sections": rule_sections(ctx, variant_id),
        "how_to_play": how_to_play(ctx, variant_id),
        "departures": departures(ctx, variant_id),
        "common": ctx.catalog.variants.get(ctx.words.data["common_rules"]),
        "silent": [q for q in ctx.catalog.questions.values() if q.id not in answered],
        "examples": drawn_examples(ctx, variant_id),
        "differences": differences_from_parent(ctx, variant_id),
        "citations": {r.id: ctx.citation(r) for r in rulings_here},
        "history": {r.id: ctx.editions.history.get(r.id, []) for r in rulings_here},
        "owner_titles": {vid: v.title for vid, v in ctx.catalog.variants.items()},
        "target": ctx.ruling_target,
        "conflicts": {
            question: ruling
            for question, ruling in resolved.rulings.items()
            if ruling.evidence is Evidence.CONFLICTING
        },
        "sources": ctx.catalog.sources,
        "evidence_help": EVIDENCE_HELP,
        "page_cite": ctx.rulebook_citation(variant_id),
        "statistics": statistics,
        "variant_page": variant_page,
        "question_page": question_page,
        "pair_page": pair_page,
        "others_say": others_say(ctx, variant_id),
        "compare_with": [ctx.catalog.variants[o] for o in ctx.variant_ids if o != variant_id],
    }


def export_path(variant_id: str) -> str:
    return f"variants/{variant_id}.json"


def machine_export(ctx: SiteContext, variant_id: str) -> str:
    """The rulebook as machine values: every ruling in force (inherited ones included) with its
    question, value, evidence and the rulebook that states it. The pages show these in words."""
    resolved = ctx.resolved[variant_id]
    variant = resolved.variant
    document = {
        "id": variant.id,
        "title": variant.title,
        "kind": variant.kind.value,
        "derives_from": variant.derives_from,
        "url": ctx.address(variant_page(variant_id)),
        "rulings": [
            {
                "id": ruling.id,
                "question": qid,
                "value": ruling.value,
                "evidence": ruling.evidence.value,
                "stated_in": ruling.variant,
                "text": " ".join(ruling.text.split()),
            }
            for qid, ruling in resolved.rulings.items()
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def variant_pages(ctx: SiteContext, statistics: dict[str, Any]) -> dict[str, str]:
    env = environment()
    pages = {}
    for vid in ctx.variant_ids:
        context = variant_context(ctx, vid, statistics.get(vid))
        pages[variant_page(vid)] = render(env, "variant.md.j2", **context)
        pages[export_path(vid)] = machine_export(ctx, vid)
    return pages


def variants_index(ctx: SiteContext) -> dict[str, str]:
    env = environment()
    page = "variants/index.md"
    rows = []
    for _vid, resolved in ctx.resolved.items():
        rows.append(
            {
                "v": resolved.variant,
                "pieces": resolved.value("pieces"),
                "dice": resolved.dice.title,
                "route": resolved.route.length,
                "kind": ctx.words.kind(resolved.variant.kind.value),
            }
        )
    text = render(
        env,
        "variants-index.md.j2",
        fm=ctx.front_matter("Variants", "Every rulebook of the Royal Game of Ur on this site."),
        rows=rows,
        link=ctx.linker(page),
        variant_page=variant_page,
    )
    return {page: text}
