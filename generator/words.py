"""Small numbers as a reader writes them, one table for the whole package: the claims read
them ("Four coins ..."), the pages write them ("three pieces a side")."""

from __future__ import annotations

NUMBER_WORDS = {
    0: "zero",
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
}
WORD_NUMBERS = {word: n for n, word in NUMBER_WORDS.items()}


def number_word(n: int) -> str:
    """``n`` in words where it is small, else in figures.

    >>> number_word(3), number_word(12)
    ('three', '12')
    """
    return NUMBER_WORDS.get(n, str(n))
