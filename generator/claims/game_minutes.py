"""``game-minutes``: a claim of how long a game takes, against simulated game lengths in throws
turned into minutes at stated paces of play (:data:`SECONDS_PER_THROW`), at every piece count
the claim gives minutes for."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from generator.claims.figures import committed_or_computed, figure_key
from generator.claims.verdicts import (
    CONSISTENT_WITH_ASSUMPTION,
    NOT_CONSISTENT_WITH_ASSUMPTION,
    UNCHECKED,
    CheckSettings,
    ClaimResult,
    Verdict,
    rules_with_pieces,
)
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim
from generator.sim import rekey
from generator.sim.stats import SECONDS_PER_THROW as TYPICAL_SECONDS

SECONDS_PER_THROW = (TYPICAL_SECONDS / 2, TYPICAL_SECONDS, TYPICAL_SECONDS * 1.5)
"""Assumed seconds per throw at the table (fast, typical, slow): throwing and counting the
dice, choosing a piece and moving it. The typical pace is the simulator's
(:data:`generator.sim.stats.SECONDS_PER_THROW`); none is measured, all are stated."""


@dataclass(frozen=True)
class GameLengths:
    """Seeded greedy games in the simulator: how many ended, and their throws."""

    games: int
    finished: int
    mean: float
    deviation: float
    """The sample standard deviation of the throws of the games that ended."""
    median: float


def game_lengths(rules: Rules, games: int, seed: int) -> GameLengths:
    """Play ``games`` seeded games, both sides greedy, and measure the ones that ended."""
    from generator.sim.encode import encode_rules
    from generator.sim.fast import GREEDY, THROWS, WINNER, play_games

    table = play_games(encode_rules(rules).packed(), GREEDY, GREEDY, seed, 0, games)
    counts = table[table[:, WINNER] >= 0][:, THROWS]
    measured = len(counts) > 1  # a deviation needs two games (none end only if play locks)
    return GameLengths(
        games=games,
        finished=len(counts),
        mean=float(counts.mean()) if measured else 0.0,
        deviation=float(counts.std(ddof=1)) if measured else 0.0,
        median=float(np.median(counts)) if measured else 0.0,
    )


def game_lengths_cached(rules: Rules, settings: CheckSettings) -> GameLengths:
    extra = {"games": settings.games, "seed": settings.seed}
    return committed_or_computed(
        GameLengths,
        figure_key("game-lengths", rules, extra, rekey.GAME_LENGTHS),
        lambda: game_lengths(rules, settings.games, settings.seed),
        settings,
        f"the greedy games of {rules.variant}",
    )


@dataclass(frozen=True)
class PieceMinutes:
    """One piece count's simulated lengths against the minutes the claim gives for it
    (``stated``: low and high, ``None`` when it gives none), with the verdict at that count;
    ``half`` is the half-width of the mean's 95 % interval."""

    pieces: int
    lengths: GameLengths
    half: float
    stated: tuple[float, float] | None
    verdict: Verdict


@dataclass(frozen=True)
class GameMinutes:
    """The lengths at every piece count the claim gives minutes for (``named``: whether it
    names them; else the rulebook's own), at the paces :data:`SECONDS_PER_THROW`."""

    counts: tuple[PieceMinutes, ...]
    named: bool
    paces: tuple[float, float, float]
    seed: int


def check_game_minutes(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """Compare the minutes the claim gives with simulated lengths at the assumed paces, for
    every piece count it gives minutes for ("twenty to thirty minutes with seven pieces, and
    ten with three": the rulebook's game played with seven and with three pieces a side); a
    claim that names no count speaks of the rulebook's own."""
    rules = compile_rules(catalog.resolve(claim.variant))
    named = sorted({n for _, _, n in _claimed_ranges(claim.claim) if n is not None}, reverse=True)
    fast, _, slow = SECONDS_PER_THROW
    counts = []
    for pieces in named or [rules.pieces]:
        lengths = game_lengths_cached(rules_with_pieces(rules, pieces), settings)
        half = 1.96 * lengths.deviation / math.sqrt(lengths.finished)
        low, high = lengths.mean * fast / 60, lengths.mean * slow / 60
        stated = _claimed_minutes(claim.claim, pieces)
        fits = stated is not None and stated[0] <= high and stated[1] >= low
        verdict = (
            UNCHECKED
            if stated is None
            else CONSISTENT_WITH_ASSUMPTION
            if fits
            else NOT_CONSISTENT_WITH_ASSUMPTION
        )
        counts.append(PieceMinutes(pieces, lengths, half, stated, verdict))
    verdicts = {count.verdict for count in counts}
    verdict = (
        UNCHECKED
        if UNCHECKED in verdicts
        else NOT_CONSISTENT_WITH_ASSUMPTION
        if NOT_CONSISTENT_WITH_ASSUMPTION in verdicts
        else CONSISTENT_WITH_ASSUMPTION
    )
    finding = GameMinutes(tuple(counts), bool(named), SECONDS_PER_THROW, settings.seed)
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, finding)


_WORD_NUMBERS = {
    "ten": 10,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "five": 5,
    "fifteen": 15,
    "three": 3,
    "seven": 7,
    "five-": 5,
}


def _claimed_ranges(text: str) -> list[tuple[float, float, int | None]]:
    """The ranges of minutes the claim gives, each with the piece count it names, if any
    ("twenty to thirty minutes with seven pieces, and ten with three": (20, 30, 7) and
    (10, 10, 3))."""
    words = re.findall(r"[a-z]+|\d+", text.lower())
    values = [
        float(w) if w.isdigit() else float(_WORD_NUMBERS[w]) if w in _WORD_NUMBERS else None
        for w in words
    ]
    piece_words = {3: "three", 5: "five", 7: "seven"}
    ranges: list[tuple[float, float, int | None]] = []
    i = 0
    while i < len(words):
        low = values[i]
        if low is not None and words[i] not in piece_words.values():
            high = low
            j = i + 1
            if j + 1 < len(words) and words[j] == "to" and (top := values[j + 1]) is not None:
                high = top
                j += 2
            count = None
            for k in range(j, min(j + 6, len(words))):
                if words[k] in piece_words.values():
                    count = next(n for n, w in piece_words.items() if w == words[k])
                    break
            ranges.append((low, high, count))
            i = j
        else:
            i += 1
    return ranges


def _claimed_minutes(text: str, pieces: int) -> tuple[float, float] | None:
    """The minutes the claim gives for ``pieces`` pieces (:func:`_claimed_ranges`); the only
    range when the claim names no piece count."""
    ranges = _claimed_ranges(text)
    for low, high, count in ranges:
        if count == pieces:
            return (low, high)
    return (ranges[0][0], ranges[0][1]) if len(ranges) == 1 and ranges[0][2] is None else None
