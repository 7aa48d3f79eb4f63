"""Time ``validate`` on a catalogue whose one variant file holds many rulings.

Usage (from the repository root):

    .venv/bin/python bench/validate_many_rulings.py [--rulings 8000 2000 ...]

A copy of ``variants/`` gets one extra variant file with the given number of rulings (the
first variant's rulings, repeated with fresh ids and kept valid apart from answering their
questions more than once); the whole catalogue is loaded and checked as ``validate`` does.
Loading stays linear in the rulings when the processor seconds per ruling stay flat as the
count grows. One figure a line, ``name: value unit``.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import yaml

from generator.model.catalog import load_catalog

ROOT = Path(__file__).resolve().parent.parent


def many_rulings_file(folder: Path, count: int) -> None:
    """``bench-many.yml`` in ``folder``: finkel-great-book with ``count`` rulings."""
    data = yaml.safe_load((folder / "finkel-great-book.yml").read_text(encoding="utf-8"))
    template = data["rulings"]
    rulings = []
    for i in range(count):
        ruling = dict(template[i % len(template)])
        ruling["id"] = f"bench-{i}"
        rulings.append(ruling)
    data.update(id="bench-many", rulings=rulings, claims=[])
    (folder / "bench-many.yml").write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    args = parser.parse_args()
    for count in args.rulings:
        with tempfile.TemporaryDirectory() as folder:
            variants = Path(folder) / "variants"
            shutil.copytree(ROOT / "variants", variants)
            many_rulings_file(variants, count)
            began, began_cpu = time.perf_counter(), time.process_time()
            _, problems = load_catalog(variants)
            wall, cpu = time.perf_counter() - began, time.process_time() - began_cpu
        print(f"validate with {count} rulings in one file: {cpu:.2f} s (processor)")
        print(f"validate with {count} rulings, wall: {wall:.2f} s")
        print(f"validate with {count} rulings, per ruling: {1e6 * cpu / count:.0f} us (processor)")
        print(f"validate with {count} rulings, problems reported: {len(problems)}")


if __name__ == "__main__":
    main()
