"""Command-line options several subcommands share (argparse only, so ``--help`` stays fast)."""

from __future__ import annotations

import argparse


def add_set_argument(parser: argparse.ArgumentParser, verb: str) -> None:
    """``--set QUESTION=VALUE`` (repeatable): ``verb`` the variant with one ruling changed."""
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="QUESTION=VALUE",
        help=f"{verb} with one ruling changed, e.g. --set safe-squares=rosettes (repeatable)",
    )
