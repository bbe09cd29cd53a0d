"""The scenario model and file: OOB parsing (24.1), checks with clear errors, save/load, errata."""

from __future__ import annotations

import json

import pytest

from core.document_kinds import validate_file
from maps.document_file import DocumentError
from scenarios.model import (
    AFVEntry,
    CommanderEntry,
    CrewWeaponEntry,
    GrenadesEntry,
    IPEntry,
    MinesEntry,
    OOBParseError,
    Scenario,
    SquadEntry,
    UnitSpec,
    parse_oob_entry,
    parse_oob_line,
)
from scenarios.scenario_file import load_scenario, save_scenario, scenario_from_data
from tests.mapbuilder import make_map


# ------------------------------------------------------------------ OOB parser

def test_rulebook_examples_24_1():
    e = parse_oob_entry("Squad D less R PR9")
    assert isinstance(e, SquadEntry) and e.letter == "D" and e.less == [UnitSpec(type="R", pr=9)] and e.ammo is None
    e = parse_oob_entry("Squad D (10)")
    assert e.ammo == 10 and e.less == [] and e.only is None


@pytest.mark.parametrize("text, expected", [
    ("Squad D (10) less R PR9", SquadEntry(letter="D", ammo=10, less=[UnitSpec(type="R", pr=9)])),
    ("Squad A (9) less LMG PR9, R PR8, PR7, PR6", SquadEntry(letter="A", ammo=9, less=[
        UnitSpec(type="LMG", pr=9), UnitSpec(type="R", pr=8), UnitSpec(type="R", pr=7), UnitSpec(type="R", pr=6)])),
    ("Squad E (12) less LMG PR10 and 2 FT's", SquadEntry(letter="E", ammo=12, less=[
        UnitSpec(type="LMG", pr=10), UnitSpec(type="FT", count=2)])),
    ("Squad F (3 units, MP PR9, PR8, PR6 only)", SquadEntry(letter="F", only=[
        UnitSpec(type="MP", pr=9), UnitSpec(type="MP", pr=8), UnitSpec(type="MP", pr=6)])),
    ("Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)", SquadEntry(letter="E", only=[
        UnitSpec(type="MP", pr=10), UnitSpec(type="LMG", pr=9, ammo=10), UnitSpec(type="R", pr=8),
        UnitSpec(type="FT", pr=9, ammo=4)])),
    ("Squad E (20 each)", SquadEntry(letter="E", ammo=20)),
    ("Squad G", SquadEntry(letter="G")),
    ("PL", CommanderEntry(type="PL")),
    ("PL PR10", CommanderEntry(type="PL", pr=10)),
    ("APL 9", CommanderEntry(type="APL", pr=9)),
    ("PS with Squad C", CommanderEntry(type="PS", with_unit="Squad C")),
    ("MMG #1 (12)", CrewWeaponEntry(weapon="MMG", numbers=[1], ammo=12)),
    ("MMG #'s 1 & 2 (14 each)", CrewWeaponEntry(weapon="MMG", numbers=[1, 2], ammo=14)),
    ("MMG #'s 1 & 2 (14 each) with Squad C", CrewWeaponEntry(weapon="MMG", numbers=[1, 2], ammo=14, with_unit="Squad C")),
    ("45AT #'s 1 & 2", CrewWeaponEntry(weapon="45AT", numbers=[1, 2])),
    ("MOR #1 (21)", CrewWeaponEntry(weapon="MOR", numbers=[1], ammo=21)),
    ("IIIe #'s 1 & 2", AFVEntry(type="IIIe", numbers=[1, 2])),
    ("IVf2 #1", AFVEntry(type="IVf2", numbers=[1])),
    ("Stug III 6's 1 & 2", AFVEntry(type="Stug III", numbers=[1, 2])),
    ("IP2 x 1", IPEntry(points=2, count=1)),
    ("10 AT Mine Factors", MinesEntry(mine_type="AT", factors=10)),
    ("38 AP Mine Factors", MinesEntry(mine_type="AP", factors=38)),
    ("Grenades (6)", GrenadesEntry(count=6)),
])
def test_parse_oob_entry_forms(text, expected):
    got = parse_oob_entry(text)
    assert got.model_copy(update={"text": ""}) == expected
    assert got.text == text


def test_ip_with_placement_restriction():
    e = parse_oob_entry("IP3 x 1 on any building hex")
    assert (e.points, e.count) == (3, 1) and e.where.describe() == "building hexes"


def test_parse_oob_line_and_the_printed_comma():
    es = parse_oob_line("GROUP 3: Squad D (22) less R PR9, IP1 x 2; 12 AT Mine Factors; 12 AP Mine Factors.")
    assert [type(e).__name__ for e in es] == ["SquadEntry", "IPEntry", "MinesEntry", "MinesEntry"]
    assert es[0].less == [UnitSpec(type="R", pr=9)] and es[1].text == "IP1 x 2"


@pytest.mark.parametrize("bad", ["Squad", "Squad D (ten)", "PX PR9", "Squad F (2 units, MP PR9, PR8, PR6 only)",
                                 "Squad D less PR9", "IP2 x 1 on a hill", "T34a #1 (10)"])
def test_parser_refuses_unknown_forms(bad):
    with pytest.raises(OOBParseError):
        parse_oob_entry(bad)


# ------------------------------------------------------------------ model and file

def minimal(**over):
    data = {
        "format": "ironcross-scenario", "version": 1, "number": 9, "title": "Test",
        "map": {"file": "unused.json", "sections": ["All"]},
        "north": {"hex": "1002", "points_to": "1001"},
        "turns": 5, "sets_up_first": "german", "moves_first": "russian",
        "german": {"groups": [{"name": "Main", "oob": [{"kind": "squad", "letter": "C", "ammo": 10, "text": "Squad C (10)"}],
                               "setup": {"region": {"kind": "beyond", "direction": "north", "row": 5}}}],
                   "oob": [{"kind": "grenades", "count": 6}]},
        "russian": {"groups": [{"name": "Main", "oob": [{"kind": "commander", "type": "PL", "pr": 10}],
                                "entry": {"options": [{"turn": 1, "region": {"kind": "map_edge", "direction": "south"}}]}}],
                    "infiltration": {"allowed": True, "zone": {"kind": "beyond", "direction": "south", "row": 5}}},
        "victory": {"outcomes": [{"result": "german", "condition": {"kind": "none_in", "side": "russian",
                                                                     "region": {"kind": "hexes", "hexes": ["1203"]}}}],
                    "default": "russian"},
    }
    data.update(over)
    return data


@pytest.fixture(scope="module")
def small():
    return make_map((10, 15), (1, 8))


def test_minimal_scenario_loads(small):
    sc = scenario_from_data(minimal(), "t.json", hexmap=small, roster=None)
    assert sc.german.grenades == 6 and sc.russian.infiltration.allowed
    assert sc.russian.groups[0].entry.options[0].phase == "movement"


def problems(data, small, **kw):
    with pytest.raises(DocumentError) as e:
        scenario_from_data(data, "bad.json", hexmap=small, **kw)
    return str(e.value)


def test_unknown_region_kind_is_a_clear_error(small):
    d = minimal()
    d["german"]["groups"][0]["setup"]["region"] = {"kind": "blob"}
    msg = problems(d, small, roster=None)
    assert msg.startswith("bad.json: $.german.groups[0].setup.region: ") and "'blob'" in msg


def test_empty_region_is_a_clear_error(small):
    d = minimal()
    d["german"]["groups"][0]["setup"]["region"] = {"kind": "beyond", "direction": "north", "row": 1}
    msg = problems(d, small, roster=None)
    assert "bad.json: $.german.groups[0].setup.region: region resolves to no hexes" in msg
    assert "north of hexrow xx01" in msg


def test_unresolvable_region_names_the_inner_path(small):
    d = minimal()
    d["victory"]["outcomes"][0]["condition"]["region"] = {"kind": "union", "of": [{"kind": "feature", "name": "Hill Q"}]}
    msg = problems(d, small, roster=None)
    assert "bad.json: $.victory.outcomes[0].condition.region.of[0].name: map 'test map' has no feature" in msg


def test_unknown_unit_against_the_roster(small):
    from scenarios.counters import load_counters

    roster = load_counters()
    d = minimal()
    d["german"]["groups"][0]["oob"].append({"kind": "squad", "letter": "Q", "text": "Squad Q"})
    d["russian"]["groups"][0]["oob"].append({"kind": "afv", "type": "T34a", "numbers": [7], "text": "T34a #7"})
    msg = problems(d, small, roster=roster)
    assert "bad.json: $.german.groups[0].oob[1]: Squad Q: unknown unit: no german Squad 'Q'" in msg
    assert "bad.json: $.russian.groups[0].oob[1]: T34a #7: unknown unit:" in msg


def test_less_unit_missing_from_the_squad(small):
    from scenarios.counters import load_counters

    d = minimal()
    d["german"]["groups"][0]["oob"][0] = parse_oob_entry("Squad C (10) less R PR1").model_dump(mode="json")
    msg = problems(d, small, roster=load_counters())
    assert "$.german.groups[0].oob[0].less: Squad C (10) less R PR1: german Squad C has 0 R PR1 unit(s)" in msg


def test_structure_checks(small):
    d = minimal()
    d["russian"]["groups"][0]["entry"]["options"][0]["turn"] = 6
    d["german"]["detachments"] = [{"name": "X", "from_group": "Nope", "limits": [{"kind": "squad", "count": 1}],
                                   "entry": {"options": [{"turn": 1, "region": {"kind": "hexes", "hexes": ["1001"]}}]}}]
    msg = problems(d, small, roster=None)
    assert "$.russian.groups[0].entry.options[0].turn: entry turn 6 is after the last game turn 5" in msg
    assert "$.german.detachments[0].from_group: no german group 'Nope'" in msg


def test_group_needs_setup_or_entry(small):
    d = minimal()
    del d["german"]["groups"][0]["setup"]
    assert "needs exactly one of 'setup' or 'entry'" in problems(d, small, roster=None)


def test_format_and_version(small):
    assert "$.version: version 2 is newer" in problems(minimal(version=2), small, roster=None)
    assert "$.format: unknown format" in problems(minimal(format="ironcross-map"), small, roster=None)


def test_save_and_load_round_trip(tmp_path):
    from maps.errata import CORRECTED_MAPSHEET
    from scenarios.scenario_file import SHIPPED_SCENARIOS

    sc = load_scenario(SHIPPED_SCENARIOS[0], roster=None)
    out = tmp_path / "copy.json"
    save_scenario(out, sc.model_copy(update={"map": sc.map.model_copy(update={"file": str(CORRECTED_MAPSHEET)})}))
    again = load_scenario(out, roster=None)
    assert again.model_dump(exclude={"map"}) == sc.model_dump(exclude={"map"})
    assert "scenario 1 'Demyansk Pocket'" in validate_file(out)


def test_missing_map_file(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(minimal()), encoding="utf-8")
    with pytest.raises(DocumentError, match=r"\$\.map\.file: cannot load map 'unused.json'"):
        load_scenario(p, roster=None)


def test_scenario_errata_apply_to_the_printed_text():
    """Scenario 4 as printed (2703) -> the shipped, corrected scenario (2613)."""
    from maps.errata import SHIPPED_ERRATA, load_errata
    from scenarios.scenario_file import SHIPPED_SCENARIOS, apply_scenario_errata

    shipped = load_scenario(SHIPPED_SCENARIOS[3], check=False)
    data = shipped.model_dump(mode="json")
    note = data["russian"]["notes"][2]
    note["text"], note["printed"], note["erratum"] = note["printed"], None, None
    data["errata"] = []
    data["regions"]["road network"]["through"][6] = "2703"
    printed = Scenario.model_validate(data)
    fixed, report = apply_scenario_errata(printed, load_errata(SHIPPED_ERRATA))
    assert report == ["scenario 4 russian.notes point 3: 2703 -> 2613: applied"]
    assert fixed.model_dump() == shipped.model_dump()
    _, again = apply_scenario_errata(fixed, load_errata(SHIPPED_ERRATA))
    assert again == ["scenario 4 russian.notes point 3: 2703 -> 2613: already applied"]


# ------------------------------------------------------------------ every hex list on the map (24.1 MAP)

def _with_region(d, where, region):
    """Put ``region`` at ``where`` in the scenario data ``d`` (adding what the place needs)."""
    if where == "setup":
        d["german"]["groups"][0]["setup"]["region"] = region
    elif where == "entry":
        d["russian"]["groups"][0]["entry"]["options"][0]["region"] = region
    elif where == "infiltration":
        d["russian"]["infiltration"]["zone"] = region
    elif where == "group_ip":
        d["german"]["groups"][0]["oob"].append({"kind": "ip", "points": 1, "count": 1, "where": region})
    elif where == "side_ip":
        d["german"]["oob"].append({"kind": "ip", "points": 1, "count": 1, "where": region})
    elif where == "victory":
        d["victory"]["outcomes"][0]["condition"]["region"] = region
    elif where == "named":
        d["regions"] = {"Spot": region}
    elif where == "detachment":
        d["russian"]["detachments"] = [{"name": "X", "from_group": "Main", "limits": [{"kind": "commander", "count": 1}],
                                        "entry": {"options": [{"turn": 1, "region": region}]}}]
    return d


_PLACES = {
    "setup": "$.german.groups[0].setup.region",
    "entry": "$.russian.groups[0].entry.options[0].region",
    "infiltration": "$.russian.infiltration.zone",
    "group_ip": "$.german.groups[0].oob[1].where",
    "side_ip": "$.german.oob[1].where",
    "victory": "$.victory.outcomes[0].condition.region",
    "named": "$.regions.Spot",
    "detachment": "$.russian.detachments[0].entry.options[0].region",
}


@pytest.mark.parametrize("where", sorted(_PLACES))
def test_24_1_a_hex_off_the_map_is_refused_in_every_hex_list_naming_file_path_and_hex(where, small):
    """Set-up zones (and so hidden hexes, 24.21), entry hexes, infiltration zones (24.32), IP zones
    (18.1), victory regions, named regions, detachment entries: a listed hex off the map is an error
    naming the file, the JSON path and the hex."""
    d = _with_region(minimal(), where, {"kind": "hexes", "hexes": ["1203", "1799"]})
    msg = problems(d, small, roster=None)
    assert f"bad.json: {_PLACES[where]}.hexes[1]: hex 1799 is not on map 'test map'" in msg


def test_24_1_every_bad_hex_of_a_list_is_named_not_only_the_first(small):
    """A hex list with two hexes off the map and one good one: both bad hexes are reported, each
    at its own index, in one validation pass."""
    d = _with_region(minimal(), "setup", {"kind": "hexes", "hexes": ["1799", "1203", "1899"]})
    msg = problems(d, small, roster=None)
    assert f"bad.json: {_PLACES['setup']}.hexes[0]: hex 1799 is not on map 'test map'" in msg
    assert f"bad.json: {_PLACES['setup']}.hexes[2]: hex 1899 is not on map 'test map'" in msg


@pytest.mark.parametrize("where", sorted(_PLACES))
def test_24_1_a_hex_outside_the_playing_area_is_refused_in_every_hex_list(where):
    m = make_map((10, 15), (1, 8), sections=[{"name": "All", "first_column": 10, "last_column": 13},
                                             {"name": "East", "first_column": 14, "last_column": 15}])
    d = _with_region(minimal(), where, {"kind": "hexes", "hexes": ["1203", "1404"]})
    msg = problems(d, m, roster=None)
    assert f"bad.json: {_PLACES[where]}.hexes[1]: hex 1404 is outside the scenario's playing area" in msg
    d = _with_region(minimal(), where, {"kind": "hex_range", "first": "1104", "last": "1404"})
    msg = problems(d, m, roster=None)
    assert f"bad.json: {_PLACES[where]}.last: hex 1404 is outside the scenario's playing area" in msg


def test_24_1_validate_names_the_file_path_and_hex_of_an_off_map_set_up_hex(tmp_path):
    """``ironcross validate`` on a shipped scenario whose set-up zone lists a hex off the mapsheet."""
    from scenarios.scenario_file import SHIPPED_SCENARIOS

    d = json.loads(SHIPPED_SCENARIOS[0].read_text())
    d["map"]["file"] = str((SHIPPED_SCENARIOS[0].parent / d["map"]["file"]).resolve())
    d["german"]["groups"][0]["setup"]["region"] = {"kind": "hexes", "hexes": ["4307", "7507"]}
    f = tmp_path / "off_map.json"
    f.write_text(json.dumps(d))
    with pytest.raises(DocumentError) as e:
        validate_file(f)
    assert f"{f}: $.german.groups[0].setup.region.hexes[1]: hex 7507 is not on map" in str(e.value)


# ------------------------------------------------------------------ every OOB entry is used (24.1, 18.1, 19.1)

def test_24_1_a_unit_entry_at_side_level_is_an_error(small):
    d = minimal()
    d["german"]["oob"].append({"kind": "squad", "letter": "D", "text": "Squad D"})
    msg = problems(d, small, roster=None)
    assert "bad.json: $.german.oob[1]: Squad D: a unit entry at side level belongs to no group" in msg


def test_18_1_ips_and_mines_of_an_entering_group_are_an_error(small):
    d = minimal()
    d["russian"]["groups"][0]["oob"] += [{"kind": "ip", "points": 2, "count": 1, "text": "IP2 x 1"},
                                         {"kind": "mines", "mine_type": "AT", "factors": 4, "text": "4 AT Mine Factors"}]
    msg = problems(d, small, roster=None)
    assert "bad.json: $.russian.groups[0].oob[1]: IP2 x 1: group 'Main' enters the map and has no set-up zone" in msg
    assert "bad.json: $.russian.groups[0].oob[2]: 4 AT Mine Factors: group 'Main' enters the map" in msg


def test_18_1_side_level_ips_need_a_group_that_sets_up(small):
    d = minimal()
    d["russian"]["oob"] = [{"kind": "ip", "points": 1, "count": 3, "text": "IP1 x 3"}]
    msg = problems(d, small, roster=None)
    assert "bad.json: $.russian.oob[0]: IP1 x 3: no russian group sets up on the map" in msg
    d = minimal()
    d["german"]["oob"].append({"kind": "ip", "points": 1, "count": 3, "text": "IP1 x 3"})
    scenario_from_data(d, "ok.json", hexmap=small, roster=None)  # the German sets up: accepted


def test_18_1_an_ip_where_meeting_no_hex_of_its_zone_is_an_error(small):
    d = minimal()
    d["german"]["oob"].append({"kind": "ip", "points": 1, "count": 1, "text": "IP1 x 1 on any building hex",
                               "where": {"kind": "hexes", "hexes": ["1207"]}})  # row 7: south of the zone
    msg = problems(d, small, roster=None)
    assert "bad.json: $.german.oob[1].where: IP1 x 1 on any building hex: no hex of the german set-up zones is hex 1207" in msg


def test_19_14_mines_in_a_zone_of_building_hexes_only_are_an_error():
    from tests.scenarios.test_regions import hex_poly

    m = make_map((10, 15), (1, 8), buildings={"B1": hex_poly("1203", "1204")})
    building = sorted(h.id for hs in m.building_hexes.values() for h in hs)
    assert building == ["1203", "1204"]
    d = minimal()
    d["german"]["groups"][0]["setup"]["region"] = {"kind": "hexes", "hexes": building}
    d["german"]["groups"][0]["oob"].append({"kind": "mines", "mine_type": "AP", "factors": 2, "text": "2 AP Mine Factors"})
    msg = problems(d, m, roster=None)
    assert "bad.json: $.german.groups[0].oob[1]: 2 AP Mine Factors: the set-up zone of 'Main' has only building hexes" in msg


def test_24_1_with_naming_no_unit_of_the_group_is_an_error(small):
    d = minimal()
    d["german"]["groups"][0]["oob"].append({"kind": "commander", "type": "PL", "with_unit": "Squad E",
                                            "text": "PL with Squad E"})
    msg = problems(d, small, roster=None)
    assert "bad.json: $.german.groups[0].oob[1].with_unit: PL with Squad E: 'with Squad E' names no unit entry of " \
           "group 'Main' (PL, Squad C)" in msg


def test_24_1_ammo_for_nobody_is_an_error(small):
    from scenarios.counters import load_counters

    d = minimal()
    d["german"]["groups"][0]["oob"] = [
        {"kind": "squad", "letter": "C", "ammo": 10, "less": [{"type": "LMG", "pr": 9}], "text": "Squad C (10) less LMG PR9"},
        {"kind": "squad", "letter": "D", "less": [{"type": "R", "pr": 8, "ammo": 3}], "text": "Squad D less R PR8 (3)"}]
    msg = problems(d, small, roster=load_counters())
    assert "bad.json: $.german.groups[0].oob[0].ammo: Squad C (10) less LMG PR9: ammo (10) but german Squad C has " \
           "no LMG in play to take it (24.1)" in msg
    assert "bad.json: $.german.groups[0].oob[1].less[0].ammo: Squad D less R PR8 (3): ammo (3) on a member left " \
           "out would go to nobody (24.1)" in msg


def test_a_malformed_hex_id_is_located_at_its_own_place_in_the_file(tmp_path):
    """A bad hex id in a road path's waypoints or in a victory region's hex list: the error's JSON
    path is the place in the file (``through[1]``, ``hexes[1]``), without the region kinds pydantic
    adds as union tags (``path.through``, ``hexes.hexes``, ``all_of.of``)."""
    from scenarios.scenario_file import SHIPPED_SCENARIOS

    d = json.loads(SHIPPED_SCENARIOS[0].read_text())
    d["map"]["file"] = str((SHIPPED_SCENARIOS[0].parent / d["map"]["file"]).resolve())
    d["regions"]["road 4001-5014"]["through"] = ["4001", "50x4"]
    d["victory"]["outcomes"][0]["condition"]["of"][0]["region"]["hexes"] = ["4307", "43x8"]
    f = tmp_path / "bad_ids.json"
    f.write_text(json.dumps(d))
    with pytest.raises(DocumentError) as e:
        validate_file(f)
    msg = str(e.value)
    assert f"{f}: $.regions.road 4001-5014.through[1]: hex id '50x4' is not four digits CCRR" in msg
    assert f"{f}: $.victory.outcomes[0].condition.of[0].region.hexes[1]: hex id '43x8'" in msg
