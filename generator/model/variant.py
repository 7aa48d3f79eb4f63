"""Variants, rulings and their provenance, as validated values."""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.model.equipment import Board, Dice, Route


class Evidence(enum.Enum):
    """How directly a source supports a ruling."""

    STATED = "stated"
    """The source says it in so many words."""
    IMPLIED = "implied"
    """The source does not say it, but what it says entails it."""
    ASSUMED = "assumed"
    """The source is silent, so a value is assumed; the note says why."""
    CONFLICTING = "conflicting"
    """Sources, or one source with itself, disagree; the note says which value is played."""
    NOT_MODELLED = "not-modelled"
    """A rule the source states that the engine cannot play; shown, never dropped."""

    @property
    def words(self) -> str:
        """The level as readers read it ("not modelled"); the value stays the data's."""
        return self.value.replace("-", " ")


class SourceKind(enum.Enum):
    TABLET_READING = "tablet-reading"
    SCHOLARLY_RECONSTRUCTION = "scholarly-reconstruction"
    COMMERCIAL_RULES = "commercial-rules"
    EDITION_RECONSTRUCTION = "edition-reconstruction"
    """Rules this edition put together to make a lost ruleset playable: not a published text."""
    DIGITAL_ADAPTATION = "digital-adaptation"
    TEACHING_SHORTENING = "teaching-shortening"
    SEED_PAGE = "seed-page"


_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True)
class SourceVersion:
    """The exact version of a source that was quoted (``versions`` in ``variants/sources.yml``).

    A source that changes (a code repository, a file with its own version number) is quoted as
    it was at one version; without it a quote cannot be checked again. ``label`` is the version
    as the source names it ("file version 1.3.10"), ``date`` the day of that version, ``commit``
    the full commit hash of a repository: readers are told the label or the date (never the hash,
    which goes to the machine-readable exports). ``match`` limits the version to the citations
    whose locator contains it (a repository quoted from files at different commits); without it
    the version is the whole source's.
    """

    match: str | None = None
    label: str | None = None
    date: dt.date | None = None
    commit: str | None = None

    def covers(self, locator: str) -> bool:
        return self.match is None or self.match in locator

    def words(self) -> str | None:
        """The version in a reader's words: its label, its date, or both; None when only a
        commit is recorded (a hash is not words)."""
        day = (
            f"{self.date.day} {_MONTHS[self.date.month - 1]} {self.date.year}" if self.date else ""
        )
        if self.label and day:
            return f"{self.label}, of {day}"
        if self.label:
            return self.label
        return f"the version of {day}" if day else None

    def export(self) -> dict[str, str | None]:
        """The version as machine values, for the exports."""
        return {
            "label": self.label,
            "date": self.date.isoformat() if self.date else None,
            "commit": self.commit,
        }


@dataclass(frozen=True)
class Source:
    """One entry of the bibliography (``variants/sources.yml``)."""

    id: str
    title: str
    author: str
    year: int | None
    language: str
    kind: SourceKind
    seed: str | None
    url: str | None
    note: str | None
    versions: tuple[SourceVersion, ...] = ()
    """The exact versions quoted; empty for a text that has no versions (a book, a page)."""
    seen: bool = True
    """False when this edition could not check the source itself (it is cited through others):
    its bibliography entry says so, once."""

    def version_of(self, locator: str) -> SourceVersion | None:
        """The version a citation at ``locator`` quotes, or None when none is recorded."""
        found = [v for v in self.versions if v.covers(locator)]
        return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class Question:
    """One rule question shared by all variants (``variants/questions.yml``)."""

    id: str
    title: str
    explanation: str
    engine: str
    value: str
    measure: tuple[Any, ...] = ()
    """Answers the sensitivity runs also try on every rulebook, though no rulebook gives them:
    a reading of the sources worth measuring (``measure`` in questions.yml)."""

    @property
    def drives_engine(self) -> bool:
        return self.engine not in ("none", "not modelled") and not self.engine.startswith("none ")


@dataclass(frozen=True)
class Citation:
    """Where a ruling comes from: a source, a place in it, and its exact words."""

    source: str
    locator: str
    quote: str | None
    translation: str | None
    """The quote in English: required where the source is not in English, or the quote is code."""
    code: str | None = None
    """The programming language, where the quote is a line of a program's source code (its
    translation then says in words what the line does)."""
    sic: tuple[str, ...] = ()
    """Words of the quote that look wrong but are the source's own (a typo, a slip): each is
    shown followed by "[sic]", so that a reader does not blame the copy."""
    contrary: bool = False
    """The quote says otherwise than the ruling it is cited for: shown as evidence against the
    ruling, so that a reader does not take it for support."""


@dataclass(frozen=True)
class Ruling:
    """One variant's answer to one question, with its provenance."""

    id: str
    question: str
    value: Any
    text: str
    evidence: Evidence
    sources: tuple[Citation, ...]
    note: str | None
    variant: str
    line: int


@dataclass(frozen=True)
class ClaimReading:
    """How a claim's vague word is read for its check: a threshold and the reason for it
    ("most games": more than half of them, because ...)."""

    threshold: float
    reason: str


@dataclass(frozen=True)
class Claim:
    """A factual claim a source makes, checked on the site by a named check."""

    id: str
    claim: str
    check: str
    sources: tuple[Citation, ...]
    note: str | None
    variant: str
    reading: ClaimReading | None = None


@dataclass(frozen=True)
class Variant:
    """One variant file as written: its own rulings only (see :class:`ResolvedVariant`)."""

    id: str
    title: str
    short: str
    kind: SourceKind
    family: str
    """The family of rules it belongs to (one of the schema's ``family`` values)."""
    derives_from: str | None
    simulate: bool
    summary: str
    rulings: tuple[Ruling, ...]
    claims: tuple[Claim, ...]
    path: Path


@dataclass(frozen=True)
class ResolvedVariant:
    """A variant with every inherited ruling filled in: what the engine plays.

    ``rulings`` maps each answered question to the ruling in force, in catalogue order.
    """

    variant: Variant
    rulings: Mapping[str, Ruling]
    board: Board
    route: Route
    dice: Dice
    lineage: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.variant.id

    def value(self, question: str) -> Any:
        return self.rulings[question].value

    def is_inherited(self, ruling: Ruling) -> bool:
        return ruling.variant != self.variant.id

    def machine_values(self) -> dict[str, Any]:
        """Every machine value, by question: the canonical content of the game played."""
        return {question: ruling.value for question, ruling in self.rulings.items()}
