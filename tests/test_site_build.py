"""The built site, checked as files: ids, short addresses, no external host, determinism,
the browser-test contract, and that a failed build leaves the previous site in place.

The site is built once per module (``--no-simulate``: statistics pages then say they were not
measured; the simulation itself is tested in tests/test_sim_*). Building takes a while, so
every check shares the same build.
"""

from __future__ import annotations

import html
import itertools
import json
import re
import shutil
import stat
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import copy_project, folder_digest

from generator.build import BuildError, BuildOptions, build, mkdocs_build
from generator.model.catalog import load_valid_catalog
from generator.model.catalog_contents import Catalog
from generator.site.edition import load_editions
from generator.site.mkdocs_parallel import JOBS_VARIABLE
from generator.site.site_folder import STAMP

PROJECT = Path(__file__).resolve().parent.parent
SITE_URL = "http://127.0.0.1:8000/"
EPOCH = "1764460800"  # 2025-11-30: a fixed release date, as SOURCE_DATE_EPOCH

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def environment() -> Iterator[None]:
    patch = pytest.MonkeyPatch()
    patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    patch.setenv("SITE_URL", SITE_URL)
    patch.setenv(JOBS_VARIABLE, "2")  # the pages shared between two processes, on any machine
    yield
    patch.undo()


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory, environment: None) -> Path:
    return copy_project(tmp_path_factory.mktemp("project"))


LEFTOVERS = (".site.building-killed", ".site.replaced", ".generating-killed", ".replaced-killed")
"""Temporary folders a killed build leaves behind; the next build removes them."""


@pytest.fixture(scope="module")
def site(root: Path) -> Path:
    for leftover in LEFTOVERS:
        (root / leftover / "inner").mkdir(parents=True)
    build(BuildOptions(root=root, simulate=False, log=lambda _: None))
    return root / "site"


@pytest.fixture(scope="module")
def catalog(root: Path) -> Catalog:
    return load_valid_catalog(root / "variants")


def _html(site: Path) -> Iterator[tuple[Path, str]]:
    for page in sorted(site.rglob("*.html")):
        yield page, page.read_text(encoding="utf-8")


def test_every_ruling_id_is_an_element_id_exactly_once(site: Path, catalog: Catalog) -> None:
    ids: Counter[str] = Counter()
    for page, text in _html(site):
        if page.relative_to(site).parts[0] not in ("r", "editions"):
            ids.update(re.findall(r'\sid="([^"]+)"', text))
    for ruling in catalog.rulings():
        assert ids[ruling.id] == 1, f"{ruling.id} appears {ids[ruling.id]} times as an id"


def test_short_addresses_land_on_the_ruling(site: Path, catalog: Catalog) -> None:
    for ruling in catalog.rulings():
        page = site / "r" / ruling.id / "index.html"
        assert page.is_file(), f"/r/{ruling.id}/ is missing"
        target = f"../../variants/{ruling.variant}/#{ruling.id}"
        text = page.read_text(encoding="utf-8")
        # A real page (not a redirect stub): the ruling's citation tags, a link on to it.
        assert f'href="{target}"' in text and 'http-equiv="refresh"' not in text
        assert '<meta name="citation_title"' in text
        # Zotero's item leads to the words as cited: the ruling in its edition's copy.
        edition = load_editions(PROJECT / "variants").current.number
        copy = f"{SITE_URL}editions/{edition}/#{ruling.id}"
        assert f'<meta name="citation_public_url" content="{copy}">' in text
        owner = (site / "variants" / ruling.variant / "index.html").read_text(encoding="utf-8")
        assert f'id="{ruling.id}"' in owner


def test_every_edition_is_readable(site: Path, catalog: Catalog) -> None:
    """/editions/ lists every edition; /editions/<N>/ holds each of its rulings by id and
    /editions/<N>.json the same as data; the latest holds every ruling published now, and a
    ruling's citation leads to it."""
    editions = load_editions(PROJECT / "variants").editions
    index = (site / "editions" / "index.html").read_text(encoding="utf-8")
    for edition in editions:
        page = (site / "editions" / edition.number / "index.html").read_text(encoding="utf-8")
        data = json.loads((site / "editions" / f"{edition.number}.json").read_text("utf-8"))
        assert data["edition"] == edition.number and data["date"] == edition.date.isoformat()
        assert f'href="{edition.number}/"' in index
        missing = [rid for rid in data["rulings"] if f'id="{rid}"' not in page]
        assert not missing, f"edition {edition.number} page lacks {missing[:5]}"
    assert set(data["rulings"]) == {r.id for r in catalog.rulings()}
    ruling = next(iter(catalog.rulings()))
    short = (site / "r" / ruling.id / "index.html").read_text(encoding="utf-8")
    assert f"{SITE_URL}editions/{edition.number}/#{ruling.id}" in short


_REFERENCE = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']|url\(\s*["']?([^"')\s]+)""")


def test_no_page_references_another_host(site: Path) -> None:
    offenders = []
    for path in sorted(site.rglob("*")):
        if path.suffix not in (".html", ".css", ".js", ".svg"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in _REFERENCE.finditer(text):
            ref = match.group(1) or match.group(2)
            if re.match(r"^(?:[a-z][a-z0-9+.-]*:)?//", ref, re.I) and not ref.startswith(SITE_URL):
                offenders.append(f"{path.relative_to(site)}: {ref}")
    assert not offenders, "\n".join(offenders[:20])


def test_a_quote_with_markup_characters_reads_verbatim(site: Path) -> None:
    """Issue 11: the real page once showed ``if (roll.value() \\<= 0)``. The reader sees the
    source's characters, as the browser parses the page (no stray backslash, no entity)."""
    page = (site / "variants" / "royalur-finkel" / "index.html").read_text(encoding="utf-8")
    shown = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert "if (roll.value() <= 0)" in shown
    assert "\\<" not in shown and "&lt;" not in shown and "&#" not in shown


def test_browser_contract(site: Path, catalog: Catalog) -> None:
    compare = (site / "compare" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<table\b[^>]*\sid="comparison"', compare)
    rows = re.findall(r'<tr\b[^>]*\sdata-question="([^"]+)"', compare)
    assert rows == list(catalog.questions)
    columns = re.findall(r'<th\b[^>]*\sdata-variant="([^"]+)"', compare)
    assert sorted(columns) == sorted(catalog.variants)
    assert '<form id="compare-picker"' in compare
    data = re.search(
        r'<script type="application/json" id="comparison-data">(.*?)</script>', compare
    )
    assert data is not None
    index = json.loads(data.group(1))
    assert [v["id"] for v in index["variants"]] == sorted(catalog.variants)
    assert [q["id"] for q in index["questions"]] == list(catalog.questions)
    for a, b in itertools.permutations(sorted(catalog.variants), 2):
        assert (site / "compare" / f"{a}--{b}" / "index.html").is_file(), f"{a}--{b}"
    some = next(iter(catalog.variants.values()))
    page = (site / "variants" / some.id / "index.html").read_text(encoding="utf-8")
    for ruling in some.rulings:
        block = re.search(
            rf'<details class="cite" data-ruling="{re.escape(ruling.id)}"[^>]*>(.*?)</details>',
            page,
            re.S,
        )
        assert block is not None, ruling.id
        for kind in ("cite-apa cite-text", "cite-bibtex", "cite-biblatex", "cite-csl", "cite-ris"):
            assert f'<pre class="{kind}"' in block.group(1)
    board = re.search(
        r'<svg[^>]*role="img"[^>]*>\s*<title id="route-board-title">[^<]+</title>', page
    )
    assert board is not None


def test_pages_carry_citation_metadata(site: Path) -> None:
    page = next((site / "variants").glob("*/index.html")).read_text(encoding="utf-8")
    head = page.split("</head>")[0]
    for name in ("DC.title", "DC.date", "DC.identifier", "DC.publisher"):
        assert f'<meta name="{name}" content="' in head
    assert '<meta property="og:type" content="website">' in head
    edition = load_editions(PROJECT / "variants").current
    assert f'<meta name="DC.date" content="{edition.date.isoformat()}">' in head


def test_strict_build_validates_anchors() -> None:
    config = (PROJECT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^strict: true$", config, re.M)
    assert re.search(r"^\s+anchors: warn", config, re.M)


def test_build_is_deterministic(
    root: Path, site: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mkdocs turns the same pages into byte-identical files, whether its work on the pages
    was shared between two processes (the site) or done in one (again: plain mkdocs). The
    pages themselves are compared across processes in tests/test_site_markdown.py."""
    monkeypatch.setenv(JOBS_VARIABLE, "1")
    again = root / "site-again"
    mkdocs_build(root, again, {r.id for r in catalog.rulings()})
    first, second = folder_digest(site), folder_digest(again)
    assert sorted(first) == sorted(second)
    assert [n for n in first if first[n] != second[n]] == []


def test_failed_builds_keep_the_previous_site(tmp_path: Path, root: Path, site: Path) -> None:
    before = folder_digest(site)
    broken = copy_project(tmp_path / "broken")
    shutil.copytree(site, broken / "site")
    variant = next(
        p
        for p in sorted((broken / "variants").glob("*.yml"))
        if p.name not in ("sources.yml", "questions.yml", "equipment.yml")
    )
    text = variant.read_text(encoding="utf-8")
    variant.write_text(re.sub(r"^kind: .*$", "kind: folklore", text, count=1, flags=re.M))
    with pytest.raises(BuildError, match="folklore"):
        build(BuildOptions(root=broken, simulate=False, log=lambda _: None))
    assert folder_digest(broken / "site") == before


def test_a_page_mkdocs_rejects_keeps_the_previous_site(
    tmp_path: Path, root: Path, site: Path, catalog: Catalog
) -> None:
    """Rendering succeeded but ``mkdocs build --strict`` fails: site/ is left as it was."""
    broken = tmp_path / "rejected"
    shutil.copytree(root, broken, ignore=shutil.ignore_patterns("site-again"))
    before = folder_digest(broken / "site")
    about = broken / "docs" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n")
    with pytest.raises(BuildError, match="no-such-page"):
        mkdocs_build(broken, broken / "site", {r.id for r in catalog.rulings()})
    assert folder_digest(broken / "site") == before


def test_the_site_is_stamped_and_world_readable(site: Path) -> None:
    """A web server running as another user can read every file (mkdtemp makes 0700)."""
    assert (site / STAMP).is_file()
    for path in [site, *site.rglob("*")]:
        assert stat.S_IMODE(path.stat().st_mode) == (0o755 if path.is_dir() else 0o644), path


def test_a_build_clears_what_killed_builds_left(root: Path, site: Path) -> None:
    assert [name for name in LEFTOVERS if (root / name).exists()] == []


def test_a_rebuild_with_nothing_changed_reuses_its_pages(
    tmp_path: Path, root: Path, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second build validates, measures and renders nothing (the steps would fail here),
    and publishes the same site; changing one input file builds in full again."""
    from generator import build as pipeline

    copy = tmp_path / "again"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("site-again"))
    calls: list[str] = []
    generate = pipeline._generate

    def counted(*args: object, **kwargs: object) -> tuple[dict[str, str | bytes], set[str]]:
        calls.append("generate")
        return generate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_generate", counted)
    build(BuildOptions(root=copy, simulate=False, log=lambda _: None))
    assert calls == []
    assert folder_digest(copy / "site") == folder_digest(site)

    variant = sorted((copy / "variants").glob("finkel*.yml"))[0]
    variant.write_text(variant.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    build(BuildOptions(root=copy, simulate=False, log=lambda _: None))
    assert calls == ["generate"]
    assert folder_digest(copy / "site") == folder_digest(site)
