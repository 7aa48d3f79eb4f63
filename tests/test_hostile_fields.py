"""Hostile fields of issue 45 (items 7, 9, 12, 15, 16, 18, 19, 28), each written into a scratch
copy of ``variants/`` and validated: one ``file:line`` problem naming the fix, never a
traceback, a hang or a silent pass.

The catalogue is loaded in a forked child stopped after a time limit, so a case that hangs
(``Fraction("1e99999999")`` once did) fails its test instead of blocking the run; the command
line is also run as a user runs it, in a subprocess with a timeout.
"""

from __future__ import annotations

import multiprocessing
import queue
import re
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import VARIANTS, repository_catalog, simulated

from generator.cli import main
from generator.model import schema, values
from generator.model.catalog import load_catalog
from generator.model.equipment import parse_fraction
from generator.model.play_checks import MAX_GAME_THROWS, expected_game_throws
from generator.sim import fast

SECONDS = 120
"""Time limit for one validation: it takes seconds; a hang takes hours."""

Edit = Callable[[Path], int]
"""Changes the scratch ``variants/`` folder; returns the line the problem must be reported at."""


def replace(name: str, old: str, new: str) -> Edit:
    """Replace the first ``old`` in file ``name`` by ``new``; the line is where ``old`` begins
    (after any line breaks it starts with)."""

    def apply(folder: Path) -> int:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        start = text.index(old) + len(old) - len(old.lstrip("\n"))
        return text[:start].count("\n") + 1

    return apply


def field(name: str, key: str, value: str, nth: int = 0) -> Edit:
    """Give the ``nth`` ``key:`` of file ``name`` the YAML ``value``, dropping the old value's
    continuation lines; the line is that key's."""

    def apply(folder: Path) -> int:
        path = folder / name
        lines = path.read_text(encoding="utf-8").split("\n")
        hits = [i for i, line in enumerate(lines) if re.match(rf"^[ -]*{key}:", line)]
        i = hits[nth]
        column = len(re.match(r"^[ -]*", lines[i]).group(0))  # type: ignore[union-attr]
        end = i + 1
        while end < len(lines) and len(lines[end]) - len(lines[end].lstrip(" ")) > column:
            end += 1
        lines[i:end] = [f"{lines[i][:column]}{key}: {value}"]
        path.write_text("\n".join(lines), encoding="utf-8")
        return i + 1

    return apply


def shifted(edit: Edit, lines: int) -> Edit:
    """``edit``, its problem reported ``lines`` below the edited line (above when negative)."""
    return lambda folder: edit(folder) + lines


def _load(folder: Path, answer: multiprocessing.Queue[Any]) -> None:
    try:
        answer.put([str(p) for p in load_catalog(folder)[1]])
    except BaseException:
        answer.put(traceback.format_exc())


def problems_within(folder: Path, seconds: float = SECONDS) -> list[str]:
    """Every problem :func:`load_catalog` finds in ``folder``, from a forked child killed after
    ``seconds``: a hang or a traceback fails the test."""
    context = multiprocessing.get_context("fork")
    answer: multiprocessing.Queue[Any] = context.Queue()
    child = context.Process(target=_load, args=(folder, answer))
    child.start()
    try:
        found = answer.get(timeout=seconds)
    except queue.Empty:
        child.kill()
        pytest.fail(f"validation did not finish in {seconds} s")
    finally:
        child.join(timeout=10)
    assert isinstance(found, list), found  # a traceback comes back as its text
    return found


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(VARIANTS, tmp_path / "variants")
    return tmp_path / "variants"


def refused(folder: Path, edit: Edit, *words: str) -> list[str]:
    """Apply ``edit``; the first problem is at its file and line and says ``words``."""
    name_line = edit(folder)
    problems = problems_within(folder)
    assert problems, "the hostile field was accepted"
    first = problems[0]
    assert re.match(rf"^{re.escape(str(folder))}/[\w.-]+\.yml:{name_line}: ", first), first
    for word in words:
        assert word in first, first
    assert all(len(p) < len(str(folder)) + 400 for p in problems), "a message is too long"
    assert all(p.isprintable() for p in problems), "a message prints a raw control character"
    return problems


# --- 7: one line where one line is meant ------------------------------------------------------

ONE_LINE = {
    "variant title": replace("bell-1960.yml", "\ntitle: R. C.", '\ntitle: "Bell\\nTY  - JOUR" #'),
    "short name": replace("bell-1960.yml", "\nshort: Bell", '\nshort: "Bell\\nER  - " #'),
    "version label": replace("sources.yml", "label: file", 'label: "v1\\nER  - " #'),
    "locator": replace("bell-1960.yml", "locator: The sentence", 'locator: "p. 1\\nER  - " #'),
    "author": field("sources.yml", "author", '"A\\nB"'),
    "ruling id": replace("bell-1960.yml", "- id: bell-board", '- id: "bell-board\\n"'),
    "url": replace("sources.yml", "url: https://", 'url: "https://example.org/\\n" #'),
    "dice label": replace("equipment.yml", '"sheep 1, ox no"', '"sheep 1\\nox no"'),
    "source title": field("sources.yml", "title", '"A book\\nTY  - JOUR"'),
    "question title": field("questions.yml", "title", '"Board\\nER  - "'),
    "tab in a title": replace("bell-1960.yml", "\ntitle: R. C.", '\ntitle: "Bell\\t1960" #'),
}


@pytest.mark.parametrize("case", ONE_LINE)
def test_a_line_break_where_one_line_is_meant(case: str, folder: Path) -> None:
    refused(folder, ONE_LINE[case], "must be one line", "join the lines")


def test_prose_may_run_over_lines(folder: Path) -> None:
    """A summary, note, quote or translation may hold line breaks and tabs (pages join them)."""
    field("bell-1960.yml", "summary", '"First paragraph.\\n\\nSecond,\\tafter a tab."')(folder)
    field("sources.yml", "note", '"One line.\\nAnother."')(folder)
    assert problems_within(folder) == []


# --- 9: invisible characters, everywhere -------------------------------------------------------

INVISIBLE = {
    "escape in a title": (
        replace("bell-1960.yml", "\ntitle: R. C.", '\ntitle: "Bell \\e[31mred" #'),
        "an escape character (U+001B) at character 6",
    ),
    "bell in a ruling text": (
        replace("bell-1960.yml", "text: The Ur board", 'text: "ding\\a" #'),
        "a bell character (U+0007)",
    ),
    "right-to-left override in a summary": (
        field("bell-1960.yml", "summary", '"abc \\u202Egnp.exe"'),
        "a right-to-left override (U+202E) at character 5",
    ),
    "right-to-left override written raw in a quote": (
        replace("bell-1960.yml", "quote: Bell (1979)", "quote: \u202eBell (1979)"),
        "(U+202E) at character 1",
    ),
    "isolate in a locator": (
        replace("bell-1960.yml", "locator: The sentence", 'locator: "\\u2067x" #'),
        "a right-to-left isolate (U+2067)",
    ),
    "null in a note": (field("sources.yml", "note", '"a\\0b"'), "a null character (U+0000)"),
    "C1 control in a dice label": (
        replace("equipment.yml", '"sheep 1, ox no"', '"sheep\\x9b1"'),
        "a control character (U+009B)",
    ),
    "line separator in a title": (
        replace("bell-1960.yml", "\ntitle: R. C.", '\ntitle: "Bell\\u2028x" #'),
        "a line separator (U+2028)",
    ),
    "carriage return in a note": (
        field("sources.yml", "note", '"a\\rTY  - x"'),
        "a carriage return (U+000D)",
    ),
    "escape in a key": (
        replace("bell-1960.yml", "\ntitle: R. C.", '\n"k\\e": 1\ntitle: R. C.'),
        "the key 'k\\x1b' in the file holds an escape character",
    ),
}


@pytest.mark.parametrize("case", INVISIBLE)
def test_invisible_characters_are_refused(case: str, folder: Path) -> None:
    edit, words = INVISIBLE[case]
    refused(folder, edit, words, "delete it")


def test_a_lone_surrogate_cannot_be_written(folder: Path) -> None:
    """No page could be written with one; the YAML reader already refuses its escape."""
    refused(folder, field("sources.yml", "note", '"a\\uD800b"'))


# --- 12, 16, 18: numbers ------------------------------------------------------------------------

PROBABILITY = "write a fraction such as 1/8 or a decimal such as 0.125"
NUMBERS = {
    "huge exponent (hung)": (replace("equipment.yml", "p: 1/8,", "p: '1e99999999',"), PROBABILITY),
    "large exponent (20 to 60 s)": (
        replace("equipment.yml", "p: 1/8,", "p: '1e999999',"),
        PROBABILITY,
    ),
    "tiny exponent (traceback)": (
        replace("equipment.yml", "p: 1/8,", "p: '1e-999999',"),
        PROBABILITY,
    ),
    "1 in 0": (replace("equipment.yml", "p: 1/8,", "p: '1/0',"), PROBABILITY),
    "marked lots by exponent": (  # reported on the added line
        shifted(
            replace("equipment.yml", "    lots: 3\n", "    lots: 3\n    marked: '1e-99999'\n"), 1
        ),
        PROBABILITY,
    ),
    "not a number": (replace("equipment.yml", "p: 1/8,", "p: .nan,"), "a finite number, got nan"),
    "infinite": (replace("equipment.yml", "p: 1/8,", "p: -.inf,"), "a finite number, got -inf"),
    # Refused by the YAML reader (Python's 4,300-digit limit), in its own words.
    "5,000 digits": (replace("equipment.yml", "p: 1/8,", f"p: {'1' * 5000},"), ""),
    "4,000-digit year": (field("sources.yml", "year", "9" * 4000), "at most 2,100"),
    "400-digit year": (field("sources.yml", "year", "9" * 400), "at most 2,100"),
    "year before the game": (field("sources.yml", "year", "-50000"), "at least -3,000"),
    "whole number with a point": (
        replace("equipment.yml", "rows: 3\n", "rows: 3.0\n"),
        "rows must be integer, got 3.0",
    ),
}


@pytest.mark.parametrize("case", NUMBERS)
def test_numbers_are_bounded_before_they_are_read(case: str, folder: Path) -> None:
    edit, words = NUMBERS[case]
    refused(folder, edit, words)


def test_a_float_probability_is_read_by_its_written_form(folder: Path) -> None:
    """A float passes the schema's number type; its decimal form is checked before it is read
    (``1e-300`` would make a 300-digit denominator)."""
    replace("equipment.yml", "p: 1/8,", "p: 1.0e-300,")(folder)
    text = (folder / "equipment.yml").read_text(encoding="utf-8")
    dice_line = text[: text.index("- id: astragals-keep")].count("\n") + 1
    problems = problems_within(folder)
    assert "has the wrong form" in problems[0] and "'1e-300'" in problems[0]
    assert f"equipment.yml:{dice_line}: dice astragals-keep:" in problems[0]
    assert parse_fraction(0.125) == parse_fraction("1/8")


# --- 15: keys of several types -----------------------------------------------------------------


def test_unknown_keys_of_different_types(folder: Path) -> None:
    edit = replace("bell-1960.yml", "\ntitle: R. C.", "\n1: one\nfoo: two\ntitle: R. C.")
    refused(folder, edit, "unknown key 1 in the file")


def test_unknown_entry_keys_of_different_types(folder: Path) -> None:
    line = replace(
        "finkel-great-book.yml", "    throws: any\n", "    throws: any\n    1: a\n    b: c\n"
    )(folder)
    problems = problems_within(folder)
    assert "unknown keys 1, 'b'" in problems[0], problems
    assert f"finkel-great-book.yml:{line - 1}:" in problems[0]  # the ruling's value: key


# --- 19: a die that almost never moves a piece -------------------------------------------------


def test_a_near_zero_die_is_refused_with_the_reason(folder: Path) -> None:
    replace("equipment.yml", "    lots: 4\n", "    lots: 4\n    marked: 1/100000000\n")(folder)
    problems = problems_within(folder)
    assert problems
    for problem in problems:
        assert f"more than the {MAX_GAME_THROWS:,} a played rulebook may take" in problem
        assert "likelier moving (or entering) throws" in problem
    catalog = repository_catalog()
    users = {v.id for v in catalog.resolved() if v.dice.id == "four-binary" and v.variant.simulate}
    assert {Path(p.split(":")[0]).stem for p in problems} == users


SLOW_DICE = """  - id: slow
    title: Four lots almost never marked
    lots: 4
    marked: 1/100000000
    counts: {0: 0, 1: 1, 2: 2, 3: 3, 4: 4}
"""


def test_a_near_zero_die_played_by_a_change_is_refused(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No rulebook plays it, so it validates; playing one with it names the rulebook and the
    cause, where it once ran every game to its stop and said only "no game finished"."""
    path = folder / "equipment.yml"
    path.write_text(path.read_text(encoding="utf-8") + SLOW_DICE, encoding="utf-8")
    assert problems_within(folder) == []
    argv = ["--root", str(folder.parent), "simulate", "finkel-great-book", "--set", "dice=slow"]
    assert main([*argv, "--games", "10", "--jobs", "1", "--no-cache"]) != 0
    said = capsys.readouterr()
    assert "Traceback" not in said.out + said.err
    assert "finkel-great-book cannot be played with these changes: with dice slow" in said.err
    assert "a game would last about 5,250,000,010 throws" in said.err


def test_the_game_length_bound_leaves_every_rulebook_room() -> None:
    """Real rulebooks expect far fewer throws than the bound, and the simulation's stop is far
    beyond it (random play has lasted up to 14 times the estimate)."""
    catalog = repository_catalog()
    played = [v for v in catalog.resolved() if simulated(v.id)]
    longest = max(
        expected_game_throws(v.machine_values(), v.route.length, v.dice.table()) for v in played
    )
    assert 100 < longest < MAX_GAME_THROWS / 5
    assert fast.DEFAULT_MAX_THROWS >= 20 * MAX_GAME_THROWS


def test_game_length_estimate_for_one_piece_alone() -> None:
    """One piece on a one-step route, moved by a throw of 1 half the time: 2 throws to enter,
    2 to bear off; twice over for the two sides."""
    game = {"entry": {"throws": "any", "square": "throw"}, "pieces": 1, "bearing-off": "exact"}
    table = ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    assert expected_game_throws(game, 1, table) == pytest.approx(8)


# --- 28: sizes ----------------------------------------------------------------------------------

SIZES = {
    "long ruling text": (
        replace("bell-1960.yml", "text: The Ur board", f"text: {'x' * 100_000} #"),
        "is 100,000 characters long; shorten it to at most 2,000",
    ),
    "long title": (
        replace("bell-1960.yml", "\ntitle: R. C.", f"\ntitle: {'x' * 501} #"),
        "shorten it to at most 500",
    ),
    "long source title": (
        field("sources.yml", "title", "x" * 600),
        "shorten it to at most 500",
    ),
    "99,999,999,999 marked lots": (  # reported on the dice's first line
        shifted(
            replace(
                "equipment.yml",
                "counts: {0: 0, 1: 1, 2: 2, 3: 3}",
                "counts: {0: 0, 1: 1, 2: 2, 3: 3, 99999999999: 4}",
            ),
            -3,
        ),
        "counts names 99999999999 marked lots, but there are 3 lots",
    ),
    "a throw of 99,999,999,999": (
        replace(
            "equipment.yml",
            "counts: {0: 0, 1: 1, 2: 2, 3: 3}",
            "counts: {0: 0, 1: 1, 2: 2, 3: 99999999999}",
        ),
        "is too large; at most 100",
    ),
    "99,999,999,999 lots": (
        replace("equipment.yml", "lots: 3\n", "lots: 99999999999\n"),
        "at most 12",
    ),
    "many outcomes": (  # reported on outcomes:, just above
        shifted(
            replace(
                "equipment.yml",
                "      - {throw: 1, p: 1/8,",
                "      - {throw: 0, p: 0}\n" * 1000 + "      - {throw: 1, p: 1/8,",
            ),
            -1,
        ),
        "has 1,008 entries; at most 100",
    ),
    "many waypoints": (
        replace(
            "equipment.yml",
            "light: [r1c4, r1c1, r2c1, r2c8, r1c8, r1c7]",
            "light: [r1c4, " + "r1c1, r2c1, r2c8, r2c1, " * 100 + "r2c8, r1c8, r1c7]",
        ),
        "has 404 entries; at most 30",
    ),
    "long piece name": (  # reported on the ruling's value:
        shifted(replace("tablet-finkel-2007.yml", "name: swallow", f"name: {'s' * 61}"), -2),
        "name is 61 characters long; shorten it to at most 60",
    ),
}


@pytest.mark.parametrize("case", SIZES)
def test_sizes_are_bounded(case: str, folder: Path) -> None:
    edit, words = SIZES[case]
    refused(folder, edit, words)


def test_bounds_in_the_json_schema_are_the_python_ones() -> None:
    """variant.schema.json (for editors) repeats schema.py's bounds."""
    variant = schema.variant_schema()
    defs = variant["$defs"]
    assert variant["properties"]["title"]["maxLength"] == schema.MAX_TITLE
    assert variant["properties"]["summary"]["maxLength"] == schema.MAX_PROSE
    assert variant["properties"]["rulings"]["maxItems"] == schema.MAX_ENTRIES
    assert variant["properties"]["claims"]["maxItems"] == schema.MAX_ENTRIES
    citation = defs["citation"]["properties"]
    assert citation["locator"]["maxLength"] == schema.MAX_LABEL
    assert citation["quote"]["maxLength"] == citation["translation"]["maxLength"]
    assert citation["quote"]["maxLength"] == schema.MAX_PROSE
    assert citation["sic"]["maxItems"] == schema.MAX_SIC
    assert citation["sic"]["items"]["maxLength"] == schema.MAX_LABEL
    for kind, text in (("ruling", "text"), ("claim", "claim")):
        properties = defs[kind]["properties"]
        assert properties[text]["maxLength"] == schema.MAX_SENTENCE
        assert properties["note"]["maxLength"] == schema.MAX_PROSE
        assert properties["sources"]["maxItems"] == schema.MAX_CITATIONS
    reading = defs["claim"]["properties"]["reading"]["properties"]
    assert reading["reason"]["maxLength"] == schema.MAX_SENTENCE
    assert values.MAX_PIECES == 7 and schema.MAX_LOTS == 12


def test_the_readme_states_each_bound() -> None:
    readme = (VARIANTS / "README.md").read_text(encoding="utf-8")
    for bound in (
        schema.MAX_ID_LENGTH,
        schema.MAX_LABEL,
        schema.MAX_TITLE,
        f"{schema.MAX_SENTENCE:,}",
        f"{schema.MAX_PROSE:,}",
        f"{schema.MAX_URL:,}",
        values.MAX_NAME,
        f"from {schema.MIN_YEAR} to {schema.MAX_YEAR}",
        f"{schema.MAX_ENTRIES} entries",
        f"{schema.MAX_ROWS} rows",
        f"{schema.MAX_COLUMNS} columns",
        f"| {schema.MAX_WAYPOINTS} (",
        f"| {schema.MAX_FACES} (",
        f"| {schema.MAX_LOTS} (",
        f"{MAX_GAME_THROWS:,} throws",
    ):
        assert str(bound) in readme, bound


# --- the command line, as a user runs it --------------------------------------------------------

COMMAND_LINE = {
    "huge exponent": NUMBERS["huge exponent (hung)"][0],
    "tiny exponent": NUMBERS["tiny exponent (traceback)"][0],
    "line break in a title": ONE_LINE["variant title"],
    "keys of two types": replace(
        "bell-1960.yml", "\ntitle: R. C.", "\n1: one\nfoo: two\ntitle: R. C."
    ),
}


@pytest.mark.parametrize("case", COMMAND_LINE)
def test_validate_on_the_command_line(case: str, folder: Path) -> None:
    line = COMMAND_LINE[case](folder)
    run = subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(folder.parent), "validate"],
        capture_output=True,
        text=True,
        timeout=SECONDS,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stdout + run.stderr
    first = run.stderr.splitlines()[0]
    assert re.match(rf"^{re.escape(str(folder))}/[\w.-]+\.yml:{line}: ", first), first
