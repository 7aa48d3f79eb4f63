"""``/statistics/`` and each variant's statistics block: measured and exact figures.

Two kinds of figure, never mixed: exact values from the solver (perfect play, small piece
counts, :mod:`generator.measure.exact`) and simulated estimates with 95 % intervals from the
suite's records (:mod:`generator.measure.suite`). This module only reads the measurement's
:class:`~generator.measure.core.Results`; it never runs a computation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from generator.measure.agents import AGENTS, AgentScores
from generator.measure.core import Results
from generator.measure.effects import question_effects
from generator.measure.exact import EXACT, ExactValues
from generator.measure.exact_effects import EXACT_EFFECTS
from generator.measure.full_games import FULL_GAMES
from generator.measure.solve_plan import SOLVE_PLAN
from generator.measure.suite import (
    EFFECT_HALF_WIDTH,
    SENSITIVITY_GAMES,
    SUITE,
    Skipped,
    chance_check,
)
from generator.model.variant import Question, Variant
from generator.site.charts import Interval, histogram_chart, interval_chart, lines_chart
from generator.site.context import SiteContext, question_page, variant_page
from generator.site.full_games_view import full_games_view, solved_game
from generator.site.render import environment, figure, render
from generator.words import listing


@dataclass
class Figures:
    """What the measurement gives the pages (empty when the build did not measure)."""

    per_variant: dict[str, Any] = field(default_factory=dict)
    per_question: dict[str, Any] = field(default_factory=dict)
    """The measured one-ruling effects by question, joined and judged
    (:class:`generator.measure.effects.QuestionEffects`)."""
    family: int = 0
    """How many changes that alter play each effect was judged among."""
    files: dict[str, str | bytes] = field(default_factory=dict)
    """The statistics page and its charts, by docs path."""
    findings: list[Finding] = field(default_factory=list)
    """Each rulebook's findings, in the page's order (:func:`rulebook_findings`)."""


def statistics_files(ctx: SiteContext, results: Results | None) -> Figures:
    """The statistics page, its charts and the per-variant and per-question figures, read from
    the measurement's ``results`` (None: the build did not measure, and the pages say so)."""
    figures = measured_figures(ctx, results)
    figures.files.update(
        statistics_pages(ctx, results, figures, chart_files(ctx, results, figures))
    )
    return figures


def measured_figures(ctx: SiteContext, results: Results | None) -> Figures:
    """The per-variant and per-question figures and the rulebooks' findings (no files yet):
    what the charts (:func:`chart_files`) and every page read."""
    figures = Figures()
    suite = results.get(SUITE) if results else None
    exact = (results.get(EXACT) if results else None) or ExactValues()
    exact_effects = results.get(EXACT_EFFECTS) if results else None
    agents = (results.get(AGENTS) if results else None) or AgentScores()
    simulated = [vid for vid, r in ctx.resolved.items() if r.variant.simulate]
    same_game = ctx.engine.same_game_groups(simulated)
    full = full_games_view(results.get(FULL_GAMES) if results else None, list(ctx.variant_ids))
    for vid in ctx.variant_ids:
        baseline = suite.baseline.get(vid) if suite else None
        figures.per_variant[vid] = {
            "simulated": results is not None,
            "simulate": ctx.catalog.variants[vid].simulate,
            "baseline": baseline,
            "skill": agents.skill.get(vid),
            "agents": agents.rows.get(vid, []),
            "left_out": agents.left_out.get(vid, []),
            "check": agents.checked,
            "exact": exact.values.get(vid, []),
            "refused": exact.refused.get(vid),
            "exact_figures": exact_effects.rulebooks.get(vid, []) if exact_effects else [],
            "histogram": f"statistics/length-{vid}.svg" if baseline else None,
            "seed": results.seed if results else None,
            "same_game": [ctx.catalog.variants[other] for other in same_game.get(vid, ())],
            "agent_words": ctx.words.agent,
            "full_game": full.by_variant.get(vid),
            "full_changes": [
                {
                    "question": c.question,
                    "title": ctx.catalog.questions[c.question].title,
                    "value": ctx.words.label(c.question, c.value),
                    "effect": c.effect,
                }
                for c in full.changes
                if vid in c.variants
            ],
        }
    effects = question_effects(results)
    figures.per_question, figures.family = effects.by_question, effects.family
    figures.findings = rulebook_findings(ctx, figures.per_variant)
    return figures


def chart_files(
    ctx: SiteContext, results: Results | None, figures: Figures
) -> dict[str, str | bytes]:
    """The statistics charts (SVG), by docs path: the slowest part of the page, drawn apart
    from the rest (:func:`generator.site.generate.all_files` draws them on another core)."""
    return _charts(ctx, results, figures.findings)


def statistics_pages(
    ctx: SiteContext, results: Results | None, figures: Figures, charts: dict[str, str | bytes]
) -> dict[str, str | bytes]:
    """The statistics page and the method page, with the ``charts`` (:func:`chart_files`)."""
    suite = results.get(SUITE) if results else None
    exact = (results.get(EXACT) if results else None) or ExactValues()
    exact_effects = results.get(EXACT_EFFECTS) if results else None
    agents = (results.get(AGENTS) if results else None) or AgentScores()
    full = full_games_view(results.get(FULL_GAMES) if results else None, list(ctx.variant_ids))
    findings = figures.findings
    files: dict[str, str | bytes] = dict(charts)
    common = {
        "stats": results,
        "exact": exact,
        "variants": ctx.catalog.variants,
        "variant_page": variant_page,
        "pct": percent,
        "size": binary_size,
        "suite": suite,
        "full": full,
        "agent_scores": agents,
        "exact_effects": exact_effects,
        "agent_words": ctx.words.agent,
        "plan": results.get(SOLVE_PLAN) if results else None,
    }
    page = "statistics/index.md"
    files[page] = render(
        environment(),
        "statistics.md.j2",
        fm=ctx.front_matter(*ctx.words.page("statistics")),
        findings=findings,
        overview=overview(findings),
        solved_pieces=sorted({n for f in findings for n in f.exact_by_pieces}),
        exact_rows=same_small_games(findings),
        players=[ctx.words.agent(label) for label in ["random", *sorted(agents.named())]],
        charts=sorted(charts),
        link=ctx.linker(page),
        chance=chance_check(suite.effects if suite else []),
        questions=ctx.catalog.questions,
        label=ctx.words.label,
        **common,
    )
    method = METHOD_PAGE
    files[method] = render(
        environment(),
        "statistics-method.md.j2",
        fm=ctx.front_matter(*ctx.words.page("statistics-method")),
        refused=exact.refused,
        refusals=refusal_rows(ctx, suite.skipped if suite else []),
        question_page=question_page,
        link=ctx.linker(method),
        baseline_games=next((f.games for f in findings), None),
        sizes={
            "sensitivity": SENSITIVITY_GAMES,
            "half_width": EFFECT_HALF_WIDTH,
        },
        **common,
    )
    return files


@dataclass(frozen=True)
class RefusalRow:
    """One change the engine cannot play, in words, with every rulebook it was tried on."""

    question: Question
    answer: str
    """The ruling's words the rulebooks were changed to (as the comparison table gives them)."""
    reason: str
    variants: list[Variant]


def refusal_rows(ctx: SiteContext, skipped: list[Skipped]) -> list[RefusalRow]:
    """The changes the engine refused, one row per question, answer and reason (in the
    catalogue's order of questions), naming every rulebook refused for that reason."""
    rows: dict[tuple[str, str, str], RefusalRow] = {}
    for refused in skipped:
        question = ctx.catalog.questions[refused.change.question]
        answer = ctx.words.label(question.id, refused.change.value)
        reason = ctx.words.refusal(refused.problem)
        row = rows.setdefault(
            (question.id, answer, reason), RefusalRow(question, answer, reason, [])
        )
        row.variants.append(ctx.catalog.variants[refused.variant])
    order = list(ctx.catalog.questions)
    return sorted(rows.values(), key=lambda row: order.index(row.question.id))


METHOD_PAGE = "statistics/method.md"
"""The page for implementers: how every figure is reproduced, and what the engine refused."""
EVEN = 0.5


@dataclass(frozen=True)
class Finding:
    """What the measured figures say about one game: a rulebook, with every other rulebook
    whose rules play exactly the same game (their figures measure that one game)."""

    variants: list[Any]
    """The rulebooks playing this game, the first being the one measured."""
    figures: dict[str, Any]
    """Its statistics block (:func:`statistics_files`)."""
    pieces: int
    """Pieces a side, as played."""

    def _baseline(self, figure: str) -> Any:
        """One figure of the game's baseline run (random against random)."""
        return self.figures["baseline"]["results"][figure]

    @property
    def games(self) -> int:
        return int(self.figures["baseline"]["games"])

    @property
    def first_player(self) -> dict[str, float]:
        return cast(dict[str, float], self._baseline("first_player_win_rate"))

    @property
    def edge(self) -> str:
        """``first`` or ``second`` when the first player's 95 % interval lies wholly above or
        below one half; ``none`` when one half is inside it (no edge can be told)."""
        rate = self.first_player
        return "first" if rate["low"] > EVEN else "second" if rate["high"] < EVEN else "none"

    @property
    def throws(self) -> dict[str, Any]:
        return cast(dict[str, Any], self._baseline("throws"))

    @property
    def minutes(self) -> dict[str, Any]:
        return cast(dict[str, Any], self._baseline("minutes"))

    @property
    def skill(self) -> dict[str, Any] | None:
        skill: dict[str, Any] | None = self.figures["skill"]
        return skill

    @property
    def exact_by_pieces(self) -> dict[int, Any]:
        return {value.pieces: value for value in self.figures["exact"]}

    @property
    def full_game(self) -> Any | None:
        """The game solved with its own pieces (:class:`generator.site.full_games_view.Game`),
        or None where it is pending or was never measured."""
        return solved_game(self.figures["full_game"])

    @property
    def perfect(self) -> Any | None:
        """The exact value at the most pieces solved, or None."""
        exact = self.figures["exact"]
        return exact[-1] if exact else None


def rulebook_findings(ctx: SiteContext, per_variant: dict[str, Any]) -> list[Finding]:
    """One finding per distinct game measured, in rulebook order; rulebooks playing the same
    game are named together under the first of them."""
    findings: list[Finding] = []
    named: set[str] = set()
    for vid in ctx.variant_ids:
        figures = per_variant[vid]
        if figures["baseline"] is None or vid in named:
            continue
        same = [ctx.catalog.variants[vid], *figures["same_game"]]
        named.update(v.id for v in same)
        findings.append(Finding(same, figures, int(ctx.resolved[vid].value("pieces"))))
    return findings


def overview(findings: list[Finding]) -> dict[str, Any] | None:
    """The few facts across rulebooks the page opens with."""
    if not findings:
        return None
    by_edge: dict[str, list[Finding]] = {"first": [], "second": [], "none": []}
    for finding in findings:
        by_edge[finding.edge].append(finding)
    by_length = sorted(findings, key=lambda f: f.throws["mean"])
    by_rate = sorted(findings, key=lambda f: f.first_player["estimate"])
    return {
        "games": len(findings),
        "rulebooks": sum(len(f.variants) for f in findings),
        "by_edge": by_edge,
        "lowest_rate": by_rate[0],
        "highest_rate": by_rate[-1],
        "shortest": by_length[0],
        "longest": by_length[-1],
        "measured_skill": [f for f in findings if f.skill is not None],
    }


def same_small_games(findings: list[Finding]) -> list[list[Finding]]:
    """The perfect-play table's rows: the findings that play one game at every piece count
    solved exactly (equal rules fingerprints, :attr:`generator.measure.exact.ExactValue.game`)
    together, each row where its first finding stands. Two rulebooks that differ only in
    their number of pieces (the Great Book's Finkel and Three pieces) are one row there."""
    rows: dict[object, list[Finding]] = {}
    for f in findings:
        games = tuple((value.pieces, value.game) for value in f.figures["exact"])
        rows.setdefault(games or id(f), []).append(f)
    return list(rows.values())


def same_value_series(
    series: dict[str, list[tuple[int, float]]],
) -> dict[str, list[tuple[int, float]]]:
    """Merge rulebooks whose exact values agree (to 10 decimals) into one line labelled with
    all their names: many rulebooks play the same game, and identical lines would hide each
    other in the chart."""
    merged: dict[tuple[tuple[int, float], ...], list[str]] = {}
    for name, points in series.items():
        key = tuple((pieces, round(value, 10)) for pieces, value in points)
        merged.setdefault(key, []).append(name)
    return {listing(names): list(key) for key, names in merged.items()}


def binary_size(count: int) -> str:
    """``count`` bytes in the largest binary unit that keeps a leading digit: ``40 KiB``,
    ``3,740 GiB`` (one decimal below 10, with the site's thousands separator above 1,000).
    """
    value, unit = float(count), "bytes"
    for larger in ("KiB", "MiB", "GiB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    form = "%.0f" if unit == "bytes" or value >= 10 else "%.1f"
    return f"{figure(form, value)} {unit}"


def percent(value: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f} %"


def chart_labels(findings: list[Finding], more: str) -> dict[str, str]:
    """One chart row per distinct game: the first rulebook's id, labelled with its short name
    and how many other rulebooks play the same game (``more``: the words for that)."""
    return {
        f.variants[0].id: (
            more.format(short=f.variants[0].short, more=len(f.variants) - 1)
            if len(f.variants) > 1
            else f.variants[0].short
        )
        for f in findings
    }


def _charts(
    ctx: SiteContext, results: Results | None, findings: list[Finding]
) -> dict[str, str | bytes]:
    charts: dict[str, str | bytes] = {}
    if results is None:
        return charts
    words = ctx.words.data["charts"]
    suite = results.get(SUITE)
    if suite is not None and suite.baseline:
        short = {vid: ctx.catalog.variants[vid].short for vid in suite.baseline}
        labels = chart_labels(findings, str(words["more"]))
        games = {v: suite.baseline[v] for v in labels}
        short_or_group = {**short, **labels}
        rates = [
            Interval(short_or_group[v], **r["results"]["first_player_win_rate"])
            for v, r in games.items()
        ]
        charts["statistics/first-player.svg"] = interval_chart(
            rates, **words["first-player"], reference=0.5
        )
        lengths = [
            Interval(
                short_or_group[v],
                r["results"]["throws"]["mean"],
                r["results"]["throws"]["low"],
                r["results"]["throws"]["high"],
            )
            for v, r in games.items()
        ]
        charts["statistics/length.svg"] = interval_chart(
            lengths, **words["length"], logarithmic=True
        )
        skill = (results.get(AGENTS) or AgentScores()).skill
        skills = [
            Interval(short_or_group[v], s["estimate"], s["low"], s["high"])
            for v in games
            if (s := skill.get(v)) is not None
        ]
        if skills:
            charts["statistics/skill.svg"] = interval_chart(skills, **words["skill"], reference=0.5)
        for vid, record in suite.baseline.items():
            histogram = record["results"]["throws"]["histogram"]
            charts[f"statistics/length-{vid}.svg"] = histogram_chart(
                histogram["edges"],
                histogram["counts"],
                title=str(words["rulebook-length"]["title"]).format(
                    short=short[vid], games=record["games"]
                ),
                x_label=words["rulebook-length"]["x_label"],
            )
    series = same_value_series(
        {
            ctx.catalog.variants[vid].short: [(v.pieces, 100 * v.first_player) for v in values]
            for vid, values in (results.get(EXACT) or ExactValues()).values.items()
            if values
        }
    )
    if series:
        charts["statistics/exact-first-player.svg"] = lines_chart(
            series, **words["exact-first-player"]
        )
    return charts
