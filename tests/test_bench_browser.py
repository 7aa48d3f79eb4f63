"""The browser bench's arithmetic: which committed agent the computer is held against, and how
far apart two first-player shares are."""

from __future__ import annotations

import pytest

from generator.commands._bench_browser import Share, difference_z, strongest
from generator.commands.bench import speed_rulebooks


def score(estimate: float, qualifies: bool = True) -> dict[str, object]:
    return {"estimate": estimate, "qualifies": qualifies}


def test_the_computer_is_held_against_the_best_scoring_agent_the_site_uses() -> None:
    committed = {
        "scores": {
            "book": {
                "greedy": score(0.90),
                "fitted": score(0.88),
                "expectimax": score(0.95, qualifies=False),
            }
        }
    }
    assert strongest(committed, "book") == ("greedy", 0.90)


def test_a_rulebook_without_a_qualifying_agent_has_none_to_compare() -> None:
    committed = {"scores": {"book": {"greedy": score(0.51, qualifies=False)}}}
    assert strongest(committed, "book") is None
    assert strongest(None, "book") is None


def test_equal_shares_are_zero_errors_apart_and_distant_ones_many() -> None:
    assert difference_z(Share(500, 1000), Share(5000, 10000)) == 0.0
    assert difference_z(Share(600, 1000), Share(5000, 10000)) == pytest.approx(6.03, abs=0.01)
    assert difference_z(Share(400, 1000), Share(5000, 10000)) < -6


def test_the_bench_times_finkels_rules_unless_told_which_rulebooks() -> None:
    played = ["finkel", "masters", "blitz"]
    assert speed_rulebooks([], "finkel", played) == ["finkel"]
    assert speed_rulebooks(["all"], "finkel", played) == played
    assert speed_rulebooks(["blitz", "masters", "blitz"], "finkel", played) == ["blitz", "masters"]


def test_the_bench_names_a_rulebook_it_does_not_play() -> None:
    message = speed_rulebooks(["masters", "nowhere"], "finkel", ["finkel", "masters"])
    assert isinstance(message, str)
    assert "not a played rulebook: nowhere;" in message
