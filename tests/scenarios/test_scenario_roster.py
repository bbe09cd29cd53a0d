"""A scenario's own roster: additions and overrides over the shipped roster,
their validation (file, JSON path, problem), the one resolution every reader uses, and the
stable scenario file format (an unchanged save is byte-identical, a one-value edit one line)."""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
from pathlib import Path

import pytest

from core.ironcross.design_checks import scenario_file_warnings
from core.ironcross.scenario_setup import build_setup, load_setup
from maps.document_file import DocumentError
from scenarios.counters import RosterError, load_counters, shipped_counters_path
from scenarios.model import Scenario, parse_oob_entry
from scenarios.scenario_file import (
    DATA_DIR,
    SHIPPED_SCENARIOS,
    load_scenario,
    load_scenario_map,
    load_scenario_roster,
    save_scenario,
    scenario_from_data,
    scenario_json,
)
from scenarios.scenario_roster import MergedRoster, RosterBlock, merge_roster, roster_block_problems, scenario_roster

S1 = DATA_DIR / "scenario_1_demyansk_pocket.json"
MAP = (DATA_DIR / "../../maps/data/iron_cross_mapsheet_corrected.json").resolve()

SQUAD_P = {"kind": "squad", "side": "russian", "letter": "P", "description": "assault engineers",
           "men": [{"weapon": "MP", "pr": 9}, {"weapon": "LMG", "pr": 8}, {"weapon": "R", "pr": 7},
                   {"weapon": "R", "pr": 6}],
           "provenance": {"source": "designer"}, "note": "a squad of my own"}
T60_TYPE = {"kind": "afv_type", "side": "russian", "type": "T60", "description": "T-60 light tank",
            "ap_factor": 5, "ap_range": 8, "frontal_modifier": 3, "flank_modifier": 2, "at_factor": 7,
            "overrun_factor": 4, "pr": 7, "movement": 10}
T60_1 = {"kind": "afv", "side": "russian", "type": "T60", "number": 1}


def s1_data(**roster) -> dict:
    d = json.loads(S1.read_text(encoding="utf-8"))
    if roster:
        d["roster"] = roster
    return d


def russian_oob(d: dict, *texts: str) -> dict:
    """Add printed OOB entries to the first Russian group (parsed as the editor parses them)."""
    sc = Scenario.model_validate(d)
    roster = load_scenario_roster(sc)
    sd = roster.document.russian
    for t in texts:
        e = parse_oob_entry(t, crew_weapon_types=list(sd.cw_types), afv_types=[*sd.afv_types, *sd.afv_aliases])
        d["russian"]["groups"][0]["oob"].append(e.model_dump(mode="json", exclude_none=True))
    return d


def write(tmp_path: Path, d: dict, name: str = "s.json") -> Path:
    d = copy.deepcopy(d)
    d["map"]["file"] = str(MAP)
    p = tmp_path / name
    p.write_text(json.dumps(d, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return p


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


# ------------------------------------------------------------------ merging

def test_2_21_a_new_squad_and_its_men_resolve_over_the_shipped_roster():
    base = load_counters()
    r = merge_roster(base, RosterBlock.model_validate({"add": [SQUAD_P]}))
    sq = r.squad("russian", "P")
    assert [(m.id, m.weapon, m.pr) for m in sq.men] == [("R-P-1", "MP", 9), ("R-P-2", "LMG", 8), ("R-P-3", "R", 7),
                                                       ("R-P-4", "R", 6)]
    # profile values from the side's weapon profile, provenance the designer's with the note
    assert sq.men[1].ap_factor == base.document.russian.weapons["LMG"].ap_factor
    p = sq.men[0].provenance_of("pr")
    assert p.source == "designer" and p.rationale == "a squad of my own"
    assert r.origin("R-P-1") == "added" and r.origin("R-A-1") == "shipped"
    assert len(r) == len(base) + 4 and len(base.squads("russian")) == 7   # the base roster is not changed


def test_2_22_a_new_afv_type_and_its_counter():
    r = merge_roster(load_counters(), RosterBlock.model_validate({"add": [T60_1, T60_TYPE]}))  # any order
    a = r.afv("russian", "t-60", 1)   # the roster's spellings: any case, dashes
    assert (a.id, a.type, a.ap_factor, a.at_factor, a.movement, a.turreted) == ("R-T60-1", "T60", 5, 7, 10, True)
    assert a.provenance_of("ap_factor").source == "designer"
    assert r.added[("russian", "afv_type", "T60")] == 1 and r.added["R-T60-1"] == 0


def test_2_23_5_1_a_crew_weapon_of_a_shipped_type_and_a_commander():
    r = merge_roster(load_counters(), RosterBlock.model_validate({"add": [
        {"kind": "crew_weapon", "side": "german", "type": "mmg", "number": 3, "pr": 7},
        {"kind": "commander", "side": "german", "rank": "PL", "number": 2, "pr": 9}]}))
    c = r.crew_weapon("german", "MMG", 3)
    shipped = r.crew_weapon("german", "MMG", 1)
    assert (c.id, c.pr, c.crew, c.ap_factor) == ("G-MMG-3", 7, shipped.crew, shipped.ap_factor)
    assert c.provenance_of("pr").source == "designer" and c.provenance_of("crew") == shipped.provenance_of("crew")
    assert r.commander("german", "PL", pr=9).id == "G-PL-2"
    assert r.commander("german", "PL", number=1).id == "G-PL-1"


def test_an_override_changes_one_value_of_a_shipped_counter():
    base = load_counters()
    r = merge_roster(base, RosterBlock.model_validate({"override": [
        {"unit": "R-A-2", "field": "pr", "value": 7, "note": "the printed counter reads PR7"},
        {"unit": "G-StugIIIb-1", "field": "at_factor", "value": 11}]}))
    assert r.unit("R-A-2").pr == 7 and base.unit("R-A-2").pr != 7
    p = r.unit("R-A-2").provenance_of("pr")
    assert p.source == "designer" and p.rationale == "the printed counter reads PR7"
    assert r.unit("R-A-2").provenance_of("weapon") == base.unit("R-A-2").provenance_of("weapon")
    assert r.unit("G-StugIIIb-1").at_factor == 11
    assert r.unit("G-StugIIIb-2").at_factor == base.unit("G-StugIIIb-2").at_factor
    assert r.origin("R-A-2") == "overridden" and r.override_index("R-A-2", "pr") == 0
    assert r.override_index("R-A-2", "weapon") is None


def test_additions_apply_to_the_counters_file_the_scenario_names(tmp_path):
    """Resolution order: the scenario's ``counters`` file, then its additions, then its overrides."""
    data = json.loads(shipped_counters_path().read_text(encoding="utf-8"))
    data["russian"]["crew_weapons"][0]["pr"] = 5   # R-MMG-1 in the designer's counters file
    (tmp_path / "my_counters.json").write_text(json.dumps(data), encoding="utf-8")
    d = s1_data(add=[SQUAD_P], override=[{"unit": "R-MMG-1", "field": "crew", "value": 3}])
    d["counters"] = "my_counters.json"
    p = write(tmp_path, d)
    r = load_scenario_roster(load_scenario(p), p)
    assert isinstance(r, MergedRoster) and r.base.path == tmp_path / "my_counters.json"
    assert r.unit("R-MMG-1").pr == 5 and r.unit("R-MMG-1").crew == 3 and r.squad("russian", "P")


def test_scenario_roster_reuses_a_merged_roster_of_the_same_block_and_remerges_another():
    sc = Scenario.model_validate(s1_data(add=[SQUAD_P]))
    r = scenario_roster(sc)
    assert scenario_roster(sc, r) is r
    other = Scenario.model_validate(s1_data(add=[T60_TYPE, T60_1]))
    r2 = scenario_roster(other, r)
    assert r2.afv("russian", "T60", 1) and "P" not in [q.letter for q in r2.squads("russian")]
    plain = Scenario.model_validate(s1_data())
    base = load_counters()
    assert scenario_roster(plain, base) is base   # no roster block: the base roster itself


# ------------------------------------------------------------------ validation

@pytest.mark.parametrize("block, path, words", [
    ({"add": [{**SQUAD_P, "letter": "A"}]}, "$.roster.add[0].letter", "already has Squad A"),
    ({"add": [{**SQUAD_P, "men": [{"weapon": "FT", "pr": 9}]}]}, "$.roster.add[0].men[0].weapon",
     "no russian weapon profile for 'FT'"),
    ({"add": [{**T60_1, "type": "T70"}]}, "$.roster.add[0].type", "unknown russian AFV type 'T70'"),
    ({"add": [{"kind": "afv", "side": "russian", "type": "T34a", "number": 1}]}, "$.roster.add[0].number",
     "T34a #1 already defined at $.russian.afvs[2] of iron_cross_counters.json"),
    ({"add": [T60_TYPE, T60_1, T60_1]}, "$.roster.add[2].number", "T60 #1 already defined at $.roster.add[1]"),
    ({"add": [{**T60_TYPE, "type": "BT7m"}]}, "$.roster.add[0].type", "already has the AFV type 'BT7M'"),
    ({"add": [{**T60_TYPE, "flank_modifier": 4}, T60_1]}, "$.roster.add[1].flank_modifier",
     "cannot exceed the frontal"),
    ({"add": [{"kind": "cw_type", "side": "german", "type": "Flak", "crew": 3, "ap_factor": 4,
               "initial_range": 8, "assault_rating": 1, "pr": 8, "movement": 0}]}, "$.roster.add[0]",
     "unknown CW type 'Flak'"),
    ({"add": [{"kind": "crew_weapon", "side": "german", "type": "MMG", "number": 3, "crew": 5}]},
     "$.roster.add[0].crew", "two to four men (8.63)"),
    ({"override": [{"unit": "R-Z-1", "field": "pr", "value": 8}]}, "$.roster.override[0].unit",
     "no counter 'R-Z-1' in the base roster"),
    ({"override": [{"unit": "R-A-1", "field": "number", "value": 3}]}, "$.roster.override[0].field",
     "'number' cannot be overridden"),
    ({"override": [{"unit": "R-A-1", "field": "pr", "value": 13}]}, "$.roster.override[0].value",
     "PR must be 2-12"),
    ({"override": [{"unit": "R-A-1", "field": "pr", "value": 8}, {"unit": "R-A-1", "field": "pr", "value": 7}]},
     "$.roster.override[1].field", "already overridden at $.roster.override[0]"),
    ({"override": [{"unit": "R-MMG-1", "field": "at_factor", "value": 5}]}, "$.roster.override[0].value",
     "R-MMG-1: an MMG has no AT factor"),
    ({"override": [{"unit": "R-T34a-1", "field": "frontal_modifier", "value": 1}]}, "$.roster.override[0]",
     "R-T34a-1 flank_modifier: the flank armour modifier cannot exceed the frontal one"),
])
def test_roster_block_problems_name_the_path_and_the_problem(block, path, words):
    problems = roster_block_problems(load_counters(), RosterBlock.model_validate(block))
    assert any(p.path == path and words in p.message for p in problems), problems


def test_a_bad_block_is_refused_naming_the_scenario_file(tmp_path):
    p = write(tmp_path, s1_data(add=[{**SQUAD_P, "letter": "C"}]))
    with pytest.raises(DocumentError) as e:
        load_scenario(p)
    assert f"{p}: $.roster.add[0].letter: the russian roster already has Squad C" in str(e.value)
    with pytest.raises(RosterError) as e:
        load_scenario_roster(load_scenario(p, check=False), p)
    assert str(e.value).startswith(f"{p}: $.roster.add[0].letter")


def test_the_structure_of_the_block_is_checked_by_the_model(tmp_path):
    p = write(tmp_path, s1_data(add=[{**SQUAD_P, "letter": "pp", "men": [{"weapon": "R", "pr": 1}]}],
                                override=[{"unit": "R-A-1", "value": 8}]))
    with pytest.raises(DocumentError) as e:
        load_scenario(p)
    text = str(e.value)
    assert "$.roster.add[0].letter: a squad designation is one capital letter (2.21), got 'pp'" in text
    assert "$.roster.add[0].men[0].pr: PR must be 2-12" in text
    assert "$.roster.override[0].field: Field required" in text


# ------------------------------------------------------------------ every reader uses the merged roster

def test_24_1_the_oob_names_a_new_squad_and_a_new_afv_type_and_the_setup_has_them(tmp_path):
    shipped = sha(shipped_counters_path())
    d = russian_oob(s1_data(add=[SQUAD_P, T60_TYPE, T60_1], override=[{"unit": "R-A-2", "field": "pr", "value": 7}]),
                    "Squad P (10) less R PR6", "T60 #1")
    e = d["russian"]["groups"][0]["oob"][-1]
    assert e["kind"] == "afv" and e["type"] == "T60"
    p = write(tmp_path, d)
    sc, st = load_setup(p)   # validated (the OOB against the merged roster), then set up
    assert {"R-P-1", "R-P-2", "R-P-3"} <= set(st.units) and "R-P-4" not in st.units   # less R PR6
    assert st.units["R-P-2"].ammo == 10                  # 24.1: the squad's LMG takes its ammo
    t60 = st.units["R-T60-1"]
    assert t60.is_afv and (t60.at, t60.ap, t60.frontal, t60.ma) == (7, 5, 3, 10) and t60.side == "russian"
    assert st.units["R-A-2"].pr == 7                     # the override reaches the game's unit
    # the editor's build (a base roster given) and the design checks use the same roster
    st2 = build_setup(sc, load_scenario_map(sc, p), roster=load_counters())
    assert st2.units["R-A-2"].pr == 7 and "R-T60-1" in st2.units
    assert isinstance(scenario_file_warnings(p), list)
    assert sha(shipped_counters_path()) == shipped


def test_24_1_without_the_addition_the_oob_entry_is_an_unknown_unit(tmp_path):
    d = russian_oob(s1_data(add=[SQUAD_P]), "Squad P")
    del d["roster"]
    with pytest.raises(DocumentError) as e:
        load_scenario(write(tmp_path, d))
    assert "Squad P: unknown unit: no russian Squad 'P'" in str(e.value)


def test_playtest_plays_the_scenario_roster(tmp_path):
    """A batch game reads the scenario file: the new AFV type is in its set-up and the game runs."""
    from core.playtest import _setup_for, parse_ai, play_game

    d = russian_oob(s1_data(add=[T60_TYPE, T60_1], override=[{"unit": "R-A-2", "field": "pr", "value": 7}]),
                    "T60 #1")
    p = write(tmp_path, d)
    st = _setup_for(str(p), 3)
    assert st.units["R-T60-1"].is_afv and st.units["R-A-2"].pr == 7
    res = play_game(str(p), 0, 3, parse_ai("german=random,russian=random"), error_dir=str(tmp_path / "errors"))
    assert res.error is None and res.outcome in ("german", "russian", "draw"), res.error


def test_validate_cli_reports_a_bad_block(tmp_path):
    from core.document_kinds import validate_file

    p = write(tmp_path, s1_data(override=[{"unit": "R-A-1", "field": "pr", "value": 13}]))
    with pytest.raises(DocumentError) as e:
        validate_file(str(p))
    assert f"{p}: $.roster.override[0].value: R-A-1: PR must be 2-12" in str(e.value)
    p = write(tmp_path, s1_data(add=[SQUAD_P], override=[{"unit": "R-A-1", "field": "pr", "value": 8}]))
    assert "own roster: 1 addition, 1 override" in validate_file(str(p))


# ------------------------------------------------------------------ the stable file format

@pytest.mark.parametrize("path", SHIPPED_SCENARIOS, ids=lambda p: p.stem)
def test_saving_a_shipped_scenario_unchanged_is_byte_identical(path, tmp_path):
    text = path.read_text(encoding="utf-8")
    sc = load_scenario(path, check=False)
    out = tmp_path / path.name
    save_scenario(out, sc, text)
    assert out.read_bytes() == path.read_bytes()
    assert scenario_json(sc) == text   # the house style itself


def one_line_diff(a: str, b: str) -> list[str]:
    return [x for x in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
            if x[:1] in "+-" and not x.startswith(("+++", "---"))]


@pytest.mark.parametrize("path", SHIPPED_SCENARIOS, ids=lambda p: p.stem)
def test_one_pr_changed_is_a_one_line_diff(path):
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    # the first PR of the file: a "less"/"only" member's or a commander's
    hit = None
    for side in ("german", "russian"):
        for g in data[side]["groups"]:
            for e in g["oob"]:
                for spec in (e.get("less") or []) + (e.get("only") or []):
                    if spec.get("pr") is not None and hit is None:
                        hit = spec
                if e.get("kind") == "commander" and e.get("pr") is not None and hit is None:
                    hit = e
    if hit is None:
        pytest.skip("no PR in this scenario's OOB")
    hit["pr"] = hit["pr"] - 1 if hit["pr"] > 2 else 3
    sc = Scenario.model_validate(data)
    diff = one_line_diff(text, scenario_json(sc, text))
    assert len(diff) == 2 and diff[0].startswith("-") and '"pr"' in diff[0] and '"pr"' in diff[1], diff


def test_an_override_value_changed_is_a_one_line_diff():
    sc = Scenario.model_validate(s1_data(add=[SQUAD_P], override=[{"unit": "R-A-2", "field": "pr", "value": 7}]))
    text = scenario_json(sc)
    data = sc.model_dump(mode="json", exclude_none=True)
    data["roster"]["override"][0]["value"] = 8
    diff = one_line_diff(text, scenario_json(Scenario.model_validate(data), text))
    assert [x.replace(" ", "") for x in diff] == ['-"value":7', '+"value":8']


def test_a_hand_written_file_keeps_its_order_indentation_and_absent_defaults():
    """A terse file (two-space indent, keys in its own order, defaults left out) saved unchanged is
    the same text; one value changed is one line; a new key comes after the file's own keys."""
    full = json.loads(S1.read_text(encoding="utf-8"))
    terse = {"format": "ironcross-scenario", "version": 1, "title": full["title"], "turns": full["turns"],
             "map": {"sections": full["map"]["sections"], "file": full["map"]["file"]},
             "north": full["north"], "moves_first": "russian", "sets_up_first": "german",
             "german": {"groups": [{"name": "G", "setup": full["german"]["groups"][0]["setup"],
                                    "oob": [{"kind": "squad", "letter": "C", "ammo": 10}]}]},
             "russian": {"groups": [{"name": "R", "entry": full["russian"]["groups"][0]["entry"],
                                     "oob": [{"letter": "A", "kind": "squad", "less": [{"type": "LMG", "pr": 8}]}]}]},
             "victory": full["victory"]}
    text = json.dumps(terse, indent=2) + "\n"
    sc = Scenario.model_validate(terse)
    assert scenario_json(sc, text) == text
    data = sc.model_dump(mode="json", exclude_none=True)
    data["russian"]["groups"][0]["oob"][0]["less"][0]["pr"] = 9
    new = scenario_json(Scenario.model_validate(data), text)
    assert [x.replace(" ", "") for x in one_line_diff(text, new)] == ['-"pr":8', '+"pr":9']
    # a new OOB entry: the others keep their shape; a new top-level key goes last
    data["german"]["groups"][0]["oob"].insert(0, {"kind": "commander", "type": "PL"})
    data["roster"] = {"add": [SQUAD_P]}
    again = json.loads(scenario_json(Scenario.model_validate(data), text))
    assert list(again)[-1] == "roster" and list(again)[:3] == ["format", "version", "title"]
    assert again["german"]["groups"][0]["oob"][1] == {"kind": "squad", "letter": "C", "ammo": 10}
    assert list(again["russian"]["groups"][0]["oob"][0]) == ["letter", "kind", "less"]
    assert "background" not in again and "regions" not in again


def test_a_tab_indented_file_stays_tab_indented():
    sc = load_scenario(S1, check=False)
    text = json.dumps(sc.model_dump(mode="json", exclude_none=True), indent="\t", ensure_ascii=False) + "\n"
    assert scenario_json(sc, text) == text
