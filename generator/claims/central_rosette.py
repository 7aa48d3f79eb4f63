"""``central-rosette-decides``: in perfect play, does the side that first stands on the central
rosette go on to win "most" games, as the claim's ``reading`` takes it? Followed exactly
through the solved game (:mod:`generator.claims.holder_wins`), with the holder's chance per
throw and the worth of holding the square (:mod:`generator.claims.rosette_worth`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import asdict, dataclass
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
from generator.claims.rosette_worth import FirstHolder, HeldThrows, HoldingWorth
from generator.claims.verdicts import (
    CONTRADICTED,
    PARTLY,
    SUPPORTED,
    UNCHECKED,
    CheckSettings,
    ClaimResult,
    a_side,
    rules_with_pieces,
    unreadable,
)
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.claim_words import threshold_problem
from generator.model.variant import Claim, ResolvedVariant

if TYPE_CHECKING:
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


@dataclass(frozen=True)
class HolderCount:
    """The central rosette's holders followed through the perfect games of one piece count
    (with the worth of holding it, where computed: :data:`WORTH_PIECES`)."""

    first: FirstHolder
    held: HeldThrows
    worth: HoldingWorth | None


@dataclass(frozen=True)
class CentralRosette:
    """Every piece count measured, against the claim's reading of "most" (``threshold``,
    and its ``reason`` as the claim gives it); ``None`` counts where the variant has no single
    central rosette or the claim no reading (``single``: whether the variant has one)."""

    counts: tuple[HolderCount, ...]
    threshold: float
    reason: str
    own_pieces: int
    single: bool = True

    @property
    def own_measured(self) -> bool:
        return any(count.first.pieces == self.own_pieces for count in self.counts)


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
        finding = CentralRosette((), 0.0, "", rules.pieces, len(central) == 1)
        return ClaimResult(claim.id, claim.variant, claim.check, UNCHECKED, finding)
    cell, threshold = central[0], claim.reading.threshold
    problem = threshold_problem(threshold)
    if problem is not None:
        raise ValueError(unreadable(catalog, claim, problem))
    counts = []
    for pieces in dict.fromkeys((*HOLDER_PIECES, rules.pieces)):
        figures = _holder_figures(rules, pieces, cell, settings)
        if figures is None:
            continue
        first, held = figures
        worth = (
            _holding_worth_cached(rules, pieces, cell, settings) if pieces in WORTH_PIECES else None
        )
        counts.append(HolderCount(first, held, worth))
    finding = CentralRosette(tuple(counts), threshold, claim.reading.reason, rules.pieces)
    above = [count.first.first_holder_wins > threshold for count in counts]
    verdict = SUPPORTED if all(above) else CONTRADICTED if not any(above) else PARTLY
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, finding, True)


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
