"""The printed Iron Cross mapsheet (maps/data/iron_cross_mapsheet.json): every fact the rulebook
states about the map, one test each, named by the rule or scenario it comes from.

The map is a reconstruction *as printed* (before the Terrain Clarifications and Errata), built from
maps/mapsheet_source/ by ``python -m maps.mapsheet_build``. Compass words in the scenarios follow
each scenario's north indicator: Scenarios 1, 4 and 6 have north toward row 27, Scenarios 2, 3 and 5
toward row 01.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from maps import hexgrid
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from maps.mapfile import load_map, load_map_file
from maps.mapsheet_build import OUTPUT, build_mapsheet, read_source, render_json

MAPSHEET = Path(__file__).resolve().parents[2] / "maps" / "data" / "iron_cross_mapsheet.json"
ERRATA_REF = "Terrain Clarifications and Errata"

# The errata's hex values: hex -> (printed, corrected)
ERRATA_TREES = {**{h: (2, 1) for h in ("1307", "1627", "1725", "1825", "2021")},
                **{h: (1, 2) for h in ("1121", "1222", "1625", "1724", "1826",
                                       "6319", "6325", "6418", "6615", "6720", "6824", "6919")},
                "6618": (2, 3)}
ERRATA_LEVELS = {**{h: (0, 1) for h in ("2125", "3615", "3715", "3816", "5409", "5508", "5607", "5701",
                                        "5708", "5710", "5903", "5919", "5920", "6019", "6220")},
                 "6020": (1, 2)}

MAP1, MAP2, MAP3 = (10, 30), (30, 50), (50, 70)


@pytest.fixture(scope="module")
def m() -> HexMap:
    return load_map(MAPSHEET)


def H(text: str) -> Hex:
    return hexgrid.parse_hex_id(text)


def bfs(links: dict[Hex, set[Hex]], a: Hex, b: Hex) -> list[Hex] | None:
    """Shortest path from a to b along a path graph (road_links / gully_links), or None."""
    prev: dict[Hex, Hex | None] = {a: None}
    todo = deque([a])
    while todo:
        h = todo.popleft()
        if h == b:
            out = [h]
            while prev[out[-1]] is not None:
                out.append(prev[out[-1]])  # type: ignore[arg-type]
            return out[::-1]
        for n in sorted(links.get(h, ())):
            if n not in prev:
                prev[n] = h
                todo.append(n)
    return None


def along(links: dict[Hex, set[Hex]], *ids: str) -> list[Hex]:
    """A continuous path along ``links`` visiting ``ids`` in order (fails the test if there is none)."""
    route: list[Hex] = [H(ids[0])]
    for a, b in zip(ids, ids[1:]):
        p = bfs(links, H(a), H(b))
        assert p is not None, f"no continuous path from {a} to {b}"
        route.extend(p[1:])
    return route


def in_cols(h: Hex, cols: tuple[int, int]) -> bool:
    return cols[0] <= h.col <= cols[1]


def ew_road_row(m: HexMap) -> dict[int, list[int]]:
    """Column -> rows of the Map 1 east-west road 1014-...-3014."""
    route = along(m.road_links, "1014", "1315", "1715", "2215", "2613", "2913", "3014")
    rows: dict[int, list[int]] = {}
    for h in route:
        rows.setdefault(h.col, []).append(h.row)
    return rows


def on_map(m: HexMap, h: Hex) -> bool:
    return m.contains(h)


# ------------------------------------------------------------------------------ the file itself

def test_json_is_up_to_date_with_source():
    data = build_mapsheet()
    assert json.loads(MAPSHEET.read_text(encoding="utf-8")) == data
    assert MAPSHEET.read_text(encoding="utf-8") == render_json(data), "run: python -m maps.mapsheet_build"
    assert OUTPUT == MAPSHEET


def test_build_is_deterministic():
    assert render_json(build_mapsheet()) == render_json(build_mapsheet())


def test_cli_validate_exits_0():
    result = CliRunner().invoke(cli, ["validate", str(MAPSHEET)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output


def test_map_provenance_is_reconstructed(m):
    p = m.doc.provenance
    assert p is not None and p.source == "reconstructed" and p.rationale


def test_building_hexes_are_as_authored(m):
    """Each building symbol covers exactly the hexes the source lists (HexMap computes them by overlap)."""
    src = read_source()
    declared = {st.title: {H(t) for t in st.words("hexes")} for st in src.stanzas if st.kind == "building"}
    assert declared.keys() == m.building_hexes.keys()
    for bid, hexes in declared.items():
        assert m.building_hexes[bid] == hexes, bid
    # one symbol per building hex, none on a road
    for h in {h for hs in declared.values() for h in hs}:
        assert len(m.buildings_at(h)) == 1, h.id
        assert not m.is_road(h), f"building on road hex {h.id}"
    for b in m.doc.buildings:
        assert b.provenance is not None, b.id


# ------------------------------------------------------------------------------ 2.1

def test_rule_2_1_extent_and_sections(m):
    assert (m.first_column, m.last_column, m.first_row, m.last_row) == (10, 70, 1, 27)
    assert [(s.name, s.first_column, s.last_column) for s in m.doc.sections] == [
        ("Map 1", 10, 30), ("Map 2", 30, 50), ("Map 3", 50, 70)]
    assert m.sections_of(H("3014")) == ["Map 1", "Map 2"]


def test_rule_2_1_map_character(m):
    """Map 1 built-up and semi-urban; Map 2 open with fewer buildings; Map 3 woods, marshes, gullies, hills."""
    def hexes(cols):
        return [h for h in m.all_hexes() if cols[0] <= h.col <= cols[1]]

    bhex = {h for hs in m.building_hexes.values() for h in hs}
    m1, m2, m3 = hexes((10, 29)), hexes((30, 49)), hexes((50, 70))
    # Map 1: most buildings, gardens and trees
    assert sum(h in bhex for h in m1) >= 35
    assert sum(m.trees(h) > 0 for h in m1) >= 60
    # Map 2: fewer buildings, mostly open
    assert 0 < sum(h in bhex for h in m2) < sum(h in bhex for h in m1) / 3
    open2 = [h for h in m2 if not m.trees(h) and not m.level(h) and not m.is_marsh(h) and h not in bhex]
    assert len(open2) >= 0.85 * len(m2)
    # Map 3: woods, marshes, gullies and hills
    assert sum(m.is_woods(h) for h in m3) >= 80
    assert sum(m.is_marsh(h) for h in m3) >= 60
    assert all(h.col >= 50 for h in m.gully_hexes)
    assert sum(m.level(h) > 0 for h in m3) >= 25


# ------------------------------------------------------------------------------ Map 1

def test_scenario2_and_scenario4_east_west_road(m):
    """24.5, 24.7: the east-west road 1014 - 1315 - 1715 - 2215 - 2613 - 2913 - 3014."""
    route = along(m.road_links, "1014", "1315", "1715", "2215", "2613", "2913", "3014")
    assert len(route) == len(set(route)), "the road through the named hexes is one continuous path"
    assert route[0].col == 10 and route[-1].col == 30  # from the west edge of Map 1 to its east edge


def test_scenario4_road_network(m):
    """24.7 Scenario 4: road network 1014 - 1315 - 1608 - 2108 - 2106 - 2608 - 2613 - 2913 - 3014
    (the errata reads '2703' as '2613')."""
    route = along(m.road_links, "1014", "1315", "1608", "2108", "2106", "2608", "2613", "2913", "3014")
    assert len(route) == len(set(route))
    assert not m.is_road(H("2703")), "the misprinted 2703 is not on the network"


def test_scenario6_north_south_road(m):
    """24.9 Scenario 6: the north-south road, hexes 2001 to 2027."""
    for r in range(1, 27):
        assert m.road_connected(Hex(20, r), Hex(20, r + 1)), f"20{r:02d}-20{r + 1:02d}"


def test_scenario6_buildings_1_3_4_hex_counts(m):
    """24.9 Scenario 6: Building 1 (13 hexes total), Building 3 (5 hexes total), Building 4 (7 hexes total)."""
    assert len(m.feature_hexes("Building 1")) == 13
    assert len(m.feature_hexes("Building 3")) == 5
    assert len(m.feature_hexes("Building 4")) == 7
    for n in (1, 3, 4):
        assert not {H("2513"), H("2714")} & m.feature_hexes(f"Building {n}")


def test_scenario4_buildings_1_and_2(m):
    """24.7 Scenario 4 names Buildings 1 and 2; the map numbers Buildings 1-4, all on Map 1."""
    numbered = sorted(b.number for b in m.doc.buildings if b.number is not None)
    assert numbered == [1, 2, 3, 4]
    for b in m.doc.buildings:
        if b.number is not None:
            assert b.id == f"B{b.number}"
            assert all(in_cols(h, MAP1) for h in m.building_hexes[b.id])
    assert m.is_multi_hex_building("B2")


def test_scenario2_buildings_on_both_sides_of_east_west_road(m):
    """24.5 Scenario 2: Squad D in building hexes south of the road, Squad E in building hexes north of
    them (north = row 01); the Russian wins by holding a multi-hex building."""
    rows = ew_road_row(m)
    north, south = set(), set()
    for bid, hs in m.building_hexes.items():
        for h in hs:
            if h.col in rows:
                (north if h.row < min(rows[h.col]) else south if h.row > max(rows[h.col]) else set()).add(bid)
    assert {"B1", "B2"} <= north
    assert {"B3", "B4"} <= south
    map1 = [bid for bid, hs in m.building_hexes.items() if all(in_cols(h, MAP1) for h in hs)]
    assert any(len(m.building_hexes[b]) == 1 for b in map1)
    assert any(len(m.building_hexes[b]) > 1 for b in map1)


def test_map1_buildings_stay_off_column_30(m):
    """Column 30 is shared with Map 2 (2.1); Scenario 6 scores buildings on Map 1 only."""
    for bid, hs in m.building_hexes.items():
        assert all(h.col != 30 for h in hs), bid


def test_scenario6_vp_maximum_34_after_errata(m):
    """24.9 Scenario 6: 1 VP per hex of Buildings 1 (13), 3 (5) and 4 (7), 3 VP per other building on
    Map 1; German Victory 19-34, so after the errata Map 1 has exactly 3 other buildings."""
    from maps.errata import apply_errata, load_errata

    fixed, _ = apply_errata(load_map_file(MAPSHEET), load_errata(MAPSHEET.parent / "iron_cross_errata.json"))
    hm = HexMap(fixed)
    map1 = [b for b in fixed.buildings if all(in_cols(h, MAP1) for h in hm.building_hexes[b.id])]
    others = [b for b in map1 if b.number not in (1, 3, 4)]
    assert len(others) == 3
    vp = sum(len(hm.building_hexes[f"B{n}"]) for n in (1, 3, 4)) + 3 * len(others)
    assert vp == 34
    assert any(len(hm.building_hexes[b.id]) == 1 for b in map1)  # still a one-hex building on Map 1
    # and as printed: nine building symbols on Map 1
    assert sum(all(in_cols(h, MAP1) for h in hs) for hs in m.building_hexes.values()) == 9


def test_map1_semi_urban_gardens(m):
    """2.1: built-up, semi-urban: gardens and trees beside the buildings, and a small hill by 2125."""
    bhex = {h for hs in m.building_hexes.values() for h in hs}
    gardens = [h for h in m.all_hexes() if in_cols(h, MAP1) and m.trees(h)
               and any(n in bhex for n in hexgrid.neighbours(h))]
    assert len(gardens) >= 10


# ------------------------------------------------------------------------------ errata (printed values)

def test_errata_printed_values_trees(m):
    for hid, (printed, _) in ERRATA_TREES.items():
        assert m.trees(H(hid)) == printed, hid


def test_errata_printed_values_levels(m):
    for hid, (printed, _) in ERRATA_LEVELS.items():
        rec = m.record(H(hid))
        assert rec.level == printed, hid
        assert rec.upper_level is None, hid


def test_errata_levels_sit_at_hill_edges(m):
    """The level corrections make sense: each hex lies at the edge of a hill, and 6020 beside the
    level-2 summit of Hill O."""
    for hid, (printed, corrected) in ERRATA_LEVELS.items():
        h = H(hid)
        assert any(m.level(n) >= corrected for n in hexgrid.neighbours(h) if on_map(m, n)), hid
    assert any(m.level(n) == 2 for n in hexgrid.neighbours(H("6020")))
    assert H("6020") in m.feature_hexes("Hill O")


def test_errata_hexes_carry_rulebook_provenance(m):
    for hid in (*ERRATA_TREES, *ERRATA_LEVELS, "4109"):
        rec = m.record(H(hid))
        assert rec.provenance is not None and rec.provenance.source == "rulebook", hid
        assert rec.provenance.ref.startswith(ERRATA_REF), hid
        assert rec.note and "printed" in rec.note, hid


def test_errata_printed_buildings(m):
    """'Hex 1322 is not a building hex. Hex 2513 is a multi-building hex. Hex 2714 is a multi-building
    hex. Hex 4109 has a one-hex building.' As printed: 1322, 2513 and 2714 are one-hex symbols (2513
    and 2714 each beside one multi-hex building, not Building 1, 3 or 4); 4109 has none."""
    for hid in ("1322", "2513", "2714"):
        ids = m.buildings_at(H(hid))
        assert len(ids) == 1 and m.building_hexes[ids[0]] == {H(hid)}, hid
        b = m.buildings[ids[0]]
        assert b.provenance.source == "rulebook" and b.provenance.ref.startswith(ERRATA_REF)
    for hid, partner in (("2513", "B2"), ("2714", "M1-2715")):
        h = H(hid)
        multis = [bid for bid, hs in m.building_hexes.items()
                  if len(hs) > 1 and any(hexgrid.distance(h, x) == 1 for x in hs)]
        assert multis == [partner], hid
        assert m.buildings[partner].number not in (1, 3, 4)
    assert not any(hexgrid.distance(H("1322"), x) == 1 for hs in m.building_hexes.values() for x in hs)
    h4109 = hexgrid.hex_polygon(H("4109"))
    assert not m.is_building_hex(H("4109"))
    assert all(not poly.intersects(h4109) for poly in m.building_polygons.values())


def test_errata_crest_label(m):
    """'Ignore the word crest on the map': the printed map has the label, on a hill of Map 2 or 3."""
    f = m.features["crest"]
    assert f.kind == "other" and len(f.hexes) == 1
    h = H(f.hexes[0])
    assert h.col >= 30 and m.level(h) >= 1
    assert f.provenance.source == "rulebook" and f.provenance.ref.startswith(ERRATA_REF)
    assert "crest" in f.provenance.rationale


def test_errata_applies_cleanly():
    """Every map correction of the shipped errata finds its printed value on this map."""
    from maps.errata import apply_errata, load_errata

    _, changes = apply_errata(load_map_file(MAPSHEET), load_errata(MAPSHEET.parent / "iron_cross_errata.json"))
    statuses = {c.status for c in changes}
    assert statuses <= {"applied", "skipped"}, [c for c in changes if c.status not in ("applied", "skipped")]
    assert sum(c.status == "applied" for c in changes) == len(ERRATA_TREES) + len(ERRATA_LEVELS) + 4 + 1


# ------------------------------------------------------------------------------ Map 2

def test_scenario1_road_4001_to_5014(m):
    """24.4 Scenario 1 / 24.9 Scenario 6: 'the road running from hexes 4001 to 5014'."""
    route = along(m.road_links, "4001", "5014")
    assert route[0].row == 1 and route[-1].col == 50


def test_scenario1_building_and_tree_hexes_beside_road(m):
    """24.4: the Germans deploy 'in any building or tree hex adjacent to the road running from hexes
    4001 to 5014' (and Scenario 6's Group 1 likewise)."""
    road = set(along(m.road_links, "4001", "5014"))
    near = {n for h in road for n in hexgrid.neighbours(h) if on_map(m, n) and n not in road}
    assert sum(m.is_building_hex(h) for h in near) >= 4
    assert sum(m.trees(h) > 0 for h in near) >= 5
    assert H("4109") in near  # the errata's one-hex building stands beside it


def test_scenario1_hill_k_beside_road(m):
    """24.4: 'or on Hill K': Hill K lies beside the road 4001-5014."""
    f = m.features["Hill K"]
    hk = m.feature_hexes("Hill K")
    assert f.kind == "hill" and all(m.level(h) >= 1 for h in hk)
    road = set(along(m.road_links, "4001", "5014"))
    assert any(hexgrid.distance(h, r) == 1 for h in hk for r in road)


def test_scenario1_victory_hexes_4307_4308(m):
    """24.4: a unit in both 4307 and 4308 wins: a two-hex building beside the road, mid-map."""
    a, b = H("4307"), H("4308")
    ids = m.buildings_at(a)
    assert ids and ids == m.buildings_at(b) and m.building_hexes[ids[0]] == {a, b}
    road = set(along(m.road_links, "4001", "5014"))
    assert any(n in road for n in hexgrid.neighbours(a)) and any(n in road for n in hexgrid.neighbours(b))
    assert "Scenario 1" in (m.record(a).note or "")


def test_scenario1_russian_entry_north_of_3014(m):
    """24.4: Russians enter on the north mapedge (row 27; north indicator 5001 -> 5002) or on the east
    mapedge (column 30) north of 3014; the Map 1 east-west road reaches 3014 and goes on into Map 2."""
    assert hexgrid.hexside_between(H("5001"), H("5002")) == 4  # north is toward row 27
    assert any(n.col == 31 for n in m.road_links[H("3014")])
    assert any(n.col == 29 for n in m.road_links[H("3014")])
    assert along(m.road_links, "3014", "4001")


def test_hills_j_k_l_on_map2(m):
    for name in ("Hill J", "Hill K", "Hill L"):
        f = m.features[name]
        assert f.kind == "hill" and f.provenance.source == "rulebook", name
        hs = m.feature_hexes(name)
        assert all(in_cols(h, MAP2) and m.level(h) >= 1 for h in hs), name


def test_scenario3_hills_j_and_k_south_of_hexrow_06(m):
    """24.6 Scenario 3 (north indicator 5002 -> 5001, north = row 01): the Russians deploy south of
    hexrow xx06 and must hold Hills J and K; the Germans enter from the north mapedge."""
    for name in ("Hill J", "Hill K"):
        assert all(h.row > 6 for h in m.feature_hexes(name)), name


def test_scenario6_hill_j_west_of_column_35(m):
    """24.9 Scenario 6 (north = row 27, so west = higher columns): Russian Group 3 deploys on Map 2 east
    of hex column 35xx (exclusive) and on Hill J, so Hill J lies west of 35xx."""
    assert all(h.col > 35 for h in m.feature_hexes("Hill J"))


def test_scenario6_hill_l_near_the_road(m):
    """24.9 Scenario 6: German Group 1 deploys beside the road 4001-5014 and on Hill L."""
    road = set(along(m.road_links, "4001", "5014"))
    assert min(hexgrid.distance(h, r) for h in m.feature_hexes("Hill L") for r in road) <= 4


# ------------------------------------------------------------------------------ Map 3

def test_scenario5_gullies(m):
    """24.8 Scenario 5: gully hexes 6723 to 5521 and 5403 to 6410."""
    for a, b in (("6723", "5521"), ("5403", "6410")):
        route = along(m.gully_links, a, b)
        assert all(in_cols(h, MAP3) for h in route)
    assert m.is_gully(H("6723")) and m.is_gully(H("5521"))


def test_scenario5_bridges(m):
    """24.8 Scenario 5: the bridge hexes 5806, 6410, 6521, 6815, and no other road hex on a gully."""
    assert {h.id for h in m.road_hexes & m.gully_hexes} == {"5806", "6410", "6521", "6815"}
    for hid in ("5806", "6410", "6521", "6815"):
        h = H(hid)
        assert m.is_bridge(h)
        assert len(m.road_links[h]) == 2  # the road runs over the bridge


def test_scenario5_hills_m_n_o_p(m):
    """24.8 Scenario 5: Hills M, N, O and P on Map 3, all in the Russian set-up area (north, i.e.
    toward row 01, of gully 6723-5521 and of hexes 5122-5422 and 6824-7024)."""
    line = [H(t) for t in ("5122", "5222", "5322", "5422", "6824", "6924", "7024")]
    line += along(m.gully_links, "6723", "5521")
    line_row = {}
    for h in line:
        line_row[h.col] = min(line_row.get(h.col, 99), h.row)
    for name in ("Hill M", "Hill N", "Hill O", "Hill P"):
        f = m.features[name]
        assert f.kind == "hill" and f.provenance.source == "rulebook", name
        for h in m.feature_hexes(name):
            assert in_cols(h, MAP3) and m.level(h) >= 1, (name, h.id)
            assert h.row < line_row.get(h.col, 99), (name, h.id)


def test_scenario5_road_from_south_to_north_mapedge(m):
    """24.8 Scenario 5: the Germans enter on the south mapedge (row 27), the T34a on the north (row 01);
    the road runs between them over the bridges."""
    route = along(m.road_links, "6527", "6521", "6815", "6410", "6401")
    assert route[0].row == 27 and route[-1].row == 1
    assert along(m.road_links, "5014", "5806", "6405")


def test_scenario5_marshes(m):
    """24.8 'Through the Marshes': marsh along the west edge (the German turn-2 entry 5015-5027) and the
    south edge."""
    assert sum(m.is_marsh(Hex(50, r)) for r in range(15, 28)) >= 8
    assert sum(m.is_marsh(Hex(c, 27)) for c in range(50, 71)) >= 8
    assert all(in_cols(h, MAP2) or in_cols(h, MAP3) for h in m.all_hexes() if m.is_marsh(h))


def test_scenario5_tree_errata_hexes_in_woods(m):
    """The Map 3 tree corrections (6319 6325 6418 6615 6720 6824 6919, 6618) lie in or beside woods."""
    for hid in ("6319", "6325", "6418", "6615", "6720", "6824", "6919", "6618"):
        assert sum(m.is_woods(n) for n in hexgrid.neighbours(H(hid)) if on_map(m, n)) >= 2, hid


# ------------------------------------------------------------------------------ levels

def test_level_sanity(m):
    """Hills are level 1 and 2; a level-2 hex lies inside a level-1 hill (10.34 aside). On the printed map
    the only level-0 neighbours of a level-2 hex are hexes the errata raises; after the errata's level
    corrections none is left."""
    corrected = {H(h): c for h, (_, c) in ERRATA_LEVELS.items()}

    def lvl(h: Hex) -> int:
        return corrected.get(h, m.level(h))

    for h in m.all_hexes():
        assert m.level(h) in (0, 1, 2), h.id
        if lvl(h) == 2:
            for n in hexgrid.neighbours(h):
                if on_map(m, n):
                    assert lvl(n) >= 1, (h.id, n.id)
                    assert m.level(n) >= 1 or n in corrected, (h.id, n.id)


def test_upper_level_used_sparingly(m):
    """10.34: a hex with two elevations counts at the lower; a few hexes at hill edges only."""
    uppers = [r for r in m.doc.hexes if r.upper_level is not None]
    assert 1 <= len(uppers) <= 4
    for r in uppers:
        h = H(r.id)
        assert r.upper_level == r.level + 1
        assert any(m.level(n) == r.upper_level for n in hexgrid.neighbours(h)), r.id


def test_hill_features_are_whole_hills(m):
    """A named hill is a connected group of hexes at level 1 or more."""
    for f in m.doc.features:
        if f.kind != "hill":
            continue
        hs = m.feature_hexes(f.name)
        assert all(m.level(h) >= 1 for h in hs), f.name
        start = next(iter(hs))
        seen, todo = {start}, [start]
        while todo:
            for n in hexgrid.neighbours(todo.pop()):
                if n in hs and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == hs, f.name


# ------------------------------------------------------------------------------ the source format

def _copy_source(tmp_path: Path) -> Path:
    import shutil

    from maps.mapsheet_build import SOURCE_DIR

    d = tmp_path / "src"
    shutil.copytree(SOURCE_DIR, d)
    return d


def test_source_bad_token_names_file_line_and_hex(tmp_path):
    from maps.mapsheet_build import SourceError

    d = _copy_source(tmp_path)
    p = d / "map2.txt"
    lines = p.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("07 "))
    lines[i] = lines[i].replace("...", ".x.", 1)
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(SourceError) as e:
        build_mapsheet(d)
    assert str(e.value).startswith(f"map2.txt:{i + 1}: hex 3007")


def test_source_missing_token_and_unknown_key(tmp_path):
    from maps.mapsheet_build import SourceError

    d = _copy_source(tmp_path)
    p = d / "map1.txt"
    text = p.read_text()
    p.write_text(text.replace("\n01 .1.     ...", "\n01 .1.", 1))
    with pytest.raises(SourceError, match=r"map1.txt:\d+: row 01: 9 tokens for the 10 even columns"):
        build_mapsheet(d)
    p.write_text(text)
    f = d / "features.txt"
    f.write_text(f.read_text().replace("  number 1\n", "  numbr 1\n", 1))
    with pytest.raises(SourceError, match="unknown key 'numbr'"):
        build_mapsheet(d)


def test_source_building_hexes_must_be_one_group(tmp_path):
    from maps.mapsheet_build import SourceError

    d = _copy_source(tmp_path)
    f = d / "features.txt"
    f.write_text(f.read_text().replace("  hexes 4307 4308\n", "  hexes 4307 4309\n", 1))
    with pytest.raises(SourceError, match="do not form one connected building"):
        build_mapsheet(d)


def test_build_main_check(tmp_path, capsys):
    from maps.mapsheet_build import main

    assert main(["--check"]) == 0
    out = tmp_path / "m.json"
    assert main(["--check", "-o", str(out)]) == 1
    assert main(["-o", str(out)]) == 0
    assert out.read_text() == MAPSHEET.read_text()
    assert main(["--ascii", "40-44"]) == 0
    assert "=" in capsys.readouterr().out
