"""Semantic checks across the catalogue, each a small named function yielding problems.

Structural checks (keys, types) are the JSON Schema's job (:mod:`generator.model.schema`);
these checks need more than one value at once: references, geometry, provenance, termination.
Each variant file's own checks are :mod:`generator.model.variant_checks`, those of a rulebook as
played :mod:`generator.model.play_checks`; here they run over the whole catalogue.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.model.play_checks import resolved_problems
from generator.model.variant_checks import VARIANT_CHECKS
from generator.model.yamlsource import Document, Problem

if TYPE_CHECKING:
    from generator.model.catalog_contents import Catalog


def check_catalog(catalog: Catalog, documents: dict[str, Document]) -> list[Problem]:
    """Every semantic problem in the catalogue."""
    problems: list[Problem] = []
    owners: dict[str, str] = {}
    for variant_id, variant in catalog.variants.items():
        doc = documents[variant_id]
        for check in VARIANT_CHECKS:
            problems.extend(check(catalog, variant, doc))
        ids = [(("rulings", i), r.id) for i, r in enumerate(variant.rulings)]
        ids += [(("claims", i), c.id) for i, c in enumerate(variant.claims)]
        for path, ident in ids:
            if ident in owners:
                problems.append(
                    doc.problem(
                        (*path, "id"),
                        f"id {ident!r} is already used in {owners[ident]};"
                        " ids are unique site-wide",
                    )
                )
            owners.setdefault(ident, variant_id)
    cyclic = {p.file for p in problems if "derivation cycle" in p.message}
    for variant_id, variant in catalog.variants.items():
        doc = documents[variant_id]
        if str(doc.path) in cyclic or (
            variant.derives_from is not None and variant.derives_from not in catalog.variants
        ):
            continue
        problems.extend(resolved_problems(catalog, variant, doc))
    return problems


def check_source_versions(
    catalog: Catalog, sources_doc: Document, documents: dict[str, Document]
) -> Iterator[Problem]:
    """Each citation quotes at most one recorded version of its source, and each version's
    ``match`` names the place of at least one citation (a stale one records nothing)."""
    used: set[tuple[str, int]] = set()
    for variant_id, variant in catalog.variants.items():
        doc = documents[variant_id]
        cited = [(("rulings", i), r.sources) for i, r in enumerate(variant.rulings)]
        cited += [(("claims", i), c.sources) for i, c in enumerate(variant.claims)]
        for path, citations in cited:
            for j, citation in enumerate(citations):
                source = catalog.sources.get(citation.source)
                if source is None:
                    continue
                covering = [k for k, v in enumerate(source.versions) if v.covers(citation.locator)]
                used.update((source.id, k) for k in covering)
                if len(covering) > 1:
                    yield doc.problem(
                        (*path, "sources", j, "locator"),
                        f"this locator matches {len(covering)} versions of {source.id}"
                        " in variants/sources.yml; make their match words tell them apart",
                    )
    for i, source in enumerate(catalog.sources.values()):
        for k, version in enumerate(source.versions):
            if version.match is not None and (source.id, k) not in used:
                yield sources_doc.problem(
                    ("sources", i, "versions", k, "match"),
                    f"no citation of {source.id} has {version.match!r} in its locator;"
                    " correct the match words or remove this version",
                )
