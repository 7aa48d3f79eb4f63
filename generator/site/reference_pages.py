"""Reference pages: one per rule question, the bibliography with its open questions, and
the glossary (whose terms also become tooltips on every page)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from generator.measure.effects import Effect
from generator.measure.engine_readings import Verdict
from generator.measure.exact_effects import ExactFigures
from generator.model.variant import Evidence, Ruling, Source
from generator.model.yamlsource import load_data
from generator.site.context import SiteContext, question_page, variant_page
from generator.site.render import environment, render

DATA = Path(__file__).parent / "data"
OPEN_EVIDENCE = (Evidence.ASSUMED, Evidence.CONFLICTING, Evidence.NOT_MODELLED)


@dataclass(frozen=True)
class Term:
    id: str
    term: str
    forms: tuple[str, ...]
    definition: str
    explain: tuple[str, ...] = ()
    """Words that, met in a rulebook's how-to-play table, get this definition printed beside
    it (a newcomer meets them on the first screen; a tooltip does not show on a phone)."""


def glossary_terms() -> list[Term]:
    data = load_data(DATA / "glossary.yml")
    return [
        Term(t["id"], t["term"], tuple(t["forms"]), t["definition"], tuple(t.get("explain", ())))
        for t in data["terms"]
    ]


class GlossaryError(ValueError):
    """A glossary term that cannot become a tooltip; the message names it and the fix."""


_TOOLTIP_FORM = re.compile(r"[^\[\]\\\s]([^\[\]\\\n]*[^\[\]\\\s])?")
"""What Python-Markdown's abbr reads as an abbreviation: no brackets, backslashes or line
breaks, no space at either end. Any other form would leave its definition line on the page,
as Markdown, at the foot of every page."""


def abbreviations(terms: list[Term]) -> str:
    """Python-Markdown abbreviation definitions: a tooltip on each form of each term.

    The definition becomes the tooltip (an attribute the Markdown serializer escapes) but an
    ``&`` that looks like an entity would be kept as one: every ``&`` is written ``&amp;``, so
    the tooltip shows the definition character for character."""
    lines = []
    for term in terms:
        for form in term.forms:
            if not _TOOLTIP_FORM.fullmatch(form):
                raise GlossaryError(
                    f"{DATA / 'glossary.yml'}: term {term.id!r}: form {form!r} cannot be a"
                    " tooltip (no brackets, backslashes, line breaks or outer spaces); reword it"
                )
            definition = " ".join(term.definition.split()).replace("&", "&amp;")
            lines.append(f"*[{form}]: {definition}")
    return "\n".join(lines) + "\n"


def open_research_questions() -> list[dict[str, str]]:
    data = load_data(DATA / "open-questions.yml")
    questions: list[dict[str, str]] = data["questions"]
    return questions


@dataclass(frozen=True)
class GivenBy:
    """One ruling giving an answer: the rulebook that states it, and the rulebooks deriving
    from it that inherit it unchanged."""

    ruling: Ruling
    heirs: tuple[str, ...]


@dataclass(frozen=True)
class Answer:
    """One answer to a question, in words, and every ruling (with its heirs) that gives it."""

    words: str
    given_by: tuple[GivenBy, ...]

    @property
    def rulebooks(self) -> list[str]:
        return [v for g in self.given_by for v in (g.ruling.variant, *g.heirs)]


def answers(ctx: SiteContext, question_id: str) -> list[Answer]:
    """The rulebooks grouped by their answer in words, the answer most rulebooks give first
    (rulebook order within an answer). A rulebook that inherits its ruling is listed with the
    rulebook that states it: the two share one ruling and its quotes."""
    grouped: dict[str, dict[str, list[str]]] = {}
    for vid, resolved in ctx.resolved.items():
        ruling = resolved.rulings.get(question_id)
        if ruling is not None:
            heirs = grouped.setdefault(ctx.describe(ruling), {}).setdefault(ruling.id, [])
            if vid != ruling.variant:
                heirs.append(vid)
    found = [
        Answer(words, tuple(GivenBy(ctx.rulings[rid], tuple(h)) for rid, h in rulings.items()))
        for words, rulings in grouped.items()
    ]
    return sorted(found, key=lambda a: -len(a.rulebooks))


@dataclass(frozen=True)
class EffectRow:
    """One row of a question's measured effects: one change, measured on one game, and the
    rulebooks that play that game (their figures measure it once each, and agree)."""

    effect: Effect
    """The first rulebook's; the others' show the same figures."""
    variants: tuple[str, ...]
    values: tuple[Any, ...] = ()
    """Every answer the row's change goes to (the effect's first): two answers that make one
    game (on Bell's route "the central rosette" and "every rosette" are safe alike) share a
    row."""

    @property
    def answers(self) -> tuple[Any, ...]:
        return self.values or (self.effect.change.value,)


def _timeless(figures: ExactFigures | None) -> ExactFigures | None:
    return None if figures is None else replace(figures, cpu_seconds=0.0)


def effect_rows(
    effects: list[Effect],
    same_game: Mapping[str, tuple[str, ...]],
    verdict: Callable[[Effect], Verdict],
    one_game: Callable[[Effect, Effect], bool] = lambda a, b: False,
) -> list[EffectRow]:
    """The effects, one row per game and change: a rulebook that plays exactly the same game
    as an earlier row's (``same_game``, the engine's reading:
    :meth:`~generator.measure.engine_readings.EngineReadings.same_game_groups`), changed to
    the same answer with the same figures and verdict, joins that row instead of repeating
    it. Figures that differ keep their own row, whatever the games' equality says."""

    def figures(e: Effect) -> tuple[Any, ...]:
        """What the row shows: not the rulebook's name, which the records carry, nor the
        processor time each exact solve took."""
        x, f = e.exact, e.full
        exact = (
            None if x is None else (x.pieces, *map(_timeless, (x.baseline, x.changed)), x.reason)
        )
        full = None if f is None else (f.baseline.key, f.changed.key, f.first_player, f.throws)
        return (e.change.value, e.win_rate, e.throws, exact, full, verdict(e).changes_play)

    rows: list[EffectRow] = []
    for e in effects:
        home = next(
            (
                i
                for i, row in enumerate(rows)
                if e.variant in same_game.get(row.variants[0], ())
                and figures(row.effect) == figures(e)
            ),
            None,
        )
        if home is None:
            rows.append(EffectRow(e, (e.variant,)))
        else:
            rows[home] = EffectRow(rows[home].effect, (*rows[home].variants, e.variant))
    return _one_row_a_game(rows, lambda e: figures(e)[1:], one_game)


def _one_row_a_game(
    rows: list[EffectRow],
    figures: Callable[[Effect], tuple[Any, ...]],
    one_game: Callable[[Effect, Effect], bool],
) -> list[EffectRow]:
    """Rows of the same rulebooks whose changes, to different answers, make one game
    (``one_game``: the rules decide it, not the figures, which could agree by chance) and so
    show the same figures in every column: one row, its answers joined."""
    merged: list[EffectRow] = []
    for row in rows:
        e = row.effect
        home = next(
            (
                i
                for i, kept in enumerate(merged)
                if kept.variants == row.variants
                and figures(kept.effect) == figures(e)
                and one_game(kept.effect, e)
            ),
            None,
        )
        if home is None:
            merged.append(row)
        else:
            kept = merged[home]
            merged[home] = replace(kept, values=(*kept.answers, *row.answers))
    return merged


def question_pages(ctx: SiteContext, effects: dict[str, Any], family: int = 0) -> dict[str, str]:
    """Every question's page; ``effects`` are the measured one-ruling effects by question,
    judged among ``family`` changes (:class:`generator.measure.effects.QuestionEffects`)."""
    env = environment()
    pages = {}
    simulated = [vid for vid, r in ctx.resolved.items() if r.variant.simulate]
    same_game = ctx.engine.same_game_groups(simulated)

    def verdict(e: Effect) -> Verdict:
        return ctx.engine.value_verdict(e.variant, e.question, e.change.value)

    def one_game(a: Effect, b: Effect) -> bool:
        return ctx.engine.one_changed_game(a.variant, a.question, a.change.value, b.change.value)

    for qid, question in ctx.catalog.questions.items():
        page = question_page(qid)
        played_by = {vid: r.rulings[qid] for vid, r in ctx.resolved.items() if qid in r.rulings}
        pages[page] = render(
            env,
            "question.md.j2",
            fm=ctx.front_matter(question.title, question.explanation),
            q=question,
            answers=answers(ctx, qid),
            languages=ctx.words.language,
            played_by=played_by,
            silent=[ctx.catalog.variants[v] for v in ctx.resolved if v not in played_by],
            variants=ctx.catalog.variants,
            sources=ctx.catalog.sources,
            link=ctx.linker(page),
            prose=ctx.prose(page),
            target=ctx.ruling_target,
            variant_page=variant_page,
            effect=(
                effect_rows(effects[qid], same_game, verdict, one_game) if qid in effects else None
            ),
            simulated=bool(effects),
            family=family,
            label=ctx.words.label,
            verdict=verdict,
        )
    index = "questions/index.md"
    pages[index] = render(
        env,
        "questions-index.md.j2",
        fm=ctx.front_matter(*ctx.words.page("questions")),
        questions=list(ctx.catalog.questions.values()),
        counts={q: len(answers(ctx, q)) for q in ctx.catalog.questions},
        link=ctx.linker(index),
        question_page=question_page,
    )
    return pages


def citing_rulings(ctx: SiteContext, source: Source) -> list[Ruling]:
    return [r for r in ctx.rulings.values() if any(c.source == source.id for c in r.sources)]


NOT_SEEN = "Not seen by this edition."
"""What a bibliography entry says, once, of a source this edition could not check itself."""


def sources_page(ctx: SiteContext) -> dict[str, str]:
    page = "sources/index.md"
    open_rulings = [r for r in ctx.rulings.values() if r.evidence in OPEN_EVIDENCE]
    claims_citing = {
        s: [
            c
            for v in ctx.catalog.variants.values()
            for c in v.claims
            if any(x.source == s for x in c.sources)
        ]
        for s in ctx.catalog.sources
    }
    text = render(
        environment(),
        "sources.md.j2",
        fm=ctx.front_matter(*ctx.words.page("sources")),
        sources=list(ctx.catalog.sources.values()),
        citing={s.id: citing_rulings(ctx, s) for s in ctx.catalog.sources.values()},
        claims_citing=claims_citing,
        open_rulings=open_rulings,
        research=open_research_questions(),
        questions=ctx.catalog.questions,
        variants=ctx.catalog.variants,
        evidence_help=ctx.evidence_help,
        link=ctx.linker(page),
        prose=ctx.prose(page),
        target=ctx.ruling_target,
        words=ctx.words,
        not_seen=NOT_SEEN,
    )
    return {page: text}


def glossary_page(ctx: SiteContext) -> dict[str, str]:
    page = "glossary/index.md"
    text = render(
        environment(),
        "glossary.md.j2",
        fm=ctx.front_matter(*ctx.words.page("glossary")),
        terms=glossary_terms(),
    )
    return {page: text}
