"""Rewrite variant files and the bibliography in canonical key order (``--check``: report)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ORDER = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, help="files (default: all variant files)")
    parser.add_argument(
        "--check", action="store_true", help="only report files that are not canonical"
    )


def refusal(path: Path) -> str | None:
    """Why ``path`` is not a file ``fmt`` may rewrite, or ``None``.

    ``fmt`` rewrites data without comments, so a file that keeps comments (the hand-laid-out
    shared data files) is refused rather than stripped."""
    from generator.commands._catalog import no_file_to_read
    from generator.model.catalog import NOT_VARIANTS

    unreadable = no_file_to_read(
        path,
        missing="name a variant file or variants/sources.yml",
        folder=f"name the files in it ({path}/*.yml)",
    )
    if unreadable:
        return unreadable
    if path.name in NOT_VARIANTS and path.name != "sources.yml":
        return f"{path}:1: is laid out by hand (with comments); fmt formats variant files only"
    return None


def commented_line(text: str) -> int | None:
    """The first line holding a comment (``fmt`` would drop it), whole-line or after a value,
    or ``None``. YAML's own scanner finds them: a comment is a ``#`` between two tokens, so a
    ``#`` inside a value (``C#``, a quoted ``'#1'``, a block of text) is none."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    end = 0
    for token in yaml.scan(text, Loader=loader):
        gap = text.find("#", end, token.start_mark.index)
        if gap >= 0:
            return text.count("\n", 0, gap) + 1
        end = max(end, token.end_mark.index)
    return None


def canonical_or_problem(path: Path) -> tuple[str, str] | str:
    """(the file's text, its canonical text), or the ``file:line: message`` saying why not."""
    from generator.model.fmt import canonical_text
    from generator.model.yamlsource import YamlError, load_document

    if problem := refusal(path):
        return problem
    try:
        document = load_document(path)
    except YamlError as error:
        return f"{error.problem}; fix it before formatting"
    text = path.read_text(encoding="utf-8")
    if not isinstance(document.data, dict):
        shown = type(document.data).__name__ if document.data is not None else "nothing"
        return f"{path}:1: expected a mapping of keys (id: ..., title: ...), got {shown}"
    if line := commented_line(text):
        return f"{path}:{line}: a comment would be lost; move it into a note field"
    data: Any = document.data
    return text, canonical_text(path, data)


def run(args: argparse.Namespace) -> int:
    from generator.model.catalog import variant_files

    root: Path = args.root / "variants"
    files = list(args.files) or [root / "sources.yml", *variant_files(root)]
    changed = []
    for path in files:
        result = canonical_or_problem(path)
        if isinstance(result, str):
            print(result, file=sys.stderr)
            return 1
        text, wanted = result
        if text != wanted:
            changed.append(path)
            if not args.check:
                path.write_text(wanted, encoding="utf-8")
    for path in changed:
        verb = "is not canonical; run ur-variants fmt" if args.check else "reformatted"
        print(f"{path}:1: {verb}", file=sys.stderr if args.check else sys.stdout)
    return 1 if args.check and changed else 0
