"""One home for wording (issue 41 item 4): a page's words live in the templates
(``generator/site/templates/``) and the vocabulary (``generator/site/data/vocabulary.yml``);
Python supplies values. Read on the source, each check fails at file:line:

- a template line of 200 characters or more (break it after a block tag, inside a tag, into a
  macro, or where prose runs on with an empty comment ``{##}``, which prints nothing and, with
  ``trim_blocks``, takes the line's end with it);
- a second list joiner: a list joined in a template by its own loop separators or ``join``
  instead of the ``listed`` macro or ``listing`` filter, or in the package by a literal
  separator's ``join`` instead of :func:`generator.words.listing`;
- a folder of the repository (``results/``, ``.cache/``, ``generator/``...) named in a page's
  words, in a template outside its comments or in a hand-written page: a reader cannot open
  it, and the site talks about its sources, not about how it is made (the README does that);
- an English sentence (three words or more) in a string literal of ``generator/site``'s or
  ``generator/claims``'s Python (the claims' findings are worded by the claims page) that is
  not a docstring, an error, a progress line, or on the lists below of text that reaches no
  page or that is still to move.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from generator.site.navigation import HAND_WRITTEN

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "generator" / "site" / "templates"
SITE = ROOT / "generator" / "site"
WORDED_DIRECTORIES = ("site", "claims")
"""The packages whose Python must hold no page text: the pages, and the claim checks (whose
findings the claims page words)."""
LONGEST = 199
"""The longest template line allowed, in characters."""


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def templates() -> list[Path]:
    return sorted(TEMPLATES.glob("*.j2"))


def test_template_lines_are_under_200_characters() -> None:
    long = [
        f"{where(path, n)}: {len(line)} characters"
        for path in templates()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > LONGEST
    ]
    assert not long, "template lines of 200 characters or more:\n" + "\n".join(long)


FOLDERS = r"\.cache|results|generator|variants|tests|bench|scripts"
REPOSITORY_FOLDER = re.compile(rf"`[^`\n]*?(?<![\w.-])(?:{FOLDERS})/[^`\n]*`")
"""A code span naming a folder of the repository: ``results/full-games.json``, ``.cache/sim/``
(a link's target is not a code span, so ``[a rulebook](variants/x.md)`` is not one)."""
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)


def folder_mentions(text: str) -> Iterator[tuple[int, str]]:
    """Each code span of ``text`` naming a repository folder, with its line; a Jinja comment
    is blanked first, its lines kept, so the lines stay the file's."""
    text = JINJA_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    for n, line in enumerate(text.splitlines(), 1):
        yield from ((n, found.group(0)) for found in REPOSITORY_FOLDER.finditer(line))


def test_no_page_names_a_folder_of_the_repository() -> None:
    pages = [*templates(), *(ROOT / "docs" / name for name in HAND_WRITTEN)]
    found = [
        f"{where(path, n)}: {span}"
        for path in pages
        for n, span in folder_mentions(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "a page names a folder of the repository: say in words what it holds (the README may"
        " name the folder):\n" + "\n".join(found)
    )


LOOP_SEPARATOR = re.compile(r"\{\{[^}]*\bif\s+(?:not\s+)?loop\.(?:last|first|revindex|index)")
"""A separator printed by a loop of its own: ``{{ ", " if not loop.last }}``."""
TEMPLATE_JOIN = re.compile(r"\|\s*join\(|\bjoints\(")
"""Jinja's ``join`` filter, or the joiner's separators called outside the ``listed`` macro."""
LOOP_LAST_ALLOWED = {
    ("_macros.md.j2", "{{ after[loop.index0] if not loop.last else close }}"): "listed itself",
    ("short.md.j2", '{{ " (current)" if loop.last }}'): "the current edition, not a list",
}
TEMPLATE_JOINS_ALLOWED = {
    ("_macros.md.j2", "joints("): "the listed macro itself",
    ("_macros.md.j2", "| join(','"): "a data attribute the page's script reads, not words",
}


def test_templates_join_lists_with_the_one_joiner() -> None:
    found = []
    for path in templates():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            mine = [start for name, start in LOOP_LAST_ALLOWED if name == path.name]
            if LOOP_SEPARATOR.search(line) and not any(start in line for start in mine):
                found.append(f"{where(path, n)}: a loop's own separator; use m.listed")
            for m in TEMPLATE_JOIN.finditer(line):
                allowed = any(
                    path.name == name and line[m.start() :].startswith(start)
                    for name, start in TEMPLATE_JOINS_ALLOWED
                )
                if not allowed:
                    found.append(f"{where(path, n)}: {m.group()}; use m.listed or | listing")
    assert not found, "lists joined outside the one joiner:\n" + "\n".join(found)


SEPARATORS = {", ", "; ", " and ", " or ", " · ", " = ", ",", "; with "}
"""Literal separators whose ``join`` would make a second list joiner."""
JOINER_DIRECTORIES = ("site", "claims")
JOINS_ALLOWED = {
    "generator/site/cite.py": "citation formats' own syntax (BibTeX, RIS), not sentences",
    "generator/site/edition.py": "errors naming the keys an editions file needs",
    "generator/site/settings.py": "an error naming the malformed settings",
    "generator/site/pipeline.py": "build errors naming missing modules",
    "generator/claims/claim_checks.py": "an error naming the known checks",
}


def python_files(*folders: str) -> Iterator[Path]:
    for folder in folders:
        yield from sorted((ROOT / "generator" / folder).rglob("*.py"))


def separator_joins(path: Path) -> Iterator[tuple[int, str]]:
    """``", ".join(...)`` and its kind: a literal separator joining a list."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant)
            and node.func.value.value in SEPARATORS
        ):
            yield node.lineno, node.func.value.value


def test_one_list_joiner_in_the_package() -> None:
    found = [
        f"{where(path, line)}: {separator!r}.join; use generator.words.listing"
        for path in python_files(*JOINER_DIRECTORIES)
        if str(path.relative_to(ROOT)) not in JOINS_ALLOWED
        for line, separator in separator_joins(path)
    ]
    joiners = [
        f"{where(path, node.lineno)}: def {node.name}; the joiner is generator.words.joints"
        for path in python_files(*JOINER_DIRECTORIES)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name.strip("_") in ("listing", "joints")
    ]
    assert not found + joiners, "a second list joiner:\n" + "\n".join(found + joiners)


SENTENCE = re.compile(r"(?<![\w-])[A-Za-z][a-z’']*(?: [A-Za-z][a-z’']*){2,}(?![\w-])")
"""Three words or more in a row: English, not markup, a file name or a machine value."""
QUIET_CALLS = {"log", "print", "fail", "warn", "report_damaged", "NoWords"}
"""Calls whose text goes to a developer or the terminal, never to a page (and any ``*Error``
and ``raise``)."""
NOT_ON_PAGES = {
    "generator/site/pipeline.py": "the build's errors and progress lines",
    "generator/site/settings.py": "errors in the site's settings",
    "generator/site/site_folder.py": "errors about the site folder, and its stamp file",
    "generator/site/edition.py": "errors in the editions file, and the file's own header",
    "generator/site/edition_history.py": "errors in the editions' lock",
    "generator/site/reader_text.py": "the reader-text checks: which pages they skip, and why",
    "generator/site/charts.py": "a matplotlib option ('outside lower left')",
    "generator/claims/figures.py": "reports of damaged or stale committed figures",
    "generator/claims/behaviour.py": "a pinned sentence the claims' behaviour digest parses",
}
"""Modules whose text reaches no page."""
ALLOWED = {
    "generator/site/cite.py": (
        "Royal Game of Ur variants",  # the citation files' fixed title and author
        "Ur Variants contributors",
        "The site's address was not configured",  # a comment in the citation files
        "Source quoted at: {}",  # the citation's note field, in the files' own syntax
        "Sources quoted at: {}",
    ),
    "generator/site/reference_pages.py": (
        "Not seen by this edition.",  # also read by the reader-text checks (NOT_SEEN)
    ),
    # What a claim check computes, named in the progress line reporting a figure not committed
    # (generator.claims.figures.committed_or_computed's ``what``), and the sums named in the
    # forward pass's error.
    "generator/claims/game_minutes.py": ("the greedy games of {}",),
    "generator/claims/reachability.py": ("the positions of {} with {}", "the random games of {}"),
    "generator/claims/holder_wins.py": ("games taken or not", "throws against the expected length"),
    # Reader-facing, still to move: the engine's verdict words and the worked examples belong
    # to the measurement step that owns them (issue 41 item 3, the pages-read branch).
    "generator/site/compare_pages.py": (),
    "generator/site/examples.py": (),
}
"""Literals allowed by module (every literal of a module given an empty tuple): text that
reaches no page, then reader-facing text still to move into the templates or the vocabulary."""


def literal_text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def quiet(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether the literal is part of an error, a raise or a line for the terminal."""
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.Raise):
            return True
        if isinstance(parent, ast.Call):
            func = parent.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in QUIET_CALLS or name.endswith("Error"):
                return True
        parent = parents.get(id(parent))
    return False


def english_literals(path: Path) -> Iterator[tuple[int, str]]:
    """String literals of ``path`` holding three words or more, less docstrings (and the
    strings that document attributes) and quiet ones."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    documents = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant | ast.JoinedStr) or id(node) in documents:
            continue
        if isinstance(parents.get(id(node)), ast.JoinedStr):
            continue  # a part of an f-string: the whole f-string is read
        text = literal_text(node)
        if text and SENTENCE.search(text) and not quiet(node, parents):
            yield node.lineno, text


def test_no_english_sentences_in_the_pages_python() -> None:
    found = []
    for path in python_files(*WORDED_DIRECTORIES):
        name = str(path.relative_to(ROOT))
        if name in NOT_ON_PAGES:
            continue
        allowed = ALLOWED.get(name)
        for line, text in english_literals(path):
            if allowed == () or any(text.startswith(start) for start in allowed or ()):
                continue
            found.append(f"{where(path, line)}: {text[:80]!r}")
    assert not found, (
        "page text in Python: move the words to a template or to vocabulary.yml and pass"
        " the values (or, if it reaches no page, list it in tests/test_wording.py):\n"
        + "\n".join(found)
    )


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """Each check finds a planted case: a loop's own separator, a ``join``, a separator's
    join in Python, an English sentence in a literal; and leaves a docstring and an error."""
    assert LOOP_SEPARATOR.search('{% for a in b %}{{ a }}{{ ", " if not loop.last }}{% endfor %}')
    assert TEMPLATE_JOIN.search('{{ names | join(", ") }}')
    planted_page = "{# `results/x.json` in a comment\n #}kept in `results/x.json`, [a](variants/a)"
    assert list(folder_mentions(planted_page)) == [(2, "`results/x.json`")]
    assert not list(folder_mentions("`ur-variants full-games --check`"))
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""A module docstring of many words."""\n'
        "def f(xs):\n"
        '    """A function docstring of many words."""\n'
        "    if not xs:\n"
        '        raise ValueError("an error for a developer to read")\n'
        '    return "The pieces are " + " and ".join(xs)\n'
    )
    assert [line for line, _ in english_literals(planted)] == [6]
    assert list(separator_joins(planted)) == [(6, " and ")]
