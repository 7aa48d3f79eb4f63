"""A question page as a reader uses it: the rulebooks grouped by their answer, the answer in
words, each ruling with its sources' own words, originals and translations side by side.

Contract: ``/questions/<id>/`` has one ``h3`` per answer under ``#answers``, followed by a line
of links to the rulebooks giving that answer and one ``.answer-ruling`` block per ruling, whose
quotes are ``.source-quote`` figures holding a ``blockquote`` per language. What each answer
must list is worked out here from the data (every rulebook's ruling in force, inherited ones
included), not from the page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.model.catalog_contents import Catalog
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.local_server import ServedSite
from generator.site.reader_text import reader_text

from .conftest import DESKTOP, PHONE, OpenPage, record_screenshot

pytestmark = pytest.mark.browser

VARIANTS = Path(__file__).resolve().parents[2] / "variants"

# Per answer heading: its words, the rulebook pages linked in the line under it, and per ruling
# block how many quotes it shows.
_ANSWERS = """
() => [...document.querySelectorAll('#answers ~ h3')]
  .filter((h) => h.id.startsWith('answer-'))
  .map((h) => {
    const blocks = [];
    let list = [];
    let el = h.nextElementSibling;
    for (; el && !/^H[23]$/.test(el.tagName); el = el.nextElementSibling) {
      if (el.matches('.answer-ruling')) blocks.push(el.querySelectorAll('.source-quote').length);
      else if (el.tagName === 'P' && !blocks.length)
        list = [...el.querySelectorAll('a')].map((a) => new URL(a.href).pathname);
    }
    const words = [...h.childNodes]
      .filter((n) => !(n.classList && n.classList.contains('headerlink')))
      .map((n) => n.textContent).join('').trim();
    return { words, rulebooks: list, blocks };
  })
"""


@pytest.fixture(scope="module")
def ctx(catalog: Catalog) -> SiteContext:
    return SiteContext(catalog, None, load_editions(VARIANTS))


def expected_answers(ctx: SiteContext, question: str) -> dict[str, set[str]]:
    """Answer in words -> the site paths of the rulebooks giving it."""
    found: dict[str, set[str]] = {}
    for vid, resolved in ctx.resolved.items():
        ruling = resolved.rulings.get(question)
        if ruling is not None:
            found.setdefault(ctx.describe(ruling), set()).add(f"/variants/{vid}/")
    return found


def most_divided_question(ctx: SiteContext) -> str:
    """The question the rulebooks answer in the most different ways (first in order on a tie)."""
    questions = list(ctx.catalog.questions)
    return max(questions, key=lambda q: len(expected_answers(ctx, q)))


@pytest.mark.parametrize("which", ["most divided", "inherited"])
def test_rulebooks_are_grouped_by_their_answer_in_words(
    open_page: OpenPage, site: ServedSite, ctx: SiteContext, which: str
) -> None:
    if which == "most divided":
        question = most_divided_question(ctx)
    else:  # a question where some rulebook inherits its ruling from the one it derives from
        question = next(
            q
            for q in ctx.catalog.questions
            if any(r.rulings.get(q) and r.rulings[q].variant != v for v, r in ctx.resolved.items())
        )
    page = open_page()
    page.goto(site.address(f"questions/{question}/"))
    shown = page.evaluate(_ANSWERS)
    expected = expected_answers(ctx, question)
    assert {a["words"] for a in shown} == set(expected), question
    sizes = [len(a["rulebooks"]) for a in shown]
    assert sizes == sorted(sizes, reverse=True), f"the commonest answer first: {sizes}"
    for answer in shown:
        assert set(answer["rulebooks"]) == expected[answer["words"]], answer["words"]
        assert answer["blocks"], f"{answer['words']}: no ruling shown"
    assert sum(len(a["rulebooks"]) for a in shown) == sum(len(v) for v in expected.values())
    print(f"{question}: {len(shown)} answers over {sum(sizes)} rulebooks")


def test_question_pages_name_rulings_by_their_rulebooks_not_their_ids(
    built_site: Path, ctx: SiteContext
) -> None:
    """Ruling ids are addresses, not words: the headings, rulebook lists and each ruling's
    heading line name rulebooks and answers in words. (The rulings' notes are the data's own
    prose and are checked by test_reader_text.)"""
    found = {}
    for question in ctx.catalog.questions:
        html = (built_site / f"questions/{question}/index.html").read_text(encoding="utf-8")
        page = html[html.index('id="answers"') :]
        heads = re.findall(r"<h3 .*?</h3>|<p>\d+ rulebooks?:.*?</p>", page, re.S)
        heads += re.findall(r'<div class="answer-ruling">\s*<p>.*?</p>', page, re.S)
        text = " ".join(" ".join(reader_text(h)) for h in heads)
        named = [
            rid
            for rid, r in ctx.rulings.items()
            if r.question == question and re.search(rf"(?<![\w-]){re.escape(rid)}(?![\w-])", text)
        ]
        if named or not heads:
            found[question] = named or "nothing read"
    assert not found, found


def _translated_ruling(ctx: SiteContext) -> tuple[str, str]:
    """(question, ruling id) of the first ruling quoting a source with a translation."""
    for rid, ruling in ctx.rulings.items():
        if any(c.quote and c.translation for c in ruling.sources):
            return ruling.question, rid
    raise AssertionError("no ruling quotes a translated source")


_QUOTE_BOXES = """
(rid) => {
  const block = [...document.querySelectorAll('.answer-ruling')]
    .find((b) => b.querySelector(`a[href$="#${rid}"]`));
  const texts = block.querySelector('.source-quote blockquote[lang="en"]').parentElement;
  return [...texts.querySelectorAll('blockquote')].map((q) => {
    const r = q.getBoundingClientRect();
    return { lang: q.lang, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
             visible: r.height > 0 && getComputedStyle(q).visibility === 'visible',
             label: q.querySelector('.quote-language')?.textContent ?? '' };
  });
}
"""


def test_original_and_translation_side_by_side_and_stacked_on_a_phone(
    request: pytest.FixtureRequest,
    open_page: OpenPage,
    site: ServedSite,
    ctx: SiteContext,
    screenshot_folder: Path,
) -> None:
    question, rid = _translated_ruling(ctx)
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = open_page(viewport=viewport)
        page.goto(site.address(f"questions/{question}/"))
        boxes = page.evaluate(_QUOTE_BOXES, rid)
        assert len(boxes) == 2, boxes
        original, translation = boxes
        assert original["lang"] != "en" and translation["lang"] == "en"
        assert original["visible"] and translation["visible"], "both are shown, no tabs"
        assert "Original" in original["label"] and "translation" in translation["label"]
        if name == "desktop":
            assert abs(original["top"] - translation["top"]) <= 2, "side by side"
            assert original["right"] <= translation["left"], "original first, at the left"
        else:
            assert translation["top"] >= original["bottom"] - 1, "stacked on a phone"
        page.locator(f'.answer-ruling:has(a[href$="#{rid}"])').scroll_into_view_if_needed()
        shot = screenshot_folder / f"question-{question}-{name}.png"
        page.screenshot(path=shot)
        record_screenshot(request.config, shot)
