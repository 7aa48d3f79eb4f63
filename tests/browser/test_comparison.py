"""The comparison table as a reader uses it: follow a cell to its ruling (the picker, the
baseline, the filters and the table's layout are in test_compare_picker.py).

Contract: ``<table id="comparison">`` at /compare/, one body row per question carrying
``data-question``, and in each rulebook cell a link to the ruling in force. Rulebook columns
are found from the data, not from the layout: they are the columns whose cells link to rulings
(a cell may say "no ruling" where a rulebook has none on a question).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Page

from generator.model.variant import Ruling
from generator.site.local_server import ServedSite

from .views import heading_view_problem

pytestmark = pytest.mark.browser

COMPARE = "compare/"
BLANKS = {"", "—", "–", "-", "no ruling"}

# Per body row: data-question, whether it is displayed, and per cell its sort key (data-sort,
# else its text, as sort scripts read it), its text and the fragment or short-address id of
# each link in it.
_ROWS = """
() => [...document.querySelectorAll('#comparison tbody tr')].map((row) => ({
  question: row.dataset.question ?? '',
  shown: row.getClientRects().length > 0 && getComputedStyle(row).visibility !== 'hidden',
  cells: [...row.cells].map((cell) => ({
    key: (cell.getAttribute('data-sort') || cell.textContent || '').trim(),
    text: cell.textContent.replace(/\\s+/g, ' ').trim(),
    targets: [...cell.querySelectorAll('a[href]')].map((a) => {
      const url = new URL(a.href);
      const short = url.pathname.match(/\\/r\\/([^/]+)\\/?$/);
      return decodeURIComponent(url.hash.slice(1) || (short ? short[1] : ''));
    }),
  })),
}))
"""


@dataclass(frozen=True)
class Cell:
    key: str
    text: str
    targets: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    question: str
    shown: bool
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Table:
    rows: list[Row]
    variant_columns: list[int]

    def variant_cells(self, row: Row) -> list[Cell]:
        return [row.cells[c] for c in self.variant_columns if c < len(row.cells)]

    def variants_agree(self, row: Row) -> bool:
        return len({cell.text for cell in self.variant_cells(row)}) <= 1

    def column_keys(self, column: int) -> list[str]:
        return [row.cells[column].key if column < len(row.cells) else "" for row in self.rows]


def read_table(page: Page, ruling_ids: set[str]) -> Table:
    raw: list[dict[str, object]] = page.evaluate(_ROWS)
    rows = [
        Row(
            question=str(r["question"]),
            shown=bool(r["shown"]),
            cells=tuple(
                Cell(str(c["key"]), str(c["text"]), tuple(str(t) for t in c["targets"]))
                for c in r["cells"]  # type: ignore[attr-defined]
            ),
        )
        for r in raw
    ]
    width = max((len(row.cells) for row in rows), default=0)
    variant_columns = [
        column
        for column in range(width)
        if any(
            column < len(row.cells) and set(row.cells[column].targets) & ruling_ids for row in rows
        )
    ]
    return Table(rows, variant_columns)


def open_comparison(page: Page, site: ServedSite) -> None:
    page.goto(site.address(COMPARE))
    page.wait_for_selector("#comparison tbody tr")


@pytest.fixture
def ruling_ids(rulings_by_id: dict[str, Ruling]) -> set[str]:
    return set(rulings_by_id)


def test_every_variant_cell_links_to_a_ruling_on_its_question(
    page: Page, site: ServedSite, rulings_by_id: dict[str, Ruling], ruling_ids: set[str]
) -> None:
    open_comparison(page, site)
    table = read_table(page, ruling_ids)
    assert table.rows, "the comparison table has no rows"
    questions = [row.question for row in table.rows]
    assert all(questions), "every row needs a data-question attribute"
    assert len(set(questions)) == len(questions), f"a question has two rows: {questions}"
    assert table.variant_columns, "no column of the table links to rulings"
    problems = []
    for row in table.rows:
        for column in table.variant_columns:
            cell = row.cells[column] if column < len(row.cells) else Cell("", "", ())
            linked = [t for t in cell.targets if t in ruling_ids]
            if not linked:
                if cell.text not in BLANKS:
                    problems.append(
                        f"{row.question}, column {column + 1}: {cell.text!r} links to no ruling"
                    )
                continue
            wrong = [t for t in linked if rulings_by_id[t].question != row.question]
            if wrong:
                problems.append(
                    f"{row.question}, column {column + 1}: links to rulings on other "
                    f"questions {wrong}"
                )
    assert not problems, "\n".join(problems)


def test_a_cell_link_leads_to_its_ruling(
    page: Page,
    site: ServedSite,
    ruling_homes: dict[str, str],
    rulings_by_id: dict[str, Ruling],
    ruling_ids: set[str],
) -> None:
    open_comparison(page, site)
    table = read_table(page, ruling_ids)
    problems = []
    # Where every cell points is checked above (and by the link checker); here a reader clicks
    # one cell in the first, middle and last variant columns and must land on the ruling.
    columns = table.variant_columns
    sampled = sorted({columns[0], columns[len(columns) // 2], columns[-1]})
    for sample, column in enumerate(sampled):
        # A different row for each column, so the sample covers rows as well as columns.
        linked_rows = [row for row in table.rows if set(row.cells[column].targets) & ruling_ids]
        row = linked_rows[(sample * 7) % len(linked_rows)]
        link = (
            page.locator(f'#comparison tbody tr[data-question="{row.question}"]')
            .locator(":scope > *")
            .nth(column)
            .locator("a[href]")
            .first
        )
        href = link.get_attribute("href")
        where = f"column {column + 1}, row {row.question!r} ({href})"
        link.click()
        page.wait_for_url(lambda url: COMPARE not in url and bool(urlsplit(url).fragment))
        ruling = unquote(urlsplit(page.url).fragment)
        if ruling not in rulings_by_id:
            problems.append(f"{where}: landed on #{ruling}, which is not a ruling id")
        else:
            if site.path_of(page.url) != ruling_homes[ruling]:
                problems.append(f"{where}: landed on {page.url}, not on /{ruling_homes[ruling]}")
            if rulings_by_id[ruling].question != row.question:
                problems.append(
                    f"{where}: ruling {ruling} answers {rulings_by_id[ruling].question!r}"
                )
            problem = heading_view_problem(page, ruling)
            if problem:
                problems.append(f"{where}: {problem}")
        page.go_back()
        page.wait_for_selector("#comparison tbody tr")
    assert not problems, "\n".join(problems)
