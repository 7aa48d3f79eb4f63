"""Numbers as the statistics page prints them."""

from __future__ import annotations

import pytest

from generator.site.statistics_page import binary_size, duration


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


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.0, "< 0.01 s"), (0.94, "0.94 s"), (99.5, "99.50 s"), (700.0, "12 min")]
)
def test_duration(seconds: float, text: str) -> None:
    assert duration(seconds) == text
