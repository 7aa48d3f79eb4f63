"""What every page generator shares: the catalogue, where each ruling lives, and citations."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from generator import __version__
from generator.model.catalog import Catalog
from generator.model.variant import Evidence, ResolvedVariant, Ruling
from generator.site.cite import Citation
from generator.site.render import relative_link

EVIDENCE_HELP = {
    Evidence.STATED: "the source says it in so many words",
    Evidence.IMPLIED: "the source does not say it, but what it says entails it",
    Evidence.ASSUMED: "the source is silent; the value is assumed (the note says why)",
    Evidence.CONFLICTING: (
        "sources, or one source with itself, disagree (the note says which is played)"
    ),
    Evidence.NOT_MODELLED: "the source states it, but the engine does not play it",
}


def variant_page(variant_id: str) -> str:
    return f"variants/{variant_id}.md"


def question_page(question_id: str) -> str:
    return f"questions/{question_id}.md"


def pair_page(a: str, b: str) -> str:
    """The one page comparing rulebooks ``a`` and ``b``, whichever is named first (the page
    is named in alphabetical order; the other order is a redirect to it)."""
    first, second = sorted((a, b))
    return f"compare/{first}--{second}.md"


def docs_url(path: str) -> str:
    """The site-relative URL mkdocs gives a docs file (``use_directory_urls``)."""
    if path.endswith("index.md"):
        return path[: -len("index.md")]
    return path[: -len(".md")] + "/" if path.endswith(".md") else path


@dataclass
class SiteContext:
    """The validated catalogue plus everything derived once for all pages."""

    catalog: Catalog
    site_url: str
    date: dt.date
    version: str = __version__
    resolved: dict[str, ResolvedVariant] = field(default_factory=dict)
    rulings: dict[str, Ruling] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.resolved = {vid: self.catalog.resolve(vid) for vid in sorted(self.catalog.variants)}
        self.rulings = {r.id: r for r in self.catalog.rulings()}

    @property
    def variant_ids(self) -> list[str]:
        return list(self.resolved)

    def ruling_target(self, ruling: Ruling) -> str:
        """The docs path and anchor of the one place a ruling is shown."""
        return f"{variant_page(ruling.variant)}#{ruling.id}"

    def ruling_url(self, ruling: Ruling) -> str:
        return f"{self.site_url}{docs_url(variant_page(ruling.variant))}#{ruling.id}"

    def short_url(self, ruling: Ruling) -> str:
        return f"{self.site_url}r/{ruling.id}/"

    def citation(self, ruling: Ruling) -> Citation:
        question = self.catalog.questions[ruling.question]
        variant = self.catalog.variants[ruling.variant]
        return Citation(
            ruling_id=ruling.id,
            title=f"{question.title} ({variant.short})",
            variant_title=variant.title,
            url=self.ruling_url(ruling),
            version=self.version,
            date=self.date,
        )

    def page_citation(self, path: str, title: str, key: str) -> Citation:
        return Citation(
            ruling_id=key,
            title=title,
            variant_title=title,
            url=self.site_url + docs_url(path),
            version=self.version,
            date=self.date,
        )

    def front_matter(self, title: str, description: str) -> dict[str, Any]:
        return {"title": title, "description": " ".join(description.split())}

    def linker(self, page: str) -> Any:
        """A function giving links relative to ``page`` (for templates)."""

        def link(target: str) -> str:
            return relative_link(page, target)

        return link
