"""Cache files that can be damaged but never published damaged.

Every cache entry (simulation records, claim checks, exact solutions) is written whole or not
at all (:func:`generator.files.replace_file`: a temporary file in the same folder, flushed,
then renamed over the entry), so a killed build or a full disk leaves the old entry or the new
one, never half of one; a failed write raises :class:`generator.files.WriteError`. Each
entry carries a format version and the SHA-256 of its payload; on reading, an entry that cannot
be parsed, has another format, or whose payload does not match its checksum is reported in one
line and treated as missing, so the caller recomputes it.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, BinaryIO

import numpy as np
import numpy.typing as npt

from generator.files import replace_file

CACHE_FORMAT = 1
"""The layout of a cache entry (envelope and checksum); changing it invalidates every entry."""


def report_damaged(path: Path, reason: str) -> None:
    """One line on standard error: which entry, what is wrong, what happens next."""
    print(f"cache: {path}: {reason}; recomputing it", file=sys.stderr)


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
    replace_file(path, lambda file: file.write(text.encode()))


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


def _new_digest() -> hashlib._Hash:
    """The SHA-256 every arrays checksum starts from."""
    return hashlib.sha256(f"format {CACHE_FORMAT}".encode())


def _array_header(name: str, array: npt.NDArray[Any]) -> bytes:
    """What an arrays checksum hashes before an array's bytes."""
    return f"{name} {array.dtype.str} {array.shape}".encode()


CHUNK_BYTES = 16 * 2**20
"""Arrays are hashed, written and read this much at a time."""

Release = Callable[[str, int, int], None]
"""Told ``(name, start, stop)`` once entries ``start:stop`` of array ``name`` are written or
read: a memory-mapped array saved or filled only in passing may let those pages go."""


def _chunks(array: npt.NDArray[Any]) -> Iterator[tuple[int, int]]:
    step = max(1, CHUNK_BYTES // max(1, array.itemsize))
    for start in range(0, array.shape[0], step):
        yield start, min(array.shape[0], start + step)


def arrays_checksum(arrays: ArrayMap, release: Release | None = None) -> str:
    """SHA-256 of named arrays: names, dtypes, shapes and bytes, in name order. A flat array
    is hashed a chunk at a time, ``release`` told of each chunk hashed: a memory-mapped
    solution (gigabytes) is hashed without all of it coming into memory at once."""
    digest = _new_digest()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])  # no copy of an array already contiguous
        digest.update(_array_header(name, array))
        if array.ndim != 1:
            digest.update(array.data)
            continue
        for start, stop in _chunks(array):
            digest.update(array[start:stop].data)
            if release is not None:
                release(name, start, stop)
    return digest.hexdigest()


def write_arrays(path: Path, arrays: ArrayMap, release: Release | None = None) -> str:
    """Save one-dimensional numeric ``arrays`` as ``.npz`` (what :func:`numpy.savez` writes,
    the checksum as one more array), atomically; the checksum. Each array is hashed and
    written a chunk at a time, in one pass, and ``release`` told of each chunk written: a
    memory-mapped array is saved without all of it coming into memory at once."""
    digest = _new_digest()

    def write(file: BinaryIO) -> None:
        with zipfile.ZipFile(file, mode="w", compression=zipfile.ZIP_STORED) as archive:
            for name in sorted(arrays):
                array = arrays[name]
                if array.ndim != 1 or not array.flags.c_contiguous:
                    raise ValueError(f"{name}: saved a chunk at a time, it must be a flat array")
                digest.update(_array_header(name, array))
                with archive.open(f"{name}.npy", mode="w", force_zip64=True) as member:
                    np.lib.format.write_array_header_1_0(
                        member, np.lib.format.header_data_from_array_1_0(array)
                    )
                    for start, stop in _chunks(array):
                        piece = array[start:stop].data
                        digest.update(piece)
                        member.write(piece)
                        if release is not None:
                            release(name, start, stop)
            checksum = np.frombuffer(digest.digest(), dtype=np.uint8)
            with archive.open("checksum.npy", mode="w") as member:
                np.lib.format.write_array(member, checksum, allow_pickle=False)

    replace_file(path, write)
    return digest.hexdigest()


def read_arrays(
    path: Path,
    names: tuple[str, ...],
    into: ArrayMap | None = None,
    release: Release | None = None,
) -> tuple[dict[str, npt.NDArray[Any]], str] | None:
    """The arrays saved at ``path`` (exactly ``names``) and their checksum, verified; ``None``
    when missing or damaged. An array named in ``into`` is read a chunk at a time straight
    into the array given there (same shape and type; ``release`` told of each chunk read),
    not into a new one, and returned as that array: on ``None`` it holds what was read."""
    if not path.exists():
        return None
    into = into or {}
    digest = _new_digest()
    arrays: dict[str, npt.NDArray[Any]] = {}
    try:
        with zipfile.ZipFile(path) as archive:
            files = {name.removesuffix(".npy") for name in archive.namelist()}
            if files != {*names, "checksum"}:
                report_damaged(path, f"holds {sorted(files)}, not {sorted(names)}")
                return None
            for name in sorted(names):
                with archive.open(f"{name}.npy") as member:
                    arrays[name] = _read_member(member, name, into.get(name), digest, release)
            with archive.open("checksum.npy") as member:
                checksum = bytes(np.lib.format.read_array(member).astype(np.uint8)).hex()
    except Exception as error:  # a damaged .npz can fail in zipfile, numpy or the OS
        report_damaged(path, f"unreadable ({type(error).__name__}: {error})")
        return None
    if checksum != digest.hexdigest():
        report_damaged(path, "its content does not match its checksum")
        return None
    return arrays, checksum


def _read_member(
    member: IO[bytes],
    name: str,
    target: npt.NDArray[Any] | None,
    digest: hashlib._Hash,
    release: Release | None,
) -> npt.NDArray[Any]:
    """One ``.npy`` member, hashed into ``digest`` as :func:`arrays_checksum` hashes it: into
    ``target`` a chunk at a time (telling ``release`` after each), or whole into a new array."""
    if target is None:
        array: npt.NDArray[Any] = np.lib.format.read_array(member, allow_pickle=False)
        digest.update(_array_header(name, array))
        digest.update(np.ascontiguousarray(array).data)
        return array
    version = np.lib.format.read_magic(member)
    shape, fortran, dtype = (
        np.lib.format.read_array_header_1_0(member)
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0(member)
    )
    if shape != target.shape or fortran or dtype != target.dtype:
        raise ValueError(f"{name} is {dtype} {shape}, not {target.dtype} {target.shape}")
    digest.update(_array_header(name, target))
    for start, stop in _chunks(target):
        data = member.read((stop - start) * target.itemsize)
        if len(data) != (stop - start) * target.itemsize:
            raise ValueError(f"{name} ends early")
        digest.update(data)
        target[start:stop] = np.frombuffer(data, dtype=target.dtype)
        if release is not None:
            release(name, start, stop)
    return target
