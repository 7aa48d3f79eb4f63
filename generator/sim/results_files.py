"""The results store: measurements too slow for every build, kept in ``results/``, and the one
module that reads and writes them (``tests/test_results_store.py`` fails on any other ``open``
or JSON read of ``results/``).

A results file is a checksummed JSON envelope (:func:`generator.sim.cache_files.write_json`)
whose payload names its layout (``results_format``) and says who made it: the command, the
commit, the date and the machine (:func:`provenance`). The build reads such files and never
recomputes them; the command that wrote one writes it again.

How a record is keyed. Its key is a digest of the inputs that produce it, in two halves:

- the data: the rulebook's compiled rules (with the variant files it inherits from), the run's
  parameters (seed, games, pieces, agents); each record kind digests these into its own key
  (:attr:`generator.sim.records.RecordSpec.key`, the fits' and solves' ``rules_key``, the claim
  figures' ``figure_key``), so a changed ruling or seed asks for a record the file does not
  hold;
- the code: the file's ``behaviour`` stamp, one digest per layer the kind depends on
  (:data:`KINDS`). A digest of the source would send hours of solves round again after every
  harmless refactor, so each digest is of what the layer *computes* on pinned inputs (the
  engine's perft counts and a seeded game, the kernel's positions and seeded games, a small
  exact solve with its fit, the claim checks' tallies: the ``behaviour`` module of each layer,
  :mod:`generator.engine.behaviour`). It changes when the code plays, solves or checks
  differently, and not when code is only renamed or moved. The digests are computed once per
  state of ``generator/`` and ``variants/`` and kept under ``.cache/behaviour``
  (:func:`current_digests`).

No version number is bumped by hand: the ones that were (``ENGINE_VERSION``, ``SIM_VERSION``
and the rest) are gone from the keys, which :mod:`generator.sim.rekey` migrated once. What
stays is layout: ``results_format`` (how a file's payload is laid out) and the caches'
``CACHE_FORMAT``, which change only when a file could no longer be read, never when the code
computes differently. The caches under ``.cache/`` are keyed by their data and by the source
of their code (:func:`code_key`): a cache can afford to compute again after any edit.

A file whose stamp no longer matches is stale (:func:`stamp_problem`): the build warns, naming
the file and the fix, and ``ur-variants verify`` says so. The fix is ``ur-variants verify
--stamp --files NAME``, which computes a sample of the file's records again under the current
code and re-stamps the file only if every figure reproduces; or the file's own command, which
writes it again.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import os
import platform
import subprocess
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.sim import rekey
from generator.sim.cache_files import read_json, write_json

ROOT = Path(__file__).resolve().parents[2]
RESULTS_DIR = ROOT / "results"
BEHAVIOUR_CACHE = ROOT / ".cache" / "behaviour"
BEHAVIOUR = "behaviour"
"""The payload's field holding the file's stamp: layer name -> behaviour digest."""

Digests = Mapping[str, Callable[[], str]]
"""Each layer's behaviour digest by name, computed when asked (the ``DIGESTS`` of
:mod:`generator.sim.behaviour`, :mod:`generator.solver.behaviour`,
:mod:`generator.claims.behaviour`: each layer adds its own to those below it)."""


@dataclass(frozen=True)
class Kind:
    """A results file: its name, the command that writes it, and the layers whose behaviour
    its records depend on (the code half of their keys)."""

    name: str
    writer: str
    behaviour: tuple[str, ...]

    @property
    def path(self) -> Path:
        return RESULTS_DIR / self.name


_SEEDED = ("engine", "kernel")
_SOLVED = ("engine", "kernel", "solver")
_CLAIMS = "ur-variants claims --write-results"
KINDS = {
    kind.name: kind
    for kind in (
        Kind("simulation-suite.json", "ur-variants suite --write-results", _SEEDED),
        Kind("agents-vs-random.json", "ur-variants agents", _SOLVED),
        Kind("fitted-agent.json", "ur-variants agents --agents fitted", _SOLVED),
        Kind("exact-effects.json", "ur-variants exact", _SOLVED),
        Kind("full-games.json", "ur-variants full-games", _SOLVED),
        Kind("rosette-worth.json", _CLAIMS, (*_SOLVED, "claims")),
        Kind("claim-figures.json", _CLAIMS, (*_SOLVED, "claims")),
        Kind("solve-plan.json", "ur-variants solve --plan --write-results", ()),
    )
}
"""Every committed results file. The agents against random and the fits play the kernel's
games with the fitted agent (the solver's fit); the claims sample the kernel's games and read
exact solves; the solve plan is arithmetic on the full games' committed figures, so it has no
layer of its own to stamp."""


def kind_of(path: Path) -> Kind:
    """The kind of the results file at ``path`` (by its name)."""
    try:
        return KINDS[path.name]
    except KeyError:
        raise KeyError(f"{path}: not a results file; known: {', '.join(KINDS)}") from None


def source_digest(root: Path = ROOT) -> str:
    """A digest of the code and rulebooks (``generator/**/*.py``, ``variants/**``): it keys only
    the cache of behaviour digests, never a result."""
    return _files_digest(root, (("generator", "*.py"), ("variants", "*.yml")))


def _files_digest(root: Path, globs: Iterable[tuple[str, str]]) -> str:
    hashed = hashlib.sha256()
    for folder, pattern in globs:
        for path in sorted((root / folder).rglob(pattern)):
            hashed.update(path.relative_to(root).as_posix().encode() + b"\0")
            hashed.update(path.read_bytes() + b"\0")
    return hashed.hexdigest()


@functools.cache
def code_key(*parts: str) -> str:
    """A digest (16 hex digits) of the source of ``parts`` of ``generator``, each a package
    (``"engine"``) or a module (``"measure/parting.py"``): the code half of a *cache* entry's
    key, in place of the version numbers once bumped by hand. Any edit there computes the
    entry again, which a cache can afford; a committed result, hours of work, is keyed by its
    code's behaviour instead (:func:`stamp_of`)."""
    globs = [
        (f"generator/{Path(part).parent}", Path(part).name) if part.endswith(".py")
        else (f"generator/{part}", "*.py")
        for part in parts
    ]  # fmt: skip
    return _files_digest(ROOT, globs)[:16]


def current_digests(
    digests: Digests, names: Iterable[str], cache_dir: Path | None = BEHAVIOUR_CACHE
) -> dict[str, str]:
    """The behaviour digests ``names`` of the code as it is now, read from ``cache_dir`` when
    computed before for the same :func:`source_digest` (``None``: always computed)."""
    path = cache_dir / f"{source_digest()}.json" if cache_dir is not None else None
    known = read_json(path) if path is not None else None
    known = dict(known) if isinstance(known, dict) else {}
    wanted = {name: known.get(name) or digests[name]() for name in names}
    if path is not None and any(known.get(n) != d for n, d in wanted.items()):
        write_json(path, {**known, **wanted})
    return wanted


def cached_digests(cache_dir: Path = BEHAVIOUR_CACHE) -> dict[str, str]:
    """The behaviour digests already computed for the code as it is now (:func:`current_digests`
    kept them), computing none: a build reads these rather than spend minutes compiling the
    solver to compute its own."""
    known = read_json(cache_dir / f"{source_digest()}.json")
    return (
        {str(k): v for k, v in known.items() if isinstance(v, str)}
        if isinstance(known, dict)
        else {}
    )


def stamp_of(
    kind: Kind, digests: Digests, cache_dir: Path | None = BEHAVIOUR_CACHE
) -> dict[str, str]:
    """The stamp a file of ``kind`` written by the code as it is now carries."""
    return current_digests(digests, kind.behaviour, cache_dir)


def stamp_problem(
    path: Path,
    data: Mapping[str, Any],
    digests: Digests,
    cache_dir: Path | None = BEHAVIOUR_CACHE,
    layers: Collection[str] | None = None,
) -> str | None:
    """Why the results ``data`` read from ``path`` are stale (made by code that computes
    differently now, or never stamped), naming the file and the fix; ``None`` when current.
    Only the ``layers`` named are compared (``None``: every layer the file depends on)."""
    kind = kind_of(path)
    names = [name for name in kind.behaviour if layers is None or name in layers]
    stamp = data.get(BEHAVIOUR)
    if not isinstance(stamp, dict):
        changed = list(kind.behaviour)
    else:
        now = current_digests(digests, names, cache_dir)
        changed = [name for name in names if stamp.get(name) != now[name]]
    if not changed:
        return None
    return (
        f"{path}: stale: made by code whose {', '.join(changed)} computed differently"
        f" (behaviour digest changed); `ur-variants verify --stamp --files {kind.name}`"
        f" re-checks a sample and re-stamps it if they reproduce, else `{kind.writer}`"
        " writes it again"
    )


def stale_file(
    kind: Kind,
    digests: Digests,
    results_dir: Path = RESULTS_DIR,
    cache_dir: Path | None = BEHAVIOUR_CACHE,
    layers: Collection[str] | None = None,
) -> str | None:
    """Why the ``kind`` file under ``results_dir`` is stale (:func:`stamp_problem`, comparing
    ``layers``), or ``None``: current, missing, or damaged (its reader reports a damaged
    file)."""
    path = results_dir / kind.name
    data = read_json(path) if path.exists() else None
    if not isinstance(data, dict):
        return None
    return stamp_problem(path, data, digests, cache_dir, layers)


def provenance(
    root: Path, command: str, seconds: float, behaviour: Mapping[str, str]
) -> dict[str, Any]:
    """Who made the results: command, commit (flagged when generator/ or variants/ had
    uncommitted changes), date, machine (also given field by field: processor, cores,
    memory), wall time, and the behaviour stamp of the code that made them
    (:func:`stamp_of`)."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "generator", "variants"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", ""
    return {
        "command": command,
        "commit": commit + (" with uncommitted changes" if dirty else ""),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {processor_name()}, {os.cpu_count()} cores,"
        f" {memory_bytes() / 2**30:.1f} GiB, {platform.python_implementation()}"
        f" {platform.python_version()}",
        "processor": processor_name(),
        "cores": os.cpu_count(),
        "memory_bytes": memory_bytes(),
        "wall_seconds": round(seconds, 1),
        BEHAVIOUR: dict(behaviour),
    }


def processor_name() -> str:
    """The processor's model name (Linux's ``/proc/cpuinfo``), else what Python knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and ":" in line:
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def memory_bytes() -> int:
    """The machine's memory in bytes (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def publish(
    root: Path,
    output: Path,
    layout: int,
    command: str,
    began: float,
    results: dict[str, Any],
    summary: Callable[[dict[str, Any]], Iterable[str]],
    behaviour: Mapping[str, str],
) -> None:
    """The tail every results command shares: save ``results`` with their provenance and the
    ``behaviour`` stamp (``began`` is the command's :func:`time.perf_counter` at its start;
    they replace any provenance ``results`` carry), print the summary, and say where they
    went."""
    made = provenance(root, command, time.perf_counter() - began, behaviour)
    write_results(output, layout, {**results, **made})
    for line in summary(results):
        print(line)
    print(f"written to {output}")


def write_results(path: Path, layout: int, results: dict[str, Any]) -> None:
    """Save ``results`` (plain JSON values) as layout ``layout``, atomically."""
    write_json(path, {"results_format": layout, **results})


def restamp(path: Path, layout: int, behaviour: Mapping[str, str]) -> None:
    """Give the results at ``path`` the stamp ``behaviour``, every figure and the provenance
    of the run that made them kept (:func:`generator.measure.verify.verify` calls it once a
    sample of them has been computed again and reproduced)."""
    data = read_results(path, layout)
    if data is None:
        raise ValueError(f"{path}: damaged or not of layout {layout}; nothing to stamp")
    write_results(path, layout, {**data, BEHAVIOUR: dict(behaviour)})


def rekey_file(path: Path, renamed: Mapping[str, str], drop: Collection[str] = ()) -> int:
    """Replace each old key of the results at ``path`` by its new one (``renamed``,
    :mod:`generator.sim.rekey`), and take the fields ``drop`` (the old version numbers) off
    each of its ``records``, every figure kept; how many strings were replaced. A damaged file
    is an error naming it."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: damaged (its checksum or layout is wrong); nothing rekeyed")
    found = [0]

    def counted(old: str) -> str:
        new = renamed.get(old, old)
        found[0] += new != old
        return new

    data = rekey.rewrite(data, counted)
    for record in data.get("records", {}).values():
        for name in drop:
            record.pop(name, None)
    write_json(path, data)
    return found[0]


def read_results(path: Path, layout: int) -> dict[str, Any] | None:
    """The results saved at ``path``, or ``None`` when missing, damaged or of another layout."""
    data = read_json(path)
    if not isinstance(data, dict) or data.get("results_format") != layout:
        return None
    return data


def read_section(
    path: Path,
    layout: int,
    section: str,
    damaged: str,
    log: Callable[[str], None],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The dict ``section`` of the results at ``path`` and the whole payload; both empty when
    the file is missing. A file that is damaged, of another layout or without that dict is
    reported through ``log`` as ``path: damaged``, and read as empty."""
    if not path.exists():
        return {}, {}
    data = read_results(path, layout)
    found = data.get(section) if data is not None else None
    if data is None or not isinstance(found, dict):
        log(f"{path}: {damaged}")
        return {}, {}
    return found, data
