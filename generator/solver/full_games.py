"""The full games, solved: each rulebook with its own number of pieces a side.

The build solves every rulebook with one and two pieces (:mod:`generator.measure.exact`); the
full games are far larger (seven pieces on Bell's route: 137,870,097 positions) and take
minutes to hours each, too slow for every build. ``ur-variants full-games RULEBOOK...``
solves them one at a time (:func:`generator.solver.solve.solve`, checkpointed under
``.cache/solve``, so a killed solve resumes) and keeps each rulebook's figures in the
committed ``results/full-games.json``: the first player's perfect-play chance, the expected
length of a perfect game, the positions, the solver's memory estimate, processor and wall
time, the solver's version, the rules' fingerprint and who computed it (command, commit,
date, machine: :func:`generator.sim.results_files.provenance`). The build only reads it.

Every simulated rulebook is listed: solved, or pending with its size counted beforehand and
whether it fits :data:`MEMORY_LIMIT` (the issue's bound for the largest full game here,
seven-piece Masters; these machines have 24 GiB). A record is current while its fingerprint
(:func:`generator.solver.solve.game_key`: the rules' effective content and the tolerance; the
code that solved it is the file's behaviour stamp) is the catalogue's; when a ruling changes
play, the record is stale (:func:`status`) and the rulebook waits to be solved again.
Rulebooks playing the same game (one fingerprint, even where their rulings are worded
differently) are solved once; the others copy the record and say whose it is.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.processes import process_peak
from generator.sim import results_files
from generator.sim.variation import Change, canonical
from generator.solver.behaviour import estimate_digest
from generator.solver.policy_eval import ZERO_EFFECT
from generator.solver.published import PERFECT_FIRST_PLAYER
from generator.solver.solution import Solution
from generator.solver.solve import game_key, solution_path, solve
from generator.solver.solve_estimate import PROCESS_BYTES, estimate
from generator.solver.solve_read import committed_start, start_as_begun

RESULTS_FORMAT = 1
RESULTS_FILE = results_files.RESULTS_DIR / "full-games.json"
TOLERANCE = 1e-13
"""The solver's default tolerance (the published ten decimals need it)."""
MEMORY_LIMIT = 20 * 2**30
"""Largest memory estimate solved here (bytes): the issue's bound for seven-piece Masters."""


def full_games(catalog: Catalog) -> dict[str, Rules]:
    """Every simulated rulebook's rules as played, with its own number of pieces, by id."""
    return {
        vid: compile_rules(catalog.resolve(vid))
        for vid in sorted(catalog.variants)
        if catalog.variants[vid].simulate
    }


def fingerprint(rules: Rules) -> str:
    """What decides a full game's figures (:func:`generator.solver.solve.game_key`): rulebooks
    whose rulings differ only where play cannot tell (a capture ruling about cells one side
    never enters, say) share it, and one solve."""
    return game_key(rules, TOLERANCE)


def empty_results() -> dict[str, Any]:
    return {"tolerance": TOLERANCE, "memory_limit": MEMORY_LIMIT, "solved": {}, "pending": {}}


def read_results(path: Path = RESULTS_FILE) -> dict[str, Any] | None:
    """The committed records, or ``None`` when missing, damaged or of another layout."""
    return results_files.read_results(path, RESULTS_FORMAT)


def write_results(path: Path, results: dict[str, Any]) -> None:
    results_files.write_results(path, RESULTS_FORMAT, results)


@dataclass(frozen=True)
class FullGame:
    """One rulebook's full game, solved."""

    variant: str
    key: str
    """The rules' fingerprint when solved (:func:`fingerprint`)."""
    pieces: int
    first_player: float
    """The first player's chance of winning when both sides play perfectly."""
    expected_throws: float | None
    """Expected throws of a perfect game; ``None`` where perfect play can go on for ever."""
    states: int
    memory_bytes: int
    """The solver's memory estimate, counted before it started."""
    cpu_seconds: float
    solve_seconds: float
    """Wall time of the solve itself, summed over resumed runs."""
    solver_version: int | None
    engine_version: int | None
    """The hand-bumped versions of the code that solved it, kept on records made before the
    behaviour stamps replaced them (``None`` since: the file's stamp says what code made it,
    :mod:`generator.sim.results_files`)."""
    provenance: dict[str, Any]
    """Command, commit, date, machine (:func:`generator.sim.results_files.provenance`)."""
    same_game_as: str | None = None
    """The rulebook whose solve this record copies (the same rules, so the same game)."""
    estimate_counts_process: bool = True
    """``memory_bytes`` allows for the solving process itself, not only its arrays (the
    estimates of the first solves left it out, :data:`generator.solver.solve_estimate.
    PROCESS_BYTES`)."""

    @property
    def published(self) -> dict[str, Any] | None:
        """The value published for this game, when there is one (:data:`PERFECT_FIRST_PLAYER`)."""
        return PERFECT_FIRST_PLAYER.get(self.variant) or (
            PERFECT_FIRST_PLAYER.get(self.same_game_as) if self.same_game_as else None
        )

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> FullGame:
        return FullGame(**data)


@dataclass(frozen=True)
class Pending:
    """A rulebook whose full game is not solved (yet), with its size counted beforehand."""

    variant: str
    key: str
    pieces: int
    states: int
    counted: bool
    """``states`` was counted exactly; otherwise it is a rough guess."""
    memory_bytes: int
    fits: bool
    """The memory estimate is within the limit: it can be solved here."""
    estimate_digest: str = ""
    """What the estimate that counted ``memory_bytes`` counts on pinned games
    (:func:`generator.solver.behaviour.estimate_digest`; empty: not known)."""

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Pending:
        return Pending(**data)

    @property
    def current(self) -> bool:
        """Counted by an estimate that counts as the solver's does now."""
        return self.estimate_digest == estimate_digest()


def pending_record(vid: str, rules: Rules, key: str, limit: int = MEMORY_LIMIT) -> Pending:
    """The size of ``rules``'s full game, counted (seconds, or minutes for the largest)."""
    guess = estimate(rules)
    return Pending(
        vid, key, rules.pieces, guess.states, guess.exact, guess.memory_bytes,
        guess.memory_bytes <= limit, estimate_digest(),
    )  # fmt: skip


def solve_full_game(
    vid: str,
    rules: Rules,
    *,
    provenance: Callable[[float], dict[str, Any]],
    cache_dir: Path | None,
    max_memory_bytes: int = MEMORY_LIMIT,
    progress: Callable[[str], None] | None = None,
) -> FullGame:
    """Solve ``rules`` (resuming a checkpointed solve in ``cache_dir``) and return its record;
    ``provenance(seconds)`` says who computed it. Raises
    :class:`generator.solver.solve.SolveRefused` over the memory limit.

    The sweeps start from the committed fitted evaluation of these rules (fewer sweeps, the
    same values within the tolerance: :func:`generator.solver.solve.solve`), unless a solve
    started from 1/2 is already checkpointed, which is resumed as it began."""
    used = (
        start_as_begun(rules, solution_path(cache_dir, rules, TOLERANCE))
        if cache_dir is not None
        else committed_start(rules)
    )
    solution = solve(
        rules,
        tolerance=TOLERANCE,
        cache_dir=cache_dir,
        max_memory_bytes=max_memory_bytes,
        progress=progress,
        start=used,
    )
    peak = process_peak()
    origin = "read from the solve cache" if solution.from_cache else "solved"
    if solution.resumed_layers:
        origin += f", resumed after {solution.resumed_layers} checkpointed layers"
    return _solved(
        vid,
        rules,
        solution,
        solution.memory_bytes,
        {
            **provenance(solution.seconds),
            "origin": origin,
            "start": "half" if used is None else "fitted evaluation",
            "process_peak_bytes": None if solution.from_cache else peak,
        },
    )


def _solved(
    vid: str, rules: Rules, solution: Solution, memory_bytes: int, provenance: dict[str, Any]
) -> FullGame:
    """The record of ``solution``, the full game of ``rules`` under rulebook ``vid``."""
    return FullGame(
        variant=vid,
        key=fingerprint(rules),
        pieces=rules.pieces,
        first_player=solution.start_value,
        expected_throws=None if math.isinf(solution.expected_throws) else solution.expected_throws,
        states=solution.states,
        memory_bytes=memory_bytes,
        cpu_seconds=round(solution.cpu_seconds, 1),
        solve_seconds=round(solution.seconds, 1),
        solver_version=None,
        engine_version=None,
        provenance=provenance,
    )


def distributed_record(
    vid: str,
    rules: Rules,
    solution: Solution,
    figures: dict[str, Any],
    provenance: Callable[[float], dict[str, Any]],
    address: str | None = None,
) -> FullGame:
    """The record of a distributed solve of ``rules`` (:func:`generator.solver.solve_read.
    distributed_solution`: ``solution`` and its ``figures``): its processor time is every
    worker's, its wall time the slowest worker's, its memory measured the busiest worker's
    peak; its estimate is one process's, as a pending game's size is. ``address``: the hosts
    the workers ran on, where not all on the launching machine."""
    workers = int(figures["workers"])
    return _solved(
        vid,
        rules,
        solution,
        estimate(rules).memory_bytes,
        {
            **provenance(solution.seconds),
            "origin": f"solved on {workers} workers",
            "start": str(figures.get("start", "half")),
            "workers": workers,
            "address": address,
            "process_peak_bytes": int(figures["worker_peak_bytes"]),
        },
    )


def copied(record: FullGame, vid: str) -> FullGame:
    """``record``'s figures for rulebook ``vid``, which plays the same game."""
    return FullGame.from_dict({**record.as_dict(), "variant": vid, "same_game_as": record.variant})


@dataclass(frozen=True)
class FullEffect:
    """One ruling changed in a rulebook whose full game is solved, where the changed rules
    play a game that is solved too (under any rulebook's name): the change's exact effect on
    the full game under perfect play, nothing sampled and no piece count reduced. (The
    random-play figures of :mod:`generator.solver.exact_effects` are not known at this size.)"""

    baseline: FullGame
    """The rulebook's own full game."""
    changed: FullGame
    """The full game its changed rules play."""

    @property
    def first_player(self) -> float:
        """Changed minus unchanged: the first player's chance under perfect play."""
        return self.changed.first_player - self.baseline.first_player

    @property
    def throws(self) -> float | None:
        """Changed minus unchanged: the expected throws of a perfect game (``None`` where
        either can go on for ever)."""
        if self.changed.expected_throws is None or self.baseline.expected_throws is None:
            return None
        return self.changed.expected_throws - self.baseline.expected_throws

    @property
    def changes_the_game(self) -> bool:
        """The two full games differ and some figure moves by at least
        :data:`generator.solver.policy_eval.ZERO_EFFECT` (the exact effects' zero)."""
        if self.changed.key == self.baseline.key:
            return False
        throws = self.throws
        moved = throws is None or abs(throws) >= ZERO_EFFECT
        return moved or abs(self.first_player) >= ZERO_EFFECT


ChangeKey = tuple[str, str, str]
"""A one-ruling change of a rulebook: (rulebook id, question, canonical value)."""


@dataclass(frozen=True)
class Status:
    """Every simulated rulebook's full game as the committed records stand against the
    catalogue: solved (current), stale (solved before its rules changed), or pending."""

    solved: dict[str, FullGame]
    stale: dict[str, FullGame]
    pending: dict[str, Pending | None]
    """Not solved for the current rules; the size when the records counted it for these
    rules (``None``: not counted since the rules or the memory estimate changed, or a new
    rulebook)."""
    memory_limit: int = MEMORY_LIMIT
    """The limit ``Pending.fits`` was judged by (bytes)."""
    changes: dict[ChangeKey, FullEffect] = dataclasses.field(default_factory=dict)
    """The one-ruling changes whose full games, unchanged and changed, are both solved
    (:func:`change_effects`; the measurement finds them)."""


def status(games: dict[str, Rules], results: dict[str, Any] | None) -> Status:
    """Each rulebook of ``games`` (:func:`full_games`) against the records. Cheap: rules are
    fingerprinted, not solved or counted."""
    results = results or empty_results()
    solved, stale, pending = {}, {}, {}
    for vid, rules in games.items():
        key = fingerprint(rules)
        record = results["solved"].get(vid)
        if record is not None and record["key"] == key:
            solved[vid] = FullGame.from_dict(record)
            continue
        if record is not None:
            stale[vid] = FullGame.from_dict(record)
        counted = results["pending"].get(vid)
        size = Pending.from_dict(counted) if counted and counted["key"] == key else None
        pending[vid] = size if size is not None and size.current else None
    return Status(solved, stale, pending, int(results.get("memory_limit", MEMORY_LIMIT)))


def solved_key(results: dict[str, Any], key: str) -> FullGame | None:
    """A record of ``key``'s game under any rulebook, computed (not itself a copy)."""
    for record in results["solved"].values():
        if record["key"] == key and record["same_game_as"] is None:
            return FullGame.from_dict(record)
    return None


def refresh_pending(
    results: dict[str, Any],
    games: dict[str, Rules],
    limit: int = MEMORY_LIMIT,
    log: Callable[[str], None] | None = None,
) -> None:
    """List every rulebook of ``games`` without a current record as pending, with its size
    (counted once per game: a record already counted for the same rules by the current memory
    estimate is kept), drop the records of rulebooks no longer in ``games``, and give each
    copy its source's figures (:func:`follow_sources`)."""
    now = status(games, results)
    kept = (Pending.from_dict(p) for p in results["pending"].values())
    counted: dict[str, Pending] = {p.key: p for p in kept if p.current}
    pending: dict[str, Any] = {}
    for vid in now.pending:
        key = fingerprint(games[vid])
        if key not in counted:
            if log:
                log(f"counting {vid}'s positions")
            counted[key] = pending_record(vid, games[vid], key, limit)
        size = counted[key]
        pending[vid] = {**size.as_dict(), "variant": vid, "fits": size.memory_bytes <= limit}
    results["pending"] = pending
    results["solved"] = follow_sources(
        {vid: r for vid, r in results["solved"].items() if vid in games}
    )
    results["memory_limit"] = limit


def follow_sources(solved: dict[str, Any]) -> dict[str, Any]:
    """``solved`` with each copy (``same_game_as``) made again from its source's record, where
    the source still plays the same game: a game solved again (``--again``) gives every
    rulebook that plays it the new figures, not only its own."""
    followed = dict(solved)
    for vid, data in solved.items():
        source = solved.get(data.get("same_game_as") or "")
        if source is not None and source["key"] == data["key"] and not source["same_game_as"]:
            followed[vid] = copied(FullGame.from_dict(source), vid).as_dict()
    return followed


def with_saved(results: dict[str, Any], saved: dict[str, Any] | None) -> dict[str, Any]:
    """``results`` with the records another run saved meanwhile (``saved``, read from disk):
    its solved records win, the sizes either counted are kept."""
    if saved is None:
        return results
    return {
        **results,
        "solved": {**results["solved"], **saved["solved"]},
        "pending": {**saved["pending"], **results["pending"]},
    }


def pending_order(results: dict[str, Any]) -> list[str]:
    """The pending rulebooks that fit, smallest first (each game once: its first rulebook)."""
    seen: set[str] = set()
    order = []
    fitting = [p for p in results["pending"].values() if p["fits"]]
    for record in sorted(fitting, key=lambda p: (p["memory_bytes"], p["variant"])):
        if record["key"] not in seen:
            seen.add(record["key"])
            order.append(record["variant"])
    return order


def summary(results: dict[str, Any]) -> list[str]:
    """One line a rulebook: its value, or why it is not solved."""
    lines = []
    for vid, data in sorted(results["solved"].items()):
        record = FullGame.from_dict(data)
        length = (
            "unbounded"
            if record.expected_throws is None
            else f"{record.expected_throws:.6f} throws"
        )
        source = f", the game of {record.same_game_as}" if record.same_game_as else ""
        lines.append(
            f"{vid}, {record.pieces} pieces: first player {100 * record.first_player:.10f} %,"
            f" {length}, {record.states:,} states, {record.memory_bytes / 2**30:.2f} GiB,"
            f" {record.cpu_seconds:,.0f} s processor{source}"
        )
    for vid, data in sorted(results["pending"].items()):
        states = f"{data['states']:,}" if data["counted"] else f"about {data['states']:,} (guessed)"
        fits = "fits" if data["fits"] else "over the limit"
        lines.append(
            f"{vid}, {data['pieces']} pieces: pending ({states} states,"
            f" {data['memory_bytes'] / 2**30:,.2f} GiB, {fits})"
        )
    return lines


def change_effects(
    changes: Iterable[tuple[str, Change, Rules]], solved: dict[str, FullGame]
) -> dict[ChangeKey, FullEffect]:
    """The full-size effect of each change ``(rulebook id, change, changed rules)`` whose
    rulebook is solved and whose changed rules play a solved game (found by
    :func:`fingerprint`), by :data:`ChangeKey`. Cheap: the changed rules are fingerprinted,
    not solved."""
    by_key: dict[str, FullGame] = {}
    for record in solved.values():
        if record.same_game_as is None or record.key not in by_key:
            by_key[record.key] = record
    found = {}
    for vid, change, rules in changes:
        baseline = solved.get(vid)
        changed = by_key.get(fingerprint(rules)) if baseline is not None else None
        if baseline is not None and changed is not None:
            found[(vid, change.question, canonical(change.value))] = FullEffect(baseline, changed)
    return found


def groups(records: Iterable[FullGame]) -> list[list[FullGame]]:
    """Records of one game together (by fingerprint), in the order first met."""
    by_key: dict[str, list[FullGame]] = {}
    for record in records:
        by_key.setdefault(record.key, []).append(record)
    return list(by_key.values())


__all__ = [
    "MEMORY_LIMIT",
    "PROCESS_BYTES",
    "RESULTS_FILE",
    "FullEffect",
    "FullGame",
    "Pending",
    "Status",
    "change_effects",
    "full_games",
    "read_results",
    "solve_full_game",
    "status",
]
