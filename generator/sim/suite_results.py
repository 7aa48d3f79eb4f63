"""The simulation suite's committed records: ``results/simulation-suite.json``.

``ur-variants suite --write-results`` runs the default suite (:mod:`generator.sim.suite`) and
writes every record the site reads, each under its simulation record key
(:attr:`generator.sim.records.RecordSpec.key`: the rules as played, the engine and simulator
versions, the agents, the games and the seed), with the command, commit, date and machine. A
build reads a record from here while the key it asks for is in the file, and simulates (or
reads from ``.cache/sim``) only the runs whose key is not: a changed ruling changes its key, so
a changed rulebook is played again and never shown with the figures of its old rules.

A sensitivity run's record keeps only what a page reads from it (:func:`kept_for_pages`: its
games, seed, the first player's win rate and the mean throws, with intervals); a baseline's
record is kept whole (the rulebook pages print all of it).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.sim.results_files import RESULTS_DIR, read_section
from generator.sim.sanity import FigureError, check_record

RESULTS_FORMAT = 1
RESULTS_FILE = RESULTS_DIR / "simulation-suite.json"
WRITE_COMMAND = "ur-variants suite --write-results"

Record = dict[str, Any]

PAGE_RESULTS = {
    "first_player_win_rate": ("estimate", "low", "high"),
    "throws": ("mean", "low", "high"),
}
"""The figures a page reads from a sensitivity run (its effect on the win rate and on the
throws per game, :class:`generator.sim.suite.Effect`), each with its interval."""
PAGE_COUNTS = ("first_player_wins", "finished_games", "unfinished_games")
"""Counts kept with them, so the record's figures can still be checked
(:func:`generator.sim.sanity.check_record`)."""
RECORD_FIELDS = (
    *("key", "variant", "changes", "agents"),
    *("games", "seed", "elapsed_seconds", "created_by"),
)
"""What says how a sensitivity run was made, kept with its figures."""


PROVENANCE = ("command", "commit", "date", "machine")


@dataclass(frozen=True)
class Committed:
    """The records a build may read, by key, and who wrote them (:data:`PROVENANCE`)."""

    records: dict[str, Record] = field(default_factory=dict)
    made_by: dict[str, Any] = field(default_factory=dict)


def kept_for_pages(record: Record) -> Record:
    """A sensitivity run's record as committed: what pages read, and what says how it was
    made (:data:`RECORD_FIELDS`); the distributions, histograms and rules are left out."""
    results = record["results"]
    kept = {name: {k: results[name][k] for k in parts} for name, parts in PAGE_RESULTS.items()}
    kept.update({name: results[name] for name in PAGE_COUNTS if name in results})
    return {**{f: record[f] for f in RECORD_FIELDS if f in record}, "results": kept}


def committed_layout(baseline: Iterable[Record], changed: Iterable[Record]) -> dict[str, Any]:
    """The file's payload (before provenance): every record by key, baselines whole and
    sensitivity runs :func:`kept_for_pages`."""
    records = {r["key"]: kept_for_pages(r) for r in changed}
    records.update({r["key"]: r for r in baseline})
    return {"records": dict(sorted(records.items()))}


def summary(results: dict[str, Any]) -> list[str]:
    """What was written, for the command's output."""
    records = results["records"]
    books = {r["variant"] for r in records.values()}
    return [f"{len(records)} simulation records of {len(books)} rulebooks"]


def read_committed(path: Path | None = None, log: Callable[[str], None] | None = None) -> Committed:
    """The committed records by key (``path``: :data:`RESULTS_FILE`); none when the file is
    missing. A damaged file (or one of
    another layout), or a record in it whose figures are impossible or that is filed under
    another key, is reported through ``log`` (file, what is wrong, the command that writes it
    again) and left out, so the build simulates those runs instead."""
    say = log or (lambda text: print(text, file=sys.stderr))
    path = RESULTS_FILE if path is None else path
    damaged = (
        f"damaged or not a simulation suite of format {RESULTS_FORMAT}; simulating every run"
        f" instead (`{WRITE_COMMAND}` writes the file again)"
    )
    records, data = read_section(path, RESULTS_FORMAT, "records", damaged, say)
    usable: dict[str, Record] = {}
    for key, record in records.items():
        problem = record_problem(key, record)
        if problem:
            say(f"{path}: record {key}: {problem}; simulating it (`{WRITE_COMMAND}` fixes it)")
        else:
            usable[key] = record
    return Committed(usable, {k: data[k] for k in PROVENANCE if k in data})


def record_problem(key: str, record: Any) -> str | None:
    """Why a committed record cannot be used, or ``None``."""
    if not isinstance(record, dict) or record.get("key") != key:
        return "it is filed under another key"
    results = record.get("results")
    missing = [n for n in PAGE_RESULTS if not isinstance(results, dict) or n not in results]
    if missing:
        return f"it has no {', '.join(missing)}"
    try:
        check_record(record)
    except FigureError as error:
        return str(error)
    return None
