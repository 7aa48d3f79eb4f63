"""Print the legal moves and resulting positions for a variant, a position and a throw."""

from __future__ import annotations

import argparse
import json
import sys

from generator.commands._options import whole_number
from generator.model.values import MAX_THROW

ORDER = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="variant id, e.g. finkel-great-book")
    parser.add_argument("position", help="one-line position, e.g. '0,0,0/0,0,0 L' (or 'start')")
    parser.add_argument("throw", type=whole_number(-MAX_THROW, MAX_THROW), help="the throw, e.g. 2")
    parser.add_argument("--json", action="store_true", help="print JSON for machines")


def run(args: argparse.Namespace) -> int:
    from generator.commands._catalog import load_named
    from generator.engine.moves import successors, winner
    from generator.engine.position import format_position, parse_position, start_position
    from generator.engine.rules import compile_rules

    catalog = load_named(args.root, [args.variant])
    if isinstance(catalog, int):
        return catalog
    rules = compile_rules(catalog.resolve(args.variant))
    throws = [t for t, _ in rules.throws]
    if args.throw not in throws:
        print(
            f"throw {args.throw} is impossible with these dice; possible: {throws}", file=sys.stderr
        )
        return 2
    try:
        position = (
            start_position(rules)
            if args.position == "start"
            else parse_position(rules, args.position)
        )
    except ValueError as error:
        print(f"bad position: {error}", file=sys.stderr)
        return 2
    if (won := winner(rules, position)) is not None:
        print(
            f"bad position: the game is over: {won.name.lower()} has borne off every piece;"
            " give a position still in play",
            file=sys.stderr,
        )
        return 2
    side = position.to_move
    results = []
    for move, after in successors(rules, position, args.throw):
        results.append(
            {
                "move": "pass (no legal move)" if move is None else move.describe(rules, side),
                "piece": None if move is None else move.piece,
                "from": None if move is None else move.start,
                "to": None if move is None else move.end,
                "captured": 0 if move is None else move.captured,
                "extra_throw": after.to_move == side,
                "position": format_position(after),
            }
        )
    if args.json:
        payload = {
            "variant": args.variant,
            "position": format_position(position),
            "throw": args.throw,
            "moves": results,
        }
        print(json.dumps(payload, indent=2))
        return 0
    print(f"{args.variant}: {format_position(position)}, {side.name.lower()} throws {args.throw}")
    for result in results:
        print(f"  {result['move']:<40} -> {result['position']}")
    return 0
