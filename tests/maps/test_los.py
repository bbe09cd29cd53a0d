"""Line of sight, rule 10.3: every clause on small hand-made maps, and the worked examples."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shapely.geometry import LineString

from maps import hexgrid
from maps.hexgrid import Hex
from maps.hexmap import UnknownHexError
from maps.los import HexOccupancy, line_of_sight
from tests.mapbuilder import make_map

# Column 10 runs straight down the sheet: the line 1002 -> 1010 crosses 1003..1009 through their
# interiors. Lattice centre of hex 10RR is (30, 2*RR).


def test_10_31_example_three_trees_and_an_afv_block():
    """10.31 example: one hex with two trees, a clear hex, a hex with an AFV and a tree: blocked (b)."""
    m = make_map(trees={"1003": 2, "1005": 1})
    occ = {Hex(10, 5): HexOccupancy(afvs=1)}
    r = line_of_sight(m, "1002", "1007", occupancy=occ)
    assert not r.clear and r.rule == "10.31b" and r.blocking_hex == "1005"
    assert r.trees_afvs_wrecks == 4
    # without the AFV, three is not "more than three": clear
    r2 = line_of_sight(m, "1002", "1007")
    assert r2.clear and r2.trees_afvs_wrecks == 3


def test_10_31b_wrecks_count_like_afvs():
    m = make_map(trees={"1003": 3})
    assert line_of_sight(m, "1002", "1006").clear
    r = line_of_sight(m, "1002", "1006", occupancy={Hex(10, 4): HexOccupancy(wrecks=1)})
    assert not r.clear and r.rule == "10.31b" and r.blocking_hex == "1004"


def test_10_33_into_but_not_through_a_blocking_hex():
    m = make_map(trees={"1004": 4, "1006": 4})
    into = line_of_sight(m, "1002", "1004")  # the target's own trees never block its LOS
    assert into.clear and into.trees_afvs_wrecks == 0
    through = line_of_sight(m, "1002", "1005")
    assert not through.clear and through.blocking_hex == "1004"


def test_10_31b_along_a_hexside_counts_the_adjoining_hex_with_more():
    # 1010 -> 1410 runs along the hexsides 1109|1110 and 1309|1310
    m = make_map(trees={"1109": 2, "1110": 1, "1309": 1, "1310": 2})
    r = line_of_sight(m, "1010", "1410")
    pairs = {(h.id, h.partner) for h in r.hexes if h.contact == "hexside"}
    assert pairs == {("1109", "1110"), ("1110", "1109"), ("1309", "1310"), ("1310", "1309")}
    assert r.trees_afvs_wrecks == 4  # 2 (1109 beats 1110) + 2 (1310 beats 1309), not 6
    assert not r.clear and r.rule == "10.31b" and r.blocking_hex in ("1309", "1310")
    m2 = make_map(trees={"1109": 1, "1110": 1, "1309": 0, "1310": 2})
    r2 = line_of_sight(m2, "1010", "1410")
    assert r2.clear and r2.trees_afvs_wrecks == 3


def test_10_31b_trees_on_either_side_of_a_hexside_same_answer():
    left = make_map(trees={"1109": 3, "1309": 1})
    right = make_map(trees={"1110": 3, "1310": 1})
    for m in (left, right):
        r = line_of_sight(m, "1010", "1410")
        assert not r.clear and r.trees_afvs_wrecks == 4


def _triangle(x: float, y: float) -> list[tuple[float, float]]:
    return [(x, y), (x + 1.5, y - 0.5), (x + 1.5, y + 0.5)]


def test_10_31a_building_symbol_crossed_blocks():
    m = make_map(buildings={"B1": [(29, 7.5), (31, 7.5), (31, 8.5), (29, 8.5)]})  # across the line in 1004
    r = line_of_sight(m, "1002", "1007")
    assert not r.clear and r.rule == "10.31a" and r.blocking_hex == "1004"
    assert r.blocking_feature == "B1"


def test_10_31a_line_only_touching_a_building_corner_blocks():
    touching = make_map(buildings={"B1": _triangle(30, 8)})  # corner exactly on the line x = 30
    r = line_of_sight(touching, "1002", "1007")
    assert not r.clear and r.rule == "10.31a" and r.blocking_hex == "1004"
    missing = make_map(buildings={"B1": _triangle(30.001, 8)})  # a thousandth of a unit off
    assert line_of_sight(missing, "1002", "1007").clear


def test_10_31a_firer_and_target_building_hexes_do_not_block():
    m = make_map(buildings={"B1": [(29, 3.5), (31, 3.5), (31, 4.5), (29, 4.5)],
                            "B2": [(29, 11.5), (31, 11.5), (31, 12.5), (29, 12.5)]})
    assert line_of_sight(m, "1002", "1006").clear  # from inside B1's hex into B2's hex
    assert not line_of_sight(m, "1002", "1007").clear  # through B2's hex: blocked


def test_10_31a_higher_hill_hex_crossed_or_touched_blocks():
    m = make_map(levels={"1004": 1})
    r = line_of_sight(m, "1002", "1006")
    assert not r.clear and r.rule == "10.31a" and r.blocking_hex == "1004"
    # along a hexside of a hill hex
    m2 = make_map(levels={"1109": 1})
    r2 = line_of_sight(m2, "1010", "1210")
    assert not r2.clear and r2.rule == "10.31a" and r2.blocking_hex == "1109"
    # both units on level 1: a level 1 hill between them is not higher
    m3 = make_map(levels={"1002": 1, "1004": 1, "1006": 1})
    assert line_of_sight(m3, "1002", "1006").clear


def test_10_31c_down_firer_through_marsh():
    m = make_map(marsh=["1004"])
    up = line_of_sight(m, "1002", "1006")
    assert up.clear and up.marsh_hexes == 1
    down = line_of_sight(m, "1002", "1006", firer_down=True)
    assert not down.clear and down.rule == "10.31c" and down.blocking_hex == "1004"
    # into a marsh hex (10.33) and out of the firer's own marsh hex: clear
    assert line_of_sight(m, "1002", "1004", firer_down=True).clear
    assert line_of_sight(m, "1004", "1007", firer_down=True).clear


def test_10_32_level_0_to_level_2_over_a_level_1_hill_tipping_point():
    """Sighting Chart: a level 1 hill halfway between level 0 and level 2 touches the line: blocked.

    The sight line rises 2 levels over the range, so it is at level 1 exactly at half range.
    """
    for rng in (4, 6, 8, 10):
        half = rng // 2
        for hill_at in range(1, rng):
            firer, target = Hex(10, 1), Hex(10, 1 + rng)
            m = make_map(rows=(1, 12), levels={target.id: 2, f"10{1 + hill_at:02d}": 1})
            r = line_of_sight(m, firer, target)
            expected_blocked = hill_at <= half  # hill height 1 >= 2 * x / range  <=>  x <= range / 2
            assert r.clear is (not expected_blocked), (rng, hill_at, r.reason)
            if expected_blocked:
                assert r.rule == "10.32" and r.blocking_hex == f"10{1 + hill_at:02d}"
            # symmetric: the higher unit firing down sees the same
            assert line_of_sight(m, target, firer).clear is r.clear


def test_10_32_woods_and_buildings_stand_half_a_level_above_their_ground():
    # level 0 firer, level 1 target at range 4; woods at x = 2: line at 1/2 -> touches -> blocked
    m = make_map(levels={"1005": 1}, trees={"1003": 2})
    r = line_of_sight(m, "1001", "1005")
    assert not r.clear and r.rule == "10.32" and r.blocking_hex == "1003"
    assert [o.x for o in r.sighting] == [2]
    # woods at x = 3: line at 3/4 -> clear
    m2 = make_map(levels={"1005": 1}, trees={"1004": 2})
    assert line_of_sight(m2, "1001", "1005").clear
    # a single tree is no Sighting Chart obstacle, but still counts for 11.16 b
    m3 = make_map(levels={"1005": 1}, trees={"1002": 1})
    r3 = line_of_sight(m3, "1001", "1005")
    assert r3.clear and r3.trees_afvs_wrecks == 1


def test_10_34_hex_with_two_elevations_is_at_the_lower():
    from maps.mapfile import map_from_data

    data = {"format": "ironcross-map", "version": 1, "name": "t",
            "extent": {"first_column": 10, "last_column": 12, "first_row": 1, "last_row": 8},
            "hexes": [{"id": "1004", "level": 0, "upper_level": 1}]}
    m = map_from_data(data)
    r = line_of_sight(m, "1002", "1006")
    assert r.clear and r.hexes[2].level == 0


def test_11_16_example_firepower_reductions_from_los():
    """11.16 example: A (12 AP) fires through 1 tree, B (10 AP) through 3 trees, at a higher
    target hex with 2 trees: 22 - (6 trees + 1 for the higher level) = 15. The LOS supplies
    the counts (b) and the level difference (c); (a) is the target hex's own trees."""
    # target 1210 on level 2 with 2 trees; A = 1204 and B = 1104 on level 1 are adjacent
    # (group fire, 11.13 c)
    m = make_map(levels={"1210": 2, "1204": 1, "1104": 1}, trees={"1210": 2, "1206": 1, "1107": 3})
    a = line_of_sight(m, "1204", "1210")
    b = line_of_sight(m, "1104", "1210")
    assert a.clear and b.clear  # the woods in 1107 stay below the sight line (10.32)
    target_trees = m.trees(Hex(12, 10))
    higher = 1 if (a.level_difference > 0 or b.level_difference > 0) else 0  # not -2 if both lower
    assert (a.trees_afvs_wrecks, b.trees_afvs_wrecks, target_trees, higher) == (1, 3, 2, 1)
    assert 12 + 10 - (a.trees_afvs_wrecks + b.trees_afvs_wrecks + target_trees + higher) == 15


def test_los_symmetric_on_random_pairs():
    m = make_map(cols=(10, 22), rows=(1, 14), trees={"1204": 2, "1305": 1, "1506": 3, "1708": 2, "1609": 1},
                 levels={"1805": 1, "1806": 1, "1905": 2, "1110": 1}, marsh=["1407", "1408"],
                 buildings={"B1": [(44, 14), (47, 14), (47, 17), (44, 17)]})
    rnd = random.Random(3)
    hexes = list(m.all_hexes())
    for _ in range(400):
        a, b = rnd.sample(hexes, 2)
        f, r = line_of_sight(m, a, b), line_of_sight(m, b, a)
        assert f.clear == r.clear, (a, b, f.reason, r.reason)
        assert f.trees_afvs_wrecks == r.trees_afvs_wrecks
        assert f.marsh_hexes == r.marsh_hexes


@settings(max_examples=100, deadline=None)
@given(st.builds(Hex, st.integers(10, 20), st.integers(1, 10)), st.builds(Hex, st.integers(10, 20), st.integers(1, 10)))
def test_same_answers_after_the_map_is_extended(a, b):
    kw = dict(trees={"1204": 2, "1305": 2, "1506": 3, "1708": 2}, levels={"1805": 1, "1905": 2},
              marsh=["1407"], buildings={"B1": [(44, 14), (47, 14), (47, 17), (44, 17)]})
    small = make_map(cols=(10, 20), rows=(1, 10), **kw)
    big = make_map(cols=(10, 60), rows=(1, 27), **kw)
    x, y = line_of_sight(small, a, b), line_of_sight(big, a, b)
    assert (x.clear, x.rule, x.blocking_hex, x.hex_ids) == (y.clear, y.rule, y.blocking_hex, y.hex_ids)


def test_unknown_hex_raises_clear_error():
    m = make_map()
    with pytest.raises(UnknownHexError, match="not on map"):
        line_of_sight(m, "1002", "9999")
    with pytest.raises(UnknownHexError, match="four digits"):
        line_of_sight(m, "1002", "10x2")


def test_result_lists_hexes_in_order_with_range():
    m = make_map()
    r = line_of_sight(m, "1002", "1006")
    assert r.range == 4 and r.hex_ids == ["1002", "1003", "1004", "1005", "1006"]
    assert [h.role for h in r.hexes] == ["firer"] + ["intermediate"] * 3 + ["target"]
    j = r.to_json()
    assert j["clear"] is True and j["rule"] is None and j["blocking_hex"] is None and j["range"] == 4


def test_los_table_and_visible_from_agree_with_single_queries():
    from maps.los import los_table, visible_from

    m = make_map(cols=(10, 16), rows=(1, 8), trees={"1204": 2, "1305": 3, "1403": 2}, levels={"1505": 1},
                 buildings={"B1": [(41, 8), (44, 8), (44, 10), (41, 10)]})
    hexes = [h.id for h in m.all_hexes()]
    table = los_table(m, hexes)
    for (a, b), clear in table.items():
        assert clear == line_of_sight(m, a, b).clear
    vis = visible_from(m, "1204")
    assert vis == {b for (a, b), c in table.items() if a == "1204" and c}


def test_symmetric_on_the_shipped_mapsheet_including_building_corners():
    """No floating-point drift: every pair gives the same answer both ways (firers UP)."""
    from pathlib import Path

    from maps.mapfile import load_map

    m = load_map(Path(__file__).resolve().parents[2] / "maps" / "data" / "iron_cross_mapsheet_corrected.json")
    rnd = random.Random(7)
    near_buildings = sorted({h for hs in m.building_hexes.values() for h in hs})
    hexes = list(m.all_hexes())
    for _ in range(600):
        a = rnd.choice(near_buildings)
        b = rnd.choice(hexes) if rnd.random() < 0.5 else rnd.choice(near_buildings)
        if a == b:
            continue
        f, r = line_of_sight(m, a, b), line_of_sight(m, b, a)
        assert (f.clear, f.trees_afvs_wrecks) == (r.clear, r.trees_afvs_wrecks), (a.id, b.id, f.reason, r.reason)


# ------------------------------------------------------------------ 10.32 b: a hex touched at a corner
# The line 1005 -> 1402 (centres (30, 10) -> (42, 4)) touches hex 1103 at its corner (36, 8) and
# hex 1303 at its corner (38, 6), 3 and 2 hexes from 1402.


def test_10_32b_higher_hill_touched_only_at_a_corner_blocks():
    """10.32 b "touching": a level 2 hill touched at a corner between a level 1 and a level 0 unit
    is on the Sighting Chart, 3 hexes from the lower unit (line there at 3/5): blocked, both ways."""
    m = make_map(rows=(1, 12), levels={"1005": 1, "1103": 2})
    for firer, target in (("1005", "1402"), ("1402", "1005")):
        r = line_of_sight(m, firer, target)
        assert [(h.id, h.contact) for h in r.hexes if h.id == "1103"] == [("1103", "vertex")]
        assert not r.clear and r.rule == "10.32" and r.blocking_hex == "1103", r.reason
        assert [(o.hex, o.x, o.height, o.line_height, o.blocks) for o in r.sighting] == [
            ("1103", 3, 2, Fraction(3, 5), True)]
        assert "touched at a corner" in r.reason
    # the same geometry at equal levels: 10.31 a (a touched higher hill)
    m2 = make_map(rows=(1, 12), levels={"1005": 1, "1402": 1, "1103": 2})
    r2 = line_of_sight(m2, "1005", "1402")
    assert not r2.clear and r2.rule == "10.31a" and r2.blocking_hex == "1103"


def test_10_32b_hill_touched_at_a_corner_below_the_line_does_not_block():
    m = make_map(rows=(1, 12), levels={"1005": 2, "1103": 1})  # line at 2 - 2*2/5 = 1.2 over 1103: below
    r = line_of_sight(m, "1005", "1402")
    assert r.clear and [(o.hex, o.x, o.height) for o in r.sighting] == [("1103", 3, 1)]


def test_10_32b_corner_touched_hex_adds_its_building_symbol_but_not_its_woods():
    """Reading (as 10.31 b): a hex touched only at a corner adds no trees, so its woods are no
    Sighting Chart obstacle; a building symbol the line touches in it is (height 1/2)."""
    # 1303 is touched at its corner (38, 6), 2 hexes from 1402: the line is at 2/5 there
    woods = make_map(rows=(1, 12), levels={"1005": 1}, trees={"1303": 2})
    r = line_of_sight(woods, "1005", "1402")
    assert r.clear and r.sighting == [] and r.trees_afvs_wrecks == 0
    crossed = make_map(rows=(1, 12), levels={"1005": 1}, trees={"1302": 2})  # 1302 crossed at x = 1: 1/2 >= 1/5
    assert line_of_sight(crossed, "1005", "1402").blocking_hex == "1302"
    hill = make_map(rows=(1, 12), levels={"1005": 1, "1303": 1})
    r_hill = line_of_sight(hill, "1402", "1005")
    assert not r_hill.clear and r_hill.rule == "10.32" and r_hill.blocking_hex == "1303"
    # a building symbol in 1303 with a corner on the touched corner (38, 6): blocks, in 1303
    touching = make_map(rows=(1, 12), levels={"1005": 1}, buildings={"B1": [(38, 6), (39.5, 6.5), (39, 7)]})
    for firer, target in (("1005", "1402"), ("1402", "1005")):
        rb = line_of_sight(touching, firer, target)
        assert not rb.clear and rb.rule == "10.32" and rb.blocking_hex == "1303", rb.reason
        assert [(o.hex, o.x, o.height) for o in rb.sighting] == [("1303", 2, Fraction(1, 2))]
        assert {h.id: h.building for h in rb.hexes if h.building} == {"1303": "B1"}
    # the same symbol a little inside the hex, off the line: clear
    apart = make_map(rows=(1, 12), levels={"1005": 1}, buildings={"B1": [(38.25, 6.25), (39.5, 6.5), (39, 7)]})
    assert line_of_sight(apart, "1005", "1402").clear


# ------------------------------------------------------------------ the blocking hex is where the obstacle is
_HEX_1305 = [(41, 11), (40, 12), (38, 12), (37, 11), (38, 10), (40, 10)]  # the outline of hex 1305
_HEX_1004 = [(32, 8), (31, 9), (29, 9), (28, 8), (29, 7), (31, 7)]  # the outline of hex 1004


def test_10_31a_building_symbol_blocks_in_the_hex_it_lies_in_both_ways():
    """A symbol exactly filling hex 1305, its top edge on the 1304/1305 hexside: the line 1205 -
    1605 runs along that hexside and passes the 1304/1305/1405 corner. Blocked in 1305 both ways;
    neither 1304 nor 1405 holds the symbol."""
    m = make_map(buildings={"B7": _HEX_1305})
    for firer, target in (("1205", "1605"), ("1605", "1205")):
        r = line_of_sight(m, firer, target)
        assert not r.clear and r.rule == "10.31a" and r.blocking_hex == "1305", r.reason
        assert r.blocking_feature == "B7" and "in 1305" in r.reason
        assert {h.id: h.building for h in r.hexes if h.building} == {"1305": "B7"}


def test_10_31a_crossed_building_hex_blocks_not_the_hex_before_it():
    m = make_map(buildings={"B1": _HEX_1004})
    for firer, target in (("1002", "1006"), ("1006", "1002")):
        r = line_of_sight(m, firer, target)
        assert not r.clear and r.blocking_hex == "1004"
        assert {h.id: h.building for h in r.hexes if h.building} == {"1004": "B1"}


def test_10_32_building_symbol_stands_in_the_hex_it_lies_in():
    # level 0 firer 1002, level 1 target 1006 (range 4): the symbol of 1004 at x = 2, height 1/2 = line there
    m = make_map(levels={"1006": 1}, buildings={"B1": _HEX_1004})
    for firer, target in (("1002", "1006"), ("1006", "1002")):
        r = line_of_sight(m, firer, target)
        assert not r.clear and r.rule == "10.32" and r.blocking_hex == "1004"
        assert [(o.hex, o.x, o.height, o.line_height) for o in r.sighting] == [
            ("1004", 2, Fraction(1, 2), Fraction(1, 2))]


def test_10_31a_multi_hex_symbol_along_an_inner_hexside_is_in_both_hexes():
    """One symbol covering 1304 and 1305: the line along their common hexside meets it in both
    (it has area on both sides); it only touches 1405 at a corner of the symbol."""
    both = [(41, 11), (40, 12), (38, 12), (37, 11), (38, 10), (37, 9), (38, 8), (40, 8), (41, 9), (40, 10)]
    m = make_map(buildings={"B1": both})
    for firer, target in (("1205", "1605"), ("1605", "1205")):
        r = line_of_sight(m, firer, target)
        assert not r.clear and r.blocking_hex == "1304"
        assert {h.id: h.building for h in r.hexes if h.building} == {"1304": "B1", "1305": "B1"}


def test_10_33_symbol_in_the_firers_hex_touching_the_line_where_it_leaves_does_not_block():
    # the line 1002 -> 1006 leaves 1003 at (30, 7), on the 1003/1004 hexside
    in_firer_hex = make_map(buildings={"B1": [(30, 7), (29.5, 6.5), (30.5, 6.5)]})  # in 1003
    assert line_of_sight(in_firer_hex, "1003", "1006").clear
    assert not line_of_sight(in_firer_hex, "1002", "1006").clear  # 1003 intermediate: blocks there
    in_next_hex = make_map(buildings={"B1": [(30, 7), (29.5, 7.5), (30.5, 7.5)]})  # in 1004
    r = line_of_sight(in_next_hex, "1003", "1006")
    assert not r.clear and r.blocking_hex == "1004"
    r2 = line_of_sight(in_next_hex, "1006", "1003")
    assert not r2.clear and r2.blocking_hex == "1004"


def test_10_33_symbol_on_the_common_hexside_of_adjacent_hexes_is_clear_and_says_why():
    # a small symbol across the middle of the 1304/1305 hexside (y = 10, x 38..40)
    m = make_map(buildings={"B1": [(38.5, 9.5), (39.5, 9.5), (39.5, 10.5), (38.5, 10.5)]})
    for firer, target in (("1304", "1305"), ("1305", "1304")):
        r = line_of_sight(m, firer, target)
        assert r.clear and r.rule is None
        assert "only in the firer's/target's own hexes" in r.reason and "10.33" in r.reason
        assert "no building symbol or higher hill on the line" not in r.reason
        assert {h.id: h.building for h in r.hexes} == {"1304": "B1", "1305": "B1"}
        assert set(r.own_hex_buildings) == {("1304", "B1"), ("1305", "B1")}
        j = r.to_json()
        assert j["own_hex_buildings"] == [{"hex": hx, "building": "B1"} for hx, _ in r.own_hex_buildings]
        assert "10.33" in j["reason"] and {d["id"]: d["building"] for d in j["hex_details"]} == {
            "1304": "B1", "1305": "B1"}
    # at different levels too
    m2 = make_map(levels={"1305": 1}, buildings={"B1": [(38.5, 9.5), (39.5, 9.5), (39.5, 10.5), (38.5, 10.5)]})
    r3 = line_of_sight(m2, "1304", "1305")
    assert r3.clear and "10.33" in r3.reason and "Sighting Chart" in r3.reason
    # with no symbol at all, the plain 10.31 reason
    assert "no building symbol or higher hill on the line" in line_of_sight(make_map(), "1304", "1305").reason


def test_10_33_cli_explains_a_clear_los_past_an_own_hex_building(tmp_path):
    import json

    from click.testing import CliRunner

    from cli.main import cli

    data = {"format": "ironcross-map", "version": 1, "name": "t",
            "extent": {"first_column": 10, "last_column": 20, "first_row": 1, "last_row": 10},
            "hexes": [], "buildings": [{"id": "B1", "polygon": [[38.5, 9.5], [39.5, 9.5], [39.5, 10.5], [38.5, 10.5]]}]}
    p = tmp_path / "m.json"
    p.write_text(json.dumps(data))
    res = CliRunner().invoke(cli, ["los", str(p), "1304", "1305"])
    assert res.exit_code == 0, res.output
    assert "CLEAR" in res.output and "only in the firer's/target's own hexes" in res.output
    assert "1304 (B1 in the firer's own hex: no block, 10.33)" in res.output
    res_j = CliRunner().invoke(cli, ["los", str(p), "1304", "1305", "--json"])
    j = json.loads(res_j.output)
    assert j["clear"] and j["own_hex_buildings"] == [{"hex": "1304", "building": "B1"}, {"hex": "1305", "building": "B1"}]
    blocked = CliRunner().invoke(cli, ["los", str(p), "1303", "1306"])  # through both hexes
    assert "BLOCKED (10.31a) at 1304 by B1" in blocked.output


# ------------------------------------------------------------------ exactness of where a symbol is met
def _quarter(lo: int, hi: int):
    return st.integers(4 * lo, 4 * hi).map(lambda v: v / 4)


_wide_symbols = st.lists(st.tuples(_quarter(33, 48), _quarter(2, 14)), min_size=3, max_size=6)
_small_symbols = st.builds(lambda x0, y0, offs: [(x0 + dx, y0 + dy) for dx, dy in offs],
                           st.integers(34, 47), st.integers(3, 13),
                           st.lists(st.tuples(_quarter(-1, 1), _quarter(-1, 1)), min_size=3, max_size=5))


@settings(max_examples=300, deadline=None)
@given(st.one_of(_wide_symbols, _small_symbols),
       st.builds(Hex, st.integers(10, 18), st.integers(1, 8)), st.builds(Hex, st.integers(10, 18), st.integers(1, 8)))
def test_where_a_symbol_is_met_fast_path_agrees_with_the_exact_test(pts, a, b):
    """Symbols with corners on a quarter-unit grid (so they meet hexsides and hex corners exactly),
    spread over several hexes or small (often inside one hex): the float fast path settles only
    hexes where the exact test finds the symbol too and leaves every other such hex to it; a symbol
    inside one hex is met there exactly when the exact test says so; LOS stays symmetric."""
    from shapely.geometry import Polygon

    from maps import los as L

    poly = Polygon(pts)
    if a == b or not poly.is_valid or poly.area == 0:
        return
    m = make_map(cols=(10, 18), rows=(1, 8), buildings={"B1": pts})
    mlos = L._map_los(m)
    sym = mlos.buildings["B1"]
    rel = L._relative(a.col & 1, b.col - a.col, b.row - a.row)
    entries = [(i, Hex(a.col + e[0], a.row + e[1]), e) for i, e in enumerate(rel)
               if "B1" in mlos.cells.get(Hex(a.col + e[0], a.row + e[1]), L._DEFAULT_CELL)[3]]
    ca, cb = hexgrid.centre(a), hexgrid.centre(b)
    full = LineString([ca, cb])
    exact = L._meets_exact(sym, ca, cb, entries)
    if not sym.poly.intersects(full):
        assert exact == set()
        return
    fast = L._meets_fast(sym, ca, cb, entries)
    if fast is not None:
        settled, rest = fast
        undecided = {i for i, _h, _e in rest}
        assert settled <= exact and exact - settled <= undecided
        assert L._building_hexes(sym, ca, cb, entries) == exact
    if sym.home is not None:
        assert exact == {i for i, h, _ in entries if h == sym.home}
    f, r = line_of_sight(m, a, b), line_of_sight(m, b, a)
    assert (f.clear, f.rule) == (r.clear, r.rule), (f.reason, r.reason)
    assert {h.id: h.building for h in f.hexes} == {h.id: h.building for h in r.hexes}
