"""The browser engine's data files: ``play/rules/<rulebook-id>.json`` for every rulebook the
site plays, as measured by :func:`generator.measure.play_rules.played_rules` (the compiled
rules' export and the computer), and ``play/answers.json``, the answers a reader may change
(:func:`generator.measure.own_rules.own_rules`), written as compact JSON."""

from __future__ import annotations

import json
from typing import Any

from generator.measure.own_rules import own_rules
from generator.measure.play_rules import played_rules
from generator.model.catalog_contents import Catalog

RULES_FOLDER = "play/rules"
ANSWERS_FILE = "play/answers.json"


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
