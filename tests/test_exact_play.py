"""The perfect and fitted agents (generator.sim) play from the exact solver (generator.solver, a
later layer) only through what the solver's package hands in when imported: without it they
refuse by name, with it they play."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
from generator.sim import agents
try:
    agents.exact_play()
except agents.NoSolution as error:
    print("refused:", error)
import generator.solver
play = agents.exact_play()
print("handed in:", play.solution.__module__, play.fitted_weights.__module__)
"""


def test_the_solver_hands_the_agents_what_they_play_from() -> None:
    shown = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert shown[0].startswith("refused: the exact solver is not loaded: import generator.solver")
    assert shown[1] == "handed in: generator.solver generator.solver"
