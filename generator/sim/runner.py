"""Run simulations: split games into fixed chunks, play them (native kernel or Python), in
parallel over cores, and put each run's per-game table back together in game order.

The chunking depends only on the number of games, and every game's dice depend only on
(seed, game number), so the tables are identical whatever ``jobs`` is.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

import numpy as np

from generator.engine.moves import PASS, apply_move, legal_moves, winner
from generator.engine.position import start_position
from generator.engine.rules import Rules
from generator.processes import worker_start
from generator.sim import fast
from generator.sim.agents import (
    FAST_AGENTS,
    Agent,
    FastAgent,
    agent_weights,
    is_fast,
    python_agent,
)
from generator.sim.encode import IntArray, encode_rules

FAST_CHUNK = 2_500
PYTHON_CHUNK = 20


@dataclass(frozen=True)
class RunRequest:
    """``games`` games of ``rules`` between ``agents`` (light, dark), seeded by ``seed``."""

    rules: Rules
    agents: tuple[str, str]
    games: int
    seed: int
    packed: IntArray | None = None
    """The kernel's packed rules, if already computed (saves encoding them per chunk)."""
    first_game: int = 0
    """Play games ``first_game .. first_game + games - 1`` (a game's dice depend only on
    (seed, game number), so a longer run can extend a shorter one already played)."""

    @property
    def native(self) -> bool:
        return all(is_fast(a) for a in self.agents)


@dataclass(frozen=True)
class RunResult:
    table: IntArray
    """One row per game, columns :data:`generator.sim.fast.FIELDS`."""
    seconds: float
    """Processor time spent playing the games (summed over workers)."""


def chunks(request: RunRequest) -> list[tuple[int, int]]:
    """(first game, games) pieces of ``request``: fixed by the game numbers alone."""
    size = FAST_CHUNK if request.native else PYTHON_CHUNK
    start, end = request.first_game, request.first_game + request.games
    return [(first, min(size, end - first)) for first in range(start, end, size)]


def play_chunk(request: RunRequest, first: int, games: int) -> tuple[IntArray, float]:
    started = time.process_time()
    if request.native:
        kinds = [FAST_AGENTS[a] for a in request.agents]
        packed = (
            request.packed if request.packed is not None else encode_rules(request.rules).packed()
        )
        fitted = FastAgent.FITTED in kinds
        weights = agent_weights(FastAgent.FITTED if fitted else kinds[0], request.rules, packed)
        light, dark = (int(kind) for kind in kinds)
        table = fast.play_games(packed, light, dark, request.seed, first, games, weights=weights)
    else:
        agents = (
            python_agent(request.agents[0], request.rules),
            python_agent(request.agents[1], request.rules),
        )
        table = np.stack(
            [
                play_python_game(request.rules, agents, request.seed, g)
                for g in range(first, first + games)
            ]
        )
    return table, time.process_time() - started


def play_python_game(
    rules: Rules,
    agents: tuple[Agent, Agent],
    seed: int,
    game: int,
    max_throws: int = fast.DEFAULT_MAX_THROWS,
) -> IntArray:
    """One game on the readable engine (for agents the kernel cannot play); same columns and
    counting as the kernel. Dice come from ``SeedSequence(seed, spawn_key=(game,))``."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game,)))
    values = [t for t, p in rules.throws if p > 0]
    cumulative = np.cumsum([float(p) for t, p in rules.throws if p > 0])
    row = np.zeros(fast.FIELDS, dtype=np.int64)
    row[fast.WINNER] = -1
    position = start_position(rules)
    throws = 0
    while throws < max_throws:
        throw = values[
            min(int(np.searchsorted(cumulative, rng.random(), side="right")), len(values) - 1)
        ]
        throws += 1
        side = position.to_move
        moves = legal_moves(rules, position, throw)
        if not moves:
            row[fast.PASSES] += 1
            after = apply_move(rules, position, PASS, throw)
        else:
            move = moves[agents[side].choose(rules, position, throw, moves, rng)]
            after = apply_move(rules, position, move, throw)
            if move.is_pass:
                row[fast.PASSES] += 1
            else:
                row[fast.MOVES] += 1
                row[fast.CAPTURES] += move.captured > 0
                cell = rules.cell(side, move.end)
                row[fast.ROSETTES] += cell is not None and cell in rules.extra_throw_cells
        won = winner(rules, after)
        if won is not None:
            row[fast.WINNER] = int(won)
            row[fast.LOSER_OFF] = sum(p == rules.off for p in after.pieces(won.other))
            position = after
            break
        row[fast.EXTRAS] += after.to_move == side
        position = after
    row[fast.THROWS] = throws
    row[fast.TURNS] = throws - row[fast.EXTRAS]
    return row


def run_requests(
    requests: Sequence[RunRequest],
    *,
    jobs: int = 1,
    progress: bool = False,
    label: str = "games",
    on_result: Callable[[int, RunResult], None] | None = None,
) -> list[RunResult]:
    """Play every request; tables in request order, identical for any ``jobs``.

    ``on_result(i, result)`` is called as soon as request ``i`` is complete (so callers can
    save finished runs even if a later one is interrupted).
    """
    from tqdm import tqdm

    pieces = [(i, first, games) for i, r in enumerate(requests) for first, games in chunks(r)]
    parts: dict[tuple[int, int], tuple[IntArray, float]] = {}
    remaining = [len(chunks(r)) for r in requests]
    results: dict[int, RunResult] = {}

    def finish(i: int, first: int, part: tuple[IntArray, float]) -> None:
        parts[(i, first)] = part
        remaining[i] -= 1
        if remaining[i] == 0:
            own = [parts.pop((i, start)) for start, _ in chunks(requests[i])]
            results[i] = RunResult(np.concatenate([t for t, _ in own]), sum(s for _, s in own))
            if on_result is not None:
                on_result(i, results[i])

    total = sum(r.games for r in requests)
    with tqdm(total=total, unit="game", desc=label, disable=None if progress else True) as bar:
        if jobs <= 1 or len(pieces) <= 1:
            for i, first, games in pieces:
                finish(i, first, play_chunk(requests[i], first, games))
                bar.update(games)
        else:
            warm_up(requests)
            pool = worker_pool(jobs)
            try:
                futures = {
                    pool.submit(play_chunk, requests[i], first, games): (i, first, games)
                    for i, first, games in pieces
                }
                for future in as_completed(futures):
                    i, first, games = futures[future]
                    finish(i, first, future.result())
                    bar.update(games)
            except BaseException:
                stop_workers(pool)
                raise
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
    return [results[i] for i in range(len(requests))]


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """``jobs`` forked workers that die with this process, even when it is killed outright."""
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("fork"),
        initializer=worker_start,
        initargs=(os.getpid(),),
    )


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the workers now: on an interrupt or error, leaving the pool by ``shutdown`` alone
    would first wait for every queued chunk to be played."""
    for process in list((pool._processes or {}).values()):
        process.kill()


def warm_up(requests: Sequence[RunRequest]) -> None:
    """Load (or compile) the kernel once before forking, so workers do not each compile it."""
    for request in requests:
        if request.native:
            play_chunk(request, 0, 1)
            return
