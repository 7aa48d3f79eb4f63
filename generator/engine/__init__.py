"""The rules engine: pure functions over frozen positions, driven only by data.

``ENGINE_VERSION`` changes whenever the engine could play any variant differently; it is part
of every simulation record's key, so a change re-simulates everything.
"""

ENGINE_VERSION = 2
