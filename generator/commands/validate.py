"""Check every variant file; report each problem as file:line: message."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ORDER = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, help="variant files (default: all)")


def run(args: argparse.Namespace) -> int:
    from generator.model.catalog import load_catalog, variant_files

    root: Path = args.root / "variants"
    only = list(args.files) or None
    catalog, problems = load_catalog(root, only=only)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s) found", file=sys.stderr)
        return 1
    checked = len(only) if only else len(variant_files(root))
    rulings = sum(len(v.rulings) for v in catalog.variants.values())
    print(f"ok: {checked} variant file(s), {rulings} rulings, {len(catalog.sources)} sources")
    return 0
