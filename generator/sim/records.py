"""Simulation records: one JSON file per run under ``.cache/sim/<key>.v<format>.json``
(written atomically with a checksum, :mod:`generator.sim.cache_files`; a damaged one is
reported and simulated again, :func:`load_record`).

The key is the sha256 of the canonical JSON of everything that decides the games: the variant
as played (its machine values and the content of its board, route and dice), the engine and
simulator versions, the agents, the number of games and the seed (plus the variant id and any
one-ruling change, so each record belongs to one variant). A rerun with nothing changed reads
the file; any change re-simulates.

Games are never played twice in one invocation: runs with identical games share one table, a
run of ``n`` games whose play matches a longer run (same packed rules, agents as they play,
seed) is that run's first ``n`` games (game ``g``'s dice depend only on (seed, g)), and a longer
run extends a shorter one already played (``played``). A record's ``elapsed_seconds`` is the
processor time of its games, prorated when several records share them.
"""

from __future__ import annotations

import functools
import hashlib
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from generator.engine.rules import Rules, compile_rules
from generator.model.variant import ResolvedVariant
from generator.sim import rekey
from generator.sim.agents import FastAgent, same_play_as
from generator.sim.cache_files import CACHE_FORMAT, read_json, report_damaged, write_json
from generator.sim.encode import IntArray, encode_rules
from generator.sim.results_files import code_key
from generator.sim.runner import RunRequest, RunResult, run_requests
from generator.sim.sanity import FigureError, check_record
from generator.sim.stats import summarise
from generator.sim.variation import Change, canonical

DEFAULT_SEED = 20261130
FITTED = FastAgent.FITTED.label
DEFAULT_CACHE = Path(".cache/sim")


def variant_content(variant: ResolvedVariant) -> dict[str, Any]:
    """Everything about ``variant`` that the games depend on, as plain JSON values."""
    board, route, dice = variant.board, variant.route, variant.dice
    return {
        "machine_values": variant.machine_values(),
        "board": {
            "rows": board.rows,
            "columns": board.columns,
            "cells": list(board.cells),
            "rosettes": sorted(board.rosettes),
        },
        "route": {"light": list(route.light), "dark": list(route.dark)},
        "dice": [[throw, str(p)] for throw, p in dice.table()],
    }


def digest(payload: Any) -> str:
    return hashlib.sha256(canonical(payload).encode()).hexdigest()


@dataclass(frozen=True)
class RecordSpec:
    """One run: ``games`` games of ``variant`` between ``agents``; ``variant`` already has
    ``changes`` applied (they are recorded, and reproduced by ``--set``)."""

    variant: ResolvedVariant
    agents: tuple[str, str]
    games: int
    seed: int
    changes: tuple[Change, ...] = ()

    def game_content(self) -> dict[str, Any]:
        return {
            "variant": variant_content(self.variant),
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
        }

    @functools.cached_property
    def play_key(self) -> str:
        """Identical for runs whose game ``g`` is the same game for every ``g``, whatever the
        variant is called and however its rulings are worded: the kernel's packed rules, the
        agents as they play (:func:`generator.sim.agents.same_play_as`), the seed."""
        return digest(
            {
                "packed": self.packed.tolist(),
                "agents": [same_play_as(a, self.packed) for a in self.agents],
                "seed": self.seed,
            }
        )

    @functools.cached_property
    def key(self) -> str:
        """The record's data key: the games' content, the rulebook's id and its changes (the
        code that plays them is the results file's behaviour stamp,
        :mod:`generator.sim.results_files`)."""
        content = {**self.game_content(), "id": self.variant.id}
        content["changes"] = [c.as_dict() for c in self.changes]
        legacy = rekey.FITTED_RECORD if FITTED in self.agents else rekey.RECORD
        return rekey.keyed(lambda old: digest({**content, **old}), legacy)

    def rules(self) -> Rules:
        return self.compiled

    @functools.cached_property
    def compiled(self) -> Rules:
        return compile_rules(self.variant)

    @functools.cached_property
    def packed(self) -> IntArray:
        """The kernel's packed rules (equal for variants that play the same game)."""
        return encode_rules(self.compiled).packed()

    def created_by(self) -> str:
        words = ["ur-variants", "simulate", self.variant.id, "--games", str(self.games)]
        words += ["--agents", ",".join(self.agents), "--seed", str(self.seed)]
        for change in self.changes:
            words += ["--set", f"{change.question}={canonical(change.value)}"]
        return shlex.join(words)


def record_path(cache_dir: Path, key: str) -> Path:
    """A cached record's file: its data key and the source of the engine and simulator that
    played it (:func:`generator.sim.results_files.code_key`)."""
    return cache_dir / f"{key}.c{code_key('engine', 'sim')}.v{CACHE_FORMAT}.json"


def load_record(cache_dir: Path, key: str) -> dict[str, Any] | None:
    """The cached record for ``key``, or ``None``: a damaged record (unreadable, tampered with,
    saved for another key, or with impossible figures) is reported and counts as missing."""
    path = record_path(cache_dir, key)
    record = read_json(path)
    if record is None:
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        report_damaged(path, "it holds no record for its key")
        return None
    try:
        check_record(record)
    except FigureError as error:
        report_damaged(path, str(error))
        return None
    return record


def save_record(cache_dir: Path, record: dict[str, Any]) -> None:
    """Save ``record`` atomically with its checksum, after checking its figures."""
    check_record(record)
    write_json(record_path(cache_dir, record["key"]), record)


def build_record(spec: RecordSpec, results: dict[str, Any], seconds: float) -> dict[str, Any]:
    return {
        "key": spec.key,
        "variant": spec.variant.id,
        "changes": [c.as_dict() for c in spec.changes],
        "agents": list(spec.agents),
        "games": spec.games,
        "seed": spec.seed,
        "rules": spec.variant.machine_values(),
        "results": results,
        "elapsed_seconds": round(seconds, 3),
        "created_by": spec.created_by(),
    }


Progress = Callable[[str], None]


Played = dict[str, tuple[IntArray, float]]
"""Per-game tables already played in this invocation, by play key, with their processor time."""


def simulate(
    specs: Sequence[RecordSpec],
    *,
    cache_dir: Path = DEFAULT_CACHE,
    jobs: int = 1,
    progress: bool = False,
    use_cache: bool = True,
    label: str = "games",
    played: Played | None = None,
    known: Mapping[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The record of every spec, in order: taken from ``known`` (records by key, e.g. the
    committed ones) or read from the cache when present, otherwise simulated (in parallel
    over ``jobs`` processes) and saved.

    Specs with the same play key play their longest run once (extending any table for that
    key in ``played``, which is updated); each record summarises the first ``games`` rows.
    """
    tables: Played = {} if played is None else played
    given = known or {}
    records: list[dict[str, Any] | None] = [
        given.get(s.key) or (load_record(cache_dir, s.key) if use_cache else None) for s in specs
    ]
    waiting: dict[str, list[int]] = {}
    for i, spec in enumerate(specs):
        if records[i] is None:
            waiting.setdefault(spec.play_key, []).append(i)

    def save(key: str, table: IntArray, seconds: float) -> None:
        tables[key] = (table, seconds)
        for i in waiting[key]:
            games = specs[i].games
            share = seconds * games / len(table)
            record = build_record(specs[i], summarise(table[:games]), share)
            save_record(cache_dir, record)
            records[i] = record

    pending: list[tuple[str, RecordSpec, int]] = []
    for key, indices in waiting.items():
        longest = max(indices, key=lambda i: specs[i].games)
        have = len(tables[key][0]) if key in tables else 0
        if have >= specs[longest].games:
            save(key, *tables[key])
        else:
            pending.append((key, specs[longest], have))

    def save_finished(n: int, result: RunResult) -> None:
        key, _, have = pending[n]
        table, seconds = result.table, result.seconds
        if have:
            earlier, earlier_seconds = tables[key]
            table = np.concatenate([earlier, table])
            seconds += earlier_seconds
        save(key, table, seconds)

    requests = [
        RunRequest(s.rules(), s.agents, s.games - have, s.seed, s.packed, first_game=have)
        for _, s, have in pending
    ]
    run_requests(requests, jobs=jobs, progress=progress, label=label, on_result=save_finished)
    return [r for r in records if r is not None]
