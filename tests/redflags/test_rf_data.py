"""Red Flags data: provenance of every value, the roster of the fragment's examples, the terrain
mapping and the scenario loader's errors."""

from __future__ import annotations

import json

import pytest

from core.redflags import tables
from core.redflags.roster import RosterEntry, load_roster
from core.redflags.scenario import load_scenario, load_setup, scenario_from_data
from core.redflags.terrain import Terrain, terrain_mapping
from core.rule_system import ScenarioError
from maps.document_file import DocumentError
from tests.redflags.helpers import SHIPPED, scenario_data, unit

DATA_FILES = ("weapons.json", "movement.json", "rules.json", "terrain_mapping.json")


@pytest.mark.parametrize("name", DATA_FILES)
def test_rf_data_every_value_carries_its_provenance(name):
    data = tables.load_data(name)
    entries = list(tables.iter_valued(data))
    assert entries, name
    for loc, e in entries:
        assert e["provenance"] in ("rulebook", "reconstructed"), loc
        if e["provenance"] == "rulebook":
            assert e.get("source"), loc
        else:
            assert e.get("rationale"), loc


def test_rf_data_a_value_without_rationale_is_refused(tmp_path, monkeypatch):
    bad = {"x": {"value": 1, "provenance": "reconstructed"}}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    monkeypatch.setattr(tables, "DATA_DIR", tmp_path)
    tables._load.cache_clear()
    try:
        with pytest.raises(DocumentError) as e:
            tables.load_data("bad.json")
        assert "$.x" in str(e.value) and "rationale" in str(e.value)
    finally:
        tables._load.cache_clear()


def test_rf_rule_register_entries_are_printed_or_reconstructed():
    reg = tables.rule_register()
    for rid, r in reg.items():
        if r["provenance"] == "rulebook":
            assert r["section"] and r["quote"], rid
        else:
            assert r["provenance"] == "reconstructed" and r["rationale"] and r["title"], rid


@pytest.mark.parametrize("example,kind,cls", [
    ("ger_pzkpfw_iii", "afv", "medium"), ("ger_pzkpfw_iv", "afv", "medium"), ("ger_tiger", "afv", "heavy"),
    ("sov_t34_76", "afv", "medium"), ("sov_kv1", "afv", "heavy"), ("sov_t60", "afv", "light"),
    ("ger_pzkpfw_ii", "afv", "light"), ("sov_t26", "afv", "medium"), ("ger_panther", "afv", "medium"),
])
def test_rf_roster_movement_table_examples_keep_their_printed_class(example, kind, cls):
    e = load_roster().by_id()[example]
    assert (e.kind, e.afv_class) == (kind, cls)
    assert e.provenance.provenance == "rulebook" and "Movement table" in e.provenance.source


@pytest.mark.parametrize("example,role,engines", [
    ("ger_bf109", "fighter", 1), ("sov_il2", "ground_attack", 1), ("ger_ju87", "dive_bomber", 1),
    ("ger_fi156", "reconnaissance", 1), ("ger_he111", "bomber", 2), ("ger_ju52", "transport", 3),
    ("sov_yak1", "fighter", 1), ("sov_pe2", "ground_attack", 2),
])
def test_rf_roster_aircraft_table_examples(example, role, engines):
    e = load_roster().by_id()[example]
    assert (e.role, e.engines) == (role, engines)
    assert "Aircraft table" in e.provenance.source


def test_rf_roster_has_pak_guns_of_each_weight():
    r = load_roster().by_id()
    assert r["ger_pak36"].gun == "light_at_gun" and r["ger_pak38"].gun == "medium_at_gun"
    assert r["ger_pak40"].gun == "heavy_at_gun"
    assert r["ger_pak38"].size == "heavy"  # Movement table: medium AT guns are 'larger than field guns'


@pytest.mark.parametrize("fields,problem", [
    ({"kind": "infantry", "figures": ["rifle"] * 7}, "4 to 6 figures"),
    ({"kind": "infantry", "figures": ["rifle"] * 3}, "4 to 6 figures"),
    ({"kind": "infantry", "figures": ["rifle"] * 5, "support": "flamethrower"}, "support weapon"),
    ({"kind": "engineer", "figures": ["rifle"] * 5, "support": "hmg"}, "support weapon"),
    ({"kind": "infantry", "figures": ["bayonet"] * 5}, "figure weapon"),
    ({"kind": "afv", "afv_class": "medium", "gun": "field_gun"}, "tank gun"),
    ({"kind": "recon", "recon_mode": "armoured_car", "afv_class": "light", "gun": "light_tank_gun", "vehicles": 1},
     "two or three"),
    ({"kind": "recon", "recon_mode": "motorcycle", "figures": ["rifle"]}, "2 to 6"),
])
def test_rf_units_establishments_are_checked(fields, problem):
    base = {"id": "x", "side": "german", "name": "x", "provenance": {"provenance": "reconstructed", "rationale": "t"}}
    with pytest.raises(ValueError, match=problem):
        RosterEntry.model_validate({**base, **fields})


def test_rf_units_establishments_accept_four_to_six_figures():
    base = {"id": "x", "side": "german", "name": "x", "provenance": {"provenance": "reconstructed", "rationale": "t"}}
    for n in (4, 5, 6):
        RosterEntry.model_validate({**base, "kind": "infantry", "figures": ["rifle"] * n, "support": "hmg"})


def test_rf_terrain_mapping_entries_have_provenance_and_read_the_map():
    m = terrain_mapping()
    for feat in ("clear", "trees", "woods", "marsh", "level", "building", "road", "gully", "bridge"):
        entry = m["features"][feat]
        for key in ("movement", "vehicles", "los_obstacle", "cover"):
            assert entry[key]["provenance"] in ("rulebook", "reconstructed"), (feat, key)
    sc, hexmap, _r = load_scenario(SHIPPED)
    t = Terrain(hexmap)
    assert t.feature("3121") == "woods" and t.is_woods("3121")
    assert t.feature("3412") == "building" and t.cover("3412")
    assert t.feature("4323") == "marsh" and not t.cover("4323")
    assert t.level("3717") == 2 and t.is_hill("3616")
    assert t.feature("3320") == "road" and t.road_connected("3320", "3321")
    assert t.feature("3005") == "clear" and not t.cover("3005")
    assert t.feature("3102") == "trees" and t.cover("3102")  # one tree symbol: cover, no obstacle
    gullies = [h for h in ("6007", "6107") if hexmap.is_gully(hexmap.hex(h))]
    assert gullies and all(t.feature(h) == "gully" and t.cover(h) for h in gullies)
    assert t.feature("5806") == "bridge"


def test_rf_scenario_shipped_is_one_section_of_the_mapsheet():
    sc, hexmap, roster = load_scenario(SHIPPED)
    assert sc.rule_system == "redflags" and sc.map.section == "Map 2"
    st = load_setup(SHIPPED)
    assert all(30 <= int(h[:2]) <= 50 for h in st.area)
    assert set(sc.victory.objectives) <= st.area
    assert len(st.zone("german")) > 0 and len(st.zone("russian")) > 0
    cards = [(g.card.rank, g.card.suit) for s in ("german", "russian") for g in sc.side(s).groups]
    assert len(cards) == len(set(cards))


def _bad(tmp_path, data):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    with pytest.raises(DocumentError) as e:
        scenario_from_data(data, str(p))
    return str(e.value)


def test_rf_scenario_loader_names_file_path_and_problem(tmp_path):
    good = scenario_data([("A", "A-spades", [unit("G1", "ger_schuetzengruppe")])],
                         [("B", "K-hearts", [unit("R1", "sov_rifle_section")])])
    d = json.loads(json.dumps(good))
    d["map"]["sections"] = ["Map 9"]
    assert "bad.json: $.map.sections[0]: the map has no section 'Map 9'" in _bad(tmp_path, d)
    d["map"]["sections"] = ["Map 1", "Map 2"]
    assert "$.map.sections" in _bad(tmp_path, d)
    d = json.loads(json.dumps(good))
    d["german"]["groups"][0]["units"][0]["type"] = "ger_nothing"
    assert "$.german.groups[0].units[0].type: the roster has no unit type 'ger_nothing'" in _bad(tmp_path, d)
    d = json.loads(json.dumps(good))
    d["russian"]["groups"][0]["card"] = {"rank": "A", "suit": "spades"}
    assert "$.russian.groups[0].card: card A♠ is already the card of 'A'" in _bad(tmp_path, d)
    d = json.loads(json.dumps(good))
    d["victory"]["objectives"] = ["1205"]
    assert "$.victory.objectives[0]: hex 1205 is not in Map 2" in _bad(tmp_path, d)
    d = json.loads(json.dumps(good))
    d["turns"] = 0
    assert "$.turns" in _bad(tmp_path, d)
    d = json.loads(json.dumps(good))
    d["german"]["groups"][0]["units"][0]["type"] = "sov_rifle_section"
    assert "is a russian unit type, not german" in _bad(tmp_path, d)
    d = json.loads(json.dumps(good))
    d["german"]["groups"][0]["units"][0]["tow"] = "G1"
    assert "only an artillery unit is towed" in _bad(tmp_path, d)


def test_rf_scenario_fixed_setup_outside_the_zone_is_refused(tmp_path):
    d = scenario_data([("A", "A-spades", [unit("G1", "ger_schuetzengruppe")])],
                      [("B", "K-hearts", [unit("R1", "sov_rifle_section")])])
    d["german"]["setup_zone"] = {"hexes": ["3005"]}
    p = tmp_path / "s.json"
    p.write_text(json.dumps(d))
    with pytest.raises(ScenarioError, match="outside the german set-up zone"):
        load_setup(p, 0, {"units": {"G1": "3006", "R1": "3010"}})
