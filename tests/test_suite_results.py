"""The simulation suite's committed records (generator/sim/suite_results.py, issue 15 item 6):
a cold build reads every run whose key is in results/simulation-suite.json and plays none of
them; a changed ruling changes its rulebook's keys, so exactly those runs are played again; a
damaged file is reported (file and fix) and the build simulates instead."""

from __future__ import annotations

import dataclasses
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import VARIANTS

from generator.measure.core import Results, Settings
from generator.measure.suite import SUITE, run_suite, suite_problems
from generator.model.catalog_contents import Catalog
from generator.model.variant import ResolvedVariant
from generator.sim import fast, suite_results
from generator.sim import records as records_module
from generator.sim import suite as suite_module
from generator.sim.cache_files import write_json
from generator.sim.runner import RunRequest, RunResult
from generator.sim.suite import Suite, simulated_variants
from generator.sim.variation import Change, alternatives, canonical, with_change
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.statistics_page import METHOD_PAGE, statistics_files

Played = list[RunRequest]


def refuse_to_play(requests: Sequence[RunRequest], **kwargs: object) -> list[RunResult]:
    if requests:
        raise AssertionError(f"the build simulated {len(requests)} runs the file holds")
    return []


def made_up_games(requests: Sequence[RunRequest], asked: Played, **kwargs: Any) -> list[RunResult]:
    """Stand-in for the simulator: notes what it was asked to play and returns games of a fixed
    made-up shape (finished, alternate winners), so the records can be built and checked."""
    asked.extend(requests)
    results = []
    for i, request in enumerate(requests):
        game = np.arange(request.first_game, request.first_game + request.games)
        table = np.zeros((request.games, fast.FIELDS), dtype=np.int64)
        table[:, fast.WINNER] = game % 2
        table[:, fast.EXTRAS] = game % 3
        table[:, fast.THROWS] = 60 + game % 17
        table[:, fast.TURNS] = table[:, fast.THROWS] - table[:, fast.EXTRAS]
        table[:, fast.MOVES] = 50 + game % 13
        result = RunResult(table, 0.0)
        on_result = kwargs.get("on_result")
        if on_result is not None:
            on_result(i, result)
        results.append(result)
    return results


def settings(tmp_path: Path, said: list[str]) -> Settings:
    return Settings(cache_root=tmp_path / "cache", log=said.append)


@pytest.fixture(scope="module")
def committed_suite(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Suite:
    """The build's suite from the committed file, with an empty cache and no simulator."""
    said: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(records_module, "run_requests", refuse_to_play)
        suite = run_suite(catalog, settings(tmp_path_factory.mktemp("cold"), said))
    assert [line for line in said if "not in" in line] == [], said
    return suite


def test_a_cold_build_reads_every_run_from_the_committed_file(
    catalog: Catalog, committed_suite: Suite
) -> None:
    """Every run the site needs is in the file and current (a changed rule shows here until
    ``ur-variants suite --write-results`` is run again), and its figures check."""
    assert sorted(committed_suite.baseline) == sorted(v.id for v in simulated_variants(catalog))
    assert committed_suite.effects
    assert suite_problems(committed_suite) == []
    committed = suite_results.read_committed().records
    assert {r["key"] for r in committed_suite.records()} == set(committed)
    assert committed_suite.uncommitted == []
    assert committed_suite.committed_by is not None
    assert committed_suite.committed_by["command"].startswith(suite_results.WRITE_COMMAND)


def test_a_sensitivity_record_keeps_what_pages_read(committed_suite: Suite) -> None:
    """Baselines are whole (the rulebook pages print their distributions); a changed run keeps
    its games, seed and the two figures its effect is computed from."""
    for record in committed_suite.baseline.values():
        assert "histogram" in record["results"]["throws"]
    played = [e for e in committed_suite.effects if not e.same_game]
    for effect in played:
        assert effect.changed["games"] > 0 and effect.changed["seed"] == committed_suite.seed
        assert effect.win_rate["low"] <= effect.win_rate["estimate"] <= effect.win_rate["high"]
        assert effect.throws["low"] <= effect.throws["estimate"] <= effect.throws["high"]
        assert "histogram" not in effect.changed["results"]["throws"]


def changed_ruling(catalog: Catalog) -> tuple[str, Change]:
    """A simulated rulebook and a ruling answered as another rulebook answers it (so the
    sensitivity runs of the other rulebooks are the same runs)."""
    variants = simulated_variants(catalog)
    for question, values in alternatives(catalog, variants).items():
        for variant in variants:
            if question in variant.rulings:
                own = canonical(variant.value(question))
                others = [v for v in values if canonical(v) != own]
                if others:
                    return variant.id, Change(question, others[0])
    raise AssertionError("no two simulated rulebooks disagree on any ruling")


def test_a_changed_ruling_plays_that_rulebook_again_and_only_it(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book, change = changed_ruling(catalog)
    original = simulated_variants

    def with_the_ruling_changed(catalog: Catalog) -> list[ResolvedVariant]:
        return [
            with_change(v, change, catalog.equipment) if v.id == book else v
            for v in original(catalog)
        ]

    monkeypatch.setattr(suite_module, "simulated_variants", with_the_ruling_changed)
    asked: Played = []
    monkeypatch.setattr(records_module, "run_requests", lambda r, **k: made_up_games(r, asked, **k))
    said: list[str] = []
    suite = run_suite(catalog, settings(tmp_path, said))
    assert asked, "the changed rulebook was not played again"
    committed = suite_results.read_committed().records
    replayed = [r for r in suite.records() if r["key"] not in committed]
    assert {r["variant"] for r in replayed} == {book}
    assert suite.baseline[book]["key"] not in committed
    assert suite.uncommitted == [book]
    [stale] = [line for line in said if "not in" in line]
    assert book in stale and suite_results.WRITE_COMMAND in stale


def damaged_copy(tmp_path: Path) -> Path:
    """The committed file with one figure altered behind its checksum."""
    text = suite_results.RESULTS_FILE.read_text()
    data = json.loads(text)
    record = next(iter(data["payload"]["records"].values()))
    record["games"] += 1
    path = tmp_path / "simulation-suite.json"
    path.write_text(json.dumps(data))
    return path


def test_a_damaged_file_is_reported_and_the_build_simulates(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = damaged_copy(tmp_path)
    monkeypatch.setattr(suite_results, "RESULTS_FILE", damaged)
    asked: Played = []
    monkeypatch.setattr(records_module, "run_requests", lambda r, **k: made_up_games(r, asked, **k))
    said: list[str] = []
    suite = run_suite(catalog, settings(tmp_path, said))
    assert str(damaged) in said[0] and suite_results.WRITE_COMMAND in said[0]
    assert any("runs are not in" in line for line in said[1:])
    assert sum(r.games for r in asked) > 0
    assert sorted(suite.baseline) == sorted(v.id for v in simulated_variants(catalog))


def test_an_impossible_committed_record_is_left_out_and_named(tmp_path: Path) -> None:
    data = json.loads(suite_results.RESULTS_FILE.read_text())["payload"]
    key, record = next(iter(data["records"].items()))
    record["results"]["first_player_win_rate"]["estimate"] = 1.5
    path = tmp_path / "simulation-suite.json"
    write_json(path, data)
    said: list[str] = []
    records = suite_results.read_committed(path, said.append).records
    assert key not in records and len(records) == len(data["records"]) - 1
    assert len(said) == 1 and key in said[0] and str(path) in said[0]


def method_page(catalog: Catalog, suite: Suite) -> str:
    ctx = SiteContext(catalog, None, load_editions(VARIANTS))
    files = statistics_files(ctx, Results(suite.seed, {SUITE.name: suite})).files
    return html.unescape(str(files[METHOD_PAGE]))


def test_the_method_page_names_the_command_and_any_rulebook_the_build_played(
    catalog: Catalog, committed_suite: Suite
) -> None:
    """The statistics method page says which command recorded the suite's games, at which
    commit, and which rulebooks the build played itself because their rules changed since."""
    assert committed_suite.committed_by is not None
    page = method_page(catalog, committed_suite)
    recorded = f"are recorded by `{committed_suite.committed_by['command']}`"
    assert recorded in page and committed_suite.committed_by["commit"] in page
    assert "and played the runs of" not in page
    book = sorted(committed_suite.baseline)[0]
    stale = dataclasses.replace(committed_suite, uncommitted=[book])
    page = method_page(catalog, stale)
    assert f"and played the runs of {catalog.variants[book].short} itself" in page
