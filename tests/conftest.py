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
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import yaml

from generator.engine.moves import Move, legal_moves, pass_turn, successors, winner
from generator.engine.moves import apply_move as engine_apply_move
from generator.engine.position import Position, format_position, start_position
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


# --- Golden files (tests/data/), shared with scripts/regenerate_goldens.py ----------------

PERFT_FILE = DATA / "perft.txt"
PLAYTHROUGH_DIR = DATA / "playthroughs"
PERFT_BUDGET = 12_000
"""Successor positions generated per variant when choosing its perft depth (keeps it fast)."""
PERFT_MAX_DEPTH = 8
PLAYTHROUGH_CAP = 400
"""Throws shown for a variant that need not end (``simulate: false``)."""
REGENERATE = "run `.venv/bin/python scripts/regenerate_goldens.py` and review the diff"


def perft_levels(rules: Rules, depth: int) -> list[set[Position]]:
    """Sets of distinct positions exactly 0..``depth`` plies from the start.

    A ply is one throw outcome of non-zero probability followed by one legal move, or by the
    pass when there is none; a finished game has no further plies.
    """
    levels = [{start_position(rules)}]
    for _ in range(depth):
        levels.append(next_level(rules, levels[-1]))
    return levels


def next_level(rules: Rules, level: set[Position]) -> set[Position]:
    following: set[Position] = set()
    for position in level:
        if winner(rules, position) is not None:
            continue
        for throw, _ in rules.throws:
            following.update(after for _, after in successors(rules, position, throw))
    return following


def choose_perft_depth(rules: Rules) -> list[int]:
    """Counts at depth 1.. until the work budget or the maximum depth is reached."""
    counts: list[int] = []
    level = {start_position(rules)}
    work = 0
    while len(counts) < PERFT_MAX_DEPTH:
        work += len(level) * len(rules.throws) * 3
        if counts and work > PERFT_BUDGET:
            break
        level = next_level(rules, level)
        counts.append(len(level))
    return counts


def read_perft(path: Path = PERFT_FILE) -> dict[str, dict[int, int]]:
    """``id <variant>`` then ``perft <depth> <count>`` lines; ``#`` starts a comment."""
    table: dict[str, dict[int, int]] = {}
    current: dict[int, int] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] == "id" and len(words) == 2:
            current = table.setdefault(words[1], {})
        elif words[0] == "perft" and len(words) == 3 and current is not None:
            current[int(words[1])] = int(words[2])
        else:
            raise ValueError(f"{path}:{number}: expected 'id <variant>' or 'perft <k> <count>'")
    return table


def format_perft(counts: dict[str, list[int]]) -> str:
    lines = [
        "# Distinct positions exactly k plies from the start, per variant (perft).",
        "# A ply: one throw outcome of non-zero probability, then one legal move or the pass.",
        f"# Regenerate deliberately: {REGENERATE}.",
    ]
    for variant_id, values in counts.items():
        lines.append(f"id {variant_id}")
        lines.extend(f"perft {depth} {count}" for depth, count in enumerate(values, 1))
    return "\n".join(lines) + "\n"


def playthrough(variant_id: str) -> str:
    """One seeded random game, human-readable: throw, legal moves in order, choice, position."""
    rules = rules_for(variant_id)
    rng = random.Random(f"playthrough {variant_id}")
    lines = [
        f"# Golden playthrough of {variant_id}: seed 'playthrough {variant_id}',"
        " uniformly random legal moves.",
        f"# Regenerate deliberately: {REGENERATE}.",
        f"start {format_position(start_position(rules))}",
    ]
    cap = None if simulated(variant_id) else PLAYTHROUGH_CAP
    game = random_game(rules, rng, max_throws=cap or 20_000, must_end=cap is None)
    position = start_position(rules)
    for number, ply in enumerate(game, 1):
        side = ply.before.to_move
        legal = " | ".join(m.describe(rules, side) for m in ply.moves) or "none"
        chosen = "pass" if ply.chosen is None else ply.chosen.describe(rules, side)
        lines.append(f"{number} {side.name.lower()} throws {ply.throw}")
        lines.append(f"  legal: {legal}")
        lines.append(f"  chosen: {chosen}")
        lines.append(f"  position: {format_position(ply.after)}")
        position = ply.after
    won = winner(rules, position)
    lines.append(f"winner {won.name.lower()}" if won is not None else f"stopped after {cap} throws")
    return "\n".join(lines) + "\n"


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
