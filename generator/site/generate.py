"""Every generated file of ``docs/``, as a mapping from docs-relative path to content."""

from __future__ import annotations

from collections.abc import Collection

from generator.measure.claims import CLAIMS
from generator.measure.core import Results
from generator.measure.cross_checks import CROSS_CHECKS
from generator.measure.parting import PARTINGS
from generator.measure.play_hints import PLAY_HINTS
from generator.processes import Forked
from generator.site.cite import (
    AUTHOR,
    bibliography_bib,
    bibliography_biblatex,
    bibliography_json,
    bibliography_ris,
)
from generator.site.claims_page import claims_page
from generator.site.compare_pages import (
    Comparer,
    compare_index,
    pair_pages,
    reverse_pair_redirects,
)
from generator.site.context import SiteContext
from generator.site.edition_copies import edition_files
from generator.site.edition_pages import about_edition, changes_page, ruling_index, short_pages
from generator.site.learn_page import PLAY_PAGE, learn_page
from generator.site.navigation import navigation
from generator.site.play_files import RULES_FOLDER, hint_files, play_files
from generator.site.play_pages import play_pages
from generator.site.reference_pages import (
    abbreviations,
    glossary_page,
    glossary_terms,
    question_pages,
    sources_page,
)
from generator.site.render import environment, render
from generator.site.statistics_page import chart_files, measured_figures, statistics_pages
from generator.site.variant_pages import variant_pages, variants_index
from generator.site.which_rules_page import which_rules_page


def generated_config(ctx: SiteContext, pages: Collection[str]) -> str:
    """The generated half of the mkdocs configuration (``INHERIT``-ed by ``mkdocs.yml``): the
    site's address when configured (``SITE_URL``), its author, the edition's facts, the
    navigation over the generated ``pages`` (:mod:`generator.site.navigation`), and the reverse
    address of every pair page (``compare/b--a/`` leads to ``compare/a--b/``)."""
    edition = ctx.editions.current
    return render(
        environment(),
        "mkdocs-generated.yml.j2",
        site_url=ctx.site_url,
        author=AUTHOR,
        version=edition.number,
        date=edition.date.isoformat(),
        nav=navigation(ctx, pages),
        redirects=reverse_pair_redirects(ctx.variant_ids),
    )


def citation_files(ctx: SiteContext) -> dict[str, str | bytes]:
    """Every citation in one file per format: each ruling, each rulebook, then the site."""
    citations = [ctx.citation(r) for _, r in sorted(ctx.rulings.items())]
    citations += [ctx.rulebook_citation(vid) for vid in sorted(ctx.catalog.variants)]
    citations.append(ctx.site_citation())
    return {
        "citations.bib": bibliography_bib(citations),
        "citations-biblatex.bib": bibliography_biblatex(citations),
        "citations.json": bibliography_json(citations),
        "citations.ris": bibliography_ris(citations),
    }


def all_files(ctx: SiteContext, results: Results | None, jobs: int = 1) -> dict[str, str | bytes]:
    """Every generated file, reading the measurement's ``results`` (None: not measured). With
    more than one job, the comparison pages (a third of the work: every pair of rulebooks, the
    engine's verdicts) and the statistics charts (another sixth) are rendered in forked
    processes meanwhile; the files are the same."""
    measured = measured_figures(ctx, results)
    hints = results.get(PLAY_HINTS) if results else None
    rules_files = play_files(ctx.catalog)
    played = {path.removeprefix(f"{RULES_FOLDER}/").removesuffix(".json") for path in rules_files}

    def comparison() -> dict[str, str]:
        comparer = Comparer(ctx, results.get(CROSS_CHECKS) if results else None)
        pairs = pair_pages(
            ctx,
            comparer,
            measured.per_variant,
            measured.per_question,
            measured.family,
            results.get(PARTINGS) if results else None,
        )
        return {**compare_index(ctx, comparer), **pairs}

    fork = jobs > 1
    with (
        Forked(lambda: chart_files(ctx, results, measured), fork=fork) as drawn,
        Forked(comparison, fork=fork) as compared,
    ):
        variants = {**variant_pages(ctx, measured.per_variant, played), **variants_index(ctx)}
        rest: dict[str, str | bytes] = {
            **question_pages(ctx, measured.per_question, measured.family),
            **sources_page(ctx),
            **glossary_page(ctx),
            **citation_files(ctx),
            **statistics_pages(ctx, results, measured, drawn.result()),
            "claims/index.md": claims_page(ctx, results.get(CLAIMS) if results else None),
            **short_pages(ctx),
            **ruling_index(ctx),
            **changes_page(ctx),
            **edition_files(ctx),
            **about_edition(ctx),
        }
        files: dict[str, str | bytes] = {**variants, **compared.result(), **rest}
    files.update(which_rules_page(ctx, measured.per_variant))
    files.update(rules_files)
    files.update(hint_files(hints or {}))
    files.update(play_pages(ctx, played, hints or {}))
    files.update(learn_page(ctx, playable=PLAY_PAGE in files))
    files[".generated/mkdocs.yml"] = generated_config(ctx, files)
    files[".includes/abbreviations.md"] = abbreviations(glossary_terms())
    return files
