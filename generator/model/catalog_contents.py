"""What the catalogue holds once loaded (:class:`Catalog`): every question, source, piece of
equipment and variant in ``variants/``, each variant resolvable with its inherited rulings.
Loaded and checked by :mod:`generator.model.catalog`; the checks
(:mod:`generator.model.checks`) read it without importing the loader."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from generator.model.equipment import Equipment
from generator.model.variant import Question, ResolvedVariant, Ruling, Source, Variant


@dataclass
class Catalog:
    """Everything in ``variants/``: questions, sources, equipment and variants."""

    root: Path
    questions: dict[str, Question] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    equipment: Equipment = field(default_factory=lambda: Equipment({}, {}, {}))
    variants: dict[str, Variant] = field(default_factory=dict)
    unreadable: set[str] = field(default_factory=set)
    """Stems of variant files that failed to load (their own problems say why)."""

    def lineage(self, variant_id: str) -> tuple[str, ...]:
        """The variant and its ancestors, nearest first. Assumes no cycle (checked on load)."""
        chain = [variant_id]
        parent = self.variants[variant_id].derives_from
        while parent is not None and parent in self.variants and parent not in chain:
            chain.append(parent)
            parent = self.variants[parent].derives_from
        return tuple(chain)

    def resolve(self, variant_id: str) -> ResolvedVariant:
        """The variant with inherited rulings filled in, in catalogue question order."""
        in_force: dict[str, Ruling] = {}
        lineage = self.lineage(variant_id)
        for ancestor in lineage:
            for ruling in self.variants[ancestor].rulings:
                in_force.setdefault(ruling.question, ruling)
        ordered = {q: in_force[q] for q in self.questions if q in in_force}
        return ResolvedVariant(
            variant=self.variants[variant_id],
            rulings=ordered,
            board=self.equipment.boards[ordered["board"].value],
            route=self.equipment.routes[ordered["route"].value],
            dice=self.equipment.dice[ordered["dice"].value],
            lineage=lineage,
        )

    def resolved(self) -> list[ResolvedVariant]:
        return [self.resolve(v) for v in self.variants]

    def rulings(self) -> Iterator[Ruling]:
        for variant in self.variants.values():
            yield from variant.rulings

    def children(self, variant_id: str) -> list[str]:
        return [v.id for v in self.variants.values() if v.derives_from == variant_id]


def is_seed_name(seed: str) -> bool:
    """A plain file name (no folder, not hidden), so a seed is always read from variants/seeds/."""
    return Path(seed).name == seed and "\\" not in seed and not seed.startswith(".")
