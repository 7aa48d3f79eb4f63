"""What every claim check gives and takes: the verdicts (:class:`Verdict`), a claim's result
with the evidence behind it (:class:`ClaimResult`), the checks' settings
(:class:`CheckSettings`), the interval the checks share and the piece counts of their progress
lines (the claims page words the results: ``generator/site/templates/claim-findings.txt.j2``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from generator.engine.rules import Rules
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim
from generator.words import number_word


class Verdict(Enum):
    """A claim check's verdict (worded by the claims page, from the vocabulary's
    ``claim-verdicts``)."""

    SUPPORTED = "supported"
    PARTLY = "partly-supported"
    CONTRADICTED = "contradicted"
    UNSUPPORTED = "unsupported"
    """The evidence named does not bear the claim out, nor show it false."""
    CONSISTENT_WITH_ASSUMPTION = "consistent-with-assumption"
    """Only true under an assumption no source states (a pace of play): it cannot be shown
    false."""
    NOT_CONSISTENT_WITH_ASSUMPTION = "not-consistent-with-assumption"
    UNCHECKED = "unchecked"


SUPPORTED = Verdict.SUPPORTED
PARTLY = Verdict.PARTLY
CONTRADICTED = Verdict.CONTRADICTED
UNSUPPORTED = Verdict.UNSUPPORTED
CONSISTENT_WITH_ASSUMPTION = Verdict.CONSISTENT_WITH_ASSUMPTION
NOT_CONSISTENT_WITH_ASSUMPTION = Verdict.NOT_CONSISTENT_WITH_ASSUMPTION
UNCHECKED = Verdict.UNCHECKED


@dataclass
class ClaimResult:
    """A claim's verdict and the evidence a reader needs to judge it: the check's figures
    (``finding``, a dataclass of the check's own, worded by the claims page; ``None`` for a
    verdict of :data:`UNCHECKED` with no figures) and whether the method is exhaustive."""

    claim: str
    variant: str
    check: str
    verdict: Verdict
    finding: Any
    exhaustive: bool = False


@dataclass(frozen=True)
class CheckSettings:
    games: int
    seed: int
    cache_dir: Path | None
    refresh: bool = False
    """Check again and replace cached tallies instead of reading them (``build --refresh``)."""
    worths: dict[str, dict[str, Any]] | None = None
    """When given, every exact worth of the central rosette a check computes is put here by its
    key, the committed ones (:data:`WORTH_FILE`) computed again: what ``ur-variants claims
    --write-results`` commits."""
    figures: dict[str, dict[str, Any]] | None = None
    """When given, every sampled figure and reachability tally a check computes is put here by
    its key, the committed ones (:data:`FIGURES_FILE`) computed again: what ``ur-variants
    claims --write-results`` commits."""
    committed: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    """The committed figures by key (:func:`committed_figures`), read while their key is
    current."""
    log: Callable[[str], None] | None = None
    """Where a stale committed figure is reported (``None``: not reported)."""
    solve_cache: Path | None = None
    """Where full games' solves are read from when ``worths`` collects figures (a full game
    is never solved by a claim check: ``ur-variants full-games`` solves it)."""


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def rules_with_pieces(rules: Rules, pieces: int) -> Rules:
    """``rules`` with ``pieces`` a side (the solver's module only when the count changes: a
    cold build reading committed figures need not import it)."""
    if pieces == rules.pieces:
        return rules
    from generator.solver.solve import with_pieces

    return with_pieces(rules, pieces)


def pieces_words(pieces: int) -> str:
    """A piece count in words, for progress lines (the claims page words its own): "two
    pieces"."""
    return f"{number_word(pieces)} piece{'s' * (pieces != 1)}"


def a_side(pieces: int) -> str:
    """ "two pieces a side"."""
    return f"{pieces_words(pieces)} a side"


def unreadable(catalog: Catalog, claim: Claim, problem: str) -> str:
    """The error of a claim whose numbers a check cannot read (the catalogue's own check,
    :func:`generator.model.claim_words.check_claim_numbers`, reports it with its line when
    the file loads; a claim made elsewhere reaches the check unchecked)."""
    variant = catalog.variants.get(claim.variant)
    where = f"{variant.path}: " if variant is not None else ""
    return f"{where}claim {claim.id}: {problem}"
