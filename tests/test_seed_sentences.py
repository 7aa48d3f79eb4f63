"""Every sentence of every seed page is accounted for in ``variants/seed-sentences.yml``: the
rulings and claims it supports, or why it is not a rule.

A sentence links to a ruling (or claim) in one of two ways, and the map must be able to be
wrong: ``supports`` lists the rulings that quote it (a citation of that seed whose quote is the
sentence or part of it, or spans it), and ``bears_on`` gives, for each ruling that does not quote
it, a note saying how the sentence bears on that ruling. A sentence that some ruling quotes must
name that ruling under ``supports``, so it cannot be called "not a rule", and a sentence cannot
be linked to a ruling that neither quotes it nor says why. ``test_the_map_catches_mistakes``
makes the three mistakes an editor could make and asserts that each is caught.

The files are read directly as YAML (not through the model); sentences come from the
deterministic splitter :func:`generator.model.seeds.sentences`, and each must be quoted exactly.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
import yaml
from conftest import VARIANTS

from generator.model.seeds import sentences

MAPPING = VARIANTS / "seed-sentences.yml"
Mapping = dict[str, list[dict[str, Any]]]
Quoted = dict[str, dict[str, set[str]]]
"""seed -> sentence -> the ids whose citations of that seed quote it."""


def _mapping() -> Mapping:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data: Mapping = yaml.load(MAPPING.read_text(encoding="utf-8"), Loader=loader)
    return data


@cache
def _seed_files() -> dict[str, str]:
    data = yaml.safe_load((VARIANTS / "sources.yml").read_text(encoding="utf-8"))
    return {e["id"]: e["seed"] for e in data["sources"] if e.get("seed")}


@cache
def _seed_sentences(seed: str) -> tuple[str, ...]:
    text = (VARIANTS / "seeds" / _seed_files()[seed]).read_text(encoding="utf-8")
    return tuple(sentences(text))


@cache
def _citations() -> tuple[tuple[str, dict[str, Any]], ...]:
    """(ruling or claim id, citation) for every citation in every variant file, and (id, {})
    for every ruling and claim, so that one citing nothing is known too."""
    return tuple(_read_citations())


def _read_citations() -> Iterator[tuple[str, dict[str, Any]]]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in sorted(VARIANTS.glob("*.yml")):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        if not isinstance(data, dict) or "rulings" not in data:
            continue
        for group in ("rulings", "claims"):
            for item in data.get(group) or []:
                yield item["id"], {}
                for citation in item.get("sources") or []:
                    yield item["id"], citation


def _citing() -> dict[str, set[str]]:
    """Ruling and claim id -> the sources it cites."""
    found: dict[str, set[str]] = {}
    for item, citation in _citations():
        found.setdefault(item, set()).update([citation["source"]] if citation else [])
    return found


def quoted_sentences(page: tuple[str, ...], quote: str) -> set[str]:
    """The sentences of ``page`` that ``quote`` quotes: each piece of the quote (split as the page
    is) is the whole of one sentence, or else part of the sentences that hold it, or it holds
    them whole. A short quote that is a sentence of its own (a title) quotes that sentence only.
    """
    found: set[str] = set()
    for piece in sentences(quote):
        whole = [s for s in page if s == piece]
        found.update(whole or [s for s in page if piece in s or s in piece])
    return found


def test_a_quote_is_placed_in_its_own_sentences() -> None:
    page = ("Jeu Royal d’Ur", "Le Jeu Royal d’Ur est ancien.", "Move", "Move one piece.")
    assert quoted_sentences(page, "Jeu Royal d’Ur") == {"Jeu Royal d’Ur"}
    assert quoted_sentences(page, "est ancien. Move one piece.") == {
        "Le Jeu Royal d’Ur est ancien.",
        "Move one piece.",
    }
    assert quoted_sentences(page, "one piece") == {"Move one piece."}


def _quoted() -> Quoted:
    quoted: Quoted = {}
    for item, citation in _citations():
        seed, quote = citation.get("source"), citation.get("quote")
        if seed in _seed_files() and quote:
            for sentence in quoted_sentences(_seed_sentences(seed), quote):
                quoted.setdefault(seed, {}).setdefault(sentence, set()).add(item)
    return quoted


def map_problems(mapping: Mapping, citing: dict[str, set[str]], quoted: Quoted) -> list[str]:
    """Every link the map gets wrong, one line each."""
    problems = []
    for seed, entries in mapping.items():
        for entry in entries:
            sentence = entry["sentence"]
            where = f"{seed}: {sentence[:70]!r}"
            supports = list(entry.get("supports") or [])
            bears_on = dict(entry.get("bears_on") or {})
            quoting = quoted.get(seed, {}).get(sentence, set())
            if bool(supports or bears_on) == bool(entry.get("not_a_rule")):
                problems.append(f"{where} needs supports or bears_on, or not_a_rule")
            if quoting and entry.get("not_a_rule"):
                problems.append(f"{where} is quoted by {sorted(quoting)}, so it is a rule")
            for item in sorted(quoting - set(supports)):
                problems.append(f"{where}: {item} quotes it; list it under supports")
            for item in supports + list(bears_on):
                if item not in citing:
                    problems.append(f"{where}: unknown id {item}")
                elif seed not in citing[item]:
                    problems.append(f"{where}: {item} does not cite {seed}")
            for item in supports:
                if item not in quoting:
                    problems.append(
                        f"{where}: {item} does not quote it; move it to bears_on with a note"
                        " saying how the sentence bears on it, or remove it"
                    )
            for item, note in bears_on.items():
                if item in supports or item in quoting:
                    problems.append(f"{where}: {item} quotes it; list it under supports only")
                if not (isinstance(note, str) and len(note.split()) >= 5):
                    problems.append(f"{where}: {item}: say in a sentence how it bears on it")
    return problems


@pytest.mark.parametrize("seed", sorted(_seed_files()))
def test_every_sentence_is_accounted_for(seed: str) -> None:
    expected = list(_seed_sentences(seed))
    listed = [entry["sentence"] for entry in _mapping().get(seed, [])]
    unmapped = [s for s in expected if s not in listed]
    assert not unmapped, f"{seed}: sentences not in seed-sentences.yml:\n" + "\n".join(unmapped)
    stray = [s for s in listed if s not in expected]
    assert not stray, f"{seed}: entries that are not sentences of the page:\n" + "\n".join(stray)
    assert len(listed) == len(set(listed)), f"{seed}: a sentence is listed twice"


def test_every_link_is_a_quotation_or_says_how() -> None:
    problems = map_problems(_mapping(), _citing(), _quoted())
    assert not problems, "\n".join(problems)


def _entry(mapping: Mapping, seed: str, sentence: str) -> dict[str, Any]:
    return next(e for e in mapping[seed] if e["sentence"] == sentence)


def test_the_map_catches_mistakes() -> None:
    """The three mistakes an editor could make to a quoted sentence are each caught: a link
    to the wrong ruling, the sentence relabelled "not a rule", an unrelated ruling added."""
    citing, quoted = _citing(), _quoted()
    seed, sentence = "seed-000", "Four two-sided dice."
    assert quoted[seed][sentence] == {"gb-dice"}, "pick another quoted sentence for this test"
    mistakes = {
        "wrong ruling": lambda e: e.update(supports=["gb-pieces"]),
        "not a rule": lambda e: (e.pop("supports"), e.update(not_a_rule="A comment.")),
        "unrelated ruling added": lambda e: e["supports"].append("gb-start"),
    }
    for name, edit in mistakes.items():
        mapping = copy.deepcopy(_mapping())
        edit(_entry(mapping, seed, sentence))
        assert map_problems(mapping, citing, quoted), f"the map missed a {name}"


def test_splitter_keeps_abbreviations_and_drops_separators() -> None:
    text = "Dating to 2,500 B.C.E. it was found. Next one?\n|\n- Item. Two\n| 0 | No move. |"
    assert sentences(text) == [
        "Dating to 2,500 B.C.E. it was found.",
        "Next one?",
        "Item.",
        "Two",
        "No move.",
    ]
