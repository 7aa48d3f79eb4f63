"""Ray, Dask distributed and MPI (mpi4py) measured on the exchange a distributed solve makes.

Usage (from the repository root, with the engines installed: ``make setup-test`` installs
mpi4py; Ray and Dask only by hand, ``uv pip install ray distributed``):

    .venv/bin/python bench/cluster_engines.py [--values N] [--waves W] [--repeat R]

A distributed solve (:mod:`generator.solver.cluster`) keeps two workers in step wave by wave:
each wave, each worker sends the other the new values it needs (``N / W`` float64s, ``N`` the
values crossing a sweep) and all agree on the wave's largest change. For each engine, with two
worker processes on this machine, it prints: the start-up time of a two-worker cluster; the
round trip of one wave (a call to each worker and their answers: the engine's overhead per
wave); the time to move one wave's values and one sweep's values from one worker to the other;
the memory the engine's own processes take beyond the two workers' Python; and what happens to
the cluster when a worker is killed. One figure a line, ``engine: name: value unit``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve()


def _rss_mb(pids: list[int]) -> float:
    """The resident memory of these processes, in MiB (from /proc)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid``."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            child = int(entry.name)
            found += [child, *_children(child)]
    return found


def _report(engine: str, name: str, value: float, unit: str) -> None:
    print(f"{engine}: {name}: {value:.4g} {unit}", flush=True)


class _Holder:
    """A worker's state: an array it sends, and what it received."""

    def __init__(self) -> None:
        self.got = 0.0

    def ping(self, change: float) -> float:
        return change

    def make(self, n: int) -> np.ndarray:
        return np.full(n, 0.5)

    def take(self, values: np.ndarray) -> float:
        self.got = float(values[-1])
        return self.got

    def pid(self) -> int:
        return os.getpid()


def ray_engine(args: argparse.Namespace) -> None:
    # Ray and Dask are not among the project's dependencies: imported untyped, when measured.
    ray: Any = importlib.import_module("ray")

    began = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    Holder = ray.remote(max_restarts=1)(_Holder)
    a: Any = Holder.remote()
    b: Any = Holder.remote()
    pids = ray.get([a.pid.remote(), b.pid.remote()])
    _report("ray", "start-up, two workers", time.perf_counter() - began, "s")
    for _ in range(20):
        ray.get([a.ping.remote(0.0), b.ping.remote(0.0)])
    began = time.perf_counter()
    for _ in range(args.repeat):
        ray.get([a.ping.remote(0.0), b.ping.remote(0.0)])
    _report("ray", "one wave's round trip", (time.perf_counter() - began) / args.repeat * 1e3, "ms")
    for label, n in (
        ("a wave's values", args.values // args.waves),
        ("a sweep's values", args.values),
    ):
        ray.get(b.take.remote(a.make.remote(n)))
        began = time.perf_counter()
        for _ in range(args.repeat // 10):
            ray.get(b.take.remote(a.make.remote(n)))
        spent = (time.perf_counter() - began) / (args.repeat // 10)
        _report("ray", f"{label} ({n:,} floats) a to b", spent * 1e3, "ms")
    engine = [p for p in _children(os.getpid()) if p not in pids]
    _report("ray", "engine processes' memory", _rss_mb(engine), "MiB")
    _report("ray", "engine processes", len(engine), "")
    os.kill(pids[0], signal.SIGKILL)
    time.sleep(1)
    try:
        ray.get(a.ping.remote(1.0), timeout=60)
        print("ray: killed worker: the actor restarts (its state lost); the call goes on")
    except Exception as error:
        print(f"ray: killed worker: {type(error).__name__}")
    ray.shutdown()


def dask_engine(args: argparse.Namespace) -> None:
    distributed: Any = importlib.import_module("distributed")

    began = time.perf_counter()
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    workers = list(client.scheduler_info()["workers"])
    a: Any = client.submit(_Holder, actor=True, workers=[workers[0]]).result()
    b: Any = client.submit(_Holder, actor=True, workers=[workers[1]]).result()
    pids = [a.pid().result(), b.pid().result()]
    _report("dask", "start-up, two workers", time.perf_counter() - began, "s")
    for _ in range(20):
        [f.result() for f in (a.ping(0.0), b.ping(0.0))]
    began = time.perf_counter()
    for _ in range(args.repeat):
        [f.result() for f in (a.ping(0.0), b.ping(0.0))]
    spent = (time.perf_counter() - began) / args.repeat
    _report("dask", "one wave's round trip", spent * 1e3, "ms")
    for label, n in (
        ("a wave's values", args.values // args.waves),
        ("a sweep's values", args.values),
    ):
        # Actors answer through the client: the values go a -> client -> b.
        b.take(a.make(n).result()).result()
        began = time.perf_counter()
        for _ in range(args.repeat // 10):
            b.take(a.make(n).result()).result()
        spent = (time.perf_counter() - began) / (args.repeat // 10)
        _report("dask", f"{label} ({n:,} floats) a to b", spent * 1e3, "ms")
    engine = [p for p in _children(os.getpid()) if p not in pids]
    _report("dask", "engine processes' memory", _rss_mb(engine), "MiB")
    _report("dask", "engine processes", len(engine), "")
    os.kill(pids[0], signal.SIGKILL)
    time.sleep(3)
    try:
        a.ping(1.0).result(timeout=60)
        print("dask: killed worker: the call goes on")
    except Exception as error:
        name = type(error).__name__
        print(f"dask: killed worker: {name} (the nanny restarts the worker, the actor is gone)")
    client.close()
    cluster.close()


def mpi_worker(args: argparse.Namespace) -> None:
    """Run under ``mpiexec -n 2``: rank 0 reports."""
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    rank = comm.rank
    for _ in range(20):
        comm.allreduce(0.0, op=MPI.MAX)
    comm.Barrier()
    began = time.perf_counter()
    for _ in range(args.repeat):
        comm.allreduce(0.0, op=MPI.MAX)
    if rank == 0:
        spent = (time.perf_counter() - began) / args.repeat
        _report("mpi", "one wave's round trip (allreduce of the change)", spent * 1e3, "ms")
    for label, n in (
        ("a wave's values", args.values // args.waves),
        ("a sweep's values", args.values),
    ):
        out, into = np.full(n, 0.5), np.empty(n)
        comm.Sendrecv(out, 1 - rank, recvbuf=into, source=1 - rank)
        comm.Barrier()
        began = time.perf_counter()
        for _ in range(args.repeat // 10):
            comm.Sendrecv(out, 1 - rank, recvbuf=into, source=1 - rank)
        if rank == 0:
            spent = (time.perf_counter() - began) / (args.repeat // 10)
            _report("mpi", f"{label} ({n:,} floats) both ways", spent * 1e3, "ms")
    if rank == 0:
        proxy = os.getppid()
        launcher = int(Path(f"/proc/{proxy}/stat").read_text().rsplit(")", 1)[1].split()[1])
        _report("mpi", "engine processes' memory", _rss_mb([proxy, launcher]), "MiB")
        _report("mpi", "engine processes (launcher and its proxy)", 2, "")
    if args.kill:
        if rank == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        comm.allreduce(0.0, op=MPI.MAX)


def mpi_engine(args: argparse.Namespace) -> None:
    mpiexec = str(Path(sys.executable).parent / "mpiexec")
    command = [mpiexec, "-n", "2", sys.executable, str(HERE), "--mpi-worker"]
    command += ["--values", str(args.values), "--waves", str(args.waves)]
    command += ["--repeat", str(args.repeat)]
    began = time.perf_counter()
    subprocess.run([mpiexec, "-n", "2", sys.executable, "-c", "from mpi4py import MPI"], check=True)
    _report("mpi", "start-up, two workers (mpiexec, import)", time.perf_counter() - began, "s")
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import numpy"], check=True)
    _report(
        "mpi", "(one plain Python with numpy, for comparison)", time.perf_counter() - began, "s"
    )
    subprocess.run(command, check=True)
    began = time.perf_counter()
    done = subprocess.run([*command, "--kill"], capture_output=True, text=True, timeout=120)
    print(
        f"mpi: killed worker: mpiexec ends every rank, exit {done.returncode}, after"
        f" {time.perf_counter() - began:.2f} s (a rerun resumes from the checkpoints)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--values", type=int, default=2_000_000)
    parser.add_argument("--waves", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=500)
    parser.add_argument("--engines", default="mpi,ray,dask")
    parser.add_argument("--mpi-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--kill", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mpi_worker:
        mpi_worker(args)
        return 0
    engines = {"mpi": mpi_engine, "ray": ray_engine, "dask": dask_engine}
    for name in args.engines.split(","):
        engines[name](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
