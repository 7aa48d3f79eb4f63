# ruff: noqa: F811  (the fixtures root and cli come from test_bad_input, named as parameters)
"""Bad input to ``edition``, the history files, ``fmt`` and ``solve`` (issue 45, items 10, 14,
20, 23, 26, 27): each is refused with one ``file:line: message`` line (or a usage error) that
says what to give instead, never a traceback, and nothing is written.

Every case runs the real command line in-process on a scratch copy of ``variants/``
(the ``root`` and ``cli`` fixtures of :mod:`test_bad_input`).
"""

from __future__ import annotations

import datetime as dt
import itertools
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from test_bad_input import ALIAS_BOMB, Run, cli, root  # noqa: F401

from generator.model.catalog import load_valid_catalog
from generator.model.yamlsource import MAX_FILE_BYTES
from generator.site.edition import load_editions, lock_problems, record_edition

FIXTURE = Path(__file__).parent / "data" / "site" / "variants"

CHANGED = ("Each player has three pieces instead of seven.", "Each player has three pieces.")
"""A published ruling reworded, so that there is an edition to record."""


@pytest.fixture
def changed(root: Path) -> Path:
    """The scratch ``variants/`` with one published ruling reworded."""
    path = root / "variants" / "finkel-three-piece.yml"
    path.write_text(path.read_text(encoding="utf-8").replace(*CHANGED), encoding="utf-8")
    return root / "variants"


def history(variants: Path) -> tuple[bytes, bytes]:
    return (
        (variants / "editions.yml").read_bytes(),
        (variants / "published-rulings.lock").read_bytes(),
    )


def latest(variants: Path) -> tuple[int, dt.date]:
    edition = load_editions(variants).current
    return int(edition.number), edition.date


# --- edition numbers and dates (item 10) -----------------------------------------------------


@pytest.mark.parametrize(
    "number",
    ["", "3b", "0", "{last}", "{next2}", "1}}", "{next}\n", "{next} ", "+{next}", "0{next}"],
)
def test_an_edition_number_that_is_not_the_next_is_refused(
    number: str, changed: Path, cli: Callable[..., Run]
) -> None:
    """Before: all but the latest's number were recorded, and ``1}`` or a newline broke the
    next build on an mkdocs anchor warning."""
    last, _ = latest(changed)
    given = number.format(last=last, next=last + 1, next2=last + 2)
    before = history(changed)
    run = cli("edition", given, "--summary", "Reworded.")
    assert run.code == 1
    assert run.lines == [
        f"edition {last} already exists: give {last + 1}, the next number"
        if given == str(last)
        else f"edition number {given!r}: give {last + 1}, the next after edition {last}"
    ]
    assert history(changed) == before


def test_a_date_before_the_latest_editions_is_refused(
    changed: Path, cli: Callable[..., Run]
) -> None:
    last, day = latest(changed)
    before = history(changed)
    run = cli("edition", str(last + 1), "--summary", "x", "--date", str(day - dt.timedelta(1)))
    assert run.code == 1 and run.lines == [
        f"date {day - dt.timedelta(1)}: before edition {last}'s ({day}); give {day} or later"
        " (editions are listed oldest first)"
    ]
    assert history(changed) == before


@pytest.mark.parametrize(
    ("date", "message"),
    [
        ("2026-02-30", "'2026-02-30' is no day (day is out of range for month); give YYYY-MM-DD"),
        ("20261205", "'20261205' is not a date written YYYY-MM-DD; give one such as 2026-12-05"),
        ("2026-W49-6", "'2026-W49-6' is not a date written YYYY-MM-DD"),
        ("", "'' is not a date written YYYY-MM-DD"),
    ],
)
def test_a_date_that_is_no_day_is_a_usage_error(
    date: str, message: str, changed: Path, cli: Callable[..., Run]
) -> None:
    last, _ = latest(changed)
    run = cli("edition", str(last + 1), "--summary", "x", "--date", date)
    assert run.code == 2 and f"argument --date: {message}" in run.err


def test_a_date_after_tomorrow_is_refused(changed: Path, cli: Callable[..., Run]) -> None:
    """One would refuse every edition recorded before it (a date before the latest's)."""
    last, _ = latest(changed)
    before = history(changed)
    run = cli("edition", str(last + 1), "--summary", "x", "--date", "9999-12-31")
    assert run.code == 2 and "--date 9999-12-31 is after today" in run.err
    assert history(changed) == before


@pytest.mark.parametrize("summary", ["two\nlines", "bell\a", "\u202egnirts", "   "])
def test_a_summary_with_control_characters_is_refused(
    summary: str, changed: Path, cli: Callable[..., Run]
) -> None:
    last, _ = latest(changed)
    run = cli("edition", str(last + 1), "--summary", summary)
    assert run.code == 1 and "give one line of text, without control characters" in run.err


def test_the_next_number_on_the_latest_date_is_recorded(
    changed: Path, cli: Callable[..., Run]
) -> None:
    """The refusals above refuse only what they should: this edition is recorded, in both
    files, and the history then checks clean."""
    last, day = latest(changed)
    run = cli("edition", str(last + 1), "--summary", "Reworded.", "--date", str(day))
    assert run.code == 0, run.err
    assert latest(changed) == (last + 1, day)
    assert cli("edition", "--check").code == 0


# --- malformed history files (items 20, 26) --------------------------------------------------

EDITION = (
    "  - edition: '{n}'\n    date: '{date}'\n    summary: x\n"
    "    added: []\n    changed: []\n    withdrawn: []\n"
)


def editions(*entries: tuple[str, str]) -> str:
    return "editions:\n" + "".join(EDITION.format(n=n, date=d) for n, d in entries)


HISTORY_CASES = {
    "invalid YAML": (
        "editions.yml",
        "editions:\n  - edition: '1'\n   date: [\n",
        "editions.yml:3: not valid YAML",
    ),
    "empty": (
        "editions.yml",
        "",
        "editions.yml:1: expected a mapping whose key editions lists every edition",
    ),
    "a list": ("editions.yml", "- 1\n", "editions.yml:1: expected a mapping"),
    "no edition": ("editions.yml", "editions: []\n", "editions.yml:1: lists no edition"),
    "unknown top key": (
        "editions.yml",
        editions(("1", "2026-11-30")) + "extra: 1\n",
        "editions.yml:8: unknown key 'extra'",
    ),
    "an edition not a mapping": (
        "editions.yml",
        "editions:\n  - 5\n",
        "editions.yml:2: an edition must be a mapping",
    ),
    "cut short": (
        "editions.yml",
        editions(("1", "2026-11-30")).removesuffix("    withdrawn: []\n"),
        "editions.yml:2: this edition has no withdrawn (is the file cut short?)",
    ),
    "not a day": (
        "editions.yml",
        editions(("1", "2026-02-30")),
        "editions.yml:3: '2026-02-30' is no day",
    ),
    "number skipped": (
        "editions.yml",
        editions(("1", "2026-11-30"), ("3", "2026-12-01")),
        "editions.yml:8: edition number '3' should be 2 after edition 1",
    ),
    "number with a brace": (
        "editions.yml",
        editions(("1}", "2026-11-30")),
        "editions.yml:2: edition number '1}' should be 1 (the first)",
    ),
    "date going back": (
        "editions.yml",
        editions(("1", "2026-11-30"), ("2", "2026-11-01")),
        "editions.yml:9: 2026-11-01 is before edition 1's date (2026-11-30)",
    ),
    "a change with an unknown key": (
        "editions.yml",
        editions(("1", "2026-11-30")).replace(
            "changed: []", "changed:\n    - id: a\n      colour: red"
        ),
        "editions.yml:8: unknown key 'colour'; known: id, old_words",
    ),
    "a python tag": (
        "editions.yml",
        "editions: !!python/object/apply:os.system ['true']\n",
        "editions.yml:1: unsupported YAML tag",
    ),
    "lock not JSON": (
        "published-rulings.lock",
        '{"edition": "9",\n "rulings": {\n',
        "published-rulings.lock:3: not valid JSON",
    ),
    "lock empty": ("published-rulings.lock", "", "published-rulings.lock:1: not valid JSON"),
    "lock a list": (
        "published-rulings.lock",
        "[1, 2]\n",
        "published-rulings.lock:1: expected an object with edition and rulings",
    ),
    "lock entry without fingerprint": (
        "published-rulings.lock",
        '{\n "edition": "9",\n "rulings": {\n  "bell-board": {}\n }\n}\n',
        "published-rulings.lock:4: ruling 'bell-board' needs text fingerprint, words and value",
    ),
    "redirects not YAML": (
        "redirects.yml",
        "redirects: {a: [\n",
        "redirects.yml:2: not valid YAML",
    ),
    "redirects a list": ("redirects.yml", "- a\n", "redirects.yml:1: expected a mapping"),
    "redirects holding a list": (
        "redirects.yml",
        "# renamed ids\nredirects:\n- a\n",
        "redirects.yml:2: expected a mapping",
    ),
    "redirects to a list": (
        "redirects.yml",
        "redirects:\n  old-id: [new-id]\n",
        "redirects.yml:2: 'old-id': ['new-id'] is no id",
    ),
}


@pytest.mark.parametrize("case", list(HISTORY_CASES), ids=list(HISTORY_CASES))
@pytest.mark.parametrize("argv", [["--check"], ["NEXT", "--summary", "x"]], ids=["check", "record"])
def test_a_malformed_history_file_is_one_line_naming_its_line(
    case: str, argv: list[str], changed: Path, cli: Callable[..., Run]
) -> None:
    """Before: tracebacks (invalid YAML or JSON, a lock that is a list, redirects that are not a
    mapping) or ``file: malformed edition (KeyError('date'))`` with no line; and a history
    with a number holding ``}`` was accepted, to fail the build on an mkdocs anchor."""
    name, text, expected = HISTORY_CASES[case]
    number = str(latest(changed)[0] + 1)
    (changed / name).write_text(text, encoding="utf-8")
    before = history(changed)
    run = cli("edition", *[number if a == "NEXT" else a for a in argv])
    assert run.code == 1
    assert len(run.lines) == 1 and run.lines[0].startswith(f"{changed / name}:"), run.err
    assert expected in run.lines[0], run.lines[0]
    assert history(changed) == before


def test_a_build_on_a_malformed_history_is_one_line(
    root: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build read ``editions.yml`` with no guard: invalid YAML was a traceback."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    (root / "variants" / "editions.yml").write_text("editions:\n  - edition: [\n", "utf-8")
    run = cli("build", "--no-simulate", "--site-dir", str(root / "site"))
    assert run.code == 1
    assert run.lines[-1].startswith(f"{root / 'variants' / 'editions.yml'}:3: not valid YAML")


def test_a_history_missing_a_change_is_found(tmp_path: Path) -> None:
    """A history that lost part of itself can still parse (issue 45 item 2: an edition listing
    11 of its 17 changes): ``--check`` finds a ruling whose last recorded change does not end
    at the words the lock holds, and a locked ruling in no edition."""
    variants = tmp_path / "variants"
    shutil.copytree(FIXTURE, variants)
    ruling = variants / "fixture-game.yml"
    words = ["The Ur board.", "The Ur board of twenty squares.", "The board of twenty squares."]
    for number, (old, new) in enumerate(itertools.pairwise(words), start=2):
        ruling.write_text(ruling.read_text(encoding="utf-8").replace(old, new), "utf-8")
        rulings = list(load_valid_catalog(variants).rulings())
        record_edition(rulings, variants, {}, str(number), dt.date(2026, 12, 1), "Reworded.")
    assert not lock_problems(rulings, variants, {})
    path = variants / "editions.yml"
    whole = path.read_text(encoding="utf-8")
    last = whole.rindex("    changed:\n    - id: fx-board\n")  # edition 3's one change
    kept = whole[:last] + "    changed: []\n" + whole[whole.index("    withdrawn:", last) :]
    path.write_text(kept, "utf-8")
    problems = lock_problems(rulings, variants, {})
    line = whole.count("\n", 0, whole.index("  - edition: '2'")) + 1
    third = whole.count("\n", 0, whole.index("  - edition: '3'")) + 1
    restore = "the history is incomplete (cut short?): restore it with git (git checkout --"
    assert problems == [
        f"{path}:{third}: edition 3 is not as it was recorded in the lock; {restore}"
        " variants/editions.yml)",
        f"{path}:{line}: the last change of ruling fx-board (edition 2) does not end at the"
        f" words, value and note published-rulings.lock holds; {restore} variants/editions.yml)",
    ]
    path.write_text(whole.replace("    - fx-dice\n", ""), "utf-8")
    first = whole.count("\n", 0, whole.index("  - edition: '1'")) + 1
    assert lock_problems(rulings, variants, {}) == [
        f"{path}:{first}: edition 1 is not as it was recorded in the lock; {restore}"
        " variants/editions.yml)",
        f"{path}:1: ruling fx-dice is published but in no edition; the history is incomplete"
        " (cut short?): restore it with git (git checkout -- variants/editions.yml)",
    ]


def test_an_alias_bomb_in_the_history_is_refused_at_once(
    changed: Path, cli: Callable[..., Run]
) -> None:
    """Item 14: 94 s in ``edition --check`` before (42 s here for ``added: *h``)."""
    path = changed / "editions.yml"
    path.write_text(
        path.read_text(encoding="utf-8") + ALIAS_BOMB.replace("bomb:", "bombs:"), "utf-8"
    )
    began = time.perf_counter()
    run = cli("edition", "--check")
    assert time.perf_counter() - began < 20
    assert run.code == 1 and run.lines[0].startswith(f"{path}:")
    assert "alias bomb" in run.lines[0]


def test_a_huge_yaml_file_is_refused_unread(changed: Path, cli: Callable[..., Run]) -> None:
    path = changed / "redirects.yml"
    path.write_bytes(b"redirects: {}\n" + b"#" * MAX_FILE_BYTES)
    run = cli("edition", "--check")
    assert run.code == 1 and run.lines == [
        f"{path}:1: cannot read the file: larger than 16 MiB, far beyond any file of this"
        " project; it maps each renamed published id to its new id: redirects: {old-id: new-id}"
    ]


# --- fmt outside the variant files (item 27) -------------------------------------------------


@pytest.mark.parametrize("where", ["outside", "seeds", "readme", "underscore"])
def test_fmt_refuses_files_that_are_not_variant_files(
    where: str, root: Path, cli: Callable[..., Run]
) -> None:
    """Before: a YAML file anywhere was rewritten in the variant layout, its ``pp. 3-5`` given
    an en dash."""
    path = {
        "outside": root / "notes.yml",
        "seeds": root / "variants" / "seeds" / "notes.yml",
        "readme": root / "variants" / "README.md",
        "underscore": root / "variants" / "_draft.yml",
    }[where]
    if not path.exists():
        path.write_text("id: x\ntitle: pp. 3-5\n", encoding="utf-8")
    before = path.read_bytes()
    run = cli("fmt", str(path))
    assert run.code == 1 and len(run.lines) == 1 and run.lines[0].startswith(f"{path}:1: ")
    assert "fmt formats" in run.lines[0]
    assert path.read_bytes() == before


# --- solve --cache-dir (item 23) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ("a-file", "is a file, not a folder"),
        ("a-file/below", "cannot write there (Not a directory)"),
        ("/proc/ur-variants-cache", "cannot write there (No such file or directory)"),
    ],
)
def test_solve_refuses_a_cache_folder_it_cannot_write(
    where: str, reason: str, root: Path, cli: Callable[..., Run]
) -> None:
    (root / "a-file").write_text("x", encoding="utf-8")
    folder = root / where
    run = cli("solve", "finkel-three-piece", "--pieces", "1", "--cache-dir", str(folder))
    assert run.code == 2
    assert run.lines == [
        f"--cache-dir {folder}: {reason}; give a folder you can write, or --no-cache"
    ]
