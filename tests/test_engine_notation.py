"""The one-line position notation, and the ``ur-variants moves`` command built on it.

Notation: ``<light>/<dark> <side>``, progress per piece (0 in hand, L+1 borne off).
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
import yaml
from conftest import VARIANTS, play, rules_for, variant_ids

from generator.cli import main
from generator.engine.moves import successors
from generator.engine.position import format_position, parse_position, start_position
from generator.engine.rules import Side

GAMES_PER_VARIANT = 3


@pytest.mark.parametrize("variant_id", variant_ids())
def test_notation_round_trips_in_random_play(variant_id: str) -> None:
    rules = rules_for(variant_id)
    rng = random.Random(f"notation {variant_id}")
    checked = 0
    for _ in range(GAMES_PER_VARIANT):
        for ply in play(rules, rng):
            for position in (ply.before, ply.after):
                text = format_position(position)
                assert parse_position(rules, text) == position, text
                assert "\n" not in text and text.count(" ") == 1
                checked += 1
    assert checked > 0


def test_start_notation_of_every_variant() -> None:
    for variant_id in variant_ids():
        rules = rules_for(variant_id)
        hand = ",".join(["0"] * rules.pieces)
        assert format_position(start_position(rules)) == f"{hand}/{hand} L"


def _first_rules() -> tuple[str, int, int]:
    """A variant id, its piece count and its off value, for the bad-input cases."""
    variant_id = variant_ids()[0]
    rules = rules_for(variant_id)
    return variant_id, rules.pieces, rules.off


def _bad_notations() -> list[tuple[str, str]]:
    _, pieces, off = _first_rules()
    hand = ",".join(["0"] * pieces)
    short = ",".join(["0"] * (pieces - 1)) if pieces > 1 else ""
    beyond = ",".join(["0"] * (pieces - 1) + [str(off + 1)])
    return [
        ("", "expected"),
        ("nonsense", "expected"),
        (f"{hand}/{hand}", "expected"),
        (f"{hand}/{hand} X", "expected"),
        (f"{hand}-{hand} L", "expected"),
        (f"{hand}/{hand}/{hand} L", "expected"),
        (f"{hand}/{hand} L extra", "expected"),
        (f"{hand.replace('0', 'a', 1)}/{hand} L", "whole numbers"),
        (f"{hand}/{hand[:-1]}x L", "whole numbers"),
        (f"{short}/{hand} L", f"has {pieces - 1} pieces"),
        (f"{hand},0/{hand} D", f"has {pieces + 1} pieces"),
        (f"{beyond}/{hand} L", f"outside 0..{off}"),
        (f"{hand}/{hand.replace('0', '-1', 1)} L", "outside"),
    ]


@pytest.mark.parametrize(("text", "expected"), _bad_notations())
def test_bad_notation_is_refused_with_a_reason(text: str, expected: str) -> None:
    variant_id, _, _ = _first_rules()
    with pytest.raises(ValueError) as caught:
        parse_position(rules_for(variant_id), text)
    assert expected in str(caught.value), str(caught.value)


def test_impossible_occupancy_is_refused() -> None:
    """Two pieces of opposite sides on one cell, or too many of one side on a cell."""
    for variant_id in variant_ids():
        rules = rules_for(variant_id)
        shared = [
            (light, dark)
            for light in range(1, rules.off)
            for dark in range(1, rules.off)
            if rules.cell(Side.LIGHT, light) == rules.cell(Side.DARK, dark)
        ]
        if shared:
            light, dark = shared[0]
            rest = ["0"] * (rules.pieces - 1)
            text = f"{','.join([*rest, str(light)])}/{','.join([*rest, str(dark)])} L"
            with pytest.raises(ValueError, match="both sides"):
                parse_position(rules, text)
        if rules.pieces > rules.stack_limit:
            crowd = ["1"] * (rules.stack_limit + 1) + ["0"] * (rules.pieces - rules.stack_limit - 1)
            hand = ",".join(["0"] * rules.pieces)
            with pytest.raises(ValueError, match="at most"):
                parse_position(rules, f"{','.join(sorted(crowd))}/{hand} L")


def _moves(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["moves", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("variant_id", variant_ids())
def test_moves_command_json_matches_the_engine(
    variant_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = rules_for(variant_id)
    rng = random.Random(f"moves {variant_id}")
    plies = list(play(rules, rng))
    ply = plies[len(plies) // 2]
    position_text = format_position(ply.before)
    code, out, err = _moves(capsys, variant_id, position_text, str(ply.throw), "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["variant"] == variant_id
    assert payload["position"] == position_text
    assert payload["throw"] == ply.throw
    expected = [format_position(after) for _, after in successors(rules, ply.before, ply.throw)]
    assert [m["position"] for m in payload["moves"]] == expected
    for entry in payload["moves"]:
        assert set(entry) >= {"move", "piece", "from", "to", "captured", "extra_throw", "position"}
        after = parse_position(rules, entry["position"])
        assert entry["extra_throw"] == (after.to_move == ply.before.to_move)


GREAT_BOOK_NO_MOVE = (
    "If no legal move exists for the number thrown, the turn simply passes.",
    "Move a different piece, or lose the turn if nothing is legal.",
)
"""The Great Book page's own sentences on a throw with no legal move: the turn passes, whatever
the throw (a 4 included: the page makes no exception for it)."""


def _great_book_page() -> str:
    """The Great Book page's text, from the seed file its source entry names."""
    sources = yaml.safe_load((VARIANTS / "sources.yml").read_text(encoding="utf-8"))
    (name,) = [s["seed"] for s in sources["sources"] if s["id"] == "seed-000"]
    return (VARIANTS / "seeds" / name).read_text(encoding="utf-8")


def test_a_four_no_piece_can_use_follows_the_great_book(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 11's position: light's last piece two squares from home throws a 4 in the Great
    Book's reading. The page gives the 4 another throw with its move, and passes the turn on any
    throw with no legal move; the engine, compiled from the data, must pass it to dark. The
    expected side comes from the page's sentences, not from the data's answer, so the test fails
    if the data says the 4 throws again."""
    page = _great_book_page()
    for sentence in GREAT_BOOK_NO_MOVE:
        assert sentence in page, f"the Great Book page no longer says {sentence!r}"
    position = "12,15,15,15,15,15,15/0,0,0,0,0,0,0 L"
    code, out, err = _moves(capsys, "finkel-great-book", position, "4", "--json")
    assert code == 0, err
    (only,) = json.loads(out)["moves"]
    assert only["move"] == "pass (no legal move)"
    assert only["position"] == "12,15,15,15,15,15,15/0,0,0,0,0,0,0 D", "the turn must pass"
    assert only["extra_throw"] is False
    rules = rules_for("finkel-great-book")
    other = dataclasses.replace(rules, extra_throw_without_move=not rules.extra_throw_without_move)
    ((_, after),) = successors(other, parse_position(rules, position), 4)
    assert after.to_move == Side.LIGHT, "the other answer must give light another throw"


def test_moves_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    variant_id, _, _ = _first_rules()
    rules = rules_for(variant_id)
    throw = max(t for t, _ in rules.throws)
    code, out, err = _moves(capsys, variant_id, "start", str(throw))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"{variant_id}: {format_position(start_position(rules))}")
    results = successors(rules, start_position(rules), throw)
    assert len(lines) == 1 + len(results)
    for line, (_, after) in zip(lines[1:], results, strict=True):
        assert line.rstrip().endswith(format_position(after))


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("no-such-variant", "start", "2"), "unknown variant 'no-such-variant'"),
        (("{variant}", "0,0/0 L", "{throw}"), "bad position"),
        (("{variant}", "garbage", "{throw}"), "bad position"),
        (("{variant}", "start", "99"), "throw 99 is impossible"),
        (("{variant}", "start", "-1"), "impossible"),
    ],
)
def test_moves_command_errors(
    args: tuple[str, ...], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    variant_id, _, _ = _first_rules()
    throw = str(max(t for t, _ in rules_for(variant_id).throws))
    filled = [a.replace("{variant}", variant_id).replace("{throw}", throw) for a in args]
    code, out, err = _moves(capsys, *filled)
    assert code != 0
    assert expected in err, err
    assert out == ""


@pytest.mark.parametrize("command", ["moves", "solve", "simulate", "full-games"])
def test_commands_naming_rulebooks_refuse_an_unknown_id_or_a_broken_catalogue(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every command that names rulebooks checks them the same way before any work: an
    unknown id exits 2 naming it, a catalogue that does not load exits 1."""
    extra = ["start", "2"] if command == "moves" else []
    assert main([command, "no-such-variant", *extra]) == 2
    assert "unknown variant" in capsys.readouterr().err
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "broken.yml").write_text("id: [\n", encoding="utf-8")
    assert main(["--root", str(tmp_path), command, "no-such-variant", *extra]) == 1
    assert capsys.readouterr().err
