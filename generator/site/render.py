"""Jinja2 rendering and the all-or-nothing swap of generated files into ``docs/``.

Templates run with ``StrictUndefined``: a missing value is an error, never a blank on a page.
Every value a template prints is escaped for Markdown and HTML at one place (the environment's
``finalize``, with autoescaping on), so a template cannot forget: data text reaches a page as
text, never as markup. Only :class:`~markupsafe.Markup` the generator built itself (diagrams,
links, macro output) is printed as it is; ``code`` and ``yaml_string`` give the other contexts.
Generated files are first written to a temporary folder; only when every page rendered are
they moved into ``docs/``, so a failed generation leaves the previous pages in place.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from generator.files import WriteError, write_staged
from generator.model.variant_checks import sic_at
from generator.words import joints, listing, number_word, plural

TEMPLATES = Path(__file__).parent / "templates"
ASSETS = Path(__file__).parent / "assets"

GENERATED = (
    "learn",
    "which-rules",
    "variants",
    "compare",
    "questions",
    "statistics",
    "claims",
    "sources",
    "glossary",
    "assets",
    "citations.bib",
    "citations-biblatex.bib",
    "citations.json",
    "citations.ris",
    "r",
    "changes",
    "editions",
    "play",
    ".generated",
    ".includes",
)
"""Top-level entries of ``docs/`` the generator owns (git-ignored); all else is hand-written."""

_MARKUP = re.compile(
    r"^(?P<indent>[ \t]*)(?P<lead>[!-/:-@\[-`{-~]|[0-9]+[.)])"
    r"|(?P<char>[&<>\"'\\`*_\[\]{}|])",
    re.MULTILINE,
)
"""What Markdown, HTML or a Markdown extension (attr_list, abbr, footnotes, snippets) could
read as markup: these characters anywhere, and any punctuation (or the ``1.`` of an ordered
list) opening a line, where it could start a heading, list, quote, admonition or tab."""


def _references(text: str) -> str:
    return "".join(f"&#{ord(char)};" if not char.isdigit() else char for char in text)


def markdown_text(value: object) -> Markup:
    r"""Plain text as Markdown that renders to exactly that text, inert in HTML and Markdown.

    Every character that could be read as markup becomes a numeric character reference, which
    Python-Markdown passes through and a browser shows as the character itself (a backslash
    escape would not do: Python-Markdown leaves ``\<`` as a visible backslash). The result is
    valid inside text, table cells, admonition and link titles, quoted HTML attributes and
    double-quoted YAML strings.

    >>> str(markdown_text("<b>x</b> [a](javascript:y) if (x \<= 0)"))
    '&#60;b&#62;x&#60;/b&#62; &#91;a&#93;(javascript:y) if (x &#92;&#60;= 0)'
    >>> str(markdown_text("# not a heading\n1. not a list"))
    '&#35; not a heading\n1&#46; not a list'
    """
    if isinstance(value, Markup):
        return value

    def reference(m: re.Match[str]) -> str:
        if m.group("char"):
            return _references(m.group("char"))
        return m.group("indent") + _references(m.group("lead"))

    return Markup(_MARKUP.sub(reference, str(value)))


def _finalize(value: object) -> object:
    """Every ``{{ ... }}`` of every template passes here: data text is escaped, numbers pass,
    and only :class:`~markupsafe.Markup` (markup the generator built itself) is trusted."""
    if isinstance(value, (Markup, int, float)):
        return value
    return markdown_text(value)


def code_span(value: object) -> Markup:
    """Text as one Markdown code span, shown character for character (a backtick inside
    cannot close it: the fence is longer than any run of backticks in the text)."""
    text = one_line(str(value))
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markup(f"{fence}{pad}{text}{pad}{fence}")


_JSON_IN_HTML = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def json_script(value: object) -> Markup:
    """``value`` as JSON for a ``<script type="application/json">`` element, whose text the
    browser reads as it is (no character references): ``<``, ``>`` and ``&`` are written as
    JSON escapes, so no string can close the element.

    >>> str(json_script({"a": "</script><b>&"}))
    '{"a":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    return Markup(json.dumps(value, separators=(",", ":")).translate(_JSON_IN_HTML))


def yaml_string(value: object) -> Markup:
    """A double-quoted YAML scalar (JSON's string syntax is a subset of YAML's)."""
    return Markup(json.dumps(str(value), ensure_ascii=False))


def one_line(text: str) -> str:
    """Collapse whitespace (YAML folded text) into one line."""
    return " ".join(text.split())


_TITLE_LOOKALIKES = str.maketrans({"<": "‹", ">": "›"})


def title_text(text: str) -> str:
    """Text for a page title, or an admonition or tab title (double-quoted in Markdown):
    straight double quotes become curly ones, opening at the start or after a space or bracket,
    closing elsewhere.

    A page title reaches the theme's ``<title>`` through ``striptags``, which turns character
    references back into characters: angle brackets are therefore replaced by lookalikes, so
    no title can close ``<title>`` and open an element.
    """
    curly = re.sub(r'(^|[\s(\[])"', r"\1“", one_line(text)).replace('"', "”")
    return curly.translate(_TITLE_LOOKALIKES)


MINUS = "\u2212"
"""The minus sign readers see in a figure (a hyphen is a hyphen; JSON exports keep ``-``)."""
EN_DASH = "\u2013"
"""Between the ends of a range of figures."""


_FORM = re.compile(r"%(\+?)(\.\d+)?([df])")
"""The printf-style forms a figure may take: an optional sign, a precision, whole or fixed."""


def figure(form: str, value: float) -> str:
    """A number as readers see it: printf-style ``form`` (``"%+.1f"``, ``"%d"``) with a
    thousands separator from 1,000 up and a true minus sign; a figure that rounds to zero has
    no sign ("−0.0 points" read as a loss).

    Every number on a reader page goes through here, so that "3,982 throws" and
    "40,000 games" read alike (issue 12); ``%d`` drops any fraction, as printf does.

    >>> figure("%+.1f", -0.04), figure("%.1f", 2.5), figure("%+.2f", 0.5), figure("%+d", 0)
    ('0.0', '2.5', '+0.50', '0')
    >>> figure("%.0f", 3982.2), figure("%d", 40000), figure("%d", 2321.9), figure("%.1f", -1467.5)
    ('3,982', '40,000', '2,321', '\u22121,467.5')
    """
    sign, digits, kind = _form_parts(form)
    spec = f"{sign},d" if kind == "d" else f"{sign},.{digits}f"
    text = format(int(value) if kind == "d" else value, spec).replace("-", MINUS)
    return text.lstrip("+" + MINUS) if _printed(text) == 0 else text  # no "−0.0"


def figure_range(form: str, low: float, high: float, near: float = 0.0) -> str:
    """Two figures as a range: an en dash between them, or "to" where a sign would touch it.
    An end that is not ``near`` (zero: no effect; 50 for a share of games: no edge) but would
    print as if it were takes up to three more decimals: "+0.0 to +4.0" beside "a measurable
    effect" read as a contradiction, where the end was +0.02.

    >>> figure_range("%.1f", 1, 2.5), figure_range("%+.1f", -2, 1)
    ('1.0\u20132.5', '\u22122.0 to +1.0')
    >>> figure_range("%+.1f", 0.0213, 4.01), figure_range("%.1f", 50.04, 51, near=50)
    ('+0.02 to +4.0', '50.04\u201351.0')
    >>> figure_range("%.1f", 99.962, 99.998)  # ends that print alike get decimals too
    '99.96\u2013100.00'
    >>> figure_range("%+.1f", 0.0, 1.0), figure_range("%+.1f", -0.00001, 1.0)
    ('0.0 to +1.0', '0.0 to +1.0')
    """
    form = range_form(form, low, high)
    a, b = _apart(form, low, near), _apart(form, high, near)
    signed = b.startswith(("+", MINUS)) or a.startswith(("+", MINUS))
    return f"{a} to {b}" if signed else f"{a}{EN_DASH}{b}"


def range_form(form: str, low: float, high: float) -> str:
    """``form`` with up to three more decimals where the two ends of a range would print
    alike ("100.0 % (100.0–100.0)" for a share of 99.97 %); the estimate between them takes
    the same form, so that it reads inside its range.

    >>> range_form("%.1f", 99.962, 99.998), range_form("%+.1f", -2.0, 1.0)
    ('%.2f', '%+.1f')
    """
    sign, digits, kind = _form_parts(form)
    if kind != "f" or low == high:
        return form
    for more in range(digits, digits + 4):
        wider = f"%{sign}.{more}f"
        if figure(wider, low) != figure(wider, high):
            return wider
    return form


def _apart(form: str, value: float, near: float) -> str:
    """``figure(form, value)``, with up to three more decimals where it would read as
    ``near`` without being it; ``near`` itself (never "−0.0") where even those do not
    tell them apart."""
    text = figure(form, value)
    sign, digits, kind = _form_parts(form)
    if kind != "f" or value == near or _printed(text) != near:
        return text
    for more in range(digits + 1, digits + 4):
        closer = figure(f"%{sign}.{more}f", value)
        if _printed(closer) != near:
            return closer
    return figure(form, near)


def _form_parts(form: str) -> tuple[str, int, str]:
    """A figure form's sign (``"+"`` or ``""``), decimals (printf's 6 when unsaid) and kind."""
    parsed = _FORM.fullmatch(form)
    if parsed is None:
        raise ValueError(f"figure form {form!r}: use %d or %.Nf, with an optional + sign")
    sign, precision, kind = parsed.groups()
    return sign, int(precision[1:]) if precision else 6, kind


def _printed(text: str) -> float:
    """The number a figure reads as."""
    return float(text.replace(MINUS, "-").replace(",", ""))


def lower_first(text: str) -> str:
    """A sentence's first letter in lower case, to continue another sentence, unless its first
    word is a name: a possessive (Bell's, Masters') or a word with capitals inside (RoyalUr).

    >>> lower_first("Four binary lots")
    'four binary lots'
    >>> lower_first("Bell's 14-square route")
    "Bell's 14-square route"
    >>> lower_first("Masters’ 16-square route")
    'Masters’ 16-square route'
    >>> lower_first("RoyalUr's board")
    "RoyalUr's board"
    """
    word = text.split(" ", 1)[0]
    possessive = word.endswith(("'s", "’s", "s'", "s’"))
    if possessive or any(letter.isupper() for letter in word[1:]):
        return text
    return text[:1].lower() + text[1:]


def in_sentence(title: str) -> str:
    """A title continuing a sentence: a leading article in lower case, the rest as written
    (names keep their capitals, which :func:`lower_first` cannot tell from a sentence's first
    word: "R. C. Bell's", "James Masters'").

    >>> in_sentence("The three-piece short game"), in_sentence("R. C. Bell's reconstruction")
    ('the three-piece short game', "R. C. Bell's reconstruction")
    """
    article, _, rest = title.partition(" ")
    return f"{article.lower()} {rest}" if article in ("The", "A", "An") and rest else title


def with_sic(quote: str, sic: Iterable[str]) -> str:
    """The quote with "[sic]" after each of the words the data marks as the source's own
    slip (:attr:`generator.model.variant.Citation.sic`), at their first whole-word occurrence.

    >>> with_sic("R, Bell suggests", ["R,"])
    'R, [sic] Bell suggests'
    """
    for words in sic:
        end = sic_at(quote, words)
        if end is not None:
            quote = f"{quote[:end]} [sic]{quote[end:]}"
    return quote


def extract(key: Any, container: Mapping[Any, Any]) -> Any:
    """``container[key]``, as a filter: ``ids | map("extract", variants)``."""
    return container[key]


def upper_first(text: str) -> str:
    """A phrase made to start a sentence: its first letter in capitals, the rest as written
    (Jinja's ``capitalize`` lowers the rest, names included).

    >>> upper_first("a reading of the Babylonian tablet")
    'A reading of the Babylonian tablet'
    """
    return text[:1].upper() + text[1:]


def relative_link(source: str, target: str) -> Markup:
    """A Markdown link from docs page ``source`` to docs file ``target`` (both docs-relative),
    percent-encoded so that it cannot leave a link's parentheses or an attribute's quotes.

    >>> str(relative_link("variants/a/index.md", "compare/index.md"))
    '../../compare/index.md'
    """
    anchor = ""
    if "#" in target:
        target, anchor = target.split("#", 1)
        anchor = "#" + anchor
    start = posixpath.dirname(source) or "."
    return Markup(quote(posixpath.relpath(target, start) + anchor, safe="/#-._~"))


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=True,
        finalize=_finalize,
    )
    env.filters["code"] = code_span
    env.filters["yaml_string"] = yaml_string
    env.filters["json_script"] = json_script
    env.filters["one_line"] = one_line
    env.filters["title_text"] = title_text
    env.filters["lower_first"] = lower_first
    env.filters["upper_first"] = upper_first
    env.filters["in_sentence"] = in_sentence
    env.filters["with_sic"] = with_sic
    env.globals["joints"] = joints
    env.filters["plural"] = plural
    env.filters["listing"] = listing
    env.filters["extract"] = extract
    env.globals["figure"] = figure
    env.globals["figure_range"] = figure_range
    env.globals["range_form"] = range_form
    env.globals["number_word"] = number_word
    return env


def render(env: jinja2.Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)


def write_tree(files: Mapping[str, str | bytes], folder: Path) -> None:
    """Write ``files`` (docs-relative path -> content) under ``folder``, a staging folder
    (:func:`generator.files.write_staged`: a failure raises a ``WriteError``)."""
    for name, content in sorted(files.items()):
        write_staged(folder / name, content)


def copy_assets(folder: Path) -> None:
    try:
        shutil.copytree(ASSETS, folder / "assets", dirs_exist_ok=True)
    except OSError as error:  # shutil.Error too: a full disk while copying
        raise WriteError(folder / "assets", error, "nothing already built is changed") from error


DOCS_STAGING_PREFIXES = (".generating-", ".replaced-")
"""Prefixes of the temporary folders :func:`swap_into_docs` makes next to ``docs/``."""


def swap_into_docs(files: Mapping[str, str | bytes], docs: Path) -> None:
    """Replace every generated entry of ``docs`` by the new files, all or nothing.

    The new tree is written completely first; a top-level entry the generator owns but did not
    produce this time is removed, so a deleted variant leaves no stale page behind.
    """
    unknown = {name.split("/", 1)[0] for name in files} - set(GENERATED)
    if unknown:
        raise ValueError(f"generated paths outside the generated set: {sorted(unknown)}")
    docs.mkdir(parents=True, exist_ok=True)
    generating, replaced = DOCS_STAGING_PREFIXES
    staging = Path(tempfile.mkdtemp(prefix=generating, dir=docs.parent))
    trash = Path(tempfile.mkdtemp(prefix=replaced, dir=docs.parent))
    try:
        try:
            write_tree(files, staging)
            copy_assets(staging)
        except WriteError as error:  # named as it would be in docs/, which is left alone
            where = docs / error.path.relative_to(staging)
            raise WriteError(where, error.error, f"{docs} is left as it was") from error
        for name in GENERATED:
            old, new = docs / name, staging / name
            if old.exists():
                old.rename(trash / name)
            if new.exists():
                new.rename(old)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(trash, ignore_errors=True)
