"""The site's navigation, in the order a reader needs it: how to play and which rules to play
first, then the rulebooks (grouped by family, :mod:`generator.site.families`, each by its short
name, as the comparison names them), then the comparison, the rule questions in the order of
play (as ``/questions/`` lists them), the statistics, the claims, the sources, the glossary and
the pages about the site.

mkdocs would otherwise list the pages alphabetically by file (the questions in file order and
the rulebooks after the claims); the generated configuration carries this order instead. Pair
pages and the short ruling addresses stay out of the navigation (``not_in_nav`` in mkdocs.yml):
they are many, and listed on ``/compare/`` and ``/r/``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from generator.site.context import SiteContext, question_page, variant_page
from generator.site.families import families
from generator.site.play_pages import PLAY_INDEX, play_page

HAND_WRITTEN = ("index.md", "about.md", "methodology.md")
"""The pages of ``docs/`` written by hand (all others are generated)."""

ABOUT_PAGES = ("about.md", "methodology.md", "changes/index.md", "editions/index.md")
"""The pages about the site itself, last: what it is, how it reads its sources, its editions."""


@dataclass(frozen=True)
class Titled:
    """A page listed under a title of its own (a rulebook by its short name)."""

    title: str
    page: str


@dataclass(frozen=True)
class Section:
    """A titled group of pages (and of smaller sections: a family of rulebooks); its first
    page is the section's own page."""

    title: str
    pages: tuple[str | Titled | Section, ...]


NavEntry = str | Titled | Section

START_PAGES = (("learn", "learn/index.md"), ("which-rules", "which-rules/index.md"))
"""Where a newcomer starts: how to play the common rules, then which rules to play (named in
the navigation by the vocabulary's ``pages``)."""


def navigation(ctx: SiteContext, generated: Collection[str]) -> list[NavEntry]:
    """Docs-relative pages (and sections of them) in reading order. A page the build did not
    generate (the statistics without simulation, say) is left out rather than linked."""

    def present(*pages: str) -> list[str]:
        return [p for p in pages if p in generated or p in HAND_WRITTEN]

    def by_family(page_of: Callable[[str], str]) -> list[Section]:
        """The rulebooks whose page ``page_of`` gives was generated, in families."""
        return [
            Section(
                family.title,
                tuple(
                    Titled(ctx.catalog.variants[v].short, page_of(v))
                    for v in family.rulebooks
                    if page_of(v) in generated
                ),
            )
            for family in families(ctx)
        ]

    rulebooks = by_family(variant_page)
    questions = ["questions/index.md", *(question_page(q) for q in ctx.catalog.questions)]
    entries: list[NavEntry] = [Titled("Home", "index.md")]
    pages = ctx.words.data["pages"]
    entries += [Titled(pages[key]["nav"], page) for key, page in START_PAGES if page in generated]
    if PLAY_INDEX in generated:
        played = tuple(s for s in by_family(play_page) if s.pages)
        entries.append(Section(pages["play-index"]["nav"], (PLAY_INDEX, *played)))
    entries.append(
        Section("Rulebooks", (*present("variants/index.md"), *(s for s in rulebooks if s.pages)))
    )
    entries += present("compare/index.md")
    entries.append(Section("Rule questions", tuple(present(*questions))))
    entries += present("statistics/index.md", "claims/index.md")
    entries += present("sources/index.md", "glossary/index.md")
    entries.append(Section("About", tuple(present(*ABOUT_PAGES))))
    return entries
