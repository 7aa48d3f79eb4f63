"""The browser engine's data: ``play/rules/<rulebook-id>.json`` for every rulebook the site
plays, read by ``assets/ur-engine.js`` (``UrEngine.load(id)``).

The site plays the rulebooks the simulation suite plays (``simulate: true``,
:func:`generator.sim.suite.simulated_variants`); a rulebook kept only for the record is not
offered. Each file is the compiled rules' export (:func:`generator.engine.export.export_rules`)
with the computer the engine plays them with, under ``computer``:

- ``{"agent": "fitted", "weights": [...]}``: the fitted agent (:class:`generator.sim.agents.
  FastAgent` ``FITTED``, the strongest agent against random in every rulebook of the agents'
  check) with the rulebook's committed weights (``results/fitted-agent.json``);
- ``{"agent": "greedy"}`` where no committed fit holds the rules as they are now (the build
  fits nothing: ``ur-variants agents`` does).
"""

from __future__ import annotations

import json
from typing import Any

from generator.engine.export import export_rules
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.sim.suite import simulated_variants
from generator.solver.fitted_agent import committed_weights

RULES_FOLDER = "play/rules"


def computer(rules: Rules) -> dict[str, Any]:
    """The computer player of ``rules`` (the module docstring)."""
    weights = committed_weights(rules)
    if weights is None:
        return {"agent": "greedy"}
    return {"agent": "fitted", "weights": [float(w) for w in weights]}


def rules_file(rules: Rules) -> str:
    """One rulebook's file: its export and its computer, as compact JSON."""
    data = {**export_rules(rules), "computer": computer(rules)}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n"


def play_files(catalog: Catalog) -> dict[str, str | bytes]:
    """Every played rulebook's file, by docs path."""
    return {
        f"{RULES_FOLDER}/{variant.id}.json": rules_file(compile_rules(variant))
        for variant in simulated_variants(catalog)
    }
