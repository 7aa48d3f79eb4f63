"""Print how far a built site lets a reader compare: pair addresses that are missing, rulebook
pages with no link to a comparison, and the rows the comparison's filters show.

    python scripts/compare_coverage.py site/

Reads only the built HTML (and the comparison's embedded data where the page has it), so it
measures any build, old or new, the same way.
"""

from __future__ import annotations

import json
import re
import sys
from itertools import permutations
from pathlib import Path

PAIR_LINK = re.compile(r'href="[^"]*compare/[a-z0-9-]+--[a-z0-9-]+/?[^"]*"')
ROW = re.compile(r'<tr[^>]*data-question="([^"]+)"[^>]*>')
DATA = re.compile(r'<script type="application/json" id="comparison-data">(.*?)</script>', re.S)


def main(site: Path) -> None:
    variants = sorted(p.name for p in (site / "variants").iterdir() if p.is_dir())
    ordered = list(permutations(variants, 2))
    missing = [
        f"{a}--{b}" for a, b in ordered if not (site / f"compare/{a}--{b}/index.html").is_file()
    ]
    print(f"ordered pair addresses: {len(ordered)}, missing: {len(missing)}")
    unlinked = [
        v for v in variants if not PAIR_LINK.search((site / f"variants/{v}/index.html").read_text())
    ]
    print(f"rulebook pages: {len(variants)}, without a link to a pair page: {len(unlinked)}")
    page = (site / "compare/index.html").read_text()
    rows = ROW.findall(page)
    print(f"comparison rows: {len(rows)}")
    found = DATA.search(page)
    if found is None:
        old = re.findall(r'<tr[^>]*class="row-(same|differs)"', page)
        print(f"  'only the rows that differ' shows {old.count('differs')} rows")
        return
    data = json.loads(found.group(1))
    ids = [v["id"] for v in data["variants"]]
    for baseline in (data["baseline"],):
        base = ids.index(baseline)
        rulings = sum(
            1 for q in data["questions"] if any(k != q["values"][base] for k in q["values"])
        )
        play = sum(1 for q in data["questions"] if "1" in q["plays"][base])
        print(
            f"  baseline {baseline}, every rulebook: 'rulings differ' shows {rulings} rows, "
            f"'play differs' shows {play}"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "site"))
