"""The committed results checked by computing a sample of them again.

A results file (``results/*.json``) carries a checksum, which says only that the file is whole:
a record edited and its checksum recomputed reads as well as one a command wrote. Nothing in a
record alone tells a forged figure from a run; running it again does. :func:`verify` picks
records at random (seeded, so a check is repeated by naming the seed) among those of each file
that the build reads, computes each again as the command that wrote it does (the same
functions, rules, games and seed; nothing is read from a cache), and compares every figure
with the tolerance stated for it:

- seeded games (the simulation suite, the agents against random, the claims' sampled figures
  and exhaustive tallies) are the same games, so the same figures: whole numbers and words
  exactly, other numbers within :data:`SAMPLED` (only the rounding of a sum may differ from
  one processor to another);
- exact evaluations and solves (the exact effects, the fits' exact scores, the full games, the
  central rosette's worths): chances within :data:`CHANCE` and expected throws within
  :data:`THROWS`, ten times the tolerances the sweeps stop at, since a solve started from
  another point (the full games start from the fitted evaluation) stops within them too;
- the fitted agent's weights, a least-squares fit in floating point: :data:`FITTED`.

Processor and wall times, memory measured and provenance are measurements of a machine, not
figures of the game: they are not compared. A record whose recomputation is recorded as
taking more than :data:`SLOW_SECONDS` of processor time (a seven-piece game takes hours) is
not sampled unless asked (``include_slow``); it is listed as skipped with the command that
checks it, and where a value for it is published elsewhere it is compared with that
(:data:`generator.solver.published.PERFECT_FIRST_PLAYER`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from generator.claims import claim_checks
from generator.claims.rosette_worth import HoldingWorth
from generator.engine.rules import Rules, compile_rules
from generator.measure.core import Settings
from generator.model.catalog import Catalog
from generator.model.variant import ResolvedVariant
from generator.sim import suite_results as suite_file
from generator.sim.cache_files import read_json
from generator.sim.records import DEFAULT_SEED, RecordSpec, simulate
from generator.sim.results_files import read_results
from generator.sim.suite import plan_runs, simulated_variants
from generator.solver import agent_check, exact_effects, fitted_agent, full_games
from generator.solver.policy_eval import DEFAULT_MAX_STATES, exact_figures


class Tolerance(NamedTuple):
    """How far a recomputed number may be from the committed one: ``absolute``, or
    ``relative`` to the larger of the two, whichever is wider (both 0: exactly equal)."""

    absolute: float = 0.0
    relative: float = 0.0


EXACTLY = Tolerance()
SAMPLED = Tolerance(relative=1e-12)
CHANCE = Tolerance(absolute=1e-12)
THROWS = Tolerance(absolute=1e-9)
FITTED = Tolerance(absolute=1e-12, relative=1e-9)
SLOW_SECONDS = 120.0
"""Records recorded as taking longer than this (processor seconds) are skipped unless asked."""

NOT_FIGURES = frozenset(
    {"cpu_seconds", "elapsed_seconds", "solve_seconds", "memory_bytes", "provenance", "key"}
)
"""What a record says about the machine and the run, not about the game: not compared."""

MISSING = "(missing)"


@dataclass(frozen=True)
class Figure:
    """One committed figure and the same figure computed again (or published elsewhere)."""

    name: str
    committed: Any
    recomputed: Any
    tolerance: Tolerance
    source: str = "recomputed"

    @property
    def agrees(self) -> bool:
        return _agree(self.committed, self.recomputed, self.tolerance)


def _agree(a: Any, b: Any, tolerance: Tolerance) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_agree(x, y, tolerance) for x, y in zip(a, b, strict=True))
    numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    if not numbers or (isinstance(a, int) and isinstance(b, int)):
        return bool(a == b) and type(a) is type(b)
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    allowed = max(tolerance.absolute, tolerance.relative * max(abs(a), abs(b)))
    return bool(abs(a - b) <= allowed)


def leaves(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every value of nested dicts by its dotted name (a list is one value), figures only."""
    if isinstance(data, Mapping):
        for name, value in data.items():
            if name not in NOT_FIGURES:
                yield from leaves(value, f"{prefix}.{name}" if prefix else str(name))
    else:
        yield prefix, data


def lookup(data: Any, name: str) -> Any:
    """The value at dotted ``name`` in nested dicts, :data:`MISSING` when there is none."""
    for part in name.split("."):
        if not isinstance(data, Mapping) or part not in data:
            return MISSING
        data = data[part]
    return data


def compare(committed: Any, recomputed: Any, tolerance: Callable[[str], Tolerance]) -> list[Figure]:
    """Every figure of ``committed`` against the same figure of ``recomputed``."""
    return [
        Figure(name, value, lookup(recomputed, name), tolerance(name))
        for name, value in leaves(committed)
    ]


def compare_places(
    places: Sequence[tuple[str, Mapping[str, Any]]],
    recomputed: Mapping[str, Any],
    tolerance: Callable[[str], Tolerance],
) -> list[Figure]:
    """The figures of one computation that a file keeps in several ``places`` (where, the
    committed figures): one line a figure where every place agrees, and one for each place
    whose committed value is not the others' (so a forged copy names itself)."""
    grouped: dict[str, dict[str, list[str]]] = {}
    values: dict[tuple[str, str], Any] = {}
    for where, figures in places:
        for name, value in leaves(figures):
            shown = repr(value)
            grouped.setdefault(name, {}).setdefault(shown, []).append(where)
            values[(name, shown)] = value
    found = []
    for name, by_value in grouped.items():
        for shown, sites in by_value.items():
            label = name if len(places) == 1 else f"{name} (all {len(sites)} places)"
            if len(by_value) > 1:
                label = f"{name} in {', '.join(sites[:3])}{' and more' * (len(sites) > 3)}"
            found.append(
                Figure(label, values[(name, shown)], lookup(recomputed, name), tolerance(name))
            )
    return found


def exact_tolerance(name: str) -> Tolerance:
    """Chances, expected throws, counts of positions and pieces (see the module docstring)."""
    last = name.rsplit(".", 1)[-1]
    if last in {"states", "pieces", "games"}:
        return EXACTLY
    return THROWS if "throws" in last else CHANCE


def sampled_tolerance(name: str) -> Tolerance:
    return SAMPLED


def fit_tolerance(name: str) -> Tolerance:
    return FITTED if name in {"weights", "rms_error", "r_squared"} else exact_tolerance(name)


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
            settings = claim_checks.CheckSettings(
                build.claim_games, build.seed, None, worths={}, figures={}
            )
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
        claim_checks.GameLengths: "greedy games' lengths",
        claim_checks.Reachability: "every reachable position, tallied",
        claim_checks.EntryTally: "random games' entries from the hand",
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
    ResultsFile(claim_checks.WORTH_FILE.name, claim_checks.WORTH_FORMAT, check_worths,
                claim_checks.WRITE_COMMAND),
    ResultsFile(claim_checks.FIGURES_FILE.name, claim_checks.FIGURES_FORMAT,
                check_claim_figures, claim_checks.WRITE_COMMAND),
)  # fmt: skip
"""Every committed results file, in the order they are checked."""


# --- the check -------------------------------------------------------------------------------


@dataclass
class Tally:
    """What a verification found."""

    checked: int = 0
    differ: int = 0
    records: int = 0
    skipped: int = 0
    unreadable: list[str] = field(default_factory=list)
    named: set[str] = field(default_factory=set)
    """The records asked for by key (``Request.records``) that some file holds."""

    @property
    def passed(self) -> bool:
        return not self.differ and not self.unreadable


@dataclass(frozen=True)
class Request:
    """What to check: which files, how many records of each, which seed chooses them,
    whether slow records may be chosen, and (``records``) the records to check instead of a
    sample, by key or the start of one."""

    files: Sequence[ResultsFile] = FILES
    sample: int = 1
    seed: int = 0
    include_slow: bool = False
    records: Sequence[str] = ()
    slow_seconds: float = SLOW_SECONDS


def verify(
    catalog: Catalog,
    results_dir: Path,
    request: Request,
    say: Callable[[str], None],
) -> Tally:
    """Check ``request.files`` under ``results_dir`` (see the module docstring), saying each
    figure checked as ``file: key (what): figure: committed X, recomputed Y, ok`` (or
    ``DIFFERS``), and each record skipped, with why and the command that checks it."""
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="ur-verify-") as scratch:
        work = Workspace(catalog, Path(scratch))
        for results in request.files:
            _verify_file(work, results_dir / results.name, results, request, say, tally)
    return tally


def _verify_file(
    work: Workspace,
    path: Path,
    results: ResultsFile,
    request: Request,
    say: Callable[[str], None],
    tally: Tally,
) -> None:
    name = results.name
    if not path.exists():
        say(f"{name}: missing; nothing to check (`{results.writer}` writes it)")
        return
    data = read_results(path, results.layout) if read_json(path) is not None else None
    if data is None:
        say(
            f"{name}: damaged, or not of layout {results.layout}: the build does not read it"
            f" (`{results.writer}` writes it again)"
        )
        tally.unreadable.append(name)
        return
    found = results.check(work, data)
    wanted = [c for c in found.candidates if _named(c, request.records)]
    if request.records:
        chosen, slow = wanted, []
    else:
        cheap = [c for c in wanted if request.include_slow or c.seconds <= request.slow_seconds]
        slow = [c for c in wanted if c not in cheap]
        pick = random.Random(f"{request.seed}:{name}")
        chosen = pick.sample(cheap, min(request.sample, len(cheap)))
    tally.named.update(r for r in request.records for c in wanted if c.key.startswith(r))
    unread = f" ({found.unread} more it does not read: their rules changed since)" * bool(
        found.unread
    )
    whole = sum(c.seconds for c in found.candidates)
    say(
        f"{name}: {len(found.candidates)} records the build reads{unread}; checking"
        f" {len(chosen)} (all of them would take about {_duration(whole)} of processor time)"
    )
    for candidate in chosen:
        tally.records += 1
        for figure in candidate.recompute():
            _report(name, candidate, figure, say, tally)
    for candidate in slow:
        tally.skipped += 1
        command = f"ur-variants verify --files {name} --record {shown_key(candidate.key)}"
        say(
            f"{name}: {shown_key(candidate.key)} ({candidate.label}): skipped, its computation took"
            f" {_duration(candidate.seconds)} of processor time; `{command}` checks it"
        )
        for figure in candidate.published() if candidate.published else []:
            _report(name, candidate, figure, say, tally)


def _named(candidate: Candidate, records: Sequence[str]) -> bool:
    return not records or any(candidate.key.startswith(r) for r in records)


def _report(
    name: str, candidate: Candidate, figure: Figure, say: Callable[[str], None], tally: Tally
) -> None:
    tally.checked += 1
    tally.differ += not figure.agrees
    verdict = "ok" if figure.agrees else "DIFFERS"
    say(
        f"{name}: {shown_key(candidate.key)} ({candidate.label}): {figure.name}: committed"
        f" {_shown(figure.committed)}, {figure.source} {_shown(figure.recomputed)}, {verdict}"
    )


def _shown(value: Any) -> str:
    if isinstance(value, list) and len(value) > 4:
        return f"[{', '.join(map(repr, value[:4]))}, ...] ({len(value)} values)"
    return repr(value)


def shown_key(key: str) -> str:
    """A key as printed: a content hash by its first 12 digits (``--record`` takes them)."""
    digest = key.split(".")[0]
    return key[:12] if len(digest) == 64 and set(digest) <= set("0123456789abcdef") else key


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.0f} min" if seconds >= 60 else f"{seconds:.0f} s"


def results_file(name: str) -> ResultsFile:
    """The results file called ``name`` (with or without ``.json``); ``KeyError`` naming the
    known ones when there is none."""
    wanted = name if name.endswith(".json") else f"{name}.json"
    for results in FILES:
        if results.name == wanted:
            return results
    raise KeyError(f"no results file {name!r}; known: {', '.join(f.name for f in FILES)}")
