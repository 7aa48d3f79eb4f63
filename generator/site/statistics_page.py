"""``/statistics/`` and each variant's statistics block: measured and exact figures.

Two kinds of figure, never mixed: exact values from the solver (perfect play, small piece
counts, :mod:`generator.sim.solve`) and simulated estimates with 95 % intervals from the
suite's records (:func:`generator.sim.suite.default_suite`). Every figure names the command,
sample size and seed that reproduce it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.engine.rules import compile_rules
from generator.site.charts import Interval, histogram_chart, interval_chart, lines_chart
from generator.site.context import SiteContext, variant_page
from generator.site.equivalence import same_game_groups
from generator.site.render import environment, render

if TYPE_CHECKING:
    from generator.sim.suite import Effect, Suite
    from generator.site.generate import Measurements
    from generator.site.pipeline import BuildOptions

EXACT_PIECES = (1, 2)
"""Piece counts solved exactly for every simulated variant (more is out of reach here)."""
MAX_SOLVED_PIECES = 3
"""A variant whose own piece count is at most this is also solved as played."""


@dataclass(frozen=True)
class ExactValue:
    pieces: int
    first_player: float
    expected_throws: float
    states: int
    memory_bytes: int
    """Peak bytes of the solver's arrays."""


@dataclass
class Statistics:
    seed: int
    exact: dict[str, list[ExactValue]] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)
    suite: Suite | None = None


def solve_exact(
    ctx: SiteContext, options: BuildOptions
) -> tuple[dict[str, list[ExactValue]], dict[str, str]]:
    """Perfect-play values of every simulated variant with 1 and 2 pieces (and its own count
    when that is at most 3), cached under ``.cache/solve``. Three-piece solves of every variant
    (the 27-square routes and the named tablet pieces are large) would take most of a cold
    build; ``ur-variants solve VARIANT --pieces 3`` computes any of them on demand."""
    from generator.sim.solve import SolveRefused, solve, with_pieces

    cache = options.root / ".cache" / "solve"
    exact: dict[str, list[ExactValue]] = {}
    refused: dict[str, str] = {}
    for vid, resolved in ctx.resolved.items():
        if not resolved.variant.simulate:
            continue
        rules = compile_rules(resolved)
        own = [rules.pieces] if rules.pieces <= MAX_SOLVED_PIECES else []
        values = []
        for pieces in sorted({*(p for p in EXACT_PIECES if p <= rules.pieces), *own}):
            began = time.perf_counter()
            try:
                solution = solve(with_pieces(rules, pieces), cache_dir=cache)
            except (SolveRefused, ValueError) as error:
                refused[vid] = str(error)
                continue
            values.append(
                ExactValue(
                    pieces,
                    solution.start_value,
                    solution.expected_throws,
                    solution.states,
                    solution.memory_bytes,
                )
            )
            if not solution.from_cache:
                options.log(
                    f"solved {vid} with {pieces} pieces in {time.perf_counter() - began:.1f} s"
                )
        exact[vid] = values
    return exact, refused


def gather(ctx: SiteContext, options: BuildOptions) -> Statistics:
    from generator.sim.suite import default_suite

    stats = Statistics(seed=options.seed)
    stats.suite = default_suite(
        ctx.catalog,
        seed=options.seed,
        jobs=options.jobs,
        cache_dir=options.root / ".cache" / "sim",
        use_cache=not options.refresh,
        log=options.log,
    )
    stats.exact, stats.refused = solve_exact(ctx, options)
    return stats


def _rate(record: dict[str, Any]) -> dict[str, float]:
    rate: dict[str, float] = record["results"]["first_player_win_rate"]
    return rate


def skill_summary(suite: Suite, vid: str) -> dict[str, Any] | None:
    """The strongest cheap agent's win rate against random, averaged over both seats."""
    gap = suite.skill.get(vid)
    if gap is None:
        return None
    first, second = _rate(gap.as_first), _rate(gap.as_second)
    estimate = (first["estimate"] + 1 - second["estimate"]) / 2
    half = ((first["high"] - first["low"]) ** 2 + (second["high"] - second["low"]) ** 2) ** 0.5 / 4
    return {
        "agent": gap.agent,
        "as_first": first,
        "as_second": {k: 1 - second[k] for k in ("estimate", "high", "low")},
        "games": gap.as_first["games"] + gap.as_second["games"],
        "estimate": estimate,
        "low": estimate - half,
        "high": estimate + half,
    }


def agent_table(suite: Suite, vid: str) -> list[dict[str, Any]]:
    """Each cheap agent's win rate against random, in each seat."""
    rows: dict[str, dict[str, Any]] = {}
    for record in suite.table.get(vid, []):
        first, second = record["agents"]
        agent = first if first != "random" else second
        row = rows.setdefault(agent, {"agent": agent, "games": 0})
        rate = _rate(record)
        if first == agent:
            row["first"] = rate
        else:
            row["second"] = {
                "estimate": 1 - rate["estimate"],
                "low": 1 - rate["high"],
                "high": 1 - rate["low"],
            }
        row["games"] += record["games"]
    return [r for _, r in sorted(rows.items()) if "first" in r and "second" in r]


def excludes_zero(interval: dict[str, float]) -> bool:
    return interval["low"] > 0 or interval["high"] < 0


def chance_check(effects: Sequence[Effect]) -> dict[str, Any] | None:
    """How many one-ruling effects look real, against how many would by chance.

    With 95 % intervals, about one in twenty would exclude zero even if no change mattered;
    fewer here, since the intervals are conservative (:func:`generator.sim.stats.difference`).
    Changes that leave play identical are left out: their effect is exactly zero.
    """
    played = [e for e in effects if not e.same_game]
    if not played:
        return None
    return {
        "changes": len(played),
        "win_rate_clear": sum(excludes_zero(e.win_rate) for e in played),
        "throws_clear": sum(excludes_zero(e.throws) for e in played),
        "by_chance": len(played) / 20,
        "win_rate_half_width": statistics.median(
            (e.win_rate["high"] - e.win_rate["low"]) / 2 for e in played
        ),
    }


def effects_by_question(suite: Suite | None) -> dict[str, list[Effect]]:
    return suite.by_question() if suite is not None else {}


def check_statistics(stats: Statistics) -> None:
    """Raise :class:`~generator.sim.sanity.FigureError` if any figure about to be published is
    impossible (:mod:`generator.sim.sanity`): nothing is written from a damaged measurement."""
    from generator.sim.sanity import FigureError, check_record, exact_problems, result_problems

    problems: list[str] = []
    for vid, values in stats.exact.items():
        for v in values:
            found = exact_problems(v.first_player, v.expected_throws, v.states)
            problems += [f"exact {vid} with {v.pieces} pieces: {p}" for p in found]
    suite = stats.suite
    if suite is not None:
        for record in suite.records():
            check_record(record)
        for e in suite.effects:
            found = result_problems({"win_rate": e.win_rate, "throws": e.throws}, differences=True)
            problems += [f"effect of {e.change.label} on {e.variant}: {p}" for p in found]
        for vid in suite.skill:
            skill = skill_summary(suite, vid)
            if skill is not None:
                found = result_problems({"skill": skill}, differences=True)
                if not 0 <= skill["estimate"] <= 1:
                    found.append(f"skill: {skill['estimate']} is not a share between 0 and 1")
                problems += [f"{vid} {p}" for p in found]
    if problems:
        raise FigureError("impossible figures, not published: " + "; ".join(problems))


def statistics_files(ctx: SiteContext, stats: Statistics | None, measured: Measurements) -> None:
    """Fill the statistics page, its charts and the per-variant blocks into ``measured``,
    after checking every figure (:func:`check_statistics`)."""
    if stats is not None:
        check_statistics(stats)
    suite = stats.suite if stats else None
    charts = _charts(ctx, stats)
    simulated = {vid: r for vid, r in ctx.resolved.items() if r.variant.simulate}
    same_game = same_game_groups(simulated)
    for vid in ctx.variant_ids:
        baseline = suite.baseline.get(vid) if suite else None
        measured.per_variant[vid] = {
            "simulated": stats is not None,
            "simulate": ctx.catalog.variants[vid].simulate,
            "baseline": baseline,
            "skill": skill_summary(suite, vid) if suite else None,
            "agents": agent_table(suite, vid) if suite else [],
            "exact": stats.exact.get(vid, []) if stats else [],
            "refused": stats.refused.get(vid) if stats else None,
            "histogram": f"statistics/length-{vid}.svg"
            if f"statistics/length-{vid}.svg" in charts
            else None,
            "seed": stats.seed if stats else None,
            "same_game": [ctx.catalog.variants[other] for other in same_game.get(vid, ())],
        }
    measured.per_question = effects_by_question(suite)
    measured.statistics_files.update(charts)
    page = "statistics/index.md"
    rows = [
        {"v": ctx.catalog.variants[vid], **measured.per_variant[vid]}
        for vid in ctx.variant_ids
        if measured.per_variant[vid]["baseline"] is not None
    ]
    measured.statistics_page = render(
        environment(),
        "statistics.md.j2",
        fm=ctx.front_matter(
            "Statistics",
            "First-player advantage, game length, skill and exact perfect-play values across"
            " variants.",
        ),
        stats=stats,
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


def _charts(ctx: SiteContext, stats: Statistics | None) -> dict[str, str | bytes]:
    charts: dict[str, str | bytes] = {}
    if stats is None:
        return charts
    suite = stats.suite
    if suite is not None and suite.baseline:
        short = {vid: ctx.catalog.variants[vid].short for vid in suite.baseline}
        rates = [Interval(short[v], **_rate(r)) for v, r in suite.baseline.items()]
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
            for vid, values in stats.exact.items()
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
