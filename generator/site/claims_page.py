"""``/claims/``: each factual claim a source makes, with the engine's verdict and numbers."""

from __future__ import annotations

from dataclasses import dataclass

from generator.measure.claims import CHECK_NAMES, SECONDS_PER_THROW, ClaimResult
from generator.model.variant import Claim
from generator.site.context import SiteContext, variant_page
from generator.site.render import environment, render


@dataclass(frozen=True)
class CheckedClaim:
    claim: Claim
    result: ClaimResult | None

    @property
    def verdict_class(self) -> str:
        if self.result is None:
            return "unchecked"
        return {
            "supported": "supported",
            "partly supported": "partly",
            "contradicted": "contradicted",
            "consistent with an assumed pace": "partly",
            "not consistent with any assumed pace": "partly",
        }.get(self.result.verdict, "unchecked")


def claims_page(ctx: SiteContext, results: dict[str, ClaimResult] | None) -> str:
    """The claims page from the measured verdicts (None: the build did not check claims)."""
    page = "claims/index.md"
    claims = [
        CheckedClaim(c, results.get(c.id) if results is not None else None)
        for vid in ctx.variant_ids
        for c in ctx.catalog.variants[vid].claims
    ]
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
