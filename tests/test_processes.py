"""Forked children of a build (generator/processes.py): a result comes back, an error is
raised here, a child that dies is reported, and leaving the block ends a child still running;
and where the compiled kernels are kept (generator/sim/__init__.py)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.processes import ChildFailed, Forked


def test_a_forked_result_comes_back_from_another_process() -> None:
    here = os.getpid()
    unpicklable_work = lambda: (os.getpid(), [n * n for n in range(5)])  # noqa: E731
    with Forked(unpicklable_work) as later:
        pid, squares = later.result()
    assert pid != here and squares == [0, 1, 4, 9, 16]


def test_a_forked_error_is_raised_in_the_parent() -> None:
    def fails() -> None:
        raise ValueError("variants/x.yml line 3: no such question")

    with Forked(fails) as later, pytest.raises(ValueError, match="no such question"):
        later.result()


def test_a_child_that_dies_is_reported() -> None:
    killed = Forked(lambda: os.kill(os.getpid(), signal.SIGKILL))
    with killed as later, pytest.raises(ChildFailed, match="without a result"):
        later.result()


def test_leaving_the_block_ends_a_running_child() -> None:
    with Forked(lambda: time.sleep(60)) as later:
        child = later._process
        assert child.is_alive()
    assert not child.is_alive()


def test_compiled_kernels_are_kept_by_the_version_of_their_sources(tmp_path: Path) -> None:
    """The compiled kernels go to .cache/numba/<key> of the checkout, the key changing with any
    source file of generator/sim, generator/solver or generator/claims (a kernel inlines kernels
    of other files, the solver's those of the simulator)."""
    import generator
    from generator.sim import KERNEL_PACKAGES, NUMBA_CACHE_ROOT, numba_cache_folder

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    script = "import generator.sim.fast, numba.core.config as c; print(c.CACHE_DIR)"
    shown = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert Path(shown) == numba_cache_folder() and Path(shown).parent == NUMBA_CACHE_ROOT
    copy = tmp_path / "generator"
    for name in KERNEL_PACKAGES:
        shutil.copytree(Path(generator.__file__).parent / name, copy / name)
    assert numba_cache_folder(copy) == numba_cache_folder()
    for name in ("sim/fast.py", "solver/solve_kernels.py", "claims/holder_wins.py"):
        kernels = copy / name
        kept = kernels.read_text()
        kernels.write_text(kept + "\n# one more line\n")
        assert numba_cache_folder(copy) != numba_cache_folder(), name
        kernels.write_text(kept)
    assert numba_cache_folder(copy) == numba_cache_folder()
