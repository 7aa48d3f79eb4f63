"""The measurement layer: every figure the site reports that a computation produces.

``model -> engine -> sim -> measure -> site``: one step (:func:`generator.measure.steps.measure`)
runs the simulation suite, the exact solves and the claim checks (each cached under
``.cache/``), checks every figure (:mod:`generator.sim.sanity`) and hands the site one
:class:`~generator.measure.steps.Results` record, which the site only reads. This package
never imports :mod:`generator.site` (``tests/test_layers.py``).
"""
