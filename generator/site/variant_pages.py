"""One annotated rulebook per variant: ``docs/variants/<id>/index.md``."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from generator.engine.rules import compile_rules
from generator.measure.engine_readings import Verdict
from generator.measure.examples import Example
from generator.model.variant import Citation, Evidence, Question, Ruling
from generator.site.board import (
    MovePath,
    board_svg,
    rulebook_board,
    square_names,
)
from generator.site.compare_pages import others_say
from generator.site.context import (
    SiteContext,
    pair_page,
    question_page,
    variant_page,
)
from generator.site.examples import KIND_TITLES, ExampleWords, path_cells, pieces_on_board
from generator.site.facts import dice_odds, fraction_text, mean_throw, minimum_pips, route_shape
from generator.site.learn_page import DrawnScene, draw
from generator.site.play_pages import play_page
from generator.site.reference_pages import Term, glossary_terms
from generator.site.render import environment, lower_first, render


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
    """A worked example ready for the page: both boards and every sentence about it."""

    example: Example
    title: str
    anchor: str
    before_svg: Markup
    after_svg: Markup
    before: str
    """Where the pieces stand before the move, in words (and ``after``: after it)."""
    after: str
    shown: str
    """The move the example is about, as a sentence."""
    moves: tuple[tuple[str, str], ...]
    """Every legal move with the throw: its sentence and the resulting position's notation."""
    refused: tuple[str, ...]
    """Each piece the throw cannot move, and why."""


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
    """One group of the how-to-play summary: its sentences, each with its ruling's anchor and
    whether it is assumed (the sources are silent, and the sentence says what is played)."""

    title: str
    sentences: tuple[tuple[str, str, bool], ...]
    scene: DrawnScene | None = None
    """The step's rule on a small board (the learn page's scene for this rulebook: a position
    built from its own rules and the move the engine plays there), shown when the row is
    focused, hovered or tapped; None where the step has no scene or the rules no such move."""


@dataclass(frozen=True)
class SilentQuestion:
    """A question this rulebook's sources do not answer, and what is played all the same."""

    id: str
    title: str
    played: str


@dataclass(frozen=True)
class Departure:
    """A question this rulebook answers otherwise than the common rules."""

    question: Question
    here: str
    common: str
    anchor: str


NO_STEP = "does-not-arise"
"""An answer saying its question does not arise in this rulebook (no throw earns another throw,
so none can be earned without a move): no step of play. How to play leaves it out, as it would
only repeat the sentence before it; the rules below still give it."""
STACK_QUESTION = "stack-defence"
"""What a stack does when attacked: no step of play where no two pieces of a side may share a
square, since no stack can form there."""


def how_to_play(ctx: SiteContext, variant_id: str) -> list[PlayStep]:
    """The rulebook in a screenful: its rulings in words, grouped in the order of a game
    (the groups are data: ``how_to_play`` in the vocabulary), less the questions that do not
    arise (:data:`NO_STEP`, and stacks where no two pieces of a side may share a square). A
    question the sources leave open is worded as what is played, marked assumed, and links to
    the list of such questions."""
    sections = {s.question.id: s for s in rule_sections(ctx, variant_id)}
    steps = []
    for group in ctx.words.data["how_to_play"]:
        sentences = []
        for q in group["questions"]:
            if q not in sections:
                sentences.append((ctx.words.silent(q) + ".", "silent", True))
            elif _arises(ctx, variant_id, sections[q].ruling):
                sentences.append(
                    (ctx.describe(sections[q].ruling) + ".", sections[q].anchor, False)
                )
        if sentences:
            scene = _step_scene(ctx, variant_id, group.get("scene"), group["title"])
            steps.append(PlayStep(group["title"], tuple(sentences), scene))
    return steps


def _step_scene(
    ctx: SiteContext, variant_id: str, key: str | None, title: str
) -> DrawnScene | None:
    """The learn page's scene ``key`` for this rulebook, drawn small (the board before the
    move, the move marked)."""
    scene = ctx.engine.lesson(variant_id).scenes.get(key) if key else None
    if scene is None:
        return None
    return draw(ctx, ctx.resolved[variant_id], scene, f"rule-{key}", title, after=False)


def _arises(ctx: SiteContext, variant_id: str, ruling: Ruling) -> bool:
    """Whether a ruling's question can come up in play: not one saying it does not arise, and
    not what stacks do where a piece may never land on its own side (no stack can form)."""
    if ruling.value == NO_STEP:
        return False
    stacking = ctx.resolved[variant_id].rulings.get("stacking")
    return not (ruling.question == STACK_QUESTION and stacking and stacking.value == 1)


def silent_questions(ctx: SiteContext, variant_id: str) -> list[SilentQuestion]:
    """The questions no ruling of this rulebook answers, each with what is played here."""
    answered = set(ctx.resolved[variant_id].rulings)
    return [
        SilentQuestion(q.id, q.title, ctx.words.silent(q.id))
        for q in ctx.catalog.questions.values()
        if q.id not in answered
    ]


def explained_terms(steps: list[PlayStep], *more: str) -> list[Term]:
    """The glossary terms a newcomer meets in the how-to-play table (and in ``more``: the names
    of the dice and route), in the glossary's order: their definitions go beside the table."""
    text = " ".join([s for step in steps for s, _, _ in step.sentences] + list(more))
    return [
        term
        for term in glossary_terms()
        if any(re.search(rf"\b{re.escape(word)}s?\b", text, re.IGNORECASE) for word in term.explain)
    ]


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
        if ctx.engine.verdict(variant_id, theirs.id).changes_play:
            here, there = ctx.describe(section.ruling), ctx.describe(theirs)
            found.append(Departure(section.question, here, there, section.anchor))
    return found


@dataclass(frozen=True)
class EvidenceTally:
    """How the rulings on a rulebook's page are supported, counted from the data (the
    ``_evidence_tally`` template words it): its own rulings by evidence level, in the levels'
    order, those it inherits and from which rulebook, and the questions it leaves unanswered."""

    levels: tuple[tuple[str, int], ...]
    inherited: int
    parent: str | None
    silent: int

    @property
    def own(self) -> int:
        return sum(count for _, count in self.levels)


def evidence_tally(ctx: SiteContext, variant_id: str) -> EvidenceTally:
    """The evidence tally of a rulebook's page: its own rulings level by level, the inherited
    ones and the questions no ruling of it answers."""
    sections = rule_sections(ctx, variant_id)
    own = Counter(s.ruling.evidence for s in sections if not s.inherited)
    parent = ctx.resolved[variant_id].variant.derives_from
    return EvidenceTally(
        levels=tuple((level.value, own[level]) for level in Evidence if own[level]),
        inherited=sum(1 for s in sections if s.inherited),
        parent=ctx.catalog.variants[parent].short if parent else None,
        silent=len(ctx.catalog.questions) - len(sections),
    )


def differences_from_parent(ctx: SiteContext, variant_id: str) -> list[Difference]:
    """The questions this variant rules on itself although its parent already did."""
    variant = ctx.catalog.variants[variant_id]
    if variant.derives_from is None:
        return []
    parent = ctx.resolved[variant.derives_from]
    found = []
    for ruling in variant.rulings:
        theirs = parent.rulings.get(ruling.question)
        if theirs is None:
            continue
        verdict = ctx.engine.verdict(variant_id, theirs.id)
        found.append(Difference(ctx.catalog.questions[ruling.question], ruling, theirs, verdict))
    return found


def drawn_examples(ctx: SiteContext, variant_id: str) -> list[DrawnExample]:
    """Each worked example drawn before and after its move, with the move, the pieces the
    throw cannot move and the position all in words."""
    resolved = ctx.resolved[variant_id]
    board = resolved.board
    rules = compile_rules(resolved)
    rosettes = {c: n for c in board.rosettes if (n := ctx.words.rosette_name(c, board.id))}
    writer = ExampleWords(rules, ctx.words, rosettes)
    names = square_names(ctx.words, board, resolved.route)
    drawn = []
    for example in ctx.engine.examples(variant_id):
        anchor = f"example-{example.kind}"
        side, shown, throw = example.side, example.shown, example.throw
        move = shown.move
        assert move is not None  # an example always shows a real move
        path = path_cells(rules, side, move, throw)
        sentence = f"{side.name.capitalize()} {lower_first(writer.move(side, shown, throw))}"
        boards = {}
        for when, position, ringed, marks in (
            ("before", example.position, rules.cell(side, move.start), True),
            ("after", shown.after, rules.cell(side, move.end), False),
        ):
            mark = MovePath(
                path,
                ringed,
                bears_off=(
                    (rules.cells[side][-2], rules.cells[side][-1])
                    if marks and move.end == rules.off
                    else None
                ),
                crossed=tuple(
                    cell
                    for r in example.refused
                    if marks and (cell := rules.cell(side, r.start)) is not None
                ),
            )
            boards[when] = board_svg(
                board,
                None,
                svg_id=f"{anchor}-{when}",
                title=f"{KIND_TITLES[example.kind]}: the position {when} the move",
                description=f"{writer.position(position)} The move: {sentence}",
                names=names,
                pieces=pieces_on_board(rules, position),
                move=mark,
            )
        drawn.append(
            DrawnExample(
                example=example,
                title=KIND_TITLES[example.kind],
                anchor=anchor,
                before_svg=boards["before"],
                after_svg=boards["after"],
                before=writer.position(example.position),
                after=writer.position(shown.after),
                shown=sentence,
                moves=tuple(
                    (writer.move(side, line, throw), line.notation) for line in example.moves
                ),
                refused=tuple(writer.refusal(side, r, throw) for r in example.refused),
            )
        )
    return drawn


def variant_context(
    ctx: SiteContext, variant_id: str, statistics: Any, play: str | None = None
) -> dict[str, Any]:
    """Everything a rulebook page shows; ``play`` is its play page, where the site plays it."""
    resolved = ctx.resolved[variant_id]
    variant = resolved.variant
    page = variant_page(variant_id)
    shape = route_shape(resolved.route, resolved.board.rosettes)
    rulings_here = [r for r in variant.rulings]
    steps = how_to_play(ctx, variant_id)
    return {
        "fm": ctx.front_matter(variant.title, variant.summary),
        "page": page,
        "play": play,
        "link": ctx.linker(page),
        "prose": ctx.prose(page),
        "v": variant,
        "resolved": resolved,
        "kind_label": ctx.words.kind(variant.kind.value),
        "parent": ctx.catalog.variants.get(variant.derives_from or ""),
        "children": [ctx.catalog.variants[c] for c in sorted(ctx.catalog.children(variant_id))],
        "odds": dice_odds(resolved.dice),
        "mean_throw": fraction_text(mean_throw(resolved.dice)),
        "shape": shape,
        "pips": minimum_pips(resolved),
        "board_svg": rulebook_board(ctx.words, resolved, "route-board"),
        "describe": ctx.describe,
        "export_name": export_path(variant_id),
        "sections": rule_sections(ctx, variant_id),
        "tally": evidence_tally(ctx, variant_id),
        "evidence_words": ctx.words.data["evidence_tally"],
        "how_to_play": steps,
        "explained": explained_terms(steps, resolved.dice.title, resolved.route.title),
        "departures": departures(ctx, variant_id),
        "common": ctx.catalog.variants.get(ctx.words.data["common_rules"]),
        "silent": silent_questions(ctx, variant_id),
        "examples": drawn_examples(ctx, variant_id),
        "differences": differences_from_parent(ctx, variant_id),
        "verdict_reason": ctx.words.verdict,
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
        "languages": ctx.words.language,
        "evidence_help": ctx.evidence_help,
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


def _version(ctx: SiteContext, citation: Citation) -> dict[str, str | None] | None:
    """The exact version of the source quoted at this place, where one is recorded."""
    version = ctx.catalog.sources[citation.source].version_of(citation.locator)
    return version.export() if version else None


def machine_export(ctx: SiteContext, variant_id: str) -> str:
    """The rulebook as machine values: every ruling in force (inherited ones included) with its
    question, value, evidence, the rulebook that states it and the places quoted with the exact
    version of each source where recorded. The pages show these in words."""
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
                "sources": [
                    {
                        "source": citation.source,
                        "locator": citation.locator,
                        "version": _version(ctx, citation),
                    }
                    for citation in ruling.sources
                ],
            }
            for qid, ruling in resolved.rulings.items()
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def variant_pages(
    ctx: SiteContext, statistics: dict[str, Any], played: Collection[str] = ()
) -> dict[str, str]:
    """Each rulebook's page and machine export; a ``played`` rulebook's page links to its
    play page."""
    env = environment()
    pages = {}
    for vid in ctx.variant_ids:
        play = play_page(vid) if vid in played else None
        context = variant_context(ctx, vid, statistics.get(vid), play)
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
        fm=ctx.front_matter(*ctx.words.page("variants")),
        rows=rows,
        link=ctx.linker(page),
        variant_page=variant_page,
    )
    return {page: text}
