"""Your own rules in the browser (``UrEngine.compile`` and ``UrEngine.problems`` in
``assets/ur-engine.js``) agree with the Python, in Chromium: for every played rulebook and
every answer the catalogue knows to each question it may change, and for seeded sets of
several changes at once (and for answers beyond the catalogue's, on dice of its own making),
the browser finds the same reasons the rules cannot be played
(:func:`generator.model.play_checks.play_problems`) and, where the Python compiles them,
exactly the rules :func:`generator.engine.rules.compile_rules` gives."""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import Page

from generator.engine.export import export_rules
from generator.engine.rules import compile_rules
from generator.measure.own_rules import equipment_data, own_rules
from generator.model.catalog_contents import Catalog
from generator.model.equipment import Dice, Equipment, Outcome
from generator.model.play_checks import play_problems
from generator.model.variant import ResolvedVariant
from generator.sim.suite import simulated_variants
from generator.sim.variation import Change, canonical, with_change
from generator.site.local_server import ServedSite
from generator.site.play_files import ANSWERS_FILE

pytestmark = pytest.mark.browser

ENGINE = "assets/ur-engine.js"
SEED = 20261205
COMBINATIONS = 400
"""Seeded sets of two to five changes, over all played rulebooks."""
WIDER = 1_500
"""Seeded sets of answers beyond the catalogue's: any entry rule, pieces, stacking and bearing
off, and dice of the test's own making (some almost never moving: games too long to play)."""
NAME = "own-rules"


def plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists)."""
    return json.loads(json.dumps(value))


def python_side(variant: ResolvedVariant) -> dict[str, Any]:
    """The Python's reasons ``variant`` cannot be played, and its rules where they compile."""
    values = variant.machine_values()
    problems = [
        [p.question, p.kind, plain(dict(p.details))]
        for p in play_problems(values, variant.board, variant.route, variant.dice, True)
    ]
    try:
        rules = export_rules(compile_rules(variant))
    except (KeyError, TypeError, ValueError):
        rules = None
    if rules is not None:
        rules["rulebook"] = NAME
    return {"values": plain(values), "problems": problems, "rules": rules}


def changed(
    equipment: Equipment, variant: ResolvedVariant, changes: list[tuple[str, Any]]
) -> ResolvedVariant:
    for question, value in changes:
        variant = with_change(variant, Change(question, value), equipment)
    return variant


def made_dice(rng: random.Random, number: int) -> Dice:
    """Dice of two to four throws with odds from even to one in a thousand."""
    throws = sorted(rng.sample(range(0, 7), rng.randint(2, 4)))
    weights = [rng.choice([1, 1, 2, 3, 10, 100, 999]) for _ in throws]
    total = sum(weights)
    outcomes = tuple(
        Outcome(t, Fraction(w, total), f"{t}") for t, w in zip(throws, weights, strict=True)
    )
    return Dice(f"made-{number}", "made", outcomes)


def wider_answers(rng: random.Random, dice: list[str]) -> list[tuple[str, Any]]:
    """Two to five answers, each to a question the catalogue may leave with one answer."""

    def entry_rule() -> dict[str, Any]:
        throws: Any = "any" if rng.random() < 0.4 else sorted(rng.sample(range(1, 7), 2))
        square: Any = "throw" if rng.random() < 0.5 else rng.randint(1, 22)
        return {"throws": throws, "square": square}

    choices: dict[str, Any] = {
        "pieces": lambda: rng.randint(1, 7),
        "stacking": lambda: rng.randint(1, 3),
        "bearing-off": lambda: rng.choice(["exact", "generous"]),
        "must-move": lambda: rng.choice([True, False]),
        "entry": entry_rule,
        "dice": lambda: rng.choice(dice),
    }
    questions = rng.sample(sorted(choices), rng.randint(2, 5))
    return [(q, choices[q]()) for q in questions]


def cases(catalog: Catalog) -> list[tuple[str, dict[str, Any]]]:
    """(what was changed, the Python's side) for every one-answer change of every played
    rulebook, then :data:`COMBINATIONS` seeded sets of several changes (the equipment is the
    answers file's)."""
    answers = {q["id"]: [a["value"] for a in q["answers"]] for q in own_rules(catalog)["questions"]}
    variants = simulated_variants(catalog)
    found = []
    for variant in variants:
        for question, values in answers.items():
            for value in values:
                if canonical(value) != canonical(variant.value(question)):
                    label = f"{variant.id}: {question}={canonical(value)}"
                    found.append(
                        (
                            label,
                            python_side(changed(catalog.equipment, variant, [(question, value)])),
                        )
                    )
    rng = random.Random(SEED)
    for _ in range(COMBINATIONS):
        variant = rng.choice(variants)
        questions = rng.sample(sorted(answers), rng.randint(2, 5))
        changes = [(q, rng.choice(answers[q])) for q in questions]
        label = f"{variant.id}: " + ", ".join(f"{q}={canonical(v)}" for q, v in changes)
        found.append((label, python_side(changed(catalog.equipment, variant, changes))))
    return found


def wider_cases(catalog: Catalog) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """:data:`WIDER` seeded sets of answers beyond the catalogue's, with the equipment they
    name (the catalogue's and made dice)."""
    rng = random.Random(SEED + 1)
    made = {d.id: d for d in (made_dice(rng, n) for n in range(40))}
    equipment = dataclasses.replace(catalog.equipment, dice={**catalog.equipment.dice, **made})
    variants = simulated_variants(catalog)
    found = []
    for _ in range(WIDER):
        variant = rng.choice(variants)
        changes = wider_answers(rng, sorted(equipment.dice))
        label = f"{variant.id}: " + ", ".join(f"{q}={canonical(v)}" for q, v in changes)
        found.append((label, python_side(changed(equipment, variant, changes))))
    named = {table: sorted(getattr(equipment, table)) for table in ("boards", "routes", "dice")}
    return equipment_data(equipment, named), found


BROWSER_SIDE = """async ([url, cases, name, given]) => {
  const { UrEngine } = await import(url);
  const equipment = given ?? (await UrEngine.answers()).equipment;
  return cases.map((values) => {
    const problems = UrEngine.problems(values, equipment);
    let rules = null;
    try { rules = UrEngine.compile(values, equipment, name); } catch (error) { rules = null; }
    return { problems, rules };
  });
}"""


def test_the_answers_file_is_what_the_catalogue_says(catalog: Catalog, built_site: Any) -> None:
    written = json.loads((built_site / ANSWERS_FILE).read_text(encoding="utf-8"))
    assert written == plain(own_rules(catalog))
    for question in written["questions"]:
        assert len(question["answers"]) > 1, f"{question['id']} offers no choice"
        for rulebook, values in written["rulebooks"].items():
            given = [a for a in question["answers"] if rulebook in a["rulebooks"]]
            assert [canonical(a["value"]) for a in given] == [canonical(values[question["id"]])]


def browser_mismatches(
    page: Page, site: ServedSite, found: list[tuple[str, dict[str, Any]]], equipment: Any = None
) -> list[str]:
    """Every set of answers on which the browser and the Python differ; prints the counts."""
    page.goto(site.address(""))
    values = [side["values"] for _, side in found]
    got = page.evaluate(BROWSER_SIDE, [site.address(ENGINE), values, NAME, equipment])
    mismatches = []
    for (label, expected), answer in zip(found, got, strict=True):
        if answer["problems"] != expected["problems"]:
            mismatches.append(
                f"{label}: problems {answer['problems']}, Python {expected['problems']}"
            )
        elif expected["rules"] is not None and answer["rules"] != expected["rules"]:
            mismatches.append(f"{label}: rules {answer['rules']}, Python {expected['rules']}")
    kinds = sorted({problem[1] for _, side in found for problem in side["problems"]})
    unplayable = sum(bool(side["problems"]) for _, side in found)
    print(f"{len(found)} sets of answers ({unplayable} unplayable: {', '.join(kinds)}),")
    print(f"  {len(mismatches)} mismatches")
    return mismatches


def test_changed_answers_compile_and_fail_alike_in_the_browser(
    page: Page, site: ServedSite, catalog: Catalog
) -> None:
    found = cases(catalog)
    mismatches = browser_mismatches(page, site, found)
    assert any(side["problems"] for _, side in found), "no set was unplayable: nothing checked"
    assert mismatches == [], f"{len(mismatches)} mismatches, the first:\n" + "\n".join(
        mismatches[:10]
    )


def test_answers_beyond_the_catalogues_compile_and_fail_alike_in_the_browser(
    page: Page, site: ServedSite, catalog: Catalog
) -> None:
    equipment, found = wider_cases(catalog)
    mismatches = browser_mismatches(page, site, found, equipment)
    kinds = {problem[1] for _, side in found for problem in side["problems"]}
    wanted = {"no-entering-throw", "entry-beyond-route", "never-bears-off", "too-long-game"}
    assert wanted <= kinds, f"the sets never met {sorted(wanted - kinds)}: widen them"
    assert mismatches == [], f"{len(mismatches)} mismatches, the first:\n" + "\n".join(
        mismatches[:10]
    )
