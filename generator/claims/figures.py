"""The claim checks' figures kept: committed in ``results/claim-figures.json`` and
``results/rosette-worth.json`` (written by ``ur-variants claims --write-results``), each under
the key of everything that decides it (:func:`figure_key`), else cached under ``.cache/claims``,
else computed (:func:`committed_or_computed`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, TypeVar

from generator.claims.verdicts import CheckSettings
from generator.engine.rules import Rules
from generator.sim import rekey, results_files
from generator.sim.cache_files import (
    CACHE_FORMAT,
    content_key,
    read_json,
    report_damaged,
    write_json,
)

WRITE_COMMAND = "ur-variants claims --write-results"
FIGURES_FILE = results_files.RESULTS_DIR / "claim-figures.json"
FIGURES_FORMAT = 1


def committed_figures(
    path: Path = FIGURES_FILE, log: Callable[[str], None] | None = None
) -> dict[str, dict[str, Any]]:
    """The committed figures of the claim checks by key; none when the file is missing. A
    damaged file (or one of another layout) is reported through ``log`` (file, what is wrong,
    the command that writes it again) and read as empty, so the checks compute instead."""
    return _committed_section(
        path, FIGURES_FORMAT, "figures", "claim figures", "computing the claims' figures", log
    )


def _committed_section(
    path: Path,
    layout: int,
    section: str,
    what: str,
    instead: str,
    log: Callable[[str], None] | None,
) -> dict[str, dict[str, Any]]:
    """The entries of ``section`` in the committed results at ``path`` that are dicts; none
    when the file is missing. A damaged file (or one of another layout) is reported through
    ``log`` as ``what`` was not found, saying what is done ``instead`` and the command that
    writes the file again, and read as empty."""
    damaged = (
        f"damaged or not {what} of format {layout}; {instead} instead (`{WRITE_COMMAND}`"
        " writes the file again)"
    )
    found, _ = results_files.read_section(path, layout, section, damaged, log or _stderr)
    return {k: v for k, v in found.items() if isinstance(v, dict)}


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


WORTH_FILE = results_files.RESULTS_DIR / "rosette-worth.json"
WORTH_FORMAT = 1


def committed_worths(
    path: Path = WORTH_FILE, log: Callable[[str], None] | None = None
) -> dict[str, dict[str, Any]]:
    """The committed worths of the central rosette by key; none when the file is missing. A
    damaged file (or one of another layout) is reported through ``log`` and read as empty, so
    the worths are computed instead."""
    return _committed_section(
        path, WORTH_FORMAT, "worths", "rosette worths", "computing the worths", log
    )


# The cache of figures not committed.


def figure_key(
    kind: str, rules: Rules, extra: dict[str, Any], legacy: Mapping[str, Any] | None = None
) -> str:
    """The figure's data key: what it is, the rules' key and ``extra`` (its games, seed...);
    the code that computes it is the file's behaviour stamp. ``legacy``: what the figure's key
    held besides :data:`generator.sim.rekey.FIGURE` before (:mod:`generator.sim.rekey`)."""
    from generator.solver.solve import rules_key

    def key(old: Mapping[str, Any]) -> str:
        return content_key({"kind": kind, "rules": rules_key(rules, 0.0), **extra, **old})

    return rekey.keyed(key, {**rekey.FIGURE, **(legacy or {})})


Figure = TypeVar("Figure")


def committed_or_computed(
    kind: type[Figure],
    key: str,
    compute: Callable[[], Figure],
    settings: CheckSettings,
    what: str,
) -> Figure:
    """A check's figure (a dataclass ``kind``) under ``key``: the committed one
    (``settings.committed``; the key names everything that decides it, so it is current),
    else the one cached under ``.cache/claims``, else computed and cached. A figure not
    committed is reported through ``settings.log`` (``what`` it is, and the command that
    commits it). When ``settings.figures`` collects figures, the committed ones are not read
    and every figure is put there."""
    if settings.figures is None:
        committed = as_figure(kind, settings.committed.get(key))
        if committed is not None:
            return committed
        if settings.log is not None and what:
            settings.log(
                f"claims: {what} are not in {FIGURES_FILE.name} as the rules stand; computing"
                f" them (`{WRITE_COMMAND}` commits them)"
            )
    cached = load_figure(settings, key)
    result = as_figure(kind, cached)
    if result is None:
        if cached is not None:
            report_damaged(settings.cache_dir or Path(), f"entry {key} is not a {kind.__name__}")
        result = compute()
        save_figure(settings, key, asdict(result))  # type: ignore[call-overload]
    if settings.figures is not None:
        settings.figures[key] = asdict(result)  # type: ignore[call-overload]
    return result


def as_figure(kind: type[Figure], payload: Any) -> Figure | None:
    """``payload`` as a ``kind`` when it is exactly its fields, each a number; else ``None``."""
    names = {f.name for f in fields(kind)}  # type: ignore[arg-type]
    if not isinstance(payload, dict) or set(payload) != names:
        return None
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in payload.values())
    return kind(**payload) if numbers else None


def figure_cache_path(settings: CheckSettings, key: str) -> Path | None:
    if settings.cache_dir is None:
        return None
    code = results_files.code_key("engine", "sim", "solver", "claims")
    return settings.cache_dir / f"{key}.c{code}.v{CACHE_FORMAT}.json"


def load_figure(settings: CheckSettings, key: str) -> dict[str, Any] | None:
    """The cached payload for ``key``, or ``None`` when missing or damaged (reported)."""
    path = figure_cache_path(settings, key)
    payload = read_json(path) if path is not None and not settings.refresh else None
    return payload if isinstance(payload, dict) else None


def save_figure(settings: CheckSettings, key: str, data: dict[str, Any]) -> None:
    path = figure_cache_path(settings, key)
    if path is not None:
        write_json(path, data)
