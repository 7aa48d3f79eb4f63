"""The fitted agent: its exact evaluation describes the games the simulator plays, it sits
between random and perfect play, and its committed fits and checks cover every rulebook."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from conftest import repository_catalog, rules_for

from generator.model.catalog_contents import Catalog
from generator.sim import fast, rekey
from generator.sim.encode import encode_rules
from generator.sim.records import RecordSpec
from generator.solver import agent_check, exact_effects, fitted_agent
from generator.solver.policy_eval import ExactFigures, evaluate
from generator.solver.published import finkel_variant
from generator.solver.solve import with_pieces


def finkel() -> str:
    variant = finkel_variant(repository_catalog())
    assert variant is not None
    return variant


@pytest.fixture(scope="module")
def finkel_one() -> tuple[fitted_agent.Fit, np.ndarray]:
    rules = with_pieces(rules_for(finkel()), 1)
    return fitted_agent.fit(rules), encode_rules(rules).packed()


def test_exact_figures_match_the_games_the_kernel_plays(
    finkel_one: tuple[fitted_agent.Fit, np.ndarray],
) -> None:
    """The policy evaluated exactly is the policy the simulator plays: seeded games of the
    fitted agent against random land within four standard errors of the exact figures."""
    fit, packed = finkel_one
    weights = np.asarray(fit.weights)
    games = 20_000
    for seat, exact in ((0, fit.fitted_first_v_random), (1, fit.fitted_second_v_random)):
        agents = (fast.FITTED, fast.RANDOM) if seat == 0 else (fast.RANDOM, fast.FITTED)
        table = fast.play_games(packed, *agents, 17, 0, games, weights=weights)
        share = float((table[:, fast.WINNER] == seat).mean())
        error = math.sqrt(exact * (1 - exact) / games)
        assert abs(share - exact) < 4 * error, (seat, share, exact)


def test_fitted_agent_sits_between_random_and_perfect_play() -> None:
    rules = with_pieces(rules_for(finkel()), 2)
    fit = fitted_agent.fit(rules)
    perfect = evaluate(rules).figures()
    assert fit.states == perfect.states
    assert fit.r_squared > 0.5
    assert 0.5 < fit.fitted_v_random <= perfect.skill + 1e-12
    assert fit.fitted_v_perfect <= 0.5 + 1e-12
    # Against perfect play it wins no more than perfect play itself, in either seat.
    assert fit.fitted_first_v_perfect <= perfect.perfect_first + 1e-12
    assert fit.fitted_second_v_perfect <= 1 - perfect.perfect_first + 1e-12


def test_runs_with_the_fitted_agent_keep_their_keys_as_they_were(catalog: Catalog) -> None:
    """Before the migration a fitted agent's run also digested its fit's version, the others
    not (:mod:`generator.sim.rekey`); now neither does, and both are told apart by agent."""
    variant = catalog.resolve(finkel())
    plain = RecordSpec(variant, ("greedy", "random"), 10, 1)
    fitted = RecordSpec(variant, ("fitted", "random"), 10, 1)
    with rekey.migrating() as renamed:
        old = {dataclasses.replace(plain).key, dataclasses.replace(fitted).key}
    assert set(renamed) == old and set(renamed.values()) == {plain.key, fitted.key}
    assert "fit_version" not in fitted.game_content()


def test_committed_fits_cover_every_rulebook(catalog: Catalog) -> None:
    fits = fitted_agent.read_fits()
    assert fits is not None, "results/fitted-agent.json is missing: run ur-variants agents"
    simulated = {v.id for v in catalog.variants.values() if v.simulate}
    listed = {v for fit in fits["fits"].values() for v in fit["variants"]}
    assert listed == simulated
    for vid in simulated:
        rules = rules_for(vid)
        assert fitted_agent.committed_weights(rules) is not None, f"{vid}: stale fit"
        entry = fitted_agent.fit_of(fits, vid)
        assert entry is not None
        fit = fitted_agent.Fit.from_dict({k: v for k, v in entry.items() if k != "variants"})
        assert fit.fitted_v_perfect <= 0.5 + 1e-9


def test_committed_check_plays_the_fitted_agent_against_the_best_simple_one() -> None:
    results = agent_check.read_results()
    assert results is not None
    for vid, duel in results["fitted_v_best"].items():
        scores = results["scores"][vid]
        assert duel["rival"] == agent_check.best_simple(scores)
        assert duel["low"] <= duel["estimate"] <= duel["high"]
        assert duel["games"] == 2 * results["head_to_head_games_a_seat"]


def test_keeping_scores_needs_the_same_games_and_rules() -> None:
    earlier = {
        "games_a_seat": 50_000,
        "seed": 1,
        "fingerprints": {"a": "fa", "b": "fb"},
        "scores": {"a": {"greedy": {}}, "b": {"safe": {}}},
    }
    agent_check._check_keepable(earlier, ["greedy"], {"a": "fa"}, 50_000, 1)
    for games, seed, kept, prints in (
        (10_000, 1, ["greedy"], {"a": "fa"}),
        (50_000, 2, ["greedy"], {"a": "fa"}),
        (50_000, 1, ["safe"], {"a": "fa"}),
        (50_000, 1, ["greedy"], {"a": "fa", "b": "fb"}),
        (50_000, 1, ["greedy"], {"a": "changed"}),
        (50_000, 1, ["greedy"], {"c": "fc"}),
    ):
        with pytest.raises(ValueError, match="check"):
            agent_check._check_keepable(earlier, kept, prints, games, seed)
    with pytest.raises(ValueError, match="no earlier results"):
        agent_check._check_keepable(None, ["greedy"], {"a": "fa"}, 50_000, 1)


def test_committed_fits_and_the_exact_effects_describe_the_same_games() -> None:
    """Perfect play's figures at a fit's piece count are committed once, with the exact
    effects (the statistics page reads them there); the fit solved the same game (as many
    positions), and the fitted agent's exact figures there respect perfect play's: against
    perfect play no policy wins more, in either seat, than perfect play itself."""
    fits = fitted_agent.read_fits()
    exact = exact_effects.read_results()
    assert fits is not None and exact is not None
    fields = {f.name for f in dataclasses.fields(ExactFigures)}
    for entry in fits["fits"].values():
        assert not {"perfect_first", "perfect_first_v_random"} & set(entry), "stored twice"
        fit = fitted_agent.Fit.from_dict({k: v for k, v in entry.items() if k != "variants"})
        for vid in entry["variants"]:
            same = [f for f in exact["rulebooks"][vid] if f["pieces"] == fit.pieces]
            assert same, vid
            perfect = ExactFigures.from_dict({k: v for k, v in same[0].items() if k in fields})
            assert fit.states == perfect.states, vid
            assert fit.fitted_first_v_perfect <= perfect.perfect_first + 1e-9, vid
            assert fit.fitted_second_v_perfect <= 1 - perfect.perfect_first + 1e-9, vid


def test_kept_scores_name_who_measured_them() -> None:
    first = {"command": "c1", "commit": "a", "date": "d1", "machine": "m"}
    rerun = {"command": "c2", "commit": "b", "date": "d2", "machine": "m"}
    assert agent_check.kept_provenance({**first, "kept": None}, ["greedy"]) == first
    chained = {**rerun, "kept": {"agents": ["greedy", "safe"], **first}}
    assert agent_check.kept_provenance(chained, ["greedy"]) == first
    assert agent_check.kept_provenance(chained, ["greedy", "capture"]) == rerun


@pytest.mark.parametrize(
    ("variant", "pieces"), [("finkel-great-book", 3), ("murray-1952-royalur", 2)]
)
def test_the_fit_counts_positions_as_the_solver_estimates_them(variant: str, pieces: int) -> None:
    """Which committed fit a rulebook plays depends on the positions of its small games:
    counted without the solver's memory figures, they are the solver's count."""
    from generator.solver.solve_estimate import estimate

    small = with_pieces(rules_for(variant), pieces)
    assert fitted_agent.state_count(small) == estimate(small).states
