"""Where a build may write, and how it replaces the site without losing anything else.

A build deletes only what a build made: the site folder it replaces carries the stamp
:data:`STAMP` (or is empty), and the temporary folders it clears carry its own prefixes. It
refuses the checkout, any folder that contains it, ``docs/`` (hand-written pages) and any
folder already holding files it did not build. A site folder given as a symbolic link is
updated through the link: the folder the link points to is replaced (its parent must be
writable), and the link itself is kept. One build runs at a time in a checkout
(:func:`build_lock`).

Publishing never leaves the site folder without a whole site (:func:`publish`): the new site
and the old trade places in one step (Linux's ``renameat2`` with ``RENAME_EXCHANGE``), or,
where the system cannot, the old site is moved aside before the new one is moved in. A build
killed between those two moves leaves no site folder; the next build, before anything else,
puts the site that was moved aside back (:func:`recover_site`), and clears temporary folders
(:func:`clear_leftovers`) only once the site folder holds a site, so it never deletes the only
copy.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import sys
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


PUBLISH_STEPS = ("stamped", "moved aside", "swapped")
"""The points of :func:`publish`, in order, at which :data:`on_publish_step` is called."""


def _no_fault(step: str) -> None:
    """The default :data:`on_publish_step`: nothing."""


on_publish_step = _no_fault
"""Called with each of :data:`PUBLISH_STEPS` as :func:`publish` passes it: a fault-injection
hook, set only by tests (which kill the build there), never by the build itself."""


class SiteFolderError(Exception):
    """The site folder cannot be used; the message says why and what to do."""


def _building(site: Path) -> str:
    return f".{site.name}.building-"


def _replaced(site: Path) -> str:
    return f".{site.name}.replaced"


def site_target(site_dir: Path) -> Path:
    """The folder a build replaces: ``site_dir`` with symbolic links followed (a link that
    leads back to itself is a :class:`SiteFolderError`)."""
    try:
        return site_dir.resolve()
    except (RuntimeError, OSError) as error:  # RuntimeError: a loop, before Python 3.13
        raise SiteFolderError(
            f"--site-dir {site_dir} cannot be followed ({_reason(error)}): a symbolic link in"
            " it leads back to itself; remove the link or choose another folder"
        ) from None


def _reason(error: BaseException) -> str:
    """An error in words, without the traceback: the system's message where there is one."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


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


def check_writable(site_dir: Path) -> None:
    """:class:`SiteFolderError` unless a build can replace the site folder: before the build's
    expensive work, not after it. The new site is made next to the old one and the two trade
    places, so the folder that holds the site must be writable, and so must the site folder
    itself (moving a folder rewrites its entry for its parent). An immutable folder or a
    read-only file system is refused as well."""
    target = site_target(site_dir)
    parent = next((p for p in target.parents if p.exists()), None)
    where: list[tuple[Path, str]] = []
    if parent is not None:
        where.append((parent, "the folder that holds the site"))
    if target.is_dir():
        where.append((target, "the site folder"))
    for folder, role in where:
        if not os.access(folder, os.W_OK | os.X_OK):
            raise SiteFolderError(
                f"cannot write to {folder} ({role}): a build makes the new site next to the old"
                " one and swaps them; make it writable (chmod u+w; chattr -i if it is immutable;"
                " a read-only file system cannot hold the site) or choose another --site-dir"
            )


def new_staging(target: Path) -> Path:
    """An empty folder next to ``target`` to build the site into."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=_building(target), dir=target.parent))


def publish(staging: Path, target: Path) -> None:
    """Make the built site world-readable, stamp it, put it in place of ``target``, and
    remove the old site.

    The two folders trade places in one step (:func:`exchange`), so a kill at any moment
    leaves a whole site in ``target``. Where the system cannot exchange them, the old site is
    moved aside into a fresh folder of its own (so no leftover from an earlier build can block
    the move) and the new one moved in: a kill between the two moves leaves no ``target``, and
    the next build puts the old site back (:func:`recover_site`).
    """
    make_world_readable(staging)
    stamp = staging / STAMP  # last: a stamped staging folder is a whole, checked site
    stamp.write_text(_STAMP_TEXT, encoding="utf-8")
    stamp.chmod(0o644)
    on_publish_step("stamped")
    if not target.exists():
        staging.rename(target)
    elif exchange(staging, target):  # the old site is now in ``staging``
        on_publish_step("swapped")
        shutil.rmtree(staging, ignore_errors=True)
    else:
        _move_aside_and_in(staging, target)


def _move_aside_and_in(staging: Path, target: Path) -> None:
    """Where :func:`exchange` is impossible: the old site aside, the new in, the old removed.
    An error between the two moves puts the old site back at once."""
    trash = Path(tempfile.mkdtemp(prefix=_replaced(target) + "-", dir=target.parent))
    old = trash / target.name
    target.rename(old)
    on_publish_step("moved aside")
    try:
        staging.rename(target)
    except BaseException:
        old.rename(target)
        trash.rmdir()
        raise
    on_publish_step("swapped")
    shutil.rmtree(trash, ignore_errors=True)


_RENAME_EXCHANGE = 2
"""From <linux/fs.h>: renameat2 swaps the two names."""
_AT_FDCWD = -100


def exchange(first: Path, second: Path) -> bool:
    """Swap two folders' names in one step (renameat2(2) with ``RENAME_EXCHANGE``): True when
    done, False where the system or the file system cannot (then nothing changed)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)  # glibc 2.28 and later
    if renameat2 is None:
        return False
    done = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(first), None, str(second))


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


def _moved_aside(target: Path) -> list[Path]:
    """Sites a killed build moved aside (:func:`_move_aside_and_in`), the newest first."""
    found = [p / target.name for p in target.parent.glob(_replaced(target) + "*")]
    sites = [p for p in found if p.is_dir() and not p.is_symlink()]
    return sorted(sites, key=lambda p: p.stat().st_mtime, reverse=True)


def _finished(target: Path) -> list[Path]:
    """Sites a killed build had finished and stamped but not yet moved in, the newest first."""
    found = [p for p in target.parent.glob(_building(target) + "*") if (p / STAMP).is_file()]
    return sorted(found, key=lambda p: (p / STAMP).stat().st_mtime, reverse=True)


def recover_site(site_dir: Path, log: Callable[[str], None] = lambda _: None) -> Path | None:
    """Finish a swap a killed build left half done: when the site folder is missing and a site
    was moved aside, put that previous site back; failing that, move in a finished new site.
    The site put in place, or None when there was nothing to do.

    Call it first, while holding :func:`build_lock`, and before :func:`clear_leftovers`.
    """
    target = site_target(site_dir)
    if target.exists() or target.is_symlink():
        return None
    for found in (*_moved_aside(target), *_finished(target)):
        try:
            found.rename(target)
        except OSError as error:
            log(f"could not put back the site a stopped build left in {found}: {_reason(error)}")
            continue
        log(f"a stopped build had left no site in {target}; put back the site from {found}")
        return found
    return None


def _only_copy(path: Path, target: Path) -> bool:
    """Whether ``path``, a leftover next to the site, holds a site (one moved aside, or a
    finished one not yet moved in) while ``target`` holds none: then it must not be deleted."""
    if target.exists() or path.parent != target.parent:
        return False
    return (path / target.name).is_dir() or (path / STAMP).is_file()


def clear_leftovers(
    root: Path, site_dir: Path, log: Callable[[str], None] = lambda _: None
) -> list[Path]:
    """Remove temporary folders a killed build left behind (only our own prefixes: the docs
    staging folders in the checkout and the site staging folders next to the site), but never
    a site while the site folder has none (:func:`recover_site` first puts one back).

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
        if _only_copy(path, target):
            log(f"kept {path}: it holds a site and {target} holds none; move it there by hand")
            continue
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
