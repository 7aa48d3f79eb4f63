"""The comparison: every question against every variant (``/compare/``), and one page per
pair of variants (``/compare/<a>--<b>/``) listing exactly what differs and whether it changes
the game, as the engine decides (read from :mod:`generator.measure.engine_readings`).

Pages are made for every pair of variants: each is small, and a reader may ask about any pair.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from generator.measure.cross_checks import CrossChecks
from generator.measure.engine_readings import Verdict
from generator.measure.full_games import FullEffect
from generator.measure.parting import (
    RANDOM_POSITIONS,
    SEARCH_LIMIT,
    Gap,
    Parting,
    Partings,
    parting_key,
)
from generator.model.equipment import Equipment
from generator.model.variant import Question, Ruling
from generator.site.context import SiteContext, pair_page, question_page, variant_page
from generator.site.full_games_view import solved_game
from generator.site.parting_view import DrawnParting, draw_parting
from generator.site.render import environment, in_sentence, render
from generator.site.vocabulary import Vocabulary

SHOW_CHOICES = {
    "all": "every question",
    "rulings": "rulings that differ from the baseline",
    "play": "a different game from the baseline",
}
"""The comparison's filters: address value -> what the reader reads."""


@dataclass(frozen=True)
class Cell:
    variant: str
    ruling: Ruling | None
    label: str
    value_class: int
    """Cells of one row with equal machine values share a class (0, 1, ...)."""
    detail: str = ""
    """The full reading of the value (an equipment title, say), shown as the link's tooltip."""


@dataclass(frozen=True)
class Row:
    question: Question
    cells: tuple[Cell, ...]
    plays: tuple[str, ...]
    """``plays[i][j] == "1"`` when the engine plays a different game with rulebook i's ruling
    than with rulebook j's (either put into the other); one string of 0/1 per rulebook."""

    def differs(self, baseline: int, index: int) -> bool:
        return self.cells[index].value_class != self.cells[baseline].value_class

    def plays_differently(self, baseline: int, index: int) -> bool:
        return self.plays[baseline][index] == "1"

    def status(self, baseline: int, chosen: range | list[int]) -> str:
        """The row's status in words, against the baseline, over the chosen rulebooks
        (mirrored by the comparison script, ``rowStatus`` in ur-compare.js)."""
        differing = [i for i in chosen if self.differs(baseline, i)]
        playing = [i for i in differing if self.plays_differently(baseline, i)]
        if not differing:
            return "the same in every rulebook shown"
        if not self.question.drives_engine:
            return "differs; not simulated here"
        if not playing:
            return "worded differently; the same game"
        n = len(playing)
        return f"a different game in {n} rulebook{'s' if n != 1 else ''}"


@dataclass(frozen=True)
class PairDifference:
    question: Question
    a: Ruling | None
    b: Ruling | None
    in_a: Verdict | None
    in_b: Verdict | None
    sampled: Sampled | None
    measured: tuple[Any, ...] = ()
    """Suite effects of making exactly this change in either rulebook."""
    parting: DrawnParting | None = None
    """Where the two answers give different legal moves, drawn (None: not found or not shown)."""
    gap: str | None = None
    """Why no position shows the difference (a :class:`~generator.measure.parting.Gap`
    value), where the engine searched for one."""

    @property
    def changes_play(self) -> bool:
        return any(v is not None and v.changes_play for v in (self.in_a, self.in_b))

    @property
    def exact(self) -> ExactVerdict | None:
        """What the exact effects of this change say (exact beats sampled): the game changes
        when some exact figure moves in either rulebook, at the piece counts where one moves;
        it is the same game when every measured change was computed exactly and none moves.
        None when neither can be said (nothing computed, or a change only sampled)."""
        records = [e.exact for e in self.measured]
        known = [r for r in records if r is not None and r.changes_the_game is not None]
        moving = [r for r in known if r.changes_the_game]
        if moving:
            return ExactVerdict(True, tuple(sorted({r.pieces for r in moving})))
        if known and len(known) == len(records):
            return ExactVerdict(False, tuple(sorted({r.pieces for r in known})))
        return None

    @property
    def full(self) -> FullEffect | None:
        """This change's effect on the full game, where it moves and both full games are
        solved (in either rulebook; the first found)."""
        return next((e.full for e in self.measured if e.full and e.full.changes_the_game), None)

    @property
    def exactly_the_same(self) -> bool:
        """The rules differ, but computed exactly no figure moves (nor in the full game,
        where it is solved)."""
        return self.exact is not None and not self.exact.changes_the_game and self.full is None


@dataclass(frozen=True)
class ExactVerdict:
    """The exact verdict on one difference of a pair (:attr:`PairDifference.exact`)."""

    changes_the_game: bool
    pieces: tuple[int, ...]
    """The pieces a side at which it was computed (where it moves, when it does)."""


class Comparer:
    """The engine's verdicts, read per (host variant, replacing ruling) from the measurement
    (:meth:`generator.measure.engine_readings.EngineReadings.verdict`), and the measurement's
    random-game cross-checks of those that say "plays identically" (None: not measured)."""

    def __init__(self, ctx: SiteContext, cross_checks: CrossChecks | None = None) -> None:
        self.ctx = ctx
        self.cross_checks = cross_checks or {}

    def verdict(self, host: str, other: str) -> Verdict:
        """Whether ``host`` plays another game with the ruling ``other`` in place of its own."""
        return self.ctx.engine.verdict(host, other)

    def sampled(self, swaps: Iterable[tuple[str, str]]) -> Sampled | None:
        """The cross-checks of the verdicts on these (host, ruling) swaps, summed (None when
        none was measured)."""
        checks = [c for swap in swaps if (c := self.cross_checks.get(swap)) is not None]
        if not checks:
            return None
        return Sampled(
            sum(c.positions for c in checks), sum(c.differing for c in checks), len(checks)
        )


@dataclass(frozen=True)
class Sampled:
    """What the random-game cross-checks of one difference found, over its rulebooks."""

    positions: int
    differing: int
    """Positions where the two rules generate different moves for some throw."""
    rulebooks: int
    """In how many of the pair's rulebooks the other's ruling was played (1 or 2)."""


def comparison_rows(ctx: SiteContext, comparer: Comparer) -> list[Row]:
    rows = []
    for question in ctx.catalog.questions.values():
        rulings = {vid: r.rulings.get(question.id) for vid, r in ctx.resolved.items()}
        labels = _row_labels(ctx.catalog.equipment, question.id, rulings)
        classes: dict[str, int] = {}
        for ruling in rulings.values():
            classes.setdefault(_value_key(ruling), len(classes))
        cells = tuple(
            Cell(
                vid,
                rulings[vid],
                labels[vid],
                classes[_value_key(rulings[vid])],
                _detail(ctx.catalog.equipment, question.id, rulings[vid]),
            )
            for vid in ctx.resolved
        )
        plays = tuple(
            "".join(
                "1" if plays_differently(comparer, question, ra, rb) else "0"
                for rb in rulings.items()
            )
            for ra in rulings.items()
        )
        rows.append(Row(question, cells, plays))
    return rows


def _value_key(ruling: Ruling | None) -> str:
    return "" if ruling is None else json.dumps(ruling.value, sort_keys=True)


def plays_differently(
    comparer: Comparer,
    question: Question,
    a: tuple[str, Ruling | None],
    b: tuple[str, Ruling | None],
) -> bool:
    """Whether the engine plays a different game with rulebook a's ruling than with b's: either
    ruling put into the other rulebook changes the effective rules (see :mod:`equivalence`).
    A question the engine does not play never changes the game."""
    (va, ra), (vb, rb) = a, b
    if not question.drives_engine or _value_key(ra) == _value_key(rb):
        return False
    if ra is None or rb is None:
        return True
    return comparer.verdict(va, rb.id).changes_play or comparer.verdict(vb, ra.id).changes_play


def typical_rulebook(rows: list[Row]) -> int:
    """The rulebook whose rulings agree with the others' most often: the comparison's baseline
    until the reader picks another (first in order on a tie)."""
    width = len(rows[0].cells)
    agreement = [
        sum(sum(1 for c in row.cells if c.value_class == row.cells[i].value_class) for row in rows)
        for i in range(width)
    ]
    return agreement.index(max(agreement))


def comparison_data(ctx: SiteContext, rows: list[Row], baseline: int) -> dict[str, Any]:
    """What the comparison script reads (embedded in the page, so it works from a file with no
    network): rulebooks in column order, the default baseline, and per question the value
    class of each rulebook and who plays differently from whom."""
    return {
        "variants": [
            {"id": vid, "short": ctx.catalog.variants[vid].short} for vid in ctx.variant_ids
        ],
        "baseline": ctx.variant_ids[baseline],
        "questions": [
            {
                "id": row.question.id,
                "engine": row.question.drives_engine,
                "values": [c.value_class for c in row.cells],
                "plays": list(row.plays),
            }
            for row in rows
        ],
    }


def _row_labels(
    equipment: Equipment, question: str, rulings: dict[str, Ruling | None]
) -> dict[str, str]:
    """Short labels for one row. Different values must read differently (a reader filtering
    the rows that differ compares what the cells say), so where two short labels collide the
    whole row falls back to the full reading of each value."""
    short = {
        vid: short_label(equipment, question, r.value) if r else "—" for vid, r in rulings.items()
    }
    full = {
        vid: full_label(equipment, question, r.value) if r else "—" for vid, r in rulings.items()
    }
    by_label: dict[str, set[str]] = {}
    for vid in rulings:
        by_label.setdefault(short[vid], set()).add(full[vid])
    return full if any(len(values) > 1 for values in by_label.values()) else short


def short_label(equipment: Equipment, question: str, value: Any) -> str:
    """A few words a reader can scan in a table cell (see :mod:`generator.site.vocabulary`)."""
    return Vocabulary.of(equipment).label(question, value)


def full_label(equipment: Equipment, question: str, value: Any) -> str:
    """The whole reading of a value in words (an equipment's title, say)."""
    return Vocabulary.of(equipment).describe(question, value)


def _detail(equipment: Equipment, question: str, ruling: Ruling | None) -> str:
    return "" if ruling is None else full_label(equipment, question, ruling.value)


def pair_differences(
    ctx: SiteContext,
    comparer: Comparer,
    a: str,
    b: str,
    effects: dict[str, Any],
    partings: Partings | None = None,
) -> list[PairDifference]:
    found = []
    for question in ctx.catalog.questions.values():
        ra = ctx.resolved[a].rulings.get(question.id)
        rb = ctx.resolved[b].rulings.get(question.id)
        if (ra.value if ra else None) == (rb.value if rb else None) and (ra is None) == (
            rb is None
        ):
            continue
        both = ra is not None and rb is not None
        in_a = comparer.verdict(a, rb.id) if both and rb else None
        in_b = comparer.verdict(b, ra.id) if both and ra else None
        sampled = None
        same_game = in_a and in_b and not (in_a.changes_play or in_b.changes_play)
        if question.drives_engine and ra and rb and same_game:  # checked both ways
            sampled = comparer.sampled([(a, rb.id), (b, ra.id)])
        measured = tuple(
            e
            for e in effects.get(question.id, [])
            if (e.variant == a and rb and _same_value(e.change.value, rb.value))
            or (e.variant == b and ra and _same_value(e.change.value, ra.value))
        )
        where = (partings or {}).get(parting_key(a, b, question.id))
        drawn = _drawn(ctx, (a, b), question.id, where) if isinstance(where, Parting) else None
        gap = where.value if isinstance(where, Gap) else None
        found.append(PairDifference(question, ra, rb, in_a, in_b, sampled, measured, drawn, gap))
    return found


def _drawn(
    ctx: SiteContext, pair: tuple[str, str], question: str, parting: Parting
) -> DrawnParting:
    variants = (ctx.catalog.variants[pair[0]], ctx.catalog.variants[pair[1]])
    host = ctx.resolved[parting.host]
    return draw_parting(ctx.words, host, variants, parting, f"parting-{question}")


def _same_value(x: Any, y: Any) -> bool:
    return json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)


def compare_index(ctx: SiteContext, comparer: Comparer) -> dict[str, str]:
    page = "compare/index.md"
    env = environment()
    rows = comparison_rows(ctx, comparer)
    baseline = typical_rulebook(rows)
    # The baseline's column comes first; the script moves whichever the reader picks there.
    order = [baseline] + [i for i in range(len(ctx.variant_ids)) if i != baseline]
    fm = ctx.front_matter(*ctx.words.page("compare"))
    # The table is the page: the navigation and the table of contents would take its width.
    fm["hide"] = ["navigation", "toc"]
    variants = [ctx.catalog.variants[v] for v in ctx.variant_ids]
    pair_groups = [(variants[i], variants[i + 1 :]) for i in range(len(variants) - 1)]
    text = render(
        env,
        "compare.md.j2",
        fm=fm,
        rows=rows,
        order=order,
        baseline=baseline,
        chosen=range(len(variants)),
        variants=variants,
        pair_count=len(variants) * (len(variants) - 1) // 2,
        pair_groups=pair_groups,
        show_choices=SHOW_CHOICES,
        data=comparison_data(ctx, rows, baseline),
        link=ctx.linker(page),
        target=ctx.ruling_target,
        question_page=question_page,
        variant_page=variant_page,
        pair_page=pair_page,
    )
    return {page: text}


def reverse_pair_redirects(variant_ids: list[str]) -> dict[str, str]:
    """``compare/b--a.md`` -> ``compare/a--b.md`` for every pair: a reader may name the two
    rulebooks in either order."""
    return {
        f"compare/{b}--{a}.md": pair_page(a, b)
        for a, b in itertools.combinations(sorted(variant_ids), 2)
    }


PARTING_SEARCH = {"nearest": SEARCH_LIMIT, "random": RANDOM_POSITIONS}
"""How far the engine searched for a parting position, for the words of one not found."""
PAIR_SEARCH_BOOST = 0.2
"""Pair pages are many and each names two rulebooks: search ranks them below the rulebook and
question pages, so a rulebook's own page comes first for its name."""


def verdict_words(words: Vocabulary, in_a: Verdict, in_b: Verdict, a: Any, b: Any) -> str:
    """How the engine judged one difference, both ways, in one or two sentences (the verdicts
    worded by the vocabulary's ``verdicts``)."""
    if in_a is in_b:
        return f"Either ruling, put into the other rulebook, {words.verdict(in_a)}."
    return (
        f"In {a.short}, the other ruling {words.verdict(in_a)}; "
        f"in {b.short}, the other ruling {words.verdict(in_b)}."
    )


def value_words(ctx: SiteContext, ruling: Ruling | None) -> str:
    """A ruling's value in a few words: the one place pair pages turn a value into text."""
    if ruling is None:
        return "has no ruling"
    return short_label(ctx.catalog.equipment, ruling.question, ruling.value)


def measurable(differences: list[PairDifference]) -> list[str]:
    """The questions whose measured effect on the first player's wins stands out even among
    all changes measured (as the measurement judged it: :mod:`generator.measure.effects`)."""
    return [
        d.question.title
        for d in differences
        if any(e.significance.win_rate.measurable for e in d.measured)
    ]


def pair_pages(
    ctx: SiteContext,
    comparer: Comparer,
    statistics: dict[str, Any],
    effects: dict[str, Any],
    family: int = 0,
    partings: Partings | None = None,
) -> dict[str, str]:
    """Every pair's page; ``effects`` are the measured one-ruling effects by question, judged
    among ``family`` changes (:class:`generator.measure.effects.QuestionEffects`); ``partings``
    the positions where each pair's answers part (None: not measured)."""
    env = environment()
    pages = {}
    for a, b in itertools.combinations(ctx.variant_ids, 2):
        page = pair_page(a, b)
        va, vb = ctx.catalog.variants[a], ctx.catalog.variants[b]
        differences = pair_differences(ctx, comparer, a, b, effects, partings)
        titles = {"a_title": in_sentence(va.title), "b_title": in_sentence(vb.title)}
        fm = ctx.front_matter(*ctx.words.page("pair", a=va.short, b=vb.short, **titles))
        fm["search_boost"] = PAIR_SEARCH_BOOST
        pages[page] = render(
            env,
            "pair.md.j2",
            fm=fm,
            a=va,
            b=vb,
            differences=differences,
            same_game=ctx.engine.same_game(a, b),
            measurable=measurable(differences),
            family=family,
            any_measured=any(d.measured for d in differences),
            lineage=_lineage_note(ctx, a, b),
            link=ctx.linker(page),
            target=ctx.ruling_target,
            variant_page=variant_page,
            question_page=question_page,
            words=lambda ruling: value_words(ctx, ruling),
            verdict_words=lambda in_a, in_b, a, b: verdict_words(ctx.words, in_a, in_b, a, b),
            sources=ctx.catalog.sources,
            languages=ctx.words.language,
            search=PARTING_SEARCH,
            stats_a=statistics.get(a),
            stats_b=statistics.get(b),
            solved_a=solved_game((statistics.get(a) or {}).get("full_game")),
            solved_b=solved_game((statistics.get(b) or {}).get("full_game")),
        )
    return pages


@dataclass(frozen=True)
class OtherAnswer:
    """Rulebooks that answer a question one way, other than the rulebook at hand."""

    words: str
    variants: tuple[Any, ...]


@dataclass(frozen=True)
class OthersSay:
    """How the other rulebooks answer one question of a rulebook: how many agree, and the
    others grouped by their answer."""

    agree: int
    others: int
    differ: tuple[OtherAnswer, ...]
    silent: int


def others_say(ctx: SiteContext, variant_id: str) -> dict[str, OthersSay]:
    """Per question of ``variant_id``, what the other rulebooks rule (for "Others say")."""
    found = {}
    own = ctx.resolved[variant_id].rulings
    for qid, ruling in own.items():
        groups: dict[str, list[Any]] = {}
        agree = silent = 0
        for other, resolved in ctx.resolved.items():
            theirs = resolved.rulings.get(qid)
            if other == variant_id:
                continue
            if theirs is None:
                silent += 1
            elif _value_key(theirs) == _value_key(ruling):
                agree += 1
            else:
                groups.setdefault(value_words(ctx, theirs), []).append(ctx.catalog.variants[other])
        differ = tuple(
            OtherAnswer(words, tuple(vs))
            for words, vs in sorted(groups.items(), key=lambda kv: -len(kv[1]))
        )
        found[qid] = OthersSay(agree, len(ctx.resolved) - 1, differ, silent)
    return found


def _lineage_note(ctx: SiteContext, a: str, b: str) -> str:
    la, lb = ctx.catalog.lineage(a), ctx.catalog.lineage(b)
    if a in lb:
        return f"{ctx.catalog.variants[b].short} derives from {ctx.catalog.variants[a].short}."
    if b in la:
        return f"{ctx.catalog.variants[a].short} derives from {ctx.catalog.variants[b].short}."
    shared = [v for v in la if v in lb]
    if shared:
        return f"Both derive from {ctx.catalog.variants[shared[0]].short}."
    return "Neither derives from the other."
