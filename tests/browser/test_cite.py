"""The "Cite this ruling" block opens, and what it offers imports cleanly into a reference manager.

Contract: ``<details class="cite" data-ruling="<id>">`` holding ``<pre>`` blocks with classes
``cite-text``, ``cite-bibtex`` and ``cite-csl``. The BibTeX must be one well-formed entry (a strict
reader, :mod:`browser.bibtex`), the CSL-JSON must parse and carry the fields a CSL processor
needs to render a web page citation (CSL-JSON schema 1.0: id, type, title, URL, issued), and
both must point at the ruling, keeping its id visible.
"""

from __future__ import annotations

import json
from datetime import date
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Locator, Page

from .bibtex import BibtexError, parse_entry
from .conftest import SitePage
from .htmlscan import CiteBlock
from .reader import ServedSite

pytestmark = pytest.mark.browser

FORMS = ("cite-text", "cite-bibtex", "cite-csl")
# Item types of the CSL 1.0.2 specification (Appendix III, "Types").
_CSL_TYPE_NAMES = """
    article article-journal article-magazine article-newspaper bill book broadcast chapter
    classic collection dataset document entry entry-dictionary entry-encyclopedia event figure
    graphic hearing interview legal_case legislation manuscript map motion_picture
    musical_score pamphlet paper-conference patent performance periodical personal_communication
    post post-weblog regulation report review review-book software song speech standard thesis
    treaty webpage
"""
CSL_TYPES = frozenset(_CSL_TYPE_NAMES.split())


def points_at_ruling(url: str, ruling: str) -> bool:
    """The address is the ruling's section (…#id) or its short form (…/r/<id>/)."""
    parts = urlsplit(url)
    return unquote(parts.fragment) == ruling or parts.path.rstrip("/").endswith(f"/r/{ruling}")


def bibtex_problems(ruling: str, text: str) -> list[str]:
    try:
        entry = parse_entry(text)
    except BibtexError as error:
        return [f"BibTeX does not parse: {error}\n{text}"]
    problems = []
    if "title" not in entry.fields or not entry.fields["title"].strip():
        problems.append("BibTeX has no title")
    year = entry.fields.get("year", "")
    if not (year.isdigit() and len(year) == 4):
        problems.append(f"BibTeX year {year!r} is not a four-digit year")
    urls = [entry.fields.get("url", "")]
    howpublished = entry.fields.get("howpublished", "")
    if howpublished.startswith("\\url{") and howpublished.endswith("}"):
        urls.append(howpublished[len("\\url{") : -1])
    if not any(points_at_ruling(url, ruling) for url in urls if url):
        problems.append(f"BibTeX gives no address of ruling {ruling} (url or \\url{{…}})")
    if ruling not in text:
        problems.append(f"the ruling id {ruling} is not visible in the BibTeX")
    return problems


def csl_problems(ruling: str, text: str) -> list[str]:
    try:
        item = json.loads(text)
    except json.JSONDecodeError as error:
        return [f"CSL-JSON does not parse: {error}\n{text}"]
    if isinstance(item, list) and len(item) == 1:
        item = item[0]
    if not isinstance(item, dict):
        return ["CSL-JSON must be one item (an object, or a list of one)"]
    problems = [
        f"CSL-JSON lacks {key!r}"
        for key in ("id", "type", "title", "URL", "issued")
        if not item.get(key)
    ]
    if item.get("type") and item["type"] not in CSL_TYPES:
        problems.append(f"CSL type {item['type']!r} is not a CSL 1.0 item type")
    if item.get("URL") and not points_at_ruling(str(item["URL"]), ruling):
        problems.append(f"CSL URL {item['URL']} is not ruling {ruling}'s address")
    issued = item.get("issued")
    if issued:
        problems.extend(date_problems(issued))
    return problems


def date_problems(issued: object) -> list[str]:
    """A CSL date: ``{"date-parts": [[year, month?, day?]]}`` that is a real date."""
    if not isinstance(issued, dict) or "date-parts" not in issued:
        return [f"CSL issued {issued!r} is not a date-parts date"]
    parts = issued["date-parts"]
    if not (isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]):
        return [f"CSL date-parts {parts!r} is malformed"]
    first = parts[0]
    if not all(isinstance(p, int) for p in first) or len(first) > 3:
        return [f"CSL date-parts {first!r} must be 1 to 3 integers"]
    year, month, day = [*first, 1, 1][:3]
    try:
        date(year, month, day)
    except ValueError:
        return [f"CSL date-parts {first!r} is not a real date"]
    return []


def block_problems(block: CiteBlock) -> list[str]:
    missing = [form for form in FORMS if not block.forms.get(form, "").strip()]
    if missing:
        return [f"cite block {block.ruling!r} lacks {missing}"]
    return bibtex_problems(block.ruling, block.forms["cite-bibtex"]) + csl_problems(
        block.ruling, block.forms["cite-csl"]
    )


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


def test_cite_block_opens_and_shows_every_form(
    page: Page, site: ServedSite, richest_rulebook: str
) -> None:
    page.goto(site.address(richest_rulebook))
    blocks = page.locator("details.cite[data-ruling]")
    count = blocks.count()
    assert count > 0, f"/{richest_rulebook} has no cite block"
    # The first, middle and last blocks (every block's text is parsed by the test above).
    for index in sorted({0, count // 2, count - 1}):
        block = blocks.nth(index)
        ruling = block.get_attribute("data-ruling") or ""
        for form in FORMS:
            assert not block.locator(f"pre.{form}").is_visible(), "closed blocks hide their text"
        block.locator("summary").first.click()
        assert block.evaluate("(details) => details.open"), f"cite block {ruling} did not open"
        # Forms may sit in tabs: at least the first is visible, and each tab label shows its own.
        visible = [form for form in FORMS if block.locator(f"pre.{form}").is_visible()]
        assert visible, f"the open cite block {ruling} shows none of {FORMS}"
        for form in FORMS:
            shown = reveal(block, form)
            assert shown, f"the open cite block {ruling} offers no way to see {form}"
            text = block.locator(f"pre.{form}").inner_text()
            problems = form_problems(form, ruling, text)
            assert not problems, f"{ruling} {form} as displayed:\n" + "\n".join(problems)


def form_problems(form: str, ruling: str, text: str) -> list[str]:
    if form == "cite-bibtex":
        return bibtex_problems(ruling, text)
    if form == "cite-csl":
        return csl_problems(ruling, text)
    return [] if ruling in text else [f"the plain citation does not name ruling {ruling}"]


def reveal(block: Locator, form: str) -> bool:
    """Make the ``pre.<form>`` visible, clicking its tab label if it sits in a hidden tab."""
    pre = block.locator(f"pre.{form}")
    if pre.is_visible():
        return True
    # pymdownx.tabbed (and plain tab widgets) label each panel; click the label for this panel.
    panel_index: int = pre.evaluate(
        """(pre) => {
             const panel = pre.closest('.tabbed-block, [role=tabpanel]');
             if (!panel || !panel.parentElement) return -1;
             return [...panel.parentElement.children].indexOf(panel);
           }"""
    )
    labels = block.locator(".tabbed-labels > label, [role=tab]")
    if panel_index < 0 or labels.count() <= panel_index:
        return False
    labels.nth(panel_index).click()
    return pre.is_visible()
