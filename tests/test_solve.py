"""The exact solver against published values, closed forms and the reference engine.

Published values (RoyalUr-Java's trainer, https://github.com/RoyalUr/RoyalUr-Java): Finkel's rules
as RoyalUr.net plays them (Bell's 14-square route, four binary dice, a rosette gives another throw,
the central rosette is safe) give light, moving first, 53.0049839525 % with one piece a side and
51.8572907496 % with two (RoyalUr-Java's trainer, reproduced with royalur's move generation). Closed
forms (jheled, ``doc/solve.rst``): one piece each on its last square, the side to move wins 4/7; the
side to move one square further back wins 116/161.

The Bellman checks compare every solved value with one step of the reference engine
(:mod:`generator.engine.moves`), so the solver's own move generation is tested rule by rule.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import math
import os
import random
import re
import signal
import subprocess
import sys
from contextlib import redirect_stdout
from fractions import Fraction
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest
from conftest import VARIANTS, rules_for, variant_ids

from generator.cli import main
from generator.engine.goldens import throw_dice
from generator.engine.moves import PASS, Move, legal_moves, successors, winner
from generator.engine.moves import apply_move as engine_apply_move
from generator.engine.position import Position, parse_position, start_position
from generator.engine.rules import EntryRule, Rules, Side
from generator.model.catalog import load_catalog
from generator.sim.kernel_moves import MAX_MOVES, MOVE_WIDTH, header
from generator.solver import solve_layer, solve_sweeps
from generator.solver.bellman_check import gaps
from generator.solver.solution import Solution, SolveRefused
from generator.solver.solve import rules_key, solution_path, solve, with_pieces
from generator.solver.solve_checkpoints import Checkpoints, LayerProgress, release_pages
from generator.solver.solve_estimate import checked_move_table, estimate
from generator.solver.solve_index import build_index
from generator.solver.solve_moves import (
    ConfigArrays,
    MoveArrays,
    config_arrays,
    load_state,
    table_successors,
)
from generator.solver.solve_moves import successors as board_successors
from generator.solver.solve_space import enumerate_configurations, geometry


def finkel(pieces: int) -> Rules:
    """RoyalUr.net's Finkel rules, built from the catalogue's equipment (not from a variant)."""
    catalog, _ = load_catalog(VARIANTS)
    board = catalog.equipment.boards["ur"]
    route = catalog.equipment.routes["bell"]
    shared = route.shared_cells()
    return Rules(
        variant="finkel-test",
        route_length=route.length,
        cells=(route.light, route.dark),
        pieces=pieces,
        throws=catalog.equipment.dice["four-binary"].table(),
        entry=(EntryRule(None, None),) * pieces,
        stack_limit=1,
        capture_cells=shared,
        safe_cells=board.rosettes & shared,
        stack_defence=None,
        extra_throw_cells=board.rosettes,
        extra_throw_throws=frozenset(),
        extra_throw_without_move=False,
        extra_throw_on_capture=False,
        exact_bear_off=True,
        must_move=True,
    )


def exotic(pieces: int, steps: int = 8, extra_without_move: bool = True) -> Rules:
    """Every optional rule switched on, colour-asymmetric on purpose, on a short route (four
    private steps, then four shared ones up to the central rosette) to keep the solve small:
    stacks of two that repel an attacker, per-piece entry (two pieces share a rule),
    generous bearing off, a voluntary pass, captures anywhere earning a throw, a throw of 4
    earning one (even with no move, unless ``extra_without_move`` is false), and another
    throw on light's private corner rosette only."""
    full = finkel(pieces)
    cells = (full.cells[0][:steps], full.cells[1][:steps])
    base = dataclasses.replace(full, route_length=steps, cells=cells)
    entries = (
        EntryRule(frozenset({1, 4}), None, "runner"),
        EntryRule(frozenset({2}), 3, "jumper"),
        EntryRule(frozenset({1, 4}), None, "runner"),
    )
    return dataclasses.replace(
        base,
        entry=entries[:pieces],
        stack_limit=2,
        stack_defence=2,
        capture_cells=frozenset(base.cells[0]) | frozenset(base.cells[1]),
        safe_cells=frozenset({"r2c4"}),
        extra_throw_cells=frozenset({"r1c1", "r2c4"}),
        extra_throw_throws=frozenset({4}),
        extra_throw_without_move=extra_without_move,
        extra_throw_on_capture=True,
        exact_bear_off=False,
        must_move=False,
    )


def random_positions(rules: Rules, seed: int, count: int) -> list[Position]:
    """Up to ``count`` distinct unfinished positions met in seeded uniformly random play
    (at most 200 games, each cut after 500 throws: some readings kept for the record never
    end, and some never leave the start)."""
    rng = random.Random(seed)
    seen: dict[Position, None] = {}
    for _ in range(200):
        if len(seen) >= count:
            break
        position = start_position(rules)
        for _ in range(500):
            if winner(rules, position) is not None or len(seen) >= count:
                break
            seen.setdefault(position, None)
            throw = throw_dice(rules, rng)
            moves = legal_moves(rules, position, throw)
            if moves:
                position = engine_apply_move(rules, position, rng.choice(moves), throw)
            else:
                position = successors(rules, position, throw)[0][1]
    return list(seen)


@pytest.fixture(scope="module")
def finkel_one() -> Solution:
    return solve(finkel(1), cache_dir=None)


@pytest.fixture(scope="module")
def finkel_two() -> Solution:
    return solve(finkel(2), cache_dir=None)


def test_finkel_one_piece_matches_royalur(finkel_one: Solution) -> None:
    assert 100 * finkel_one.start_value == pytest.approx(53.0049839525, abs=1e-9)


def test_finkel_two_pieces_matches_royalur(finkel_two: Solution) -> None:
    assert 100 * finkel_two.start_value == pytest.approx(51.8572907496, abs=1e-9)


@pytest.mark.parametrize(
    ("notation", "exact"),
    [
        ("14/14 L", Fraction(4, 7)),
        ("14/14 D", Fraction(4, 7)),
        ("13/14 L", Fraction(116, 161)),
        ("14/13 D", Fraction(116, 161)),
        # Light on its last square to move, dark one further back: 1/4 + 3/4 * (1 - 116/161).
        ("14/13 L", Fraction(74, 161)),
    ],
)
def test_endgame_closed_forms(finkel_one: Solution, notation: str, exact: Fraction) -> None:
    position = parse_position(finkel_one.rules, notation)
    assert finkel_one.win_probability(position) == pytest.approx(float(exact), abs=1e-12)


def test_endgame_expected_length(finkel_one: Solution) -> None:
    """Both on their last square: each throw ends the game with p = 1/4, so E = 4 throws."""
    position = parse_position(finkel_one.rules, "14/14 L")
    assert finkel_one.expected_throws_left(position) == pytest.approx(4.0, abs=1e-8)


def test_finished_positions_are_certain(finkel_two: Solution) -> None:
    off = finkel_two.rules.off
    won = Position((off, off), (0, 3), Side.LIGHT)
    assert finkel_two.win_probability(won) == 1.0
    assert finkel_two.win_probability(Position((0, 3), (off, off), Side.LIGHT)) == 0.0
    assert finkel_two.expected_throws_left(won) == 0.0


def test_impossible_position_is_refused(finkel_two: Solution) -> None:
    both_on_one_cell = Position((5, 0), (5, 0), Side.LIGHT)  # r2c1 is shared
    with pytest.raises(ValueError, match="impossible"):
        finkel_two.win_probability(both_on_one_cell)


def test_figures_are_reported(finkel_two: Solution) -> None:
    assert finkel_two.states > 10_000
    assert finkel_two.memory_bytes > 0
    assert finkel_two.seconds >= 0
    assert 1 < finkel_two.expected_throws < 1000


def bellman_residuals(solution: Solution, positions: list[Position]) -> tuple[float, float]:
    """Largest |V - backup(V)| and largest E outside its backup bracket, where backups use
    the reference engine's moves (:func:`generator.solver.bellman_check.gaps`)."""
    found = gaps(solution, positions)
    return found.value, found.length


def test_finkel_two_satisfies_bellman_with_engine_moves(finkel_two: Solution) -> None:
    positions = random_positions(finkel_two.rules, seed=7, count=300)
    positions += [start_position(finkel_two.rules)]
    value_gap, length_gap = bellman_residuals(finkel_two, positions)
    assert value_gap < 1e-11
    assert length_gap < 1e-7


@pytest.mark.parametrize("extra_without_move", [True, False])
@pytest.mark.parametrize(("pieces", "steps"), [(2, 14), (3, 5)])
def test_every_optional_rule_matches_the_engine(
    pieces: int, steps: int, extra_without_move: bool
) -> None:
    """Stacks, stack defence, per-piece entry (three pieces: two share a rule), generous
    bearing off, a voluntary pass, capture and throw extra throws (a throw's kept, or not,
    when it moves nothing), and colour-asymmetric rules (both perspectives stored)."""
    solution = solve(exotic(pieces, steps, extra_without_move), cache_dir=None)
    assert solution.geometry.perspectives == 2
    positions = random_positions(solution.rules, seed=pieces, count=250)
    value_gap, length_gap = bellman_residuals(solution, positions)
    assert value_gap < 1e-11
    assert length_gap < 1e-7


def test_stalling_perfect_play_has_no_finite_length() -> None:
    """With a voluntary pass, light sitting safe on its private and the central rosette and
    dark one piece from home both decline to move for ever, so the expected length is
    infinite there (and from the start, which can reach it)."""
    solution = solve(exotic(2, 14), cache_dir=None)
    stall = parse_position(solution.rules, "4,8/4,15 L")
    assert solution.endless > 0
    assert math.isinf(solution.expected_throws_left(stall))
    assert math.isinf(solution.expected_throws)
    for throw, _ in solution.rules.throws:
        moves = [m for m in legal_moves(solution.rules, stall, throw) if not m.is_pass]
        declining = _value_after(solution, stall, PASS, throw)
        assert all(_value_after(solution, stall, m, throw) < declining for m in moves)


def _value_after(solution: Solution, position: Position, move: Move, throw: int) -> float:
    after = engine_apply_move(solution.rules, position, move, throw)
    if winner(solution.rules, after) is not None:
        return 1.0
    value = solution.win_probability(after)
    return value if after.to_move is position.to_move else 1 - value


@pytest.mark.parametrize("variant", variant_ids())
def test_every_variant_with_two_pieces_matches_the_engine(variant: str) -> None:
    rules = with_pieces(rules_for(variant), 2)
    solution = solve(rules, cache_dir=None)
    positions = random_positions(rules, seed=11, count=120)
    value_gap, length_gap = bellman_residuals(solution, positions)
    assert value_gap < 1e-11
    assert length_gap < 1e-7
    assert 0 < solution.start_value < 1
    assert estimate(rules).states == solution.states


def test_one_table_for_both_colours_equals_two(
    finkel_two: Solution, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storing only the mover's perspective (colour symmetry) gives the same values as
    storing light-to-move and dark-to-move positions separately."""
    assert finkel_two.geometry.perspectives == 1
    monkeypatch.setattr("generator.solver.solve_space.colour_symmetric", lambda rules: False)
    both = solve(finkel_two.rules, cache_dir=None)
    assert both.geometry.perspectives == 2
    assert both.states == 2 * finkel_two.states
    for position in random_positions(finkel_two.rules, seed=5, count=100):
        expected = finkel_two.win_probability(position)
        assert both.win_probability(position) == pytest.approx(expected, abs=1e-12)


def test_colour_symmetry_is_detected() -> None:
    from generator.solver.solve_space import colour_symmetric

    assert colour_symmetric(finkel(2))
    assert not colour_symmetric(exotic(2))
    light_only_safe = dataclasses.replace(finkel(2), safe_cells=frozenset({"r1c1"}))
    assert colour_symmetric(light_only_safe)  # a private cell is never attacked
    light_only_extra = dataclasses.replace(finkel(2), extra_throw_cells=frozenset({"r1c1"}))
    assert not colour_symmetric(light_only_extra)


def test_cache_round_trip(tmp_path: Path) -> None:
    rules = finkel(2)
    first = solve(rules, cache_dir=tmp_path)
    assert not first.from_cache
    again = solve(dataclasses.replace(rules, variant="another-name"), cache_dir=tmp_path)
    assert again.from_cache
    assert again.start_value == first.start_value
    assert again.expected_throws == first.expected_throws
    assert again.states == first.states
    assert len(list(tmp_path.iterdir())) == 1  # one folder: values, lengths, record


def test_cache_key_follows_rule_content() -> None:
    rules = finkel(2)
    assert rules_key(rules, 1e-13) == rules_key(dataclasses.replace(rules, variant="x"), 1e-13)
    assert rules_key(rules, 1e-13) != rules_key(dataclasses.replace(rules, must_move=False), 1e-13)
    assert rules_key(rules, 1e-13) != rules_key(rules, 1e-12)


def test_seven_pieces_are_refused_with_an_estimate() -> None:
    rules = finkel(7)
    size = estimate(rules)
    with pytest.raises(SolveRefused, match=r"137,870,097 states .* GiB"):
        solve(rules, cache_dir=None, max_memory_bytes=2**30)
    # The target: a checkpointed seven-piece solve within 2 GiB (two layers in use).
    assert size.memory_bytes < 2 * 2**30 < size.in_memory_bytes
    # Published: 137,892,016 positions with light to move. That count also holds the 21,919
    # positions in which dark has just borne off its last piece (every dark-free configuration
    # of light's but the one with all seven off); the solver leaves finished games out.
    assert size.exact
    assert size.states + (size.configurations - 1) == 137_892_016
    assert size.largest_layer == 31_270_132


@pytest.mark.parametrize(("pieces", "steps"), [(2, 0), (3, 0), (3, 8)])
def test_estimate_counts_states_and_memory(pieces: int, steps: int) -> None:
    """The estimate counts the states the solve visits and foresees the memory it allocates
    (the solve checks each layer's arrays against the same count)."""
    rules = exotic(pieces, steps) if steps else finkel(pieces)
    guess = estimate(rules)
    solution = solve(rules, cache_dir=None)
    assert guess.exact
    assert guess.states == solution.states
    assert solution.memory_bytes == guess.in_memory_bytes


def test_with_pieces_keeps_per_piece_entries() -> None:
    rules = exotic(3)
    assert with_pieces(rules, 2).entry == rules.entry[:2]
    with pytest.raises(ValueError, match="--pieces between 1 and 3"):
        with_pieces(rules, 4)
    assert with_pieces(finkel(2), 4).entry == (EntryRule(None, None),) * 4


def test_command_prints_the_start_value(tmp_path: Path) -> None:
    variant = variant_ids()[0]
    output = io.StringIO()
    with redirect_stdout(output):
        code = main(
            ["--root", str(VARIANTS.parent), "solve", variant, "--pieces", "1", "--no-cache"]
        )
    assert code == 0
    text = output.getvalue()
    assert re.search(r"first player \(light\) wins:\s+\d{1,3}\.\d{10} %", text)
    assert re.search(r"perfect game length:\s+\d+\.\d+ throws", text)
    assert "states (side to move)" in text


def _solve_command(*args: str) -> tuple[int, str]:
    output = io.StringIO()
    with redirect_stdout(output):
        code = main(["--root", str(VARIANTS.parent), "solve", *args, "--no-cache"])
    return code, output.getvalue()


def test_command_solves_with_a_ruling_changed() -> None:
    """``--set`` solves the game with one ruling changed, and says so: where a throw earns
    another throw, keeping it when it moves nothing is another game."""
    catalog, _ = load_catalog(VARIANTS)
    variant = next(
        v for v in sorted(catalog.variants) if catalog.resolve(v).value("throw-extra-throw")
    )
    answer = catalog.resolve(variant).value("extra-throw-without-move")
    other = "turn-passes" if answer == "throws-again" else "throws-again"
    code, own = _solve_command(variant, "--pieces", "1")
    assert code == 0
    code, changed = _solve_command(
        variant, "--pieces", "1", "--set", f"extra-throw-without-move={other}"
    )
    assert code == 0
    assert f'{variant}, extra-throw-without-move="{other}", 1 piece a side' in changed

    def value(text: str) -> str:
        found = re.search(r"wins:\s+(\S+) %", text)
        assert found is not None
        return found.group(1)

    assert value(own) != value(changed)
    code, _ = _solve_command(variant, "--set", "extra-throw-without-move=sometimes")
    assert code == 2


def test_the_result_does_not_depend_on_the_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jacobi within a wave, Gauss-Seidel between waves: one thread or two, the same bits
    (every wave on the parallel kernels, however small)."""
    monkeypatch.setattr(solve_sweeps, "PARALLEL_WAVE", 1)
    rules = exotic(2, 14)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        alone = solve(rules, cache_dir=None)
    finally:
        numba.set_num_threads(threads)
    together = solve(rules, cache_dir=None)
    assert np.array_equal(alone.values, together.values)
    assert np.array_equal(alone.lengths, together.lengths)


def test_choices_kept_without_generating_moves_give_the_same_bits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Bellman sweep skips generating a throw's moves where its choice cannot have changed;
    generating every move in every Bellman sweep gives the same values and lengths, bit for
    bit (the shortcut is exact, not an approximation)."""
    rules = finkel(3)
    shortcut = solve(rules, cache_dir=None)
    monkeypatch.setattr(solve_layer, "GENERATE_EVERY_MOVE", True)
    every_move = solve(rules, cache_dir=None)
    assert np.array_equal(shortcut.values, every_move.values)
    assert np.array_equal(shortcut.lengths, every_move.lengths)
    assert shortcut.sweeps == every_move.sweeps


def test_sweeping_hot_states_saves_full_sweeps_and_changes_no_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sweeping on their own the few positions where the error lingers is Gauss-Seidel in
    another order: the same values and lengths within the tolerance, in fewer full sweeps."""
    rules = finkel(3)
    hot = solve(rules, cache_dir=None)
    monkeypatch.setattr(solve_layer, "SWEEP_HOT_STATES", False)
    plain = solve(rules, cache_dir=None)
    assert np.abs(hot.values - plain.values).max() < 1e-12
    assert np.abs(hot.lengths - plain.lengths).max() < 1e-8
    assert hot.sweeps < plain.sweeps * 0.9


def _mapped_file_bytes() -> int:
    """The process's resident pages that map files (Linux's ``RssFile``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssFile:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no RssFile line")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")
def test_released_pages_leave_the_process_and_keep_their_data(tmp_path: Path) -> None:
    """A checkpointed solve lets the finished layers it no longer reads leave its memory
    (:func:`generator.solver.solve.release_pages`): their pages are no longer the process's,
    and the data reads back the same, from the mapping and from the file."""
    path = tmp_path / "values.npy"
    entries = 16 * 2**20 // 8
    array = np.lib.format.open_memmap(path, mode="w+", dtype=np.float64, shape=(entries,))
    array[:] = np.arange(entries)
    array.flush()
    before = _mapped_file_bytes()
    release_pages(array, entries // 4, entries)
    after = _mapped_file_bytes()
    assert before - after >= 11 * 2**20  # three quarters of 16 MiB, less the pages at the ends
    assert before - after <= 12 * 2**20 + 8192
    assert np.array_equal(array, np.arange(entries))
    assert np.array_equal(np.load(path, mmap_mode="r"), np.arange(entries))
    release_pages(np.arange(4.0), 0, 4)  # an array in memory is left alone


class Interrupted(Exception):
    """Stands for a kill after a finished layer."""


def test_an_interrupted_solve_resumes_from_its_last_layer(tmp_path: Path) -> None:
    """Every finished layer is checkpointed: a solve stopped after its second layer solves
    only the rest when run again, and ends with the same values, bit for bit."""
    rules = finkel(3)
    whole = solve(rules, cache_dir=None)
    finished: list[str] = []

    def stop_after_two(line: str) -> None:
        if line.startswith("layer "):
            finished.append(line)
            if len(finished) == 2:
                raise Interrupted

    with pytest.raises(Interrupted):
        solve(rules, cache_dir=tmp_path, progress=stop_after_two)
    resumed_lines: list[str] = []
    resumed = solve(rules, cache_dir=tmp_path, progress=resumed_lines.append)
    assert not resumed.from_cache
    assert resumed.resumed_layers == 2
    solved_again = [line for line in resumed_lines if line.startswith("layer ")]
    assert len(solved_again) == 2 * rules.pieces - 1 - 2
    assert np.array_equal(np.asarray(resumed.values), whole.values)
    assert np.array_equal(np.asarray(resumed.lengths), whole.lengths)
    assert solve(rules, cache_dir=tmp_path).from_cache


def stopped_after_saves(
    rules: Rules, folder: Path, saves: int, monkeypatch: pytest.MonkeyPatch
) -> list[LayerProgress]:
    """Solve ``rules`` into ``folder`` saving each layer's progress at every sweep, and stop
    right after the ``saves``-th save; the progress saved, in order."""
    monkeypatch.setattr(solve_layer, "PROGRESS_EVERY", 0.0)
    keep = Checkpoints.keep_progress
    kept: list[LayerProgress] = []

    def keep_then_stop(self: Checkpoints, progress: LayerProgress) -> None:
        keep(self, progress)
        kept.append(progress)
        if len(kept) == saves:
            raise Interrupted

    monkeypatch.setattr(Checkpoints, "keep_progress", keep_then_stop)
    with pytest.raises(Interrupted):
        solve(rules, cache_dir=folder)
    monkeypatch.setattr(Checkpoints, "keep_progress", keep)
    return kept


@pytest.mark.parametrize(
    ("stop_at", "where"),
    [
        (5, (4, "values", True)),
        (35, (4, "values", False)),
        (150, (4, "lengths", False)),
        (318, (1, "values", True)),
        (400, (0, "lengths", False)),
    ],
)
def test_a_layer_stopped_midway_goes_on_from_its_saved_progress(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stop_at: int,
    where: tuple[int, str, bool],
) -> None:
    """A layer's progress is saved at the start of its sweeps (here at every one): a solve
    stopped right after its ``stop_at``-th save goes on from it when run again and ends with
    the same bits as a solve never stopped. Three-piece Finkel saves 418 times; ``where`` is
    the layer, the phase and whether the stop falls among a round's evaluation sweeps (after
    its Bellman sweep, the round's target saved): in the top layer's second round, before its
    fourth Bellman sweep, in its length sweeps, in layer 1's fifth round after three finished
    layers, and in the last layer's length sweeps."""
    rules = finkel(3)
    whole = solve(rules, cache_dir=None)
    kept = stopped_after_saves(rules, tmp_path, stop_at, monkeypatch)
    last = kept[-1]
    assert (last.layer, last.phase, "evaluation_target" in last.counters) == where
    folder = solution_path(tmp_path, rules)
    assert list(folder.glob("layer-*.json")), "the unfinished layer's progress is saved"
    going_on = Checkpoints.progress_of
    resumed_from: list[tuple[int, str]] = []

    def record_resume(self: Checkpoints, layer: int, *args: Any) -> LayerProgress | None:
        found = going_on(self, layer, *args)
        if found is not None:
            resumed_from.append((found.layer, found.phase))
        return found

    monkeypatch.setattr(Checkpoints, "progress_of", record_resume)
    resumed = solve(rules, cache_dir=tmp_path)
    assert resumed_from == [(kept[-1].layer, kept[-1].phase)]
    assert np.array_equal(np.asarray(resumed.values), whole.values)
    assert np.array_equal(np.asarray(resumed.lengths), whole.lengths)
    assert not list(folder.glob("layer-*")), "a finished layer's progress is removed"


def test_damaged_layer_progress_is_reported_and_the_layer_solved_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Saved progress that does not match its record starts its layer again, with a word."""
    rules = finkel(3)
    whole = solve(rules, cache_dir=None)
    layer = stopped_after_saves(rules, tmp_path, 6, monkeypatch)[-1].layer
    saved = solution_path(tmp_path, rules) / f"layer-{layer}.npz"
    saved.write_bytes(saved.read_bytes()[:-100])
    resumed = solve(rules, cache_dir=tmp_path)
    assert f"layer-{layer}" in capsys.readouterr().err
    assert np.array_equal(np.asarray(resumed.values), whole.values)
    assert np.array_equal(np.asarray(resumed.lengths), whole.lengths)


def test_a_killed_solve_resumes(tmp_path: Path) -> None:
    """The solve command killed (SIGKILL) after a finished layer: the rerun resumes."""
    command = [
        sys.executable, "-m", "generator", "--root", str(VARIANTS.parent), "solve",
        "royalur-finkel", "--pieces", "3", "--progress", "--cache-dir", str(tmp_path),
    ]  # fmt: skip
    child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    for line in child.stderr:
        if line.strip().startswith("layer "):
            child.send_signal(signal.SIGKILL)
            break
    child.wait()
    assert child.returncode == -signal.SIGKILL
    again = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "resumed" in again.stdout
    rules = with_pieces(rules_for("royalur-finkel"), 3)
    value = re.search(r"wins:\s+(\S+) %", again.stdout)
    assert value is not None
    assert float(value.group(1)) == pytest.approx(100 * solve(rules, cache_dir=None).start_value)


SOLVE_SEVEN = os.environ.get("UR_SOLVE_SEVEN") == "1"


@pytest.mark.skipif(
    not SOLVE_SEVEN,
    reason="seven-piece Finkel takes an hour or more of processor time; UR_SOLVE_SEVEN=1"
    " runs it (resuming from, or reading, what a previous run left under .cache/solve/)",
)
def test_seven_piece_finkel_matches_published() -> None:
    """The full game: the first player's chance to the ten published decimals
    (JeroenOlieslagers/game_of_ur; RoyalUr.net). jheled publishes the expected length of a
    perfect game as 209.810273 throws; ours, under the first of the best moves in the engine's
    order, is 0.06 throws longer (generator/solver/solve.py: lengths depend on how a player ranks
    nearly equal moves)."""
    solution = solve(rules_for("royalur-finkel"), max_memory_bytes=2 * 2**30)
    assert 100 * solution.start_value == pytest.approx(51.5404732509, abs=1e-10)
    assert solution.states == 137_870_097
    assert solution.expected_throws == pytest.approx(209.869874, abs=1e-6)


@numba.njit(cache=False)
def _table_mismatches(
    packed: np.ndarray,
    configs: ConfigArrays,
    throw_values: np.ndarray,
    perspectives: int,
    valid: np.ndarray,
    mask: np.ndarray,
    table_arrays: MoveArrays,
) -> tuple[int, int]:
    """Every possible state and throw: the options read from the move table against those
    the kernel generates on the board; returns (states and throws compared, mismatches)."""
    table, slot_piece, group_start, group_size, group_stride, binom, code_to_config = configs
    K = header(packed)
    count, n = table.shape
    throws = throw_values.shape[0]
    S = np.zeros(2 * K.pieces + 3 * K.cells, dtype=np.int64)
    scratch = np.zeros_like(S)
    mv = np.zeros(MAX_MOVES * MOVE_WIDTH, dtype=np.int64)
    after = np.zeros(n, dtype=np.int64)
    outs = [np.zeros(MAX_MOVES, dtype=np.int64) for _ in range(4)]
    keeps = [np.zeros(MAX_MOVES, dtype=np.bool_) for _ in range(2)]
    compared = wrong = 0
    for p in range(perspectives):
        for i in range(count):
            for j in range(count):
                if not (valid[p, i] and valid[1 - p, j]) or mask[p, i] & mask[1 - p, j] != 0:
                    continue
                S[:] = 0
                load_state(K, packed, S, table, slot_piece, p, i)
                load_state(K, packed, S, table, slot_piece, 1 - p, j)
                for t in range(throws):
                    a = board_successors(
                        K, packed, S, scratch, mv, after, table, slot_piece, group_start,
                        group_size, group_stride, binom, code_to_config, i, j, p,
                        throw_values[t], outs[0], outs[1], keeps[0],
                    )  # fmt: skip
                    b = table_successors(
                        K, packed, table_arrays, count, throws, i, j, p, t, outs[2], outs[3],
                        keeps[1],
                    )  # fmt: skip
                    compared += 1
                    same = a == b
                    for m in range(min(a, b)):
                        same = same and outs[0][m] == outs[2][m] and outs[1][m] == outs[3][m]
                        same = same and keeps[0][m] == keeps[1][m]
                    if not same:
                        wrong += 1
    return compared, wrong


@pytest.mark.parametrize(
    "rules",
    [
        *(pytest.param(with_pieces(rules_for(v), 2), id=v) for v in variant_ids()),
        pytest.param(exotic(3, 5, True), id="exotic-3"),
        pytest.param(exotic(2, 14, False), id="exotic-2"),
    ],
)
def test_the_move_table_gives_the_kernels_moves(rules: Rules) -> None:
    """The solver reads each state's options from a table of each side's moves
    (:class:`generator.solver.solve_moves.MoveTable`); for every possible state and throw they
    are the options the simulator's kernel generates on the board, in the same order."""
    geo = geometry(rules)
    configs = enumerate_configurations(rules, geo)
    index = build_index(geo, configs)
    table = checked_move_table(geo, configs)
    compared, wrong = _table_mismatches(
        geo.packed, config_arrays(geo, configs), geo.throw_values, geo.perspectives,
        index.valid, index.mask, table.arrays,
    )  # fmt: skip
    assert compared > 100
    assert wrong == 0


def test_a_fitted_start_gives_the_same_values_in_fewer_sweeps(tmp_path: Path) -> None:
    """Sweeps that start from the fitted evaluation instead of 1/2 reach the same values
    (within the tolerance) and the same lengths in fewer sweeps, and are checkpointed apart
    from a solve started from 1/2 (their bits differ); where a player may stall, the start is
    ignored (the sweeps' fixed point would depend on it)."""
    from generator.solver.fitted_agent import weights_for

    rules = finkel(2)
    weights = weights_for(rules)
    plain = solve(rules, cache_dir=None)
    fitted = solve(rules, cache_dir=None, start=weights)
    assert np.abs(plain.values - fitted.values).max() < 1e-12
    assert np.array_equal(plain.lengths, fitted.lengths)
    assert fitted.sweeps < plain.sweeps
    assert solution_path(tmp_path, rules) != solution_path(tmp_path, rules, start=weights)
    stalling = dataclasses.replace(rules, must_move=False)
    assert solution_path(tmp_path, stalling) == solution_path(tmp_path, stalling, start=weights)


def test_saved_arrays_stream_a_chunk_at_a_time_and_read_what_numpy_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A layer's progress is written and read a chunk at a time, each chunk reported so its
    pages can go; the file is what numpy.savez writes (progress saved before this reads, and
    numpy reads what is saved now), with the same checksum."""
    from generator.sim import cache_files

    monkeypatch.setattr(cache_files, "CHUNK_BYTES", 4096)
    rng = np.random.default_rng(1)
    arrays = {"values": rng.random(10_000), "policy": np.arange(3_000, dtype=np.uint32)}
    told: list[tuple[str, int, int]] = []
    digest = cache_files.write_arrays(tmp_path / "new.npz", arrays, lambda *c: told.append(c))
    assert digest == cache_files.arrays_checksum(arrays)
    for name, array in arrays.items():
        spans = [(a, b) for n, a, b in told if n == name]
        assert spans[0][0] == 0 and spans[-1][1] == array.size and len(spans) > 1
        assert all(b == c for (_, b), (c, _) in itertools.pairwise(spans))
    with np.load(tmp_path / "new.npz") as data:
        assert np.array_equal(data["values"], arrays["values"])
        assert bytes(data["checksum"]).hex() == digest
    np.savez(
        tmp_path / "old.npz",
        checksum=np.frombuffer(bytes.fromhex(digest), dtype=np.uint8),
        **arrays,  # type: ignore[arg-type]
    )
    target = np.zeros(10_000)
    read = cache_files.read_arrays(tmp_path / "old.npz", ("policy", "values"), {"values": target})
    assert read is not None and read[1] == digest
    assert read[0]["values"] is target and np.array_equal(target, arrays["values"])


def test_a_resumed_layer_reads_its_progress_into_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resuming reads the layer's values and lengths straight into the solve's arrays: no
    copy of either is made (the solver's memory estimate counts one float a state of the two
    layers in use, and seven-piece Masters' measured peak exceeded it by about that much while
    copies were read), only the choices (counted as working memory) are allocated."""
    import tracemalloc

    from generator.sim import cache_files

    monkeypatch.setattr(cache_files, "CHUNK_BYTES", 4096)
    rules = finkel(3)
    kept = stopped_after_saves(rules, tmp_path, 318, monkeypatch)[-1]  # layer 1, its values
    store = Checkpoints(solution_path(tmp_path, rules))
    configs = enumerate_configurations(rules, geometry(rules))
    index = build_index(geometry(rules), configs)
    values, lengths, _ = store.open(index.states, index)
    throws = kept.policy.size // kept.values.size
    tracemalloc.start()
    found = store.progress_of(kept.layer, index, throws, values, lengths)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert found is not None and np.shares_memory(found.values, values)
    first, last = int(index.layer_base[kept.layer]), int(index.layer_base[kept.layer + 1])
    assert np.array_equal(values[first:last], kept.values)
    choices = kept.policy.nbytes + kept.settled.nbytes
    assert peak < choices + 8 * kept.values.size, "the layer's values were copied on the way"
