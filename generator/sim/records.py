"""Simulation records: one JSON file per run under ``.cache/sim/<key>.json``.

The key is the sha256 of the canonical JSON of everything that decides the games: the variant
as played (its machine values and the content of its board, route and dice), the engine and
simulator versions, the agents, the number of games and the seed (plus the variant id and any
one-ruling change, so each record belongs to one variant). A rerun with nothing changed reads
the file; any change re-simulates. Runs with identical games are played once per invocation.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.engine import ENGINE_VERSION
from generator.engine.rules import Rules, compile_rules
from generator.model.variant import ResolvedVariant
from generator.sim.encode import IntArray, encode_rules
from generator.sim.runner import RunRequest, RunResult, run_requests
from generator.sim.stats import summarise
from generator.sim.variation import Change, canonical

SIM_VERSION = 1
"""Changes whenever the kernel, the agents or the statistics could give other numbers."""

DEFAULT_SEED = 20261130
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
            "engine_version": ENGINE_VERSION,
            "sim_version": SIM_VERSION,
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
        }

    @functools.cached_property
    def game_key(self) -> str:
        """Identical for runs that play identical games, whatever the variant is called and
        however its rulings are worded: the kernel's packed rules, agents, games, seed."""
        return digest(
            {
                "packed": self.packed.tolist(),
                "engine_version": ENGINE_VERSION,
                "sim_version": SIM_VERSION,
                "agents": list(self.agents),
                "games": self.games,
                "seed": self.seed,
            }
        )

    @functools.cached_property
    def key(self) -> str:
        changes = [c.as_dict() for c in self.changes]
        return digest({**self.game_content(), "id": self.variant.id, "changes": changes})

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
    return cache_dir / f"{key}.json"


def load_record(cache_dir: Path, key: str) -> dict[str, Any] | None:
    """The cached record for ``key``, or ``None`` (a damaged file counts as missing)."""
    path = record_path(cache_dir, key)
    try:
        record: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("key") == key else None


def save_record(cache_dir: Path, record: dict[str, Any]) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = record_path(cache_dir, record["key"])
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(record, separators=(",", ":")) + "\n")
    temporary.replace(path)


def build_record(spec: RecordSpec, results: dict[str, Any], seconds: float) -> dict[str, Any]:
    return {
        "key": spec.key,
        "variant": spec.variant.id,
        "changes": [c.as_dict() for c in spec.changes],
        "engine_version": ENGINE_VERSION,
        "sim_version": SIM_VERSION,
        "agents": list(spec.agents),
        "games": spec.games,
        "seed": spec.seed,
        "rules": spec.variant.machine_values(),
        "results": results,
        "elapsed_seconds": round(seconds, 3),
        "created_by": spec.created_by(),
    }


Progress = Callable[[str], None]


def simulate(
    specs: Sequence[RecordSpec],
    *,
    cache_dir: Path = DEFAULT_CACHE,
    jobs: int = 1,
    progress: bool = False,
    use_cache: bool = True,
    label: str = "games",
) -> list[dict[str, Any]]:
    """The record of every spec, in order: read from the cache when present, otherwise
    simulated (in parallel over ``jobs`` processes) and saved."""
    records: list[dict[str, Any] | None] = [
        load_record(cache_dir, s.key) if use_cache else None for s in specs
    ]
    waiting: dict[str, list[int]] = {}
    for i, spec in enumerate(specs):
        if records[i] is None:
            waiting.setdefault(spec.game_key, []).append(i)
    pending = [(key, specs[indices[0]]) for key, indices in waiting.items()]

    def save_finished(n: int, result: RunResult) -> None:
        key, _ = pending[n]
        summary = summarise(result.table)
        for i in waiting[key]:
            record = build_record(specs[i], summary, result.seconds)
            save_record(cache_dir, record)
            records[i] = record

    requests = [RunRequest(s.rules(), s.agents, s.games, s.seed, s.packed) for _, s in pending]
    run_requests(requests, jobs=jobs, progress=progress, label=label, on_result=save_finished)
    return [r for r in records if r is not None]
