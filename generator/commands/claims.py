"""Check the sources' claims: each verdict and the figures behind it, as the site shows them.

With no claim ids, every claim of every rulebook. The checks run as the build runs them (the
same games and seed by default), so the figures on the claims page come from this command;
results are cached under .cache/claims/ as the build caches them (--no-cache: compute again).

With --write-results, the exact figures of the central rosette (solved games, too slow for a
cold build) and the checks' sampled figures and reachability tallies (games played) are
computed, not read from the committed files, and written to results/rosette-worth.json and
results/claim-figures.json with the command, commit, date and machine; the build reads them
from there while their key (the rules, versions, games and seed) is current. The central
rosette is followed through perfect games with two, three and four pieces a side (solved
here, a few minutes) and with the rulebook's own pieces when that full game's solve is in
--solve-cache (`ur-variants full-games RULEBOOK` makes it; seven pieces take about an hour),
else its committed figures are kept while current.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from generator.commands._options import add_results_arguments, whole_number

if TYPE_CHECKING:
    from generator.model.catalog_contents import Catalog

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
    parser.add_argument(
        "--rosette-of",
        metavar="RULEBOOK",
        default=None,
        help="print the central rosette's figures in RULEBOOK's full game, followed through"
        " its solve in --solve-cache (nothing is written or checked)",
    )
    parser.add_argument(
        "--solve-cache",
        type=Path,
        default=None,
        help="where full games' solves are read from with --write-results (default .cache/solve)",
    )
    add_results_arguments(
        parser,
        "claims",
        "check again",
        "compute the central rosette's exact worths and the checks' sampled figures afresh"
        " and write them to results/rosette-worth.json and results/claim-figures.json (with"
        " every claim checked, as the build checks them)",
    )


def run(args: argparse.Namespace) -> int:
    from generator.claims import claim_checks as cc
    from generator.claims.behaviour import stamp
    from generator.claims.figures import (
        FIGURES_FILE,
        FIGURES_FORMAT,
        WORTH_FILE,
        WORTH_FORMAT,
        WRITE_COMMAND,
        committed_figures,
    )
    from generator.claims.verdicts import CheckSettings
    from generator.commands._catalog import load_or_report
    from generator.measure.core import Settings
    from generator.sim.results_files import BEHAVIOUR, provenance, write_results
    from generator.site.claims_page import claim_words, findings_template
    from generator.site.vocabulary import Vocabulary

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
    solve_cache = args.solve_cache or args.root / ".cache" / "solve"
    if args.rosette_of is not None:
        return _rosette_of(catalog, args.rosette_of, solve_cache)
    build = Settings(cache_root=args.root / ".cache")  # the build's defaults
    settings = CheckSettings(
        games=build.claim_games if args.games is None else args.games,
        seed=build.seed if args.seed is None else args.seed,
        cache_dir=None if args.no_cache else build.cache_root / "claims",
        worths={} if args.write_results else None,
        figures={} if args.write_results else None,
        committed=committed_figures(),
        log=lambda line: print(line, file=sys.stderr, flush=True),
        solve_cache=solve_cache,
    )
    if args.write_results and args.claim:
        print("--write-results checks every claim: name none", file=sys.stderr)
        return 2
    began = time.perf_counter()
    vocabulary = Vocabulary.of(catalog.equipment)
    template = findings_template(vocabulary)
    for claim_id in args.claim or sorted(claims):
        said = claim_words(
            cc.check_claim(catalog, claims[claim_id], settings), vocabulary, template
        )
        print(f"{claim_id}: {said.verdict}")
        print(f"  {said.summary}")
        for label, figure in said.numbers:
            print(f"  {label}: {figure}")
    if settings.worths is not None and settings.figures is not None:
        command = WRITE_COMMAND + (" --no-cache" if args.no_cache else "")
        made = provenance(args.root, command, time.perf_counter() - began, {})
        written = (
            ("worths", settings.worths, WORTH_FILE, WORTH_FORMAT),
            ("figures", settings.figures, FIGURES_FILE, FIGURES_FORMAT),
        )
        for name, found, committed, layout in written:
            output = args.root / "results" / committed.name
            behaviour = {BEHAVIOUR: stamp(committed.name)}
            write_results(output, layout, {name: dict(sorted(found.items())), **made, **behaviour})
            print(f"{len(found)} {name} written to {output}")
    return 0


def _rosette_of(catalog: Catalog, vid: str, solve_cache: Path) -> int:
    """Print who wins when a side holds the central rosette in ``vid``'s full game."""
    from generator.claims.central_rosette import central_rosettes
    from generator.claims.holder_wins import holder_wins
    from generator.engine.rules import compile_rules
    from generator.solver.solve_read import cached_solution

    if vid not in catalog.variants:
        print(
            f"unknown rulebook {vid}; known: {', '.join(sorted(catalog.variants))}", file=sys.stderr
        )
        return 2
    resolved = catalog.resolve(vid)
    central = central_rosettes(resolved)
    if len(central) != 1:
        print(f"{vid}: no single rosette lies on both routes", file=sys.stderr)
        return 2
    rules = compile_rules(resolved)
    solution = cached_solution(rules, solve_cache)
    if solution is None:
        print(
            f"{vid}: its full game ({rules.pieces} pieces a side) has no complete solve in"
            f" {solve_cache}; `ur-variants solve {vid} --pieces {rules.pieces}` makes one",
            file=sys.stderr,
        )
        return 1
    first, held, run = holder_wins(solution, central[0])
    print(f"{vid}, {rules.pieces} pieces a side, central rosette {central[0]}:")
    print(f"  first player wins, perfect play: {100 * first.first_player:.4f} %")
    print(f"  games in which a side stands on it: {100 * first.games_taken:.4f} %")
    print(
        f"  of those, won by the side that stood on it first: {100 * first.first_holder_wins:.4f} %"
    )
    if held is not None:
        print(
            f"  throws made while a side holds it: {held.held_throws:.3f} of"
            f" {held.expected_throws:.3f}; the holder's chance at them:"
            f" {100 * held.holder_wins:.4f} %"
        )
    print(f"  ({run.states:,} positions, {run.sweeps} sweeps, {run.seconds:.0f} s)")
    return 0
