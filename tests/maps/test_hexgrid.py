"""Hex grid maths: ids, cube coordinates, neighbours, distance (11.2), lines (10.3, 10.31 b)."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from maps import hexgrid
from maps.hexgrid import Hex, centre, distance, hex_polygon, line_hexes, neighbours, parse_hex_id

hexes = st.builds(Hex, st.integers(10, 70), st.integers(1, 27))


def test_hex_id_format():
    assert parse_hex_id("4307") == Hex(43, 7)
    assert Hex(43, 7).id == "4307"
    for bad in ("430", "43070", "ab07", "", None, 4307):
        with pytest.raises(hexgrid.HexIdError):
            parse_hex_id(bad)  # type: ignore[arg-type]


@given(hexes)
def test_id_and_cube_round_trip(h):
    assert parse_hex_id(h.id) == h
    assert hexgrid.from_cube(*hexgrid.to_cube(h)) == h
    assert sum(hexgrid.to_cube(h)) == 0


def test_odd_columns_are_shifted_down():
    # the east-west road of Map 1 runs 2913 -> 3014: adjacent only with odd columns shifted down
    assert Hex(30, 14) in neighbours(Hex(29, 13))
    assert neighbours(Hex(43, 7))[0] == Hex(43, 6)  # hexside 1 is the top of the sheet
    assert neighbours(Hex(43, 7))[3] == Hex(43, 8)  # hexside 4 the bottom
    assert centre(Hex(43, 7))[1] > centre(Hex(42, 7))[1]  # odd column lower on the sheet


@given(hexes, hexes)
def test_distance_symmetric_and_zero_only_on_same_hex(a, b):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


def _bfs(a: Hex, b: Hex) -> int:
    seen = {a}
    q = deque([(a, 0)])
    while q:
        h, d = q.popleft()
        if h == b:
            return d
        for n in neighbours(h):
            if n not in seen and 0 <= n.col <= 80 and -5 <= n.row <= 35:
                seen.add(n)
                q.append((n, d + 1))
    raise AssertionError("unreachable")


@settings(max_examples=60, deadline=None)
@given(st.builds(Hex, st.integers(10, 25), st.integers(1, 12)), st.builds(Hex, st.integers(10, 25), st.integers(1, 12)))
def test_distance_is_shortest_neighbour_path(a, b):
    assert distance(a, b) == _bfs(a, b)


@given(hexes)
def test_neighbours_reciprocal_and_hexsides_opposite(h):
    for side, n in zip(hexgrid.HEXSIDES, neighbours(h)):
        assert distance(h, n) == 1
        assert h in neighbours(n)
        assert hexgrid.hexside_between(h, n) == side
        assert hexgrid.hexside_between(n, h) == (side + 2) % 6 + 1
        # adjacent hexes share exactly one edge, bit for bit
        shared = set(hexgrid.vertices(h)) & set(hexgrid.vertices(n))
        assert len(shared) == 2


def test_11_2_range_example_counts_target_not_firer():
    firer = Hex(30, 10)
    assert distance(firer, Hex(30, 17)) == 7
    assert distance(firer, Hex(30, 18)) == 8


@given(hexes)
def test_point_to_hex_centre_and_vertices(h):
    assert hexgrid.point_to_hex(*centre(h)) == h
    cx, cy = centre(h)
    for vx, vy in hexgrid.vertices(h):  # points just inside each corner
        assert hexgrid.point_to_hex(cx + 0.9 * (vx - cx), cy + 0.9 * (vy - cy)) == h


def test_rings_and_areas():
    h = Hex(40, 10)
    assert len(hexgrid.area(h, 1)) == 7
    assert len(hexgrid.area(h, 2)) == 19
    assert all(distance(h, x) == 3 for x in hexgrid.ring(h, 3))
    assert len(set(hexgrid.ring(h, 3))) == 18


def _counted(line):
    return [lh for lh in line if lh.contact != "vertex"]


@settings(max_examples=300, deadline=None)
@given(hexes, hexes)
def test_line_contiguous_starts_and_ends_at_the_hexes(a, b):
    line = line_hexes(a, b)
    assert line[0].hex == a and line[-1].hex == b
    counted = _counted(line)
    # contiguous: each counted hex after the first touches an earlier one
    for i, lh in enumerate(counted[1:], 1):
        assert any(distance(lh.hex, p.hex) <= 1 for p in counted[:i])
    # ordered along the line
    assert all(x.t_in <= y.t_in for x, y in zip(line, line[1:]))


@settings(max_examples=300, deadline=None)
@given(hexes, hexes)
def test_line_symmetric_between_directions(a, b):
    fwd = {(lh.hex, lh.contact) for lh in line_hexes(a, b)}
    back = {(lh.hex, lh.contact) for lh in line_hexes(b, a)}
    assert fwd == back


@settings(max_examples=200, deadline=None)
@given(hexes, hexes)
def test_line_agrees_with_shapely_geometry(a, b):
    """Every hex shapely says the segment touches is listed, with the same kind of contact."""
    assume(a != b)
    seg = LineString([centre(a), centre(b)])
    line = {lh.hex: lh for lh in line_hexes(a, b)}
    for c in range(min(a.col, b.col) - 1, max(a.col, b.col) + 2):
        for r in range(min(a.row, b.row) - 1, max(a.row, b.row) + 2):
            h = Hex(c, r)
            poly = hex_polygon(h)
            inter = seg.intersection(poly)
            if inter.is_empty:
                assert h not in line
                continue
            assert h in line, h
            if inter.length == 0:
                assert line[h].contact == "vertex"
            elif seg.intersection(poly.boundary).length > 0:
                assert line[h].contact == "hexside"
            else:
                assert line[h].contact == "interior"


def test_line_along_hexside_reports_both_hexes():
    # 1010 -> 1210 runs straight along the row: between 1010's right vertex and 1210's left
    # vertex it follows the hexside shared by 1109 and 1110
    line = line_hexes(Hex(10, 10), Hex(12, 10))
    sides = [lh for lh in line if lh.contact == "hexside"]
    assert {lh.hex for lh in sides} == {Hex(11, 9), Hex(11, 10)}
    assert {lh.partner for lh in sides} == {Hex(11, 9), Hex(11, 10)}


@settings(max_examples=200, deadline=None)
@given(hexes, st.integers(1, 6), st.integers(1, 8))
def test_hexside_lines_report_pairs(a, side, n):
    """Lines in the 12 hexside directions (two hexes 'over' a corner) always pair up hexsides."""
    # step two hexes in directions side and side+1 alternately: this line runs along hexsides
    b = a
    for _ in range(n):
        b = hexgrid.neighbour(hexgrid.neighbour(b, side), side % 6 + 1)
    line = line_hexes(a, b)
    sides = [lh for lh in line if lh.contact == "hexside"]
    assert len(sides) == 2 * n
    for lh in sides:
        assert lh.partner is not None
        assert any(o.hex == lh.partner and o.partner == lh.hex for o in sides)
