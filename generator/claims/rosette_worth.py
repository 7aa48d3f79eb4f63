"""What holding one square is worth under perfect play, exactly, from a solved game.

A side *holds* a square when one of its pieces stands on it. Its worth at a position is the
holder's exact chance of winning (both sides playing perfectly from there) minus its chance in
the same position with that piece one square short of it, or one square past it, on its
route: the same pieces, the same side to move, only the square left empty. Short of it the
piece has not yet arrived; past it the piece is one step further on, so the two comparisons
err in opposite directions on the piece's progress, and their mean is the worth of the square
itself. Positions are weighted by how often perfect play reaches them
(:func:`generator.solver.solve_visits.expected_visits`): the figures are averages over the throws
of perfect games at which a side holds the square, counting only positions where both
neighbouring squares are empty (so both comparisons exist).

If holding a square never turns a won game into a lost one, the worth (a difference of two
probabilities of winning) is the share of games whose result holding it changes.

The figures of who holds the square followed through perfect games (:class:`FirstHolder`,
:class:`HeldThrows`, computed by :mod:`generator.claims.holder_wins`) are kept here beside
:class:`HoldingWorth`, so that a claim's finding can name them without loading the numba pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.engine.rules import Rules, Side
from generator.solver.solution import Solution
from generator.solver.solve_space import IntArray, configuration_code
from generator.solver.solve_visits import expected_visits


@dataclass(frozen=True)
class HoldingWorth:
    """The worth of holding one square, averaged over the throws of perfect games."""

    pieces: int
    first_player: float
    """The first player's chance of winning under perfect play."""
    expected_throws: float
    held_throws: float
    """Expected throws of a perfect game at which a side holds the square."""
    compared_throws: float
    """Of those, throws at positions where both neighbouring squares are empty."""
    worth_short: float
    """Mean of (holder's chance) minus (its chance with the piece one square short)."""
    worth_past: float
    """Mean of (holder's chance) minus (its chance with the piece one square past)."""
    holder_wins: float
    """Mean chance of the holder winning at those throws."""

    @property
    def worth(self) -> float:
        """The mean of the two comparisons: the worth of the square itself."""
        return (self.worth_short + self.worth_past) / 2


@dataclass(frozen=True)
class FirstHolder:
    """Per game: does the side that first stands on the square go on to win?"""

    pieces: int
    first_player: float
    """The first player's chance of winning under perfect play."""
    games_taken: float
    """The share of perfect games in which some side ever stands on the square."""
    first_holder_wins: float
    """Of those games, the share won by the side that stood on it first."""


@dataclass(frozen=True)
class HeldThrows:
    """Per throw: at a throw made while a side holds the square, does that side win?"""

    pieces: int
    expected_throws: float
    """Expected throws of a perfect game."""
    held_throws: float
    """Of those, the expected throws at which a side holds the square."""
    holder_wins: float
    """At those throws, the mean chance that the holder goes on to win."""


def square_step(rules: Rules, side: Side, cell: str) -> int:
    """The one step of ``side``'s route on ``cell``; a route passing it twice, or not at all,
    has no single holding step, which is an error naming the variant."""
    steps = [p for p in range(1, rules.route_length + 1) if rules.cell(side, p) == cell]
    if len(steps) != 1:
        raise ValueError(
            f"{rules.variant}: the {side.name.lower()} route passes {cell} {len(steps)} times;"
            " the worth of holding it is defined for a square passed exactly once"
        )
    step = steps[0]
    if not 1 < step < rules.route_length:
        raise ValueError(f"{rules.variant}: {cell} has no square before and after it")
    return step


def moved_configurations(solution: Solution, step: int, shift: int) -> IntArray:
    """``[configuration]`` the configuration with its piece on ``step`` moved ``shift`` steps,
    ``-1`` when no piece stands on ``step`` or the stacking limit forbids the new square."""
    geo, configs = solution.geometry, solution.configurations
    moved = np.full(configs.count, -1, dtype=np.int64)
    for config in np.flatnonzero((configs.table == step).any(axis=1)):
        row = configs.table[config]
        pieces = [0] * geo.pieces
        for slot, piece in enumerate(geo.slot_piece):
            pieces[piece] = int(row[slot])
        pieces[pieces.index(step)] = step + shift
        code = configuration_code(geo, tuple(pieces))
        moved[config] = configs.code_to_config[code] if code < configs.code_to_config.size else -1
    return moved


def holding_worth(solution: Solution, cell: str) -> HoldingWorth:
    """The worth of holding ``cell`` under ``solution``'s rules (see the module docstring)."""
    rules, geo = solution.rules, solution.geometry
    table = solution.configurations.table
    count = solution.configurations.count
    index = np.flatnonzero(solution.dense >= 0)
    values = solution.values[solution.dense[index]]
    visits = expected_visits(solution)[solution.dense[index]]
    perspective = index // (count * count)
    configs = {True: (index // count) % count, False: index % count}
    holds = np.zeros(index.size, dtype=np.bool_)
    chance = np.zeros(index.size)
    gains = {shift: np.full(index.size, np.nan) for shift in (-1, 1)}
    for p in range(geo.perspectives):
        for mover_holds in (True, False):
            side = Side(p) if mover_holds else Side(p).other
            step = square_step(rules, side, cell)
            mine = configs[mover_holds]
            rows = np.flatnonzero((perspective == p) & (table[mine] == step).any(axis=1))
            holds[rows] = True
            chance[rows] = values[rows] if mover_holds else 1 - values[rows]
            for shift in gains:
                moved = moved_configurations(solution, step, shift)[mine[rows]]
                ok = moved >= 0
                moved = np.where(ok, moved, 0)
                pair = (
                    (moved, configs[False][rows]) if mover_holds else (configs[True][rows], moved)
                )
                moved_id = solution.dense[(p * count + pair[0]) * count + pair[1]]
                ok &= moved_id >= 0
                moved_value = solution.values[np.where(ok, moved_id, 0)]
                moved_chance = moved_value if mover_holds else 1 - moved_value
                gains[shift][rows[ok]] = (chance[rows] - moved_chance)[ok]
    compare = holds & ~np.isnan(gains[-1]) & ~np.isnan(gains[1])
    weights = visits[compare]
    compared = float(weights.sum())

    def mean(x: np.ndarray) -> float:
        return float((x[compare] * weights).sum() / compared)

    return HoldingWorth(
        pieces=rules.pieces,
        first_player=solution.start_value,
        expected_throws=solution.expected_throws,
        held_throws=float(visits[holds].sum()),
        compared_throws=compared,
        worth_short=mean(gains[-1]),
        worth_past=mean(gains[1]),
        holder_wins=mean(chance),
    )
