"""Published rulings change only with a new edition that says what changed.

``variants/published-rulings.lock`` fingerprints each published ruling (words, value, quotes) as
of the latest edition in ``variants/editions.yml``. A ruling added, changed or withdrawn since
fails here until ``ur-variants edition NUMBER --summary TEXT`` records the new edition.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from conftest import VARIANTS, repository_catalog

from generator.model.catalog import load_valid_catalog
from generator.site.edition import (
    EditionError,
    load_editions,
    load_renamed,
    lock_of,
    lock_problems,
    record_edition,
    write_lock,
)

FIXTURE = Path(__file__).parent / "data" / "site" / "variants"


def test_published_rulings_match_the_latest_edition() -> None:
    rulings = list(repository_catalog().rulings())
    problems = lock_problems(rulings, VARIANTS, load_renamed(VARIANTS))
    assert not problems, (
        "\n".join(problems) + "\nA published ruling changed, or rulings were added or withdrawn:"
        " record a new edition with `.venv/bin/ur-variants edition NUMBER --summary TEXT`"
        " (it lists every change on the changes page and updates the lock)."
    )


def test_every_published_ruling_has_a_history() -> None:
    history = load_editions(VARIANTS).history
    missing = [r.id for r in repository_catalog().rulings() if r.id not in history]
    assert not missing, f"rulings in no edition: {missing}"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "variants"
    shutil.copytree(FIXTURE, folder)
    return folder


def edit(folder: Path, old: str, new: str) -> None:
    path = folder / "fixture-game.yml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_changed_ruling_fails_until_a_new_edition_records_it(workspace: Path) -> None:
    before = {r.id: r for r in load_valid_catalog(workspace).rulings()}
    assert not lock_problems(list(before.values()), workspace, {})
    edit(workspace, "The Ur board.", "The Ur board of twenty squares.")
    rulings = list(load_valid_catalog(workspace).rulings())
    problems = lock_problems(rulings, workspace, {})
    assert problems == ["ruling fx-board changed since edition 1"]

    edition = record_edition(
        rulings, workspace, {}, "2", dt.date(2026, 12, 1), "The board's words made precise."
    )
    assert [c.id for c in edition.changed] == ["fx-board"]
    change = edition.changed[0]
    assert change.old_words == "The Ur board." and change.new_words.endswith("twenty squares.")
    assert not lock_problems(rulings, workspace, {})
    editions = load_editions(workspace)
    assert [e.number for e in editions.editions] == ["1", "2"]
    assert [h.what for h in editions.history["fx-board"]] == ["added", "changed"]


def test_a_new_edition_needs_a_change_and_a_new_number(workspace: Path) -> None:
    rulings = list(load_valid_catalog(workspace).rulings())
    with pytest.raises(EditionError, match="nothing to do"):
        record_edition(rulings, workspace, {}, "2", dt.date(2026, 12, 1), "No change.")
    with pytest.raises(EditionError, match="already exists"):
        record_edition(rulings, workspace, {}, "1", dt.date(2026, 12, 1), "Again.")


def test_a_withdrawn_ruling_is_recorded_with_its_fate(workspace: Path) -> None:
    rulings = [r for r in load_valid_catalog(workspace).rulings() if r.id != "fx-board"]
    assert lock_problems(rulings, workspace, {}) == ["ruling fx-board is gone (withdrawn)"]
    edition = record_edition(
        rulings, workspace, {"fx-board": "fx-pieces"}, "2", dt.date(2026, 12, 1), "Merged."
    )
    assert [(w.id, w.replaced_by) for w in edition.withdrawn] == [("fx-board", "fx-pieces")]
    assert load_editions(workspace).withdrawals()["fx-board"][1].fate == "renamed fx-pieces"


def test_a_reworded_note_fails_until_a_new_edition_records_it(workspace: Path) -> None:
    rulings = list(load_valid_catalog(workspace).rulings())
    write_lock(workspace, lock_of(rulings, "1"))  # the fixture's lock, notes included
    old_note = "The fixture source is silent on start; this value is assumed for the test."
    noted = next(r for r in rulings if r.note == old_note)
    edit(workspace, old_note, "Reworded, the source is silent on who starts.")
    rulings = list(load_valid_catalog(workspace).rulings())
    assert lock_problems(rulings, workspace, {}) == [f"ruling {noted.id} changed since edition 1"]
    edition = record_edition(rulings, workspace, {}, "2", dt.date(2026, 12, 1), "A note reworded.")
    (change,) = edition.changed
    assert change.note_changed and change.old_note == old_note
    assert change.new_note == "Reworded, the source is silent on who starts."
    assert change.old_words == change.new_words
    assert load_editions(workspace).editions[-1].changed[0].new_note == change.new_note
    assert not lock_problems(rulings, workspace, {})
