"""Everything the site needs from simulation, for every variant with ``simulate: true``.

- Baseline: random against random, :data:`BASELINE_GAMES` games (the first player's 95%
  interval is then at most ±0.5 percentage points).
- Sensitivity: for every engine question on which the simulated variants disagree, each
  variant with that one ruling changed to each value another variant uses (and to each reading
  the question asks to measure, its ``measure`` in questions.yml), when the changed game is
  still valid and the new answer fits the rest of the rulebook
  (:func:`generator.model.checks.answer_problems`); effects on the first player's win rate
  and the mean number of throws.
  Each changed run has :data:`SENSITIVITY_GAMES` games, the fewest that keep every effect's
  95% interval on the win rate within ±:data:`EFFECT_HALF_WIDTH` (see
  :func:`games_for_effect`).

All runs share one seed (common random numbers: a change's effect is measured on the same
dice). Records are committed (``results/simulation-suite.json``,
:mod:`generator.sim.suite_results`, read while a run's key is there) and cached
(:mod:`generator.sim.records`), so a cold build of a commit whose rules are recorded and a
warm rerun play nothing; otherwise no game is played twice (a changed variant that plays
like another variant reuses that variant's first games).

Each agent against random (the rulebook pages' tables of players and the skill gap) is not
played here: it is the agents' check, 50,000 games a seat, committed and read by the
measurement layer (:mod:`generator.solver.agent_check`, :mod:`generator.measure.agents`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from generator.model.catalog_contents import Catalog
from generator.model.play_checks import PlayProblem, answer_problems
from generator.model.variant import ResolvedVariant
from generator.sim.agents import FastAgent
from generator.sim.records import DEFAULT_CACHE, DEFAULT_SEED, Played, RecordSpec, simulate
from generator.sim.stats import Z95, difference
from generator.sim.suite_results import RESULTS_FILE, WRITE_COMMAND, Committed
from generator.sim.variation import (
    Change,
    alternatives,
    canonical,
    play_problem,
    with_change,
)

BASELINE_GAMES = 40_000
EFFECT_HALF_WIDTH = 0.02
"""The precision target of a sensitivity effect on the first player's win rate: its 95%
interval (baseline and changed run, half-widths in quadrature) is at most ±2 points."""


def games_for_effect(half_width: float, baseline_games: int) -> int:
    """The fewest games of a changed run that keep the effect's 95% interval within
    ±``half_width`` in the worst case (a win rate of one half in both runs)."""
    baseline_half = Z95 * 0.5 / math.sqrt(baseline_games)
    if baseline_half >= half_width:
        raise ValueError(f"the baseline alone is wider than ±{half_width}: play more games")
    changed_half = math.sqrt(half_width**2 - baseline_half**2)
    return math.ceil((Z95 * 0.5 / changed_half) ** 2)


SENSITIVITY_GAMES = games_for_effect(EFFECT_HALF_WIDTH, BASELINE_GAMES)
RANDOM = FastAgent.RANDOM.label

Record = dict[str, Any]


@dataclass(frozen=True)
class Effect:
    """The measured effect of one ruling change on one variant (random against random)."""

    question: str
    variant: str
    change: Change
    baseline: Record
    changed: Record
    same_game: bool
    """The change does not alter play at all (identical compiled rules): effect exactly 0."""
    exact: Any = None
    """Its exact evaluation at fewer pieces, when known
    (:class:`generator.solver.exact_effects.EffectRecord`, joined by the measurement layer)."""
    full: Any = None
    """Its exact effect on the full game under perfect play, where both full games are solved
    (:class:`generator.solver.full_games.FullEffect`, joined by the measurement layer)."""
    significance: Any = None
    """How far each figure stands from zero among every change measured
    (:class:`generator.measure.effects.Judged`, joined by the measurement layer)."""

    @property
    def win_rate(self) -> dict[str, float]:
        """Change in the first player's win rate (changed minus baseline), with interval."""
        a = self.baseline["results"]["first_player_win_rate"]
        b = self.changed["results"]["first_player_win_rate"]
        return difference(a, b, "estimate")

    @property
    def throws(self) -> dict[str, float]:
        """Change in the mean number of throws per game, with interval."""
        return difference(
            self.baseline["results"]["throws"], self.changed["results"]["throws"], "mean"
        )


@dataclass(frozen=True)
class Skipped:
    """A one-ruling change the engine cannot play, and why."""

    variant: str
    change: Change
    problem: PlayProblem
    changed: ResolvedVariant | None
    """The changed rulebook, when the new value fits the question at all."""

    @property
    def reason(self) -> str:
        """Why, for the data's author (a page words ``problem`` for readers)."""
        return self.problem.message


@dataclass
class Suite:
    """The records a page renderer iterates: by variant, by pairing, by question."""

    seed: int
    variants: list[str]
    baseline: dict[str, Record] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    committed_by: dict[str, Any] | None = None
    """Who wrote the committed records the build read (command, commit, date, machine);
    ``None`` when it read none."""
    uncommitted: list[str] = field(default_factory=list)
    """Rulebooks with runs not among the committed records, simulated (or read from the
    cache) in this build."""

    def records(self) -> Iterator[Record]:
        """Every record, each once."""
        seen: set[str] = set()
        groups: list[list[Record]] = [list(self.baseline.values())]
        groups += [[e.changed] for e in self.effects]
        for group in groups:
            for record in group:
                if record["key"] not in seen:
                    seen.add(record["key"])
                    yield record

    def by_variant(self, variant: str) -> list[Record]:
        return [r for r in self.records() if r["variant"] == variant]

    def by_question(self) -> dict[str, list[Effect]]:
        grouped: dict[str, list[Effect]] = {}
        for effect in self.effects:
            grouped.setdefault(effect.question, []).append(effect)
        return grouped


def simulated_variants(catalog: Catalog) -> list[ResolvedVariant]:
    return [catalog.resolve(v.id) for v in catalog.variants.values() if v.simulate]


def sensitivity_changes(
    catalog: Catalog, variants: list[ResolvedVariant]
) -> Iterator[tuple[ResolvedVariant, Change, ResolvedVariant | Skipped]]:
    """(variant, change, changed variant or why it cannot be played)."""
    for question, values in alternatives(catalog, variants).items():
        for variant in variants:
            if question not in variant.rulings:
                continue
            own = canonical(variant.value(question))
            for value in values:
                if canonical(value) == own:
                    continue
                change = Change(question, value)
                try:
                    changed = with_change(variant, change, catalog.equipment)
                except (KeyError, ValueError) as error:
                    malformed = PlayProblem(question, "malformed-value", str(error))
                    yield variant, change, Skipped(variant.id, change, malformed, None)
                    continue
                if any(q == question for q, _ in answer_problems(changed.machine_values())):
                    continue  # the question does not arise here, or does and needs an answer
                problem = play_problem(changed)
                refused = problem and Skipped(variant.id, change, problem, changed)
                yield variant, change, refused or changed


def playable_changes(
    catalog: Catalog,
) -> Iterator[tuple[ResolvedVariant, Change, ResolvedVariant]]:
    """Every one-ruling change of a simulated rulebook that the engine can play: (rulebook,
    change, changed rulebook). The exact effects and the full-game effects are computed for
    these, the others are reported where they are measured (:func:`sensitivity_changes`)."""
    for variant, change, changed in sensitivity_changes(catalog, simulated_variants(catalog)):
        if isinstance(changed, ResolvedVariant):
            yield variant, change, changed


def report_uncommitted(
    specs: list[RecordSpec], committed: Mapping[str, Record], log: Callable[[str], None] | None
) -> list[str]:
    """The rulebooks with runs that are not among the committed records (their rules, games
    or seed changed since the file was written, or they are new), named in ``log`` with how
    to refresh the file."""
    missing = [spec for spec in specs if spec.key not in committed]
    books: dict[str, int] = {}
    for spec in missing:
        books[spec.variant.id] = books.get(spec.variant.id, 0) + 1
    if books and log:
        named = ", ".join(f"{book} ({runs} run{'s' * (runs > 1)})" for book, runs in books.items())
        log(
            f"simulation suite: {len(missing)} of {len(specs)} runs are not in"
            f" results/{RESULTS_FILE.name} (their rules, games or seed changed, or they are"
            f" new); simulating them unless .cache/sim has them: {named}. `{WRITE_COMMAND}`"
            " records them"
        )
    return sorted(books)


@dataclass(frozen=True)
class SuitePlan:
    """The runs the suite plays (:func:`plan_runs`), before any is read or simulated."""

    variants: list[ResolvedVariant]
    baseline: list[RecordSpec]
    """Each simulated rulebook's run, random against random, :data:`BASELINE_GAMES` games."""
    changed: list[tuple[ResolvedVariant, Change, RecordSpec]]
    """Each one-ruling change that alters play, with its run."""
    unchanged_play: list[tuple[ResolvedVariant, Change]]
    """The changes whose rules play exactly as the rulebook's own (an effect of zero)."""
    skipped: list[Skipped]

    @property
    def specs(self) -> list[RecordSpec]:
        """Every run, baselines first: the records the site reads."""
        return self.baseline + [spec for _, _, spec in self.changed]


def plan_runs(catalog: Catalog, seed: int = DEFAULT_SEED) -> SuitePlan:
    """The baseline and sensitivity runs of every simulated rulebook (see the module
    docstring): cheap, rules are compiled and keyed, no game is played."""
    variants = simulated_variants(catalog)
    baseline = [RecordSpec(v, (RANDOM, RANDOM), BASELINE_GAMES, seed) for v in variants]
    changes = list(sensitivity_changes(catalog, variants))
    base_of = {spec.variant.id: spec for spec in baseline}
    runnable: list[tuple[ResolvedVariant, Change, RecordSpec]] = []
    unchanged_play: list[tuple[ResolvedVariant, Change]] = []
    for variant, change, changed in changes:
        if isinstance(changed, Skipped):
            continue
        spec = RecordSpec(changed, (RANDOM, RANDOM), SENSITIVITY_GAMES, seed, (change,))
        if np.array_equal(spec.packed, base_of[variant.id].packed):
            unchanged_play.append((variant, change))
        else:
            runnable.append((variant, change, spec))
    skipped = [x for _, _, x in changes if isinstance(x, Skipped)]
    return SuitePlan(variants, baseline, runnable, unchanged_play, skipped)


def default_suite(
    catalog: Catalog,
    *,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    cache_dir: Path = DEFAULT_CACHE,
    progress: bool = False,
    use_cache: bool = True,
    log: Callable[[str], None] | None = None,
    committed: Committed | None = None,
) -> Suite:
    """Run (or read from the cache) every random-against-random run the site needs; see the
    module docstring. With ``committed`` (records by key, :mod:`generator.sim.suite_results`),
    a run whose key is there is read from it, and the runs that are not are named in ``log``
    before they are simulated (or read from the cache)."""
    plan = plan_runs(catalog, seed)
    variants, base_specs, runnable = plan.variants, plan.baseline, plan.changed
    suite = Suite(seed=seed, variants=[v.id for v in variants])
    played: Played = {}
    known = committed.records if committed is not None else {}

    def run(specs: list[RecordSpec], label: str) -> list[Record]:
        if log:
            log(f"{label}: {len(specs)} runs")
        return simulate(
            specs,
            cache_dir=cache_dir,
            jobs=jobs,
            progress=progress,
            use_cache=use_cache,
            label=label,
            played=played,
            known=known,
        )

    if committed is not None:
        suite.uncommitted = report_uncommitted(plan.specs, known, log)
        suite.committed_by = committed.made_by or None
    first = run(plan.specs, "baseline, sensitivity")
    base_records = first[: len(base_specs)]
    changed_records = first[len(base_specs) :]
    for variant, record in zip(variants, base_records, strict=True):
        suite.baseline[variant.id] = record
    for (variant, change, _), record in zip(runnable, changed_records, strict=True):
        suite.effects.append(
            Effect(
                question=change.question,
                variant=variant.id,
                change=change,
                baseline=suite.baseline[variant.id],
                changed=record,
                same_game=False,
            )
        )
    for variant, change in plan.unchanged_play:
        base = suite.baseline[variant.id]
        suite.effects.append(Effect(change.question, variant.id, change, base, base, True))
    suite.skipped = plan.skipped
    return suite
