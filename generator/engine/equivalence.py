"""Which differences between rulings change the game the engine plays.

Two rulings can be worded differently and still play identically: "only the central rosette
is safe" and "every rosette is safe" are the same game on Bell's route, because the central
rosette is the only rosette both sides can reach. This module decides that with the engine,
never by hand, in two independent ways:

1. :func:`generator.engine.effective.effective_rules` compiles each ruleset and keeps only
   what can affect play (safe cells both sides can reach, extra-throw cells on a route,
   throws that occur ...);
2. :func:`sampled_agreement` plays seeded random games under one ruleset and checks that the
   other generates exactly the same legal moves and results on every position met.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from enum import Enum
from functools import cache
from typing import Any

from generator.engine.effective import effective_rules
from generator.engine.moves import successors, winner
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.variant import ResolvedVariant, Ruling


def same_game_groups(resolved: Mapping[str, ResolvedVariant]) -> dict[str, tuple[str, ...]]:
    """For each variant, the other variants whose rules play exactly the same game (equal
    :func:`effective_rules`): their simulated figures measure one game twice, whatever their
    rulings say or where they come from."""
    by_rules: dict[tuple[Any, ...], list[str]] = {}
    for vid, variant in resolved.items():
        by_rules.setdefault(effective_rules(compile_rules(variant)), []).append(vid)
    return {
        vid: tuple(other for other in group if other != vid)
        for group in by_rules.values()
        for vid in group
    }


def with_ruling(variant: ResolvedVariant, ruling: Ruling) -> ResolvedVariant:
    """``variant`` with ``ruling`` put in force for its question (equipment re-resolved)."""
    rulings = dict(variant.rulings)
    rulings[ruling.question] = ruling
    return replace(variant, rulings=rulings)


def _rebind_equipment(catalog: Catalog, variant: ResolvedVariant) -> ResolvedVariant:
    values = variant.machine_values()
    equipment = catalog.equipment
    return replace(
        variant,
        board=equipment.boards[values["board"]],
        route=equipment.routes[values["route"]],
        dice=equipment.dice[values["dice"]],
    )


def swapped_rules(catalog: Catalog, variant: ResolvedVariant, ruling: Ruling) -> Rules | None:
    """The rules of ``variant`` played with ``ruling`` instead of its own on that question;
    ``None`` when the mix is not a playable game (a route on another board, say, or a value
    the engine cannot read there: :class:`generator.engine.rules.RulesError`). Decided by
    explicit checks, not assertions, so the verdict is the same under ``python -O``."""
    mixed = _rebind_equipment(catalog, with_ruling(variant, ruling))
    if mixed.route.board != mixed.board.id:
        return None
    try:
        return compile_rules(mixed)
    except (KeyError, ValueError, TypeError):  # RulesError is a ValueError
        return None


class Verdict(Enum):
    """Whether replacing one ruling by another changes the game, by how it was decided: a
    value a page words from its own vocabulary (``verdicts``), never from :attr:`method`."""

    SAME_VALUE = "same-value"
    NOT_PLAYED = "not-played"
    CANNOT_COMBINE = "cannot-combine"
    RULES_DIFFER = "rules-differ"
    RULES_EQUAL = "rules-equal"

    @property
    def changes_play(self) -> bool:
        return self in (Verdict.CANNOT_COMBINE, Verdict.RULES_DIFFER)

    @property
    def method(self) -> str:
        """How the engine decided, in its own words (for logs and tests, not pages)."""
        return _METHODS[self]


_METHODS = {
    Verdict.SAME_VALUE: "same machine value",
    Verdict.NOT_PLAYED: "not played by the engine",
    Verdict.CANNOT_COMBINE: "the two values cannot be combined with the rest of this ruleset",
    Verdict.RULES_DIFFER: "effective engine parameters differ",
    Verdict.RULES_EQUAL: "effective engine parameters are equal",
}


def compare_rulings(catalog: Catalog, host: ResolvedVariant, own: Ruling, other: Ruling) -> Verdict:
    """Does playing ``other`` instead of ``own`` change ``host``'s game?"""
    if own.value == other.value:
        return Verdict.SAME_VALUE
    question = catalog.questions[own.question]
    if not question.drives_engine:
        return Verdict.NOT_PLAYED
    base = compile_rules(host)
    mixed = swapped_rules(catalog, host, other)
    if mixed is None:
        return Verdict.CANNOT_COMBINE
    if effective_rules(base) != effective_rules(mixed):
        return Verdict.RULES_DIFFER
    return Verdict.RULES_EQUAL


def value_verdict(catalog: Catalog, host: ResolvedVariant, question: str, value: Any) -> Verdict:
    """Does answering ``question`` with ``value`` change ``host``'s game?"""
    own = host.rulings[question]
    return compare_rulings(catalog, host, own, replace(own, value=value))


def sampled_agreement(a: Rules, b: Rules, *, positions: int, seed: int) -> tuple[int, int]:
    """Play seeded random games under ``a`` until ``positions`` positions were met; at each,
    compare the successors ``a`` and ``b`` generate for every throw.

    Returns (positions checked, positions where they disagree).
    """
    return _sampled_agreement(replace(a, variant=""), replace(b, variant=""), positions, seed)


@cache
def _sampled_agreement(a: Rules, b: Rules, positions: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    checked = disagreements = 0
    throws = [t for t, _ in a.throws]
    weights = [float(p) for _, p in a.throws]
    position: Position = start_position(a)
    while checked < positions:
        if winner(a, position) is not None:
            position = start_position(a)
        checked += 1
        if any(successors(a, position, t) != successors(b, position, t) for t in throws):
            disagreements += 1
        throw = rng.choices(throws, weights)[0]
        options = successors(a, position, throw)
        position = options[rng.randrange(len(options))][1]
    return checked, disagreements


def same_game_swaps(catalog: Catalog) -> Iterator[tuple[str, Ruling]]:
    """Each (rulebook, another rulebook's ruling) that :func:`compare_rulings` calls the same
    game and both rules can play: for every pair of rulebooks in id order and every question
    the engine plays that both answer, differently, each one's ruling put into the other's
    game (the pair's "plays identically" verdicts, both ways, cross-checked by
    :func:`sampled_agreement`)."""
    resolved = {vid: catalog.resolve(vid) for vid in sorted(catalog.variants)}
    seen: set[tuple[str, str]] = set()
    for a, b in itertools.combinations(resolved, 2):
        for question in catalog.questions.values():
            own = resolved[a].rulings.get(question.id)
            other = resolved[b].rulings.get(question.id)
            if not question.drives_engine or own is None or other is None:
                continue
            if own.value == other.value:
                continue
            for host, hosted, ruling in ((a, own, other), (b, other, own)):
                if (host, ruling.id) in seen:  # a ruling several rulebooks inherit
                    continue
                seen.add((host, ruling.id))
                if not compare_rulings(catalog, resolved[host], hosted, ruling).changes_play:
                    yield host, ruling  # so both rules compile: a mix that cannot changes play
