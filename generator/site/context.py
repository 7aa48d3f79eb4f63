"""What every page generator shares: the catalogue, where each ruling lives, and citations."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import InitVar, dataclass, field
from functools import cached_property
from typing import Any

from markupsafe import Markup

from generator.measure.engine_readings import EngineReadings
from generator.model.catalog_contents import Catalog
from generator.model.references import Reference, pieces
from generator.model.variant import Citation as ModelCitation
from generator.model.variant import Evidence, ResolvedVariant, Ruling
from generator.site.cite import SITE_NAME, Citation, QuotedVersion
from generator.site.edition import Editions, lock_of
from generator.site.edition_history import EditionText, read_editions
from generator.site.render import markdown_text, one_line, relative_link
from generator.site.vocabulary import Vocabulary


def variant_page(variant_id: str) -> str:
    return f"variants/{variant_id}.md"


def question_page(question_id: str) -> str:
    return f"questions/{question_id}.md"


def short_page(ruling_id: str) -> str:
    """The page behind a ruling's short, permanent address ``/r/<id>/``."""
    return f"r/{ruling_id}.md"


def edition_page(number: str) -> str:
    """The page of edition ``number``: every ruling as it stood then (``/editions/<N>/``)."""
    return f"editions/{number}.md"


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
    site_url: str | None
    """The configured address (``SITE_URL``), or None: citations then carry site paths."""
    editions: Editions
    lock: dict[str, Any] | None = None
    """The published rulings as of the latest edition (``published-rulings.lock``); None: the
    rulings as they are now stand for it."""
    resolved: dict[str, ResolvedVariant] = field(default_factory=dict)
    rulings: dict[str, Ruling] = field(default_factory=dict)
    readings: InitVar[EngineReadings | None] = None
    """The engine's readings of the catalogue, as the build measured them (None: read here
    from the catalogue, the same readings)."""
    words: Vocabulary = field(init=False)
    engine: EngineReadings = field(init=False)
    """What the engine says about the rules: verdicts, worked examples, the learn page's
    scenes (:mod:`generator.measure.engine_readings`); the pages only read it."""

    def __post_init__(self, readings: EngineReadings | None) -> None:
        self.words = Vocabulary.of(self.catalog.equipment)
        self.engine = readings or EngineReadings(self.catalog)
        self.resolved = {vid: self.catalog.resolve(vid) for vid in sorted(self.catalog.variants)}
        self.rulings = {r.id: r for r in self.catalog.rulings()}

    @cached_property
    def edition_texts(self) -> list[EditionText]:
        """Every edition's rulings, read back from the lock
        (:mod:`~generator.site.edition_history`)."""
        lock = self.lock or lock_of(self.rulings.values(), self.editions.current.number)
        return read_editions(self.editions, lock)

    def edition_address(self, number: str, anchor: str = "") -> str:
        """The address of edition ``number``'s copy, or of one ruling in it (``anchor``)."""
        return self.address(edition_page(number)) + (f"#{anchor}" if anchor else "")

    @property
    def variant_ids(self) -> list[str]:
        return list(self.resolved)

    def ruling_target(self, ruling: Ruling) -> str:
        """The docs path and anchor of the one place a ruling is shown."""
        return f"{variant_page(ruling.variant)}#{ruling.id}"

    def address(self, path: str) -> str:
        """The address of a docs file: absolute, or from the site's root when unconfigured."""
        return f"{self.site_url or '/'}{docs_url(path)}"

    def describe(self, ruling: Ruling) -> str:
        """The ruling's value in words, its squares named on its own rulebook's board."""
        board = self.resolved[ruling.variant].board.id
        return self.words.describe(ruling.question, ruling.value, board)

    def label(self, ruling: Ruling) -> str:
        """The ruling's value in a few words, for a table cell."""
        board = self.resolved[ruling.variant].board.id
        return self.words.label(ruling.question, ruling.value, board)

    def short_url(self, ruling_id: str) -> str:
        return self.address(short_page(ruling_id))

    def ruling_title(self, ruling: Ruling) -> str:
        """The question and the rulebook: "Bearing off (Bell 1960)", or with a dash where the
        rulebook's short name has brackets of its own, so they do not nest: "Bearing off —
        Finkel (Great Book)"."""
        question = self.catalog.questions[ruling.question]
        short = self.catalog.variants[ruling.variant].short
        return f"{question.title} — {short}" if "(" in short else f"{question.title} ({short})"

    def citation(self, ruling: Ruling) -> Citation:
        return self._citation(
            f"urvariants:{ruling.id}",
            "ruling",
            f"ruling {ruling.id}",
            self.ruling_title(ruling),
            self.edition_address(self.editions.current.number, ruling.id),
            self.quoted_versions(ruling.sources, places=True),
            permanent=self.address(f"r/{ruling.id}.md"),
        )

    def quoted_versions(
        self, citations: Iterable[ModelCitation], places: bool
    ) -> tuple[QuotedVersion, ...]:
        """The recorded version of each source quoted, by place (``places``) or once each."""
        found: dict[QuotedVersion, None] = {}
        for citation in citations:
            source = self.catalog.sources[citation.source]
            version = source.version_of(citation.locator)
            if version is not None:
                facts = version.export()
                locator = citation.locator if places else None
                found[QuotedVersion(source.id, locator, **facts)] = None
        return tuple(found)

    def rulebook_citation(self, variant_id: str) -> Citation:
        variant = self.catalog.variants[variant_id]
        rulings = self.resolved[variant_id].rulings.values()
        return self._citation(
            f"urvariants:rulebook-{variant_id}",
            "rulebook",
            f"rulebook {variant_id}",
            variant.title,
            self.address(variant_page(variant_id)),
            self.quoted_versions((c for r in rulings for c in r.sources), places=False),
        )

    def site_citation(self) -> Citation:
        return self._citation("urvariants:site", "site", "site", SITE_NAME, self.address(""))

    def _citation(
        self,
        key: str,
        kind: Any,
        label: str,
        title: str,
        url: str,
        quotes: tuple[QuotedVersion, ...] = (),
        permanent: str = "",
    ) -> Citation:
        edition = self.editions.current
        return Citation(
            key, kind, label, title, url, edition.number, edition.date, quotes, permanent
        )

    def reference(self, ident: str) -> tuple[str, str]:
        """The name and docs target of what a ``[[id]]`` in prose links to: a ruling (its
        question and rulebook), a rulebook (its short name) or a source (its title)."""
        if ident in self.rulings:
            ruling = self.rulings[ident]
            return self.ruling_title(ruling), self.ruling_target(ruling)
        if ident in self.catalog.variants:
            return self.catalog.variants[ident].short, variant_page(ident)
        return self.catalog.sources[ident].title, f"sources/index.md#{ident}"

    @property
    def evidence_help(self) -> dict[Evidence, str]:
        """What each evidence level means, in the vocabulary's words (``evidence_help``)."""
        help_words = self.words.data["evidence_help"]
        return {level: str(help_words[level.value]) for level in Evidence}

    def plain(self, text: str) -> str:
        """Prose with its ``[[id]]`` links as words only (a page description, a table label)."""
        return one_line(
            "".join(
                p if isinstance(p, str) else p.words or self.reference(p.id)[0]
                for p in pieces(text)
            )
        )

    def prose(self, page: str) -> Callable[[str | None], Markup]:
        """A function rendering prose on ``page``: its text escaped, each ``[[id]]`` a link."""

        def render(text: str | None) -> Markup:
            out = []
            for piece in pieces(one_line(text or "")):
                if isinstance(piece, Reference):
                    name, target = self.reference(piece.id)
                    words = markdown_text(piece.words or name)
                    out.append(f"[{words}]({relative_link(page, target)})")
                else:
                    out.append(str(markdown_text(piece)))
            return Markup("".join(out))

        return render

    def front_matter(self, title: str, description: str) -> dict[str, Any]:
        return {"title": title, "description": self.plain(description)}

    def linker(self, page: str) -> Any:
        """A function giving links relative to ``page`` (for templates)."""

        def link(target: str) -> str:
            return relative_link(page, target)

        return link
