"""Time the site build cold (a fresh clone: no .cache, no compiled kernels) and warm (the same
clone built again with nothing changed), step by step, as `make site` runs it.

    .venv/bin/python scripts/bench_build.py [--rev REV] [--runs N] [--jobs N] [--keep]

The checkout's committed HEAD (or REV, to compare with an earlier commit) is cloned into a
temporary folder and built there with this
checkout's Python environment (the clone's own sources first on the path), so setting up a
virtual environment is not timed. Prints one `name: value unit` line per figure: each build's
wall time, its steps as the build reports them (validate, measure, render, mkdocs), the
processor time of the build and its children, and the warm build's own steps (validate,
measure, render) over its mkdocs step (the issue asks at most 0.25; and a cold build at most
60 s on 2 cores). The load average before and after each build is printed too: other work on
the machine lengthens the wall times, and the processor times much less.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STEPS = re.compile(r"built (\d+) pages into .* in [\d.]+ s \((.*)\)")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(clone: Path, jobs: int | None) -> dict[str, float]:
    """One `ur-variants build` of ``clone``: its wall time, steps and processor time."""
    env = dict(os.environ, PYTHONPATH=str(clone))
    env.pop("NUMBA_CACHE_DIR", None)  # the clone keeps its compiled kernels in its own .cache
    command = [sys.executable, "-m", "generator", "--root", str(clone), "build"]
    command += ["--jobs", str(jobs)] if jobs else []
    load = os.getloadavg()[0]
    cpu, began = children_cpu(), time.perf_counter()
    result = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True)
    figures = {"wall": time.perf_counter() - began, "processor": children_cpu() - cpu}
    if result.returncode != 0:
        sys.exit(f"the build failed (exit {result.returncode}):\n{result.stderr[-3000:]}")
    found = STEPS.search(result.stdout)
    if found is None:
        sys.exit(f"no step figures in the build's output:\n{result.stdout[-2000:]}")
    figures["pages"] = float(found.group(1))
    for part in found.group(2).split(", "):
        name, seconds, _ = part.split(" ")
        figures[name] = float(seconds)
    figures["load_before"], figures["load_after"] = load, os.getloadavg()[0]
    return figures


def show(label: str, figures: dict[str, float]) -> None:
    print(f"{label} build (wall): {figures['wall']:.1f} s")
    for step in ("validate", "measure", "render", "mkdocs"):
        if step in figures:
            print(f"{label} {step}: {figures[step]:.1f} s")
    print(f"{label} processor time (build and children): {figures['processor']:.1f} s")
    print(f"{label} load average before, after: {figures['load_before']:.1f}, "
          f"{figures['load_after']:.1f}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="cold and warm builds (default 1)")
    parser.add_argument("--jobs", type=int, default=None, help="the build's --jobs (default: all)")
    parser.add_argument("--rev", default="HEAD", help="the commit to build (default HEAD)")
    parser.add_argument("--keep", action="store_true", help="keep the clone and say where")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ur-bench-build-"))
    print(f"cores: {os.cpu_count()}; commit: {short(args.rev)}")
    try:
        for run in range(1, args.runs + 1):
            clone = folder / f"clone-{run}"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            subprocess.run(["git", "checkout", "-q", short(args.rev)], cwd=clone, check=True)
            cold = build(clone, args.jobs)
            show("cold", cold)
            warm = build(clone, args.jobs)
            show("warm", warm)
            own = sum(warm.get(step, 0.0) for step in ("validate", "measure", "render"))
            print(f"warm own steps / mkdocs: {own / warm['mkdocs']:.3f}")
            print(f"pages: {cold['pages']:.0f}")
    finally:
        if args.keep:
            print(f"kept: {folder}")
        else:
            subprocess.run(["rm", "-rf", str(folder)], check=False)
    return 0


def short(rev: str) -> str:
    """The commit ``rev`` names in this checkout, abbreviated."""
    return subprocess.run(
        ["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())
