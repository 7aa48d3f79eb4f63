"""Regenerate the golden files the engine tests compare against (tests/data/).

    .venv/bin/python scripts/regenerate_goldens.py            # every variant
    .venv/bin/python scripts/regenerate_goldens.py VARIANT... # only these (others kept)

Writes tests/data/perft.txt (distinct positions k plies from the start) and
tests/data/playthroughs/<variant>.txt (one seeded random game). Run it deliberately, after a
rules change you mean, and review the diff before committing: the tests exist to catch the
changes you did not mean.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from generator.engine.goldens import choose_perft_depth, format_perft, playthrough, read_perft
from generator.engine.rules import Rules, compile_rules
from generator.model.catalog import load_valid_catalog, variant_files
from generator.model.catalog_contents import Catalog

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"
PERFT_FILE = ROOT / "tests" / "data" / "perft.txt"
PLAYTHROUGH_DIR = ROOT / "tests" / "data" / "playthroughs"


@cache
def catalog() -> Catalog:
    return load_valid_catalog(VARIANTS)


def variant_ids() -> list[str]:
    return [path.stem for path in variant_files(VARIANTS)]


def rules_for(variant_id: str) -> Rules:
    return compile_rules(catalog().resolve(variant_id))


def main(argv: list[str]) -> int:
    known = variant_ids()
    unknown = [v for v in argv if v not in known]
    if unknown:
        print(f"unknown variant(s) {unknown}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    chosen = argv or known
    old = read_perft(PERFT_FILE) if PERFT_FILE.exists() else {}
    counts = {v: [old[v][k] for k in sorted(old[v])] for v in known if v in old}
    PLAYTHROUGH_DIR.mkdir(parents=True, exist_ok=True)
    for variant_id in chosen:
        counts[variant_id] = choose_perft_depth(rules_for(variant_id))
        path = PLAYTHROUGH_DIR / f"{variant_id}.txt"
        ends = catalog().variants[variant_id].simulate
        path.write_text(playthrough(rules_for(variant_id), ends), encoding="utf-8")
        print(f"{variant_id}: perft {counts[variant_id]}, playthrough {path.name}")
    ordered = {v: counts[v] for v in known if v in counts}
    PERFT_FILE.write_text(format_perft(ordered), encoding="utf-8")
    stale = sorted(p.stem for p in PLAYTHROUGH_DIR.glob("*.txt") if p.stem not in known)
    for name in stale:
        (PLAYTHROUGH_DIR / f"{name}.txt").unlink()
        print(f"removed the playthrough of {name} (no such variant)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
