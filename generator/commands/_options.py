"""Command-line options several subcommands share (argparse only, so ``--help`` stays fast)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def add_set_argument(parser: argparse.ArgumentParser, verb: str) -> None:
    """``--set QUESTION=VALUE`` (repeatable): ``verb`` the variant with one ruling changed."""
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="QUESTION=VALUE",
        help=f"{verb} with one ruling changed, e.g. --set safe-squares=rosettes (repeatable)",
    )


def add_results_arguments(
    parser: argparse.ArgumentParser, cache: str, again: str, write_help: str
) -> None:
    """``--no-cache`` (``again`` even if ``.cache/<cache>/`` has the result) and
    ``--write-results`` (what it writes under ``results/``), as the measurement commands that
    keep a committed results file share them."""
    parser.add_argument(
        "--no-cache", action="store_true", help=f"{again} even if .cache/{cache}/ has it"
    )
    parser.add_argument("--write-results", action="store_true", help=write_help)


MAX_SEED = 2**64 - 1
MAX_GAMES = 10_000_000
"""Each game's result row takes 72 bytes: ten million games is 720 MB, about an hour a core."""
MAX_JOBS = 256


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``, else a usage error."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip().replace("_", "x"), 10)  # 1_000 is a slip, not a thousand
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, got {value:,}")
        return value

    return parse


def positive_number(high: float) -> Callable[[str], float]:
    """An argparse ``type``: a number above 0 and at most ``high`` (not nan, not infinite)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
        if not 0 < value <= high:  # false for nan too
            raise argparse.ArgumentTypeError(f"must be above 0 and at most {high:g}, got {text!r}")
        return value

    return parse


MAX_MEMORY_GB = 4096.0
"""A limit above any machine this runs on; beyond it the limit means nothing."""


def add_solve_arguments(parser: argparse.ArgumentParser, default_gb: float) -> None:
    """``--max-memory-gb`` (refuse solves estimated over it) and ``--progress``."""
    parser.add_argument(
        "--max-memory-gb",
        type=positive_number(MAX_MEMORY_GB),
        default=default_gb,
        help=f"refuse solves estimated to need more memory than this (default {default_gb:g})",
    )
    parser.add_argument(
        "--progress", action="store_true", help="print each layer's figures to stderr"
    )
