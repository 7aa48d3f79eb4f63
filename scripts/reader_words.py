"""Count machine and workshop words in the reader-visible text of a built site.

    .venv/bin/python scripts/reader_words.py [SITE]     (default: site/, as `make site` builds it)

Prints one `name: value` line per figure, then the most frequent words of each kind. Machine
words are counted on every page but the few about the machinery (the ruling index by id, the
implementers' statistics page, the edition log), workshop words on every page (the definitions
are in generator/site/reader_text.py, which the reader-text test uses too).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from generator.model.catalog import load_valid_catalog
from generator.site.reader_text import (
    all_pages,
    machine_tokens,
    page_machine_words,
    reader_pages,
    reader_text,
    workshop_words,
)

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"
    tokens = machine_tokens(load_valid_catalog(ROOT / "variants"))
    machine: Counter[str] = Counter()
    machine_pages = 0
    pages = reader_pages(site)
    for page in pages:
        found = page_machine_words(site, page, tokens)
        machine.update(found)
        machine_pages += bool(found)
    workshop: Counter[str] = Counter()
    workshop_pages = 0
    every = all_pages(site)
    for page in every:
        found = workshop_words(reader_text(page.read_text(encoding="utf-8")))
        workshop.update(found)
        workshop_pages += bool(found)
    print(f"pages scanned for machine words: {len(pages)}")
    print(f"machine words: {sum(machine.values())}")
    print(f"pages with machine words: {machine_pages}")
    print(f"all pages scanned: {len(every)}")
    print(f"workshop words: {sum(workshop.values())}")
    print(f"pages with workshop words: {workshop_pages}")
    print("most frequent machine words:", ", ".join(f"{w} {n}" for w, n in machine.most_common(15)))
    print("workshop words:", ", ".join(f"{w} {n}" for w, n in workshop.most_common()))


if __name__ == "__main__":
    main()
