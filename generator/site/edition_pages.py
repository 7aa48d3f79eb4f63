"""Pages of permanence: each ruling's short address, the index of every id, the list of changes,
and the edition paragraph of the About page.

A ruling's short address ``/r/<id>/`` is a real page, not a redirect: link previews and
reference managers (Zotero reads Highwire ``citation_*`` and Dublin Core tags) find there the
ruling's title, words, quotes and edition, and the reader a link on to the ruling in context.
An id that was renamed or withdrawn keeps its address, which says what became of it.
"""

from __future__ import annotations

import functools
import json
from importlib import metadata
from typing import Any

from markupsafe import Markup

from generator.site.cite import AUTHOR, SITE_NAME, repository_url
from generator.site.context import (
    SiteContext,
    edition_page,
    question_page,
    short_page,
    variant_page,
)
from generator.site.edition_history import wordings
from generator.site.render import environment, relative_link, render
from generator.site.vocabulary import NoWords

RULING_INDEX = "r/index.md"
CHANGES = "changes/index.md"


def highwire_meta(ctx: SiteContext, rid: str) -> list[tuple[str, str]]:
    """Highwire Press tags of one ruling (read by Zotero's Embedded Metadata translator); its
    public address is its citation's, the ruling in its edition's copy."""
    citation = ctx.citation(ctx.rulings[rid])
    meta = [
        ("title", citation.title),
        ("author", AUTHOR),
        ("book_title", SITE_NAME),
        ("publication_date", citation.date.strftime("%Y/%m/%d")),
        ("edition", citation.edition),
    ]
    if citation.absolute:
        meta.append(("public_url", citation.url))
    return meta


def short_pages(ctx: SiteContext) -> dict[str, str]:
    env = environment()
    pages = {}
    for rid, ruling in sorted(ctx.rulings.items()):
        page = short_page(rid)
        title = ctx.ruling_title(ruling)
        pages[page] = render(
            env,
            "short.md.j2",
            title=title,
            description=f"{title}, ruling {rid}: {' '.join(ruling.text.split())}",
            meta=highwire_meta(ctx, rid),
            r=ruling,
            rulebook=ctx.catalog.variants[ruling.variant],
            question=ctx.catalog.questions[ruling.question],
            edition=ctx.editions.current,
            events=ctx.editions.history.get(rid, []),
            wordings=wordings(ctx.edition_texts, rid),
            in_words=functools.partial(value_in_words, ctx, rid),
            edition_link=functools.partial(_edition_link, ctx, page, rid),
            sources=ctx.catalog.sources,
            languages=ctx.words.language,
            citation=ctx.citation(ruling),
            target=ctx.ruling_target(ruling),
            link=ctx.linker(page),
            prose=ctx.prose(page),
            variant_page=variant_page,
            question_page=question_page,
        )
    pages.update(gone_pages(ctx))
    return pages


def _edition_link(ctx: SiteContext, page: str, ruling_id: str, number: str) -> Markup:
    """The link from ``page`` to ``ruling_id`` in edition ``number``'s copy."""
    return relative_link(page, f"{edition_page(number)}#{ruling_id}")


def gone_pages(ctx: SiteContext) -> dict[str, str]:
    """One page per renamed or withdrawn ruling id, saying what became of it."""
    env = environment()
    pages = {}
    for rid, (edition, withdrawal) in sorted(ctx.editions.withdrawals().items()):
        if rid in ctx.rulings:
            continue  # the id was later given back to a ruling
        page = short_page(rid)
        new = ctx.rulings.get(withdrawal.replaced_by or "")
        title, description = ctx.words.page(
            "ruling-gone", rid=rid, fate=withdrawal.fate, number=edition.number
        )
        pages[page] = render(
            env,
            "short-gone.md.j2",
            title=title,
            description=description,
            rid=rid,
            replaced_by=new.id if new else None,
            replaced_title=ctx.ruling_title(new) if new else "",
            replaced_target=short_page(new.id) if new else "",
            fate=withdrawal.fate,
            edition=edition,
            link=ctx.linker(page),
        )
    return pages


def ruling_index(ctx: SiteContext) -> dict[str, str]:
    groups = []
    for vid, variant in sorted(ctx.catalog.variants.items()):
        rulings = [
            {"id": r.id, "title": ctx.ruling_title(r)} for r in sorted(variant.rulings, key=_id)
        ]
        if rulings:
            groups.append({"id": f"rulebook-{vid}", "title": variant.title, "rulings": rulings})
    gone = [
        {"id": rid, "fate": w.fate, "edition": e.number}
        for rid, (e, w) in sorted(ctx.editions.withdrawals().items())
        if rid not in ctx.rulings
    ]
    text = render(
        environment(),
        "ruling-index.md.j2",
        fm=ctx.front_matter(*ctx.words.page("rulings")),
        groups=groups,
        gone=gone,
        link=ctx.linker(RULING_INDEX),
    )
    return {RULING_INDEX: text}


def _id(ruling: Any) -> str:
    return str(ruling.id)


def value_in_words(ctx: SiteContext, ruling_id: str, value: str) -> str | None:
    """A recorded value (canonical JSON) in words, read as the ruling's question reads it on
    its rulebook's board; None when the ruling is gone or the value has no words."""
    ruling = ctx.rulings.get(ruling_id)
    if ruling is None:
        return None
    board = ctx.resolved[ruling.variant].board.id
    try:
        return ctx.words.describe(ruling.question, json.loads(value), board)
    except (NoWords, ValueError, KeyError, TypeError):
        return None


def changes_page(ctx: SiteContext) -> dict[str, str]:
    text = render(
        environment(),
        "changes.md.j2",
        fm=ctx.front_matter(*ctx.words.page("changes")),
        editions=list(reversed(ctx.editions.editions)),
        current=ctx.editions.current,
        titles={rid: ctx.ruling_title(r) for rid, r in ctx.rulings.items()},
        in_words=lambda rid, value: value_in_words(ctx, rid, value),
        link=ctx.linker(CHANGES),
    )
    return {CHANGES: text}


def about_edition(ctx: SiteContext) -> dict[str, str]:
    """The About page's paragraphs on the edition, citing, the licence and reporting errors."""
    text = render(
        environment(),
        "about-edition.md.j2",
        edition=ctx.editions.current,
        site_cite=ctx.site_citation(),
        counts={"rulings": len(ctx.rulings), "rulebooks": len(ctx.catalog.variants)},
        author=AUTHOR,
        licence=metadata.metadata("ur-variants")["License"],
        repository=repository_url(),
    )
    return {".includes/edition.md": text}
