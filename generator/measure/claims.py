"""Every factual claim a source makes, checked with the engine, as a measurement (the checks
themselves are :mod:`generator.claims.claim_checks`).

Each verdict is cached under ``.cache/claims/verdict-<key>``, the key being the SHA-256 of
every file under ``variants/`` (a check may read any rulebook: the tablet route reads them
all), the claim's id, the games, the seed and the engine's and the checks' versions; so a
rebuild after a change elsewhere (a template, the site's code) does not play the sampled
checks again. The sampled figures behind a verdict are read from the committed
``results/claim-figures.json`` while their key is current (:mod:`generator.claims.claim_checks`),
so a cold build plays no games.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
import types
import typing
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from generator.claims.claim_checks import CHECKS, FINDINGS, check_claim
from generator.claims.figures import committed_figures
from generator.claims.game_minutes import SECONDS_PER_THROW as SECONDS_PER_THROW
from generator.claims.verdicts import CheckSettings
from generator.claims.verdicts import ClaimResult as ClaimResult
from generator.claims.verdicts import Verdict as Verdict
from generator.measure.core import Settings, Step
from generator.model.catalog_contents import Catalog
from generator.sim.cache_files import CACHE_FORMAT, content_key, read_json, write_json
from generator.sim.results_files import code_key

CHECK_NAMES = tuple(sorted(CHECKS))
"""Every kind of claim check, by name (the claims page says how each tests a claim)."""


def catalogue_digest(root: Path) -> str:
    """The SHA-256 of every file under the catalogue's folder, names included."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _verdict_path(settings: Settings, catalogue: str, claim: str) -> Path:
    payload = {
        "catalogue": catalogue,
        "claim": claim,
        "games": settings.claim_games,
        "seed": settings.seed,
        "code": code_key("engine", "sim", "solver", "claims", "measure/claims.py"),
    }
    return settings.cache_root / "claims" / f"verdict-{content_key(payload)}.v{CACHE_FORMAT}.json"


def _cached_verdict(path: Path) -> ClaimResult | None:
    payload: Any = read_json(path)
    names = {f.name for f in dataclasses.fields(ClaimResult)}
    if not isinstance(payload, dict) or set(payload) != names:
        return None
    kind = FINDINGS.get(payload["check"]) if isinstance(payload["check"], str) else None
    found = payload["finding"]
    try:
        return ClaimResult(
            **{
                **payload,
                "verdict": Verdict(payload["verdict"]),
                "finding": None if kind is None or found is None else _decoded(kind, found),
            }
        )
    except (ValueError, TypeError):
        return None  # written by another version of the checks


def _verdict_payload(result: ClaimResult) -> dict[str, Any]:
    """``result`` as the cache keeps it: its finding's dataclasses as objects, tuples as
    lists, fractions as text and the verdict by its value."""
    return {f.name: _encoded(getattr(result, f.name)) for f in dataclasses.fields(result)}


def _encoded(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encoded(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple | list):
        return [_encoded(item) for item in value]
    return value


def _decoded(kind: Any, payload: Any) -> Any:
    """``payload`` (as :func:`_encoded` wrote it) as a ``kind``, read from its type hints;
    ``ValueError`` where it does not fit."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        names = {f.name for f in dataclasses.fields(kind)}
        if not isinstance(payload, dict) or set(payload) != names:
            raise ValueError(f"not a {kind}")
        return kind(**{name: _decoded(hints[name], payload[name]) for name in names})
    if origin is tuple:
        if not isinstance(payload, list):
            raise ValueError("not a list")
        kinds = [args[0]] * len(payload) if args[1:] == (Ellipsis,) else list(args)
        if len(kinds) != len(payload):
            raise ValueError("a tuple of another length")
        return tuple(_decoded(k, item) for k, item in zip(kinds, payload, strict=True))
    if origin in (typing.Union, types.UnionType):
        for option in args:
            try:
                return _decoded(option, payload)
            except ValueError:
                continue
        raise ValueError(f"none of {args}")
    if kind is type(None) and payload is None:
        return None
    if kind is Fraction and isinstance(payload, str):
        return Fraction(payload)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(payload)
    if kind is float and isinstance(payload, int | float) and not isinstance(payload, bool):
        return float(payload)
    if kind in (int, str, bool) and type(payload) is kind:
        return payload
    raise ValueError(f"not a {kind}")


def check_claims(catalog: Catalog, settings: Settings) -> dict[str, ClaimResult]:
    """Each claim's verdict by claim id, rulebooks in id order, cached under ``.cache/claims``."""
    check = CheckSettings(
        settings.claim_games,
        settings.seed,
        settings.cache_root / "claims",
        settings.refresh,
        committed=committed_figures(log=settings.log),
        log=settings.log,
    )
    catalogue = catalogue_digest(catalog.root)
    results: dict[str, ClaimResult] = {}
    for vid in sorted(catalog.variants):
        for claim in catalog.variants[vid].claims:
            path = _verdict_path(settings, catalogue, claim.id)
            cached = None if settings.refresh else _cached_verdict(path)
            if cached is not None:
                results[claim.id] = cached
                continue
            began = time.perf_counter()
            results[claim.id] = check_claim(catalog, claim, check)
            write_json(path, _verdict_payload(results[claim.id]))
            settings.log(
                f"claim {claim.id}: {results[claim.id].verdict.value}"
                f" ({time.perf_counter() - began:.1f} s)"
            )
    return results


def claim_problems(results: dict[str, ClaimResult]) -> list[str]:
    """A claim's verdict and its figures are typed values, worded by the claims page: nothing
    to check."""
    return []


CLAIMS = Step("claim checks", check_claims, claim_problems)
