"""The play pages' data (generator/site/play_pages.py), read without a browser: each event
links to the rulebook's own ruling on the event's question, the throws are the rulebook's own
lots with their odds, the data cannot close the script element that carries it, and the
"Change the rules" panel's questions and answers are words, in the answers file's order."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from generator.measure.own_rules import own_rules
from generator.model.catalog import load_valid_catalog
from generator.sim.variation import canonical
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.own_rules_panel import answer_key, answer_keys, other_boards
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


# --- the "Change the rules" panel (generator/site/own_rules_panel.py) ------------------------

ROOT = Path(__file__).resolve().parents[1]
MACHINE_VALUE = re.compile(r"r\d+c\d+|[{}\[\]\"_]|\b(?:true|false|null)\b")
"""What a value looks like as data rather than words: a cell, JSON punctuation, a literal."""


@pytest.fixture(scope="module")
def site() -> SiteContext:
    """The real catalogue: its questions have several answers each, with real words."""
    return SiteContext(
        load_valid_catalog(ROOT / "variants"), None, load_editions(ROOT / "variants")
    )


def test_every_question_in_the_panel_has_answers_in_words(site: SiteContext) -> None:
    answers = own_rules(site.catalog)
    for variant_id in site.variant_ids:
        if variant_id not in answers["rulebooks"]:
            continue
        data = page_data(site, variant_id, play_page(variant_id), answers)
        questions = data["own"]["questions"]
        assert len(questions) >= 5, f"{variant_id}: only {len(questions)} questions to change"
        for question in questions:
            listed = question["answers"]
            assert len(listed) >= 2, f"{variant_id} {question['id']}: one answer"
            assert sum(a["own"] for a in listed) == 1, f"{variant_id} {question['id']}: own"
            words = [a["words"] for a in listed]
            assert len(set(words)) == len(words), f"{question['id']}: answers read alike {words}"
            keys = [a["key"] for a in listed]
            assert len(set(keys)) == len(keys) and all(re.fullmatch(r"[a-z0-9-]+", k) for k in keys)
            for text in [question["title"], *words, *(a["phrase"] for a in listed)]:
                assert text.strip() and not MACHINE_VALUE.search(text), f"machine value: {text!r}"
            for answer in listed:
                for rulebook in answer["rulebooks"]:
                    assert rulebook["href"].startswith("../../variants/")
        assert set(data["diceLots"]) == set(answers["equipment"]["dice"])


def test_the_panels_answers_are_the_answers_files_in_its_order(site: SiteContext) -> None:
    answers = own_rules(site.catalog)
    data = page_data(site, "finkel-english", play_page("finkel-english"), answers)
    listed = {q["id"]: q for q in data["own"]["questions"]}
    assert list(listed) == [q["id"] for q in answers["questions"]]
    for entry in answers["questions"]:
        own = [a for a in listed[entry["id"]]["answers"] if a["own"]]
        position = listed[entry["id"]]["answers"].index(own[0])
        value = entry["answers"][position]["value"]
        assert canonical(value) == canonical(answers["rulebooks"]["finkel-english"][entry["id"]])


def test_answer_keys_are_readable_and_unique() -> None:
    assert answer_key("rosettes") == "rosettes"
    assert answer_key([5, 4, 1]) == "5-4-1"
    assert answer_key([]) == "none" and answer_key(None) == "null"
    assert answer_key(["r2c4"]) == "r2c4"
    assert answer_keys([[1], [1], 2]) == ["1", "1-2", "2"]


def test_a_changed_route_is_drawn_on_its_own_board(site: SiteContext) -> None:
    answers = own_rules(site.catalog)
    boards = other_boards(site, "finkel-english", answers)
    own = site.resolved["finkel-english"].route.id
    assert own not in boards and set(boards) == set(answers["equipment"]["routes"]) - {own}
    aseb = site.catalog.equipment.routes["aseb"]
    assert all(f'data-cell="{cell}"' in boards["aseb"] for cell in aseb.light)
