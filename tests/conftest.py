"""Shared test helpers: the repository's catalogue, compiled rules, and seeded random play.

Tests import the helpers directly (``from conftest import ...``) as well as through fixtures.
Every variant is found from the data at collection time, so a new variant file is tested
without touching any test.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
import yaml

from generator.engine import goldens
from generator.engine.goldens import Ply, random_game
from generator.engine.position import Position
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog import load_catalog, variant_files
from generator.model.catalog_contents import Catalog
from generator.sim import suite as suite_module
from generator.sim.suite import Suite

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


def other_answer_on_unmoved_extra_throws() -> list[Rules]:
    """Every played variant in which a throw earns another throw, with the other answer to
    whether that throw is kept when it moves nothing (``extra-throw-without-move``): the answer
    its rulebook did not give, which sensitivity runs and ``--set`` still play."""
    return [
        dataclasses.replace(rules, extra_throw_without_move=not rules.extra_throw_without_move)
        for rules in (rules_for(v) for v in variant_ids() if simulated(v))
        if rules.extra_throw_throws
    ]


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return repository_catalog()


@pytest.fixture(scope="session")
def tiny_suite(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Suite:
    """Random against random, 20 games a rulebook and no changed rulings: enough for the
    statistics page to list its games (their figures are not what is tested)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(suite_module, "BASELINE_GAMES", 20)
        patch.setattr(suite_module, "sensitivity_changes", lambda catalog, variants: [])
        return suite_module.default_suite(catalog, seed=5, cache_dir=tmp_path_factory.mktemp("sim"))


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


# --- Golden files (tests/data/), shared with scripts/regenerate_goldens.py ----------------

PERFT_FILE = DATA / "perft.txt"
PLAYTHROUGH_DIR = DATA / "playthroughs"


def playthrough(variant_id: str) -> str:
    """The variant's golden playthrough (:func:`generator.engine.goldens.playthrough`)."""
    return goldens.playthrough(rules_for(variant_id), simulated(variant_id))


def copy_project(target: Path) -> Path:
    """A copy of what a site build reads (data, committed results, theme overrides, configuration,
    hand-written pages) under ``target``, to build or damage without touching the repository."""
    for name in ("variants", "overrides", "results"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, target / name)
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    (target / "docs").mkdir()
    for page in (ROOT / "docs").glob("*.md"):
        shutil.copy(page, target / "docs" / page.name)
    return target


def folder_digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` by its relative path, as the SHA-256 of its bytes: two
    builds compared file for file."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
