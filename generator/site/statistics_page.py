"""``/statistics/`` and each variant's statistics block: measured and exact figures.

Two kinds of figure, never mixed: exact values from the solver (perfect play, small piece
counts, :mod:`generator.measure.exact`) and simulated estimates with 95 % intervals from the
suite's records (:mod:`generator.measure.suite`). This module only reads the measurement's
:class:`~generator.measure.core.Results`; it never runs a computation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.measure.core import Results
from generator.measure.exact import EXACT, ExactValues
from generator.measure.suite import SUITE, agent_table, chance_check, skill_summary
from generator.site.charts import Interval, histogram_chart, interval_chart, lines_chart
from generator.site.context import SiteContext, variant_page
from generator.site.equivalence import same_game_groups
from generator.site.render import environment, render


@dataclass
class Figures:
    """What the measurement gives the pages (empty when the build did not measure)."""

    per_variant: dict[str, Any] = field(default_factory=dict)
    per_question: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str | bytes] = field(default_factory=dict)
    """The statistics page and its charts, by docs path."""


def statistics_files(ctx: SiteContext, results: Results | None) -> Figures:
    """The statistics page, its charts and the per-variant and per-question figures, read from
    the measurement's ``results`` (None: the build did not measure, and the pages say so)."""
    figures = Figures()
    suite = results.get(SUITE) if results else None
    exact = (results.get(EXACT) if results else None) or ExactValues()
    charts = _charts(ctx, results)
    simulated = {vid: r for vid, r in ctx.resolved.items() if r.variant.simulate}
    same_game = same_game_groups(simulated)
    for vid in ctx.variant_ids:
        baseline = suite.baseline.get(vid) if suite else None
        figures.per_variant[vid] = {
            "simulated": results is not None,
            "simulate": ctx.catalog.variants[vid].simulate,
            "baseline": baseline,
            "skill": skill_summary(suite, vid) if suite else None,
            "agents": agent_table(suite, vid, ctx.catalog) if baseline and suite else [],
            "exact": exact.values.get(vid, []),
            "refused": exact.refused.get(vid),
            "histogram": f"statistics/length-{vid}.svg"
            if f"statistics/length-{vid}.svg" in charts
            else None,
            "seed": results.seed if results else None,
            "same_game": [ctx.catalog.variants[other] for other in same_game.get(vid, ())],
        }
    figures.per_question = suite.by_question() if suite else {}
    figures.files.update(charts)
    page = "statistics/index.md"
    rows = [
        {"v": ctx.catalog.variants[vid], **figures.per_variant[vid]}
        for vid in ctx.variant_ids
        if figures.per_variant[vid]["baseline"] is not None
    ]
    figures.files[page] = render(
        environment(),
        "statistics.md.j2",
        fm=ctx.front_matter(
            "Statistics",
            "First-player advantage, game length, skill and exact perfect-play values across"
            " variants.",
        ),
        stats=results,
        exact=exact,
        rows=rows,
        charts=sorted(charts),
        variants=ctx.catalog.variants,
        link=ctx.linker(page),
        variant_page=variant_page,
        pct=percent,
        size=binary_size,
        skipped=suite.skipped if suite else [],
        chance=chance_check(suite.effects if suite else []),
    )
    return figures


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
    return {", ".join(names): list(key) for key, names in merged.items()}


def binary_size(count: int) -> str:
    """``count`` bytes in the largest binary unit that keeps a leading digit: ``40 KiB``."""
    value = float(count)
    for unit in ("bytes", "KiB", "MiB"):
        if value < 1024:
            return (
                f"{value:.0f} {unit}" if unit == "bytes" or value >= 10 else f"{value:.1f} {unit}"
            )
        value /= 1024
    return f"{value:.1f} GiB"


def percent(value: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f} %"


def _charts(ctx: SiteContext, results: Results | None) -> dict[str, str | bytes]:
    charts: dict[str, str | bytes] = {}
    if results is None:
        return charts
    suite = results.get(SUITE)
    if suite is not None and suite.baseline:
        short = {vid: ctx.catalog.variants[vid].short for vid in suite.baseline}
        rates = [
            Interval(short[v], **r["results"]["first_player_win_rate"])
            for v, r in suite.baseline.items()
        ]
        charts["statistics/first-player.svg"] = interval_chart(
            rates,
            title="First player's wins, random v random (95 % intervals)",
            axis="first player wins (share of games)",
            reference=0.5,
        )
        lengths = [
            Interval(
                short[v],
                r["results"]["throws"]["mean"],
                r["results"]["throws"]["low"],
                r["results"]["throws"]["high"],
            )
            for v, r in suite.baseline.items()
        ]
        charts["statistics/length.svg"] = interval_chart(
            lengths,
            title="Throws per game, random v random (mean, 95 % interval)",
            axis="throws per game (both players)",
        )
        skills = [
            Interval(short[v], s["estimate"], s["low"], s["high"])
            for v in suite.baseline
            if (s := skill_summary(suite, v)) is not None
        ]
        if skills:
            charts["statistics/skill.svg"] = interval_chart(
                skills,
                title="Strongest simple agent against random (both seats, 95 % intervals)",
                axis="share of games won by the agent",
                reference=0.5,
            )
        for vid, record in suite.baseline.items():
            histogram = record["results"]["throws"]["histogram"]
            charts[f"statistics/length-{vid}.svg"] = histogram_chart(
                histogram["edges"],
                histogram["counts"],
                title=f"Throws per game, {short[vid]} (random v random, {record['games']:,} games)",
                x_label="throws per game (both players)",
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
            series,
            title="First player's chance of winning under perfect play",
            x_label="pieces a side",
            y_label="first player wins (%)",
        )
    return charts
