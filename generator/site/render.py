"""Jinja2 rendering and the all-or-nothing swap of generated files into ``docs/``.

Templates run with ``StrictUndefined``: a missing value is an error, never a blank on a page.
Generated files are first written to a temporary folder; only when every page rendered are
they moved into ``docs/``, so a failed generation leaves the previous pages in place.
"""

from __future__ import annotations

import posixpath
import re
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2

TEMPLATES = Path(__file__).parent / "templates"
ASSETS = Path(__file__).parent / "assets"

GENERATED = (
    "variants",
    "compare",
    "questions",
    "statistics",
    "claims",
    "sources",
    "glossary",
    "assets",
    "citations.bib",
    "citations.json",
    "citations.ris",
    "r",
    "changes",
    ".generated",
    ".includes",
)
"""Top-level entries of ``docs/`` the generator owns (git-ignored); all else is hand-written."""

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def md_escape(text: str) -> str:
    """Escape characters Markdown would read as markup, so quotes print word for word."""
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", text.strip())
    return re.sub(r"^([#+-])", r"\\\1", escaped, flags=re.MULTILINE)


def one_line(text: str) -> str:
    """Collapse whitespace (YAML folded text) into one line."""
    return " ".join(text.split())


def title_text(text: str) -> str:
    """Text safe inside an admonition or tab title (double-quoted in Markdown): straight double
    quotes become curly ones, opening at the start or after a space or bracket, closing
    elsewhere."""
    return re.sub(r'(^|[\s(\[])"', r"\1“", one_line(text)).replace('"', "”")


def lower_first(text: str) -> str:
    """A sentence's first letter in lower case, to continue another sentence."""
    return text[:1].lower() + text[1:]


def relative_link(source: str, target: str) -> str:
    """A Markdown link from docs page ``source`` to docs file ``target`` (both docs-relative).

    >>> relative_link("variants/a/index.md", "compare/index.md")
    '../../compare/index.md'
    """
    anchor = ""
    if "#" in target:
        target, anchor = target.split("#", 1)
        anchor = "#" + anchor
    start = posixpath.dirname(source) or "."
    return posixpath.relpath(target, start) + anchor


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["md"] = md_escape
    env.filters["one_line"] = one_line
    env.filters["title_text"] = title_text
    env.filters["lower_first"] = lower_first
    return env


def render(env: jinja2.Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)


def write_tree(files: Mapping[str, str | bytes], folder: Path) -> None:
    """Write ``files`` (docs-relative path -> content) under ``folder``."""
    for name, content in sorted(files.items()):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def copy_assets(folder: Path) -> None:
    shutil.copytree(ASSETS, folder / "assets", dirs_exist_ok=True)


DOCS_STAGING_PREFIXES = (".generating-", ".replaced-")
"""Prefixes of the temporary folders :func:`swap_into_docs` makes next to ``docs/``."""


def swap_into_docs(files: Mapping[str, str | bytes], docs: Path) -> None:
    """Replace every generated entry of ``docs`` by the new files, all or nothing.

    The new tree is written completely first; a top-level entry the generator owns but did not
    produce this time is removed, so a deleted variant leaves no stale page behind.
    """
    unknown = {name.split("/", 1)[0] for name in files} - set(GENERATED)
    if unknown:
        raise ValueError(f"generated paths outside the generated set: {sorted(unknown)}")
    docs.mkdir(parents=True, exist_ok=True)
    generating, replaced = DOCS_STAGING_PREFIXES
    staging = Path(tempfile.mkdtemp(prefix=generating, dir=docs.parent))
    trash = Path(tempfile.mkdtemp(prefix=replaced, dir=docs.parent))
    try:
        write_tree(files, staging)
        copy_assets(staging)
        for name in GENERATED:
            old, new = docs / name, staging / name
            if old.exists():
                old.rename(trash / name)
            if new.exists():
                new.rename(old)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(trash, ignore_errors=True)
