"""Where a build may write, and how it replaces the site without losing anything else.

A build deletes only what a build made: the site folder it replaces carries the stamp
:data:`STAMP` (or is empty), and the temporary folders it clears carry its own prefixes. It
refuses the checkout, any folder that contains it, ``docs/`` (hand-written pages) and any
folder already holding files it did not build. A site folder given as a symbolic link is
updated through the link: the folder the link points to is replaced (its parent must be
writable), and the link itself is kept. One build runs at a time in a checkout
(:func:`build_lock`); temporary folders left by a build that was killed are removed by the
next one, under that lock.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.site.render import DOCS_STAGING_PREFIXES

STAMP = ".ur-variants-site"
"""File in the root of every site a build made: the mark that a later build may replace it."""
_STAMP_TEXT = "Built by `ur-variants build`; the next build replaces this whole folder.\n"
_OLD_SITE = ("index.html", "sitemap.xml")
"""Files by which ``site/`` built before :data:`STAMP` existed is recognised."""
LOCK = Path(".cache") / "build.lock"
"""The checkout's build lock (relative to the project root)."""


class SiteFolderError(Exception):
    """The site folder cannot be used; the message says why and what to do."""


def _building(site: Path) -> str:
    return f".{site.name}.building-"


def _replaced(site: Path) -> str:
    return f".{site.name}.replaced"


def site_target(site_dir: Path) -> Path:
    """The folder a build replaces: ``site_dir`` with symbolic links followed."""
    return site_dir.resolve()


def check_site_folder(root: Path, site_dir: Path) -> Path:
    """The folder the site goes to, or :class:`SiteFolderError` if a build must not replace it.

    A site folder is replaced whole, so it must be absent, empty, or a site a build made: the
    stamp :data:`STAMP`, or (for ``site/`` in the checkout, built before the stamp existed)
    mkdocs' ``index.html`` and ``sitemap.xml``.
    """
    root = root.resolve()
    target = site_target(site_dir)
    shown = f"--site-dir {site_dir}" + (f" (-> {target})" if target != site_dir else "")
    if target == root or target in root.parents:
        raise SiteFolderError(f"{shown} is the checkout or contains it; choose a new folder")
    for owned in (root / "docs", root / ".git"):
        if target == owned or owned in target.parents:
            raise SiteFolderError(f"{shown} is inside {owned.name}/; choose a folder outside it")
    if not target.exists():
        return target
    if not target.is_dir():
        raise SiteFolderError(f"{shown} is a file, not a folder; choose a folder")
    if (target / STAMP).is_file() or not any(target.iterdir()):
        return target
    if target == root / "site" and all((target / n).is_file() for n in _OLD_SITE):
        return target
    raise SiteFolderError(
        f"{shown} holds files a build did not make (no {STAMP} in it) and would be deleted;"
        " empty it or choose a new folder"
    )


def new_staging(target: Path) -> Path:
    """An empty folder next to ``target`` to build the site into."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=_building(target), dir=target.parent))


def publish(staging: Path, target: Path) -> None:
    """Stamp the built site, make it world-readable, and put it in place of ``target``.

    The old site is moved aside into a fresh folder of its own (so no leftover from an earlier
    build can block the move) and removed only after the new one is in place.
    """
    (staging / STAMP).write_text(_STAMP_TEXT, encoding="utf-8")
    make_world_readable(staging)
    trash = Path(tempfile.mkdtemp(prefix=_replaced(target) + "-", dir=target.parent))
    old = trash / target.name
    try:
        if target.exists():
            target.rename(old)
        try:
            staging.rename(target)
        except BaseException:
            if old.exists():
                old.rename(target)
            raise
    finally:
        shutil.rmtree(trash, ignore_errors=True)


def make_world_readable(folder: Path) -> None:
    """Folders 0755 and files 0644, whatever the umask or ``mkdtemp`` (0700) gave them: a web
    server usually runs as another user."""
    folder.chmod(0o755)
    for path, dirs, files in os.walk(folder):
        for name in dirs:
            (Path(path) / name).chmod(0o755)
        for name in files:
            file = Path(path) / name
            if not file.is_symlink():
                file.chmod(0o644)


def clear_leftovers(
    root: Path, site_dir: Path, log: Callable[[str], None] = lambda _: None
) -> list[Path]:
    """Remove temporary folders a killed build left behind (only our own prefixes: the docs
    staging folders in the checkout and the site staging folders next to the site).

    Call it only while holding :func:`build_lock`, so no running build's folder is touched.
    """
    target = site_target(site_dir)
    candidates = [
        *(p for prefix in DOCS_STAGING_PREFIXES for p in root.glob(prefix + "*")),
        *(p for prefix in DOCS_STAGING_PREFIXES for p in (root / "docs").glob(prefix + "*")),
        *target.parent.glob(_building(target) + "*"),
        *target.parent.glob(_replaced(target) + "*"),
    ]
    removed = []
    for path in sorted(set(candidates)):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
            if path.exists():
                log(f"could not remove the leftover {path}; remove it by hand")
            else:
                removed.append(path)
    return removed


class BuildRunning(Exception):
    """Another build holds the checkout's lock."""


@contextmanager
def build_lock(root: Path) -> Iterator[None]:
    """Hold the checkout's build lock (``flock`` on :data:`LOCK`) or raise
    :class:`BuildRunning` at once. The kernel frees the lock when its holder ends, however it
    ends, so a killed build never leaves the checkout locked."""
    path = root / LOCK
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise BuildRunning(
                f"another build is running in {root} (process {holder}); wait for it to end"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
