"""The solver's parallel sweeps run parallel code, also when loaded from numba's disk cache.

Numba files a compiled function by module, name and line, not by its options; the sweeps are
compiled twice (parallel, and serial for small waves), so each needs its own name, or the
second process to start loads the first compilation for both (the seven-piece solve ran on
one thread that way). Each process here starts with the same fresh cache folder: the first
compiles the serial sweep before the parallel one, the second loads both from the cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import numba
import numpy as np
from generator.solver import solve_sweeps as sweeps

size = 64
values = np.full(size, 0.5)
policy = np.zeros(size, dtype=np.uint32)
probs = np.ones(1)
new_values = np.empty(size)
sweeps.evaluate_wave_serial(0, size, policy, probs, values, 0, new_values, False)
sweeps.evaluate_wave(0, size, policy, probs, values, 0, new_values, False)
print(numba.threading_layer())
"""


def run_probe(cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=False
    )


def test_parallel_sweep_runs_threads_after_loading_from_the_cache(tmp_path: Path) -> None:
    for attempt in ("compiles", "loads from the cache"):
        result = run_probe(tmp_path)
        # numba.threading_layer() raises until a parallel region has run in the process
        assert result.returncode == 0, f"when it {attempt}: {result.stderr[-2000:]}"
        assert result.stdout.strip(), f"when it {attempt}: no threading layer reported"
