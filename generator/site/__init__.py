"""The site layer: turns the validated catalogue, the engine and simulation records into
Markdown pages under ``docs/`` (then mkdocs builds ``site/``).

Everything a page states comes from data (``variants/``), the engine, or a simulation record
that a command reproduces; templates only lay it out (Jinja2 with ``StrictUndefined``).
"""
