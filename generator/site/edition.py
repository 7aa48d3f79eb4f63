"""Editions of the site: what a citation names, and what changed from one edition to the next.

(The records themselves, re-exported here, live in :mod:`generator.site.edition_records`, which
:mod:`generator.site.edition_history` reads back without importing this module.)

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
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn

import yaml

from generator.files import content, replace_files, write_text
from generator.model.variant import Ruling
from generator.model.yamlsource import Document, JsonPath, YamlError, load_document, read_limited
from generator.site.edition_history import history_digests, read_back_problems
from generator.site.edition_records import EDITIONS_FILE as EDITIONS_FILE
from generator.site.edition_records import Change as Change
from generator.site.edition_records import Edition as Edition
from generator.site.edition_records import EditionError as EditionError
from generator.site.edition_records import Editions as Editions
from generator.site.edition_records import HistoryEvent as HistoryEvent
from generator.site.edition_records import Withdrawal as Withdrawal

LOCK_FILE = "published-rulings.lock"
REDIRECTS_FILE = "redirects.yml"
EDITION_KEYS = ("edition", "date", "summary", "added", "changed", "withdrawn")
"""An edition's keys, every one always written (:meth:`Edition.to_data`): a file cut short
loses the last edition's last keys, so a missing one is an error, never an empty list."""
CHANGE_KEYS = ("id", "old_words", "old_value", "new_words", "new_value")
NOTE_KEYS = ("old_note", "new_note")
WITHDRAWAL_KEYS = ("id", "fate")
NUMBER = re.compile(r"[1-9][0-9]*")
"""An edition number: a whole number in ASCII digits, no sign, space or leading zero (it
becomes part of anchors and citations)."""
ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def iso_day(text: str) -> dt.date:
    """The day written ``YYYY-MM-DD`` (only that form: not ``20261205`` nor ``2026-W49-6``,
    which :meth:`datetime.date.fromisoformat` also reads); :class:`ValueError` saying so."""
    try:
        if ISO_DAY.fullmatch(text):
            return dt.date.fromisoformat(text)
    except ValueError as error:
        raise ValueError(f"{text!r} is no day ({error}); give YYYY-MM-DD") from error
    raise ValueError(f"{text!r} is not a date written YYYY-MM-DD; give one such as 2026-12-05")


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


def lock_of(
    rulings: Iterable[Ruling], edition: str, history: dict[str, str] | None = None
) -> dict[str, Any]:
    """The lock of ``edition``: each ruling's fingerprint, words, value and note, and each
    edition's digest (``history``: :func:`~generator.site.edition_history.history_digests`),
    which anchors the history so that no edition can lose a change unnoticed."""
    entries = {}
    for ruling in sorted(rulings, key=lambda r: r.id):
        words, value = words_and_value(ruling)
        entries[ruling.id] = {
            "fingerprint": fingerprint(ruling),
            "words": words,
            "value": value,
            "note": note_of(ruling),
        }
    lock: dict[str, Any] = {"edition": edition, "rulings": entries}
    if history is not None:
        lock["history"] = history
    return lock


def load_editions(variants: Path) -> Editions:
    """Every edition in ``variants/editions.yml``, checked (:class:`_History`): a problem is
    an :class:`EditionError` saying ``file:line: message`` and the fix."""
    path = variants / EDITIONS_FILE
    if not path.exists():
        raise EditionError(f"{path}:1: missing; the site needs at least one edition")
    return Editions(_History(_document(path, _HISTORY_FIX)).editions())


_HISTORY_FIX = (
    "correct it, or restore the file with git (it is written by ur-variants edition, not by hand)"
)
_LOCK_FIX = (
    "restore it with git (git checkout -- variants/published-rulings.lock); ur-variants"
    " edition writes it, never a hand"
)


def _document(path: Path, fix: str) -> Document:
    """``path`` read through the YAML guard (:func:`generator.model.yamlsource.load_document`:
    size, aliases, tags), its problem an :class:`EditionError`."""
    try:
        return load_document(path)
    except YamlError as error:
        raise EditionError(f"{error.problem}; {fix}") from error


class _History:
    """Reads ``editions.yml`` into editions, refusing anything ``ur-variants edition`` would
    not have written: numbers 1, 2, 3... in order, real days never earlier than the previous
    edition's, every key of every edition, and changes and withdrawals whole."""

    def __init__(self, document: Document) -> None:
        self.document = document

    def fail(self, where: JsonPath, message: str) -> NoReturn:
        raise EditionError(f"{self.document.problem(where, message)}; {_HISTORY_FIX}")

    def editions(self) -> list[Edition]:
        data = self.document.data
        if not isinstance(data, dict) or not isinstance(data.get("editions"), list):
            self.fail((), "expected a mapping whose key editions lists every edition")
        if unknown := sorted(str(k) for k in data if k != "editions"):
            self.fail((unknown[0],), f"unknown key {unknown[0]!r}; the file holds editions only")
        if not data["editions"]:
            self.fail(("editions",), "lists no edition; the site needs at least one")
        found: list[Edition] = []
        for i, entry in enumerate(data["editions"]):
            found.append(self.edition(("editions", i), entry, found[-1] if found else None))
        return found

    def edition(self, where: JsonPath, entry: Any, previous: Edition | None) -> Edition:
        if not isinstance(entry, dict):
            self.fail(where, f"an edition must be a mapping of {', '.join(EDITION_KEYS)}")
        if unknown := sorted(str(k) for k in entry if k not in EDITION_KEYS):
            self.fail((*where, unknown[0]), f"unknown key {unknown[0]!r} in an edition")
        if missing := [k for k in EDITION_KEYS if k not in entry]:
            self.fail(
                where,
                f"this edition has no {missing[0]} (is the file cut short?); every edition"
                f" has {', '.join(EDITION_KEYS)}, empty lists included",
            )
        number = self.number((*where, "edition"), entry["edition"], previous)
        return Edition(
            number=number,
            date=self.date((*where, "date"), entry["date"], previous),
            summary=self.text((*where, "summary"), entry["summary"]),
            added=tuple(
                self.text((*where, "added", i), rid)
                for i, rid in enumerate(self.items((*where, "added"), entry["added"]))
            ),
            changed=tuple(
                Change(**self.record((*where, "changed", i), item, CHANGE_KEYS, NOTE_KEYS))
                for i, item in enumerate(self.items((*where, "changed"), entry["changed"]))
            ),
            withdrawn=tuple(
                Withdrawal(
                    **self.record((*where, "withdrawn", i), item, WITHDRAWAL_KEYS, ("replaced_by",))
                )
                for i, item in enumerate(self.items((*where, "withdrawn"), entry["withdrawn"]))
            ),
            line=self.document.line_of(where),
        )

    def number(self, where: JsonPath, value: Any, previous: Edition | None) -> str:
        text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
        wanted = str(int(previous.number) + 1) if previous else "1"
        if not NUMBER.fullmatch(text) or text != wanted:
            after = f" after edition {previous.number}" if previous else " (the first)"
            self.fail(where, f"edition number {value!r} should be {wanted}{after}")
        return text

    def date(self, where: JsonPath, value: Any, previous: Edition | None) -> dt.date:
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            day = value
        else:
            try:
                day = iso_day(value if isinstance(value, str) else repr(value))
            except ValueError as error:
                self.fail(where, str(error))
        if previous and day < previous.date:
            self.fail(
                where,
                f"{day} is before edition {previous.number}'s date ({previous.date}); editions"
                " are listed oldest first",
            )
        return day

    def text(self, where: JsonPath, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(where, f"expected text, got {_kind(value)}")
        return value

    def items(self, where: JsonPath, value: Any) -> list[Any]:
        if not isinstance(value, list):
            self.fail(where, f"expected a list (empty: []), got {_kind(value)}")
        return value

    def record(
        self, where: JsonPath, value: Any, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> dict[str, Any]:
        """A change or withdrawal: every ``required`` key as text, ``optional`` ones as text
        or null, and no other."""
        if not isinstance(value, dict):
            self.fail(where, f"expected a mapping of {', '.join(required)}, got {_kind(value)}")
        if unknown := sorted(str(k) for k in value if k not in (*required, *optional)):
            known = ", ".join((*required, *optional))
            self.fail((*where, unknown[0]), f"unknown key {unknown[0]!r}; known: {known}")
        if missing := [k for k in required if k not in value]:
            self.fail(where, f"no {missing[0]}; each needs {', '.join(required)}")
        found: dict[str, Any] = {k: self.text((*where, k), value[k]) for k in required}
        for key in optional:
            if value.get(key) is not None and not isinstance(value[key], str):
                self.fail((*where, key), f"expected text or null, got {_kind(value[key])}")
            if key in value:
                found[key] = value[key]
        return found


def _kind(value: Any) -> str:
    """What a value is, for a message."""
    return "nothing" if value is None else type(value).__name__


def load_renamed(variants: Path) -> dict[str, str]:
    """Renamed published ids (``variants/redirects.yml``): old id -> the id that replaces it."""
    path = variants / REDIRECTS_FILE
    if not path.exists():
        return {}
    fix = "it maps each renamed published id to its new id: redirects: {old-id: new-id}"
    document = _document(path, fix)
    data = {} if document.data is None else document.data
    redirects = data.get("redirects") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(redirects, dict | None):
        where: JsonPath = ("redirects",) if isinstance(data, dict) else ()
        raise EditionError(f"{document.problem(where, 'expected a mapping')}; {fix}")
    for old, new in (redirects or {}).items():
        if not isinstance(old, str) or not isinstance(new, str):
            problem = document.problem(("redirects", str(old)), f"{old!r}: {new!r} is no id")
            raise EditionError(f"{problem}; {fix}")
    return dict(redirects or {})


def load_lock(variants: Path) -> dict[str, Any]:
    """The lock (:func:`lock_of`), checked: JSON of the shape :func:`write_lock` writes, or an
    :class:`EditionError` saying ``file:line: message`` and how to restore it."""
    path = variants / LOCK_FILE
    if not path.exists():
        return {"edition": None, "rulings": {}}
    try:
        text = read_limited(path)
        data = json.loads(text)
    except json.JSONDecodeError as error:
        problem = f"{path}:{error.lineno}: not valid JSON ({error.msg}); {_LOCK_FIX}"
        raise EditionError(problem) from error
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise EditionError(f"{path}:1: cannot read it ({error}); {_LOCK_FIX}") from error
    if not isinstance(data, dict) or not isinstance(data.get("rulings"), dict):
        raise EditionError(f"{path}:1: expected an object with edition and rulings; {_LOCK_FIX}")
    history = data.get("history", {})
    if not isinstance(history, dict) or not all(isinstance(v, str) for v in history.values()):
        line = _json_line(text, "history")
        raise EditionError(f"{path}:{line}: history is no map of digests; {_LOCK_FIX}")
    if not isinstance(data.get("edition"), str | None):
        line = _json_line(text, "edition")
        raise EditionError(f"{path}:{line}: edition is no edition number; {_LOCK_FIX}")
    for rid, entry in data["rulings"].items():
        fields = ("fingerprint", "words", "value")
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in fields):
            raise EditionError(
                f"{path}:{_json_line(text, rid)}: ruling {rid!r} needs text fingerprint, words"
                f" and value; {_LOCK_FIX}"
            )
    return data


def _json_line(text: str, key: str) -> int:
    """The line of the first ``"key":`` in ``text`` (one key a line, as :func:`write_lock`
    writes), or 1."""
    found = text.find(json.dumps(key) + ":")
    return text.count("\n", 0, found) + 1 if found >= 0 else 1


def write_lock(variants: Path, lock: dict[str, Any]) -> None:
    write_text(variants / LOCK_FILE, _lock_text(lock))


def _lock_text(lock: dict[str, Any]) -> str:
    return json.dumps(lock, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


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
    else:
        problems += history_problems(editions, lock, variants / EDITIONS_FILE)
    added, changed, withdrawn = unrecorded_changes(rulings, lock, renamed)
    problems += [f"ruling {rid} is new (not in any edition)" for rid in added]
    problems += [f"ruling {c.id} changed since edition {lock['edition']}" for c in changed]
    problems += [f"ruling {w.id} is gone ({w.fate})" for w in withdrawn]
    return problems


def history_problems(editions: Editions, lock: dict[str, Any], path: Path) -> list[str]:
    """Where the history does not lead to the lock of its latest edition: a locked ruling in
    no edition, one whose last recorded change ends at other words, value or note than the
    lock holds, or one the history has but the lock has not that was never withdrawn. Each
    means a history missing part of itself (cut short by a full disk, say, while still valid
    YAML), which the edition pages would publish as if whole."""
    problems = [
        f"{path}:{events[-1].edition.line}: ruling {rid} is in no lock and was never"
        f" withdrawn; {_INCOMPLETE}"
        for rid, events in sorted(editions.history.items())
        if rid not in lock["rulings"] and events[-1].what in {"added", "changed"}
    ]
    problems += [
        f"{path}:{edition.line}: {problem}; {_INCOMPLETE}"
        for edition, problem in read_back_problems(editions, lock, LOCK_FILE)
    ]
    problems += [
        f"{path}:1: ruling {rid} is published but in no edition; {_INCOMPLETE}"
        for rid in sorted(lock["rulings"])
        if rid not in editions.history
    ]
    return problems


_INCOMPLETE = (
    "the history is incomplete (cut short?): restore it with git"
    f" (git checkout -- variants/{EDITIONS_FILE})"
)
SUMMARY_CHARACTERS = re.compile(r"[^\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+")
"""A summary: one line of text, no control characters, line or paragraph separators, or
invisible direction marks (they would reach the changes page as they are)."""


def next_edition_problem(editions: Editions | None, number: str, date: dt.date) -> str | None:
    """Why ``number`` and ``date`` cannot be the next edition's, with what to give instead, or
    ``None``: the number must be the next whole number (1 for the first), the date not before
    the latest edition's."""
    last = editions.current if editions else None
    wanted = str(int(last.number) + 1) if last else "1"
    if last and editions and number in {e.number for e in editions.editions}:
        return f"edition {number} already exists: give {wanted}, the next number"
    if number != wanted:
        after = f"the next after edition {last.number}" if last else "the first"
        return f"edition number {number!r}: give {wanted}, {after}"
    if last and date < last.date:
        return (
            f"date {date}: before edition {last.number}'s ({last.date}); give"
            f" {last.date} or later (editions are listed oldest first)"
        )
    return None


def record_edition(
    rulings: list[Ruling],
    variants: Path,
    renamed: dict[str, str],
    number: str,
    date: dt.date,
    summary: str,
) -> Edition:
    """Append a new edition listing every unrecorded change, and lock the rulings as they are.

    The history and the lock are replaced together (:func:`generator.files.replace_files`):
    on a full disk both are left as they were."""
    editions = load_editions(variants) if (variants / EDITIONS_FILE).exists() else None
    if problem := next_edition_problem(editions, number, date):
        raise EditionError(problem)
    if not SUMMARY_CHARACTERS.fullmatch(summary) or not summary.strip():
        raise EditionError(
            f"summary {summary[:60]!r}: give one line of text, without control characters"
        )
    added, changed, withdrawn = unrecorded_changes(rulings, load_lock(variants), renamed)
    if editions is not None and not (added or changed or withdrawn):
        raise EditionError("no published ruling changed since the latest edition: nothing to do")
    edition = Edition(number, date, summary, tuple(added), tuple(changed), tuple(withdrawn))
    path = variants / EDITIONS_FILE
    text = path.read_text(encoding="utf-8") if path.exists() else _EDITIONS_HEADER
    entry = yaml.safe_dump([edition.to_data()], allow_unicode=True, sort_keys=False, width=100)
    history = (text.rstrip("\n") + "\n" + _indent(entry)).encode("utf-8")
    every = Editions([*(editions.editions if editions else []), edition])
    lock = _lock_text(lock_of(rulings, number, history_digests(every))).encode("utf-8")
    replace_files({path: content(history), variants / LOCK_FILE: content(lock)})
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
