"""The one-way pipeline, checked on the source: every ``import`` in ``generator/`` (at the top,
inside functions and under ``TYPE_CHECKING`` alike, read with :mod:`ast`) goes to the importing
module's own layer or an earlier one, no group of modules imports itself round a cycle, and the
pages only read: ``generator/site`` imports none of the simulator, the solver, the claims or
the engine's play."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
LAYERS = (
    "processes",
    "words",
    "files",
    "model",
    "engine",
    "sim",
    "solver",
    "claims",
    "measure",
    "site",
    "build",
    "commands",
    "cli",
)
"""The pipeline's layers in order (the package's own docstring); a module of the package's top
(``generator.cli``, ``generator.__main__``) counts as ``cli``, ``generator.build`` (the build's
orchestration: validate, measure, render, mkdocs, publish) sits above the site and the
measurement it runs, ``generator.processes`` (child
processes that die with their parent) and ``generator.words`` (small numbers in words) and
``generator.files`` (files written whole or not at all) as utilities below everything."""
KNOWN_CYCLES: set[frozenset[str]] = set()
"""None: the catalogue's loader runs the checks, and the checks read what it loaded
(:mod:`generator.model.catalog_contents`) without importing the loader."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    parts = module.split(".")
    name = parts[1] if len(parts) > 1 else "cli"
    return LAYERS.index(name if name in LAYERS else "cli")


def imported(module: str, tree: ast.AST) -> Iterator[str]:
    """Every module of the package that ``tree`` (the source of ``module``) imports."""
    return (target for _, target in imported_at(module, tree))


def imported_at(module: str, tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every module of the package that ``tree`` imports, with the line of its import."""
    known = modules()
    package = module if modules()[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, a.name) for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in known:
                    yield node.lineno, target
                elif base in known:
                    yield node.lineno, base


@cache
def import_graph() -> dict[str, frozenset[str]]:
    graph = {}
    for module, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[module] = frozenset(set(imported(module, tree)) - {module})
    return graph


def cycles(graph: dict[str, frozenset[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan), each a cycle or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_import_graph_is_read() -> None:
    """The walk sees the imports this test guards (a blind walk would pass everything)."""
    graph = import_graph()
    assert "generator.measure.steps" in graph["generator.build"]
    assert "generator.site.generate" in graph["generator.build"]
    assert "generator.sim.suite" in graph["generator.measure.suite"]
    assert "generator.engine.rules" in graph["generator.solver.solve"]
    assert "generator.sim.agents" in graph["generator.solver"]


def test_no_layer_imports_a_later_one() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        for target in sorted(targets)
        if layer(target) > layer(module)
    ]
    assert wrong == [], f"layers are {' -> '.join(LAYERS)}: move the code down or invert it"


def test_nothing_below_the_site_imports_it() -> None:
    below = [m for m in import_graph() if layer(m) < LAYERS.index("site")]
    assert "generator.measure.steps" in below
    leaks = [
        f"{m} imports {t}"
        for m in below
        for t in import_graph()[m]
        if t.startswith("generator.site")
    ]
    assert leaks == []


SITE_READS = (
    "generator.model",
    "generator.engine.rules",
    "generator.engine.position",
    "generator.measure",
    "generator.site",
    "generator.files",
    "generator.words",
    "generator.processes",
)
"""What the pages may import: the validated model, the compiled rules and the position notation
(to draw boards and positions), the measurement's typed results, their own modules and the
utilities. Never the simulator, the solver, the claims or the engine's play (moves,
equivalence, effective rules): a page that played or decided would compute, not read."""


def forbidden_site_imports(sources: dict[str, str]) -> list[str]:
    """Each import of a module outside :data:`SITE_READS` in the given site modules' sources
    (by module name), as ``path:line imports module``."""
    found = []
    for module, source in sorted(sources.items()):
        path = modules()[module].relative_to(PACKAGE.parent)
        for line, target in sorted(imported_at(module, ast.parse(source))):
            allowed = any(target == ok or target.startswith(f"{ok}.") for ok in SITE_READS)
            if not allowed:
                found.append(f"{path}:{line} imports {target}")
    return found


def site_sources() -> dict[str, str]:
    return {
        module: path.read_text(encoding="utf-8")
        for module, path in modules().items()
        if module == "generator.site" or module.startswith("generator.site.")
    }


def test_the_pages_only_read() -> None:
    wrong = forbidden_site_imports(site_sources())
    assert wrong == [], (
        "the site reads the measurement (generator.measure) and draws with the compiled rules;"
        " move the computation into generator/measure:\n" + "\n".join(wrong)
    )


def test_a_page_playing_a_move_would_be_caught() -> None:
    """The old shape: the worked examples played their moves through the engine, and the
    statistics page judged significance with the simulator's statistics."""
    sources = site_sources()
    page = "generator.site.examples"
    sources[page] += "\nfrom generator.engine.moves import legal_moves\n"
    sources["generator.site.render"] += "\n\ndef f():\n    import generator.sim.stats\n"
    wrong = forbidden_site_imports(sources)
    examples_line = sources[page].count("\n")
    assert f"generator/site/examples.py:{examples_line} imports generator.engine.moves" in wrong
    assert any(
        w.startswith("generator/site/render.py:") and w.endswith("generator.sim.stats")
        for w in wrong
    )
    assert len(wrong) == 2


def test_no_import_cycles() -> None:
    found = [sorted(group) for group in cycles(import_graph()) if group not in KNOWN_CYCLES]
    assert found == [], "modules importing each other round a cycle (TYPE_CHECKING included)"


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": frozenset({"b"}), "b": frozenset({"a"})}, [frozenset({"a", "b"})]),
        ({"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset()}, []),
        (
            {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"})},
            [frozenset({"a", "b", "c"})],
        ),
    ],
)
def test_cycles_are_found(graph: dict[str, frozenset[str]], expected: list[frozenset[str]]) -> None:
    assert cycles(graph) == expected


def test_a_build_cycle_would_be_caught() -> None:
    """An old shape: the statistics page imported the build (for its options, under
    ``TYPE_CHECKING``), which imports the pages that import the statistics page."""
    source = textwrap.dedent(
        """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from generator.build import BuildOptions
        """
    )
    page = "generator.site.statistics_page"
    graph = dict(import_graph())
    graph[page] = graph[page] | set(imported(page, ast.parse(source)))
    assert any({page, "generator.build"} <= group for group in cycles(graph))
