"""Check the sources' claims: each verdict and the figures behind it, as the site shows them.

With no claim ids, every claim of every rulebook. The checks run as the build runs them (the
same games and seed by default), so the figures on the claims page come from this command;
results are cached under .cache/claims/ as the build caches them (--no-cache: compute again).

With --write-results, the exact worths of the central rosette (solved games, too slow for a
cold build) and the checks' sampled figures and reachability tallies (games played) are taken
from .cache/claims/ or computed, not read from the committed files, and written to
results/rosette-worth.json and results/claim-figures.json with the command, commit, date and
machine; the build reads them from there while their key (the rules, versions, games and
seed) is current.
"""

from __future__ import annotations

import argparse
import sys
import time

from generator.commands._options import add_results_arguments, whole_number

ORDER = 7


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("claim", nargs="*", help="claim id(s), e.g. gb-claim-no-draw")
    parser.add_argument(
        "--games",
        type=whole_number(1, 10**7),
        default=None,
        help="games per sampled check (default: the build's)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed (default: the build's)")
    add_results_arguments(
        parser,
        "claims",
        "check again",
        "compute the central rosette's exact worths and the checks' sampled figures afresh"
        " and write them to results/rosette-worth.json and results/claim-figures.json (with"
        " every claim checked, as the build checks them)",
    )


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import load_or_report
    from generator.measure.core import Settings
    from generator.sim import claim_checks as cc
    from generator.sim.results_files import provenance, write_results

    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    claims = {c.id: c for v in catalog.variants.values() for c in v.claims}
    unknown = [c for c in args.claim if c not in claims]
    if unknown:
        print(
            f"unknown claim {', '.join(unknown)}; known: {', '.join(sorted(claims))}",
            file=sys.stderr,
        )
        return 2
    build = Settings(cache_root=args.root / ".cache")  # the build's defaults
    settings = cc.CheckSettings(
        games=build.claim_games if args.games is None else args.games,
        seed=build.seed if args.seed is None else args.seed,
        cache_dir=None if args.no_cache else build.cache_root / "claims",
        worths={} if args.write_results else None,
        figures={} if args.write_results else None,
        committed=cc.committed_figures(),
    )
    if args.write_results and args.claim:
        print("--write-results checks every claim: name none", file=sys.stderr)
        return 2
    began = time.perf_counter()
    for claim_id in args.claim or sorted(claims):
        result = cc.check_claim(catalog, claims[claim_id], settings)
        print(f"{claim_id}: {result.verdict}")
        print(f"  {result.summary}")
        for label, figure in result.numbers.items():
            print(f"  {label}: {figure}")
    if settings.worths is not None and settings.figures is not None:
        command = cc.WRITE_COMMAND + (" --no-cache" if args.no_cache else "")
        made = provenance(args.root, command, time.perf_counter() - began)
        written = (
            ("worths", settings.worths, cc.WORTH_FILE, cc.WORTH_FORMAT),
            ("figures", settings.figures, cc.FIGURES_FILE, cc.FIGURES_FORMAT),
        )
        for name, found, committed, layout in written:
            output = args.root / "results" / committed.name
            write_results(output, layout, {name: dict(sorted(found.items())), **made})
            print(f"{len(found)} {name} written to {output}")
    return 0
