"""``ur-variants solve VARIANT --workers K [--address HOSTS]``: the exact solve on K MPI
workers (:mod:`generator.solver.cluster`), started by ``mpiexec`` on this machine or on the
hosts named, each worker :mod:`generator.commands._cluster_worker`.

The first worker prints the solution as a single-process solve does and writes its values
and lengths beside the workers' checkpoints. A lost worker ends the run; the same command
resumes it from the layers every worker finished.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.engine.rules import Rules

MISSING_MPI = (
    "--workers: the distributed solve needs MPI (mpi4py and an MPI such as the mpich wheel);"
    " install the cluster extra: uv pip install -e '.[cluster]'"
)


def mpiexec() -> str | None:
    """The ``mpiexec`` of this environment's MPI (the mpich wheel puts one beside Python), or
    the one on the PATH; ``None`` when there is none or mpi4py is missing."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None
    beside = Path(sys.executable).parent / "mpiexec"
    return str(beside) if beside.exists() else shutil.which("mpiexec")


def named_hosts(address: str) -> list[tuple[str, str]]:
    """The hosts ``--address`` names, each with where it is named: MPICH's forms, a file of
    hosts (``host`` or ``host:workers`` a line, ``#`` starting a comment; ``file:line``) or
    hosts separated by commas (``--address``)."""
    where = Path(address)
    if where.is_file():
        lines = where.read_text(encoding="utf-8", errors="replace").splitlines()
        named = [(line.split("#", 1)[0].strip(), f"{where}:{n}") for n, line in enumerate(lines, 1)]
    else:
        named = [(part.strip(), "--address") for part in address.split(",")]
    return [(text.split(":", 1)[0].strip(), at) for text, at in named if text]


def unknown_host(address: str) -> str | None:
    """Why ``--address`` names no host MPI could start a worker on, or ``None``: the first
    host whose name does not resolve here, where it is named, and the fix. (A host that
    resolves but refuses SSH is reported by ``mpiexec`` itself.)"""
    import socket

    named = named_hosts(address)
    if not named:
        return (
            f"--address {address}: names no host; give hosts separated by commas, or a file"
            " of hosts, one a line"
        )
    for host, at in named:
        try:
            socket.getaddrinfo(host, None)
        except (socket.gaierror, UnicodeError):
            return (
                f"{at}: host {host!r} is not known to this machine (its name does not"
                " resolve); correct the name, or add it to /etc/hosts or the DNS"
            )
    return None


def launch(args: argparse.Namespace, cache_dir: Path, rules: Rules) -> int:
    """Start ``args.workers`` workers on the solve of ``args.variant`` (``rules``, with its
    pieces); their exit status. A run that stops says what it kept and what it lost."""
    if len(args.variant) != 1:
        print("--workers: solve one variant at a time on a cluster", file=sys.stderr)
        return 2
    if args.no_cache:
        print(
            "--workers: a distributed solve keeps its checkpoints in --cache-dir (remove its"
            " cluster folder to solve again); drop --no-cache",
            file=sys.stderr,
        )
        return 2
    launcher = mpiexec()
    if launcher is None:
        print(MISSING_MPI, file=sys.stderr)
        return 2
    command = [launcher, "-n", str(args.workers)]
    if args.address:
        # MPICH's mpiexec: a file of hosts (one a line), or hosts separated by commas.
        where = Path(args.address)
        command += ["-f", str(where)] if where.is_file() else ["-hosts", args.address]
    command += [sys.executable, "-m", "generator.commands._cluster_worker", args.variant[0]]
    command += ["--root", str(args.root), "--cache-dir", str(cache_dir)]
    if args.pieces is not None:
        command += ["--pieces", str(args.pieces)]
    for change in args.set:
        command += ["--set", change]
    if args.progress:
        command.append("--progress")
    from generator.solver.solve_read import committed_start

    # The workers start from the fitted evaluation where it is asked for and committed.
    start = committed_start(rules) if args.fitted_start else None
    if start is not None:
        command.append("--fitted-start")
    env = dict(os.environ)
    if not args.address:
        # Workers on one machine share its cores: each gets its part for its kernels' threads.
        threads = str(max(1, (os.cpu_count() or 1) // args.workers))
        env.update(NUMBA_NUM_THREADS=threads, OMP_NUM_THREADS=threads)
    status = subprocess.run(command, env=env, check=False).returncode
    if status != 0:
        from generator.solver.cluster import loss_report
        from generator.solver.solve_read import cluster_folder

        # Workers on other hosts checkpoint there: only a local run's are read here.
        kept = (
            "each host keeps its workers' checkpoints"
            if args.address
            else loss_report(
                cluster_folder(cache_dir, rules, args.workers, start=start), args.workers
            )
        )
        print(
            f"{args.variant[0]}: the distributed solve stopped (a worker was lost or failed,"
            f" exit {status}): {kept}; run the same command again to resume from the layers"
            " every worker finished",
            file=sys.stderr,
        )
        return 1
    return 0
