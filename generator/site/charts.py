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
WIDTH = 3.7
"""Inches: 355 CSS pixels, within the 358 a 390-pixel phone gives the page's text, so a chart is
shown at its own size there and on a desktop (never scaled down)."""
FONT = 10
"""Points for every piece of text (13.3 CSS pixels at the chart's own size): readable on a
phone, where the browser test requires at least 12 pixels as rendered."""
WRAP = 30
"""Characters before a label or title wraps onto another line."""


def wrapped(text: str, width: int = WRAP) -> str:
    return textwrap.fill(text, width, break_on_hyphens=False)


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
            "font.size": FONT,
            "axes.titlesize": FONT,
            "axes.labelsize": FONT,
            "xtick.labelsize": FONT,
            "ytick.labelsize": FONT,
            "legend.fontsize": FONT,
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


def _titled(figure: Any, title: str) -> None:
    """The title above everything, from the figure's left edge (an axes title starts at the
    plot and would run off a narrow figure)."""
    figure.suptitle(wrapped(title, 44), x=0.02, ha="left", fontsize=FONT)


def interval_chart(
    rows: Sequence[Interval],
    *,
    title: str,
    axis: str,
    reference: float | None = None,
    logarithmic: bool = False,
) -> str:
    """Horizontal points with 95 % interval bars, one row per label (top to bottom); a
    ``logarithmic`` axis for figures spanning several powers of ten (ticks as plain numbers:
    mathtext is off, :func:`_pyplot`)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

    plt = _pyplot()
    labels = [wrapped(r.label, 16) for r in rows]
    lines = sum(label.count("\n") + 1 for label in labels)
    height = 1.4 + 0.2 * lines + 0.12 * len(rows)
    figure, ax = plt.subplots(figsize=(WIDTH, height), layout="constrained")
    ys = list(range(len(rows)))[::-1]
    for y, row in zip(ys, rows, strict=True):
        ax.plot([row.low, row.high], [y, y], color=DARK, linewidth=2.2, solid_capstyle="butt")
        ax.plot([row.estimate], [y], marker="o", color=LIGHT, markersize=5)
    if reference is not None:
        ax.axvline(reference, color="#777", linewidth=0.8, linestyle="--")
    ax.set_yticks(ys, labels)
    ax.set_xlabel(wrapped(axis, 30))
    _titled(figure, title)
    if logarithmic:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 3.0), numticks=12))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
    ax.grid(axis="x", color="#ddd", linewidth=0.6)
    return _svg(figure, title)


def lines_chart(
    series: Mapping[str, Sequence[tuple[float, float]]], *, title: str, x_label: str, y_label: str
) -> str:
    """One line per series of (x, y) points, x a whole number (a count of pieces), with the
    legend below the plot. Colours repeat after ten series, so markers and dashes vary too."""
    from matplotlib.ticker import MaxNLocator

    plt = _pyplot()
    names = [wrapped(name, 44) for name in series]
    legend_lines = sum(name.count("\n") + 1 for name in names)
    figure, ax = plt.subplots(figsize=(WIDTH, 3.4 + 0.2 * legend_lines), layout="constrained")
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
            label=wrapped(name, 44),
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(x_label)
    ax.set_ylabel(wrapped(y_label, 24))
    _titled(figure, title)
    ax.grid(color="#ddd", linewidth=0.6)
    figure.legend(frameon=False, loc="outside lower left", handlelength=2.4)
    return _svg(figure, title)


def histogram_chart(
    edges: Sequence[float], counts: Sequence[int], *, title: str, x_label: str
) -> str:
    """A histogram from precomputed bin edges and counts."""
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(WIDTH, 3.0), layout="constrained")
    # One filled outline, not a bar per bin: the same shape, drawn and written as one path.
    ax.stairs(counts, edges, fill=True, color=DARK)
    ax.set_xlabel(wrapped(x_label, 40))
    ax.set_ylabel("games")
    _titled(figure, title)
    return _svg(figure, title)
