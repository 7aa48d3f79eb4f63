"""Processor and wall time of the default simulation suite, cold (empty cache) then warm.

Usage (from the repository root):

    .venv/bin/python bench/suite_processor_time.py [--jobs 2] [--cache DIR]

Cold runs into a fresh temporary cache (or ``--cache DIR``, emptied first); warm reruns on the
cache the cold run filled. Processor time is this process plus its worker processes
(``resource.getrusage`` of self and children), which moves far less with the machine's load
than wall time. The kernel is loaded (or compiled) before timing starts: the figure is the
suite's work, not numba's. One figure a line, ``name: value unit``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path


def processor_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args()

    from generator.engine.rules import compile_rules
    from generator.model.catalog import load_valid_catalog
    from generator.sim import fast
    from generator.sim.encode import encode_rules
    from generator.sim.suite import default_suite

    catalog = load_valid_catalog(Path("variants"))
    some = catalog.resolve(next(iter(catalog.variants)))
    packed = encode_rules(compile_rules(some)).packed()
    fast.play_games(packed, fast.GREEDY, fast.RANDOM, 1, 0, 2)

    cache = args.cache or Path(tempfile.mkdtemp(prefix="suite-bench-"))
    shutil.rmtree(cache, ignore_errors=True)
    print(f"machine load average (1 min): {os.getloadavg()[0]:.1f}")
    for label in ("cold", "warm"):
        began, began_cpu = time.perf_counter(), processor_seconds()
        suite = default_suite(catalog, jobs=args.jobs, cache_dir=cache)
        cpu = processor_seconds() - began_cpu
        wall = time.perf_counter() - began
        print(f"default suite {label} processor time: {cpu:.1f} s")
        print(f"default suite {label} wall time (jobs={args.jobs}): {wall:.1f} s")
    print(f"records: {sum(1 for _ in suite.records())}")
    if args.cache is None:
        shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
