"""The exact version of a source that was quoted (``versions`` in ``variants/sources.yml``):
validated, laid out by ``ur-variants fmt``, told to readers in words on the sources page, and
carried exactly (the commit) in the machine-readable exports.

Also the one workshop phrase the site must use: a source this edition could not check says so,
once, in its bibliography entry ("Not seen by this edition.", ``seen: false``).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import VARIANTS, repository_catalog

from generator.model.catalog import load_catalog
from generator.model.fmt import canonical_text
from generator.model.variant import Source
from generator.site.context import SiteContext
from generator.site.edition import load_editions
from generator.site.generate import citation_files
from generator.site.reader_text import GIT_HASH, read_page, workshop_words
from generator.site.reference_pages import NOT_SEEN, sources_page
from generator.site.render import environment
from generator.site.variant_pages import machine_export

SIMPLE_RULE_SET = "0214dfe64acefd0b461e516a79624dac4f05b5a9"
"""The RoyalUr-Java commit whose SimpleRuleSet.java the rulings quote (recorded with the quotes
in the first editions' locators)."""
HASH = re.compile(r"\b[0-9a-f]{40}\b")


@pytest.fixture(scope="module")
def ctx() -> SiteContext:
    return SiteContext(repository_catalog(), None, load_editions(VARIANTS))


def test_each_citation_finds_the_version_it_quotes() -> None:
    sources = repository_catalog().sources
    java = sources["royalur-java"]
    quoted = java.version_of("SimpleRuleSet.java, applyRoll()")
    assert quoted is not None and quoted.commit == SIMPLE_RULE_SET
    assert quoted.words() is None  # a commit alone is no words for a reader
    # Quotes of the settings' presets were not tied to a commit: none is claimed for them.
    assert java.version_of("GameSettings.java, the FINKEL settings, dice argument") is None
    ludii = sources["ludii-royal-game-of-ur"].version_of("Rules, play")
    assert ludii is not None and ludii.words() == "file version 1.3.10"
    assert ludii.commit is not None and HASH.fullmatch(ludii.commit)
    assert sources["finkel-2007"].version_of("p. 16") is None


def version_words(source: Source) -> str:
    """The sources page's sentence naming which version of ``source`` was quoted."""
    return str(environment().get_template("_source_version.md.j2").module.version_words(source))


def test_the_sources_page_names_versions_in_words_never_a_hash(ctx: SiteContext) -> None:
    sources = ctx.catalog.sources
    assert version_words(sources["ludii-20-squares"]) == "Quoted as of file version 1.3.4."
    java = version_words(sources["royalur-java"])
    assert java is not None and "SimpleRuleSet.java" in java and not HASH.search(java)
    page = sources_page(ctx)["sources/index.md"]
    assert "Quoted as of file version 1.3.10." in page
    commits = [v.commit for s in sources.values() for v in s.versions if v.commit]
    assert commits and not any(c[:7] in page for c in commits)
    assert not GIT_HASH.search(page)


def test_the_exports_carry_the_exact_commit(ctx: SiteContext) -> None:
    exported = json.loads(machine_export(ctx, "royalur-finkel"))
    places = [s for r in exported["rulings"] for s in r["sources"]]
    simple = [s for s in places if s["locator"].startswith("SimpleRuleSet.java")]
    assert simple and all(s["version"]["commit"] == SIMPLE_RULE_SET for s in simple)
    assert any(s["version"] is None for s in places)  # presets: no version recorded
    files = citation_files(ctx)
    assert SIMPLE_RULE_SET in str(files["citations-biblatex.bib"])
    assert SIMPLE_RULE_SET in str(files["citations.ris"])
    items = json.loads(str(files["citations.json"]))
    quoting = [i for i in items if "custom" in i]
    assert any(
        v.get("commit") == SIMPLE_RULE_SET for i in quoting for v in i["custom"]["source-versions"]
    )
    ruling = ctx.rulings["ru-finkel-start"]
    citation = ctx.citation(ruling)
    assert SIMPLE_RULE_SET in citation.biblatex() and SIMPLE_RULE_SET in citation.ris()
    assert SIMPLE_RULE_SET not in citation.plain()  # the reader's citation stays words


def test_an_unseen_source_says_so_once_and_the_scan_allows_only_that(ctx: SiteContext) -> None:
    unseen = [s for s in ctx.catalog.sources.values() if not s.seen]
    assert {s.id for s in unseen} >= {"bell-1960-book", "murray-1952-book"}
    page = sources_page(ctx)["sources/index.md"]
    for source in unseen:
        entry = page.split(f"{{ #{source.id} }}")[1].split("\n### ")[0]
        assert entry.count(NOT_SEEN) == 1, source.id
    assert page.count(NOT_SEEN) == len(unseen)
    allowed = read_page(f'<p class="not-seen">{NOT_SEEN}</p>')
    assert allowed.not_seen == 1 and not workshop_words(allowed.pieces)
    for html in (
        f"<p>{NOT_SEEN}</p>",  # not the bibliography's line
        f'<p class="not-seen">{NOT_SEEN} It was not seen by this edition.</p>',
        f'<div class="not-seen">{NOT_SEEN}</div>',
    ):
        read = read_page(html)
        assert read.not_seen == 0 and workshop_words(read.pieces), html


def _line_of(tmp_path: Path, text: str, name: str = "sources.yml") -> int:
    lines = (tmp_path / "variants" / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _broken(tmp_path: Path, change: str, to: str) -> list[str]:
    root = tmp_path / "variants"
    shutil.copytree(VARIANTS, root)
    path = root / "sources.yml"
    text = path.read_text(encoding="utf-8")
    assert change in text
    path.write_text(text.replace(change, to, 1), encoding="utf-8")
    _, problems = load_catalog(root)
    return [f"{Path(p.file).name}:{p.line}: {p.message}" for p in problems]


@pytest.mark.parametrize(
    ("change", "to", "expected"),
    [
        (
            f"commit: {SIMPLE_RULE_SET}",
            "commit: 0214dfe",
            "a commit is the full 40-character hash",
        ),
        (
            "  - match: SimpleRuleSet.java\n",
            "  - label: the rule set\n",
            "a source with several versions needs match",
        ),
        (
            "match: BellPathPair.java",
            "match: BellPathPairs.java",
            "no citation of royalur-java has 'BellPathPairs.java'",
        ),
        ("label: file version 1.3.10", "label: version 03ec298", "name the version in words"),
        ("label: file version 1.3.10", "date: '2024-02-30'", "is no day"),
        ("label: file version 1.3.10", "date: 2024-02-30", "unsupported YAML value '2024-02-30'"),
        ("match: MurrayPathPair.java", "match: PathPair.java", "matches 2 versions"),
    ],
)
def test_a_bad_version_is_reported_at_its_line(
    tmp_path: Path, change: str, to: str, expected: str
) -> None:
    problems = _broken(tmp_path, change, to)
    found = [p for p in problems if expected in p]
    assert found, problems
    if "matches 2 versions" in expected:  # said at the citation both versions claim
        at = f"bell-1960.yml:{_line_of(tmp_path, 'locator: BellPathPair.java', 'bell-1960.yml')}: "
    else:
        at = f"sources.yml:{_line_of(tmp_path, to.split(chr(10))[0].strip())}: "
    assert all(p.startswith(at) for p in found), (at, found)


def test_a_version_date_reads_as_a_day(tmp_path: Path) -> None:
    problems = _broken(
        tmp_path, "label: file version 1.3.10", "label: file version 1.3.10\n    date: 2024-03-12"
    )
    assert not problems
    catalog, _ = load_catalog(tmp_path / "variants")
    version = catalog.sources["ludii-royal-game-of-ur"].versions[0]
    assert version.words() == "file version 1.3.10, of 12 March 2024"


def test_fmt_lays_versions_out_in_one_order() -> None:
    path = VARIANTS / "sources.yml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    java = next(s for s in data["sources"] if s["id"] == "royalur-java")
    java["versions"] = [dict(reversed(list(v.items()))) for v in java["versions"]]
    moved = {k: java.pop(k) for k in ("versions", "url")}
    java.update(moved)
    assert canonical_text(path, data) == path.read_text(encoding="utf-8")
