"""Hex grid mathematics for the Iron Cross mapsheet.

Conventions (fixed here, derived everywhere else):

* **Hex ids** are the printed four-digit strings ``CCRR``: column ``CC`` and row ``RR``
  (``"4307"`` is column 43, row 7). :class:`Hex` holds the two integers.
* **Orientation**: flat-topped hexes stand in vertical columns; row 01 is at the top edge of
  the sheet and rows grow downward. **Odd printed columns are shifted down half a hex**
  ("odd-q"), so ``2913`` and ``3014`` are adjacent (the east-west road of Map 1 runs
  through both).
* **Cube coordinates** ``(x, y, z)`` with ``x + y + z == 0``: ``x = col``,
  ``z = row - (col - (col & 1)) // 2``, ``y = -x - z``. All hex maths (neighbours,
  distance, lines) is done there; offsets only at the edges.
* **Map units (the lattice)**: geometry uses an integer lattice in which every hex centre and
  every hex vertex has integer coordinates, so two hexes share bit-identical vertices and
  shapely predicates on them are exact. The centre of hex (col, row) is
  ``X = 3 * col``, ``Y = 2 * row + (col & 1)`` (Y grows downward, like rows). Its vertices
  are ``(X±2, Y)`` and ``(X±1, Y±1)``. One lattice unit is ``5/sqrt(3)`` m (about 2.887 m)
  horizontally and 5 m vertically: a hex is 10 m across flats (rule 2.1), i.e. 2 lattice
  units tall. Renderers scale X by ``sqrt(3)/... `` (see :data:`X_SCALE_M`) to draw true hexes.
* **Hexsides** are numbered 1-6 clockwise from the top of the sheet:
  1 = top (N on the sheet), 2 = upper right, 3 = lower right, 4 = bottom, 5 = lower left,
  6 = upper left. ``neighbour(h, s)`` is the hex across hexside ``s`` (used for facing, 8.7).
  These are *sheet* directions; compass words in scenarios go through each scenario's
  north indicator, not through these numbers.
* **Range** (11.2) counts the target hex and not the firer's hex: it is :func:`distance`.

Lines between hex centres (10.3) are computed exactly with rational arithmetic in cube space:
:func:`line_hexes` returns every hex the segment touches, in order, and says whether the
segment crosses its interior, runs along one of its hexsides (10.31 b: both hexes of that
hexside are reported) or only touches it at a vertex.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Iterator, Literal, NamedTuple

__all__ = [
    "Hex",
    "HexIdError",
    "parse_hex_id",
    "hex_id",
    "to_cube",
    "from_cube",
    "HEXSIDES",
    "neighbour",
    "neighbours",
    "hexside_between",
    "distance",
    "centre",
    "vertices",
    "hex_polygon",
    "point_to_hex",
    "ring",
    "area",
    "LineHex",
    "line_hexes",
    "X_SCALE_M",
    "Y_SCALE_M",
]

#: Metres per lattice unit along X (columns) and Y (rows). A hex is 10 m across flats (2.1).
X_SCALE_M: float = 5.0 / math.sqrt(3.0)
Y_SCALE_M: float = 5.0

_HEX_ID_RE = re.compile(r"^(\d{2})(\d{2})$")


class HexIdError(ValueError):
    """A hex id is not four digits ``CCRR`` (or lies outside the map where that is checked)."""


class Hex(NamedTuple):
    """A hex by printed column and row, e.g. ``Hex(43, 7)`` is hex ``"4307"``."""

    col: int
    row: int

    @property
    def id(self) -> str:
        """The printed id ``CCRR``."""
        return hex_id(self.col, self.row)

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.id


def parse_hex_id(text: str) -> Hex:
    """Parse a printed hex id ``"CCRR"`` into a :class:`Hex`.

    Raises :class:`HexIdError` when ``text`` is not exactly four digits.
    """
    if not isinstance(text, str):
        raise HexIdError(f"hex id must be a string of four digits, got {text!r}")
    m = _HEX_ID_RE.match(text)
    if not m:
        raise HexIdError(f"hex id {text!r} is not four digits CCRR")
    return Hex(int(m.group(1)), int(m.group(2)))


def hex_id(col: int, row: int) -> str:
    """The printed id of (col, row): ``hex_id(43, 7) == "4307"``.

    Raises :class:`HexIdError` when either number does not fit in two digits.
    """
    if not (0 <= col <= 99 and 0 <= row <= 99):
        raise HexIdError(f"column {col} / row {row} do not fit a four-digit hex id")
    return f"{col:02d}{row:02d}"


def to_cube(h: Hex) -> tuple[int, int, int]:
    """Cube coordinates (x, y, z) of a hex (odd-q offset, see the module docstring)."""
    x = h.col
    z = h.row - (h.col - (h.col & 1)) // 2
    return (x, -x - z, z)


def from_cube(x: int, y: int, z: int) -> Hex:
    """The hex at cube coordinates (x, y, z); raises ``ValueError`` unless x + y + z == 0."""
    if x + y + z != 0:
        raise ValueError(f"cube coordinates ({x}, {y}, {z}) do not sum to zero")
    return Hex(x, z + (x - (x & 1)) // 2)


# Cube direction per hexside 1..6 (clockwise from the top of the sheet, Y downward).
_CUBE_DIRS: dict[int, tuple[int, int, int]] = {
    1: (0, 1, -1),   # top
    2: (1, 0, -1),   # upper right
    3: (1, -1, 0),   # lower right
    4: (0, -1, 1),   # bottom
    5: (-1, 0, 1),   # lower left
    6: (-1, 1, 0),   # upper left
}

#: Hexside numbers in clockwise order from the top of the sheet.
HEXSIDES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def neighbour(h: Hex, side: int) -> Hex:
    """The hex across hexside ``side`` (1-6, clockwise from the top of the sheet)."""
    try:
        dx, dy, dz = _CUBE_DIRS[side]
    except KeyError:
        raise ValueError(f"hexside must be 1-6, got {side!r}") from None
    x, y, z = to_cube(h)
    return from_cube(x + dx, y + dy, z + dz)


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours of ``h`` in hexside order 1..6 (may lie off any particular map)."""
    x, y, z = to_cube(h)
    return [from_cube(x + d[0], y + d[1], z + d[2]) for d in _CUBE_DIRS.values()]


def hexside_between(a: Hex, b: Hex) -> int | None:
    """The hexside number of ``a`` that ``b`` lies across, or None if they are not adjacent."""
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    d = (bx - ax, by - ay, bz - az)
    for side, v in _CUBE_DIRS.items():
        if v == d:
            return side
    return None


def distance(a: Hex, b: Hex) -> int:
    """Hex distance between two hexes: the range of 11.2 (target hex counted, firer's not)."""
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def centre(h: Hex) -> tuple[int, int]:
    """Centre of ``h`` in integer lattice map units ``(X, Y)``."""
    return (3 * h.col, 2 * h.row + (h.col & 1))


_VERTEX_OFFSETS: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


def vertices(h: Hex) -> list[tuple[int, int]]:
    """The six vertices of ``h`` in lattice units, clockwise on the sheet from the right vertex.

    Vertices are integers, so adjacent hexes share bit-identical corners.
    """
    cx, cy = centre(h)
    return [(cx + dx, cy + dy) for dx, dy in _VERTEX_OFFSETS]


def hex_polygon(h: Hex):
    """The hex as a shapely ``Polygon`` in lattice map units."""
    from shapely.geometry import Polygon

    return Polygon(vertices(h))


def point_to_hex(x: float, y: float) -> Hex:
    """The hex containing the point ``(x, y)`` in lattice map units.

    Points exactly on a hexside go to one of the two hexes deterministically.
    """
    # lattice -> fractional cube: col = X / 3; axial r = (Y - col) / 2 - ... derive from centre formula.
    # centre Y = 2*row + (col&1) and z = row - (col - (col&1))/2  =>  Y = 2*z + col  (for integer hexes).
    fx = x / 3.0
    fz = (y - fx) / 2.0
    fy = -fx - fz
    rx, ry, rz = round(fx), round(fy), round(fz)
    dx, dy, dz = abs(rx - fx), abs(ry - fy), abs(rz - fz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return from_cube(int(rx), int(ry), int(rz))


def ring(h: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``h`` (radius 0 gives ``[h]``), in a fixed order."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [h]
    x, y, z = to_cube(h)
    # start at the hex `radius` steps across hexside 5 (lower left), then walk sides 1..6
    d5 = _CUBE_DIRS[5]
    cx, cy, cz = x + d5[0] * radius, y + d5[1] * radius, z + d5[2] * radius
    out: list[Hex] = []
    for side in (1, 2, 3, 4, 5, 6):
        d = _CUBE_DIRS[side]
        for _ in range(radius):
            out.append(from_cube(cx, cy, cz))
            cx, cy, cz = cx + d[0], cy + d[1], cz + d[2]
    return out


def area(h: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``h`` (1, 7, 19, ... hexes), centre first, ring by ring."""
    out: list[Hex] = []
    for r in range(radius + 1):
        out.extend(ring(h, r))
    return out


# --------------------------------------------------------------------------------------------
# Exact lines between hex centres
# --------------------------------------------------------------------------------------------

Contact = Literal["interior", "hexside", "vertex"]


@dataclass(frozen=True, slots=True)
class LineHex:
    """One hex met by a centre-to-centre line.

    ``t_in``/``t_out`` are the fractions (0..1) of the line, from the first hex's centre, at
    which the line enters and leaves the closed hex. ``contact`` is ``"interior"`` when the
    line crosses the hex's interior, ``"hexside"`` when it runs along one of its hexsides
    (``partner`` is then the hex on the other side of that hexside, also reported), and
    ``"vertex"`` when it only touches one corner.
    """

    hex: Hex
    t_in: Fraction
    t_out: Fraction
    contact: Contact
    partner: Hex | None = None

    @property
    def id(self) -> str:
        return self.hex.id


def _interval(a0: int, da: int) -> tuple[Fraction, Fraction] | None:
    """t-range where -1 <= a0 + t*da <= 1 (a0, da integers); None when empty."""
    if da == 0:
        return (Fraction(-10**9), Fraction(10**9)) if -1 <= a0 <= 1 else None
    lo = Fraction(-1 - a0, da)
    hi = Fraction(1 - a0, da)
    if lo > hi:
        lo, hi = hi, lo
    return (lo, hi)


def _cell_interval(
    ax: int, ay: int, az: int, dx: int, dy: int, dz: int, h: tuple[int, int, int]
) -> tuple[Fraction, Fraction, list[int]] | None:
    """Closed t-interval of the segment inside cube cell ``h`` and the constraints held at ±1.

    The hexagon of cube hex h is {p : |(px-py)-(hx-hy)| <= 1, |(py-pz)-(hy-hz)| <= 1,
    |(pz-px)-(hz-hx)| <= 1} (the Voronoi cell of the lattice).
    """
    hx, hy, hz = h
    lo, hi = Fraction(0), Fraction(1)
    on_edge: list[int] = []
    for k, (a0, da) in enumerate((
        ((ax - ay) - (hx - hy), dx - dy),
        ((ay - az) - (hy - hz), dy - dz),
        ((az - ax) - (hz - hx), dz - dx),
    )):
        iv = _interval(a0, da)
        if iv is None:
            return None
        lo, hi = max(lo, iv[0]), min(hi, iv[1])
        if lo > hi:
            return None
        if da == 0 and abs(a0) == 1:
            on_edge.append(k)
    return lo, hi, on_edge


@lru_cache(maxsize=65536)
def _relative_line(parity: int, dcol: int, drow: int) -> tuple[tuple[int, int, Fraction, Fraction, str, int, int], ...]:
    """Line from the hex (parity, 0) to (parity + dcol, drow) as offsets; cached per displacement.

    The hex lattice is invariant under translation by two columns, so every line with the same
    start-column parity and the same displacement meets the same hexes up to translation.
    Returns tuples (dcol, drow, t_in, t_out, contact, partner_dcol, partner_drow).
    """
    start = Hex(parity, 0) if parity else Hex(0, 0)
    a = to_cube(start)
    b = to_cube(Hex(start.col + dcol, start.row + drow))
    d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    n = max(abs(d[0]), abs(d[1]), abs(d[2]))
    # candidate cells: rounded samples and their neighbours (the supercover stays within 1)
    cands: set[tuple[int, int, int]] = set()
    for i in range(n + 1):
        for eps in (Fraction(0),):
            t = Fraction(i, n) if n else Fraction(0)
            fx, fy, fz = a[0] + d[0] * t, a[1] + d[1] * t, a[2] + d[2] * t
            rx, ry, rz = round(fx), round(fy), round(fz)
            ex, ey, ez = abs(rx - fx), abs(ry - fy), abs(rz - fz)
            if ex > ey and ex > ez:
                rx = -ry - rz
            elif ey > ez:
                ry = -rx - rz
            else:
                rz = -rx - ry
            c = (int(rx), int(ry), int(rz))
            cands.add(c)
            for v in _CUBE_DIRS.values():
                cands.add((c[0] + v[0], c[1] + v[1], c[2] + v[2]))
    met: list[tuple[Fraction, Fraction, tuple[int, int, int], str, tuple[int, int, int] | None]] = []
    for c in cands:
        iv = _cell_interval(a[0], a[1], a[2], d[0], d[1], d[2], c)
        if iv is None:
            continue
        lo, hi, on_edge = iv
        if lo == hi:
            met.append((lo, hi, c, "vertex", None))
        elif on_edge:
            # the segment lies on the hexside given by constraint on_edge[0] at value ±1
            k = on_edge[0]
            hx, hy, hz = c
            # value of the constraint function for this cell
            if k == 0:
                val = (a[0] - a[1]) - (hx - hy)
                step = (1, -1, 0) if val > 0 else (-1, 1, 0)
            elif k == 1:
                val = (a[1] - a[2]) - (hy - hz)
                step = (0, 1, -1) if val > 0 else (0, -1, 1)
            else:
                val = (a[2] - a[0]) - (hz - hx)
                step = (-1, 0, 1) if val > 0 else (1, 0, -1)
            partner = (hx + step[0], hy + step[1], hz + step[2])
            met.append((lo, hi, c, "hexside", partner))
        else:
            met.append((lo, hi, c, "interior", None))
    # order along the line; ties (the two hexes of a hexside, vertex touches) by sheet position
    met.sort(key=lambda m: (m[0], m[1], from_cube(*m[2])))
    out = []
    for lo, hi, c, contact, partner in met:
        h = from_cube(*c)
        p = from_cube(*partner) if partner is not None else None
        out.append((
            h.col - start.col, h.row - start.row, lo, hi, contact,
            (p.col - start.col) if p else 0, (p.row - start.row) if p else 0,
        ))
    return tuple(out)


def line_hexes(a: Hex, b: Hex, *, include_vertex_touches: bool = True) -> list[LineHex]:
    """Every hex the straight line from the centre of ``a`` to the centre of ``b`` touches.

    The list is ordered from ``a`` to ``b`` (by where the line enters each hex), starts with
    ``a`` and ends with ``b``. Where the line runs along a hexside both hexes of that hexside
    are listed, each with ``contact == "hexside"`` and the other as ``partner`` (10.31 b).
    Hexes whose corner alone is touched have ``contact == "vertex"`` and are left out when
    ``include_vertex_touches`` is False.

    Exact: computed with rational arithmetic, never by sampling or an epsilon nudge.
    The result for a displacement is cached, so repeated queries are cheap.
    """
    if a == b:
        return [LineHex(a, Fraction(0), Fraction(1), "interior")]
    rel = _relative_line(a.col & 1, b.col - a.col, b.row - a.row)
    out: list[LineHex] = []
    for dc, dr, lo, hi, contact, pdc, pdr in rel:
        if contact == "vertex" and not include_vertex_touches:
            continue
        partner = Hex(a.col + pdc, a.row + pdr) if contact == "hexside" else None
        out.append(LineHex(Hex(a.col + dc, a.row + dr), lo, hi, contact, partner))  # type: ignore[arg-type]
    return out


def iter_block(first_col: int, last_col: int, first_row: int, last_row: int) -> Iterator[Hex]:
    """Every hex of a rectangular block of columns and rows, column by column."""
    for c in range(first_col, last_col + 1):
        for r in range(first_row, last_row + 1):
            yield Hex(c, r)


def parse_hex_ids(texts: Iterable[str]) -> list[Hex]:
    """Parse many hex ids; raises :class:`HexIdError` on the first bad one."""
    return [parse_hex_id(t) for t in texts]
