"""Where two rulebooks part: the engine's search finds a position whose legal results differ
under the two answers to one question, and none where the answers agree."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from conftest import repository_catalog

from generator.engine.equivalence import swapped_rules
from generator.engine.moves import successors
from generator.engine.rules import Rules, compile_rules
from generator.measure.core import Settings
from generator.measure.parting import (
    Gap,
    Parting,
    first_parting,
    pair_parting,
    parting_problems,
    partings,
)


def mixed(host: str, donor: str, question: str) -> tuple[Rules, Rules]:
    """``host``'s rules, and the same with ``donor``'s answer to ``question`` alone."""
    catalog = repository_catalog()
    resolved = catalog.resolve(host)
    other = swapped_rules(catalog, resolved, catalog.resolve(donor).rulings[question])
    assert other is not None
    return compile_rules(resolved), other


def test_rules_that_differ_in_one_question_part_where_that_answer_changes_the_moves() -> None:
    # Finkel's English rules keep the central rosette safe; Bell's 1960 answer is no safe square.
    own, other = mixed("finkel-english", "bell-1960", "safe-squares")
    assert own.safe_cells != other.safe_cells
    found = first_parting(own, other)
    assert found is not None
    assert successors(own, found.position, found.throw) != successors(
        other, found.position, found.throw
    )
    # The answer aligned again, the difference vanishes at that very position, and everywhere.
    aligned = replace(other, safe_cells=own.safe_cells)
    assert successors(own, found.position, found.throw) == successors(
        aligned, found.position, found.throw
    )
    assert first_parting(own, aligned) is None


def test_the_search_is_breadth_first_and_deterministic() -> None:
    own, other = mixed("finkel-english", "bell-1960", "safe-squares")
    found = first_parting(own, other)
    assert found is not None and found == first_parting(own, other)
    # A capture on the central rosette needs a piece of each side there and in reach: a few
    # moves, never the start position (where no piece stands on the board).
    assert 1 <= found.plies <= 8


def test_the_same_rules_never_part() -> None:
    own, _ = mixed("finkel-english", "bell-1960", "safe-squares")
    assert first_parting(own, own) is None


def test_a_pair_gets_both_rulebooks_legal_results_on_one_position() -> None:
    catalog = repository_catalog()
    resolved = {vid: catalog.resolve(vid) for vid in ("finkel-english", "bell-1960")}
    parting = pair_parting(catalog, resolved, "finkel-english", "bell-1960", "safe-squares")
    assert isinstance(parting, Parting)
    assert set(parting.lines) == {"finkel-english", "bell-1960"}
    assert parting.lines["finkel-english"] != parting.lines["bell-1960"]
    assert parting_problems({("bell-1960", "finkel-english", "q"): parting}) == []


def test_no_shared_position_or_odds_alone_are_said_not_searched() -> None:
    catalog = repository_catalog()
    ids = ("finkel-english", "masters-page", "royalur-masters-four-dice")
    resolved = {vid: catalog.resolve(vid) for vid in ids}
    # Masters' route and Bell's route cross the board differently: no position is shared.
    route = pair_parting(catalog, resolved, "finkel-english", "masters-page", "route")
    assert route is Gap.NO_SHARED_POSITION
    # Three lots (a blank throw counting 4) against four: the same throws, other odds.
    dice = pair_parting(catalog, resolved, "masters-page", "royalur-masters-four-dice", "dice")
    assert dice is Gap.ODDS_ONLY


def test_the_step_reads_its_cache_as_it_wrote_it(tmp_path: Path) -> None:
    catalog = repository_catalog()
    small = replace(
        catalog, variants={k: catalog.variants[k] for k in ("bell-1960", "finkel-english")}
    )
    settings = Settings(cache_root=tmp_path, log=lambda text: None)
    first = partings(small, settings)
    assert first and all(isinstance(p, Parting | Gap) for p in first.values())
    assert partings(small, settings) == first
