"""Ur Variants: the Royal Game of Ur's rulebooks as data, one engine, one static site.

The package is a one-way pipeline; each layer imports only the layers before it:

    model (YAML -> validated model) -> engine -> sim (agents, records, solver) -> site
"""

__version__ = "0.1.0"
