"""Files written whole or not at all: what every file the project writes goes through.

A file is written to a temporary file in its own folder, flushed to the disk (``fsync``), then
renamed over the old one (:func:`os.replace` is atomic on one file system), so a full disk, a
file-size limit or a kill leaves either the old file or the new one, never part of either.
The new file keeps the old one's permissions (or, for a new file, what the user's ``umask``
gives an ordinary file, or the mode asked for), and the folder is flushed too, so the rename
itself survives a crash. A write that fails removes its temporary file and raises
:class:`WriteError`, whose message names the file, says why and says that the old file is
left as it was: commands print it instead of a traceback.

Several files that must change together (an edition's history and its lock) are written by
:func:`replace_files`: every temporary file is written and flushed before the first rename,
so a full disk changes none of them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import BinaryIO

ORDINARY_MODE = 0o666
"""The mode a new file is created with, before the ``umask``: what ``open(path, "w")`` gives."""
_FULL = {errno.ENOSPC: "the disk is full", errno.EFBIG: "the file is larger than allowed"}
"""Reasons worth a hint: both mean "free space (or raise the limit) and run it again"."""


class WriteError(Exception):
    """A file could not be written; the old file, if any, is left as it was."""

    def __init__(self, path: Path, error: OSError, kept: str = "it is left as it was") -> None:
        self.reason = _FULL.get(error.errno or 0) or error.strerror or str(error)
        hint = "; free some space and run it again" if error.errno in _FULL else ""
        super().__init__(f"{path}: could not write it ({self.reason}); {kept}{hint}")
        self.path = path
        self.error = error


Writer = Callable[[BinaryIO], object]
"""Writes a file's content to the open (binary) file it is given."""


def replace_file(path: Path, write: Writer, mode: int | None = None) -> None:
    """Make ``path`` hold what ``write`` writes, or leave it as it was if anything fails.

    ``mode`` sets the permissions of the new file; without it an existing file keeps its own.
    A symbolic link is kept and the file it points to replaced. The folder is made if missing.
    """
    replace_files({path: write}, mode)


def write_text(path: Path, text: str, mode: int | None = None) -> None:
    """:func:`replace_file` with ``text`` in UTF-8."""
    write_bytes(path, text.encode("utf-8"), mode)


def write_bytes(path: Path, data: bytes, mode: int | None = None) -> None:
    """:func:`replace_file` with ``data``."""
    replace_file(path, content(data), mode)


def content(data: bytes) -> Writer:
    """The writer of ``data``, for :func:`replace_files`."""
    return lambda file: file.write(data)


def replace_files(writers: Mapping[Path, Writer], mode: int | None = None) -> None:
    """Replace every file of ``writers`` by what its writer writes, all or none: each is written
    to its temporary file and flushed before the first rename, so a failure while writing (a
    full disk) leaves every file as it was. Only a kill between two renames could leave some
    replaced and others not."""
    staged: list[tuple[Path, Path, Path]] = []
    try:
        for path, write in writers.items():
            target = Path(os.path.realpath(path))
            temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
            staged.append((path, target, temporary))
            _write_temporary(path, temporary, target, write, mode)
        for path, target, temporary in staged:
            try:
                os.replace(temporary, target)
            except OSError as error:
                raise WriteError(path, error) from error
            _flush_folder(target.parent)
    except BaseException:
        for _, _, temporary in staged:
            temporary.unlink(missing_ok=True)
        raise


def _write_temporary(
    path: Path, temporary: Path, target: Path, write: Writer, mode: int | None
) -> None:
    """Create ``temporary`` (never over an existing file; its folder if missing), give it the
    permissions ``target`` should have, write it and flush it to the disk."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with os.fdopen(os.open(temporary, flags, ORDINARY_MODE), "wb") as file:
            _keep_permissions(file.fileno(), target, mode)
            write(file)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        raise WriteError(path, error) from error


def _keep_permissions(handle: int, target: Path, mode: int | None) -> None:
    """The old file's permissions (and owner, where this process may set it), or ``mode``."""
    try:
        old = target.stat()
    except FileNotFoundError:
        old = None
    if mode is not None:
        os.fchmod(handle, mode)
    elif old is not None:
        os.fchmod(handle, stat.S_IMODE(old.st_mode))
    if old is not None and hasattr(os, "fchown"):
        with contextlib.suppress(PermissionError):  # a user who is not root: own files only
            os.fchown(handle, old.st_uid, old.st_gid)


def _flush_folder(folder: Path) -> None:
    """Flush the folder's entries, so the rename is on the disk too (where the system can)."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:  # some file systems cannot flush a folder; the rename still happened
        pass
    finally:
        os.close(handle)


def name_whole(written: Path, path: Path) -> None:
    """Give ``path`` the file ``written`` under another name, in one step, once it is whole
    (a file mapped and filled in place, such as a distributed solve's solution): its data are
    flushed to the disk first, so the name never stands for a half-written file."""
    handle = os.open(written, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
    os.replace(written, path)
    _flush_folder(path.parent)


def write_staged(path: Path, data: bytes | str) -> None:
    """Write a new file into a staging folder that is renamed into place whole once complete
    (the generated pages): the folder is the temporary, so the file is neither renamed nor
    flushed on its own (flushing each of some 600 pages would add seconds to every build;
    a kill leaves the old folder either way). A failure raises :class:`WriteError`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as error:
        raise WriteError(path, error, "nothing already built is changed") from error
