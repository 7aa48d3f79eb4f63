"""What the engine says about the catalogue's rules, as typed results the pages read.

Not sampled and not cached on disk: each reading is the engine's own, decided from the
compiled rules, computed on first read and kept for the build. The pages never play a move or
decide a verdict themselves; they read these:

- :meth:`EngineReadings.verdict`: whether one rulebook's ruling put into another rulebook
  changes its game (a :class:`~generator.engine.equivalence.Verdict`, decided by
  :func:`~generator.engine.equivalence.compare_rulings`);
- :meth:`EngineReadings.value_verdict`: the same for a value no ruling need give (a measured
  change), and :meth:`EngineReadings.one_changed_game`: whether two such values make one game;
- :meth:`EngineReadings.same_game` and :meth:`EngineReadings.same_game_groups`: rulebooks
  whose rules play exactly the same game (equal effective rules);
- :meth:`EngineReadings.examples`: each rulebook's worked examples
  (:mod:`generator.measure.examples`);
- :meth:`EngineReadings.lesson`: the learn page's scenes (:mod:`generator.measure.lessons`).

Every reading is a function of the catalogue alone, so a page forked off to another process
(:func:`generator.site.generate.all_files`) reads the same as here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import cache, cached_property
from typing import Any

from generator.engine.effective import effective_rules
from generator.engine.equivalence import (
    Verdict,
    compare_rulings,
    same_game_groups,
    value_verdict,
    with_ruling,
)
from generator.engine.rules import compile_rules
from generator.measure.examples import Example, worked_examples
from generator.measure.lessons import Lesson, lesson
from generator.model.catalog_contents import Catalog
from generator.model.variant import ResolvedVariant, Ruling

__all__ = ["EngineReadings", "Verdict"]


class EngineReadings:
    """The engine's readings of one catalogue, each computed once on first read."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.verdict = cache(self._verdict)
        self.examples = cache(self._examples)
        self.lesson = cache(self._lesson)

    @cached_property
    def resolved(self) -> dict[str, ResolvedVariant]:
        return {vid: self.catalog.resolve(vid) for vid in sorted(self.catalog.variants)}

    @cached_property
    def rulings(self) -> dict[str, Ruling]:
        return {r.id: r for r in self.catalog.rulings()}

    def _verdict(self, host: str, ruling: str) -> Verdict:
        """Whether rulebook ``host`` plays another game with the ruling ``ruling`` (another
        rulebook's, on the same question) in place of its own."""
        resolved = self.resolved[host]
        other = self.rulings[ruling]
        own = resolved.rulings[other.question]
        return compare_rulings(self.catalog, resolved, own, other)

    def value_verdict(self, host: str, question: str, value: Any) -> Verdict:
        """Whether answering ``question`` with ``value`` changes rulebook ``host``'s game."""
        return value_verdict(self.catalog, self.resolved[host], question, value)

    def one_changed_game(self, host: str, question: str, a: Any, b: Any) -> bool:
        """Whether changing ``host``'s answer to ``question`` into ``a`` or into ``b`` makes
        one game: on Bell's route the central rosette is the only rosette both sides reach, so
        "the central rosette" and "every rosette" safe are one change there."""
        return one_changed_game(self.catalog, self.resolved[host], question, a, b)

    def same_game(self, a: str, b: str) -> bool:
        """Whether rulebooks ``a`` and ``b`` play exactly the same game (equal effective
        rules), whatever their rulings say."""
        return self._effective(a) == self._effective(b)

    @cache  # noqa: B019 - one reader per build, kept for all of it
    def _effective(self, variant_id: str) -> object:
        return effective_rules(compile_rules(self.resolved[variant_id]))

    def same_game_groups(self, variant_ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """For each of ``variant_ids``, the others among them playing exactly the same game."""
        return same_game_groups({vid: self.resolved[vid] for vid in variant_ids})

    def _examples(self, variant_id: str) -> tuple[Example, ...]:
        return tuple(worked_examples(compile_rules(self.resolved[variant_id]), variant_id))

    def _lesson(self, variant_id: str) -> Lesson:
        return lesson(self.resolved[variant_id])


def one_changed_game(
    catalog: Catalog, host: ResolvedVariant, question: str, a: Any, b: Any
) -> bool:
    """Whether ``host`` with ``question`` answered ``a`` plays the game it plays answered
    ``b`` (:meth:`EngineReadings.one_changed_game`)."""
    own = host.rulings[question]
    first = replace(own, value=a)
    other = replace(own, value=b)
    return not compare_rulings(catalog, with_ruling(host, first), first, other).changes_play
