"""Record a new edition of the site: every ruling added, changed or withdrawn since the last.

Run it after changing a published ruling's words, value, quotes or note, or after adding rulings
(a new rule question adds one ruling per rulebook): it appends the edition to
``variants/editions.yml`` and updates ``variants/published-rulings.lock``, both or neither.
NUMBER is the next whole number after the latest edition's; --date (default today) is a real
day, YYYY-MM-DD, not before the latest edition's nor after tomorrow. ``--check`` only reports
what is out of step (what ``tests/test_editions.py`` checks).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys

ORDER = 9


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "number", nargs="?", help="the new edition's number: the latest edition's plus one"
    )
    parser.add_argument("--summary", default="", help="one sentence: what this edition changes")
    parser.add_argument("--date", type=day, default=None, help="YYYY-MM-DD (default: today)")
    parser.add_argument("--check", action="store_true", help="only report unrecorded changes")


def day(text: str) -> dt.date:
    """A ``--date``: a real day written YYYY-MM-DD (:func:`generator.site.edition.iso_day`)."""
    from generator.site.edition import iso_day

    try:
        return iso_day(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


LATEST_DAY = dt.timedelta(days=1)
"""How far past today (UTC) an edition's date may be: a day, for a recorder whose local date is
ahead. A later date would also refuse every edition recorded before it."""


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import load_or_report
    from generator.files import WriteError
    from generator.site.edition import (
        EDITIONS_FILE,
        LOCK_FILE,
        EditionError,
        load_renamed,
        lock_problems,
        record_edition,
    )

    catalog = load_or_report(args.root)
    if catalog is None:
        return 1
    variants = args.root / "variants"
    rulings = list(catalog.rulings())
    today = dt.datetime.now(tz=dt.UTC).date()
    if args.date is not None and args.date > today + LATEST_DAY:
        print(
            f"--date {args.date} is after today ({today}): an edition is dated the day it is"
            " recorded; leave --date out for today",
            file=sys.stderr,
        )
        return 2
    try:
        renamed = load_renamed(variants)
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
        date = args.date or today
        edition = record_edition(rulings, variants, renamed, args.number, date, args.summary)
    except EditionError as error:
        print(error, file=sys.stderr)
        return 1
    except WriteError as error:  # a full disk: both files are written first, then renamed
        print(
            f"{error.path}: could not write it ({error.reason}); no edition recorded:"
            f" {EDITIONS_FILE} and {LOCK_FILE} are left as they were",
            file=sys.stderr,
        )
        return 1
    print(
        f"edition {edition.number} ({edition.date}): {len(edition.added)} added,"
        f" {len(edition.changed)} changed, {len(edition.withdrawn)} withdrawn"
    )
    return 0
