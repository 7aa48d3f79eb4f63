"""Rulings under their words, and worked examples to follow, as a reader sees them.

Each ruling's evidence (badge, quotations, note, citation) is folded under its words; opening
the page at the ruling's address shows the ruling and unfolds its evidence, and without
scripts the fold still opens by hand. A quotation and its translation stand side by side on a
desktop and one above the other on a phone, both visible. An evidence tally heads the page.
Worked examples draw the board before and after the move, the move highlighted.
"""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Browser, Page

from generator.model.catalog_contents import Catalog
from generator.model.variant import Evidence
from generator.site.local_server import ServedSite
from generator.site.vocabulary import Vocabulary

from .conftest import DESKTOP, PHONE, OpenPage
from .reader import Incidents, guard_page
from .test_accessibility import axe_findings

pytestmark = pytest.mark.browser

GREAT_BOOK = "finkel-great-book"

_RULING = """
(id) => {
  const heading = document.getElementById(id);
  let fold = heading.nextElementSibling;
  while (fold && !fold.matches('details.ruling-evidence')) fold = fold.nextElementSibling;
  const box = heading.getBoundingClientRect();
  return {
    inView: box.top >= 0 && box.bottom <= window.innerHeight,
    open: fold ? fold.open : null,
    folds: document.querySelectorAll('details.ruling-evidence').length,
    opened: document.querySelectorAll('details.ruling-evidence[open]').length,
    badgeInside: fold ? Boolean(fold.querySelector('.evidence')) : false,
    wordsBefore: heading.nextElementSibling.tagName === 'P'
                 && heading.nextElementSibling.textContent.length > 0,
  };
}
"""


def _own_rulings(catalog: Catalog, variant: str) -> list[str]:
    return [r.id for r in catalog.variants[variant].rulings]


def _translated_rulebook(catalog: Catalog) -> tuple[str, str]:
    """A rulebook (and one of its rulings) that quotes a source not in English."""
    for variant in catalog.variants.values():
        for ruling in variant.rulings:
            if any(c.quote and c.translation for c in ruling.sources):
                return variant.id, ruling.id
    raise AssertionError("no ruling quotes a translated source")


def test_opening_a_ruling_address_shows_it_and_unfolds_its_evidence(
    open_page: OpenPage, site: ServedSite, catalog: Catalog
) -> None:
    rulings = _own_rulings(catalog, GREAT_BOOK)
    target = rulings[len(rulings) // 2]
    page = open_page()
    page.goto(site.address(f"variants/{GREAT_BOOK}/#{target}"))
    page.wait_for_function("() => document.querySelector('details.ruling-evidence[open]')")
    found = page.evaluate(_RULING, target)
    assert found["inView"], f"#{target} is not on the screen"
    assert found["open"] and found["badgeInside"] and found["wordsBefore"], found
    assert found["folds"] == len(rulings), "one fold per ruling"
    assert found["opened"] == 1, "only the addressed ruling is unfolded"

    # a link on the page to another ruling (the how-to-play sentences) unfolds that one too
    other = rulings[0]
    page.locator(f'table a[href$="#{other}"]').first.click()
    page.wait_for_function(
        "(id) => location.hash === '#' + id && document.querySelector("
        '`details.ruling-evidence[data-ruling="${id}"]`).open',
        arg=other,
    )


def test_the_fold_opens_without_scripts(
    browser: Browser, site: ServedSite, catalog: Catalog
) -> None:
    target = _own_rulings(catalog, GREAT_BOOK)[3]
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    incidents = Incidents()
    try:
        page = context.new_page()
        guard_page(page, incidents)
        page.goto(site.address(f"variants/{GREAT_BOOK}/#{target}"))
        found = page.evaluate(_RULING, target)
        assert found["inView"] and found["open"] is False, found
        fold = page.locator(f'details.ruling-evidence[data-ruling="{target}"]')
        assert not fold.locator("figure.source-quote").first.is_visible()
        fold.locator("summary").first.click()
        assert fold.locator("figure.source-quote").first.is_visible()
    finally:
        context.close()
    assert not incidents.report(), incidents.report()


_PAIR = """
(id) => {
  const fold = document.querySelector(`details.ruling-evidence[data-ruling="${id}"]`);
  const pair = fold.querySelector('.quote-texts');
  const [original, translation] = [...pair.querySelectorAll(':scope > blockquote')]
    .map((b) => { const r = b.getBoundingClientRect();
                  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                          width: r.width, lang: b.lang, text: b.innerText}; });
  return {original, translation};
}
"""


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_original_and_translation_both_visible_side_by_side_or_stacked(
    open_page: OpenPage, site: ServedSite, catalog: Catalog, screen: str
) -> None:
    variant, ruling = _translated_rulebook(catalog)
    page = open_page(viewport=DESKTOP if screen == "desktop" else PHONE)
    page.goto(site.address(f"variants/{variant}/#{ruling}"))
    page.wait_for_function(
        '(id) => document.querySelector(`details.ruling-evidence[data-ruling="${id}"]`).open',
        arg=ruling,
    )
    found = page.evaluate(_PAIR, ruling)
    original, translation = found["original"], found["translation"]
    assert original["lang"] and original["lang"] != "en" and "Original, in " in original["text"]
    assert "English translation" in translation["text"]
    for quote in (original, translation):
        assert quote["width"] > 100, f"a quotation squeezed to {quote['width']:.0f} px"
    if screen == "desktop":
        assert abs(original["top"] - translation["top"]) < 2, "not side by side"
        assert original["right"] <= translation["left"], "overlapping"
    else:
        assert translation["top"] >= original["bottom"] - 1, "not stacked on a phone"


def test_the_evidence_tally_heads_the_page_and_counts_the_rulings(
    page: Page, site: ServedSite, catalog: Catalog
) -> None:
    page.goto(site.address(f"variants/{GREAT_BOOK}/"))
    found = page.evaluate(
        """() => {
          const how = document.getElementById('how-to-play');
          const p = [...document.querySelectorAll('article p')]
            .find((e) => e.textContent.startsWith('Evidence:'));
          return p ? {text: p.textContent,
                      first: p.getBoundingClientRect().top < how.getBoundingClientRect().top}
                   : null;
        }"""
    )
    assert found is not None and found["first"], found
    counts = Counter(r.evidence for r in catalog.variants[GREAT_BOOK].rulings)
    total = sum(counts.values())
    assert f"Of its {total} rulings" in found["text"], found["text"]
    phrases = Vocabulary.of(catalog.equipment).data["evidence_tally"]
    for level in Evidence:
        if counts[level]:
            assert f"{counts[level]} {phrases[level.value]}" in found["text"], found["text"]


_EXAMPLES = """
() => [...document.querySelectorAll('h3[id^="example-"]')].map((h) => {
  const boards = [];
  const items = [];
  for (let e = h.nextElementSibling; e && e.tagName !== 'H3' && e.tagName !== 'H2';
       e = e.nextElementSibling) {
    e.querySelectorAll('svg.ur-board').forEach((svg) => {
      const r = svg.getBoundingClientRect();
      boards.push({
        width: r.width, visible: r.width > 0 && r.height > 0,
        label: svg.getAttribute('aria-labelledby').split(' ')
                  .map((id) => document.getElementById(id).textContent).join(' '),
        path: svg.querySelectorAll('.move-path, .move-square').length,
        ring: svg.querySelectorAll('.move-piece').length,
        stuck: svg.querySelectorAll('.stuck-piece').length,
        pieces: svg.querySelectorAll('[class^="piece-"]').length,
      });
    });
    (e.tagName === 'UL' ? [e] : [...e.querySelectorAll('ul')])
      .forEach((ul) => items.push(...[...ul.children].map((li) => li.textContent)));
  }
  return {id: h.id, boards, items};
})
"""


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_worked_examples_draw_before_and_after_with_the_move_highlighted(
    open_page: OpenPage, site: ServedSite, screen: str
) -> None:
    page = open_page(viewport=DESKTOP if screen == "desktop" else PHONE)
    page.goto(site.address(f"variants/{GREAT_BOOK}/#examples"))
    # each example's boards and moves are folded under its move (issue 40): open them all
    for summary in page.locator("details.example-fold > summary").all():
        summary.click()
    examples = page.evaluate(_EXAMPLES)
    # the boards are stepped through one at a time (ur-steps.js): the after board is read at
    # the second step
    for step in page.locator(".example-steps").get_by_role("button", name="Next").all():
        step.click()
    afters = {e["id"]: e["boards"][1] for e in page.evaluate(_EXAMPLES)}
    assert {e["id"] for e in examples} >= {"example-capture", "example-blocked"}, examples
    width = page.viewport_size["width"] if page.viewport_size else 0
    for example in examples:
        before, after = example["boards"][0], afters[example["id"]]
        for board in (before, after):
            assert board["visible"] and board["path"] > 0 and board["pieces"] > 0, example["id"]
            assert 150 < board["width"] <= width, f"{example['id']}: {board['width']:.0f} px"
            assert "Light:" in board["label"] and "The move:" in board["label"]
        assert before["ring"] == 1, example["id"]
        assert "before the move" in before["label"] and "after the move" in after["label"]
        if example["id"] == "example-blocked":
            stuck = [line for line in example["items"] if "cannot" in line]
            assert stuck, "the blocked example names no piece"
            assert all(":" in line for line in stuck), stuck


def test_no_accessibility_violation_with_every_fold_open(
    page: Page, site: ServedSite, catalog: Catalog
) -> None:
    variant, _ = _translated_rulebook(catalog)
    page.goto(site.address(f"variants/{variant}/"))
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    findings = [f for f in axe_findings(page) if f.in_content]
    assert not findings, "\n".join(str(f) for f in findings)
