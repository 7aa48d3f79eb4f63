"""Shared test helpers: the repository's catalogue, compiled rules, and seeded random play.

Tests import the helpers directly (``from conftest import ...``) as well as through fixtures.
Every variant is found from the data at collection time, so a new variant file is tested
without touching any test.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import yaml

from generator.engine.moves import Move, legal_moves, pass_turn, winner
from generator.engine.moves import apply_move as engine_apply_move
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog import Catalog, load_catalog, variant_files

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"
DATA = Path(__file__).resolve().parent / "data"


@cache
def repository_catalog() -> Catalog:
    """The repository's catalogue; fails the test (not the collection) when it has problems."""
    catalog, problems = load_catalog(VARIANTS)
    if problems:
        listing = "\n".join(map(str, problems))
        pytest.fail(f"variants/ has problems; run `ur-variants validate`:\n{listing}")
    return catalog


def variant_ids() -> list[str]:
    """Every variant id by file name, for parametrisation (no parsing at collection time)."""
    return [path.stem for path in variant_files(VARIANTS)]


@cache
def simulated(variant_id: str) -> bool:
    """``simulate: false`` marks a reading kept for the record: it need not terminate."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load((VARIANTS / f"{variant_id}.yml").read_text(encoding="utf-8"), Loader=loader)
    return not isinstance(data, dict) or data.get("simulate", True) is not False


@cache
def rules_for(variant_id: str) -> Rules:
    catalog = repository_catalog()
    if variant_id not in catalog.variants:
        pytest.fail(f"variant {variant_id!r} is not in variants/")
    return compile_rules(catalog.resolve(variant_id))


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return repository_catalog()


def throw_dice(rules: Rules, rng: random.Random) -> int:
    """One throw from the variant's exact outcome table, driven by ``rng``."""
    throws = [t for t, _ in rules.throws]
    weights = [float(p) for _, p in rules.throws]
    return rng.choices(throws, weights)[0]


@dataclass(frozen=True)
class Ply:
    """One throw of a game: the position before it, the throw, the legal moves, the choice."""

    before: Position
    throw: int
    moves: tuple[Move, ...]
    chosen: Move | None
    after: Position


class GameDidNotEnd(AssertionError):
    """A random game went past the throw cap: the variant (or the engine) may never end."""


def random_game(
    rules: Rules, rng: random.Random, max_throws: int = 20_000, must_end: bool = True
) -> Iterator[Ply]:
    """Play uniformly random legal moves from the start until someone wins.

    After ``max_throws`` throws: raises :class:`GameDidNotEnd`, or (``must_end=False``, for
    variants that need not terminate) just stops.
    """
    position = start_position(rules)
    for _ in range(max_throws):
        if winner(rules, position) is not None:
            return
        throw = throw_dice(rules, rng)
        moves = legal_moves(rules, position, throw)
        chosen = rng.choice(moves) if moves else None
        if chosen is None:
            after = pass_turn(rules, position, throw)
        else:
            after = engine_apply_move(rules, position, chosen, throw)
        yield Ply(position, throw, moves, chosen, after)
        position = after
    if must_end:
        raise GameDidNotEnd(
            f"{rules.variant}: no winner after {max_throws} throws of random play;"
            " the variant or the engine never ends"
        )


def play(rules: Rules, rng: random.Random) -> Iterator[Ply]:
    """A random game; capped at 2,000 throws for a variant that need not end."""
    if simulated(rules.variant):
        return random_game(rules, rng)
    return random_game(rules, rng, max_throws=2_000, must_end=False)


def random_positions(rules: Rules, seed: int, count: int) -> list[Position]:
    """``count`` distinct non-final positions met in seeded random games, in order met."""
    rng = random.Random(seed)
    seen: dict[Position, None] = {}
    while len(seen) < count:
        for ply in play(rules, rng):
            seen.setdefault(ply.before, None)
            if len(seen) >= count:
                break
    return list(seen)
