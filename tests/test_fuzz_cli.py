"""Random command lines through :func:`generator.cli.main`, in-process: the exit code is 0, 1
or 2 and no exception escapes (a usage error is argparse's ``SystemExit(2)``).

The expensive steps (simulating, solving) are replaced by stand-ins, so every example stays
fast: what is fuzzed is reading the arguments and the checks made before any work starts.
Subcommands run on a scratch copy of ``variants/`` (``fmt`` may rewrite it).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import VARIANTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli import main

FUZZ = settings(
    max_examples=int(os.environ.get("UR_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

_WORDS = st.sampled_from(
    [
        "finkel-three-piece",
        "finkel-great-book",
        "no-such-variant",
        "start",
        "0,0,0/0,0,0 L",
        "15,15,15/15,15,15 D",
        "1_0,0,0/0,0,0 L",
        "0",
        "1",
        "2",
        "-1",
        "1_0",
        "1e400",
        "inf",
        "nan",
        "9" * 5000,
        "",
        "--",
        "-",
        "random,random",
        "perfect,random",
        "greedy",
        "pieces=5",
        "pieces=[",
        "pieces=&a [*a, *a]",
        "entry={throws: any, square: throw, name: 2001-01-01}",
        "throw-extra-throw=[1000000000000]",
        "safe-squares=rosettes",
        "variants/bell-1960.yml",
        "variants/sources.yml",
        "variants/equipment.yml",
        "variants/seeds",
        "/no/such/file.yml",
        "README.md",
        "<script>",
        "\x00",
        "é",
    ]
)
_OPTIONS = st.sampled_from(
    [
        "--games",
        "--seed",
        "--jobs",
        "--set",
        "--agents",
        "--pieces",
        "--max-memory-gb",
        "--json",
        "--check",
        "--no-cache",
        "--progress",
        "--help",
    ]
)
_COMMANDS = st.sampled_from(["validate", "fmt", "moves", "simulate", "solve"])
_ARGV = st.tuples(_COMMANDS, st.lists(_WORDS | _OPTIONS | st.text(max_size=12), max_size=8)).map(
    lambda parts: [parts[0], *parts[1]]
)


class _Refused(ValueError):
    pass


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        shutil.copytree(VARIANTS, root / "variants")
        (root / "README.md").write_text("# not a variant\n", encoding="utf-8")
        yield root


@pytest.fixture
def no_heavy_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulating and solving stand-ins: the fuzz checks everything before them."""
    import generator.sim.agents
    import generator.sim.records
    import generator.solver.solve

    def refuse(*_: Any, **__: Any) -> Any:
        raise generator.solver.solve.SolveRefused("a stand-in for the solver in the fuzz test")

    def no_solution(*_: Any, **__: Any) -> Any:
        raise generator.sim.agents.NoSolution("a stand-in for the solver in the fuzz test")

    monkeypatch.setattr(generator.sim.records, "simulate", lambda *_, **__: [])
    monkeypatch.setattr(generator.solver.solve, "solve", refuse)
    monkeypatch.setattr(generator.sim.agents, "exact_solution", no_solution)


@FUZZ
@given(argv=_ARGV)
def test_command_line_never_crashes(
    argv: list[str],
    scratch: Path,
    no_heavy_work: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    try:
        code = main(["--root", str(scratch), *argv])
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
    captured = capsys.readouterr()
    assert code in (0, 1, 2), f"{argv!r} exited {code}: {captured.err[-500:]}"
    assert "Traceback" not in captured.err
