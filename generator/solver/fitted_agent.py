"""The fitted agent: an evaluation fitted to the exact solution, searched one ply deep.

The full games (seven pieces a side) are too large to solve for every rulebook, so the skill
gap there needs a player that is strong without a solution. This one is fitted per rulebook,
from the data alone:

1. **Fit.** The rulebook with fewer pieces (:func:`generator.solver.exact_effects.pieces_for`:
   three a side on the 14- and 16-square routes, two on the 27-square ones) is solved exactly, and
   every position's exact chance of winning (side to move) is fitted by least squares (numpy's
   ``lstsq``, deterministic: no seed) to the simulator's features of that position
   (:func:`generator.sim.kernel_evaluation.feature_row`: a constant; each side's progress within the
   other's reach, weighted by the probabilities of the rulebook's throws; and, step by step along
   the route, the share of each side's pieces standing there; all as fractions, so the same weights
   read a seven-piece position).
2. **Play.** For each legal move the agent evaluates the position after it, from the side of the
   player then to throw (itself after an extra throw), which averages over that throw's values: a
   one-ply expectimax (:func:`generator.sim.kernel_evaluation.fitted_score`), at the kernel's speed.
   Of equal moves it plays the first, so it is one fixed policy.
3. **Check, exactly.** At the fitted piece count the agent's own policy is evaluated exactly
   (no sampling) against a random player and against perfect play, from both seats
   (:class:`Fit`); perfect play's own figures there are the exact evaluation's
   (:mod:`generator.solver.policy_eval`, committed in ``results/exact-effects.json``), not
   repeated here. At full size it is measured against random like every agent
   (:mod:`generator.solver.agent_check`), and stands for skill only where it clears the same
   bar.

Fits are cached as JSON under ``.cache/fitted`` keyed by the rules' content. Fitting every
rulebook takes minutes, so the fits the site plays are committed in
``results/fitted-agent.json`` with the command, commit, date and machine (``ur-variants
agents`` writes it, :func:`generator.solver.agent_check.fit_all`); the build reads the weights
from there (:func:`weights_for`) and fits only rules the file does not hold.
"""

from __future__ import annotations

import functools
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from generator.engine.position import start_position
from generator.engine.rules import Rules
from generator.sim import rekey, results_files
from generator.sim.cache_files import read_json, write_json
from generator.sim.encode import FloatArray

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "fitted"
RESULTS_FORMAT = 1
RESULTS_FILE = results_files.RESULTS_DIR / "fitted-agent.json"


def feature_names(rules: Rules) -> list[str]:
    """What each weight multiplies, in order
    (:func:`generator.sim.kernel_evaluation.feature_row`)."""
    steps = ["in hand", *(f"on step {k}" for k in range(1, rules.off)), "borne off"]
    return [
        "constant",
        "own progress within the enemy's reach",
        "enemy progress within own reach",
        *(f"own pieces {where}" for where in steps),
        *(f"enemy pieces {where}" for where in steps),
    ]


@dataclass(frozen=True)
class Fit:
    """A rulebook's fitted weights, and its agent's exact figures at the fitted piece count
    (first seat = moving first)."""

    pieces: int
    states: int
    weights: list[float]
    rms_error: float
    """Root mean square of fitted minus exact chance of winning over the positions."""
    r_squared: float
    fitted_first_v_random: float
    fitted_second_v_random: float
    fitted_first_v_perfect: float
    fitted_second_v_perfect: float
    cpu_seconds: float

    @property
    def fitted_v_random(self) -> float:
        """The fitted agent's chance against random, seats drawn evenly."""
        return (self.fitted_first_v_random + self.fitted_second_v_random) / 2

    @property
    def fitted_v_perfect(self) -> float:
        """The fitted agent's chance against perfect play, seats drawn evenly (perfect
        play's against itself is one half)."""
        return (self.fitted_first_v_perfect + self.fitted_second_v_perfect) / 2

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Fit:
        return Fit(**data)


FIT_PIECES = 3
"""The most pieces a side a fit solves (the exact effects' count, where it fits)."""


@functools.lru_cache(maxsize=256)
def fit_pieces(rules: Rules) -> int:
    """How many pieces a side the fit for ``rules`` solves: the most, up to
    :data:`FIT_PIECES`, whose game has at most the positions the exact evaluations take
    (:data:`generator.solver.policy_eval.DEFAULT_MAX_STATES`)."""
    from generator.solver.policy_eval import DEFAULT_MAX_STATES
    from generator.solver.solve import with_pieces

    for pieces in range(min(FIT_PIECES, rules.pieces), 0, -1):
        if state_count(with_pieces(rules, pieces)) <= DEFAULT_MAX_STATES:
            return pieces
    raise ValueError(f"{rules.variant}: not even one piece a side can be solved here")


def state_count(rules: Rules) -> int:
    """The positions of the game of ``rules``, as :func:`generator.solver.solve.estimate` counts
    them, without the memory figures it computes too: those need each layer's sweep order
    (a compiled kernel), and a build asks for the count of every rulebook's small games only
    to find its committed fit."""
    from generator.solver.solve_estimate import MAX_COUNTED_CONFIGURATIONS, estimate
    from generator.solver.solve_index import build_index
    from generator.solver.solve_space import code_space, enumerate_configurations, geometry

    if code_space(rules) > MAX_COUNTED_CONFIGURATIONS:
        return estimate(rules).states
    geo = geometry(rules)
    return build_index(geo, enumerate_configurations(rules, geo)).states


def fit(rules: Rules) -> Fit:
    """Fit the evaluation to the exact solution of ``rules`` (as given: pass the reduced
    game) and evaluate the fitted agent exactly."""
    from generator.solver import fitted_kernels as fk
    from generator.solver import policy_kernels as pk
    from generator.solver import solve_kernels as kernels
    from generator.solver.policy_eval import TOLERANCE, warm_up
    from generator.solver.solve_layer import LENGTH_TOLERANCE, MAX_SWEEPS
    from generator.solver.solve_small import small_game
    from generator.solver.solve_space import state_index

    warm_up(rules)
    began = time.process_time()
    game = small_game(rules)
    geo, configs, states = game.geometry, game.configurations, game.states
    perfect = np.full(states, 0.5)
    X = np.empty((states, len(feature_names(rules))))
    probs, throws = geo.throw_probs, int(geo.throw_values.shape[0])
    layers = []
    for layer in game.sweep():
        base, size, options, counts = layer.base, layer.size, layer.options, layer.counts
        _converged(
            kernels.iterate_values(
                base, size, options, counts, probs, perfect, TOLERANCE, MAX_SWEEPS
            )
        )
        best = kernels.choose_policy(size, options, counts, throws, perfect, 0, False)
        fk.state_features(
            layer.members, configs.table, geo.piece_of_slot, geo.packed, X[base : base + size]
        )
        layers.append((layer, best))
    weights = np.linalg.lstsq(X, perfect, rcond=None)[0]
    residual = X @ weights - perfect
    W = np.asarray(weights, dtype=np.float64)
    # The fitted agent against random (policy_kernels' four tables: random v random, its
    # lengths, the agent v random, random v the agent), and against perfect play.
    against_random = np.full((4, states), 0.5)
    against_random[1] = 0.0
    against_perfect = np.full((2, states), 0.5)
    tolerances = np.array([TOLERANCE, LENGTH_TOLERANCE])
    for layer, best in layers:
        base, size, options, counts = layer.base, layer.size, layer.options, layer.counts
        mine = fk.fitted_policy(
            layer.members,
            configs.table,
            geo.piece_of_slot,
            geo.packed,
            geo.throw_values,
            options,
            counts,
            W,
        )
        if (mine == -2).any():
            raise AssertionError(f"{rules.variant}: the kernel and the transitions disagree")
        _converged(
            pk.iterate_random_play(
                base, size, options, counts, mine, probs, against_random, tolerances, MAX_SWEEPS
            )
        )
        _converged(
            fk.iterate_pair(base, size, mine, best, probs, against_perfect, TOLERANCE, MAX_SWEEPS)
        )
    start = int(game.dense[state_index(geo, configs, start_position(rules))])
    return Fit(
        pieces=rules.pieces,
        states=states,
        weights=[float(w) for w in weights],
        rms_error=float(np.sqrt(np.mean(residual**2))),
        r_squared=float(1 - np.sum(residual**2) / np.sum((perfect - perfect.mean()) ** 2)),
        fitted_first_v_random=float(against_random[2, start]),
        fitted_second_v_random=float(1 - against_random[3, start]),
        fitted_first_v_perfect=float(against_perfect[0, start]),
        fitted_second_v_perfect=float(1 - against_perfect[1, start]),
        cpu_seconds=time.process_time() - began,
    )


def _converged(result: tuple[int, float]) -> None:
    sweeps, change = result
    if sweeps < 0:
        raise RuntimeError(f"a layer did not converge (last change {change:.3g})")


def fingerprint(rules: Rules) -> str:
    """The content key of the reduced game a fit of ``rules`` solves, and of the fit."""
    from generator.solver.policy_eval import TOLERANCE
    from generator.solver.solve import rules_key, with_pieces

    reduced = with_pieces(rules, fit_pieces(rules))
    return rekey.keyed(lambda old: rules_key(reduced, TOLERANCE) + old.get("suffix", ""), rekey.FIT)


def cached_fit(rules: Rules, cache_dir: Path | None = DEFAULT_CACHE) -> Fit:
    """:func:`fit` of ``rules`` reduced to :func:`fit_pieces` pieces a side, from the cache
    when present."""
    from generator.solver.solve import with_pieces

    small = with_pieces(rules, fit_pieces(rules))
    path = cache_dir / f"{fingerprint(rules)}.json" if cache_dir is not None else None
    if path is not None:
        cached = read_json(path)
        if isinstance(cached, dict):
            try:
                return Fit.from_dict(cached)
            except TypeError:
                pass  # another layout: fit again
    result = fit(small)
    if path is not None:
        write_json(path, result.as_dict())
    return result


@functools.lru_cache(maxsize=64)
def weights_for(rules: Rules, cache_dir: Path | None = DEFAULT_CACHE) -> FloatArray:
    """The kernel's weights for the fitted agent playing ``rules`` (any piece count): from
    the committed fits when they hold these rules, else fitted now (and cached)."""
    weights = committed_weights(rules)
    if weights is None:
        return np.asarray(cached_fit(rules, cache_dir).weights, dtype=np.float64)
    return weights


def committed_weights(rules: Rules) -> FloatArray | None:
    """The kernel's weights for ``rules`` from the committed fits, ``None`` when they do not
    hold these rules."""
    committed = read_fits()
    entry = committed["fits"].get(fingerprint(rules)) if committed else None
    return np.asarray(entry["weights"], dtype=np.float64) if entry else None


def write_fits(path: Path, results: dict[str, Any]) -> None:
    results_files.write_results(path, RESULTS_FORMAT, results)
    read_fits.cache_clear()


@functools.cache
def read_fits(path: Path = RESULTS_FILE) -> dict[str, Any] | None:
    """The committed fits, or ``None`` when missing, damaged or of another layout."""
    return results_files.read_results(path, RESULTS_FORMAT)


def fit_of(results: dict[str, Any] | None, variant: str) -> dict[str, Any] | None:
    """The committed fit a rulebook plays with (by its id), or ``None``."""
    if results is None:
        return None
    return next((f for f in results["fits"].values() if variant in f["variants"]), None)
