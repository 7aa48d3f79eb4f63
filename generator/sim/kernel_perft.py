"""Perft through the native kernel: the distinct positions exactly k plies from the start,
enumerated by the kernel's own move generator (:mod:`generator.sim.kernel_moves`).

The reference engine's perft (:func:`generator.engine.goldens.perft_levels`) is pinned per
rulebook in ``tests/data/perft.txt``; ``tests/test_perft.py`` checks that this enumeration
reaches the same positions, so the kernel's copy of the rules is held to the same counts as
the engine. A ply is one throw of non-zero probability, then one legal move or the pass; a
finished game has no further plies.

A level is an int64 array, one row per position: light's pieces, dark's pieces (each by
progress, interchangeable pieces sorted, as the engine's canonical positions), then the side to
move. As in the engine, the side to move after the winning move is the loser.
"""

from __future__ import annotations

import numpy as np

from generator.engine.rules import Rules
from generator.sim.encode import H_THROWS, O_THROW, IntArray, encode_rules
from generator.sim.kernel_moves import (
    M_EXTRA,
    MAX_MOVES,
    MOVE_WIDTH,
    all_off,
    apply_move,
    header,
    ix,
    keeps_throw_without_move,
    kernel,
    legal_moves,
)


@kernel()
def next_level_rows(R: IntArray, level: IntArray) -> IntArray:
    """Every successor of every unfinished position of ``level`` for every throw, in rows
    like ``level``'s (repeats included)."""
    K = header(R)
    pieces = K.pieces
    stride = K.length + 2
    both = 2 * pieces
    throws = R[H_THROWS]
    out = np.zeros((level.shape[0] * throws * MAX_MOVES, both + 1), dtype=np.int64)
    S = np.zeros(both + 3 * K.cells, dtype=np.int64)
    scratch = np.zeros_like(S)
    mv = np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64)
    found = 0
    for r in range(level.shape[0]):
        S[:] = 0
        for i in range(both):
            S[i] = level[r, i]
            cell = R[ix(K.route + (i // pieces) * stride + level[r, i])]
            if cell >= 0:
                S[ix(both + (i // pieces) * K.cells + cell)] += 1
        side = level[r, both]
        if all_off(R, S, 0) or all_off(R, S, 1):
            continue
        for k in range(throws):
            throw = R[ix(R[O_THROW] + k)]
            n = legal_moves(K, R, S, side, throw, mv)
            if n == 0:
                out[found, :both] = S[:both]
                out[found, both] = side if keeps_throw_without_move(K, R, throw) else 1 - side
                found += 1
            for m in range(n):
                scratch[:] = S
                apply_move(K, R, scratch, side, mv, m)
                again = mv[ix(m * MOVE_WIDTH + M_EXTRA)] != 0 and not all_off(R, scratch, side)
                out[found, :both] = scratch[:both]
                out[found, both] = side if again else 1 - side
                found += 1
    return out[:found]


def kernel_perft_levels(rules: Rules, depth: int) -> list[IntArray]:
    """The distinct positions exactly 1..``depth`` plies from the start, each level as rows
    (sorted), enumerated by the kernel."""
    packed = encode_rules(rules).packed()
    level = np.zeros((1, 2 * rules.pieces + 1), dtype=np.int64)  # all in hand, light to move
    levels = []
    for _ in range(depth):
        level = np.unique(next_level_rows(packed, level), axis=0)
        levels.append(level)
    return levels
