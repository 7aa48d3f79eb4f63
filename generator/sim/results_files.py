"""Committed results: measurements too slow for every build, kept in ``results/``.

A results file is a checksummed JSON envelope (:func:`generator.sim.cache_files.write_json`)
whose payload names its layout (``results_format``) and says who made it: the command, the
commit, the date and the machine (:func:`provenance`). The build reads such files and never
recomputes them; the command that wrote one writes it again.
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from generator.sim.cache_files import read_json, write_json

RESULTS_DIR = Path(__file__).resolve().parents[2] / "results"


def provenance(root: Path, command: str, seconds: float) -> dict[str, Any]:
    """Who made the results: command, commit (flagged when generator/ or variants/ had
    uncommitted changes), date, machine (also given field by field: processor, cores,
    memory) and wall time."""
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
) -> None:
    """The tail every results command shares: save ``results`` with their provenance
    (``began`` is the command's :func:`time.perf_counter` at its start; they replace any
    provenance ``results`` carry), print the summary, and say where they went."""
    write_results(
        output, layout, {**results, **provenance(root, command, time.perf_counter() - began)}
    )
    for line in summary(results):
        print(line)
    print(f"written to {output}")


def write_results(path: Path, layout: int, results: dict[str, Any]) -> None:
    """Save ``results`` (plain JSON values) as layout ``layout``, atomically."""
    write_json(path, {"results_format": layout, **results})


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
