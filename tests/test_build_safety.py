"""A build loses nothing it did not make, publishes a readable site, cleans up after itself,
runs alone, and takes its children with it when it is stopped or killed (issue 10).

Most cases call the pieces directly and take milliseconds. Stopped builds run mkdocs on a
one-page project whose build a hook holds up, so the signal always lands while mkdocs runs;
the whole build's stamp, modes and clean-up are checked in tests/test_site_build.py.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import repository_catalog

from generator.build import BuildError, BuildOptions, build
from generator.cli import main
from generator.site.cite import epoch_date, release_date
from generator.site.site_folder import (
    STAMP,
    SiteFolderError,
    build_lock,
    check_site_folder,
    clear_leftovers,
    new_staging,
    publish,
)

PROJECT = Path(__file__).resolve().parent.parent
ENVIRONMENT = {"SOURCE_DATE_EPOCH": "1764460800", "SITE_URL": "http://127.0.0.1:8000/"}


def build_command(root: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "generator",
        "--root",
        str(root),
        "build",
        "--no-simulate",
        *extra,
    ]


def run_build(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        build_command(root, *extra),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **ENVIRONMENT},
    )


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "variants").mkdir()
    (root / "variants" / "a.yml").write_text("kept: true\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Hand-written\n", encoding="utf-8")
    (root / ".git").mkdir()
    return root


# What a build may replace -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        (lambda root: root, "is the checkout or contains it"),
        (lambda root: root / ".", "is the checkout or contains it"),
        (lambda root: root.parent, "is the checkout or contains it"),
        (lambda root: Path("/"), "is the checkout or contains it"),
        (lambda root: root / "docs", "inside docs/"),
        (lambda root: root / "docs" / "new", "inside docs/"),
        (lambda root: root / ".git", "inside .git/"),
        (lambda root: root / "variants", "holds files a build did not make"),
        (lambda root: root / "variants" / "a.yml", "is a file"),
    ],
)
def test_a_folder_a_build_did_not_make_is_refused(
    project: Path, where: Callable[[Path], Path], reason: str
) -> None:
    with pytest.raises(SiteFolderError, match=reason):
        check_site_folder(project, where(project))


def test_a_foreign_folder_is_refused_before_any_work_and_kept(project: Path) -> None:
    """``--site-dir`` naming a folder of someone else's files stops the build at once."""
    foreign = project.parent / "www"
    foreign.mkdir()
    (foreign / "index.html").write_text("theirs", encoding="utf-8")
    with pytest.raises(BuildError, match="holds files a build did not make"):
        build(BuildOptions(root=project, simulate=False, site_dir=foreign, log=lambda _: None))
    assert snapshot(foreign) == {"index.html": b"theirs"}
    assert not (project / "docs" / "variants").exists()  # refused before rendering


def test_the_checkout_as_site_dir_exits_with_one_line(project: Path) -> None:
    before = snapshot(project)
    result = run_build(project, "--site-dir", str(project))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "is the checkout" in result.stderr
    assert snapshot(project) == before


@pytest.mark.parametrize("content", ["empty", "stamped", "absent"])
def test_an_empty_absent_or_stamped_folder_is_accepted(project: Path, content: str) -> None:
    site = project.parent / "out"
    if content != "absent":
        site.mkdir()
    if content == "stamped":
        (site / STAMP).write_text("", encoding="utf-8")
        (site / "index.html").write_text("old", encoding="utf-8")
    assert check_site_folder(project, site) == site.resolve()


def test_a_site_built_before_the_stamp_is_still_replaced(project: Path) -> None:
    site = project / "site"
    site.mkdir()
    for name in ("index.html", "sitemap.xml"):
        (site / name).write_text("", encoding="utf-8")
    assert check_site_folder(project, site) == site
    other = project / "elsewhere"
    shutil.copytree(site, other)
    with pytest.raises(SiteFolderError):
        check_site_folder(project, other)


# Publishing ---------------------------------------------------------------------------------


def staged_site(target: Path, text: str = "new") -> Path:
    staging = new_staging(target)
    (staging / "sub").mkdir()
    (staging / "sub" / "index.html").write_text(text, encoding="utf-8")
    (staging / "index.html").write_text(text, encoding="utf-8")
    return staging


def test_the_published_site_is_world_readable_and_stamped(tmp_path: Path) -> None:
    target = tmp_path / "site"
    publish(staged_site(target), target)
    modes = {
        str(p.relative_to(target)): stat.S_IMODE(p.stat().st_mode)
        for p in [target, *target.rglob("*")]
    }
    files = ("sub/index.html", "index.html", STAMP)
    assert modes == {".": 0o755, "sub": 0o755, **dict.fromkeys(files, 0o644)}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


@pytest.mark.parametrize("kind", ["file", "folder kept by its permissions"])
def test_a_leftover_replaced_folder_does_not_block_the_swap(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "site"
    publish(staged_site(target, "old"), target)
    leftover = tmp_path / ".site.replaced"
    if kind == "file":
        leftover.write_text("", encoding="utf-8")
    else:
        (leftover / "locked").mkdir(parents=True)
        (leftover / "locked" / "x").write_text("", encoding="utf-8")
        (leftover / "locked").chmod(0o500)
    try:
        publish(staged_site(target), target)
        assert (target / "index.html").read_text(encoding="utf-8") == "new"
    finally:
        if leftover.is_dir():
            (leftover / "locked").chmod(0o700)


def test_a_symlinked_site_is_updated_through_its_target(project: Path) -> None:
    """The link stays a link; the folder it points to is replaced (see site_folder's doc)."""
    web_root = project.parent / "www" / "html"
    web_root.mkdir(parents=True)
    link = project / "site"
    link.symlink_to(web_root)
    target = check_site_folder(project, link)
    assert target == web_root.resolve()
    publish(staged_site(target), target)
    assert link.is_symlink() and (link / "index.html").read_text(encoding="utf-8") == "new"


# Leftovers and the lock ---------------------------------------------------------------------


def test_leftovers_of_killed_builds_are_cleared_and_nothing_else(project: Path) -> None:
    site = project / "site"
    ours = [
        project / ".site.building-abc",
        project / ".site.replaced",
        project / ".site.replaced-xyz",
        project / ".generating-1",
        project / ".replaced-2",
        project / "docs" / ".generating-3",
    ]
    theirs = [project / ".sitex", project / ".other.building-1", project / "docs" / ".replacedx"]
    for folder in ours + theirs:
        (folder / "inner").mkdir(parents=True)
    with build_lock(project):
        removed = clear_leftovers(project, site)
    assert sorted(removed) == sorted(ours)
    assert all(folder.exists() for folder in theirs)


def test_a_second_build_in_the_same_checkout_is_refused(project: Path) -> None:
    with build_lock(project):
        result = run_build(project)
    assert result.returncode == 1
    assert f"another build is running in {project} (process {os.getpid()})" in result.stderr
    assert result.stderr.count("\n") == 1


def test_the_lock_is_free_after_a_build_ends(project: Path) -> None:
    with build_lock(project):
        pass
    with build_lock(project):
        pass


# Bad numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("arguments", [["--games", "-5"], ["--games", "0"], ["--jobs", "0"]])
def test_counts_below_one_are_refused(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["build", "--no-simulate", *arguments])
    assert stopped.value.code == 2
    assert "is not a whole number above 0" in capsys.readouterr().err


def test_zero_games_in_the_options_are_refused(project: Path) -> None:
    with pytest.raises(BuildError, match="--games 0"):
        build(BuildOptions(root=project, games=0, log=lambda _: None))


@pytest.mark.parametrize("epoch", ["abc", "", " 5", "-5", "1e9", "9" * 30, "9" * 5000, "٣"])
def test_a_malformed_source_date_epoch_is_one_clear_error(epoch: str) -> None:
    with pytest.raises(RuntimeError, match="is not a time: set it to whole seconds since 1970"):
        epoch_date(epoch)


def test_a_source_date_epoch_is_read_as_utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    assert release_date(PROJECT).isoformat() == "2025-11-30"


# Whole builds, stopped and killed -------------------------------------------------------------


def children(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            todo.extend(kids - found)
            found |= kids
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] not in "ZX"
    except (OSError, IndexError):
        return False


def wait_for(condition: Callable[[], object], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test starts; any still running at the end are killed with their group."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


_MKDOCS = """
import signal, sys
from pathlib import Path
from generator.build import mkdocs_build

signal.signal(signal.SIGTERM, signal.default_int_handler)  # as `ur-variants build` does
root = Path(sys.argv[1])
try:
    mkdocs_build(root, root / "site", set())
except KeyboardInterrupt:
    sys.exit(130)
"""

_SLOW_HOOK = """
import pathlib, time

def on_pre_build(config):
    pathlib.Path(config["config_file_path"]).with_name("mkdocs-started").touch()
    time.sleep(300)
"""


def slow_mkdocs_project(root: Path) -> Path:
    """A one-page mkdocs project whose build waits five minutes (a hook), with a built site."""
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# One page\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text("site_name: slow\nhooks:\n  - slow.py\n", encoding="utf-8")
    (root / "slow.py").write_text(_SLOW_HOOK, encoding="utf-8")
    (root / "build.py").write_text(_MKDOCS, encoding="utf-8")
    publish(staged_site(root / "site", "previous"), root / "site")
    return root


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_build_takes_mkdocs_with_it_and_keeps_the_site(
    tmp_path: Path, started: list[subprocess.Popen[str]], how: signal.Signals
) -> None:
    root = slow_mkdocs_project(tmp_path)
    before = snapshot(root / "site")
    process = subprocess.Popen(
        [sys.executable, str(root / "build.py"), str(root)],
        env={**os.environ, **ENVIRONMENT},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    started.append(process)
    wait_for((root / "mkdocs-started").exists, 60, "mkdocs to start")
    mkdocs = children(process.pid)
    assert mkdocs and any(root.glob(".site.building-*"))
    process.send_signal(how)
    process.wait(timeout=20)
    wait_for(lambda: not any(alive(pid) for pid in mkdocs), 10, "mkdocs to end")
    assert snapshot(root / "site") == before
    if how == signal.SIGTERM:
        assert process.returncode == 130
        assert not any(root.glob(".site.building-*"))
    else:
        with build_lock(root):
            clear_leftovers(root, root / "site")
        assert not any(root.glob(".site.building-*"))


_POOL = """
import signal, sys
from pathlib import Path
from generator.engine.rules import compile_rules
from generator.model.catalog import load_valid_catalog
from generator.sim.runner import RunRequest, run_requests

signal.signal(signal.SIGTERM, signal.default_int_handler)
catalog = load_valid_catalog(Path(sys.argv[1]))
rules = compile_rules(catalog.resolve("royalur-finkel"))
request = RunRequest(rules, ("expectimax-2", "expectimax-2"), 2000, 1)
print("playing", flush=True)
try:
    run_requests([request], jobs=2)
except KeyboardInterrupt:
    sys.exit(130)
"""


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_simulation_workers_go_when_the_run_goes(
    tmp_path: Path, started: list[subprocess.Popen[str]], how: signal.Signals
) -> None:
    script = tmp_path / "pool.py"
    script.write_text(textwrap.dedent(_POOL), encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, str(script), str(PROJECT / "variants")],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started.append(process)
    assert process.stdout is not None and process.stdout.readline() == "playing\n"
    wait_for(lambda: len(children(process.pid)) >= 2, 60, "two workers")
    time.sleep(1)  # let the pool finish starting (a signal during fork is lost in a fork hook)
    workers = children(process.pid)
    process.send_signal(how)
    process.wait(timeout=20)
    wait_for(lambda: not any(alive(pid) for pid in workers), 10, "the workers to end")
    if how == signal.SIGTERM:
        assert process.returncode == 130


# Two cold builds of one commit ----------------------------------------------------------------


@pytest.mark.slow
def test_two_cold_exact_solves_give_the_same_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact-value table (and so the search index, which holds its text) must not carry
    figures that differ between runs, such as the processor time a solve took. One-piece
    solves only, to keep it quick."""
    from generator.measure import exact
    from generator.measure.core import Settings
    from generator.measure.steps import measure
    from generator.site.context import SiteContext
    from generator.site.edition import load_editions
    from generator.site.statistics_page import statistics_files

    monkeypatch.setattr(exact, "EXACT_PIECES", (1,))
    monkeypatch.setattr(exact, "MAX_SOLVED_PIECES", 0)
    catalog = repository_catalog()
    ctx = SiteContext(catalog, "http://127.0.0.1:8000/", load_editions(PROJECT / "variants"))
    pages, values = [], []
    for run in ("first", "second"):
        settings = Settings(cache_root=tmp_path / run, log=lambda _: None)
        results = measure(catalog, settings, steps=(exact.EXACT,))
        files = statistics_files(ctx, results).files
        pages.append(str(files["statistics/index.md"]) + str(files["statistics/method.md"]))
        values.append(results.of(exact.EXACT))
    assert "| 217 |" in pages[0]  # one-piece positions of Finkel's rules (implementers' page)
    assert values[0] == values[1]
    assert pages[0] == pages[1]
