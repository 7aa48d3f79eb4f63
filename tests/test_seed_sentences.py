"""Every sentence of every seed page is accounted for in ``variants/seed-sentences.yml``: the
rulings and claims it supports, or why it is not a rule.

The file is read directly as YAML; sentences come from the deterministic splitter
:func:`generator.model.seeds.sentences`, and each must be quoted exactly.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from conftest import VARIANTS

from generator.model.seeds import sentences

MAPPING = VARIANTS / "seed-sentences.yml"


def _mapping() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = yaml.safe_load(MAPPING.read_text(encoding="utf-8"))
    return data


def _seed_files() -> dict[str, str]:
    data = yaml.safe_load((VARIANTS / "sources.yml").read_text(encoding="utf-8"))
    return {e["id"]: e["seed"] for e in data["sources"] if e.get("seed")}


def _citing() -> dict[str, set[str]]:
    """Ruling and claim id -> the sources it cites."""
    found: dict[str, set[str]] = {}
    for path in VARIANTS.glob("*.yml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "rulings" not in data:
            continue
        for group in ("rulings", "claims"):
            for item in data.get(group) or []:
                found[item["id"]] = {c["source"] for c in item.get("sources") or []}
    return found


@pytest.mark.parametrize("seed", sorted(_seed_files()))
def test_every_sentence_is_accounted_for(seed: str) -> None:
    text = (VARIANTS / "seeds" / _seed_files()[seed]).read_text(encoding="utf-8")
    expected = sentences(text)
    listed = [entry["sentence"] for entry in _mapping().get(seed, [])]
    unmapped = [s for s in expected if s not in listed]
    assert not unmapped, f"{seed}: sentences not in seed-sentences.yml:\n" + "\n".join(unmapped)
    stray = [s for s in listed if s not in expected]
    assert not stray, f"{seed}: entries that are not sentences of the page:\n" + "\n".join(stray)
    assert len(listed) == len(set(listed)), f"{seed}: a sentence is listed twice"


def test_every_entry_supports_something_or_says_why_not() -> None:
    citing = _citing()
    problems = []
    for seed, entries in _mapping().items():
        for entry in entries:
            supports = entry.get("supports") or []
            reason = entry.get("not_a_rule")
            if bool(supports) == bool(reason):
                problems.append(f"{seed}: {entry['sentence']!r} needs supports or not_a_rule")
            for item in supports:
                if item not in citing:
                    problems.append(f"{seed}: {entry['sentence']!r}: unknown id {item}")
                elif seed not in citing[item]:
                    problems.append(f"{seed}: {entry['sentence']!r}: {item} does not cite {seed}")
    assert not problems, "\n".join(problems)


def test_splitter_keeps_abbreviations_and_drops_separators() -> None:
    text = "Dating to 2,500 B.C.E. it was found. Next one?\n|\n- Item. Two\n| 0 | No move. |"
    assert sentences(text) == [
        "Dating to 2,500 B.C.E. it was found.",
        "Next one?",
        "Item.",
        "Two",
        "No move.",
    ]
