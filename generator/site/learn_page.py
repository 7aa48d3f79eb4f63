"""``/learn/``: the common rules (RoyalUr.net's Finkel set, ``common_rules`` in the vocabulary)
taught in five minutes, one step of a game at a time, each step drawn.

Nothing on the page is typed by hand for one rulebook: the route's numbered squares, the
rosettes, the odds of each throw and the pieces come from the rulebook's data, and each example
is a position built from that data (a piece a common throw short of a rosette, of an enemy in
the middle row, of the end of the route), whose move the engine plays in the measurement
(:mod:`generator.measure.lessons`): the drawing shows the position before and after, and the
words say what the engine did (another throw, a capture, a piece that cannot move and why).
Change a rosette in the data and the drawings, the squares named and the examples change with
it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from markupsafe import Markup

from generator.engine.position import Position
from generator.engine.rules import Side, compile_rules
from generator.measure.lessons import Scene
from generator.model.equipment import Dice
from generator.model.variant import ResolvedVariant
from generator.site.board import MovePath, board_svg, route_description, square_names
from generator.site.context import SiteContext, variant_page
from generator.site.examples import ExampleWords, path_cells, pieces_on_board
from generator.site.facts import RouteShape, route_shape
from generator.site.render import environment, markdown_text, render
from generator.site.vocabulary import Vocabulary
from generator.words import listing, number_word

LEARN_PAGE = "learn/index.md"
WHICH_RULES_PAGE = "which-rules/index.md"
PLAY_PAGE = "play/index.md"
"""A board to play on, where the site has one: the learn page links to it only then."""
LEARN_SEARCH_BOOST = 20
"""Search ranks this page first for "how to play", "rules" and "learn": its title has those
words, as do every rulebook's "How to play" section, many rulebook titles and the which-rules
page (boosted 2). At 10 "how to play" found the which-rules page first (5 December 2026)."""


@dataclass(frozen=True)
class DrawnScene:
    """A scene ready for the page: its boards, the move and the refusals in words."""

    scene: Scene
    before_svg: Markup
    after_svg: Markup | None
    move: str
    refused: tuple[str, ...]
    others: tuple[str, ...]
    """The other moves the same throw allows, in words."""


@dataclass(frozen=True)
class ThrowRow:
    """One throw of the dice: how many lots fall marked (None: not binary lots), the throw,
    and its chance."""

    marked: int | None
    lots: int
    throw: int
    probability: Fraction


def throw_rows(dice: Dice) -> list[ThrowRow]:
    """Each throw with its chance; for binary lots, how many lots fall marked for it."""
    lots = [o for o in dice.outcomes if o.label.endswith(" marked")]
    if len(lots) == len(dice.outcomes):
        count = len(lots) - 1
        return [ThrowRow(int(o.label.split()[0]), count, o.throw, o.probability) for o in lots]
    return [ThrowRow(None, 0, t, p) for t, p in dice.table()]


THROW_ROW = 34
THROW_WIDTH = 420


def throws_svg(rows: list[ThrowRow], svg_id: str, words: Vocabulary) -> Markup:
    """The throws as a picture: for each, the lots (marked ones dotted), the throw, a bar as
    long as its chance and the chance in words ("6 in 16"); titled for screen readers in the
    vocabulary's words."""
    denominator = max(r.probability.denominator for r in rows)
    likeliest = max(r.probability for r in rows)
    height = THROW_ROW * len(rows) + 34
    chances = listing(
        [f"{r.throw}: {chance(r.probability, denominator)}" for r in rows], None, "; "
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ur-throws" role="img" '
        f'aria-labelledby="{svg_id}-title" viewBox="0 0 {THROW_WIDTH} {height}" '
        f'width="{THROW_WIDTH}" height="{height}">',
        f'<title id="{svg_id}-title">{words.drawing("throws", chances=chances)}</title>',
        '<text x="8" y="18" font-size="14" fill="#3a2a10">dice</text>',
        '<text x="150" y="18" font-size="14" fill="#3a2a10" text-anchor="middle">throw</text>',
        '<text x="180" y="18" font-size="14" fill="#3a2a10">how often</text>',
    ]
    for index, row in enumerate(rows):
        y = 34 + index * THROW_ROW
        for lot in range(row.lots):
            x = 12 + lot * 26
            marked = row.marked is not None and lot < row.marked
            parts.append(
                f'<path d="M{x},{y + 24} L{x + 10},{y + 4} L{x + 20},{y + 24} z" '
                f'fill="{"#faf5ea" if marked else "#d9cdb4"}" stroke="#6b5a3a" stroke-width="1.2"/>'
            )
            if marked:
                parts.append(f'<circle cx="{x + 10}" cy="{y + 8}" r="3.2" fill="#b5581c"/>')
        bar = 150 * float(row.probability / likeliest)
        parts.append(
            f'<text x="150" y="{y + 21}" font-size="18" font-weight="700" text-anchor="middle" '
            f'fill="#3a2a10">{row.throw}</text>'
            f'<rect x="180" y="{y + 7}" width="{bar:.1f}" height="16" fill="#b5581c" '
            f'fill-opacity="0.75"/>'
            f'<text x="{186 + bar:.1f}" y="{y + 20}" font-size="14" fill="#3a2a10">'
            f"{chance(row.probability, denominator)}</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def chance(probability: Fraction, denominator: int) -> str:
    """``3/8`` out of sixteenths as ``6 in 16``."""
    return f"{probability * denominator} in {denominator}"


def draw(
    ctx: SiteContext,
    resolved: ResolvedVariant,
    scene: Scene,
    anchor: str,
    title: str,
    after: bool = True,
) -> DrawnScene:
    """The scene's boards (before, with the move marked; after, unless ``after`` is false) and
    its sentences."""
    rules = compile_rules(resolved)
    board, route = resolved.board, resolved.route
    rosettes = {c: n for c in board.rosettes if (n := ctx.words.rosette_name(c, board.id))}
    writer = ExampleWords(rules, ctx.words, rosettes)
    names = square_names(ctx.words, board, route)
    side, move, throw = Side.LIGHT, scene.move, scene.throw
    path = path_cells(rules, side, move, throw)
    bears_off = (rules.cells[side][-2], rules.cells[side][-1]) if move.end == rules.off else None
    crossed = tuple(c for r in scene.refused if (c := rules.cell(side, r.start)) is not None)
    sentence = f"Light {lower(writer.move(side, scene.line, throw))}"

    def svg(when: str, position: Position, mark: MovePath) -> Markup:
        return board_svg(
            board,
            route,
            svg_id=f"{anchor}-{when}",
            title=f"{title}: {when} the move",
            description=f"{writer.position(position)} The move: {sentence}",
            names=names,
            pieces=pieces_on_board(rules, position),
            move=mark,
        )

    before = svg(
        "before", scene.position, MovePath(path, rules.cell(side, move.start), bears_off, crossed)
    )
    after_svg = (
        svg("after", scene.after, MovePath(path, rules.cell(side, move.end))) if after else None
    )
    others = tuple(f"Light {lower(writer.move(side, line, throw))}" for line in scene.others)
    return DrawnScene(
        scene,
        before,
        after_svg,
        sentence,
        tuple(writer.refusal(side, r, throw) for r in scene.refused),
        others,
    )


def lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def learn_context(ctx: SiteContext, variant_id: str, playable: bool) -> dict[str, object]:
    """Everything the learn page shows, from the rulebook ``variant_id``."""
    resolved = ctx.resolved[variant_id]
    lesson = ctx.engine.lesson(variant_id)
    rules = compile_rules(resolved)
    shared = resolved.route.shared_cells()
    shape: RouteShape = route_shape(resolved.route, resolved.board.rosettes)
    titles = {
        "moving": "Moving",
        "rosette": "Rosettes",
        "capture": "Capturing",
        "bear-off": "Bearing off",
        "winning": "Winning",
    }
    drawn = {
        key: draw(ctx, resolved, scene, f"learn-{key}", titles[key], after=key != "winning")
        for key, scene in lesson.scenes.items()
        if scene is not None
    }
    rows = throw_rows(resolved.dice)
    page = LEARN_PAGE
    rulebook = variant_page(variant_id)
    shared_steps = [i + 1 for i, c in enumerate(resolved.route.light) if c in shared]
    safe_shared = [
        i + 1
        for i, c in enumerate(resolved.route.light)
        if c in rules.safe_cells & shared & resolved.board.rosettes
    ]
    return {
        "fm": {
            **ctx.front_matter(*ctx.words.page("learn")),
            "hide": ["navigation", "toc"],
            "search_boost": LEARN_SEARCH_BOOST,
        },
        "v": resolved.variant,
        "rulings": {
            q: {"target": ctx.ruling_target(r), "title": ctx.catalog.questions[q].title}
            for q, r in resolved.rulings.items()
        },
        "say": lambda q: (
            markdown_text(ctx.describe(resolved.rulings[q]) + ".") if q in resolved.rulings else ""
        ),
        "link": ctx.linker(page),
        "rulebook": rulebook,
        "which_rules": WHICH_RULES_PAGE,
        "play": PLAY_PAGE if playable else None,
        "pieces": rules.pieces,
        "pieces_word": number_word(rules.pieces),
        "shape": shape,
        "shared_steps": shared_steps,
        "safe_shared": safe_shared,
        "rules": rules,
        "throws": rows,
        "throw": lesson.throw,
        "lots": rows[0].lots if rows and rows[0].marked is not None else None,
        "denominator": max(r.probability.denominator for r in rows),
        "chance": chance,
        "route_svg": board_svg(
            resolved.board,
            resolved.route,
            svg_id="learn-route",
            title=str(ctx.words.data["drawings"]["learn-route"]).format(
                short=resolved.variant.short
            ),
            description=route_description(ctx.words, resolved.board, resolved.route),
            names=square_names(ctx.words, resolved.board, resolved.route),
        ),
        "throws_svg": throws_svg(rows, "learn-throws", ctx.words),
        "scenes": drawn,
    }


def learn_page(ctx: SiteContext, playable: bool = False) -> dict[str, str]:
    """The learn page for the common rules; none when the catalogue does not have them."""
    variant_id = ctx.words.data["common_rules"]
    if variant_id not in ctx.resolved:
        return {}
    text = render(environment(), "learn.md.j2", **learn_context(ctx, variant_id, playable))
    return {LEARN_PAGE: text}
