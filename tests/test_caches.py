"""Damaged caches are reported in one line and recomputed, never published (issue 10, items 6
and 7), and a published figure is checked before it is written.

Each case damages one cache entry the way a full disk, a killed build or a careless edit
would, then reads it again through the code the build uses.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import repository_catalog

from generator import files
from generator.claims.figures import figure_cache_path, figure_key
from generator.claims.reachability import _reachability_cached
from generator.claims.verdicts import SUPPORTED, CheckSettings, ClaimResult
from generator.engine.rules import Rules, compile_rules
from generator.sim import cache_files
from generator.sim.records import RecordSpec, load_record, record_path, save_record, simulate
from generator.sim.sanity import FigureError, check_record, exact_problems, result_problems
from generator.solver.solve import solution_path, solve, with_pieces

GAMES = 200


def finkel(pieces: int) -> Rules:
    return with_pieces(compile_rules(repository_catalog().resolve("finkel-great-book")), pieces)


def spec() -> RecordSpec:
    variant = repository_catalog().resolve("finkel-great-book")
    return RecordSpec(variant, ("random", "random"), GAMES, 7)


def _envelope(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _tamper_rate(path: Path, *, fix_checksum: bool) -> None:
    """The issue's case: 98.8 % published inside an interval of 50.7-51.6."""
    envelope = _envelope(path)
    envelope["payload"]["results"]["first_player_win_rate"]["estimate"] = 0.988
    if fix_checksum:
        envelope["sha256"] = cache_files._payload_checksum(envelope["payload"])
    path.write_text(json.dumps(envelope))


RECORD_DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
    "empty": lambda p: p.write_bytes(b""),
    "garbage bytes": lambda p: p.write_bytes(b"\xff\xfe\x00garbage"),
    "a list": lambda p: p.write_text("[]"),
    "a record without envelope": lambda p: p.write_text(json.dumps(_envelope(p)["payload"])),
    "another format": lambda p: p.write_text(json.dumps({**_envelope(p), "format": 0})),
    "tampered figure": lambda p: _tamper_rate(p, fix_checksum=False),
    "tampered figure, checksum redone": lambda p: _tamper_rate(p, fix_checksum=True),
    "another key": lambda p: p.write_text(
        json.dumps(
            {
                **_envelope(p),
                "payload": {**_envelope(p)["payload"], "key": "0" * 64},
                "sha256": cache_files._payload_checksum(
                    {**_envelope(p)["payload"], "key": "0" * 64}
                ),
            }
        )
    ),
}


@pytest.mark.parametrize("damage", sorted(RECORD_DAMAGE))
def test_a_damaged_record_is_reported_and_simulated_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    first = simulate([spec()], cache_dir=tmp_path)[0]
    path = record_path(tmp_path, first["key"])
    RECORD_DAMAGE[damage](path)
    capsys.readouterr()
    again = simulate([spec()], cache_dir=tmp_path)[0]
    assert again["results"] == first["results"]
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cache: {path}: "), lines
    assert load_record(tmp_path, first["key"]) == again  # saved again, whole
    assert capsys.readouterr().err == ""


def test_a_record_is_written_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = simulate([spec()], cache_dir=tmp_path)[0]
    path = record_path(tmp_path, first["key"])
    before = path.read_bytes()

    def crash(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "fsync", crash)
    with pytest.raises(files.WriteError, match="disk full"):
        save_record(tmp_path, {**first, "elapsed_seconds": 1.0})
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_an_impossible_record_is_never_saved(tmp_path: Path) -> None:
    record = simulate([spec()], cache_dir=tmp_path)[0]
    rate = record["results"]["first_player_win_rate"]
    for bad in ({**rate, "estimate": 0.988}, {**rate, "high": 1.2, "estimate": 1.1}):
        broken = {**record, "results": {**record["results"], "first_player_win_rate": bad}}
        with pytest.raises(FigureError, match="first_player_win_rate"):
            save_record(tmp_path, broken)


SOLVE_DAMAGE: dict[str, tuple[str, Callable[[Path], None]]] = {
    "record truncated": ("progress.json", lambda p: p.write_bytes(p.read_bytes()[:100])),
    "record empty": ("progress.json", lambda p: p.write_bytes(b"")),
    "record not json": ("progress.json", lambda p: p.write_text("garbage")),
    "values truncated": ("values.npy", lambda p: p.write_bytes(p.read_bytes()[:200])),
    "values not an array": ("values.npy", lambda p: p.write_text("garbage")),
    "tampered values": ("values.npy", lambda p: _tamper_solution(p)),
    "tampered lengths": ("lengths.npy", lambda p: _tamper_solution(p)),
}


def _tamper_solution(path: Path) -> None:
    array = np.load(path, mmap_mode="r+")
    array[0] = 0.99 if array[0] != 0.99 else 0.98
    array.flush()


@pytest.mark.parametrize("damage", sorted(SOLVE_DAMAGE))
def test_a_damaged_solution_is_reported_and_solved_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    rules = finkel(1)
    first = solve(rules, cache_dir=tmp_path)
    folder = solution_path(tmp_path, rules)
    name, spoil = SOLVE_DAMAGE[damage]
    assert (folder / name).is_file()
    spoil(folder / name)
    capsys.readouterr()
    again = solve(rules, cache_dir=tmp_path)
    assert not again.from_cache
    assert again.start_value == first.start_value
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cache: {folder}"), lines
    assert solve(rules, cache_dir=tmp_path).from_cache


def test_a_solution_record_is_a_checked_entry(tmp_path: Path) -> None:
    rules = finkel(1)
    solve(rules, cache_dir=tmp_path)
    envelope = _envelope(solution_path(tmp_path, rules) / "progress.json")
    assert envelope["format"] == cache_files.CACHE_FORMAT
    assert envelope["payload"]["complete"] is True
    assert all("sha256" in layer for layer in envelope["payload"]["layers"].values())


CLAIM_DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:10]),
    "garbage": lambda p: p.write_bytes(b"\x00\x01garbage"),
    "a list": lambda p: p.write_text("[]"),
    "tampered count": lambda p: p.write_text(
        json.dumps({**_envelope(p), "payload": {**_envelope(p)["payload"], "positions": 1}})
    ),
    "wrong fields, checksum redone": lambda p: p.write_text(
        json.dumps(
            {
                **_envelope(p),
                "payload": {"nonsense": 1},
                "sha256": cache_files._payload_checksum({"nonsense": 1}),
            }
        )
    ),
}


@pytest.mark.parametrize("damage", sorted(CLAIM_DAMAGE))
def test_a_damaged_claim_check_is_reported_and_checked_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    settings = CheckSettings(games=10, seed=1, cache_dir=tmp_path)
    rules = finkel(1)
    first = _reachability_cached(rules, settings)
    path = figure_cache_path(settings, figure_key("reachability", rules, {}))
    assert path is not None and path.is_file()
    CLAIM_DAMAGE[damage](path)
    capsys.readouterr()
    assert _reachability_cached(rules, settings) == first
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cache: "), lines
    assert _reachability_cached(rules, settings) == first
    assert capsys.readouterr().err == ""


def test_sanity_rules() -> None:
    good = {"estimate": 0.51, "low": 0.5, "high": 0.52}
    assert result_problems({"rate": good}) == []
    assert result_problems({"rate": {**good, "estimate": 0.988}})
    assert result_problems({"rate": {"estimate": 1.5, "low": 1.4, "high": 1.6}})
    assert result_problems({"rate": {**good, "low": float("nan")}})
    assert (
        result_problems({"d": {"estimate": -0.5, "low": -0.6, "high": -0.4}}, differences=True)
        == []
    )
    assert result_problems({"throws": {"mean": -1.0, "low": -2.0, "high": 0.0}})
    quantiles = {"p5": 3.0, "p25": 2.0, "p50": 4.0, "p75": 5.0, "p95": 6.0}
    assert result_problems(
        {"throws": {"mean": 4.0, "low": 3.0, "high": 5.0, "quantiles": quantiles}}
    )
    histogram = {"edges": [0, 1, 2], "counts": [1, 1]}
    assert result_problems({"t": {"mean": 1, "low": 0, "high": 2, "histogram": histogram}}, 2) == []
    assert result_problems({"t": {"mean": 1, "low": 0, "high": 2, "histogram": histogram}}, 3)
    assert result_problems({"first_player_wins": 5}, 4)
    unfinished = {"finished_games": 2, "unfinished_games": 1}
    throws = {"mean": 1, "low": 0, "high": 2, "histogram": histogram}
    assert result_problems({**unfinished, "t": throws}, 3) == []
    assert result_problems({**unfinished, "t": throws}, 4)
    assert exact_problems(0.5, 100.0, 10) == []
    assert exact_problems(1.2, 100.0, 10) and exact_problems(0.5, -1.0, 10)
    assert exact_problems(0.5, 1.0, 0)
    with pytest.raises(FigureError):
        check_record({"games": 2, "results": {"rate": {**good, "estimate": 0.9}}})


def test_refresh_solves_again_and_replaces_the_cached_solution(tmp_path: Path) -> None:
    """``build --refresh`` measures everything again (issue 10: it refreshed only the
    simulation records and read exact solutions and claim tallies from the cache)."""
    rules = finkel(1)
    first = solve(rules, cache_dir=tmp_path)
    path = solution_path(tmp_path, rules) / "progress.json"
    path.write_bytes(b"")  # a refresh must not even read it
    again = solve(rules, cache_dir=tmp_path, use_cache=False)
    assert not again.from_cache and again.start_value == first.start_value
    assert solve(rules, cache_dir=tmp_path).from_cache


def test_refresh_checks_again_and_replaces_the_cached_tally(tmp_path: Path) -> None:
    settings = CheckSettings(games=10, seed=1, cache_dir=tmp_path)
    rules = finkel(1)
    first = _reachability_cached(rules, settings)
    path = figure_cache_path(settings, figure_key("reachability", rules, {}))
    assert path is not None
    stale = {**_envelope(path)["payload"], "positions": 1}
    cache_files.write_json(path, stale)  # a well-formed entry from an older engine
    assert _reachability_cached(rules, settings).positions == 1
    refreshed = CheckSettings(games=10, seed=1, cache_dir=tmp_path, refresh=True)
    assert _reachability_cached(rules, refreshed) == first
    assert _reachability_cached(rules, settings) == first


def test_build_refresh_reaches_every_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's option reaches the simulation suite, the solver, the claim checks and the
    engine cross-checks."""
    from generator.build import BuildOptions, measure_settings
    from generator.engine.equivalence import same_game_swaps
    from generator.measure import claims, cross_checks, exact, suite
    from generator.sim.suite import Suite
    from generator.solver import solve as solve_module

    solution = solve(finkel(1), cache_dir=tmp_path)
    seen: dict[str, set[bool]] = {"suite": set(), "solve": set(), "claims": set()}

    def fake_suite(*args: object, use_cache: bool, **kwargs: object) -> Suite:
        seen["suite"].add(use_cache)
        return Suite(seed=1, variants=[])

    def fake_solve(*args: object, use_cache: bool, **kwargs: object) -> object:
        seen["solve"].add(use_cache)
        return solution

    def fake_check(catalog: object, claim: object, settings: CheckSettings) -> object:
        seen["claims"].add(settings.refresh)
        return ClaimResult("c", "v", "k", SUPPORTED, None)

    monkeypatch.setattr(suite, "default_suite", fake_suite)
    monkeypatch.setattr(solve_module, "solve", fake_solve)
    monkeypatch.setattr(claims, "check_claim", fake_check)
    monkeypatch.setattr(exact, "read_results", lambda: None)  # every game solved, none read
    catalog = repository_catalog()
    one_swap = next(same_game_swaps(catalog))
    played: list[object] = []
    monkeypatch.setattr(cross_checks, "same_game_swaps", lambda catalog: iter([one_swap]))
    monkeypatch.setattr(
        cross_checks, "sampled_agreement", lambda *a, **k: played.append(a) or (100, 0)
    )
    for refresh in (False, True):
        for values in seen.values():
            values.clear()
        options = BuildOptions(root=tmp_path, refresh=refresh, log=lambda _: None)
        settings = measure_settings(options)
        suite.run_suite(catalog, settings)
        exact.solve_exact(catalog, settings)
        claims.check_claims(catalog, settings)
        assert seen == {"suite": {not refresh}, "solve": {not refresh}, "claims": {refresh}}
        played.clear()
        cross_checks.cross_check(catalog, settings)  # played, or read from the cache
        cross_checks.cross_check(catalog, settings)
        assert len(played) == (2 if refresh else 1)


def test_a_cached_claim_verdict_reads_back_as_its_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A verdict read back from the cache (whose JSON sorts keys, and has no tuples, fractions
    or enums) is the one just checked: its finding's dataclasses, their order, fractions,
    verdicts and values of either type come back as they were."""
    from generator.build import BuildOptions, measure_settings
    from generator.claims.dice import DiceOdds, ThrowOdds
    from generator.claims.tablet_route import TabletPoint, TabletRoute
    from generator.claims.verdicts import CONTRADICTED, UNSUPPORTED
    from generator.measure import claims

    findings = {
        "dice-odds": DiceOdds(
            (ThrowOdds(4, None, Fraction(1, 16)), ThrowOdds(0, Fraction(1, 8), Fraction(1, 16))),
            (0,),
            False,
        ),
        "tablet-route": TabletRoute(
            TabletPoint("Bell's route", (), UNSUPPORTED),
            TabletPoint(7, (5, 3), CONTRADICTED),
        ),
    }
    checks: list[str] = []

    def fake_check(catalog: object, claim: Any, settings: CheckSettings) -> ClaimResult:
        checks.append(claim.id)
        check = sorted(findings)[len(checks) % 2]
        return ClaimResult(claim.id, "v", check, CONTRADICTED, findings[check], True)

    monkeypatch.setattr(claims, "check_claim", fake_check)
    catalog = repository_catalog()
    settings = measure_settings(BuildOptions(root=tmp_path, log=lambda _: None))
    fresh = claims.check_claims(catalog, settings)
    checked = len(checks)
    cached = claims.check_claims(catalog, settings)
    assert checked > 0 and len(checks) == checked, "the second run reads every verdict back"
    assert cached == fresh
    assert {r.check for r in cached.values()} == set(findings)


def test_an_impossible_published_figure_stops_the_build_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """End to end through the command line: the solver (faulty here) gives a chance of winning
    of 1.5; the build exits 1 with one line naming the figure, and the previous site stays.
    (The simulations, claim checks and cross-checks are left out: they are not what is tested,
    and slow.)"""
    from conftest import copy_project

    from generator.cli import main
    from generator.measure import claims, cross_checks, exact, parting, suite
    from generator.sim.suite import Suite
    from generator.site.site_folder import STAMP
    from generator.solver import solve as solve_module

    root = copy_project(tmp_path / "project")
    site = root / "site"
    site.mkdir()
    (site / STAMP).write_text("a previous build\n")
    (site / "index.html").write_text("the previous site\n")
    real_solve = solve_module.solve

    def faulty_solve(rules: Rules, **kwargs: Any) -> Any:
        solution = real_solve(rules, **kwargs)
        return dataclasses.replace(solution, values=np.full_like(solution.values, 1.5))

    monkeypatch.setattr(solve_module, "solve", faulty_solve)
    monkeypatch.setattr(exact, "read_results", lambda: None)  # solved, not read from results/
    monkeypatch.setattr(suite, "default_suite", lambda *a, **k: Suite(seed=1, variants=[]))
    monkeypatch.setattr(
        claims, "check_claim", lambda *a: ClaimResult("c", "v", "k", SUPPORTED, None)
    )
    monkeypatch.setattr(cross_checks, "same_game_swaps", lambda catalog: iter(()))
    monkeypatch.setattr(parting, "pair_parting", lambda *a: None)  # a minute of the engine
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    capsys.readouterr()
    assert main(["--root", str(root), "build", "--jobs", "1"]) == 1
    out = capsys.readouterr()
    *progress, error = out.err.strip().splitlines()
    steps = ("solved ", "claim ", "engine cross-checks: ", "partings: ", "SITE_URL is not set: ")
    steps += ("results stamps: ",)  # the layers a fresh cache has no digest of yet
    assert all(line.startswith(steps) for line in progress), out.err
    assert error.startswith("impossible figure, not published: exact ") and " 1.5 " in error
    assert error.endswith("a fault in the simulator or solver") and len(error) < 400, error
    assert "Traceback" not in out.err + out.out
    assert (site / "index.html").read_text() == "the previous site\n"
    assert sorted(p.name for p in site.iterdir()) == sorted([STAMP, "index.html"])
