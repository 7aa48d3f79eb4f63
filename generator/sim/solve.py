"""Exact solutions: every position's win probability under perfect play, by value iteration.

The value of a position is the probability that the side to move wins when both sides play to
maximise their own chance of winning; another throw keeps the same side to move. For each
throw the mover picks the option of highest value::

    V(s) = sum over throws t of p(t) * max over options m of
               1          if m bears off the mover's last piece,
               V(s')      if m earns another throw,
               1 - V(s')  if the opponent moves next.

A throw with no legal move has one option, the pass (:func:`generator.engine.moves.pass_turn`).
Borne-off pieces never come back, so states are layered by the pieces borne off by both sides
and solved from the most borne off to the least, each layer by Gauss-Seidel sweeps until the
largest change is below the tolerance (as RoyalUr-Java's ``LutTrainer`` does, see
``/work/shared/research/peers.md``). With the optimal policy fixed, the expected number of
throws left, ``E(s) = 1 + sum_t p(t) * E(next)``, is found the same way.

Where moving is optional, both sides may prefer to decline for ever; such states (and every
state that can reach them under the policy) are found by graph search and given an infinite
expected length. Their values are the fixed point the iteration reaches from 1/2, which is not
the probability of winning a game that surely ends.

Checks (``tests/test_solve.py``): Finkel's rules (RoyalUr.net) with one piece a side give the
first player 53.0049839525 %, with two pieces 51.8572907496 % (RoyalUr-Java's trainer); one
piece each on its last square, the side to move wins 4/7, and one step further back 116/161
(jheled, ``doc/solve.rst``). The full seven-piece game, solved by hand with
``ur-variants solve royalur-finkel --max-memory-gb 12`` (137,870,097 states, 10.2 GiB of
arrays, 48 minutes of one core; a test reads the cached solution when ``UR_SOLVE_SEVEN=1``),
gives the first player 51.5404732509 %, the published value (JeroenOlieslagers/game_of_ur,
RoyalUr.net) to every digit. RoyalUr.net's five-piece Blitz gives 50.4052555093 %, also the
published value (41,243,781 states, 3.3 GiB, 700 s).

Expected lengths depend on the policy, not only on the values: among moves of equal value the
solver takes the first in the engine's order. A perfect seven-piece game lasts 209.869874
throws on average here, and taking the last of equal moves instead gives the same figure.
jheled publishes 209.810273 for his perfect player, which reads values stored in 16 bits.
Choosing moves from values rounded to 16 bits gives 209.837 (ties to the last move) to 209.911
(ties to the first): gaps of the same few hundredths. That suggests, without proving, that
the published figure differs for that reason (``scripts/perfect_length_by_policy.py``, run once
by hand, not in a test).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from generator.engine import ENGINE_VERSION
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules
from generator.sim.cache_files import CACHE_FORMAT, read_arrays, report_damaged, write_arrays
from generator.sim.solve_space import (
    Configurations,
    FloatArray,
    Geometry,
    IntArray,
    code_space,
    enumerate_configurations,
    geometry,
    layer_sizes,
    state_index,
)

SOLVER_VERSION = 3
"""Bump when the solver could give different numbers for the same rules."""

DEFAULT_MAX_MEMORY = 4 * 2**30
"""Refuse solves whose estimated working memory exceeds this (bytes)."""

LENGTH_TOLERANCE = 1e-10
"""Largest change (in throws) per sweep at which the expected length counts as converged."""

MAX_SWEEPS = 100_000
"""Give up on a layer after this many sweeps (converging layers need a few hundred)."""

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "solve"


class SolveRefused(ValueError):
    """The variant's state space is too large to solve on this machine."""


@dataclass(frozen=True)
class SolveEstimate:
    """Size of a solve, known before it starts."""

    configurations: int
    perspectives: int
    state_slots: int
    """Indexed states (valid or not): ``perspectives * configurations ** 2``."""
    states: int
    """Positions to solve: exact when ``exact``, else a rough upper guess."""
    largest_layer: int
    memory_bytes: int
    exact: bool
    """``states`` and ``largest_layer`` were counted (:func:`solve_space.layer_sizes`)."""


MAX_COUNTED_CONFIGURATIONS = 200_000
"""Count states exactly when a side has at most this many configurations (a second at most)."""


def estimate(rules: Rules) -> SolveEstimate:
    """The solve's states and peak memory, without solving.

    Memory, as :func:`_solve` allocates it: per state slot a dense id (4 bytes) and a layer
    (1 byte); per state a value, a length and its place in its layer's list (24 bytes); and
    for the largest layer, per state and throw, one 4-byte option per piece and the pass, a
    count and the chosen option. States are counted exactly when the configurations are few
    enough (every game solvable here); otherwise they are guessed from the slots.
    """
    geo = geometry(rules)
    configs = code_space(rules)
    sizes = None
    if configs <= MAX_COUNTED_CONFIGURATIONS:
        listed = enumerate_configurations(rules, geo)
        configs = listed.count
        sizes = layer_sizes(geo, listed)
    elif configs <= 5_000_000:
        configs = _configuration_count(rules, geo)
    slots = geo.perspectives * configs * configs
    if sizes is not None:
        states, largest = int(sizes.sum()), int(sizes.max())
    else:
        states = int(0.6 * slots)
        largest = int(0.45 * states)
    throws = int(geo.throw_values.shape[0])
    per_row = (rules.pieces + 1) * 4 + 1 + 4
    memory = slots * 5 + states * 24 + largest * (throws * per_row + 8)
    return SolveEstimate(
        configs, geo.perspectives, slots, states, largest, int(memory), sizes is not None
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
    dense: npt.NDArray[np.int32]
    """``[state index]`` -> solved state id, ``-1`` for impossible or finished states."""
    values: FloatArray
    """``[state id]`` probability that the side to move wins."""
    lengths: FloatArray
    """``[state id]`` expected throws left under the optimal policy (the first best move in
    the engine's order); infinite where that policy can go on for ever."""
    states: int
    """Positions solved (possible, unfinished, side to move mover-relative)."""
    seconds: float
    """Wall time of the solve itself (not the native compilation, not a cache load)."""
    cpu_seconds: float
    """Processor time of the solve (the honest figure on a machine shared with other work)."""
    memory_bytes: int
    """Peak bytes of the solver's arrays during the solve."""
    sweeps: int
    """Gauss-Seidel sweeps over all layers (values)."""
    tolerance: float
    endless: int = 0
    """States from which perfect play can go on for ever (say, both sides declining to move
    where moving is not compulsory); their expected length is infinite."""
    from_cache: bool = False
    compile_seconds: float = 0.0
    """Time this call spent compiling the native kernels (or loading them from numba's cache);
    ``0`` once they are loaded in this process."""

    def index(self, position: Position) -> int:
        """The solved state id of ``position``; raises ``ValueError`` for an impossible one."""
        index = state_index(self.geometry, self.configurations, position)
        ident = int(self.dense[index]) if index >= 0 else -1
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


def rules_key(rules: Rules, tolerance: float) -> str:
    """SHA-256 of everything that decides the solution: the rules' content (not the variant
    id), the engine and solver versions and the tolerance."""

    def plain(value: object) -> object:
        if isinstance(value, frozenset):
            return sorted((plain(v) for v in value), key=repr)
        if isinstance(value, tuple | list):
            return [plain(v) for v in value]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, int | str | bool) or value is None:
            return value
        return str(value)

    content = plain(rules)
    assert isinstance(content, dict)
    content.pop("variant")
    payload = {
        "rules": content,
        "engine": ENGINE_VERSION,
        "solver": SOLVER_VERSION,
        "tolerance": tolerance,
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def solution_path(cache_dir: Path, rules: Rules, tolerance: float = 1e-13) -> Path:
    return cache_dir / f"{rules_key(rules, tolerance)}.v{CACHE_FORMAT}.npz"


def solve(
    rules: Rules,
    *,
    tolerance: float = 1e-13,
    cache_dir: Path | None = DEFAULT_CACHE,
    use_cache: bool = True,
    max_memory_bytes: int = DEFAULT_MAX_MEMORY,
    progress: Callable[[str], None] | None = None,
) -> Solution:
    """Solve ``rules`` exactly (or load the cached solution from ``cache_dir``). With
    ``use_cache=False`` a cached solution is not read but solved again, and replaced.

    Raises :class:`SolveRefused` when the estimated memory exceeds ``max_memory_bytes``.
    """
    geo = geometry(rules)
    path = solution_path(cache_dir, rules, tolerance) if cache_dir is not None else None
    cached = _load(rules, geo, path, tolerance) if path is not None and use_cache else None
    if cached is not None:
        return cached
    guess = estimate(rules)
    if guess.memory_bytes > max_memory_bytes:
        states = f"{guess.states:,}" if guess.exact else f"up to about {guess.states:,}"
        raise SolveRefused(
            f"{rules.variant} with {rules.pieces} pieces a side has {states} states"
            f" ({guess.configurations:,} configurations a side, {guess.perspectives}"
            f" perspective(s)) and needs about {guess.memory_bytes / 2**30:.1f} GiB, over the"
            f" {max_memory_bytes / 2**30:.1f} GiB limit; raise the limit (--max-memory-gb) if"
            " the machine has the memory, or solve with fewer pieces (--pieces)"
        )
    if progress is not None:
        counted = "counted" if guess.exact else "guessed"
        progress(
            f"{guess.states:,} states ({counted}), the largest layer {guess.largest_layer:,};"
            f" about {guess.memory_bytes / 2**30:.2f} GiB"
        )
    compile_seconds = warm_up(rules)
    solution = dataclasses.replace(
        _solve(rules, geo, tolerance, progress), compile_seconds=compile_seconds
    )
    if path is not None:
        _save(solution, path)
    return solution


_warm = False


def warm_up(rules: Rules) -> float:
    """Compile the native kernels (or load numba's cached build) by solving the one-piece
    version of ``rules``; return the seconds it took (``0`` when already done)."""
    global _warm
    if _warm:
        return 0.0
    began = time.perf_counter()
    one = with_pieces(rules, 1)
    _solve(one, geometry(one), 1e-6, None)
    _warm = True
    return time.perf_counter() - began


def _solve(
    rules: Rules, geo: Geometry, tolerance: float, progress: Callable[[str], None] | None
) -> Solution:
    from generator.sim import solve_kernels as kernels

    began = time.perf_counter()
    began_cpu = time.process_time()
    configs = enumerate_configurations(rules, geo)
    layer_of = kernels.classify_states(
        configs.table, geo.cells, geo.off, geo.stack_limit, geo.perspectives
    )
    layers = _layer_states(layer_of, configs, rules.pieces)
    states = sum(len(members) for members in layers)
    if 2 * states >= 2**31:
        raise SolveRefused(f"{rules.variant}: {states:,} states overflow the 32-bit option codes")
    # Dense ids: layer by layer, in sweep order, so a layer's values are contiguous.
    dense = np.full(layer_of.shape[0], -1, dtype=np.int32)
    values = np.full(states, 0.5)
    lengths = np.zeros(states)
    fixed_bytes = dense.nbytes + values.nbytes + lengths.nbytes + configs.table.nbytes
    fixed_bytes += configs.code_to_config.nbytes + layer_of.nbytes
    fixed_bytes += sum(members.nbytes for members in layers)
    peak = fixed_bytes
    sweeps = 0
    endless = 0
    throws = int(geo.throw_values.shape[0])
    base = 0
    for layer, members in reversed(list(enumerate(layers))):
        size = int(members.size)
        if size == 0:
            continue
        dense[members] = np.arange(base, base + size, dtype=np.int32)
        built = time.process_time()
        options, counts = kernels.build_transitions(
            members, *_kernel_arguments(geo, configs, dense)
        )
        valued = time.process_time()
        done, change = kernels.iterate_values(
            base, size, options, counts, geo.throw_probs, values, tolerance, MAX_SWEEPS
        )
        if done < 0:
            raise RuntimeError(
                f"{rules.variant}: layer {layer} did not converge in {MAX_SWEEPS} sweeps"
                f" (last change {change:.3g})"
            )
        sweeps += done
        timed = time.process_time()
        chosen = kernels.choose_policy(size, options, counts, throws, values, 0, False)
        total = int(counts.sum())
        working = options.nbytes + counts.nbytes + chosen.nbytes
        peak = max(peak, fixed_bytes + working)
        del options, counts
        endless += kernels.mark_endless(base, size, chosen, lengths)
        steps, change = kernels.iterate_lengths(
            base, size, chosen, geo.throw_probs, lengths, LENGTH_TOLERANCE, MAX_SWEEPS
        )
        if steps < 0:
            raise RuntimeError(
                f"{rules.variant}: expected lengths in layer {layer} did not converge"
                f" in {MAX_SWEEPS} sweeps (last change {change:.3g})"
            )
        base += size
        if progress is not None:
            progress(
                f"layer {layer}: {size:,} states, {total:,} options"
                f" (built in {valued - built:.2f} CPU s), values {done} sweeps"
                f" ({timed - valued:.2f} s), lengths {steps} sweeps"
                f" ({time.process_time() - timed:.2f} s)"
            )
    return Solution(
        rules=rules,
        geometry=geo,
        configurations=configs,
        dense=dense,
        values=values,
        lengths=lengths,
        states=states,
        seconds=time.perf_counter() - began,
        cpu_seconds=time.process_time() - began_cpu,
        memory_bytes=int(peak),
        sweeps=sweeps,
        tolerance=tolerance,
        endless=endless,
    )


def _layer_states(
    layer_of: npt.NDArray[np.int8], configs: Configurations, pieces: int
) -> list[IntArray]:
    """State indices of each layer (pieces borne off by both sides), in sweep order.

    Most moves advance, so sweeping the most advanced states first converges faster.
    """
    count = configs.count
    progress_sum = configs.table.sum(axis=1)
    layers = []
    for layer in range(2 * pieces - 1):
        members = np.flatnonzero(layer_of == layer).astype(np.int64)
        advanced = progress_sum[(members // count) % count] + progress_sum[members % count]
        layers.append(members[np.argsort(-advanced, kind="stable")])
    return layers


def _kernel_arguments(
    geo: Geometry, configs: Configurations, dense: npt.NDArray[np.int32]
) -> tuple[Any, ...]:
    """The arguments :func:`solve_kernels.build_transitions` takes after the layer's states."""
    return (
        configs.table,
        configs.code_to_config,
        geo.packed,
        geo.piece_of_slot,
        geo.throw_values,
        geo.group_start,
        geo.group_size,
        geo.group_stride,
        geo.binom,
        geo.perspectives,
        dense,
    )


_META = ("states", "seconds", "cpu_seconds", "memory_bytes", "sweeps", "endless")
ARRAYS = ("dense", "values", "lengths", "meta")


def _save(solution: Solution, path: Path) -> None:
    """Save atomically, with a checksum (:func:`generator.sim.cache_files.write_arrays`)."""
    meta = np.array([getattr(solution, name) for name in _META], dtype=np.float64)
    arrays: dict[str, npt.NDArray[Any]] = {
        "dense": solution.dense,
        "values": solution.values,
        "lengths": solution.lengths,
        "meta": meta,
    }
    write_arrays(path, arrays)


def _load(rules: Rules, geo: Geometry, path: Path, tolerance: float) -> Solution | None:
    """The cached solution, or ``None`` when it is missing or damaged (reported in one line):
    unreadable, tampered with, or not shaped like a solution of these rules."""
    data = read_arrays(path, ARRAYS)
    if data is None:
        return None
    dense, values, lengths, meta = (data[name] for name in ARRAYS)
    solved = meta.shape == (len(_META),) and values.shape == lengths.shape
    if not solved or dense.dtype.kind != "i" or values.dtype.kind != "f" or meta[0] != len(values):
        report_damaged(path, "it is not shaped like a solution of these rules")
        return None
    states, seconds, cpu_seconds, memory, sweeps, endless = meta
    return Solution(
        rules=rules,
        geometry=geo,
        configurations=enumerate_configurations(rules, geo),
        dense=dense,
        values=values,
        lengths=lengths,
        states=int(states),
        seconds=float(seconds),
        cpu_seconds=float(cpu_seconds),
        memory_bytes=int(memory),
        sweeps=int(sweeps),
        tolerance=tolerance,
        endless=int(endless),
        from_cache=True,
    )


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
    "rules_key",
    "solve",
    "with_pieces",
]
