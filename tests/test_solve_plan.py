"""A distributed solve's plan (generator/solver/solve_plan.py) and its split
(generator/solver/partition.py): the plan's states are the solver's, the workers' memory adds up
to one process's, and the traffic is the values other workers own, counted here again from the
stored-option transitions (another move generator and another numbering of the states)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from conftest import rules_for

from generator.cli import main
from generator.solver import partition
from generator.solver.solve import solve, with_pieces
from generator.solver.solve_moves import WIN
from generator.solver.solve_plan import Plan, PlanRefused, plan
from generator.solver.solve_small import small_game


@pytest.fixture(scope="module")
def finkel_two() -> dict[int, Plan]:
    rules = with_pieces(rules_for("royalur-finkel"), 2)
    return {workers: plan(rules, workers) for workers in (1, 3, 4)}


@pytest.mark.parametrize("variant", ["royalur-finkel", "merit-1976"])
def test_the_plan_counts_the_solvers_states(variant: str) -> None:
    rules = with_pieces(rules_for(variant), 2)
    assert plan(rules, 2).states == solve(rules, cache_dir=None).states


def test_workers_memory_adds_up_to_one_process(finkel_two: dict[int, Plan]) -> None:
    alone = finkel_two[1]
    assert alone.traffic.values == 0  # one worker owns every state
    for workers, found in finkel_two.items():
        assert found.shared_bytes == alone.shared_bytes
        received = 8 * -(-(found.traffic.values + found.traffic.once) // workers)
        share = found.worker_bytes - found.shared_bytes - received
        grows = found.single_bytes - found.shared_bytes
        assert grows <= workers * share < grows + workers
    assert finkel_two[4].worker_bytes < finkel_two[3].worker_bytes < alone.worker_bytes
    assert finkel_two[4].fits(alone.worker_bytes) and not alone.fits(alone.worker_bytes - 1)


def test_traffic_is_the_values_other_workers_own(finkel_two: dict[int, Plan]) -> None:
    rules = with_pieces(rules_for("royalur-finkel"), 2)
    solved = partition.game(rules)
    layer = int(solved.index.layer_sizes.argmax())
    graph = partition.layer_graph(solved, layer)
    owner = partition.owners(graph, partition.CHOSEN, 3)
    small = small_game(rules)
    numbered = np.flatnonzero(small.dense >= 0)
    index_of = np.empty(small.states, dtype=np.int64)
    index_of[small.dense[numbered]] = numbered
    count = solved.configs.count
    throws = int(solved.geo.throw_values.shape[0])

    def state_id(state: int) -> int:
        p, mover, opponent = state // (count * count), (state // count) % count, state % count
        return solved.index.state_id(int(p), int(mover), int(opponent))

    needed: set[tuple[int, int]] = set()
    (reached,) = [each for each in small.sweep() if each.number == layer]
    for a, state in enumerate(reached.members.tolist()):
        reader = int(owner[state_id(state) - graph.base])
        for row in range(a * throws, (a + 1) * throws):
            for option in reached.options[row, : reached.counts[row]].tolist():
                if option == WIN:
                    continue
                target = state_id(int(index_of[option >> 1])) - graph.base
                if target < graph.size and int(owner[target]) != reader:
                    needed.add((reader, target))
    assert len(needed) == finkel_two[3].traffic.values > 0
    assert finkel_two[3].traffic.exact


def test_a_split_owns_every_state_once() -> None:
    rules = with_pieces(rules_for("merit-1976"), 2)
    solved = partition.game(rules)
    graph = partition.layer_graph(solved, int(solved.index.layer_sizes.argmax()))
    for split in partition.SPLITS:
        owner = partition.owners(graph, split, 3)
        assert owner.shape == (graph.size,)
        assert set(np.unique(owner).tolist()) == {0, 1, 2}, split


def test_plan_refuses_no_workers() -> None:
    with pytest.raises(PlanRefused, match="at least 1"):
        plan(with_pieces(rules_for("royalur-finkel"), 1), 0)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as stop:  # argparse's usage errors
            status = int(stop.code or 0)
    return status, out.getvalue(), err.getvalue()


def test_the_command_prints_the_plan() -> None:
    status, out, _ = _run(
        "solve", "royalur-finkel", "--pieces", "2", "--plan", "--workers", "3",
        "--max-memory-gb", "1",
    )  # fmt: skip
    assert status == 0
    assert "states:                     12,869 (counted)" in out
    assert "counted exactly on this game" in out and "fits:                       yes" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("solve", "royalur-finkel", "--plan", "--workers", "0"), "must be from 1"),
        (("solve", "no-such-rulebook", "--plan", "--workers", "2"), "no-such-rulebook"),
        (("solve", "royalur-finkel", "--workers", "2"), "add --plan"),
        (("solve", "royalur-finkel", "--plan"), "give --workers"),
    ],
)
def test_bad_plans_are_refused(argv: tuple[str, ...], message: str) -> None:
    status, _, err = _run(*argv)
    assert status == 2
    assert message in err
