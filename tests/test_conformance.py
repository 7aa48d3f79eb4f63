"""One conformance harness over every variant: seeded random games, checked after every ply.

After each throw: the legal moves are exactly those a plain reading of the rules allows
(:func:`reference_moves`, written here from variants/README.md and sharing no code with the
engine), the position that follows is the one the move describes, pieces are conserved,
no cell is over-stacked or shared by both sides, and another throw is granted exactly when
a rule grants it. Every game ends (a throw cap fails clearly) and the winner has borne off
every piece while the loser has not.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import (
    other_answer_on_unmoved_extra_throws,
    play,
    rules_for,
    simulated,
    variant_ids,
)

from generator.engine.goldens import Ply
from generator.engine.position import Position, format_position
from generator.engine.rules import Rules, Side

PLY_BUDGET = 8_000
"""Throws checked per variant (games are played until it is spent, at most MAX_GAMES)."""
MAX_GAMES = 300

RefMove = tuple[int, int, int, bool]
"""(start, end, pieces captured, repelled): a move as the rules describe it."""


def _cells(rules: Rules, side: Side, pieces: tuple[int, ...]) -> Counter[str]:
    return Counter(rules.cells[side][p - 1] for p in pieces if 1 <= p <= rules.route_length)


def reference_moves(rules: Rules, position: Position, throw: int) -> Counter[RefMove]:
    """The moves a plain reading of the rules allows, one per distinguishable piece."""
    side = position.to_move
    off = rules.route_length + 1
    mine = position.light if side is Side.LIGHT else position.dark
    theirs = position.dark if side is Side.LIGHT else position.light
    if throw <= 0 or all(p == off for p in mine) or all(p == off for p in theirs):
        return Counter()
    own_cells = _cells(rules, side, mine)
    enemy_cells = _cells(rules, side.other, theirs)
    moves: Counter[RefMove] = Counter()
    considered: set[tuple[int, int]] = set()
    for index, start in enumerate(mine):
        who = index if rules.distinct_pieces else 0
        if start == off or (who, start) in considered:
            continue
        considered.add((who, start))
        if start == 0:
            rule = rules.entry[index]
            if rule.throws is not None and throw not in rule.throws:
                continue
            target = throw if rule.square is None else rule.square
        else:
            target = start + throw
        if target > off:
            if rules.exact_bear_off or start == 0:
                continue
            target = off
        if target == off:
            moves[(start, off, 0, False)] += 1
            continue
        cell = rules.cells[side][target - 1]
        here = own_cells[cell] - (start >= 1 and rules.cells[side][start - 1] == cell)
        if here >= rules.stack_limit:
            continue
        defenders = enemy_cells[cell]
        if defenders and (cell in rules.safe_cells or cell not in rules.capture_cells):
            continue
        if defenders and rules.stack_defence is not None and defenders >= rules.stack_defence:
            moves[(start, 0, 0, True)] += 1
            continue
        moves[(start, target, defenders, False)] += 1
    return moves


def _expected_after(rules: Rules, ply: Ply) -> tuple[Counter[int], Counter[int]]:
    """Both sides' pieces (as multisets of progress) after the chosen move."""
    side = ply.before.to_move
    mine = Counter(ply.before.pieces(side))
    theirs = Counter(ply.before.pieces(side.other))
    move = ply.chosen
    if move is None or move.is_pass:
        return mine, theirs
    mine[move.start] -= 1
    mine[move.end] += 1
    if move.captured:
        cell = rules.cells[side][move.end - 1]
        for progress in list(theirs):
            if (
                1 <= progress <= rules.route_length
                and rules.cells[side.other][progress - 1] == cell
            ):
                theirs[0] += theirs.pop(progress)
    return +mine, +theirs


def _grants_extra_throw(rules: Rules, ply: Ply) -> bool:
    move = ply.chosen
    moved = move is not None and not move.is_pass
    if ply.throw in rules.extra_throw_throws and (moved or rules.extra_throw_without_move):
        return True
    if move is None or move.is_pass or move.repelled or move.end > rules.route_length:
        return False
    cell = rules.cells[ply.before.to_move][move.end - 1]
    return cell in rules.extra_throw_cells or (move.captured > 0 and rules.extra_throw_on_capture)


def check_ply(rules: Rules, ply: Ply) -> None:
    where = f"{rules.variant}: {format_position(ply.before)} throw {ply.throw}"
    side = ply.before.to_move
    off = rules.route_length + 1
    engine = Counter((m.start, m.end, m.captured, m.repelled) for m in ply.moves if not m.is_pass)
    assert engine == reference_moves(rules, ply.before, ply.throw), (
        f"{where}: engine moves {sorted(engine)} differ from the rules' "
        f"{sorted(reference_moves(rules, ply.before, ply.throw))}"
    )
    passes = [m for m in ply.moves if m.is_pass]
    assert len(passes) == (0 if rules.must_move or not engine else 1), (
        f"{where}: a voluntary pass must be offered exactly when moves exist and must-move is off"
    )
    assert ply.chosen is None or ply.chosen in ply.moves, f"{where}: an illegal move was applied"
    after = ply.after
    for who in Side:
        pieces = after.pieces(who)
        assert len(pieces) == rules.pieces, f"{where}: {who.name} has {len(pieces)} pieces"
        assert all(0 <= p <= off for p in pieces), f"{where}: progress out of range {pieces}"
        crowded = {c: n for c, n in _cells(rules, who, pieces).items() if n > rules.stack_limit}
        assert not crowded, f"{where}: over-stacked cells {crowded}"
    shared = set(_cells(rules, Side.LIGHT, after.light)) & set(_cells(rules, Side.DARK, after.dark))
    assert not shared, f"{where}: both sides on {sorted(shared)}"
    mine, theirs = _expected_after(rules, ply)
    assert Counter(after.pieces(side)) == mine, (
        f"{where}: mover's pieces are not what the move says"
    )
    assert Counter(after.pieces(side.other)) == theirs, (
        f"{where}: opponent's pieces changed wrongly"
    )
    finished = all(p == off for p in after.pieces(side))
    again = _grants_extra_throw(rules, ply) and not finished
    assert (after.to_move == side) == again, (
        f"{where}: {'another throw' if after.to_move == side else 'the turn passed'} but the"
        f" rules say {'another throw' if again else 'the turn passes'}"
        f" (move {ply.chosen})"
    )


@pytest.mark.parametrize("variant_id", variant_ids())
def test_random_games_conform(variant_id: str) -> None:
    check_random_games(rules_for(variant_id), simulated(variant_id))


def test_the_other_answer_on_a_throw_that_moves_nothing_conforms() -> None:
    """Where a throw earns another throw, games under the answer the rulebook did not give
    (is that throw kept when it moves nothing?) conform too."""
    flipped = other_answer_on_unmoved_extra_throws()
    assert flipped, "no variant has a throw that earns another throw"
    for rules in flipped:
        check_random_games(rules, must_end=True)


def check_random_games(rules: Rules, must_end: bool) -> None:
    """Seeded random games of ``rules``, every ply checked, until the budget is spent."""
    variant_id = rules.variant
    rng = random.Random(f"conformance {variant_id}")
    off = rules.route_length + 1
    plies = games = 0
    while plies < PLY_BUDGET and games < MAX_GAMES:
        games += 1
        last = None
        for ply in play(rules, rng):
            check_ply(rules, ply)
            plies += 1
            last = ply.after
        assert last is not None
        light_done = all(p == off for p in last.light)
        dark_done = all(p == off for p in last.dark)
        if must_end:
            assert light_done != dark_done, (
                f"{variant_id}: game {games} ended without exactly one side borne off:"
                f" {format_position(last)}"
            )
        else:
            assert not (light_done and dark_done)
    assert plies >= PLY_BUDGET or games == MAX_GAMES


def test_reference_generator_sees_blocks() -> None:
    """The oracle is not vacuous: it refuses a move onto one's own piece where stacking is 1."""
    for variant_id in variant_ids():
        rules = rules_for(variant_id)
        if rules.stack_limit != 1 or rules.pieces < 2 or rules.route_length < 3:
            continue
        rest = (0,) * (rules.pieces - 2)
        position = Position(tuple(sorted((*rest, 1, 2))), (0,) * rules.pieces, Side.LIGHT)
        if rules.distinct_pieces:
            continue
        moves = reference_moves(rules, position, 1)
        assert (1, 2, 0, False) not in moves
        assert (2, 3, 0, False) in moves or rules.cells[0][2] in rules.safe_cells
        return
    pytest.skip("no variant with single stacking")
