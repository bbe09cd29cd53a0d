"""The region language: every node kind and every compass direction resolves to exact hex sets."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from shapely.geometry import Polygon
from shapely.ops import unary_union

from maps import hexgrid
from maps.hexgrid import Hex
from scenarios.regions import NorthIndicator, RegionContext, RegionError, region_from_data
from tests.mapbuilder import make_map

UP = ("1002", "1001")      # north = top of the sheet (Scenario 2 style)
DOWN = ("1001", "1002")    # north = bottom of the sheet (Scenario 1 style)


def ids(hexes) -> set[str]:
    return {h.id for h in hexes}


def block(c0, c1, r0, r1) -> set[str]:
    return {Hex(c, r).id for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}


def hex_poly(*hex_ids: str) -> list[tuple[float, float]]:
    u = unary_union([hexgrid.hex_polygon(hexgrid.parse_hex_id(h)) for h in hex_ids])
    assert isinstance(u, Polygon)
    return [tuple(p) for p in u.exterior.coords[:-1]]


SECTIONS = [{"name": "West", "first_column": 10, "last_column": 15},
            {"name": "East", "first_column": 15, "last_column": 20}]


@pytest.fixture(scope="module")
def m():
    """Columns 10-20, rows 01-10: a road along row 05, a north-south road down column 15,
    a gully crossing the row-05 road at 1205 (a bridge), trees, marsh, a hill, buildings."""
    return make_map(
        (10, 20), (1, 10),
        trees={"1103": 1, "1104": 2, "1105": 3},
        marsh=["1908"],
        levels={"1802": 1, "1803": 2},
        roads=[[f"{c}05" for c in range(10, 21)], [f"15{r:02d}" for r in range(1, 11)]],
        gullies=[["1203", "1204", "1205", "1206", "1207"]],
        buildings={"B1": hex_poly("1708"), "B2": hex_poly("1307", "1308")},
        features={"Hill K": ["1802", "1803"]},
        sections=SECTIONS,
    )


def res(m, data, north=UP, sections=None, named=None):
    ctx = RegionContext(m, north, sections, named or {})
    return ids(region_from_data(data).resolve(ctx))


# ------------------------------------------------------------------ north indicator

def test_north_indicator_directions():
    assert NorthIndicator(hex="5001", points_to="5002").north_k == 6   # bottom of the sheet
    assert NorthIndicator(hex="1002", points_to="1001").north_k == 0   # top
    n = NorthIndicator(hex="1026", points_to="1027")
    assert [n.direction(w) for w in ("north", "east", "south", "west")] == [6, 9, 0, 3]
    assert NorthIndicator(hex="7002", points_to="7001").direction("east") == 3  # right: higher columns


def test_north_indicator_must_point_to_an_adjacent_hex():
    with pytest.raises(ValidationError, match="not adjacent"):
        NorthIndicator(hex="5001", points_to="5003")


# ------------------------------------------------------------------ leaves

def test_hexes(m):
    assert res(m, {"kind": "hexes", "hexes": ["1205", "1206"]}) == {"1205", "1206"}
    with pytest.raises(RegionError, match="not on map") as e:
        res(m, {"kind": "hexes", "hexes": ["1205", "2505"]})
    assert e.value.loc == ("hexes", 1)
    with pytest.raises(RegionError, match="outside the scenario's playing area"):
        res(m, {"kind": "hexes", "hexes": ["1905"]}, sections=["West"])
    with pytest.raises(ValidationError):
        region_from_data({"kind": "hexes", "hexes": ["12a5"]})


def test_hex_range_along_column_and_row(m):
    assert res(m, {"kind": "hex_range", "first": "1507", "last": "1503"}) == {"1503", "1504", "1505", "1506", "1507"}
    assert res(m, {"kind": "hex_range", "first": "1204", "last": "1004"}) == {"1004", "1104", "1204"}
    with pytest.raises(ValidationError, match="neither along one column nor one row"):
        region_from_data({"kind": "hex_range", "first": "1001", "last": "1102"})


def test_area_and_sections(m):
    assert res(m, {"kind": "area"}) == block(10, 20, 1, 10)
    assert res(m, {"kind": "area"}, sections=["West"]) == block(10, 15, 1, 10)
    assert res(m, {"kind": "section", "name": "East"}) == block(15, 20, 1, 10)
    # a section outside the playing area contributes only its overlap (the shared column 15)
    assert res(m, {"kind": "section", "name": "East"}, sections=["West"]) == block(15, 15, 1, 10)
    with pytest.raises(RegionError, match="no section 'Map 9'"):
        res(m, {"kind": "section", "name": "Map 9"})


@pytest.mark.parametrize("north, direction, expected", [
    (UP, "north", block(10, 20, 1, 1)), (UP, "south", block(10, 20, 10, 10)),
    (UP, "east", block(20, 20, 1, 10)), (UP, "west", block(10, 10, 1, 10)),
    (DOWN, "north", block(10, 20, 10, 10)), (DOWN, "south", block(10, 20, 1, 1)),
    (DOWN, "east", block(10, 10, 1, 10)), (DOWN, "west", block(20, 20, 1, 10)),
])
def test_map_edge_every_direction_both_norths(m, north, direction, expected):
    assert res(m, {"kind": "map_edge", "direction": direction}, north=north) == expected


def test_map_edge_of_listed_sections(m):
    # north at the bottom: east is toward lower columns, so the east edge of "East" is column 15
    assert res(m, {"kind": "map_edge", "direction": "east", "sections": ["East"]}, north=DOWN) == block(15, 15, 1, 10)
    assert res(m, {"kind": "map_edge", "direction": "north", "sections": ["West"]}, north=DOWN) == block(10, 15, 10, 10)


def test_map_edge_follows_a_resized_map_and_another_playing_area(m):
    """The edges are remembered per playing area (the editor resolves them on every refresh): a
    map made wider, or another section played, gives the edge of that area, never the last one."""
    east = {"kind": "map_edge", "direction": "east"}
    assert res(m, east) == block(20, 20, 1, 10)
    wider = make_map((10, 22), (1, 10), sections=SECTIONS)
    assert res(wider, east) == block(22, 22, 1, 10)
    assert res(m, east, sections=["West"]) == block(15, 15, 1, 10)
    assert res(m, east) == block(20, 20, 1, 10)


def test_map_edge_oblique_north():
    small = make_map((10, 12), (1, 3))
    north_side2 = ("1002", "1101")  # north through hexside 2 (upper right)
    assert res(small, {"kind": "map_edge", "direction": "north"}, north=north_side2) == {"1001", "1201", "1202", "1203"}
    assert res(small, {"kind": "map_edge", "direction": "east"}, north=north_side2) == {"1103", "1203"}


def test_feature_and_building_by_name(m):
    assert res(m, {"kind": "feature", "name": "Hill K"}) == {"1802", "1803"}
    with pytest.raises(RegionError, match="no feature or building named 'Hill Z'"):
        res(m, {"kind": "feature", "name": "Hill Z"})


@pytest.mark.parametrize("feature, expected", [
    ("building_hexes", {"1708", "1307", "1308"}),
    ("multi_hex_buildings", {"1307", "1308"}),
    ("single_hex_buildings", {"1708"}),
    ("tree_hexes", {"1104", "1105"}),      # errata: one tree does not make a tree hex
    ("woods", {"1104", "1105"}),
    ("any_trees", {"1103", "1104", "1105"}),
    ("marsh", {"1908"}),
    ("hill", {"1802", "1803"}),
    ("gully", {"1203", "1204", "1205", "1206", "1207"}),
    ("bridge", {"1205"}),
])
def test_feature_kinds(m, feature, expected):
    assert res(m, {"kind": "feature_kind", "feature": feature}) == expected


def test_feature_kind_road(m):
    assert res(m, {"kind": "feature_kind", "feature": "road"}) == block(10, 20, 5, 5) | block(15, 15, 1, 10)


def test_unknown_kind_is_rejected():
    with pytest.raises(ValidationError, match="does not match any of the expected tags"):
        region_from_data({"kind": "blob"})


# ------------------------------------------------------------------ paths and sides

def test_path_follows_the_road_through_waypoints(m):
    assert res(m, {"kind": "path", "through": ["1205", "1505", "1502"]}) == {"1205", "1305", "1405", "1505", "1504", "1503", "1502"}
    assert res(m, {"kind": "path", "network": "gully", "through": ["1207", "1203"]}) == block(12, 12, 3, 7)


def test_path_errors(m):
    with pytest.raises(RegionError, match="not a road hex") as e:
        res(m, {"kind": "path", "through": ["1205", "1206"]})
    assert e.value.loc == ("through", 1)
    iso = make_map((10, 14), (1, 5), roads=[["1001", "1002"], ["1404", "1405"]])
    with pytest.raises(RegionError, match="no road runs from 1002 to 1404"):
        res(iso, {"kind": "path", "through": ["1001", "1002", "1404"]})


ROW5 = {"kind": "path", "through": ["1005", "2005"]}
COL15 = {"kind": "path", "through": ["1501", "1510"]}


@pytest.mark.parametrize("north, direction, of, expected", [
    (UP, "north", ROW5, block(10, 20, 1, 4)),
    (UP, "south", ROW5, block(10, 20, 6, 10)),
    (DOWN, "north", ROW5, block(10, 20, 6, 10)),
    (DOWN, "south", ROW5, block(10, 20, 1, 4)),
    (UP, "east", COL15, block(16, 20, 1, 10)),
    (UP, "west", COL15, block(10, 14, 1, 10)),
    (DOWN, "east", COL15, block(10, 14, 1, 10)),
    (DOWN, "west", COL15, block(16, 20, 1, 10)),
])
def test_side_of_every_direction(m, north, direction, of, expected):
    assert res(m, {"kind": "side_of", "direction": direction, "of": of}, north=north) == expected


def test_side_of_includes_boundary_and_only_lines_meeting_the_reference(m):
    got = res(m, {"kind": "side_of", "direction": "north", "of": ROW5, "include_boundary": True})
    assert got == block(10, 20, 1, 5)
    # "north of hexes 1206, 1306": only columns 12 and 13
    got = res(m, {"kind": "side_of", "direction": "north", "of": {"kind": "hexes", "hexes": ["1206", "1306"]}})
    assert got == block(12, 13, 1, 5)
    # a winding path: every hex of the path on the line lies behind the hex
    bent = make_map((10, 12), (1, 6), roads=[["1004", "1103", "1102", "1202"]])
    got = res(bent, {"kind": "side_of", "direction": "north", "of": {"kind": "path", "through": ["1004", "1202"]}})
    assert got == {"1001", "1002", "1003", "1101", "1201"}
    got = res(bent, {"kind": "side_of", "direction": "south", "of": {"kind": "path", "through": ["1004", "1202"]}})
    assert got == {"1005", "1006", "1104", "1105", "1106"} | block(12, 12, 3, 6)


def test_side_of_oblique_east_is_refused():
    small = make_map((10, 12), (1, 3))
    with pytest.raises(RegionError, match="no line of hexes") as e:
        res(small, {"kind": "side_of", "direction": "east", "of": {"kind": "hexes", "hexes": ["1102"]}}, north=("1002", "1101"))
    assert e.value.loc == ("direction",)


def test_side_of_oblique_north_follows_the_hexside_line():
    small = make_map((10, 12), (1, 3))
    # north through hexside 2: the line from 1002 runs 1002 -> 1101 -> 1201 -> (off)
    assert res(small, {"kind": "side_of", "direction": "north", "of": {"kind": "hexes", "hexes": ["1002"]}},
               north=("1002", "1101")) == {"1101", "1201"}


@pytest.mark.parametrize("north, data, expected", [
    (UP, {"direction": "east", "column": 17}, block(18, 20, 1, 10)),
    (UP, {"direction": "west", "column": 12, "inclusive": True}, block(10, 12, 1, 10)),
    (DOWN, {"direction": "east", "column": 17}, block(10, 16, 1, 10)),
    (DOWN, {"direction": "west", "column": 17}, block(18, 20, 1, 10)),
    (UP, {"direction": "south", "row": 6}, block(10, 20, 7, 10)),
    (UP, {"direction": "north", "row": 3}, block(10, 20, 1, 2)),
    (DOWN, {"direction": "north", "row": 8}, block(10, 20, 9, 10)),
    (DOWN, {"direction": "south", "row": 2, "inclusive": True}, block(10, 20, 1, 2)),
    (DOWN, {"direction": "west", "hex": "1901"}, block(20, 20, 1, 10)),
    (DOWN, {"direction": "north", "hex": "1007"}, block(10, 20, 8, 10)),
    (UP, {"direction": "east", "hex": "1901"}, block(20, 20, 1, 10)),
    (UP, {"direction": "south", "hex": "1009"}, block(10, 20, 10, 10)),
])
def test_beyond_columns_rows_and_hexes(m, north, data, expected):
    assert res(m, {"kind": "beyond", **data}, north=north) == expected


def test_beyond_errors(m):
    with pytest.raises(RegionError, match="not across the hex columns") as e:
        res(m, {"kind": "beyond", "direction": "north", "column": 12})
    assert e.value.loc == ("column",)
    with pytest.raises(RegionError, match="not across the hex rows"):
        res(m, {"kind": "beyond", "direction": "east", "row": 3})
    with pytest.raises(ValidationError, match="exactly one of"):
        region_from_data({"kind": "beyond", "direction": "east", "row": 3, "column": 4})


# ------------------------------------------------------------------ neighbourhoods and sets

def test_adjacent_and_within(m):
    assert res(m, {"kind": "adjacent_to", "of": {"kind": "hexes", "hexes": ["1205"]}}) == {
        "1204", "1304", "1305", "1206", "1105", "1104"}
    assert res(m, {"kind": "adjacent_to", "of": {"kind": "hexes", "hexes": ["1001"]}}) == {"1002", "1101"}
    assert res(m, {"kind": "within", "of": {"kind": "hexes", "hexes": ["1205"]}, "distance": 1}) == {
        "1205", "1204", "1304", "1305", "1206", "1105", "1104"}
    assert len(res(m, {"kind": "within", "of": {"kind": "hexes", "hexes": ["1505"]}, "distance": 2})) == 19


def test_reachable_stops_at_the_barrier(m):
    got = res(m, {"kind": "reachable", "start": {"kind": "hexes", "hexes": ["1001"]},
                  "barrier": {"kind": "union", "of": [ROW5, COL15]}})
    assert got == block(10, 14, 1, 4)


def test_set_operations(m):
    a = {"kind": "hex_range", "first": "1001", "last": "1004"}
    b = {"kind": "hex_range", "first": "1003", "last": "1006"}
    assert res(m, {"kind": "union", "of": [a, b]}) == block(10, 10, 1, 6)
    assert res(m, {"kind": "intersection", "of": [a, b]}) == {"1003", "1004"}
    assert res(m, {"kind": "difference", "of": a, "minus": [b]}) == {"1001", "1002"}


def test_scenario_style_composition(m):
    """"any building or tree hex adjacent to the road ..., or on Hill K"."""
    data = {"kind": "union", "of": [
        {"kind": "intersection", "of": [
            {"kind": "union", "of": [{"kind": "feature_kind", "feature": "building_hexes"},
                                     {"kind": "feature_kind", "feature": "tree_hexes"}]},
            {"kind": "adjacent_to", "of": {"kind": "path", "through": ["1005", "1505"]}}]},
        {"kind": "feature", "name": "Hill K"}]}
    assert res(m, data) == {"1104", "1105", "1802", "1803"}
    r = region_from_data(data)
    assert r.describe() == "((building hexes or tree hexes) and adjacent to road 1005-1505) or Hill K"


def test_named_regions_and_cycles(m):
    named = {"road": region_from_data(ROW5), "north": region_from_data({"kind": "side_of", "direction": "north",
                                                                        "of": {"kind": "named", "name": "road"}})}
    assert res(m, {"kind": "named", "name": "north"}, named=named) == block(10, 20, 1, 4)
    loop = {"a": region_from_data({"kind": "named", "name": "b"}), "b": region_from_data({"kind": "named", "name": "a"})}
    with pytest.raises(RegionError, match="refers to itself"):
        res(m, {"kind": "named", "name": "a"}, named=loop)
    with pytest.raises(RegionError, match="no region named 'zz'"):
        res(m, {"kind": "named", "name": "zz"})


def test_error_locations_nest(m):
    data = {"kind": "union", "of": [ROW5, {"kind": "intersection", "of": [{"kind": "feature", "name": "Nope"}]}]}
    with pytest.raises(RegionError) as e:
        res(m, data)
    assert e.value.loc == ("of", 1, "of", 0, "name")


def test_describe_texts():
    assert region_from_data({"kind": "beyond", "direction": "east", "column": 35}).describe() == \
        "east of hex column 35xx (exclusive)"
    assert region_from_data({"kind": "beyond", "direction": "south", "row": 6}).describe() == \
        "south of hexrow xx06 (exclusive)"
    assert region_from_data({"kind": "map_edge", "direction": "north", "sections": ["Map 2"]}).describe() == \
        "the north map edge of Map 2"
    assert region_from_data({"kind": "side_of", "direction": "north", "of": {"kind": "path", "through": ["1014", "1315"]}}
                            ).describe() == "north of road 1014-1315"
    assert region_from_data({"kind": "hex_range", "first": "5015", "last": "5027"}).describe() == \
        "hexes 5015 to 5027 (inclusive)"


def test_json_round_trip(m):
    data = {"kind": "difference", "of": {"kind": "area"}, "minus": [{"kind": "within", "of": {"kind": "hexes", "hexes": ["1505"]}, "distance": 1}]}
    r = region_from_data(data)
    assert region_from_data(r.model_dump(mode="json")) == r
    assert len(res(m, data)) == 110 - 7


# ------------------------------------------------------------------ the shipped mapsheet

@pytest.fixture(scope="module")
def sheet():
    from maps.errata import CORRECTED_MAPSHEET
    from maps.mapfile import load_map

    if not CORRECTED_MAPSHEET.exists():  # pragma: no cover
        pytest.skip("corrected mapsheet not built")
    return load_map(CORRECTED_MAPSHEET)


def test_scenario_1_edges_on_the_mapsheet(sheet):
    s1 = (("5001", "5002"), ["Map 2"])
    assert res(sheet, {"kind": "map_edge", "direction": "north"}, *s1) == block(30, 50, 27, 27)
    assert res(sheet, {"kind": "map_edge", "direction": "east"}, *s1) == block(30, 30, 1, 27)
    assert res(sheet, {"kind": "map_edge", "direction": "south"}, *s1) == block(30, 50, 1, 1)
    assert res(sheet, {"kind": "map_edge", "direction": "west"}, *s1) == block(50, 50, 1, 27)
    east_north_of_3014 = {"kind": "intersection", "of": [{"kind": "map_edge", "direction": "east"},
                                                         {"kind": "beyond", "direction": "north", "hex": "3014"}]}
    assert res(sheet, east_north_of_3014, *s1) == block(30, 30, 15, 27)


def test_scenario_6_edges_on_the_mapsheet(sheet):
    s6 = (("5001", "5002"), ["Map 1", "Map 2"])
    assert res(sheet, {"kind": "map_edge", "direction": "east", "sections": ["Map 1"]}, *s6) == block(10, 10, 1, 27)
    assert res(sheet, {"kind": "map_edge", "direction": "west", "sections": ["Map 2"]}, *s6) == block(50, 50, 1, 27)
    assert res(sheet, {"kind": "map_edge", "direction": "north", "sections": ["Map 2"]}, *s6) == block(30, 50, 27, 27)
    south_west_of_3901 = {"kind": "intersection", "of": [{"kind": "map_edge", "direction": "south"},
                                                         {"kind": "beyond", "direction": "west", "hex": "3901"}]}
    assert res(sheet, south_west_of_3901, *s6) == block(40, 50, 1, 1)


def test_north_of_the_road_network_on_the_mapsheet(sheet):
    """Scenario 4: north (bottom of the sheet) of the road network; south of it the Germans."""
    net = {"kind": "path", "through": ["1014", "1315", "1608", "2108", "2106", "2608", "2613", "2913", "3014"]}
    n = res(sheet, {"kind": "side_of", "direction": "north", "of": net}, ("1026", "1027"), ["Map 1"])
    s = res(sheet, {"kind": "side_of", "direction": "south", "of": net}, ("1026", "1027"), ["Map 1"])
    road = res(sheet, net, ("1026", "1027"), ["Map 1"])
    assert not (n & s) and not (n & road) and not (s & road)
    assert n | s | road == block(10, 30, 1, 27)
    assert {"1027", "2110"} <= n and "2107" in road and {"2105", "1001"} <= s


def test_side_of_bounded_reads_the_pocket_a_bent_line_closes_off(m):
    """"South or east of the road" along a road that bends (west edge -> 1505, then north up
    column 15 to the north edge): the literal per-line sides miss the hexes south-east of the
    bend (their columns and rows never meet the road on the right leg); the bounded reading is the
    pocket the road closes off, the same hexes as *reachable, with barriers*."""
    bent = {"kind": "hexes", "hexes": [f"{c}05" for c in range(10, 16)] + [f"15{r:02d}" for r in range(1, 5)]}

    def side(direction, bounded):
        return {"kind": "side_of", "direction": direction, "of": bent, "bounded": bounded}

    literal = res(m, {"kind": "union", "of": [side("south", False), side("east", False)]})
    pocket = res(m, {"kind": "reachable", "start": {"kind": "hexes", "hexes": ["2010"]}, "barrier": bent})
    bounded = res(m, {"kind": "union", "of": [side("south", True), side("east", True)]})
    assert bounded == pocket == block(10, 20, 1, 10) - block(10, 14, 1, 4) - set(bent["hexes"])
    assert literal == block(10, 15, 6, 10) | block(16, 20, 1, 5) and literal < pocket
    # a straight line: both readings agree
    assert res(m, side("south", True) | {"of": ROW5}) == res(m, side("south", False) | {"of": ROW5})
    # the readings, for a form
    ctx = RegionContext(m, UP, None, {})
    lit, bnd = region_from_data(side("south", False)).readings(ctx)
    assert ids(lit) == block(10, 15, 6, 10) and ids(bnd) == pocket
    assert "bounded by it" in region_from_data(side("south", True)).describe()


def test_region_data_validated_again_gives_the_same_node_and_a_context_answers_it_once(m):
    """The editor's forms validate and resolve the same region after every change: the same data
    gives the same frozen node, and a context keeps that node's hexes (not another node's)."""
    a = region_from_data({"kind": "hexes", "hexes": ["1202", "1203"]})
    assert region_from_data({"hexes": ["1202", "1203"], "kind": "hexes"}) is a
    b = region_from_data({"kind": "hexes", "hexes": ["1303"]})
    ctx = RegionContext(m, UP)
    assert ids(a.resolve(ctx)) == {"1202", "1203"}
    assert ids(b.resolve(ctx)) == {"1303"}
    assert a.resolve(ctx) is a.resolve(ctx)
    # another context (here a map with another hill) resolves afresh
    hill = region_from_data({"kind": "feature", "name": "Hill K"})
    assert ids(hill.resolve(ctx)) == {"1802", "1803"}
    other = RegionContext(make_map(features={"Hill K": ["1101"]}), UP)
    assert ids(hill.resolve(other)) == {"1101"}
