"""Simulation: seeded self-play of any compiled variant, agents, statistics and records.

The native kernel (:mod:`generator.sim.fast`) plays whole games from flat arrays
(:mod:`generator.sim.encode`); :mod:`generator.sim.records` caches every result as JSON keyed by
everything that could change it; :mod:`generator.sim.suite` runs what the site needs.
"""
