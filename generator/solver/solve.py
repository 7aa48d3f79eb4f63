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
``lut/LutTrainer.java``, https://github.com/RoyalUr/RoyalUr-Java, stops the same way). With the
optimal policy fixed, the expected number of throws left, ``E(s) = 1 + sum_t p(t) * E(next)``, is
found by the same sweeps. With a cache folder, each finished layer is checkpointed there and an
interrupted solve resumes (:class:`generator.solver.solve_checkpoints.Checkpoints`).

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
import hashlib
import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from generator.engine.effective import effective_rules
from generator.engine.rules import Rules
from generator.sim import rekey
from generator.sim.cache_files import (
    CACHE_FORMAT,
)
from generator.solver.solution import Solution, SolveRefused, Totals
from generator.solver.solve_checkpoints import Checkpoints
from generator.solver.solve_estimate import (
    FLOAT_BYTES,
    PROCESS_BYTES,
    checked_move_table,
    estimate,
    table_bytes,
)
from generator.solver.solve_index import build_index
from generator.solver.solve_layer import solve_layer
from generator.solver.solve_moves import MoveTable
from generator.solver.solve_space import (
    FloatArray,
    Geometry,
    enumerate_configurations,
    geometry,
)

CHECKPOINT_LAYOUT = 4
"""The layout of a solve's checkpoint folder: which sweeps wrote the bits a layer stores (their
order, their starting values). A checkpoint resumes only the sweeps that wrote it, so a solve's
bits never depend on where it was interrupted. It is not a behaviour version: what the solver
computes is stamped on the results by its behaviour digest (:mod:`generator.solver.behaviour`),
and this number only names folders (``.s4``, the name of the sweep version it was before; a
seven-piece solve resumes from such a folder by name: ``tests/test_solve_folders.py``). Change
it only when a checkpoint written before could not be resumed bit for bit."""

DEFAULT_MAX_MEMORY = 4 * 2**30
"""Refuse solves whose estimated working memory exceeds this (bytes)."""

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "solve"


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


def _content_key(content: object, tolerance: float, fields: Mapping[str, Any]) -> str:
    payload = {"rules": content, "tolerance": tolerance, **fields}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _data_key(content: object, tolerance: float) -> str:
    return rekey.keyed(lambda old: _content_key(content, tolerance, old), rekey.RULES)


def _rules_content(rules: Rules) -> dict[str, Any]:
    """The rules' content, not the variant id."""
    content = _plain(rules)
    assert isinstance(content, dict)
    content.pop("variant")
    return content


def rules_key(rules: Rules, tolerance: float) -> str:
    """SHA-256 of the data that decides the solution: the rules' content (not the variant id)
    and the tolerance (the code that solves them is the results files' behaviour stamp,
    :mod:`generator.sim.results_files`)."""
    return _data_key(_rules_content(rules), tolerance)


def checkpoint_key(rules: Rules, tolerance: float) -> str:
    """The name of a solve's checkpoint folder: the rules key as it was when the folder
    naming was fixed, the engine's and solver's numbers of that time (2 and 3) in it. Frozen,
    not a version: a solve of days resumes from its folder by name
    (``tests/test_solve_folders.py``)."""
    return _content_key(_rules_content(rules), tolerance, rekey.RULES)


def game_key(rules: Rules, tolerance: float) -> str:
    """Like :func:`rules_key`, but of the rules' effective content
    (:func:`generator.engine.effective.effective_rules`): rulesets worded differently that
    play the same game, move for move, share it, and so share their solution."""
    return _data_key(_plain(effective_rules(rules)), tolerance)


def solution_path(
    cache_dir: Path, rules: Rules, tolerance: float = 1e-13, start: FloatArray | None = None
) -> Path:
    """The folder holding a solve's values, lengths and checkpoint record. Sweeps from a
    fitted start (:func:`starting_point`) store other bits (the same values within the
    tolerance), so they have a folder of their own."""
    folder = f"{checkpoint_key(rules, tolerance)}.v{CACHE_FORMAT}.s{CHECKPOINT_LAYOUT}"
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
    interrupted resumes from its last finished layer. Raises
    :class:`generator.solver.solution.SolveRefused` when the estimated memory exceeds
    ``max_memory_bytes``.
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
    totals = Totals()
    sizes = index.layer_sizes
    fixed = PROCESS_BYTES + table_bytes(index, configs, geo)
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
            moves = checked_move_table(geo, configs)
        throws = int(geo.throw_values.shape[0])
        resume = store.progress_of(layer, index, throws, values, lengths) if store else None
        record = solve_layer(
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
    "DEFAULT_CACHE",
    "game_key",
    "rules_key",
    "solution_path",
    "solve",
    "starting_point",
    "warm_up",
    "with_pieces",
]
