"""The claim checks' committed figures (results/claim-figures.json,
generator/claims/figures.py; issue 15 item 6): a cold build reads every sampled figure and
reachability tally from the file and plays no game; a figure whose key changed (other games, another
seed, changed rules) is computed again and named with the command that commits it; a damaged file is
reported (file and fix) and the checks compute instead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from generator.claims import reachability as reachability_module
from generator.claims.figures import (
    FIGURES_FILE,
    FIGURES_FORMAT,
    WRITE_COMMAND,
    committed_figures,
    committed_or_computed,
)
from generator.claims.reachability import EntryTally
from generator.claims.verdicts import UNCHECKED, CheckSettings
from generator.measure.claims import check_claims
from generator.measure.core import Settings
from generator.model.catalog_contents import Catalog
from generator.sim import fast, results_files

SAMPLED = ("game-minutes", "play-cannot-lock", "no-draw")
"""The checks that play games or enumerate positions."""


def refuse(*args: object, **kwargs: object) -> Any:
    raise AssertionError("a committed figure is stale or missing: the check computed it")


def refuse_to_compute(patch: pytest.MonkeyPatch) -> None:
    """Make the simulator, the reference engine's sampled games, the reachability count and
    the solver fail if called."""
    patch.setattr(fast, "play_games", refuse)
    patch.setattr(reachability_module, "entry_blocked_sampled", refuse)
    patch.setattr(reachability_module, "reachability", refuse)
    patch.setattr("generator.solver.solve.solve", refuse)


def settings(tmp_path: Path, said: list[str], seed: int | None = None) -> Settings:
    build = Settings(cache_root=tmp_path / "cache", log=said.append)
    return build if seed is None else Settings(build.cache_root, seed=seed, log=said.append)


def sampled_claims(catalog: Catalog) -> list[str]:
    return [c.id for v in catalog.variants.values() for c in v.claims if c.check in SAMPLED]


def test_a_cold_build_reads_every_figure_from_the_committed_file(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every claim is checked with an empty cache and nothing able to play: every figure is in
    the file and current (a changed rule shows here until ``ur-variants claims
    --write-results`` is run again), and the file says who wrote it."""
    assert sampled_claims(catalog), "no sampled claim: the committed figures check nothing"
    refuse_to_compute(monkeypatch)
    said: list[str] = []
    verdicts = check_claims(catalog, settings(tmp_path, said))
    assert [line for line in said if FIGURES_FILE.name in line] == [], said
    for claim in sampled_claims(catalog):
        assert verdicts[claim].verdict != UNCHECKED or verdicts[claim].check == "game-minutes"
    written = results_files.read_results(FIGURES_FILE, FIGURES_FORMAT)
    assert written is not None and written["command"].startswith(WRITE_COMMAND)
    assert all(written[key] for key in ("commit", "date", "machine"))


def made_up_games(packed: Any, light: int, dark: int, seed: int, first: int, games: int) -> Any:
    """Stand-in for the simulator: every game ends, after 40 to 49 throws."""
    table = np.zeros((games, fast.FIELDS), dtype=np.int64)
    table[:, fast.WINNER] = np.arange(games) % 2
    table[:, fast.THROWS] = 40 + np.arange(games) % 10
    return table


def test_a_stale_figure_is_computed_again_and_named(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another seed changes the sampled figures' keys (not the exhaustive tallies'): those
    figures are computed again, from the games played now, and each is reported with the
    command that commits it."""
    monkeypatch.setattr(fast, "play_games", made_up_games)
    monkeypatch.setattr(
        reachability_module, "entry_blocked_sampled", lambda rules, games, seed: (0, 9)
    )
    monkeypatch.setattr(reachability_module, "reachability", refuse)
    said: list[str] = []
    seed = Settings(cache_root=tmp_path).seed + 1
    verdicts = check_claims(catalog, settings(tmp_path, said, seed))
    stale = [line for line in said if FIGURES_FILE.name in line]
    assert stale and all(WRITE_COMMAND in line for line in stale)
    assert any("greedy games" in line for line in stale)
    minutes = [v for v in verdicts.values() if v.check == "game-minutes"]
    assert minutes
    for verdict in minutes:
        throws = [count.lengths.mean for count in verdict.finding.counts]
        assert throws and all(f"{t:.1f}" == "44.5" for t in throws)


def test_a_damaged_file_is_reported_and_read_as_empty(tmp_path: Path) -> None:
    """One figure altered behind the checksum: the file and the fix are named, nothing read."""
    data = json.loads(FIGURES_FILE.read_text())
    figure = next(iter(data["payload"]["figures"].values()))
    figure[next(iter(figure))] += 1
    damaged = tmp_path / FIGURES_FILE.name
    damaged.write_text(json.dumps(data))
    said: list[str] = []
    assert committed_figures(damaged, said.append) == {}
    assert len(said) == 1 and str(damaged) in said[0] and WRITE_COMMAND in said[0]
    assert committed_figures(tmp_path / "missing.json", said.append) == {}
    assert len(said) == 1, "a missing file is no damage: the checks compute quietly"


def test_a_figure_of_another_shape_is_not_read(tmp_path: Path) -> None:
    """A committed entry that is not exactly the figure's fields is computed instead."""
    key = "k"
    check = CheckSettings(10, 1, tmp_path, committed={key: {"blocked": 1}}, log=lambda text: None)
    tally = committed_or_computed(EntryTally, key, lambda: EntryTally(2, 5), check, "x")
    assert tally == EntryTally(2, 5)
