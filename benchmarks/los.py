"""LOS figures (targets: one query on a precomputed map, median <= 5 us; the full terrain LOS
table of Map 1 <= 3 s; an exact query <= 50 us with the line cache warm).

Prints, on the shipped corrected mapsheet, one core:

1. the terrain LOS table of Map 1 (every ordered pair of its 567 hexes, firer UP and DOWN) built
   from nothing (exact lines cold), built again (lines warm), and loaded from the disk cache;
2. the median (and p95) time of one LOS query with its clear/blocked and its tree/AFV/wreck count
   (``LosOracle.los``: no AFVs or wrecks, and with 12 hexes holding AFVs/wrecks, where lines
   meeting them go to line_of_sight), and of the bare table lookup (``LosTable.clear``), over
   10,000 random pairs;
3. with ``--exact``: the exact ``line_of_sight`` per query, line cache cold and warm, and the old
   pair-by-pair table of Map 1 (slow: about 15 s).

Every time is also printed as a multiple of the yardstick (``benchmarks/yardstick.py``), timed at
the start of the same run (a query's microseconds as millionths of a yardstick, "uys").

Asserts nothing. Run: .venv/bin/python benchmarks/los.py [--quick] [--exact] [--pairs N]
``--quick`` uses 2,000 pairs and skips the cold build (for a smoke run).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.yardstick import Yardstick  # noqa: E402
from maps import hexgrid  # noqa: E402
from maps import los_table as lt  # noqa: E402
from maps.hexgrid import Hex  # noqa: E402
from maps.los import HexOccupancy, line_of_sight, los_table, warm_line_cache  # noqa: E402
from maps.mapfile import load_map  # noqa: E402


def _clear_line_caches() -> None:
    from maps import los

    hexgrid._relative_line.cache_clear()
    los._relative.cache_clear()


def _times(fn, pairs) -> tuple[float, float]:
    ts = []
    clock = time.perf_counter
    for a, b in pairs:
        t0 = clock()
        fn(a, b)
        ts.append(clock() - t0)
    ts.sort()
    return statistics.median(ts) * 1e6, ts[int(0.95 * len(ts))] * 1e6


def _uys(us: float, ys: Yardstick) -> str:
    """``us`` microseconds as millionths of the yardstick."""
    return f"{us / ys.seconds:.1f} uys"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2,000 pairs, no cold build")
    ap.add_argument("--exact", action="store_true", help="also time line_of_sight itself (slow)")
    ap.add_argument("--pairs", type=int, default=None, help="random pairs per query figure (default 10,000)")
    args = ap.parse_args()
    npairs = args.pairs or (2_000 if args.quick else 10_000)
    ys = Yardstick.measure()
    print(ys.describe())

    sheet = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
    m = load_map(sheet)
    c0, c1 = m.section_columns("Map 1")
    sec = [h for h in m.all_hexes() if c0 <= h.col <= c1]
    print(f"{sheet.name}: {m.hex_count} hexes, {len(m.buildings)} buildings; Map 1: {len(sec)} hexes, "
          f"{len(sec) * (len(sec) - 1):,} ordered pairs")
    line_of_sight(m, sec[0], sec[1])  # the terrain chart, the per-map geometry

    # 1. the table
    if not args.quick:
        _clear_line_caches()
        t0 = time.perf_counter()
        table = lt.build_los_table(m, sec)
        print(f"1. terrain LOS table of Map 1, built from nothing (exact lines cold): "
              f"{ys.fmt(time.perf_counter() - t0)} (target <= 3 s)")
    t0 = time.perf_counter()
    table = lt.build_los_table(m, sec)
    print(f"{'1. terrain LOS table of Map 1, built' if args.quick else '   built again'} (exact lines warm): "
          f"{ys.fmt(time.perf_counter() - t0)}; "
          f"{(table.flags_array & 1).sum() / (table.n * (table.n - 1)):.0%} of the pairs clear (firer UP)")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "los-map1.npz"
        table.save(path)
        t0 = time.perf_counter()
        lt.LosTable.load(path, table.key)
        dt = time.perf_counter() - t0
        print(f"   loaded from the disk cache: {dt * 1e3:.0f} ms = {ys.multiple(dt):.2f} yardsticks "
              f"({path.stat().st_size / 1e6:.2f} MB compressed)")

    # 2. queries on the precomputed map
    rnd = random.Random(2024)
    ids = [h.id for h in sec]
    pairs = [tuple(rnd.sample(ids, 2)) for _ in range(npairs)]
    oracle = lt.LosOracle(m, None, table)
    med, p95 = _times(lambda a, b: oracle.los(a, b).trees_afvs_wrecks, pairs)
    print(f"2. one LOS query on the precomputed map (LosOracle.los, {npairs:,} random pairs, no AFVs/wrecks): "
          f"median {med:.1f} us = {_uys(med, ys)}, p95 {p95:.1f} us = {_uys(p95, ys)} (target median <= 5 us)")
    occ = lt.FrozenOccupancy({hexgrid.parse_hex_id(h): HexOccupancy(afvs=rnd.randint(0, 1), wrecks=rnd.randint(0, 1))
                              for h in rnd.sample(ids, 12)})
    med1, p951 = _times(lambda a, b: oracle.los(a, b, occupancy=occ).trees_afvs_wrecks, pairs)
    exact = sum(not isinstance(oracle.los(a, b, occupancy=occ), lt.TableLos) for a, b in pairs)
    med, p95 = _times(lambda a, b: oracle.los(a, b, occupancy=occ).trees_afvs_wrecks, pairs)
    print(f"   with 12 hexes holding AFVs/wrecks ({exact / len(pairs):.0%} of the lines meet one and go to "
          f"line_of_sight): first time median {med1:.1f} us = {_uys(med1, ys)}, p95 {p951:.1f} us = {_uys(p951, ys)}; asked again "
          f"(exact answers cached) median {med:.1f} us = {_uys(med, ys)}, p95 {p95:.1f} us = {_uys(p95, ys)}")
    med, p95 = _times(lambda a, b: table.clear(a, b), pairs)
    print(f"   bare table lookup (LosTable.clear): median {med:.2f} us = {_uys(med, ys)}, p95 {p95:.2f} us = {_uys(p95, ys)}")

    # 3. the exact function
    if args.exact:
        hexes = [Hex(*hexgrid.parse_hex_id(h)) for h in ids]
        _clear_line_caches()
        med, p95 = _times(lambda a, b: line_of_sight(m, a, b), pairs)
        print(f"3. line_of_sight, cold line cache: median {med:.1f} us = {_uys(med, ys)}, p95 {p95:.1f} us = {_uys(p95, ys)}")
        _clear_line_caches()
        t0 = time.perf_counter()
        n = warm_line_cache(m)
        print(f"   exact lines for all {n:,} displacements of the sheet: {ys.fmt(time.perf_counter() - t0)}")
        from maps.los import _map_los

        _map_los(m).met.clear()  # the building geometry of lines already asked: not this figure
        med, p95 = _times(lambda a, b: line_of_sight(m, a, b), pairs)
        print(f"   line_of_sight, warm line cache: median {med:.1f} us = {_uys(med, ys)}, p95 {p95:.1f} us = {_uys(p95, ys)} "
              "(target <= 50 us)")
        _clear_line_caches()
        t0 = time.perf_counter()
        old = los_table(m, hexes)
        print(f"   pair-by-pair table of Map 1 with line_of_sight (maps.los.los_table, UP only): "
              f"{ys.fmt(time.perf_counter() - t0)}, {sum(old.values()) / len(old):.0%} clear")


if __name__ == "__main__":
    main()
