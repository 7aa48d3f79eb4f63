"""A solved game checked one step at a time against the reference engine.

The solver's sweeps take every option from its move table (:mod:`generator.solver.solve_moves`,
built from the kernel's moves). Here the options are generated again by the reference engine
(:func:`generator.engine.moves.successors`), and each position's stored value and expected
length must be what one step of perfect play makes of the stored values of the positions it
leads to: the Bellman equation, checked at positions met in random play. Whoever computed the
values (one process, a cluster of workers, or someone else's machine), a table that satisfies
it at every position checked, within the bounds below, is the fixed point the solve claims.

The bounds are those the tests hold every rulebook's two-piece game to
(``tests/test_solve.py``): the sweeps stop when a value changes by less than 1e-13 and a length
by less than 1e-10, so a gap a hundred times wider is a wrong table, not rounding.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from generator.engine.goldens import random_game
from generator.engine.moves import successors, winner
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules
from generator.solver.solution import Solution

VALUE_GAP = 1e-11
"""The largest gap allowed between a stored chance of winning and its one-step backup."""
LENGTH_GAP = 1e-7
"""The largest gap allowed between a stored expected length (throws) and its backup."""
GAME_CAP = 2_000
"""Throws after which a random game is cut (some readings never end under random play)."""
TIED = 1e-12
"""Moves whose values are this close to the best count as tied: the length may follow any."""


@dataclass(frozen=True)
class Gaps:
    """The largest gaps found between stored figures and their one-step backups."""

    positions: int
    value: float
    """The largest |stored chance - backup|."""
    length: float
    """The largest distance of a stored expected length outside its backup's range (the
    backup of each throw may follow any of the tied best moves)."""

    @property
    def hold(self) -> bool:
        """Whether both gaps are within :data:`VALUE_GAP` and :data:`LENGTH_GAP`."""
        return self.value <= VALUE_GAP and self.length <= LENGTH_GAP


def positions_met(rules: Rules, seed: int, count: int) -> list[Position]:
    """The start, then one unfinished position from each of ``count - 1`` seeded random games
    (uniform legal moves), met at a throw chosen uniformly among the game's: spread from the
    opening to the last pieces, where the first positions of a few games would all be
    openings."""
    rng = random.Random(seed)
    found = [start_position(rules)]
    while len(found) < count:
        met = [ply.before for ply in random_game(rules, rng, GAME_CAP, must_end=False)]
        if met:
            found.append(rng.choice(met))
    return found[:count]


def gaps(solution: Solution, positions: list[Position]) -> Gaps:
    """Each position's stored chance and expected length against one step of the reference
    engine's moves over the stored figures of what they lead to (:class:`Gaps`)."""
    rules = solution.rules
    value_gap = length_gap = 0.0
    for position in positions:
        mover = position.to_move
        backup, low, high = 0.0, 1.0, 1.0  # the length's backup, bracketed over tied moves
        for throw, probability in rules.throws:
            scored = []
            for _, after in successors(rules, position, throw):
                won = winner(rules, after)
                if won is not None:
                    scored.append((1.0 if won is mover else 0.0, 0.0))
                    continue
                v = solution.win_probability(after)
                mine = v if after.to_move is mover else 1 - v
                scored.append((mine, solution.expected_throws_left(after)))
            best = max(v for v, _ in scored)
            tied = [e for v, e in scored if v >= best - TIED]
            backup += float(probability) * best
            low += float(probability) * min(tied)
            high += float(probability) * max(tied)
        value_gap = max(value_gap, abs(solution.win_probability(position) - backup))
        length = solution.expected_throws_left(position)
        if math.isinf(length):  # endless under the choices: some best move must be endless
            length_gap = max(length_gap, 0.0 if math.isinf(high) else math.inf)
        else:
            length_gap = max(length_gap, low - length, length - high)
    return Gaps(len(positions), value_gap, length_gap)
