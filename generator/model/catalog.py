"""Load every file of ``variants/`` into one validated :class:`Catalog`.

Loading never stops at the first problem: every problem found is returned, each as
``file:line: message``. A catalogue with problems is not used to build anything.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.model import checks, schema
from generator.model.catalog_contents import Catalog, is_seed_name
from generator.model.equipment import (
    Board,
    Dice,
    Equipment,
    Outcome,
    Route,
    binary_lots,
    cell_name,
    expand_waypoints,
    mirror_cell,
    parse_cell,
    parse_fraction,
)
from generator.model.values import VALUE_CHECKS
from generator.model.variant import (
    Citation,
    Claim,
    ClaimReading,
    Evidence,
    Question,
    Ruling,
    Source,
    SourceKind,
    SourceVersion,
    Variant,
)
from generator.model.yamlsource import Document, Problem, YamlError, load_document

DATA_FILES = ("sources.yml", "questions.yml", "equipment.yml")
NOT_VARIANTS = (*DATA_FILES, "redirects.yml", "seed-sentences.yml", "editions.yml")
"""Files in ``variants/`` that are not variant files (redirects.yml: renamed published ids;
seed-sentences.yml: what each sentence of each seed page supports, checked by the tests;
editions.yml: the site's editions and what each changed)."""


HASH_IN_WORDS = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
"""A commit hash, full or abbreviated, where words are expected."""


class CatalogError(Exception):
    """The catalogue has problems; ``problems`` lists every one."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def variant_files(root: Path) -> list[Path]:
    return sorted(
        p for p in root.glob("*.yml") if p.name not in NOT_VARIANTS and not p.name.startswith("_")
    )


def load_catalog(root: Path, only: list[Path] | None = None) -> tuple[Catalog, list[Problem]]:
    """Load and check everything under ``root``; ``only`` limits variant-file checks."""
    catalog = Catalog(root)
    problems: list[Problem] = []
    documents: dict[str, Document] = {}
    for name in DATA_FILES:
        document = _load(root / name, problems)
        if document is not None:
            documents[name] = document
    if "questions.yml" in documents:
        catalog.questions = _questions(documents["questions.yml"], problems)
    if "sources.yml" in documents:
        catalog.sources = _sources(documents["sources.yml"], problems)
    if "equipment.yml" in documents:
        catalog.equipment = _equipment(documents["equipment.yml"], problems)
    if "questions.yml" in documents:
        problems.extend(_value_form_problems(documents["questions.yml"], catalog))
        problems.extend(_measure_problems(documents["questions.yml"], catalog))
    shared_problems = list(problems)
    variant_docs: dict[str, Document] = {}
    for path in variant_files(root):
        document = _load(path, problems)
        variant = _variant(document, problems) if document is not None else None
        if document is None or variant is None:
            catalog.unreadable.add(path.stem)
            continue
        if variant.id in catalog.variants:
            problems.append(document.problem(("id",), f"variant id {variant.id!r} is used twice"))
            continue
        catalog.variants[variant.id] = variant
        variant_docs[variant.id] = document
    if shared_problems:
        # Every variant refers to the shared files: checking variants against half-loaded ones
        # buries the one real problem under hundreds of "unknown source" lines, so the shared
        # files' own problems come alone; the variants are checked once those are fixed.
        variant_problems = problems[len(shared_problems) :]
        return catalog, _dedupe(shared_problems) + _dedupe(_only(variant_problems, only))
    problems.extend(checks.check_catalog(catalog, variant_docs))
    problems.extend(checks.check_source_versions(catalog, documents["sources.yml"], variant_docs))
    return catalog, _dedupe(_only(problems, only))


def _only(problems: list[Problem], only: list[Path] | None) -> list[Problem]:
    """The problems in the files of ``only`` (all of them when ``only`` is ``None``)."""
    if only is None:
        return problems
    wanted = {str(p.resolve()) for p in only}
    return [p for p in problems if str(Path(p.file).resolve()) in wanted]


def load_valid_catalog(root: Path) -> Catalog:
    """The catalogue, or :class:`CatalogError` listing every problem."""
    catalog, problems = load_catalog(root)
    if problems:
        raise CatalogError(problems)
    return catalog


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[str, int, str]] = set()
    unique = []
    for problem in problems:
        key = (problem.file, problem.line, problem.message)
        if key not in seen:
            seen.add(key)
            unique.append(problem)
    return sorted(unique, key=lambda p: (p.file, p.line))


def _load(path: Path, problems: list[Problem]) -> Document | None:
    if not path.exists():
        problems.append(Problem(str(path), 1, "file is missing; see variants/README.md"))
        return None
    try:
        return load_document(path)
    except YamlError as error:
        problems.append(error.problem)
        return None


def _questions(document: Document, problems: list[Problem]) -> dict[str, Question]:
    found = schema.check(document, schema.QUESTIONS_SCHEMA)
    problems.extend(found)
    if found:
        return {}
    questions: dict[str, Question] = {}
    for i, entry in enumerate(document.data["questions"]):
        if entry["id"] in questions:
            problems.append(document.problem(("questions", i, "id"), "duplicate question id"))
        questions[entry["id"]] = Question(
            entry["id"],
            entry["title"],
            entry["explanation"],
            entry["engine"],
            entry["value"],
            tuple(entry.get("measure", ())),
        )
    return questions


def _value_form_problems(document: Document, catalog: Catalog) -> Iterator[Problem]:
    """Every question has a value form (:data:`generator.model.values.VALUE_CHECKS`): without
    one its rulings' values, and the readings the sensitivity runs measure, would go
    unchecked."""
    for i, question in enumerate(catalog.questions.values()):
        if question.id not in VALUE_CHECKS:
            yield document.problem(
                ("questions", i, "id"),
                f"question {question.id} has no value form: add a check for it to VALUE_CHECKS"
                " in generator/model/values.py (the values its rulings may take)",
            )


def _measure_problems(document: Document, catalog: Catalog) -> Iterator[Problem]:
    """Each answer a question asks the sensitivity runs to measure has the question's form."""
    for i, question in enumerate(catalog.questions.values()):
        check = VALUE_CHECKS.get(question.id)
        for j, value in enumerate(question.measure if check else ()):
            message = check(value, catalog.equipment) if check else None
            if message:
                yield document.problem(("questions", i, "measure", j), f"measure: {message}")


def _dates_as_text(document: Document) -> None:
    """A version date written unquoted (``date: 2024-03-12``) reads as a date; the schema checks
    its written form, the same either way."""
    entries = document.data.get("sources") if isinstance(document.data, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        versions = entry.get("versions") if isinstance(entry, dict) else None
        for version in versions if isinstance(versions, list) else []:
            if isinstance(version, dict) and isinstance(version.get("date"), dt.date):
                version["date"] = version["date"].isoformat()


def _versions(
    document: Document, where: tuple[str | int, ...], entries: list[dict[str, Any]]
) -> Iterator[Problem | SourceVersion]:
    """Each version of a source, or the problem with it: a date that is no day, a label that
    prints a hash (readers get words), or several versions without ``match`` to tell them apart."""
    for k, entry in enumerate(entries):
        here = (*where, "versions", k)
        day = None
        if "date" in entry:
            try:
                day = dt.date.fromisoformat(entry["date"])
            except ValueError:
                yield document.problem((*here, "date"), f"date {entry['date']!r} is no day")
                continue
        label = entry.get("label")
        if label and HASH_IN_WORDS.search(label):
            yield document.problem(
                (*here, "label"),
                "the label is what readers see: name the version in words (file version 1.3.10,"
                " release 2.1) and give the hash as commit",
            )
        if len(entries) > 1 and "match" not in entry:
            yield document.problem(
                here,
                "a source with several versions needs match: <words of the locators each covers>",
            )
        yield SourceVersion(entry.get("match"), label, day, entry.get("commit"))


def _sources(document: Document, problems: list[Problem]) -> dict[str, Source]:
    _dates_as_text(document)
    found = schema.check(document, schema.SOURCES_SCHEMA)
    problems.extend(found)
    if found:
        return {}
    sources: dict[str, Source] = {}
    seeds = document.path.parent / "seeds"
    for i, entry in enumerate(document.data["sources"]):
        where = ("sources", i)
        if entry["id"] in sources:
            problems.append(
                document.problem((*where, "id"), f"source id {entry['id']!r} is listed twice")
            )
        kind = SourceKind(entry["kind"])
        seed = entry.get("seed")
        if kind is SourceKind.SEED_PAGE and not seed:
            problems.append(document.problem(where, "a seed-page source needs seed: <file name>"))
        if seed and not is_seed_name(seed):
            problems.append(
                document.problem(
                    (*where, "seed"),
                    f"seed {seed[:60]!r} must be the name of a file in variants/seeds/,"
                    " without folders",
                )
            )
            seed = None  # never read a file outside variants/seeds/
        elif seed and not (seeds / seed).is_file():
            problems.append(
                document.problem((*where, "seed"), f"seed file {seed!r} is not in variants/seeds/")
            )
        unlocated = not seed and not entry.get("url") and not entry.get("note")
        if unlocated and kind is not SourceKind.TABLET_READING:
            problems.append(
                document.problem(where, "give a url, a seed file, or a note on where it is")
            )
        versions = []
        for item in _versions(document, where, entry.get("versions", [])):
            if isinstance(item, Problem):
                problems.append(item)
            else:
                versions.append(item)
        sources[entry["id"]] = Source(
            entry["id"],
            entry["title"],
            entry["author"],
            entry["year"],
            entry["language"],
            kind,
            seed,
            entry.get("url"),
            entry.get("note"),
            tuple(versions),
            entry.get("seen", True),
        )
    return sources


def _equipment(document: Document, problems: list[Problem]) -> Equipment:
    found = schema.check(document, schema.EQUIPMENT_SCHEMA)
    problems.extend(found)
    if found:
        return Equipment({}, {}, {})
    boards = {b.id: b for b in _boards(document, problems)}
    routes = {r.id: r for r in _routes(document, boards, problems)}
    dice = {d.id: d for d in _dice(document, problems)}
    return Equipment(boards, routes, dice)


def _boards(document: Document, problems: list[Problem]) -> Iterator[Board]:
    for i, entry in enumerate(document.data["boards"]):
        rows, columns = entry["rows"], entry["columns"]
        grid = [
            cell_name(r, c) for r, c in itertools.product(range(1, rows + 1), range(1, columns + 1))
        ]
        for key in ("missing", "rosettes"):
            for j, cell in enumerate(entry[key]):
                if cell not in grid:
                    problems.append(
                        document.problem(
                            ("boards", i, key, j),
                            f"{cell} is outside the {rows} x {columns} grid of board {entry['id']}",
                        )
                    )
        cells = tuple(c for c in grid if c not in entry["missing"])
        for j, cell in enumerate(entry["rosettes"]):
            if cell in entry["missing"]:
                problems.append(
                    document.problem(
                        ("boards", i, "rosettes", j), f"rosette {cell} is a missing cell"
                    )
                )
        yield Board(entry["id"], entry["title"], rows, columns, cells, frozenset(entry["rosettes"]))


def _routes(
    document: Document, boards: dict[str, Board], problems: list[Problem]
) -> Iterator[Route]:
    for i, entry in enumerate(document.data["routes"]):
        where = ("routes", i)
        board = boards.get(entry["board"])
        if board is None:
            problems.append(
                document.problem((*where, "board"), f"unknown board {entry['board']!r}")
            )
            continue
        paths: dict[str, tuple[str, ...]] = {}
        for side in ("light", "dark"):
            waypoints = entry[side]
            if waypoints == "mirror":
                waypoints = [mirror_cell(c, board.rows) for c in entry["light"]]
            try:
                cells = expand_waypoints(waypoints)
            except ValueError as error:
                problems.append(
                    document.problem(
                        (*where, side),
                        f"route {entry['id']} jumps: {error}; add the corner cell as a waypoint",
                    )
                )
                continue
            off = [c for c in cells if not board.has(c)]
            if off:
                problems.append(
                    document.problem(
                        (*where, side),
                        f"route {entry['id']} ({side}) leaves board {board.id} at {off[0]};"
                        " route cells must be playable cells of the board",
                    )
                )
                continue
            paths[side] = cells
        if len(paths) == 2:
            if len(paths["light"]) != len(paths["dark"]):
                problems.append(
                    document.problem(where, f"route {entry['id']}: light and dark lengths differ")
                )
            yield Route(entry["id"], entry["title"], board.id, paths["light"], paths["dark"])


def _dice(document: Document, problems: list[Problem]) -> Iterator[Dice]:
    for i, entry in enumerate(document.data["dice"]):
        where = ("dice", i)
        try:
            if "outcomes" in entry:
                outcomes = tuple(
                    Outcome(o["throw"], parse_fraction(o["p"]), o.get("label", str(o["throw"])))
                    for o in entry["outcomes"]
                )
                dice = Dice(entry["id"], entry["title"], outcomes)
            else:
                counts = {int(k): v for k, v in entry["counts"].items()}
                missing = sorted(set(range(entry["lots"] + 1)) - set(counts))
                if missing:
                    problems.append(
                        document.problem(
                            (*where, "counts"),
                            f"dice {entry['id']}: counts has no throw for {missing} marked lots",
                        )
                    )
                    continue
                marked = parse_fraction(entry.get("marked", "1/2"))
                dice = binary_lots(entry["id"], entry["title"], entry["lots"], counts, marked)
        except (ValueError, ZeroDivisionError) as error:
            problems.append(document.problem(where, f"dice {entry['id']}: {error}"))
            continue
        if any(not 0 <= o.probability <= 1 for o in dice.outcomes):
            problems.append(
                document.problem(where, f"dice {dice.id}: a probability is outside 0..1")
            )
            continue
        if dice.total() != 1:
            problems.append(
                document.problem(
                    where,
                    f"dice {dice.id}: outcome probabilities sum to {dice.total()}, not 1;"
                    " correct them so they sum to exactly 1",
                )
            )
            continue
        yield dice


def _citations(entries: list[dict[str, Any]]) -> tuple[Citation, ...]:
    return tuple(
        Citation(
            e["source"],
            e["locator"],
            e.get("quote"),
            e.get("translation"),
            e.get("code"),
            tuple(e.get("sic") or ()),
            e.get("contrary", False),
        )
        for e in entries
    )


def _variant(document: Document, problems: list[Problem]) -> Variant | None:
    found = schema.check(document, schema.variant_schema())
    problems.extend(found)
    if found:
        return None
    data = document.data
    if data["id"] != document.path.stem:
        problems.append(
            document.problem(
                ("id",), f"id {data['id']!r} must match the file name {document.path.stem!r}"
            )
        )
    rulings = tuple(
        Ruling(
            r["id"],
            r["question"],
            r["value"],
            r["text"],
            Evidence(r["evidence"]),
            _citations(r.get("sources", [])),
            r.get("note"),
            data["id"],
            document.line_of(("rulings", i)),
        )
        for i, r in enumerate(data["rulings"])
    )
    claims = tuple(
        Claim(
            c["id"],
            c["claim"],
            c["check"],
            _citations(c["sources"]),
            c.get("note"),
            data["id"],
            ClaimReading(float(c["reading"]["threshold"]), c["reading"]["reason"])
            if "reading" in c
            else None,
        )
        for c in data.get("claims", [])
    )
    return Variant(
        id=data["id"],
        title=data["title"],
        short=data["short"],
        kind=SourceKind(data["kind"]),
        family=data["family"],
        derives_from=data.get("derives_from"),
        simulate=data.get("simulate", True),
        summary=data["summary"],
        rulings=rulings,
        claims=claims,
        path=document.path,
    )


__all__ = ["CatalogError", "load_catalog", "load_valid_catalog", "parse_cell"]
