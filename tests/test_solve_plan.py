"""A distributed solve's plan (generator/solver/solve_plan.py) and its split
(generator/solver/partition.py): the plan's states are the solver's, the workers' memory adds up
to one process's, and the traffic is the values other workers own, counted here again from the
stored-option transitions (another move generator and another numbering of the states)."""

from __future__ import annotations

import dataclasses
import html
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import VARIANTS, repository_catalog, rules_for

from generator.cli import main
from generator.engine.rules import Rules
from generator.measure.core import Results
from generator.measure.solve_plan import SOLVE_PLAN, CostedPlan, plan_problems
from generator.sim import results_files
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.statistics_page import statistics_files
from generator.solver import partition, plan_cost, solve_sweeps
from generator.solver.plan_cost import MACHINE, costed, slowest_rate
from generator.solver.solution import SolveRefused
from generator.solver.solve import solve, with_pieces
from generator.solver.solve_moves import WIN
from generator.solver.solve_plan import (
    SHARE_BESIDE_BYTES,
    Counted,
    Plan,
    PlanRefused,
    beside_bytes,
    count,
    fewest_workers,
    held_whole,
    plan,
    planned,
)
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
        beside = beside_bytes(found.states_per_worker, found.traffic, workers)
        assert beside >= SHARE_BESIDE_BYTES * found.states_per_worker > 0
        share = found.worker_bytes - found.shared_bytes - found.held_whole_bytes - received - beside
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
    assert "listed whole:               0.00 GiB a worker" in out
    assert "its 32-bit choice codes name them" in out


def test_what_each_worker_lists_whole_is_its_slot_map(finkel_two: dict[int, Plan]) -> None:
    """A worker lists only its share of the layer; what it keeps for every state of the
    layer and the next, whatever the workers, is its slot map (a bit a state and a count
    every 64: a quarter of a byte a state of the two largest layers at most), and every
    worker's memory counts it."""
    held = {workers: found.held_whole_bytes for workers, found in finkel_two.items()}
    largest = finkel_two[1].largest_layer
    assert set(held.values()) == {held_whole(largest)} == {-(-2 * largest // 4)}
    for found in finkel_two.values():
        assert found.worker_bytes >= found.shared_bytes + found.held_whole_bytes
    assert finkel_two[4].worker_bytes < finkel_two[1].worker_bytes


def test_a_layer_past_one_processs_choice_codes_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stored choice names a state of its layer or the next in 32 bits: one process
    refuses a solve with more states there, naming the count and the way out (workers, whose
    codes name their own states); the plan takes enough workers that each keeps fewer."""
    monkeypatch.setattr(solve_sweeps, "CODED_STATES", 50)
    with pytest.raises(SolveRefused, match=r"more than the 32-bit choice codes name.*--workers"):
        solve(with_pieces(rules_for("royalur-finkel"), 2), cache_dir=None)
    counted = count(with_pieces(rules_for("royalur-finkel"), 2))
    assert not planned(counted, 1).codes_fit
    found = fewest_workers(counted, 2**40)  # memory is no limit: the codes decide
    assert found.codes_fit and found.slots_per_worker < 50 and found.workers > 1
    assert not planned(counted, found.workers - 1).fits(2**40)
    status, out, _ = _run("solve", "royalur-finkel", "--pieces", "2", "--plan", "--workers", "2")
    assert status == 0 and "do not name them: more workers needed" in out
    assert "no, its choice codes are too few" in out


def test_the_command_writes_the_costed_plan(tmp_path: Path) -> None:
    """``--plan --write-results`` costs the named games and writes the plan file the method
    page reads (its print read a key the file no longer had, and the command failed)."""
    (tmp_path / "results").mkdir()
    (tmp_path / "variants").symlink_to(VARIANTS)
    full_games = Path(__file__).parent.parent / "results" / "full-games.json"
    (tmp_path / "results" / "full-games.json").write_bytes(full_games.read_bytes())
    status, out, err = _run(
        "--root", str(tmp_path), "solve", "royalur-finkel", "--pieces", "2", "--plan",
        "--write-results",
    )  # fmt: skip
    assert status == 0, err
    assert f"1 machines of {MACHINE.memory_gib} GiB" in out
    written = plan_cost.read_plan(tmp_path / "results" / "solve-plan.json")
    assert written is not None
    assert written["games"]["royalur-finkel"]["states"] == 12_869
    assert written["rented_machine"]["memory_gib"] == MACHINE.memory_gib


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("solve", "royalur-finkel", "--plan", "--workers", "0"), "must be from 1"),
        (("solve", "no-such-rulebook", "--plan", "--workers", "2"), "no-such-rulebook"),
        (("solve", "royalur-finkel", "--address", "h1,h2"), "only with --workers"),
        (("solve", "royalur-finkel", "--workers", "2", "--no-cache"), "drop --no-cache"),
        (("solve", "royalur-finkel", "--plan"), "give --workers"),
    ],
)
def test_bad_plans_are_refused(argv: tuple[str, ...], message: str) -> None:
    status, _, err = _run(*argv)
    assert status == 2
    assert message in err


@pytest.mark.parametrize(
    ("hosts", "message"),
    [
        ("localhost,nosuchhost.invalid", "--address: host 'nosuchhost.invalid' is not known"),
        (" , ", "names no host"),
        (None, "hosts:3: host 'nosuchhost.invalid' is not known"),
        ("", "names no host"),
    ],
)
def test_hosts_that_do_not_resolve_are_named_before_any_worker_starts(
    tmp_path: Path, hosts: str | None, message: str
) -> None:
    """A host name that does not resolve (``.invalid`` never does) is refused with where it
    is named, comma list or hosts file and line, before ``mpiexec`` tries SSH on it; an
    empty file or list names no host. ``None``: a hosts file whose third line is the bad one."""
    where = tmp_path / "hosts"
    if hosts is None:
        where.write_text("# the cluster\nlocalhost:2\nnosuchhost.invalid:2  # the second machine\n")
    elif hosts == "":
        where.write_text("# no hosts yet\n\n")
    address = str(where) if hosts in (None, "") else hosts
    status, _, err = _run(
        "solve", "royalur-finkel", "--pieces", "2", "--workers", "2", "--address", address,
        "--cache-dir", str(tmp_path / "cache"),
    )  # fmt: skip
    assert status == 2
    assert message in err
    assert not (tmp_path / "cache").exists(), "nothing is started or written"


def test_the_fewest_workers_that_fit() -> None:
    counted = count(with_pieces(rules_for("royalur-finkel"), 2))
    alone = planned(counted, 1)
    limit = (alone.shared_bytes + alone.worker_bytes) // 2  # half of what one worker grows
    found = fewest_workers(counted, limit)
    assert found.fits(limit) and found.workers > 1
    assert not planned(counted, found.workers - 1).fits(limit)
    with pytest.raises(PlanRefused, match="tables"):
        fewest_workers(counted, alone.shared_bytes)


def test_the_plan_is_timed_by_the_slowest_large_solve() -> None:
    solved = {
        "a": {"states": 200_000_000, "cpu_seconds": 10_000.0},
        "b": {"states": 200_000_000, "cpu_seconds": 20_000.0},
        "small": {"states": 1_000, "cpu_seconds": 1_000.0},
    }
    rate = slowest_rate({"solved": solved})
    assert (rate.variant, rate.per_second) == ("b", 10_000.0)
    with pytest.raises(ValueError, match="full-games"):
        slowest_rate({"solved": {"small": solved["small"]}})
    rules = with_pieces(rules_for("royalur-finkel"), 2)
    game = costed(count(rules), MACHINE, rate)
    processors = game["machines"] * MACHINE.processors
    assert game["wall_hours"] * 3600 * processors * rate.per_second == pytest.approx(12_869)
    assert game["dollars"] == pytest.approx(
        game["wall_hours"] * game["machines"] * MACHINE.dollars_an_hour
    )


def test_the_method_page_gives_the_costed_plan() -> None:
    """The plan's figures as the method page words them; these figures are made up here, to
    find them on the page (the committed plan comes from its command)."""
    game = {
        "pieces": 7, "states": 11_463_005_977, "states_counted": True, "machines": 5,
        "worker_bytes": 60 * 2**30, "traffic_bytes": 30 * 2**30, "traffic_counted": False,
        "traffic_measured_on_pieces": 3, "transfer_seconds_per_sweep": 5.25,
        "processor_hours": 199.0, "wall_hours": 4.97, "dollars": 12.4,
        "single_bytes": 215 * 2**30, "largest_layer": 4_795_434_644,
        "listed_whole_bytes": 2 * 2**30, "states_a_machine_keeps": 1_900_000_000,
    }  # fmt: skip
    huge = {**game, "states": 186_775_548_057, "states_counted": False, "machines": 200}
    unfit = {
        "pieces": 7, "states": 6_782_875_384_560, "states_counted": False,
        "largest_layer": 1_695_718_846_140, "machines": None,
        "every_machine_bytes": 800 * 2**30, "listed_whole_bytes": 790 * 2**30,
        "single_bytes": 97 * 2**40,
    }  # fmt: skip
    found = CostedPlan(
        {"merit-1976": game, "tablet-finkel-2007": huge, "murray-1952-royalur": unfit},
        dataclasses.asdict(MACHINE),
        {"per_second": 16_002.0, "variant": "bell-1960", "states": 1, "cpu_seconds": 1.0},
        "ur-variants solve merit-1976 murray-1952-royalur --plan --write-results",
        "2026-12-05 12:00 UTC",
    )
    assert plan_problems(found) == []
    assert plan_problems(CostedPlan({"merit-1976": {**game, "machines": 0}}, *_rest(found)))
    small_map = {**unfit, "every_machine_bytes": 2**30}  # would fit: the plan is wrong
    assert plan_problems(CostedPlan({"merit-1976": game, "x": small_map}, *_rest(found)))
    catalog = repository_catalog()
    results = Results(0, {SOLVE_PLAN.name: found})
    figures = statistics_files(SiteContext(catalog, None, load_editions(VARIANTS)), results)
    method = html.unescape(str(figures.files["statistics/method.md"]))
    section = method[method.index("### Past one machine") :]
    assert f"`{found.command}`" in section
    assert "about 186,775,548,057 positions, would need 200 machines" in section
    assert MACHINE.assumed in section
    merit = catalog.variants["merit-1976"].short
    words = " ".join(section.split())
    row = "| 11,463,005,977 | 5, each holding 60 GiB | 30 GiB (from 3 pieces), sent in 5.2 s |"
    time_and_cost = "5.0 hours (199 hours of processor time) | 12 dollars |"
    assert f"[{merit}](../variants/merit-1976.md), 7 pieces a side {row} {time_and_cost}" in words
    assert "Each machine lists only its share of the layer it solves" in words
    assert f"two bits a position: up to 2.0 GiB for {merit} with 7 pieces a side" in words
    assert "which reach 2,147,483,647" in words
    assert f"(about 1,900,000,000 for {merit} on 5 machines)" in words
    murray = catalog.variants["murray-1952-royalur"].short
    assert (
        f"{murray}, with about 6,782,875,384,560 positions, fits no number of these machines:"
        " its largest layer alone has about 1,695,718,846,140, and the map of a layer and the"
        " next would take 790 GiB on every machine, more than its 64 GiB" in words
    )
    assert "at least 1,552 machines to hold the 97 TiB that one machine alone would need" in words
    assert "| 7 | about 6,782,875,384,560 |" not in section  # no row for a game that fits none


def _rest(found: CostedPlan) -> tuple[Any, ...]:
    return found.machine, found.rate, found.command, found.date


def test_rulebooks_playing_one_game_are_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Merit 1976 and Selchow & Righter 1977 play one game: the plan counts it (its index's
    tables, about 20 GiB at seven pieces) once and gives both the same figures."""
    counted: list[Rules] = []

    def counting(rules: Rules) -> Counted:
        counted.append(rules)
        return count(rules)

    monkeypatch.setattr(plan_cost, "count", counting)
    games = {v: with_pieces(rules_for(v), 2) for v in ("merit-1976", "selchow-righter-1977")}
    solved = {"big": {"states": 200_000_000, "cpu_seconds": 20_000.0}}
    plan = plan_cost.costed_plan(games, {"solved": solved})
    assert len(counted) == 1
    assert plan["games"]["merit-1976"] == plan["games"]["selchow-righter-1977"]
    games["royalur-finkel"] = with_pieces(rules_for("royalur-finkel"), 2)
    plan_cost.costed_plan(games, {"solved": solved})
    assert len(counted) == 3


def test_the_plan_keeps_its_machine_beside_the_provenance(tmp_path: Path) -> None:
    """The file holds the plan and who made it side by side: the rented machine the plan
    assumes is not the machine that ran the command (their fields must not collide; the first
    committed plan lost its machine to the provenance's and the method page could not render)."""
    games = {"royalur-finkel": with_pieces(rules_for("royalur-finkel"), 2)}
    plan = plan_cost.costed_plan(games, {"solved": {"big": {"states": 2e8, "cpu_seconds": 2e4}}})
    made = results_files.provenance(tmp_path, "a command", 1.0, {})
    assert not set(plan) & set(made)
    assert plan["rented_machine"]["memory_gib"] == MACHINE.memory_gib
