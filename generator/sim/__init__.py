"""Simulation: seeded self-play of any compiled variant, agents, statistics and records.

The exact solver (:mod:`generator.solver`) and the claim checks (:mod:`generator.claims`) are
the layers above. The native kernel (:mod:`generator.sim.fast`) plays whole games from flat arrays
(:mod:`generator.sim.encode`); :mod:`generator.sim.records` caches every result as JSON keyed by
everything that could change it; :mod:`generator.sim.suite` runs what the site needs.
"""

from __future__ import annotations

import hashlib
import os
import platform
from importlib.metadata import version
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""``generator/``."""

NUMBA_CACHE_ROOT = PACKAGE_DIR.parent / ".cache" / "numba"
"""Where the compiled kernels are kept, one folder per version of their sources."""

KERNEL_PACKAGES = ("sim", "solver", "claims")
"""The subpackages of ``generator/`` that hold native kernels: the simulator's here, and the
exact solver's and the claim checks' (later layers), whose kernels call and inline these."""


def kernel_sources(package: Path = PACKAGE_DIR) -> list[Path]:
    """Every source file of :data:`KERNEL_PACKAGES` in ``package`` (``generator/``)."""
    return sorted(path for name in KERNEL_PACKAGES for path in (package / name).glob("*.py"))


def numba_cache_folder(package: Path = PACKAGE_DIR) -> Path:
    """The compiled kernels' folder: keyed by the SHA-256 of every source file a kernel can
    reach (:func:`kernel_sources`: a kernel inlines the kernels it calls from other files, even
    of another subpackage, which numba's own check, by each file's date and size, does not see),
    numba's and Python's versions and the machine; so a compiled kernel is never read for
    sources it was not compiled from."""
    digest = hashlib.sha256()
    for path in kernel_sources(package):
        data = path.read_bytes()
        name = path.relative_to(package).as_posix()
        digest.update(f"{name}\0{len(data)}\0".encode())
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
