"""The key of a build's pages changes with every input they depend on, and only then."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.site import page_cache
from generator.site.page_cache import inputs_key, load_pages, save_pages

PROJECT = Path(__file__).resolve().parent.parent
SETTINGS = {"simulate": True, "seed": 1, "games": None}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the variants and of the generator's templates, the latter standing in for
    the package (so that a test may edit a source file)."""
    shutil.copytree(PROJECT / "variants", tmp_path / "variants")
    package = tmp_path / "generator"
    shutil.copytree(PROJECT / "generator" / "site" / "templates", package / "site" / "templates")
    monkeypatch.setattr(page_cache, "PACKAGE", package)
    shutil.copytree(PROJECT / "results", tmp_path / "results")
    monkeypatch.setattr(page_cache, "RESULTS", tmp_path / "results")
    for name in page_cache.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_the_key_is_stable(project: Path) -> None:
    assert inputs_key(project, SETTINGS) == inputs_key(project, dict(reversed(SETTINGS.items())))


@pytest.mark.parametrize(
    "change",
    [
        "variant file",
        "seed page",
        "template",
        "new file",
        "setting",
        "site address",
        "source date",
        "committed results",
    ],
)
def test_every_input_changes_the_key(
    project: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    before = inputs_key(project, SETTINGS)
    settings = dict(SETTINGS)
    if change == "variant file":
        path = sorted((project / "variants").glob("finkel*.yml"))[0]
        path.write_text(path.read_text(encoding="utf-8") + "# comment\n", encoding="utf-8")
    elif change == "seed page":
        path = sorted((project / "variants" / "seeds").iterdir())[0]
        path.write_bytes(path.read_bytes() + b" ")
    elif change == "template":
        path = project / "generator" / "site" / "templates" / "statistics.md.j2"
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    elif change == "new file":
        (project / "generator" / "site" / "templates" / "_new.md.j2").write_text("x")
    elif change == "setting":
        settings["seed"] = 2
    elif change == "site address":
        monkeypatch.setenv("SITE_URL", "https://example.org/")
    elif change == "committed results":
        path = project / "results" / "full-games.json"
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    else:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    assert inputs_key(project, settings) != before


def test_compiled_files_do_not_change_the_key(project: Path) -> None:
    before = inputs_key(project, SETTINGS)
    cached = project / "generator" / "site" / "__pycache__"
    cached.mkdir()
    (cached / "render.cpython-311.pyc").write_bytes(b"\0")
    assert inputs_key(project, SETTINGS) == before


def test_pages_come_back_only_for_their_key(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"variants/a.md": "# A\n", "statistics/x.svg": "<svg/>"}
    save_pages(tmp_path, "one", files, {"r-1", "r-2"})
    cached = load_pages(tmp_path, "one")
    assert cached is not None
    assert cached.files == files and cached.ruling_ids == {"r-1", "r-2"}
    assert load_pages(tmp_path, "two") is None


def test_a_damaged_entry_is_a_miss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_pages(tmp_path, "one", {"a.md": "text"}, set())
    entry = tmp_path / ".cache" / "pages" / "latest.json"
    entry.write_text(entry.read_text(encoding="utf-8").replace("text", "tampered"))
    assert load_pages(tmp_path, "one") is None
    assert "latest.json" in capsys.readouterr().err
