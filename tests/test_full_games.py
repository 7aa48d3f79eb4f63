"""The full games (results/full-games.json): the committed records' layout and fingerprints,
every rulebook on the 14-square route (and Masters) solved or listed as pending, the command
adding one rulebook without redoing the others, a stale record shown as not yet solved, and
(opt-in, ``UR_SOLVE_FULL=1``) the cheapest recorded game solved again and compared."""

from __future__ import annotations

import dataclasses
import html
import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import ROOT, VARIANTS, rules_for

from generator.cli import main
from generator.measure.core import Results, Settings
from generator.measure.full_games import FULL_GAMES, full_game_problems, read_full_games
from generator.measure.solve_plan import SOLVE_PLAN, read_solve_plan
from generator.measure.suite import SUITE
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.sim.suite import Suite
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.full_games_view import full_games_view, machine_words
from generator.site.render import environment
from generator.site.statistics_page import statistics_files
from generator.solver import bellman_check, full_games
from generator.solver.behaviour import estimate_digest
from generator.solver.full_games import FullGame, fingerprint, status
from generator.solver.solve import solve, with_pieces
from generator.words import number_word

FIXTURE = ROOT / "tests" / "data" / "site" / "variants"
MASTERS = "royalur-masters"
PROVENANCE = ("command", "commit", "date", "machine", "processor", "cores", "memory_bytes")


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    results = full_games.read_results()
    assert results is not None, "results/full-games.json is missing: run ur-variants full-games"
    return results


def test_committed_records_are_current_and_complete(
    catalog: Catalog, committed: dict[str, Any]
) -> None:
    """Each record's fingerprint is its rulebook's rules now, its figures are possible, and it
    says who computed it, when and on what machine."""
    games = full_games.full_games(catalog)
    assert committed["solved"], "no full game recorded"
    for vid, data in committed["solved"].items():
        record = FullGame.from_dict(data)
        assert record.variant == vid and record.key == fingerprint(games[vid])
        assert record.pieces == games[vid].pieces
        assert 0 < record.first_player < 1 and record.states > 0 and record.memory_bytes > 0
        assert record.expected_throws is None or record.expected_throws >= 1
        assert (record.solver_version is None) == (record.engine_version is None)
        assert all(record.provenance[key] for key in PROVENANCE), record.provenance
        assert record.provenance["command"].startswith("ur-variants full-games ")
        if record.same_game_as is not None:
            source = FullGame.from_dict(committed["solved"][record.same_game_as])
            assert source.key == record.key and source.same_game_as is None
            assert record == full_games.copied(source, vid), f"{vid} lags {source.variant}"
    assert not full_game_problems(status(games, committed))


def test_rulebooks_worded_differently_for_one_game_share_a_fingerprint(catalog: Catalog) -> None:
    """Finkel's English reading calls only the middle row a capture zone, RoyalUr.net's every
    square, and only the middle row is ever contested: one game, one fingerprint, one solve.
    Another throw earning a second throw (Finkel's Great Book) is another game."""
    games = full_games.full_games(catalog)
    assert games["finkel-english"] != games["royalur-finkel"]
    assert fingerprint(games["finkel-english"]) == fingerprint(games["royalur-finkel"])
    assert fingerprint(games["french-digital"]) == fingerprint(games["royalur-finkel"])
    assert fingerprint(games["finkel-great-book"]) != fingerprint(games["royalur-finkel"])


def test_one_fingerprint_solves_to_one_value(catalog: Catalog) -> None:
    """The shared fingerprint holds for the solver: with three pieces a side, both wordings
    solve to the same value and the same expected length, to the last bit."""
    games = full_games.full_games(catalog)
    english, royal = (with_pieces(games[vid], 3) for vid in ("finkel-english", "royalur-finkel"))
    assert fingerprint(english) == fingerprint(royal)
    a, b = (solve(rules, cache_dir=None) for rules in (english, royal))
    assert a.start_value == b.start_value and a.expected_throws == b.expected_throws
    great = solve(with_pieces(games["finkel-great-book"], 3), cache_dir=None)
    assert great.start_value != a.start_value


def test_every_rulebook_on_the_14_square_route_and_masters_is_solved_or_pending(
    catalog: Catalog, committed: dict[str, Any]
) -> None:
    """Present with a current record, or listed as pending with its size counted for the
    current rules: none is silently missing."""
    games = full_games.full_games(catalog)
    wanted = {vid for vid, rules in games.items() if rules.route_length == 14} | {MASTERS}
    found = status(games, committed)
    for vid in sorted(wanted):
        assert vid in found.solved or found.pending.get(vid) is not None, (
            f"{vid}: neither solved nor pending in results/full-games.json;"
            f" ur-variants full-games brings the list up to date"
        )
    assert set(committed["solved"]) | set(committed["pending"]) == set(games)


def test_published_full_games_agree(committed: dict[str, Any]) -> None:
    """Where a published value exists for a recorded game, the solve gives it to every
    published decimal."""
    for data in committed["solved"].values():
        record = FullGame.from_dict(data)
        if record.published:
            digits = record.published["decimals"]
            assert 100 * record.first_player == pytest.approx(
                100 * record.published["value"], abs=0.5 * 10**-digits
            )


def test_a_copy_follows_its_source_solved_again(committed: dict[str, Any]) -> None:
    """A rulebook's copy of another's record takes the source's new figures (a game solved
    again with ``--again``); a copy whose source now plays another game is left alone."""
    source = next(
        FullGame.from_dict(r) for r in committed["solved"].values() if not r["same_game_as"]
    )
    stale = dataclasses.replace(full_games.copied(source, "copy"), solve_seconds=-1.0)
    other = dataclasses.replace(stale, variant="other", key="another game")
    solved = {r.variant: r.as_dict() for r in (source, stale, other)}
    followed = full_games.follow_sources(solved)
    assert followed["copy"] == full_games.copied(source, "copy").as_dict()
    assert followed["other"] == other.as_dict() and followed[source.variant] == source.as_dict()


def _project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "variants")
    return tmp_path


def _output(root: Path) -> Path:
    return root / "results" / "full-games.json"


def _solved_fixture(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A project of the fixture rulebooks with ``fixture-game`` solved by the command, and
    the results file it wrote."""
    root = _project(tmp_path)
    assert main(["--root", str(root), "full-games", "fixture-game"]) == 0
    results = full_games.read_results(_output(root))
    assert results is not None
    return root, results


def test_the_command_adds_a_rulebook_and_keeps_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, first = _solved_fixture(tmp_path)
    output = _output(root)
    assert f"written to {output}" in capsys.readouterr().out
    assert set(first["solved"]) == {"fixture-game"} and set(first["pending"]) == {"fixture-child"}
    solved = first["solved"]["fixture-game"]
    assert solved["provenance"]["command"] == "ur-variants full-games fixture-game"
    assert main(["--root", str(root), "full-games", "fixture-child"]) == 0
    second = full_games.read_results(output)
    assert second is not None and second["pending"] == {}
    assert second["solved"]["fixture-game"] == solved  # not redone
    child = second["solved"]["fixture-child"]
    if child["key"] == solved["key"]:
        assert child["same_game_as"] == "fixture-game"
    assert second["command"] == "ur-variants full-games fixture-child"
    assert main(["--root", str(root), "full-games", "fixture-game"]) == 0
    assert "already solved" in capsys.readouterr().err
    del second["solved"]["fixture-child"]
    full_games.write_results(output, second)
    assert main(["--root", str(root), "full-games"]) == 0  # the pending list brought up to date
    third = full_games.read_results(output)
    assert third is not None and set(third["pending"]) == {"fixture-child"}


def test_check_reads_the_cached_solve_and_steps_it_with_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--check`` solves nothing: it reads a solved rulebook's solve from the cache, compares
    its start with the record and checks the stored figures one step against the reference
    engine; a rulebook named without a record, or without its solve in the cache, is not
    checked (exit 2)."""
    root, _ = _solved_fixture(tmp_path)
    capsys.readouterr()
    check = ["--root", str(root), "full-games", "--check", "--positions", "40", "--seed", "5"]
    assert main([*check, "fixture-game"]) == 0
    out = capsys.readouterr().out
    assert "seed 5" in out and "as recorded; 40 positions checked" in out and out.endswith("ok\n")
    assert main([*check, "fixture-child"]) == 2
    assert "fixture-child: no current record" in capsys.readouterr().err
    shutil.rmtree(root / ".cache" / "solve")
    assert main([*check, "fixture-game"]) == 2
    assert "fixture-game: no complete solve" in capsys.readouterr().out
    assert not (root / ".cache" / "solve").exists(), "a check never solves"


def test_a_game_solved_on_two_workers_is_recorded_as_one_process_records_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--workers 2`` solves the fixture game on a local cluster and records it: the same
    figures as one process (within the tolerance: the workers start from 1/2), every worker's
    processor time, the busiest worker's peak, the workers in the provenance and in words;
    ``--check`` reads the cluster's whole solution, and refuses it once a value is changed;
    a bad host is refused before any start."""
    root, alone = _solved_fixture(tmp_path)
    output = _output(root)
    single = alone["solved"]["fixture-game"]
    on_two = ["--root", str(root), "full-games", "fixture-game", "--workers", "2"]
    assert main(on_two) == 0
    assert "already solved" in capsys.readouterr().err  # a current record is kept
    assert main([*on_two, "--again"]) == 0
    capsys.readouterr()
    results = full_games.read_results(output)
    assert results is not None
    record = full_games.FullGame.from_dict(results["solved"]["fixture-game"])
    assert record.first_player == pytest.approx(single["first_player"], abs=1e-12)
    assert record.expected_throws == pytest.approx(single["expected_throws"], abs=1e-9)
    assert (record.states, record.pieces) == (single["states"], single["pieces"])
    provenance = record.provenance
    assert provenance["command"] == "ur-variants full-games fixture-game --workers 2"
    assert provenance["workers"] == 2 and provenance["process_peak_bytes"] > 2**20
    assert record.cpu_seconds > 0 and results["command"] == provenance["command"]
    assert machine_words(provenance).startswith("a ")  # the launching machine
    catalog = load_valid_catalog(root / "variants")
    shown = Results(
        0, {FULL_GAMES.name: full_games.status(full_games.full_games(catalog), results)}
    )
    pages = statistics_files(SiteContext(catalog, None, load_editions(VARIANTS)), shown)
    assert "(the busiest of 2 workers)" in str(pages.files["statistics/method.md"])
    assert "on 2 workers sharing a " in str(pages.files["statistics/index.md"])
    check = ["--root", str(root), "full-games", "--check", "--positions", "30", "--seed", "2"]
    assert main([*check, "fixture-game"]) == 0
    assert capsys.readouterr().out.endswith("ok\n")
    (values,) = (root / ".cache" / "solve" / "cluster").glob("*.workers2/values.npy")
    damaged = bytearray(values.read_bytes())
    damaged[-1] ^= 1  # one bit of the last state's value
    values.write_bytes(damaged)
    assert main([*check, "fixture-game"]) == 2  # a changed value is not checked, nor read
    assert "do not match the checksum in solution.json" in capsys.readouterr().err
    bad = ["--workers", "2", "--address", "localhost,nosuchhost.invalid"]
    assert main(["--root", str(root), "full-games", "fixture-game", *bad]) == 2
    assert "'nosuchhost.invalid' is not known" in capsys.readouterr().err
    assert main(["--root", str(root), "full-games", "fixture-game", "--address", "h"]) == 2


def test_a_stored_value_off_by_a_hair_fails_the_engine_step() -> None:
    """One position's stored chance moved by 1e-9 (a hundred times the allowed gap): the
    one-step check at that position fails; the table as solved passes."""
    solution = solve(with_pieces(rules_for("royalur-finkel"), 2), cache_dir=None)
    positions = bellman_check.positions_met(solution.rules, seed=2, count=50)
    assert bellman_check.gaps(solution, positions).hold
    values = np.array(solution.values, copy=True)
    values[solution.index(positions[7])] += 1e-9
    damaged = dataclasses.replace(solution, values=values)
    found = bellman_check.gaps(damaged, [positions[7]])
    assert not found.hold and found.value == pytest.approx(1e-9, rel=1e-3)


def test_a_size_counted_by_an_older_memory_estimate_is_counted_again(tmp_path: Path) -> None:
    """A pending rulebook's memory was counted by the solver's estimate of the time: once the
    estimate counts otherwise (its digest on pinned games differs), the size is no longer
    current and the next run counts it again instead of keeping the old figure."""
    root, first = _solved_fixture(tmp_path)
    output = _output(root)
    counted = first["pending"]["fixture-child"]
    assert counted["estimate_digest"] == estimate_digest() and counted["memory_bytes"] > 1
    # As an estimate that counted otherwise wrote it.
    old = {**counted, "estimate_digest": "0" * 64, "memory_bytes": 1}
    first["pending"]["fixture-child"] = old
    full_games.write_results(output, first)
    catalog = load_valid_catalog(root / "variants")
    assert status(full_games.full_games(catalog), first).pending["fixture-child"] is None
    assert main(["--root", str(root), "full-games"]) == 0
    again = full_games.read_results(output)
    assert again is not None and again["pending"]["fixture-child"] == counted


def test_a_run_keeps_what_another_run_saved_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs at once (say, a long solve and a short one): each adds its record to the file
    as it is on disk when it saves, so neither loses the other's."""
    root = _project(tmp_path)
    output = _output(root)
    solve_one = full_games.solve_full_game

    def meanwhile(vid: str, *args: Any, **kwargs: Any) -> FullGame:
        if vid == "fixture-game":  # while it solves, another run saves fixture-child
            assert main(["--root", str(root), "full-games", "fixture-child"]) == 0
        return solve_one(vid, *args, **kwargs)

    monkeypatch.setattr(full_games, "solve_full_game", meanwhile)
    assert main(["--root", str(root), "full-games", "fixture-game"]) == 0
    saved = full_games.read_results(output)
    assert saved is not None and set(saved["solved"]) == {"fixture-game", "fixture-child"}
    assert saved["pending"] == {}


def test_a_record_names_the_commit_its_solve_started_from(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long solve's record names the checkout as it was when the solve started, not as it
    is when the solve ends (the checkout may move on meanwhile)."""
    from generator.commands import full_games as command
    from generator.sim import results_files

    at_start = command._provenance_at_start(ROOT, "ur-variants full-games x")
    monkeypatch.setattr(
        results_files, "provenance", lambda *args: pytest.fail("asked again at the end")
    )
    record = at_start(12.34)
    assert record["command"] == "ur-variants full-games x" and record["wall_seconds"] == 12.3
    assert record["commit"] and record["date"]


def test_a_stale_record_is_shown_as_not_yet_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record whose rules changed since it was computed is not published as the rulebook's
    value: the page says when it was solved and that the rules changed; the build logs it."""
    root, results = _solved_fixture(tmp_path)
    results["solved"]["fixture-game"]["key"] = "0" * 64
    catalog = load_valid_catalog(root / "variants")
    monkeypatch.setattr(full_games, "read_results", lambda: results)
    logged: list[str] = []
    found = read_full_games(catalog, Settings(cache_root=tmp_path, log=logged.append))
    assert any("fixture-game" in line and "rules changed" in line for line in logged)
    assert "fixture-game" in found.stale and "fixture-game" in found.pending
    assert "fixture-game" not in found.solved and not full_game_problems(found)
    line = full_games_view(found, sorted(catalog.variants)).by_variant["fixture-game"]
    text = (
        environment()
        .from_string('{% import "_full_games.md.j2" as fg %}{{ fg.rulebook_line(line, link) }}')
        .render(line=line, link=lambda target: target)
    )
    value = f"{100 * results['solved']['fixture-game']['first_player']:.4f}"
    assert "not yet solved" in text and "rules have changed since" in text
    assert value not in text


def test_an_impossible_full_game_figure_stops_the_build(committed: dict[str, Any]) -> None:
    data = next(iter(committed["solved"].values()))
    bad = FullGame.from_dict({**data, "first_player": 1.5})
    found = full_games.Status({bad.variant: bad}, {}, {})
    assert any("is not a chance" in p for p in full_game_problems(found))


def test_the_results_file_is_a_checksummed_envelope(committed: dict[str, Any]) -> None:
    envelope = json.loads(full_games.RESULTS_FILE.read_text())
    assert envelope["payload"]["results_format"] == full_games.RESULTS_FORMAT
    assert set(envelope) == {"format", "sha256", "payload"}


def test_the_statistics_pages_say_what_the_full_games_show(
    catalog: Catalog, committed: dict[str, Any]
) -> None:
    """Conclusions in words on the statistics page (every solved game's value, every rulebook
    not yet solved named), the commands on the method page, a line on each rulebook page."""
    found = status(full_games.full_games(catalog), committed)
    results = Results(0, {FULL_GAMES.name: found})
    figures = statistics_files(SiteContext(catalog, None, load_editions(VARIANTS)), results)
    page = html.unescape(str(figures.files["statistics/index.md"]))
    section = page[page.index("## The full games") :]
    for record in found.solved.values():
        if record.same_game_as is None:
            assert f"first player wins {100 * record.first_player:.2f} % of" in section
    for vid in found.pending:
        assert f"[{catalog.variants[vid].short}]" in section, vid
    for workshop in ("ur-variants", "results/", "Positions", "Memory", "statistics/method"):
        assert workshop not in section, f"{workshop!r} belongs on the page for implementers"
    # Who else publishes a value is named as a reader knows them, not by a code repository.
    assert "publish 51.5404732509 %" in section
    assert "game_of_ur" not in section and "Olieslagers/" not in section
    method = html.unescape(str(figures.files["statistics/method.md"]))
    for record in found.solved.values():
        if record.same_game_as is None:
            assert f"`{record.provenance['command']}`" in method
    # Beside the solver's estimate, each game's measured peak, or words where it was not measured.
    unmeasured = [
        r
        for r in found.solved.values()
        if r.same_game_as is None and not r.provenance.get("process_peak_bytes")
    ]
    assert method.count("not measured (read from an earlier solve)") == len(unmeasured)
    assert "Peak memory (measured)" in method
    # An estimate that left the process out says so; one that counts it does not.
    computed = [r for r in found.solved.values() if r.same_game_as is None]
    older = [r for r in computed if not r.estimate_counts_process]
    assert older and method.count("(arrays only)") == len(older)
    for vid, record in found.solved.items():
        assert figures.per_variant[vid]["full_game"]["game"].record.first_player == (
            record.first_player
        )
    # The games too large for one machine lead to the costed plan, where one is committed.
    assert "#past-one-machine" not in section
    plan = read_solve_plan(catalog, Settings(cache_root=ROOT / ".cache", log=lambda _: None))
    assert plan is not None and plan.games, "results/solve-plan.json: run ur-variants solve --plan"
    planned = statistics_files(
        SiteContext(catalog, None, load_editions(VARIANTS)),
        Results(0, {FULL_GAMES.name: found, SOLVE_PLAN.name: plan}),
    )
    page = html.unescape(str(planned.files["statistics/index.md"]))
    too_large = next(line for line in page.splitlines() if "**Too large to solve:**" in line)
    assert too_large.endswith("and what it would cost](method.md#past-one-machine).")


def test_each_rulebooks_conclusion_gives_its_full_game_where_solved(
    catalog: Catalog, committed: dict[str, Any], tiny_suite: Suite
) -> None:
    """The statistics page's line on each game gives the full game's perfect-play value where
    that game is solved, not a smaller game's; the others keep their largest solve with fewer
    pieces, said as such."""
    found = status(full_games.full_games(catalog), committed)
    results = Results(0, {FULL_GAMES.name: found, SUITE.name: tiny_suite})
    figures = statistics_files(SiteContext(catalog, None, load_editions(VARIANTS)), results)
    page = html.unescape(str(figures.files["statistics/index.md"]))
    lines = page[page.index("### Rulebook by rulebook") : page.index("## The players")]
    solved_lines = 0
    for finding in figures.findings:
        short = finding.variants[0].short
        line = next(x for x in lines.splitlines() if x.startswith(f"- **[{short}]"))
        record = found.solved.get(finding.variants[0].id)
        if record is not None:
            solved_lines += 1
            pieces, wins = number_word(record.pieces), f"{100 * record.first_player:.2f} %"
            assert f"full game with {pieces} pieces a side, the first player wins {wins}" in line
            assert "(not " not in line, line
        elif finding.perfect is not None and finding.perfect.pieces != finding.pieces:
            assert f"a side (not {finding.pieces})" in line, line
    assert solved_lines >= 4, "fewer solved games than committed: the test checks little"


SOLVE_FULL = os.environ.get("UR_SOLVE_FULL") == "1"


@pytest.mark.skipif(
    not SOLVE_FULL,
    reason="solving a full game takes seconds to hours; UR_SOLVE_FULL=1 solves the smallest"
    " recorded one again (without the solve cache) and compares",
)
def test_the_cheapest_full_game_solves_again_to_its_record(
    catalog: Catalog, committed: dict[str, Any]
) -> None:
    games = full_games.full_games(catalog)
    records = [FullGame.from_dict(d) for d in committed["solved"].values()]
    cheapest = min((r for r in records if r.same_game_as is None), key=lambda r: r.states)
    again = solve(games[cheapest.variant], tolerance=full_games.TOLERANCE, cache_dir=None)
    assert again.states == cheapest.states
    assert again.start_value == pytest.approx(cheapest.first_player, abs=1e-12)
    assert cheapest.expected_throws is not None
    assert again.expected_throws == pytest.approx(cheapest.expected_throws, abs=1e-9)


def test_a_processor_is_named_in_words() -> None:
    from generator.site.full_games_view import processor_words

    assert processor_words("Intel(R) Xeon(R) Processor") == "Intel Xeon"
    assert (
        processor_words("Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz")
        == "Intel Core i7-8550U @ 1.80GHz"
    )
    assert processor_words("AMD EPYC") == "AMD EPYC"


def test_a_change_into_another_solved_game_has_its_exact_full_effect(
    catalog: Catalog, committed: dict[str, Any], tmp_path: Path, tiny_suite: Suite
) -> None:
    """A one-ruling change whose changed rules play a game solved in full (under any
    rulebook's name) gets the difference of the two solves: Finkel with the Great Book's extra
    throw on a 4 plays the Great Book's game; a change into an unsolved game gets nothing. The
    statistics page lists each such change once per effect, and a pair page whose rulebooks
    are both solved gives both values."""
    found = read_full_games(catalog, Settings(cache_root=tmp_path))
    solved = found.solved
    four = found.changes[("royalur-finkel", "throw-extra-throw", "[4]")]
    assert four.changed.key == solved["finkel-great-book"].key
    expected = solved["finkel-great-book"].first_player - solved["royalur-finkel"].first_player
    assert four.first_player == expected and four.changes_the_game
    assert ("royalur-finkel", "route", '"murray-ludii"') not in found.changes
    for (vid, _, _), effect in found.changes.items():
        assert effect.baseline == solved[vid]
        assert effect.changes_the_game == (effect.baseline.key != effect.changed.key)

    # a rulebook page gives its figures in the fold that opens on its sampled games
    results = Results(0, {FULL_GAMES.name: found, SUITE.name: tiny_suite})
    ctx = SiteContext(catalog, None, load_editions(VARIANTS))
    figures = statistics_files(ctx, results)
    page = html.unescape(str(figures.files["statistics/index.md"]))
    table = page[page.index("### One ruling changed, in the full game") :]
    table = table[: table.index("\n\n", table.index("|---"))]
    row = next(line for line in table.splitlines() if "Extra throw on a given throw: 4" in line)
    assert f"| 7 | {100 * expected:+.3f} points |" in row
    assert "[Finkel (English page)]" in row and "[RoyalUr Finkel]" in row
    assert sum("Extra throw on a given throw: 4" in line for line in table.splitlines()) == 1

    from generator.site.compare_pages import Comparer, pair_pages

    pages = pair_pages(ctx, Comparer(ctx), figures.per_variant, {})
    pair = html.unescape(pages["compare/finkel-english--finkel-great-book.md"])
    short = pair[pair.index("In short") : pair.index("## What differs")]
    english, book = solved["finkel-english"], solved["finkel-great-book"]
    assert (
        f"the first player wins {100 * english.first_player:.3f} % in Finkel (English page)"
        f" against {100 * book.first_player:.3f} % in Finkel (Great Book)" in short
    )
    assert f"| First player wins, perfect play | {100 * english.first_player:.4f} % |" in pair
    same = html.unescape(pages["compare/finkel-english--finkel-spanish.md"])
    assert "Both full games are solved" not in same, "one game: nothing to compare"

    from generator.site.variant_pages import variant_pages

    throws = book.expected_throws - english.expected_throws  # type: ignore[operator]
    rulebook = html.unescape(variant_pages(ctx, figures.per_variant)["variants/finkel-english.md"])
    assert (
        f"changed to 4, the first player's chance {100 * expected:+.3f} points and a game"
        f" {abs(throws):.1f} throws shorter." in rulebook
    )


def test_the_estimate_digest_follows_what_the_estimate_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pending size is current while the estimate counts as it did (no version to bump): the
    digest is the same computed twice, and another allowance for the process changes it."""
    from generator.solver import solve_estimate

    now = estimate_digest()
    assert estimate_digest.__wrapped__() == now
    monkeypatch.setattr(solve_estimate, "PROCESS_BYTES", solve_estimate.PROCESS_BYTES + 1)
    assert estimate_digest.__wrapped__() != now
