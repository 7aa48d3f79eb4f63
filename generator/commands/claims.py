"""Check the sources' claims: each verdict and the figures behind it, as the site shows them.

With no claim ids, every claim of every rulebook. The checks run as the build runs them (the
same games and seed by default), so the figures on the claims page come from this command;
results are cached under .cache/claims/ as the build caches them (--no-cache: compute again).

With --write-results, the exact worths of the central rosette (solved games, too slow for a
cold build) are computed, not read from the committed file, and written to
results/rosette-worth.json with the command, commit, date and machine; the build reads them
from there while their game is unchanged.
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
        "compute the central rosette's exact worths afresh and write them to"
        " results/rosette-worth.json (with every claim checked, as the build checks them)",
    )


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import load_or_report
    from generator.measure.core import Settings
    from generator.sim.claim_checks import WORTH_FORMAT, CheckSettings, check_claim
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
    settings = CheckSettings(
        games=build.claim_games if args.games is None else args.games,
        seed=build.seed if args.seed is None else args.seed,
        cache_dir=None if args.no_cache else build.cache_root / "claims",
        worths={} if args.write_results else None,
    )
    if args.write_results and args.claim:
        print("--write-results checks every claim: name none", file=sys.stderr)
        return 2
    began = time.perf_counter()
    for claim_id in args.claim or sorted(claims):
        result = check_claim(catalog, claims[claim_id], settings)
        print(f"{claim_id}: {result.verdict}")
        print(f"  {result.summary}")
        for label, figure in result.numbers.items():
            print(f"  {label}: {figure}")
    if settings.worths is not None:
        command = "ur-variants claims --write-results"
        output = args.root / "results" / "rosette-worth.json"
        took = time.perf_counter() - began
        worths = dict(sorted(settings.worths.items()))
        made = provenance(args.root, command, took)
        write_results(output, WORTH_FORMAT, {"worths": worths, **made})
        print(f"{len(worths)} worths of the central rosette written to {output}")
    return 0
