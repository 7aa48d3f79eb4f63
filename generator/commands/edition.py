"""Record a new edition of the site: every ruling added, changed or withdrawn since the last.

Run it after changing a published ruling's words, value, quotes or note, or after adding rulings
(a new rule question adds one ruling per rulebook): it appends the edition to
``variants/editions.yml`` and updates ``variants/published-rulings.lock``. ``--check`` only
reports what is out of step (what ``tests/test_editions.py`` checks).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys

ORDER = 9


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", nargs="?", help="the new edition's number, e.g. 2")
    parser.add_argument("--summary", default="", help="one sentence: what this edition changes")
    parser.add_argument(
        "--date", type=dt.date.fromisoformat, default=None, help="YYYY-MM-DD (default: today)"
    )
    parser.add_argument("--check", action="store_true", help="only report unrecorded changes")


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import load_or_report
    from generator.site.edition import EditionError, load_renamed, lock_problems, record_edition

    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    variants = args.root / "variants"
    rulings = list(catalog.rulings())
    renamed = load_renamed(variants)
    try:
        if args.check or args.number is None:
            problems = lock_problems(rulings, variants, renamed)
            for problem in problems:
                print(problem, file=sys.stderr)
            if problems:
                print("record them: ur-variants edition NUMBER --summary TEXT", file=sys.stderr)
            return 1 if problems else 0
        if not args.summary:
            print("say what the edition changes: --summary TEXT", file=sys.stderr)
            return 2
        date = args.date or dt.datetime.now(tz=dt.UTC).date()
        edition = record_edition(rulings, variants, renamed, args.number, date, args.summary)
    except EditionError as error:
        print(error, file=sys.stderr)
        return 1
    print(
        f"edition {edition.number} ({edition.date}): {len(edition.added)} added,"
        f" {len(edition.changed)} changed, {len(edition.withdrawn)} withdrawn"
    )
    return 0
