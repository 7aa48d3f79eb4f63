"""The settings a build reads from the environment, each checked before it reaches a page.

An environment variable is text nobody validated, and the pages print some of these settings
inside HTML attributes and Markdown links, so each is held to the narrow form it needs or the
build stops with a message naming the setting and the fix:

- ``SITE_URL`` and ``REPOSITORY_URL``: an ``http`` or ``https`` address with a host, written
  only in the characters RFC 3986 allows in an address, less the quote, the parentheses and
  anything that is not ASCII (no quote, angle bracket, backslash, space or control character
  can break out of an attribute or a Markdown link); ``SITE_URL``, the address every page's
  path is appended to, has no query or fragment either.
- ``SOURCE_DATE_EPOCH``: whole seconds since 1970 (:func:`generator.site.cite.epoch_date`).
- ``UR_MKDOCS_JOBS``: a whole number of processes, 1 to :data:`MOST_JOBS`.

A setting that is unset or blank is absent; none has a made-up default.
"""

from __future__ import annotations

import os
import string
from urllib.parse import urlsplit

MKDOCS_JOBS = "UR_MKDOCS_JOBS"
"""Processes to share mkdocs' pages among (:mod:`generator.site.mkdocs_parallel`)."""
MOST_JOBS = 256
"""The most processes :data:`MKDOCS_JOBS` may ask for."""

LONGEST_ADDRESS = 2000
"""The longest address accepted, in characters (what browsers and servers reliably handle)."""

_ADDRESS_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-._~:/?#[]@!$&*+,;=%")
"""RFC 3986's unreserved and reserved characters and ``%``, less ``'``, ``(`` and ``)``."""


class SettingError(RuntimeError):
    """A setting read from the environment is malformed; the message names it and the fix."""


def web_address(name: str, *, base: bool = False) -> str | None:
    """The ``http(s)`` address in the environment variable ``name`` (spaces around it
    removed), None when it is unset or blank, or :class:`SettingError`. A ``base`` address
    (one that paths are appended to) may have no query or fragment."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    problem = _address_problem(value, base)
    if problem is not None:
        shown = value if len(value) <= 80 else value[:80] + "..."
        example = "https://rules.example.net/" if base else "https://example.net/ur-variants"
        raise SettingError(
            f"{name}={shown!r} is not a web address the pages can use: {problem}. Set {name} to"
            f" an http or https address such as {example} (other characters written as %XX,"
            " a host name in its xn-- form), or unset it"
        )
    return value


def _address_problem(value: str, base: bool) -> str | None:
    """What is wrong with ``value`` as an address, or None."""
    if len(value) > LONGEST_ADDRESS:
        return f"it is {len(value):,} characters long (at most {LONGEST_ADDRESS:,})"
    wrong = sorted({c for c in value if c not in _ADDRESS_CHARACTERS})
    if wrong:
        return "it contains " + ", ".join(_named(c) for c in wrong[:5])
    parts = urlsplit(value)
    if parts.scheme.lower() not in ("http", "https"):
        return f"it starts with {parts.scheme + ':' if parts.scheme else 'no scheme'}, not http:"
    if not parts.hostname:
        return "it names no host"
    try:
        _ = parts.port  # a malformed port raises ValueError
    except ValueError:
        return "its port is not a number from 0 to 65535"
    if base and (parts.query or parts.fragment or "?" in value or "#" in value):
        return "it has a query or fragment (? or #), which a page's address cannot follow"
    return None


def _named(character: str) -> str:
    """A character shown so that a reader sees it, even a space or a control character."""
    names = {" ": "a space", '"': "a quote", "'": "a quote", "<": "<", ">": ">"}
    if character in names:
        return names[character]
    if character.isprintable() and character.isascii():
        return repr(character)
    return f"U+{ord(character):04X}"


def whole_number(name: str, most: int) -> int | None:
    """The whole number from 1 to ``most`` in the environment variable ``name``, None when it
    is unset or blank, or :class:`SettingError`."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    if value.isascii() and value.isdigit() and len(value) <= len(str(most)):
        number = int(value)
        if 1 <= number <= most:
            return number
    shown = value if len(value) <= 40 else value[:40] + "..."
    raise SettingError(
        f"{name}={shown!r} is not a whole number from 1 to {most}: set it to one, or unset it"
    )
