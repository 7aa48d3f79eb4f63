"""``play-cannot-lock`` and ``no-draw``: every reachable position of the variant's rules with two
pieces a side enumerated (:data:`EXHAUSTIVE_PIECES`), and its own piece count sampled: no
position where neither side can ever move, no move that leaves both sides finished, and how
often pieces in hand can enter."""

from __future__ import annotations

import random
from dataclasses import dataclass

from generator.claims.figures import committed_or_computed, figure_key
from generator.claims.game_minutes import game_lengths_cached
from generator.claims.verdicts import (
    CONTRADICTED,
    PARTLY,
    SUPPORTED,
    CheckSettings,
    ClaimResult,
    a_side,
    wilson,
)
from generator.engine.moves import apply_move, legal_moves, pass_turn, winner
from generator.engine.position import Position, start_position
from generator.engine.rules import Rules, Side, compile_rules
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim

EXHAUSTIVE_PIECES = 2
"""Piece count at which reachability checks enumerate every reachable position.

Two pieces a side (tens of thousands of positions, seconds in the reference engine) keeps the
cold site build within its budget; three (527,424 positions) took about ten minutes of Python."""


@dataclass(frozen=True)
class Reachability:
    positions: int
    deadlocks: int
    """Positions where neither side has a legal move for any throw."""
    drawn_moves: int
    """Moves (or passes) after which both sides have borne off every piece."""
    unending: int
    """Unfinished positions from which no throws and moves lead to a side's win."""
    no_move_pairs: int
    pairs: int
    """(position, positive throw) pairs with no legal move, and all such pairs."""
    hand_blocked: int
    hand_pairs: int
    """Pairs where the mover has pieces in hand and cannot enter one, and all pairs with
    pieces in hand."""


def reachability(rules: Rules) -> Reachability:
    """Every position reachable from the start under ``rules`` (depth-first, with the engine).

    Legal moves are generated once per position and throw and reused for the tallies. A game
    ends at the first position in which a side has borne off every piece; it would be drawn if
    a move ended it with both sides finished, or if it could never end. So each move's result
    is looked at as it is generated, before any winner is declared (a rule under which one move
    finishes both sides is counted, :attr:`Reachability.drawn_moves`), and the positions from
    which a win can be reached are found by searching back from the moves that win, along the
    moves of throws that can happen; the rest are :attr:`Reachability.unending`.
    """
    start = start_position(rules)
    seen: set[Position] = {start}
    stack = [start]
    keys = ("deadlocks", "drawn", "no_move", "pairs", "hand", "hand_pairs")
    tally = dict.fromkeys(keys, 0)
    moving = {t for t, p in rules.throws if t > 0 and p > 0}
    before: dict[Position, list[Position]] = {}
    """The unfinished positions a position is reached from, by a throw that can happen."""
    winning: set[Position] = set()
    """Positions with a move that ends the game with one side finished."""
    unfinished = 0
    while stack:
        position = stack.pop()
        if _finished(rules, position):
            continue
        unfinished += 1
        in_hand = 0 in position.pieces(position.to_move)
        can_move = False
        for throw, chance in rules.throws:
            moves = legal_moves(rules, position, throw)
            if throw in moving:
                tally["pairs"] += 1
                tally["no_move"] += not moves
                can_move = can_move or bool(moves)
                if in_hand:
                    tally["hand_pairs"] += 1
                    tally["hand"] += not any(m.start == 0 for m in moves if not m.is_pass)
            following = (
                [apply_move(rules, position, m, throw) for m in moves]
                if moves
                else [pass_turn(rules, position, throw)]
            )
            for after in following:
                done = _finished(rules, after)
                tally["drawn"] += done == 2
                if chance > 0 and done == 1:
                    winning.add(position)
                elif chance > 0 and not done:
                    before.setdefault(after, []).append(position)
                if after not in seen:
                    seen.add(after)
                    stack.append(after)
        if not can_move:
            other = Position(position.light, position.dark, position.to_move.other)
            if not any(legal_moves(rules, other, t) for t in moving):
                tally["deadlocks"] += 1
    can_end, frontier = set(winning), list(winning)
    while frontier:
        for earlier in before.get(frontier.pop(), ()):
            if earlier not in can_end:
                can_end.add(earlier)
                frontier.append(earlier)
    return Reachability(
        positions=len(seen),
        deadlocks=tally["deadlocks"],
        drawn_moves=tally["drawn"],
        unending=unfinished - len(can_end),
        no_move_pairs=tally["no_move"],
        pairs=tally["pairs"],
        hand_blocked=tally["hand"],
        hand_pairs=tally["hand_pairs"],
    )


def _finished(rules: Rules, position: Position) -> int:
    """How many sides have borne off every piece in ``position``."""
    return sum(all(p == rules.off for p in position.pieces(side)) for side in Side)


def _reachability_cached(rules: Rules, settings: CheckSettings) -> Reachability:
    return committed_or_computed(
        Reachability,
        figure_key("reachability", rules, {}),
        lambda: reachability(rules),
        settings,
        f"the positions of {rules.variant} with {a_side(rules.pieces)}",
    )


def _small(rules: Rules) -> Rules:
    from generator.solver.solve import with_pieces

    return with_pieces(rules, min(EXHAUSTIVE_PIECES, rules.pieces))


ALMOST_ALWAYS = 0.9
"""We read "pieces in hand can almost always enter" as: at least nine moving throws in ten at
which the side to move has a piece in hand let one enter (the whole 95 % interval above it)."""

ENTRY_GAMES = 300
"""Uniformly random games, in the reference engine, sampled for how often pieces in hand can
enter in the variant's own game (the exhaustive count covers only the small game)."""


def entry_blocked_sampled(rules: Rules, games: int, seed: int) -> tuple[int, int]:
    """(throws that enter no piece, throws) over the moving throws of seeded random games at
    which the side to move has a piece in hand, played with the reference engine."""
    rng = random.Random(seed)
    outcomes = [throw for throw, _ in rules.throws]
    weights = [float(p) for _, p in rules.throws]
    blocked = pairs = 0
    for _ in range(games):
        position = start_position(rules)
        while winner(rules, position) is None:
            throw = rng.choices(outcomes, weights)[0]
            moves = legal_moves(rules, position, throw)
            if throw > 0 and 0 in position.pieces(position.to_move):
                pairs += 1
                blocked += not any(m.start == 0 for m in moves if not m.is_pass)
            position = (
                apply_move(rules, position, rng.choice(moves), throw)
                if moves
                else pass_turn(rules, position, throw)
            )
    return blocked, pairs


def _entry_blocked_cached(rules: Rules, settings: CheckSettings) -> tuple[int, int]:
    extra = {"games": ENTRY_GAMES, "seed": settings.seed}
    tally = committed_or_computed(
        EntryTally,
        figure_key("entry-blocked", rules, extra),
        lambda: EntryTally(*entry_blocked_sampled(rules, ENTRY_GAMES, settings.seed)),
        settings,
        f"the random games of {rules.variant}",
    )
    return tally.blocked, tally.throws


@dataclass(frozen=True)
class EntryTally:
    """Moving throws with a piece in hand that enter none, and all such throws."""

    blocked: int
    throws: int


@dataclass(frozen=True)
class Unlocked:
    """What ``play-cannot-lock`` found: the small game's reachable positions
    (``reachability``, with ``small_pieces`` a side), the sampled games with ``pieces`` a side
    that ended of ``games``, and the moving throws with pieces in hand that entered none
    (``entry``, of :data:`ENTRY_GAMES` random games; ``low`` and ``high``: its 95 % interval)."""

    pieces: int
    small_pieces: int
    reachability: Reachability
    games: int
    ended: int
    entry: EntryTally
    entry_games: int
    low: float
    high: float

    @property
    def unlocked(self) -> bool:
        return self.reachability.deadlocks == 0 and self.ended == self.games

    @property
    def enters(self) -> bool:
        """Pieces in hand can almost always enter (:data:`ALMOST_ALWAYS`)."""
        return 1 - self.high >= ALMOST_ALWAYS


def check_play_cannot_lock(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    rules = compile_rules(catalog.resolve(claim.variant))
    small = _small(rules)
    found = _reachability_cached(small, settings)
    ended = game_lengths_cached(rules, settings).finished
    blocked, hand_throws = _entry_blocked_cached(rules, settings)
    low, high = wilson(blocked, hand_throws)
    finding = Unlocked(
        rules.pieces,
        small.pieces,
        found,
        settings.games,
        ended,
        EntryTally(blocked, hand_throws),
        ENTRY_GAMES,
        low,
        high,
    )
    verdict = CONTRADICTED if not finding.unlocked else SUPPORTED if finding.enters else PARTLY
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, finding, True)


@dataclass(frozen=True)
class NoDraw:
    """What ``no-draw`` found: the small game's reachable positions (``reachability``, with
    ``small_pieces`` a side) and the sampled games with ``pieces`` a side that ended with one
    winner, of ``games``."""

    pieces: int
    small_pieces: int
    reachability: Reachability
    games: int
    ended: int

    @property
    def drawn(self) -> bool:
        """Whether a draw was found: a move finishing both sides, a game that cannot end."""
        found = self.reachability
        return bool(found.drawn_moves or found.unending or self.ended < self.games)


def check_no_draw(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """A draw would be a game ending with both sides finished, or one that could never end:
    looked for in every move of every reachable position of the small game
    (:func:`reachability`: no move may leave both sides finished, and from every position some
    throws and moves must lead to a win), and in the sampled full games (each must end with
    one winner)."""
    rules = compile_rules(catalog.resolve(claim.variant))
    small = _small(rules)
    found = _reachability_cached(small, settings)
    ended = game_lengths_cached(rules, settings).finished
    finding = NoDraw(rules.pieces, small.pieces, found, settings.games, ended)
    verdict = CONTRADICTED if finding.drawn else SUPPORTED
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, finding, True)
