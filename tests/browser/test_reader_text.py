"""Reader-visible text is words: no machine values on any page but the few about the machinery
(:data:`~generator.site.reader_text.NOT_FOR_READERS`), and no words about how the project gathered
its sources anywhere a reader goes.

Reads the built HTML as a reader gets it (text, SVG titles and descriptions, tooltips, alt text,
accessible names; see :mod:`generator.site.reader_text`). ``scripts/reader_words.py`` prints the
same counts for any built site.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.model.catalog_contents import Catalog
from generator.site.reader_text import (
    all_pages,
    archived,
    machine_tokens,
    machine_words,
    page_machine_words,
    read_page,
    reader_pages,
    reader_text,
    workshop_words,
)

pytestmark = pytest.mark.browser

ABOUT_THE_PROJECT = ("about", "methodology")
"""Pages whose subject is how the project is made: they may name its folders and commands."""


def _report(found: dict[str, dict[str, int]]) -> str:
    return "; ".join(f"{page}: {dict(words)}" for page, words in sorted(found.items())[:12])


def test_reader_pages_show_no_machine_values(built_site: Path, catalog: Catalog) -> None:
    tokens = machine_tokens(catalog)
    pages = reader_pages(built_site)
    assert len(pages) > len(catalog.variants) + len(catalog.questions)
    found = {}
    for page in pages:
        words = page_machine_words(built_site, page, tokens)
        if words:
            found[str(page.relative_to(built_site))] = dict(words)
    assert not found, f"machine values in reader text: {_report(found)}"


def test_no_page_talks_about_the_workshop(built_site: Path) -> None:
    found = {}
    for page in all_pages(built_site):
        name = str(page.relative_to(built_site))
        if name.split("/")[0] in ABOUT_THE_PROJECT or archived(built_site, page):
            continue
        words = workshop_words(reader_text(page.read_text(encoding="utf-8")))
        if words:
            found[name] = dict(words)
    assert not found, f"workshop words in reader text: {_report(found)}"


def test_only_the_bibliography_says_a_source_was_not_seen(
    built_site: Path, catalog: Catalog
) -> None:
    """The one workshop phrase asked for (issue 12 item 8): once per unseen source, on the
    sources page alone; the scan above still counts the phrase anywhere else."""
    unseen = sum(not s.seen for s in catalog.sources.values())
    assert unseen
    said = {
        str(page.relative_to(built_site)): read_page(page.read_text(encoding="utf-8")).not_seen
        for page in all_pages(built_site)
    }
    assert {page: n for page, n in said.items() if n} == {"sources/index.html": unseen}


def test_the_scan_sees_what_a_reader_sees() -> None:
    """The scan reads SVG descriptions and tooltips, and skips scripts and citation forms."""
    html = (
        '<p title="see r2c4">x</p><svg><desc>on r1c1</desc></svg><script>"null"</script>'
        '<pre class="cite-csl"><code>{"id": "a"}</code></pre><p>value {"square": 1}</p>'
        "<p>Cells as in equipment.yml; seed 000</p>"
    )
    text = reader_text(html)
    assert machine_words(text, frozenset({"four-binary"})) == {
        "r2c4": 1,
        "r1c1": 1,
        "JSON": 1,
        "cells": 1,
    }
    assert set(workshop_words(text)) == {"equipment.yml", "seed 000"}


def test_the_scan_catches_ids_hashes_cells_and_seed_numbers() -> None:
    """Ids split by a glossary term are still seen; an address may carry an id."""
    html = (
        '<meta name="description" content="As in tablet-dice.">'
        "<p>Its table, <abbr title='bones'>astragals</abbr>-double-or-quits, shows</p>"
        "<p>SimpleRuleSet.java (commit 0214dfe64acefd0b461e516a79624dac4f05b5a9), short 01672f5</p>"
        "<p>no cells given; check <code>game-minutes</code>; 1234567 and decade are words</p>"
        "<p>Cite it as /r/tablet-dice/ or urvariants:tablet-dice.</p>"
        "<p>as seeds 000 and 003 state; seeds 002, 003 and 004</p>"
    )
    tokens = frozenset({"tablet-dice", "astragals-double-or-quits", "game-minutes"})
    text = reader_text(html)
    assert machine_words(text, tokens) == {
        "tablet-dice": 1,
        "astragals-double-or-quits": 1,
        "git hash": 2,
        "cells": 1,
        "game-minutes": 1,
    }
    assert workshop_words(text) == {"seeds 000 and 003": 1, "seeds 002, 003 and 004": 1}


def test_every_id_of_the_data_is_a_machine_word(catalog: Catalog) -> None:
    tokens = machine_tokens(catalog)
    assert {"bell-throw-extra-throw", "tablet-finkel-2007", "masters-rules"} <= tokens
    assert {c.check for v in catalog.variants.values() for c in v.claims} <= tokens
