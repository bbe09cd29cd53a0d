"""Time to load and validate a full 61 x 27 mapsheet (target <= 0.5 s).

Uses the shipped mapsheet when present, else a synthetic full sheet with every hex listed.
Prints figures (each also as a multiple of the yardstick of ``benchmarks/yardstick.py``, timed in
the same run); asserts nothing.  Run: .venv/bin/python benchmarks/map_load.py
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.yardstick import Yardstick  # noqa: E402
from maps.mapfile import load_map  # noqa: E402

SHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet.json"


def synthetic_sheet(path: Path) -> None:
    rnd = random.Random(1)
    hexes = []
    for c in range(10, 71):
        for r in range(1, 28):
            hexes.append({"id": f"{c:02d}{r:02d}", "trees": rnd.choice([0, 0, 0, 1, 2, 3]),
                          "level": rnd.choice([0, 0, 0, 1]), "terrain": rnd.choice(["clear"] * 9 + ["marsh"])})
    buildings = []
    for i in range(40):
        c, r = rnd.randint(11, 69), rnd.randint(2, 26)
        x, y = 3 * c, 2 * r + (c & 1)
        buildings.append({"id": f"B{i}", "polygon": [[x - 1, y - 0.6], [x + 1, y - 0.6], [x + 1, y + 0.6], [x - 1, y + 0.6]]})
    doc = {"format": "ironcross-map", "version": 1, "name": "synthetic sheet",
           "extent": {"first_column": 10, "last_column": 70, "first_row": 1, "last_row": 27},
           "sections": [{"name": "Map 1", "first_column": 10, "last_column": 30}],
           "hexes": hexes, "buildings": buildings,
           "roads": [[f"20{r:02d}" for r in range(1, 28)]]}
    path.write_text(json.dumps(doc))


def main() -> None:
    ys = Yardstick.measure()
    print(ys.describe())
    if SHEET.exists():
        path, label = SHEET, "shipped mapsheet"
    else:
        path = Path(tempfile.mkdtemp()) / "sheet.json"
        synthetic_sheet(path)
        label = "synthetic 61 x 27 sheet"
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        m = load_map(path)
        times.append(time.perf_counter() - t0)
    print(f"map load + validate ({label}, {m.hex_count} hexes, {len(m.buildings)} buildings): "
          f"median {statistics.median(times) * 1000:.1f} ms = {ys.multiple(statistics.median(times)):.2f} yardsticks, "
          f"best {min(times) * 1000:.1f} ms = {ys.multiple(min(times)):.2f} yardsticks (target <= 500 ms)")


if __name__ == "__main__":
    main()
