"""Each bad input of issue 10 reproduced: one clear ``file:line`` line (or a usage error) and a
non-zero exit, never a traceback, a hang or a lost comment.

Every case runs the real command line in-process (:func:`generator.cli.main`) on a scratch copy
of ``variants/``, so what is asserted is what a user sees.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import VARIANTS

from generator.cli import main
from generator.model import schema, values

ALIAS_BOMB = "bomb:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9)
)
"""The "billion laughs": under 1 KB that expands to 9**9 (387 million) strings."""


class Run:
    """The exit code and the output of one in-process command."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A scratch project folder holding a copy of ``variants/``."""
    shutil.copytree(VARIANTS, tmp_path / "variants")
    return tmp_path


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], root: Path) -> Callable[..., Run]:
    def run(*argv: str) -> Run:
        try:
            code = main(["--root", str(root), *argv])
        except SystemExit as stop:  # argparse's usage errors
            code = stop.code if isinstance(stop.code, int) else 2
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err + captured.out
        return Run(code, captured.out, captured.err)

    return run


def edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / "variants" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def ruling_value(root: Path, name: str, question: str, new: str) -> None:
    """Give the ruling on ``question`` in variant file ``name`` the value ``new``."""
    path = root / "variants" / name
    text = path.read_text(encoding="utf-8")
    pattern = rf"(question: {question}\n\s+value: )[^\n]*"
    changed = re.sub(pattern, lambda m: m.group(1) + new, text, count=1)
    assert changed != text, f"no ruling on {question} in {name}"
    path.write_text(changed, encoding="utf-8")


# --- fmt (issue 10 items 2 and 9) -------------------------------------------------------------


def test_fmt_refuses_duplicate_keys(root: Path, cli: Callable[..., Run]) -> None:
    edit(root, "bell-1960.yml", "\ntitle:", "\ntitle: Kept silently before\ntitle:")
    before = (root / "variants/bell-1960.yml").read_text(encoding="utf-8")
    run = cli("fmt", str(root / "variants/bell-1960.yml"))
    assert run.code == 1
    assert "bell-1960.yml:3: duplicate key 'title'" in run.err
    assert (root / "variants/bell-1960.yml").read_text(encoding="utf-8") == before


@pytest.mark.parametrize("name", ["equipment.yml", "questions.yml"])
def test_fmt_keeps_comment_headers(name: str, root: Path, cli: Callable[..., Run]) -> None:
    before = (root / "variants" / name).read_text(encoding="utf-8")
    assert before.startswith("#")
    run = cli("fmt", str(root / "variants" / name))
    assert run.code == 1 and f"{name}:1: " in run.err and "by hand" in run.err
    assert (root / "variants" / name).read_text(encoding="utf-8") == before


def test_fmt_refuses_a_comment_it_would_drop(root: Path, cli: Callable[..., Run]) -> None:
    edit(root, "bell-1960.yml", "\ntitle:", "\n# a note for the editor\ntitle:")
    run = cli("fmt", str(root / "variants/bell-1960.yml"))
    assert run.code == 1 and "bell-1960.yml:2: a comment would be lost" in run.err


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("\nshort: ", "\nshort: ", 0),
        ("\nsimulate: true", "\nsimulate: true  # kept for the record", 7),
        ("\nderives_from: null", "\nderives_from: null # none", 6),
        ("\nrulings:", "\nrulings: # every ruling", 21),
        ("\n  question: board", "\n  question: board #board", 23),
    ],
    ids=["no-comment", "after-a-value", "one-space", "after-a-key", "no-space-after-hash"],
)
def test_fmt_refuses_a_trailing_comment_it_would_drop(
    old: str, new: str, line: int, root: Path, cli: Callable[..., Run]
) -> None:
    """A comment after a value is lost too (issue 10); a '#' inside a value is no comment."""
    path = root / "variants" / "bell-1960.yml"
    edit(root, "bell-1960.yml", old, new)
    edit(root, "bell-1960.yml", "\nshort: Bell 1960", "\nshort: 'Bell #1, C#'")  # no comment
    before = path.read_text(encoding="utf-8")
    run = cli("fmt", str(path))
    if line:
        assert run.code == 1 and run.lines == [
            f"{path}:{line}: a comment would be lost; move it into a note field"
        ], run.err
        assert path.read_text(encoding="utf-8") == before
    else:
        assert run.code == 0, run.err
        assert "Bell #1, C#" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "no such file"),
        (b"", "got nothing"),
        (b"- a\n- b\n", "got list"),
        (b"hello\n", "got str"),
        (b"id: \xff\xfe\n", "cannot read the file"),
        (b"id: [\n", "not valid YAML"),
    ],
    ids=["missing", "empty", "list", "scalar", "not-utf-8", "broken-yaml"],
)
def test_fmt_on_files_that_are_not_variants(
    content: bytes | None, expected: str, root: Path, cli: Callable[..., Run]
) -> None:
    path = root / "variants" / "x.yml"
    if content is not None:
        path.write_bytes(content)
    run = cli("fmt", str(path))
    assert run.code == 1
    assert run.lines == [run.lines[0]] and f"{path}:" in run.err and expected in run.err


def test_fmt_check_still_passes_on_the_data(root: Path, cli: Callable[..., Run]) -> None:
    assert cli("fmt", "--check").code == 0


# --- loading (items 4, 5, 12) -----------------------------------------------------------------


def test_alias_bomb_is_refused_at_its_line(root: Path, cli: Callable[..., Run]) -> None:
    path = root / "variants/sources.yml"
    lines = len(path.read_text(encoding="utf-8").splitlines())
    path.write_text(path.read_text(encoding="utf-8") + ALIAS_BOMB, encoding="utf-8")
    run = cli("validate")
    assert run.code == 1
    first = run.lines[0]
    assert first.startswith(f"{path}:") and "alias" in first
    assert lines < int(first.split(":")[1]) <= lines + 10


def test_values_the_engine_cannot_play(root: Path, cli: Callable[..., Run]) -> None:
    ruling_value(root, "finkel-great-book.yml", "throw-extra-throw", "[1000000000000]")
    run = cli("validate")
    assert run.code == 1
    assert "finkel-great-book.yml" in run.lines[0]
    assert f"must be a list of throws from 1 to {values.MAX_THROW}" in run.lines[0]


@pytest.mark.parametrize(("question", "value"), [("stacking", "10**6"), ("pieces", "8")])
def test_whole_numbers_have_an_upper_bound(
    question: str, value: str, root: Path, cli: Callable[..., Run]
) -> None:
    ruling_value(root, "finkel-great-book.yml", question, str(eval(value)))
    run = cli("validate")
    assert run.code == 1 and "must be a whole number from" in run.lines[0]


def test_long_ruling_id_is_refused(root: Path, cli: Callable[..., Run]) -> None:
    edit(root, "finkel-great-book.yml", "- id: gb-pieces", f"- id: {'a' * 5000}")
    run = cli("validate")
    assert run.code == 1
    assert f"shorten it to at most {schema.MAX_ID_LENGTH}" in run.lines[0]
    assert max(map(len, run.lines)) < 300


def test_id_length_is_one_fact() -> None:
    assert schema.variant_schema()["$defs"]["id"]["maxLength"] == schema.MAX_ID_LENGTH
    assert values.MAX_THROW == schema.MAX_THROW


def test_long_fraction_in_dice(root: Path, cli: Callable[..., Run]) -> None:
    """Two 4,300-digit fractions once crashed the message about their sum."""
    edit(root, "equipment.yml", "p: 1/8,", f"p: '1/{'7' * 4299}',")
    edit(root, "equipment.yml", "p: 1/8,", f"p: '1/{'1' * 4298}3',")
    run = cli("validate")
    assert run.code == 1
    assert "equipment.yml" in run.lines[0] and "shorten it to at most 40" in run.lines[0]
    assert max(map(len, run.lines)) < 300


def test_root_problem_in_sources_comes_alone(root: Path, cli: Callable[..., Run]) -> None:
    """One schema error in sources.yml once gave 297 lines, the real one at line 254."""
    edit(root, "sources.yml", "language: es", "language: spanish")
    run = cli("validate")
    assert run.code == 1
    assert "sources.yml" in run.lines[0] and "'spanish'" in run.lines[0]
    assert "two- or three-letter codes" in run.lines[0]
    assert len(run.lines) == 2  # the problem and the count


def test_root_problem_shows_when_one_file_is_named(root: Path, cli: Callable[..., Run]) -> None:
    """Naming a variant file once hid a broken sources.yml and printed ok."""
    edit(root, "sources.yml", "language: es", "language: spanish")
    run = cli("validate", str(root / "variants/bell-1960.yml"))
    assert run.code == 1 and "sources.yml" in run.lines[0]


def test_seed_outside_seeds_folder_is_not_read(root: Path, cli: Callable[..., Run]) -> None:
    edit(root, "sources.yml", "seed: 000_", "seed: ../../../../../../etc/passwd#")
    run = cli("validate")
    assert run.code == 1
    assert "sources.yml" in run.lines[0] and "without folders" in run.lines[0]
    assert "passwd" not in "".join(run.lines[1:])


# --- validate's file arguments (item 8) -------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("/no/such/file.yml", "no such file"),
        ("variants/seeds", "is a folder"),
        ("README.md", "not a variant file"),
        ("variants/sources.yml", "not a variant file"),
        ("9" * 5000, "cannot read it"),
    ],
)
def test_validate_refuses_what_it_cannot_check(
    name: str, expected: str, root: Path, cli: Callable[..., Run]
) -> None:
    path = name if name.startswith("/") else str(root / name)
    (root / "README.md").write_text("not yaml\n", encoding="utf-8")
    run = cli("validate", path)
    assert run.code == 2 and len(run.lines) == 1 and path.startswith(run.lines[0].split(":1: ")[0])
    assert expected in run.err


def test_validate_one_good_file(cli: Callable[..., Run], root: Path) -> None:
    run = cli("validate", str(root / "variants/bell-1960.yml"))
    assert run.code == 0 and run.out.startswith("ok: 1 variant file(s)")


# --- simulate, solve, moves arguments (item 9) ------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "finkel-great-book", "--games", "1000000000000"],
        ["simulate", "finkel-great-book", "--games", "0"],
        ["simulate", "finkel-great-book", "--seed", "-1"],
        ["simulate", "finkel-great-book", "--jobs", "0"],
        ["solve", "finkel-three-piece", "--pieces", "1000000000"],
        ["solve", "finkel-three-piece", "--max-memory-gb", "inf"],
        ["solve", "finkel-three-piece", "--max-memory-gb", "1e400"],
        ["solve", "finkel-three-piece", "--max-memory-gb", "nan"],
        ["solve", "finkel-three-piece", "--max-memory-gb", "-1"],
        ["moves", "finkel-three-piece", "start", "1_0"],
        ["moves", "finkel-three-piece", "start", "9" * 5000],
        ["bench", "--seconds", "inf"],
    ],
    ids=lambda argv: " ".join(argv[-2:]),
)
def test_out_of_range_arguments_are_usage_errors(argv: list[str], cli: Callable[..., Run]) -> None:
    run = cli(*argv)
    assert run.code == 2
    option = argv[-2] if argv[-2].startswith("--") else "throw"
    assert f"argument {option}" in run.lines[-1]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("pieces=[", "--set: pieces: not valid YAML"),
        ("entry={throws: any, square: throw, name: 2001-01-01}", "not plain data"),
        ("pieces=&a [*a]", "--set: pieces:"),
    ],
)
def test_bad_set_values(change: str, expected: str, cli: Callable[..., Run]) -> None:
    run = cli("simulate", "finkel-great-book", "--games", "10", "--set", change)
    assert run.code == 2 and run.lines == [run.lines[0]] and expected in run.lines[0]


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        ("1_0,0,0/0,0,0 L", "whole numbers from 0 to 15"),
        ("15,15,15/15,15,15 L", "both sides have borne off every piece"),
        (f"{'9' * 5000},0,0/0,0,0 L", "whole numbers from 0 to 15"),
        ("٣,0,0/0,0,0 L", "whole numbers from 0 to 15"),
        ("15,15,15/0,0,0 D", "the game is over: light has borne off every piece"),
        ("0,4,8/15,15,15 L", "the game is over: dark has borne off every piece"),
    ],
    ids=["underscore", "both-off", "5000-digits", "arabic-digit", "light-won", "dark-won"],
)
def test_impossible_positions(position: str, expected: str, cli: Callable[..., Run]) -> None:
    run = cli("moves", "finkel-three-piece", position, "2")
    assert run.code == 2 and run.lines == [run.lines[0]] and expected in run.lines[0]
    assert len(run.lines[0]) < 300


def test_a_sic_mark_not_in_its_quote_is_refused_at_its_line(
    root: Path, cli: Callable[..., Run]
) -> None:
    """A word marked [sic] must be a whole word of its quote: "rol" is part of "role"."""
    edit(root, "bell-1960.yml", "    sic: [role]", "    sic: [rol]")
    run = cli("validate")
    assert run.code == 1
    line = next(n for n, text in enumerate(bell_lines(root), 1) if text == "    sic: [rol]")
    assert f"variants/bell-1960.yml:{line}: " in run.lines[0], run.lines[0]
    assert "'rol' is not a whole word or phrase of this citation's quote" in run.lines[0]


def bell_lines(root: Path) -> list[str]:
    return (root / "variants" / "bell-1960.yml").read_text().splitlines()
