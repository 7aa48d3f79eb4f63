"""How the benchmarks print a figure: one ``name: value unit`` a line, for people and greps."""

from __future__ import annotations


def line(name: str, value: float, unit: str) -> None:
    """Print one figure, with thousands separators and three decimals below 100."""
    print(f"{name}: {value:,.{0 if value >= 100 else 3}f} {unit}", flush=True)
