"""What a published figure must satisfy, checked before it is cached or written to a page.

A figure that breaks one of these rules comes from a damaged cache entry or a bug, never from
chance: an estimate lies inside its own interval, a share of games lies in [0, 1], a count per
game is not negative, quantiles do not decrease, a histogram counts every game once, and an
exact chance of winning is a probability.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

SLACK = 1e-9
"""Room for floating-point rounding in the comparisons."""
ROUNDED = 0.05
"""Room for figures stored rounded to one decimal (minutes per game)."""


class FigureError(ValueError):
    """A figure failed its sanity check; the message names it and what is wrong."""


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _interval(name: str, centre: str, figure: Mapping[str, Any]) -> Iterator[str]:
    low, mid, high = figure.get("low"), figure.get(centre), figure.get("high")
    if not (_number(low) and _number(mid) and _number(high)):
        yield f"{name}: {centre}, low and high must be finite, got {low!r}, {mid!r}, {high!r}"
        return
    assert low is not None and mid is not None and high is not None
    slack = ROUNDED if "seconds_per_throw" in figure else SLACK
    if not low - slack <= mid <= high + slack:
        yield f"{name}: {centre} {mid} lies outside its interval ({low} to {high})"


def _share(name: str, figure: Mapping[str, Any]) -> Iterator[str]:
    for part in ("estimate", "low", "high"):
        value = figure[part]
        if not -SLACK <= value <= 1 + SLACK:
            yield f"{name}: {part} {value} is not a share between 0 and 1"


def _count(name: str, figure: Mapping[str, Any]) -> Iterator[str]:
    if figure["mean"] < 0:
        yield f"{name}: a count per game cannot average {figure['mean']}"
    if _number(figure.get("sd", 0)) and figure.get("sd", 0) < 0:
        yield f"{name}: a standard deviation cannot be {figure['sd']}"
    named = figure.get("quantiles", {})
    quantiles = [named[k] for k in sorted(named, key=lambda k: float(k.lstrip("p")))]
    if any(q < 0 for q in quantiles) or quantiles != sorted(quantiles):
        yield f"{name}: quantiles {quantiles} must be non-negative and non-decreasing"


def _histogram(name: str, histogram: Mapping[str, Any], games: int | None) -> Iterator[str]:
    counts, edges = histogram.get("counts", []), histogram.get("edges", [])
    if any(not isinstance(c, int) or c < 0 for c in counts):
        yield f"{name}: histogram counts must be whole numbers, not negative"
    elif games is not None and sum(counts) != games:
        yield f"{name}: histogram counts {sum(counts)} games, the run finished {games}"
    if list(edges) != sorted(edges) or len(edges) != len(counts) + 1:
        yield f"{name}: histogram edges must increase, one more than the counts"


def result_problems(
    results: Mapping[str, Any], games: int | None = None, *, differences: bool = False
) -> list[str]:
    """Every rule a simulation summary (:func:`generator.sim.stats.summarise`) or a difference
    of two summaries (``differences``: signed, so not shares) breaks, as readable lines."""
    problems: list[str] = []

    def walk(name: str, node: Any, finished: int | None) -> None:
        if not isinstance(node, Mapping):
            return
        if "estimate" in node:
            found = list(_interval(name, "estimate", node))
            if not found and not differences:
                found = list(_share(name, node))
            problems.extend(found)
        elif "mean" in node:
            found = list(_interval(name, "mean", node))
            if not found and not differences:
                found = list(_count(name, node))
            problems.extend(found)
            if isinstance(node.get("histogram"), Mapping):
                problems.extend(_histogram(name, node["histogram"], finished))
        else:
            for key, value in node.items():
                walk(f"{name}.{key}" if name else str(key), value, finished)

    finished = results.get("finished_games", games)
    walk("", results, finished)
    if games is not None:
        if not isinstance(games, int) or games < 1:
            problems.append(f"games: {games!r} is not a positive whole number")
        unfinished = results.get("unfinished_games", 0)
        if finished is not None and finished + unfinished != games:
            problems.append(f"{finished} finished and {unfinished} unfinished games of {games}")
        wins = results.get("first_player_wins")
        if wins is not None and not (isinstance(wins, int) and 0 <= wins <= (finished or 0)):
            problems.append(f"first_player_wins: {wins!r} is not between 0 and {finished}")
    return problems


def exact_problems(first_player: float, expected_throws: float, states: int) -> list[str]:
    """Every rule an exact solution's published figures break."""
    problems = []
    if not (_number(first_player) and 0 <= first_player <= 1):
        problems.append(f"first player's chance {first_player!r} is not a probability")
    if not (_number(expected_throws) or expected_throws == math.inf) or expected_throws < 0:
        problems.append(f"expected throws {expected_throws!r} is not a non-negative length")
    if not isinstance(states, int) or states < 1:
        problems.append(f"state count {states!r} is not a positive whole number")
    return problems


def check_record(record: Mapping[str, Any]) -> None:
    """Raise :class:`FigureError` when a simulation record's figures cannot be published."""
    problems = result_problems(record.get("results", {}), record.get("games"))
    if problems:
        raise FigureError(
            f"simulation record {record.get('key', '?')} ({record.get('created_by', '?')})"
            f" has impossible figures: {'; '.join(problems)}"
        )
