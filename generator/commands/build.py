"""Build the whole site: validate, simulate (committed or cached), render, run mkdocs into site/.

Validation problems stop the build and are listed. Simulation records, exact solutions and
claim checks are cached under .cache/; --refresh recomputes all three and replaces the cache.
A failed or stopped build leaves the previous site/ as it was.

The site folder is replaced whole, so a build writes only to a folder that is absent, empty or
a site a build made (it holds the stamp .ur-variants-site); it refuses the checkout, a folder
containing it, docs/ and any other folder. A --site-dir that is a symbolic link is followed:
the folder it points to is replaced and the link kept. One build at a time runs in a checkout.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

ORDER = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-simulate",
        dest="simulate",
        action="store_false",
        help="skip simulation, solving and claim checks (pages say so); fastest build",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help="games per sampled claim check (default 2000; the suite's sizes are fixed)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=os.cpu_count() or 1,
        help="worker processes for simulation (default: every core)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of every simulation (default: the suite's)"
    )
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="measure and render everything again: simulation records, exact solutions and"
        " claim checks are recomputed, not read from .cache/, the cache is replaced, and"
        " every page is rendered again",
    )
    parser.add_argument(
        "--site-dir", type=Path, default=None, help="where to build the site (default: site/)"
    )


def positive_int(text: str) -> int:
    """A count given on the command line: a whole number above 0."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return value


def run(args: argparse.Namespace) -> int:
    import time

    from generator.build import BuildError, BuildOptions, build
    from generator.sim.records import DEFAULT_SEED

    options = BuildOptions(
        root=args.root.resolve(),
        simulate=args.simulate,
        games=args.games,
        jobs=args.jobs,
        seed=args.seed if args.seed is not None else DEFAULT_SEED,
        refresh=args.refresh,
        # Absolute, links not followed yet: the build follows them and says if they loop.
        site_dir=Path(os.path.abspath(args.site_dir)) if args.site_dir else None,
    )
    began = time.perf_counter()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop like Ctrl-C: clean up
    try:
        report = build(options)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("build stopped; the previous site is left as it was", file=sys.stderr)
        return 130
    steps = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in report.seconds.items())
    site = options.site_dir or options.root / "site"
    print(
        f"built {report.pages} pages into {site} in {time.perf_counter() - began:.1f} s ({steps})"
    )
    return 0
