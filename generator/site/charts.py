"""Static SVG charts with matplotlib: no JavaScript, byte-identical for the same data.

Determinism: a fixed ``svg.hashsalt`` (element ids), no creation date in the metadata, and
text kept as text (``svg.fonttype: none``) so it stays selectable and small.
"""

from __future__ import annotations

import io
import itertools
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

HASH_SALT = "ur-variants"
LIGHT = "#b5581c"
DARK = "#1d5a9e"


@dataclass(frozen=True)
class Interval:
    label: str
    estimate: float
    low: float
    high: float


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "svg.hashsalt": HASH_SALT,
            "svg.fonttype": "none",
            "font.family": "DejaVu Sans",
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "text.parse_math": False,  # a name with "$" in it is text, not TeX to parse
        }
    )
    return plt


def _svg(figure: Any, title: str) -> str:
    plt = _pyplot()
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Title": title, "Creator": None})
    plt.close(figure)
    return buffer.getvalue()


def interval_chart(
    rows: Sequence[Interval], *, title: str, axis: str, reference: float | None = None
) -> str:
    """Horizontal points with 95 % interval bars, one row per label (top to bottom)."""
    plt = _pyplot()
    height = 0.9 + 0.32 * len(rows)
    figure, ax = plt.subplots(figsize=(7.2, height))
    ys = list(range(len(rows)))[::-1]
    for y, row in zip(ys, rows, strict=True):
        ax.plot([row.low, row.high], [y, y], color=DARK, linewidth=2.2, solid_capstyle="butt")
        ax.plot([row.estimate], [y], marker="o", color=LIGHT, markersize=5)
    if reference is not None:
        ax.axvline(reference, color="#777", linewidth=0.8, linestyle="--")
    ax.set_yticks(ys, [r.label for r in rows])
    ax.set_xlabel(axis)
    ax.set_title(title, loc="left", fontsize=10)
    ax.grid(axis="x", color="#ddd", linewidth=0.6)
    figure.tight_layout()
    return _svg(figure, title)


def lines_chart(
    series: Mapping[str, Sequence[tuple[float, float]]], *, title: str, x_label: str, y_label: str
) -> str:
    """One line per series of (x, y) points, x a whole number (a count of pieces), with the
    legend beside the plot. Colours repeat after ten series, so markers and dashes vary too."""
    from matplotlib.ticker import MaxNLocator

    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(7.2, 0.9 + 0.26 * max(len(series), 8)))
    markers = itertools.cycle("osD^vP")
    dashes = itertools.cycle(["-", "--", ":"])
    for index, (name, points) in enumerate(series.items()):
        xs, ys = zip(*points, strict=True)
        ax.plot(
            xs,
            ys,
            marker=next(markers),
            linestyle=next(dashes) if index >= 10 else "-",
            markersize=4,
            linewidth=1.2,
            label=textwrap.fill(name, 42),
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.set_title(title, loc="left", fontsize=10)
    ax.grid(color="#ddd", linewidth=0.6)
    ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    return _svg(figure, title)


def histogram_chart(
    edges: Sequence[float], counts: Sequence[int], *, title: str, x_label: str
) -> str:
    """A histogram from precomputed bin edges and counts."""
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(7.2, 2.8))
    widths = [b - a for a, b in itertools.pairwise(edges)]
    ax.bar(edges[:-1], counts, width=widths, align="edge", color=DARK, edgecolor="white")
    ax.set_xlabel(x_label)
    ax.set_ylabel("games")
    ax.set_title(title, loc="left", fontsize=10)
    figure.tight_layout()
    return _svg(figure, title)
