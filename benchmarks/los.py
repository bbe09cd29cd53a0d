"""LOS figures (issue targets: median query <= 50 us; full table of one section <= 10 s).

Prints, on the shipped corrected mapsheet: the time to compute the exact lines of every
displacement once (they are cached per displacement and reused by every query), the median time
of one LOS query over 10,000 random pairs with a cold and with a warm line cache, and the time for
the full LOS table of Map 1 (every ordered pair of its 567 hexes) on one core, line cache cold.
Asserts nothing.  Run: .venv/bin/python benchmarks/los.py
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from maps import hexgrid
from maps.los import line_of_sight, los_table, warm_line_cache
from maps.mapfile import load_map

ROOT = Path(__file__).resolve().parents[1]


def _clear_caches() -> None:
    hexgrid._relative_line.cache_clear()
    from maps import los

    los._relative.cache_clear()


def _median_query(m, pairs) -> tuple[float, float]:
    times = []
    for a, b in pairs:
        t0 = time.perf_counter()
        line_of_sight(m, a, b)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6, sorted(times)[int(0.95 * len(times))] * 1e6


def main() -> None:
    sheet = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
    m = load_map(sheet)
    hexes = list(m.all_hexes())
    rnd = random.Random(2024)
    pairs = [tuple(rnd.sample(hexes, 2)) for _ in range(10_000)]
    line_of_sight(m, *pairs[0])  # load the terrain chart, build per-map caches
    _clear_caches()
    med, p95 = _median_query(m, pairs)
    print(f"{sheet.name}: {m.hex_count} hexes, {len(m.buildings)} buildings")
    print(f"LOS query, 10,000 random pairs, cold line cache: median {med:.1f} us, p95 {p95:.1f} us")
    _clear_caches()
    t0 = time.perf_counter()
    n = warm_line_cache(m)
    print(f"exact lines for all {n:,} displacements of the sheet: {time.perf_counter() - t0:.2f} s (once per process)")
    med, p95 = _median_query(m, pairs)
    print(f"LOS query, 10,000 random pairs, warm line cache: median {med:.1f} us, p95 {p95:.1f} us (target median <= 50 us)")
    _clear_caches()
    c0, c1 = m.section_columns("Map 1")
    sec = [h for h in hexes if c0 <= h.col <= c1]
    t0 = time.perf_counter()
    table = los_table(m, sec)
    dt = time.perf_counter() - t0
    clear = sum(table.values())
    print(f"full LOS table of Map 1 ({len(sec)} hexes, {len(table):,} ordered pairs, firers UP, cold line cache): "
          f"{dt:.2f} s, {clear / len(table):.0%} clear (target <= 10 s)")


if __name__ == "__main__":
    main()
