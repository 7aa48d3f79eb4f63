"""The full games on the pages: each rulebook's perfect-play value with its own pieces, read
from the measurement (:mod:`generator.measure.full_games`), with who computed it in words.

The statistics page opens the section with what the values say, one line per game (rulebooks
playing the same game share it), then says which rulebooks are not yet solved and why; each
rulebook page carries one line. The commands and figures for implementers go on the method
page.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, field
from typing import Any

from generator.measure.full_games import (
    PROCESS_BYTES,
    ChangeKey,
    FullEffect,
    FullGame,
    Pending,
    Status,
    groups,
)
from generator.site.render import figure
from generator.words import number_word


@dataclass(frozen=True)
class Game:
    """One solved game and the rulebooks that play it (the first is the one solved)."""

    records: list[FullGame]

    @property
    def record(self) -> FullGame:
        solved = [r for r in self.records if r.same_game_as is None]
        return solved[0] if solved else self.records[0]

    @property
    def variants(self) -> list[str]:
        return [r.variant for r in self.records]

    @property
    def published(self) -> dict[str, Any] | None:
        for record in self.records:
            if record.published:
                return record.published
        return None

    @property
    def agrees(self) -> bool | None:
        """The solve matches the published value to its last printed decimal (None: no
        published value)."""
        published = self.published
        if published is None:
            return None
        half_digit = 0.5 * 10 ** -int(published["decimals"])
        gap = abs(100 * (self.record.first_player - float(published["value"])))
        return bool(gap <= half_digit)

    @property
    def when(self) -> str:
        return date_words(self.record.provenance)

    @property
    def machine(self) -> str:
        return machine_words(self.record.provenance)

    @property
    def workers(self) -> int:
        """The workers of a distributed solve (1: one process)."""
        return int(self.record.provenance.get("workers") or 1)

    @property
    def several_machines(self) -> bool:
        """A distributed solve's workers ran on hosts named (not all on :attr:`machine`)."""
        return bool(self.record.provenance.get("address"))

    @property
    def processor_time(self) -> str:
        return duration_words(self.record.cpu_seconds)

    @property
    def pieces(self) -> str:
        return pieces_words(self.record.pieces)

    @property
    def count(self) -> str:
        """The pieces a side in words: ``seven``."""
        return number_word(self.record.pieces)


@dataclass(frozen=True)
class FullChange:
    """One ruling changed, with its exact effect on the full game (both full games solved),
    and every rulebook in which that change turns the same game into the same other game."""

    variants: list[str]
    question: str
    value: Any
    effect: FullEffect


def full_changes(changes: dict[ChangeKey, FullEffect], order: list[str]) -> list[FullChange]:
    """The changes that move the full game, one per effect (rulebooks worded differently that
    play one game, changed the same way, share it), largest effect on the first player first,
    rulebooks in ``order``."""
    place = {vid: n for n, vid in enumerate(order)}
    grouped: dict[tuple[str, str, str, str], FullChange] = {}
    for (vid, question, value), effect in sorted(
        changes.items(), key=lambda item: place.get(item[0][0], len(place))
    ):
        if not effect.changes_the_game:
            continue
        key = (effect.baseline.key, effect.changed.key, question, value)
        if key in grouped:
            grouped[key].variants.append(vid)
        else:
            grouped[key] = FullChange([vid], question, json.loads(value), effect)
    return sorted(grouped.values(), key=lambda c: -abs(c.effect.first_player))


@dataclass(frozen=True)
class FullGamesView:
    """What the statistics page and the rulebook pages say about the full games."""

    games: list[Game] = field(default_factory=list)
    stale: dict[str, FullGame] = field(default_factory=dict)
    waiting: list[list[str]] = field(default_factory=list)
    """Not yet solved, small enough for a machine like the one that solved the others: the
    rulebooks of each game together (:func:`same_game`)."""
    too_large: list[list[str]] = field(default_factory=list)
    """Not yet solved, the solver's memory estimate over the limit, by game."""
    sizes: dict[str, Pending] = field(default_factory=dict)
    """Each pending rulebook's size, where counted."""
    memory_limit: int = 0
    process_bytes: int = PROCESS_BYTES
    """What the solver's current estimate allows for the solving process itself."""
    by_variant: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each simulated rulebook's line: ``solved`` (a record), ``stale`` (a record) or
    ``pending`` (its size, when counted)."""
    changes: list[FullChange] = field(default_factory=list)
    """The one-ruling changes whose effect on the full game is known exactly."""

    @property
    def piece_changes(self) -> int:
        """How many rulebooks' changes of the piece count have an exact full-game effect."""
        return sum(
            len(c.variants)
            for c in self.changes
            if c.effect.baseline.pieces != c.effect.changed.pieces
        )

    @property
    def any(self) -> bool:
        return bool(self.games or self.stale or self.waiting or self.too_large)


def full_games_view(found: Status | None, order: list[str]) -> FullGamesView:
    """The view of ``found``, rulebooks in ``order`` (the site's order of rulebooks)."""
    if found is None:
        return FullGamesView()
    solved = [found.solved[vid] for vid in order if vid in found.solved]
    games = [Game(records) for records in groups(solved)]
    by_variant: dict[str, dict[str, Any]] = {}
    for game in games:
        for vid in game.variants:
            by_variant[vid] = {"game": game}
    for vid in order:
        if vid in found.pending:
            stale = found.stale.get(vid)
            by_variant[vid] = {
                "pending": found.pending[vid],
                "stale_since": date_words(stale.provenance) if stale else None,
            }
    pending = [vid for vid in order if vid in found.pending]
    sizes = {vid: size for vid in pending if (size := found.pending[vid]) is not None}
    too_large = [vid for vid, size in sizes.items() if not size.fits]
    return FullGamesView(
        games=games,
        stale={vid: found.stale[vid] for vid in order if vid in found.stale},
        waiting=same_game(
            [vid for vid in pending if vid not in too_large and vid not in found.stale], sizes
        ),
        too_large=same_game(too_large, sizes),
        sizes=sizes,
        memory_limit=found.memory_limit,
        by_variant=by_variant,
        changes=full_changes(found.changes, order),
    )


def solved_game(line: dict[str, Any] | None) -> Game | None:
    """The game of a rulebook's line (:attr:`FullGamesView.by_variant`), where it is solved."""
    game: Game | None = line.get("game") if line else None
    return game


def same_game(vids: list[str], sizes: dict[str, Pending]) -> list[list[str]]:
    """``vids`` grouped by game (one fingerprint), each group where its first rulebook stands;
    a rulebook whose size was not counted stands alone."""
    by_game: dict[str, list[str]] = {}
    for vid in vids:
        size = sizes.get(vid)
        by_game.setdefault(size.key if size is not None else f"uncounted {vid}", []).append(vid)
    return list(by_game.values())


def date_words(provenance: dict[str, Any]) -> str:
    """``2026-12-01 05:50 UTC`` as ``1 December 2026``."""
    day = datetime.datetime.strptime(provenance["date"][:10], "%Y-%m-%d")
    return f"{day.day} {day:%B %Y}"


def machine_words(provenance: dict[str, Any]) -> str:
    """The machine in words: ``a 2-core AMD EPYC machine with 24 GiB of memory`` (of a
    distributed solve, the machine it was launched from: :attr:`Game.workers`)."""
    memory = provenance.get("memory_bytes") or 0
    with_memory = f" with {memory / 2**30:.0f} GiB of memory" if memory else ""
    processor = processor_words(provenance["processor"])
    return f"a {provenance['cores']}-core {processor} machine{with_memory}"


def processor_words(name: str) -> str:
    """A processor's name as a reader says it, without trademark signs or the word
    "processor" the sentence already implies: ``Intel(R) Xeon(R) Processor`` -> ``Intel
    Xeon``, ``AMD EPYC`` as it is."""
    plain = re.sub(r"\((R|TM|tm|r)\)", "", name)
    plain = re.sub(r"\b(Processor|CPU)\b", "", plain)
    return " ".join(plain.split()) or name


def duration_words(seconds: float) -> str:
    """``seconds`` in the unit a reader would use: ``6 seconds``, ``14 minutes``, ``2.5 hours``."""
    if seconds < 90:
        return f"{seconds:.0f} second{'s' if round(seconds) != 1 else ''}"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{figure('%.1f', seconds / 3600)} hours"


def pieces_words(count: int) -> str:
    """``7`` as ``seven-piece``."""
    return f"{number_word(count)}-piece"
