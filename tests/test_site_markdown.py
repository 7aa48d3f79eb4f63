"""The generated Markdown, compared with golden files, and the generator's building blocks.

Golden files live in ``tests/data/site/golden/`` and come from the small fixture catalogue in
``tests/data/site/variants/`` (two invented variants, no simulation). After an intended change
to the pages, regenerate them with::

    UR_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_site_markdown.py
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.engine.rules import compile_rules
from generator.model.catalog import Catalog, load_valid_catalog
from generator.site.cite import Citation
from generator.site.context import SiteContext
from generator.site.equivalence import compare_rulings, sampled_agreement, swapped_rules
from generator.site.generate import all_files
from generator.site.pipeline import _unmeasured
from generator.site.render import environment, md_escape, relative_link

DATA = Path(__file__).parent / "data" / "site"
GOLDEN = DATA / "golden"
FIXED_DATE = dt.date(2026, 11, 30)
FIXED_URL = "https://ur-variants.example.org/"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_valid_catalog(DATA / "variants")


@pytest.fixture(scope="module")
def files(catalog: Catalog) -> dict[str, str]:
    ctx = SiteContext(catalog, FIXED_URL, FIXED_DATE)
    generated = all_files(ctx, _unmeasured(ctx))
    return {name: text for name, text in generated.items() if isinstance(text, str)}


def test_golden_markdown(files: dict[str, str]) -> None:
    if os.environ.get("UR_UPDATE_GOLDEN"):
        if GOLDEN.exists():
            for old in GOLDEN.rglob("*"):
                if old.is_file():
                    old.unlink()
        for name, text in files.items():
            path = GOLDEN / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    expected = {
        str(p.relative_to(GOLDEN)): p.read_text(encoding="utf-8")
        for p in GOLDEN.rglob("*")
        if p.is_file()
    }
    assert sorted(files) == sorted(expected), "generated file set changed; see module docstring"
    for name, text in files.items():
        assert text == expected[name], f"{name} differs from its golden file"


def test_generation_is_deterministic(catalog: Catalog, files: dict[str, str]) -> None:
    ctx = SiteContext(catalog, FIXED_URL, FIXED_DATE)
    again = {n: t for n, t in all_files(ctx, _unmeasured(ctx)).items() if isinstance(t, str)}
    assert again == files


GENERATE = """
import datetime as dt, json, sys
from pathlib import Path
from generator.model.catalog import load_valid_catalog
from generator.site.context import SiteContext
from generator.site.generate import all_files
from generator.site.pipeline import _unmeasured
ctx = SiteContext(load_valid_catalog(Path(sys.argv[1])), sys.argv[2], dt.date(2026, 11, 30))
files = all_files(ctx, _unmeasured(ctx))
print(json.dumps({n: t for n, t in files.items() if isinstance(t, str)}))
"""


def test_generation_does_not_depend_on_the_hash_seed(files: dict[str, str]) -> None:
    """Another process, another string-hash seed: the same pages (set order never leaks)."""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    command = [sys.executable, "-c", GENERATE, str(DATA / "variants"), FIXED_URL]
    result = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    assert json.loads(result.stdout) == files


def test_each_ruling_heading_carries_its_id_once(catalog: Catalog, files: dict[str, str]) -> None:
    markdown = "\n".join(files.values())
    for ruling in catalog.rulings():
        assert markdown.count(f"{{ #{ruling.id} }}") == 1, ruling.id


def test_inherited_rulings_link_to_the_parent(files: dict[str, str]) -> None:
    child = files["variants/fixture-child.md"]
    assert "fixture-game.md#fx-dice" in child
    assert "{ #fx-dice }" not in child


def test_short_addresses_map_every_ruling(catalog: Catalog, files: dict[str, str]) -> None:
    config = files[".generated/mkdocs.yml"]
    for ruling in catalog.rulings():
        assert f"r/{ruling.id}.md: variants/{ruling.variant}.md#{ruling.id}" in config


def test_site_wide_citations_list_every_ruling(catalog: Catalog, files: dict[str, str]) -> None:
    entries = json.loads(files["citations.json"])
    assert sorted(e["id"] for e in entries) == sorted(
        f"urvariants:{r.id}" for r in catalog.rulings()
    )
    bib = files["citations.bib"]
    assert bib.count("@misc{") == len(entries)
    assert bib.count("{") == bib.count("}")


def test_non_english_quotes_show_original_and_translation(files: dict[str, str]) -> None:
    child = files["variants/fixture-child.md"]
    assert '=== "Original (es)"' in child and "Todas las rosetas son seguras." in child
    assert '=== "English translation"' in child


def test_equivalent_wording_is_detected_by_the_engine(catalog: Catalog) -> None:
    """Central rosette safe and every rosette safe are the same game on Bell's route only."""
    game = catalog.resolve("fixture-game")
    child_safe = next(
        r for r in catalog.variants["fixture-child"].rulings if r.question == "safe-squares"
    )
    own_safe = game.rulings["safe-squares"]
    assert not compare_rulings(catalog, game, own_safe, child_safe).changes_play
    child = catalog.resolve("fixture-child")
    assert compare_rulings(catalog, child, child.rulings["safe-squares"], own_safe).changes_play
    mixed = swapped_rules(catalog, game, child_safe)
    assert mixed is not None
    assert sampled_agreement(compile_rules(game), mixed, positions=150, seed=1)[1] == 0
    on_masters = swapped_rules(catalog, child, own_safe)
    assert on_masters is not None
    checked, disagreements = sampled_agreement(
        compile_rules(child), on_masters, positions=400, seed=1
    )
    assert checked == 400 and disagreements > 0


def _section(page: str, heading: str) -> str:
    return page.split(f"### {heading} ", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]


def test_pair_page_concludes_and_says_which_differences_change_play(
    files: dict[str, str],
) -> None:
    pair = files["compare/fixture-child--fixture-game.md"]
    verdict = pair.split('!!! abstract "In short"', 1)[1].split("\n\n")[1]
    assert "play the same game except for route" in verdict and "safe squares" in verdict
    route = _section(pair, "Route")
    assert "**The engine's verdict:** a different game." in route
    # In the child's game (Masters' route) the two safe rulings differ; in the parent's (Bell's
    # route, where only the central rosette is shared) they do not. The section says both.
    safe = _section(pair, "Safe squares")
    assert "a different game" in safe and "leaves every legal move" in safe
    # Both rulings side by side, the Spanish quote with its translation.
    assert safe.count('<div class="pair-side"') == 2
    assert "Todas las rosetas son seguras." in safe and "Translated: Every rosette is safe." in safe
    for page, text in files.items():
        if page.startswith(("compare/", "questions/")):
            assert "changes the game" not in text, page


def test_an_effect_whose_interval_includes_zero_is_no_measurable_effect() -> None:
    template = environment().from_string(
        '{% import "_interval.md.j2" as iv %}{{ iv.measured(x, 2555) }}'
    )
    assert template.render(x={"low": -0.026, "high": 0.014}) == (
        "no measurable effect in 2,555 games"
    )
    assert template.render(x={"low": 0.001, "high": 0.03}).startswith("a measurable effect")


def test_every_pair_has_both_addresses(files: dict[str, str], catalog: Catalog) -> None:
    from generator.site.compare_pages import reverse_pair_redirects

    ids = sorted(catalog.variants)
    redirects = reverse_pair_redirects(ids)
    pages = {p for p in files if p.startswith("compare/") and "--" in p}
    for a, b in itertools.permutations(ids, 2):
        address = f"compare/{a}--{b}.md"
        assert address in pages or redirects.get(address) in pages, address
    assert (
        f"compare/{ids[1]}--{ids[0]}.md: compare/{ids[0]}--{ids[1]}.md"
        in files[".generated/mkdocs.yml"]
    )


def test_comparison_status_is_against_the_baseline(catalog: Catalog) -> None:
    from generator.site.compare_pages import Comparer, comparison_rows

    ctx = SiteContext(catalog, FIXED_URL, FIXED_DATE)
    rows = {row.question.id: row for row in comparison_rows(ctx, Comparer(ctx))}
    child, game = ctx.variant_ids.index("fixture-child"), ctx.variant_ids.index("fixture-game")
    both = [child, game]
    assert rows["board"].status(game, both) == "same ruling in every rulebook shown"
    assert rows["route"].status(game, both) == "a different game in 1 rulebook"
    # The verdict is symmetric: either ruling put into the other rulebook.
    for row in rows.values():
        assert row.plays[child][game] == row.plays[game][child]
        assert not row.plays_differently(game, game)


def test_markdown_escape_keeps_quotes_literal() -> None:
    assert md_escape("a *b* [c] <d> _e_ | f") == r"a \*b\* \[c\] \<d\> \_e\_ \| f"
    assert md_escape("# not a heading") == r"\# not a heading"


def test_relative_links_keep_anchors() -> None:
    assert relative_link("variants/a.md", "variants/b.md#x") == "b.md#x"
    assert relative_link("compare/a--b.md", "questions/q.md") == "../questions/q.md"


def test_citation_formats() -> None:
    c = Citation(
        "gb-dice",
        "Dice (Great Book)",
        "Finkel's rules",
        "https://s/variants/x/#gb-dice",
        "1.2.3",
        FIXED_DATE,
    )
    assert (
        "ruling gb-dice" in c.plain() and "version 1.2.3" in c.plain() and "2026-11-30" in c.plain()
    )
    assert c.bibtex().startswith("@misc{urvariants:gb-dice,")
    csl = json.loads(c.csl_text())
    assert csl["type"] == "webpage" and csl["issued"] == {"date-parts": [[2026, 11, 30]]}


def test_comparison_labels_are_short_and_tell_different_values_apart(catalog: Catalog) -> None:
    from generator.site.compare_pages import _row_labels, short_label

    dice = next(iter(catalog.equipment.dice.values()))
    throws = [t for t, _ in dice.table()]
    label = short_label(catalog.equipment, "dice", dice.id)
    assert label.startswith("throws ") and str(throws[0]) in label and dice.id not in label
    assert short_label(catalog.equipment, "start", "highest-throw") == "highest throw"
    # Two different values whose short labels would collide: the row falls back to full labels.
    game = catalog.resolve(next(iter(catalog.variants)))
    ruling = game.rulings["start"]
    other = type(ruling)(**{**ruling.__dict__, "id": "x", "value": "highest throw"})
    same = type(ruling)(**{**ruling.__dict__, "id": "y", "value": "highest-throw"})
    labels = _row_labels(catalog.equipment, "start", {"a": other, "b": same})
    assert labels["a"] != labels["b"]
