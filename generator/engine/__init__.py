"""The rules engine: pure functions over frozen positions, driven only by data.

What it computes is digested by :mod:`generator.engine.behaviour`: a results file made by an
engine that plays differently now is stale (:mod:`generator.sim.results_files`), with no
version number to bump.
"""
