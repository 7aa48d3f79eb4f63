"""The distributed solve (generator/solver/cluster.py) on a local MPI cluster of two workers:
the same values and expected lengths as the single-process solve, state by state, and a run
whose worker is killed resumes from the finished layers to the same values."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from generator.engine.rules import Rules, Side, compile_rules
from generator.model.catalog import load_catalog
from generator.sim.cache_files import write_json
from generator.solver import held_states, partition, solve_sweeps
from generator.solver.cluster import WORKING, WorkerCheckpoints, loss_report
from generator.solver.cluster_check import compare_arrays, compare_distributed, local_workers
from generator.solver.cluster_layer import ClusterLayerSolve
from generator.solver.layer_split import split_layer
from generator.solver.solution import SolveRefused
from generator.solver.solve import solve, with_pieces
from generator.solver.solve_estimate import sweep_order
from generator.solver.solve_read import cluster_folder, committed_start, distributed_solution

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "generator"]


def rules_of(variant: str, pieces: int) -> Rules:
    catalog, _ = load_catalog(ROOT / "variants")
    return with_pieces(compile_rules(catalog.resolve(variant)), pieces)


def solve_command(variant: str, pieces: int, cache: Path) -> list[str]:
    return [
        *CLI, "--root", str(ROOT), "solve", variant, "--pieces", str(pieces), "--workers", "2",
        "--cache-dir", str(cache),
    ]  # fmt: skip


def assert_same_as_single(rules: Rules, cache: Path, printed: str) -> None:
    """Every stored value and length of the two-worker solve equals the single process's,
    and so does the start value it printed."""
    single = solve(rules, cache_dir=None)
    assert f"first player (light) wins:  {100 * single.start_value:.10f} %" in printed
    found = compare_distributed(single, cache, 2)
    assert found.within_bound, found.lines()
    assert found.same_bits, found.lines()


def lopsided(pieces: int) -> Rules:
    """The Great Book's game with a rosette on light's first square only: the colours differ,
    so the solver keeps both sides' perspectives."""
    rules = rules_of("finkel-great-book", pieces)
    first = rules.cells[Side.LIGHT][0]
    return dataclasses.replace(rules, extra_throw_cells=rules.extra_throw_cells | {first})


@pytest.mark.parametrize(
    ("rules", "perspectives"),
    [(rules_of("royalur-finkel", 2), 1), (rules_of("merit-1976", 2), 1), (lopsided(2), 2)],
    ids=["finkel", "merit-stacking", "two-perspectives"],
)
def test_each_worker_lists_its_runs_of_the_layer_alone(rules: Rules, perspectives: int) -> None:
    """A worker's share, found without listing the layer, is its runs of each wave of the
    whole layer's sweep order (the partition's chosen split), in that order, and the split
    names each state's owner and its place in the order."""
    solved = partition.game(rules)
    index = solved.index
    assert solved.geo.perspectives == perspectives
    for layer in range(len(index.layer_sizes)):
        order = sweep_order(solved.geo, solved.configs, index, layer)
        for workers in (1, 2, 3, 7):
            split = split_layer(solved.geo, index, layer, workers)
            runs = partition.wave_runs(order.wave_start, workers)
            places = []
            for r in range(workers):
                first, last = runs[:, r], runs[:, r + 1]
                run_places = np.concatenate(
                    [np.arange(a, b) for a, b in zip(first, last, strict=True)]
                ).astype(np.int64)
                keys, ids = split.share(r, index, order.order.dtype)
                assert np.array_equal(keys, order.order[run_places])
                assert np.array_equal(ids, order.places[run_places])
                owner, place = split.owner_of(keys)
                assert np.all(owner == r)
                places.append((place, run_places))
            place = np.concatenate([p for p, _ in places])
            run_places = np.concatenate([k for _, k in places])
            assert np.array_equal(run_places[np.argsort(place)], np.arange(order.order.size))


@pytest.mark.parametrize("chunk", [held_states.READ_CHUNK, 7])
def test_a_share_keeps_its_states_and_those_it_reads(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """A worker keeps its own states and those their options lead to, each once, in order of
    id, with their keys, however many states are listed at a time (its successor lists are
    never whole), and a state's slot is its place among them."""
    monkeypatch.setattr(held_states, "READ_CHUNK", chunk)
    solved = partition.game(rules_of("royalur-finkel", 2))
    index, count = solved.index, solved.configs.count
    layer = int(index.layer_sizes.argmax())
    graph = partition.layer_graph(solved, layer)
    span = int(index.layer_base[layer + 2]) - graph.base
    keys = graph.mover * count + graph.opponent  # the sweep order's keys
    half = graph.size // 2  # a share: the first half of the sweep order, and its successors
    own_ids = np.asarray(graph.places[:half], dtype=np.int64)
    reads = graph.successor[graph.first[0] : graph.first[half]] - graph.base
    whole = np.union1d(own_ids, reads)
    held = held_states.held_by_share(solved, keys[:half], own_ids, graph.base, span, graph.size)
    assert np.array_equal(held.ids, whole)
    assert held.inside == np.count_nonzero(whole < graph.size) < whole.size  # both layers read
    named = [
        index.state_id(int(k // (count * count)), int(k // count % count), int(k % count))
        for k in held.keys
    ]
    assert np.array_equal(np.array(named) - graph.base, held.ids)
    slots = held_states.slots_in(held.bits, held.ranks, whole)
    assert np.array_equal(slots, np.arange(whole.size))


@pytest.mark.parametrize(
    ("variant", "pieces"),
    [
        ("royalur-finkel", 2),
        pytest.param("merit-1976", 2, marks=pytest.mark.slow),  # stacking
        pytest.param("royalur-finkel", 3, marks=pytest.mark.slow),
    ],
)
def test_two_workers_store_the_single_process_values(
    variant: str, pieces: int, tmp_path: Path
) -> None:
    done = subprocess.run(
        solve_command(variant, pieces, tmp_path), capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert "on 2 workers" in done.stdout
    assert_same_as_single(rules_of(variant, pieces), tmp_path, done.stdout)


@pytest.mark.slow
def test_workers_from_the_fitted_start_store_the_single_process_values(tmp_path: Path) -> None:
    """With --fitted-start each worker starts its share of a layer from the committed fitted
    evaluation and sends it to the workers that read it: the bits one process stores from
    the same start, in a folder of their own, the start named in the solution's figures."""
    rules = rules_of("royalur-finkel", 3)
    start = committed_start(rules)
    assert start is not None, "three-piece Finkel's fit is committed"
    done = subprocess.run(
        [*solve_command("royalur-finkel", 3, tmp_path), "--fitted-start"],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    folder = cluster_folder(tmp_path, rules, 2, start=start)
    assert folder != cluster_folder(tmp_path, rules, 2)
    assert not cluster_folder(tmp_path, rules, 2).exists()
    found = distributed_solution(rules, tmp_path, 2, start=start)
    assert found is not None
    assert found[1]["start"] == "fitted evaluation"
    single = solve(rules, cache_dir=None, start=start)
    assert f"first player (light) wins:  {100 * single.start_value:.10f} %" in done.stdout
    compared = compare_distributed(single, tmp_path, 2, start)
    assert compared.same_bits, compared.lines()


def test_a_worker_keeping_more_states_than_its_codes_name_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's stored choices name the states it keeps (its slots), not the layer's: it
    solves a layer whatever the layer's size, and refuses, asking for more workers, only when
    it keeps more states than its codes name (one worker in this process, the codes made
    small)."""
    from mpi4py import MPI

    rules = rules_of("royalur-finkel", 2)
    solved = partition.game(rules)
    layer = int(np.flatnonzero(solved.index.layer_sizes)[-1])  # solved first: reads no later
    args = (rules, solved.geo, solved.configs, solved.index, solved.moves, layer, None)
    run = ClusterLayerSolve(MPI.COMM_SELF, *args)
    kept = run.share.kept
    assert kept > 1
    monkeypatch.setattr(solve_sweeps, "CODED_STATES", kept + 1)
    ClusterLayerSolve(MPI.COMM_SELF, *args)
    monkeypatch.setattr(solve_sweeps, "CODED_STATES", kept)
    with pytest.raises(SolveRefused, match=f"a worker keeps {kept:,} states.*use more workers"):
        ClusterLayerSolve(MPI.COMM_SELF, *args)


@pytest.mark.slow
def test_a_killed_worker_costs_its_unfinished_layer(tmp_path: Path) -> None:
    """Kill worker 1 once its first layer is checkpointed: the run stops; the same command
    resumes from the finished layers and stores the single process's values."""
    rules = rules_of("royalur-finkel", 2)
    checkpoints = cluster_folder(tmp_path, rules, 2) / "worker-1"
    run = subprocess.Popen(
        solve_command("royalur-finkel", 2, tmp_path),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    deadline = time.monotonic() + 600
    while not list(checkpoints.glob("layer-*.json")) and time.monotonic() < deadline:
        assert run.poll() is None, run.communicate()
        time.sleep(0.05)
    victim = local_workers(run.pid).get(1)
    assert victim is not None
    os.kill(victim, signal.SIGKILL)
    _, stderr = run.communicate(timeout=120)
    assert run.returncode == 1
    assert "run the same command again to resume" in stderr
    assert "checkpointed by every worker" in stderr, stderr
    finished = len(list(checkpoints.glob("layer-*.json")))
    layers = int((partition.game(rules).index.layer_sizes > 0).sum())
    assert 1 <= finished < layers, f"killed after {finished} of {layers} layers"
    again = subprocess.run(
        solve_command("royalur-finkel", 2, tmp_path), capture_output=True, text=True, cwd=ROOT
    )
    assert again.returncode == 0, again.stderr
    assert f"resumed after {finished} checkpointed layer(s)" in again.stdout
    assert_same_as_single(rules, tmp_path, again.stdout)


def test_the_comparison_tells_a_changed_bit_from_a_difference_past_the_bound() -> None:
    """The check the long runs report (bench/cluster_check.py): one value a hair off is
    within 1e-9 percentage points but not the same bits; one 1e-10 off (1e-8 points) is past
    the bound; a finite length made endless is caught."""
    single = solve(rules_of("royalur-finkel", 1), cache_dir=None)
    values, lengths, start = single.values.copy(), single.lengths.copy(), single.start_value
    assert compare_arrays(single, values, lengths, start).same_bits
    values[7] = np.nextafter(values[7], 1.0)
    hair = compare_arrays(single, values, lengths, start)
    assert hair.within_bound and not hair.same_bits and hair.differing_values == 1
    values[7] += 1e-10
    assert not compare_arrays(single, values, lengths, start).within_bound
    values[7] = single.values[7]
    lengths[np.flatnonzero(np.isfinite(lengths))[0]] = np.inf
    endless = compare_arrays(single, values, lengths, start)
    assert not endless.same_endless and not endless.within_bound


def test_a_stopped_run_names_the_layers_kept_and_the_layer_lost(tmp_path: Path) -> None:
    """Two workers finished layer 5, one also layer 4, while layer 4 was being solved: the
    report keeps layer 5 (what resuming takes up) and names layer 4 as lost."""
    figures = {"states": 1200, "seconds": 3.5}
    for worker, layers in ((0, (5, 4)), (1, (5,))):
        store = WorkerCheckpoints(tmp_path / f"worker-{worker}")
        for layer in layers:
            store.finish(layer, np.zeros(600), np.zeros(600), {**figures, "layer": layer})
    write_json(tmp_path / WORKING, {"layer": 4, "states": 3000, "started": time.time() - 30})
    report = loss_report(tmp_path, 2)
    assert report.startswith("kept layer 5, checkpointed by every worker (1,200 states, 3.5 s")
    assert "lost layer 4 (3,000 states), stopped about 30 s into its solve" in report
    assert loss_report(tmp_path / "nothing", 2) == (
        "no layer was checkpointed by every worker yet; no layer was in progress"
    )
