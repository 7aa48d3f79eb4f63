"""What an edition records, as data: its changes, withdrawals and additions, and every edition
in order with each ruling's history (read from ``variants/editions.yml`` by
:func:`generator.site.edition.load_editions`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

EDITIONS_FILE = "editions.yml"


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
    line: int = field(default=1, compare=False)
    """Where the edition begins in ``editions.yml``, for messages."""

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
