"""Words every reader-facing layer shares, one table and one rule each: small numbers as a
reader writes them (the claims read them, "Four coins ...", the pages write them, "three pieces
a side"), the one list joiner ("A, B and C") and the one plural."""

from __future__ import annotations

import re
from collections.abc import Iterable

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


def _own_comma(text: str) -> bool:
    """Whether ``text`` holds a comma outside its parentheses ("James Masters' own rules
    page, read with safe rosettes"; not "Tablet (7 pieces, Ludii)")."""
    while (bare := re.sub(r"\([^()]*\)", "", text)) != text:
        text = bare
    return "," in text


def joints(items: Iterable[object], last: str | None = "and", between: str = ", ") -> list[str]:
    """What follows each item of a list in a sentence, the package's one list joiner: "A, B and
    C" (``last``: the word before the last item, "and" or "or"), or "A; B; and C" where an item
    has a comma of its own outside parentheses, so that no reader takes it for two. With
    ``last=None`` the list is a plain series, ``between`` after every item but the last ("A = B
    = C", "A · B").

    >>> joints(["A", "B", "C"]), joints(["A", "B"]), joints(["A"]), joints(["A", "B"], "or")
    ([', ', ' and ', ''], [' and ', ''], [''], [' or ', ''])
    >>> joints(["Masters' page, safe rosettes", "Tablet (7 pieces, Ludii)", "Bell"])
    ['; ', '; and ', '']
    >>> joints(["A", "B", "C"], None, " = ")
    [' = ', ' = ', '']
    """
    texts = [str(item) for item in items]
    count = len(texts)
    if last is None:
        return [between] * (count - 1) + [""] * (count > 0)
    commas = any(_own_comma(text) for text in texts)
    final = f"; {last} " if commas and count > 2 else f" {last} "
    return ["; " if commas else ", "] * (count - 2) + [final] * (count > 1) + [""] * (count > 0)


def listing(items: Iterable[object], last: str | None = "and", between: str = ", ") -> str:
    """The items as one phrase, joined by :func:`joints` (the same ``last`` and ``between``):
    "a", "a and b", "a, b or c".

    >>> listing([]), listing(["a"]), listing(["a", "b", "c"], "or"), listing([1, 2], None)
    ('', 'a', 'a, b or c', '1, 2')
    """
    texts = [str(item) for item in items]
    after = joints(texts, last, between)
    return "".join(text + joint for text, joint in zip(texts, after, strict=True))


def plural(count: int, singular: str, many: str | None = None) -> str:
    """The word for ``count`` things, the package's one plural: ``singular`` for one, else
    ``many`` (``singular`` with an "s" where not given).

    >>> plural(1, "question"), plural(0, "question"), plural(2, "is", "are")
    ('question', 'questions', 'are')
    """
    return singular if count == 1 else (many if many is not None else singular + "s")
