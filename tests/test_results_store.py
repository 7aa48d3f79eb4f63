"""The results store (:mod:`generator.sim.results_files`): a record's key is a digest of its
data, and a file's stamp a digest of what its code computes on pinned inputs. A changed
ruling, seed or code behaviour makes a result stale; a pure rename does not; a damaged file
is named; and no module but the store reads ``results/``."""

from __future__ import annotations

import ast
import dataclasses
import types
from pathlib import Path

import pytest
from conftest import ROOT

from generator.engine import behaviour, goldens
from generator.engine.rules import compile_rules
from generator.model.catalog_contents import Catalog
from generator.sim import rekey, suite_results
from generator.sim import results_files as store
from generator.sim.records import RecordSpec
from generator.solver.solve import checkpoint_key, rules_key

SUITE = store.KINDS["simulation-suite.json"]
NOW = {"engine": lambda: "e1", "kernel": lambda: "k1"}


def stamped_file(folder: Path, digests: store.Digests) -> Path:
    path = folder / SUITE.name
    made = store.provenance(folder, "a test", 0.0, store.stamp_of(SUITE, digests, None))
    store.write_results(path, suite_results.RESULTS_FORMAT, {"records": {}, **made})
    return path


def stale(path: Path, digests: store.Digests) -> str | None:
    return store.stale_file(SUITE, digests, path.parent, cache_dir=None)


def test_a_file_stamped_by_the_current_code_is_current(tmp_path: Path) -> None:
    assert stale(stamped_file(tmp_path, NOW), NOW) is None


def test_a_layer_computing_differently_makes_the_file_stale_and_names_the_fix(
    tmp_path: Path,
) -> None:
    path = stamped_file(tmp_path, NOW)
    problem = stale(path, {**NOW, "kernel": lambda: "k2"})
    assert problem is not None
    assert str(path) in problem and "kernel" in problem and "engine" not in problem
    assert f"ur-variants verify --stamp --files {SUITE.name}" in problem
    assert SUITE.writer in problem


def test_an_unstamped_file_is_stale(tmp_path: Path) -> None:
    path = tmp_path / SUITE.name
    store.write_results(path, suite_results.RESULTS_FORMAT, {"records": {}})
    assert "engine, kernel" in (stale(path, NOW) or "")


def test_restamping_keeps_every_figure_and_makes_the_file_current(tmp_path: Path) -> None:
    path = stamped_file(tmp_path, NOW)
    before = store.read_results(path, suite_results.RESULTS_FORMAT)
    later = {**NOW, "engine": lambda: "e2"}
    store.restamp(path, suite_results.RESULTS_FORMAT, store.stamp_of(SUITE, later, None))
    after = store.read_results(path, suite_results.RESULTS_FORMAT)
    assert before is not None and after is not None
    assert {k: v for k, v in after.items() if k != store.BEHAVIOUR} == {
        k: v for k, v in before.items() if k != store.BEHAVIOUR
    }
    assert stale(path, later) is None and stale(path, NOW) is not None


def test_a_damaged_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / SUITE.name
    path.write_text("{ not json", encoding="utf-8")
    said: list[str] = []
    assert suite_results.read_committed(path, said.append).records == {}
    assert said and str(path) in said[0] and suite_results.WRITE_COMMAND in said[0]
    with pytest.raises(ValueError, match=str(path)):
        store.restamp(path, suite_results.RESULTS_FORMAT, {})


def test_digests_are_computed_once_per_state_of_the_code(tmp_path: Path) -> None:
    calls: list[str] = []
    counted = {"engine": lambda: calls.append("e") or "e1"}
    for _ in range(2):
        assert store.current_digests(counted, ["engine"], tmp_path) == {"engine": "e1"}
    assert calls == ["e"]


# --- the engine's behaviour digest on the pinned rulebooks -------------------------------


def fresh_engine_digest() -> str:
    return behaviour.engine_digest.__wrapped__()  # type: ignore[attr-defined]


def test_a_changed_ruling_changes_the_behaviour_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    pinned = behaviour.pinned_rules()
    ruled = (dataclasses.replace(pinned[0], extra_throw_on_capture=True), *pinned[1:])
    assert ruled[0] != pinned[0]
    now = fresh_engine_digest()
    monkeypatch.setattr(behaviour, "pinned_rules", lambda: ruled)
    assert fresh_engine_digest() != now


def test_code_that_plays_differently_changes_the_digest_and_a_rename_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = fresh_engine_digest()
    original = goldens.next_level
    renamed = types.FunctionType(
        original.__code__, original.__globals__, "positions_one_ply_on", original.__defaults__
    )
    monkeypatch.setattr(goldens, "next_level", renamed)
    assert fresh_engine_digest() == now

    def drops_one(rules: object, level: set[object]) -> set[object]:
        found = original(rules, level)  # type: ignore[arg-type]
        return set(sorted(found, key=repr)[1:]) if len(found) > 1 else found

    monkeypatch.setattr(goldens, "next_level", drops_one)
    assert fresh_engine_digest() != now


def test_a_changed_seed_asks_for_another_record(catalog: Catalog) -> None:
    variant = catalog.resolve("finkel-english")
    keys = {RecordSpec(variant, ("random", "random"), 100, seed).key for seed in (1, 2)}
    assert len(keys) == 2


def test_a_changed_ruling_asks_for_another_record_and_solve(catalog: Catalog) -> None:
    base = catalog.resolve("finkel-english")
    other = catalog.resolve("masters-page")
    assert (
        RecordSpec(base, ("random",) * 2, 100, 1).key
        != RecordSpec(other, ("random",) * 2, 100, 1).key
    )
    assert rules_key(compile_rules(base), 1e-13) != rules_key(compile_rules(other), 1e-13)


def test_a_data_key_holds_no_version_of_the_code(catalog: Catalog) -> None:
    """The code half is the stamp: the same data keys the same record whatever the code's
    numbers, and only the migration makes the keys as they were."""
    spec = RecordSpec(catalog.resolve("finkel-english"), ("random",) * 2, 100, 1)
    with rekey.migrating() as renamed:
        old = dataclasses.replace(spec).key
    assert old != spec.key and renamed == {old: spec.key}


# --- the migration from hand-bumped versions ------------------------------------------------

# The first run the suite plans (Bell's rules, random against random, 40,000 games, the build's
# seed): its key in results/simulation-suite.json before the migration, and after.
BELL_OLD = "dd8126435d88c84c548309feb747ae188fb9cd958132c2b129f989a20dce60f9"
BELL_NEW = "6f324f7aa3e8594b7af633c31d59f15cd8b01df3493e346e824f4dd2797c9a00"


def test_the_migration_makes_the_old_keys_exactly_and_notes_the_new(catalog: Catalog) -> None:
    bell = catalog.resolve("bell-1960")
    spec = RecordSpec(bell, ("random", "random"), 40_000, 20261130)
    with rekey.migrating() as renamed:
        assert dataclasses.replace(spec).key == BELL_OLD
    assert renamed == {BELL_OLD: BELL_NEW} and spec.key == BELL_NEW
    records = suite_results.read_committed(SUITE.path, print).records
    assert BELL_NEW in records and BELL_OLD not in records


def test_the_checkpoint_folders_keep_the_rules_key_as_it_was(catalog: Catalog) -> None:
    rules = compile_rules(catalog.resolve("finkel-english"))
    with rekey.migrating():
        old = rules_key(rules, 1e-13)
    assert checkpoint_key(rules, 1e-13) == old != rules_key(rules, 1e-13)


def test_rekeying_replaces_keys_keeps_figures_and_names_a_damaged_file(tmp_path: Path) -> None:
    path = stamped_file(tmp_path, NOW)
    data = store.read_results(path, suite_results.RESULTS_FORMAT)
    assert data is not None
    store.write_results(
        path, suite_results.RESULTS_FORMAT, {**data, "records": {"old": {"key": "old", "n": 1}}}
    )
    assert store.rekey_file(path, {"old": "new"}) == 2
    after = store.read_results(path, suite_results.RESULTS_FORMAT)
    assert after is not None and after["records"] == {"new": {"key": "new", "n": 1}}
    path.write_text("{ not json", encoding="utf-8")
    with pytest.raises(ValueError, match=str(path)):
        store.rekey_file(path, {"old": "new"})


# --- one reader ---------------------------------------------------------------------------

READS = {"open", "load", "loads", "read_json", "read_text", "read_bytes"}
NAMES_RESULTS = ("RESULTS_DIR", "RESULTS_FILE", "FIGURES_FILE", "WORTH_FILE", "results_dir")


def reads_of_results(path: Path) -> list[str]:
    """``file:line`` of each call in ``path`` that reads a file named from the results folder."""
    source = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        text = ast.get_source_segment(source, node) or ""
        if name in READS and ("results" in text.lower() or any(n in text for n in NAMES_RESULTS)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text}")
    return found


def test_the_store_is_the_only_reader_of_the_results() -> None:
    store_module = Path(store.__file__).resolve()
    found = [
        line
        for path in sorted((ROOT / "generator").rglob("*.py"))
        if path.resolve() != store_module
        for line in reads_of_results(path)
    ]
    assert not found, "read results/ through generator.sim.results_files:\n" + "\n".join(found)


# --- the build's cheap check ----------------------------------------------------------------


def test_the_build_compares_only_the_digests_it_has_cheaply(
    monkeypatch: pytest.MonkeyPatch, catalog: Catalog, tmp_path: Path
) -> None:
    """The build computes the engine's digest and reads the others only when already computed
    (the solver's takes minutes to compile): an unknown layer is named as not compared."""
    from generator.measure import stamps
    from generator.measure.core import Settings

    committed = store.read_results(SUITE.path, suite_results.RESULTS_FORMAT)
    assert committed is not None
    engine = committed[store.BEHAVIOUR]["engine"]
    monkeypatch.setattr(stamps, "cached_digests", lambda: {})
    monkeypatch.setattr(stamps, "current_digests", lambda digests, names: {"engine": engine})
    said: list[str] = []
    assert stamps.stale_files(catalog, Settings(cache_root=tmp_path, log=said.append)) == []
    assert len(said) == 1 and "claims, kernel, solver digests are not computed" in said[0]
    monkeypatch.setattr(stamps, "current_digests", lambda digests, names: {"engine": "changed"})
    found = stamps.stale_files(catalog, Settings(cache_root=tmp_path, log=said.append))
    assert found and all("engine computed differently" in line for line in found)
