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
from pathlib import Path
from typing import Any

from generator.sim.cache_files import read_json, write_json

RESULTS_DIR = Path(__file__).resolve().parents[2] / "results"


def provenance(root: Path, command: str, seconds: float) -> dict[str, Any]:
    """Who made the results: command, commit (flagged when generator/ or variants/ had
    uncommitted changes), date, machine and wall time."""
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
        "machine": f"{platform.machine()}, {os.cpu_count()} cores,"
        f" {platform.python_implementation()} {platform.python_version()}",
        "wall_seconds": round(seconds, 1),
    }


def write_results(path: Path, layout: int, results: dict[str, Any]) -> None:
    """Save ``results`` (plain JSON values) as layout ``layout``, atomically."""
    write_json(path, {"results_format": layout, **results})


def read_results(path: Path, layout: int) -> dict[str, Any] | None:
    """The results saved at ``path``, or ``None`` when missing, damaged or of another layout."""
    data = read_json(path)
    if not isinstance(data, dict) or data.get("results_format") != layout:
        return None
    return data
