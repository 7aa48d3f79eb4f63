"""What in a ruleset can change play: rulesets with equal effective rules play one game.

Two rulesets can be worded differently and still play identically: "only the central rosette
is safe" and "every rosette is safe" are the same game on Bell's route, because the central
rosette is the only rosette both sides can reach. :func:`effective_rules` keeps only what can
change a legal move or its result, so equal results mean equal play: every position has the
same moves with the same outcomes, hence the same values when solved.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from generator.engine.rules import Rules, Side

FOLDED: dict[str, str] = {
    "variant": "a name: rulebooks called differently can play one game",
    "safe_cells": "folded into capture_cells: what can change play is where a capture can happen",
}
"""The fields of :class:`Rules` that are not effective rules of their own, with the reason."""


def effective_rules(rules: Rules) -> tuple[Any, ...]:
    """The parameters of ``rules`` that can change a legal move or its result: every field of
    :class:`Rules` in order (but those :data:`FOLDED`), each as it is or reduced to what can
    change play (:func:`_reduced`), so a new field counts as it is until it is given a
    reduction.
    """
    reduced = _reduced(rules)
    return tuple(
        reduced.get(f.name, getattr(rules, f.name)) for f in fields(Rules) if f.name not in FOLDED
    )


def _reduced(rules: Rules) -> dict[str, Any]:
    """The fields whose value can hold what never changes play, without it.

    Cells neither side can contest, extra-throw cells off both routes, throws that never occur
    and stack defences without stacks are dropped: a capture or safety ruling about a cell
    only one side ever enters never meets an enemy piece there.
    """
    contested = frozenset(rules.cells[Side.LIGHT]) & frozenset(rules.cells[Side.DARK])
    on_routes = frozenset(rules.cells[Side.LIGHT]) | frozenset(rules.cells[Side.DARK])
    capturable = rules.attackable_cells & contested
    occurring = frozenset(t for t, p in rules.throws if p > 0 and t > 0)
    stacks_possible = rules.stack_limit > 1
    return {
        "capture_cells": capturable,
        "stack_defence": rules.stack_defence if stacks_possible else None,
        "extra_throw_cells": rules.extra_throw_cells & on_routes,
        "extra_throw_throws": rules.extra_throw_throws & occurring,
        "extra_throw_without_move": rules.extra_throw_without_move
        and bool(rules.extra_throw_throws & occurring),
        "extra_throw_on_capture": rules.extra_throw_on_capture and bool(capturable),
        "exact_bear_off": rules.exact_bear_off and max(occurring, default=0) > 1,
    }
