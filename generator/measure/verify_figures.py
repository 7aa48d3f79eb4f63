"""A recomputed figure against the committed one (:func:`compare`): every leaf of a record,
by its place, within the tolerance stated for it (:class:`Tolerance`: seeded games exactly,
exact solves within :data:`CHANCE` and :data:`THROWS`, the fitted weights within
:data:`FITTED`); measurements of a machine are not figures and are left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


class Tolerance(NamedTuple):
    """How far a recomputed number may be from the committed one: ``absolute``, or
    ``relative`` to the larger of the two, whichever is wider (both 0: exactly equal)."""

    absolute: float = 0.0
    relative: float = 0.0


EXACTLY = Tolerance()
SAMPLED = Tolerance(relative=1e-12)
CHANCE = Tolerance(absolute=1e-12)
THROWS = Tolerance(absolute=1e-9)
FITTED = Tolerance(absolute=1e-12, relative=1e-9)

NOT_FIGURES = frozenset(
    {"cpu_seconds", "elapsed_seconds", "solve_seconds", "memory_bytes", "provenance", "key"}
)
"""What a record says about the machine and the run, not about the game: not compared."""

MISSING = "(missing)"


@dataclass(frozen=True)
class Figure:
    """One committed figure and the same figure computed again (or published elsewhere)."""

    name: str
    committed: Any
    recomputed: Any
    tolerance: Tolerance
    source: str = "recomputed"

    @property
    def agrees(self) -> bool:
        return _agree(self.committed, self.recomputed, self.tolerance)


def _agree(a: Any, b: Any, tolerance: Tolerance) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_agree(x, y, tolerance) for x, y in zip(a, b, strict=True))
    numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    if not numbers or (isinstance(a, int) and isinstance(b, int)):
        return bool(a == b) and type(a) is type(b)
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    allowed = max(tolerance.absolute, tolerance.relative * max(abs(a), abs(b)))
    return bool(abs(a - b) <= allowed)


def leaves(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every value of nested dicts by its dotted name (a list is one value), figures only."""
    if isinstance(data, Mapping):
        for name, value in data.items():
            if name not in NOT_FIGURES:
                yield from leaves(value, f"{prefix}.{name}" if prefix else str(name))
    else:
        yield prefix, data


def lookup(data: Any, name: str) -> Any:
    """The value at dotted ``name`` in nested dicts, :data:`MISSING` when there is none."""
    for part in name.split("."):
        if not isinstance(data, Mapping) or part not in data:
            return MISSING
        data = data[part]
    return data


def compare(committed: Any, recomputed: Any, tolerance: Callable[[str], Tolerance]) -> list[Figure]:
    """Every figure of ``committed`` against the same figure of ``recomputed``."""
    return [
        Figure(name, value, lookup(recomputed, name), tolerance(name))
        for name, value in leaves(committed)
    ]


def compare_places(
    places: Sequence[tuple[str, Mapping[str, Any]]],
    recomputed: Mapping[str, Any],
    tolerance: Callable[[str], Tolerance],
) -> list[Figure]:
    """The figures of one computation that a file keeps in several ``places`` (where, the
    committed figures): one line a figure where every place agrees, and one for each place
    whose committed value is not the others' (so a forged copy names itself)."""
    grouped: dict[str, dict[str, list[str]]] = {}
    values: dict[tuple[str, str], Any] = {}
    for where, figures in places:
        for name, value in leaves(figures):
            shown = repr(value)
            grouped.setdefault(name, {}).setdefault(shown, []).append(where)
            values[(name, shown)] = value
    found = []
    for name, by_value in grouped.items():
        for shown, sites in by_value.items():
            label = name if len(places) == 1 else f"{name} (all {len(sites)} places)"
            if len(by_value) > 1:
                label = f"{name} in {', '.join(sites[:3])}{' and more' * (len(sites) > 3)}"
            found.append(
                Figure(label, values[(name, shown)], lookup(recomputed, name), tolerance(name))
            )
    return found


def exact_tolerance(name: str) -> Tolerance:
    """Chances, expected throws, counts of positions and pieces (see the module docstring)."""
    last = name.rsplit(".", 1)[-1]
    if last in {"states", "pieces", "games"}:
        return EXACTLY
    return THROWS if "throws" in last else CHANCE


def sampled_tolerance(name: str) -> Tolerance:
    return SAMPLED


def fit_tolerance(name: str) -> Tolerance:
    return FITTED if name in {"weights", "rms_error", "r_squared"} else exact_tolerance(name)
