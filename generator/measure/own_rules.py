"""What a reader may change in a rulebook, as data for the browser: every played rulebook's
answers to the questions the engine plays, the answers the catalogue knows to each question
with the rulebooks that give them, and the equipment those answers name. The site writes it
as ``play/answers.json`` (:mod:`generator.site.play_files`); ``assets/ur-engine.js`` compiles
a set of answers into rules (``UrEngine.compile``) as :func:`generator.engine.rules.
compile_rules` does, and says why a set cannot be played (``UrEngine.problems``) as
:func:`generator.model.play_checks.play_problems` does. ``tests/browser/test_own_rules_js.py``
holds the two to the Python for every one-answer change of every played rulebook and for
seeded sets of several changes.

The format (version 1)::

    {"format": 1,
     "questions": [{"id": <question>, "answers": [{"value": <answer>,
                                                   "rulebooks": [<id>, ...]}, ...]}, ...],
     "rulebooks": {<id>: {<question>: <answer>, ...}, ...},
     "equipment": {"boards": {<id>: {"cells": [<cell>, ...], "rosettes": [<cell>, ...]}},
                   "routes": {<id>: {"board": <id>, "light": [<cell>, ...],
                                     "dark": [<cell>, ...]}},
                   "dice": {<id>: {"throws": [[<throw>, <numerator>, <denominator>], ...]}}},
     "z": <the normal quantile of the site's 95 % intervals>}

A question is listed where the catalogue knows more than one answer to it
(:func:`generator.sim.variation.alternatives`: the rulebooks' answers, then the readings the
question asks the sensitivity runs to measure, which may name no rulebook); its answers keep
that order. The equipment is every board, route and dice some listed answer or rulebook names.
``z`` is the one the site's intervals use (:data:`generator.sim.stats.Z95`), for a reader's
own simulation to give its interval as the site does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from generator.model.catalog_contents import Catalog
from generator.model.equipment import Equipment
from generator.sim.stats import Z95
from generator.sim.suite import simulated_variants
from generator.sim.variation import EQUIPMENT_QUESTIONS, alternatives, canonical, engine_questions

FORMAT = 1
"""Bump when a reader of an older file would compile a set of answers differently."""


def _answers(catalog: Catalog) -> list[dict[str, Any]]:
    variants = simulated_variants(catalog)
    listed = alternatives(catalog, variants)
    return [
        {
            "id": question,
            "answers": [
                {
                    "value": value,
                    "rulebooks": [
                        v.id for v in variants if canonical(v.value(question)) == canonical(value)
                    ],
                }
                for value in values
            ],
        }
        for question, values in listed.items()
    ]


def equipment_data(equipment: Equipment, named: Mapping[str, Iterable[str]]) -> dict[str, Any]:
    """The boards, routes and dice ``named`` (ids by table: ``boards``, ``routes``, ``dice``)
    as the answers file holds them: cells, rosettes, routes by cell, throws with exact odds."""
    boards = {b: equipment.boards[b] for b in sorted(named["boards"])}
    routes = {r: equipment.routes[r] for r in sorted(named["routes"])}
    dice = {d: equipment.dice[d] for d in sorted(named["dice"])}
    return {
        "boards": {
            i: {"cells": list(b.cells), "rosettes": sorted(b.rosettes)} for i, b in boards.items()
        },
        "routes": {
            i: {"board": r.board, "light": list(r.light), "dark": list(r.dark)}
            for i, r in routes.items()
        },
        "dice": {
            i: {"throws": [[t, p.numerator, p.denominator] for t, p in d.table()]}
            for i, d in dice.items()
        },
    }


def own_rules(catalog: Catalog) -> dict[str, Any]:
    """The answers file (the module docstring gives its format)."""
    questions = engine_questions(catalog)
    rulebooks = {v.id: {q: v.value(q) for q in questions} for v in simulated_variants(catalog)}
    answers = _answers(catalog)
    named: dict[str, set[str]] = {table: set() for table in EQUIPMENT_QUESTIONS.values()}
    for question, table in EQUIPMENT_QUESTIONS.items():
        named[table].update(values[question] for values in rulebooks.values())
        for entry in answers:
            if entry["id"] == question:
                named[table].update(a["value"] for a in entry["answers"])
    # A route names its board: a route chosen alone is played on its own board's cells.
    named["boards"].update(catalog.equipment.routes[r].board for r in named["routes"])
    return {
        "format": FORMAT,
        "questions": answers,
        "rulebooks": rulebooks,
        "equipment": equipment_data(catalog.equipment, named),
        "z": Z95,
    }
