"""The one place where machine values become a reader's words.

Every value a ruling can take is given a phrase (a sentence for the rulebook and question
pages) and a short form (for table cells) by ``generator/site/data/vocabulary.yml``; boards,
routes and dice are named by their own titles in ``variants/equipment.yml``. Squares are named
as readers name them: "the central rosette", "square 8 of both routes", "the shared middle
lane", never by their grid names. A value the vocabulary has no words for is an error, so a new
value cannot reach a page as a machine token.

>>> from pathlib import Path
>>> from generator.model.catalog import load_valid_catalog
>>> words = Vocabulary.of(load_valid_catalog(Path("variants")).equipment)
>>> words.describe("safe-squares", ["r2c4"], board="ur")
'A piece on the central rosette is safe from capture'
>>> words.describe("throw-extra-throw", [5, 4, 1])
'A throw of 5, 4 or 1 earns another throw'
>>> words.label("capture-extra-throw", True)
'another throw'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.measure.claims import Verdict as ClaimVerdict
from generator.measure.engine_readings import Verdict
from generator.model.equipment import Board, Cell, Equipment, Route, parse_cell
from generator.model.play_checks import PlayProblem
from generator.model.yamlsource import load_data
from generator.site.render import in_sentence
from generator.words import listing, plural

DATA = Path(__file__).parent / "data" / "vocabulary.yml"
EQUIPMENT_QUESTIONS = ("board", "route", "dice")
FAMILIES = ("number", "cells", "throws", "empty")


class NoWords(KeyError):
    """A machine value the vocabulary gives no words for."""


@dataclass(frozen=True)
class AgentWords:
    label: str
    """The agent's machine name (``extra-throw``), never shown to readers."""
    name: str
    definition: str


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = load_data(DATA)
    return data


def _same(key: Any, value: Any) -> bool:
    """Equal and of one kind (YAML's ``true`` must not answer for the number 1)."""
    return key == value and isinstance(key, bool) == isinstance(value, bool)


@dataclass(frozen=True)
class Vocabulary:
    """Words for values, squares and kinds, drawn from the vocabulary data and the equipment."""

    equipment: Equipment
    data: Mapping[str, Any]

    @classmethod
    def of(cls, equipment: Equipment) -> Vocabulary:
        return cls(equipment, _data())

    # --- values ------------------------------------------------------------------------------

    def describe(self, question_id: str, value: Any, board: str | None = None) -> str:
        """The value as a sentence (without its full stop): what the rule is."""
        return self._words(question_id, value, board, "phrase")

    def label(self, question_id: str, value: Any, board: str | None = None) -> str:
        """The value in a few words, for a table cell."""
        return self._words(question_id, value, board, "short")

    def _words(self, question_id: str, value: Any, board: str | None, form: str) -> str:
        if question_id in EQUIPMENT_QUESTIONS:
            return self._equipment_words(question_id, value, form)
        if question_id == "entry":
            return self._entry_words(value, form)
        forms = self.data["values"].get(question_id, {})
        for key, entry in forms.items():
            if key not in FAMILIES and _same(key, value):
                return str(entry[form])
        family = self._family(value)
        if family is None or family not in forms:
            raise NoWords(
                f"no words for the value {value!r} of the question {question_id!r}: add them "
                f"under values: {question_id}: in {DATA}"
            )
        return str(forms[family][form]).format(
            n=value,
            cells=self.cells(value, board) if family == "cells" else "",
            throws=self.throws(value) if family == "throws" else "",
        )

    @staticmethod
    def _family(value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return "number"
        if isinstance(value, list):
            if not value:
                return "empty"
            return "cells" if all(isinstance(v, str) for v in value) else "throws"
        return None

    def _equipment_words(self, question_id: str, value: str, form: str) -> str:
        items: Mapping[str, Any] = {
            "board": self.equipment.boards,
            "route": self.equipment.routes,
            "dice": self.equipment.dice,
        }[question_id]
        if value not in items:
            raise NoWords(f"no {question_id} {value!r} in variants/equipment.yml")
        title = str(items[value].title)
        if form == "phrase":
            return title
        if question_id == "dice":
            return str(self.data["dice"]["short"]).format(throws=self.dice_throws(value))
        return title_head(title)

    def dice_throws(self, dice: str) -> str:
        """The throws a set of dice gives, as "0–4" or "1–4, 6, 8"."""
        return number_ranges([t for t, _ in self.equipment.dice[dice].table()])

    def _entry_words(self, value: Mapping[str, Any], form: str) -> str:
        words = self.data["entry"]
        if "per_piece" in value:
            pieces = value["per_piece"]
            if form == "short":
                throws = sorted({t for p in pieces for t in p["throws"]})
                return str(words["short-per-piece"]).format(
                    count=len(pieces), throws=number_ranges(throws)
                )
            named = [
                str(words["piece"]).format(
                    name=p["name"].replace("-", " "),
                    throws=self.throws(p["throws"]),
                    square=p["square"],
                )
                for p in pieces
            ]
            return str(words["per-piece"]).format(pieces=listing(named, None, "; "))
        throws, square = value["throws"], value["square"]
        if form == "short":
            if throws == "any" and square == "throw":
                return str(words["short-any-throw"])
            shown = words["short-any"] if throws == "any" else number_ranges(throws)
            target = words["short-onto-throw"] if square == "throw" else square
            return str(words["short-throws"]).format(throws=shown, square=target)
        who = (
            str(words["any-throw"])
            if throws == "any"
            else str(words["throws"]).format(throws=self.throws(throws))
        )
        onto = (
            str(words["onto-throw"])
            if square == "throw"
            else str(words["onto-square"]).format(square=square)
        )
        return str(words["rule"]).format(who=who, onto=onto)

    @staticmethod
    def throws(throws: Iterable[int]) -> str:
        return listing([str(t) for t in throws], "or")

    # --- squares -----------------------------------------------------------------------------

    def rosette_name(self, cell: Cell, board: str | None = None) -> str | None:
        boards: Mapping[str, Mapping[str, str]] = self.data["rosettes"]
        names = [boards.get(board, {})] if board else list(boards.values())
        for known in names:
            if cell in known:
                return known[cell]
        return None

    def cell(self, cell: Cell, board: str | None = None) -> str:
        """A square named without a route: its rosette's name, or its row and column."""
        name = self.rosette_name(cell, board)
        if name is not None:
            return name
        row, column = parse_cell(cell)
        words = self.data["squares"]
        row_name = self.data["rows"].get(f"r{row}") or str(words["row"]).format(row=row)
        return str(words["cell"]).format(column=ordinal(column), row=row_name.removeprefix("the "))

    def cells(self, cells: Iterable[Cell], board: str | None = None) -> str:
        return listing([self.cell(c, board) for c in cells], "or")

    def square_on_route(self, cell: Cell, board: Board, route: Route) -> str:
        """A square named by its steps on each side's route (and its rosette or lane)."""
        words = self.data["squares"]
        light = [i + 1 for i, c in enumerate(route.light) if c == cell]
        dark = [i + 1 for i, c in enumerate(route.dark) if c == cell]
        routes = [("both-routes", light)] if light and light == dark else []
        routes = routes or [(side, steps) for side, steps in (("light", light), ("dark", dark))]
        parts = [
            str(words[f"on-{side}"]).format(squares=self._squares(steps))
            for side, steps in routes
            if steps
        ]
        where = listing(parts) if parts else str(words["on-no-route"])
        rosette = self.rosette_name(cell, board.id) if cell in board.rosettes else None
        extra = [rosette] if rosette else []
        if light and dark:
            extra.append(str(words["shared"]))
        said = str(words["aside"]).format(listing(extra, None)) if extra else ""
        return where[:1].upper() + where[1:] + said

    def _squares(self, steps: Sequence[int]) -> str:
        """ "square 4", "squares 4 and 12": steps of a route."""
        form = plural(len(steps), "step")
        return str(self.data["squares"][form]).format(steps=listing([str(s) for s in steps]))

    # --- refusals ----------------------------------------------------------------------------

    def refusal(self, problem: PlayProblem) -> str:
        """Why the engine cannot play a changed rulebook, in a reader's words: the problem's
        kind worded by the vocabulary, equipment named by its title, throws as "5, 6 or 7"."""
        words = self.data.get("unplayable", {}).get(problem.kind)
        if words is None:
            raise NoWords(
                f"no words for the problem {problem.kind!r}: add it to {DATA.name}'s unplayable"
            )
        said = str(words).format(**{k: self._detail(k, v) for k, v in problem.details.items()})
        return said[:1].upper() + said[1:]

    def _detail(self, key: str, value: Any) -> str:
        """One fact of a problem in words: a board or route by its title, dice by the throws
        they give ("0–4"), throws listed ("5, 6 or 7")."""
        boards_and_routes: Mapping[str, Mapping[str, Any]] = {
            "route": self.equipment.routes,
            "route_board": self.equipment.boards,
            "board": self.equipment.boards,
        }
        if key in boards_and_routes:
            return title_in_sentence(str(boards_and_routes[key][value].title))
        if key == "dice":
            return self.dice_throws(value)
        if isinstance(value, list):
            return self.throws(value)
        return str(value)

    def silent(self, question_id: str) -> str:
        """What is played where a rulebook's sources do not answer the question (a sentence
        without its full stop): the rule this site assumes, as a player would state it."""
        words = self.data.get("silent", {}).get(question_id)
        if words is None:
            raise NoWords(
                f"no words for playing the question {question_id!r} where the sources are"
                f" silent: add it under silent: in {DATA}"
            )
        return str(words)

    # --- kinds -------------------------------------------------------------------------------

    def agent(self, label: str) -> AgentWords:
        """A computer player's name and its one-sentence definition."""
        words = self.data.get("agents", {}).get(label)
        if words is None:
            raise NoWords(f"no words for the agent {label!r}: add it to {DATA.name}'s agents")
        return AgentWords(label, words["name"], words["definition"])

    def kind(self, kind: str) -> str:
        return str(self.data["kinds"][kind])

    def check(self, name: str) -> str:
        """How a claim check tests a claim, in words."""
        words = self.data.get("checks", {}).get(name)
        if words is None:
            raise NoWords(f"no words for the claim check {name!r}: add it to {DATA.name}'s checks")
        return str(words)

    def claim_verdict(self, verdict: ClaimVerdict) -> str:
        """A claim check's verdict, in words."""
        words = self.data.get("claim-verdicts", {}).get(verdict.value)
        if words is None:
            raise NoWords(
                f"no words for the claim verdict {verdict.value!r}: add it to {DATA.name}'s"
                " claim-verdicts"
            )
        return str(words)

    def drawing(self, key: str, **values: object) -> str:
        """Words of a drawing (``drawings:`` in the vocabulary), with ``values`` filled in."""
        words = self.data["drawings"].get(key)
        if words is None:
            raise NoWords(f"no words for the drawing's {key!r}: add it under drawings: in {DATA}")
        return str(words).format(**values)

    def page(self, key: str, **values: object) -> tuple[str, str]:
        """A generated page's title and description (``pages:`` in the vocabulary), with
        ``values`` filled in: the words of its front matter."""
        words = self.data["pages"].get(key)
        if words is None:
            raise NoWords(f"no title for the page {key!r}: add it under pages: in {DATA}")
        return str(words["title"]).format(**values), str(words["description"]).format(**values)

    def language(self, code: str) -> str:
        return str(self.data["languages"].get(code, code))

    def verdict(self, verdict: Verdict) -> str:
        """What one ruling put into another rulebook does there, as the engine judged it
        (continuing "the other ruling ...")."""
        words = self.data.get("verdicts", {}).get(verdict.value)
        if words is None:
            raise NoWords(
                f"no words for the verdict {verdict.value!r}: add it to {DATA.name}'s verdicts"
            )
        return str(words)


def _title_name(title: str) -> str:
    """An equipment's title without its description: "The Ur board (a 3 × 8 grid ...)" ->
    "The Ur board"."""
    return title.split(" (")[0].split(";")[0].strip()


def title_in_sentence(title: str) -> str:
    """ "The Ur board (a 3 × 8 grid ...)" -> "the Ur board": an equipment's title as a sentence
    names it (other titles begin with a name, "Bell's 14-square route", and keep it)."""
    return in_sentence(_title_name(title))


def title_head(title: str) -> str:
    """ "The Ur board (a 3 × 8 grid ...)" -> "Ur board"; "The later twenty-squares board (...)"
    -> "later twenty-squares board": the case as written, for a cell among others in lower
    case and for the middle of a sentence ("...: later twenty-squares board")."""
    head = _title_name(title)
    return head[4:] if head.startswith("The ") else head


def number_ranges(numbers: Iterable[int]) -> str:
    """ "0–4" for a run of whole numbers, "1–4, 6, 8" otherwise."""
    values = sorted(set(numbers))
    runs: list[list[int]] = []
    for n in values:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return listing([f"{r[0]}–{r[-1]}" if len(r) > 2 else listing(r, None) for r in runs], None)
