"""Does the side holding a square go on to win? Exactly, over the games perfect play plays.

With both sides playing the solver's perfect policy (of the moves of highest value, the first
in the engine's order, as :func:`generator.solver.solve_sweeps._bellman_wave` chooses), a game
from the start is a Markov chain over the solved states. A forward pass pushes the start's unit
of probability along the chosen moves and the throws' odds, layer by layer (a move bears off
at most one piece, so a layer's mass flows only into itself and the next), until what is left
to push in a layer is below :data:`PUSH_TOLERANCE`. Two weightings come out of the one pass:

- **per throw**: over every throw of a perfect game at which one side has a piece on the
  square, weighted by how often perfect play makes it (the expected number of throws made
  from each state, ``N(s)`` of :mod:`generator.solver.solve_visits`), the chance that the side
  holding it goes on to win. A throw is a moment of the game, so this is "at a moment when one
  side holds the square, how often does that side win?".
- **per game**: in each game, the first moment a side has a piece on the square (the position
  after the move that put it there); over the games in which that happens, weighted by their
  probability, the chance that this side goes on to win. The games in which neither side ever
  stands on the square are counted apart.

A state's value is the mover's chance of winning under perfect play from it, so the holder's
chance there is the value or one minus it; by the law of total probability the weighted mean
of those chances is the share of games the holder wins. Nothing is sampled: the figures are
exact up to the solver's tolerance and the mass left unpushed.

Two sums check the pass (:func:`holder_wins` raises when they fail): the throws counted add up
to the solver's expected length of a perfect game, and every unit of probability ends in a win.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from generator.claims.rosette_worth import FirstHolder, HeldThrows, square_step
from generator.engine.position import start_position
from generator.engine.rules import Side
from generator.sim.encode import numbered_route_cells
from generator.sim.kernel_moves import MAX_MOVES, header
from generator.solver.solution import Solution
from generator.solver.solve_checkpoints import release_pages
from generator.solver.solve_estimate import sweep_order
from generator.solver.solve_moves import MoveArrays, build_move_table, table_successors
from generator.solver.solve_sweeps import CHUNKS, WIN_CODE, _chunk, _option

PUSH_TOLERANCE = 1e-12
"""Probability left unpushed in a layer at which its flow counts as converged."""

MAX_PUSH_SWEEPS = 100_000

CHECK_TOLERANCE = 1e-7
"""Relative gap allowed between the pass's sums and the solver's own figures. Each layer's flow
stops with up to :data:`PUSH_TOLERANCE` unpushed and the solver's lengths carry their own
tolerance; over the seven-piece game (137,870,097 states, 5 December 2026) the gaps came to
1.3e-9 (games) and 8.4e-9 (throws), over the 1e-9 once allowed, and far below the 0.1 points the
figures are published to."""

# The pass's sums (one float64 array, so the kernel can add to it in place).
THROWS, HELD, HELD_WINS, TAKEN, TAKEN_WINS, NEVER, ENDED = range(7)
SUMS = 7


@dataclass(frozen=True)
class PassFigures:
    """How the pass went (for a progress line and the tests)."""

    states: int
    sweeps: int
    """Push sweeps, summed over the layers swept."""
    seconds: float


def holder_wins(
    solution: Solution, cell: str, per_throw: bool = True
) -> tuple[FirstHolder, HeldThrows | None, PassFigures]:
    """The per-game figures for ``cell`` under ``solution``'s rules, with both sides playing
    perfectly, and with ``per_throw`` the per-throw ones (which push every game to its end:
    without them, only the games in which nobody has yet stood on the square are followed,
    and the pass stops where none are left); raises ``ValueError`` where a route passes the
    cell other than once, ``RuntimeError`` where the pass does not converge or its sums do
    not add up."""
    began = time.perf_counter()
    rules, geo = solution.rules, solution.geometry
    configs, index = solution.configurations, solution.state_index
    for side in Side:
        square_step(rules, side, cell)  # the error names a square passed twice or never
    cell_id = numbered_route_cells(rules)[0][cell]
    holds = np.zeros((2, configs.count), dtype=np.bool_)
    for colour in range(2):
        holds[colour] = (geo.cells[colour][configs.table] == cell_id).any(axis=1)
    moves = build_move_table(geo, configs)
    throws = int(geo.throw_values.shape[0])
    sums = np.zeros(SUMS)
    values = solution.values
    start = solution.index(start_position(rules))
    sizes = index.layer_sizes
    mass, fresh = np.zeros(int(sizes[0])), np.zeros(int(sizes[0]))
    fresh[start] = 1.0  # the start's layer comes first: nothing borne off
    mass[start] = 1.0 if per_throw else 0.0
    sweeps = 0
    for layer in range(len(sizes)):
        if not (per_throw or fresh.any()):
            break
        base, size = int(index.layer_base[layer]), int(sizes[layer])
        following = int(sizes[layer + 1]) if layer + 1 < len(sizes) else 0
        mass_next, fresh_next = np.zeros(following), np.zeros(following)
        order, places = sweep_order(geo, configs, index, layer)[:2]
        policy = np.empty(size * throws, dtype=np.uint32)
        target_held = np.empty(size * throws, dtype=np.uint8)
        held = np.empty(size, dtype=np.uint8)
        _choose(
            order, places, base, values, policy, target_held, held, holds, geo.packed,
            configs.count, moves.arrays, geo.throw_probs, geo.perspectives, index.borne,
            index.mask_id, index.rank, index.prefix, index.start,
        )  # fmt: skip
        del order
        done = _push(
            places, base, values, policy, target_held, held, geo.throw_probs,
            mass, fresh, mass_next, fresh_next, sums, PUSH_TOLERANCE, MAX_PUSH_SWEEPS,
        )  # fmt: skip
        if done < 0:
            raise RuntimeError(f"{rules.variant}: the flow of layer {layer} did not converge")
        sweeps += done
        del places, policy, target_held, held
        # A full game's values are mapped from its file: the layer's pages, read, can go.
        release_pages(values, base, base + size)
        mass, fresh = mass_next, fresh_next
    gaps = {"games taken or not": sums[TAKEN] + sums[NEVER] - 1}
    if per_throw:
        gaps["throws against the expected length"] = sums[THROWS] / solution.expected_throws - 1
        gaps["games ended"] = sums[ENDED] - 1
    wrong = {name: gap for name, gap in gaps.items() if not abs(gap) <= CHECK_TOLERANCE}
    if wrong:
        raise RuntimeError(f"{rules.variant}: the forward pass does not add up: {wrong}")
    first = FirstHolder(
        pieces=rules.pieces,
        first_player=solution.start_value,
        games_taken=float(sums[TAKEN]),
        first_holder_wins=float(sums[TAKEN_WINS] / sums[TAKEN]),
    )
    held_throws = (
        HeldThrows(
            pieces=rules.pieces,
            expected_throws=solution.expected_throws,
            held_throws=float(sums[HELD]),
            holder_wins=float(sums[HELD_WINS] / sums[HELD]),
        )
        if per_throw
        else None
    )
    return first, held_throws, PassFigures(solution.states, sweeps, time.perf_counter() - began)


@njit(cache=True, parallel=True)
def _choose(
    order: np.ndarray,
    places: np.ndarray,
    base: int,
    values: np.ndarray,
    policy: np.ndarray,
    target_held: np.ndarray,
    held: np.ndarray,
    holds: np.ndarray,
    packed: np.ndarray,
    count: int,
    table_arrays: MoveArrays,
    probs: np.ndarray,
    perspectives: int,
    borne: np.ndarray,
    mask_id: np.ndarray,
    rank: np.ndarray,
    prefix: np.ndarray,
    start: np.ndarray,
) -> None:
    """For each state of the layer (row = its id less ``base``): who holds the square
    (``held``: 0 nobody, 1 the mover, 2 the opponent), and for each throw the perfect choice
    (``policy``, coded as the solver codes it) and who holds the square after it
    (``target_held``, as seen by the side to move then; 0 after a win)."""
    size = order.shape[0]
    throws = probs.shape[0]
    chunks = min(CHUNKS, size)
    for c in prange(chunks):
        K = header(packed)
        movers = np.zeros(MAX_MOVES, dtype=np.int64)
        opponents = np.zeros(MAX_MOVES, dtype=np.int64)
        keeps = np.zeros(MAX_MOVES, dtype=np.bool_)
        every_held = np.empty(0, dtype=np.uint64)  # the whole layer and the next: no slot map
        every_rank = np.empty(0, dtype=np.int64)
        lo, hi = _chunk(0, size, c, chunks)
        for k in range(lo, hi):
            key = order[k]
            p = key // (count * count)
            i = (key // count) % count
            j = key % count
            a = places[k]
            next_p = (1 - p) if perspectives == 2 else 0
            held[a] = 1 if holds[p, i] else 2 if holds[1 - p, j] else 0
            for t in range(throws):
                found = table_successors(
                    K, packed, table_arrays, count, throws, i, j, p, t, movers, opponents, keeps
                )
                best = -1.0
                pick = WIN_CODE
                then = 0
                for m in range(found):
                    code, value = _option(
                        movers[m], opponents[m], keeps[m], p, next_p, base, base, values,
                        every_held, every_rank, borne, mask_id, rank, prefix, start,
                    )  # fmt: skip
                    if value > best:
                        best = value
                        pick = code
                        if code == WIN_CODE:
                            then = 0
                        elif keeps[m]:
                            mover_then = holds[p, movers[m]]
                            then = 1 if mover_then else 2 if holds[1 - p, opponents[m]] else 0
                        else:
                            mover_then = holds[next_p, opponents[m]]
                            then = 1 if mover_then else 2 if holds[1 - next_p, movers[m]] else 0
                policy[a * throws + t] = pick
                target_held[a * throws + t] = then


@njit(cache=True)
def _push(
    places: np.ndarray,
    base: int,
    values: np.ndarray,
    policy: np.ndarray,
    target_held: np.ndarray,
    held: np.ndarray,
    probs: np.ndarray,
    mass: np.ndarray,
    fresh: np.ndarray,
    mass_next: np.ndarray,
    fresh_next: np.ndarray,
    sums: np.ndarray,
    tolerance: float,
    max_sweeps: int,
) -> int:
    """Push the layer's probability (``mass``: of being at a state when a throw is made;
    ``fresh``: the part of it from games in which nobody has yet stood on the square) along
    the chosen moves into this layer and the next, adding to ``sums``; returns the sweeps,
    or ``-1`` when the layer has not converged after ``max_sweeps``.

    The sweep runs in reverse sweep order (the solver's waves go from the most progress to the
    least; most moves add progress, so the flow mostly runs forward within one sweep, and a
    capture or a pass carries mass back for the next)."""
    size = mass.shape[0]
    throws = probs.shape[0]
    for sweep in range(max_sweeps):
        for k in range(size - 1, -1, -1):
            a = places[k]
            m = mass[a]
            f = fresh[a]
            if m == 0.0 and f == 0.0:
                continue
            mass[a] = 0.0
            fresh[a] = 0.0
            sums[THROWS] += m
            if held[a] != 0:
                v = values[base + a]
                sums[HELD] += m
                sums[HELD_WINS] += m * (v if held[a] == 1 else 1.0 - v)
            for t in range(throws):
                code = policy[a * throws + t]
                q = probs[t]
                if code == WIN_CODE:
                    sums[ENDED] += m * q
                    sums[NEVER] += f * q
                    continue
                target = code >> 1
                if target < size:
                    mass[target] += m * q
                else:
                    mass_next[target - size] += m * q
                if f == 0.0:
                    continue
                then = target_held[a * throws + t]
                if then != 0:
                    v = values[base + target]
                    sums[TAKEN] += f * q
                    sums[TAKEN_WINS] += f * q * (v if then == 1 else 1.0 - v)
                elif target < size:
                    fresh[target] += f * q
                else:
                    fresh_next[target - size] += f * q
        if mass.sum() + fresh.sum() < tolerance:
            return sweep + 1
    return -1
