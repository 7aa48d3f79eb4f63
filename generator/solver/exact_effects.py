"""Exact effects of one-ruling changes, and exact skill, at the piece counts solvable here.

The sensitivity runs (:func:`generator.sim.suite.sensitivity_changes`) replay every simulated
rulebook with one ruling changed and measure the effect with sampled random games. Here the
same changes are evaluated exactly (:mod:`generator.solver.policy_eval`): the first player's
chance and the expected throws under perfect play and under random play, changed minus
unchanged, with fewer pieces a side than the full game (:func:`pieces_for`: the most, up to
:data:`EXACT_PIECES`, for which both games have at most
:data:`generator.solver.policy_eval.DEFAULT_MAX_STATES` positions: three on the 14- and
16-square routes, two on the 27-square routes and where pieces have their own entry rules).
An effect is zero when its size is below :data:`generator.solver.policy_eval.ZERO_EFFECT`.

Each rulebook's own figures at 1 to :data:`EXACT_PIECES` pieces give the exact skill measure:
the perfect player's chance against a random one, both seats.

Too slow for every build (about half an hour of one core), the results are committed in
``results/exact-effects.json`` with the command, commit, date and machine that produced them;
``ur-variants exact`` recomputes them (each game's figures cached under ``.cache/exact``).
The build only reads the file, and uses a record only while its rules still match the
catalogue (:func:`current_records`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.variant import ResolvedVariant
from generator.sim import results_files
from generator.sim.variation import Change, canonical
from generator.solver.policy_eval import (
    DEFAULT_CACHE,
    DEFAULT_MAX_STATES,
    TOLERANCE,
    ZERO_EFFECT,
    ExactFigures,
    exact_figures,
)
from generator.solver.solve import game_key, rules_key, with_pieces
from generator.solver.solve_estimate import estimate
from generator.solver.solve_space import colour_symmetric, entry_groups

EXACT_PIECES = 3
"""The most pieces a side evaluated exactly (the issue asks at least three where they fit)."""

RESULTS_FORMAT = 1
RESULTS_FILE = results_files.RESULTS_DIR / "exact-effects.json"

FIGURES = ("perfect_first", "perfect_throws", "random_first", "random_throws")
"""The figures an effect compares (see :class:`generator.solver.policy_eval.ExactFigures`)."""


@functools.cache
def fingerprint(rules: Rules) -> str:
    """The rules' content key (:func:`generator.solver.solve.rules_key`), remembered: many
    changes share their unchanged game."""
    return rules_key(rules, TOLERANCE)


def positions(rules: Rules) -> int:
    """How many positions the exact evaluation of ``rules`` visits (counted, not solved).

    The count depends only on where pieces can stand (the routes, the pieces and their entry
    groups, the stacking limit) and on whether one colour's table serves both; many changes
    share those, so counts are remembered by them."""
    shape = (
        rules.cells,
        rules.pieces,
        rules.stack_limit,
        tuple(len(group) for group in entry_groups(rules)),
        colour_symmetric(rules),
    )
    if shape not in _positions:
        _positions[shape] = estimate(rules).states
    return _positions[shape]


_positions: dict[tuple[Any, ...], int] = {}


def pieces_for(rules: Iterable[Rules], max_states: int = DEFAULT_MAX_STATES) -> int | None:
    """The most pieces a side, up to :data:`EXACT_PIECES`, at which every one of ``rules``
    has at most ``max_states`` positions; ``None`` when not even one piece fits."""
    games = list(rules)
    for pieces in range(min(EXACT_PIECES, *(r.pieces for r in games)), 0, -1):
        if all(positions(with_pieces(r, pieces)) <= max_states for r in games):
            return pieces
    return None


@dataclass(frozen=True)
class EffectRecord:
    """One rulebook with one ruling changed, evaluated exactly (or why not)."""

    variant: str
    question: str
    value: Any
    pieces: int | None
    baseline_key: str | None
    changed_key: str | None
    baseline: ExactFigures | None
    changed: ExactFigures | None
    reason: str | None = None
    """Why no exact figures: the change shows only with more pieces than are solvable."""
    games: tuple[str, str] | None = dataclasses.field(default=None, compare=False)
    """The games the two rulebooks play at ``pieces`` (:func:`generator.solver.solve.game_key`,
    the rules' effect, not their wording): rulebooks worded differently whose change makes
    the same game of the same game share them. Found when read against the catalogue
    (:func:`current_records`), not stored."""

    @property
    def change(self) -> Change:
        return Change(self.question, self.value)

    def effect(self, figure: str) -> float | None:
        """Changed minus unchanged ``figure``; ``None`` when either is unknown or unbounded."""
        if self.baseline is None or self.changed is None:
            return None
        before, after = getattr(self.baseline, figure), getattr(self.changed, figure)
        if before is None or after is None:
            return None
        return float(after - before)

    def is_zero(self, figure: str) -> bool:
        """The exact effect on ``figure`` is zero (below :data:`ZERO_EFFECT`)."""
        effect = self.effect(figure)
        return effect is not None and abs(effect) < ZERO_EFFECT

    @property
    def changes_the_game(self) -> bool | None:
        """Some exact figure moves (``None`` when nothing was evaluated)."""
        if self.baseline is None or self.changed is None:
            return None
        return not all(self.is_zero(figure) for figure in FIGURES)

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "question": self.question,
            "value": self.value,
            "pieces": self.pieces,
            "baseline_key": self.baseline_key,
            "changed_key": self.changed_key,
            "baseline": self.baseline.as_dict() if self.baseline else None,
            "changed": self.changed.as_dict() if self.changed else None,
            "reason": self.reason,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> EffectRecord:
        def figures(value: Any) -> ExactFigures | None:
            return ExactFigures.from_dict(value) if value else None

        return EffectRecord(
            variant=data["variant"],
            question=data["question"],
            value=data["value"],
            pieces=data["pieces"],
            baseline_key=data["baseline_key"],
            changed_key=data["changed_key"],
            baseline=figures(data["baseline"]),
            changed=figures(data["changed"]),
            reason=data["reason"],
        )


@dataclass(frozen=True)
class Planned:
    """What to evaluate for one change: the two games at ``pieces`` (or why not)."""

    variant: str
    change: Change
    pieces: int | None
    baseline: Rules | None
    changed: Rules | None
    reason: str | None


def plan(catalog: Catalog, max_states: int = DEFAULT_MAX_STATES) -> list[Planned]:
    """Every playable one-ruling change of the sensitivity runs, with the games to evaluate."""
    from generator.sim.suite import playable_changes

    return [
        _plan_one(variant, change, changed, max_states)
        for variant, change, changed in playable_changes(catalog)
    ]


def _plan_one(
    variant: ResolvedVariant, change: Change, changed: ResolvedVariant, max_states: int
) -> Planned:
    full = compile_rules(variant), compile_rules(changed)
    pieces = pieces_for(full, max_states)
    if pieces is None:
        return Planned(variant.id, change, None, None, None, "no piece count small enough")
    small = with_pieces(full[0], pieces), with_pieces(full[1], pieces)
    differs = fingerprint(full[0]) != fingerprint(full[1])
    if differs and fingerprint(small[0]) == fingerprint(small[1]):
        return Planned(
            variant.id,
            change,
            pieces,
            None,
            None,
            f"with {pieces} pieces a side the two games are the same; the change shows only"
            " in the full game",
        )
    return Planned(variant.id, change, pieces, small[0], small[1], None)


def rulebook_games(
    catalog: Catalog, max_states: int = DEFAULT_MAX_STATES
) -> dict[str, list[Rules]]:
    """Each simulated rulebook at 1 to :data:`EXACT_PIECES` pieces, as far as they fit."""
    from generator.sim.suite import simulated_variants

    games: dict[str, list[Rules]] = {}
    for variant in simulated_variants(catalog):
        rules = compile_rules(variant)
        most = pieces_for([rules], max_states) or 0
        games[variant.id] = [with_pieces(rules, n) for n in range(1, most + 1)]
    return games


def _evaluate_one(rules: Rules, cache_dir: Path | None, max_states: int) -> ExactFigures:
    return exact_figures(rules, cache_dir=cache_dir, max_states=max_states)


def evaluate_all(
    games: Iterable[Rules],
    *,
    jobs: int = 1,
    cache_dir: Path | None = DEFAULT_CACHE,
    max_states: int = DEFAULT_MAX_STATES,
    log: Callable[[str], None] | None = None,
) -> dict[str, ExactFigures]:
    """The figures of every distinct game (by rule content), keyed by
    :func:`generator.solver.solve.rules_key`; ``jobs`` processes."""
    unique = {fingerprint(rules): rules for rules in games}
    done: dict[str, ExactFigures] = {}
    order = sorted(unique, key=lambda key: positions(unique[key]))
    if jobs <= 1:
        for i, key in enumerate(order):
            done[key] = _evaluate_one(unique[key], cache_dir, max_states)
            if log:
                log(f"{i + 1}/{len(order)} {unique[key].variant}: {done[key].cpu_seconds:.1f} s")
        return done
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {
            key: pool.submit(_evaluate_one, unique[key], cache_dir, max_states) for key in order
        }
        for i, (key, future) in enumerate(futures.items()):
            done[key] = future.result()
            if log:
                log(f"{i + 1}/{len(order)} {unique[key].variant}: {done[key].cpu_seconds:.1f} s")
    return done


def measure(
    catalog: Catalog,
    *,
    jobs: int = 1,
    cache_dir: Path | None = DEFAULT_CACHE,
    max_states: int = DEFAULT_MAX_STATES,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Evaluate every change and every rulebook; the results file's content (without its
    provenance, :func:`provenance`)."""
    planned = plan(catalog, max_states)
    books = rulebook_games(catalog, max_states)
    games = [g for p in planned for g in (p.baseline, p.changed) if g is not None]
    games += [g for listed in books.values() for g in listed]
    figures = evaluate_all(games, jobs=jobs, cache_dir=cache_dir, max_states=max_states, log=log)

    def key(rules: Rules | None) -> str | None:
        return fingerprint(rules) if rules is not None else None

    effects = [
        EffectRecord(
            variant=p.variant,
            question=p.change.question,
            value=p.change.value,
            pieces=p.pieces,
            baseline_key=key(p.baseline),
            changed_key=key(p.changed),
            baseline=figures[k] if (k := key(p.baseline)) else None,
            changed=figures[k] if (k := key(p.changed)) else None,
            reason=p.reason,
        )
        for p in planned
    ]
    return {
        "max_states": max_states,
        "most_pieces": EXACT_PIECES,
        "tolerance": TOLERANCE,
        "zero": ZERO_EFFECT,
        "cpu_seconds": sum(f.cpu_seconds for f in figures.values()),
        "games": len(figures),
        "rulebooks": {
            vid: [
                {
                    "key": fingerprint(rules),
                    **figures[fingerprint(rules)].as_dict(),
                }
                for rules in listed
            ]
            for vid, listed in books.items()
        },
        "effects": [e.as_dict() for e in effects],
    }


def read_results(path: Path = RESULTS_FILE) -> dict[str, Any] | None:
    """The committed results, or ``None`` when missing, damaged or of another layout."""
    return results_files.read_results(path, RESULTS_FORMAT)


def summary(results: dict[str, Any], largest: int = 8) -> list[str]:
    """The results in a few lines: how many effects are not zero, and the largest ones."""
    records = [EffectRecord.from_dict(data) for data in results["effects"]]
    evaluated = [r for r in records if r.changes_the_game is not None]
    moving = [r for r in evaluated if r.changes_the_game]
    lines = [
        f"changes: {len(records)}, evaluated exactly: {len(evaluated)}, not evaluated:"
        f" {len(records) - len(evaluated)}",
        f"changes the game (an exact effect of at least {results['zero']:g}): {len(moving)};"
        f" exactly zero: {len(evaluated) - len(moving)}",
    ]
    for figure in ("perfect_first", "random_first"):
        nonzero = [r for r in evaluated if not r.is_zero(figure) and r.effect(figure) is not None]
        lines.append(f"not zero on {figure}: {len(nonzero)}; largest:")
        for r in sorted(nonzero, key=lambda r: -abs(r.effect(figure) or 0.0))[:largest]:
            lines.append(
                f"  {r.variant} {r.change.label} ({r.pieces} pieces):"
                f" {100 * (r.effect(figure) or 0.0):+.4f} points"
            )
    lines.append(
        f"games evaluated: {results['games']}, {results['cpu_seconds']:.0f} s of processor time"
    )
    return lines


def committed_figures(results: dict[str, Any] | None) -> dict[str, ExactFigures]:
    """Every rulebook game's figures in the committed results, by its rules' fingerprint
    (:func:`fingerprint`): a game is found only while its rules are those that were computed."""
    if results is None:
        return {}
    names = {f.name for f in dataclasses.fields(ExactFigures)}
    return {
        entry["key"]: ExactFigures.from_dict({k: v for k, v in entry.items() if k in names})
        for listed in results["rulebooks"].values()
        for entry in listed
    }


def current_rulebooks(catalog: Catalog, results: dict[str, Any]) -> dict[str, list[ExactFigures]]:
    """Each simulated rulebook's committed figures at 1, 2, ... pieces a side, up to the first
    piece count whose rules changed since the run (its figures and those above are left out)."""
    found = committed_figures(results)
    current: dict[str, list[ExactFigures]] = {}
    for vid, listed in sorted(results["rulebooks"].items()):
        if vid not in catalog.variants:
            continue
        rules = compile_rules(catalog.resolve(vid))
        kept = []
        for entry in listed:
            if entry["key"] != fingerprint(with_pieces(rules, entry["pieces"])):
                break
            kept.append(found[entry["key"]])
        current[vid] = kept
    return current


def current_records(catalog: Catalog, results: dict[str, Any]) -> Iterator[EffectRecord]:
    """The results' effects whose games still are the catalogue's: the same change of a
    simulated rulebook, and the same rules at the recorded piece count. A ruling changed since
    the run drops its records until ``ur-variants exact`` runs again. Cheap: rules are
    compiled and fingerprinted, not evaluated."""
    from generator.sim.suite import playable_changes

    changes = {
        (variant.id, canonical(change.as_dict())): (variant, changed)
        for variant, change, changed in playable_changes(catalog)
    }
    for data in results["effects"]:
        record = EffectRecord.from_dict(data)
        found = changes.get((record.variant, canonical(record.change.as_dict())))
        if found is None or record.pieces is None:
            continue
        if record.reason is not None:
            yield record
            continue
        small = [with_pieces(compile_rules(game), record.pieces) for game in found]
        if (fingerprint(small[0]), fingerprint(small[1])) == (
            record.baseline_key,
            record.changed_key,
        ):
            games = (game_key(small[0], TOLERANCE), game_key(small[1], TOLERANCE))
            yield dataclasses.replace(record, games=games)


__all__ = [
    "EXACT_PIECES",
    "RESULTS_FILE",
    "EffectRecord",
    "committed_figures",
    "current_records",
    "current_rulebooks",
    "measure",
    "pieces_for",
    "plan",
    "read_results",
    "summary",
]
