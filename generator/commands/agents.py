"""Check that each named agent beats random play, in every simulated rulebook, both seats.

First fits the fitted agent's evaluation for every rulebook (exact solutions at three pieces a
side, two on the long routes; generator/solver/fitted_agent.py) and writes
results/fitted-agent.json with its exact figures against random and perfect play.

Each cheap agent plays 50,000 seeded games a seat against a uniformly random player; it
qualifies on a rulebook when its share of wins over both seats is at least 55 % with the whole
95 % interval above that (generator/solver/agent_check.py). Writes
results/agents-vs-random.json with the command, commit, date and machine; the games are
cached under .cache/sim/. Prints each agent's worst score. A few minutes of one core.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

from generator.commands._options import MAX_JOBS, MAX_SEED, whole_number

ORDER = 44


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs", type=whole_number(1, MAX_JOBS), default=1, help="processes (default 1)"
    )
    parser.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=None, help="seed (default 20261130)"
    )
    parser.add_argument(
        "--agents",
        default=None,
        help="play only these agents (comma-separated), keeping the others' scores from the"
        " existing results file (same seed and games); default: every agent",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="where to write the results (default results/agents-vs-random.json)",
    )


def run(args: argparse.Namespace) -> int:
    from generator.claims.behaviour import stamp
    from generator.commands._catalog import load_or_report
    from generator.sim.records import DEFAULT_SEED
    from generator.sim.results_files import provenance, publish
    from generator.solver.agent_check import (
        CHECKED_AGENTS,
        RESULTS_FORMAT,
        fit_all,
        measure_agents,
        read_results,
        summary,
    )
    from generator.solver.fitted_agent import write_fits

    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    began = time.perf_counter()
    seed = DEFAULT_SEED if args.seed is None else args.seed
    command = "ur-variants agents" + (f" --jobs {args.jobs}" if args.jobs > 1 else "")
    command += f" --seed {seed}" if args.seed is not None else ""
    agents = CHECKED_AGENTS if args.agents is None else tuple(args.agents.split(","))
    unknown = sorted(set(agents) - set(CHECKED_AGENTS))
    if unknown:
        print(f"unknown agents {', '.join(unknown)}; choose from {', '.join(CHECKED_AGENTS)}")
        return 2
    command += f" --agents {args.agents}" if args.agents is not None else ""
    results_dir = args.root / "results"
    log = functools.partial(print, file=sys.stderr, flush=True)
    fits = fit_all(catalog, jobs=args.jobs, cache_dir=args.root / ".cache" / "fitted", log=log)
    fits_file = results_dir / "fitted-agent.json"
    made = provenance(args.root, command, time.perf_counter() - began, stamp(fits_file.name))
    write_fits(fits_file, {**made, **fits})
    print(f"fits written to {fits_file}")
    output = args.output or results_dir / "agents-vs-random.json"
    try:
        results = measure_agents(
            catalog,
            seed=seed,
            jobs=args.jobs,
            cache_dir=args.root / ".cache" / "sim",
            log=log,
            agents=agents,
            earlier=read_results(output) if agents != CHECKED_AGENTS else None,
        )
    except ValueError as error:
        print(f"ur-variants agents: {error}", file=sys.stderr)
        return 2
    behaviour = stamp(output.name)
    publish(args.root, output, RESULTS_FORMAT, command, began, results, summary, behaviour)
    return 0
