"""The comparison: every question against every variant (``/compare/``), and one page per
pair of variants (``/compare/<a>--<b>/``) listing exactly what differs and whether it changes
the game, as the engine decides (:mod:`generator.site.equivalence`).

Pages are made for every pair of variants: each is small, and a reader may ask about any pair.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.engine.rules import compile_rules
from generator.model.equipment import Equipment
from generator.model.variant import Question, Ruling
from generator.site.context import SiteContext, pair_page, question_page, variant_page
from generator.site.equivalence import Verdict, compare_rulings, sampled_agreement, swapped_rules
from generator.site.facts import value_label
from generator.site.render import environment, render

SAMPLED_POSITIONS = 100
"""Positions of random games per engine cross-check of a "plays identically" verdict (every
throw is tried at each)."""


class RowStatus:
    SAME = "same"
    UNPLAYED = "not played by the engine"
    WORDING = "differs in wording only: plays identically"
    DIFFERS = "differs"


@dataclass(frozen=True)
class Cell:
    variant: str
    ruling: Ruling | None
    label: str
    differs: bool
    detail: str = ""
    """The full reading of the value (an equipment title, say), shown as the link's tooltip."""


@dataclass(frozen=True)
class Row:
    question: Question
    cells: tuple[Cell, ...]
    status: str


@dataclass(frozen=True)
class PairDifference:
    question: Question
    a: Ruling | None
    b: Ruling | None
    in_a: Verdict | None
    in_b: Verdict | None
    sampled: tuple[int, int] | None
    measured: tuple[Any, ...] = ()
    """Suite effects of making exactly this change in either rulebook."""

    @property
    def changes_play(self) -> bool:
        return any(v is not None and v.changes_play for v in (self.in_a, self.in_b))


class Comparer:
    """Engine verdicts, computed once per (host variant, replacing ruling)."""

    def __init__(self, ctx: SiteContext) -> None:
        self.ctx = ctx
        self.verdict = cache(self._verdict)
        self.sampled = cache(self._sampled)

    def _verdict(self, host: str, other: str) -> Verdict:
        resolved = self.ctx.resolved[host]
        ruling = self.ctx.rulings[other]
        return compare_rulings(
            self.ctx.catalog, resolved, resolved.rulings[ruling.question], ruling
        )

    def _sampled(self, host: str, other: str) -> tuple[int, int] | None:
        resolved = self.ctx.resolved[host]
        mixed = swapped_rules(self.ctx.catalog, resolved, self.ctx.rulings[other])
        if mixed is None:
            return None
        return sampled_agreement(
            compile_rules(resolved), mixed, positions=SAMPLED_POSITIONS, seed=0
        )


def comparison_rows(ctx: SiteContext, comparer: Comparer) -> list[Row]:
    rows = []
    for question in ctx.catalog.questions.values():
        rulings = {vid: r.rulings.get(question.id) for vid, r in ctx.resolved.items()}
        labels = _row_labels(ctx.catalog.equipment, question.id, rulings)
        common = Counter(labels.values()).most_common(1)[0][0]
        cells = tuple(
            Cell(
                vid,
                rulings[vid],
                labels[vid],
                labels[vid] != common,
                _detail(ctx.catalog.equipment, question.id, rulings[vid]),
            )
            for vid in ctx.resolved
        )
        rows.append(Row(question, cells, _row_status(question, rulings, comparer)))
    return rows


def _row_labels(
    equipment: Equipment, question: str, rulings: dict[str, Ruling | None]
) -> dict[str, str]:
    """Short labels for one row. Different values must read differently (a reader filtering
    the rows that differ compares what the cells say), so where two short labels collide the
    whole row falls back to the full reading of each value."""
    short = {
        vid: short_label(equipment, question, r.value) if r else "—" for vid, r in rulings.items()
    }
    full = {vid: value_label(r.value) if r else "—" for vid, r in rulings.items()}
    by_label: dict[str, set[str]] = {}
    for vid in rulings:
        by_label.setdefault(short[vid], set()).add(full[vid])
    return full if any(len(values) > 1 for values in by_label.values()) else short


def short_label(equipment: Equipment, question: str, value: Any) -> str:
    """A few words a reader can scan in a table cell, made from the data: the equipment's
    name (its title up to the first bracket or semicolon), the throws a set of dice can make,
    or the machine value with its hyphens read as spaces."""
    if isinstance(value, str):
        if question == "dice" and value in equipment.dice:
            return "throws " + _throw_ranges([t for t, _ in equipment.dice[value].table()])
        kinds: dict[str, Any] = {"board": equipment.boards, "route": equipment.routes}
        if question in kinds and value in kinds[question]:
            return _title_head(kinds[question][value].title)
        return value.replace("-", " ")
    if isinstance(value, dict) and "per_piece" in value:
        throws = sorted(
            {t for p in value["per_piece"] if isinstance(p["throws"], list) for t in p["throws"]}
        )
        return f"{len(value['per_piece'])} named pieces, throws " + _throw_ranges(throws)
    if isinstance(value, dict) and "throws" in value:
        square = value.get("square")
        where = "to its step" if square == "throw" else f"to step {square}"
        return f"{_entry_throws(value['throws'])} {where}"
    return value_label(value)


def _detail(equipment: Equipment, question: str, ruling: Ruling | None) -> str:
    if ruling is None:
        return ""
    value = ruling.value
    for kind, items in (
        ("board", equipment.boards),
        ("route", equipment.routes),
        ("dice", equipment.dice),
    ):
        if question == kind and isinstance(value, str) and value in items:
            return str(items[value].title)
    return value_label(value)


def _title_head(title: str) -> str:
    """ "The Ur board (a 3 × 8 grid ...)" -> "Ur board"."""
    head = title.split(" (")[0].split(";")[0].strip()
    head = head[4:] if head.startswith("The ") else head
    return head[:1].upper() + head[1:]


def _entry_throws(throws: Any) -> str:
    if throws == "any":
        return "any throw"
    if isinstance(throws, list):
        return "throw " + _throw_ranges(throws)
    return str(throws)


def _throw_ranges(throws: list[int]) -> str:
    """[0, 1, 2, 3, 4] -> "0–4"; [1, 2, 3, 4, 6, 8] -> "1–4, 6, 8"."""
    runs: list[list[int]] = []
    for t in sorted(set(throws)):
        if runs and t == runs[-1][-1] + 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return ", ".join(
        f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs
    )


def _row_status(question: Question, rulings: dict[str, Ruling | None], comparer: Comparer) -> str:
    values = {repr(r.value) if r else None for r in rulings.values()}
    if len(values) == 1:
        return RowStatus.SAME
    if not question.drives_engine:
        return RowStatus.UNPLAYED
    for (a, ra), (b, rb) in itertools.combinations(rulings.items(), 2):
        if ra is None or rb is None:
            if ra is not rb:
                return RowStatus.DIFFERS
            continue
        if ra.value != rb.value and (
            comparer.verdict(a, rb.id).changes_play or comparer.verdict(b, ra.id).changes_play
        ):
            return RowStatus.DIFFERS
    return RowStatus.WORDING


def pair_differences(
    ctx: SiteContext, comparer: Comparer, a: str, b: str, effects: dict[str, Any]
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
        if in_a is not None and not in_a.changes_play and question.drives_engine and rb:
            sampled = comparer.sampled(a, rb.id)
        measured = tuple(
            e
            for e in effects.get(question.id, [])
            if (e.variant == a and rb and _same_value(e.change.value, rb.value))
            or (e.variant == b and ra and _same_value(e.change.value, ra.value))
        )
        found.append(PairDifference(question, ra, rb, in_a, in_b, sampled, measured))
    return found


def _same_value(x: Any, y: Any) -> bool:
    return json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)


def compare_index(ctx: SiteContext, comparer: Comparer) -> dict[str, str]:
    page = "compare/index.md"
    env = environment()
    rows = comparison_rows(ctx, comparer)
    pairs = [
        (ctx.catalog.variants[a], ctx.catalog.variants[b])
        for a, b in itertools.combinations(ctx.variant_ids, 2)
    ]
    fm = ctx.front_matter(
        "Compare the rulebooks",
        "Every rule question against every variant, with the differences that change play.",
    )
    # The table is the page: the table of contents would only take width from it.
    fm["hide"] = ["toc"]
    pair_groups = [
        (ctx.catalog.variants[first], [ctx.catalog.variants[b] for b in ctx.variant_ids[i + 1 :]])
        for i, first in enumerate(ctx.variant_ids[:-1])
    ]
    text = render(
        env,
        "compare.md.j2",
        fm=fm,
        rows=rows,
        variants=[ctx.catalog.variants[v] for v in ctx.variant_ids],
        pairs=pairs,
        pair_groups=pair_groups,
        link=ctx.linker(page),
        target=ctx.ruling_target,
        question_page=question_page,
        variant_page=variant_page,
        pair_page=pair_page,
        status=RowStatus,
    )
    return {page: text}


def pair_pages(
    ctx: SiteContext, comparer: Comparer, statistics: dict[str, Any], effects: dict[str, Any]
) -> dict[str, str]:
    env = environment()
    pages = {}
    for a, b in itertools.combinations(ctx.variant_ids, 2):
        page = pair_page(a, b)
        va, vb = ctx.catalog.variants[a], ctx.catalog.variants[b]
        differences = pair_differences(ctx, comparer, a, b, effects)
        whole_same = _same_game(ctx, a, b)
        pages[page] = render(
            env,
            "pair.md.j2",
            fm=ctx.front_matter(
                f"{va.short} and {vb.short} compared",
                f"What differs between {va.title} and {vb.title}, and what it changes.",
            ),
            a=va,
            b=vb,
            differences=differences,
            same_game=whole_same,
            lineage=_lineage_note(ctx, a, b),
            link=ctx.linker(page),
            target=ctx.ruling_target,
            variant_page=variant_page,
            question_page=question_page,
            label=value_label,
            stats_a=statistics.get(a),
            stats_b=statistics.get(b),
            sampled_positions=SAMPLED_POSITIONS,
        )
    return pages


def _same_game(ctx: SiteContext, a: str, b: str) -> bool:
    from generator.site.equivalence import effective_rules

    return effective_rules(compile_rules(ctx.resolved[a])) == effective_rules(
        compile_rules(ctx.resolved[b])
    )


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
