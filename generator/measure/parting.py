"""Where two rulebooks part: for one question the two answer differently, the simplest
position (and throw) at which the answers give different legal results, found by the engine.

The difference is attributed to the question by construction: the search compares one
rulebook's game with that same game played with the other rulebook's answer to that question
alone (:func:`generator.engine.equivalence.swapped_rules`), so every other rule is the same on
both sides and any difference found is the question's. The host is the first rulebook whose game
can take the other's answer and is changed by it (:meth:`~generator.measure.engine_readings.
EngineReadings.verdict`); where neither can (two boards, two routes), no position is shared and
the result says so.

The search is breadth-first from the start under the host's own rules, every throw both rules
can make tried at each position in order (smallest throw first, moves in the engine's order), so
the position found is one of the fewest moves from the start, and always the same one. It stops
after :data:`SEARCH_LIMIT` positions and turns to :data:`RANDOM_POSITIONS` positions of seeded
random games (a difference met only once pieces are far along); one not met by then is
reported as none found. A difference only in the throws' odds shows in no legal move, and is
reported as such without a search.

The partings are cached in ``.cache/partings/``, keyed by the SHA-256 of every file under
``variants/``, the search's bounds and seed, and the engine's version: a rebuild after a change
elsewhere searches nothing (the full search takes about a minute of the engine).
"""

from __future__ import annotations

import enum
import itertools
import random
from collections import deque
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from generator.engine.effective import effective_rules
from generator.engine.equivalence import compare_rulings, swapped_rules
from generator.engine.moves import successors, winner
from generator.engine.position import Position, format_position, parse_position, start_position
from generator.engine.rules import Rules, compile_rules
from generator.measure.claims import catalogue_digest
from generator.measure.core import Settings, Step
from generator.measure.examples import MoveLine, move_line
from generator.model.catalog_contents import Catalog
from generator.model.variant import ResolvedVariant, Ruling
from generator.sim.cache_files import CACHE_FORMAT, content_key, read_json, write_json
from generator.sim.results_files import code_key

SEARCH_LIMIT = 2_000
"""Positions the breadth-first search visits at most before it turns to random games."""
RANDOM_POSITIONS = 5_000
"""Positions of seeded random games searched after that, before none is reported found."""
SEED = 0


@dataclass(frozen=True)
class Parting:
    """A position of ``host``'s game where ``ruling`` (the other rulebook's answer) changes the
    legal results of ``throw``; ``lines`` holds them by rulebook, each under its own answer."""

    host: str
    ruling: str
    position: Position
    throw: int
    plies: int
    """Moves (turns and passes) from the start to the position."""
    lines: dict[str, tuple[MoveLine, ...]]


class Gap(enum.Enum):
    """Why a pair has no parting position on a question that changes play."""

    ODDS_ONLY = "odds-only"
    """The answers differ only in which throws occur or how often: no legal move differs."""
    NO_SHARED_POSITION = "no-shared-position"
    """Neither rulebook's game can take the other's answer (a different board or route)."""
    NONE_FOUND = "none-found"
    """Every position searched gives the same legal results (the answers differ in odds)."""


@dataclass(frozen=True)
class Found:
    """Where the search met the first difference: the position, the throw, its depth."""

    position: Position
    throw: int
    plies: int


def first_parting(own: Rules, other: Rules, limit: int = SEARCH_LIMIT) -> Found | None:
    """The first position, breadth-first from the start of ``own``'s game, where ``own`` and
    ``other`` give different results for a throw both can make; None within ``limit``
    positions. Rules whose positions differ in form (other pieces, routes or entries) share
    none: None (:func:`shares_positions`)."""
    if not shares_positions(own, other):
        return None
    return _first_parting(replace(own, variant=""), replace(other, variant=""), limit)


@cache
def _first_parting(own: Rules, other: Rules, limit: int) -> Found | None:
    throws = tuple(
        sorted({t for t, p in own.throws if p > 0} & {t for t, p in other.throws if p > 0})
    )
    return _breadth_first(own, other, throws, limit) or _random_games(own, other, throws, limit)


def _parts(own: Rules, other: Rules, position: Position, throw: int) -> bool:
    return successors(own, position, throw) != successors(other, position, throw)


def _breadth_first(own: Rules, other: Rules, throws: tuple[int, ...], limit: int) -> Found | None:
    start = start_position(own)
    queue: deque[tuple[Position, int]] = deque([(start, 0)])
    seen = {start}
    while queue and len(seen) <= limit:
        position, plies = queue.popleft()
        if winner(own, position) is not None:  # the game is over: no move is played
            continue
        for throw in throws:
            if _parts(own, other, position, throw):
                return Found(position, throw, plies)
            for _, after in successors(own, position, throw):
                if after not in seen:
                    seen.add(after)
                    queue.append((after, plies + 1))
    return None


def _random_games(own: Rules, other: Rules, throws: tuple[int, ...], limit: int) -> Found | None:
    """Deeper than breadth-first reaches: positions of seeded random games under ``own``
    (every throw tried at each), for differences met only once pieces are far along."""
    rng = random.Random(SEED)
    weights = [float(dict(own.throws)[t]) for t in throws]
    position, plies = start_position(own), 0
    for _ in range(RANDOM_POSITIONS):
        if winner(own, position) is not None:
            position, plies = start_position(own), 0
        for throw in throws:
            if _parts(own, other, position, throw):
                return Found(position, throw, plies)
        options = successors(own, position, rng.choices(throws, weights)[0])
        position, plies = options[rng.randrange(len(options))][1], plies + 1
    return None


def shares_positions(own: Rules, other: Rules) -> bool:
    """Whether a position of one game is a position of the other: the same pieces on the same
    routes, each piece entering by a rule of its own in both or in neither."""
    return (
        own.pieces == other.pieces == len(own.entry) == len(other.entry)
        and own.cells == other.cells
        and own.distinct_pieces == other.distinct_pieces
    )


def odds_only(own: Rules, other: Rules) -> bool:
    """Whether the two differ only in their throws (which throws occur and how often): the
    legal results of a throw both can make are then the same at every position."""
    return effective_rules(replace(other, throws=own.throws)) == effective_rules(own)


def parting_lines(own: Rules, other: Rules, found: Found) -> tuple[tuple[MoveLine, ...], ...]:
    """The legal results of the found throw under each rule, each as a move and where it leads."""
    return tuple(
        tuple(
            move_line(rules, m, after)
            for m, after in successors(rules, found.position, found.throw)
        )
        for rules in (own, other)
    )


PartingKey = tuple[str, str, str]
"""(rulebook, rulebook, question), the two rulebooks in id order."""
Partings = dict[PartingKey, Parting | Gap]
"""Every pair's parting on each question the engine plays that changes the pair's game."""


def parting_key(a: str, b: str, question: str) -> PartingKey:
    first, second = sorted((a, b))
    return first, second, question


def pair_parting(
    catalog: Catalog, resolved: dict[str, ResolvedVariant], a: str, b: str, question: str
) -> Parting | Gap | None:
    """Where ``a`` and ``b`` part on ``question``: None when the answers make the same game
    in both rulebooks (nothing to show), a :class:`Gap` when no position shows it."""
    ra, rb = resolved[a].rulings[question], resolved[b].rulings[question]
    hosts = ((a, b, rb), (b, a, ra))
    changing = [
        (host, guest, other)
        for host, guest, other in hosts
        if compare_rulings(
            catalog, resolved[host], resolved[host].rulings[question], other
        ).changes_play
    ]
    if not changing:
        return None
    for host, guest, other in changing:
        base, mixed = compile_rules(resolved[host]), swapped_rules(catalog, resolved[host], other)
        if mixed is None or not shares_positions(base, mixed):
            continue
        if odds_only(base, mixed):
            return Gap.ODDS_ONLY
        found = first_parting(base, mixed)
        if found is None:
            return Gap.NONE_FOUND
        return _parting(host, guest, other.id, base, mixed, found)
    return Gap.NO_SHARED_POSITION


def _parting(
    host: str, guest: str, ruling: str, base: Rules, mixed: Rules, found: Found
) -> Parting:
    own, other = parting_lines(base, mixed, found)
    lines = {host: own, guest: other}
    return Parting(host, ruling, found.position, found.throw, found.plies, lines)


def partings(catalog: Catalog, settings: Settings) -> Partings:
    """Every pair's parting on each question that changes its game (cached, see above)."""
    resolved = {vid: catalog.resolve(vid) for vid in sorted(catalog.variants)}
    path = _cache_path(settings, catalogue_digest(catalog.root))
    cached = None if settings.refresh else read_json(path)
    if isinstance(cached, list):
        found = _from_rows(catalog, resolved, cached)
        if found is not None:
            return found
    result: Partings = {}
    for a, b in itertools.combinations(resolved, 2):
        for question in catalog.questions.values():
            ra, rb = resolved[a].rulings.get(question.id), resolved[b].rulings.get(question.id)
            if not question.drives_engine or ra is None or rb is None or ra.value == rb.value:
                continue
            parting = pair_parting(catalog, resolved, a, b, question.id)
            if parting is not None:
                result[a, b, question.id] = parting
    write_json(path, [_row(key, parting) for key, parting in result.items()])
    settings.log(f"partings: {len(result)} differences of pairs searched for a position")
    return result


def _cache_path(settings: Settings, catalogue: str) -> Path:
    payload = {
        "catalogue": catalogue,
        "limit": SEARCH_LIMIT,
        "random": RANDOM_POSITIONS,
        "seed": SEED,
        "code": code_key("engine", "measure/parting.py"),
    }
    return settings.cache_root / "partings" / f"{content_key(payload)}.v{CACHE_FORMAT}.json"


def _row(key: PartingKey, parting: Parting | Gap) -> list[Any]:
    if isinstance(parting, Gap):
        return [*key, parting.value]
    where = [format_position(parting.position), parting.throw, parting.plies]
    return [*key, parting.host, parting.ruling, *where]


def _from_rows(
    catalog: Catalog, resolved: dict[str, ResolvedVariant], rows: list[Any]
) -> Partings | None:
    """The cached partings, their legal results played again (None: a row does not read)."""
    result: Partings = {}
    try:
        for row in rows:
            a, b, question, *rest = row
            if len(rest) == 1:
                result[a, b, question] = Gap(rest[0])
                continue
            host, ruling, notation, throw, plies = rest
            guest = b if host == a else a
            base = compile_rules(resolved[host])
            mixed = swapped_rules(catalog, resolved[host], catalog_ruling(catalog, ruling))
            if mixed is None:
                return None
            found = Found(parse_position(base, notation), int(throw), int(plies))
            result[a, b, question] = _parting(host, guest, ruling, base, mixed, found)
    except (ValueError, KeyError, TypeError):
        return None
    return result


def catalog_ruling(catalog: Catalog, ruling_id: str) -> Ruling:
    return next(r for r in catalog.rulings() if r.id == ruling_id)


def parting_problems(found: Partings) -> list[str]:
    """A parting whose two rulebooks give the same legal results there (none can be)."""
    return [
        f"{a} and {b} on {question}: the position found gives the same legal results"
        for (a, b, question), parting in found.items()
        if isinstance(parting, Parting) and len(set(parting.lines.values())) < 2
    ]


PARTINGS = Step("partings", partings, parting_problems)
