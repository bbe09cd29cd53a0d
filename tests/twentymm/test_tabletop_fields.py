"""The 20 mm system's fields for the editor's tabletop tools (docs/tabletop.md): the table's
scale, the set-up as pieces, placing a unit (each refusal naming its rule) and the movement
reach polygon. No Qt."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from core import rule_system
from core.rule_system import ScenarioError
from core.twentymm import system as S

ROOT = Path(__file__).resolve().parents[2]
S20 = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"


@pytest.fixture
def data():
    return json.loads(S20.read_text())


def _inches(game, ring, pos):
    t = game.table
    return [t.distance(t.to_table(*q), pos) for q in ring]


def _spec(data, uid):
    return next(u for side in ("german", "russian") for u in data[side] if u["id"] == uid)


def test_the_boundary_has_the_tabletop_fields_none_by_default():
    ic = rule_system.get("ironcross")
    assert (ic.table_scale, ic.setup_pieces, ic.place_piece, ic.move_reach) == (None, None, None, None)
    tw = rule_system.get("twentymm")
    assert tw.table_scale is S.table_scale and tw.place_piece is S.place_piece and tw.move_reach is S.move_reach


def test_table_scale_is_the_scenarios_inches_per_hex(data):
    assert S.table_scale(str(S20), data) == 4.0
    assert S.table_scale(str(S20)) == 4.0


def test_setup_pieces_stand_where_the_scenario_sets_them_up(data):
    pieces = {p.uid: p for p in S.setup_pieces(str(S20), data)}
    g = S._setup_game(str(S20), data)
    t = g.table
    t1 = pieces["G-T1"]
    assert t.to_table(*t1.point) == pytest.approx((166.0, 60.0), abs=1e-3)
    assert t1.bearing == pytest.approx((250 + 90) % 360)   # the rules' 250 (0 = +x) clockwise from the top
    assert "G-A" not in pieces   # the off-table battery is no piece
    assert "hidden" in pieces["R-1"].status


def test_setup_place_piece_is_pure_and_stores_inches_and_the_rules_facing(data):
    before = copy.deepcopy(data)
    g = S._setup_game(str(S20), data)
    pt = g.table.from_table(150.0, 50.0)
    out = S.place_piece(str(S20), data, "G-1", pt, 180.0)
    assert data == before   # pure
    spec = _spec(out, "G-1")
    assert spec["at"] == [150.0, 50.0] and spec["facing"] == 90.0   # 180 clockwise from the top = +y = 90
    assert {p.uid: p for p in S.setup_pieces(str(S20), out)}["G-1"].bearing == pytest.approx(180.0)


def test_setup_a_unit_off_the_table_is_refused(data):
    with pytest.raises(ScenarioError, match="^Setup: .*off the table"):
        S.place_piece(str(S20), data, "G-1", (0.0, 0.0), 0.0)


def test_setup_a_hidden_unit_outside_cover_is_refused(data):
    g = S._setup_game(str(S20), data)
    with pytest.raises(ScenarioError, match="^Setup: R-1 is hidden and only troops in cover"):
        S.place_piece(str(S20), data, "R-1", g.table.from_table(150.0, 56.0), 0.0)


def test_setup_outside_the_scenarios_set_up_area_is_refused(data):
    data["setup_areas"] = {"german": [[130, 45], [176, 45], [176, 70], [130, 70]]}
    g = S._setup_game(str(S20), data)
    S.place_piece(str(S20), data, "G-1", g.table.from_table(150.0, 50.0), 0.0)   # inside: fine
    with pytest.raises(ScenarioError, match="^Setup: .*outside the german set-up area"):
        S.place_piece(str(S20), data, "G-1", g.table.from_table(150.0, 40.0), 0.0)
    data["german"][1]["at"] = [150.0, 40.0]   # a file with a unit outside: the scenario does not set up
    with pytest.raises(ScenarioError, match="outside the german set-up area"):
        S.setup_pieces(str(S20), data)


def test_vehicle_movement_a_hull_in_a_building_is_refused(data):
    g = S._setup_game(str(S20), data)
    with pytest.raises(ScenarioError, match="^Vehicle Movement: a vehicle cannot stand in a building"):
        S.place_piece(str(S20), data, "G-T1", g.table.from_table(142.03, 28.0), 0.0)


def test_vehicle_movement_a_hull_on_another_vehicle_is_refused(data):
    g = S._setup_game(str(S20), data)
    with pytest.raises(ScenarioError, match="^Vehicle Movement: the hull would stand on G-T2"):
        S.place_piece(str(S20), data, "G-T1", g.table.from_table(170.5, 57.0), 0.0)


def test_off_table_artillery_and_riders_are_not_placed(data):
    with pytest.raises(ScenarioError, match="^Mortars and Other Indirect Fire Weapons: off-table artillery"):
        S.place_piece(str(S20), data, "G-A", (100.0, 50.0), 0.0)
    data["german"][1]["embarked_in"] = "G-T1"
    del data["german"][1]["at"]
    with pytest.raises(ScenarioError, match="^Infantry Riding In or On Vehicles: G-1 rides in G-T1"):
        S.place_piece(str(S20), data, "G-1", (100.0, 50.0), 0.0)


def test_unknown_unit_is_refused(data):
    with pytest.raises(ScenarioError, match="no unit 'X'"):
        S.place_piece(str(S20), data, "X", (100.0, 50.0), 0.0)


def test_infantry_movement_reach_is_three_inches_cross_country(data):
    g = S._setup_game(str(S20), data)
    ring = S.move_reach(g, "G-1")
    assert len(ring) == S.REACH_RAYS
    d = _inches(g, ring, g.units["G-1"].pos)
    assert min(d) == pytest.approx(3.0, abs=0.1) and max(d) == pytest.approx(3.0, abs=0.1)   # open ground: 3


def test_vehicle_movement_reach_follows_the_road(data):
    g = S._setup_game(str(S20), data)
    d = _inches(g, S.move_reach(g, "R-T"), g.units["R-T"].pos)   # the T-34 by the road
    assert max(d) > 10.0 > 6.0 >= min(d) - 1e-6


def test_crewed_weapons_an_anti_tank_gun_has_no_reach(data):
    assert S.move_reach(str(S20), "R-AT", data) == ()


def test_reach_of_a_unit_of_the_side_not_to_play_and_after_it_acted(data):
    from core.twentymm.actions import Move

    g = S._setup_game(str(S20), data)
    assert g.side == "german"
    assert len(S.move_reach(g, "R-1")) == S.REACH_RAYS and g.side == "german"   # as if its turn came
    u = g.units["G-1"]
    g.apply(Move("G-1", ((u.pos[0], u.pos[1] - 2.0),)))
    assert S.move_reach(g, "G-1") == ()   # Sequence of Play: it has moved this turn
