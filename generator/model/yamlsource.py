"""Safe YAML loading that remembers the line of every value, for ``file:line: message`` errors.

Every YAML file the project reads goes through :func:`load_document` (variant files, the
edition history, the redirects, the site's own data): a file larger than
:data:`MAX_FILE_BYTES`, an alias bomb or a tag that builds a Python object is refused with
its file and line, in time bounded by the file's size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

JsonPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, reported as ``file:line: message``."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class Document:
    """A parsed YAML file: plain Python data plus the line (1-based) of every node."""

    path: Path
    data: Any
    lines: dict[JsonPath, int] = field(default_factory=dict)

    def line_of(self, path: JsonPath) -> int:
        """The line of the value at ``path``, or of its nearest ancestor that has one."""
        probe = tuple(path)
        while probe:
            if probe in self.lines:
                return self.lines[probe]
            probe = probe[:-1]
        return self.lines.get((), 1)

    def problem(self, path: JsonPath, message: str) -> Problem:
        return Problem(str(self.path), self.line_of(path), message)


def shown(value: Any) -> str:
    """``value`` for a one-line message, cut to a readable length (huge numbers included)."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long to print
        return "(a number of thousands of digits)"
    return text if len(text) <= 60 else f"{text[:57]}..."


class YamlError(Exception):
    """The file is not YAML this project can read; carries the problem to report."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def shown_value(node: yaml.Node) -> str:
    return repr(node.value[:40]) if isinstance(node.value, str) else "here"


PLAIN_TAGS = frozenset({"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"})
"""The tags a list or mapping may have: the plain ones. Any other (``!!python/object/apply``,
``!!set``) would be read here as a plain list or mapping, silently unlike what it says."""


class _Converter:
    """Turns composed YAML nodes into plain data, recording each value's line.

    Aliases are expanded, so a small file can name an enormous value (the "billion laughs"):
    a file holds fewer values than characters unless aliases repeat them, so expanding more
    values than that (plus a margin) stops with the line of the alias that went over.
    """

    def __init__(self, doc: str, budget: int) -> None:
        self.doc = doc
        self.budget = budget
        self.constructor = yaml.constructor.SafeConstructor()

    def convert(self, node: yaml.Node, path: JsonPath, lines: dict[JsonPath, int]) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise YamlError(
                Problem(
                    self.doc,
                    node.start_mark.line + 1,
                    "aliases here repeat values far beyond the file's size (an alias bomb?);"
                    " write the values out instead of repeating them with *aliases",
                )
            )
        # A mapping value keeps the line of its key (set by the caller), so a problem with a
        # block value such as ``rulings:`` points at the key, not at the value's first item.
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in PLAIN_TAGS:
            raise YamlError(
                Problem(
                    self.doc,
                    node.start_mark.line + 1,
                    f"unsupported YAML tag {node.tag[:60]!r}; write plain lists and mappings",
                )
            )
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, lines)
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, (*path, i), lines) for i, item in enumerate(node.value)]
        try:
            return self.constructor.construct_object(node, deep=True)
        except ValueError as error:  # a timestamp that is no day (2024-02-30), say
            raise YamlError(
                Problem(
                    self.doc,
                    node.start_mark.line + 1,
                    f"unsupported YAML value {shown_value(node)}: {error};"
                    " correct it, or quote it if it is text",
                )
            ) from error

    def mapping(self, node: yaml.MappingNode, path: JsonPath, lines: dict[JsonPath, int]) -> Any:
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            key = self.convert(key_node, (*path, "<key>"), {})
            if not isinstance(key, str | int | bool) and key is not None:
                raise YamlError(Problem(self.doc, line, "keys must be plain words"))
            if key in result:
                raise YamlError(Problem(self.doc, line, f"duplicate key {key!r}; keep one of them"))
            skey = key if isinstance(key, str) else str(key)
            lines[(*path, skey)] = line
            result[key] = self.convert(value_node, (*path, skey), lines)
        return result


MAX_FILE_BYTES = 16 * 2**20
"""The largest file read (16 MiB): the largest the project holds (the edition history) is
about 130 KB, so this leaves a hundred times its growth and refuses a file that could only be
a mistake or an attack before parsing it."""


def read_limited(path: Path) -> str:
    """``path``'s text (UTF-8), reading no more than :data:`MAX_FILE_BYTES` of it; an
    :class:`OSError`, :class:`UnicodeDecodeError`, or :class:`ValueError` for a larger file."""
    with path.open("rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(
            f"larger than {MAX_FILE_BYTES // 2**20} MiB, far beyond any file of this project"
        )
    return data.decode("utf-8")


ALIAS_MARGIN = 10_000
"""Values a file may hold beyond one per character of its text before aliases are refused."""


_COMPOSER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it (about 20 times faster; same nodes and line marks)."""


def load_document(path: Path, text: str | None = None) -> Document:
    """Parse ``path`` (or ``text`` given for it) safely, keeping line numbers.

    Raises :class:`YamlError` naming the file and line for anything that is not plain YAML.
    """
    doc = str(path)
    try:
        source = read_limited(path) if text is None else text
        if len(source) > MAX_FILE_BYTES:
            raise ValueError(f"longer than {MAX_FILE_BYTES // 2**20} MiB")
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise YamlError(Problem(doc, 1, f"cannot read the file: {error}")) from error
    try:
        node = yaml.compose(source, Loader=_COMPOSER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else 1
        raise YamlError(
            Problem(doc, line, f"not valid YAML: {error.problem}; check indentation and quoting")
        ) from error
    except yaml.YAMLError as error:
        raise YamlError(Problem(doc, 1, f"not valid YAML: {error}")) from error
    if node is None:
        return Document(path, None, {(): 1})
    lines: dict[JsonPath, int] = {}
    try:
        data = _Converter(doc, len(source) + ALIAS_MARGIN).convert(node, (), lines)
    except yaml.constructor.ConstructorError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark is not None else 1
        raise YamlError(Problem(doc, line, f"unsupported YAML value: {error.problem}")) from error
    except (ValueError, TypeError, RecursionError) as error:
        raise YamlError(Problem(doc, 1, f"unsupported YAML value: {error}")) from error
    return Document(path, data, lines)


def load_data(path: Path) -> Any:
    """The plain data of ``path`` through the same guard (:func:`load_document`), for a file
    whose lines are not needed (the site's own vocabulary, glossary, open questions)."""
    return load_document(path).data
