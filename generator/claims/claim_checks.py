"""Checks of the factual claims the sources make (the ``claims`` of variant files).

Each check is computed with the rules engine or the simulator, never asserted by hand, and
returns a verdict with the numbers behind it. Exhaustive where feasible (every reachable
position of the two-piece game), sampled with 95 % Wilson or normal intervals otherwise.

Checks by name (``check:`` in a claim):

- ``dice-odds``: the odds the claim states (read from its words, "1 in 16") against the exact
  outcome table of the variant's dice.
- ``game-minutes``: simulated game length in throws, turned into minutes at an explicit
  seconds-per-throw assumption (:data:`SECONDS_PER_THROW`), at every piece count the claim
  gives minutes for.
- ``central-rosette-decides``: exactly, in perfect play, whether the side that first stands on
  the central rosette (the rosette both routes pass through) goes on to win more than the
  claim's reading of "most" (its ``reading``) of the games in which either side stands on it,
  by a forward pass over the solved game (:mod:`generator.claims.holder_wins`), with two, three
  and four pieces a side and with the rulebook's own when its full game's solve was at hand;
  beside it, the holder's chance per throw and the worth of holding the square
  (:mod:`generator.claims.rosette_worth`). The figures are committed in
  ``results/rosette-worth.json`` (:data:`WORTH_FILE`, written by ``ur-variants claims
  --write-results``), each under the key of the game and square it weighs; a build computes
  only the quick ones missing there (:data:`BUILD_PIECES`), so a cold build need not compile
  the solver.
- ``play-cannot-lock``: no reachable position where neither side can ever move (exhaustive for
  the variant's rules with two pieces a side, :data:`EXHAUSTIVE_PIECES`; sampled for its own
  piece count, including how often pieces in hand can enter).
- ``no-draw``: no move of a reachable position leaves both sides finished, from every
  reachable position a win can still be reached, and every sampled game ended with one winner.
- ``coins-same-spread``: coins thrown and heads counted against the variant's dice, exactly.
- ``tablet-route``: the variant's route and piece count against what quotations of the
  tablet (in tablet-reading rulings) say on each.

The sampled figures (greedy games' lengths, how often pieces in hand can enter) and the
exhaustive reachability tallies are committed the same way in ``results/claim-figures.json``
(:data:`FIGURES_FILE`, written by the same command), each under the key of the rules, the
engine's, simulator's and checks' versions, the games and the seed (:func:`_key`): a cold build
reads them while current and plays no games; a stale one is computed (and said so), and a
damaged file is reported and computed around.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from generator.claims.rosette_worth import HoldingWorth
from generator.engine import ENGINE_VERSION
from generator.engine.moves import apply_move, legal_moves, pass_turn, winner
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules, Side, compile_rules
from generator.model.catalog import Catalog
from generator.model.claim_words import (
    ODDS,
    coin_count,
    coin_problem,
    odds_problems,
    threshold_problem,
)
from generator.model.variant import Claim, Evidence, ResolvedVariant, Ruling, SourceKind
from generator.sim import results_files
from generator.sim.cache_files import (
    CACHE_FORMAT,
    content_key,
    read_json,
    report_damaged,
    write_json,
)
from generator.sim.records import SIM_VERSION
from generator.sim.stats import SECONDS_PER_THROW as TYPICAL_SECONDS
from generator.words import WORD_NUMBERS, number_word

if TYPE_CHECKING:
    from generator.claims.holder_wins import FirstHolder, HeldThrows
    from generator.solver.solve import Solution

CLAIMS_VERSION = 6
"""Bump when a check could give a different result for the same rules."""

SECONDS_PER_THROW = (TYPICAL_SECONDS / 2, TYPICAL_SECONDS, TYPICAL_SECONDS * 1.5)
"""Assumed seconds per throw at the table (fast, typical, slow): throwing and counting the
dice, choosing a piece and moving it. The typical pace is the simulator's
(:data:`generator.sim.stats.SECONDS_PER_THROW`); none is measured, all are stated."""

EXHAUSTIVE_PIECES = 2
"""Piece count at which reachability checks enumerate every reachable position.

Two pieces a side (tens of thousands of positions, seconds in the reference engine) keeps the
cold site build within its budget; three (527,424 positions) took about ten minutes of Python."""

Verdict = str
SUPPORTED: Verdict = "supported"
PARTLY: Verdict = "partly supported"
CONTRADICTED: Verdict = "contradicted"
UNSUPPORTED: Verdict = "unsupported"
"""The evidence named does not bear the claim out, nor show it false."""
CONSISTENT_WITH_ASSUMPTION: Verdict = "consistent with an assumed pace"
"""Only true under an assumption no source states (a pace of play): it cannot be shown false."""
NOT_CONSISTENT_WITH_ASSUMPTION: Verdict = "not consistent with any assumed pace"
UNCHECKED: Verdict = "not checkable by the engine"


@dataclass
class ClaimResult:
    """A claim's verdict and the evidence a reader needs to judge it."""

    claim: str
    variant: str
    check: str
    verdict: Verdict
    summary: str
    method: str
    numbers: dict[str, str] = field(default_factory=dict)
    exhaustive: bool = False


@dataclass(frozen=True)
class CheckSettings:
    games: int
    seed: int
    cache_dir: Path | None
    refresh: bool = False
    """Check again and replace cached tallies instead of reading them (``build --refresh``)."""
    worths: dict[str, dict[str, Any]] | None = None
    """When given, every exact worth of the central rosette a check computes is put here by its
    key, the committed ones (:data:`WORTH_FILE`) computed again: what ``ur-variants claims
    --write-results`` commits."""
    figures: dict[str, dict[str, Any]] | None = None
    """When given, every sampled figure and reachability tally a check computes is put here by
    its key, the committed ones (:data:`FIGURES_FILE`) computed again: what ``ur-variants
    claims --write-results`` commits."""
    committed: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    """The committed figures by key (:func:`committed_figures`), read while their key is
    current."""
    log: Callable[[str], None] | None = None
    """Where a stale committed figure is reported (``None``: not reported)."""
    solve_cache: Path | None = None
    """Where full games' solves are read from when ``worths`` collects figures (a full game
    is never solved by a claim check: ``ur-variants full-games`` solves it)."""


WRITE_COMMAND = "ur-variants claims --write-results"
FIGURES_FILE = results_files.RESULTS_DIR / "claim-figures.json"
FIGURES_FORMAT = 1


def committed_figures(
    path: Path = FIGURES_FILE, log: Callable[[str], None] | None = None
) -> dict[str, dict[str, Any]]:
    """The committed figures of the claim checks by key; none when the file is missing. A
    damaged file (or one of another layout) is reported through ``log`` (file, what is wrong,
    the command that writes it again) and read as empty, so the checks compute instead."""
    return _committed_section(
        path, FIGURES_FORMAT, "figures", "claim figures", "computing the claims' figures", log
    )


def _committed_section(
    path: Path,
    layout: int,
    section: str,
    what: str,
    instead: str,
    log: Callable[[str], None] | None,
) -> dict[str, dict[str, Any]]:
    """The entries of ``section`` in the committed results at ``path`` that are dicts; none
    when the file is missing. A damaged file (or one of another layout) is reported through
    ``log`` as ``what`` was not found, saying what is done ``instead`` and the command that
    writes the file again, and read as empty."""
    damaged = (
        f"damaged or not {what} of format {layout}; {instead} instead (`{WRITE_COMMAND}`"
        " writes the file again)"
    )
    found, _ = results_files.read_section(path, layout, section, damaged, log or _stderr)
    return {k: v for k, v in found.items() if isinstance(v, dict)}


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


WORTH_FILE = results_files.RESULTS_DIR / "rosette-worth.json"
WORTH_FORMAT = 1


def committed_worths(
    path: Path = WORTH_FILE, log: Callable[[str], None] | None = None
) -> dict[str, dict[str, Any]]:
    """The committed worths of the central rosette by key; none when the file is missing. A
    damaged file (or one of another layout) is reported through ``log`` and read as empty, so
    the worths are computed instead."""
    return _committed_section(
        path, WORTH_FORMAT, "worths", "rosette worths", "computing the worths", log
    )


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _percent(x: float) -> str:
    return f"{100 * x:.1f} %"


def _nearly_all(x: float) -> str:
    """A share as :func:`_percent` gives it, but never "100.0 %" when it falls short of all."""
    shown = _percent(x)
    return "more than 99.9 %" if x < 1 and shown == _percent(1) else shown


# --- dice-odds -------------------------------------------------------------------------------


def claimed_odds(text: str) -> dict[int, Fraction]:
    """Read the odds a claim states, in either order of words.

    >>> sorted(claimed_odds("a four or a zero has a 1 in 16 chance, a two 3 in 8").items())
    [(0, Fraction(1, 16)), (2, Fraction(3, 8)), (4, Fraction(1, 16))]
    >>> sorted(claimed_odds("a 1 in 4 chance of throwing a one, a 3 in 8 chance of a 2").items())
    [(1, Fraction(1, 4)), (2, Fraction(3, 8))]
    """
    matches = list(ODDS.finditer(text))
    if not matches:
        return {}
    names_first = bool(_throw_names(text[: matches[0].start()]))
    found: dict[int, Fraction] = {}
    for i, match in enumerate(matches):
        if names_first:
            segment = text[matches[i - 1].end() if i else 0 : match.start()]
        else:
            segment = text[match.end() : matches[i + 1].start() if i + 1 < len(matches) else None]
        for name in _throw_names(segment):
            found[name] = Fraction(int(match.group(1)), int(match.group(2)))
    return found


def _throw_names(segment: str) -> list[int]:
    """Throws named in words ("a four") or as lone digits ("a 2") in ``segment``."""
    names = []
    for word in re.findall(r"[a-z]+|\d+", segment.lower()):
        if word in WORD_NUMBERS:
            names.append(WORD_NUMBERS[word])
        elif word.isdigit():
            names.append(int(word))
    return names


def check_dice_odds(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    for problem in odds_problems(claim.claim):
        raise ValueError(_unreadable(catalog, claim, problem))
    rules = compile_rules(catalog.resolve(claim.variant))
    exact = dict(rules.throws)
    stated = claimed_odds(claim.claim)
    numbers = {
        f"throw {t}": f"claimed {stated.get(t, '—')}, exact {p}" for t, p in sorted(exact.items())
    }
    if not stated:
        return ClaimResult(
            claim.id,
            claim.variant,
            claim.check,
            UNCHECKED,
            "The claim's words give no odds in the form 'N in M'.",
            "",
            numbers,
        )
    wrong = {t: p for t, p in stated.items() if exact.get(t, Fraction(0)) != p}
    covered = set(stated) == {t for t, p in exact.items() if p > 0}
    verdict = SUPPORTED if not wrong and covered else (PARTLY if not wrong else CONTRADICTED)
    summary = (
        "Every stated probability equals the exact odds of the dice."
        if not wrong
        else "Stated odds differ from the exact odds for throws "
        + ", ".join(str(t) for t in sorted(wrong))
        + "."
    )
    if not wrong and not covered:
        summary += " Some throws the dice can give are not mentioned."
    method = "Exact outcome table of the variant's dice (binomial counts of the marked lots)."
    return ClaimResult(
        claim.id, claim.variant, claim.check, verdict, summary, method, numbers, True
    )


# --- simulated games -------------------------------------------------------------------------


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


def _game_lengths_cached(rules: Rules, settings: CheckSettings) -> GameLengths:
    extra = {"games": settings.games, "seed": settings.seed, "sim": SIM_VERSION}
    return _committed_or_computed(
        GameLengths,
        _key("game-lengths", rules, extra),
        lambda: game_lengths(rules, settings.games, settings.seed),
        settings,
        f"the greedy games of {rules.variant}",
    )


def check_game_minutes(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """Compare the minutes the claim gives with simulated lengths at the assumed paces, for
    every piece count it gives minutes for ("twenty to thirty minutes with seven pieces, and
    ten with three": the rulebook's game played with seven and with three pieces a side); a
    claim that names no count speaks of the rulebook's own."""
    rules = compile_rules(catalog.resolve(claim.variant))
    named = sorted({n for _, _, n in _claimed_ranges(claim.claim) if n is not None}, reverse=True)
    counts = named or [rules.pieces]
    fast, typical, slow = SECONDS_PER_THROW
    numbers: dict[str, str] = {}
    parts: list[tuple[str, str]] = []  # (verdict, what the lengths say) per piece count
    games = 0
    for pieces in counts:
        lengths = _game_lengths_cached(_with_pieces(rules, pieces), settings)
        games = lengths.finished
        mean = lengths.mean
        half = 1.96 * lengths.deviation / math.sqrt(lengths.finished)
        low, high = mean * fast / 60, mean * slow / 60
        stated = _claimed_minutes(claim.claim, pieces)
        label = f", with {_a_side(pieces)}" if len(counts) > 1 else ""
        numbers |= {
            f"games simulated (greedy against greedy){label}": f"{lengths.finished}",
            f"throws per game{label}": (
                f"{mean:.1f} ± {half:.1f} (95 %), median {lengths.median:.0f}"
            ),
            f"minutes at {fast:g} / {typical:g} / {slow:g} s per throw{label}": (
                f"{low:.0f} / {mean * typical / 60:.0f} / {high:.0f}"
            ),
            f"minutes claimed{label}": _minutes_range(stated) if stated else "none found",
        }
        said = f"{_a_side(pieces)}: {mean:.0f} throws take {low:.0f} to {high:.0f} minutes"
        if stated is None:
            parts.append((UNCHECKED, ""))
        elif stated[0] <= high and stated[1] >= low:
            parts.append((CONSISTENT_WITH_ASSUMPTION, said))
        else:
            parts.append((NOT_CONSISTENT_WITH_ASSUMPTION, said))
    verdicts = {v for v, _ in parts}
    if UNCHECKED in verdicts:
        verdict, summary = UNCHECKED, "No minutes for this piece count in the claim's words."
    else:
        verdict = (
            NOT_CONSISTENT_WITH_ASSUMPTION
            if NOT_CONSISTENT_WITH_ASSUMPTION in verdicts
            else CONSISTENT_WITH_ASSUMPTION
        )
        start = (
            "Consistent with" if verdict == CONSISTENT_WITH_ASSUMPTION else "Not consistent with"
        )
        summary = (
            f"{start} {'; with '.join(said for _, said in parts)} at {fast:g} to {slow:g}"
            " seconds a throw."
        )
    shown = " and ".join(number_word(n) for n in counts)
    method = (
        f"{games} seeded games (seed {settings.seed}), simulated"
        f"{f' with {shown} pieces a side' if named else ''}, both sides playing the greedy"
        " agent; minutes = throws × seconds per throw (an assumption, not a measurement) ÷ 60."
        " No source gives a pace, so the verdict can say only whether the claim fits the"
        " assumed paces, not whether it is true."
    )
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, summary, method, numbers)


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


def _minutes_range(stated: tuple[float, float]) -> str:
    """ "20 to 30", or "10" where the claim gives one figure."""
    low, high = stated
    return f"{low:g}" if low == high else f"{low:g} to {high:g}"


def _with_pieces(rules: Rules, pieces: int) -> Rules:
    """``rules`` with ``pieces`` a side (the solver's module only when the count changes: a
    cold build reading committed figures need not import it)."""
    if pieces == rules.pieces:
        return rules
    from generator.solver.solve import with_pieces

    return with_pieces(rules, pieces)


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


WORTH_PIECES = (2, 3)
"""Piece counts at which the worth of holding the central rosette is computed exactly (each
solve takes a second or two; four pieces take about a minute, too long for every build)."""

HOLDER_PIECES = (2, 3, 4)
"""Piece counts at which the central rosette's holders are followed through perfect games
(:mod:`generator.claims.holder_wins`) by ``ur-variants claims --write-results``, besides the
rulebook's own (from its full solve, when the solve cache holds it)."""

BUILD_PIECES = (2, 3)
"""Of those, the counts a build computes when their figures are not committed (seconds each);
the others it reads from :data:`WORTH_FILE` or leaves out."""


def central_rosettes(resolved: ResolvedVariant) -> list[str]:
    """The rosettes both routes pass through (one, the central rosette, on the usual board)."""
    return sorted(resolved.board.rosettes & resolved.route.shared_cells())


def check_central_rosette(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """The claim, as its ``reading`` takes it: in perfect play, does the side that first
    stands on the central rosette (the rosette both routes pass through) go on to win more
    than the reading's share of the games in which either side stands on it? Measured
    exactly at every piece count whose figures are at hand (:func:`_holder_figures`), the
    rulebook's own included when its full game has been followed; the verdict holds at every
    count measured, or is partly supported."""
    resolved = catalog.resolve(claim.variant)
    rules = compile_rules(resolved)
    central = central_rosettes(resolved)
    if len(central) != 1 or claim.reading is None:
        return ClaimResult(
            claim.id,
            claim.variant,
            claim.check,
            UNCHECKED,
            "No single rosette lies on both routes in this variant."
            if len(central) != 1
            else "The claim gives no reading of its words to check against.",
            "",
        )
    cell, threshold = central[0], claim.reading.threshold
    problem = threshold_problem(threshold)
    if problem is not None:
        raise ValueError(_unreadable(catalog, claim, problem))
    numbers: dict[str, str] = {}
    shares: dict[int, float] = {}
    for pieces in dict.fromkeys((*HOLDER_PIECES, rules.pieces)):
        figures = _holder_figures(rules, pieces, cell, settings)
        if figures is None:
            continue
        first, held = figures
        shares[pieces] = first.first_holder_wins
        worth = (
            _holding_worth_cached(rules, pieces, cell, settings) if pieces in WORTH_PIECES else None
        )
        numbers.update(_holder_numbers(first, held, worth))
    numbers["'decides most games' read as"] = claim.reading.reason
    above = [share > threshold for share in shares.values()]
    verdict = SUPPORTED if all(above) else CONTRADICTED if not any(above) else PARTLY
    counts = _listed([number_word(n) for n in shares])
    shown = _listed([_percent(share) for share in shares.values()])
    verdict_words = {
        SUPPORTED: f"more than {_share_words(threshold)} of them",
        CONTRADICTED: f"not more than {_share_words(threshold)} of them",
        PARTLY: f"more than {_share_words(threshold)} of them at some piece counts only",
    }
    summary = (
        f"In perfect play with {counts} pieces a side, the side that first stands on the central"
        f" rosette goes on to win {shown} of the games in which either side stands on it:"
        f" {verdict_words[verdict]}."
        + (
            ""
            if rules.pieces in shares
            else f" The claim speaks of the game with {_a_side(rules.pieces)}, which is not"
            " measured here."
        )
        + " Read more strictly, as changing who wins, it would not be borne out: holding the"
        " rosette raises its holder's chance of winning by a few points only (its worth,"
        " below)."
    )
    method = (
        "Exact, from the solved game (every position's chance of winning under perfect play),"
        " with both sides playing perfectly (of equally good moves, the first the engine lists)."
        " Starting from the opening position, the probability of every position is carried"
        " forward along the perfect moves and the odds of the throws until every game has"
        " ended. Per game: the first position in which a side has a piece on the central"
        " rosette, weighted by the probability of reaching it, and that side's chance of"
        " winning from there (which, averaged over the games, is the share of them it wins);"
        " games in which neither side ever stands on it are left out and counted apart. Per"
        " throw: every throw made while a side holds it, weighted by how often perfect play"
        " makes it, and the holder's chance of winning at it. The worth of holding it compares"
        " the holder's chance with its chance with that piece one square short of the rosette,"
        " and one square past it (the mean of the two), at positions where both neighbouring"
        " squares are empty."
    )
    return ClaimResult(
        claim.id, claim.variant, claim.check, verdict, summary, method, numbers, True
    )


def _listed(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return " and ".join(filter(None, [", ".join(items[:-1]), items[-1]]))


def _pieces_words(pieces: int) -> str:
    """A piece count in words: "two pieces"."""
    return f"{number_word(pieces)} piece{'s' * (pieces != 1)}"


def _a_side(pieces: int) -> str:
    """ "two pieces a side"."""
    return f"{_pieces_words(pieces)} a side"


def _share_words(share: float) -> str:
    """A share in words: "half", else a percentage."""
    return "half" if share == 0.5 else _percent(share)


def _holder_numbers(
    first: FirstHolder, held: HeldThrows, worth: HoldingWorth | None
) -> dict[str, str]:
    """The figures of one piece count, labelled in words."""
    side = f"with {_a_side(first.pieces)}"
    numbers = {
        f"first player wins, perfect play, {side}": f"{100 * first.first_player:.2f} %",
        f"games in which a side stands on the central rosette, {side}": _nearly_all(
            first.games_taken
        ),
        f"of those, games won by the side that stood on it first, {side}": _percent(
            first.first_holder_wins
        ),
        f"throws made while a side holds it, {side}": (
            f"{held.held_throws:.1f} of {held.expected_throws:.1f}"
            f" ({_percent(held.held_throws / held.expected_throws)})"
        ),
        f"holder's chance of winning at those throws, {side}": _percent(held.holder_wins),
    }
    if worth is not None:
        numbers[f"worth of holding it, {side}"] = (
            f"{_points(worth.worth)} ({_points(worth.worth_short)} against the piece one square"
            f" short of it, {_points(worth.worth_past)} against one square past it)"
        )
    return numbers


def _points(x: float) -> str:
    """A difference of probabilities in percentage points, signed."""
    return f"{100 * x:+.1f} points".replace("-", "\u2212")


def _holding_worth_cached(
    rules: Rules, pieces: int, cell: str, settings: CheckSettings
) -> HoldingWorth:
    from generator.claims.rosette_worth import holding_worth
    from generator.solver.solve import solve, with_pieces

    small = with_pieces(rules, pieces)
    return _committed_or_computed(
        HoldingWorth,
        _key("holding-worth", small, {"cell": cell}),
        lambda: holding_worth(solve(small, cache_dir=None), cell),
        _worth_settings(settings),
        "",  # a game not among the committed worths is solved quietly, as before
    )


def _worth_settings(settings: CheckSettings) -> CheckSettings:
    """``settings`` reading and collecting the committed figures of solved games
    (:data:`WORTH_FILE`) instead of the sampled ones."""
    return dataclasses.replace(
        settings, committed=committed_worths(log=settings.log), figures=settings.worths
    )


def _holder_figures(
    rules: Rules, pieces: int, cell: str, settings: CheckSettings
) -> tuple[FirstHolder, HeldThrows] | None:
    """The holders of ``cell`` followed through the perfect games of ``rules`` with
    ``pieces`` a side (:func:`generator.claims.holder_wins.holder_wins`): committed, else cached
    under ``.cache/claims``, else computed where that is quick (:data:`BUILD_PIECES`); or
    ``None``. When ``settings.worths`` collects figures, they are computed (a full game from
    its solve in ``settings.solve_cache``; where it is not there, its committed figures are
    kept while current) and put there."""
    from generator.claims.holder_wins import FirstHolder, HeldThrows

    game = _with_pieces(rules, pieces)
    kinds: dict[str, type[Any]] = {
        _key("first-holder", game, {"cell": cell}): FirstHolder,
        _key("held-throws", game, {"cell": cell}): HeldThrows,
    }
    settings = _worth_settings(settings)
    collecting = settings.figures is not None

    def read(source: Callable[[str], Any]) -> tuple[Any, ...] | None:
        found = tuple(_as_figure(kind, source(key)) for key, kind in kinds.items())
        return found if all(f is not None for f in found) else None

    committed = read(settings.committed.get)
    found = None if collecting else committed or read(lambda key: _load(settings, key))
    if found is None and (collecting or pieces in BUILD_PIECES):
        found = _followed(game, cell, settings)
        if found is None and collecting:
            found = committed  # the full game's solve is not at hand: keep what is committed
    if found is None:
        if settings.log is not None:
            settings.log(
                f"claims: the central rosette's holders with {_a_side(pieces)} are left out:"
                + (
                    f" no complete solve of that game is in {settings.solve_cache}"
                    if collecting
                    else f" not in {WORTH_FILE.name} as the rules stand"
                )
                + (
                    f" (`ur-variants solve {rules.variant} --pieces {pieces}` solves it, then"
                    f" `{WRITE_COMMAND}` commits them)"
                    if pieces not in HOLDER_PIECES
                    else f" (`{WRITE_COMMAND}` commits them)"
                )
            )
        return None
    for key, figure in zip(kinds, found, strict=True):
        _save(settings, key, asdict(figure))
        if settings.figures is not None:
            settings.figures[key] = asdict(figure)
    return found


def _followed(game: Rules, cell: str, settings: CheckSettings) -> tuple[Any, Any] | None:
    """:func:`generator.claims.holder_wins.holder_wins` of ``game``: a small game solved here, a
    full one read from its solve in ``settings.solve_cache`` (``None`` when not there)."""
    from generator.claims.holder_wins import holder_wins
    from generator.solver.solve import solve
    from generator.solver.solve_read import cached_solution

    if game.pieces in HOLDER_PIECES:
        solution: Solution | None = solve(game, cache_dir=None)
    else:
        cache = settings.solve_cache
        solution = cached_solution(game, cache) if cache is not None else None
    if solution is None:
        return None
    first, held, run = holder_wins(solution, cell)
    if held is None:
        raise AssertionError("the per-throw figures were asked for")
    if settings.log is not None:
        settings.log(
            f"claims: central rosette followed through {game.variant} with"
            f" {_a_side(game.pieces)}: {run.states:,} positions, {run.sweeps} sweeps,"
            f" {run.seconds:.1f} s"
        )
    return first, held


# --- reachability (exhaustive) ---------------------------------------------------------------


@dataclass(frozen=True)
class Reachability:
    positions: int
    deadlocks: int
    """Positions where neither side has a legal move for any throw."""
    drawn_moves: int
    """Moves (or passes) after which both sides have borne off every piece."""
    unending: int
    """Unfinished positions from which no throws and moves lead to a side's win."""
    no_move_pairs: int
    pairs: int
    """(position, positive throw) pairs with no legal move, and all such pairs."""
    hand_blocked: int
    hand_pairs: int
    """Pairs where the mover has pieces in hand and cannot enter one, and all pairs with
    pieces in hand."""


def reachability(rules: Rules) -> Reachability:
    """Every position reachable from the start under ``rules`` (depth-first, with the engine).

    Legal moves are generated once per position and throw and reused for the tallies. A game
    ends at the first position in which a side has borne off every piece; it would be drawn if
    a move ended it with both sides finished, or if it could never end. So each move's result
    is looked at as it is generated, before any winner is declared (a rule under which one move
    finishes both sides is counted, :attr:`Reachability.drawn_moves`), and the positions from
    which a win can be reached are found by searching back from the moves that win, along the
    moves of throws that can happen; the rest are :attr:`Reachability.unending`.
    """
    start = start_position(rules)
    seen: set[Position] = {start}
    stack = [start]
    keys = ("deadlocks", "drawn", "no_move", "pairs", "hand", "hand_pairs")
    tally = dict.fromkeys(keys, 0)
    moving = {t for t, p in rules.throws if t > 0 and p > 0}
    before: dict[Position, list[Position]] = {}
    """The unfinished positions a position is reached from, by a throw that can happen."""
    winning: set[Position] = set()
    """Positions with a move that ends the game with one side finished."""
    unfinished = 0
    while stack:
        position = stack.pop()
        if _finished(rules, position):
            continue
        unfinished += 1
        in_hand = 0 in position.pieces(position.to_move)
        can_move = False
        for throw, chance in rules.throws:
            moves = legal_moves(rules, position, throw)
            if throw in moving:
                tally["pairs"] += 1
                tally["no_move"] += not moves
                can_move = can_move or bool(moves)
                if in_hand:
                    tally["hand_pairs"] += 1
                    tally["hand"] += not any(m.start == 0 for m in moves if not m.is_pass)
            following = (
                [apply_move(rules, position, m, throw) for m in moves]
                if moves
                else [pass_turn(rules, position, throw)]
            )
            for after in following:
                done = _finished(rules, after)
                tally["drawn"] += done == 2
                if chance > 0 and done == 1:
                    winning.add(position)
                elif chance > 0 and not done:
                    before.setdefault(after, []).append(position)
                if after not in seen:
                    seen.add(after)
                    stack.append(after)
        if not can_move:
            other = Position(position.light, position.dark, position.to_move.other)
            if not any(legal_moves(rules, other, t) for t in moving):
                tally["deadlocks"] += 1
    can_end, frontier = set(winning), list(winning)
    while frontier:
        for earlier in before.get(frontier.pop(), ()):
            if earlier not in can_end:
                can_end.add(earlier)
                frontier.append(earlier)
    return Reachability(
        positions=len(seen),
        deadlocks=tally["deadlocks"],
        drawn_moves=tally["drawn"],
        unending=unfinished - len(can_end),
        no_move_pairs=tally["no_move"],
        pairs=tally["pairs"],
        hand_blocked=tally["hand"],
        hand_pairs=tally["hand_pairs"],
    )


def _finished(rules: Rules, position: Position) -> int:
    """How many sides have borne off every piece in ``position``."""
    return sum(all(p == rules.off for p in position.pieces(side)) for side in Side)


def _reachability_cached(rules: Rules, settings: CheckSettings) -> Reachability:
    return _committed_or_computed(
        Reachability,
        _key("reachability", rules, {}),
        lambda: reachability(rules),
        settings,
        f"the positions of {rules.variant} with {_a_side(rules.pieces)}",
    )


def _small(rules: Rules) -> Rules:
    from generator.solver.solve import with_pieces

    return with_pieces(rules, min(EXHAUSTIVE_PIECES, rules.pieces))


ALMOST_ALWAYS = 0.9
"""We read "pieces in hand can almost always enter" as: at least nine moving throws in ten at
which the side to move has a piece in hand let one enter (the whole 95 % interval above it)."""

ENTRY_GAMES = 300
"""Uniformly random games, in the reference engine, sampled for how often pieces in hand can
enter in the variant's own game (the exhaustive count covers only the small game)."""


def entry_blocked_sampled(rules: Rules, games: int, seed: int) -> tuple[int, int]:
    """(throws that enter no piece, throws) over the moving throws of seeded random games at
    which the side to move has a piece in hand, played with the reference engine."""
    rng = random.Random(seed)
    outcomes = [throw for throw, _ in rules.throws]
    weights = [float(p) for _, p in rules.throws]
    blocked = pairs = 0
    for _ in range(games):
        position = start_position(rules)
        while winner(rules, position) is None:
            throw = rng.choices(outcomes, weights)[0]
            moves = legal_moves(rules, position, throw)
            if throw > 0 and 0 in position.pieces(position.to_move):
                pairs += 1
                blocked += not any(m.start == 0 for m in moves if not m.is_pass)
            position = (
                apply_move(rules, position, rng.choice(moves), throw)
                if moves
                else pass_turn(rules, position, throw)
            )
    return blocked, pairs


def _entry_blocked_cached(rules: Rules, settings: CheckSettings) -> tuple[int, int]:
    extra = {"games": ENTRY_GAMES, "seed": settings.seed}
    tally = _committed_or_computed(
        EntryTally,
        _key("entry-blocked", rules, extra),
        lambda: EntryTally(*entry_blocked_sampled(rules, ENTRY_GAMES, settings.seed)),
        settings,
        f"the random games of {rules.variant}",
    )
    return tally.blocked, tally.throws


@dataclass(frozen=True)
class EntryTally:
    """Moving throws with a piece in hand that enter none, and all such throws."""

    blocked: int
    throws: int


def check_play_cannot_lock(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    rules = compile_rules(catalog.resolve(claim.variant))
    small = _small(rules)
    found = _reachability_cached(small, settings)
    ended = _game_lengths_cached(rules, settings).finished
    no_move = found.no_move_pairs / found.pairs
    blocked, hand_throws = _entry_blocked_cached(rules, settings)
    every, small_game = _a_side(rules.pieces), _a_side(small.pieces)
    low, high = wilson(blocked, hand_throws)
    numbers = {
        f"reachable positions, with {small_game}": f"{found.positions:,}",
        "positions where neither side can ever move": f"{found.deadlocks}",
        f"positive throws with no legal move, with {small_game}": (
            f"{_percent(no_move)} of position-throw pairs"
        ),
        f"positive throws with pieces in hand that enter none, with {every}": (
            f"{_percent(blocked / hand_throws if hand_throws else 0.0)} of {hand_throws:,}"
            f" (95 %: {_percent(low)} to {_percent(high)}; {ENTRY_GAMES} random games)"
        ),
        f"games with {every} that ended (greedy, sampled)": f"{ended} of {settings.games}",
    }
    unlocked = found.deadlocks == 0 and ended == settings.games
    enters = 1 - high >= ALMOST_ALWAYS
    verdict = CONTRADICTED if not unlocked else SUPPORTED if enters else PARTLY
    summary = (
        f"{found.deadlocks} reachable positions are locked."
        if not unlocked
        else f"No reachable position of the game with {small_game} is locked,"
        f" and every sampled game with {every} ended"
        + (
            "; pieces in hand can enter on at least nine throws in ten."
            if enters
            else f"; but with {every}, pieces in hand enter on only about"
            f" {_percent(1 - blocked / hand_throws)} of moving throws in random play, not"
            " almost always."
        )
    )
    method = (
        f"Every position reachable from the start with {small_game}, enumerated"
        f" one by one (exhaustive); {settings.games} seeded greedy games with"
        f" {every}, simulated (sampled); how often pieces in hand can"
        f" enter, in {ENTRY_GAMES} seeded games with {every} and moves chosen"
        " at random (sampled)."
    )
    return ClaimResult(
        claim.id, claim.variant, claim.check, verdict, summary, method, numbers, True
    )


def check_no_draw(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """A draw would be a game ending with both sides finished, or one that could never end:
    looked for in every move of every reachable position of the small game
    (:func:`reachability`: no move may leave both sides finished, and from every position some
    throws and moves must lead to a win), and in the sampled full games (each must end with
    one winner)."""
    rules = compile_rules(catalog.resolve(claim.variant))
    small = _small(rules)
    found = _reachability_cached(small, settings)
    ended = _game_lengths_cached(rules, settings).finished
    every, small_game = _a_side(rules.pieces), _a_side(small.pieces)
    numbers = {
        f"reachable positions, with {small_game}": f"{found.positions:,}",
        "moves after which both sides have finished": f"{found.drawn_moves}",
        "reachable positions from which neither side can ever win": f"{found.unending}",
        f"sampled games with {every} with one winner": f"{ended} of {settings.games}",
    }
    faults = [
        f"{found.drawn_moves} moves leave both sides finished" if found.drawn_moves else "",
        f"from {found.unending} reachable positions neither side can ever win"
        if found.unending
        else "",
        f"{settings.games - ended} sampled games did not end" if ended < settings.games else "",
    ]
    faults = [fault for fault in faults if fault]
    summary = (
        f"A draw is possible: {'; '.join(faults)}."
        if faults
        else f"No move of any reachable position of the game with {small_game} leaves both"
        " sides finished, and from every one of them the game can still be won; every sampled"
        f" game with {every} ended with one winner."
    )
    method = (
        f"Exhaustive over the reachable positions of the game with {small_game}: every move"
        " of every throw is played and its result looked at before the game is declared over,"
        " and the positions from which a win can be reached are found by searching back from"
        f" the winning moves. Then {settings.games} simulated games with {every}."
    )
    verdict = CONTRADICTED if faults else SUPPORTED
    return ClaimResult(
        claim.id, claim.variant, claim.check, verdict, summary, method, numbers, True
    )


def tablet_evidence(catalog: Catalog, question: str) -> list[tuple[str, Any, Ruling]]:
    """(reading id, value, ruling) for each tablet reading whose ruling on ``question`` quotes a
    tablet-reading source (the tablet's words as Finkel or a witness gives them). A ruling whose
    tablet citations carry no quote, or that rests on other sources, is no evidence of what the
    tablet says, however it is encoded."""
    found = []
    for reading in catalog.variants.values():
        if reading.kind is not SourceKind.TABLET_READING:
            continue
        ruling = catalog.resolve(reading.id).rulings.get(question)
        if ruling is None or ruling.evidence not in (Evidence.STATED, Evidence.IMPLIED):
            continue
        if any(
            c.quote and catalog.sources[c.source].kind is SourceKind.TABLET_READING
            for c in ruling.sources
        ):
            found.append((reading.id, ruling.value, ruling))
    return found


def _part_verdict(claimed: Any, evidence: list[tuple[str, Any, Ruling]]) -> Verdict:
    if not evidence:
        return UNSUPPORTED
    return SUPPORTED if all(value == claimed for _, value, _ in evidence) else CONTRADICTED


def check_tablet_route(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """The claim's route and piece count against what the tablet's own words, as quoted by a
    tablet-reading source, say on each: supported where they agree, contradicted where they
    differ, unsupported where no quote of the tablet speaks to the point."""
    resolved = catalog.resolve(claim.variant)
    parts = {}
    numbers = {}
    routes = catalog.equipment.routes

    def shown(question: str, value: Any) -> str:
        return routes[value].title if question == "route" else _pieces_words(value)

    for question, label in (("route", "route"), ("pieces", "piece count")):
        evidence = tablet_evidence(catalog, question)
        parts[label] = _part_verdict(resolved.value(question), evidence)
        numbers[f"{label}: this rulebook"] = shown(question, resolved.value(question))
        quoted = {ruling.id: shown(question, value) for _, value, ruling in evidence}
        numbers[f"{label}: the tablet, quoted"] = (
            "; ".join(sorted(set(quoted.values()))) or "no quoted words of the tablet on this point"
        )
        numbers[f"{label}: verdict"] = parts[label]
    verdicts = set(parts.values())
    verdict = (
        CONTRADICTED
        if CONTRADICTED in verdicts
        else UNSUPPORTED
        if UNSUPPORTED in verdicts
        else SUPPORTED
    )
    summary = (
        f"The route is {parts['route']} and the piece count {parts['piece count']} by the"
        " tablet's words as quoted: "
        + (
            "no quotation of the tablet gives a route (the route played for it is Finkel's"
            " proposal, on another board); "
            if parts["route"] == UNSUPPORTED
            else ""
        )
        + (
            "the tablet, as Finkel is quoted, gives each player five different pieces."
            if parts["piece count"] == CONTRADICTED
            else "the piece count agrees."
            if parts["piece count"] == SUPPORTED
            else "no quotation of the tablet gives a piece count."
        )
    )
    method = (
        "For the route and the piece count, the rulings of every tablet reading whose evidence is"
        " stated or implied by a quotation from a source that reads the tablet (Finkel, or a writer"
        " quoting him); encodings with no such quotation, such as a route drawn from a later"
        " summary, count as no evidence."
    )
    return ClaimResult(
        claim.id, claim.variant, claim.check, verdict, summary, method, numbers, True
    )


def check_coins_spread(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """Coins thrown and heads counted against the variant's dice, outcome by outcome, exactly.
    The number of coins is the first number word of the claim ("Four coins ...")."""
    coins = coin_count(claim.claim)
    if coins is None:
        raise ValueError(_unreadable(catalog, claim, coin_problem(claim.claim) or ""))
    rules = compile_rules(catalog.resolve(claim.variant))
    spread = {k: Fraction(math.comb(coins, k), 2**coins) for k in range(coins + 1)}
    dice = {throw: Fraction(p) for throw, p in rules.throws if p > 0}
    same = spread == dice

    def table(odds: dict[int, Fraction]) -> str:
        return ", ".join(f"{throw}: {odds[throw]}" for throw in sorted(odds))

    named = number_word(coins)
    numbers = {f"{named} coins, heads counted": table(spread), "this rulebook's dice": table(dice)}
    summary = (
        f"Exactly the same: {named} coins give every throw with the chance the dice give it."
        if same
        else f"Not the same: {named} coins and the dice give different chances."
    )
    method = (
        "Exact fractions: the chance of k heads in n fair coins, C(n, k) / 2^n, against the"
        " rulebook's dice table, throw by throw. The dice table itself rests on the rulebook's"
        " dice ruling (how often each die falls marked)."
    )
    return ClaimResult(
        claim.id,
        claim.variant,
        claim.check,
        SUPPORTED if same else CONTRADICTED,
        summary,
        method,
        numbers,
        True,
    )


CHECKS: dict[str, Callable[[Catalog, Claim, CheckSettings], ClaimResult]] = {
    "dice-odds": check_dice_odds,
    "game-minutes": check_game_minutes,
    "central-rosette-decides": check_central_rosette,
    "play-cannot-lock": check_play_cannot_lock,
    "no-draw": check_no_draw,
    "tablet-route": check_tablet_route,
    "coins-same-spread": check_coins_spread,
}


def _unreadable(catalog: Catalog, claim: Claim, problem: str) -> str:
    """The error of a claim whose numbers a check cannot read (the catalogue's own check,
    :func:`generator.model.claim_words.check_claim_numbers`, reports it with its line when
    the file loads; a claim made elsewhere reaches the check unchecked)."""
    variant = catalog.variants.get(claim.variant)
    where = f"{variant.path}: " if variant is not None else ""
    return f"{where}claim {claim.id}: {problem}"


def check_claim(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """The claim's verdict; an unknown check name is an error naming the known ones."""
    check = CHECKS.get(claim.check)
    if check is None:
        raise ValueError(
            f"claim {claim.id}: unknown check {claim.check!r}; known: {', '.join(sorted(CHECKS))}"
        )
    return check(catalog, claim, settings)


# --- cache -----------------------------------------------------------------------------------


def _key(kind: str, rules: Rules, extra: dict[str, Any]) -> str:
    from generator.solver.solve import rules_key

    payload = {
        "kind": kind,
        "rules": rules_key(rules, 0.0),
        "engine": ENGINE_VERSION,
        "claims": CLAIMS_VERSION,
        **extra,
    }
    return content_key(payload)


Figure = TypeVar("Figure")


def _committed_or_computed(
    kind: type[Figure],
    key: str,
    compute: Callable[[], Figure],
    settings: CheckSettings,
    what: str,
) -> Figure:
    """A check's figure (a dataclass ``kind``) under ``key``: the committed one
    (``settings.committed``; the key names everything that decides it, so it is current),
    else the one cached under ``.cache/claims``, else computed and cached. A figure not
    committed is reported through ``settings.log`` (``what`` it is, and the command that
    commits it). When ``settings.figures`` collects figures, the committed ones are not read
    and every figure is put there."""
    if settings.figures is None:
        committed = _as_figure(kind, settings.committed.get(key))
        if committed is not None:
            return committed
        if settings.log is not None and what:
            settings.log(
                f"claims: {what} are not in {FIGURES_FILE.name} as the rules stand; computing"
                f" them (`{WRITE_COMMAND}` commits them)"
            )
    cached = _load(settings, key)
    result = _as_figure(kind, cached)
    if result is None:
        if cached is not None:
            report_damaged(settings.cache_dir or Path(), f"entry {key} is not a {kind.__name__}")
        result = compute()
        _save(settings, key, asdict(result))  # type: ignore[call-overload]
    if settings.figures is not None:
        settings.figures[key] = asdict(result)  # type: ignore[call-overload]
    return result


def _as_figure(kind: type[Figure], payload: Any) -> Figure | None:
    """``payload`` as a ``kind`` when it is exactly its fields, each a number; else ``None``."""
    names = {f.name for f in fields(kind)}  # type: ignore[arg-type]
    if not isinstance(payload, dict) or set(payload) != names:
        return None
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in payload.values())
    return kind(**payload) if numbers else None


def _cache_path(settings: CheckSettings, key: str) -> Path | None:
    if settings.cache_dir is None:
        return None
    return settings.cache_dir / f"{key}.v{CACHE_FORMAT}.json"


def _load(settings: CheckSettings, key: str) -> dict[str, Any] | None:
    """The cached payload for ``key``, or ``None`` when missing or damaged (reported)."""
    path = _cache_path(settings, key)
    payload = read_json(path) if path is not None and not settings.refresh else None
    return payload if isinstance(payload, dict) else None


def _save(settings: CheckSettings, key: str, data: dict[str, Any]) -> None:
    path = _cache_path(settings, key)
    if path is not None:
        write_json(path, data)
