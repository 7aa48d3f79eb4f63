"""The downloadable citation files, read by the tools scholars use (without building the site).

Every entry of ``citations.bib`` is a classic ``@misc`` that pybtex's ``plain`` style (classic
BibTeX's plain.bst) prints with its year and address; every entry of ``citations-biblatex.bib``
is biblatex's ``@online`` (and biber, where installed, reads both against biblatex's data
model); rispy reads the corporate author of every RIS record whole; every
style's text is citeproc-py's rendering of the entry's CSL-JSON; a ruling's citation leads to its
edition's copy.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import rispy
from browser.citeformats import (
    AUTHOR,
    STYLES,
    biblatex_problems,
    bibtex_problems,
    plain_style,
    ris_problems,
)
from conftest import VARIANTS, repository_catalog

from generator.site.cite import ACCESSED, Citation
from generator.site.context import SiteContext
from generator.site.edition import load_editions, load_lock
from generator.site.generate import citation_files

SITE = "https://rules.example.net/"


@pytest.fixture(scope="module")
def ctx() -> SiteContext:
    return SiteContext(repository_catalog(), SITE, load_editions(VARIANTS), load_lock(VARIANTS))


@pytest.fixture(scope="module")
def citations(ctx: SiteContext) -> list[Citation]:
    found = [ctx.citation(r) for _, r in sorted(ctx.rulings.items())]
    found += [ctx.rulebook_citation(v) for v in sorted(ctx.catalog.variants)]
    return [*found, ctx.site_citation()]


@pytest.fixture(scope="module")
def files(ctx: SiteContext) -> dict[str, str]:
    return {k: str(v) for k, v in citation_files(ctx).items()}


def _entries(text: str) -> list[str]:
    return ["@" + e.strip() for e in re.split(r"^@", text, flags=re.M)[1:]]


@pytest.mark.parametrize(
    ("name", "problems_of"),
    [("citations.bib", bibtex_problems), ("citations-biblatex.bib", biblatex_problems)],
)
def test_every_bibtex_entry_reads(
    files: dict[str, str],
    citations: list[Citation],
    name: str,
    problems_of: Callable[[str, str], list[str]],
) -> None:
    """Classic: ``@misc`` whose year and address pybtex's ``plain`` style prints. biblatex:
    ``@online`` with date, url and version."""
    entries = _entries(files[name])
    assert len(entries) == len(citations) > 250
    problems = [
        f"{c.key}: {p}"
        for entry, c in zip(entries, citations, strict=True)
        for p in problems_of(entry, c.url)
    ]
    assert not problems, "\n".join(problems[:10])


def test_rispy_reads_the_corporate_author_whole(
    files: dict[str, str], citations: list[Citation]
) -> None:
    records = rispy.loads(files["citations.ris"])
    assert [r["authors"] for r in records] == [[AUTHOR]] * len(citations)
    assert not ris_problems(citations[0].ris(), citations[0].url)


def test_a_ruling_cites_its_editions_copy(ctx: SiteContext) -> None:
    ruling = ctx.rulings["bell-dice"]
    citation = ctx.citation(ruling)
    edition = ctx.editions.current.number
    assert citation.url == f"{SITE}editions/{edition}/#bell-dice"
    assert citation.edition == edition
    formatted = plain_style(citation.bibtex())
    assert f"{SITE}editions/{edition}/" in formatted and str(citation.date.year) in formatted
    data = json.loads(citation.csl_text())
    assert data["URL"] == citation.url and data["edition"] == edition


def test_every_style_is_rendered_and_harvard_leaves_a_place_for_the_access_date(
    citations: list[Citation],
) -> None:
    ruling = citations[0]
    styled = ruling.styled()
    assert [s.style for s in styled] == list(STYLES)
    for form in styled:
        assert AUTHOR in form.text and ruling.url in form.text, form
    harvard = styled[-1]
    assert harvard.accessed is not None and harvard.accessed.count(ACCESSED) == 1
    assert harvard.date_form == "{d} {M} {Y}" and harvard.months[11] == "December"
    # APA 7 and Chicago print no access date for a dated page; MLA 9 makes it optional.
    assert [s.accessed is None for s in styled[:3]] == [True, True, True]


@pytest.mark.skipif(shutil.which("biber") is None, reason="biber (biblatex's reader) not installed")
def test_biber_reads_both_files_against_biblatexs_data_model(
    files: dict[str, str], citations: list[Citation], tmp_path: Path
) -> None:
    """biber, the program biblatex reads bibliographies with, validates each file against
    biblatex's data model: no warning, every entry read."""
    for name in ("citations.bib", "citations-biblatex.bib"):
        (tmp_path / name).write_text(files[name], encoding="utf-8")
        run = subprocess.run(
            ["biber", "--tool", "--validate-datamodel", "--output-file=out.bib", name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        said = run.stdout + run.stderr
        assert run.returncode == 0 and "WARN" not in said and "ERROR" not in said, said
        read = (tmp_path / "out.bib").read_text(encoding="utf-8")
        assert read.count("\n@") + read.startswith("@") == len(citations), name
