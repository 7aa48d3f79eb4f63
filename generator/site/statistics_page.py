"""``/statistics/``: measured and exact figures across variants, with their method.

Two kinds of figure, never mixed: exact values from the solver (perfect play, small piece
counts, :mod:`generator.sim.solve`) and simulated estimates with 95 % intervals from the
suite's records (:mod:`generator.sim.suite`). Every figure names the command and seed that
reproduce it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.engine.rules import compile_rules
from generator.site.charts import lines_chart
from generator.site.context import SiteContext, variant_page
from generator.site.render import environment, render

if TYPE_CHECKING:
    from generator.site.generate import Measurements
    from generator.site.pipeline import BuildOptions

EXACT_PIECES = (1, 2, 3)
"""Piece counts solved exactly for every simulated variant (more is out of reach here)."""
MAX_SOLVED_PIECES = 4
"""A variant whose own piece count is at most this is solved as played."""


@dataclass(frozen=True)
class ExactValue:
    pieces: int
    first_player: float
    expected_throws: float
    states: int
    seconds: float


@dataclass
class Statistics:
    seed: int
    exact: dict[str, list[ExactValue]] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)
    suite: Any = None


def solve_exact(ctx: SiteContext, options: BuildOptions) -> tuple[dict[str, list[ExactValue]], dict[str, str]]:
    from generator.sim.solve import SolveRefused, solve, with_pieces

    cache = None if options.refresh else options.root / ".cache" / "solve"
    exact: dict[str, list[ExactValue]] = {}
    refused: dict[str, str] = {}
    for vid, resolved in ctx.resolved.items():
        if not resolved.variant.simulate:
            continue
        rules = compile_rules(resolved)
        counts = sorted({*EXACT_PIECES, *([rules.pieces] if rules.pieces <= MAX_SOLVED_PIECES else [])})
        values = []
        for pieces in counts:
            if pieces > rules.pieces and rules.distinct_pieces:
                continue
            began = time.perf_counter()
            try:
                solution = solve(with_pieces(rules, pieces), cache_dir=cache)
            except (SolveRefused, ValueError) as error:
                refused[vid] = str(error)
                continue
            values.append(
                ExactValue(pieces, solution.start_value, solution.expected_throws, solution.states,
                           solution.seconds if not solution.from_cache else 0.0)  # fmt: skip
            )
            options.log(f"solved {vid} with {pieces} pieces in {time.perf_counter() - began:.1f} s")
        exact[vid] = values
    return exact, refused


def gather(ctx: SiteContext, options: BuildOptions) -> Statistics:
    stats = Statistics(seed=options.seed)
    stats.exact, stats.refused = solve_exact(ctx, options)
    return stats


def statistics_files(ctx: SiteContext, stats: Statistics | None, measured: Measurements) -> None:
    """Fill the statistics page, its charts and the per-variant blocks into ``measured``."""
    charts: dict[str, str | bytes] = {}
    if stats is not None and stats.exact:
        series = {
            ctx.catalog.variants[vid].short: [(v.pieces, 100 * v.first_player) for v in values]
            for vid, values in stats.exact.items()
            if values
        }
        charts["statistics/exact-first-player.svg"] = lines_chart(
            series,
            title="First player's chance of winning under perfect play",
            x_label="pieces a side",
            y_label="first player wins (%)",
        )
    for vid in ctx.variant_ids:
        measured.per_variant[vid] = {
            "exact": stats.exact.get(vid, []) if stats else [],
            "refused": stats.refused.get(vid) if stats else None,
            "simulated": stats is not None,
        }
    measured.statistics_files.update(charts)
    page = "statistics/index.md"
    measured.statistics_page = render(
        environment(),
        "statistics.md.j2",
        fm=ctx.front_matter(
            "Statistics",
            "First-player advantage, game length, skill and exact perfect-play values across variants.",
        ),
        stats=stats,
        charts=sorted(charts),
        variants=ctx.catalog.variants,
        link=ctx.linker(page),
        variant_page=variant_page,
        pct=lambda x: f"{100 * x:.2f} %",
    )


__all__ = ["Path", "Statistics", "gather", "statistics_files"]
