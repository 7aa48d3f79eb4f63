"""What a measurement is (:class:`Step`), what it may read (:class:`Settings`) and the record
the site reads (:class:`Results`); the registry of steps is :mod:`generator.measure.steps`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from generator.model.catalog_contents import Catalog
from generator.sim.records import DEFAULT_SEED

T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    """What every measurement may read: where caches live, the seed, the workers."""

    cache_root: Path
    """Caches go in sub-folders of this (``.cache/`` of the checkout)."""
    seed: int = DEFAULT_SEED
    jobs: int = 1
    refresh: bool = False
    """Recompute every cached measurement (simulation records, exact solutions, claim
    tallies and verdicts) instead of reading it, and replace the cache entry."""
    claim_games: int = 2000
    """Games per sampled claim check."""
    log: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr))


@dataclass(frozen=True)
class Step(Generic[T]):
    """One measurement: ``run`` computes (or reads from its cache) a result; ``problems``
    lists every figure in it that cannot be published, as readable lines."""

    name: str
    run: Callable[[Catalog, Settings], T]
    problems: Callable[[T], list[str]]


@dataclass(frozen=True)
class Results:
    """Every measurement's result by step name, each checked; read with :meth:`of`."""

    seed: int
    by_step: dict[str, Any]

    def of(self, step: Step[T]) -> T:
        """The result of ``step``, which must have run."""
        return cast(T, self.by_step[step.name])

    def get(self, step: Step[T]) -> T | None:
        """The result of ``step``, or None when this measurement did not include it."""
        return cast(T, self.by_step[step.name]) if step.name in self.by_step else None
