"""One-ruling changes of a resolved variant, for sensitivity runs: "what if this variant
answered one rule question the way another variant does?"

A change replaces one ruling's machine value (``dataclasses.replace``); nothing here names a
variant or a value. A changed variant is played only if it is still a valid, terminating game
(:func:`playable_problem`).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.engine.rules import compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.equipment import Equipment
from generator.model.play_checks import PlayProblem, play_problems
from generator.model.values import VALUE_CHECKS
from generator.model.variant import ResolvedVariant
from generator.model.yamlsource import YamlError, load_document

EQUIPMENT_QUESTIONS = {"board": "boards", "route": "routes", "dice": "dice"}


def canonical(value: Any) -> str:
    """A value's canonical JSON text (for comparing and keying machine values)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Change:
    """Answer ``question`` with ``value`` instead of the variant's own ruling."""

    question: str
    value: Any

    @property
    def label(self) -> str:
        return f"{self.question}={canonical(self.value)}"

    def as_dict(self) -> dict[str, Any]:
        return {"question": self.question, "value": self.value}


def parse_change(text: str) -> Change:
    """``QUESTION=VALUE`` (VALUE in YAML/JSON, e.g. ``safe-squares=rosettes``, ``pieces=5``,
    ``throw-extra-throw=[4]``)."""
    question, sep, value = text.partition("=")
    if not sep or not question.strip():
        raise ValueError(f"expected QUESTION=VALUE such as pieces=5, got {text[:60]!r}")
    try:
        data = load_document(Path("--set"), value).data
    except YamlError as error:
        raise ValueError(f"{question.strip()}: {error.problem.message}") from None
    if not _plain(data):
        raise ValueError(
            f"{question.strip()}: {value[:60]!r} holds a value that is not plain data (a date?);"
            " quote words, e.g. name: '2001-01-01'"
        )
    return Change(question.strip(), data)


def _plain(value: Any) -> bool:
    """Only what JSON holds: records and cache keys are JSON (a date or a set is not)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(map(_plain, value))
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, str | int | bool)


def engine_questions(catalog: Catalog) -> list[str]:
    """The questions whose machine values drive the engine, in catalogue order."""
    return [q.id for q in catalog.questions.values() if q.drives_engine]


def disagreements(catalog: Catalog, variants: Iterable[ResolvedVariant]) -> dict[str, list[Any]]:
    """Each engine question on which ``variants`` differ, with their distinct values (in
    order of first appearance)."""
    found: dict[str, list[Any]] = {}
    resolved = list(variants)
    for question in engine_questions(catalog):
        values: dict[str, Any] = {}
        for variant in resolved:
            if question in variant.rulings:
                values.setdefault(canonical(variant.value(question)), variant.value(question))
        if len(values) > 1:
            found[question] = list(values.values())
    return found


def alternatives(catalog: Catalog, variants: Iterable[ResolvedVariant]) -> dict[str, list[Any]]:
    """The answers the sensitivity runs try on every rulebook, by engine question: the values
    of :func:`disagreements`, then the readings a question asks to measure though no rulebook
    gives them (its ``measure``)."""
    resolved = list(variants)
    found = disagreements(catalog, resolved)
    for question in engine_questions(catalog):
        measured = catalog.questions[question].measure
        if not measured:
            continue
        values = {canonical(v): v for v in found.get(question, [])}
        for variant in resolved:
            if question in variant.rulings:
                values.setdefault(canonical(variant.value(question)), variant.value(question))
        for value in measured:
            values.setdefault(canonical(value), value)
        if len(values) > 1:
            found[question] = list(values.values())
    return {q: found[q] for q in engine_questions(catalog) if q in found}


def with_change(variant: ResolvedVariant, change: Change, equipment: Equipment) -> ResolvedVariant:
    """``variant`` with one ruling's value replaced (equipment follows board/route/dice).

    Raises ``ValueError`` naming the problem when the variant does not answer the question or
    the value is malformed for it.
    """
    if change.question not in variant.rulings:
        known = ", ".join(variant.rulings)
        raise ValueError(f"{variant.id} has no ruling on {change.question!r}; questions: {known}")
    check = VALUE_CHECKS.get(change.question)
    problem = check(change.value, equipment) if check else None
    if problem:
        raise ValueError(f"{change.question}: {problem}")
    ruling = dataclasses.replace(variant.rulings[change.question], value=change.value)
    rulings = {**variant.rulings, change.question: ruling}
    changed = dataclasses.replace(variant, rulings=rulings)
    table = EQUIPMENT_QUESTIONS.get(change.question)
    if table is not None:
        item = getattr(equipment, table)[change.value]
        changed = dataclasses.replace(changed, **{change.question: item})
    return changed


def play_problem(variant: ResolvedVariant) -> PlayProblem | None:
    """Why ``variant`` cannot be played as a game that ends, or ``None`` when it can: the
    catalogue's own checks (:func:`generator.model.checks.play_problems`), then the engine's."""
    values = variant.machine_values()
    for problem in play_problems(values, variant.board, variant.route, variant.dice, True):
        return problem
    try:
        compile_rules(variant)
    except (KeyError, TypeError, ValueError) as error:
        # No one ruling is to blame: the rules as a whole do not compile.
        return PlayProblem("", "engine-refuses", f"the engine cannot compile it: {error}")
    return None


def playable_problem(variant: ResolvedVariant) -> str | None:
    """:func:`play_problem`'s message for the data's author, or ``None`` when it plays."""
    problem = play_problem(variant)
    return problem.message if problem else None
