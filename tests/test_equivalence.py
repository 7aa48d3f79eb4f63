"""A verdict on whether a ruling changes the game rests on explicit checks, never on ``assert``
(which ``python -O`` strips): a value the engine cannot read is refused by name
(:class:`generator.engine.rules.RulesError`), and the verdict is the same with and without
``-O``."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from generator.engine.equivalence import value_verdict
from generator.engine.rules import RulesError, compile_rules
from generator.model.catalog import load_valid_catalog

ROOT = Path(__file__).resolve().parent.parent
UNREADABLE = "central"
"""A safe-squares value of the wrong kind: not ``none``, ``rosettes`` or a list of squares."""

CANNOT_COMBINE = "the two values cannot be combined with the rest of this ruleset"

VERDICT = f"""
import sys
from pathlib import Path
from generator.engine.equivalence import value_verdict
from generator.model.catalog import load_valid_catalog
catalog = load_valid_catalog(Path("variants"))
host = catalog.resolve(sorted(catalog.variants)[0])
verdict = value_verdict(catalog, host, "safe-squares", {UNREADABLE!r})
print(sys.flags.optimize, verdict.changes_play, verdict.method)
"""


def test_a_value_of_the_wrong_kind_is_refused_by_name() -> None:
    catalog = load_valid_catalog(ROOT / "variants")
    host = catalog.resolve(sorted(catalog.variants)[0])
    ruling = dataclasses.replace(host.rulings["safe-squares"], value=UNREADABLE)
    mixed = dataclasses.replace(host, rulings={**host.rulings, "safe-squares": ruling})
    with pytest.raises(RulesError, match=repr(UNREADABLE)):
        compile_rules(mixed)
    verdict = value_verdict(catalog, host, "safe-squares", UNREADABLE)
    assert verdict.changes_play and verdict.method == CANNOT_COMBINE


@pytest.mark.parametrize("flags", [[], ["-O"]], ids=["plain", "optimised"])
def test_the_verdict_is_the_same_under_python_O(flags: list[str]) -> None:
    shown = subprocess.run(
        [sys.executable, *flags, "-c", VERDICT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split(maxsplit=2)
    assert shown[0] == ("1" if flags else "0")  # the flag took effect
    assert shown[1:] == [
        "True",
        "the two values cannot be combined with the rest of this ruleset\n",
    ]
