"""Design checks: warnings, apart from errors, about scenarios that validate and play
but not as meant -- regions a side must take that its units cannot reach in time (the engine's
movement rules, 8.1, 8.5, 17.0, 24.1, ignoring the enemy), a side with no units, entry edges
outside the map sections, OOB data read but not used (:mod:`core.ironcross.design_checks`)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from core.ironcross.design_checks import design_warnings, reach_turns, scenario_file_warnings
from core.ironcross.scenario_setup import build_setup
from maps import hexgrid
from scenarios.model import Scenario
from scenarios.scenario_file import SHIPPED_SCENARIOS, scenario_context
from tests.mapbuilder import make_map

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"


def _scenario(german_groups, russian_groups=None, *, outcomes=None, points=None, turns=1, moves_first="german",
              **extra) -> dict:
    data = {
        "title": "Test", "map": {"file": "test.json", "sections": ["All"]},
        "north": {"hex": "1002", "points_to": "1001"},
        "turns": turns, "sets_up_first": "german", "moves_first": moves_first,
        "german": {"groups": german_groups},
        "russian": {"groups": russian_groups or [
            {"name": "R", "oob": [{"kind": "commander", "type": "PL", "pr": 10, "text": "PL PR10"}],
             "setup": {"region": {"kind": "hexes", "hexes": ["1010"]}}}]},
        # by default the Russians win holding their set-up hex: no region out of anybody's reach
        "victory": {"outcomes": outcomes if outcomes is not None else ([] if points else [
            {"result": "russian", "condition": {"kind": "at_least", "side": "russian",
                                                "region": {"kind": "hexes", "hexes": ["1010"]}}}]),
                    "default": "draw", **({"points": points} if points else {})},
    }
    data.update(extra)
    return data


def _group(name, oob, hexes=None, *, entry=None, **more) -> dict:
    g = {"name": name, "oob": [{"text": t, **e} for t, e in oob], **more}
    if entry is not None:
        g["entry"] = entry
    else:
        g["setup"] = {"region": {"kind": "hexes", "hexes": list(hexes)}}
    return g


PL = ("PL", {"kind": "commander", "type": "PL"})
RPL = ("PL PR10", {"kind": "commander", "type": "PL", "pr": 10})
RPL_ID = "R-PL-1"
IIIE = ("IIIe #1", {"kind": "afv", "type": "IIIe", "numbers": [1]})
AT50 = ("50AT #1", {"kind": "crew_weapon", "weapon": "50AT", "numbers": [1]})


def _at_least(side, hexes, count=1, kinds=None):
    c = {"kind": "at_least", "side": side, "count": count, "region": {"kind": "hexes", "hexes": list(hexes)}}
    if kinds:
        c["units"] = {"kinds": kinds}
    return c


def _warnings(data, hexmap):
    sc = Scenario.model_validate(data)
    return design_warnings(sc, hexmap, build_setup(sc, hexmap))


def _reach(data, hexmap, side, hexes):
    sc = Scenario.model_validate(data)
    st = build_setup(sc, hexmap)
    return reach_turns(sc, st, scenario_context(sc, hexmap), side, hexes)


def _hex_at(start: str, d: int, row_hexes) -> str:
    """A hex of ``row_hexes`` exactly ``d`` hexes from ``start``."""
    s = hexgrid.parse_hex_id(start)
    return next(h for h in row_hexes if hexgrid.distance(s, hexgrid.parse_hex_id(h)) == d)


CLEAR = make_map(cols=(10, 35), rows=(1, 10))
ROW5 = [f"{c:02d}05" for c in range(10, 36)]


# --------------------------------------------------------------------------- reach

def test_8_11_17_0_infantry_reaches_11_clear_hexes_in_one_game_turn():
    """8.11: 6 MP in the Movement Phase, 3 in the Reaction Movement Phase (1 MP a clear hex, 8.5),
    and 17.0: an assault into an empty hex moves infantry one hex after each: 6 + 1 + 3 + 1."""
    h11, h12 = _hex_at("1005", 11, ROW5), _hex_at("1005", 12, ROW5)
    g = [_group("G", [PL], ["1005"])]
    assert _reach(_scenario(g), CLEAR, "german", [h11]) == [(1, "G-PL-1", "G")]
    assert _reach(_scenario(g), CLEAR, "german", [h12]) == [(2, "G-PL-1", "G")]
    assert _reach(_scenario(g), CLEAR, "german", ["1005"]) == [(0, "G-PL-1", "G")]   # it may set up there
    ok = _scenario(g, outcomes=[{"result": "german", "condition": _at_least("german", [h11])}])
    assert _warnings(ok, CLEAR) == []
    far = _scenario(g, outcomes=[{"result": "german", "condition": _at_least("german", [h12])}])
    (w,) = _warnings(far, CLEAR)
    assert (w.check, w.path) == ("reach", "$.victory.outcomes[0].condition.region")
    assert "German must have at least 1 units in hex " + h12 in w.message
    assert "outcome 1: German wins" in w.message
    assert "PL PR11 [G-PL-1] of 'G'" in w.message and "Game Turn 2 at the earliest, 1 turn(s) after" in w.message
    assert w.hexes == (h12,)


def test_8_13_afv_reaches_15_clear_hexes_and_never_assaults():
    """8.13: an AFV spends 10 MP in the Movement Phase and 5 in the Reaction Movement Phase; it
    never assaults (17.13), so it has no extra hex."""
    g = [_group("G", [IIIE], ["1005"])]
    assert _reach(_scenario(g), CLEAR, "german", [_hex_at("1005", 15, ROW5)]) == [(1, "G-IIIe-1", "G")]
    assert _reach(_scenario(g), CLEAR, "german", [_hex_at("1005", 16, ROW5)]) == [(2, "G-IIIe-1", "G")]


def test_24_1_detachment_entry_counts_for_reach():
    """24.1 special option: a unit a detachment may take may also enter by the detachment's entry
    (the best case); a unit the limits exclude may not."""
    far = _hex_at("1005", 20, ROW5)
    g = [_group("G", [PL, AT50], ["1005"])]
    data = _scenario(g, turns=3)
    assert _reach(data, CLEAR, "german", [far])[0] == (2, "G-PL-1", "G")
    data["german"]["detachments"] = [{
        "name": "SPECIAL", "from_group": "G", "limits": [{"kind": "commander", "count": 1}],
        "entry": {"options": [{"region": {"kind": "hexes", "hexes": [far]}, "turn": 1}]}}]
    got = {uid: t for t, uid, _g in _reach(data, CLEAR, "german", [far])}
    assert got["G-PL-1"] == 1   # enters on it on turn 1
    assert got["G-50AT-1"] is None   # a 50AT does not move (8.12 MA 0) and the detachment takes no CW


def test_8_52_road_rate_counts():
    """8.52: 1/2 MP a hex along the road: 12 + 1 (assault) + 6 + 1 hexes of road in one Game Turn."""
    m = make_map(cols=(10, 14), rows=(1, 40), roads=[[f"12{r:02d}" for r in range(1, 41)]])
    g = [_group("G", [PL], ["1201"])]
    assert _reach(_scenario(g), m, "german", ["1221"]) == [(1, "G-PL-1", "G")]
    assert _reach(_scenario(g), m, "german", ["1222"]) == [(2, "G-PL-1", "G")]


def test_8_5_terrain_costs_slow_the_reach():
    """8.5: a gully costs infantry 2 MP (UP): a wall of gully hexes across the way costs time."""
    gully = [f"15{r:02d}" for r in range(1, 11)]
    m = make_map(cols=(10, 35), rows=(1, 10), gullies=[gully])
    g = [_group("G", [PL], ["1005"])]
    clear_turn = _reach(_scenario(g), CLEAR, "german", ["2105"])[0][0]
    assert clear_turn == 1
    # through the gully column the same 11 hexes take one MP more: no longer within Game Turn 1
    assert _reach(_scenario(g), m, "german", ["2105"])[0][0] == 2


def test_8_12_a_cw_with_no_movement_allowance_never_gets_there():
    """8.12: a CW with a Movement Allowance of zero never moves (the roster's 50AT)."""
    g = [_group("G", [AT50, PL], ["1005"])]
    data = _scenario(g, outcomes=[{"result": "german",
                                    "condition": _at_least("german", ["1205"], kinds=["crew_weapon"])}])
    (w,) = _warnings(data, CLEAR)
    assert "no German crew_weapon unit can be there by the end of Game Turn 1" in w.message
    assert "can ever get there" in w.message


def test_24_1_entry_turn_and_phase_count():
    """24.1: units enter on their entry turn (or later) in their side's phase; the hex entered
    costs its own terrain cost."""
    g = [_group("G", [PL], entry={"options": [{"region": {"kind": "hexes", "hexes": ["1005"]}, "turn": 2}]})]
    data = _scenario(g, turns=3)
    # turn 2: enters 1005 (1 MP), 5 more hexes, an assault hex, 3 in Reaction Movement, another: 10 deep
    assert _reach(data, CLEAR, "german", [_hex_at("1005", 10, ROW5)]) == [(2, "G-PL-1", "G")]
    assert _reach(data, CLEAR, "german", [_hex_at("1005", 11, ROW5)]) == [(3, "G-PL-1", "G")]
    late = copy.deepcopy(data)
    late["german"]["groups"][0]["entry"]["options"][0]["phase"] = "reaction_movement"
    # entering in the Reaction Movement Phase (Scenario 5's T-34a): 3 MP, then an assault hex
    assert _reach(late, CLEAR, "german", [_hex_at("1005", 3, ROW5)]) == [(2, "G-PL-1", "G")]
    assert _reach(late, CLEAR, "german", [_hex_at("1005", 4, ROW5)]) == [(3, "G-PL-1", "G")]


def test_24_1_movement_restriction_delays_the_reach():
    """A group that "may not move until Player Turn 3" starts moving on Game Turn 3."""
    g = [_group("G", [PL], ["1005"], restrictions=[{"kind": "no_movement", "until_turn": 3}])]
    h = _hex_at("1005", 11, ROW5)
    assert _reach(_scenario(g, turns=4), CLEAR, "german", [h]) == [(3, "G-PL-1", "G")]


def test_8_11_the_second_side_moves_after_its_reaction_phase():
    """The side moving second has its Reaction Movement Phase first in each Game Turn: same
    distance (3 + 1 + 6 + 1)."""
    r = [_group("R", [RPL], ["3505"])]
    data = _scenario([_group("G", [PL], ["1005"])], r)
    row = list(reversed(ROW5))
    assert _reach(data, CLEAR, "russian", [_hex_at("3505", 11, row)]) == [(1, RPL_ID, "R")]
    assert _reach(data, CLEAR, "russian", [_hex_at("3505", 12, row)]) == [(2, RPL_ID, "R")]


def test_24_3_infiltrators_may_start_near_the_infiltration_zone():
    """24.34: infiltrating squad men and commanders are placed within two hexes of the
    Infiltration Hex, so off-map units of a side that may infiltrate can start there."""
    r = [_group("R", [("Squad A", {"kind": "squad", "letter": "A"})],
                entry={"options": [{"region": {"kind": "hexes", "hexes": ["3505"]}, "turn": 1}]})]
    data = _scenario([_group("G", [PL], ["1005"])], r)
    data["russian"]["infiltration"] = {"allowed": True, "zone": {"kind": "hexes", "hexes": ["2005"]}}
    turns = _reach(data, CLEAR, "russian", ["2205"])
    assert turns[0][0] == 0


def test_victory_any_of_needs_one_reachable_alternative_all_of_needs_all():
    near, far = _hex_at("1005", 5, ROW5), _hex_at("1005", 20, ROW5)
    g = [_group("G", [PL], ["1005"])]
    any_of = {"kind": "any_of", "of": [_at_least("german", [far]), _at_least("german", [near])]}
    assert _warnings(_scenario(g, outcomes=[{"result": "german", "condition": any_of}]), CLEAR) == []
    all_of = {"kind": "all_of", "of": [_at_least("german", [near]), _at_least("german", [far])]}
    (w,) = _warnings(_scenario(g, outcomes=[{"result": "german", "condition": all_of}]), CLEAR)
    assert w.path == "$.victory.outcomes[0].condition.of[1].region"
    both_far = {"kind": "any_of", "of": [_at_least("german", [far]), _at_least("german", [_hex_at("1005", 21, ROW5)])]}
    ws = _warnings(_scenario(g, outcomes=[{"result": "german", "condition": both_far}]), CLEAR)
    assert [w.path for w in ws] == ["$.victory.outcomes[0].condition.of[0].region",
                                    "$.victory.outcomes[0].condition.of[1].region"]


def test_victory_not_none_in_is_a_region_to_take_and_other_sides_units_are_not():
    far = _hex_at("1005", 20, ROW5)
    g = [_group("G", [PL], ["1005"])]
    must = {"kind": "not", "of": {"kind": "none_in", "side": "german", "region": {"kind": "hexes", "hexes": [far]}}}
    (w,) = _warnings(_scenario(g, outcomes=[{"result": "german", "condition": must}]), CLEAR)
    assert w.path == "$.victory.outcomes[0].condition.of.region" and "German must have units in" in w.message
    # "the Germans win if no Russian is there" asks the Germans to clear it, not to stand in it
    clear = {"kind": "none_in", "side": "russian", "region": {"kind": "hexes", "hexes": [far]}}
    assert _warnings(_scenario(g, outcomes=[{"result": "german", "condition": clear}]), CLEAR) == []
    # a condition on the enemy's units is no region this side must take
    theirs = _at_least("russian", [_hex_at("1010", 25, [f"{c:02d}10" for c in range(10, 36)])])
    assert _warnings(_scenario(g, outcomes=[{"result": "german", "condition": theirs}]), CLEAR) == []


def test_victory_not_of_all_of_none_in_needs_one_of_the_regions():
    """not (no German in A and no German in B) = a German in A or in B (De Morgan)."""
    near, far, far2 = _hex_at("1005", 5, ROW5), _hex_at("1005", 20, ROW5), _hex_at("1005", 21, ROW5)
    g = [_group("G", [PL], ["1005"])]

    def cond(a, b):
        return {"kind": "not", "of": {"kind": "all_of", "of": [
            {"kind": "none_in", "side": "german", "region": {"kind": "hexes", "hexes": [a]}},
            {"kind": "none_in", "side": "german", "region": {"kind": "hexes", "hexes": [b]}}]}}

    assert _warnings(_scenario(g, outcomes=[{"result": "german", "condition": cond(far, near)}]), CLEAR) == []
    ws = _warnings(_scenario(g, outcomes=[{"result": "german", "condition": cond(far, far2)}]), CLEAR)
    assert [w.path for w in ws] == ["$.victory.outcomes[0].condition.of.of[0].region",
                                    "$.victory.outcomes[0].condition.of.of[1].region"]


def test_victory_at_least_n_needs_n_units_in_time():
    near = _hex_at("1005", 5, ROW5)
    g = [_group("G", [PL, AT50], ["1005"])]
    data = _scenario(g, outcomes=[{"result": "german", "condition": _at_least("german", [near], count=2)}])
    (w,) = _warnings(data, CLEAR)
    assert "only 1 German unit(s) of the 2 needed can be there by the end of Game Turn 1" in w.message
    assert "no other German unit can ever get there" in w.message


def test_victory_control_needs_every_hex_reached():
    near, far = _hex_at("1005", 5, ROW5), _hex_at("1005", 14, ROW5)
    g = [_group("G", [PL], ["1005"])]
    c = {"kind": "controls", "side": "german", "region": {"kind": "hexes", "hexes": [near, far]}}
    (w,) = _warnings(_scenario(g, outcomes=[{"result": "german", "condition": c}]), CLEAR)
    assert f"1 of its hexes cannot be reached by the end of Game Turn 1 ({far})" in w.message
    assert w.hexes == (far,)


def test_victory_points_award_region_out_of_reach():
    far = _hex_at("1005", 20, ROW5)
    g = [_group("G", [PL], ["1005"])]
    pts = {"side": "german", "awards": [{"kind": "per_hex", "region": {"kind": "hexes", "hexes": ["1105"]}},
                                        {"kind": "per_hex", "region": {"kind": "hexes", "hexes": [far]}}],
           "schedule": [{"min": 0, "max": 0, "result": "russian"}, {"min": 1, "max": 9, "result": "german"}]}
    (w,) = _warnings(_scenario(g, points=pts), CLEAR)
    assert w.path == "$.victory.points.awards[1].region"
    assert "German must score victory points in hex " + far in w.message


# --------------------------------------------------------------------------- the other checks

def test_24_1_a_side_with_no_units():
    data = _scenario([_group("G", [PL], ["1005"])], [_group("R", [], ["1010"])],
                     outcomes=[{"result": "russian", "condition": _at_least("russian", ["3505"])}])
    ws = _warnings(data, CLEAR)
    assert [(w.check, w.path) for w in ws] == [("no_units", "$.russian.groups"), ("oob_unused", "$.russian.groups[0]")]
    assert "the Russian side has no units" in ws[0].message


def test_the_north_indicator_outside_the_playing_area():
    """A north indicator on a map section the scenario does not use gives a ``north`` warning at
    ``$.north.hex`` (the directions it gives are right; the players look for it on the map)."""
    m = make_map(cols=(10, 30), rows=(1, 10), sections=[{"name": "West", "first_column": 10, "last_column": 20},
                                                         {"name": "East", "first_column": 21, "last_column": 30}])
    g = [_group("G", [PL], ["2505"])]
    r = [_group("R", [RPL], ["2510"])]
    out = {"result": "russian", "condition": _at_least("russian", ["2510"])}
    east = _scenario(g, r, outcomes=[out], map={"file": "x.json", "sections": ["East"]},
                     north={"hex": "2502", "points_to": "2501"})
    assert [w for w in _warnings(east, m) if w.check == "north"] == []
    east["north"] = {"hex": "1002", "points_to": "1001"}            # left on the unticked West map
    (w,) = [w for w in _warnings(east, m) if w.check == "north"]
    assert w.path == "$.north.hex" and w.hexes == ("1002",)
    assert "outside the playing area (East)" in w.message


def test_24_1_entry_edge_outside_the_sections():
    m = make_map(cols=(10, 30), rows=(1, 10), sections=[{"name": "West", "first_column": 10, "last_column": 20},
                                                         {"name": "East", "first_column": 20, "last_column": 30}])
    r = [_group("R", [RPL], entry={"options": [
        {"region": {"kind": "map_edge", "direction": "east", "sections": ["East"]}, "turn": 1}]})]
    data = _scenario([_group("G", [PL], ["1005"])], r, map={"file": "x.json", "sections": ["West"]})
    ws = [w for w in _warnings(data, m) if w.check == "entry_edge"]
    assert [w.path for w in ws] == ["$.russian.groups[0].entry.options[0].region"]
    assert "the scenario does not use East" in ws[0].message
    # hexes inside the playing area: units would appear in the middle of the map
    r2 = [_group("R", [RPL], entry={"options": [{"region": {"kind": "hexes", "hexes": ["1505", "2001"]}, "turn": 1}]})]
    data2 = _scenario([_group("G", [PL], ["1005"])], r2)
    (w,) = [w for w in _warnings(data2, CLEAR) if w.check == "entry_edge"]
    assert "1 of its hexes are not on the edge of the playing area (All): 1505" in w.message
    assert w.hexes == ("1505",)


def test_24_1_oob_read_but_not_used():
    entering_r = [_group("R", [RPL], entry={"options": [{"region": {"kind": "map_edge", "direction": "east"},
                                                        "turn": 2}], "choose_before_game": True},
                         restrictions=[{"kind": "no_movement", "until_turn": 2}]),
                  _group("R empty", [], entry={"options": [{"region": {"kind": "map_edge", "direction": "east"},
                                                             "turn": 1}]})]
    g = [_group("G", [IIIE, ("Grenades (4)", {"kind": "grenades", "count": 4})], ["1005"],
                restrictions=[{"kind": "no_movement", "until_turn": 1}])]
    data = _scenario(g, entering_r, turns=3)
    data["german"]["hidden_hexes"] = 2
    data["german"]["detachments"] = [{"name": "SPECIAL", "from_group": "G", "limits": [{"kind": "afv", "count": 1}],
                                      "entry": {"options": [{"region": {"kind": "map_edge", "direction": "west"},
                                                             "turn": 1}]}}]
    data["russian"]["infiltration"] = {"allowed": True, "zone": {"kind": "hexes", "hexes": ["2005"]}}
    ws = [w for w in _warnings(data, CLEAR) if w.check == "oob_unused"]
    got = {w.path: w.message for w in ws}
    assert set(got) == {   # the detachment is played (core.ironcross.detachment): no warning
        "$.german.groups[0].restrictions[0]", "$.german.hidden_hexes",
        "$.german.groups[0].oob[1]", "$.russian.groups[0].restrictions[0]",
        "$.russian.groups[0].entry.choose_before_game", "$.russian.groups[1]", "$.russian.infiltration"}
    assert all(m.startswith("read but not used: ") for m in got.values())
    assert "no non-AFV unit of the side sets up on the map" in got["$.german.hidden_hexes"]
    assert "no unit of the side may throw them (15.2" in got["$.german.groups[0].oob[1]"]
    assert "may move from Game Turn 1 anyway" in got["$.german.groups[0].restrictions[0]"]
    assert "enters on Game Turn 2 at the earliest" in got["$.russian.groups[0].restrictions[0]"]
    assert "no squad of the side enters the map" in got["$.russian.infiltration"]
    # infiltration not allowed, but with a zone
    data["russian"]["infiltration"] = {"allowed": False, "zone": {"kind": "hexes", "hexes": ["2005"]}}
    got = {w.path: w.message for w in _warnings(data, CLEAR)}
    assert "its zone is never used" in got["$.russian.infiltration.zone"]


def test_24_2_hidden_hexes_beyond_the_set_up_units():
    g = [_group("G", [PL, IIIE], ["1005", "1006"])]
    data = _scenario(g)
    data["german"]["hidden_hexes"] = 3
    (w,) = _warnings(data, CLEAR)
    assert w.path == "$.german.hidden_hexes" and "only 1 non-AFV unit(s)" in w.message and "at most 1" in w.message
    data["german"]["hidden_hexes"] = 1
    assert _warnings(data, CLEAR) == []


def test_design_checks_without_an_engine_set_up_read_the_model_only():
    data = _scenario([_group("G", [PL], ["1005"])], [_group("R", [], ["1010"])])
    ws = design_warnings(Scenario.model_validate(data), CLEAR, None)
    assert [w.check for w in ws] == ["no_units", "oob_unused"]


@pytest.mark.parametrize("path", SHIPPED_SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenarios_give_no_design_warning(path):
    """None of the six shipped scenarios warns falsely: every region a side must take is within
    reach; the detachments of Scenarios 5 and 6 (special options) are played, so not unused."""
    assert scenario_file_warnings(path) == []


# --------------------------------------------------------------------------- the command line

def _s1_with(tmp_path, change) -> Path:
    data = json.loads(S1.read_text(encoding="utf-8"))
    data["map"]["file"] = str((S1.parent / data["map"]["file"]).resolve())
    change(data)
    p = tmp_path / "s.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_cli_validate_warnings_are_not_errors_unless_strict(tmp_path):
    p = _s1_with(tmp_path, lambda d: d["russian"].__setitem__("hidden_hexes", 2))
    plain = CliRunner().invoke(cli, ["validate", str(p)])
    assert plain.exit_code == 0 and "warning:" not in plain.output and "(1 warning)" not in plain.output
    res = CliRunner().invoke(cli, ["validate", "--warnings", str(p)])
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert lines[0].startswith(f"{p}: OK - scenario 1") and lines[0].endswith("(1 warning)")
    assert lines[1].startswith(f"{p}: warning: $.russian.hidden_hexes: read but not used: Russian has 2 hidden hexes")
    strict = CliRunner().invoke(cli, ["validate", "--strict", str(p)])
    assert strict.exit_code == 1
    assert "1 of 1 file(s) with warnings (--strict)" in strict.output
    shipped = CliRunner().invoke(cli, ["validate", "--strict", str(S1)])
    assert shipped.exit_code == 0 and shipped.output.strip().endswith("(0 warnings)")


def test_cli_validate_warnings_never_hide_errors(tmp_path):
    p = _s1_with(tmp_path, lambda d: d.__setitem__("turns", 0))
    res = CliRunner().invoke(cli, ["validate", "--warnings", str(p)])
    assert res.exit_code == 1 and "$.turns" in res.output and "warning:" not in res.output


def test_cli_validate_help_says_warnings_do_not_fail():
    res = CliRunner().invoke(cli, ["validate", "--help"])
    assert "--warnings" in res.output and "--strict" in res.output
    assert "never make validate fail" in " ".join(res.output.split())
