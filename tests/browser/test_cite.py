"""Every citation the site offers imports cleanly into a reference manager.

Contract: ``<details class="cite" data-ruling="<id>">`` (a ruling) or ``<details
class="cite-page" data-page="<key>">`` (a rulebook, the site) holding ``<pre>`` blocks with
classes ``cite-<style>`` (APA 7, Chicago, MLA 9, Harvard; each also ``cite-text``),
``cite-bibtex``, ``cite-biblatex``, ``cite-csl`` and ``cite-ris``. Each form is read by a real
parser (:mod:`browser.citeformats`: pybtex, citeproc-py, rispy) and must point at the ruling in
its edition's copy, ``/editions/<N>/#<id>``. In the browser, each form is copied with the
page's copy button and the clipboard's text is parsed: what a reader pastes into Zotero or a
.bib file (the Harvard form with the access date the browser filled in).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page

from generator.site.edition import load_editions
from generator.site.local_server import ServedSite

from .citeformats import (
    STYLES,
    biblatex_problems,
    bibtex_problems,
    csl_problems,
    ris_problems,
    styled_problems,
)
from .conftest import SitePage
from .htmlscan import CiteBlock

pytestmark = pytest.mark.browser

FORMS = (*(f"cite-{s}" for s in STYLES), "cite-bibtex", "cite-biblatex", "cite-csl", "cite-ris")
EDITION = load_editions(Path(__file__).resolve().parents[2] / "variants").current.number


def form_problems(forms: dict[str, str], url_end: str) -> list[str]:
    missing = [form for form in FORMS if not forms.get(form, "").strip()]
    if missing:
        return [f"lacks {missing}"]
    styles = [
        p
        for s in STYLES
        for p in styled_problems(s, forms[f"cite-{s}"], url_end, forms["cite-csl"])
    ]
    return (
        bibtex_problems(forms["cite-bibtex"], url_end)
        + biblatex_problems(forms["cite-biblatex"], url_end)
        + csl_problems(forms["cite-csl"], url_end)
        + ris_problems(forms["cite-ris"], url_end)
        + styles
    )


def block_problems(block: CiteBlock) -> list[str]:
    return form_problems(block.forms, f"/editions/{EDITION}/#{block.ruling}")


def test_every_ruling_has_a_cite_block_that_parses(
    site_pages: dict[str, SitePage], ruling_homes: dict[str, str]
) -> None:
    problems = []
    for ruling, home in sorted(ruling_homes.items()):
        blocks = [b for b in site_pages[home].scan.cite_blocks if b.ruling == ruling]
        if len(blocks) != 1:
            problems.append(f"/{home}: {len(blocks)} cite blocks for ruling {ruling}, expected 1")
            continue
        problems.extend(f"/{home} {ruling}: {p}" for p in block_problems(blocks[0]))
    assert not problems, "\n".join(problems)


def test_cite_block_copies_every_form_and_each_parses(
    page: Page, site: ServedSite, richest_rulebook: str
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(site.address(richest_rulebook))
    blocks = page.locator("details.cite[data-ruling]")
    count = blocks.count()
    assert count > 0, f"/{richest_rulebook} has no cite block"
    # The first, middle and last blocks (every block's text is parsed by the test above).
    for index in sorted({0, count // 2, count - 1}):
        block = blocks.nth(index)
        ruling = block.get_attribute("data-ruling") or ""
        assert not block.locator("pre.cite-text").first.is_visible(), "closed blocks hide them"
        # The block is folded, with the ruling's quotations, under the ruling's words.
        page.locator(f'details.ruling-evidence[data-ruling="{ruling}"] > summary').click()
        block.locator("summary").first.click()
        assert block.evaluate("(details) => details.open"), f"cite block {ruling} did not open"
        copied = {form: copy_form(page, block, form) for form in FORMS}
        # Served from an address, the page fills it in: the copied citation is absolute.
        problems = form_problems(copied, site.address(f"editions/{EDITION}/#{ruling}"))
        assert not problems, f"{ruling} as copied:\n" + "\n".join(problems)


def test_rulebook_and_site_citations_parse(page: Page, site: ServedSite) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    for path, address in (("about/", site.address("")), ("variants/bell-1960/", "")):
        page.goto(site.address(path))
        block = page.locator("details.cite-page").first
        block.locator("summary").first.click()
        copied = {form: copy_form(page, block, form) for form in FORMS}
        url_end = address or site.address(path)
        problems = form_problems(copied, url_end)
        assert not problems, f"/{path} page citation as copied:\n" + "\n".join(problems)


def copy_form(page: Page, block: Locator, form: str) -> str:
    """Show the form's tab, press its copy button and return the clipboard's text."""
    pre = block.locator(f"pre.{form}")
    if not pre.is_visible():
        reveal(block, pre)
    assert pre.is_visible(), f"the open cite block offers no way to see {form}"
    pre.hover()
    button = block.locator(f".tabbed-block:has(pre.{form}) button[data-md-type=copy]")
    assert button.count() == 1, f"{form} has no copy button"
    page.evaluate("navigator.clipboard.writeText('')")
    button.click()
    page.wait_for_function("async () => (await navigator.clipboard.readText()).length > 0")
    text: str = page.evaluate("navigator.clipboard.readText()")
    return text


def reveal(block: Locator, pre: Locator) -> None:
    """Click the tab label of the panel holding ``pre`` (pymdownx.tabbed labels each panel)."""
    panel_index: int = pre.evaluate(
        """(pre) => {
             const panel = pre.closest('.tabbed-block');
             return panel ? [...panel.parentElement.children].indexOf(panel) : -1;
           }"""
    )
    labels = block.locator(".tabbed-labels > label")
    if 0 <= panel_index < labels.count():
        labels.nth(panel_index).click()
