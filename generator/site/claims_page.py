"""``/claims/``: each factual claim a source makes, with the engine's verdict and numbers.

A check's verdict and figures are typed values (:attr:`ClaimResult.finding`); their words are
the vocabulary's (``claim-verdicts``) and the template ``claim-findings.txt.j2``'s, which
:func:`claim_words` renders as plain text for the page (and for ``ur-variants claims``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.measure.claims import CHECK_NAMES, SECONDS_PER_THROW, ClaimResult, Verdict
from generator.model.variant import Claim
from generator.site.context import SiteContext, variant_page
from generator.site.render import environment, render
from generator.site.vocabulary import Vocabulary

VERDICT_CLASSES = {
    Verdict.SUPPORTED: "supported",
    Verdict.PARTLY: "partly",
    Verdict.CONTRADICTED: "contradicted",
    Verdict.CONSISTENT_WITH_ASSUMPTION: "partly",
    Verdict.NOT_CONSISTENT_WITH_ASSUMPTION: "partly",
}
"""The page's style of each verdict (``verdict-<class>``); any other is ``unchecked``."""


@dataclass(frozen=True)
class ClaimWords:
    """A claim's result in words: its verdict, summary, method and table of figures (label,
    value), plain text."""

    verdict: str
    summary: str
    method: str
    numbers: tuple[tuple[str, str], ...]


def findings_template(words: Vocabulary) -> Any:
    """The macros wording each check's finding (``claim-findings.txt.j2``), as plain text."""
    env = environment().overlay(autoescape=False, finalize=None)  # the page escapes the text
    extra = {"Verdict": Verdict, "verdict_words": words.claim_verdict}
    return env.get_template("claim-findings.txt.j2", globals=extra).module


def claim_words(result: ClaimResult, words: Vocabulary, template: Any = None) -> ClaimWords:
    """``result`` in words, by its check's macros in ``template`` (:func:`findings_template`)."""
    macros = template if template is not None else findings_template(words)
    name = result.check.replace("-", "_")
    rows: list[tuple[str, str]] = []

    def row(label: object, value: object) -> str:
        rows.append((str(label), str(value)))
        return ""

    def said(part: str) -> str:
        """A macro's text on one line (the template breaks its prose where it likes)."""
        return " ".join(str(getattr(macros, f"{name}_{part}")(result, result.finding)).split())

    summary, method = said("summary"), said("method")
    getattr(macros, f"{name}_rows")(result, result.finding, row)
    return ClaimWords(words.claim_verdict(result.verdict), summary, method, tuple(rows))


@dataclass(frozen=True)
class CheckedClaim:
    claim: Claim
    result: ClaimResult | None
    words: ClaimWords | None

    @property
    def verdict_class(self) -> str:
        if self.result is None:
            return "unchecked"
        return VERDICT_CLASSES.get(self.result.verdict, "unchecked")


def claims_page(ctx: SiteContext, results: dict[str, ClaimResult] | None) -> str:
    """The claims page from the measured verdicts (None: the build did not check claims)."""
    page = "claims/index.md"
    template = findings_template(ctx.words)

    def checked(claim: Claim) -> CheckedClaim:
        result = results.get(claim.id) if results is not None else None
        worded = claim_words(result, ctx.words, template) if result is not None else None
        return CheckedClaim(claim, result, worded)

    claims = [checked(c) for vid in ctx.variant_ids for c in ctx.catalog.variants[vid].claims]
    return render(
        environment(),
        "claims.md.j2",
        fm=ctx.front_matter(*ctx.words.page("claims")),
        claims=claims,
        checked=results is not None,
        variants=ctx.catalog.variants,
        sources=ctx.catalog.sources,
        languages=ctx.words.language,
        check=ctx.words.check,
        checks=list(CHECK_NAMES),
        seconds=SECONDS_PER_THROW,
        link=ctx.linker(page),
        prose=ctx.prose(page),
        variant_page=variant_page,
    )
