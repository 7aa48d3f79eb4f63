"""The exact solver's state space: every position of a variant as a perfect index.

A *configuration* is one side's pieces: a progress value per piece (``0`` in hand, ``1..L`` on
the route, ``L+1`` borne off). Pieces that share an entry rule are interchangeable (the rules
never tell them apart), so within such a group the values are kept sorted and a group is a
multiset; its rank in the combinatorial number system is dense. A configuration's *code* mixes
the group ranks; ``code_to_config`` maps codes of configurations that respect the stacking limit
to dense configuration ids.

A *state* is ``(perspective, mover configuration, opponent configuration)`` with index
``perspective * C * C + mover * C + opponent``: values are stored for the side to move only
(mover-relative). When the rules are the same for light and dark with colours swapped
(:func:`colour_symmetric`; Bell's and Masters' mirrored routes are), one perspective serves both
sides, as RoyalUr.net's solved tables store only light to move; otherwise both perspectives are
stored and perspective ``0`` is light to move.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from generator.engine.position import Position
from generator.engine.rules import EntryRule, Rules
from generator.sim.encode import encode_rules, numbered_route_cells

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


def entry_groups(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Piece indices grouped by identical entry rule, in order of first appearance.

    Pieces with the same entry rule are interchangeable; only a piece in hand differs by its
    entry rule, and a captured piece returns to hand with its own rule.
    """
    groups: dict[EntryRule, list[int]] = {}
    for index, rule in enumerate(rules.entry):
        groups.setdefault(rule, []).append(index)
    return tuple(tuple(members) for members in groups.values())


def multiset_count(values: int, size: int) -> int:
    """How many sorted tuples of ``size`` values drawn from ``values`` distinct values."""
    return math.comb(values + size - 1, size)


def code_space(rules: Rules) -> int:
    """How many codes a configuration can have (before the stacking limit is applied)."""
    values = rules.off + 1
    return math.prod(multiset_count(values, len(g)) for g in entry_groups(rules))


@dataclass(frozen=True)
class Geometry:
    """The state space's shape, in the solver's slot order (pieces grouped by entry rule).

    The rules themselves are not restated here: the solver's moves come from the simulator's
    kernel, which reads them from ``packed`` (:mod:`generator.solver.solve_moves`)."""

    cells: IntArray
    """``[side, progress]`` -> cell id; ``-1`` in hand and borne off."""
    throw_values: IntArray
    throw_probs: FloatArray
    slot_group: IntArray
    group_start: IntArray
    group_size: IntArray
    group_stride: IntArray
    binom: IntArray
    """``binom[a, b]`` = C(a, b), for ranking multisets."""
    slot_piece: tuple[int, ...]
    """``slot_piece[slot]`` = the engine's piece index that fills this slot."""
    piece_of_slot: IntArray
    """``slot_piece`` as an array, for the kernels."""
    packed: IntArray
    """The rules as the simulator's kernel reads them (:meth:`EncodedRules.packed`): the
    solver generates its moves with that kernel (:mod:`generator.solver.solve_moves`)."""
    pieces: int
    off: int
    stack_limit: int
    stack_defence: int
    """``0`` when stacks never repel an attacker (the move table then keeps no repelled
    moves)."""
    perspectives: int
    """``1`` when one mover-relative table serves both colours, else ``2``."""


def colour_symmetric(rules: Rules) -> bool:
    """Whether swapping light and dark maps the rules onto themselves.

    True when, step by step, the two routes meet, revisit cells and carry rosette, safety and
    capture properties in the same pattern: then a position with dark to move has the value of
    the colour-swapped position with light to move, so one table serves both.
    """
    light, dark = rules.cells
    steps = range(rules.route_length)

    attackable = rules.attackable_cells
    for i in steps:
        if (light[i] in attackable) != (dark[i] in attackable):
            return False
        if (light[i] in rules.extra_throw_cells) != (dark[i] in rules.extra_throw_cells):
            return False
        for j in steps:
            if (light[i] == dark[j]) != (dark[i] == light[j]):
                return False
            if (light[i] == light[j]) != (dark[i] == dark[j]):
                return False
    return True


def geometry(rules: Rules) -> Geometry:
    """Flatten ``rules`` into the arrays the solver's kernels read."""
    _, cells = numbered_route_cells(rules)
    off = rules.off
    throws = [(t, p) for t, p in rules.throws if p > 0]
    groups = entry_groups(rules)
    slot_piece = tuple(piece for group in groups for piece in group)
    sizes = [len(g) for g in groups]
    starts = list(itertools.accumulate([0, *sizes[:-1]]))
    strides = [math.prod(multiset_count(off + 1, s) for s in sizes[:g]) for g in range(len(sizes))]
    top = off + rules.pieces + 1
    binom = np.array([[math.comb(a, b) for b in range(rules.pieces + 2)] for a in range(top)])
    return Geometry(
        cells=cells,
        throw_values=np.array([t for t, _ in throws], dtype=np.int64),
        throw_probs=np.array([float(p) for _, p in throws], dtype=np.float64),
        slot_group=np.array([g for g, s in enumerate(sizes) for _ in range(s)], dtype=np.int64),
        group_start=np.array(starts, dtype=np.int64),
        group_size=np.array(sizes, dtype=np.int64),
        group_stride=np.array(strides, dtype=np.int64),
        binom=binom.astype(np.int64),
        slot_piece=slot_piece,
        piece_of_slot=np.array(slot_piece, dtype=np.int64),
        packed=encode_rules(rules).packed(),
        pieces=rules.pieces,
        off=off,
        stack_limit=rules.stack_limit,
        stack_defence=rules.stack_defence or 0,
        perspectives=1 if colour_symmetric(rules) else 2,
    )


def multiset_rank(sorted_values: tuple[int, ...]) -> int:
    """Rank of a sorted tuple among all sorted tuples of its length (combinatorial number
    system: values ``v_i`` become the strictly increasing ``v_i + i``)."""
    return sum(math.comb(v + i, i + 1) for i, v in enumerate(sorted_values))


@dataclass(frozen=True)
class Configurations:
    """Every configuration one side can have, with the code -> id map."""

    table: IntArray
    """``[config, slot]`` progress values, sorted within each entry group."""
    code_to_config: IntArray
    """``[code]`` -> configuration id, ``-1`` for codes breaking the stacking limit."""

    @property
    def count(self) -> int:
        return int(self.table.shape[0])


def enumerate_configurations(rules: Rules, geo: Geometry) -> Configurations:
    """Every configuration whose pieces respect the stacking limit step by step.

    Cell-level limits (routes that revisit a cell) are checked per state, with both sides.
    """
    off = geo.off
    per_group = [
        list(itertools.combinations_with_replacement(range(off + 1), int(size)))
        for size in geo.group_size
    ]
    code_to_config = np.full(code_space(rules), -1, dtype=np.int64)
    table: list[tuple[int, ...]] = []
    for parts in itertools.product(*per_group):
        values = tuple(v for part in parts for v in part)
        on_route = [v for v in values if 0 < v < off]
        if on_route and max(on_route.count(v) for v in set(on_route)) > geo.stack_limit:
            continue
        code = sum(
            multiset_rank(part) * int(stride)
            for part, stride in zip(parts, geo.group_stride, strict=True)
        )
        code_to_config[code] = len(table)
        table.append(values)
    array = np.array(table, dtype=np.int64).reshape(len(table), geo.pieces)
    return Configurations(array, code_to_config)


def configuration_code(geo: Geometry, pieces: tuple[int, ...]) -> int:
    """The code of one side's pieces given in the engine's piece order."""
    code = 0
    for g in range(len(geo.group_size)):
        start, size = int(geo.group_start[g]), int(geo.group_size[g])
        part = sorted(pieces[geo.slot_piece[slot]] for slot in range(start, start + size))
        code += multiset_rank(tuple(part)) * int(geo.group_stride[g])
    return code


def configuration_id(geo: Geometry, configs: Configurations, pieces: tuple[int, ...]) -> int:
    """The configuration id of one side's pieces (engine order); ``-1`` over the stacking
    limit."""
    return int(configs.code_to_config[configuration_code(geo, pieces)])


def state_index(geo: Geometry, configs: Configurations, position: Position) -> int:
    """The state index of ``position`` (side to move = mover); ``-1`` if it has no entry."""
    side = position.to_move
    mover = configs.code_to_config[configuration_code(geo, position.pieces(side))]
    other = configs.code_to_config[configuration_code(geo, position.pieces(side.other))]
    if mover < 0 or other < 0:
        return -1
    perspective = int(side) if geo.perspectives == 2 else 0
    count = configs.count
    return (perspective * count + int(mover)) * count + int(other)


MAX_GROUP_PAIRS = 50_000_000
"""Above this many pairs of configuration groups, :func:`layer_sizes` gives up (the solve
would be far too large anyway)."""


def layer_sizes(geo: Geometry, configs: Configurations) -> IntArray | None:
    """How many states each layer (pieces borne off by both sides) holds, without visiting the
    states: the same count as :func:`generator.solver.solve_kernels.classify_states`, which marks
    every state index.

    A state pairs the mover's configuration with the opponent's; it is possible when neither
    side stacks over the limit and no cell holds pieces of both sides, and unfinished when
    neither side has borne off every piece. Only cells both routes use can be shared, so each
    side's configurations are grouped by (shared cells occupied, pieces borne off) and groups
    are paired. ``None`` when the groups are too many to pair.
    """
    table = configs.table
    used = [set(geo.cells[side][geo.cells[side] >= 0].tolist()) for side in range(2)]
    shared = sorted(used[0] & used[1])
    if len(shared) > 62:
        return None
    bit = np.zeros(int(geo.cells.max()) + 2, dtype=np.int64)
    bit[shared] = np.left_shift(1, np.arange(len(shared), dtype=np.int64))
    borne = (table == geo.off).sum(axis=1)
    groups = []
    for side in range(2):
        cell = geo.cells[side][table]
        within_limit = np.ones(configs.count, dtype=np.bool_)
        for c in sorted(used[side]):
            within_limit &= (cell == c).sum(axis=1) <= geo.stack_limit
        mask = np.bitwise_or.reduce(np.where(cell >= 0, bit[cell], 0), axis=1)
        keep = within_limit & (borne < geo.pieces)
        keys, counts = np.unique(
            np.stack([mask[keep], borne[keep]], axis=1), axis=0, return_counts=True
        )
        groups.append((keys[:, 0], keys[:, 1], counts.astype(np.int64)))
    sizes = np.zeros(2 * geo.pieces - 1, dtype=np.int64)
    for mover in range(geo.perspectives):
        mask_a, borne_a, count_a = groups[mover]
        mask_b, borne_b, count_b = groups[1 - mover]
        if mask_a.size * mask_b.size > MAX_GROUP_PAIRS:
            return None
        fits = (mask_a[:, None] & mask_b[None, :]) == 0
        layer = (borne_a[:, None] + borne_b[None, :])[fits]
        pairs = (count_a[:, None] * count_b[None, :])[fits]
        np.add.at(sizes, layer, pairs)
    return sizes
