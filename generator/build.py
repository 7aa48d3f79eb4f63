"""The whole build: validate, measure, render Markdown, run mkdocs, swap the site in.

This module is the one place the build is run from, above both the measurement
(:mod:`generator.measure`) and the pages (:mod:`generator.site`): it reads the build's options
(:class:`BuildOptions`) once, in :func:`build`, and hands each step only what that step needs:
the measurement its :class:`~generator.measure.core.Settings`, the pages the measured
:class:`~generator.measure.core.Results` and the engine's readings of the rules
(:class:`~generator.measure.engine_readings.EngineReadings`). The pages never measure.

A failed step never leaves a half-written result: generated Markdown is swapped into
``docs/`` only after every page rendered, and the site is built into a temporary folder that
replaces ``site/`` only after ``mkdocs build --strict`` and the post-build checks passed. What
a build may replace, its lock and its leftovers: :mod:`generator.site.site_folder`.

Before any work a build finishes a swap a killed build left half done, then checks what would
otherwise fail late: the site folder can be written, every setting read from the environment
is well formed (:mod:`generator.site.settings`), and mkdocs and its theme are installed.
mkdocs that fails, runs out of disk or never finishes (:data:`MKDOCS_SECONDS`) ends the build
with a message, and the previous site stays.
"""

from __future__ import annotations

import dataclasses
import errno
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.measure.core import Results, Settings
from generator.measure.engine_readings import EngineReadings
from generator.model.catalog import load_catalog
from generator.model.catalog_contents import Catalog
from generator.processes import die_with_parent
from generator.sim.sanity import FigureError
from generator.site.cite import release_date, repository_url, site_url, source_date_epoch
from generator.site.context import SiteContext
from generator.site.edition import (
    EDITIONS_FILE,
    LOCK_FILE,
    EditionError,
    Editions,
    load_editions,
    load_lock,
)
from generator.site.generate import all_files
from generator.site.page_cache import inputs_key, load_pages, save_pages
from generator.site.reference_pages import GlossaryError
from generator.site.render import swap_into_docs
from generator.site.settings import MKDOCS_JOBS, MOST_JOBS, SettingError, whole_number
from generator.site.site_folder import (
    BuildRunning,
    SiteFolderError,
    build_lock,
    check_site_folder,
    check_writable,
    clear_leftovers,
    new_staging,
    publish,
    recover_site,
)

MKDOCS_SECONDS = 1800
"""How long ``mkdocs build`` may run before the build stops it as stuck: ten times its longest
run seen here (about 190 s, on two cores shared with other work; 27 s on two free cores)."""

MKDOCS_MODULES = {
    "mkdocs": "mkdocs",
    "material": "mkdocs-material",
    "mkdocs_redirects": "mkdocs-redirects",
    "pymdownx": "pymdown-extensions",
}
"""The modules ``mkdocs.yml`` needs (mkdocs, its theme, a plugin, Markdown extensions) and the
packages that install them."""

INSTALL_HINT = (
    "run `make site` in the checkout (it sets up .venv with everything the build needs and"
    " builds), or `.venv/bin/uv pip install -e .` for an existing .venv"
)


class BuildError(Exception):
    """A build step failed; the message says which and what to do."""


@dataclass
class BuildOptions:
    """What one build is asked to do (the ``build`` command's options)."""

    root: Path
    simulate: bool = True
    games: int | None = None
    jobs: int = 1
    seed: int = 20261130
    """The suite's default seed (:data:`generator.sim.records.DEFAULT_SEED`)."""
    refresh: bool = False
    site_dir: Path | None = None
    log: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr))


@dataclass
class BuildReport:
    seconds: dict[str, float] = field(default_factory=dict)
    pages: int = 0


def load_or_fail(root: Path) -> Catalog:
    catalog, problems = load_catalog(root / "variants")
    if problems:
        text = "\n".join(str(p) for p in problems)
        raise BuildError(f"{text}\n{len(problems)} problem(s) in variants/: fix them and rebuild")
    return catalog


def published_lock(root: Path, editions: Editions) -> dict[str, Any]:
    """The lock of the latest edition, from which every edition's page is read back; an
    :class:`EditionError` when it belongs to another edition (the pages would be wrong)."""
    lock = load_lock(root / "variants")
    if lock["edition"] != editions.current.number:
        raise EditionError(
            f"variants/{LOCK_FILE} is for edition {lock['edition']}, but the latest edition in"
            f" variants/{EDITIONS_FILE} is {editions.current.number}: restore both with git, or"
            " record the edition again with ur-variants edition"
        )
    return lock


def build(options: BuildOptions) -> BuildReport:
    """The whole build, holding the checkout's build lock; refuses at once (before any work) a
    site folder it must not replace, and clears what a killed build left behind. The only
    function that reads ``options``: every step below gets what it needs from here."""
    if options.games is not None and options.games < 1:
        raise BuildError(f"--games {options.games}: give a whole number of games above 0")
    root, log = options.root, options.log
    site_dir = options.site_dir or root / "site"
    settings = measure_settings(options)
    step = Steps(root, settings, options.simulate, page_settings(options))
    try:
        check_site_folder(root, site_dir)
        with build_lock(root):
            recover_site(site_dir, log)  # first: a failing build still puts it back
            clear_leftovers(root, site_dir, log)
            check_writable(site_dir)
            check_settings(root)
            check_mkdocs()
            return _build(step, site_dir)
    except (SiteFolderError, BuildRunning) as error:
        raise BuildError(str(error)) from error


@dataclass(frozen=True)
class Steps:
    """What the build's steps read, taken from its options once (:func:`build`)."""

    root: Path
    settings: Settings
    """The measurement's settings (the log, the refresh, the seed and the jobs among them)."""
    simulate: bool
    """Measure (simulate, solve, check claims), or only read the rules."""
    pages_key: dict[str, object]
    """The settings the generated pages depend on (:func:`page_settings`)."""


def check_settings(root: Path) -> None:
    """:class:`BuildError` naming the first malformed setting read from the environment
    (:mod:`generator.site.settings`), before any work: also when the pages are reused."""
    try:
        site_url()
        repository_url()
        release_date(root)
        whole_number(MKDOCS_JOBS, MOST_JOBS)
    except RuntimeError as error:
        raise BuildError(str(error)) from error


def check_mkdocs() -> None:
    """:class:`BuildError` naming every package ``mkdocs build`` needs that is not installed
    for this Python, and how to install it, before any work."""
    missing = [package for module, package in MKDOCS_MODULES.items() if not _installed(module)]
    if missing:
        raise BuildError(
            f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed for"
            f" {sys.executable}, and the build runs mkdocs to make the site: {INSTALL_HINT}"
        )


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a module set to None in sys.modules
        return False


NO_ADDRESS = (
    "SITE_URL is not set: citations, canonical links and the sitemap carry paths from the"
    " site's root (/editions/<N>/#<id>), not full addresses; a page's script fills in the address"
    " it is read at, but the downloaded citation files keep paths. To publish, set the address:"
    " SITE_URL=https://your.host/path/ make site"
)


def _address_unset() -> bool:
    """Whether ``SITE_URL`` is unset (a malformed one stops the build later, with its fix)."""
    try:
        return site_url() is None
    except SettingError:
        return False


def _build(step: Steps, site_dir: Path) -> BuildReport:
    """Validate (the data, the editions, the site's address), measure (:mod:`generator.measure`,
    cached), render Markdown from the measured results, then ``mkdocs build``. When every input
    is as in the last successful build (:mod:`generator.site.page_cache`), its pages are reused
    and only ``mkdocs build`` runs again."""
    report = BuildReport()
    root, log = step.root, step.settings.log
    if _address_unset():
        log(NO_ADDRESS)

    began = time.perf_counter()
    key = inputs_key(root, step.pages_key)
    cached = None if step.settings.refresh else load_pages(root, key)
    if cached is not None:
        log("nothing changed since the last build: its pages are reused")
        files, ruling_ids = cached.files, cached.ruling_ids
        report.seconds["validate"] = time.perf_counter() - began
    else:
        files, ruling_ids = _generate(step, report, began)

    began = time.perf_counter()
    swap_into_docs(files, root / "docs")
    report.seconds["render"] = report.seconds.get("render", 0.0) + time.perf_counter() - began
    report.pages = sum(1 for name in files if name.endswith(".md") and not name.startswith("."))

    began = time.perf_counter()
    mkdocs_build(root, site_dir, ruling_ids)
    report.seconds["mkdocs"] = time.perf_counter() - began
    if cached is None:
        save_pages(root, key, files, ruling_ids)
    return report


def page_settings(options: BuildOptions) -> dict[str, object]:
    """The build settings the generated pages depend on (not ``jobs``: figures do not)."""
    return {"simulate": options.simulate, "seed": options.seed, "games": options.games}


def _generate(
    step: Steps, report: BuildReport, began: float
) -> tuple[dict[str, str | bytes], set[str]]:
    """Validate, measure and render: every generated file, and every ruling id. The engine's
    readings of the rules (verdicts, worked examples) are measured whether or not the build
    simulates; each is computed when a page first reads it."""
    root = step.root
    catalog = load_or_fail(root)
    readings = EngineReadings(catalog)
    try:
        release_date(root)  # a malformed SOURCE_DATE_EPOCH stops the build before any writing
        editions = load_editions(root / "variants")
        lock = published_lock(root, editions)
        ctx = SiteContext(catalog, site_url(), editions, lock, readings=readings)
    except (RuntimeError, EditionError) as error:
        raise BuildError(str(error)) from error
    report.seconds["validate"] = time.perf_counter() - began

    began = time.perf_counter()
    results = measure(catalog, step.settings) if step.simulate else None
    report.seconds["measure"] = time.perf_counter() - began

    began = time.perf_counter()
    try:
        files = all_files(ctx, results, step.settings.jobs)
    except GlossaryError as error:
        raise BuildError(str(error)) from error
    report.seconds["render"] = time.perf_counter() - began
    return files, set(ctx.rulings)


def measure_settings(options: BuildOptions) -> Settings:
    """The measurement's settings from the build's: caches under ``.cache/`` of the checkout."""
    settings = Settings(
        cache_root=options.root / ".cache",
        seed=options.seed,
        jobs=options.jobs,
        refresh=options.refresh,
        log=options.log,
    )
    if options.games is not None:
        settings = dataclasses.replace(settings, claim_games=options.games)
    return settings


def measure(catalog: Catalog, settings: Settings) -> Results:
    """Every measurement (:mod:`generator.measure.steps`), each cached under ``.cache/``."""
    from generator.measure.steps import measure as measure_all

    try:
        return measure_all(catalog, settings)
    except FigureError as error:
        raise BuildError(
            f"{error}; the previous site is kept. Damaged cache entries are measured again,"
            " so this comes from a fresh measurement: a fault in the simulator or solver"
        ) from error


def _environment(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    if "SOURCE_DATE_EPOCH" not in env:
        try:
            env["SOURCE_DATE_EPOCH"] = source_date_epoch(root)
        except RuntimeError as error:
            raise BuildError(str(error)) from error
    env["DISABLE_MKDOCS_2_WARNING"] = "true"
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


def mkdocs_build(root: Path, site_dir: Path, ruling_ids: set[str]) -> None:
    """``mkdocs build --strict`` into a temporary folder, checked, then swapped in. mkdocs runs
    with its work on each page shared among the cores (:mod:`generator.site.mkdocs_parallel`:
    the same files as plain mkdocs writes, in about two thirds of the time on two cores).

    Not ``--quiet``: it drops warnings before ``--strict`` counts them, so broken links and
    anchors would pass. The output is captured and only its warnings are shown on failure.
    mkdocs is killed with this process, however it ends (:func:`die_with_parent`).
    """
    try:
        target = check_site_folder(root, site_dir)
        check_writable(target)
    except SiteFolderError as error:
        raise BuildError(str(error)) from error
    try:
        staging = new_staging(target)
    except OSError as error:
        raise BuildError(_write_failure(error, target)) from error
    try:
        _run_mkdocs(root, staging)
        check_ruling_ids(staging, ruling_ids)
        publish(staging, target)
    except OSError as error:
        raise BuildError(_write_failure(error, target)) from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _run_mkdocs(root: Path, staging: Path) -> None:
    """``mkdocs build --strict`` into ``staging``, or :class:`BuildError` saying why not: its
    warnings, a missing package, a full disk, or no end within :data:`MKDOCS_SECONDS` (then
    it is killed, and the workers it forked die with it)."""
    parent = os.getpid()
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "generator.site.mkdocs_parallel",
                "build",
                "--strict",
                "-f",
                str(root / "mkdocs.yml"),
                "-d",
                str(staging),
            ],
            cwd=root,
            env=_environment(root),
            capture_output=True,
            text=True,
            check=False,
            timeout=MKDOCS_SECONDS,
            preexec_fn=lambda: die_with_parent(parent),
        )
    except subprocess.TimeoutExpired:
        raise BuildError(
            f"mkdocs build did not finish in {MKDOCS_SECONDS:,} s and was stopped; the previous"
            " site is left as it was. Something it waits on is stuck (a full or hung disk, a"
            " stopped process): check free space and the disk under the site folder, and build"
            " again"
        ) from None
    if result.returncode != 0:
        raise BuildError(
            "mkdocs build --strict failed; the previous site is left as it was:\n"
            + _mkdocs_problems(result.stderr + result.stdout)
        )


_DISK_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
_NO_SPACE = re.compile(rf"\[Errno (?:{'|'.join(str(code) for code in _DISK_FULL)})\]")
_MISSING = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")


def _write_failure(error: OSError, target: Path) -> str:
    """A message for an error writing the site, with what to do about it."""
    if error.errno in _DISK_FULL:
        advice = _FULL_ADVICE
    elif error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        advice = "make the folder writable or choose another --site-dir"
    else:
        advice = "fix that and build again"
    return (
        f"cannot write the site next to {target}: {error.strerror or error}"
        f"{f' ({error.filename})' if error.filename else ''}; {advice}. The previous site is"
        " left as it was"
    )


_FULL_ADVICE = (
    "the disk is full or a file-size limit (ulimit -f) was reached: free space and build again"
)


def _mkdocs_problems(output: str) -> str:
    """What to show of mkdocs' output: its warnings and errors (or its last lines), led by
    what to do about a full disk or a missing package."""
    lines = [line for line in output.splitlines() if "WARNING" in line or "ERROR" in line]
    shown = "\n".join(lines or output.splitlines()[-20:])
    missing = _MISSING.search(output)
    if missing:
        shown = f"the module {missing.group(1)} is not installed: {INSTALL_HINT}\n{shown}"
    if _NO_SPACE.search(output):
        shown = f"{_FULL_ADVICE[0].upper()}{_FULL_ADVICE[1:]}\n{shown}"
    return shown


_ID = re.compile(r'\sid="([^"]+)"')


def check_ruling_ids(site: Path, ruling_ids: set[str]) -> None:
    """Every ruling id must be the id of exactly one element on the whole site, apart from its
    own page (``/r/<id>/``) and each edition's copy (``/editions/<N>/``), which hold it again
    on pages of their own."""
    counts: Counter[str] = Counter()
    for page in site.rglob("*.html"):
        if page.parts[len(site.parts)] in ("r", "editions"):
            continue
        counts.update(i for i in _ID.findall(page.read_text(encoding="utf-8")) if i in ruling_ids)
    missing = sorted(ruling_ids - set(counts))
    repeated = sorted(i for i, n in counts.items() if n > 1)
    if missing or repeated:
        raise BuildError(
            f"ruling ids must appear exactly once on the site: missing {missing}, repeated"
            f" {repeated}; rename the clashing heading or ruling id"
        )
