"""mkdocs with its pages shared among processes (generator/site/mkdocs_parallel.py), on a
small project of its own: the same files as plain mkdocs, and every page's warnings counted
by ``--strict``, whichever process did the page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import folder_digest

from generator.site.mkdocs_parallel import JOBS_VARIABLE

CONFIG = """\
site_name: Sharing test
strict: true
not_in_nav: |
  /pairs/*.md
nav:
  - index.md
  - one.md
  - two.md
theme:
  name: material
  font: false
plugins:
  - search
validation:
  anchors: warn
markdown_extensions:
  - toc:
      permalink: true
  - md_in_html
  - attr_list
"""


def _page(title: str, body: str, padding: int) -> str:
    home = "../index.md" if "/" in title else "index.md"
    link = f"[a link]({home}#first)"
    filler = "\n".join(f"Line {k} of *{title}*, with {link}." for k in range(padding))
    return f"# {title}\n\n## First {{ #first }}\n\n{body}\n\n{filler}\n"


def _project(folder: Path, broken: tuple[str, ...] = ()) -> Path:
    """Nine pages of distinct sizes (the largest goes to the main process, the next to the
    worker); the pages named in ``broken`` link to a page and an anchor that do not exist."""
    docs = folder / "docs"
    (docs / "pairs").mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    names = ["index", "one", "two", *(f"pairs/p{k}" for k in range(6))]
    for size, name in enumerate(names):
        wrong = "[no anchor](../index.md#no-such-anchor), [no page](../no-such-page.md)"
        body = wrong if name in broken else "Text."
        (docs / f"{name}.md").write_text(_page(name, body, 10 + 30 * size), encoding="utf-8")
    return folder


def _build(project: Path, jobs: int, site: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "generator.site.mkdocs_parallel", "build", "--strict"]
    return subprocess.run(
        [*command, "-f", str(project / "mkdocs.yml"), "-d", str(project / site)],
        cwd=project,
        env={"PATH": "/usr/bin:/bin", "SOURCE_DATE_EPOCH": "1764460800", JOBS_VARIABLE: str(jobs)},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="sharing needs os.fork")
def test_shared_pages_make_the_same_site_as_one_process(tmp_path: Path) -> None:
    project = _project(tmp_path)
    alone, shared = _build(project, 1, "alone"), _build(project, 2, "shared")
    assert alone.returncode == 0, alone.stderr
    assert shared.returncode == 0, shared.stderr
    first, second = folder_digest(project / "alone"), folder_digest(project / "shared")
    assert len(first) > 9 and "search/search_index.json" in first
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="sharing needs os.fork")
def test_a_warning_on_any_process_fails_a_strict_build(tmp_path: Path) -> None:
    """The largest page is the main process's, the next largest the worker's: a link to a
    missing page (found as the page is converted) and one to a missing anchor (checked after
    every page is done) are reported on either, and fail the build."""
    for page in ("pairs/p5", "pairs/p4"):
        project = _project(tmp_path / page.replace("/", "-"), broken=(page,))
        shared = _build(project, 2, "site")
        assert shared.returncode != 0
        output = shared.stderr + shared.stdout
        assert f"'{page}.md'" in output
        assert "no-such-anchor" in output and "no-such-page.md" in output
        assert "Aborted with 2 warnings in strict mode" in output
