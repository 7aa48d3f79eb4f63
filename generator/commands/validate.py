"""Check every variant file; report each problem as file:line: message."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ORDER = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, help="variant files (default: all)")


def not_a_variant_file(path: Path, root: Path) -> str | None:
    """Why ``path`` cannot be checked as a variant file of ``root``, or ``None`` when it can.

    A file that is not one of ``root``'s variant files would be checked against nothing and
    reported ok, so it is refused instead."""
    from generator.commands._catalog import no_file_to_read
    from generator.model.catalog import variant_files

    unreadable = no_file_to_read(
        path,
        missing=f"name a variant file in {root}/",
        folder=f"name variant files in it ({path}/*.yml)",
    )
    if unreadable:
        return unreadable
    if path.resolve() not in {p.resolve() for p in variant_files(root)}:
        return (
            f"{path}:1: not a variant file of {root}/ (those are {root}/*.yml other than"
            " the shared data files); validate checks the whole catalogue when no file is named"
        )
    return None


def run(args: argparse.Namespace) -> int:
    from generator.model.catalog import load_catalog, variant_files

    root: Path = args.root / "variants"
    only = list(args.files) or None
    refused = [m for m in (not_a_variant_file(p, root) for p in only or []) if m]
    for message in refused:
        print(message, file=sys.stderr)
    if refused:
        return 2
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
