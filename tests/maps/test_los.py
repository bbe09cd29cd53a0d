"""Line of sight, rule 10.3: every clause on small hand-made maps, and the worked examples."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
