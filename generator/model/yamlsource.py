"""Safe YAML loading that remembers the line of every value, for ``file:line: message`` errors."""

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


class YamlError(Exception):
    """The file is not YAML this project can read; carries the problem to report."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _convert(node: yaml.Node, path: JsonPath, lines: dict[JsonPath, int], doc: str) -> Any:
    # A mapping value keeps the line of its key (set by the caller), so a problem with a block
    # value such as ``rulings:`` points at the key, not at the value's first item.
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _convert(key_node, (*path, "<key>"), {}, doc)
            if not isinstance(key, str | int | bool) and key is not None:
                raise YamlError(
                    Problem(doc, key_node.start_mark.line + 1, "keys must be plain words")
                )
            if key in result:
                raise YamlError(
                    Problem(
                        doc,
                        key_node.start_mark.line + 1,
                        f"duplicate key {key!r}; keep one of them",
                    )
                )
            skey = key if isinstance(key, str) else str(key)
            lines[(*path, skey)] = key_node.start_mark.line + 1
            result[key] = _convert(value_node, (*path, skey), lines, doc)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), lines, doc) for i, item in enumerate(node.value)]
    return yaml.constructor.SafeConstructor().construct_object(node, deep=True)


_COMPOSER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it (about 20 times faster; same nodes and line marks)."""


def load_document(path: Path, text: str | None = None) -> Document:
    """Parse ``path`` (or ``text`` given for it) safely, keeping line numbers.

    Raises :class:`YamlError` naming the file and line for anything that is not plain YAML.
    """
    doc = str(path)
    try:
        source = path.read_text(encoding="utf-8") if text is None else text
    except (OSError, UnicodeDecodeError) as error:
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
        data = _convert(node, (), lines, doc)
    except yaml.constructor.ConstructorError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark is not None else 1
        raise YamlError(Problem(doc, line, f"unsupported YAML value: {error.problem}")) from error
    except (ValueError, TypeError, RecursionError) as error:
        raise YamlError(Problem(doc, 1, f"unsupported YAML value: {error}")) from error
    return Document(path, data, lines)
