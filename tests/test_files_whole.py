# ruff: noqa: F811  (the fixture root comes from test_bad_input, named as a parameter)
"""Files written whole or not at all (issue 45, items 2, 3, 22): the helper every writer uses,
and the commands that write, on a full disk.

A full disk is a file-size limit (``ulimit -f``, :data:`resource.RLIMIT_FSIZE`) set in a child
process before it runs: a write past the limit fails with ``EFBIG`` as one on a full disk fails
with ``ENOSPC`` (Python ignores the ``SIGXFSZ`` that would otherwise end the process). Each
command is run as a user runs it, and must name the file it could not write, say why, print no
traceback and leave the old file byte for byte, with no temporary file left beside it.
"""

from __future__ import annotations

import ast
import errno
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path
from typing import BinaryIO

import pytest
from conftest import ROOT
from test_bad_input import root  # noqa: F401

from generator import files
from generator.files import WriteError, replace_files, write_bytes, write_text


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- the helper ------------------------------------------------------------------------------


def test_a_file_is_replaced_and_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    write_text(path, "new")
    assert path.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    write_text(path, "newer", mode=0o600)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert leftovers(tmp_path) == []


def test_a_new_file_has_an_ordinary_files_permissions(tmp_path: Path) -> None:
    """What ``open(path, "w")`` gives (0666 less the umask), not a temporary file's 0600."""
    write_bytes(tmp_path / "a" / "new.bin", b"\x00\x01")
    (tmp_path / "plain.bin").write_bytes(b"")
    made = stat.S_IMODE((tmp_path / "a" / "new.bin").stat().st_mode)
    assert made == stat.S_IMODE((tmp_path / "plain.bin").stat().st_mode)
    assert (tmp_path / "a" / "new.bin").read_bytes() == b"\x00\x01"


def test_a_symbolic_link_is_kept_and_its_file_replaced(tmp_path: Path) -> None:
    target = tmp_path / "target.yml"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.yml"
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"


def test_a_failed_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "history.yml"
    path.write_bytes(b"old content\n")

    def full(handle: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(WriteError) as caught:
        write_text(path, "new content, much longer\n" * 100)
    assert str(caught.value) == (
        f"{path}: could not write it (the disk is full); it is left as it was;"
        " free some space and run it again"
    )
    assert path.read_bytes() == b"old content\n"
    assert leftovers(tmp_path) == []


def test_files_written_together_change_together(tmp_path: Path) -> None:
    """The second file failing leaves the first as it was too (an edition and its lock)."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.write_bytes(b"first")
    second.write_bytes(b"second")

    def broken(file: BinaryIO) -> None:
        file.write(b"half")
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    with pytest.raises(WriteError, match="second: could not write it"):
        replace_files({first: files.content(b"FIRST"), second: broken})
    assert (first.read_bytes(), second.read_bytes()) == (b"first", b"second")
    assert leftovers(tmp_path) == []
    replace_files({first: files.content(b"FIRST"), second: files.content(b"SECOND")})
    assert (first.read_bytes(), second.read_bytes()) == (b"FIRST", b"SECOND")


def test_an_interrupted_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "entry.json"
    path.write_bytes(b"{}")

    def interrupted(file: BinaryIO) -> None:
        file.write(b"{")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        files.replace_file(path, interrupted)
    assert path.read_bytes() == b"{}" and leftovers(tmp_path) == []


WRITES_ALLOWED = {
    "generator/files.py": "the helper itself",
    "generator/site/site_folder.py": "the stamp of a new staging folder, and the build lock",
}
"""Modules that may write a file by other means than :mod:`generator.files`, and why."""


def _writes(tree: ast.AST) -> list[int]:
    """Lines writing a file in place: ``something.write_text(...)`` or ``.write_bytes(...)``
    (a :class:`~pathlib.Path`; the helper's functions are called by name), ``os.replace``,
    and ``open`` or ``fdopen`` for writing (a member of a zip archive being written is not a
    file)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open":
                found += [node.lineno] if _for_writing(node) else []
            continue
        name, receiver = node.func.attr, node.func.value
        receiver_name = receiver.id if isinstance(receiver, ast.Name) else ""
        in_place = name in {"write_text", "write_bytes"} and receiver_name != "files"
        renamed = name == "replace" and receiver_name == "os"
        opened = name in {"open", "fdopen"} and receiver_name != "archive"
        if in_place or renamed or (opened and _for_writing(node, path_open=receiver_name != "os")):
            found.append(node.lineno)
    return found


def _for_writing(call: ast.Call, path_open: bool = False) -> bool:
    """Whether an ``open`` call's mode (``mode=``, or the second argument: the first of
    :meth:`pathlib.Path.open`) writes."""
    first = 0 if path_open else 1
    modes = [*call.args[first : first + 1], *(k.value for k in call.keywords if k.arg == "mode")]
    return any(
        isinstance(m, ast.Constant)
        and isinstance(m.value, str)
        and bool(set(m.value) & set("wax+"))
        for m in modes
    )


def test_every_writer_goes_through_the_helper() -> None:
    """No module writes a file in place: a new writer uses :mod:`generator.files`."""
    offenders = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name in WRITES_ALLOWED:
            continue
        lines = _writes(ast.parse(path.read_text(encoding="utf-8")))
        offenders += [f"{name}:{line}" for line in lines]
    assert offenders == [], "write through generator.files (whole or not at all): " + str(offenders)


# --- the commands, on a full disk ------------------------------------------------------------


def run_limited(argv: list[str], limit: int, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python ARGV`` with files limited to ``limit`` bytes (``ulimit -f``)."""

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=limit_files,
        timeout=300,
        check=False,
    )


def test_fmt_on_a_full_disk_leaves_the_file_whole(root: Path) -> None:
    """Issue 45 item 3: the file was cut to 8,192 bytes and a traceback printed."""
    path = root / "variants" / "bell-1960.yml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join([lines[1], lines[0], *lines[2:]]), encoding="utf-8")  # not canonical
    before = path.read_bytes()
    assert len(before) > 8192
    done = run_limited(["-m", "generator", "--root", str(root), "fmt"], 8192, root)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"{path}: could not write it (the file is larger than allowed); it is left as it was;"
        " free some space and run it again"
    ]
    assert path.read_bytes() == before and leftovers(path.parent) == []


def test_an_edition_on_a_full_disk_records_nothing(root: Path) -> None:
    """Issue 45 item 2: editions.yml was cut short and still parsed, an edition listing 11 of
    its 17 changes; now both files are left as they were, and ``--check`` agrees."""
    variants = root / "variants"
    ruling = variants / "finkel-three-piece.yml"
    text = ruling.read_text(encoding="utf-8")
    old = "Each player has three pieces instead of seven."
    ruling.write_text(text.replace(old, "Each player has three pieces, not seven."), "utf-8")
    history, lock = variants / "editions.yml", variants / "published-rulings.lock"
    before = history.read_bytes(), lock.read_bytes()
    from generator.site.edition import load_editions

    number = str(int(load_editions(variants).current.number) + 1)
    argv = ["-m", "generator", "--root", str(root), "edition", number, "--summary", "Reworded."]
    done = run_limited(argv, len(before[0]) + 100, root)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"{history}: could not write it (the file is larger than allowed); no edition"
        " recorded: editions.yml and published-rulings.lock are left as they were"
    ]
    assert (history.read_bytes(), lock.read_bytes()) == before
    assert leftovers(variants) == []
    check = run_limited(["-m", "generator", "--root", str(root), "edition", "--check"], 2**30, root)
    assert (
        check.stderr.splitlines()[0]
        == f"ruling three-pieces changed since edition {int(number) - 1}"
    )


PAGE_CACHE_SAVE = """
import sys
from pathlib import Path
from generator.site.page_cache import save_pages
save_pages(Path(sys.argv[1]), "key", {"index.md": "x" * 100_000}, {"a-ruling"})
print("went on")
"""


def test_a_page_cache_that_cannot_be_saved_is_a_message(tmp_path: Path) -> None:
    """Issue 45 item 22: the save after publishing gave a traceback; the site is published,
    so the build says the pages were not kept and goes on."""
    from generator.sim.cache_files import write_json

    entry = tmp_path / ".cache" / "pages" / "latest.json"
    write_json(entry, {"key": "old", "files": {}, "ruling_ids": []})
    before = entry.read_bytes()
    done = run_limited(["-c", PAGE_CACHE_SAVE, str(tmp_path)], 50_000, ROOT)
    assert done.returncode == 0 and done.stdout == "went on\n", done.stderr
    assert done.stderr.splitlines() == [
        f"the site is published, but {entry} could not be written (the file is larger than"
        " allowed): the next build renders every page again"
    ]
    assert entry.read_bytes() == before and leftovers(entry.parent) == []


SWAP_PAGES = """
import sys
from pathlib import Path
from generator.files import WriteError
from generator.site.render import swap_into_docs
try:
    swap_into_docs({"glossary/index.md": "x" * 100_000}, Path(sys.argv[1]))
except WriteError as error:
    sys.exit(str(error))
"""


def test_pages_that_cannot_be_written_leave_docs_as_it_was(tmp_path: Path) -> None:
    """A build on a full disk stopped with a traceback while writing its pages; now the page is
    named as in ``docs/``, and ``docs/`` and its neighbours are as they were."""
    docs = tmp_path / "docs"
    (docs / "glossary").mkdir(parents=True)
    (docs / "glossary" / "index.md").write_text("old\n", encoding="utf-8")
    done = run_limited(["-c", SWAP_PAGES, str(docs)], 50_000, ROOT)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"{docs}/glossary/index.md: could not write it (the file is larger than allowed);"
        f" {docs} is left as it was; free some space and run it again"
    ]
    assert (docs / "glossary" / "index.md").read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs"]


YAML_READERS = {"load", "safe_load", "full_load", "unsafe_load", "load_all", "safe_load_all"}
YAML_READERS |= {"compose", "compose_all", "parse"}


def test_every_yaml_file_is_read_through_the_guard() -> None:
    """Issue 45 item 14: ``editions.yml`` was read by ``yaml.safe_load``, with no alias or size
    guard. Only :mod:`generator.model.yamlsource` may call PyYAML's readers."""
    offenders = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "yaml"
                and func.attr in YAML_READERS
                and name != "generator/model/yamlsource.py"
            ):
                offenders.append(f"{name}:{node.lineno}")
    assert offenders == [], f"read YAML with generator.model.yamlsource: {offenders}"
