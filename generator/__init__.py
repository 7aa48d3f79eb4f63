"""Ur Variants: the Royal Game of Ur's rulebooks as data, one engine, one static site.

The package is a one-way pipeline; each layer imports only the layers before it:

    model (YAML -> validated model) -> engine -> sim (kernel, agents, records)
          -> solver (exact play) -> claims (the sources' claims checked)
          -> measure (every figure and engine reading the site reports)
          -> site (pages, which only read) -> build (validate, measure, render, mkdocs,
          publish: :mod:`generator.build`) -> commands, cli

``tests/test_layers.py`` walks every import (also those inside functions and under
``TYPE_CHECKING``) and fails on a layer importing a later one or on an import cycle, and on
the pages importing the simulator, the solver, the claims or the engine's play.
"""

__version__ = "0.1.0"
