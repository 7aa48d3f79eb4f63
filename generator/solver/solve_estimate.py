"""The size of an exact solve, known before it starts: its states, counted where the
configurations are few enough and guessed otherwise, and the memory its layers' arrays take
(:func:`estimate`); the layers' sweep order, counted first to allocate it exactly
(:func:`sweep_order`), and the move table checked against the bytes counted for it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from generator.engine.rules import Rules
from generator.solver.solve_index import StateIndex, build_index
from generator.solver.solve_moves import MoveTable, build_move_table, move_table_bytes
from generator.solver.solve_space import (
    Configurations,
    Geometry,
    code_space,
    enumerate_configurations,
    geometry,
)

PROCESS_BYTES = 256 * 2**20
"""The solving process before its arrays: the interpreter, numpy, numba and the compiled kernels
(158 MB resident after :func:`generator.solver.solve.warm_up` in a fresh process, measured with
seven-piece Finkel's and Masters' rules; ``ur-variants full-games`` also loads the catalogue),
rounded up. Counted in :func:`estimate`, so the estimate bounds the process's measured peak."""


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
    """Bytes :func:`generator.solver.solve_layer.solve_layer` allocates for a layer: per state a
    choice per throw
    (4 bytes each) and its record (a byte each, :func:`solve_sweeps._record`), a sweep-order
    key, an id (4) and two flags (the endless search's, or at other times the magnitude of
    the last change, :func:`solve_sweeps.hot_floor`); the largest wave's new values; each
    wave's start."""
    return size * (5 * throws + key + 4 + 2) + 8 * largest_wave + 8 * (waves + 1)


def estimate(rules: Rules) -> SolveEstimate:
    """The solve's states and peak memory, without solving.

    Memory, as :func:`generator.solver.solve._solve` allocates it: the process itself
    (:data:`PROCESS_BYTES`); the index's tables (:mod:`generator.solver.solve_index`); a value
    (float64) for each state of the two layers in use, or in the lengths phase an expected length (a
    checkpointed solve keeps the finished layers, and the array the phase does not use, on disk);
    and the layer's working arrays (:func:`layer_working_bytes`). States and waves are counted
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
        fixed = PROCESS_BYTES + table_bytes(index, listed, geo)
        on_disk = in_memory = fixed
        for layer, size in enumerate(sizes.tolist()):
            _, waves, largest = count_waves(geo, index, layer)
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


def layer_shape(geo: Geometry, index: StateIndex, layer: int) -> tuple[Any, ...]:
    """What decides the layer's states (:data:`generator.solver.solve_waves.LayerShape`)."""
    return (
        layer, geo.perspectives, geo.pieces, index.borne, index.progress, index.valid,
        index.mask, index.class_start, index.class_members, index.progress_classes,
    )  # fmt: skip


def count_waves(geo: Geometry, index: StateIndex, layer: int) -> tuple[int, int, int]:
    """The states, waves and largest wave of the layer's sweep order, counted without
    listing it (:func:`generator.solver.solve_waves.wave_sizes`)."""
    from generator.solver import solve_waves

    counted: tuple[int, int, int] = solve_waves.wave_sizes(layer_shape(geo, index, layer))
    return counted


class SweepOrder(NamedTuple):
    """A layer's states in sweep order (:func:`generator.solver.solve_waves.layer_order`)."""

    order: npt.NDArray[np.unsignedinteger[Any]]
    """Each state's key ``(p * C + mover) * C + opponent``, wave by wave."""
    places: npt.NDArray[np.integer[Any]]
    """Each state's id less the layer's first (32 bits for one process's whole layer)."""
    wave_start: npt.NDArray[np.int64]
    """Each wave's first place in the order, and one past the last."""
    largest: int
    """The largest wave's states."""


def sweep_order(
    geo: Geometry, configs: Configurations, index: StateIndex, layer: int
) -> SweepOrder:
    """The layer's sweep order, counted first to allocate it exactly."""
    from generator.solver import solve_waves

    base = int(index.layer_base[layer])
    size = int(index.layer_base[layer + 1]) - base
    listed, waves, largest = count_waves(geo, index, layer)
    if listed != size:
        raise AssertionError(f"solver bug: layer {layer} lists {listed} of {size} states")
    order = np.empty(size, dtype=order_dtype(geo.perspectives, configs.count))
    places = np.empty(size, dtype=np.uint32)
    wave_start = np.empty(waves + 1, dtype=np.int64)
    listing = solve_waves.layer_order(
        layer_shape(geo, index, layer), order, places, wave_start, base,
        index.mask_id, index.rank, index.prefix, index.start,
    )  # fmt: skip
    if listing != (listed, waves, largest):
        raise AssertionError(
            f"solver bug: layer {layer} lists {listing}, counted {listed, waves, largest}"
        )
    return SweepOrder(order, places, wave_start, largest)


def table_bytes(index: StateIndex, configs: Configurations, geo: Geometry) -> int:
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


def checked_move_table(geo: Geometry, configs: Configurations) -> MoveTable:
    """The move table (:class:`generator.solver.solve_moves.MoveTable`), checked against the
    bytes :func:`estimate` counts for it."""
    moves = build_move_table(geo, configs)
    expected = move_table_bytes(geo, configs.count)
    if moves.nbytes != expected:
        raise AssertionError(f"solver bug: the move table has {moves.nbytes} bytes, not {expected}")
    return moves
