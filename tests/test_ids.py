"""Published ids are permanent: every id in variants/ids.txt still exists (or redirects),
and every ruling and claim id is published there.

The site gives every ruling a stable anchor (and a short /r/<id>/ address); a link someone
saved must keep working, so an id may be renamed only with an entry in redirects.yml.
"""

from __future__ import annotations

import re

import yaml
from conftest import VARIANTS, repository_catalog

IDS_FILE = VARIANTS / "ids.txt"
REDIRECTS_FILE = VARIANTS / "redirects.yml"
ID_FORM = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def published() -> list[str]:
    lines = IDS_FILE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def redirects() -> dict[str, str]:
    data = yaml.safe_load(REDIRECTS_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and set(data) == {"redirects"}, (
        "variants/redirects.yml must hold one key, redirects: {old-id: new-id, ...}"
    )
    mapping = data["redirects"] or {}
    assert isinstance(mapping, dict)
    return {str(k): str(v) for k, v in mapping.items()}


def current_ids() -> set[str]:
    catalog = repository_catalog()
    rulings = {ruling.id for ruling in catalog.rulings()}
    claims = {claim.id for variant in catalog.variants.values() for claim in variant.claims}
    return rulings | claims


def test_ids_file_is_well_formed() -> None:
    ids = published()
    bad = [i for i in ids if not ID_FORM.match(i)]
    assert not bad, f"variants/ids.txt has malformed ids: {bad}"
    twice = sorted({i for i in ids if ids.count(i) > 1})
    assert not twice, f"variants/ids.txt lists ids twice: {twice}"


def test_no_published_id_disappears() -> None:
    moved = redirects()
    gone = sorted(set(published()) - current_ids() - set(moved))
    assert not gone, (
        f"published ids no longer in variants/: {gone}. A published id never disappears:"
        " restore it, or map it to its replacement in variants/redirects.yml"
    )


def test_every_id_is_published() -> None:
    new = sorted(current_ids() - set(published()))
    assert not new, (
        f"ruling/claim ids not yet in variants/ids.txt: {new}. Add each one (one per line,"
        " sorted) once you are sure of it: from then on it is permanent"
    )


def test_redirects_point_at_live_ids() -> None:
    ids = current_ids()
    known = set(published())
    for old, new in redirects().items():
        assert old in known, f"redirects.yml: {old!r} was never published (not in ids.txt)"
        assert old not in ids, f"redirects.yml: {old!r} still exists; remove the redirect"
        assert new in ids, f"redirects.yml: {old!r} -> {new!r}, which does not exist"
