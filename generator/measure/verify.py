"""The committed results checked by computing a sample of them again.

A results file (``results/*.json``) carries a checksum, which says only that the file is whole:
a record edited and its checksum recomputed reads as well as one a command wrote. Nothing in a
record alone tells a forged figure from a run; running it again does. :func:`verify` picks
records at random (seeded, so a check is repeated by naming the seed) among those of each file
that the build reads, computes each again as the command that wrote it does (the same
functions, rules, games and seed; nothing is read from a cache), and compares every figure
with the tolerance stated for it:

- seeded games (the simulation suite, the agents against random, the claims' sampled figures and
  exhaustive tallies) are the same games, so the same figures: whole numbers and words exactly,
  other numbers within :data:`~generator.measure.verify_figures.SAMPLED` (only the rounding of a sum
  may differ from one processor to another);
- exact evaluations and solves (the exact effects, the fits' exact scores, the full games, the
  central rosette's worths): chances within :data:`~generator.measure.verify_figures.CHANCE` and
  expected throws within :data:`~generator.measure.verify_figures.THROWS`, ten times the tolerances
  the sweeps stop at, since a solve started from another point (the full games start from the fitted
  evaluation) stops within them too;
- the fitted agent's weights, a least-squares fit in floating point:
  :data:`~generator.measure.verify_figures.FITTED`.

Processor and wall times, memory measured and provenance are measurements of a machine, not
figures of the game: they are not compared. A record whose recomputation is recorded as
taking more than :data:`SLOW_SECONDS` of processor time (a seven-piece game takes hours) is
not sampled unless asked (``include_slow``); it is listed as skipped with the command that
checks it, and where a value for it is published elsewhere it is compared with that
(:data:`generator.solver.published.PERFECT_FIRST_PLAYER`).

Each file's behaviour stamp (:mod:`generator.sim.results_files`) is checked too: a stale file is
named. With ``stamp`` a file whose sample reproduced (every figure computed again agreed, at
least one record or published value compared) is given the current code's stamp, its figures
and provenance kept: the way a change that does not alter the figures (a refactor, or a
behaviour change elsewhere) is recorded without running the file's command again.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.claims.behaviour import DIGESTS
from generator.measure.verify_figures import Figure
from generator.measure.verify_files import FILES, Candidate, ResultsFile, Workspace
from generator.model.catalog_contents import Catalog
from generator.sim.results_files import KINDS, read_results, restamp, stale_file, stamp_of

SLOW_SECONDS = 120.0
"""Records recorded as taking longer than this (processor seconds) are skipped unless asked."""


# --- the check -------------------------------------------------------------------------------


@dataclass
class Tally:
    """What a verification found."""

    checked: int = 0
    differ: int = 0
    records: int = 0
    skipped: int = 0
    unreadable: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    """Files whose behaviour stamp is not the current code's (and were not re-stamped)."""
    stamped: list[str] = field(default_factory=list)
    named: set[str] = field(default_factory=set)
    """The records asked for by key (``Request.records``) that some file holds."""

    @property
    def passed(self) -> bool:
        return not self.differ and not self.unreadable and not self.stale


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
    stamp: bool = False
    """Give each file whose sample reproduced the current code's behaviour stamp."""


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
    data = read_results(path, results.layout)
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
    before = (tally.checked, tally.differ)
    for candidate in chosen:
        tally.records += 1
        for figure in candidate.recompute():
            _report(name, candidate, figure, say, tally)
    _skip_slow(name, slow, say, tally)
    compared, differ = tally.checked - before[0], tally.differ - before[1]
    _check_stamp(path, results, request.stamp and compared > 0 and not differ, say, tally)


def _check_stamp(
    path: Path, results: ResultsFile, reproduced: bool, say: Callable[[str], None], tally: Tally
) -> None:
    """Say whether ``path`` is stale; re-stamp it when asked and its sample ``reproduced``."""
    kind = KINDS[results.name]
    problem = stale_file(kind, DIGESTS, path.parent)
    if problem is None:
        return
    if reproduced:
        restamp(path, results.layout, stamp_of(kind, DIGESTS))
        tally.stamped.append(results.name)
        say(f"{results.name}: its sample reproduced; stamped with the current code's behaviour")
    else:
        tally.stale.append(results.name)
        say(problem)


def _skip_slow(
    name: str, slow: Sequence[Candidate], say: Callable[[str], None], tally: Tally
) -> None:
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
