"""Settings read from the environment (generator/site/settings.py, issue 45): a hostile
``SITE_URL`` or ``REPOSITORY_URL`` never reaches a page, and a malformed ``UR_MKDOCS_JOBS``
is a message, not the mkdocs process's traceback. Every setting is checked before any work,
whether or not the last build's pages are reused."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import BuildError, BuildOptions, build
from generator.site.cite import repository_url, site_url
from generator.site.mkdocs_parallel import jobs
from generator.site.settings import MKDOCS_JOBS, SettingError, web_address

HOSTILE = {
    "a quote and a script": 'https://x.test/"><script>alert(1)</script>',
    "a single quote": "https://x.test/'onmouseover='alert(1)",
    "javascript:": "javascript:alert(1)",
    "JavaScript: in capitals": "JaVaScRiPt:alert(1)",
    "data:": "data:text/html,<script>alert(1)</script>",
    "no scheme": "rules.example.net",
    "no host": "https://",
    "another scheme": "ftp://rules.example.net/",
    "a space": "https://rules.example.net/a page",
    "a tab inside": "https://rules.example.net/\tx",
    "a newline inside": "https://rules.example.net/\nSITE: x",
    "a backslash": "https://rules.example.net\\@evil.test/",
    "a parenthesis (ends a Markdown link)": "https://x.test/a)[b](javascript:alert(1)",
    "an angle bracket": "https://x.test/<b>",
    "a backtick": "https://x.test/`x`",
    "an escape character": "https://x.test/\x1b[31m",
    "right-to-left override": "https://x.test/\u202egnp.exe",
    "a non-ASCII host": "https://exämple.test/",
    "a malformed port": "https://x.test:99999/",
    "a port that is no number": "https://x.test:80a/",
    "too long": "https://x.test/" + "a" * 2100,
}

GOOD = [
    "https://rules.example.net/",
    "https://rules.example.net",
    "http://127.0.0.1:8000/",
    "https://example.org/ur/variants/",
    "HTTPS://Example.ORG/",
    "https://example.org/caf%C3%A9/",
    "https://[::1]:8443/",
]


@pytest.mark.parametrize("name", ["SITE_URL", "REPOSITORY_URL"])
@pytest.mark.parametrize("value", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_address_is_refused_naming_the_setting(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingError) as refused:
        site_url() if name == "SITE_URL" else repository_url()
    message = str(refused.value)
    assert message.startswith(f"{name}=")
    assert "set it to an http or https address" in message.replace(f"Set {name}", "set it")
    assert "\n" not in message and "\x1b" not in message and "\u202e" not in message


@pytest.mark.parametrize("value", GOOD)
def test_an_http_address_is_accepted(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SITE_URL", value)
    monkeypatch.setenv("REPOSITORY_URL", value)
    assert site_url() == (value if value.endswith("/") else value + "/")
    assert repository_url() == value


@pytest.mark.parametrize("value", ["https://x.test/?a=1", "https://x.test/#top"])
def test_the_site_address_has_no_query_or_fragment(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """Page paths are appended to the site's address; an issue tracker's may have either."""
    monkeypatch.setenv("SITE_URL", value)
    with pytest.raises(SettingError, match="query or fragment"):
        site_url()
    monkeypatch.setenv("REPOSITORY_URL", value)
    assert repository_url() == value


@pytest.mark.parametrize("value", ["", "   ", "\t"])
def test_a_blank_setting_is_unset(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SITE_URL", value)
    assert site_url() is None
    assert web_address("NO_SUCH_SETTING_IS_SET") is None


@pytest.mark.parametrize("value", ["abc", "0", "-2", "2.5", "1e3", "٣", "9" * 5000, "257"])
def test_a_malformed_job_count_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(MKDOCS_JOBS, value)
    with pytest.raises(SettingError, match=f"{MKDOCS_JOBS}=.* is not a whole number from 1 to"):
        jobs()


def test_a_job_count_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MKDOCS_JOBS, " 3 ")
    assert jobs() == 3


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout with no variant files, dated by ``SOURCE_DATE_EPOCH``."""
    root = tmp_path / "checkout"
    (root / "variants").mkdir(parents=True)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764460800")
    for name in ("SITE_URL", "REPOSITORY_URL", MKDOCS_JOBS):
        monkeypatch.delenv(name, raising=False)
    return root


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SITE_URL", HOSTILE["a quote and a script"]),
        ("REPOSITORY_URL", HOSTILE["javascript:"]),
        (MKDOCS_JOBS, "many"),
        ("SOURCE_DATE_EPOCH", "yesterday"),
    ],
)
def test_a_build_stops_on_a_malformed_setting_before_any_work(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    """Before validation and rendering: nothing is written under docs/ or site/."""
    monkeypatch.setenv(name, value)
    with pytest.raises(BuildError, match=f"^{name}="):
        build(BuildOptions(root=checkout, simulate=False, log=lambda _: None))
    assert sorted(p.name for p in checkout.iterdir()) == [".cache", "variants"]
