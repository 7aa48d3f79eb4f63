"""Cache files that can be damaged but never published damaged.

Every cache entry (simulation records, claim checks, exact solutions) is written whole or not
at all: to a temporary file in the same folder, flushed, then renamed over the entry
(:func:`os.replace` is atomic), so a killed build leaves the old entry or the new one, never
half of one. Each entry carries a format version and the SHA-256 of its payload; on reading,
an entry that cannot be parsed, has another format, or whose payload does not match its
checksum is reported in one line and treated as missing, so the caller recomputes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

CACHE_FORMAT = 1
"""The layout of a cache entry (envelope and checksum); changing it invalidates every entry."""


def report_damaged(path: Path, reason: str) -> None:
    """One line on standard error: which entry, what is wrong, what happens next."""
    print(f"cache: {path}: {reason}; recomputing it", file=sys.stderr)


def replace_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Make ``path`` hold what ``write`` writes, or leave it as it was if anything fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as temporary:
            write(temporary)
            temporary.flush()
            os.fsync(temporary.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def _payload_checksum(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def content_key(payload: Any) -> str:
    """The SHA-256 of ``payload`` (plain JSON values) as sorted JSON: a cache entry's key,
    from everything that decides the entry."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def write_json(path: Path, payload: Any) -> None:
    """Save ``payload`` (plain JSON values) with its format version and checksum."""
    envelope = {"format": CACHE_FORMAT, "sha256": _payload_checksum(payload), "payload": payload}
    text = json.dumps(envelope, sort_keys=True, allow_nan=False) + "\n"
    replace_atomically(path, lambda file: file.write(text.encode()))


def read_json(path: Path) -> Any | None:
    """The payload saved at ``path``; ``None`` when there is none or it is damaged."""
    try:
        envelope = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        report_damaged(path, f"unreadable ({type(error).__name__})")
        return None
    if not isinstance(envelope, dict) or envelope.get("format") != CACHE_FORMAT:
        report_damaged(path, f"not a cache entry of format {CACHE_FORMAT}")
        return None
    payload = envelope.get("payload")
    try:
        matches = envelope.get("sha256") == _payload_checksum(payload)
    except ValueError:  # NaN or infinity: never written by write_json
        matches = False
    if not matches:
        report_damaged(path, "its content does not match its checksum")
        return None
    return payload


ArrayMap = Mapping[str, npt.NDArray[Any]]


def arrays_checksum(arrays: ArrayMap) -> str:
    """SHA-256 of named arrays: names, dtypes, shapes and bytes, in name order."""
    digest = hashlib.sha256(f"format {CACHE_FORMAT}".encode())
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name} {array.dtype.str} {array.shape}".encode())
        digest.update(array.data)  # no copy: a seven-piece solution is gigabytes
    return digest.hexdigest()


def write_arrays(path: Path, arrays: ArrayMap) -> str:
    """Save numeric ``arrays`` as ``.npz`` with their checksum, atomically; the checksum."""
    digest = arrays_checksum(arrays)
    checksum = np.frombuffer(bytes.fromhex(digest), dtype=np.uint8)
    named = {"checksum": checksum, **arrays}
    # numpy's stubs type **kwds as if a name could be allow_pickle: these are array names.
    replace_atomically(path, lambda file: np.savez(file, **named))  # type: ignore[arg-type]
    return digest


def read_arrays(
    path: Path, names: tuple[str, ...]
) -> tuple[dict[str, npt.NDArray[Any]], str] | None:
    """The arrays saved at ``path`` (exactly ``names``) and their checksum, verified; ``None``
    when missing or damaged."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if set(data.files) != {*names, "checksum"}:
                report_damaged(path, f"holds {sorted(data.files)}, not {sorted(names)}")
                return None
            arrays = {name: data[name] for name in names}
            checksum = bytes(data["checksum"].astype(np.uint8)).hex()
    except Exception as error:  # a damaged .npz can fail in zipfile, numpy or the OS
        report_damaged(path, f"unreadable ({type(error).__name__})")
        return None
    if checksum != arrays_checksum(arrays):
        report_damaged(path, "its content does not match its checksum")
        return None
    return arrays, checksum
