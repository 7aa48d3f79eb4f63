"""Publishing under faults (issue 45): a build killed at any step of publishing leaves a whole
site, which the next build puts back before anything else, even one that stops at once on a
bad variant file; a full disk, a dead or stuck mkdocs and a missing mkdocs end the build in
bounded time with a message; a read-only, immutable or looping site folder is refused before
the expensive work.

Builds run on small projects of their own: a few mkdocs pages, or a checkout whose only variant
file is invalid (a build there stops at once, after its checks), so each case takes seconds.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_build_safety import (
    ENVIRONMENT,
    alive,
    children,
    run_build,
    slow_mkdocs_project,
    snapshot,
)

from generator import build as pipeline
from generator.build import BuildError, BuildOptions, build, mkdocs_build
from generator.site import site_folder
from generator.site.site_folder import (
    PUBLISH_STEPS,
    STAMP,
    SiteFolderError,
    check_site_folder,
    check_writable,
    publish,
)

BOUND = 300
"""Seconds within which every faulty build here must have ended (a healthy one takes a few)."""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout (``.git``, ``docs/``) whose one variant file is invalid: a build there
    stops on it at once, after the checks it makes before any work."""
    root = tmp_path / "checkout"
    for folder in ("variants", "docs", ".git"):
        (root / folder).mkdir(parents=True)
    (root / "variants" / "broken.yml").write_text("id: [unclosed\n", encoding="utf-8")
    return root


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment of a build here (a fixed date, so no git commit is needed)."""
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)


# A build killed while publishing --------------------------------------------------------------

_KILLED_AT = """
import os, signal, sys
from pathlib import Path
from generator.site import site_folder
from test_publish_faults import built_site

site, version, step, mode = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
if mode == "two moves":  # as on a system or file system without renameat2
    site_folder.exchange = lambda first, second: False

def kill_at(reached):
    if reached == step:
        os.kill(os.getpid(), signal.SIGKILL)

site_folder.on_publish_step = kill_at
site_folder.publish(built_site(site, version), site)
"""


def built_site(target: Path, version: int) -> Path:
    """A site as mkdocs leaves it in its temporary folder next to ``target``, not yet
    published: the ``version`` is on its home page."""
    staging = site_folder.new_staging(target)
    (staging / "index.html").write_text(f"<h1>Version {version}</h1>", encoding="utf-8")
    (staging / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    (staging / "about").mkdir()
    (staging / "about" / "index.html").write_text("About", encoding="utf-8")
    return staging


def python(
    arguments: list[str], env: dict[str, str], preexec_fn: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """This Python run with ``arguments`` in a process of its own, for at most :data:`BOUND`."""
    return subprocess.run(
        [sys.executable, *arguments],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=BOUND,
        preexec_fn=preexec_fn,
    )


def run_script(script: str, *arguments: object) -> subprocess.CompletedProcess[str]:
    """``script`` in a Python of its own, which can import this module."""
    tests = str(Path(__file__).parent)
    path = os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))
    env = {**os.environ, **ENVIRONMENT, "PYTHONPATH": path}
    return python(["-c", textwrap.dedent(script), *map(str, arguments)], env)


def version_of(site: Path) -> int | None:
    """Which version a whole site in ``site`` is, or None when there is none there."""
    if not (site / STAMP).is_file() or not (site / "sitemap.xml").is_file():
        return None
    text = (site / "index.html").read_text(encoding="utf-8")
    return next((v for v in (1, 2, 3) if f"Version {v}" in text), None)


CASES = [
    ("exchange", "stamped", None, 1),  # before anything moved (the same in either mode)
    ("exchange", "swapped", None, 2),
    ("two moves", "moved aside", None, 1),
    ("two moves", "swapped", None, 2),
    # The first build of all, killed with its site finished: the next build moves it in.
    ("exchange", "stamped", "no site yet", 2),
]


@pytest.mark.parametrize(("mode", "step", "first", "expected"), CASES)
def test_a_build_killed_while_publishing_never_loses_the_site(
    checkout: Path, mode: str, step: str, first: str | None, expected: int
) -> None:
    """Killed at each step of publishing: then a build that stops at once on a bad variant
    file finds a whole site in place (the previous, or the new one when it was already in),
    and a build after it publishes and leaves nothing behind."""
    assert step in PUBLISH_STEPS
    site = checkout / "site"
    if first is None:
        publish(built_site(site, 1), site)
        assert version_of(site) == 1

    killed = run_script(_KILLED_AT, site, 2, step, mode)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    if step == "moved aside":
        assert not site.exists()  # the moment the issue found: no site in place

    failed = run_build(checkout)
    assert failed.returncode == 1
    assert "problem(s) in variants/" in failed.stderr  # it stopped on the bad variant file
    assert version_of(site) == expected

    publish(built_site(site, 3), site)
    assert version_of(site) == 3
    assert sorted(p.name for p in checkout.iterdir() if p.name.startswith(".site")) == []


def test_a_site_moved_aside_is_never_deleted_while_there_is_no_other(checkout: Path) -> None:
    """Should putting it back fail, the copy moved aside is kept, not cleared as a leftover."""
    aside = checkout / ".site.replaced-abc" / "site"
    aside.mkdir(parents=True)
    (aside / STAMP).write_text("", encoding="utf-8")
    with site_folder.build_lock(checkout):
        removed = site_folder.clear_leftovers(checkout, checkout / "site")
    assert removed == [] and aside.is_dir()


# A full disk, a dead worker, a stuck or missing mkdocs ----------------------------------------

_SMALL_THEME = "<html><body>{{ page.content }}</body></html>\n"


def shared_project(root: Path) -> Path:
    """An mkdocs checkout shared between two processes (``UR_MKDOCS_JOBS=2``) with a theme of
    one template and no static files: one large page, first, for the main process, and forty
    of 12 KB, of which the worker gets most: their search entries (about 350 KB) are
    more than a pipe holds."""
    (root / "docs").mkdir(parents=True)
    (root / "theme").mkdir()
    (root / "theme" / "main.html").write_text(_SMALL_THEME, encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: full\ntheme:\n  name: null\n  custom_dir: theme\nplugins:\n  - search\n"
        "markdown_extensions:\n  - killer\n",
        encoding="utf-8",
    )
    (root / "killer.py").write_text(_KILLER, encoding="utf-8")
    (root / "docs" / "index.md").write_text(
        "# Large\n\n" + "A line of the large page.\n\n" * 12_000, encoding="utf-8"
    )
    for k in range(40):
        text = f"# Page {k:02}\n\n" + f"Words of page {k:02}, repeated.\n\n" * 400
        (root / "docs" / f"page{k:02}.md").write_text(text, encoding="utf-8")
    return root


_KILLER = '''
"""A Markdown extension that kills the process converting the page that asks for it, when
that process is a worker mkdocs_parallel forked (by multiprocessing, so it has a parent)."""
import multiprocessing, os, signal
from markdown import Extension
from markdown.preprocessors import Preprocessor

class Killer(Preprocessor):
    def run(self, lines):
        if "KILL THIS WORKER" in lines and multiprocessing.parent_process() is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        return lines

class KillerExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(Killer(md), "killer", 100)

def makeExtension(**kwargs):
    return KillerExtension(**kwargs)
'''

_BUILD = """
import sys
from pathlib import Path
from generator.build import BuildError, mkdocs_build

root = Path(sys.argv[1])
try:
    mkdocs_build(root, root / "site", set())
except BuildError as error:
    print(error, file=sys.stderr)
    sys.exit(1)
"""


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    return shared_project(tmp_path / "shared")


def _build_shared(
    root: Path, file_size_limit: int | None = None
) -> tuple[subprocess.CompletedProcess[str], float]:
    """``mkdocs_build`` in a process of its own, its pages shared between two processes
    (mkdocs runs in ``root``, so the Markdown extension there is found), files limited to
    ``file_size_limit`` bytes as by ``ulimit -f``; the result and the seconds it took."""

    def limit() -> None:
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    began = time.monotonic()
    env = {**os.environ, **ENVIRONMENT, "UR_MKDOCS_JOBS": "2"}
    result = python(["-c", _BUILD, str(root)], env, limit)
    return result, time.monotonic() - began


@pytest.mark.skipif(not hasattr(os, "fork"), reason="sharing needs os.fork")
def test_a_full_disk_ends_the_build_with_a_message_and_keeps_the_site(shared: Path) -> None:
    """Files may grow to 200 KB (``ulimit -f``): the main process's large page cannot be
    written, while the worker, its pages done, has more to send than its pipe holds. The build
    used to hang there for ever (the main process waited at its exit for the worker, the
    worker for the main process to read); now it ends at once, saying what to do."""
    built, _ = _build_shared(shared)
    assert built.returncode == 0, built.stderr
    before = snapshot(shared / "site")
    assert max(len(content) for content in before.values()) > 200_000

    full, seconds = _build_shared(shared, file_size_limit=200_000)
    assert full.returncode == 1
    assert "disk is full or a file-size limit (ulimit -f) was reached" in full.stderr
    assert "File too large" in full.stderr and "index.md" in full.stderr
    assert seconds < BOUND
    assert snapshot(shared / "site") == before
    assert not any(shared.glob(".site.building-*"))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="sharing needs os.fork")
def test_a_worker_that_dies_ends_the_build_with_a_message(shared: Path) -> None:
    # The largest page after the main process's own: the worker's (pages share by size).
    with (shared / "docs" / "page00.md").open("a", encoding="utf-8") as page:
        page.write("KILL THIS WORKER\n")
    result, _ = _build_shared(shared)
    assert result.returncode == 1
    assert "a process sharing mkdocs' pages ended without sending them back" in result.stderr
    assert "exit -9" in result.stderr
    assert not (shared / "site").exists()


@pytest.mark.usefixtures("settings")
def test_a_stuck_mkdocs_is_stopped_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mkdocs that never ends (here a hook that waits five minutes) is stopped after
    :data:`~generator.build.MKDOCS_SECONDS`, and its processes go with it."""
    root = slow_mkdocs_project(tmp_path)
    before = snapshot(root / "site")
    # the session's own children (a browser the browser tests keep open) are not the build's
    running = {pid for pid in children(os.getpid()) if alive(pid)}
    monkeypatch.setattr(pipeline, "MKDOCS_SECONDS", 5)
    began = time.monotonic()
    with pytest.raises(BuildError, match="did not finish in 5 s and was stopped"):
        mkdocs_build(root, root / "site", set())
    assert time.monotonic() - began < 30
    assert not [pid for pid in children(os.getpid()) - running if alive(pid)]
    assert snapshot(root / "site") == before


_NO_MKDOCS = """
import importlib.abc, sys

class NotInstalled(importlib.abc.MetaPathFinder):
    '''mkdocs, its theme and plugins are not installed: importing them fails as it would.'''
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"mkdocs", "material", "mkdocs_redirects", "pymdownx"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
"""


@pytest.fixture
def without_mkdocs(tmp_path: Path) -> dict[str, str]:
    """An environment in which mkdocs cannot be imported (a ``sitecustomize`` blocks it)."""
    folder = tmp_path / "no-mkdocs"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(_NO_MKDOCS, encoding="utf-8")
    return {**os.environ, **ENVIRONMENT, "PYTHONPATH": str(folder)}


def test_a_missing_mkdocs_is_named_with_how_to_install_it(
    checkout: Path, without_mkdocs: dict[str, str]
) -> None:
    """Before any work (the variant file is invalid, and is not reached)."""
    command = ["-m", "generator", "--root", str(checkout), "build", "--no-simulate"]
    result = python(command, without_mkdocs)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "mkdocs and mkdocs-material and mkdocs-redirects and pymdown-extensions are not installed"
    )
    assert "run `make site`" in result.stderr and "Traceback" not in result.stderr


def test_mkdocs_missing_in_its_own_process_is_named_too(
    tmp_path: Path, without_mkdocs: dict[str, str]
) -> None:
    result = python(["-c", _BUILD, str(slow_mkdocs_project(tmp_path))], without_mkdocs)
    assert result.returncode == 1
    assert "the module mkdocs is not installed: run `make site`" in result.stderr


# A site folder that cannot be written or followed ---------------------------------------------


@contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """``folder`` made unwritable: immutable for root (whom permissions do not stop), else
    read-only; restored afterwards."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("needs chattr to make a folder immutable as root")
        done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip("this file system cannot make a folder immutable")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)


@pytest.mark.parametrize("which", ["the site folder", "the folder that holds the site"])
def test_an_unwritable_site_folder_is_refused_before_any_work(checkout: Path, which: str) -> None:
    outside = checkout.parent / "www"
    site = outside / "site"
    site.mkdir(parents=True)
    (site / STAMP).write_text("", encoding="utf-8")
    locked = site if which == "the site folder" else outside
    with unwritable(locked):
        began = time.monotonic()
        with pytest.raises(BuildError, match=f"cannot write to {locked} \\({which}\\)"):
            build(BuildOptions(root=checkout, simulate=False, site_dir=site, log=lambda _: None))
        assert time.monotonic() - began < 10
        with pytest.raises(SiteFolderError, match="chattr -i if it is immutable"):
            check_writable(site)
    assert not (checkout / "docs" / "variants").exists()  # refused before rendering
    assert snapshot(site) == {STAMP: b""}


def test_a_site_dir_on_a_symbolic_link_loop_is_one_message(checkout: Path) -> None:
    loop = checkout.parent / "loop"
    loop.symlink_to(loop)
    with pytest.raises(SiteFolderError, match="leads back to itself"):
        check_site_folder(checkout, loop)
    result = run_build(checkout, "--site-dir", str(loop))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "leads back to itself" in result.stderr
