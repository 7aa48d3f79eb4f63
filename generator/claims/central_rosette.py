"""``central-rosette-decides``: in perfect play, does the side that first stands on the central
rosette go on to win "most" games, as the claim's ``reading`` takes it? Followed exactly
through the solved game (:mod:`generator.claims.holder_wins`), with the holder's chance per
throw and the worth of holding the square (:mod:`generator.claims.rosette_worth`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from generator.claims.figures import (
    WORTH_FILE,
    WRITE_COMMAND,
    as_figure,
    committed_or_computed,
    committed_worths,
    figure_key,
    load_figure,
    save_figure,
)
from generator.claims.rosette_worth import HoldingWorth
from generator.claims.verdicts import (
    CONTRADICTED,
    PARTLY,
    SUPPORTED,
    UNCHECKED,
    CheckSettings,
    ClaimResult,
    a_side,
    nearly_all,
    percent,
    rules_with_pieces,
    unreadable,
)
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.claim_words import threshold_problem
from generator.model.variant import Claim, ResolvedVariant
from generator.words import listing, number_word

if TYPE_CHECKING:
    from generator.claims.holder_wins import FirstHolder, HeldThrows
    from generator.solver.solution import Solution

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
        raise ValueError(unreadable(catalog, claim, problem))
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
    counts = listing([number_word(n) for n in shares])
    shown = listing([percent(share) for share in shares.values()])
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
            else f" The claim speaks of the game with {a_side(rules.pieces)}, which is not"
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


def _share_words(share: float) -> str:
    """A share in words: "half", else a percentage."""
    return "half" if share == 0.5 else percent(share)


def _holder_numbers(
    first: FirstHolder, held: HeldThrows, worth: HoldingWorth | None
) -> dict[str, str]:
    """The figures of one piece count, labelled in words."""
    side = f"with {a_side(first.pieces)}"
    numbers = {
        f"first player wins, perfect play, {side}": f"{100 * first.first_player:.2f} %",
        f"games in which a side stands on the central rosette, {side}": nearly_all(
            first.games_taken
        ),
        f"of those, games won by the side that stood on it first, {side}": percent(
            first.first_holder_wins
        ),
        f"throws made while a side holds it, {side}": (
            f"{held.held_throws:.1f} of {held.expected_throws:.1f}"
            f" ({percent(held.held_throws / held.expected_throws)})"
        ),
        f"holder's chance of winning at those throws, {side}": percent(held.holder_wins),
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
    return committed_or_computed(
        HoldingWorth,
        figure_key("holding-worth", small, {"cell": cell}),
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

    game = rules_with_pieces(rules, pieces)
    kinds: dict[str, type[Any]] = {
        figure_key("first-holder", game, {"cell": cell}): FirstHolder,
        figure_key("held-throws", game, {"cell": cell}): HeldThrows,
    }
    settings = _worth_settings(settings)
    collecting = settings.figures is not None

    def read(source: Callable[[str], Any]) -> tuple[Any, ...] | None:
        found = tuple(as_figure(kind, source(key)) for key, kind in kinds.items())
        return found if all(f is not None for f in found) else None

    committed = read(settings.committed.get)
    found = None if collecting else committed or read(lambda key: load_figure(settings, key))
    if found is None and (collecting or pieces in BUILD_PIECES):
        found = _followed(game, cell, settings)
        if found is None and collecting:
            found = committed  # the full game's solve is not at hand: keep what is committed
    if found is None:
        if settings.log is not None:
            settings.log(
                f"claims: the central rosette's holders with {a_side(pieces)} are left out:"
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
        save_figure(settings, key, asdict(figure))
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
            f" {a_side(game.pieces)}: {run.states:,} positions, {run.sweeps} sweeps,"
            f" {run.seconds:.1f} s"
        )
    return first, held
