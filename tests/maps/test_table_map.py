"""The painted map read as a table (maps/table_map.py): scale, areas, going, cover, LOS, obstacles.

The 20 mm rules (seeds/003_*) name their sections, not numbers; each test names the section it
serves. Most tests use a small synthetic strip (column 20, rows 1-16: the vertical line through
the column's centres crosses each hex's flat top and bottom), where every distance is easy to see:
at 4 inches per hex the centre of hex 20RR is at y = 4 * RR inches.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from maps import hexgrid
from maps.hexmap import HexMap
from maps.mapfile import load_map
from maps.model import Building, Extent, HexRecord, MapFile, Obstacle, Section, TankTraps
from maps.table_map import TableMap

DATA = Path(__file__).resolve().parents[2] / "maps" / "data"
S = 4.0


def strip(hexes=(), buildings=(), obstacles=(), tank_traps=(), roads=(), gullies=()) -> HexMap:
    return HexMap(MapFile(
        name="strip", extent=Extent(first_column=19, last_column=21, first_row=1, last_row=16),
        sections=[Section(name="A", first_column=19, last_column=20), Section(name="B", first_column=20, last_column=21)],
        hexes=[HexRecord(**h) for h in hexes], buildings=list(buildings), obstacles=list(obstacles),
        tank_traps=list(tank_traps), roads=[list(r) for r in roads], gullies=[list(g) for g in gullies]))


def at(t: TableMap, x: float, y: float) -> tuple[float, float]:
    """A point given in lattice map units, in table inches."""
    return t.to_table(x, y)


def row(t: TableMap, y_inches: float) -> tuple[float, float]:
    """The point of column 20's centre line at ``y_inches``."""
    return (t.hex_centre("2001")[0], y_inches)


# ------------------------------------------------------------------ scale

def test_scale_one_hex_is_the_stated_inches_across_flats():
    t = TableMap.from_map(load_map(DATA / "sample_village.json"), S)
    c = t.hex_centre("1506")
    for side in hexgrid.HEXSIDES:   # every neighbour's centre is one hex = S inches away
        n = hexgrid.neighbour(hexgrid.parse_hex_id("1506"), side)
        assert t.distance(c, t.hex_centre(n)) == pytest.approx(S)
    hexpoly = t._scaled(hexgrid.hex_polygon(hexgrid.parse_hex_id("1506")))
    minx, miny, maxx, maxy = hexpoly.bounds
    assert maxy - miny == pytest.approx(S)                      # across flats
    assert maxx - minx == pytest.approx(2 * S / math.sqrt(3))   # corner to corner
    assert t.from_table(*t.to_table(37.5, 11.25)) == pytest.approx((37.5, 11.25))
    assert t.hex_at(c) == hexgrid.parse_hex_id("1506")
    # 100 mm hexes are about 3.94 inches: distances scale with the stated scale
    t2 = TableMap.from_map(load_map(DATA / "sample_village.json"), 3.94)
    assert t2.distance(t2.hex_centre("1006"), t2.hex_centre("2005")) == pytest.approx(
        t.distance(c := t.hex_centre("1006"), t.hex_centre("2005")) * 3.94 / S)


def test_scale_must_be_positive_and_sections_known():
    m = load_map(DATA / "sample_village.json")
    for bad in (0, -4, float("nan")):
        with pytest.raises(ValueError, match="inches per hex"):
            TableMap.from_map(m, bad)
    with pytest.raises(ValueError, match="no section named 'North'.*'West', 'East'"):
        TableMap.from_map(m, S, sections=["North"])


def test_sections_make_the_table_and_clip_every_area():
    m = load_map(DATA / "sample_village.json")
    whole = TableMap.from_map(m, S)
    west = TableMap.from_map(m, S, sections=["West"])
    # the table of West is its columns 10-15: the centre of 1506 is on it, that of 1606 is not
    assert west.on_table(west.hex_centre("1506")) and not west.on_table(west.hex_centre("1606"))
    assert west.table.area == pytest.approx(whole.table.area * 6 / 12)
    # the same map point has the same inches on both tables (no offset per section)
    assert west.hex_centre("1204") == whole.hex_centre("1204")
    assert all(whole.table.covers(a.polygon) for a in whole.areas())
    assert all(west.table.covers(a.polygon) for a in west.areas())
    assert not any(a.kind == "hill" for a in west.areas())   # Hill A is east of column 15
    assert west.terrain_at(west.hex_centre("1706")) .on_table is False


# ------------------------------------------------------------------ areas

def test_woods_are_the_hexes_of_two_or_more_trees_merged_without_slivers():
    m = load_map(DATA / "sample_village.json")
    t = TableMap.from_map(m, S)
    hex_area = t._scaled(hexgrid.hex_polygon(hexgrid.parse_hex_id("1204"))).area
    assert len(t.woods) == 1   # 1204, 1304 and 1305 touch: one polygon, no gap along their sides
    w = t.woods[0]
    assert isinstance(w.polygon, Polygon) and not w.polygon.interiors
    assert w.polygon.area == pytest.approx(3 * hex_area)
    assert w.top == 0.5 and w.ground == 0
    # one tree symbol is scattered trees: soft cover, not woods, not difficult
    t1203 = t.terrain_at(t.hex_centre("1203"))
    assert t1203.trees and not t1203.woods and t1203.cover == "soft" and t1203.going == "cross_country"
    tw = t.terrain_at(t.hex_centre("1304"))
    assert tw.woods and tw.cover == "soft" and tw.going == "difficult"
    assert TableMap.from_map(m, S, woods_difficult=False).terrain_at(t.hex_centre("1304")).going == "cross_country"


def test_buildings_are_the_symbols_and_hard_cover():
    m = load_map(DATA / "sample_village.json")
    t = TableMap.from_map(m, S)
    b1 = next(a for a in t.buildings if a.ref == "B1")
    assert b1.name == "Building 1" and b1.kind == "building"
    assert b1.polygon.area == pytest.approx(m.building_polygons["B1"].area * t.kx * t.ky)
    inside = b1.polygon.representative_point()
    here = t.terrain_at(inside)
    assert here.building == "B1" and here.cover == "hard"


def test_hills_are_merged_level_areas_one_per_level():
    m = load_map(DATA / "sample_village.json")
    t = TableMap.from_map(m, S)
    lvl1 = [a for a in t.hills if a.name == "level 1"]
    lvl2 = [a for a in t.hills if a.name == "level 2"]
    assert len(lvl1) == 1 and len(lvl2) == 1
    hex_area = t._scaled(hexgrid.hex_polygon(hexgrid.parse_hex_id("1703"))).area
    assert lvl1[0].polygon.area == pytest.approx(7 * hex_area)   # Hill A's seven hexes (level 1 or more)
    assert lvl2[0].polygon.area == pytest.approx(hex_area)       # 1903; 1804's upper level counts at its lower (10.34)
    assert lvl1[0].polygon.covers(lvl2[0].polygon)
    assert t.level_at(t.hex_centre("1903")) == 2 and t.level_at(t.hex_centre("1804")) == 1
    assert t.level_at(t.hex_centre("1506")) == 0


def test_infantry_movement_road_cross_country_difficult_and_snow():
    """Movement, Infantry Movement: road 4, cross-country 3, difficult 2; Infantry in Snow Terrain:
    roads as normal, cross-country counts as difficult."""
    m = load_map(DATA / "sample_village.json")
    t = TableMap.from_map(m, S)
    assert t.terrain_at(t.hex_centre("1306")).going == "road"
    assert t.terrain_at(t.hex_centre("1606")).going == "road"                     # the bridge: a road on a gully
    assert t.terrain_at(t.hex_centre("1603")).going == "difficult"                # the gully
    assert t.terrain_at(t.hex_centre("1603")).cover == "soft"                     # "a fold in the ground"
    assert t.terrain_at(t.hex_centre("1908")).going == "difficult"                # marsh
    assert t.terrain_at(t.hex_centre("1908")).marsh
    open_ground = t.hex_centre("1109")
    assert t.terrain_at(open_ground).going == "cross_country"
    assert t.terrain_at(open_ground).infantry_going() == "cross_country"
    # the road band is road_width wide (default a quarter hex): 0.4 inch off the centre line is on
    # it, 0.6 inch is not
    x, y = t.hex_centre("1306")
    assert t.terrain_at((x, y + 0.4)).road and not t.terrain_at((x, y + 0.6)).road
    snow = TableMap.from_map(m, S, snow=True)
    assert snow.terrain_at(open_ground).infantry_going() == "difficult"
    assert snow.terrain_at(t.hex_centre("1306")).infantry_going() == "road"
    assert snow.terrain_at((1000.0, 1000.0)).on_table is False


# ------------------------------------------------------------------ line of sight

def test_visibility_woods_block_and_figures_see_into_woods_half_a_hex():
    """Visibility: troops are visible unless completely obscured by intervening terrain (a wood)."""
    t = TableMap.from_map(strip([{"id": "2005", "trees": 2}]), S)   # woods from y = 18 to y = 22
    firer = row(t, 8)
    assert t.blocks_los(firer, row(t, 32))
    los = t.line_of_sight(firer, row(t, 32))
    assert [(b.kind, b.name) for b in los.blocks] == [("woods", "woods 1")]
    assert los.blocks[0].start == pytest.approx(10) and los.blocks[0].point[1] == pytest.approx(18)
    assert not t.blocks_los(firer, row(t, 20))     # 2 inches into the wood: seen (see_into = half a hex)
    assert t.blocks_los(firer, row(t, 21))         # 3 inches in: hidden
    assert not t.blocks_los(row(t, 21), row(t, 20))   # within the wood, closer than see_into
    assert not TableMap.from_map(strip([{"id": "2005", "trees": 2}]), S, see_into=3).blocks_los(firer, row(t, 21))
    assert not t.blocks_los(firer, row(t, 14))     # short of the wood


def test_visibility_hills_block_between_low_figures_and_a_firer_sees_down_from_the_brow():
    # level 1 from y = 14 to y = 26 (hexes 2004-2006)
    t = TableMap.from_map(strip([{"id": f"20{r:02d}", "level": 1} for r in (4, 5, 6)]), S)
    assert t.blocks_los(row(t, 8), row(t, 32))           # the hill between two figures at level 0
    assert not t.blocks_los(row(t, 8), row(t, 15.5))     # a figure on the hill near its brow is seen ...
    assert t.blocks_los(row(t, 8), row(t, 17))           # ... not 3 inches back from it (see_into = 2)
    assert t.line_of_sight(row(t, 8), row(t, 17)).blocks[0].kind == "hill"
    assert not t.blocks_los(row(t, 24.5), row(t, 40))    # at the far brow it sees down the other side
    assert t.blocks_los(row(t, 16), row(t, 40))          # from the near brow the hilltop hides the foot
    assert not t.blocks_los(row(t, 16), row(t, 24))      # two figures on the same hilltop


def test_visibility_a_firer_on_a_hill_sees_over_lower_woods_near_him_not_near_the_target():
    hill = [{"id": f"20{r:02d}", "level": 1} for r in (4, 5, 6)]          # level 1 to y = 26
    near = TableMap.from_map(strip(hill + [{"id": "2008", "trees": 2}]), S)  # woods y 30-34, top 0.5
    far = TableMap.from_map(strip(hill + [{"id": "2014", "trees": 2}]), S)   # woods y 54-58
    firer, target = row(near, 25), row(near, 60)
    assert not near.blocks_los(firer, target)
    assert far.blocks_los(firer, target)
    blk = far.line_of_sight(firer, target).blocks[0]
    assert blk.kind == "woods" and blk.start == pytest.approx(29)
    # from the ground the near woods hide the target
    assert near.blocks_los(row(near, 28), target)


def test_visibility_buildings_block_figures_inside_see_out_grazing_is_clear():
    b = Building(id="B9", number=9, polygon=[(59, 11), (61, 11), (61, 13), (59, 13)])   # y 22-26 in
    t = TableMap.from_map(strip(buildings=[b]), S)
    assert t.blocks_los(row(t, 8), row(t, 40))
    blk = t.line_of_sight(row(t, 8), row(t, 40)).blocks[0]
    assert (blk.kind, blk.name, blk.ref) == ("building", "Building 9", "B9")
    assert not t.blocks_los(at(t, 60, 12), row(t, 40))      # from inside, 2 inches from its wall
    assert not t.blocks_los(at(t, 61, 4), at(t, 61, 20))    # along its wall
    assert not t.blocks_los(at(t, 59, 9), at(t, 63, 13))    # touching a corner only
    assert t.blocks_los(at(t, 59, 9.5), at(t, 63, 13.5))    # cutting the corner


def test_visibility_line_of_sight_is_symmetric_on_the_sample_village():
    t = TableMap.from_map(load_map(DATA / "sample_village.json"), S)
    minx, miny, maxx, maxy = t.table.bounds

    @settings(max_examples=120, deadline=None)
    @given(st.floats(minx, maxx), st.floats(miny, maxy), st.floats(minx, maxx), st.floats(miny, maxy))
    def check(ax, ay, bx, by):
        assert t.blocks_los((ax, ay), (bx, by)) == t.blocks_los((bx, by), (ax, ay))

    check()


def test_visibility_obstacles_marsh_and_scattered_trees_never_block():
    t = TableMap.from_map(strip([{"id": "2005", "trees": 1}, {"id": "2006", "terrain": "marsh"}],
                                obstacles=[Obstacle(id="W1", kind="wall", line=[(57, 15), (63, 15)]),
                                           Obstacle(id="H1", kind="hedge", line=[(57, 17), (63, 17)])],
                                tank_traps=[TankTraps(id="T1", line=[(57, 19), (63, 19)])]), S)
    assert not t.blocks_los(row(t, 8), row(t, 44))


# ------------------------------------------------------------------ obstacles and tank traps

def _obstacle_table():
    return TableMap.from_map(strip(
        obstacles=[Obstacle(id="W1", kind="wall", line=[(56, 20), (64, 20)]),
                   Obstacle(id="H1", kind="hedge", line=[(56, 14), (58, 16), (56, 18)]),
                   Obstacle(id="F1", kind="fence", line=[(61, 4), (61, 10)])],
        tank_traps=[TankTraps(id="T1", line=[(56, 26), (64, 26)]),
                    TankTraps(id="T2", polygon=[(56, 28), (64, 28), (64, 30), (56, 30)])]), S)


def test_obstacles_a_straight_move_crosses_walls_and_tank_traps_in_order():
    """Obstacles and Difficult Terrain: infantry take one turn to cross obstacles; tank traps are
    impassable to vehicles."""
    t = _obstacle_table()
    cs = t.crosses_obstacle(at(t, 60, 16), at(t, 60, 32))
    assert [(c.id, c.kind) for c in cs] == [("W1", "wall"), ("T1", "tank_traps"), ("T2", "tank_traps")]
    assert cs[0].point == pytest.approx(at(t, 60, 20)) and cs[0].distance == pytest.approx(8)
    assert [c.id for c in t.crosses_obstacle(at(t, 60, 16), at(t, 60, 32), tank_traps=False)] == ["W1"]
    assert t.crosses_obstacle(at(t, 60, 16), at(t, 60, 19)) == []      # short of the wall
    assert [c.id for c in t.crosses_obstacle(at(t, 60, 16), at(t, 60, 20))] == ["W1"]   # reaching it
    assert t.crosses_obstacle(at(t, 60, 20), at(t, 60, 24)) == []      # leaving it from on it
    assert t.crosses_obstacle(at(t, 60, 16), at(t, 60, 16)) == []      # no move
    hedge = t.crosses_obstacle(at(t, 57, 13), at(t, 57, 19))            # the hedge zig-zags: twice
    assert [(c.id, c.times) for c in hedge] == [("H1", 2)]
    field = t.crosses_obstacle(at(t, 60, 29), at(t, 62, 29))            # moving inside the field
    assert [c.id for c in field] == ["T2"]


def test_cover_saves_walls_hard_hedges_soft_fences_none_and_only_right_behind():
    """Cover Saves: hard cover a stone wall, soft cover a bush or hedge; any man in or behind hard
    or soft cover, any vehicle behind hard cover; low stone walls hard cover only to low-profile
    tanks such as the Stug III."""
    low = Obstacle(id="L1", kind="low_stone_wall", line=[(56, 8), (64, 8)])
    t = TableMap.from_map(strip(obstacles=[
        Obstacle(id="W1", kind="wall", line=[(56, 20), (64, 20)]),
        Obstacle(id="H1", kind="hedge", line=[(56, 30), (64, 30)]),
        Obstacle(id="F1", kind="fence", line=[(56, 24), (64, 24)]), low]), S)
    firer = at(t, 60, 2)
    assert t.cover(row(t, 40.5), firer) == "hard"      # half an inch behind the wall (y = 40)
    assert t.cover(row(t, 40.5), firer, "vehicle") == "hard"
    assert t.cover(row(t, 42), firer) is None          # 2 inches behind it: behind = 1 inch
    assert t.cover(row(t, 39.5), firer) is None        # the wall is behind him, not in the line of fire
    assert t.cover(row(t, 60.5), firer) == "soft"      # the hedge
    assert t.cover(row(t, 60.5), firer, "vehicle") is None
    assert t.cover(row(t, 48.5), firer) is None        # a fence
    assert t.cover(row(t, 16.5), firer) == "hard"      # the low stone wall, for a man
    assert t.cover(row(t, 16.5), firer, "vehicle") is None
    assert t.cover(row(t, 16.5), firer, "low_profile_vehicle") == "hard"
    assert t.cover(row(t, 16.5), firer, "man") == "hard"
    wide = TableMap.from_map(strip(obstacles=[Obstacle(id="W1", kind="wall", line=[(56, 20), (64, 20)])]), S, behind=2.5)
    assert wide.cover(row(t, 42), firer) == "hard"


def test_obstacles_are_clipped_to_the_table_and_off_table_ones_dropped():
    m = strip(obstacles=[Obstacle(id="W1", kind="wall", line=[(54, 20), (66, 20)]),
                         Obstacle(id="W2", kind="wall", line=[(63, 4), (64, 6)])])
    whole = TableMap.from_map(m, S)
    a = TableMap.from_map(m, S, sections=["A"])            # columns 19-20
    assert [o.id for o in whole.obstacles] == ["W1", "W2"]
    assert [o.id for o in a.obstacles] == ["W1"]
    assert a.table.covers(a.obstacles[0].geometry)
    assert a.obstacles[0].geometry.length < whole.obstacles[0].geometry.length
