"""The browser engine's data files: ``play/rules/<rulebook-id>.json`` for every rulebook the
site plays, as measured by :func:`generator.measure.play_rules.played_rules` (the compiled
rules' export and the computer), and ``play/answers.json``, the answers a reader may change
(:func:`generator.measure.own_rules.own_rules`), written as compact JSON; and for each rulebook
whose full game is solved and small enough to ship, the perfect-play hint's files
(:mod:`generator.measure.play_hints`): ``play/hints/<rulebook-id>.b64``, the values in base64
(text: the build keeps only text pages for a rebuild, :func:`generator.site.page_cache.
save_pages`), and ``play/hints/<rulebook-id>.json``, the index that finds a position's value."""

from __future__ import annotations

import base64
import json
from typing import Any

from generator.measure.own_rules import own_rules
from generator.measure.play_hints import HintValues
from generator.measure.play_rules import played_rules
from generator.model.catalog_contents import Catalog

RULES_FOLDER = "play/rules"
ANSWERS_FILE = "play/answers.json"
HINTS_FOLDER = "play/hints"


def hint_paths(rulebook: str) -> tuple[str, str]:
    """The docs paths of a rulebook's hint files: its values, then its index."""
    return f"{HINTS_FOLDER}/{rulebook}.b64", f"{HINTS_FOLDER}/{rulebook}.json"


def rules_file(data: dict[str, Any]) -> str:
    """One rulebook's file, as compact JSON."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n"


def play_files(catalog: Catalog) -> dict[str, str | bytes]:
    """Every played rulebook's file, by docs path."""
    files: dict[str, str | bytes] = {
        f"{RULES_FOLDER}/{rulebook}.json": rules_file(data)
        for rulebook, data in played_rules(catalog).items()
    }
    files[ANSWERS_FILE] = rules_file(own_rules(catalog))
    return files


def hint_files(hints: dict[str, HintValues]) -> dict[str, str]:
    """Each shipped rulebook's hint files, by docs path."""
    files: dict[str, str] = {}
    for rulebook, hint in hints.items():
        values, index = hint_paths(rulebook)
        files[values] = base64.b64encode(hint.values).decode("ascii") + "\n"
        files[index] = rules_file(hint.index)
    return files
