"""Exact solutions: every position's win probability under perfect play, by value iteration.

The value of a position is the probability that the side to move wins when both sides play to
maximise their own chance of winning; another throw keeps the same side to move. For each
throw the mover picks the option of highest value::

    V(s) = sum over throws t of p(t) * max over options m of
               1          if m bears off the mover's last piece,
               V(s')      if m earns another throw,
               1 - V(s')  if the opponent moves next.

A throw with no legal move has one option, the pass (:func:`generator.engine.moves.pass_turn`).
Borne-off pieces never come back, and a move bears off at most one, so states are layered by
the pieces borne off by both sides and solved from the most borne off to the least; a layer
needs only its own values and the next layer's. Positions are numbered without gaps by a
perfect index (:mod:`generator.solver.solve_index`); each position stores one value and one
expected length (float64: the tolerance, 1e-13, is far below float32's resolution), and moves
are generated when needed by the simulator's rules kernel (:mod:`generator.solver.solve_moves`),
not stored. A layer is solved by modified policy iteration on every core
(:mod:`generator.solver.solve_sweeps`; between full sweeps, the few positions where the error
lingers are swept on their own) until a sweep that generates every move changes no value
by more than the tolerance, the stopping rule of plain value iteration (RoyalUr-Java's
``LutTrainer`` stops the same way, see ``/work/shared/research/peers.md``). With the optimal
policy fixed, the expected number of throws left, ``E(s) = 1 + sum_t p(t) * E(next)``, is found
by the same sweeps. With a cache folder, each finished layer is checkpointed there and an
interrupted solve resumes (:class:`Checkpoints`).

Where moving is optional, both sides may prefer to decline for ever; such states (and every
state that can reach them under the policy) are found as fixed points of the policy's
transitions and given an infinite expected length. Their values are the fixed point the
iteration reaches from 1/2, which is not the probability of winning a game that surely ends.

Checks (``tests/test_solve.py``): Finkel's rules (RoyalUr.net) with one piece a side give the
first player 53.0049839525 %, with two pieces 51.8572907496 % (RoyalUr-Java's trainer); one
piece each on its last square, the side to move wins 4/7, and one step further back 116/161
(jheled, ``doc/solve.rst``). The full seven-piece game (137,870,097 states), solved by hand
with the previous version of this solver (stored moves: 10.2 GiB of arrays, 48 minutes of one
core), gave the first player 51.5404732509 %, the published value
(JeroenOlieslagers/game_of_ur, RoyalUr.net) to every digit; this version estimates 1.71 GiB
for it (the process included), and ``UR_SOLVE_SEVEN=1`` runs the test that checks it.
RoyalUr.net's five-piece Blitz gave 50.4052555093 %, also the published value (41,243,781
states).

Expected lengths depend on the policy, not only on the values: among moves of equal value the
solver takes the first in the engine's order. A perfect seven-piece game lasted 209.869874
throws on average with the previous version, and taking the last of equal moves instead gave
the same figure. jheled publishes 209.810273 for his perfect player, which reads values
stored in 16 bits. Choosing moves from values rounded to 16 bits gave 209.837 (ties to the
last move) to 209.911 (ties to the first): gaps of the same few hundredths. That suggests,
without proving, that the published figure differs for that reason
(``scripts/perfect_length_by_policy.py``, run once
by hand, not in a test).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
import mmap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from generator.engine import ENGINE_VERSION
from generator.engine.effective import effective_rules
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules
from generator.sim.cache_files import (
    CACHE_FORMAT,
    Release,
    arrays_checksum,
    read_arrays,
    read_json,
    report_damaged,
    write_arrays,
    write_json,
)
from generator.solver.solve_index import StateIndex, build_index
from generator.solver.solve_moves import MoveTable, build_move_table, move_table_bytes
from generator.solver.solve_space import (
    Configurations,
    FloatArray,
    Geometry,
    IntArray,
    code_space,
    configuration_id,
    enumerate_configurations,
    geometry,
)

SOLVER_VERSION = 3
"""Bump when the solver could give different numbers for the same rules (beyond the
tolerance: committed results are keyed by it)."""

SWEEP_VERSION = 4
"""Bump when the sweeps could store different bits for a layer (their order, their starting
values): a checkpoint resumes only the sweeps that wrote it, so a solve's bits never depend on
where it was interrupted."""

ESTIMATE_VERSION = 4
"""Bump when :func:`estimate` counts memory differently (what a layer allocates changed):
sizes counted before are counted again (:func:`generator.solver.full_games.refresh_pending`)."""

PROCESS_COUNTED_SINCE = 4
"""The first :data:`ESTIMATE_VERSION` that counts the process itself (:data:`PROCESS_BYTES`)."""

PROCESS_BYTES = 256 * 2**20
"""The solving process before its arrays: the interpreter, numpy, numba and the compiled
kernels (158 MB resident after :func:`warm_up` in a fresh process, measured with seven-piece
Finkel's and Masters' rules; ``ur-variants full-games`` also loads the catalogue), rounded up.
Counted in :func:`estimate`, so the estimate bounds the process's measured peak."""

DEFAULT_MAX_MEMORY = 4 * 2**30
"""Refuse solves whose estimated working memory exceeds this (bytes)."""

MAX_DENSE_SLOTS = 50_000_000
"""Largest :attr:`Solution.dense` built (200 MB)."""

LENGTH_TOLERANCE = 1e-10
"""Largest change (in throws) per sweep at which the expected length counts as converged."""

MAX_SWEEPS = 100_000
"""Give up on a layer after this many sweeps (converging layers need a few hundred)."""

EVALUATION_FACTOR = 1e-3
"""Evaluate the stored choices until a sweep changes the values by less than this fraction of
the last Bellman sweep's change (then look for better choices again)..."""

EARLY_FACTOR = 0.3
EARLY_ROUNDS = 2
"""...except after the first ``EARLY_ROUNDS`` Bellman sweeps, which stop at ``EARLY_FACTOR``
of it: their choices were made from values still far from their own (all 1/2 at first), and
the next Bellman sweep changes many of them; evaluating them to a thousandth was wasted.
Three-piece Finkel's largest layer: 48 -> 33 value sweeps, as many Bellman sweeps."""

HOT_SPREAD = 10
"""After a full evaluation sweep, the states whose change was within ``2**HOT_SPREAD`` (about
a thousand) of the largest are swept again on their own
(:func:`generator.solver.solve_sweeps.hot_floor`)..."""

HOT_TARGET = 0.01
"""...until their largest change is this fraction of the full sweep's."""

HOT_SHARE = 2
"""Hot states are swept on their own only when at most one in this many states is hot (the
error is concentrated); else the next full sweep, on every core, does better."""

SWEEP_HOT_STATES = True
"""Sweep the hot states on their own between full evaluation sweeps (off: for the test that
checks they change no value beyond the tolerance)."""

GENERATE_EVERY_MOVE = False
"""Generate every state's moves in every Bellman sweep, even where the stored choices are
known to stand (:func:`generator.solver.solve_sweeps.bellman_wave`): for the test that checks
the shortcut gives the same bits."""

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "solve"


class SolveRefused(ValueError):
    """The variant's state space is too large to solve on this machine."""


@dataclass(frozen=True)
class SolveEstimate:
    """Size of a solve, known before it starts."""

    configurations: int
    perspectives: int
    states: int
    """Positions to solve: exact when ``exact``, else a rough upper guess."""
    largest_layer: int
    memory_bytes: int
    """Working memory of a checkpointed solve: the index's tables, the values and lengths of
    the two layers in use, and the largest layer's stored choices and sweep order."""
    in_memory_bytes: int
    """Working memory of a solve kept wholly in memory (no cache folder): every value too."""
    exact: bool
    """``states`` and ``largest_layer`` were counted (:func:`solve_index.build_index`)."""


MAX_COUNTED_CONFIGURATIONS = 400_000
"""Count states exactly when a side has at most this many configuration codes (seven-piece
Masters has 346,104 and is counted in about 25 s: 500,929,993 states, 5.6 GiB checkpointed)."""

FLOAT_BYTES = 8
"""Values and lengths are float64: the tolerance (1e-13) and the ten published decimals of a
percentage (1e-12) are far below float32's resolution (6e-8)."""


def order_dtype(perspectives: int, configurations: int) -> type[np.unsignedinteger[Any]]:
    """Sweep-order keys ``(p * C + mover) * C + opponent`` in 4 bytes where they fit."""
    if perspectives * configurations * configurations < 2**32:
        return np.uint32
    return np.uint64


def layer_working_bytes(size: int, waves: int, largest_wave: int, throws: int, key: int) -> int:
    """Bytes :func:`_solve_layer` allocates for a layer: per state a choice per throw
    (4 bytes each) and its record (a byte each, :func:`solve_sweeps._record`), a sweep-order
    key, an id (4) and two flags (the endless search's, or at other times the magnitude of
    the last change, :func:`solve_sweeps.hot_floor`); the largest wave's new values; each
    wave's start."""
    return size * (5 * throws + key + 4 + 2) + 8 * largest_wave + 8 * (waves + 1)


def estimate(rules: Rules) -> SolveEstimate:
    """The solve's states and peak memory, without solving.

    Memory, as :func:`_solve` allocates it: the process itself (:data:`PROCESS_BYTES`); the
    index's tables (:mod:`generator.solver.solve_index`); a value (float64) for each state of the
    two layers in use, or in the lengths phase an expected length (a checkpointed solve keeps
    the finished layers, and the array the phase does not use, on disk); and the layer's
    working arrays (:func:`layer_working_bytes`). States and waves are counted
    exactly when the configurations are few enough (every game solvable here, in seconds);
    otherwise they are guessed.
    """
    geo = geometry(rules)
    configs = code_space(rules)
    throws = int(geo.throw_values.shape[0])
    if configs <= MAX_COUNTED_CONFIGURATIONS:
        listed = enumerate_configurations(rules, geo)
        index = build_index(geo, listed)
        key = np.dtype(order_dtype(geo.perspectives, listed.count)).itemsize
        sizes = index.layer_sizes
        fixed = PROCESS_BYTES + _table_bytes(index, listed, geo)
        on_disk = in_memory = fixed
        for layer, size in enumerate(sizes.tolist()):
            _, waves, largest = _count_waves(geo, index, layer)
            working = layer_working_bytes(size, waves, largest, throws, key)
            pair = FLOAT_BYTES * int(sizes[layer : layer + 2].sum())
            on_disk = max(on_disk, fixed + pair + working)
            in_memory = max(in_memory, fixed + 2 * FLOAT_BYTES * index.states + working)
        return SolveEstimate(
            listed.count,
            geo.perspectives,
            index.states,
            int(sizes.max()),
            on_disk,
            in_memory,
            True,
        )
    configs = _configuration_count(rules, geo) if configs <= 5_000_000 else configs
    states = int(0.15 * geo.perspectives * configs * configs)
    largest = int(0.25 * states)
    working = layer_working_bytes(largest, 0, largest, throws, 8)
    return SolveEstimate(
        configs,
        geo.perspectives,
        states,
        largest,
        PROCESS_BYTES + 2 * FLOAT_BYTES * largest + working,
        PROCESS_BYTES + 2 * FLOAT_BYTES * states + working,
        False,
    )


def _layer_shape(geo: Geometry, index: StateIndex, layer: int) -> tuple[Any, ...]:
    """What decides the layer's states (:data:`generator.solver.solve_sweeps.LayerShape`)."""
    return (
        layer, geo.perspectives, geo.pieces, index.borne, index.progress, index.valid,
        index.mask, index.class_start, index.class_members, index.progress_classes,
    )  # fmt: skip


def _count_waves(geo: Geometry, index: StateIndex, layer: int) -> tuple[int, int, int]:
    """The states, waves and largest wave of the layer's sweep order, counted without
    listing it (:func:`generator.solver.solve_sweeps.wave_sizes`)."""
    from generator.solver import solve_sweeps as sweeps

    counted: tuple[int, int, int] = sweeps.wave_sizes(_layer_shape(geo, index, layer))
    return counted


class SweepOrder(NamedTuple):
    """A layer's states in sweep order (:func:`generator.solver.solve_sweeps.layer_order`)."""

    order: npt.NDArray[np.unsignedinteger[Any]]
    """Each state's key ``(p * C + mover) * C + opponent``, wave by wave."""
    places: npt.NDArray[np.uint32]
    """Each state's id less the layer's first."""
    wave_start: npt.NDArray[np.int64]
    """Each wave's first place in the order, and one past the last."""
    largest: int
    """The largest wave's states."""


def sweep_order(
    geo: Geometry, configs: Configurations, index: StateIndex, layer: int
) -> SweepOrder:
    """The layer's sweep order, counted first to allocate it exactly."""
    from generator.solver import solve_sweeps as sweeps

    base = int(index.layer_base[layer])
    size = int(index.layer_base[layer + 1]) - base
    listed, waves, largest = _count_waves(geo, index, layer)
    if listed != size:
        raise AssertionError(f"solver bug: layer {layer} lists {listed} of {size} states")
    order = np.empty(size, dtype=order_dtype(geo.perspectives, configs.count))
    places = np.empty(size, dtype=np.uint32)
    wave_start = np.empty(waves + 1, dtype=np.int64)
    listing = sweeps.layer_order(
        _layer_shape(geo, index, layer), order, places, wave_start, base,
        index.mask_id, index.rank, index.prefix, index.start,
    )  # fmt: skip
    if listing != (listed, waves, largest):
        raise AssertionError(
            f"solver bug: layer {layer} lists {listing}, counted {listed, waves, largest}"
        )
    return SweepOrder(order, places, wave_start, largest)


def _table_bytes(index: StateIndex, configs: Configurations, geo: Geometry) -> int:
    """Bytes of the index's tables, the configuration list and the move table."""
    arrays = [a for a in vars(index).values() if isinstance(a, np.ndarray)]
    moves = move_table_bytes(geo, configs.count)
    return (
        sum(a.nbytes for a in arrays) + configs.table.nbytes + configs.code_to_config.nbytes + moves
    )


def _configuration_count(rules: Rules, geo: Geometry) -> int:
    """Configurations within the stacking limit, counted by route-occupancy pattern."""
    if len(geo.group_size) > 1 or rules.stack_limit > 1:
        return enumerate_configurations(rules, geo).count
    # One group of interchangeable pieces, at most one per step: choose the occupied steps,
    # then split the rest between hand and borne off.
    n, steps = rules.pieces, rules.route_length
    return sum(math.comb(steps, m) * (n - m + 1) for m in range(n + 1))


@dataclass(frozen=True)
class Solution:
    """Every position's value under perfect play, and the expected length of a perfect game."""

    rules: Rules
    geometry: Geometry
    configurations: Configurations
    state_index: StateIndex
    """Positions -> ids (:mod:`generator.solver.solve_index`)."""
    values: FloatArray
    """``[state id]`` probability that the side to move wins (in memory, or mapped from the
    cache folder's file)."""
    lengths: FloatArray
    """``[state id]`` expected throws left under the optimal policy (the first best move in
    the engine's order); infinite where that policy can go on for ever."""
    states: int
    """Positions solved (possible, unfinished, side to move mover-relative)."""
    seconds: float
    """Wall time of the solve itself, summed over resumed runs (not the native compilation,
    not a cache load)."""
    cpu_seconds: float
    """Processor time of the solve, all threads, summed over resumed runs (the honest figure on
    a machine shared with other work)."""
    memory_bytes: int
    """Peak bytes of the solver's working arrays during the solve (:func:`estimate`)."""
    sweeps: int
    """Sweeps over all layers (values): Bellman sweeps plus evaluation sweeps."""
    tolerance: float
    endless: int = 0
    """States from which perfect play can go on for ever (say, both sides declining to move
    where moving is not compulsory); their expected length is infinite."""
    from_cache: bool = False
    compile_seconds: float = 0.0
    """Time this call spent compiling the native kernels (or loading them from numba's cache);
    ``0`` once they are loaded in this process."""
    bellman_sweeps: int = 0
    """Of ``sweeps``, those that generated every move."""
    resumed_layers: int = 0
    """Layers read from a checkpoint of an interrupted run instead of solved now."""

    @functools.cached_property
    def dense(self) -> npt.NDArray[np.int32]:
        """``[state index]`` -> state id, ``-1`` for impossible or finished states, where a
        state index is ``(p * C + mover) * C + opponent`` (:func:`solve_space.state_index`):
        the table the small-game kernels read (:mod:`generator.solver.solve_small`). It holds a
        number for every pair of configurations, so it is refused above
        :data:`MAX_DENSE_SLOTS`."""
        count = self.configurations.count
        slots = self.geometry.perspectives * count * count
        if slots > MAX_DENSE_SLOTS:
            raise SolveRefused(f"{self.rules.variant}: {slots:,} state indices are too many")
        index = self.state_index
        dense = np.full(slots, -1, dtype=np.int32)
        mover, opponent = np.divmod(np.arange(count * count, dtype=np.int64), count)
        for p in range(self.geometry.perspectives):
            possible = index.valid[p, mover] & index.valid[1 - p, opponent]
            possible &= (index.mask[p, mover] & index.mask[1 - p, opponent]) == 0
            slots_of_p = p * count * count + np.flatnonzero(possible)
            dense[slots_of_p] = self.ids_of(slots_of_p)
        return dense

    def ids_of(self, slots: IntArray) -> IntArray:
        """The state ids of possible, unfinished states given by state index (see
        :attr:`dense`)."""
        index, count = self.state_index, self.configurations.count
        p, rest = np.divmod(slots, count * count)
        i, j = np.divmod(rest, count)
        ids = index.start[p, i, index.borne[i] + index.borne[j]]
        ids += index.prefix[p, index.borne[j], index.mask_id[p, i], index.mask_id[1 - p, j]]
        return np.asarray(ids + index.rank[1 - p, j], dtype=np.int64)

    def index(self, position: Position) -> int:
        """The solved state id of ``position``; raises ``ValueError`` for an impossible one."""
        side = position.to_move
        mover = configuration_id(self.geometry, self.configurations, position.pieces(side))
        other = configuration_id(self.geometry, self.configurations, position.pieces(side.other))
        p = int(side) if self.geometry.perspectives == 2 else 0
        ident = self.state_index.state_id(p, mover, other) if min(mover, other) >= 0 else -1
        if ident < 0:
            raise ValueError(f"position {position} is impossible or finished under these rules")
        return ident

    def win_probability(self, position: Position) -> float:
        """Probability that the side to move in ``position`` wins under perfect play."""
        finished = self._finished(position)
        if finished is not None:
            return finished
        return float(self.values[self.index(position)])

    def expected_throws_left(self, position: Position) -> float:
        """Expected throws until the game ends when both sides play perfectly."""
        if self._finished(position) is not None:
            return 0.0
        return float(self.lengths[self.index(position)])

    def _finished(self, position: Position) -> float | None:
        off = self.rules.off
        if all(p == off for p in position.pieces(position.to_move)):
            return 1.0
        if all(p == off for p in position.pieces(position.to_move.other)):
            return 0.0
        return None

    @property
    def start_value(self) -> float:
        """Probability that the first player (light, to move at the start) wins."""
        return self.win_probability(start_position(self.rules))

    @property
    def expected_throws(self) -> float:
        """Expected length, in throws, of a perfect-vs-perfect game from the start."""
        return self.expected_throws_left(start_position(self.rules))


def _plain(value: object) -> object:
    """``value`` as JSON can hold it, in one canonical order (sets sorted)."""
    if isinstance(value, frozenset):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, int | str | bool) or value is None:
        return value
    return str(value)


def _versioned_key(content: object, tolerance: float) -> str:
    payload = {
        "rules": content,
        "engine": ENGINE_VERSION,
        "solver": SOLVER_VERSION,
        "tolerance": tolerance,
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def rules_key(rules: Rules, tolerance: float) -> str:
    """SHA-256 of everything that decides the solution: the rules' content (not the variant
    id), the engine and solver versions and the tolerance."""
    content = _plain(rules)
    assert isinstance(content, dict)
    content.pop("variant")
    return _versioned_key(content, tolerance)


def game_key(rules: Rules, tolerance: float) -> str:
    """Like :func:`rules_key`, but of the rules' effective content
    (:func:`generator.engine.effective.effective_rules`): rulesets worded differently that
    play the same game, move for move, share it, and so share their solution."""
    return _versioned_key(_plain(effective_rules(rules)), tolerance)


def solution_path(
    cache_dir: Path, rules: Rules, tolerance: float = 1e-13, start: FloatArray | None = None
) -> Path:
    """The folder holding a solve's values, lengths and checkpoint record. Sweeps from a
    fitted start (:func:`starting_point`) store other bits (the same values within the
    tolerance), so they have a folder of their own."""
    folder = f"{rules_key(rules, tolerance)}.v{CACHE_FORMAT}.s{SWEEP_VERSION}"
    used = starting_point(rules, start)
    if used is not None:
        folder += f".w{hashlib.sha256(used.tobytes()).hexdigest()[:16]}"
    return cache_dir / folder


def starting_point(rules: Rules, start: FloatArray | None) -> FloatArray | None:
    """The fitted evaluation's weights a solve of ``rules`` starts its sweeps from, or
    ``None`` (every value 1/2). Only where moving is compulsory: there the values are the
    one fixed point, wherever the sweeps start; where a player may stall, the sweeps reach
    one of several, and the site publishes the one reached from 1/2."""
    if start is None or not rules.must_move:
        return None
    return np.ascontiguousarray(start, dtype=np.float64)


def solve(
    rules: Rules,
    *,
    tolerance: float = 1e-13,
    cache_dir: Path | None = DEFAULT_CACHE,
    use_cache: bool = True,
    max_memory_bytes: int = DEFAULT_MAX_MEMORY,
    progress: Callable[[str], None] | None = None,
    start: FloatArray | None = None,
) -> Solution:
    """Solve ``rules`` exactly (or load the cached solution from ``cache_dir``). With
    ``use_cache=False`` a cached solution is not read but solved again, and replaced.

    With ``start``, the weights of the fitted evaluation of these rules
    (:func:`generator.solver.fitted_agent.weights_for`), each layer's sweeps start from that
    evaluation of its positions instead of 1/2 (:func:`starting_point`): the same values
    within the tolerance, in fewer sweeps (six-piece Finkel's layer 5: 48 sweeps instead of
    63, values' processor time 55 to 26 s; seven-piece Finkel's layer 7, the same positions
    read with seven pieces a side: 53 instead of 63, 36.0 s instead of 39.5 s).

    With a ``cache_dir``, every finished layer is checkpointed there, and a solve that was
    interrupted resumes from its last finished layer. Raises :class:`SolveRefused` when the
    estimated memory exceeds ``max_memory_bytes``.
    """
    geo = geometry(rules)
    start = starting_point(rules, start)
    store = (
        Checkpoints(solution_path(cache_dir, rules, tolerance, start), resume=use_cache)
        if cache_dir is not None
        else None
    )
    if store is not None and use_cache:
        cached = store.load_complete(rules, geo, tolerance)
        if cached is not None:
            return cached
    guess = estimate(rules)
    needed = guess.memory_bytes if store is not None else guess.in_memory_bytes
    if needed > max_memory_bytes:
        states = f"{guess.states:,}" if guess.exact else f"up to about {guess.states:,}"
        raise SolveRefused(
            f"{rules.variant} with {rules.pieces} pieces a side has {states} states"
            f" ({guess.configurations:,} configurations a side, {guess.perspectives}"
            f" perspective(s)) and needs about {needed / 2**30:.1f} GiB, over the"
            f" {max_memory_bytes / 2**30:.1f} GiB limit; raise the limit (--max-memory-gb) if"
            " the machine has the memory, or solve with fewer pieces (--pieces)"
        )
    if progress is not None:
        counted = "counted" if guess.exact else "guessed"
        progress(
            f"{guess.states:,} states ({counted}), the largest layer {guess.largest_layer:,};"
            f" about {needed / 2**30:.2f} GiB"
        )
    compile_seconds = warm_up(rules)
    solution = _solve(rules, geo, tolerance, progress, store, start)
    return dataclasses.replace(solution, compile_seconds=compile_seconds)


_warm = False


def warm_up(rules: Rules) -> float:
    """Compile the native kernels (or load numba's cached build) by solving the one-piece
    version of ``rules``; return the seconds it took (``0`` when already done)."""
    global _warm
    if _warm:
        return 0.0
    began = time.perf_counter()
    one = with_pieces(rules, 1)
    _solve(one, geometry(one), 1e-6, None, None)
    _warm = True
    return time.perf_counter() - began


@dataclass
class _Totals:
    """Figures summed over the layers (and over resumed runs)."""

    seconds: float = 0.0
    cpu_seconds: float = 0.0
    sweeps: int = 0
    bellman: int = 0
    endless: int = 0
    resumed: int = 0

    def add(self, record: dict[str, Any]) -> None:
        self.seconds += float(record["seconds"])
        self.cpu_seconds += float(record["cpu_seconds"])
        self.sweeps += int(record["sweeps"])
        self.bellman += int(record["bellman_sweeps"])
        self.endless += int(record["endless"])

    def solution(
        self,
        rules: Rules,
        geo: Geometry,
        configs: Configurations,
        index: StateIndex,
        values: FloatArray,
        lengths: FloatArray,
        memory_bytes: int,
        tolerance: float,
        *,
        from_cache: bool,
    ) -> Solution:
        """The solution these figures sum up."""
        return Solution(
            rules=rules,
            geometry=geo,
            configurations=configs,
            state_index=index,
            values=values,
            lengths=lengths,
            states=index.states,
            seconds=self.seconds,
            cpu_seconds=self.cpu_seconds,
            memory_bytes=memory_bytes,
            sweeps=self.sweeps,
            tolerance=tolerance,
            endless=self.endless,
            from_cache=from_cache,
            bellman_sweeps=self.bellman,
            resumed_layers=self.resumed,
        )


def _solve(
    rules: Rules,
    geo: Geometry,
    tolerance: float,
    progress: Callable[[str], None] | None,
    store: Checkpoints | None,
    start: FloatArray | None = None,
) -> Solution:
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    states = index.states
    if store is not None:
        values, lengths, finished = store.open(states, index)
    else:
        values, lengths, finished = np.full(states, 0.5), np.zeros(states), {}
    totals = _Totals()
    sizes = index.layer_sizes
    fixed = PROCESS_BYTES + _table_bytes(index, configs, geo)
    peak = fixed + (values.nbytes + lengths.nbytes if store is None else 0)
    moves: MoveTable | None = None
    for layer in reversed(range(len(sizes))):
        if sizes[layer] == 0:
            continue
        if layer in finished:
            peak = max(peak, int(finished[layer].get("memory_bytes", 0)))
            totals.add(finished[layer])
            totals.resumed += 1
            continue
        if moves is None:
            moves = _move_table(geo, configs)
        throws = int(geo.throw_values.shape[0])
        resume = store.progress_of(layer, index, throws, values, lengths) if store else None
        record = _solve_layer(
            rules, geo, configs, index, moves, layer, values, lengths, tolerance,
            resume=resume, keep=store.keep_progress if store else None, start=start,
        )  # fmt: skip
        resume = None  # its choices are the layer's: their memory goes before the checksums
        if store is None:
            resident = values.nbytes + lengths.nbytes
        else:  # the finished layers are on disk: one array of this layer and the next in use
            resident = FLOAT_BYTES * int(sizes[layer : layer + 2].sum())
        peak = max(peak, fixed + resident + int(record["working_bytes"]))
        record["memory_bytes"] = peak
        totals.add(record)
        if store is not None:
            store.finish(layer, index, values, lengths, record)
            # Solving the next layer reads this one only: the finished layers above it are
            # on disk and leave the process's memory (the estimate does not count them).
            store.release(values, lengths, int(index.layer_base[layer + 1]))
        if progress is not None:
            progress(
                f"layer {layer}: {int(sizes[layer]):,} states, values {record['sweeps']} sweeps"
                f" ({record['bellman_sweeps']} generating every move), lengths"
                f" {record['length_sweeps']} sweeps; {record['seconds']:.1f} s wall,"
                f" {record['cpu_seconds']:.1f} s processor (values"
                f" {record['values_cpu_seconds']:.1f} s, of which Bellman sweeps"
                f" {record['bellman_cpu_seconds']:.1f} s)"
            )
    if store is not None:
        store.complete(peak)
        values, lengths = store.mapped(states)
    return totals.solution(
        rules, geo, configs, index, values, lengths, peak, tolerance, from_cache=False
    )


def _cpu_time() -> float:
    """Processor time of this process and its threads."""
    return time.process_time()


def _move_table(geo: Geometry, configs: Configurations) -> MoveTable:
    """The move table (:class:`generator.solver.solve_moves.MoveTable`), checked against the
    bytes :func:`estimate` counts for it."""
    moves = build_move_table(geo, configs)
    expected = move_table_bytes(geo, configs.count)
    if moves.nbytes != expected:
        raise AssertionError(f"solver bug: the move table has {moves.nbytes} bytes, not {expected}")
    return moves


PROGRESS_EVERY = 15 * 60.0
"""Seconds between saves of an unfinished layer's progress (:class:`LayerProgress`): a killed
solve loses at most this much of a layer's work (Masters' largest layers take hours)."""


@dataclass
class LayerProgress:
    """An unfinished layer's solve at the start of a sweep: going on from it gives the same
    bits as never stopping. Taken before a Bellman sweep (``phase`` ``"values"``) or before a
    sweep of the expected lengths (``"lengths"``)."""

    layer: int
    phase: Literal["values", "lengths"]
    values: FloatArray
    """The layer's values so far: a view of the solve's own array (saved, or read into it)."""
    lengths: FloatArray
    """The layer's expected lengths so far (all 0 before their phase), likewise."""
    policy: npt.NDArray[np.uint32]
    settled: npt.NDArray[np.uint8]
    counters: dict[str, Any]
    """The sweeps' counts, the drift and its history, and the time spent so far."""
    release: Release | None = None
    """Told of each chunk saved (:func:`generator.sim.cache_files.write_arrays`): the array
    the phase does not use is saved without all of its pages coming into memory."""

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        return {
            "values": self.values,
            "lengths": self.lengths,
            "policy": self.policy,
            "settled": self.settled,
        }


def _solve_layer(
    rules: Rules,
    geo: Geometry,
    configs: Configurations,
    index: StateIndex,
    moves: MoveTable,
    layer: int,
    values: FloatArray,
    lengths: FloatArray,
    tolerance: float,
    resume: LayerProgress | None = None,
    keep: Callable[[LayerProgress], None] | None = None,
    start: FloatArray | None = None,
) -> dict[str, Any]:
    """Solve one layer in place (values, then expected lengths); the figures of the solve.

    With ``resume``, go on from that progress; with ``keep``, hand it the layer's progress
    every :data:`PROGRESS_EVERY` seconds, at the start of a sweep; with ``start`` (fitted
    weights, :func:`starting_point`), a fresh layer's values start from that evaluation."""
    from generator.solver import solve_sweeps as sweeps

    began, began_cpu = time.perf_counter(), _cpu_time()
    base = int(index.layer_base[layer])
    size = int(index.layer_base[layer + 1]) - base
    following = int(index.layer_base[min(layer + 2, len(index.layer_base) - 1)]) - base
    if 2 * following + 1 >= 2**32 - 1:
        raise SolveRefused(f"{rules.variant}: layer {layer} overflows the 32-bit choice codes")
    table_args = (index.borne, index.mask_id, index.rank, index.prefix, index.start)
    order, places, wave_start, largest = sweep_order(geo, configs, index, layer)
    waves = wave_start.shape[0] - 1
    throws = int(geo.throw_values.shape[0])
    new_values = np.empty(largest)
    counters: dict[str, Any] = {}
    own = slice(base, base + size)
    # The values phase reads values only, the lengths phase lengths only: each phase lets the
    # other array's pages of this layer and the next leave memory (a file-backed array keeps
    # them on disk), so only one float a state of the two layers is in memory at a time.
    release_pages(lengths, base, base + following)
    if resume is None:
        policy = np.empty(size * throws, dtype=np.uint32)
        settled = np.zeros(size * throws, dtype=np.uint8)
        if start is None:
            values[own] = 0.5
        else:
            from generator.solver.fitted_kernels import fitted_start

            evaluation = (configs.table, geo.piece_of_slot, geo.packed, start)
            fitted_start(order, places, base, values, evaluation)
    else:
        # The saved values and lengths were read straight into place (Checkpoints.progress_of).
        policy, settled, counters = resume.policy, resume.settled, resume.counters
        if resume.phase == "lengths":
            release_pages(values, base, base + following)
        began -= counters["seconds"]
        began_cpu -= counters["cpu_seconds"]
    drift = float(counters.get("drift", 0.0))
    drift_at = np.array(counters.get("drift_at", [0.0] * 16), dtype=np.float64)
    saved_at = time.perf_counter()

    def save(phase: Literal["values", "lengths"], **more: Any) -> None:
        """Hand ``keep`` the progress, when it is due."""
        nonlocal saved_at
        if keep is None or time.perf_counter() - saved_at < PROGRESS_EVERY:
            return
        figures = {
            "drift": drift,
            "drift_at": drift_at.tolist(),
            "bellman_sweeps": bellman_sweeps,
            "evaluation_sweeps": evaluation_sweeps,
            "bellman_cpu": bellman_cpu,
            "seconds": time.perf_counter() - began,
            "cpu_seconds": _cpu_time() - began_cpu,
            **more,
        }
        idle, idle_name = (lengths, "lengths") if phase == "values" else (values, "values")

        def release(name: str, start: int, stop: int) -> None:
            if name == idle_name:  # read to be saved, not used by this phase
                release_pages(idle, base + start, base + stop)

        progress = LayerProgress(
            layer, phase, values[own], lengths[own], policy, settled, figures, release
        )
        keep(progress)
        release_pages(idle, base, base + size)  # whatever a keeper read whole
        saved_at = time.perf_counter()

    def over_waves(array: FloatArray, backup: Callable[[int, int, bool, float], None]) -> float:
        """A sweep: for each wave, ``backup(first, last, parallel, largest change so far)``
        fills ``new_values``, which are written to ``array`` before the next wave; returns the
        largest change."""
        worst = 0.0
        for w in range(waves):
            first, last = int(wave_start[w]), int(wave_start[w + 1])
            parallel = last - first >= sweeps.PARALLEL_WAVE
            backup(first, last, parallel, worst)
            commit = sweeps.commit_wave if parallel else sweeps.commit_wave_serial
            worst = max(worst, commit(first, last, base, array, new_values, places, moved))
        return worst

    def bellman() -> float:
        def backup(first: int, last: int, parallel: bool, worst: float) -> None:
            sweep = sweeps.bellman_wave if parallel else sweeps.bellman_wave_serial
            sweep(
                first, last, order, base, values, policy, settled, bellman_sweeps + 1,
                np.inf if GENERATE_EVERY_MOVE else drift + worst, drift_at,
                new_values, geo.packed, configs.count, moves.arrays, geo.throw_probs,
                geo.perspectives, *table_args,
            )  # fmt: skip

        return over_waves(values, backup)

    moved = np.zeros(size, dtype=np.uint8)

    def evaluate(array: FloatArray, of_lengths: bool) -> float:
        def backup(first: int, last: int, parallel: bool, worst: float) -> None:
            sweep = sweeps.evaluate_wave if parallel else sweeps.evaluate_wave_serial
            sweep(first, last, policy, geo.throw_probs, array, base, new_values, of_lengths)

        return over_waves(array, backup)

    def sweep_hot(array: FloatArray, of_lengths: bool, step: float, target: float) -> float:
        """Sweep the hot states of the last full sweep until they move by less than
        ``HOT_TARGET`` of it (or ``target``); returns the sum of each sweep's largest change."""
        if not SWEEP_HOT_STATES or not rules.must_move:
            # Where moving is optional, the values of positions both sides would stall in
            # are the fixed point the sweeps reach, which depends on the order of updates:
            # keep the one plain sweeps reach.
            return 0.0
        floor, count = sweeps.hot_floor(moved, HOT_SPREAD)
        if count * HOT_SHARE > size:
            return 0.0
        summed = 0.0
        for _ in range(MAX_SWEEPS):
            change = sweeps.evaluate_hot(
                moved, floor, places, base, array, policy, geo.throw_probs, of_lengths
            )
            summed += change
            if change < max(step * HOT_TARGET, target):
                return summed
        raise RuntimeError(f"{rules.variant}: layer {layer}'s hot states did not converge")

    bellman_sweeps = int(counters.get("bellman_sweeps", 0))
    evaluation_sweeps = int(counters.get("evaluation_sweeps", 0))
    bellman_cpu = float(counters.get("bellman_cpu", 0.0))
    phase = "values" if resume is None else resume.phase
    while phase == "values":
        save("values")
        drift_at[min(bellman_sweeps + 1, 15)] = drift
        clock = _cpu_time()
        change = bellman()
        bellman_cpu += _cpu_time() - clock
        drift += change
        bellman_sweeps += 1
        if change < tolerance:
            phase = "lengths"
            break
        factor = EARLY_FACTOR if bellman_sweeps <= EARLY_ROUNDS else EVALUATION_FACTOR
        target = max(tolerance, change * factor)
        while True:
            step = evaluate(values, False)
            drift += step
            evaluation_sweeps += 1
            if step < target:
                break
            if evaluation_sweeps > MAX_SWEEPS:
                raise RuntimeError(f"{rules.variant}: layer {layer} did not converge")
            drift += sweep_hot(values, False, step, target)
        if bellman_sweeps > MAX_SWEEPS:
            raise RuntimeError(f"{rules.variant}: layer {layer} did not converge")
    if resume is None or resume.phase == "values":
        values_cpu = _cpu_time() - began_cpu
        del moved  # the endless search's two flags take its place
        release_pages(values, base, base + following)
        endless = sweeps.mark_endless(base, size, places, policy, throws, lengths)
        moved = np.zeros(size, dtype=np.uint8)
        length_sweeps = 1
    else:
        values_cpu = float(counters["values_cpu"])
        endless = int(counters["endless"])
        length_sweeps = int(counters["length_sweeps"])
    # The lengths get sweeps of their own, from 0, once the choices are final. Backed up in
    # the value sweeps instead, they needed 13 sweeps of their own, not 44, on seven-piece
    # Finkel's layer 6, but each joint sweep cost as much as a value and a length sweep (the
    # two arrays miss the cache apart): no faster (commit 201b4d3, reverted).
    while (change := evaluate(lengths, True)) >= LENGTH_TOLERANCE:
        if length_sweeps > 1:  # the first sweep moves every state from 0
            sweep_hot(lengths, True, change, LENGTH_TOLERANCE)
        length_sweeps += 1
        if length_sweeps > MAX_SWEEPS:
            raise RuntimeError(
                f"{rules.variant}: expected lengths in layer {layer} did not converge"
                f" in {MAX_SWEEPS} sweeps (last change {change:.3g})"
            )
        save(
            "lengths",
            values_cpu=values_cpu,
            endless=int(endless),
            length_sweeps=length_sweeps,
        )
    working = order.nbytes + places.nbytes + wave_start.nbytes + policy.nbytes
    # and mark_endless's two flags a state, or before and after it the changes' magnitudes
    working += new_values.nbytes + settled.nbytes + 2 * size
    expected = layer_working_bytes(size, waves, largest, throws, order.itemsize)
    if working != expected:
        raise AssertionError(f"solver bug: layer {layer} uses {working} bytes, not {expected}")
    return {
        "states": size,
        "working_bytes": working,
        "sweeps": bellman_sweeps + evaluation_sweeps,
        "bellman_sweeps": bellman_sweeps,
        "length_sweeps": length_sweeps,
        "endless": int(endless),
        "seconds": time.perf_counter() - began,
        "cpu_seconds": _cpu_time() - began_cpu,
        "bellman_cpu_seconds": bellman_cpu,
        "values_cpu_seconds": values_cpu,
    }


class Checkpoints:
    """A solve's folder: ``values.npy`` and ``lengths.npy`` (float64, one entry per state,
    filled layer by layer through memory maps) and ``progress.json`` (written atomically with
    a format version and a checksum, :func:`generator.sim.cache_files.write_json`), which
    lists each finished layer with the SHA-256 of its values and lengths and its figures.

    A layer counts as finished only once its arrays are flushed and its record written. While
    a layer is solved, its progress is saved every :data:`PROGRESS_EVERY` seconds
    (``layer-N.npz`` and ``layer-N.json``, :class:`LayerProgress`), so a killed solve loses at
    most that much work and goes on with the same bits. A finished layer whose arrays no
    longer match their checksum is reported and solved again, with every layer below it;
    damaged progress is reported and its layer started again."""

    def __init__(self, folder: Path, resume: bool = True) -> None:
        self.folder = folder
        self.resume = resume
        """``False``: start afresh, whatever the folder holds."""
        self.record_path = folder / "progress.json"
        self._record: dict[str, Any] = {}
        self._read: dict[str, Any] | None = None
        self._was_read = False
        self._reported = False

    def _report(self, path: Path, reason: str) -> None:
        """Report damage once: a damaged solve is solved again once."""
        if not self._reported:
            report_damaged(path, reason)
        self._reported = True

    def _arrays(self, states: int, mode: Literal["r+", "r", "w+"]) -> tuple[FloatArray, FloatArray]:
        return tuple(  # type: ignore[return-value]
            np.lib.format.open_memmap(
                self.folder / f"{name}.npy", mode=mode, dtype=np.float64, shape=(states,)
            )
            if mode == "w+"
            else np.load(self.folder / f"{name}.npy", mmap_mode=mode)
            for name in ("values", "lengths")
        )

    def _read_record(self, states: int) -> dict[str, Any] | None:
        """The checkpoint record (read once: :func:`read_json` reports damage itself)."""
        if not self._was_read:
            self._was_read = True
            record = read_json(self.record_path)
            if record is None and self.record_path.exists():
                self._reported = True  # read_json said why
            self._read = record if isinstance(record, dict) or record is None else {}
        record = self._read
        if record is None:
            return None
        if record.get("states") != states or not isinstance(record.get("layers"), dict):
            self._report(self.record_path, "it is not the record of this solve")
            return None
        return record

    def _verified(
        self,
        states: int,
        index: StateIndex,
        values: FloatArray,
        lengths: FloatArray,
        record: dict[str, Any],
    ) -> dict[int, dict[str, Any]]:
        """The finished layers whose arrays still match their checksums, from the top layer
        down to the first that does not."""
        layers: dict[str, Any] = record.get("layers", {})
        good: dict[int, dict[str, Any]] = {}
        sizes = index.layer_sizes
        for layer in reversed(range(len(sizes))):
            if sizes[layer] == 0:
                continue
            entry = layers.get(str(layer))
            if entry is None:
                break
            checksum = _layer_checksum(index, layer, values, lengths)
            first, last = int(index.layer_base[layer]), int(index.layer_base[layer + 1])
            for array in (values, lengths):  # read once to check: not kept in memory
                release_pages(array, first, last)
            if entry.get("sha256") != checksum:
                self._report(self.folder, f"layer {layer} does not match its checksum")
                break
            good[layer] = entry
        return good

    def open(
        self, states: int, index: StateIndex
    ) -> tuple[FloatArray, FloatArray, dict[int, dict[str, Any]]]:
        """The solve's arrays (mapped for writing) and the layers already finished."""
        self.folder.mkdir(parents=True, exist_ok=True)
        record = self._read_record(states) if self.resume else None
        if record is not None:
            try:
                values, lengths = self._arrays(states, "r+")
                if values.shape != (states,) or lengths.shape != (states,):
                    raise ValueError("shape")
            except (OSError, ValueError) as error:
                self._report(self.folder, f"its arrays are unreadable ({type(error).__name__})")
            else:
                good = self._verified(states, index, values, lengths, record)
                self.release(values, lengths, 0)  # checked; read again as the layers need them
                self._record = {"states": states, "layers": {str(k): v for k, v in good.items()}}
                return values, lengths, good
        self._record = {"states": states, "layers": {}}
        values, lengths = self._arrays(states, "w+")
        return values, lengths, {}

    def finish(
        self,
        layer: int,
        index: StateIndex,
        values: FloatArray,
        lengths: FloatArray,
        figures: dict[str, Any],
    ) -> None:
        """Flush the layer's values and lengths, then record it as finished."""
        for array in (values, lengths):
            flush = getattr(array, "flush", None)
            if flush is not None:
                flush()
        entry = {**figures, "sha256": _layer_checksum(index, layer, values, lengths)}
        self._record["layers"][str(layer)] = entry
        write_json(self.record_path, self._record)
        self.forget_progress(layer)

    def _progress_paths(self, layer: int) -> tuple[Path, Path]:
        return self.folder / f"layer-{layer}.npz", self.folder / f"layer-{layer}.json"

    def keep_progress(self, progress: LayerProgress) -> None:
        """Save an unfinished layer's progress: its arrays, then the record naming their
        checksum (a kill between the two leaves a record that does not match, and the layer
        starts again)."""
        arrays_path, record_path = self._progress_paths(progress.layer)
        checksum = write_arrays(arrays_path, progress.arrays(), progress.release)
        record = {
            "layer": progress.layer,
            "phase": progress.phase,
            "counters": progress.counters,
            "sha256": checksum,
        }
        write_json(record_path, record)

    def progress_of(
        self,
        layer: int,
        index: StateIndex,
        throws: int,
        values: FloatArray,
        lengths: FloatArray,
    ) -> LayerProgress | None:
        """The saved progress of ``layer`` (``throws`` throws a state), or ``None``: none
        saved, or damaged (reported: the layer starts again, and whatever was read into its
        values and lengths is overwritten). The layer's values and lengths are read a chunk at
        a time straight into ``values`` and ``lengths`` (memory-mapped: each chunk's pages go
        once read), not into copies: a resumed layer needs no more memory than a fresh one."""
        arrays_path, record_path = self._progress_paths(layer)
        if not self.resume or not record_path.exists():
            return None
        record = read_json(record_path)
        names = ("values", "lengths", "policy", "settled")
        first, last = int(index.layer_base[layer]), int(index.layer_base[layer + 1])
        size = last - first
        whole = {"values": values, "lengths": lengths}

        def release(name: str, start: int, stop: int) -> None:
            release_pages(whole[name], first + start, first + stop)

        into = {"values": values[first:last], "lengths": lengths[first:last]}
        saved = read_arrays(arrays_path, names, into, release) if isinstance(record, dict) else None
        arrays, checksum = saved if saved is not None else (None, None)
        shapes = {
            "values": size,
            "lengths": size,
            "policy": size * throws,
            "settled": size * throws,
        }
        if (
            not isinstance(record, dict)
            or arrays is None
            or record.get("layer") != layer
            or record.get("phase") not in ("values", "lengths")
            or record.get("sha256") != checksum  # the arrays' own, verified as they were read
            or any(arrays[name].shape != (shapes[name],) for name in names)
        ):
            self._report(record_path, "it is not the saved progress of this layer")
            return None
        return LayerProgress(
            layer,
            record["phase"],
            arrays["values"],
            arrays["lengths"],
            arrays["policy"].astype(np.uint32, copy=False),
            arrays["settled"].astype(np.uint8, copy=False),
            record["counters"],
        )

    def forget_progress(self, layer: int) -> None:
        """Remove a finished layer's saved progress."""
        for path in self._progress_paths(layer):
            path.unlink(missing_ok=True)

    @staticmethod
    def release(values: FloatArray, lengths: FloatArray, start: int) -> None:
        """Let the pages of entries ``start`` onwards, flushed to disk, leave the process's
        memory: they are read from the file again if used (:func:`release_pages`)."""
        for array in (values, lengths):
            release_pages(array, start, array.shape[0])

    def complete(self, memory_bytes: int) -> None:
        self._record["complete"] = True
        self._record["memory_bytes"] = memory_bytes
        write_json(self.record_path, self._record)

    def mapped(self, states: int) -> tuple[FloatArray, FloatArray]:
        return self._arrays(states, "r")

    def load_complete(self, rules: Rules, geo: Geometry, tolerance: float) -> Solution | None:
        """The finished solution in this folder, or ``None`` (missing, unfinished, damaged)."""
        if not self.record_path.exists():
            return None
        configs = enumerate_configurations(rules, geo)
        index = build_index(geo, configs)
        states = index.states
        record = self._read_record(states)
        if record is None or not record.get("complete"):
            return None
        try:
            values, lengths = self._arrays(states, "r")
        except (OSError, ValueError) as error:
            self._report(self.folder, f"its arrays are unreadable ({type(error).__name__})")
            return None
        good = self._verified(states, index, values, lengths, record)
        if len(good) != int((index.layer_sizes > 0).sum()):
            return None
        totals = _Totals()
        for entry in good.values():
            totals.add(entry)
        memory = int(record.get("memory_bytes", 0))
        return totals.solution(
            rules, geo, configs, index, values, lengths, memory, tolerance, from_cache=True
        )


def release_pages(array: FloatArray, start: int, stop: int) -> None:
    """Drop the whole pages holding ``array[start:stop]`` from the process's memory, where
    ``array`` maps a file (``np.memmap``; other arrays are left alone). The file keeps the
    data: the kernel writes dirty pages back before it lets them go, and a later read maps
    them in again."""
    mapped = getattr(array, "_mmap", None)
    if not isinstance(mapped, mmap.mmap) or stop <= start or not hasattr(mapped, "madvise"):
        return
    # np.memmap maps from its offset rounded down to the allocation granularity.
    skip = int(array.offset) % mmap.ALLOCATIONGRANULARITY  # type: ignore[attr-defined]
    page = mmap.PAGESIZE
    first = -(-(skip + start * array.itemsize) // page) * page
    last = (skip + stop * array.itemsize) // page * page
    if last > first:
        mapped.madvise(mmap.MADV_DONTNEED, first, last - first)


def _layer_checksum(index: StateIndex, layer: int, values: FloatArray, lengths: FloatArray) -> str:
    first, last = int(index.layer_base[layer]), int(index.layer_base[layer + 1])
    return arrays_checksum({"values": values[first:last], "lengths": lengths[first:last]})


def with_pieces(rules: Rules, pieces: int) -> Rules:
    """``rules`` played with ``pieces`` pieces a side.

    Interchangeable pieces keep their shared entry rule; pieces with their own entry rules keep
    the first ``pieces`` of them (more than the rules name cannot be invented).
    """
    if pieces < 1:
        raise ValueError(f"pieces must be at least 1, got {pieces}")
    if rules.distinct_pieces:
        if pieces > len(rules.entry):
            raise ValueError(
                f"{rules.variant} names an entry rule for each of its {len(rules.entry)} pieces;"
                f" choose --pieces between 1 and {len(rules.entry)}"
            )
        entry = rules.entry[:pieces]
    else:
        entry = (rules.entry[0],) * pieces
    return dataclasses.replace(rules, pieces=pieces, entry=entry)


__all__ = [
    "Solution",
    "SolveEstimate",
    "SolveRefused",
    "estimate",
    "game_key",
    "rules_key",
    "solve",
    "with_pieces",
]
