"""Numbers as the statistics page prints them."""

from __future__ import annotations

import pytest

from generator.site.render import title_text
from generator.site.statistics_page import binary_size, same_value_series


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "0 bytes"),
        (1023, "1023 bytes"),
        (1024, "1.0 KiB"),
        (40_000, "39 KiB"),
        (3 * 2**20, "3.0 MiB"),
        (int(3.3 * 2**30), "3.3 GiB"),
    ],
)
def test_binary_size(count: int, text: str) -> None:
    assert binary_size(count) == text


def test_identical_exact_values_share_one_line() -> None:
    series = {
        "A": [(1, 53.0049839525), (2, 51.8572907496)],
        "B": [(1, 53.0049839525), (2, 51.8572907496)],
        "C": [(1, 53.0049839525), (2, 51.9)],
        "D": [(1, 53.0049839525), (2, 51.8572907496), (3, 51.6)],
    }
    merged = same_value_series(series)
    assert list(merged) == ["A, B", "C", "D"]
    assert merged["A, B"] == series["A"]


def test_title_quotes_open_and_close() -> None:
    assert title_text('rules of "Murray (Suggested)"') == "rules of “Murray (Suggested)”"
    assert title_text('"Rosette", item "Nothing"') == "“Rosette”, item “Nothing”"
