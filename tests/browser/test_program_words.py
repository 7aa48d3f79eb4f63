"""Program words stay off reader pages outside folds and quoted code (issue 40 item 4).

The scan (:mod:`browser.programwords`) reads every reader page as it loads, every fold closed.
The pages' own words (templates, vocabulary) must have none. Words written in the rulebooks'
data (``variants/``: a rulebook's introduction, a source's title) are counted apart, so a failure
says which to reword: the templates or the data.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from .programwords import program_words, scanned_pages, visible_text

pytestmark = pytest.mark.browser

VARIANTS = Path(__file__).resolve().parents[2] / "variants"


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


@cache
def _data_prose() -> tuple[str, ...]:
    """Every string of the rulebooks' data, as its words: what the data owners wrote."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(_words(value))
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    for file in sorted(VARIANTS.glob("*.yml")):
        walk(yaml.safe_load(file.read_text(encoding="utf-8")))
    return tuple(found)


def _from_data(piece: str, word: str) -> bool:
    """Whether a program word stands in words the data wrote: at each place it occurs, the word
    with the three words before it, or with the three after, is in one string of the data (a
    page sets a source's title, its note and the place quoted side by side)."""
    words = _words(piece).split()
    hit = _words(word).split()
    for start in range(len(words) - len(hit) + 1):
        if words[start : start + len(hit)] == hit:
            before = " ".join(words[max(0, start - 3) : start + len(hit)])
            after = " ".join(words[start : start + len(hit) + 3])
            if not any(before in prose or after in prose for prose in _data_prose()):
                return False
    return True


def _split(site: Path) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]]]:
    """Site path -> program words in the pages' own words, and in the data's words."""
    own: dict[str, Counter[str]] = {}
    data: dict[str, Counter[str]] = {}
    for page in scanned_pages(site):
        path = page.relative_to(site).as_posix().removesuffix("index.html")
        for piece in visible_text(page.read_text(encoding="utf-8")):
            for word, count in program_words([piece]).items():
                kind = data if _from_data(piece, word) else own
                kind.setdefault(path, Counter())[word] += count
    return own, data


def _report(found: dict[str, Counter[str]]) -> str:
    total: Counter[str] = Counter()
    for words in found.values():
        total.update(words)
    pages = "; ".join(f"/{p}: {dict(w)}" for p, w in sorted(found.items())[:12])
    return f"{len(found)} pages, {dict(total.most_common())}: {pages}"


def test_reader_pages_say_no_program_words_outside_folds(built_site: Path) -> None:
    own, data = _split(built_site)
    print(f"program words in the pages' own words: {_report(own)}", file=sys.stderr)
    print(f"program words in the data's words: {_report(data)}", file=sys.stderr)
    assert len(scanned_pages(built_site)) > 300
    assert not own, f"program words outside folds: {_report(own)}"


def test_the_data_says_no_program_words_either(built_site: Path) -> None:
    _, data = _split(built_site)
    assert not data, f"program words in the data's words: {_report(data)}"


def test_the_scan_skips_folds_and_code_but_reads_their_summaries() -> None:
    html = (
        '<meta name="description" content="Played with a preset.">'
        "<p>Simulated with seed 20261130 by the Fitted player.</p>"
        "<details><summary>Evidence: the Greedy player</summary><p>PyPI, seed 7</p>"
        "<details><summary>Bonferroni</summary>JSON</details></details>"
        "<p>Cite as CSL-JSON; <code>create_masters()</code> in <span>settings.py</span></p>"
        '<figure class="source-quote"><blockquote lang="zxx"><code>x = 1</code></blockquote>'
        "<figcaption>RuleSetProvider.java, preset FINKEL</figcaption></figure>"
        '<figure class="source-quote"><blockquote lang="en">words</blockquote>'
        "<figcaption>the royalur package on PyPI</figcaption></figure>"
    )
    found = program_words(visible_text(html))
    assert found == {
        "preset": 1,
        "seed 20261130": 1,
        "the Fitted player": 1,
        "the Greedy player": 1,
        "settings.py": 1,
        "PyPI": 1,
    }
