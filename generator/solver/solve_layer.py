"""One layer of an exact solve (:mod:`generator.solver.solve`), solved in place: its values by
modified policy iteration (a Bellman sweep that generates every move, then sweeps that evaluate
the stored choices, and between full sweeps the few states where the error lingers swept on
their own), then its expected lengths under the final choices. The sweeps themselves are the
kernels of :mod:`generator.solver.solve_sweeps`; the layer's progress is handed to a keeper
(:class:`generator.solver.solve_checkpoints.Checkpoints`) every :data:`PROGRESS_EVERY` seconds,
so a killed solve goes on with the same bits.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from generator.engine.rules import Rules
from generator.solver.solution import SolveRefused
from generator.solver.solve_checkpoints import LayerProgress, release_pages
from generator.solver.solve_estimate import SweepOrder, layer_working_bytes, sweep_order
from generator.solver.solve_index import StateIndex
from generator.solver.solve_moves import MoveTable
from generator.solver.solve_space import Configurations, FloatArray, Geometry

LENGTH_TOLERANCE = 1e-10
"""Largest change (in throws) per sweep at which the expected length counts as converged."""

MAX_SWEEPS = 100_000
"""Give up on a layer after this many sweeps (converging layers need a few hundred)."""

EVALUATION_FACTOR = 1e-3
"""Evaluate the stored choices until a sweep changes the values by less than this fraction of
the last Bellman sweep's change (then look for better choices again)..."""

EARLY_FACTOR = 0.3
EARLY_ROUNDS = 2
"""...except after the first ``EARLY_ROUNDS`` Bellman sweeps, which stop at ``EARLY_FACTOR``
of it: their choices were made from values still far from their own (all 1/2 at first), and
the next Bellman sweep changes many of them; evaluating them to a thousandth was wasted.
Three-piece Finkel's largest layer: 48 -> 33 value sweeps, as many Bellman sweeps."""

HOT_SPREAD = 10
"""After a full evaluation sweep, the states whose change was within ``2**HOT_SPREAD`` (about
a thousand) of the largest are swept again on their own
(:func:`generator.solver.solve_sweeps.hot_floor`)..."""

HOT_TARGET = 0.01
"""...until their largest change is this fraction of the full sweep's."""

HOT_SHARE = 2
"""Hot states are swept on their own only when at most one in this many states is hot (the
error is concentrated); else the next full sweep, on every core, does better."""

SWEEP_HOT_STATES = True
"""Sweep the hot states on their own between full evaluation sweeps (off: for the test that
checks they change no value beyond the tolerance)."""

GENERATE_EVERY_MOVE = False
"""Generate every state's moves in every Bellman sweep, even where the stored choices are
known to stand (:func:`generator.solver.solve_sweeps.bellman_wave`): for the test that checks
the shortcut gives the same bits."""

PROGRESS_EVERY = 15 * 60.0
"""Seconds between saves of an unfinished layer's progress
(:class:`generator.solver.solve_checkpoints.LayerProgress`): a killed
solve loses at most this much of a layer's work (Masters' largest layers take hours)."""


def _cpu_time() -> float:
    """Processor time of this process and its threads."""
    return time.process_time()


def solve_layer(
    rules: Rules,
    geo: Geometry,
    configs: Configurations,
    index: StateIndex,
    moves: MoveTable,
    layer: int,
    values: FloatArray,
    lengths: FloatArray,
    tolerance: float,
    resume: LayerProgress | None = None,
    keep: Callable[[LayerProgress], None] | None = None,
    start: FloatArray | None = None,
) -> dict[str, Any]:
    """Solve one layer in place (values, then expected lengths); the figures of the solve.

    With ``resume``, go on from that progress; with ``keep``, hand it the layer's progress
    every :data:`PROGRESS_EVERY` seconds, at the start of a sweep; with ``start`` (fitted
    weights, :func:`generator.solver.solve.starting_point`), a fresh layer's values start
    from that evaluation."""
    run = LayerSolve(rules, geo, configs, index, moves, layer, values, lengths, resume, keep)
    return run_layer(run, tolerance, start)


def run_layer(run: LayerSolve, tolerance: float, start: FloatArray | None = None) -> dict[str, Any]:
    """Solve ``run``'s layer (values, then expected lengths); the figures of the solve."""
    run.begin(start)
    if run.phase == "values":
        run.solve_values(tolerance)
    run.solve_lengths()
    return run.figures()


class LayerSolve:
    """One layer's solve: its arrays, its sweeps and the counts that go into its progress."""

    def __init__(
        self,
        rules: Rules,
        geo: Geometry,
        configs: Configurations,
        index: StateIndex,
        moves: MoveTable,
        layer: int,
        values: FloatArray,
        lengths: FloatArray,
        resume: LayerProgress | None,
        keep: Callable[[LayerProgress], None] | None,
    ) -> None:
        from generator.solver import solve_sweeps as sweeps

        self.began, self.began_cpu = time.perf_counter(), _cpu_time()
        self.rules, self.geo, self.configs, self.moves = rules, geo, configs, moves
        self.layer, self.values, self.lengths = layer, values, lengths
        self.resume, self.keep = resume, keep
        self.base = base = int(index.layer_base[layer])
        self.origin = base
        """The layer's first state id: a state's place is its id less this."""
        self.held, self.ranks = sweeps.NO_SLOTS
        """Which states this process keeps (:func:`generator.solver.solve_sweeps.slot`): all of
        the layer and the next, at ``base`` plus their place, in ``values`` and ``lengths``."""
        self.bellman_kernels = (sweeps.bellman_wave, sweeps.bellman_wave_serial)
        """The Bellman sweep, on every core and on one (a worker that keeps only some states
        has its own, :data:`generator.solver.solve_sweeps.bellman_wave_slotted`)."""
        self.layer_states = layer_states = int(index.layer_base[layer + 1]) - base
        """The layer's states (a worker of a distributed solve sweeps a share of them,
        :mod:`generator.solver.cluster_layer`)."""
        self.following = int(index.layer_base[min(layer + 2, len(index.layer_base) - 1)]) - base
        self.table_args = (index.borne, index.mask_id, index.rank, index.prefix, index.start)
        self.order, self.places, self.wave_start, self.largest = self.list_states(index)
        self.size = int(self.places.shape[0])
        """The states this process sweeps."""
        self.waves = self.wave_start.shape[0] - 1
        self.throws = int(geo.throw_values.shape[0])
        self.new_values = np.empty(self.largest)
        self.own = slice(base, base + layer_states)
        self.phase: Literal["values", "lengths"] = "values" if resume is None else resume.phase

    def list_states(self, index: StateIndex) -> SweepOrder:
        """The states this process sweeps, in sweep order: the whole layer (refused where a
        stored choice could not name a state of the layer and the next,
        :data:`generator.solver.solve_sweeps.CODED_STATES`)."""
        from generator.solver import solve_sweeps as sweeps

        if self.following >= sweeps.CODED_STATES:
            raise SolveRefused(
                f"{self.rules.variant}: layer {self.layer} and the next hold"
                f" {self.following:,} states, more than the 32-bit choice codes name"
                f" ({sweeps.CODED_STATES:,}); a distributed solve names only each worker's"
                " states (ur-variants solve --workers K)"
            )
        return sweep_order(self.geo, self.configs, index, self.layer)

    def begin(self, start: FloatArray | None) -> None:
        """The layer's starting values and choices: fresh (1/2, or the fitted evaluation of
        ``start``), or the saved progress going on."""
        base, size, values = self.base, self.size, self.values
        # The values phase reads values only, the lengths phase lengths only: each phase lets
        # the other array's pages of this layer and the next leave memory (a file-backed array
        # keeps them on disk), so only one float a state of the two layers is in memory at a
        # time.
        release_pages(self.lengths, base, base + self.following)
        counters: dict[str, Any] = {}
        if self.resume is None:
            self.policy = np.empty(size * self.throws, dtype=np.uint32)
            self.settled = np.zeros(size * self.throws, dtype=np.uint8)
            if start is None:
                values[self.own] = 0.5
            else:
                from generator.solver.fitted_kernels import fitted_start

                evaluation = (self.configs.table, self.geo.piece_of_slot, self.geo.packed, start)
                fitted_start(self.order, self.places, base, values, evaluation)
        else:
            # The saved values and lengths were read straight into place
            # (Checkpoints.progress_of).
            self.policy, self.settled = self.resume.policy, self.resume.settled
            counters = self.resume.counters
            if self.resume.phase == "lengths":
                release_pages(values, base, base + self.following)
            self.began -= counters["seconds"]
            self.began_cpu -= counters["cpu_seconds"]
        self.counters = counters
        self.drift = float(counters.get("drift", 0.0))
        self.drift_at = np.array(counters.get("drift_at", [0.0] * 16), dtype=np.float64)
        self.saved_at = time.perf_counter()
        self.moved = np.zeros(size, dtype=np.uint8)
        self.bellman_sweeps = int(counters.get("bellman_sweeps", 0))
        self.evaluation_sweeps = int(counters.get("evaluation_sweeps", 0))
        self.bellman_cpu = float(counters.get("bellman_cpu", 0.0))

    def save(self, phase: Literal["values", "lengths"], **more: Any) -> None:
        """Hand ``keep`` the progress, when it is due."""
        if self.keep is None or time.perf_counter() - self.saved_at < PROGRESS_EVERY:
            return
        base, size = self.base, self.size
        figures = {
            "drift": self.drift,
            "drift_at": self.drift_at.tolist(),
            "bellman_sweeps": self.bellman_sweeps,
            "evaluation_sweeps": self.evaluation_sweeps,
            "bellman_cpu": self.bellman_cpu,
            "seconds": time.perf_counter() - self.began,
            "cpu_seconds": _cpu_time() - self.began_cpu,
            **more,
        }
        idle, idle_name = (
            (self.lengths, "lengths") if phase == "values" else (self.values, "values")
        )

        def release(name: str, start: int, stop: int) -> None:
            if name == idle_name:  # read to be saved, not used by this phase
                release_pages(idle, base + start, base + stop)

        progress = LayerProgress(
            self.layer,
            phase,
            self.values[self.own],
            self.lengths[self.own],
            self.policy,
            self.settled,
            figures,
            release,
        )
        self.keep(progress)
        release_pages(idle, base, base + size)  # whatever a keeper read whole
        self.saved_at = time.perf_counter()

    def over_waves(
        self, array: FloatArray, backup: Callable[[int, int, bool, float], None]
    ) -> float:
        """A sweep: for each wave, ``backup(first, last, parallel, largest change so far)``
        fills ``new_values``, which are written to ``array`` before the next wave; returns the
        largest change."""
        from generator.solver import solve_sweeps as sweeps

        worst = 0.0
        for w in range(self.waves):
            first, last = int(self.wave_start[w]), int(self.wave_start[w + 1])
            parallel = last - first >= sweeps.PARALLEL_WAVE
            change = 0.0
            if last > first:  # a worker's run of a small wave may be empty
                backup(first, last, parallel, worst)
                commit = sweeps.commit_wave if parallel else sweeps.commit_wave_serial
                change = commit(
                    first, last, self.base, array, self.new_values, self.places, self.moved
                )
            worst = max(worst, self.wave_change(array, w, change))
        return worst

    def wave_change(self, array: FloatArray, wave: int, change: float) -> float:
        """The largest change of a wave just committed to ``array``, of which this process
        swept states changing by up to ``change`` (a worker of a distributed solve sends its
        new values to the others here, :mod:`generator.solver.cluster_layer`)."""
        return change

    def bellman(self) -> float:
        """A sweep that generates every move (where the stored choice may not stand)."""

        geo = self.geo

        def backup(first: int, last: int, parallel: bool, worst: float) -> None:
            sweep = self.bellman_kernels[0] if parallel else self.bellman_kernels[1]
            sweep(
                first, last, self.order, self.origin, self.base, self.values, self.held,
                self.ranks, self.policy, self.settled, self.bellman_sweeps + 1,
                np.inf if GENERATE_EVERY_MOVE else self.drift + worst, self.drift_at,
                self.new_values, geo.packed, self.configs.count, self.moves.arrays,
                geo.throw_probs, geo.perspectives, *self.table_args,
            )  # fmt: skip

        return self.over_waves(self.values, backup)

    def evaluate(self, array: FloatArray, of_lengths: bool) -> float:
        """A sweep of the stored choices' values (or expected lengths)."""
        from generator.solver import solve_sweeps as sweeps

        def backup(first: int, last: int, parallel: bool, worst: float) -> None:
            sweep = sweeps.evaluate_wave if parallel else sweeps.evaluate_wave_serial
            sweep(
                first, last, self.policy, self.geo.throw_probs, array, self.base,
                self.new_values, of_lengths,
            )  # fmt: skip

        return self.over_waves(array, backup)

    def sweep_hot(self, array: FloatArray, of_lengths: bool, step: float, target: float) -> float:
        """Sweep the hot states of the last full sweep until they move by less than
        ``HOT_TARGET`` of it (or ``target``); returns the sum of each sweep's largest change."""
        if not SWEEP_HOT_STATES or not self.rules.must_move:
            # Where moving is optional, the values of positions both sides would stall in
            # are the fixed point the sweeps reach, which depends on the order of updates:
            # keep the one plain sweeps reach.
            return 0.0
        floor, count = self.hot_floor()
        if count * HOT_SHARE > self.layer_states:
            return 0.0
        summed = 0.0
        for _ in range(MAX_SWEEPS):
            change = self.hot_sweep(array, of_lengths, floor)
            summed += change
            if change < max(step * HOT_TARGET, target):
                return summed
        raise RuntimeError(
            f"{self.rules.variant}: layer {self.layer}'s hot states did not converge"
        )

    def hot_floor(self) -> tuple[int, int]:
        """The hot states' least change code and how many there are
        (:func:`generator.solver.solve_sweeps.hot_floor`)."""
        from generator.solver import solve_sweeps as sweeps

        return sweeps.hot_floor(self.moved, HOT_SPREAD)

    def hot_sweep(self, array: FloatArray, of_lengths: bool, floor: int) -> float:
        """One in-place backup of the hot states, in the sweep order; the largest change."""
        from generator.solver import solve_sweeps as sweeps

        change = sweeps.evaluate_hot(
            self.moved, floor, self.places, self.base, array, self.policy,
            self.geo.throw_probs, of_lengths,
        )  # fmt: skip
        return float(change)

    def solve_values(self, tolerance: float) -> None:
        """Bellman sweeps, each followed by evaluation sweeps, until a Bellman sweep changes
        no value by ``tolerance``. Progress is saved before any of them, when due
        (:meth:`save`), so a stopped round goes on from its last full sweep."""
        # A round stopped among its evaluation sweeps goes on with them (its target saved).
        going_on: float | None = self.counters.get("evaluation_target")
        while True:
            if going_on is None:
                self.save("values")
                self.drift_at[min(self.bellman_sweeps + 1, 15)] = self.drift
                clock = _cpu_time()
                change = self.bellman()
                self.bellman_cpu += _cpu_time() - clock
                self.drift += change
                self.bellman_sweeps += 1
                if change < tolerance:
                    self.phase = "lengths"
                    return
                early = self.bellman_sweeps <= EARLY_ROUNDS
                target = max(tolerance, change * (EARLY_FACTOR if early else EVALUATION_FACTOR))
            else:
                target, going_on = float(going_on), None
            while True:
                # Saved before a full sweep, which sets every state's change for the hot
                # sweeps after it: the stored values, choices and target are the whole round.
                self.save("values", evaluation_target=target)
                step = self.evaluate(self.values, False)
                self.drift += step
                self.evaluation_sweeps += 1
                if step < target:
                    break
                if self.evaluation_sweeps > MAX_SWEEPS:
                    raise RuntimeError(f"{self.rules.variant}: layer {self.layer} did not converge")
                self.drift += self.sweep_hot(self.values, False, step, target)
            if self.bellman_sweeps > MAX_SWEEPS:
                raise RuntimeError(f"{self.rules.variant}: layer {self.layer} did not converge")

    def solve_lengths(self) -> None:
        """The states that can go on for ever under the final choices, then the expected
        lengths, swept from 0 until they change by less than :data:`LENGTH_TOLERANCE`."""

        base, size = self.base, self.size
        if self.resume is None or self.resume.phase == "values":
            self.values_cpu = _cpu_time() - self.began_cpu
            del self.moved  # the endless search's two flags take its place
            release_pages(self.values, base, base + self.following)
            self.endless = self.mark_endless()
            self.moved = np.zeros(size, dtype=np.uint8)
            self.length_sweeps = 1
        else:
            self.values_cpu = float(self.counters["values_cpu"])
            self.endless = int(self.counters["endless"])
            self.length_sweeps = int(self.counters["length_sweeps"])
        # The lengths get sweeps of their own, from 0, once the choices are final. Backed up in
        # the value sweeps instead, they needed 13 sweeps of their own, not 44, on seven-piece
        # Finkel's layer 6, but each joint sweep cost as much as a value and a length sweep (the
        # two arrays miss the cache apart): no faster (commit 201b4d3, reverted).
        while (change := self.evaluate(self.lengths, True)) >= LENGTH_TOLERANCE:
            if self.length_sweeps > 1:  # the first sweep moves every state from 0
                self.sweep_hot(self.lengths, True, change, LENGTH_TOLERANCE)
            self.length_sweeps += 1
            if self.length_sweeps > MAX_SWEEPS:
                raise RuntimeError(
                    f"{self.rules.variant}: expected lengths in layer {self.layer} did not"
                    f" converge in {MAX_SWEEPS} sweeps (last change {change:.3g})"
                )
            self.save(
                "lengths",
                values_cpu=self.values_cpu,
                endless=int(self.endless),
                length_sweeps=self.length_sweeps,
            )

    def mark_endless(self) -> int:
        """The layer's endless states under the final choices
        (:func:`generator.solver.solve_endless.mark_endless`); how many."""
        from generator.solver import solve_endless

        endless = solve_endless.mark_endless(
            self.base, self.size, self.places, self.policy, self.throws, self.lengths
        )
        return int(endless)

    def figures(self) -> dict[str, Any]:
        """The layer's figures."""
        return {
            "states": self.layer_states,
            "working_bytes": self.working_bytes(),
            "sweeps": self.bellman_sweeps + self.evaluation_sweeps,
            "bellman_sweeps": self.bellman_sweeps,
            "length_sweeps": self.length_sweeps,
            "endless": int(self.endless),
            "seconds": time.perf_counter() - self.began,
            "cpu_seconds": _cpu_time() - self.began_cpu,
            "bellman_cpu_seconds": self.bellman_cpu,
            "values_cpu_seconds": self.values_cpu,
        }

    def working_bytes(self) -> int:
        """The layer's working memory, checked against the estimate's count."""
        size = self.size
        working = self.order.nbytes + self.places.nbytes + self.wave_start.nbytes
        working += self.policy.nbytes
        # and mark_endless's two flags a state, or before and after it the changes' magnitudes
        working += self.new_values.nbytes + self.settled.nbytes + 2 * size
        expected = layer_working_bytes(
            size, self.waves, self.largest, self.throws, self.order.itemsize
        )
        if working != expected:
            raise AssertionError(
                f"solver bug: layer {self.layer} uses {working} bytes, not {expected}"
            )
        return working
