"""What in a ruleset can change play: rulesets with equal effective rules play one game.

Two rulesets can be worded differently and still play identically: "only the central rosette
is safe" and "every rosette is safe" are the same game on Bell's route, because the central
rosette is the only rosette both sides can reach. :func:`effective_rules` keeps only what can
change a legal move or its result, so equal results mean equal play: every position has the
same moves with the same outcomes, hence the same values when solved.
"""

from __future__ import annotations

from typing import Any

from generator.engine.rules import Rules, Side


def effective_rules(rules: Rules) -> tuple[Any, ...]:
    """The parameters of ``rules`` that can change a legal move or its result.

    Cells neither side can contest, extra-throw cells off both routes, throws that never occur
    and stack defences without stacks are dropped: a capture or safety ruling about a cell
    only one side ever enters never meets an enemy piece there.
    """
    contested = frozenset(rules.cells[Side.LIGHT]) & frozenset(rules.cells[Side.DARK])
    on_routes = frozenset(rules.cells[Side.LIGHT]) | frozenset(rules.cells[Side.DARK])
    capturable = (rules.capture_cells - rules.safe_cells) & contested
    occurring = frozenset(t for t, p in rules.throws if p > 0 and t > 0)
    stacks_possible = rules.stack_limit > 1
    return (
        rules.route_length,
        rules.cells,
        rules.pieces,
        rules.throws,
        rules.entry,
        rules.stack_limit,
        capturable,
        rules.stack_defence if stacks_possible else None,
        rules.extra_throw_cells & on_routes,
        rules.extra_throw_throws & occurring,
        rules.extra_throw_without_move and bool(rules.extra_throw_throws & occurring),
        rules.extra_throw_on_capture and bool(capturable),
        rules.exact_bear_off and max(occurring, default=0) > 1,
        rules.must_move,
    )
