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
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from conftest import (  # noqa: E402  (the helpers live with the tests that use them)
    PERFT_FILE,
    PLAYTHROUGH_DIR,
    choose_perft_depth,
    format_perft,
    playthrough,
    read_perft,
    rules_for,
    variant_ids,
)


def main(argv: list[str]) -> int:
    known = variant_ids()
    unknown = [v for v in argv if v not in known]
    if unknown:
        print(f"unknown variant(s) {unknown}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    chosen = argv or known
    old = read_perft() if PERFT_FILE.exists() else {}
    counts = {v: [old[v][k] for k in sorted(old[v])] for v in known if v in old}
    PLAYTHROUGH_DIR.mkdir(parents=True, exist_ok=True)
    for variant_id in chosen:
        counts[variant_id] = choose_perft_depth(rules_for(variant_id))
        path = PLAYTHROUGH_DIR / f"{variant_id}.txt"
        path.write_text(playthrough(variant_id), encoding="utf-8")
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
