"""Child processes that go when their parent goes.

A build forks simulation workers and starts mkdocs. If the build is killed outright (SIGKILL,
the out-of-memory killer), nothing in it runs any more, so the children must be told by the
kernel: Linux's ``PR_SET_PDEATHSIG`` (prctl(2)) sends them a signal when their parent dies.
Without it, forked pool workers wait for ever on a queue whose writing end they hold
themselves, and mkdocs runs on. On systems without prctl this is a no-op.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

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
