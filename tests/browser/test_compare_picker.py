"""Comparing as a reader does: pick rulebooks and a baseline, filter the questions, share the
address, scroll a long table (desktop and phone), and name a pair in either order.

Contract: /compare/ has a form ``#compare-picker`` (checkboxes ``input[name=with]`` folded in a
``details.picker-rulebooks``, a select ``[name=base]``, a select ``[name=show]`` with values
all / rulings / play), the table
``#comparison`` whose rulebook cells carry ``data-variant``, and a status cell per row. What a
filter must show is worked out here from the cell texts (different values read differently)
and from the engine (``compare_pages.comparison_rows``), not from the page's script.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page

from generator.model.catalog_contents import Catalog
from generator.site.compare_pages import Comparer, Row, comparison_rows
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.local_server import ServedSite

from .conftest import DESKTOP, PHONE, OpenPage, record_screenshot

pytestmark = pytest.mark.browser

COMPARE = "compare/"
WIDE = {"width": 1366, "height": 900}

# Per shown body row: its question, and per shown rulebook cell its rulebook, its value (the
# cell's words without the "different game" mark) and its marks.
_SHOWN = """
() => [...document.querySelectorAll('#comparison tbody tr')]
  .filter((row) => row.getClientRects().length > 0)
  .map((row) => ({
    question: row.dataset.question,
    status: row.querySelector('td.status').textContent.trim(),
    cells: [...row.querySelectorAll('td[data-variant]')]
      .filter((cell) => cell.getClientRects().length > 0)
      .map((cell) => ({
        variant: cell.dataset.variant,
        value: [...cell.childNodes]
          .filter((n) => !(n.classList && n.classList.contains('play-mark')))
          .map((n) => n.textContent).join('').trim(),
        differs: cell.classList.contains('differs'),
        plays: cell.querySelector('.play-mark').textContent.trim() !== '',
      })),
  }))
"""


@pytest.fixture(scope="module")
def engine_rows(catalog: Catalog) -> dict[str, Row]:
    variants = Path(__file__).resolve().parents[2] / "variants"
    ctx = SiteContext(catalog, None, load_editions(variants))
    return {row.question.id: row for row in comparison_rows(ctx, Comparer(ctx))}


def shown(page: Page) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = page.evaluate(_SHOWN)
    return rows


def choice_in_address(page: Page) -> dict[str, list[str]]:
    return {k: v[0].split(",") for k, v in parse_qs(urlsplit(page.url).query).items()}


def open_compare(page: Page, site: ServedSite, query: str = "") -> None:
    page.goto(site.address(COMPARE + query))
    page.wait_for_selector("#compare-picker:not([hidden])")


def open_rulebook_list(page: Page) -> None:
    if not page.eval_on_selector("#compare-picker details.picker-rulebooks", "d => d.open"):
        page.click("#compare-picker details.picker-rulebooks > summary")


def show(page: Page, value: str) -> None:
    page.select_option("#compare-picker select[name=show]", value)


def pick(page: Page, variants: list[str], baseline: str) -> None:
    open_rulebook_list(page)
    page.click('#compare-picker button[data-pick="none"]')
    for v in variants:
        page.check(f'#compare-picker input[name=with][value="{v}"]')
    page.select_option("#compare-picker select[name=base]", baseline)


def test_picking_two_rulebooks_shows_their_columns_and_their_pair_page(
    page: Page, site: ServedSite, catalog: Catalog
) -> None:
    open_compare(page, site)
    everyone = sorted(catalog.variants)
    first = shown(page)[0]["cells"]
    assert [c["variant"] for c in first] != [], "no rulebook column is shown"  # type: ignore[index]
    assert len(first) == len(everyone)  # type: ignore[arg-type]
    a, b = "finkel-spanish", "finkel-great-book"
    pick(page, [a, b], a)
    for row in shown(page):
        columns = [c["variant"] for c in row["cells"]]  # type: ignore[attr-defined]
        assert columns == [a, b], f"{row['question']}: columns {columns}, baseline first"
    assert choice_in_address(page)["with"] == sorted([a, b])
    summary = page.locator("#compare-summary")
    assert "Comparing 2 rulebooks" in summary.inner_text()
    summary.locator("a.pair-link").click()
    page.wait_for_url(lambda url: "--" in url)
    assert site.path_of(page.url) == f"compare/{min(a, b)}--{max(a, b)}/"
    assert catalog.variants[a].short in page.locator("h1").inner_text()


def test_highlights_follow_the_chosen_baseline(page: Page, site: ServedSite) -> None:
    open_compare(page, site)
    for baseline in ("bell-1960", "royalur-masters"):
        page.select_option("#compare-picker select[name=base]", baseline)
        assert choice_in_address(page)["base"] == [baseline]
        problems = []
        for row in shown(page):
            cells = row["cells"]  # type: ignore[index]
            assert cells[0]["variant"] == baseline, "the baseline is the first rulebook column"
            base_value = cells[0]["value"]
            for cell in cells[1:]:  # type: ignore[index]
                if cell["differs"] != (cell["value"] != base_value):
                    problems.append(
                        f"{row['question']} / {cell['variant']}: {cell['value']!r} against "
                        f"{base_value!r}, highlighted={cell['differs']}"
                    )
                if cell["plays"] and not cell["differs"]:
                    problems.append(f"{row['question']} / {cell['variant']}: marked, not differing")
        assert not problems, f"baseline {baseline}:\n" + "\n".join(problems)


@pytest.mark.parametrize("baseline", ["royalur-finkel", "merit-1976"])
def test_filters_show_the_rows_whose_rulings_or_play_differ(
    page: Page, site: ServedSite, catalog: Catalog, engine_rows: dict[str, Row], baseline: str
) -> None:
    open_compare(page, site, f"?base={baseline}")
    everything = shown(page)
    assert len(everything) == len(catalog.questions)
    differing = {
        str(r["question"])
        for r in everything
        if any(c["value"] != r["cells"][0]["value"] for c in r["cells"])  # type: ignore[index]
    }
    ids = sorted(catalog.variants)
    base = ids.index(baseline)
    playing = {
        q
        for q, row in engine_rows.items()
        if any(row.plays_differently(base, i) for i in range(len(ids)))
    }
    show(page, "rulings")
    rulings_rows = {str(r["question"]) for r in shown(page)}
    assert rulings_rows == differing
    show(page, "play")
    play_rows = shown(page)
    assert {str(r["question"]) for r in play_rows} == playing
    assert playing <= differing
    for row in play_rows:
        assert any(c["plays"] for c in row["cells"]), row["question"]  # type: ignore[attr-defined]
        assert "different game" in str(row["status"])
    assert choice_in_address(page)["show"] == ["play"]
    print(
        f"baseline {baseline}: every question {len(everything)}, rulings differ "
        f"{len(rulings_rows)}, play differs {len(play_rows)}"
    )


def test_a_shared_address_restores_the_choice(
    page: Page, site: ServedSite, catalog: Catalog
) -> None:
    chosen = ["bell-1960", "merit-1976", "royalur-finkel"]
    open_compare(page, site, f"?with={','.join(chosen)}&base=merit-1976&show=rulings")
    checked = page.eval_on_selector_all(
        "#compare-picker input[name=with]:checked", "boxes => boxes.map(b => b.value)"
    )
    assert checked == chosen
    assert page.input_value("#compare-picker select[name=base]") == "merit-1976"
    assert page.input_value("#compare-picker select[name=show]") == "rulings"
    chosen_words = page.inner_text("#compare-chosen")
    assert all(catalog.variants[v].short in chosen_words for v in chosen), chosen_words
    rows = shown(page)
    assert rows and len(rows) < len(catalog.questions)
    for row in rows:
        columns = [c["variant"] for c in row["cells"]]  # type: ignore[attr-defined]
        assert columns == ["merit-1976", "bell-1960", "royalur-finkel"]
    # A baseline that was not picked is added; an unknown rulebook is ignored.
    open_compare(page, site, "?with=bell-1960,no-such-book&base=merit-1976")
    assert shown(page)[0]["cells"][0]["variant"] == "merit-1976"  # type: ignore[index]
    assert len(shown(page)[0]["cells"]) == 2  # type: ignore[arg-type]


def test_without_scripts_the_whole_table_and_the_pair_list_work(
    browser: object, site: ServedSite, catalog: Catalog
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)  # type: ignore[attr-defined]
    try:
        page = context.new_page()
        page.goto(site.address(COMPARE))
        assert not page.is_visible("#compare-picker"), "a picker that cannot work is hidden"
        rows = shown(page)
        assert len(rows) == len(catalog.questions)
        assert all(len(r["cells"]) == len(catalog.variants) for r in rows)  # type: ignore[arg-type]
        pairs = page.locator("#pairs ~ details a[href*='--']")
        n = len(catalog.variants)
        assert pairs.count() == n * (n - 1) // 2
    finally:
        context.close()


def _sticky_header_gap(page: Page) -> float:
    """How far the table's header row is below the site's header (0: right under it)."""
    gap: float = page.evaluate(
        """() => document.querySelector('#comparison thead th').getBoundingClientRect().top
                 - document.querySelector('.md-header').getBoundingClientRect().bottom"""
    )
    return gap


def test_the_header_row_and_question_column_stay_in_view_on_a_desktop(
    request: pytest.FixtureRequest,
    open_page: OpenPage,
    site: ServedSite,
    screenshot_folder: Path,
) -> None:
    page = open_page(viewport=WIDE)
    open_compare(page, site)
    nested = page.evaluate(
        """() => [...document.querySelectorAll('#comparison')].flatMap((t) => {
             const boxes = [];
             for (let el = t.parentElement; el && el !== document.body; el = el.parentElement) {
               const s = getComputedStyle(el);
               if (/(auto|scroll)/.test(s.overflowY + s.overflowX)) boxes.push(el.className);
             }
             return boxes; })"""
    )
    assert nested == [], f"the table sits in a scroll box of its own: {nested}"
    for depth in (0.4, 0.8):
        page.evaluate(
            "(d) => window.scrollTo(0, document.querySelector('#comparison').offsetTop"
            " + d * document.querySelector('#comparison').offsetHeight)",
            depth,
        )
        page.wait_for_timeout(200)
        assert abs(_sticky_header_gap(page)) <= 2, "the header row left the screen"
    shot = screenshot_folder / "compare-scrolled-desktop.png"
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)
    # Sideways: the page itself scrolls; the question column stays at the left edge.
    page.evaluate("() => window.scrollBy(600, 0)")
    page.wait_for_timeout(200)
    left = page.evaluate(
        "() => document.querySelector('#comparison tbody th').getBoundingClientRect().left"
    )
    scrolled = page.evaluate("() => window.scrollX")
    assert scrolled > 0, "every rulebook is wider than a desktop screen: the page scrolls"
    assert 0 <= left <= 2, f"the question column moved off screen (left {left})"
    # ...and the baseline's answers stay beside the questions, the others sliding under them.
    question, baseline, other = page.evaluate(
        """() => ['tbody th.question', 'tbody td[data-variant]:nth-child(3)',
                  'tbody td[data-variant]:nth-child(4)'].map((s) => {
             const box = document.querySelector('#comparison ' + s).getBoundingClientRect();
             return [box.left, box.right]; })"""
    )
    assert abs(baseline[0] - question[1]) <= 2, f"the baseline column left {question}: {baseline}"
    assert other[0] < baseline[1], "the next rulebook's column should pass under the baseline's"
    shot = screenshot_folder / "compare-scrolled-sideways-desktop.png"
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)
    # Two rulebooks fit the screen: nothing to scroll sideways.
    open_compare(page, site, "?with=finkel-great-book,finkel-spanish&base=finkel-great-book")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDE["width"]
    shot = screenshot_folder / "compare-pair-choice-desktop.png"
    page.screenshot(path=shot, full_page=True)
    record_screenshot(request.config, shot)


MOST_LINES = 5
"""The most lines one answer may take on a desktop; narrower columns (each shrunk to its
longest word) put the longest answers on eight or nine lines and left empty bands across their
rows."""


def test_on_a_desktop_no_answer_stands_more_than_five_lines_tall(
    open_page: OpenPage, site: ServedSite
) -> None:
    page = open_page(viewport=WIDE)
    open_compare(page, site)
    tallest = page.evaluate(
        """() => [...document.querySelectorAll('#comparison tbody td[data-variant]')]
             .map((td) => {
               const range = document.createRange();
               range.selectNodeContents(td);
               const lines = range.getBoundingClientRect().height
                 / parseFloat(getComputedStyle(td).lineHeight);
               return [lines, td.closest('tr').dataset.question, td.dataset.variant];
             })
             .sort((a, b) => b[0] - a[0])[0]"""
    )
    assert tallest[0] <= MOST_LINES + 0.5, (
        f"an answer stands {tallest[0]:.1f} lines tall: {tallest}"
    )


def test_on_a_phone_each_question_is_a_card_with_labelled_values(
    request: pytest.FixtureRequest,
    open_page: OpenPage,
    site: ServedSite,
    screenshot_folder: Path,
    catalog: Catalog,
) -> None:
    page = open_page(viewport=PHONE)
    open_compare(page, site)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # The picker is compact: folded, it takes under a fifth of the screen, and the first card's
    # question is on the first screen below it.
    picker = page.locator("#compare-picker").bounding_box()
    assert picker is not None and picker["height"] <= PHONE["height"] / 5, picker
    page.evaluate("() => window.scrollTo(0, document.querySelector('#compare-picker').offsetTop)")
    card = page.locator("#comparison tbody th").first.bounding_box()
    assert card is not None and card["y"] + card["height"] <= PHONE["height"], card
    open_rulebook_list(page)
    opened = page.locator("#compare-picker").bounding_box()
    assert opened is not None and opened["width"] <= PHONE["width"]
    shot = screenshot_folder / "compare-picker-open-phone.png"
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)
    page.click("#compare-picker details.picker-rulebooks > summary")
    labels = page.evaluate(
        """() => [...document.querySelectorAll('#comparison tbody tr:first-child td')]
             .map((td) => getComputedStyle(td, '::before').content)"""
    )
    names = {f'"{v.short}"' for v in catalog.variants.values()} | {'"Status"'}
    assert all(label in names or label.endswith(' (baseline)"') for label in labels), labels
    # Scrolled into the middle of the first card, its question stays in view.
    page.evaluate(
        """() => { const card = document.querySelector('#comparison tbody tr');
                   window.scrollTo(0, card.getBoundingClientRect().top + window.scrollY
                                      + card.offsetHeight / 2); }"""
    )
    page.wait_for_timeout(200)
    top = page.evaluate(
        """() => document.querySelector('#comparison tbody th').getBoundingClientRect().top
                 - document.querySelector('.md-header').getBoundingClientRect().bottom"""
    )
    assert abs(top) <= 2, f"the card's question scrolled away ({top} px below the header)"
    shot = screenshot_folder / "compare-scrolled-phone.png"
    page.screenshot(path=shot)
    record_screenshot(request.config, shot)
    open_compare(
        page, site, "?with=finkel-great-book,finkel-spanish&base=finkel-great-book&show=rulings"
    )
    shot = screenshot_folder / "compare-pair-choice-phone.png"
    page.screenshot(path=shot, full_page=True)
    record_screenshot(request.config, shot)


def test_every_pair_answers_in_either_order(page: Page, site: ServedSite, catalog: Catalog) -> None:
    ids = sorted(catalog.variants)
    # Every reverse address is checked statically (test_site_build); a reader follows three.
    for a, b in list(itertools.combinations(ids, 2))[::80]:
        page.goto(site.address(f"compare/{b}--{a}/"))
        page.wait_for_url(f"**/compare/{a}--{b}/")
        heading = page.locator("h1").inner_text()
        assert catalog.variants[a].short in heading and catalog.variants[b].short in heading
