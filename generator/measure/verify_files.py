"""How each results file's records are computed again for :func:`generator.measure.verify.verify`
(:data:`FILES`): the simulation suite, the exact effects, the fits, the agents against random,
the full games, the central rosette's worths and the claims' figures, each as the command that
wrote it computes it (same functions, rules, games and seed; nothing read from a cache).
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.claims import claim_checks
from generator.claims.figures import (
    FIGURES_FILE,
    FIGURES_FORMAT,
    WORTH_FILE,
    WORTH_FORMAT,
    WRITE_COMMAND,
)
from generator.claims.game_minutes import GameLengths
from generator.claims.reachability import EntryTally, Reachability
from generator.claims.rosette_worth import HoldingWorth
from generator.claims.verdicts import CheckSettings
from generator.engine.rules import Rules, compile_rules
from generator.measure.core import Settings
from generator.measure.verify_figures import (
    Figure,
    Tolerance,
    compare,
    compare_places,
    exact_tolerance,
    fit_tolerance,
    sampled_tolerance,
)
from generator.model.catalog_contents import Catalog
from generator.model.variant import ResolvedVariant
from generator.sim import suite_results as suite_file
from generator.sim.records import DEFAULT_SEED, RecordSpec, simulate
from generator.sim.suite import plan_runs, simulated_variants
from generator.solver import agent_check, exact_effects, fitted_agent, full_games
from generator.solver.policy_eval import DEFAULT_MAX_STATES, exact_figures


@dataclass(frozen=True)
class Candidate:
    """A committed record the build reads, and how to compute it again."""

    key: str
    """How the file files it (a rulebook id where it files by rulebook)."""
    label: str
    """What it is, in a few words."""
    seconds: float
    """Processor time its computation took when it was written (or an estimate of it)."""
    recompute: Callable[[], list[Figure]]
    published: Callable[[], list[Figure]] | None = None
    """Its figures against values published elsewhere: a check that computes nothing."""


@dataclass(frozen=True)
class FileCheck:
    """A results file's records the build reads, and how many more it holds that it does not
    (their rules changed since they were written, or they fail the file's own checks)."""

    candidates: list[Candidate]
    unread: int = 0


@dataclass
class Workspace:
    """What one verification shares: the catalogue, a folder for the records it simulates
    (never the project's caches), and the claims' figures, computed once for two files."""

    catalog: Catalog
    scratch: Path
    _claims: tuple[dict[str, Any], dict[str, Any]] | None = None
    claims_seconds: float = 0.0
    """Processor time of the claims' pass (:meth:`claims_pass`)."""

    def claims_pass(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Every claim checked as ``ur-variants claims --write-results --no-cache`` checks
        them: the central rosette's worths and the other figures, by key."""
        if self._claims is None:
            began = time.process_time()
            build = Settings(cache_root=self.scratch)  # the build's games and seed
            settings = CheckSettings(build.claim_games, build.seed, None, worths={}, figures={})
            for variant in self.catalog.variants.values():
                for claim in variant.claims:
                    claim_checks.check_claim(self.catalog, claim, settings)
            assert settings.worths is not None and settings.figures is not None
            self._claims = (settings.worths, settings.figures)
            self.claims_seconds = time.process_time() - began
        return self._claims


# --- one function a file ---------------------------------------------------------------------


def check_suite(work: Workspace, data: dict[str, Any]) -> FileCheck:
    """``simulation-suite.json``: each record the suite asks for by its key, played again."""
    records = data["records"]
    specs = {spec.key: spec for spec in plan_runs(work.catalog).specs}
    candidates = []
    for key, record in sorted(records.items()):
        spec = specs.get(key)
        if spec is None or suite_file.record_problem(key, record) is not None:
            continue
        change = f", {spec.changes[0].label}" if spec.changes else ""
        candidates.append(
            Candidate(
                key,
                f"{spec.variant.id}{change}, {spec.games:,} games",
                float(record.get("elapsed_seconds", 0.0)),
                functools.partial(_replay, work, spec, record),
            )
        )
    return FileCheck(candidates, len(records) - len(candidates))


def _replay(work: Workspace, spec: RecordSpec, committed: dict[str, Any]) -> list[Figure]:
    again = simulate([spec], cache_dir=work.scratch, use_cache=False, label="verify")[0]
    return compare(committed, again, sampled_tolerance)


def check_exact(work: Workspace, data: dict[str, Any]) -> FileCheck:
    """``exact-effects.json``: each game the command evaluates (by its rules' fingerprint),
    evaluated again and compared with every place the file keeps its figures."""
    max_states = int(data.get("max_states", DEFAULT_MAX_STATES))
    games: dict[str, Rules] = {}
    for planned in exact_effects.plan(work.catalog, max_states):
        for rules in (planned.baseline, planned.changed):
            if rules is not None:
                games[exact_effects.fingerprint(rules)] = rules
    for listed in exact_effects.rulebook_games(work.catalog, max_states).values():
        games.update({exact_effects.fingerprint(rules): rules for rules in listed})
    places: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for vid, entries in data["rulebooks"].items():
        for entry in entries:
            places.setdefault(entry["key"], []).append((f"{vid} alone", entry))
    for effect in data["effects"]:
        for side in ("baseline", "changed"):
            key = effect[f"{side}_key"]
            if key is not None and effect[side] is not None:
                where = f"{effect['variant']} {side} of {effect['question']}"
                places.setdefault(key, []).append((where, effect[side]))
    candidates = [
        Candidate(
            key,
            f"{games[key].variant} with {games[key].pieces} pieces a side"
            + f", kept in {len(found)} places" * (len(found) > 1),
            max(float(figures.get("cpu_seconds", 0.0)) for _, figures in found),
            functools.partial(_evaluate, games[key], found, max_states),
        )
        for key, found in sorted(places.items())
        if key in games
    ]
    return FileCheck(candidates, len(places) - len(candidates))


def _evaluate(
    rules: Rules, places: list[tuple[str, dict[str, Any]]], max_states: int
) -> list[Figure]:
    again = exact_figures(rules, cache_dir=None, max_states=max_states).as_dict()
    return compare_places(places, again, exact_tolerance)


def check_fits(work: Workspace, data: dict[str, Any]) -> FileCheck:
    """``fitted-agent.json``: each fit a simulated rulebook plays with, fitted again."""
    fits = data["fits"]
    games: dict[str, Rules] = {}
    for variant in simulated_variants(work.catalog):
        rules = compile_rules(variant)
        games.setdefault(fitted_agent.fingerprint(rules), rules)
    candidates = [
        Candidate(
            key,
            f"{', '.join(entry.get('variants', []))}, fitted with {entry.get('pieces')} pieces",
            float(entry.get("cpu_seconds", 0.0)),
            functools.partial(_fit, games[key], entry),
        )
        for key, entry in sorted(fits.items())
        if key in games
    ]
    return FileCheck(candidates, len(fits) - len(candidates))


def _fit(rules: Rules, committed: dict[str, Any]) -> list[Figure]:
    again = fitted_agent.cached_fit(rules, cache_dir=None).as_dict()
    figures = {k: v for k, v in committed.items() if k != "variants"}
    return compare(figures, again, fit_tolerance)


def check_agents(work: Workspace, data: dict[str, Any]) -> FileCheck:
    """``agents-vs-random.json``: each agent's score on a rulebook whose fingerprint is
    current (as the build reads them), and the fitted agent against the best simple one,
    played again."""
    games, seed = data["games_a_seat"], data["seed"]
    duel_games = data.get("head_to_head_games_a_seat", games)
    if (games, seed) != (agent_check.CHECK_GAMES, DEFAULT_SEED):
        return FileCheck([], len(data["scores"]))  # the build measures every rulebook again
    entries = sum(len(by_agent) for by_agent in data["scores"].values())
    played = entries * 2 * games + len(data.get("fitted_v_best", {})) * 2 * duel_games
    per_game = float(data.get("cpu_seconds", 0.0)) / max(1, played)
    candidates = []
    for variant in simulated_variants(work.catalog):
        rules = compile_rules(variant)
        if data["fingerprints"].get(variant.id) != agent_check.fingerprint(rules, games, seed):
            continue
        for agent, entry in sorted(data["scores"].get(variant.id, {}).items()):
            candidates.append(
                Candidate(
                    f"{variant.id}/{agent}",
                    f"{agent} against random, {games:,} games a seat",
                    per_game * 2 * games,
                    functools.partial(_seats, work, variant, agent, games, seed, entry),
                )
            )
        duel = data.get("fitted_v_best", {}).get(variant.id)
        if duel is not None:
            candidates.append(
                Candidate(
                    f"{variant.id}/fitted-v-best",
                    f"fitted against {duel['rival']}, {duel_games:,} games a seat",
                    per_game * 2 * duel_games,
                    functools.partial(_seats, work, variant, None, duel_games, seed, duel),
                )
            )
    kept = entries + len(data.get("fitted_v_best", {}))
    return FileCheck(candidates, kept - len(candidates))


def _seats(
    work: Workspace,
    variant: ResolvedVariant,
    agent: str | None,
    games: int,
    seed: int,
    committed: dict[str, Any],
) -> list[Figure]:
    """An agent's two runs against random (``agent``), or the fitted agent's against its
    rival (``agent`` ``None``), played again and scored as the command scores them."""
    if agent is None:
        specs = agent_check.seat_specs(variant, agent_check.FITTED, committed["rival"], games, seed)
        runs = simulate(specs, cache_dir=work.scratch, use_cache=False, label="verify")
        again = agent_check.duel_entry(committed["rival"], *runs)
    else:
        specs = agent_check.seat_specs(variant, agent, agent_check.RANDOM, games, seed)
        runs = simulate(specs, cache_dir=work.scratch, use_cache=False, label="verify")
        again = agent_check.score_entry(*runs)
    return compare(committed, again, sampled_tolerance)


FULL_GAME_FIGURES = ("pieces", "states", "first_player", "expected_throws")


def check_full_games(work: Workspace, data: dict[str, Any]) -> FileCheck:
    """``full-games.json``: each current solved record, solved again as the command solves it
    (no checkpoints); the figures a seven-piece solve took hours for are also compared with
    the values published for them, which costs nothing."""
    games = full_games.full_games(work.catalog)
    found = full_games.status(games, data)
    candidates = [
        Candidate(
            vid,
            f"{record.pieces} pieces a side, {record.states:,} positions"
            + (f", the game of {record.same_game_as}" if record.same_game_as else ""),
            record.cpu_seconds,
            functools.partial(_solve, vid, games[vid], record),
            functools.partial(_published, record) if record.published else None,
        )
        for vid, record in sorted(found.solved.items())
    ]
    return FileCheck(candidates, len(data["solved"]) - len(candidates))


def _solve(vid: str, rules: Rules, record: full_games.FullGame) -> list[Figure]:
    again = full_games.solve_full_game(vid, rules, provenance=lambda _: {}, cache_dir=None)
    committed = {name: getattr(record, name) for name in FULL_GAME_FIGURES}
    return compare(committed, again.as_dict(), exact_tolerance)


def _published(record: full_games.FullGame) -> list[Figure]:
    published = record.published or {}
    half_digit = 0.5 * 10.0 ** -int(published["decimals"]) / 100  # decimals of a percentage
    return [
        Figure(
            "first_player",
            record.first_player,
            published["value"],
            Tolerance(absolute=half_digit),
            f"published by {published['source']}",
        )
    ]


def check_worths(work: Workspace, data: dict[str, Any]) -> FileCheck:
    """``rosette-worth.json``: each worth the claim checks weigh, solved again."""
    return _claims_file(work, data["worths"], work.claims_pass()[0], exact_tolerance)


def check_claim_figures(work: Workspace, data: dict[str, Any]) -> FileCheck:
    """``claim-figures.json``: each sampled figure and tally the claim checks read, again."""
    return _claims_file(work, data["figures"], work.claims_pass()[1], sampled_tolerance)


def _claims_file(
    work: Workspace,
    committed: dict[str, Any],
    again: dict[str, Any],
    tolerance: Callable[[str], Tolerance],
) -> FileCheck:
    """The claims' files: every figure is computed in one pass of the checks (seconds, its
    time shared among them), so a figure checked costs nothing more; the figures the checks
    no longer ask for are not read by the build."""
    share = work.claims_seconds / max(1, len(committed))
    candidates = [
        Candidate(
            key,
            _figure_kind(figures),
            share,
            functools.partial(compare, figures, again[key], tolerance),
        )
        for key, figures in sorted(committed.items())
        if key in again
    ]
    return FileCheck(candidates, len(committed) - len(candidates))


def _figure_kind(figures: Mapping[str, Any]) -> str:
    """What a claim figure is, from its fields."""
    kinds = {
        GameLengths: "greedy games' lengths",
        Reachability: "every reachable position, tallied",
        EntryTally: "random games' entries from the hand",
        HoldingWorth: "the worth of holding the central rosette",
    }
    for kind, words in kinds.items():
        if {f.name for f in dataclasses.fields(kind)} == set(figures):
            pieces = f", {figures['pieces']} pieces a side" if "pieces" in figures else ""
            return words + pieces
    return "a figure of unknown kind"


@dataclass(frozen=True)
class ResultsFile:
    """A committed results file: its layout, the section that holds its records, who writes
    it, and how its records are checked."""

    name: str
    layout: int
    check: Callable[[Workspace, dict[str, Any]], FileCheck]
    writer: str


FILES = (
    ResultsFile(suite_file.RESULTS_FILE.name, suite_file.RESULTS_FORMAT, check_suite,
                suite_file.WRITE_COMMAND),
    ResultsFile(exact_effects.RESULTS_FILE.name, exact_effects.RESULTS_FORMAT, check_exact,
                "ur-variants exact"),
    ResultsFile(fitted_agent.RESULTS_FILE.name, fitted_agent.RESULTS_FORMAT, check_fits,
                "ur-variants agents"),
    ResultsFile(agent_check.RESULTS_FILE.name, agent_check.RESULTS_FORMAT, check_agents,
                "ur-variants agents"),
    ResultsFile(full_games.RESULTS_FILE.name, full_games.RESULTS_FORMAT, check_full_games,
                "ur-variants full-games"),
    ResultsFile(WORTH_FILE.name, WORTH_FORMAT, check_worths,
                WRITE_COMMAND),
    ResultsFile(FIGURES_FILE.name, FIGURES_FORMAT,
                check_claim_figures, WRITE_COMMAND),
)  # fmt: skip
"""Every committed results file, in the order they are checked."""
