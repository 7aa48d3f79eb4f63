"""The pages of a build whose every input is unchanged: a rebuild with nothing changed reads
them instead of validating, measuring and rendering again.

The key (:func:`inputs_key`) is the SHA-256 of everything the generated files depend on:
every source file of the generator (code, templates, data, assets), every file under
``variants/`` (seed pages included) and ``results/`` (the committed measurements), the build
settings that change figures (simulation on or off, seed, claim games), the environment the
pages read (``SITE_URL``, ``REPOSITORY_URL``, ``SOURCE_DATE_EPOCH``), Python's version and the
version of every installed distribution.
Change any of them and the build does all its steps; ``--refresh`` does them regardless.

An entry is saved only after ``mkdocs build --strict`` and the post-build checks passed, so
it holds pages a full build validated, measured, rendered and checked; it is written
atomically with a checksum (:mod:`generator.measure.stores`: a damaged entry is reported and
the build runs in full) and replaces the previous one, so one entry is kept.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from generator.files import WriteError
from generator.measure.stores import RESULTS_DIR, read_json, write_json

PACKAGE = Path(__file__).resolve().parents[1]
"""The generator package: its every source file is an input of the pages."""
RESULTS = RESULTS_DIR
"""The committed results the measurement reads (a new record changes the pages)."""
ENVIRONMENT = ("SITE_URL", "REPOSITORY_URL", "SOURCE_DATE_EPOCH")
"""The environment variables the generated pages read (:mod:`generator.site.cite`)."""
SKIPPED_PARTS = {"__pycache__"}
SKIPPED_SUFFIXES = (".pyc", ".pyo")


@dataclass(frozen=True)
class CachedPages:
    files: dict[str, str | bytes]
    """Every generated file by docs path (all are text)."""
    ruling_ids: set[str]
    """Every ruling id, for the check that each is on the site exactly once."""


def _files_under(folder: Path) -> Iterable[Path]:
    for path in sorted(folder.rglob("*")):
        skipped = SKIPPED_PARTS & set(path.parts) or path.name.endswith(SKIPPED_SUFFIXES)
        if path.is_file() and not skipped:
            yield path


def _distributions() -> list[str]:
    """Every installed distribution as its metadata folder names it (``jinja2-3.1.4.dist-info``):
    a name and version each, read from the folder listing (reading each one's metadata, as
    :mod:`importlib.metadata` does, takes longer than the rest of the key)."""
    found: set[str] = set()
    for entry in sys.path:
        folder = Path(entry or ".")
        if folder.is_dir():
            found.update(p.name for p in folder.glob("*.dist-info"))
            found.update(p.name for p in folder.glob("*.egg-info"))
    return sorted(found)


def inputs_key(root: Path, settings: Mapping[str, object]) -> str:
    """The SHA-256 of every input of the generated files (see the module docstring)."""
    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    for folder in (PACKAGE, root / "variants", RESULTS):
        for path in _files_under(folder):
            add(path.relative_to(folder.parent).as_posix(), path.read_bytes())
    for name in ENVIRONMENT:
        add(f"env {name}", repr(os.environ.get(name)).encode())
    add("settings", repr(sorted(settings.items())).encode())
    add("python", platform.python_version().encode())
    add("distributions", "\n".join(_distributions()).encode())
    return digest.hexdigest()


def _entry(root: Path) -> Path:
    return root / ".cache" / "pages" / "latest.json"


def load_pages(root: Path, key: str) -> CachedPages | None:
    """The pages saved under ``key``, or None (no entry, another key, or damaged)."""
    payload = read_json(_entry(root))
    if not isinstance(payload, dict) or payload.get("key") != key:
        return None
    files, ruling_ids = payload.get("files"), payload.get("ruling_ids")
    if not isinstance(files, dict) or not isinstance(ruling_ids, list):
        return None
    return CachedPages(files, set(ruling_ids))


def save_pages(
    root: Path, key: str, files: Mapping[str, str | bytes], ruling_ids: set[str]
) -> None:
    """Keep these pages for a rebuild with the same inputs (text files only: a build that
    made a binary file is not kept). The site is published before this: an entry that cannot
    be written (a full disk) is reported in one line on standard error, and the build still
    succeeds; the next one renders every page again."""
    if any(isinstance(content, bytes) for content in files.values()):
        return
    payload = {"key": key, "files": dict(files), "ruling_ids": sorted(ruling_ids)}
    try:
        write_json(_entry(root), payload)
    except WriteError as error:
        print(
            f"the site is published, but {error.path} could not be written ({error.reason}):"
            " the next build renders every page again",
            file=sys.stderr,
        )
