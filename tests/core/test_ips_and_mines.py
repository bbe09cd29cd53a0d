"""Improved positions (18.1-18.3) and mines (19.1x, 19.15, 19.2/19.24 in an assault)."""

from __future__ import annotations

import pytest

from core.ironcross.actions import DesignateAssault, EndSetup, Fire, IllegalAction, Place
from core.ironcross.game import Game
from core.ironcross.setup import Allotment, Deployment, GameSetup
from core.ironcross.state import Phase
from maps.terrain_chart import load_terrain_chart
from tests.core.engine_fixtures import ScriptedDice, afv, inf, small_game
from tests.core.engine_helpers import advance_to, events
from tests.mapbuilder import make_map


def _game(allot, *, units=None, placements=None, buildings=None, seed=3):
    m = make_map(cols=(10, 20), rows=(1, 12), buildings=buildings or {})
    units = units or [inf("G1", "german"), inf("R1", "russian")]
    placements = placements or {"G1": "1505", "R1": "1510"}
    us = {u.id: u for u in units}
    deps = [Deployment(us[k].side, [k], frozenset([v])) for k, v in placements.items()]
    setup = GameSetup(hexmap=m, chart=load_terrain_chart(), units=us, game_length=2, first_side="german",
                      setup_order=("german", "russian"), deployments=deps, allotments=allot)
    g = Game(setup, seed)
    g.dice = ScriptedDice(seed=seed, on_roll=g._log_roll, script=[])
    return g


def _place_units(g):
    while g.state.phase is Phase.SETUP and g._setup_queue[0][1] == "unit":
        g.apply(next(a for a in g.legal_actions() if isinstance(a, Place)))


def test_18_1_ips_placed_at_setup_in_zone_one_marker_a_hex_never_moved():
    zone = frozenset(["1504", "1505"])
    g = _game([Allotment("german", zone, ips=[2, 1])])
    g.apply(Place("G1", "1505"))
    assert g.legal_actions() == [Place("IP2", "1504"), Place("IP2", "1505"), EndSetup()]
    with pytest.raises(IllegalAction):
        g.apply(Place("IP2", "1509"))
    g.apply(Place("IP2", "1505"))
    assert g.legal_actions() == [Place("IP1", "1504"), EndSetup()]
    with pytest.raises(IllegalAction):
        g.apply(Place("IP1", "1505"))  # one IP marker a hex
    g.apply(Place("IP1", "1504"))
    assert g.state.ips == {"1505": 2, "1504": 1}
    before = dict(g.state.ips)
    _place_units(g)
    advance_to(g, Phase.SUPPORT_FIRE, player_turn=3)
    assert g.state.ips == before  # 18.1 never moved or removed


def _ap_dice_against(g, target_unit):
    for e in g.events:
        if e["kind"] == "roll" and e["rule"] == "11.43" and target_unit in e["purpose"]:
            return len(e["dice"])
    raise AssertionError("no AP roll")


def _fire_once(ips, target, seed):
    units = [inf("G1", "german", pr=12, ap=8), inf("R1", "russian"), afv("RT", "russian")]
    g = small_game(units, {"G1": "1505", "R1": "1508", "RT": "1509"}, seed=seed)
    g.state.ips.update(ips)
    g.dice.script = [(1, 1)]
    g.apply(Fire(("G1",), target, "AP"))
    return g


def test_18_3_one_extra_die_per_ip_point_18_2_either_side():
    plain = _ap_dice_against(_fire_once({}, "1508", 1), "R1")
    in_ip = _ap_dice_against(_fire_once({"1508": 2}, "1508", 1), "R1")  # a German IP used by a Russian
    assert in_ip == plain + 2


def test_18_2_afvs_do_not_benefit_from_ips():
    plain = _ap_dice_against(_fire_once({}, "1509", 2), "RT")
    in_ip = _ap_dice_against(_fire_once({"1509": 3}, "1509", 2), "RT")
    assert in_ip == plain


def test_19_12_at_most_4_ap_7_at_and_at_least_2_at_19_13_both_types():
    g = _game([Allotment("german", frozenset(["1504"]), ap_mines=6, at_mines=9)])
    _place_units(g)
    acts = [a for a in g.legal_actions() if isinstance(a, Place)]
    assert [a.unit for a in acts] == ["AP-mines:1", "AP-mines:2", "AP-mines:3", "AP-mines:4"]
    g.apply(Place("AP-mines:4", "1504"))
    assert [a for a in g.legal_actions() if isinstance(a, Place)] == []  # hex full (4 AP)
    g.apply(EndSetup())
    at = [a.unit for a in g.legal_actions() if isinstance(a, Place)]
    assert at[0] == "AT-mines:2" and at[-1] == "AT-mines:7" and "AT-mines:1" not in at
    with pytest.raises(IllegalAction):
        g.apply(Place("AT-mines:1", "1504"))
    g.apply(Place("AT-mines:7", "1504"))
    assert g.state.mines["1504"]["ap"] == 4 and g.state.mines["1504"]["at"] == 7  # 19.13


def test_19_14_no_mines_in_buildings():
    g = _game([Allotment("german", frozenset(["1504", "1505", "1507"]), ap_mines=2)],
              buildings={"B1": [(44, 14), (47, 14), (47, 17), (44, 17)]})  # 1507, 1508, 1607, 1608
    _place_units(g)
    hexes = {a.hex for a in g.legal_actions() if isinstance(a, Place)}
    assert hexes == {"1504", "1505"}
    blocked = {h for h in ("1504", "1505", "1507") if g.terrain.is_building(h)}
    assert blocked == {"1507"}
    with pytest.raises(IllegalAction):
        g.apply(Place("AP-mines:1", sorted(blocked)[0]))  # in its zone, but a building


def test_19_11_mines_secret_in_the_opponents_view():
    g = _game([Allotment("german", frozenset(["1504"]), ap_mines=2, at_mines=3)])
    _place_units(g)
    g.apply(Place("AP-mines:2", "1504"))
    g.apply(Place("AT-mines:3", "1504"))
    assert g.view("german")["mines"]["1504"]["ap"] == 2
    assert g.view("russian")["mines"] == {}
    g.state.mines["1504"]["revealed_ap"] = True
    v = g.view("russian")["mines"]["1504"]
    assert v["ap"] == 2 and "at" not in v  # 19.21 AT factors stay secret


def test_19_2_assault_mines_detonate_after_the_assault_19_15_never_depleted_19_21_at_silent():
    units = [inf("G1", "german", assault=3), inf("R1", "russian", assault=3)]
    g = small_game(units, {"G1": "1505", "R1": "1504"}, script=[])
    g.state.mines["1504"] = {"side": "russian", "ap": 4, "at": 5, "revealed_ap": False, "revealed_at": False}
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("G1",), "1504"))
    advance_to(g, Phase.ASSAULT)
    # PC, a: R1 misses, b: G1 hits; then the AP mine attack on G1: die 2 <= 4/2 -> SUPPRESSED
    g.dice.script = [(1, 1), (6,), (1,), (2,)]
    g.apply(DesignateAssault(("G1",), "1504"))
    rules = [e["rule"] for e in g.events if e["kind"] == "roll"][-4:]
    assert rules == ["17.12", "17.23", "17.23", "19.24"]
    assert g.units["G1"].morale.value == "SUPPRESSED" and g.units["G1"].hex == "1504"
    m = g.state.mines["1504"]
    assert m["ap"] == 4 and m["at"] == 5 and m["revealed_ap"] and not m["revealed_at"]
    assert events(g, "mines_revealed")[0]["rule"] == "19.22"
