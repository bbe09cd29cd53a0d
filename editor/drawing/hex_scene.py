"""Hexes in scene units: the affine map from the integer lattice of :mod:`maps.hexgrid` to the
scene (a pure scale, so neighbouring hexes share bit-identical corners) and back, hex centres,
hexagons and hexside vertices."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPolygonF, QTransform

from maps import hexgrid
from maps.hexgrid import Hex
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y

__all__ = ["lattice_to_scene", "scene_to_lattice", "hex_at_scene", "hex_centre_scene"]


# ------------------------------------------------------------------------------------------
# Lattice <-> scene
# ------------------------------------------------------------------------------------------
def lattice_to_scene() -> QTransform:
    """The affine transform from lattice map units to scene units (a pure scale)."""
    return QTransform.fromScale(SCENE_PER_X, SCENE_PER_Y)


def scene_to_lattice(x: float, y: float) -> tuple[float, float]:
    """Lattice map units of the scene point (x, y)."""
    return (x / SCENE_PER_X, y / SCENE_PER_Y)


def hex_at_scene(x: float, y: float) -> Hex:
    """The hex containing the scene point (x, y) (it may lie off any particular map)."""
    return hexgrid.point_to_hex(*scene_to_lattice(x, y))


def _pt(x: float, y: float) -> QPointF:
    return QPointF(x * SCENE_PER_X, y * SCENE_PER_Y)


def _xy(x: float, y: float) -> tuple[float, float]:
    return (x * SCENE_PER_X, y * SCENE_PER_Y)


def hex_centre_scene(h: Hex) -> QPointF:
    """The centre of hex ``h`` in scene units."""
    return _pt(*hexgrid.centre(h))


def _hex_polygon(h: Hex) -> QPolygonF:
    return QPolygonF([_pt(x, y) for x, y in hexgrid.vertices(h)])


# Offsets of the vertices of a hex from its centre, in lattice units (from hexgrid itself).
_ORIGIN = Hex(0, 0)
_LOCAL_VERTICES: tuple[tuple[int, int], ...] = tuple(
    (x - hexgrid.centre(_ORIGIN)[0], y - hexgrid.centre(_ORIGIN)[1]) for x, y in hexgrid.vertices(_ORIGIN))


@lru_cache(maxsize=None)
def _neighbour_offsets(parity: int) -> dict[int, tuple[int, int]]:
    """(column, row) offsets of the neighbour across each hexside of a hex in a column of
    ``parity`` (0 even, 1 odd), from :func:`maps.hexgrid.neighbour`."""
    h = Hex(2 + parity, 2)
    return {side: (nb.col - h.col, nb.row - h.row)
            for side in hexgrid.HEXSIDES for nb in [hexgrid.neighbour(h, side)]}


def _side_vertices(h: Hex, side: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two lattice vertices of hexside ``side`` (1 = top, clockwise) of ``h``."""
    v = hexgrid.vertices(h)  # clockwise from the right vertex: R, LR, LL, L, UL, UR
    return v[(side + 3) % 6], v[(side + 4) % 6]
