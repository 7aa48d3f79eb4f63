"""What several subcommands do first: load the valid catalogue, check the variant ids asked
for and apply any ``--set`` changes, giving the message to print when one fails."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.model.catalog import CatalogError, load_valid_catalog
from generator.model.catalog_contents import Catalog

if TYPE_CHECKING:
    from generator.model.variant import ResolvedVariant
    from generator.sim.variation import Change


def no_file_to_read(path: Path, missing: str, folder: str) -> str | None:
    """Why ``path`` names no file to read, as ``file:line: message``, or ``None`` when it does.

    ``missing`` and ``folder`` tell the user what to name instead when nothing is there or
    ``path`` is a folder."""
    try:
        exists = path.exists()
    except OSError as error:  # a name too long for the file system, for one
        return f"{str(path)[:60]}:1: cannot read it ({error.strerror}); name a variant file"
    if not exists:
        return f"{path}:1: no such file; {missing}"
    if path.is_dir():
        return f"{path}:1: is a folder; {folder}"
    return None


def load_or_report(root: Path) -> Catalog | None:
    """The catalogue under ``root/variants``, or ``None`` after printing every problem."""
    try:
        return load_valid_catalog(root / "variants")
    except CatalogError as error:
        print(error, file=sys.stderr)
        return None


def unknown_variants(catalog: Catalog, wanted: Sequence[str]) -> str | None:
    """A message naming the ids in ``wanted`` that are not variants, or ``None``."""
    unknown = [v for v in wanted if v not in catalog.variants]
    if not unknown:
        return None
    known = ", ".join(sorted(catalog.variants))
    if len(wanted) == 1:
        return f"unknown variant {unknown[0]!r}; known: {known}"
    return f"unknown variant(s) {', '.join(unknown)}; known: {known}"


def load_named(root: Path, wanted: Sequence[str]) -> Catalog | int:
    """The catalogue, when it loads and holds every id in ``wanted``; else, after printing
    why, the exit status: ``1`` for a catalogue that does not load, ``2`` for an unknown id."""
    catalog = load_or_report(root)
    if catalog is None:
        return 1
    if problem := unknown_variants(catalog, wanted):
        print(problem, file=sys.stderr)
        return 2
    return catalog


def parse_changes(texts: Sequence[str]) -> list[Change] | str:
    """The ``--set`` changes, or the message saying which one is malformed."""
    from generator.sim.variation import parse_change

    try:
        return [parse_change(text) for text in texts]
    except ValueError as error:
        return f"--set: {error}"


def changed_variant(
    catalog: Catalog, variant_id: str, changes: Sequence[Change]
) -> ResolvedVariant | str:
    """``variant_id`` with ``changes`` applied, or the message saying why it cannot be played."""
    from generator.sim.variation import playable_problem, with_change

    variant = catalog.resolve(variant_id)
    for change in changes:
        try:
            variant = with_change(variant, change, catalog.equipment)
        except ValueError as error:
            return f"--set {change.label}: {error}"
    problem = playable_problem(variant)
    if problem:
        return f"{variant_id} cannot be played with these changes: {problem}"
    return variant
