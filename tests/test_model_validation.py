"""``ur-variants validate``: the repository passes, and each kind of broken input is reported
as ``file:line: message`` at the right line, with a non-zero exit status.

Broken inputs are built in ``tmp_path`` from the repository's shared data files (sources,
questions, equipment, seeds) and small fixture variants written here, so the expected line
numbers do not move when the real variant files are edited.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, VARIANTS

from generator.cli import main

PROBLEM_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<message>.+)$")

FIXTURE_VALUES: dict[str, str] = {
    "board": "ur",
    "pieces": "7",
    "dice": "four-binary",
    "start": "light",
    "route": "bell",
    "entry": "{throws: any, square: throw}",
    "moves-per-throw": "one-piece",
    "stacking": "1",
    "capture-zone": "shared",
    "safe-squares": "rosettes",
    "stack-defence": "null",
    "rosette-extra-throw": "rosettes",
    "throw-extra-throw": "[]",
    "capture-extra-throw": "false",
    "extra-throw-piece": "any",
    "must-move": "true",
    "no-legal-move": "pass",
    "extra-throw-without-move": "does-not-arise",
    "bearing-off": "exact",
    "winning": "all-borne-off",
    "illegal-move": "taken-back",
    "stakes": "null",
    "special-squares": "null",
}
"""A complete, valid set of machine values (Finkel's rules) for the fixture variant."""


def _questions() -> list[dict[str, str]]:
    data = yaml.safe_load((VARIANTS / "questions.yml").read_text(encoding="utf-8"))
    questions: list[dict[str, str]] = data["questions"]
    return questions


def _drives_engine(question: dict[str, str]) -> bool:
    engine = question["engine"]
    return engine not in ("none", "not modelled") and not engine.startswith("none ")


def _ruling(prefix: str, question: str, value: str) -> str:
    evidence = "assumed" if value != "null" or question not in ("stakes", "special-squares") else ""
    evidence = evidence or "not-modelled"
    return (
        f"  - id: {prefix}-{question}\n"
        f"    question: {question}\n"
        f"    value: {value}\n"
        f"    text: The fixture plays {question} this way.\n"
        f"    evidence: {evidence}\n"
        f"    note: A fixture for the validation tests.\n"
    )


def fixture_variant(variant_id: str, prefix: str, derives_from: str | None = None) -> str:
    """A valid variant file answering every question (or, derived, only ``pieces``)."""
    head = (
        f"id: {variant_id}\n"
        "title: A fixture variant for the validation tests\n"
        "short: Fixture\n"
        "kind: scholarly-reconstruction\n"
        "family: finkel\n"
        f"derives_from: {derives_from or 'null'}\n"
        "simulate: true\n"
        "summary: Written by tests/test_model_validation.py.\n"
        "rulings:\n"
    )
    if derives_from is not None:
        return head + _ruling(prefix, "pieces", "5")
    answered = [q["id"] for q in _questions() if q["id"] in FIXTURE_VALUES or _drives_engine(q)]
    return head + "".join(_ruling(prefix, q, FIXTURE_VALUES[q]) for q in answered)


def _seed_source(english: bool) -> tuple[str, str]:
    """(source id, a line of its seed page) for an English or a non-English seed source."""
    data = yaml.safe_load((VARIANTS / "sources.yml").read_text(encoding="utf-8"))
    for source in data["sources"]:
        if source.get("seed") and (source["language"] == "en") == english:
            text = (VARIANTS / "seeds" / source["seed"]).read_text(encoding="utf-8")
            line = next(line.strip() for line in text.splitlines() if len(line.strip()) > 12)
            return source["id"], line
    pytest.skip("no suitable seed-page source in variants/sources.yml")


def stated_ruling(prefix: str, question: str, value: str, source: str, quote: str | None) -> str:
    return (
        f"  - id: {prefix}-{question}\n"
        f"    question: {question}\n"
        f"    value: {value}\n"
        "    text: Stated by the source.\n"
        "    evidence: stated\n"
        "    sources:\n"
        f"      - source: {source}\n"
        "        locator: first line\n"
        f"        quote: {json.dumps(quote)}\n"
        "        translation: null\n"
    )


@dataclass
class Workspace:
    """A copy of the shared data files plus fixture variants, edited one thing at a time."""

    root: Path

    @property
    def variants(self) -> Path:
        return self.root / "variants"

    def write(self, name: str, text: str) -> None:
        (self.variants / name).write_text(text, encoding="utf-8")

    def read(self, name: str) -> str:
        return (self.variants / name).read_text(encoding="utf-8")

    def replace(self, name: str, old: str, new: str) -> None:
        text = self.read(name)
        assert old in text, f"fixture text {old!r} not found in {name}"
        self.write(name, text.replace(old, new, 1))

    def replace_ruling(self, name: str, question: str, new: str) -> None:
        """Swap the whole fixture ruling on ``question`` for ``new`` (several lines)."""
        text = self.read(name)
        start = text.index(f"  - id: fx-{question}\n")
        end = text.find("  - id: ", start + 1)
        self.write(name, text[:start] + new + (text[end:] if end != -1 else ""))

    def add_equipment(self, section: str, entry: str) -> None:
        """Insert ``entry`` (YAML list-item lines) at the top of an equipment.yml section."""
        text = self.read("equipment.yml")
        match = re.search(rf"^{section}:\n", text, flags=re.MULTILINE)
        assert match is not None, f"no {section}: section in equipment.yml"
        indent = re.match(r"^(\s*)-", text[match.end() :])
        assert indent is not None
        shifted = "".join(indent.group(1) + line + "\n" for line in entry.splitlines())
        self.write("equipment.yml", text[: match.end()] + shifted + text[match.end() :])

    def line_of(self, name: str, needle: str, occurrence: int = 1) -> int:
        hits = [i for i, line in enumerate(self.read(name).splitlines(), 1) if needle in line]
        assert len(hits) >= occurrence, f"{needle!r} not in {name}"
        return hits[occurrence - 1]


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    folder = tmp_path / "variants"
    folder.mkdir()
    for name in ("sources.yml", "questions.yml", "equipment.yml"):
        shutil.copy(VARIANTS / name, folder / name)
    shutil.copytree(VARIANTS / "seeds", folder / "seeds")
    # A version that covers named places needs a citation there; the fixture cites none.
    sources = yaml.safe_load((folder / "sources.yml").read_text(encoding="utf-8"))
    for source in sources["sources"]:
        source.pop("versions", None)
    (folder / "sources.yml").write_text(yaml.safe_dump(sources, sort_keys=False), encoding="utf-8")
    space = Workspace(tmp_path)
    space.write("fx.yml", fixture_variant("fx", "fx"))
    space.write("fx-child.yml", fixture_variant("fx-child", "fxc", derives_from="fx"))
    return space


def validate(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[tuple[str, int, str]]]:
    code = main(["--root", str(root), "validate"])
    captured = capsys.readouterr()
    problems = []
    for line in captured.err.splitlines():
        match = PROBLEM_LINE.match(line)
        if match:
            problems.append((Path(match["file"]).name, int(match["line"]), match["message"]))
    return code, problems


def test_repository_validates(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--root", str(ROOT), "validate"])
    captured = capsys.readouterr()
    assert code == 0, f"ur-variants validate failed:\n{captured.err}"
    assert captured.out.startswith("ok:")


def test_fixture_validates(workspace: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    """The untouched fixture is valid, so each broken case below breaks exactly one thing."""
    code, problems = validate(workspace.root, capsys)
    assert (code, problems) == (0, [])


Breaker = Callable[[Workspace], tuple[str, int] | list[tuple[str, int]]]
"""Breaks one thing in the workspace; returns the (file name, line) where it must be reported,
or a list of acceptable places."""


def unknown_key(ws: Workspace) -> tuple[str, int]:
    ws.replace("fx.yml", "short: Fixture\n", "short: Fixture\ncolour: blue\n")
    return "fx.yml", ws.line_of("fx.yml", "colour: blue")


def wrong_type(ws: Workspace) -> tuple[str, int]:
    ws.replace("fx.yml", "simulate: true", "simulate: sometimes")
    return "fx.yml", ws.line_of("fx.yml", "simulate:")


def wrong_value_type(ws: Workspace) -> tuple[str, int]:
    ws.replace("fx.yml", "    value: 7\n", "    value: seven\n")
    return "fx.yml", ws.line_of("fx.yml", "value: seven")


def unknown_source(ws: Workspace) -> tuple[str, int]:
    _, quote = _seed_source(english=True)
    ws.replace_ruling(
        "fx.yml", "board", stated_ruling("fx", "board", "ur", "no-such-source", quote)
    )
    return "fx.yml", ws.line_of("fx.yml", "source: no-such-source")


def unknown_question(ws: Workspace) -> tuple[str, int]:
    ws.replace(
        "fx.yml",
        "  - id: fx-stakes\n    question: stakes",
        "  - id: fx-stakes\n    question: colour",
    )
    return "fx.yml", ws.line_of("fx.yml", "question: colour")


def duplicate_ruling_id(ws: Workspace) -> list[tuple[str, int]]:
    """Reported at either use of the id (the one met second), naming the other file."""
    ws.replace("fx-child.yml", "  - id: fxc-pieces", "  - id: fx-pieces")
    return [
        ("fx-child.yml", ws.line_of("fx-child.yml", "- id: fx-pieces")),
        ("fx.yml", ws.line_of("fx.yml", "- id: fx-pieces")),
    ]


def claim_without_reading(ws: Workspace) -> tuple[str, int]:
    """A check that weighs a vague word ("most") needs the claim to say how it is read."""
    source, quote = _seed_source(english=True)
    ws.write(
        "fx.yml",
        ws.read("fx.yml")
        + "claims:\n"
        + "  - id: fx-claim-most\n"
        + "    claim: The central rosette decides most games.\n"
        + "    check: central-rosette-decides\n"
        + "    sources:\n"
        + f"      - source: {source}\n"
        + "        locator: first line\n"
        + f"        quote: {json.dumps(quote)}\n"
        + "        translation: null\n",
    )
    return "fx.yml", ws.line_of("fx.yml", "- id: fx-claim-most")


def route_leaves_board(ws: Workspace) -> tuple[str, int]:
    ws.add_equipment(
        "routes",
        "- id: fx-off-board\n  title: Off the board\n  board: ur\n"
        "  light: [r1c4, r1c1, r2c1, r2c8, r1c8, r1c6]\n  dark: mirror",
    )
    return "equipment.yml", ws.line_of(
        "equipment.yml", "light: [r1c4, r1c1, r2c1, r2c8, r1c8, r1c6]"
    )


def route_jumps(ws: Workspace) -> tuple[str, int]:
    ws.add_equipment(
        "routes",
        "- id: fx-jump\n  title: jump\n  board: ur\n  light: [r1c4, r2c1, r2c8]\n  dark: mirror",
    )
    return "equipment.yml", ws.line_of("equipment.yml", "light: [r1c4, r2c1, r2c8]")


def play_on_short_route(ws: Workspace) -> None:
    """A 12-step route that never visits r1c7/r3c7 (two rosettes of the Ur board)."""
    ws.add_equipment(
        "routes",
        "- id: fx-short\n  title: short\n  board: ur\n"
        "  light: [r1c4, r1c1, r2c1, r2c8]\n  dark: mirror",
    )
    ws.replace("fx.yml", "    value: bell\n", "    value: fx-short\n")


def reanswer(ws: Workspace, question: str, old: str, new: str) -> None:
    """Change the fixture's answer to ``question`` from ``old`` to ``new``."""
    ws.replace(
        "fx.yml",
        f"question: {question}\n    value: {old}",
        f"question: {question}\n    value: {new}",
    )


def safe_cell_off_route(ws: Workspace) -> tuple[str, int]:
    play_on_short_route(ws)
    reanswer(ws, "safe-squares", "rosettes", "[r1c7]")
    return "fx.yml", ws.line_of("fx.yml", "- id: fx-safe-squares")


def rosette_off_route(ws: Workspace) -> tuple[str, int]:
    play_on_short_route(ws)
    reanswer(ws, "safe-squares", "rosettes", "none")
    return "fx.yml", ws.line_of("fx.yml", "- id: fx-rosette-extra-throw")


def dice_do_not_sum_to_one(ws: Workspace) -> tuple[str, int]:
    ws.add_equipment(
        "dice",
        "- id: fx-bad-dice\n  title: bad\n  outcomes:\n"
        "    - {throw: 1, p: 1/2}\n    - {throw: 2, p: 1/4}",
    )
    return "equipment.yml", ws.line_of("equipment.yml", "- id: fx-bad-dice")


def derivation_cycle(ws: Workspace) -> tuple[str, int]:
    ws.write("fx-a.yml", fixture_variant("fx-a", "fxa", derives_from="fx-b"))
    ws.write("fx-b.yml", fixture_variant("fx-b", "fxb", derives_from="fx-a"))
    return "fx-a.yml", ws.line_of("fx-a.yml", "derives_from:")


def stated_without_quote(ws: Workspace) -> tuple[str, int]:
    source, _ = _seed_source(english=True)
    ws.replace_ruling("fx.yml", "board", stated_ruling("fx", "board", "ur", source, None))
    return "fx.yml", ws.line_of("fx.yml", "evidence: stated")


def seed_quote_not_verbatim(ws: Workspace) -> tuple[str, int]:
    source, quote = _seed_source(english=True)
    ws.replace_ruling(
        "fx.yml", "board", stated_ruling("fx", "board", "ur", source, quote + " (sic)")
    )
    return "fx.yml", ws.line_of("fx.yml", "quote:")


def missing_translation(ws: Workspace) -> tuple[str, int]:
    source, quote = _seed_source(english=False)
    ws.replace_ruling("fx.yml", "board", stated_ruling("fx", "board", "ur", source, quote))
    return "fx.yml", ws.line_of("fx.yml", "quote:")


def code_quote_without_words(ws: Workspace) -> tuple[str, int]:
    """A quote marked as a line of code needs what it does in words, even from an English source."""
    source, quote = _seed_source(english=True)
    ruling = stated_ruling("fx", "board", "ur", source, quote)
    ws.replace_ruling(
        "fx.yml", "board", ruling.replace("        translation: null\n", "        code: Java\n")
    )
    return "fx.yml", ws.line_of("fx.yml", "quote:")


def cannot_terminate(ws: Workspace) -> tuple[str, int]:
    ws.replace("fx.yml", "{throws: any, square: throw}", "{throws: [5], square: 1}")
    return "fx.yml", ws.line_of("fx.yml", "- id: fx-entry")


def too_many_pieces(ws: Workspace) -> tuple[str, int]:
    ws.add_equipment(
        "routes", "- id: fx-tiny\n  title: tiny\n  board: ur\n  light: [r2c1, r2c3]\n  dark: mirror"
    )
    ws.replace("fx.yml", "    value: bell\n", "    value: fx-tiny\n")
    return "fx.yml", ws.line_of("fx.yml", "- id: fx-pieces")


def extra_throw_question_arises(ws: Workspace) -> tuple[str, int]:
    reanswer(ws, "throw-extra-throw", "[]", "[4]")
    return "fx.yml", ws.line_of("fx.yml", "- id: fx-extra-throw-without-move")


def extra_throw_question_does_not_arise(ws: Workspace) -> tuple[str, int]:
    reanswer(ws, "extra-throw-without-move", "does-not-arise", "turn-passes")
    return "fx.yml", ws.line_of("fx.yml", "- id: fx-extra-throw-without-move")


def measured_reading_malformed(ws: Workspace) -> tuple[str, int]:
    ws.replace("questions.yml", "measure: [throws-again]", "measure: [sometimes]")
    return "questions.yml", ws.line_of("questions.yml", "measure:")


def question_without_value_form(ws: Workspace) -> tuple[str, int]:
    """A question the data adds without a check of its values' form in the code."""
    question = "  - id: colour-of-pieces\n    title: Colour of the pieces\n"
    question += "    explanation: Which colour each side plays.\n"
    question += "    engine: none\n    value: text\n"
    ws.replace("questions.yml", "  - id: must-move\n", question + "  - id: must-move\n")
    return "questions.yml", ws.line_of("questions.yml", "- id: colour-of-pieces")


def note_links_to_unknown_id(ws: Workspace) -> tuple[str, int]:
    """A note names another ruling as [[id]]: an id nobody has is a data error."""
    note = "note: As [[fx-no-such]] says."
    ws.replace("fx.yml", "note: A fixture for the validation tests.", note)
    return "fx.yml", ws.line_of("fx.yml", note)


def summary_with_stray_brackets(ws: Workspace) -> tuple[str, int]:
    ws.replace("fx.yml", "summary: Written by", "summary: See [[fx-pieces, written by")
    return "fx.yml", ws.line_of("fx.yml", "summary:")


def note_says_how_the_site_was_made(ws: Workspace) -> tuple[str, int]:
    """A note speaks of the source, not of what could be read of it; "could be read as" (an
    interpretation, as in the fixture's other notes) stays allowed."""
    note = "note: The rule could be read as optional; the page could not be read in full."
    ws.replace("fx.yml", "note: A fixture for the validation tests.", note)
    return "fx.yml", ws.line_of("fx.yml", note)


def missing_required_question(ws: Workspace) -> tuple[str, int]:
    ws.replace_ruling("fx.yml", "must-move", "")
    return "fx.yml", ws.line_of("fx.yml", "rulings:")


CASES: dict[str, tuple[Breaker, tuple[str, ...]]] = {
    "unknown key": (unknown_key, ("unknown key", "colour")),
    "wrong type": (wrong_type, ("simulate", "boolean", "sometimes")),
    "wrong value type": (wrong_value_type, ("seven", "whole number")),
    "unknown source id": (unknown_source, ("unknown source", "no-such-source")),
    "unknown question id": (unknown_question, ("unknown question", "colour")),
    "duplicate ruling id": (duplicate_ruling_id, ("fx-pieces", "already used")),
    "route leaves the board": (route_leaves_board, ("fx-off-board", "leaves board", "r1c6")),
    "route jumps": (route_jumps, ("fx-jump", "jumps", "r1c4", "r2c1")),
    "safe cell off the route": (safe_cell_off_route, ("safe-squares", "r1c7", "off the route")),
    "rosette off the route": (rosette_off_route, ("rosette-extra-throw", "off the route")),
    "dice do not sum to 1": (dice_do_not_sum_to_one, ("fx-bad-dice", "sum to 3/4", "not 1")),
    "derivation cycle": (derivation_cycle, ("derivation cycle", "fx-a", "fx-b")),
    "stated ruling without quote": (stated_without_quote, ("fx-board", "stated", "quote")),
    "seed quote not verbatim": (seed_quote_not_verbatim, ("not found verbatim", "seed")),
    "missing translation": (missing_translation, ("translation",)),
    "code quote without words": (code_quote_without_words, ("Java code", "in words")),
    "variant cannot terminate": (cannot_terminate, ("cannot end", "[5]")),
    "too many pieces": (too_many_pieces, ("7 pieces", "fx-tiny", "cannot fit")),
    "extra throw question arises": (
        extra_throw_question_arises,
        ("does-not-arise", "[4]", "throws-again or turn-passes"),
    ),
    "extra throw question does not arise": (
        extra_throw_question_does_not_arise,
        ("turn-passes", "no throw earns another throw", "answer does-not-arise"),
    ),
    "measured reading malformed": (
        measured_reading_malformed,
        ("measure", "sometimes", "throws-again | turn-passes | does-not-arise"),
    ),
    "question without a value form": (
        question_without_value_form,
        ("colour-of-pieces", "no value form", "VALUE_CHECKS"),
    ),
    "note links to an unknown id": (note_links_to_unknown_id, ("[[fx-no-such]]", "names no")),
    "summary with stray brackets": (
        summary_with_stray_brackets,
        ("stray '[['", "[[ruling-id|words]]"),
    ),
    "note says how the site was made": (
        note_says_how_the_site_was_made,
        ("'could not be read'", "what the source is"),
    ),
    "missing required question": (missing_required_question, ("does not answer", "must-move")),
    "claim without reading": (claim_without_reading, ("fx-claim-most", "reading")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_broken_input_is_reported(
    case: str, workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    breaker, keywords = CASES[case]
    expected = breaker(workspace)
    places = expected if isinstance(expected, list) else [expected]
    code, problems = validate(workspace.root, capsys)
    assert code != 0, f"{case}: validate exited 0"
    assert problems, f"{case}: no file:line: message problem printed"
    listing = "\n".join(f"{f}:{n}: {m}" for f, n, m in problems)
    files = {file for file, _ in places}
    matching = [p for p in problems if p[0] in files and all(k in p[2] for k in keywords)]
    assert matching, f"{case}: no problem in {sorted(files)} mentions {keywords}; got:\n{listing}"
    assert any((f, n) in places for f, n, _ in matching), (
        f"{case}: reported at {[(f, n) for f, n, _ in matching]}, expected one of {places}"
    )


def test_every_semantic_problem_is_reported(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three broken rulings in one file give three problems, each at its own line."""
    source, quote = _seed_source(english=True)
    workspace.replace_ruling(
        "fx.yml", "dice", stated_ruling("fx", "dice", "four-binary", source, quote + " (sic)")
    )
    expected = {unknown_source(workspace)[1]}
    expected.add(workspace.line_of("fx.yml", "quote:", 2))  # the dice ruling's quote
    expected.add(unknown_question(workspace)[1])
    code, problems = validate(workspace.root, capsys)
    assert code != 0
    assert len(problems) == 3, problems
    assert {n for f, n, _ in problems if f == "fx.yml"} == expected, problems


def test_every_structural_problem_is_reported(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three schema violations in one file give three problems, each at its own line."""
    expected = {unknown_key(workspace)[1], wrong_type(workspace)[1]}
    workspace.replace("fx.yml", "kind: scholarly-reconstruction", "kind: hearsay")
    expected.add(workspace.line_of("fx.yml", "kind: hearsay"))
    code, problems = validate(workspace.root, capsys)
    assert code != 0
    mine = [(n, m) for f, n, m in problems if f == "fx.yml"]
    assert {n for n, _ in mine} == expected, problems
    assert len(mine) == 3, problems


def test_bad_yaml_is_reported_at_its_line(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace.replace("fx.yml", "short: Fixture\n", "short: Fixture\n  : [unclosed\n")
    code, problems = validate(workspace.root, capsys)
    assert code != 0
    assert any(f == "fx.yml" and "not valid YAML" in m for f, _, m in problems), problems


def test_child_of_a_broken_parent_points_at_the_parent(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """A parent that fails its schema is named as the thing to fix, not as a missing variant."""
    unknown_key(workspace)
    code, problems = validate(workspace.root, capsys)
    assert code != 0
    child = [(n, m) for f, n, m in problems if f == "fx-child.yml"]
    assert child == [(workspace.line_of("fx-child.yml", "derives_from:"), child[0][1])], problems
    assert "fx.yml did not load" in child[0][1]
    assert "is not a variant" not in child[0][1]
