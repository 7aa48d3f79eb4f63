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


def refusal(path: Path, variants: Path) -> str | None:
    """Why ``path`` is not a file ``fmt`` may rewrite, or ``None``.

    ``fmt`` rewrites data without comments, so a file that keeps comments (the hand-laid-out
    shared data files) is refused rather than stripped; and it lays out variant files only, so
    a file outside the ``variants`` folder (another project's YAML, a file under ``seeds/``),
    or one there that no variant is read from, is refused rather than rewritten in their
    layout and typography."""
    from generator.commands._catalog import no_file_to_read
    from generator.model.catalog import NOT_VARIANTS

    unreadable = no_file_to_read(
        path,
        missing="name a variant file or variants/sources.yml",
        folder=f"name the files in it ({path}/*.yml)",
    )
    if unreadable:
        return unreadable
    if path.resolve().parent != variants.resolve():
        return (
            f"{path}:1: is not in the variants folder ({variants}); fmt formats the variant"
            " files there and its sources.yml only"
        )
    if path.name in NOT_VARIANTS and path.name != "sources.yml":
        return f"{path}:1: is laid out by hand (with comments); fmt formats variant files only"
    if path.suffix != ".yml" or path.name.startswith("_"):
        return (
            f"{path}:1: no variant is read from it (a variant file is a NAME.yml not starting"
            " with _); fmt formats variant files and sources.yml only"
        )
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


def canonical_or_problem(path: Path, variants: Path) -> tuple[str, str] | str:
    """(the file's text, its canonical text), or the ``file:line: message`` saying why not."""
    from generator.model.fmt import canonical_text
    from generator.model.yamlsource import YamlError, load_document

    if problem := refusal(path, variants):
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
    """Every file is checked before any is written; each is then replaced whole
    (:func:`generator.files.write_text`), so a full disk leaves it as it was and stops there,
    with the files already reformatted listed."""
    from generator.files import WriteError, write_text
    from generator.model.catalog import variant_files

    root: Path = args.root / "variants"
    files = list(args.files) or [root / "sources.yml", *variant_files(root)]
    wanted: dict[Path, str] = {}
    for path in files:
        result = canonical_or_problem(path, root)
        if isinstance(result, str):
            print(result, file=sys.stderr)
            return 1
        text, canonical = result
        if text != canonical:
            wanted[path] = canonical
    if args.check:
        for path in wanted:
            print(f"{path}:1: is not canonical; run ur-variants fmt", file=sys.stderr)
        return 1 if wanted else 0
    for path, text in wanted.items():
        try:
            write_text(path, text)
        except WriteError as error:
            print(error, file=sys.stderr)
            return 1
        print(f"{path}:1: reformatted")
    return 0
