"""Rewrite variant files and the bibliography in canonical key order (``--check``: report)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ORDER = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, help="files (default: all variant files)")
    parser.add_argument(
        "--check", action="store_true", help="only report files that are not canonical"
    )


def run(args: argparse.Namespace) -> int:
    import yaml

    from generator.model.catalog import variant_files
    from generator.model.fmt import canonical_text

    root: Path = args.root / "variants"
    files = list(args.files) or [root / "sources.yml", *variant_files(root)]
    changed = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as error:
            print(f"{path}:1: not valid YAML ({error}); fix it before formatting", file=sys.stderr)
            return 1
        wanted = canonical_text(path, data)
        if text != wanted:
            changed.append(path)
            if not args.check:
                path.write_text(wanted, encoding="utf-8")
    for path in changed:
        verb = "is not canonical; run ur-variants fmt" if args.check else "reformatted"
        print(f"{path}:1: {verb}", file=sys.stderr if args.check else sys.stdout)
    return 1 if args.check and changed else 0
