"""The engine's golden records, read by the engine tests and written by
``scripts/regenerate_goldens.py``: seeded random games played by the reference engine
(:func:`random_game`), the distinct positions k plies from the start (perft,
:func:`choose_perft_depth`, in the text form :func:`format_perft` writes and :func:`read_perft`
reads) and one seeded game written out move by move (:func:`playthrough`)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.engine.moves import Move, legal_moves, pass_turn, successors, winner
from generator.engine.moves import apply_move as engine_apply_move
from generator.engine.position import Position, format_position, start_position
from generator.engine.rules import Rules


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


def read_perft(path: Path) -> dict[str, dict[int, int]]:
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


def playthrough(rules: Rules, ends: bool) -> str:
    """One seeded random game of ``rules``, human-readable: throw, legal moves in order, choice,
    position; ``ends=False`` (a rulebook kept for the record, ``simulate: false``) stops after
    :data:`PLAYTHROUGH_CAP` throws."""
    variant_id = rules.variant
    rng = random.Random(f"playthrough {variant_id}")
    lines = [
        f"# Golden playthrough of {variant_id}: seed 'playthrough {variant_id}',"
        " uniformly random legal moves.",
        f"# Regenerate deliberately: {REGENERATE}.",
        f"start {format_position(start_position(rules))}",
    ]
    cap = None if ends else PLAYTHROUGH_CAP
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
