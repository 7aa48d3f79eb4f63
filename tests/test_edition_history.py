"""Every edition read back from the history and the lock (generator/site/edition_history.py).

The latest edition is the lock; each recorded change reads back exactly (its edition shows its
new words, value and note, the edition before its old ones); a change removed from the history,
the first of a ruling's included, is found.
"""

from __future__ import annotations

import datetime as dt
import itertools
import shutil
from pathlib import Path

import pytest
from conftest import VARIANTS

from generator.model.catalog import load_valid_catalog
from generator.site.edition import (
    load_editions,
    load_lock,
    lock_problems,
    record_edition,
    write_lock,
)
from generator.site.edition_history import read_editions, wordings

FIXTURE = Path(__file__).parent / "data" / "site" / "variants"


def test_the_latest_edition_is_the_lock() -> None:
    lock = load_lock(VARIANTS)
    latest = read_editions(load_editions(VARIANTS), lock)[-1]
    assert latest.edition.number == lock["edition"]
    assert {
        rid: {"words": s.words, "value": s.value, "note": s.note}
        for rid, s in latest.rulings.items()
    } == {
        rid: {"words": e["words"], "value": e["value"], "note": e["note"]}
        for rid, e in lock["rulings"].items()
    }
    assert all(s.sources_current and s.note_known for s in latest.rulings.values())


def test_every_recorded_change_reads_back() -> None:
    editions = load_editions(VARIANTS)
    texts = read_editions(editions, load_lock(VARIANTS))
    checked = 0
    for before, after in itertools.pairwise(texts):
        for change in after.edition.changed:
            new, old = after.rulings[change.id], before.rulings[change.id]
            assert (new.words, new.value) == (change.new_words, change.new_value)
            assert (old.words, old.value) == (change.old_words, change.old_value)
            assert new.since == after.edition.number and not old.sources_current
            if change.note_changed:
                assert (old.note, new.note) == (change.old_note, change.new_note)
            checked += 1
        assert set(after.rulings) - set(before.rulings) == set(after.edition.added)
    assert checked == sum(len(e.changed) for e in editions.editions) > 0


def test_notes_from_before_notes_were_recorded_are_not_invented() -> None:
    """Edition 3 is the first to record a reworded note, against edition 2's lock: edition 1's
    notes (before any lock kept them) are unknown, edition 2's are known."""
    texts = read_editions(load_editions(VARIANTS), load_lock(VARIANTS))
    assert not any(s.note_known or s.note for s in texts[0].rulings.values())
    assert all(s.note_known for s in texts[1].rulings.values())


@pytest.fixture
def three_wordings(tmp_path: Path) -> Path:
    """The fixture with fx-board reworded in editions 2 and 3."""
    variants = tmp_path / "variants"
    shutil.copytree(FIXTURE, variants)
    ruling = variants / "fixture-game.yml"
    words = ["The Ur board.", "The Ur board of twenty squares.", "The board of twenty squares."]
    for number, (old, new) in enumerate(itertools.pairwise(words), start=2):
        ruling.write_text(ruling.read_text(encoding="utf-8").replace(old, new), "utf-8")
        rulings = list(load_valid_catalog(variants).rulings())
        record_edition(rulings, variants, {}, str(number), dt.date(2026, 12, 1), "Reworded.")
    return variants


def test_a_rulings_wordings_read_back(three_wordings: Path) -> None:
    texts = read_editions(load_editions(three_wordings), load_lock(three_wordings))
    found = [(w.first, w.last, w.state.words) for w in wordings(texts, "fx-board")]
    assert found == [
        ("1", "1", "The Ur board."),
        ("2", "2", "The Ur board of twenty squares."),
        ("3", "3", "The board of twenty squares."),
    ]
    assert [w.first for w in wordings(texts, "fx-dice")] == ["1"]


def _without_change(variants: Path, edition: str) -> None:
    """Removes fx-board's change from ``edition`` in editions.yml (still valid YAML)."""
    path = variants / "editions.yml"
    whole = path.read_text(encoding="utf-8")
    start = whole.index(f"  - edition: '{edition}'")
    at = whole.index("    changed:\n    - id: fx-board\n", start)
    kept = whole[:at] + "    changed: []\n" + whole[whole.index("    withdrawn:", at) :]
    path.write_text(kept, "utf-8")


def test_a_rulings_first_change_removed_is_found(three_wordings: Path) -> None:
    """The gap no chain of changes can show: the first change has nothing before it to
    disagree with. The lock's digest of each edition shows it."""
    rulings = list(load_valid_catalog(three_wordings).rulings())
    assert not lock_problems(rulings, three_wordings, {})
    _without_change(three_wordings, "2")
    problems = lock_problems(rulings, three_wordings, {})
    assert len(problems) == 1 and "edition 2 is not as it was recorded in the lock" in problems[0]


def test_a_later_change_removed_is_found_without_digests(three_wordings: Path) -> None:
    """A lock written before it kept digests: the chain of changes still shows a change
    removed after another."""
    rulings = list(load_valid_catalog(three_wordings).rulings())
    lock = load_lock(three_wordings)
    del lock["history"]
    write_lock(three_wordings, lock)
    _without_change(three_wordings, "3")
    problems = lock_problems(rulings, three_wordings, {})
    assert len(problems) == 1
    assert "the last change of ruling fx-board (edition 2) does not end" in problems[0]
