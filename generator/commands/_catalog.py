"""What several subcommands do first: load the valid catalogue and check the variant ids asked
for, printing the problem and giving the exit status when either fails."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from generator.model.catalog import Catalog, CatalogError, load_valid_catalog


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
