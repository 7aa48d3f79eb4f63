"""Small rooms, read on the source with :mod:`ast`: no module of ``generator/`` over
:data:`MAX_MODULE_LINES` lines, no function (method and nested function alike) over
:data:`MAX_FUNCTION_LINES`, and no top-level subpackage holding more than
:data:`MAX_SUBPACKAGE_SHARE` of the package's lines. Each failure names ``file:line``."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 120
MAX_SUBPACKAGE_SHARE = 0.35


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{line}"


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> Iterator[tuple[int, str, int]]:
    """(line, name, lines) of every function in ``source`` longer than ``limit`` lines, from its
    ``def`` (decorators apart) to its last line."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                yield node.lineno, node.name, lines


def subpackage_shares() -> dict[str, float]:
    """Each top-level subpackage's share of the package's lines."""
    lines = {path: line_count(path) for path in sources()}
    total = sum(lines.values())
    shares: dict[str, float] = {}
    for path, count in lines.items():
        parts = path.relative_to(PACKAGE).parts
        if len(parts) > 1:
            shares[parts[0]] = shares.get(parts[0], 0.0) + count / total
    return shares


def test_the_walk_reads_the_package() -> None:
    """The walk sees modules, functions and subpackages (a blind walk would pass everything)."""
    assert PACKAGE / "sim" / "fast.py" in sources()
    assert {"model", "engine", "sim", "solver", "claims", "measure", "site"} <= set(
        subpackage_shares()
    )
    assert abs(sum(subpackage_shares().values()) - 1) < 0.05
    assert list(long_functions("def f():\n" + "    x = 1\n" * 3, limit=3)) == [(1, "f", 4)]


def test_no_module_is_too_long() -> None:
    long = [
        f"{where(path, 1)}: {count} lines, over {MAX_MODULE_LINES}: split it along a seam"
        for path in sources()
        if (count := line_count(path)) > MAX_MODULE_LINES
    ]
    assert long == []


def test_no_function_is_too_long() -> None:
    long = [
        f"{where(path, line)}: {name} has {lines} lines, over {MAX_FUNCTION_LINES}"
        for path in sources()
        for line, name, lines in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert long == []


def test_a_long_method_or_nested_function_is_found() -> None:
    source = textwrap.dedent(
        """
        class A:
            def method(self):
                def inner():
                    return 1
                return inner()
        """
    )
    assert [name for _, name, _ in long_functions(source, limit=2)] == ["method"]
    assert [name for _, name, _ in long_functions(source, limit=1)] == ["method", "inner"]


def test_no_subpackage_holds_too_much() -> None:
    heavy = [
        f"{where(PACKAGE / name / '__init__.py', 1)}: generator/{name}/ holds {share:.0%} of the"
        f" package's lines, over {MAX_SUBPACKAGE_SHARE:.0%}"
        for name, share in sorted(subpackage_shares().items())
        if share > MAX_SUBPACKAGE_SHARE
    ]
    assert heavy == []
