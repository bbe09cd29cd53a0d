"""LOS figures (issue targets: median query <= 50 us; full table of one section <= 10 s).

Prints: the median time of one LOS query over 10,000 random pairs on the shipped mapsheet
(the sample map when the mapsheet is absent), and the time for the full LOS table of one map
section (every ordered pair of its 567 hexes) on one core. Asserts nothing.
Run: .venv/bin/python benchmarks/los.py
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from maps.los import line_of_sight
from maps.mapfile import load_map

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    sheet = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
    if not sheet.exists():
        sheet = ROOT / "maps" / "data" / "iron_cross_mapsheet.json"
    if not sheet.exists():
        sheet = ROOT / "maps" / "data" / "sample_village.json"
    m = load_map(sheet)
    hexes = list(m.all_hexes())
    rnd = random.Random(2024)
    pairs = [tuple(rnd.sample(hexes, 2)) for _ in range(10_000)]
    line_of_sight(m, *pairs[0])  # load the chart, build per-map caches
    times = []
    for a, b in pairs:
        t0 = time.perf_counter()
        line_of_sight(m, a, b)
        times.append(time.perf_counter() - t0)
    print(f"{sheet.name}: {m.hex_count} hexes")
    print(f"LOS query, 10,000 random pairs: median {statistics.median(times) * 1e6:.1f} us, "
          f"mean {statistics.mean(times) * 1e6:.1f} us, p95 {sorted(times)[9500] * 1e6:.1f} us (target median <= 50 us)")
    # a section: the first one, 21 columns x 27 rows
    if m.doc.sections:
        c0, c1 = m.section_columns(m.doc.sections[0].name)
        name = m.doc.sections[0].name
    else:
        c0, c1, name = m.first_column, m.last_column, "whole map"
    sec = [h for h in hexes if c0 <= h.col <= c1]
    t0 = time.perf_counter()
    clear = 0
    for a in sec:
        for b in sec:
            if a != b and line_of_sight(m, a, b).clear:
                clear += 1
    dt = time.perf_counter() - t0
    n = len(sec) * (len(sec) - 1)
    print(f"full LOS table of {name} ({len(sec)} hexes, {n:,} ordered pairs, cold line cache for new "
          f"displacements): {dt:.2f} s, {clear / n:.0%} clear (target <= 10 s)")


if __name__ == "__main__":
    main()
