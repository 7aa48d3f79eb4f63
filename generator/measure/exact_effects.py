"""Exact one-ruling effects, exact skill and the fitted agent's fits, as a measurement that
reads committed results (``results/``) and computes nothing.

``ur-variants exact`` (:mod:`generator.solver.exact_effects`) and ``ur-variants agents``
(:mod:`generator.solver.fitted_agent`) write the files; they take too long for every build. A
record whose rules no longer match the catalogue is left out (and counted), so a changed
ruling never shows an old figure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.engine.rules import compile_rules
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.suite import Effect
from generator.sim.variation import canonical
from generator.solver import agent_check, exact_effects, fitted_agent
from generator.solver.exact_effects import EffectRecord, current_records, current_rulebooks
from generator.solver.policy_eval import TOLERANCE
from generator.solver.policy_eval import ExactFigures as ExactFigures  # the pages read it here
from generator.solver.solve import game_key, with_pieces

PROVENANCE = ("command", "commit", "date", "machine", "wall_seconds")


@dataclass(frozen=True)
class ExactEffects:
    """The committed exact results that still match the catalogue."""

    by_change: dict[tuple[str, str, str], EffectRecord] = field(default_factory=dict)
    """(rulebook id, question, canonical value) -> its exact record."""
    rulebooks: dict[str, list[ExactFigures]] = field(default_factory=dict)
    """Each simulated rulebook's exact figures at 1, 2, ... pieces a side."""
    provenance: dict[str, Any] = field(default_factory=dict)
    stale: int = 0
    """Committed records left out because the rules changed since they were computed."""
    fits: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each rulebook's committed fit of the fitted agent (:mod:`generator.solver.fitted_agent`),
    only where it was fitted to the rules the rulebook has now."""
    fits_provenance: dict[str, Any] = field(default_factory=dict)
    game_evaluated: dict[str, str] = field(default_factory=dict)
    """Each rulebook's game at the most pieces it was evaluated with
    (:func:`generator.solver.solve.game_key` of its last :attr:`rulebooks` entry): rulebooks
    worded differently, or with other pieces, that play one game there share it."""

    def of(self, effect: Effect) -> EffectRecord | None:
        """The exact record of a sampled effect, when there is one."""
        return self.by_change.get((effect.variant, effect.question, canonical(effect.change.value)))

    @property
    def records(self) -> list[EffectRecord]:
        return list(self.by_change.values())

    def moving(self, figure: str) -> list[EffectRecord]:
        """The records whose exact effect on ``figure`` is known and not zero."""
        return [r for r in self.records if r.effect(figure) is not None and not r.is_zero(figure)]

    def largest(self, figure: str, count: int = 10) -> list[EffectRecord]:
        """The records with the largest exact effect on ``figure``, largest first."""
        moving = self.moving(figure)
        return sorted(moving, key=lambda r: (-abs(r.effect(figure) or 0.0), r.variant))[:count]

    def largest_games(self, figure: str, count: int = 10) -> list[list[EffectRecord]]:
        """The ``count`` largest exact effects on ``figure``, largest first, each as the
        records of every rulebook that plays it: rulebooks worded differently that play one
        game, changed the same way into one game (:attr:`EffectRecord.games`), show one
        effect, not one row each."""
        groups: dict[tuple[object, ...], list[EffectRecord]] = {}
        for record in self.largest(figure, len(self.records)):
            game = record.games or record.variant  # not read against the catalogue: alone
            groups.setdefault((game, record.question, canonical(record.value)), []).append(record)
        return list(groups.values())[:count]

    def counts(self) -> dict[str, int]:
        """How many changes were evaluated, move some exact figure, are exactly zero, show
        only in the full game (a change of the number of pieces), and move the first
        player's chance under perfect play (``first_perfect``) and under random play
        (``first_random``)."""
        evaluated = [r for r in self.records if r.changes_the_game is not None]
        moving = sum(bool(r.changes_the_game) for r in evaluated)
        return {
            "changes": len(self.records),
            "evaluated": len(evaluated),
            "moving": moving,
            "zero": len(evaluated) - moving,
            "full_game_only": sum(r.reason is not None for r in self.records),
            "first_perfect": len(self.moving("perfect_first")),
            "first_random": len(self.moving("random_first")),
        }

    def skill_games(self, order: list[str]) -> list[list[str]]:
        """The rulebooks of ``order`` with exact figures, those that play one game at the
        piece count they were evaluated with together (:attr:`game_evaluated`), each group
        where its first rulebook stands: the exact-skill table's rows."""
        groups: dict[str, list[str]] = {}
        for vid in order:
            if self.rulebooks.get(vid):
                groups.setdefault(self.game_evaluated.get(vid, vid), []).append(vid)
        return list(groups.values())

    def pieces_by_route(self) -> dict[int, list[str]]:
        """Rulebook ids by the most pieces a side evaluated exactly."""
        grouped: dict[int, list[str]] = {}
        for vid, listed in sorted(self.rulebooks.items()):
            if listed:
                grouped.setdefault(listed[-1].pieces, []).append(vid)
        return grouped

    def fitted_rows(self, checked: dict[str, Any] | None) -> list[dict[str, Any]]:
        """Per rulebook with a current fit: the fit (exact figures at its piece count), perfect
        play's exact figures at that piece count (``perfect``: from the exact effects, ``None``
        where they do not hold it) and, when ``checked`` (the agents' check,
        :class:`generator.measure.agents.AgentScores`), the fitted agent's full-size score
        against random and against the best simple agent."""
        checked = checked or {"scores": {}, "fitted_v_best": {}}
        rows = []
        for vid, entry in sorted(self.fits.items()):
            fit = fitted_agent.Fit.from_dict({k: v for k, v in entry.items() if k != "variants"})
            listed = self.rulebooks.get(vid, [])
            rows.append(
                {
                    "variant": vid,
                    "fit": fit,
                    "perfect": next((f for f in listed if f.pieces == fit.pieces), None),
                    "v_random": checked["scores"].get(vid, {}).get(agent_check.FITTED),
                    "v_best": checked.get("fitted_v_best", {}).get(vid),
                }
            )
        return rows


def current_fits(catalog: Catalog) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The committed fits by rulebook, those fitted to its present rules, and their
    provenance."""
    committed = fitted_agent.read_fits()
    if committed is None:
        return {}, {}
    fits = {}
    for variant in catalog.variants.values():
        if not variant.simulate:
            continue
        key = fitted_agent.fingerprint(compile_rules(catalog.resolve(variant.id)))
        if key in committed["fits"]:
            fits[variant.id] = committed["fits"][key]
    return fits, {key: committed[key] for key in PROVENANCE}


def read_exact_effects(catalog: Catalog, settings: Settings) -> ExactEffects:
    """The committed results, current records only (none when the file is missing)."""
    results = exact_effects.read_results()
    fits, fits_provenance = current_fits(catalog)
    if results is None:
        settings.log("no exact effects: results/exact-effects.json is missing; ur-variants exact")
        return ExactEffects(fits=fits, fits_provenance=fits_provenance)
    current = list(current_records(catalog, results))
    stale = len(results["effects"]) - len(current)
    if stale:
        settings.log(
            f"exact effects: {stale} records left out, their rules changed since"
            f" {results['date']}; ur-variants exact recomputes them"
        )
    rulebooks = current_rulebooks(catalog, results)
    return ExactEffects(
        by_change={(r.variant, r.question, canonical(r.value)): r for r in current},
        rulebooks=rulebooks,
        game_evaluated=games_evaluated(catalog, rulebooks),
        provenance={key: results[key] for key in PROVENANCE},
        stale=stale,
        fits=fits,
        fits_provenance=fits_provenance,
    )


def games_evaluated(catalog: Catalog, rulebooks: dict[str, list[ExactFigures]]) -> dict[str, str]:
    """Each rulebook's game at the most pieces evaluated (:attr:`ExactEffects.game_evaluated`)."""
    return {
        vid: game_key(
            with_pieces(compile_rules(catalog.resolve(vid)), listed[-1].pieces), TOLERANCE
        )
        for vid, listed in rulebooks.items()
        if listed
    }


def figure_problems(figures: ExactFigures) -> list[str]:
    """Chances outside 0..1, lengths below one throw, a perfect player losing to random."""
    problems = []
    chances = ("perfect_first", "random_first", "perfect_moving_first", "perfect_moving_second")
    for name in chances:
        if not 0 <= getattr(figures, name) <= 1:
            problems.append(f"{name} {getattr(figures, name)} is not a chance")
    for name in ("perfect_throws", "random_throws"):
        value = getattr(figures, name)
        if value is not None and not value >= 1:
            problems.append(f"{name} {value} is under one throw")
    if figures.skill < 0.5 - 1e-9:
        problems.append(f"the perfect player beats random only {figures.skill:.3f} of the time")
    return problems


def exact_effect_problems(exact: ExactEffects) -> list[str]:
    problems = []
    for record in exact.records:
        for figures in (record.baseline, record.changed):
            if figures is not None:
                where = f"exact effect of {record.change.label} on {record.variant}"
                problems += [f"{where}: {p}" for p in figure_problems(figures)]
    for vid, listed in exact.rulebooks.items():
        for figures in listed:
            found = figure_problems(figures)
            problems += [f"exact {vid} with {figures.pieces} pieces: {p}" for p in found]
    return problems


def with_exact(effects: Sequence[Effect], exact: ExactEffects | None) -> list[Effect]:
    """The sampled effects, each carrying its exact record (:attr:`Effect.exact`)."""
    if exact is None:
        return list(effects)
    return [dataclasses.replace(e, exact=exact.of(e)) for e in effects]


EXACT_EFFECTS = Step("exact effects", read_exact_effects, exact_effect_problems)
