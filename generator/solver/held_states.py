"""The states a worker of a distributed solve keeps for one layer, found in time and memory
that grow with its share, not the layer (:mod:`generator.solver.cluster_layer`).

A worker keeps its own states, the states of the layer its share's options lead to, and those
of the next layer they reach. They are marked in a bit a state of the layer and the next: the
slot map the sweeps read (:func:`generator.solver.solve_sweeps.slot`), a count every 64 states
beside it. Marking is one pass over the share's successors, a chunk of
:data:`READ_CHUNK` states at a time; a second pass writes each kept state's key at its slot.
Nothing is sorted and no list of successors is held whole, so a share of hundreds of millions
of states costs two passes over its moves (an earlier version merged each chunk's successors
into a sorted list of every state read so far: a sort of the whole list a chunk, thousands of
chunks a layer on a share of that size).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from generator.solver import partition
from generator.solver.solve_space import IntArray
from generator.solver.solve_sweeps import _bits_below, slot

READ_CHUNK = 1 << 16
"""States whose successors are listed at a time (about twenty successors a state, 8 bytes
each and their keys: some 20 MiB a chunk, whatever the share; a chunk four times larger took
90 MiB more of a worker's peak on four-piece Finkel)."""


class Held(NamedTuple):
    """What a worker keeps of a layer and the next: the slot map (``bits``, a bit a state of
    the layer and the next, set where it is kept; ``ranks``, the kept states before each word
    of 64), the kept states' ids less the layer's base in slot order (the layer's, then the
    next's) and their keys ``(p * C + i) * C + j``, and how many are the layer's own."""

    bits: npt.NDArray[np.uint64]
    ranks: IntArray
    ids: IntArray
    keys: IntArray
    inside: int


@njit(cache=True)
def _mark(bits: np.ndarray, ids: np.ndarray, base: int, span: int) -> None:
    """Set the bit of each state ``ids`` (less ``base``), refusing one past the layer and the
    next (``span`` states)."""
    for k in range(ids.shape[0]):
        place = ids[k] - base
        if place < 0 or place >= span:
            raise AssertionError("solver bug: a move leads outside the layer and the next")
        bits[place >> 6] |= np.uint64(1) << np.uint64(place & 63)


@njit(cache=True)
def _ranks(bits: np.ndarray) -> np.ndarray:
    """The set bits before each word of ``bits`` (one entry more than the words)."""
    ranks = np.zeros(bits.shape[0] + 1, dtype=np.int64)
    for w in range(bits.shape[0]):
        ranks[w + 1] = ranks[w] + _bits_below(bits[w], 63) + int(bits[w] >> np.uint64(63))
    return ranks


@njit(cache=True)
def _listed(bits: np.ndarray, count: int) -> np.ndarray:
    """The places of the set bits, in order (``count`` of them)."""
    ids = np.empty(count, dtype=np.int64)
    k = 0
    for w in range(bits.shape[0]):
        word = bits[w]
        b = 0
        while word != 0:
            if word & np.uint64(1):
                ids[k] = w * 64 + b
                k += 1
            word >>= np.uint64(1)
            b += 1
    return ids


@njit(cache=True)
def _write_keys(
    bits: np.ndarray,
    ranks: np.ndarray,
    ids: np.ndarray,
    keys: np.ndarray,
    base: int,
    into: np.ndarray,
) -> None:
    """Each state's key at its slot (a state listed twice has one key)."""
    for k in range(ids.shape[0]):
        into[slot(ids[k] - base, bits, ranks)] = keys[k]


@njit(cache=True)
def slots_in(bits: np.ndarray, ranks: np.ndarray, places: np.ndarray) -> np.ndarray:
    """The slots of kept states (``places``: ids less the layer's base) by the slot map."""
    out = np.empty(places.shape[0], dtype=np.uint32)
    for k in range(places.shape[0]):
        out[k] = slot(places[k], bits, ranks)
    return out


def held_by_share(
    solved: partition.Game,
    own_keys: npt.NDArray[np.integer],
    own_ids: IntArray,
    base: int,
    span: int,
    size: int,
) -> Held:
    """What the worker whose states are ``own_keys`` (ids ``own_ids`` less ``base``) keeps
    of the layer (``size`` states) and the next (``span`` states with the layer): its states
    and every state their options lead to (:class:`Held`)."""
    bits = np.zeros((span + 63) // 64, dtype=np.uint64)
    own = np.asarray(own_ids, dtype=np.int64)
    _mark(bits, own, 0, span)
    for _, chunk in _chunks(own_keys):
        _mark(bits, partition.successors(solved, chunk)[1], base, span)
    ranks = _ranks(bits)
    kept = int(ranks[-1])
    keys = np.empty(kept, dtype=np.int64)
    for start, chunk in _chunks(own_keys):
        _write_keys(bits, ranks, own[start : start + chunk.size], chunk, 0, keys)
        _, successor, successor_keys = partition.successors_with_keys(solved, chunk)
        _write_keys(bits, ranks, successor, successor_keys, base, keys)
    inside = kept if size >= span else int(slots_in(bits, ranks, np.array([size]))[0])
    return Held(bits, ranks, _listed(bits, kept), keys, inside)


def _chunks(keys: npt.NDArray[np.integer]) -> Iterator[tuple[int, IntArray]]:
    """The keys a chunk at a time, each chunk's first place with it."""
    for start in range(0, keys.shape[0], READ_CHUNK):
        yield start, keys[start : start + READ_CHUNK].astype(np.int64)
