"""The costed plan: the fewest rented machines a distributed solve fits, its time and its price.

Time comes from the solver's measured speed: positions solved a processor-second in the slowest
of the committed full games of at least :data:`MIN_RATE_STATES` positions (every sweep of every
layer included; ``results/full-games.json``), taken to hold on the rented machines' processors
and on every processor at once (the split keeps every worker busy in each wave:
:mod:`generator.solver.partition`). Sending the values that cross workers is counted apart, per
sweep, at the machine's assumed network speed. The machine and its price are an assumption
(:data:`MACHINE`), stated with its date wherever a figure uses it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from generator.sim import results_files
from generator.solver.full_games import fingerprint
from generator.solver.solve_plan import (
    Counted,
    Plan,
    PlanRefused,
    count,
    fewest_workers,
    held_whole,
)

PLAN_FILE = results_files.RESULTS_DIR / "solve-plan.json"
"""Where ``ur-variants solve ... --plan --write-results`` writes the costed plan."""
PLAN_FORMAT = 2
"""The plan file's layout (2: each game's slot map and states a machine keeps)."""


def read_plan(path: Path = PLAN_FILE) -> dict[str, Any] | None:
    """The committed costed plan, or ``None`` when missing, damaged or of another layout."""
    return results_files.read_results(path, PLAN_FORMAT)


MIN_RATE_STATES = 100_000_000
"""Full games this large stand for the speed of a large solve (the small ones run from the
processor's cache, faster)."""


@dataclass(frozen=True)
class Machine:
    """A rented machine, as assumed."""

    name: str
    memory_gib: int
    processors: int
    dollars_an_hour: float
    network_gbit: float
    assumed: str
    """Where the figures come from and when: an assumption, not a measurement."""


MACHINE = Machine(
    name="AWS r6i.2xlarge, on demand, Linux, us-east-1",
    memory_gib=64,
    processors=8,
    dollars_an_hour=0.504,
    network_gbit=10.0,
    assumed=(
        "the provider's published on-demand list price and network speed for its"
        " memory-optimised machines, as of 2026-12-05; prices change"
    ),
)


@dataclass(frozen=True)
class Rate:
    """The solver's measured speed: positions a processor-second."""

    per_second: float
    variant: str
    states: int
    cpu_seconds: float


def slowest_rate(full_games: dict[str, Any]) -> Rate:
    """The slowest positions a processor-second among the solved full games of at least
    :data:`MIN_RATE_STATES` positions (``full_games``: the committed results' payload)."""
    rates = [
        Rate(record["states"] / record["cpu_seconds"], vid, record["states"], record["cpu_seconds"])
        for vid, record in full_games.get("solved", {}).items()
        if record.get("states", 0) >= MIN_RATE_STATES and record.get("cpu_seconds", 0) > 0
    ]
    if not rates:
        raise ValueError(
            "results/full-games.json holds no solved full game of"
            f" {MIN_RATE_STATES:,} positions or more to time the plan by;"
            " `ur-variants full-games` solves them"
        )
    return min(rates, key=lambda rate: rate.per_second)


def costed(counted: Counted, machine: Machine, rate: Rate) -> dict[str, Any]:
    """The plan of the ``counted`` game on the fewest ``machine`` s (one worker each), with its
    time and price, as plain values; ``machines`` ``None`` (and what every machine would hold
    alone) where no number of them holds it."""
    rules = counted.rules
    try:
        found: Plan = fewest_workers(counted, machine.memory_gib * 2**30)
    except PlanRefused:
        # What every worker holds alone is more than the machine: no number of them will do.
        return {
            "pieces": rules.pieces,
            "states": counted.states,
            "states_counted": counted.exact,
            "largest_layer": counted.largest,
            "machines": None,
            "every_machine_bytes": counted.shared_bytes + held_whole(counted.largest),
            "listed_whole_bytes": held_whole(counted.largest),
            "single_bytes": counted.single_bytes,
        }
    processor_hours = found.states / rate.per_second / 3600
    wall_hours = processor_hours / (found.workers * machine.processors)
    received = found.traffic.bytes / found.workers
    return {
        "pieces": rules.pieces,
        "states": found.states,
        "states_counted": found.states_exact,
        "largest_layer": found.largest_layer,
        "machines": found.workers,
        "worker_bytes": found.worker_bytes,
        "listed_whole_bytes": found.held_whole_bytes,
        "states_a_machine_keeps": found.slots_per_worker,
        "single_bytes": found.single_bytes,
        "traffic_values": found.traffic.values,
        "traffic_bytes": found.traffic.bytes,
        "traffic_counted": found.traffic.exact,
        "traffic_measured_on_pieces": found.traffic.measured_on_pieces,
        "transfer_seconds_per_sweep": received * 8 / (machine.network_gbit * 1e9),
        "processor_hours": processor_hours,
        "wall_hours": wall_hours,
        "dollars": wall_hours * found.workers * machine.dollars_an_hour,
    }


def costed_plan(games: dict[str, Any], full_games: dict[str, Any]) -> dict[str, Any]:
    """Every game of ``games`` (rulebook -> rules) costed on :data:`MACHINE`, with the
    assumption and the speed it was timed by."""
    rate = slowest_rate(full_games)
    # Rulebooks worded apart may play one game (Merit 1976 and Selchow & Righter 1977 do):
    # counting its 11.5 billion positions takes minutes, so each game is counted once.
    keys = {vid: fingerprint(rules) for vid, rules in games.items()}
    counts: dict[str, Counted] = {}
    for vid, key in keys.items():
        if key not in counts:
            counts[key] = count(games[vid])
    return {
        "rented_machine": asdict(MACHINE),
        "rate": asdict(rate),
        "games": {vid: costed(counts[key], MACHINE, rate) for vid, key in keys.items()},
    }
