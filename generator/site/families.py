"""The families of rules: each rulebook's ``family`` (data, in ``variants/*.yml``, one of the
schema's ``family`` values) with the words a reader choosing rules needs, from
``data/families.yml``. The navigation and the "Which rules should I play?" page group the
rulebooks by family, in the order that file gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.model.schema import variant_schema
from generator.model.yamlsource import load_data
from generator.site.context import SiteContext

DATA = Path(__file__).parent / "data" / "families.yml"


class FamilyError(ValueError):
    """The families' words do not match the families the data may name; the message says how."""


@dataclass(frozen=True)
class Family:
    """One family of rules and its rulebooks, the common rules (the start) first."""

    id: str
    title: str
    words: str
    rulebooks: tuple[str, ...]


def family_words() -> list[dict[str, str]]:
    """The families as ``data/families.yml`` lists them, checked against the schema's values:
    each family a rulebook may name has words, once, and no words name a family that is not."""
    entries: list[dict[str, str]] = load_data(DATA)["families"]
    named = [entry["id"] for entry in entries]
    allowed = variant_schema()["$defs"]["family"]["enum"]
    missing = [f for f in allowed if f not in named]
    unknown = [f for f in named if f not in allowed]
    repeated = sorted({f for f in named if named.count(f) > 1})
    if missing or unknown or repeated:
        raise FamilyError(
            f"{DATA}: families without words {missing}, words for unknown families {unknown},"
            f" repeated {repeated}; give each of the schema's family values"
            f" (generator/model/variant.schema.json) one entry"
        )
    return entries


def families(ctx: SiteContext) -> list[Family]:
    """Every family with at least one rulebook, in the order of ``data/families.yml``; within a
    family the common rules first, then the rulebooks by short name."""
    common = ctx.words.data["common_rules"]
    found = []
    for entry in family_words():
        members = sorted(
            (vid for vid in ctx.variant_ids if ctx.catalog.variants[vid].family == entry["id"]),
            key=lambda vid: (vid != common, ctx.catalog.variants[vid].short.casefold()),
        )
        if members:
            words = " ".join(entry["words"].split())
            found.append(Family(entry["id"], entry["title"], words, tuple(members)))
    return found
