"""Editions of the site: what a citation names, and what changed from one edition to the next.

Rule references that readers cite (numbered comprehensive rules, legal codes, the Stanford
Encyclopedia of Philosophy) publish dated editions, keep old numbers and say what changed. Here:

- ``variants/editions.yml`` lists every edition, oldest first: its number, its date, and the
  rulings it added, changed (old and new words and value) or withdrawn (and what became of them).
- ``variants/published-rulings.lock`` holds, for the latest edition, one fingerprint per
  published ruling (a SHA-256 of its words, value and quotes), its words and value and its
  note, so the next edition can say what they were. ``tests/test_editions.py`` fails when a
  ruling differs from its fingerprint or its note from the locked one, until
  ``ur-variants edition NUMBER`` records a new edition.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.model.variant import Ruling

EDITIONS_FILE = "editions.yml"
LOCK_FILE = "published-rulings.lock"


class EditionError(Exception):
    """The edition files are missing, malformed or out of step; the message says the fix."""


@dataclass(frozen=True)
class Change:
    """One ruling whose words, value, quotes or note changed: before and after (the notes only
    when they differ)."""

    id: str
    old_words: str
    old_value: str
    new_words: str
    new_value: str
    old_note: str | None = None
    new_note: str | None = None

    @property
    def note_changed(self) -> bool:
        return self.old_note != self.new_note

    def to_data(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if not k.endswith("_note")}
        if self.note_changed:
            data.update(old_note=self.old_note, new_note=self.new_note)
        return data


@dataclass(frozen=True)
class Withdrawal:
    """A published id that no longer names a ruling, and what became of it."""

    id: str
    fate: str
    replaced_by: str | None = None


@dataclass(frozen=True)
class Edition:
    number: str
    date: dt.date
    summary: str
    added: tuple[str, ...] = ()
    changed: tuple[Change, ...] = ()
    withdrawn: tuple[Withdrawal, ...] = ()

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "edition": self.number,
            "date": self.date.isoformat(),
            "summary": self.summary,
            "added": list(self.added),
            "changed": [c.to_data() for c in self.changed],
            "withdrawn": [
                {k: v for k, v in w.__dict__.items() if v is not None} for w in self.withdrawn
            ],
        }
        return data


@dataclass(frozen=True)
class HistoryEvent:
    """One line of a ruling's own history."""

    edition: Edition
    what: str


@dataclass
class Editions:
    """Every edition, oldest first."""

    editions: list[Edition]
    history: dict[str, list[HistoryEvent]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.editions:
            raise EditionError(f"variants/{EDITIONS_FILE} lists no edition: add the first one")
        for edition in self.editions:
            for rid in edition.added:
                self.history.setdefault(rid, []).append(HistoryEvent(edition, "added"))
            for change in edition.changed:
                self.history.setdefault(change.id, []).append(HistoryEvent(edition, "changed"))
            for gone in edition.withdrawn:
                self.history.setdefault(gone.id, []).append(HistoryEvent(edition, gone.fate))

    @property
    def current(self) -> Edition:
        return self.editions[-1]

    def withdrawals(self) -> dict[str, tuple[Edition, Withdrawal]]:
        return {w.id: (e, w) for e in self.editions for w in e.withdrawn}


def words_and_value(ruling: Ruling) -> tuple[str, str]:
    """A ruling's words (one line) and its value as canonical JSON."""
    return " ".join(ruling.text.split()), json.dumps(ruling.value, sort_keys=True, default=str)


def note_of(ruling: Ruling) -> str | None:
    """A ruling's note on one line (None without one): a note is published with its ruling."""
    return " ".join(ruling.note.split()) if ruling.note else None


def fingerprint(ruling: Ruling) -> str:
    """SHA-256 of the ruling's words, value and quotes (source, place, quote, translation, and
    the programming language of a quote that is code, and the mark of one cited against it)."""
    words, value = words_and_value(ruling)
    # A quote's language joins its entry only where it is code, so the other rulings keep the
    # fingerprints they were published with.
    quotes = [
        [
            c.source,
            c.locator,
            c.quote,
            c.translation,
            *([c.code] if c.code else []),
            *(["contrary"] if c.contrary else []),
        ]
        for c in ruling.sources
    ]
    text = json.dumps([words, value, quotes], ensure_ascii=False, sort_keys=True)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def lock_of(rulings: Iterable[Ruling], edition: str) -> dict[str, Any]:
    entries = {}
    for ruling in sorted(rulings, key=lambda r: r.id):
        words, value = words_and_value(ruling)
        entries[ruling.id] = {
            "fingerprint": fingerprint(ruling),
            "words": words,
            "value": value,
            "note": note_of(ruling),
        }
    return {"edition": edition, "rulings": entries}


def load_editions(variants: Path) -> Editions:
    path = variants / EDITIONS_FILE
    if not path.exists():
        raise EditionError(f"{path}: missing; the site needs at least one edition")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    try:
        return Editions([_edition(entry) for entry in data["editions"]])
    except (KeyError, TypeError, ValueError) as error:
        raise EditionError(
            f"{path}: malformed edition ({error!r}); each needs edition, date (YYYY-MM-DD),"
            " summary, and lists added / changed / withdrawn"
        ) from error


def _edition(entry: dict[str, Any]) -> Edition:
    date = entry["date"]
    return Edition(
        number=str(entry["edition"]),
        date=date if isinstance(date, dt.date) else dt.date.fromisoformat(str(date)),
        summary=str(entry["summary"]),
        added=tuple(str(i) for i in entry.get("added") or ()),
        changed=tuple(Change(**c) for c in entry.get("changed") or ()),
        withdrawn=tuple(Withdrawal(**w) for w in entry.get("withdrawn") or ()),
    )


def load_renamed(variants: Path) -> dict[str, str]:
    """Renamed published ids (``variants/redirects.yml``): old id -> the id that replaces it."""
    path = variants / "redirects.yml"
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): str(v) for k, v in (data.get("redirects") or {}).items()}


def load_lock(variants: Path) -> dict[str, Any]:
    path = variants / LOCK_FILE
    if not path.exists():
        return {"edition": None, "rulings": {}}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write_lock(variants: Path, lock: dict[str, Any]) -> None:
    text = json.dumps(lock, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    (variants / LOCK_FILE).write_text(text, encoding="utf-8")


def unrecorded_changes(
    rulings: Iterable[Ruling], lock: dict[str, Any], renamed: dict[str, str]
) -> tuple[list[str], list[Change], list[Withdrawal]]:
    """What differs from the lock: added ids, changed rulings, withdrawn ids."""
    current = {r.id: r for r in rulings}
    locked: dict[str, dict[str, str]] = lock["rulings"]
    added = sorted(set(current) - set(locked))
    changed = []
    for rid in sorted(set(current) & set(locked)):
        old, note = locked[rid], note_of(current[rid])
        # A lock written before notes were locked has no "note": its notes are not compared.
        note_changed = "note" in old and old["note"] != note
        if fingerprint(current[rid]) != old["fingerprint"] or note_changed:
            words, value = words_and_value(current[rid])
            old_note, new_note = (old["note"], note) if note_changed else (None, None)
            changed.append(
                Change(rid, old["words"], old["value"], words, value, old_note, new_note)
            )
    withdrawn = [
        Withdrawal(rid, f"renamed {renamed[rid]}", renamed[rid])
        if rid in renamed
        else Withdrawal(rid, "withdrawn")
        for rid in sorted(set(locked) - set(current))
    ]
    return added, changed, withdrawn


def lock_problems(rulings: list[Ruling], variants: Path, renamed: dict[str, str]) -> list[str]:
    """Why the published rulings are out of step with the latest edition (empty when in step)."""
    editions = load_editions(variants)
    lock = load_lock(variants)
    problems = []
    if lock["edition"] != editions.current.number:
        problems.append(
            f"variants/{LOCK_FILE} is for edition {lock['edition']}, but the latest edition in"
            f" variants/{EDITIONS_FILE} is {editions.current.number}"
        )
    added, changed, withdrawn = unrecorded_changes(rulings, lock, renamed)
    problems += [f"ruling {rid} is new (not in any edition)" for rid in added]
    problems += [f"ruling {c.id} changed since edition {lock['edition']}" for c in changed]
    problems += [f"ruling {w.id} is gone ({w.fate})" for w in withdrawn]
    return problems


def record_edition(
    rulings: list[Ruling],
    variants: Path,
    renamed: dict[str, str],
    number: str,
    date: dt.date,
    summary: str,
) -> Edition:
    """Append a new edition listing every unrecorded change, and lock the rulings as they are."""
    editions = load_editions(variants) if (variants / EDITIONS_FILE).exists() else None
    if editions is not None and number in {e.number for e in editions.editions}:
        raise EditionError(f"edition {number} already exists: choose the next number")
    added, changed, withdrawn = unrecorded_changes(rulings, load_lock(variants), renamed)
    if editions is not None and not (added or changed or withdrawn):
        raise EditionError("no published ruling changed since the latest edition: nothing to do")
    edition = Edition(number, date, summary, tuple(added), tuple(changed), tuple(withdrawn))
    path = variants / EDITIONS_FILE
    text = path.read_text(encoding="utf-8") if path.exists() else _EDITIONS_HEADER
    entry = yaml.safe_dump([edition.to_data()], allow_unicode=True, sort_keys=False, width=100)
    path.write_text(text.rstrip("\n") + "\n" + _indent(entry), encoding="utf-8")
    write_lock(variants, lock_of(rulings, number))
    return edition


def _indent(text: str) -> str:
    return "".join("  " + line if line.strip() else line for line in text.splitlines(True))


_EDITIONS_HEADER = """\
# Editions of the site, oldest first. Every citation names the latest edition. Do not edit by
# hand: `ur-variants edition NUMBER --summary TEXT` appends one, listing every ruling added,
# changed (old and new words and value) or withdrawn since the previous edition, and updates
# published-rulings.lock. A withdrawn id's `fate` may then be reworded to say why.
editions:
"""
