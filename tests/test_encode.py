"""The kernel's encoding is driven by the compiled rules' fields: every field of
:class:`~generator.engine.rules.Rules` is encoded by an entry of
:mod:`generator.sim.encode`'s tables or listed as not needed by the kernel, and every entry
reads exactly the fields it names (so the table says truthfully where each rule goes)."""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any

import numpy as np
import pytest
from conftest import rules_for, variant_ids

from generator.engine.rules import Rules
from generator.sim import encode
from generator.sim.encode import ENTRIES, FRAME_READS, NOT_ENCODED, SCALARS, SEGMENTS, SLOT, frame

RULES_FIELDS = {f.name for f in dataclasses.fields(Rules)}


class Reading:
    """``rules`` seen through a recorder of the fields read (through properties too)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        member = type(self.rules).__dict__.get(name)
        if isinstance(member, cached_property):
            return member.func(self)
        if isinstance(member, property) and member.fget is not None:
            return member.fget(self)
        if name in RULES_FIELDS:
            self.read.add(name)
        return getattr(self.rules, name)


def test_every_compiled_rules_field_is_encoded_or_listed_as_not_needed() -> None:
    named = {f for entry in ENTRIES for f in entry.reads}
    named |= set(FRAME_READS) | set(NOT_ENCODED)
    missing = sorted(RULES_FIELDS - named)
    assert not missing, (
        f"Rules fields the kernel's encoding neither encodes nor lists as not needed: {missing};"
        " add an entry to SCALARS or SEGMENTS in generator/sim/encode.py (and the kernel's"
        " reading of it), or a reason to NOT_ENCODED"
    )
    assert not named - RULES_FIELDS, f"names of no Rules field: {sorted(named - RULES_FIELDS)}"
    assert not set(NOT_ENCODED) & {f for entry in ENTRIES for f in entry.reads}


@pytest.mark.parametrize("variant", variant_ids())
def test_each_entry_reads_the_fields_it_names(variant: str) -> None:
    rules = rules_for(variant)
    reading = Reading(rules)
    frame(reading)  # type: ignore[arg-type]
    assert reading.read == set(FRAME_READS)
    at = frame(rules)
    for entry in ENTRIES:
        reading = Reading(rules)
        entry.encode(reading, at)  # type: ignore[arg-type]
        assert reading.read == set(entry.reads), entry.name


def test_the_kernels_slot_names_follow_the_tables() -> None:
    """Each ``H_``/``O_`` constant is its entry's slot, and the layout is the header (one
    slot per entry), then the segments in order, each where its offset slot says."""
    for scalar in SCALARS:
        assert getattr(encode, f"H_{scalar.name.upper()}") == SLOT[scalar.name]
    for segment_entry in SEGMENTS:
        assert getattr(encode, f"O_{segment_entry.name.upper()}") == SLOT[segment_entry.name]
    rules = rules_for(variant_ids()[0])
    packed = encode.encode_rules(rules).packed()
    at = frame(rules)
    for scalar in SCALARS:
        assert packed[SLOT[scalar.name]] == scalar.encode(rules, at)
    start = encode.HEADER
    for segment_entry in SEGMENTS:
        segment = segment_entry.encode(rules, at)
        assert packed[SLOT[segment_entry.name]] == start
        assert np.array_equal(packed[start : start + segment.shape[0]], segment)
        start += segment.shape[0]
    assert start == packed.shape[0]
