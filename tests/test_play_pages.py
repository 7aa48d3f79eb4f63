"""The play pages' data (generator/site/play_pages.py), read without a browser: each event
links to the rulebook's own ruling on the event's question, the throws are the rulebook's own
lots with their odds, and the data cannot close the script element that carries it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from generator.model.catalog import load_valid_catalog
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.play_pages import page_data, play_page, play_pages, script_json, served_link

DATA = Path(__file__).parent / "data" / "site"
"""The golden pages' small catalogue: two invented rulebooks, both played."""


@pytest.fixture(scope="module")
def ctx() -> SiteContext:
    return SiteContext(
        load_valid_catalog(DATA / "variants"), None, load_editions(DATA / "variants")
    )


def test_each_event_links_to_the_rulebooks_ruling_on_its_question(ctx: SiteContext) -> None:
    events = ctx.words.data["play"]["events"]
    for variant_id in ctx.variant_ids:
        data = page_data(ctx, variant_id, play_page(variant_id))
        rulings = ctx.resolved[variant_id].rulings
        linked = 0
        for key, event in data["events"].items():
            question = events[key]["question"]
            ruling = rulings.get(question) if question else None
            if ruling is None:
                assert event["href"] is None
                continue
            assert event["href"] == f"../../r/{ruling.id}/"
            assert event["title"] == ctx.ruling_title(ruling)
            linked += 1
        assert linked >= 5, f"{variant_id}: only {linked} events are decided by its rulings"


def test_the_throws_are_the_rulebooks_own_lots(ctx: SiteContext) -> None:
    for variant_id in ctx.variant_ids:
        dice = ctx.resolved[variant_id].dice
        lots = page_data(ctx, variant_id, play_page(variant_id))["lots"]
        assert sum(lot["chance"] for lot in lots) == pytest.approx(1.0)
        by_throw: dict[int, float] = {}
        for lot in lots:
            by_throw[lot["throw"]] = by_throw.get(lot["throw"], 0.0) + lot["chance"]
            assert (lot["marked"] is None) == (lot["words"] is not None)
        assert by_throw == pytest.approx({t: float(Fraction(p)) for t, p in dice.table()})


def test_the_data_cannot_close_its_script_element() -> None:
    text = str(script_json({"words": "</script><script>alert(1)</script> & more"}))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["words"] == "</script><script>alert(1)</script> & more"


def test_links_are_those_the_browser_follows_from_a_page_served_as_a_folder() -> None:
    assert served_link("play/x.md", "assets/ur-play.js") == "../../assets/ur-play.js"
    assert served_link("play/x.md", "r/a-ruling.md") == "../../r/a-ruling/"
    assert served_link("play/index.md", "play/x.md") == "x/"


def test_only_a_page_whose_game_ships_offers_the_hint(ctx: SiteContext) -> None:
    """The hint's button, its words' place and its files' addresses are on a page exactly when
    its solved game ships (the files themselves: tests/test_play_hints.py)."""
    hinted, plain = sorted(ctx.variant_ids)[:2]
    pages = play_pages(ctx, {hinted, plain}, {hinted})
    assert 'data-play="hint"' in pages[play_page(hinted)]
    assert 'data-play="hint-text"' in pages[play_page(hinted)]
    assert 'data-play="hint' not in pages[play_page(plain)]
    data = page_data(ctx, hinted, play_page(hinted), hinted=True)
    assert data["hint"]["values"] == f"../hints/{hinted}.b64"
    assert data["hint"]["index"] == f"../hints/{hinted}.json"
    assert data["hint"]["words"] == ctx.words.data["play-hint"]
    assert "hint" not in page_data(ctx, plain, play_page(plain))
