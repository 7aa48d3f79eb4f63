"""Perft: the number of distinct positions exactly k plies from the start, pinned per variant.

A change in any count means the engine now plays that variant differently. On a mismatch
the failure prints a "divide": for each first ply (throw and move) the number of distinct
positions it leads to at the first depth that differs, to find the rule that changed.

The native kernel's move generator (:mod:`generator.sim.kernel_perft`) must reach the same
positions, level by level, so its copy of the rules is pinned by the same counts.
"""

from __future__ import annotations

import pytest
from conftest import PERFT_FILE, rules_for, variant_ids

from generator.engine.goldens import REGENERATE, next_level, perft_levels, read_perft
from generator.engine.moves import successors
from generator.engine.position import Position, format_position, start_position
from generator.engine.rules import Rules, Side
from generator.sim.kernel_perft import kernel_perft_levels


def _pinned() -> dict[str, dict[int, int]]:
    if not PERFT_FILE.exists():
        pytest.fail(f"{PERFT_FILE} is missing; {REGENERATE}")
    return read_perft(PERFT_FILE)


def divide(rules: Rules, depth: int) -> str:
    """Per first ply (throw, move): distinct positions at ``depth`` reached through it."""
    start = start_position(rules)
    lines = [f"divide at depth {depth} from {format_position(start)}:"]
    for throw, _ in rules.throws:
        for move, after in successors(rules, start, throw):
            level = {after}
            for _ in range(depth - 1):
                level = next_level(rules, level)
            label = "pass" if move is None else move.describe(rules, start.to_move)
            lines.append(f"  throw {throw}, {label}: {len(level)}")
    return "\n".join(lines)


@pytest.mark.parametrize("variant_id", variant_ids())
def test_perft_counts(variant_id: str) -> None:
    pinned = _pinned()
    assert variant_id in pinned, (
        f"variant {variant_id} has no pinned perft counts in {PERFT_FILE.name}; {REGENERATE}"
    )
    expected = pinned[variant_id]
    assert expected, f"no perft lines under id {variant_id}"
    assert sorted(expected) == list(range(1, max(expected) + 1)), "depths must be 1..k"
    rules = rules_for(variant_id)
    level = {start_position(rules)}
    for depth in sorted(expected):
        level = next_level(rules, level)
        if len(level) != expected[depth]:
            pytest.fail(
                f"{variant_id}: perft {depth} is {len(level)}, pinned {expected[depth]}.\n"
                f"{divide(rules, depth)}\n"
                f"If the change is meant, {REGENERATE}."
            )


@pytest.mark.parametrize("variant_id", variant_ids())
def test_kernel_perft_reaches_the_engines_positions(variant_id: str) -> None:
    """The kernel's move generator reaches the pinned counts, through the very positions the
    engine reaches at every depth."""
    expected = _pinned().get(variant_id)
    assert expected, f"variant {variant_id} has no pinned perft counts; {REGENERATE}"
    rules = rules_for(variant_id)
    depth = max(expected)
    engine = perft_levels(rules, depth)
    pieces = rules.pieces
    for k, rows in enumerate(kernel_perft_levels(rules, depth), 1):
        reached = {
            Position(tuple(row[:pieces]), tuple(row[pieces : 2 * pieces]), Side(row[-1]))
            for row in rows.tolist()
        }
        assert len(rows) == expected[k], f"{variant_id}: kernel perft {k} is {len(rows)}"
        assert reached == engine[k], f"{variant_id}: depth {k}: {len(reached ^ engine[k])} differ"


def test_no_counts_for_missing_variants() -> None:
    stale = sorted(set(_pinned()) - set(variant_ids()))
    assert not stale, f"{PERFT_FILE.name} pins variants that no longer exist: {stale}; {REGENERATE}"


def test_first_ply_counts_by_hand() -> None:
    """Depth 1 from first principles: each throw gives its moves' positions or one pass."""
    for variant_id in variant_ids():
        rules = rules_for(variant_id)
        start = start_position(rules)
        reached = {after for t, _ in rules.throws for _, after in successors(rules, start, t)}
        assert reached == next_level(rules, {start})
        pinned = _pinned().get(variant_id, {})
        if 1 in pinned:
            assert pinned[1] == len(reached)
