"""Building symbol shapes on the hex lattice.

A building symbol is a polygon in lattice map units (see :mod:`maps.hexgrid`). These functions
make the usual shapes: a symbol inset inside one hex or spanning several adjacent hexes (a
multi-hex building is one polygon), and the join of two symbols into one multi-hex building.
Coordinates are rounded to 1/1000 of a lattice unit so files stay readable and stable.
"""

from __future__ import annotations

from typing import Iterable

from shapely.geometry import Polygon
from shapely.ops import unary_union

from maps import hexgrid
from maps.hexgrid import Hex

__all__ = ["footprint", "join", "polygon_coords", "DEFAULT_INSET"]

#: How far (lattice units) a building symbol stands in from its hexes' edges.
DEFAULT_INSET = 0.35


def polygon_coords(poly: Polygon) -> list[list[float]]:
    """Exterior ring of ``poly`` as ``[[x, y], ...]`` (closing point dropped), rounded to 0.001."""
    return [[round(x, 3), round(y, 3)] for x, y in list(poly.exterior.coords)[:-1]]


def footprint(hexes: Iterable[Hex | str], inset: float = DEFAULT_INSET) -> Polygon:
    """A building symbol covering ``hexes`` (adjacent, forming one connected group).

    The union of the hex polygons shrunk by ``inset`` lattice units (mitred corners), so a
    multi-hex building is one polygon and a single-hex one a smaller hexagon inside its hex.
    Raises ``ValueError`` when the hexes are not one connected group.
    """
    hs = [h if isinstance(h, Hex) else hexgrid.parse_hex_id(h) for h in hexes]
    if not hs:
        raise ValueError("a building needs at least one hex")
    shape = unary_union([hexgrid.hex_polygon(h) for h in hs]).buffer(-inset, join_style="mitre")
    if shape.geom_type != "Polygon":
        raise ValueError(f"hexes {[h.id for h in hs]} do not form one connected building")
    return Polygon(polygon_coords(shape))


def join(a: Polygon, b: Polygon, inset: float = DEFAULT_INSET) -> Polygon:
    """Join two building symbols in adjacent hexes into one multi-hex symbol.

    The gap between them is bridged by the shrunk union of the hexes they occupy.
    Raises ``ValueError`` if the result is not one polygon (the symbols are not adjacent).
    """
    hexes = set()
    for poly in (a, b):
        minx, miny, maxx, maxy = poly.bounds
        for c in range(int(minx // 3) - 1, int(maxx // 3) + 2):
            for r in range(int(miny // 2) - 1, int(maxy // 2) + 2):
                h = Hex(c, r)
                if poly.intersection(hexgrid.hex_polygon(h)).area > 1e-9:
                    hexes.add(h)
    shape = unary_union([a, b, footprint(hexes, inset)]) if len(hexes) > 1 else unary_union([a, b])
    if shape.geom_type != "Polygon":
        raise ValueError("the two buildings are not in adjacent hexes")
    return Polygon(polygon_coords(shape))
