"""What the browser engine plays: each played rulebook's compiled rules as data, with the
computer it plays them with. The site writes them as ``play/rules/<rulebook-id>.json``
(:mod:`generator.site.play_files`), read by ``assets/ur-engine.js`` (``UrEngine.load(id)``).

The site plays the rulebooks the simulation suite plays (``simulate: true``,
:func:`generator.sim.suite.simulated_variants`); a rulebook kept only for the record is not
offered. Each is the compiled rules' export (:func:`generator.engine.export.export_rules`)
with the computer, under ``computer``:

- ``{"agent": "fitted", "weights": [...]}``: the fitted agent (:class:`generator.sim.agents.
  FastAgent` ``FITTED``, the strongest agent against random in every rulebook of the agents'
  check) with the rulebook's committed weights (``results/fitted-agent.json``);
- ``{"agent": "greedy"}`` where no committed fit holds the rules as they are now (the build
  fits nothing: ``ur-variants agents`` does).
"""

from __future__ import annotations

from typing import Any

from generator.engine.export import export_rules
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog_contents import Catalog
from generator.sim.suite import simulated_variants
from generator.solver.fitted_agent import committed_weights


def computer(rules: Rules) -> dict[str, Any]:
    """The computer player of ``rules`` (the module docstring)."""
    weights = committed_weights(rules)
    if weights is None:
        return {"agent": "greedy"}
    return {"agent": "fitted", "weights": [float(w) for w in weights]}


def played(rules: Rules) -> dict[str, Any]:
    """One rulebook as the browser engine plays it: the export with its computer."""
    return {**export_rules(rules), "computer": computer(rules)}


def played_rules(catalog: Catalog) -> dict[str, dict[str, Any]]:
    """Every played rulebook as :func:`played` gives it, by rulebook id, in catalogue order."""
    return {variant.id: played(compile_rules(variant)) for variant in simulated_variants(catalog)}
