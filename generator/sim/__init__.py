"""Simulation: seeded self-play of any compiled variant, agents, statistics and records.

The native kernel (:mod:`generator.sim.fast`) plays whole games from flat arrays
(:mod:`generator.sim.encode`); :mod:`generator.sim.records` caches every result as JSON keyed by
everything that could change it; :mod:`generator.sim.suite` runs what the site needs.
"""

from __future__ import annotations

import hashlib
import os
import platform
from importlib.metadata import version
from pathlib import Path

NUMBA_CACHE_ROOT = Path(__file__).resolve().parents[2] / ".cache" / "numba"
"""Where the compiled kernels are kept, one folder per version of their sources."""


def numba_cache_folder(sources: Path = Path(__file__).parent) -> Path:
    """The compiled kernels' folder: keyed by the SHA-256 of every source file of this package
    (a kernel inlines the kernels it calls from other files, which numba's own check, by each
    file's date and size, does not see), numba's and Python's versions and the machine; so a
    compiled kernel is never read for sources it was not compiled from."""
    digest = hashlib.sha256()
    for path in sorted(sources.glob("*.py")):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    digest.update(f"{version('numba')} {platform.python_version()} {platform.machine()}".encode())
    return NUMBA_CACHE_ROOT / digest.hexdigest()[:32]


def _use_numba_cache() -> None:
    """Compiled kernels go to :func:`numba_cache_folder` (inside ``.cache/``, so a clean
    checkout compiles afresh and ``make clean`` clears them), unless ``NUMBA_CACHE_DIR`` says
    where. Set in numba's configuration, not in the environment, so a process this one starts
    keys the folder by its own sources."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    from numba.core import config

    config.CACHE_DIR = str(numba_cache_folder())  # type: ignore[attr-defined]


_use_numba_cache()
