"""The checks of one variant file against the rest of the catalogue (:data:`VARIANT_CHECKS`):
its references, its provenance (a quotation for every stated ruling, found in its seed where
the source has one), its values, its derivation, its links in prose, its ``[sic]`` marks and
its words about how the project was made.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from generator.model.catalog_contents import is_seed_name
from generator.model.claim_words import check_claim_numbers
from generator.model.references import malformed, references
from generator.model.values import VALUE_CHECKS
from generator.model.variant import Evidence, Ruling, Variant
from generator.model.yamlsource import Document, Problem

if TYPE_CHECKING:
    from generator.model.catalog_contents import Catalog


KNOWN_CLAIM_CHECKS = (
    "dice-odds",
    "game-minutes",
    "central-rosette-decides",
    "play-cannot-lock",
    "no-draw",
    "tablet-route",
    "coins-same-spread",
)
"""Claims the site knows how to check (``generator/claims/claim_checks.py``)."""

CHECKS_NEEDING_READING = ("central-rosette-decides",)
"""Checks of a claim whose vague word ("most") needs a stated threshold (``reading``)."""

NEEDS_QUOTE = (Evidence.STATED, Evidence.IMPLIED, Evidence.CONFLICTING)

VariantCheck = Callable[["Catalog", Variant, Document], Iterator[Problem]]


def ruling_paths(variant: Variant) -> Iterator[tuple[tuple[str | int, ...], Ruling]]:
    """Each ruling with its path in the file. By position, never by ``rulings.index``: that
    compares whole rulings and made checking a file quadratic in its rulings."""
    for i, ruling in enumerate(variant.rulings):
        yield ("rulings", i), ruling


def check_ruling_references(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Every ruling answers a known question, once per variant, citing known sources."""
    seen: set[str] = set()
    for path, ruling in ruling_paths(variant):
        if ruling.question not in catalog.questions:
            yield doc.problem(
                (*path, "question"),
                f"unknown question {ruling.question!r}; use an id from variants/questions.yml",
            )
        elif ruling.question in seen:
            yield doc.problem(
                (*path, "question"),
                f"question {ruling.question!r} is answered twice in this variant; keep one ruling",
            )
        seen.add(ruling.question)
        for j, citation in enumerate(ruling.sources):
            if citation.source not in catalog.sources:
                yield doc.problem(
                    (*path, "sources", j, "source"),
                    f"unknown source {citation.source!r}; add it to variants/sources.yml",
                )


def check_provenance(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Quotes where the evidence level needs them, translations, and notes that say why."""
    for path, ruling in ruling_paths(variant):
        if ruling.evidence in NEEDS_QUOTE and not any(c.quote for c in ruling.sources):
            yield doc.problem(
                (*path, "evidence"),
                f"ruling {ruling.id} is {ruling.evidence.value} but quotes no source;"
                " add the source's exact words as quote, or use evidence: assumed",
            )
        if ruling.evidence is not Evidence.STATED and not ruling.note:
            yield doc.problem(
                path, f"ruling {ruling.id} is {ruling.evidence.value}: add a note saying why"
            )
        yield from _check_citations(catalog, doc, path, ruling.sources)
    for i, claim in enumerate(variant.claims):
        path = ("claims", i)
        if claim.check not in KNOWN_CLAIM_CHECKS:
            yield doc.problem(
                (*path, "check"),
                f"unknown check {claim.check!r}; use one of: {', '.join(KNOWN_CLAIM_CHECKS)}",
            )
        if not any(c.quote for c in claim.sources):
            yield doc.problem(path, f"claim {claim.id} quotes no source; add the exact words")
        if claim.check in CHECKS_NEEDING_READING and claim.reading is None:
            yield doc.problem(
                path,
                f"claim {claim.id}: check {claim.check} needs a reading of the claim's words;"
                " add reading: {threshold: ..., reason: ...}",
            )
        yield from _check_citations(catalog, doc, path, claim.sources)


def _check_citations(
    catalog: Catalog, doc: Document, path: tuple[str | int, ...], citations: Any
) -> Iterator[Problem]:
    for j, citation in enumerate(citations):
        source = catalog.sources.get(citation.source)
        where = (*path, "sources", j)
        if source is None or citation.quote is None:
            continue
        if source.language != "en" and not citation.translation:
            yield doc.problem(
                (*where, "quote"),
                f"quote from {source.id} is in {source.language}: add an English translation",
            )
        if citation.code and not citation.translation:
            yield doc.problem(
                (*where, "quote"),
                f"quote from {source.id} is {citation.code} code: say in words what it does,"
                " as its translation",
            )
        if source.seed is not None:
            text = seed_text(catalog, source.seed)
            if citation.quote not in text:
                yield doc.problem(
                    (*where, "quote"),
                    f"quote not found verbatim in seed {source.seed}: {citation.quote[:60]!r};"
                    " copy the exact characters from variants/seeds/",
                )


_SEED_CACHE: dict[str, str] = {}


def seed_text(catalog: Catalog, seed: str) -> str:
    """The text of seed page ``seed`` (a file name in variants/seeds/; nothing outside it)."""
    if not is_seed_name(seed):
        return ""
    path = catalog.root / "seeds" / seed
    key = str(path)
    if key not in _SEED_CACHE:
        _SEED_CACHE[key] = path.read_text(encoding="utf-8") if path.is_file() else ""
    return _SEED_CACHE[key]


def check_values(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Each machine value has the form its question expects."""
    for path, ruling in ruling_paths(variant):
        checker = VALUE_CHECKS.get(ruling.question)
        if checker is None:
            continue
        message = checker(ruling.value, catalog.equipment)
        if message:
            yield doc.problem((*path, "value"), f"ruling {ruling.id}: {message}")
        if ruling.evidence is Evidence.NOT_MODELLED and catalog.questions.get(ruling.question):
            question = catalog.questions[ruling.question]
            if question.drives_engine:
                yield doc.problem(
                    path,
                    f"ruling {ruling.id} is not-modelled but {ruling.question!r} drives the engine;"
                    " give the value the engine plays and another evidence level",
                )


def check_derivation(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """``derives_from`` names a known variant and never loops back."""
    parent = variant.derives_from
    if parent is None:
        return
    if parent in catalog.unreadable:
        yield doc.problem(
            ("derives_from",),
            f"derives_from {parent!r}: variants/{parent}.yml did not load (its own problems are"
            " listed); fix that file and this one is checked against it",
        )
        return
    if parent not in catalog.variants:
        yield doc.problem(
            ("derives_from",), f"derives_from {parent!r} is not a variant in variants/"
        )
        return
    chain = [variant.id]
    while parent is not None and parent in catalog.variants:
        if parent in chain:
            loop = " -> ".join([*chain, parent])
            yield doc.problem(
                ("derives_from",), f"derivation cycle {loop}; one variant must be the root"
            )
            return
        chain.append(parent)
        parent = catalog.variants[parent].derives_from


def check_prose_links(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Every ``[[id]]`` in a summary or note names a known ruling, rulebook or source."""
    known = {r.id for r in catalog.rulings()} | set(catalog.variants) | set(catalog.sources)
    texts: list[tuple[tuple[str | int, ...], str | None]] = [(("summary",), variant.summary)]
    texts += [((*path, "note"), ruling.note) for path, ruling in ruling_paths(variant)]
    texts += [(("claims", i, "note"), claim.note) for i, claim in enumerate(variant.claims)]
    for path, text in texts:
        for bad in malformed(text):
            yield doc.problem(
                path, f"stray {bad!r}: a link is written [[ruling-id]] or [[ruling-id|words]]"
            )
        for reference in references(text):
            if reference.id not in known:
                yield doc.problem(
                    path,
                    f"[[{reference.id}]] names no ruling, rulebook or source; use an id from"
                    " a variant file or variants/sources.yml",
                )


WORKSHOP_WORDS = re.compile(
    r"\bcould (?:not |only )?be (?:read|retrieved|fetched|seen|checked|accessed)\b(?! as)"
    r"|\b(?:was|were) (?:not )?(?:readable|seen|retrieved|fetched)\b"
    r"|\bnot seen\b|\bunchecked\b|\bas stored\b"
    r"|\bnot recovered\b|\brecovered from\b|\bas seen\b|\b(?:part|parts|summary|page) seen\b",
    re.IGNORECASE,
)
"""Words about how the site was made (what could be read, seen, recovered or checked), not
about the source: a reader cites the source, so the text says what the source is instead
("a digest reports", "the parts quoted here"). "Could be read as" (an interpretation) is
fine."""


def sic_at(quote: str, words: str) -> int | None:
    """Where ``words`` end in ``quote`` (their first whole-word occurrence), or None.

    >>> sic_at("one player will role one of the dice", "role")
    20
    >>> sic_at("squares ate some sort of", "ate"), sic_at("a separate row", "ate")
    (11, None)
    """
    found = re.search(rf"(?<!\w){re.escape(words)}(?!\w)", quote)
    return None if found is None else found.end()


def check_sic(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Every word marked [sic] is in its quote, as a whole word."""
    cited = [
        (path, j, c) for path, ruling in ruling_paths(variant) for j, c in enumerate(ruling.sources)
    ]
    cited += [
        (("claims", i), j, c)
        for i, claim in enumerate(variant.claims)
        for j, c in enumerate(claim.sources)
    ]
    for path, j, citation in cited:
        for k, words in enumerate(citation.sic):
            if citation.quote is None or sic_at(citation.quote, words) is None:
                yield doc.problem(
                    (*path, "sources", j, "sic", k),
                    f"{words!r} is not a whole word or phrase of this citation's quote; copy it"
                    " from the quote exactly, or remove it",
                )


def check_workshop_words(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Summaries, notes and locators speak of the sources, not of how the site was made."""
    texts: list[tuple[tuple[str | int, ...], str | None]] = [(("summary",), variant.summary)]
    for path, ruling in ruling_paths(variant):
        texts.append(((*path, "note"), ruling.note))
        texts += [
            ((*path, "sources", j, "locator"), c.locator) for j, c in enumerate(ruling.sources)
        ]
    for i, claim in enumerate(variant.claims):
        texts.append((("claims", i, "note"), claim.note))
        texts += [
            (("claims", i, "sources", j, "locator"), c.locator) for j, c in enumerate(claim.sources)
        ]
    for path, text in texts:
        for found in WORKSHOP_WORDS.finditer(text or ""):
            yield doc.problem(
                path,
                f"{found.group(0)!r} says how this site was made, not what the source is; say"
                ' what the source is instead ("a digest reports", "in the parts quoted here")',
            )


VARIANT_CHECKS: tuple[VariantCheck, ...] = (
    check_ruling_references,
    check_provenance,
    check_prose_links,
    check_workshop_words,
    check_sic,
    check_values,
    check_derivation,
    check_claim_numbers,
)
