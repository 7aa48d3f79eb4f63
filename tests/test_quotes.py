"""Every quote is real: a quote from a seed page appears verbatim in the seed file it cites,
and every quote from a non-English source carries an English translation.

The files are read directly as YAML (not through the model) so this check does not share
code with the validator it double-checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import VARIANTS, variant_ids


def _sources() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((VARIANTS / "sources.yml").read_text(encoding="utf-8"))
    return {entry["id"]: entry for entry in data["sources"]}


def _citations(variant_id: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, citation) for every citation of every ruling and claim in one variant file."""
    data = yaml.safe_load((VARIANTS / f"{variant_id}.yml").read_text(encoding="utf-8"))
    for group in ("rulings", "claims"):
        for item in data.get(group) or []:
            for citation in item.get("sources") or []:
                yield f"{variant_id}.yml {group[:-1]} {item['id']}", citation


def _seed_text(name: str) -> str:
    path = VARIANTS / "seeds" / name
    assert path.is_file(), f"seed file {name} is cited but missing from variants/seeds/"
    return path.read_text(encoding="utf-8")


def test_every_cited_seed_file_exists() -> None:
    for source in _sources().values():
        if source.get("kind") == "seed-page":
            assert source.get("seed"), f"seed-page source {source['id']} names no seed file"
            assert (Path(VARIANTS / "seeds") / source["seed"]).is_file()


@pytest.mark.parametrize("variant_id", variant_ids())
def test_seed_quotes_are_verbatim(variant_id: str) -> None:
    sources = _sources()
    invented = []
    for where, citation in _citations(variant_id):
        source = sources.get(citation["source"])
        assert source is not None, f"{where}: unknown source {citation['source']!r}"
        quote = citation.get("quote")
        if not quote or not source.get("seed"):
            continue
        if quote not in _seed_text(source["seed"]):
            invented.append(f"{where}: {quote!r} is not in seeds/{source['seed']}")
    assert not invented, "quotes not found verbatim in their seed page:\n" + "\n".join(invented)


@pytest.mark.parametrize("variant_id", variant_ids())
def test_non_english_quotes_are_translated(variant_id: str) -> None:
    sources = _sources()
    untranslated = []
    for where, citation in _citations(variant_id):
        source = sources.get(citation["source"], {})
        if citation.get("quote") and source.get("language", "en") != "en":
            translation = citation.get("translation")
            if not (isinstance(translation, str) and translation.strip()):
                untranslated.append(f"{where}: quote from {source['id']} ({source['language']})")
    assert not untranslated, "add an English translation to:\n" + "\n".join(untranslated)


def test_the_quote_check_can_fail() -> None:
    """The verbatim check is not vacuous: a changed character is caught."""
    sources = _sources()
    seeds = [s["seed"] for s in sources.values() if s.get("seed")]
    assert seeds, "no seed-page source in variants/sources.yml"
    text = _seed_text(seeds[0])
    quote = text.strip().splitlines()[0]
    assert quote in text
    assert quote + " (invented)" not in text
