"""The comparison table as a reader uses it: sort by a column, show only the differences, follow a
cell to its ruling.

Contract: ``<table id="comparison">`` at /compare/, one row per question carrying
``data-question``, sortable header cells (a click sorts and sets ``aria-sort``), a checkbox
``#only-differences`` that hides the rows where every variant agrees, and in each variant cell a
link to the ruling in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Page

from generator.model.variant import Ruling

from .reader import ServedSite
from .views import heading_view_problem

pytestmark = pytest.mark.browser

COMPARE = "compare/"

# Per body row: its question, the visible text of each variant cell (cells holding a link),
# and whether the row is displayed.
_ROWS = """
() => [...document.querySelectorAll('#comparison tbody tr')].map((row) => ({
  question: row.dataset.question ?? null,
  label: (row.cells[0]?.textContent ?? '').trim(),
  cells: [...row.querySelectorAll('td')]
    .filter((cell) => cell.querySelector('a[href]'))
    .map((cell) => cell.textContent.replace(/\\s+/g, ' ').trim()),
  shown: row.getClientRects().length > 0 && getComputedStyle(row).visibility !== 'hidden',
}))
"""


@dataclass(frozen=True)
class Row:
    question: str | None
    label: str
    cells: tuple[str, ...]
    shown: bool

    @property
    def variants_agree(self) -> bool:
        return len(set(self.cells)) <= 1


def table_rows(page: Page) -> list[Row]:
    raw: list[dict[str, object]] = page.evaluate(_ROWS)
    return [
        Row(
            question=str(r["question"]) if r["question"] is not None else None,
            label=str(r["label"]),
            cells=tuple(str(c) for c in r["cells"]),  # type: ignore[attr-defined]
            shown=bool(r["shown"]),
        )
        for r in raw
    ]


def column_texts(page: Page, column: int) -> list[str]:
    texts: list[str] = page.evaluate(
        """(column) => [...document.querySelectorAll('#comparison tbody tr')]
             .map((row) => (row.cells[column]?.textContent ?? '').replace(/\\s+/g, ' ').trim())""",
        column,
    )
    return texts


def _number(text: str) -> float | None:
    try:
        return float(text.replace("%", "").replace("−", "-").split()[0])
    except (ValueError, IndexError):
        return None


def collation_key(text: str) -> tuple[tuple[int, str], ...]:
    """Approximates the Unicode collation order browsers use for ``localeCompare``: spaces and
    punctuation before digits before letters, letters ignoring case."""
    return tuple(
        (0 if not char.isalnum() else 1 if char.isdigit() else 2, char.casefold()) for char in text
    )


def is_sorted(texts: list[str], descending: bool) -> bool:
    """Sorted as a reader expects: numbers by value, text alphabetically ignoring case.

    Sort scripts differ on punctuation (code-point order vs locale collation), so either is
    accepted.
    """
    numbers = [_number(t) for t in texts]
    if all(n is not None for n in numbers):
        values = [float(n) for n in numbers if n is not None]
        return values == sorted(values, reverse=descending)
    plain = [t.casefold() for t in texts]
    collated = [collation_key(t) for t in texts]
    return plain == sorted(plain, reverse=descending) or collated == sorted(
        collated, reverse=descending
    )


def header_cells(page: Page) -> int:
    count: int = page.evaluate(
        "() => document.querySelectorAll('#comparison thead tr:last-child th').length"
    )
    return count


def open_comparison(page: Page, site: ServedSite) -> None:
    page.goto(site.address(COMPARE))
    page.wait_for_selector("#comparison tbody tr")


def test_table_has_one_row_per_question_with_a_ruling_link_in_each_variant_cell(
    page: Page, site: ServedSite
) -> None:
    open_comparison(page, site)
    rows = table_rows(page)
    assert rows, "the comparison table has no rows"
    assert all(row.question for row in rows), "every row needs a data-question attribute"
    questions = [row.question for row in rows]
    assert len(set(questions)) == len(questions), f"a question has two rows: {questions}"
    widths = {len(row.cells) for row in rows}
    assert len(widths) == 1 and widths != {0}, (
        f"every row needs one linked cell per variant; linked cells per row: {sorted(widths)}"
    )


def sort_by(page: Page, column: int) -> str:
    """Click header ``column``; return its aria-sort once the table says it is sorted."""
    header = page.locator("#comparison thead tr:last-child th").nth(column)
    before = header.get_attribute("aria-sort")
    header.click()
    page.wait_for_function(
        """([column, before]) => {
             const th = document.querySelectorAll('#comparison thead tr:last-child th')[column];
             const now = th.getAttribute('aria-sort');
             return (now === 'ascending' || now === 'descending') && now !== before;
           }""",
        arg=[column, before],
    )
    return header.get_attribute("aria-sort") or ""


def test_clicking_a_header_sorts_the_rows(page: Page, site: ServedSite) -> None:
    open_comparison(page, site)
    original = table_rows(page)
    columns = header_cells(page)
    assert columns >= 2, "the table needs a question column and at least one variant column"
    # The question column, and the variant column with the most different values.
    richest = max(range(1, columns), key=lambda c: (len(set(column_texts(page, c))), -c))
    for column in (0, richest):
        first = sort_by(page, column)
        texts = column_texts(page, column)
        assert is_sorted(texts, descending=first == "descending"), (
            f"after clicking header {column} (aria-sort={first}) the column reads {texts}"
        )
        second = sort_by(page, column)
        assert {first, second} == {"ascending", "descending"}, (
            f"a second click should reverse the order; aria-sort went {first} -> {second}"
        )
        texts = column_texts(page, column)
        assert is_sorted(texts, descending=second == "descending"), (
            f"after the second click on header {column} (aria-sort={second}) "
            f"the column reads {texts}"
        )
    sorted_rows = table_rows(page)
    assert sorted(r.question or "" for r in sorted_rows) == sorted(
        r.question or "" for r in original
    ), "sorting lost or duplicated rows"


def test_only_differences_hides_rows_where_all_variants_agree(page: Page, site: ServedSite) -> None:
    open_comparison(page, site)
    rows = table_rows(page)
    assert all(row.shown for row in rows), "every row is shown before the filter is used"
    agreeing = {row.question for row in rows if row.variants_agree}
    differing = {row.question for row in rows if not row.variants_agree}

    page.check("#only-differences")
    filtered = table_rows(page)
    wrongly_shown = sorted(str(r.question) for r in filtered if r.shown and r.variants_agree)
    wrongly_hidden = sorted(
        str(r.question) for r in filtered if not r.shown and not r.variants_agree
    )
    assert not wrongly_shown, f"rows where every variant agrees are still shown: {wrongly_shown}"
    assert not wrongly_hidden, f"rows where variants differ were hidden: {wrongly_hidden}"
    assert {r.question for r in filtered if r.shown} == differing
    print(f"only differences: {len(differing)} rows shown, {len(agreeing)} hidden")

    page.uncheck("#only-differences")
    assert all(row.shown for row in table_rows(page)), "unchecking must show every row again"


def test_each_column_links_to_the_ruling_in_force(
    page: Page,
    site: ServedSite,
    ruling_homes: dict[str, str],
    rulings_by_id: dict[str, Ruling],
) -> None:
    open_comparison(page, site)
    rows = table_rows(page)
    width = len(rows[0].cells)
    problems = []
    for column in range(width):
        # A different row for each column, so the sample covers rows as well as columns.
        row_index = (column * 7) % len(rows)
        question = rows[row_index].question
        open_comparison(page, site)
        cell = (
            page.locator(f'#comparison tbody tr[data-question="{question}"]')
            .locator("td:has(a[href])")
            .nth(column)
        )
        link = cell.locator("a[href]").first
        href = link.get_attribute("href")
        where = f"column {column + 1}, row {question!r} (href {href})"
        link.click()
        page.wait_for_url(lambda url: bool(urlsplit(url).fragment) and COMPARE not in url)
        ruling = unquote(urlsplit(page.url).fragment)
        if ruling not in rulings_by_id:
            problems.append(f"{where}: landed on #{ruling}, which is not a ruling id")
            continue
        if site.path_of(page.url) != ruling_homes[ruling]:
            problems.append(f"{where}: landed on {page.url}, not on /{ruling_homes[ruling]}")
        if rulings_by_id[ruling].question != question:
            problems.append(
                f"{where}: ruling {ruling} answers {rulings_by_id[ruling].question!r}, "
                f"not {question!r}"
            )
        problem = heading_view_problem(page, ruling)
        if problem:
            problems.append(f"{where}: {problem}")
    assert width > 0
    assert not problems, "\n".join(problems)
