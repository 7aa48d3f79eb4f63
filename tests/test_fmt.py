"""Variant files and the bibliography are in canonical layout, and the layout is lossless.

Canonical: ``generator.model.fmt.canonical_text`` of the parsed file equals the file's text.
Lossless: formatting never changes the data, and formatting twice changes nothing more; the
one exception is typographic (a page range in the edition's own words takes an en dash), and it
never touches a quote.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import VARIANTS, variant_ids
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.model.fmt import PROSE_KEYS, canonical_text, en_dashes

FORMATTED = ["sources.yml", *(f"{v}.yml" for v in variant_ids())]


@pytest.mark.parametrize("name", FORMATTED)
def test_file_is_canonical(name: str) -> None:
    path = VARIANTS / name
    text = path.read_text(encoding="utf-8")
    wanted = canonical_text(path, yaml.safe_load(text))
    if text != wanted:
        first = next(
            i
            for i, (a, b) in enumerate(
                zip([*text.splitlines(), ""], [*wanted.splitlines(), ""], strict=False), 1
            )
            if a != b
        )
        pytest.fail(
            f"variants/{name}:{first}: not in canonical layout; run `ur-variants fmt` "
            f"(or `ur-variants fmt variants/{name}`) and commit the result"
        )


@pytest.mark.parametrize("name", FORMATTED)
def test_fmt_round_trips_and_is_idempotent(name: str) -> None:
    path = VARIANTS / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    once = canonical_text(path, data)
    assert yaml.safe_load(once) == data, f"formatting {name} changed its data"
    assert canonical_text(path, yaml.safe_load(once)) == once, f"fmt is not idempotent on {name}"


# Printable text and newlines: PyYAML itself cannot round-trip a few line-break code points
# (U+0085, U+2028, U+2029) and control characters, which no rulebook uses.
_TEXT = st.characters(
    blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85"
) | st.just("\n")
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.text(_TEXT, max_size=120),
    st.sampled_from(["null", "yes", "no", "1/8", "0.5", "r2c4", "- x", "a: b", "#c", "'q'", '"']),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(_TEXT, min_size=1, max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


def _variant_like(extra: dict[str, Any]) -> dict[str, Any]:
    """A small variant-shaped mapping whose first ruling also holds ``extra``."""
    citation = {"translation": None, "quote": "Q", "locator": "p. 1", "source": "seed-000"}
    ruling = {"sources": [citation], "value": 7, "question": "pieces", "id": "x-pieces"}
    return {
        "rulings": [{**ruling, **extra}, {"id": "x-dice", "question": "dice"}],
        "summary": "One line.\nAnother line.",
        "id": "x",
        "claims": [{"id": "x-claim", "sources": [citation], "check": "no-draw"}],
    }


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["value", "text", "note", "zz-extra"]), _VALUES))
def test_fmt_round_trips_any_values(extra: dict[str, Any]) -> None:
    """Whatever a ruling holds (odd strings, nested values, unknown keys), fmt keeps it."""
    data = _variant_like(extra)
    path = Path("variants/example.yml")
    once = canonical_text(path, data)
    typeset = {
        k: en_dashes(v) if k in PROSE_KEYS and isinstance(v, str) else v for k, v in extra.items()
    }
    assert yaml.safe_load(once) == _variant_like(typeset)
    assert canonical_text(path, yaml.safe_load(once)) == once


def test_page_ranges_take_an_en_dash_and_a_locator_a_lower_case_abbreviation() -> None:
    """Quotes stay as printed; a locator's opening "Pp." reads "pp." after its title."""
    citation = {
        "source": "seed-000",
        "locator": "Pp. 22-23 and 27",
        "quote": "see pp. 22-23",
        "translation": "pages 4-5",
    }
    ruling = {"id": "x-pieces", "text": "As p. 4-5 say.", "note": 'Cited as "Murray 1951: 20-21".'}
    data = {
        "id": "x",
        "summary": "Finkel 2007: 21-22.",
        "rulings": [{**ruling, "sources": [citation]}],
    }
    done = yaml.safe_load(canonical_text(Path("variants/x.yml"), data))
    assert done["summary"] == "Finkel 2007: 21\u201322."
    assert done["rulings"][0]["text"] == "As p. 4\u20135 say."
    assert done["rulings"][0]["note"] == ruling["note"]  # inside double quotes: as printed
    cited = done["rulings"][0]["sources"][0]
    assert cited["locator"] == "pp. 22\u201323 and 27"  # it follows a title after a comma
    assert (cited["quote"], cited["translation"]) == ("see pp. 22-23", "pages 4-5")
    assert en_dashes("rows 1-3, in 177-176 BC") == "rows 1-3, in 177-176 BC"
