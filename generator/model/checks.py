"""Semantic checks across the catalogue, each a small named function yielding problems.

Structural checks (keys, types) are the JSON Schema's job (:mod:`generator.model.schema`);
these checks need more than one value at once: references, geometry, provenance, termination.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from generator.model.claim_words import check_claim_numbers
from generator.model.equipment import Board, Dice, Route
from generator.model.references import malformed, references
from generator.model.values import VALUE_CHECKS
from generator.model.variant import Evidence, Ruling, Variant
from generator.model.yamlsource import Document, Problem

if TYPE_CHECKING:
    from generator.model.catalog import Catalog

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


def _ruling_paths(variant: Variant) -> Iterator[tuple[tuple[str | int, ...], Ruling]]:
    """Each ruling with its path in the file. By position, never by ``rulings.index``: that
    compares whole rulings and made checking a file quadratic in its rulings."""
    for i, ruling in enumerate(variant.rulings):
        yield ("rulings", i), ruling


def check_ruling_references(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Every ruling answers a known question, once per variant, citing known sources."""
    seen: set[str] = set()
    for path, ruling in _ruling_paths(variant):
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
    for path, ruling in _ruling_paths(variant):
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
    from generator.model.catalog import is_seed_name

    if not is_seed_name(seed):
        return ""
    path = catalog.root / "seeds" / seed
    key = str(path)
    if key not in _SEED_CACHE:
        _SEED_CACHE[key] = path.read_text(encoding="utf-8") if path.is_file() else ""
    return _SEED_CACHE[key]


def check_values(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Each machine value has the form its question expects."""
    for path, ruling in _ruling_paths(variant):
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
    texts += [((*path, "note"), ruling.note) for path, ruling in _ruling_paths(variant)]
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
        (path, j, c)
        for path, ruling in _ruling_paths(variant)
        for j, c in enumerate(ruling.sources)
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
    for path, ruling in _ruling_paths(variant):
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


def _resolved_problems(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
    """Checks on the variant as played: completeness, geometry, capacity, termination."""
    answered: dict[str, Ruling] = {}
    for ancestor in catalog.lineage(variant.id):
        for ruling in catalog.variants[ancestor].rulings:
            answered.setdefault(ruling.question, ruling)
    missing = [q.id for q in catalog.questions.values() if q.drives_engine and q.id not in answered]
    if missing:
        yield doc.problem(
            ("rulings",),
            f"variant {variant.id} does not answer {', '.join(missing)};"
            " add a ruling for each (evidence: assumed when the source is silent)",
        )
        return
    values = {q: r.value for q, r in answered.items()}
    if any(VALUE_CHECKS[q](values[q], catalog.equipment) for q in values if q in VALUE_CHECKS):
        return  # reported on the ruling itself
    route = catalog.equipment.routes[values["route"]]
    board = catalog.equipment.boards[values["board"]]

    own = {id(ruling): path for path, ruling in _ruling_paths(variant)}

    def at(question: str) -> tuple[str | int, ...]:
        return own.get(id(answered[question]), ("derives_from",))

    for question, message in answer_problems(values):
        yield doc.problem(at(question), message)
    dice = catalog.equipment.dice[values["dice"]]
    # A reading kept for the record (simulate: false) is never played, so it may be one the
    # engine cannot finish; its page says so. Every played variant must terminate.
    for problem in play_problems(values, board, route, dice, variant.simulate):
        yield doc.problem(at(problem.question), problem.message)


def answer_problems(values: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(question, message) for an answer that does not fit the rest of the rulebook:
    ``extra-throw-without-move`` does not arise exactly when no throw earns another throw.

    The catalogue rejects such a rulebook. A sensitivity run does not try an answer that this
    rejects (it does not arise there, or it must), but keeps a change to another question
    that leaves such an answer behind: a variant given a throw that earns another throw
    plays its unchanged ``does-not-arise`` as "the turn passes"."""
    earning = values["throw-extra-throw"]
    answer = values["extra-throw-without-move"]
    if not earning and answer != "does-not-arise":
        yield (
            "extra-throw-without-move",
            f"extra-throw-without-move is {answer} but no throw earns another throw"
            " (throw-extra-throw is []); answer does-not-arise",
        )
    elif earning and answer == "does-not-arise":
        yield (
            "extra-throw-without-move",
            f"extra-throw-without-move is does-not-arise but throws {earning} earn another throw;"
            " answer throws-again or turn-passes",
        )


class PlayProblem(NamedTuple):
    """One reason a set of machine values cannot be played.

    ``question`` is the ruling to fix, ``message`` tells the data's author what is wrong, and
    ``kind`` with ``details`` (equipment ids and numbers, never words) lets a page say the same
    to a reader in its own words."""

    question: str
    kind: str
    message: str
    details: Mapping[str, Any] = MappingProxyType({})


def play_problems(
    values: dict[str, Any], board: Board, route: Route, dice: Dice, terminating: bool
) -> Iterator[PlayProblem]:
    """Each reason a set of machine values cannot be played: the route is not drawn on the
    board, a named cell is off the board or the route, the pieces do not fit, the entry rules
    name the wrong number of pieces, and (when ``terminating``) some piece can never enter or
    never bear off. Shared by the catalogue check and the sensitivity runs
    (:func:`generator.sim.variation.playable_problem`)."""
    if route.board != board.id:
        yield PlayProblem(
            "route",
            "route-off-board",
            f"route {route.id} is drawn on board {route.board}, not {board.id}",
            {"route": route.id, "route_board": route.board, "board": board.id},
        )
        return
    on_route = set(route.light) | set(route.dark)
    for question in ("safe-squares", "rosette-extra-throw"):
        value = values[question]
        cells = sorted(board.rosettes) if value == "rosettes" else value
        if isinstance(cells, list):
            for cell in cells:
                if not board.has(cell):
                    yield PlayProblem(
                        question,
                        "square-off-board",
                        f"{question}: {cell} is not on board {board.id}",
                        {"board": board.id},
                    )
                elif cell not in on_route:
                    yield PlayProblem(
                        question,
                        "square-off-route",
                        f"{question}: rosette or cell {cell} is off the route {route.id};"
                        " no piece can ever stand there",
                        {"route": route.id},
                    )
    yield from _capacity(values, route)
    if terminating:
        yield from _termination(values, route, dice)


def _capacity(values: dict[str, Any], route: Route) -> Iterator[PlayProblem]:
    pieces, stacking = values["pieces"], values["stacking"]
    capacity = len(set(route.light)) * stacking
    if pieces > capacity:
        yield PlayProblem(
            "pieces",
            "too-many-pieces",
            f"{pieces} pieces cannot fit on route {route.id} ({capacity} places);"
            " lower pieces or allow stacking",
            {"pieces": pieces, "route": route.id, "places": capacity},
        )
    entry = values["entry"]
    if "per_piece" in entry and len(entry["per_piece"]) != pieces:
        named = len(entry["per_piece"])
        yield PlayProblem(
            "pieces",
            "entry-piece-count",
            f"entry names {named} pieces but pieces is {pieces}",
            {"named": named, "pieces": pieces},
        )


def _termination(values: dict[str, Any], route: Route, dice: Dice) -> Iterator[PlayProblem]:
    """A variant that cannot terminate (some piece can never enter, or never bear off), or
    whose games would last too long to simulate (:data:`MAX_GAME_THROWS`)."""
    endless = list(_endless(values, route, dice))
    yield from endless
    if not endless:
        yield from _game_length(values, route, dice)


def _endless(values: dict[str, Any], route: Route, dice: Dice) -> Iterator[PlayProblem]:
    """Some piece can never enter, or never bear off, whatever is thrown."""
    throws = sorted(t for t, p in dice.table() if t > 0 and p > 0)
    if not throws:
        yield PlayProblem(
            "dice",
            "no-moving-throw",
            f"dice {dice.id} never moves a piece; the game cannot end",
            {"dice": dice.id},
        )
        return
    length = route.length
    entry = values["entry"]
    rules = entry.get("per_piece", [entry])
    exact = values["bearing-off"] == "exact"
    reach_off = steps_reaching_off(length, throws, exact)
    for rule in rules:
        allowed = throws if rule["throws"] == "any" else [t for t in rule["throws"] if t in throws]
        if not allowed:
            yield PlayProblem(
                "entry",
                "no-entering-throw",
                f"no throw of dice {dice.id} can enter a piece ({rule['throws']});"
                " the game cannot end",
                {"dice": dice.id, "entering": rule["throws"]},
            )
            continue
        squares = allowed if rule["square"] == "throw" else [rule["square"]]
        for square in squares:
            if square > length:
                yield PlayProblem(
                    "entry",
                    "entry-beyond-route",
                    f"entry square {square} is beyond the route's {length} steps",
                    {"square": square, "steps": length},
                )
            elif square not in reach_off:
                yield PlayProblem(
                    "bearing-off",
                    "never-bears-off",
                    f"a piece entering on step {square} can never bear off with throws {throws}"
                    f" and {values['bearing-off']} bearing off; the game cannot end",
                    {"square": square, "throws": throws},
                )


MAX_GAME_THROWS = 2_000
"""The most throws a played rulebook's game may be expected to take, by
:func:`expected_game_throws`: dice that almost never move a piece, or a piece that almost never
enters, make a game that never ends in practice ("no game finished"). The rulebooks in
variants/ expect at most 303 (Bell's, entering only on a five), the one-ruling changes the
site plays at most 423. The estimate leaves out captures: random play's games have lasted up
to 14 times it (Murray's 27-square route), so a game at this bound still ends well within the
simulation's stop at 100,000 throws (fifty times the bound; a test keeps it at least twenty)."""


def _game_length(values: dict[str, Any], route: Route, dice: Dice) -> Iterator[PlayProblem]:
    """A game too long to simulate: :data:`MAX_GAME_THROWS`."""
    throws = expected_game_throws(values, route.length, dice.table())
    if throws > MAX_GAME_THROWS:
        about = f"{throws:,.0f}" if throws < 1e12 else "more than a million million"
        yield PlayProblem(
            "dice",
            "too-long-game",
            f"with dice {dice.id} a game would last about {about} throws (each side bearing its"
            f" pieces off alone), more than the {MAX_GAME_THROWS:,} a played rulebook may take;"
            " give the dice likelier moving (or entering) throws, or set simulate: false to keep"
            " the rulebook for the record",
            {"dice": dice.id, "throws": round(min(throws, 1e12))},
        )


def expected_game_throws(
    values: dict[str, Any], length: int, table: tuple[tuple[int, Fraction], ...]
) -> float:
    """About how many throws a game takes, captures left out: twice (two sides) the throws one
    side needs to enter and bear off each of its pieces alone, one after another, with no
    opponent (:func:`_piece_throws`)."""
    entry = values["entry"]
    rules = entry.get("per_piece", [entry] * values["pieces"])
    exact = values["bearing-off"] == "exact"
    return 2 * sum(_piece_throws(length, table, rule, exact) for rule in rules)


def _piece_throws(
    length: int, table: tuple[tuple[int, Fraction], ...], rule: dict[str, Any], exact: bool
) -> float:
    """Expected throws for one piece alone to enter by ``rule`` and bear off. From each step
    (0: in hand) a throw moves it with chance ``moving``, else it waits, so the expectation is
    ``(1 + sum of p * expectation where it lands) / moving``, worked from the last step back."""
    off = length + 1
    remaining = [0.0] * (off + 1)
    for step in range(length, -1, -1):
        landings = [
            (float(p), square)
            for throw, p in table
            if (square := _landing(step, throw, rule, off, exact)) is not None
        ]
        moving = sum(p for p, _ in landings)
        after = sum(p * remaining[square] for p, square in landings)
        remaining[step] = (1 + after) / moving if moving > 0 else math.inf
    return remaining[0]


def _landing(step: int, throw: int, rule: dict[str, Any], off: int, exact: bool) -> int | None:
    """Where a throw takes a piece alone on ``step`` (0: in hand), or None if it cannot move."""
    if throw <= 0:
        return None
    if step == 0:
        if rule["throws"] != "any" and throw not in rule["throws"]:
            return None
        square = throw if rule["square"] == "throw" else rule["square"]
        return square if isinstance(square, int) and square < off else None
    if step + throw > off:
        return None if exact else off
    return step + throw


def steps_reaching_off(length: int, throws: list[int], exact: bool) -> set[int]:
    """Route steps from which some sequence of throws bears the piece off (ignoring blocks)."""
    off = length + 1
    good = {off}
    for step in range(length, 0, -1):
        for throw in throws:
            target = step + throw
            if target > off and not exact:
                target = off
            if target in good:
                good.add(step)
                break
    return good


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
        problems.extend(_resolved_problems(catalog, variant, doc))
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
