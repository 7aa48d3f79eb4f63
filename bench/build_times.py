"""Step times of a cold build (no cache) then a warm rebuild with nothing changed, and their ratio.

Usage (from the repository root):

    .venv/bin/python bench/build_times.py [--jobs 2] [--warm-only | --clone [REV]] [--keep DIR]

Copies the project's inputs (variants/, overrides/, mkdocs.yml, the hand-written docs/ pages)
into a temporary folder, so the checkout's own .cache/ and site/ are not touched, and runs
``ur-variants build`` there twice: cold (nothing cached) and warm (nothing changed). The
generator is the checkout's, so its compiled kernels are already there. With ``--clone`` the
folder is a fresh clone of the commit REV (default HEAD; an earlier one gives a before and
after) built with its own sources: nothing cached and no compiled kernels, the cold
``make site`` of a fresh clone that the issue times (setting up .venv left out). With
``--warm-only`` the cold build reads the checkout's .cache/ (a copy of it), so only the warm
figures and the cached build's times mean anything. Each build's steps (validate, measure,
render, mkdocs) are read from its last line; the figure that matters is the warm build's own
steps (validate + measure + render) over its mkdocs step, which moves far less with the
machine's load than wall times do. Processor time counts the build and its workers. One figure
a line, ``name: value unit``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEPS = ("validate", "measure", "render", "mkdocs")
OWN = ("validate", "measure", "render")
_STEP = re.compile(r"(\w+) ([\d.]+) s")


def processor_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def copy_project(target: Path, with_cache: bool) -> Path:
    for name in ("variants", "overrides"):
        shutil.copytree(ROOT / name, target / name)
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    (target / "docs").mkdir()
    for page in (ROOT / "docs").glob("*.md"):
        shutil.copy(page, target / "docs" / page.name)
    if with_cache and (ROOT / ".cache").is_dir():
        shutil.copytree(ROOT / ".cache", target / ".cache", ignore=shutil.ignore_patterns("pages"))
    return target


def clone_project(target: Path, rev: str) -> Path:
    """A fresh clone of ``rev`` of this checkout (its committed files only)."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(target)], check=True)
    subprocess.run(["git", "checkout", "-q", commit(rev)], cwd=target, check=True)
    return target


def commit(rev: str) -> str:
    """The commit ``rev`` names in this checkout, abbreviated."""
    return subprocess.run(
        ["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def timed_build(
    project: Path, jobs: int, own_sources: bool = False
) -> tuple[dict[str, float], float, float]:
    """The build's step times, its wall time and its processor time (with its workers); with
    ``own_sources`` the project's generator (a clone's), its compiled kernels in its .cache/."""
    command = [sys.executable, "-m", "generator", "--root", str(project), "build"]
    command += ["--jobs", str(jobs)]
    env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "1764460800")}
    if own_sources:
        env["PYTHONPATH"] = str(project)
        env.pop("NUMBA_CACHE_DIR", None)
    cpu, began = processor_seconds(), time.perf_counter()
    cwd = project if own_sources else None
    result = subprocess.run(command, capture_output=True, text=True, check=False, env=env, cwd=cwd)
    wall, cpu = time.perf_counter() - began, processor_seconds() - cpu
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stderr[-3000:]}")
    last = result.stdout.strip().splitlines()[-1]
    steps = {name: float(value) for name, value in _STEP.findall(last.split("(", 1)[-1])}
    return {name: steps.get(name, 0.0) for name in STEPS}, wall, cpu


def report(label: str, steps: dict[str, float], wall: float, cpu: float) -> None:
    for name in STEPS:
        print(f"{label}_{name}: {steps[name]:.2f} s")
    own = sum(steps[name] for name in OWN)
    print(f"{label}_own_steps: {own:.2f} s")
    print(f"{label}_wall: {wall:.1f} s")
    print(f"{label}_processor: {cpu:.1f} s")
    if steps["mkdocs"] > 0:
        print(f"{label}_own_over_mkdocs: {own / steps['mkdocs']:.3f} ratio")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--warm-only", action="store_true")
    parser.add_argument(
        "--clone",
        nargs="?",
        const="HEAD",
        default=None,
        metavar="REV",
        help="build a fresh clone of REV (default HEAD) with its own sources",
    )
    parser.add_argument("--keep", type=Path, default=None, help="build here and keep it")
    args = parser.parse_args()
    if args.clone and args.warm_only:
        parser.error("--clone builds from nothing; --warm-only reuses the checkout's cache")

    folder = args.keep or Path(tempfile.mkdtemp(prefix="build-bench-"))
    if args.keep:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    try:
        own = args.clone is not None
        if own:
            project = clone_project(folder / "clone", args.clone)
            print(f"commit: {commit(args.clone)}")
        else:
            project = copy_project(folder, with_cache=args.warm_only)
        print(f"machine load average (1 min): {os.getloadavg()[0]:.1f}")
        print(f"cores: {os.cpu_count()}")
        first = "cold" if not args.warm_only else "first"
        report(first, *timed_build(project, args.jobs, own))
        report("warm", *timed_build(project, args.jobs, own))
        print(f"machine load average (1 min) after: {os.getloadavg()[0]:.1f}")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
