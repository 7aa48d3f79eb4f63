"""The checks of a rulebook as played (:func:`play_problems`, :func:`answer_problems`): its
pieces fit its board, its game can end, and it ends in a number of throws a game can take
(:func:`expected_game_throws`, at most :data:`MAX_GAME_THROWS`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from generator.model.equipment import Board, Dice, Route
from generator.model.values import VALUE_CHECKS
from generator.model.variant import Ruling, Variant
from generator.model.variant_checks import ruling_paths
from generator.model.yamlsource import Document, Problem

if TYPE_CHECKING:
    from generator.model.catalog_contents import Catalog


def resolved_problems(catalog: Catalog, variant: Variant, doc: Document) -> Iterator[Problem]:
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

    own = {id(ruling): path for path, ruling in ruling_paths(variant)}

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
