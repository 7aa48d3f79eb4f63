"""Child processes that go when their parent goes.

A build forks simulation workers and starts mkdocs. If the build is killed outright (SIGKILL,
the out-of-memory killer), nothing in it runs any more, so the children must be told by the
kernel: Linux's ``PR_SET_PDEATHSIG`` (prctl(2)) sends them a signal when their parent dies.
Without it, forked pool workers wait for ever on a queue whose writing end they hold
themselves, and mkdocs runs on. On systems without prctl this is a no-op.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


def process_peak() -> int:
    """This process's peak resident memory so far, in bytes (Linux reports it in KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


_M_MMAP_THRESHOLD = -3
"""From <malloc.h> (glibc's mallopt(3))."""

LARGE_ALLOCATION = 1 << 20
"""Allocations from this size on are mapped apart and given back to the system when freed."""


def give_back_large_allocations() -> None:
    """Have glibc map every allocation of :data:`LARGE_ALLOCATION` bytes or more apart, so
    that freeing it returns its memory to the system at once.

    glibc does that from 128 KiB by default, but raises the threshold to the size of each such
    block freed, up to 32 MiB: a long solve that frees its per-layer arrays then takes later
    ones from its heap, which glibc keeps, and the process grows layer by layer. Setting the
    threshold keeps it where it is (one worker of five-piece Finkel: resident during layer 2's
    value sweeps 620 MiB, against 707 MiB without). A no-op where glibc is not the
    allocator."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, LARGE_ALLOCATION)
    except (OSError, AttributeError):
        return


_PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>."""


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when the process ``parent`` ends.

    Run in the child, right after it starts. If the parent already ended before the request
    was made (a race the kernel cannot see), the child leaves at once.
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def worker_start(parent: int) -> None:
    """Initializer of a forked pool worker: die with the parent, and leave SIGINT and SIGTERM
    to it (the parent stops the workers; a worker inherits the parent's handlers on fork)."""
    die_with_parent(parent)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ChildFailed(RuntimeError):
    """A forked child ended without a result (killed, or its error could not be sent back)."""


class Forked(Generic[T]):
    """``work`` running in a forked child process (which dies with this one), started at once:
    for an independent piece of a build that can use the second core while this process does
    something else. The child inherits everything in memory, so ``work`` need not be
    picklable, only its result. Use it as a context manager: leaving the block kills a child
    whose result was not taken (an error here does not leave it running)::

        with Forked(slow_part) as later:
            mine = other_part()
            theirs = later.result()
    """

    def __init__(self, work: Callable[[], T], fork: bool = True) -> None:
        """Start ``work`` in a child, or (``fork`` false: one job) run it here and now."""
        self._done: tuple[T] | None = None
        if not fork:
            self._done = (work(),)
            return
        context = multiprocessing.get_context("fork")
        self._reading, writing = context.Pipe(duplex=False)
        parent = os.getpid()

        def child() -> None:
            die_with_parent(parent)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it
            try:
                outcome: tuple[bool, Any] = (True, work())
            except BaseException as error:  # sent back and raised in the parent
                outcome = (False, error)
            try:
                writing.send(outcome)
            except Exception:  # an unpicklable result or error: say what it was
                text = "".join(traceback.format_exception(outcome[1]))
                writing.send((False, ChildFailed(text)))

        self._process = context.Process(target=child)  # not a daemon: it may fork workers
        self._process.start()
        writing.close()

    def result(self) -> T:
        """Wait for the child's result; raise the error it raised."""
        if self._done is not None:
            return self._done[0]
        try:
            done, value = self._reading.recv()
        except EOFError:
            self._process.join()
            code = self._process.exitcode
            raise ChildFailed(f"a child process ended without a result (exit {code})") from None
        self._process.join()
        if not done:
            raise value
        return cast(T, value)

    def __enter__(self) -> Forked[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._done is not None:
            return
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._reading.close()
