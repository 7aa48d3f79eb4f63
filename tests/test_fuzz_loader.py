"""Malformed input never crashes the loader: it gives a list of problems or a clean error.

``load_document`` may raise only :class:`YamlError` (carrying a ``file:line: message``);
``load_catalog`` never raises and returns every problem. Any other exception is a bug.
Inputs: random bytes and text, random YAML structures, and real files mutated one or a few
places at a time (keys deleted, values of the wrong type, random strings in value slots).
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from conftest import VARIANTS, variant_ids
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.model.catalog import load_catalog
from generator.model.yamlsource import Problem, YamlError, load_document

FUZZ = settings(
    max_examples=int(os.environ.get("UR_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
"""150 examples per test in the suite; set UR_FUZZ_EXAMPLES=5000 for a long bug hunt."""

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**4), 10**4),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(
        ["any", "throw", "rosettes", "none", "mirror", "r2c4", "r9c99", "1/0", "1/8", "-1", "ur"]
    ),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["id", "value", "throws"]), inner, max_size=4
        )
    ),
    max_leaves=10,
)


def _assert_problems(problems: list[Problem]) -> None:
    for problem in problems:
        assert isinstance(problem, Problem)
        assert problem.line >= 1
        assert problem.message


def _load_text(text: str) -> None:
    try:
        load_document(Path("fuzz.yml"), text)
    except YamlError as error:
        _assert_problems([error.problem])


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(payload: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.yml"
        path.write_bytes(payload)
        try:
            load_document(path)
        except YamlError as error:
            _assert_problems([error.problem])


_YAML_TOKENS = st.sampled_from(
    [
        "- ",
        ": ",
        "\n",
        "  ",
        "{",
        "}",
        "[",
        "]",
        "&a ",
        "*a",
        "!!python/object ",
        "!!binary ",
        "? ",
        "|",
        ">",
        "'",
        '"',
        "#",
        "id",
        "rulings",
        "---",
        "...",
        "%YAML 1.1\n",
        "<<: ",
    ]
)


@FUZZ
@given(st.lists(_YAML_TOKENS | st.text(max_size=6), max_size=40).map("".join))
def test_random_text(text: str) -> None:
    _load_text(text)


class Workspace:
    """A scratch ``variants/`` folder with the shared data files and a few variant files."""

    def __init__(self, folder: Path, variants: list[str]) -> None:
        self.root = folder / "variants"
        self.root.mkdir()
        for name in ("sources.yml", "questions.yml", "equipment.yml"):
            shutil.copy(VARIANTS / name, self.root / name)
        (self.root / "seeds").symlink_to(VARIANTS / "seeds")
        for variant in variants:
            shutil.copy(VARIANTS / f"{variant}.yml", self.root / f"{variant}.yml")

    def load(self) -> list[Problem]:
        _, problems = load_catalog(self.root)
        _assert_problems(problems)
        return problems


@cache
def _parsed(name: str) -> Any:
    """A repository file's data (libyaml's parser when present: the tests run it often)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((VARIANTS / name).read_text(encoding="utf-8"), Loader=loader)


def _lineage(variant: str) -> list[str]:
    chain = [variant]
    while True:
        data = _parsed(f"{chain[-1]}.yml")
        parent = data.get("derives_from")
        if not parent or parent in chain or not (VARIANTS / f"{parent}.yml").exists():
            return chain
        chain.append(parent)


@FUZZ
@given(st.sampled_from(["variant", "sources.yml", "equipment.yml", "questions.yml"]), _VALUES)
def test_random_structures(target: str, data: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        space = Workspace(Path(folder), _lineage(variant_ids()[0]))
        name = "fuzz-variant.yml" if target == "variant" else target
        (space.root / name).write_text(yaml.safe_dump(data), encoding="utf-8")
        assert space.load(), f"random data in {name} gave no problem: {data!r}"


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


def _mutate(tree: Any, path: tuple[Any, ...], operation: str, value: Any) -> Any:
    if not path:
        return value
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if operation == "delete":
        del parent[last]
    elif operation == "insert-key" and isinstance(parent, dict):
        parent[f"{last}-extra"] = value
    else:
        parent[last] = value
    return tree


_OPERATIONS = st.sampled_from(["delete", "replace", "insert-key"])
_WRONG = _VALUES | st.sampled_from([[], {}, "", 0, -1, 99, True, None, "x" * 200])

_FILES = [*(f"{v}.yml" for v in variant_ids()), "sources.yml", "equipment.yml", "questions.yml"]


@FUZZ
@given(st.sampled_from(_FILES), st.data())
def test_mutated_real_files(name: str, draw: st.DataObject) -> None:
    tree = copy.deepcopy(_parsed(name))
    for _ in range(draw.draw(st.integers(1, 3), label="mutations")):
        paths = list(_paths(tree))
        path = draw.draw(st.sampled_from(paths), label="path")
        tree = _mutate(tree, path, draw.draw(_OPERATIONS, label="op"), draw.draw(_WRONG))
    variants = _lineage(name[:-4]) if name[:-4] in variant_ids() else [variant_ids()[0]]
    with tempfile.TemporaryDirectory() as folder:
        space = Workspace(Path(folder), variants)
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        text = yaml.dump(tree, Dumper=dumper, allow_unicode=True)
        (space.root / name).write_text(text, encoding="utf-8")
        space.load()


@FUZZ
@given(st.sampled_from(_FILES), st.integers(0, 10**6), st.text(max_size=5))
def test_mutated_real_text(name: str, where: int, splice: str) -> None:
    """Characters spliced into or cut out of a real file: parsed or cleanly refused."""
    text = (VARIANTS / name).read_text(encoding="utf-8")
    at = where % (len(text) + 1)
    _load_text(text[:at] + splice + text[at + len(splice) :])


# --- Aliases, deep nesting, huge numbers and markup (issue 10) ---------------------------------


@FUZZ
@given(st.integers(1, 12), st.integers(1, 12), st.booleans())
def test_alias_towers(width: int, depth: int, as_mapping: bool) -> None:
    """Each level repeats the one below ``width`` times: loaded when small, else refused."""
    lines = ["a0: &a0 lol"]
    for level in range(1, depth + 1):
        items = [f"*a{level - 1}"] * width
        body = (
            "{" + ", ".join(f"k{i}: {item}" for i, item in enumerate(items)) + "}"
            if as_mapping
            else "[" + ", ".join(items) + "]"
        )
        lines.append(f"a{level}: &a{level} {body}")
    _load_text("\n".join(lines) + "\n")


@FUZZ
@given(st.integers(1, 5000), st.sampled_from(["[", "{a: ", "- "]))
def test_deep_nesting(depth: int, opener: str) -> None:
    closer = {"[": "]", "{a: ": "}", "- ": ""}[opener]
    if opener == "- ":
        text = (
            "".join(" " * i + "- " + "\n" for i in range(0, 2 * depth, 2)) + " " * 2 * depth + "x\n"
        )
    else:
        text = opener * depth + "1" + closer * depth + "\n"
    _load_text(text)


_HUGE = st.one_of(
    st.integers(10**15, 10**40),
    st.integers(-(10**40), -(10**15)),
    st.just(10**4000),
    st.floats(1e300, 1e308),
    st.sampled_from([float("inf"), float("-inf"), float("nan"), "1e400", "9" * 5000]),
)
_MARKUP = st.sampled_from(
    [
        "<script>alert(1)</script>",
        "[x](javascript:alert(2))",
        "{{ 7*7 }}",
        "{% raw %}",
        "<!-- -->",
        "`code`",
        "**bold** _i_",
        "![i](http://example.invalid/x.png)",
        "&amp; &lt;",
        "| a | b |\n|---|---|",
        "\u202e reversed",
        "x" * 5000,
    ]
)


def _replace_leaves(node: Any, replace: Any) -> Any:
    if isinstance(node, dict):
        return {k: _replace_leaves(v, replace) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_leaves(v, replace) for v in node]
    return replace(node)


@FUZZ
@given(st.sampled_from(_FILES), _MARKUP, st.sampled_from(["every", "ends"]))
def test_markup_in_every_text_field(name: str, markup: str, where: str) -> None:
    """Every string of a real file replaced by (or wrapped in) markup: problems, no crash."""

    def dress(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        return markup if where == "every" else f"{markup} {value} {markup}"

    tree = _replace_leaves(_parsed(name), dress)
    variants = _lineage(name[:-4]) if name[:-4] in variant_ids() else [variant_ids()[0]]
    with tempfile.TemporaryDirectory() as folder:
        space = Workspace(Path(folder), variants)
        (space.root / name).write_text(yaml.safe_dump(tree, allow_unicode=True), encoding="utf-8")
        space.load()


@FUZZ
@given(st.sampled_from(_FILES), st.data())
def test_huge_numbers_in_real_files(name: str, draw: st.DataObject) -> None:
    """Numbers anywhere in a real file made enormous: problems, never a crash."""
    tree = copy.deepcopy(_parsed(name))
    for _ in range(draw.draw(st.integers(1, 3), label="mutations")):
        path = draw.draw(st.sampled_from(list(_paths(tree))), label="path")
        tree = _mutate(tree, path, "replace", draw.draw(_HUGE, label="huge"))
    variants = _lineage(name[:-4]) if name[:-4] in variant_ids() else [variant_ids()[0]]
    with tempfile.TemporaryDirectory() as folder:
        space = Workspace(Path(folder), variants)
        text = yaml.safe_dump(tree, allow_unicode=True).replace("'9999", "9999")
        (space.root / name).write_text(text, encoding="utf-8")
        space.load()
