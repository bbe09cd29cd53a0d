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


#: Valid ids already parsed, and the ids of hexes already printed (each at most 10,000 entries):
#: the engine and the players name hexes by id everywhere, so each is parsed or printed once.
_PARSED: dict[str, "Hex"] = {}
_IDS: dict[tuple[int, int], str] = {}


class HexIdError(ValueError):
    """A hex id is not four digits ``CCRR`` (or lies outside the map where that is checked)."""


class Hex(NamedTuple):
    """A hex by printed column and row, e.g. ``Hex(43, 7)`` is hex ``"4307"``."""

    col: int
    row: int

    @property
    def id(self) -> str:
        """The printed id ``CCRR``."""
        t = _IDS.get(self)
        if t is None:
            t = _IDS[self] = hex_id(self.col, self.row)
        return t

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.id


def parse_hex_id(text: str) -> Hex:
    """Parse a printed hex id ``"CCRR"`` into a :class:`Hex`.

    Raises :class:`HexIdError` when ``text`` is not exactly four digits.
    """
    if text.__class__ is str:
        h = _PARSED.get(text)
        if h is not None:
            return h
    if not isinstance(text, str):
        raise HexIdError(f"hex id must be a string of four digits, got {text!r}")
    m = _HEX_ID_RE.match(text)
    if not m:
        raise HexIdError(f"hex id {text!r} is not four digits CCRR")
    h = Hex(int(m.group(1)), int(m.group(2)))
    if text.__class__ is str:
        _PARSED[text] = h  # at most 10,000 valid ids: parsed once per process
    return h


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


#: hex -> its six neighbours (a tuple), computed once per hex and process: the engine, the view
#: and the AI ask for the same few thousand hexes' neighbours again and again
_NEIGHBOURS: dict[tuple[int, int], tuple[Hex, ...]] = {}


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours of ``h`` in hexside order 1..6 (may lie off any particular map); a new
    list each call (the caller may change it)."""
    t = _NEIGHBOURS.get(h)
    if t is None:
        x, y, z = to_cube(h)
        t = tuple(from_cube(x + d[0], y + d[1], z + d[2]) for d in _CUBE_DIRS.values())
        if len(_NEIGHBOURS) < 20_000:  # ids CCRR: at most 10,000 hexes on any map
            _NEIGHBOURS[Hex(h[0], h[1])] = t
    return list(t)


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
    ac, ar = a
    bc, br = b
    dx = ac - bc  # cube x difference
    dz = (ar - (ac - (ac & 1)) // 2) - (br - (bc - (bc & 1)) // 2)  # cube z difference
    dy = dx + dz  # minus the cube y difference
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    if dz < 0:
        dz = -dz
    return dx if dx >= dy and dx >= dz else dy if dy >= dz else dz


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


_NEIGHBOURHOOD = ((0, 0, 0),) + tuple(_CUBE_DIRS.values())


@lru_cache(maxsize=65536)
def _relative_line(parity: int, dcol: int, drow: int) -> tuple[tuple, ...]:
    """Line from hex (parity, 0) to (parity + dcol, drow) as offsets; cached per displacement.

    The hex lattice is invariant under translation by two columns, so every line with the same
    start-column parity and the same displacement meets the same hexes up to translation.

    Exact: the hexagon of cube hex h is the set of points p with |(px-py)-(hx-hy)| <= 1,
    |(py-pz)-(hy-hz)| <= 1 and |(pz-px)-(hz-hx)| <= 1 (the Voronoi cell of the lattice). Along
    the segment P(t) = A + t*D each constraint bounds t to an interval with a denominator dividing
    ``den`` = lcm of the non-zero |D_k| differences, so ``t * den`` is an integer at every bound and
    all comparisons are integer comparisons. The cells examined are the cube-rounded points at
    every half step of the line and their neighbours.

    Returns tuples (dcol, drow, t_in, t_out, contact, partner_dcol, partner_drow, n_in, n_out, den)
    ordered along the line; t_in/t_out are floats, n_in/den and n_out/den the exact values.
    """
    start = Hex(parity, 0)
    a0, a1, a2 = to_cube(start)
    b0, b1, b2 = to_cube(Hex(parity + dcol, drow))
    d0, d1, d2 = b0 - a0, b1 - a1, b2 - a2
    n = max(abs(d0), abs(d1), abs(d2))
    # candidate cells: cube-rounded samples (2n + 1 of them; floats as numpy would compute them,
    # ties to even, the coordinate furthest from its rounding replaced) and their neighbours
    steps = max(2 * n, 1)
    bases: set[tuple[int, int, int]] = set()
    for i in range(steps + 1):
        t = i / steps
        f0, f1, f2 = a0 + d0 * t, a1 + d1 * t, a2 + d2 * t
        r0, r1, r2 = round(f0), round(f1), round(f2)
        e0, e1, e2 = abs(r0 - f0), abs(r1 - f1), abs(r2 - f2)
        if e0 >= e1 and e0 >= e2:
            r0 = -(r1 + r2)
        elif e1 >= e2:
            r1 = -(r0 + r2)
        else:
            r2 = -(r0 + r1)
        bases.add((r0, r1, r2))
    cands = {(x + nx, y + ny, z + nz) for x, y, z in bases for nx, ny, nz in _NEIGHBOURHOOD}
    da = (d0 - d1, d1 - d2, d2 - d0)
    den = 1
    for v in da:
        if v:
            den = den * abs(v) // math.gcd(den, abs(v))
    ad0, ad1, ad2 = a0 - a1, a1 - a2, a2 - a0
    s0, s1, s2 = (den // v if v else 0 for v in da)
    met = []
    for c in cands:
        cx, cy, cz = c
        col3 = (ad0 - (cx - cy), ad1 - (cy - cz), ad2 - (cz - cx))
        lo, hi = 0, den
        on_edge = -1
        ok = True
        for k, sk in ((0, s0), (1, s1), (2, s2)):
            col = col3[k]
            if not sk:  # the line runs parallel to this pair of hexsides
                if col > 1 or col < -1:
                    ok = False
                    break
                if on_edge < 0 and (col == 1 or col == -1):
                    on_edge = k
                continue
            lo_k = (-1 - col) * sk
            hi_k = (1 - col) * sk
            if lo_k > hi_k:
                lo_k, hi_k = hi_k, lo_k
            if lo_k > lo:
                lo = lo_k
            if hi_k < hi:
                hi = hi_k
            if lo > hi:
                ok = False
                break
        if not ok:
            continue
        if lo == hi:
            met.append((lo, hi, c, "vertex", None))
        elif on_edge >= 0:
            step = _EDGE_STEP[on_edge]
            if col3[on_edge] < 0:
                step = (-step[0], -step[1], -step[2])
            met.append((lo, hi, c, "hexside", (cx + step[0], cy + step[1], cz + step[2])))
        else:
            met.append((lo, hi, c, "interior", None))
    met.sort(key=lambda m: (m[0], m[1], from_cube(*m[2])))
    out = []
    for li, hi_, c, contact, partner in met:
        h = from_cube(*c)
        p = from_cube(*partner) if partner is not None else None
        out.append((
            h.col - start.col, h.row - start.row, li / den, hi_ / den, contact,
            (p.col - start.col) if p else 0, (p.row - start.row) if p else 0, li, hi_, den,
        ))
    return tuple(out)


_EDGE_STEP = {0: (1, -1, 0), 1: (0, 1, -1), 2: (-1, 0, 1)}


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
    for dc, dr, _lo, _hi, contact, pdc, pdr, n_in, n_out, den in rel:
        if contact == "vertex" and not include_vertex_touches:
            continue
        partner = Hex(a.col + pdc, a.row + pdr) if contact == "hexside" else None
        out.append(LineHex(Hex(a.col + dc, a.row + dr), Fraction(n_in, den), Fraction(n_out, den), contact,  # type: ignore[arg-type]
                           partner))
    return out


def iter_block(first_col: int, last_col: int, first_row: int, last_row: int) -> Iterator[Hex]:
    """Every hex of a rectangular block of columns and rows, column by column."""
    for c in range(first_col, last_col + 1):
        for r in range(first_row, last_row + 1):
            yield Hex(c, r)


def parse_hex_ids(texts: Iterable[str]) -> list[Hex]:
    """Parse many hex ids; raises :class:`HexIdError` on the first bad one."""
    return [parse_hex_id(t) for t in texts]
