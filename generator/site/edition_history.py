"""Every edition read back: each ruling as it stood in edition N, from the history and the lock.

Nothing here is a second copy of the history. The lock (``variants/published-rulings.lock``)
holds every ruling as of the latest edition; ``variants/editions.yml`` holds each change with
its old and new words, value and (where it changed) note. Undoing the changes of editions
N+1, N+2, ... from the lock, newest first, gives edition N exactly, as the digital editions of
legal codes are reconstructed from the current text and the amendments (each amendment says
what it replaced).

What the history does not hold is said, never invented:

- A note is recorded from the first edition whose lock kept notes: the edition before the first
  one that records a reworded note (its changes were recorded against that lock). Earlier
  editions' notes are unknown (:attr:`RulingState.note_known` is False).
- A ruling's sources (which source, where, the quotation) are part of its fingerprint but not of
  its recorded changes. They are known for edition N where no change to the ruling is recorded
  after N, since any change to a quotation is recorded as a change (:attr:`sources_current`).
- A withdrawn ruling's last words are known only when a change of it was recorded.

:func:`read_back_problems` checks that the history reads back: every change ends at the words,
value and note the ruling has in its edition, read back from the lock (a change removed from
the middle of a ruling's history breaks this), and, where the lock records each edition's digest
(:func:`history_digests`), every edition is as it was recorded (which also catches a ruling's
first recorded change removed, which no chain of changes can show).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from generator.site.edition_records import Edition, Editions


@dataclass(frozen=True)
class RulingState:
    """One ruling as it stood in one edition."""

    id: str
    words: str | None
    """None: a withdrawn ruling whose words were never recorded."""
    value: str | None
    """Canonical JSON, as the lock keeps it (None as for ``words``)."""
    note: str | None
    note_known: bool
    """False where the edition predates the recording of notes (``note`` is then None)."""
    since: str
    """The edition that published these words, value and note (added or last changed)."""
    sources_current: bool
    """No change to the ruling is recorded after this edition: its sources are today's."""

    def parsed_value(self) -> Any:
        return None if self.value is None else json.loads(self.value)


@dataclass(frozen=True)
class EditionText:
    """Every ruling published in one edition."""

    edition: Edition
    rulings: dict[str, RulingState]


def notes_known_from(editions: Editions) -> int:
    """The index of the first edition whose notes are recorded (0: all of them).

    The first edition that records a reworded note was recorded against a lock that kept notes,
    the previous edition's; before that one, notes changed without being recorded."""
    for index, edition in enumerate(editions.editions):
        if any(change.note_changed for change in edition.changed):
            return max(index - 1, 0)
    return 0


def read_editions(editions: Editions, lock: dict[str, Any]) -> list[EditionText]:
    """Every edition's text, oldest first, the latest equal to the lock.

    Reads back from the lock, undoing each edition's changes newest first."""
    known_from = notes_known_from(editions)
    current: dict[str, RulingState] = {
        rid: RulingState(
            rid,
            entry["words"],
            entry["value"],
            entry.get("note"),
            "note" in entry,
            "",
            True,
        )
        for rid, entry in lock["rulings"].items()
    }
    texts: list[EditionText] = []
    for index in range(len(editions.editions) - 1, -1, -1):
        edition = editions.editions[index]
        texts.append(EditionText(edition, dict(sorted(current.items()))))
        current = _undo(edition, current, notes_known=index - 1 >= known_from)
    texts.reverse()
    return _dated(texts)


def _undo(
    edition: Edition, after: dict[str, RulingState], notes_known: bool
) -> dict[str, RulingState]:
    """The rulings before ``edition``: its additions removed, its changes undone, its
    withdrawals put back."""
    before = {rid: state for rid, state in after.items() if rid not in edition.added}
    for change in edition.changed:
        state = after[change.id]
        note = change.old_note if change.note_changed else state.note
        before[change.id] = replace(
            state,
            words=change.old_words,
            value=change.old_value,
            note=note if notes_known else None,
            note_known=notes_known and state.note_known,
            sources_current=False,
        )
    for gone in edition.withdrawn:
        before[gone.id] = RulingState(gone.id, None, None, None, False, "", False)
    if not notes_known:
        before = {rid: replace(state, note=None, note_known=False) for rid, state in before.items()}
    return before


def _dated(texts: list[EditionText]) -> list[EditionText]:
    """Each ruling's ``since``: the edition that added it or last changed it."""
    since: dict[str, str] = {}
    dated = []
    for text in texts:
        for rid in text.edition.added:
            since[rid] = text.edition.number
        for change in text.edition.changed:
            since[change.id] = text.edition.number
        rulings = {
            rid: replace(state, since=since.get(rid, text.edition.number))
            for rid, state in text.rulings.items()
        }
        dated.append(EditionText(text.edition, rulings))
    return dated


@dataclass(frozen=True)
class Wording:
    """One stretch of editions in which a ruling read the same."""

    first: str
    last: str
    state: RulingState


def wordings(texts: list[EditionText], ruling_id: str) -> list[Wording]:
    """A ruling's wordings, oldest first: each run of editions with the same words, value and
    note (a change to its sources alone does not start a new wording)."""
    runs: list[Wording] = []
    for text in texts:
        state = text.rulings.get(ruling_id)
        if state is None or state.words is None:
            continue
        same = runs and (runs[-1].state.words, runs[-1].state.value, runs[-1].state.note) == (
            state.words,
            state.value,
            state.note,
        )
        if same and runs[-1].last == str(int(text.edition.number) - 1):
            runs[-1] = replace(runs[-1], last=text.edition.number, state=state)
        else:
            runs.append(Wording(text.edition.number, text.edition.number, state))
    return runs


def edition_digest(edition: Edition) -> str:
    """SHA-256 of what an edition records: its number, date, and the rulings it added,
    changed (old and new words, value and note) or withdrawn (and what replaced them). Not its
    summary, nor a withdrawal's fate, which may be reworded later."""
    data = edition.to_data()
    data.pop("summary")
    data["withdrawn"] = [[w.id, w.replaced_by] for w in edition.withdrawn]
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def history_digests(editions: Editions) -> dict[str, str]:
    """Each edition's digest, by number: the lock keeps them, so an edition edited or cut
    afterwards no longer matches."""
    return {e.number: edition_digest(e) for e in editions.editions}


def read_back_problems(
    editions: Editions, lock: dict[str, Any], lock_name: str
) -> list[tuple[Edition, str]]:
    """Where the history does not read back: each problem with the edition it is in.

    Each recorded change must end at the words, value and note (where it records one) its
    ruling has in that edition, read back from the lock through the later editions' changes,
    and each edition must match the digest the lock
    recorded for it (a lock written before digests were kept has none to compare)."""
    problems: list[tuple[Edition, str]] = []
    recorded = lock.get("history")
    if isinstance(recorded, dict):
        for edition in editions.editions:
            if recorded.get(edition.number) != edition_digest(edition):
                problems.append(
                    (edition, f"edition {edition.number} is not as it was recorded in the lock")
                )
        extra = sorted(set(recorded) - {e.number for e in editions.editions}, key=int)
        problems += [
            (editions.current, f"edition {n} is recorded in the lock but missing") for n in extra
        ]
    last = {c.id: e.number for e in editions.editions for c in e.changed}
    for text in read_editions(editions, lock):
        for change in text.edition.changed:
            state = text.rulings.get(change.id)
            ends = state is not None and (state.words, state.value) == (
                change.new_words,
                change.new_value,
            )
            if ends and state is not None and change.note_changed and state.note_known:
                ends = state.note == change.new_note
            if ends:
                continue
            number = text.edition.number
            if last[change.id] == number:
                problem = (
                    f"the last change of ruling {change.id} (edition {number}) does not end at"
                    f" the words, value and note {lock_name} holds"
                )
            else:
                problem = (
                    f"the change of ruling {change.id} in edition {number} does not end at the"
                    " words, value and note its next recorded change starts from"
                )
            problems.append((text.edition, problem))
    return problems
