"""Every edition's copy: ``/editions/`` lists them, ``/editions/<N>/`` shows every ruling as it
stood in edition N, and ``/editions/<N>.json`` gives the same to programs.

A citation names an edition and links to that edition's copy of the ruling
(``/editions/<N>/#<id>``), so a reader following it years later reads the words cited, even after
a later edition changed them, as the Stanford Encyclopedia of Philosophy keeps each quarterly
edition's archived copy. Every copy is read back from the history and the lock
(:mod:`generator.site.edition_history`): no second copy of the history is kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from generator.site.context import SiteContext, edition_page, short_page, variant_page
from generator.site.edition_history import EditionText, RulingState
from generator.site.edition_pages import value_in_words
from generator.site.render import environment, render

EDITIONS_INDEX = "editions/index.md"


@dataclass(frozen=True)
class Copy:
    """One ruling in one edition's copy, with what the page says of it."""

    state: RulingState
    title: str
    in_play: str | None
    """Its value in words (None: no words for it, the page shows the value itself; empty: the
    same as its words, not repeated)."""
    sources: list[Any] | None
    """The ruling's quotations (model citations) where known to be this edition's."""


def edition_data(ctx: SiteContext, text: EditionText) -> dict[str, Any]:
    """One edition as data: ``{"edition", "date", "summary", "rulings": {id: {...}}}``."""
    rulings = {}
    for rid, state in text.rulings.items():
        ruling = ctx.rulings.get(rid)
        sources = None
        if state.sources_current and ruling is not None:
            sources = [_quotation(c) for c in ruling.sources]
        rulings[rid] = {
            "words": state.words,
            "value": state.parsed_value(),
            "note": state.note,
            "note_recorded": state.note_known,
            "since": state.since,
            "rulebook": ruling.variant if ruling else None,
            "question": ruling.question if ruling else None,
            "sources": sources,
            "address": ctx.edition_address(text.edition.number, rid),
        }
    return {
        "edition": text.edition.number,
        "date": text.edition.date.isoformat(),
        "summary": text.edition.summary,
        "rulings": rulings,
    }


def _quotation(citation: Any) -> dict[str, Any]:
    fields = {
        "source": citation.source,
        "locator": citation.locator,
        "quote": citation.quote,
        "translation": citation.translation,
        "code": citation.code,
        "against": citation.contrary or None,
    }
    return {k: v for k, v in fields.items() if v is not None}


def _copies(ctx: SiteContext, text: EditionText) -> list[tuple[str, str, list[Copy]]]:
    """The edition's rulings by rulebook (anchor, title, copies), in rulebook order; rulings no
    longer published last."""
    groups: dict[str, list[Copy]] = {}
    for rid, state in text.rulings.items():
        ruling = ctx.rulings.get(rid)
        in_play = value_in_words(ctx, rid, state.value) if state.value is not None else None
        copy = Copy(
            state,
            ctx.ruling_title(ruling) if ruling else f"Ruling {rid}",
            "" if in_play and in_play.rstrip(".") == (state.words or "").rstrip(".") else in_play,
            list(ruling.sources) if ruling is not None and state.sources_current else None,
        )
        groups.setdefault(ruling.variant if ruling else "", []).append(copy)
    found = [
        (f"rulebook-{vid}", ctx.catalog.variants[vid].title, groups[vid])
        for vid in sorted(groups)
        if vid
    ]
    if "" in groups:
        found.append(("withdrawn", str(ctx.words.data["editions"]["withdrawn"]), groups[""]))
    return found


def edition_files(ctx: SiteContext) -> dict[str, str]:
    """The index of editions, and each edition's page and data."""
    env = environment()
    texts = ctx.edition_texts
    files = {
        EDITIONS_INDEX: render(
            env,
            "editions-index.md.j2",
            fm=ctx.front_matter(*ctx.words.page("editions")),
            texts=list(reversed(texts)),
            link=ctx.linker(EDITIONS_INDEX),
        )
    }
    current = ctx.editions.current.number
    for text in texts:
        number = text.edition.number
        page = edition_page(number)
        title, description = ctx.words.page(
            "edition", number=number, date=text.edition.date.isoformat()
        )
        files[page] = render(
            env,
            "edition.md.j2",
            title=title,
            description=description,
            edition=text.edition,
            current=current,
            groups=_copies(ctx, text),
            notes_from=next((t.edition.number for t in texts if _notes_known(t)), None),
            sources=ctx.catalog.sources,
            link=ctx.linker(page),
            prose=ctx.prose(page),
            variant_page=variant_page,
            short_page=short_page,
        )
        data = edition_data(ctx, text)
        files[f"editions/{number}.json"] = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    return files


def _notes_known(text: EditionText) -> bool:
    return all(s.note_known for s in text.rulings.values())
