"""``tablet-route``: the variant's route and piece count against what quotations of the tablet
(in tablet-reading rulings) say on each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.claims.verdicts import (
    CONTRADICTED,
    SUPPORTED,
    UNSUPPORTED,
    CheckSettings,
    ClaimResult,
    Verdict,
)
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim, Evidence, Ruling, SourceKind


def tablet_evidence(catalog: Catalog, question: str) -> list[tuple[str, Any, Ruling]]:
    """(reading id, value, ruling) for each tablet reading whose ruling on ``question`` quotes a
    tablet-reading source (the tablet's words as Finkel or a witness gives them). A ruling whose
    tablet citations carry no quote, or that rests on other sources, is no evidence of what the
    tablet says, however it is encoded."""
    found = []
    for reading in catalog.variants.values():
        if reading.kind is not SourceKind.TABLET_READING:
            continue
        ruling = catalog.resolve(reading.id).rulings.get(question)
        if ruling is None or ruling.evidence not in (Evidence.STATED, Evidence.IMPLIED):
            continue
        if any(
            c.quote and catalog.sources[c.source].kind is SourceKind.TABLET_READING
            for c in ruling.sources
        ):
            found.append((reading.id, ruling.value, ruling))
    return found


def _part_verdict(claimed: Any, evidence: list[tuple[str, Any, Ruling]]) -> Verdict:
    if not evidence:
        return UNSUPPORTED
    return SUPPORTED if all(value == claimed for _, value, _ in evidence) else CONTRADICTED


@dataclass(frozen=True)
class TabletPoint:
    """One point of the claim (the route, or the piece count) against the tablet: this
    rulebook's value, the values quoted tablet readings give (route titles, piece counts;
    none: no quotation speaks to it) and the verdict on the point."""

    ours: str | int
    quoted: tuple[str | int, ...]
    verdict: Verdict


@dataclass(frozen=True)
class TabletRoute:
    route: TabletPoint
    pieces: TabletPoint


def check_tablet_route(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """The claim's route and piece count against what the tablet's own words, as quoted by a
    tablet-reading source, say on each: supported where they agree, contradicted where they
    differ, unsupported where no quote of the tablet speaks to the point."""
    resolved = catalog.resolve(claim.variant)
    routes = catalog.equipment.routes

    def shown(question: str, value: Any) -> str | int:
        return routes[value].title if question == "route" else int(value)

    def point(question: str) -> TabletPoint:
        evidence = tablet_evidence(catalog, question)
        quoted = {ruling.id: shown(question, value) for _, value, ruling in evidence}
        return TabletPoint(
            shown(question, resolved.value(question)),
            tuple(dict.fromkeys(quoted.values())),
            _part_verdict(resolved.value(question), evidence),
        )

    finding = TabletRoute(point("route"), point("pieces"))
    verdicts = {finding.route.verdict, finding.pieces.verdict}
    verdict = (
        CONTRADICTED
        if CONTRADICTED in verdicts
        else UNSUPPORTED
        if UNSUPPORTED in verdicts
        else SUPPORTED
    )
    return ClaimResult(claim.id, claim.variant, claim.check, verdict, finding, True)
