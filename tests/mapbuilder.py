"""Build tiny maps for tests from a compact literal (in the spirit of MegaMek's LOS tests)."""

from __future__ import annotations

from typing import Any

from maps.hexmap import HexMap
from maps.mapfile import map_from_data


def make_map(
    cols: tuple[int, int] = (10, 20),
    rows: tuple[int, int] = (1, 10),
    *,
    trees: dict[str, int] | None = None,
    levels: dict[str, int] | None = None,
    marsh: list[str] | None = None,
    buildings: dict[str, list[tuple[float, float]]] | None = None,
    roads: list[list[str]] | None = None,
    gullies: list[list[str]] | None = None,
    features: dict[str, list[str]] | None = None,
    **extra: Any,
) -> HexMap:
    """A small map: ``trees={"1205": 2}``, ``levels={"1305": 1}``, ``marsh=["1105"]``,
    ``buildings={"B1": [(x, y), ...]}`` (lattice units), ``roads=[["1001", "1002"]]``."""
    recs: dict[str, dict[str, Any]] = {}
    for hid, n in (trees or {}).items():
        recs.setdefault(hid, {"id": hid})["trees"] = n
    for hid, n in (levels or {}).items():
        recs.setdefault(hid, {"id": hid})["level"] = n
    for hid in marsh or []:
        recs.setdefault(hid, {"id": hid})["terrain"] = "marsh"
    data = {
        "format": "ironcross-map",
        "version": 1,
        "name": "test map",
        "extent": {"first_column": cols[0], "last_column": cols[1], "first_row": rows[0], "last_row": rows[1]},
        "sections": [{"name": "All", "first_column": cols[0], "last_column": cols[1]}],
        "hexes": list(recs.values()),
        "buildings": [{"id": k, "polygon": [list(p) for p in v]} for k, v in (buildings or {}).items()],
        "roads": roads or [],
        "gullies": gullies or [],
        "features": [{"name": k, "kind": "hill" if k.startswith("Hill") else "area", "hexes": v}
                     for k, v in (features or {}).items()],
    }
    data.update(extra)
    return map_from_data(data, "<test map>")
