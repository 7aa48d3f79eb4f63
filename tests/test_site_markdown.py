"""The generated Markdown, compared with golden files, and the generator's building blocks.

Golden files live in ``tests/data/site/golden/`` and come from the small fixture catalogue in
``tests/data/site/variants/`` (two invented variants, no simulation). After an intended change
to the pages, regenerate them with::

    UR_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_site_markdown.py
"""

from __future__ import annotations

import datetime as dt
import html
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
import rispy
import yaml
from browser.citeformats import (
    biblatex_problems,
    bibtex_problems,
    csl_problems,
    ris_problems,
    styled_problems,
)
from pybtex.database import parse_string

from generator.engine.equivalence import compare_rulings, sampled_agreement, swapped_rules
from generator.engine.rules import compile_rules
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.site.cite import Citation, site_url
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.generate import all_files, citation_files, generated_config
from generator.site.render import code_span, environment, markdown_text, relative_link

DATA = Path(__file__).parent / "data" / "site"
GOLDEN = DATA / "golden"
FIXED_URL = None
"""Golden pages are built as with SITE_URL unset: citations carry paths from the site's root."""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_valid_catalog(DATA / "variants")


@pytest.fixture(scope="module")
def files(catalog: Catalog) -> dict[str, str]:
    ctx = SiteContext(catalog, FIXED_URL, load_editions(DATA / "variants"))
    generated = all_files(ctx, None)
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
    ctx = SiteContext(catalog, FIXED_URL, load_editions(DATA / "variants"))
    again = {n: t for n, t in all_files(ctx, None).items() if isinstance(t, str)}
    assert again == files


GENERATE = """
import datetime as dt, json, sys
from pathlib import Path
from generator.model.catalog import load_valid_catalog
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.generate import all_files, citation_files, generated_config
from generator.site.edition import load_editions
ctx = SiteContext(load_valid_catalog(Path(sys.argv[1])), None, load_editions(Path(sys.argv[1])))
files = all_files(ctx, None)
print(json.dumps({n: t for n, t in files.items() if isinstance(t, str)}))
"""


def test_generation_does_not_depend_on_the_hash_seed(files: dict[str, str]) -> None:
    """Another process, another string-hash seed: the same pages (set order never leaks)."""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    command = [sys.executable, "-c", GENERATE, str(DATA / "variants")]
    result = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    assert json.loads(result.stdout) == files


def test_each_ruling_heading_carries_its_id_once(catalog: Catalog, files: dict[str, str]) -> None:
    """Once on the site's own pages; each edition's copy holds it again, on a page of its own."""
    markdown = "\n".join(v for k, v in files.items() if not k.startswith("editions/"))
    for ruling in catalog.rulings():
        assert markdown.count(f"{{ #{ruling.id} }}") == 1, ruling.id


def test_each_ruling_says_what_the_others_say_once_inside_a_fold(
    files: dict[str, str],
) -> None:
    """Issue 12: the "Others say" line stood above the evidence and again inside it. It is
    shown once per question, naming the rulebooks that differ and how; issue 40 folds it
    with the evidence (the fold's summary says it holds what other rulebooks say), so that a
    rulebook page is the rules first."""
    for name in ("variants/fixture-child.md", "variants/fixture-game.md"):
        page = files[name]
        sections = page.split("\n### ")[1:]
        said = [s for s in sections if "*Others say:*" in s]
        assert said, name
        for section in said:
            assert section.count("*Others say:*") == 1, section[:80]
            folded = section.split("<details", 1)[1] if "<details" in section else ""
            assert "*Others say:*" in folded.split("</details>", 1)[0], section[:80]
        differing = [s for s in said if "rule the same;" in s]
        assert differing, name
        for section in differing:
            assert "../compare/" in section.split("*Others say:*", 1)[1].split("\n", 1)[0]


def test_a_line_of_code_is_quoted_as_code_beside_its_words() -> None:
    """A quote marked as code (RoyalUr.net's engine, Ludii's game descriptions) is shown as
    code in no human language, with what it does in words beside it; other quotes are not."""
    real = load_valid_catalog(Path(__file__).parents[1] / "variants")
    quotes = environment().get_template("_quote.md.j2").module.quotes  # type: ignore[attr-defined]

    def shown(variant: str, question: str) -> str:
        ruling = next(r for r in real.variants[variant].rulings if r.question == question)
        return str(quotes(ruling.sources, real.sources, lambda code: code))

    dice = shown("royalur-finkel", "dice")
    assert '<blockquote lang="zxx" markdown="1">' in dice
    assert "The source's Java code</span>\n`DiceType.FOUR_BINARY`" in dice
    assert "What it does, in words</span>\nFour binary dice." in dice
    spoken = shown("finkel-english", "dice")
    assert 'lang="zxx"' not in spoken and "in words</span>" not in spoken


def test_a_change_of_quotations_alone_is_called_so() -> None:
    """Where an edition changed only what rulings cite (edition 7 put words beside the
    quoted code), the changes page says so once for all of them, instead of calling every part
    of each unchanged or repeating one sentence per ruling."""
    from generator.site.edition_pages import changes_page

    root = Path(__file__).parents[1] / "variants"
    ctx = SiteContext(load_valid_catalog(root), FIXED_URL, load_editions(root))
    page = changes_page(ctx)["changes/index.md"]
    seventh = page.split("{ #edition-7 }", 1)[1].split("## Edition 6", 1)[0]
    lines = seventh.splitlines()
    said = [i for i, line in enumerate(lines) if "changed only in what they cite" in line]
    dice = next(i for i, line in enumerate(lines) if "r/ru-finkel-dice.md)" in line)
    assert len(said) == 1 and said[0] < dice
    assert lines[dice].startswith("- [") and lines[dice].endswith("(../r/ru-finkel-dice.md)")
    assert "(words unchanged)" not in seventh
    # edition 9 reworded notes only: one sentence says so for all of them
    ninth = page.split("{ #edition-9 }", 1)[1].split("## Edition 8", 1)[0].splitlines()
    said = [i for i, line in enumerate(ninth) if "rulings' notes were reworded" in line]
    noted = next(i for i, line in enumerate(ninth) if "r/ru-finkel-throw-extra-throw.md)" in line)
    assert len(said) == 1 and said[0] < noted and ninth[noted].startswith("- [")


def test_inherited_rulings_link_to_the_parent(files: dict[str, str]) -> None:
    child = files["variants/fixture-child.md"]
    assert "fixture-game.md#fx-dice" in child
    assert "{ #fx-dice }" not in child


def test_every_ruling_has_a_short_address_page(catalog: Catalog, files: dict[str, str]) -> None:
    for ruling in catalog.rulings():
        page = files[f"r/{ruling.id}.md"]
        assert f"](../variants/{ruling.variant}.md#{ruling.id})" in page, ruling.id
        assert "citation_title" not in page and '\ncitation:\n  "title": ' in page
        assert f"[`{ruling.id}`](" in files["r/index.md"]


def test_no_host_is_made_up(files: dict[str, str]) -> None:
    """Built with SITE_URL unset: no citation, short address page or configuration names a host."""
    ours = [n for n in files if n.startswith(("citations.", "r/", ".generated", ".includes"))]
    assert len(ours) > 5
    for name in ours:
        assert "://" not in files[name], name
    assert "site_url" not in files[".generated/mkdocs.yml"].replace("# No site_url", "")


def test_site_wide_citations_list_every_ruling_rulebook_and_the_site(
    catalog: Catalog, files: dict[str, str]
) -> None:
    keys = [e["id"] for e in json.loads(files["citations.json"])]
    rulings = [f"urvariants:{r.id}" for r in catalog.rulings()]
    rulebooks = [f"urvariants:rulebook-{v}" for v in catalog.variants]
    assert sorted(keys) == sorted([*rulings, *rulebooks, "urvariants:site"])
    bib = parse_string(files["citations.bib"], "bibtex")
    assert sorted(bib.entries) == sorted(keys)
    assert sorted(r["id"] for r in rispy.loads(files["citations.ris"])) == sorted(keys)
    assert "not configured" in files["citations.bib"].splitlines()[0]


def test_non_english_quotes_show_original_and_translation(files: dict[str, str]) -> None:
    """Side by side and both visible (no tabs), the original marked with its language."""
    child = files["variants/fixture-child.md"]
    pair = child[child.index('<div class="quote-texts" markdown="1">\n<blockquote lang="es"') :]
    pair = pair[: pair.index("</div>")]
    assert '<blockquote lang="es"' in pair and '<blockquote lang="en"' in pair
    assert "Original, in Spanish" in pair and "Todas las rosetas son seguras." in pair
    assert "English translation" in pair
    assert "===" not in child


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
    assert "**Verdict:** a different game." in route
    # In the child's game (Masters' route) the two safe rulings differ; in the parent's (Bell's
    # route, where only the central rosette is shared) they do not. The section says both.
    safe = _section(pair, "Safe squares")
    assert "a different game" in safe and "leaves every legal move" in safe
    # Both rulings side by side, the Spanish quote with its translation.
    assert safe.count('<div class="pair-side"') == 2
    original = safe.index("Todas las rosetas son seguras.")
    assert "English translation</span>\nEvery rosette is safe." in safe[original:]
    for page, text in files.items():
        if page.startswith(("compare/", "questions/")):
            assert "changes the game" not in text, page


def test_an_effect_whose_interval_includes_zero_is_no_measurable_effect() -> None:
    """Measurable only beyond chance among all the changes measured: an interval that misses
    zero by a little says so, and no more, among 352 changes (the statistics page's count). The
    measurement judges (:func:`generator.measure.effects.significance`); the page words it."""
    from generator.measure.effects import significance

    template = environment().from_string(
        '{% import "_interval.md.j2" as iv %}{{ iv.measured(s, 2555, family) }}'
    )

    def shown(x: dict[str, float], family: int) -> str:
        return template.render(s=significance(x, family), family=family)

    zero = {"estimate": -0.006, "low": -0.026, "high": 0.014}
    assert shown(zero, 352) == "no measurable effect in 2,555 games"
    barely = {"estimate": 0.0155, "low": 0.001, "high": 0.03}
    assert shown(barely, 1).startswith("a measurable effect")
    assert shown(barely, 352) == (
        "zero excluded, but within chance among all 352 changes (2,555 games)"
    )


def test_every_pair_has_both_addresses(files: dict[str, str], catalog: Catalog) -> None:
    from generator.site.compare_pages import reverse_pair_redirects

    ids = sorted(catalog.variants)
    redirects = reverse_pair_redirects(ids)
    pages = {p for p in files if p.startswith("compare/") and "--" in p}
    for a, b in itertools.permutations(ids, 2):
        address = f"compare/{a}--{b}.md"
        assert address in pages or redirects.get(address) in pages, address
    config = yaml.safe_load(files[".generated/mkdocs.yml"])
    redirect_maps = config["plugins"]["redirects"]["redirect_maps"]
    assert redirect_maps[f"compare/{ids[1]}--{ids[0]}.md"] == f"compare/{ids[0]}--{ids[1]}.md"


def test_comparison_status_is_against_the_baseline(catalog: Catalog) -> None:
    from generator.site.compare_pages import Comparer, comparison_rows

    ctx = SiteContext(catalog, FIXED_URL, load_editions(DATA / "variants"))
    rows = {row.question.id: row for row in comparison_rows(ctx, Comparer(ctx))}
    child, game = ctx.variant_ids.index("fixture-child"), ctx.variant_ids.index("fixture-game")
    both = [child, game]
    assert rows["board"].status(game, both) == "the same in every rulebook shown"
    assert rows["route"].status(game, both) == "a different game in 1 rulebook"
    # The verdict is symmetric: either ruling put into the other rulebook.
    for row in rows.values():
        assert row.plays[child][game] == row.plays[game][child]
        assert not row.plays_differently(game, game)


def test_markdown_text_leaves_no_markup() -> None:
    escaped = markdown_text('a *b* [c](javascript:x) <d> _e_ | f {: g } \\ "h" & `i`')
    assert not set(escaped) & set('*[]<>_|{}\\"`'), escaped
    assert str(markdown_text("# not a heading\n- nor a list")).startswith("&#35; ")
    assert "\n&#45; nor" in markdown_text("# not a heading\n- nor a list")


def test_code_span_cannot_be_closed_from_inside() -> None:
    assert code_span("a`b") == "``a`b``"
    assert code_span("`x`") == "`` `x` ``"


def test_relative_links_keep_anchors() -> None:
    assert relative_link("variants/a.md", "variants/b.md#x") == "b.md#x"
    assert relative_link("compare/a--b.md", "questions/q.md") == "../questions/q.md"


def test_citation_formats() -> None:
    c = Citation(
        "urvariants:gb-dice",
        "ruling",
        "ruling gb-dice",
        "Dice & odds (Great Book)",
        "https://s.test/editions/3/#gb-dice",
        "3",
        dt.date(2026, 11, 30),
    )
    url_end = "/editions/3/#gb-dice"
    assert not bibtex_problems(c.bibtex(), url_end)
    assert not biblatex_problems(c.biblatex(), url_end)
    assert parse_string(c.bibtex(), "bibtex").entries["urvariants:gb-dice"].fields["title"] == (
        "{Dice \\& odds (Great Book)}"
    )
    assert not csl_problems(c.csl_text(), url_end)
    assert not ris_problems(c.ris(), url_end)
    for styled in c.styled():
        assert not styled_problems(styled.style, styled.text, url_end, c.csl_text())
    assert "3rd edn" in c.plain() and "Ur Variants contributors (2026)" in c.plain()


def test_comparison_labels_are_short_and_tell_different_values_apart(catalog: Catalog) -> None:
    from generator.site.compare_pages import _row_labels, short_label

    dice = next(iter(catalog.equipment.dice.values()))
    throws = [t for t, _ in dice.table()]
    label = short_label(catalog.equipment, "dice", dice.id)
    assert label.startswith("throws ") and str(throws[0]) in label and dice.id not in label
    assert short_label(catalog.equipment, "start", "highest-throw") == "higher throw starts"
    # Two different values read differently in one row.
    game = catalog.resolve(next(iter(catalog.variants)))
    ruling = game.rulings["start"]
    other = type(ruling)(**{**ruling.__dict__, "id": "x", "value": "highest-throw-rethrow-ties"})
    same = type(ruling)(**{**ruling.__dict__, "id": "y", "value": "highest-throw"})
    labels = _row_labels(catalog.equipment, "start", {"a": other, "b": same})
    assert labels["a"] != labels["b"]


def test_a_configured_address_goes_into_every_citation(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SITE_URL", "https://rules.test/ur")
    assert site_url() == "https://rules.test/ur/"
    ctx = SiteContext(catalog, site_url(), load_editions(DATA / "variants"))
    config = generated_config(ctx, ())
    assert 'site_url: "https://rules.test/ur/"' in config
    bib = citation_files(ctx)["citations.bib"]
    assert "not configured" not in bib
    assert "howpublished = {https://rules.test/ur/editions/1/}" in bib
    biblatex = citation_files(ctx)["citations-biblatex.bib"]
    assert "url          = {https://rules.test/ur/editions/1/#fx-board}" in biblatex
    assert ctx.site_citation().url == "https://rules.test/ur/"
    monkeypatch.setenv("SITE_URL", " ")
    assert site_url() is None


def test_rulebooks_playing_one_game_share_an_effect_row() -> None:
    """Rulebooks that play exactly the same game, changed to the same answer, show identical
    figures: they share one row that names them all ("A, B and C"), where each had a row of
    its own repeating the other's figures; a rulebook whose figures differ keeps its own."""
    from types import SimpleNamespace as Row

    from generator.measure.effects import Judged, significance
    from generator.site.reference_pages import effect_rows

    interval = {"estimate": 0.003, "low": -0.017, "high": 0.023}
    other = {"estimate": 0.013, "low": -0.007, "high": 0.033}

    def effect(vid: str, win_rate: dict[str, float]) -> Row:
        return Row(
            variant=vid,
            question="q",
            change=Row(value="v"),
            win_rate=win_rate,
            throws=interval,
            changed=Row(games=2555, seed=1),
            exact=None,
            full=None,
            significance=Judged(significance(win_rate, 352), significance(interval, 352)),
        )

    same_game = {"merit": ("sr", "tab"), "sr": ("merit", "tab"), "tab": ("merit", "sr")}
    effects = [effect("merit", interval), effect("bell", interval), effect("sr", interval)]
    effects.append(effect("tab", other))  # the same game by the rules, yet other figures
    rows = effect_rows(effects, same_game, lambda e: Row(changes_play=True))
    assert [row.variants for row in rows] == [("merit", "sr"), ("bell",), ("tab",)]

    variants = {v: Row(id=v, short=v.upper()) for v in ("merit", "sr", "bell", "tab")}
    text = (
        environment()
        .get_template("_question_effect.md.j2")
        .render(
            q=Row(drives_engine=True, measure=()),
            effect=rows,
            variants=variants,
            link=lambda target: target,
            variant_page=lambda vid: f"{vid}.md",
            label=lambda question, value: value,
            verdict=lambda e: Row(changes_play=True),
            family=352,
        )
    )
    # as the reader sees it: the page's text is escaped by character references (render.py)
    shown = html.unescape(markdown.markdown(text, extensions=["tables"]))
    cells = [c.split("</td>")[0] for c in shown.split("<td>")[1:]]
    assert '<a href="merit.md">MERIT</a> and <a href="sr.md">SR</a>' in cells
    assert shown.count('href="sr.md"') == 1
    assert shown.count("<tr>") == 4  # the header and three rows


def test_two_answers_that_make_one_game_share_an_effect_row() -> None:
    """On Bell's route the central rosette is the only rosette both sides reach, so making
    "the central rosette" or "every rosette" safe in Bell 1960 is one change of the game, and
    the safe-squares page gives it one row with both answers; answers that make different games
    keep a row each, even with equal figures."""
    from types import SimpleNamespace as Row

    from generator.measure.engine_readings import one_changed_game
    from generator.site.reference_pages import effect_rows

    interval = {"estimate": 0.003, "low": -0.017, "high": 0.023}

    def effect(value: object) -> Row:
        return Row(
            variant="bell-1960",
            question="safe-squares",
            change=Row(value=value),
            win_rate=interval,
            throws=interval,
            changed=Row(games=2555, seed=1),
            exact=None,
            full=None,
        )

    central, every = effect(["r2c4"]), effect("rosettes")
    verdict = lambda e: Row(changes_play=True)  # noqa: E731
    one = effect_rows([central, every], {}, verdict, lambda a, b: True)
    assert [row.answers for row in one] == [(["r2c4"], "rosettes")]
    two = effect_rows([central, every], {}, verdict, lambda a, b: False)
    assert [row.answers for row in two] == [(["r2c4"],), ("rosettes",)]
    real = load_valid_catalog(Path(__file__).parents[1] / "variants")
    bell, masters = real.resolve("bell-1960"), real.resolve("masters-page")
    values = (central.change.value, every.change.value)
    assert one_changed_game(real, bell, "safe-squares", *values)
    # on Masters' route the rosettes of the small block are contested too
    assert not one_changed_game(real, masters, "safe-squares", *values)


def test_navigation_puts_rulebooks_first_and_questions_in_the_order_of_play(
    catalog: Catalog, files: dict[str, str]
) -> None:
    """Where to start first (the fixture has no common rules, so no learn page), then the
    play pages, then the rulebooks by family, each family's rulebooks by short name."""
    import yaml

    nav = yaml.safe_load(files[".generated/mkdocs.yml"])["nav"]
    heads = [entry if isinstance(entry, str) else next(iter(entry)) for entry in nav]
    start = ["Home", "Which rules should I play?", "Play", "Rulebooks", "compare/index.md"]
    assert heads[:5] == start
    assert heads[5:] == [
        "Rule questions",
        "statistics/index.md",
        "claims/index.md",
        "sources/index.md",
        "glossary/index.md",
        "About",
    ]
    sections = {
        k: v for e in nav if isinstance(e, dict) for k, v in e.items() if isinstance(v, list)
    }
    titled = {v for e in nav if isinstance(e, dict) for v in e.values() if isinstance(v, str)}
    assert sections["Rule questions"] == [
        "questions/index.md",
        *(f"questions/{q}.md" for q in catalog.questions),
    ]
    assert sections["Rulebooks"][0] == "variants/index.md"
    families = sections["Rulebooks"][1:]
    assert [next(iter(family)) for family in families] == ["Finkel&#39;s modern rules"]
    assert families[0]["Finkel&#39;s modern rules"] == [
        {v.short: f"variants/{v.id}.md"}
        for v in sorted(catalog.variants.values(), key=lambda v: v.short)
    ], "each rulebook of a family under its short name, by short name"
    sections["Rulebooks"] = [sections["Rulebooks"][0], *families[0]["Finkel&#39;s modern rules"]]
    play, *played = sections["Play"]
    assert play == "play/index.md"
    sections["Play"] = [play, *(p for family in played for p in next(iter(family.values())))]
    assert sections["About"] == [
        "about.md",
        "methodology.md",
        "changes/index.md",
        "editions/index.md",
    ]
    listed = (
        {
            p if isinstance(p, str) else next(iter(p.values()))
            for pages in sections.values()
            for p in pages
        }
        | {e for e in nav if isinstance(e, str)}
        | titled
    )
    generated = {n for n in files if n.endswith(".md") and not n.startswith((".", "r/"))}
    # Each edition's copy is listed on /editions/ (mkdocs.yml's not_in_nav), as pairs are.
    generated -= {n for n in generated if re.fullmatch(r"editions/[0-9]+\.md", n)}
    pairs = {n for n in generated if "--" in n}
    linked_once = {"statistics/method.md"}  # for implementers: mkdocs.yml's not_in_nav
    assert generated - pairs - linked_once <= listed, "a generated page is missing from the nav"


def test_two_jobs_render_the_same_files_in_the_same_order(
    catalog: Catalog, files: dict[str, str]
) -> None:
    """The comparison pages rendered in a forked process: the same files, in the same order."""
    ctx = SiteContext(catalog, FIXED_URL, load_editions(DATA / "variants"))
    forked = all_files(ctx, None, jobs=2)
    assert list(forked) == list(files) and forked == files
