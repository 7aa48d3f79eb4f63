"""``tablet-route``: the variant's route and piece count against what quotations of the tablet
(in tablet-reading rulings) say on each."""

from __future__ import annotations

from typing import Any

from generator.claims.verdicts import (
    CONTRADICTED,
    SUPPORTED,
    UNSUPPORTED,
    CheckSettings,
    ClaimResult,
    Verdict,
    pieces_words,
)
from generator.model.catalog_contents import Catalog
from generator.model.variant import Claim, Evidence, Ruling, SourceKind
from generator.words import listing


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


def check_tablet_route(catalog: Catalog, claim: Claim, settings: CheckSettings) -> ClaimResult:
    """The claim's route and piece count against what the tablet's own words, as quoted by a
    tablet-reading source, say on each: supported where they agree, contradicted where they
    differ, unsupported where no quote of the tablet speaks to the point."""
    resolved = catalog.resolve(claim.variant)
    parts = {}
    numbers = {}
    routes = catalog.equipment.routes

    def shown(question: str, value: Any) -> str:
        return routes[value].title if question == "route" else pieces_words(value)

    for question, label in (("route", "route"), ("pieces", "piece count")):
        evidence = tablet_evidence(catalog, question)
        parts[label] = _part_verdict(resolved.value(question), evidence)
        numbers[f"{label}: this rulebook"] = shown(question, resolved.value(question))
        quoted = {ruling.id: shown(question, value) for _, value, ruling in evidence}
        numbers[f"{label}: the tablet, quoted"] = (
            listing(sorted(set(quoted.values())), None, "; ")
            or "no quoted words of the tablet on this point"
        )
        numbers[f"{label}: verdict"] = parts[label]
    verdicts = set(parts.values())
    verdict = (
        CONTRADICTED
        if CONTRADICTED in verdicts
        else UNSUPPORTED
        if UNSUPPORTED in verdicts
        else SUPPORTED
    )
    summary = (
        f"The route is {parts['route']} and the piece count {parts['piece count']} by the"
        " tablet's words as quoted: "
        + (
            "no quotation of the tablet gives a route (the route played for it is Finkel's"
            " proposal, on another board); "
            if parts["route"] == UNSUPPORTED
            else ""
        )
        + (
            "the tablet, as Finkel is quoted, gives each player five different pieces."
            if parts["piece count"] == CONTRADICTED
            else "the piece count agrees."
            if parts["piece count"] == SUPPORTED
            else "no quotation of the tablet gives a piece count."
        )
    )
    method = (
        "For the route and the piece count, the rulings of every tablet reading whose evidence is"
        " stated or implied by a quotation from a source that reads the tablet (Finkel, or a writer"
        " quoting him); encodings with no such quotation, such as a route drawn from a later"
        " summary, count as no evidence."
    )
    return ClaimResult(
        claim.id, claim.variant, claim.check, verdict, summary, method, numbers, True
    )
