"""Players: cheap rule-of-thumb agents run inside the native kernel, expensive ones in Python.

Every agent works on every variant through the data only. The cheap ones
(:class:`FastAgent`) score each legal move (:func:`generator.sim.fast.move_score`) and play a
best one, ties broken at random; single-principle players follow jheled's "human-like"
strategies (jheled/royalur ``doc/humanst.rst``), first/last-move follow RoyalUr-Analysis
(``docs/Agents.md``), in the reference engine's legal-move order.

Expensive agents run on the readable engine: :class:`Expectimax` (a depth-limited search over throws
with :func:`generator.sim.kernel_evaluation.evaluate` at the leaves) and :class:`Perfect`, which
reads an exact solution through the :class:`PositionValue` protocol.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from generator.engine.moves import Move, apply_move, legal_moves, pass_turn, winner
from generator.engine.position import Position
from generator.engine.rules import Rules, Side
from generator.sim import fast, kernel_evaluation, kernel_moves
from generator.sim.encode import H_DISTINCT, FloatArray, IntArray, encode_rules


class FastAgent(enum.IntEnum):
    """Agents the kernel plays by id; the value is the kernel's agent number."""

    RANDOM = fast.RANDOM
    """Uniform over legal moves."""
    FIRST = fast.FIRST
    """Always the first legal move (the reference engine's order)."""
    LAST = fast.LAST
    """Always the last legal move."""
    CAPTURE = fast.CAPTURE
    """Captures whenever it can; otherwise random."""
    EXTRA_THROW = fast.EXTRA
    """Takes a move earning another throw whenever it can (a rosette); otherwise random."""
    REARMOST = fast.REARMOST
    """Always advances its rearmost piece (entering first)."""
    SAFE = fast.SAFE
    """Leaves as few pieces as possible within the enemy's reach; ties random."""
    BEAR_OFF = fast.BEAR_OFF
    """Bears a piece off whenever it can; otherwise random."""
    GREEDY = fast.GREEDY
    """One-ply evaluation of the position after each move."""
    FITTED = fast.FITTED
    """One-ply expectimax over an evaluation fitted to the exact solution of the rulebook with
    fewer pieces (:mod:`generator.solver.fitted_agent`); equal moves: the first."""

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", "-")


FAST_AGENTS = {agent.label: agent for agent in FastAgent}
PRINCIPLES = (
    FastAgent.CAPTURE,
    FastAgent.EXTRA_THROW,
    FastAgent.REARMOST,
    FastAgent.SAFE,
    FastAgent.BEAR_OFF,
)
"""The single-principle, human-like players."""


def same_play_as(agent: str, packed: IntArray) -> str:
    """An agent label that plays exactly the same games as ``agent`` under ``packed`` rules.

    When pieces are interchangeable (not distinct) the kernel keeps them sorted and offers one
    move per distinct progress in rising order, with the voluntary pass last; rearmost then
    always has a unique best move, the first one, and draws no random number: it is the first
    agent move for move, so its games need not be played twice.
    """
    if agent == FastAgent.REARMOST.label and int(packed[H_DISTINCT]) == 0:
        return FastAgent.FIRST.label
    return agent


class PositionValue(Protocol):
    """An exact solution: the probability that the side to move wins from ``position``."""

    def win_probability(self, position: Position) -> float: ...


class Agent(Protocol):
    """A Python-side player: the index of the move it plays among ``moves``."""

    @property
    def name(self) -> str: ...

    def choose(
        self,
        rules: Rules,
        position: Position,
        throw: int,
        moves: tuple[Move, ...],
        rng: np.random.Generator,
    ) -> int: ...


@dataclass
class UniformRandom:
    """Uniform over legal moves, in plain Python (the reference engine's own speed)."""

    @property
    def name(self) -> str:
        return "random"

    def choose(
        self,
        rules: Rules,
        position: Position,
        throw: int,
        moves: tuple[Move, ...],
        rng: np.random.Generator,
    ) -> int:
        return int(rng.integers(len(moves)))


def kernel_state(packed: IntArray, position: Position) -> IntArray:
    return kernel_moves.state_array(packed, position.light, position.dark)


@dataclass
class ScoredAgent:
    """A :class:`FastAgent` played from Python: the kernel's own move scores."""

    kind: FastAgent
    packed: IntArray

    @property
    def name(self) -> str:
        return self.kind.label

    def choose(
        self,
        rules: Rules,
        position: Position,
        throw: int,
        moves: tuple[Move, ...],
        rng: np.random.Generator,
    ) -> int:
        scores = np.zeros(kernel_moves.MAX_MOVES, dtype=np.float64)
        state = kernel_state(self.packed, position)
        n = fast.score_moves(
            int(self.kind),
            self.packed,
            state,
            int(position.to_move),
            throw,
            scores,
            agent_weights(self.kind, rules, self.packed),
        )
        if n != len(moves):
            raise AssertionError(f"kernel found {n} moves, the engine {len(moves)}")
        best = np.flatnonzero(scores[:n] == scores[:n].max())
        return int(best[0] if len(best) == 1 else best[rng.integers(len(best))])


def agent_weights(kind: FastAgent, rules: Rules, packed: IntArray) -> FloatArray:
    """The kernel's weights for ``kind`` playing ``rules``: fitted for the fitted agent
    (:func:`generator.solver.fitted_agent.weights_for`, handed in as :class:`ExactPlay`),
    unread by the others."""
    if kind is FastAgent.FITTED:
        return exact_play().fitted_weights(rules)
    return fast.no_weights(packed)


def evaluate(packed: IntArray, position: Position, side: Side) -> float:
    """The kernel's leaf evaluation of ``position`` for ``side``."""
    return float(kernel_evaluation.evaluate(packed, kernel_state(packed, position), int(side)))


@dataclass
class Expectimax:
    """Search ``depth`` plies of throws and moves, maximising the expected leaf evaluation.

    Depth 1 evaluates the position after each move; depth 2 also averages over the next throw
    and assumes the player then to move picks its best reply (by the same evaluation).
    """

    depth: int
    packed: IntArray

    @property
    def name(self) -> str:
        return f"expectimax-{self.depth}"

    def choose(
        self,
        rules: Rules,
        position: Position,
        throw: int,
        moves: tuple[Move, ...],
        rng: np.random.Generator,
    ) -> int:
        me = position.to_move
        values = [
            self._value(rules, apply_move(rules, position, m, throw), self.depth - 1, me)
            for m in moves
        ]
        best = max(values)
        ties = [i for i, v in enumerate(values) if v == best]
        return ties[0] if len(ties) == 1 else ties[int(rng.integers(len(ties)))]

    def _value(self, rules: Rules, position: Position, depth: int, me: Side) -> float:
        won = winner(rules, position)
        if won is not None:
            return 1.0e9 if won == me else -1.0e9
        if depth <= 0:
            return evaluate(self.packed, position, me)
        total = 0.0
        for throw, probability in rules.throws:
            moves = legal_moves(rules, position, throw)
            if not moves:
                after = [pass_turn(rules, position, throw)]
            else:
                after = [apply_move(rules, position, m, throw) for m in moves]
            values = [self._value(rules, p, depth - 1, me) for p in after]
            pick = max(values) if position.to_move == me else min(values)
            total += float(probability) * pick
        return total


@dataclass
class Perfect:
    """Plays the move with the highest exact win probability (ties: the first)."""

    solution: PositionValue

    @property
    def name(self) -> str:
        return "perfect"

    def choose(
        self,
        rules: Rules,
        position: Position,
        throw: int,
        moves: tuple[Move, ...],
        rng: np.random.Generator,
    ) -> int:
        me = position.to_move
        values = [self._mine(rules, apply_move(rules, position, m, throw), me) for m in moves]
        return int(np.argmax(values))

    def _mine(self, rules: Rules, position: Position, me: Side) -> float:
        won = winner(rules, position)
        if won is not None:
            return 1.0 if won == me else 0.0
        p = self.solution.win_probability(position)
        return p if position.to_move == me else 1.0 - p


MAX_SOLVABLE_PIECES = 4
"""Exact solutions exist (:mod:`generator.solver.solve`) only up to this many pieces a side."""

AGENT_HELP = (
    f"{', '.join(FAST_AGENTS)} (native speed); expectimax-1, expectimax-2, perfect"
    f" (Python; perfect needs an exact solution, up to {MAX_SOLVABLE_PIECES} pieces)"
)


class UnknownAgent(ValueError):
    pass


def check_agent_name(name: str) -> str:
    """``name`` if it names an agent; otherwise :class:`UnknownAgent` listing the choices."""
    if name in FAST_AGENTS or name == "perfect":
        return name
    if name.startswith("expectimax-") and name.removeprefix("expectimax-") in ("1", "2", "3"):
        return name
    raise UnknownAgent(f"unknown agent {name!r}; choose from: {AGENT_HELP}")


def is_fast(name: str) -> bool:
    return name in FAST_AGENTS


def python_agent(name: str, rules: Rules) -> Agent:
    """The Python-side player ``name`` for ``rules``; the perfect one solves the variant."""
    packed = encode_rules(rules).packed()
    if name in FAST_AGENTS:
        return ScoredAgent(FAST_AGENTS[name], packed)
    if name.startswith("expectimax-"):
        return Expectimax(int(name.removeprefix("expectimax-")), packed)
    if name == "perfect":
        return Perfect(exact_solution(rules))
    raise UnknownAgent(f"unknown agent {name!r}; choose from: {AGENT_HELP}")


class NoSolution(RuntimeError):
    """No exact solution is available for these rules."""


@dataclass(frozen=True)
class ExactPlay:
    """What the perfect and the fitted agent play from, made by the exact solver
    (:mod:`generator.solver`), a later layer than this one: the solver's package hands it in
    when it is imported (:func:`use_exact_play`), so no module here imports the solver."""

    solution: Callable[[Rules], PositionValue]
    """The solved game of the rules (:func:`generator.solver.solve.solve`)."""
    fitted_weights: Callable[[Rules], FloatArray]
    """The fitted agent's weights (:func:`generator.solver.fitted_agent.weights_for`)."""


_exact_play: list[ExactPlay] = []


def use_exact_play(play: ExactPlay) -> None:
    """Play the perfect and the fitted agent from ``play`` (the solver's package calls it)."""
    _exact_play[:] = [play]


def exact_play() -> ExactPlay:
    """What :func:`use_exact_play` handed in; :class:`NoSolution` naming the fix if nothing."""
    if not _exact_play:
        raise NoSolution(
            "the exact solver is not loaded: import generator.solver before playing the perfect"
            " or the fitted agent"
        )
    return _exact_play[0]


def exact_solution(rules: Rules) -> PositionValue:
    """The exact solution of ``rules`` from :mod:`generator.solver.solve` (:class:`ExactPlay`)."""
    if rules.pieces > MAX_SOLVABLE_PIECES:
        raise NoSolution(
            f"{rules.variant} has {rules.pieces} pieces a side; exact solutions exist only up to"
            f" {MAX_SOLVABLE_PIECES}; use expectimax-2 or greedy instead of perfect"
        )
    solve = exact_play().solution
    try:
        solution: PositionValue = solve(rules)
    except ValueError as error:  # the solver refuses what it cannot hold in memory
        raise NoSolution(str(error)) from error
    return solution
