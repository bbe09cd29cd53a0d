"""Terrain LOS tables (maps/los_table.py): a cache of line_of_sight's answers, rule 10.3.

The table must give line_of_sight's answer for every pair (10.31 a/b/c, 10.32; firer UP and DOWN),
lines meeting AFVs or wrecks must be answered by line_of_sight itself (10.31 b, 11.16 b), and the
disk cache must never serve a table for a changed map or chart.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maps.los_table as lt
from maps.hexgrid import Hex
from maps.los import HexOccupancy, line_of_sight
from maps.los_table import (FrozenOccupancy, LosOracle, OccupiedLos, TableLos, build_los_table, load_los_table,
                            los_oracle, table_key)
from maps.mapfile import load_map
from maps.terrain_chart import load_terrain_chart
from tests.mapbuilder import make_map

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"


def _agree(m, table, a: Hex, b: Hex, chart=None) -> None:
    """The table's answer for a -> b (UP and DOWN) is line_of_sight's."""
    i, j = table.index[a], table.index[b]
    for down in (False, True):
        r = line_of_sight(m, a, b, firer_down=down, chart=chart)
        got = (table.clear(a, b, down), int(table.count_array[i, j]), int(table.marsh_array[i, j]))
        assert got == (r.clear, r.trees_afvs_wrecks, r.marsh_hexes), (a.id, b.id, down, r.rule, r.reason)


def _all_pairs(m, chart=None) -> int:
    table = build_los_table(m, chart=chart)
    hs = list(m.all_hexes())
    for a in hs:
        for b in hs:
            if a != b:
                _agree(m, table, a, b, chart)
    return len(hs)


@pytest.fixture(scope="module")
def sheet():
    return load_map(SHEET)


@pytest.mark.parametrize("cols, rows", [((14, 28), (1, 27)), ((34, 48), (1, 20))])
def test_10_3_table_agrees_with_line_of_sight_on_random_pairs_of_the_shipped_map(sheet, cols, rows):
    """Blocks of the corrected mapsheet with its multi-hex buildings (B1-B4, M1-2715, M2-...),
    hills and woods: 1,500 random ordered pairs each, firer UP and DOWN."""
    hs = [h for h in sheet.all_hexes() if cols[0] <= h.col <= cols[1] and rows[0] <= h.row <= rows[1]]
    table = build_los_table(sheet, hs)
    assert table.n == len(hs)
    rnd = random.Random(15)
    for _ in range(1500):
        a, b = rnd.sample(hs, 2)
        _agree(sheet, table, a, b)


def test_10_31_table_agrees_on_every_pair_of_the_small_los_maps():
    """Every ordered pair of small maps built for the 10.31 clauses: trees along hexsides (b),
    hills (a), marsh with a DOWN firer (c), building symbols inside one hex, across hexsides, with
    an edge on a hexside and reaching a corner (a, 10.33)."""
    maps = [
        make_map(cols=(10, 15), rows=(1, 10), trees={"1109": 2, "1110": 1, "1309": 1, "1310": 2, "1204": 3,
                                                     "1203": 1, "1402": 2, "1105": 4}),
        make_map(cols=(10, 15), rows=(1, 10), levels={"1204": 1, "1205": 1, "1304": 2, "1007": 1},
                 marsh=["1103", "1203", "1306", "1406"], trees={"1304": 2, "1102": 1}),
        make_map(cols=(10, 15), rows=(1, 10), buildings={
            "B1": [(29.5, 7.5), (30.5, 7.5), (30.5, 8.5), (29.5, 8.5)],        # inside 1004
            "B2": [(31.0, 9.0), (35.0, 9.0), (35.0, 11.0), (31.0, 11.0)],     # across a hexside
            "B3": [(38.0, 4.0), (40.0, 4.0), (40.0, 6.0), (38.0, 6.0)],       # edges on hexsides
            "B4": [(41.0, 13.0), (42.0, 12.0), (43.0, 13.0), (42.0, 14.0)],   # corners on a vertex
        }, trees={"1206": 2}),
    ]
    assert sum(_all_pairs(m) for m in maps) == 3 * 60


def test_10_32_table_agrees_on_every_pair_across_levels():
    """Different levels: the Sighting Chart with hills, woods, single trees and a building on a
    hill, firer on either level."""
    m = make_map(cols=(10, 15), rows=(1, 8), levels={"1001": 2, "1002": 2, "1103": 1, "1204": 1, "1507": 3,
                                                     "1408": 1, "1306": 2},
                 trees={"1103": 2, "1305": 1, "1203": 2, "1405": 3},
                 buildings={"B1": [(36.0, 7.0), (37.0, 7.0), (37.0, 9.0), (36.0, 9.0)]})
    _all_pairs(m)


#: the hex ids of the 10.3 random small maps (columns 10-15, rows 1-6)
_SMALL_MAP_HEXES = [f"{c}{r:02d}" for c in range(10, 16) for r in range(1, 7)]
_coord = st.sampled_from([x / 2 for x in range(58, 92)])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees=st.dictionaries(st.sampled_from(_SMALL_MAP_HEXES),
                             st.integers(0, 4), max_size=12),
       levels=st.dictionaries(st.sampled_from(_SMALL_MAP_HEXES),
                              st.integers(0, 2), max_size=8),
       marsh=st.lists(st.sampled_from(_SMALL_MAP_HEXES), max_size=5),
       box=st.tuples(_coord, st.sampled_from([x / 2 for x in range(2, 26)]), st.integers(1, 8), st.integers(1, 6)))
def test_10_3_table_agrees_on_random_small_maps(trees, levels, marsh, box):
    """Random trees, levels, marsh and a building symbol on a half-unit grid (so its edges fall on
    hexsides, corners and centres as often as not): every ordered pair agrees."""
    x, y, w, h = box
    m = make_map(cols=(10, 15), rows=(1, 6), trees=trees, levels=levels, marsh=sorted(set(marsh)),
                 buildings={"B1": [(x, y), (x + w / 2, y), (x + w / 2, y + h / 2), (x, y + h / 2)]})
    _all_pairs(m)


def test_10_31b_oracle_rechecks_lines_through_afvs_and_wrecks_exactly():
    """A line meeting a hex with AFVs or wrecks is not the table's: line_of_sight answers it, with
    them counted (10.31 b); lines that miss them keep the table's answer."""
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1003": 2, "1005": 1, "1209": 1, "1210": 2})
    oracle = LosOracle(m, None, build_los_table(m))
    assert isinstance(oracle.los("1002", "1007"), TableLos)
    assert oracle.los("1002", "1007").clear  # 3 trees: not more than three
    occ = FrozenOccupancy({Hex(10, 5): HexOccupancy(afvs=1)})
    r = oracle.los("1002", "1007", occupancy=occ)
    assert not r.clear and r.rule == "10.31b" and r.trees_afvs_wrecks == 4  # the 10.31 example
    assert isinstance(r, OccupiedLos)
    # the AFV is not on this line: the table answers
    away = oracle.los("1102", "1107", occupancy=occ)
    assert isinstance(away, TableLos) and away.clear
    # an AFV in the firer's or the target's own hex does not count (only intermediate hexes)
    own = oracle.los("1005", "1010", occupancy=occ)
    assert isinstance(own, TableLos)
    assert own.clear == line_of_sight(m, "1005", "1010", occupancy=occ).clear
    # a plain dict works too; wrecks count like AFVs (12.4)
    r2 = oracle.los("1002", "1006", occupancy={Hex(10, 4): HexOccupancy(wrecks=2)})
    assert r2.trees_afvs_wrecks == line_of_sight(m, "1002", "1006", occupancy={Hex(10, 4): HexOccupancy(wrecks=2)}
                                                 ).trees_afvs_wrecks == 5 and not r2.clear


def test_10_32_10_31_clear_through_afvs_known_without_the_count():
    """AFVs and wrecks cannot change clear/blocked between different levels (10.32 has no AFVs)
    nor where the terrain alone blocks (they only add to the 10.31 b count): those answers come
    without line_of_sight; the count still is line_of_sight's. Where the terrain leaves the line
    clear at one level the count decides (more than three blocks), again without line_of_sight."""
    m = make_map(cols=(10, 20), rows=(1, 12), levels={"1010": 1}, trees={"1004": 4})
    oracle = LosOracle(m, None, build_los_table(m))
    occ = FrozenOccupancy({Hex(10, 6): HexOccupancy(afvs=1), Hex(10, 3): HexOccupancy(wrecks=1)})
    up = oracle.los("1002", "1010", occupancy=occ)  # level 0 to level 1 through 1006
    blocked = oracle.los("1002", "1008", occupancy=occ)  # four trees in 1004 block already
    assert isinstance(up, OccupiedLos) and isinstance(blocked, OccupiedLos)
    assert up.clear == line_of_sight(m, "1002", "1010", occupancy=occ).clear
    assert not blocked.clear
    assert not oracle._exact  # neither needed line_of_sight
    assert up.trees_afvs_wrecks == line_of_sight(m, "1002", "1010", occupancy=occ).trees_afvs_wrecks
    assert blocked.trees_afvs_wrecks == 6 and not oracle._exact  # the count alone traces no building
    assert blocked.rule == "10.31b" and len(oracle._exact) == 1  # the rule is line_of_sight's
    # same level and clear by the terrain: the AFV decides by the count (one AFV: clear)
    near = oracle.los("1005", "1007", occupancy=occ)
    assert near.clear == line_of_sight(m, "1005", "1007", occupancy=occ).clear is True
    assert near.trees_afvs_wrecks == 1 and len(oracle._exact) == 1
    # three trees and the AFV in 1005 make four: blocked (the 10.31 example), by the count
    m2 = make_map(cols=(10, 20), rows=(1, 12), trees={"1003": 2, "1004": 1})
    o2 = LosOracle(m2, None, build_los_table(m2))
    r = o2.los("1002", "1007", occupancy=FrozenOccupancy({Hex(10, 5): HexOccupancy(afvs=1)}))
    assert isinstance(r, OccupiedLos) and not r.clear and r.trees_afvs_wrecks == 4 and not o2._exact


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees=st.dictionaries(st.sampled_from(_SMALL_MAP_HEXES),
                             st.integers(0, 3), max_size=10),
       marsh=st.lists(st.sampled_from(_SMALL_MAP_HEXES), max_size=4),
       occupied=st.dictionaries(st.sampled_from([f"{c}{r:02d}" for c in range(11, 15) for r in range(2, 6)]),
                                st.tuples(st.integers(0, 2), st.integers(0, 2)).filter(lambda t: sum(t) > 0),
                                min_size=1, max_size=8))
def test_10_31b_occupied_answers_equal_line_of_sight_without_tracing_it(trees, marsh, occupied):
    """Random trees (hexside pairs included), Marsh and AFVs/wrecks (inside the map's edge, so some
    line meets them) on a small map: clear, the 10.31 b count, the Marsh count and the level
    difference of every line through AFVs or wrecks are line_of_sight's, firer UP and DOWN, and
    none of them traced the line again."""
    m = make_map(cols=(10, 15), rows=(1, 6), trees=trees, marsh=sorted(set(marsh)))
    oracle = LosOracle(m, None, build_los_table(m))
    occ = FrozenOccupancy({m.hex(h): HexOccupancy(afvs=a, wrecks=w)
                           for h, (a, w) in occupied.items()})
    hs = list(m.all_hexes())
    compared = 0
    for a in hs:
        for b in hs:
            if a == b:
                continue
            for down in (False, True):
                got = oracle.los(a, b, firer_down=down, occupancy=occ)
                if not isinstance(got, OccupiedLos):
                    continue
                compared += 1
                ref = line_of_sight(m, a, b, firer_down=down, occupancy=occ)
                assert (got.clear, got.trees_afvs_wrecks, got.marsh_hexes, got.level_difference) == (
                    ref.clear, ref.trees_afvs_wrecks, ref.marsh_hexes, ref.level_difference), (a.id, b.id, down)
    assert compared > 0 and not oracle._exact


def test_10_31c_oracle_firer_down_through_marsh():
    m = make_map(cols=(10, 20), rows=(1, 12), marsh=["1005"])
    oracle = LosOracle(m, None, build_los_table(m))
    assert oracle.los("1002", "1008").clear
    down = oracle.los("1002", "1008", firer_down=True)
    assert not down.clear and down.rule == "10.31c" and down.blocking_hex == "1005"


def test_10_3_oracle_equals_line_of_sight_with_random_afvs_and_wrecks(sheet):
    """Random AFVs and wrecks on a block of the shipped map: every answer (clear, counts, levels,
    rule, blocking hex) is line_of_sight's."""
    hs = [h for h in sheet.all_hexes() if 14 <= h.col <= 26 and 8 <= h.row <= 22]
    oracle = LosOracle(sheet, None, build_los_table(sheet, hs))
    rnd = random.Random(3)
    for _ in range(8):
        occ = FrozenOccupancy({h: HexOccupancy(afvs=rnd.randint(0, 1), wrecks=rnd.randint(0, 2))
                               for h in rnd.sample(hs, 12)})
        for _ in range(150):
            a, b = rnd.sample(hs, 2)
            down = rnd.random() < 0.3
            got = oracle.los(a, b, firer_down=down, occupancy=occ)
            ref = line_of_sight(sheet, a, b, firer_down=down, occupancy=occ)
            assert (got.clear, got.trees_afvs_wrecks, got.marsh_hexes, got.level_difference, got.range) == (
                ref.clear, ref.trees_afvs_wrecks, ref.marsh_hexes, ref.level_difference, ref.range)
            assert (got.rule, got.blocking_hex, got.hex_ids) == (ref.rule, ref.blocking_hex, ref.hex_ids)


def test_10_3_oracle_answers_hexes_outside_the_table_exactly():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1504": 4})
    area = [h for h in m.all_hexes() if h.col <= 14]
    oracle = LosOracle(m, None, build_los_table(m, area))
    r = oracle.los("1004", "1704")  # 1704 is outside the table
    assert r == line_of_sight(m, "1004", "1704")
    assert oracle.los("1004", "1004").clear == line_of_sight(m, "1004", "1004").clear


def test_los_table_cache_is_written_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("IRONCROSS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(lt, "_TABLES", {})
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2}, levels={"1507": 1})
    t1 = load_los_table(m)
    files = list((tmp_path / "los").glob("los-*.npz"))
    assert len(files) == 1 and t1.key[:40] in files[0].name
    # another process (an empty memory cache) reads the file instead of building
    monkeypatch.setattr(lt, "_TABLES", {})
    monkeypatch.setattr(lt, "build_los_table", lambda *a, **k: pytest.fail("built again"))
    t2 = load_los_table(make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2}, levels={"1507": 1}))
    assert t2.key == t1.key and (t2.flags_array == t1.flags_array).all()
    assert (t2.count_array == t1.count_array).all() and t2.ids == t1.ids


def test_los_table_cache_is_invalidated_when_the_map_or_chart_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("IRONCROSS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(lt, "_TABLES", {})
    chart = load_terrain_chart()
    base = make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2}, levels={"1507": 1})
    k0 = table_key(base, list(base.all_hexes()), chart)
    t0 = load_los_table(base, chart=chart)
    assert t0.key == k0
    # a tree more, a level changed, marsh, a building: each a new key, a new table, new answers
    changed = [
        make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 3}, levels={"1507": 1}),
        make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2}, levels={"1507": 2}),
        make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2}, levels={"1507": 1}, marsh=["1306"]),
        make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2}, levels={"1507": 1},
                 buildings={"B1": [(33.0, 9.0), (34.0, 9.0), (34.0, 10.0), (33.0, 10.0)]}),
    ]
    keys = {k0}
    for m in changed:
        t = load_los_table(m, chart=chart)
        assert t.key not in keys
        keys.add(t.key)
    assert len(list((tmp_path / "los").glob("los-*.npz"))) == 5
    # the 1205 tree change shows in the answers read back
    t3 = load_los_table(changed[0], chart=chart)
    assert t3.clear("1204", "1206") != t0.clear("1204", "1206") or \
        t3.count_array.sum() != t0.count_array.sum()
    # the chart's obstacle heights (10.32 a) are part of the key
    higher = chart.model_copy(deep=True)
    row = higher.row("woods")
    row.level.value = row.level.value + 1
    assert table_key(base, list(base.all_hexes()), higher) != k0
    # something LOS does not read (a road) keeps the key
    road = make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2}, levels={"1507": 1}, roads=[["1001", "1002"]])
    assert table_key(road, list(road.all_hexes()), chart) == k0
    # and so does the set of hexes
    assert table_key(base, [h for h in base.all_hexes() if h.col < 15], chart) != k0


def test_los_table_cache_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("IRONCROSS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("IRONCROSS_LOS_CACHE", "off")
    monkeypatch.setattr(lt, "_TABLES", {})
    load_los_table(make_map(cols=(10, 14), rows=(1, 6)))
    assert not (tmp_path / "los").exists()


def test_los_oracle_small_areas_and_tables_off_are_exact(tmp_path, monkeypatch):
    monkeypatch.setenv("IRONCROSS_CACHE_DIR", str(tmp_path))
    m = make_map(cols=(10, 14), rows=(1, 6), trees={"1203": 2})
    assert los_oracle(m).table is None  # fewer hexes than TABLE_MIN_HEXES
    assert los_oracle(m, min_hexes=0).table is not None
    monkeypatch.setenv("IRONCROSS_LOS_TABLE", "off")
    assert los_oracle(make_map(cols=(10, 40), rows=(1, 12))).table is None


def test_frozen_occupancy_cannot_change():
    occ = FrozenOccupancy({Hex(10, 5): HexOccupancy(afvs=1)})
    with pytest.raises(TypeError):
        occ[Hex(10, 6)] = HexOccupancy(wrecks=1)
    with pytest.raises(TypeError):
        occ.update({})
    import copy

    assert copy.deepcopy(occ) == occ and isinstance(copy.deepcopy(occ), FrozenOccupancy)


def test_los_oracle_loads_its_table_in_the_background_without_changing_answers(tmp_path, monkeypatch):
    """wait=False (the editor's hot-seat): answers are line_of_sight's at once, the table's once
    it is ready; the same either way."""
    import time

    monkeypatch.setenv("IRONCROSS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(lt, "_TABLES", {})
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1205": 2, "1306": 3}, levels={"1507": 1}, marsh=["1104"])
    o = los_oracle(m, min_hexes=0, wait=False)
    pairs = [("1002", "1207"), ("1104", "1810"), ("1507", "1101"), ("1301", "1311")]
    early = [(o.los(a, b).clear, o.los(a, b, firer_down=True).clear) for a, b in pairs]
    deadline = time.time() + 60
    while o.table is None and time.time() < deadline:
        time.sleep(0.05)
    assert o.table is not None
    late = [(o.los(a, b).clear, o.los(a, b, firer_down=True).clear) for a, b in pairs]
    ref = [(line_of_sight(m, a, b).clear, line_of_sight(m, a, b, firer_down=True).clear) for a, b in pairs]
    assert early == late == ref
    assert isinstance(o.los("1002", "1207"), TableLos)


def test_los_table_unreadable_cache_file_is_reported_and_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("IRONCROSS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(lt, "_TABLES", {})
    m = make_map(cols=(10, 14), rows=(1, 6), trees={"1203": 2})
    path = lt._table_path(table_key(m, list(m.all_hexes())))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a table")
    with pytest.warns(UserWarning, match="unreadable"):
        t = load_los_table(m)
    assert t.clear("1202", "1204") == line_of_sight(m, "1202", "1204").clear
    monkeypatch.setattr(lt, "_TABLES", {})
    assert lt.LosTable.load(path, t.key) is not None  # written again, readable now
