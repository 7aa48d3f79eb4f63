"""Records: cached by content, re-simulated on any change, identical for any --jobs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import VARIANTS, repository_catalog

from generator.cli import main
from generator.sim import records as records_module
from generator.sim import runner
from generator.sim.records import RecordSpec, simulate
from generator.sim.runner import FAST_CHUNK, RunRequest, run_requests
from generator.sim.variation import Change, with_change

SMALL = 300


def first_simulated() -> str:
    catalog = repository_catalog()
    return next(v.id for v in catalog.variants.values() if v.simulate)


def spec(games: int = SMALL, seed: int = 1) -> RecordSpec:
    variant = repository_catalog().resolve(first_simulated())
    return RecordSpec(variant, ("random", "greedy"), games, seed)


def test_second_run_reads_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = simulate([spec()], cache_dir=tmp_path)[0]
    assert records_module.record_path(tmp_path, first["key"]).is_file()

    def refuse(*args: object, **kwargs: object) -> list[object]:
        if args and args[0]:
            raise AssertionError("a cached record was simulated again")
        return []

    monkeypatch.setattr(records_module, "run_requests", refuse)
    again = simulate([spec()], cache_dir=tmp_path)[0]
    assert again == first


def test_any_change_misses_the_cache(tmp_path: Path) -> None:
    base = spec()
    catalog = repository_catalog()
    changed_variant = with_change(
        base.variant,
        Change("pieces", 2 if base.variant.value("pieces") != 2 else 3),
        catalog.equipment,
    )
    changed = RecordSpec(
        changed_variant, base.agents, base.games, base.seed, (Change("pieces", 2),)
    )
    keys = {
        base.key,
        spec(games=SMALL + 1).key,
        spec(seed=2).key,
        RecordSpec(base.variant, ("greedy", "random"), SMALL, 1).key,
        changed.key,
    }
    assert len(keys) == 5
    record = simulate([base], cache_dir=tmp_path)[0]
    assert record["created_by"].startswith("ur-variants simulate ")
    assert record["games"] == SMALL
    for key in ("first_player_wins", "first_player_win_rate", "throws", "moves", "turns"):
        assert key in record["results"]


def test_the_engine_and_simulator_source_key_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached record is computed again after an edit of the code that plays it (its key is
    its data; the committed results' code half is their behaviour stamp)."""
    before = records_module.record_path(Path("cache"), spec().key)
    monkeypatch.setattr(records_module, "code_key", lambda *parts: "edited")
    after = records_module.record_path(Path("cache"), spec().key)
    assert after != before and spec().key in after.name


def test_a_damaged_cache_file_is_simulated_again(tmp_path: Path) -> None:
    record = simulate([spec()], cache_dir=tmp_path)[0]
    records_module.record_path(tmp_path, record["key"]).write_text("{not json")
    assert simulate([spec()], cache_dir=tmp_path)[0]["results"] == record["results"]


def test_jobs_one_and_two_give_identical_games() -> None:
    rules = spec().rules()
    requests = [
        RunRequest(rules, ("random", "random"), FAST_CHUNK * 2 + 7, 5),
        RunRequest(rules, ("safe", "random"), 50, 5),
    ]
    one = run_requests(requests, jobs=1)
    two = run_requests(requests, jobs=2)
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a.table, b.table)


def test_python_games_are_identical_for_any_jobs() -> None:
    rules = spec().rules()
    requests = [RunRequest(rules, ("expectimax-1", "random"), runner.PYTHON_CHUNK + 3, 5)]
    one = run_requests(requests, jobs=1)
    two = run_requests(requests, jobs=2)
    assert np.array_equal(one[0].table, two[0].table)


def test_simulate_command_json_and_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "variants").symlink_to(VARIANTS)
    variant = first_simulated()
    argv = ["--root", str(tmp_path), "simulate", variant, "--games", "200", "--jobs", "1"]
    assert main([*argv, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed[0]["variant"] == variant
    assert len(list((tmp_path / ".cache" / "sim").glob("*.json"))) == 1
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "first player wins %" in text and "seed 20261130" in text
    assert main([*argv, "--agents", "random,nobody"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def test_a_longer_run_extends_a_shorter_one_game_for_game(tmp_path: Path) -> None:
    played: records_module.Played = {}
    short, long = spec(games=SMALL // 3), spec(games=SMALL)
    extended = simulate([short], cache_dir=tmp_path / "a", played=played)
    extended += simulate([long], cache_dir=tmp_path / "a", played=played)
    direct = [simulate([s], cache_dir=tmp_path / "b")[0] for s in (short, long)]
    for got, want in zip(extended, direct, strict=True):
        assert got["results"] == want["results"]
        assert got["key"] == want["key"]


def test_first_game_offset_plays_the_same_games() -> None:
    rules = spec().rules()
    whole = run_requests([RunRequest(rules, ("random", "random"), 30, 5)])[0].table
    tail = run_requests([RunRequest(rules, ("random", "random"), 18, 5, first_game=12)])[0].table
    assert np.array_equal(tail, whole[12:])
