"""Set-up (24.1): placement in set-up zones, UP/DOWN and facing, stacking at set-up, hidden information."""

from __future__ import annotations

import pytest

from core.ironcross.actions import EndPhase, EndSetup, IllegalAction, Place
from core.ironcross.game import Game
from core.ironcross.setup import Allotment, Deployment, Entry, GameSetup
from core.ironcross.state import Phase
from maps.terrain_chart import load_terrain_chart
from tests.core.engine_fixtures import afv, cw, inf
from tests.mapbuilder import make_map

ZONE = frozenset(["1504", "1505"])


def _game(units, deployments, *, entries=(), allot=(), order=("german", "russian"), length=1):
    m = make_map(cols=(10, 20), rows=(1, 12))
    us = {u.id: u for u in units}
    setup = GameSetup(hexmap=m, chart=load_terrain_chart(), units=us, game_length=length, first_side="german",
                      setup_order=order, deployments=deployments, entries=list(entries), allotments=list(allot))
    return Game(setup, 5)


def test_24_1_units_set_up_only_in_their_zone_up_or_down():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], frozenset(["1510"]))])
    assert g.state.phase is Phase.SETUP and g.current_side() == "german"
    acts = g.legal_actions()
    assert {a.hex for a in acts if isinstance(a, Place)} == set(ZONE)
    assert Place("G1", "1505", True) in acts and Place("G1", "1505", False) in acts  # 3.12
    with pytest.raises(IllegalAction) as e:
        g.apply(Place("G1", "1510"))
    assert e.value.rule == "24.1"
    g.apply(Place("G1", "1505", True))
    assert g.current_side() == "russian"
    g.apply(Place("R1", "1510"))
    assert g.state.phase is Phase.SUPPORT_FIRE
    assert g.units["G1"].hex == "1505" and g.units["G1"].down
    assert g.state.control == {"1505": "german", "1510": "russian"}


def test_24_1_setup_order_follows_the_scenario():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], frozenset(["1510"]))],
              order=("russian", "german"))
    assert g.current_side() == "russian"


def test_8_7_facing_chosen_at_setup_for_mgs_atgs_afvs():
    g = _game([cw("GM", "german"), inf("R1", "russian")],
              [Deployment("german", ["GM"], frozenset(["1505"])), Deployment("russian", ["R1"], frozenset(["1510"]))])
    acts = [a for a in g.legal_actions() if isinstance(a, Place)]
    assert {a.facing for a in acts} == {1, 2, 3, 4, 5, 6}
    with pytest.raises(IllegalAction):
        g.apply(Place("GM", "1505", False, None))


def test_8_62_stacking_at_setup_six_men_one_cw_one_afv():
    units = [inf(f"G{i}", "german") for i in range(7)] + [cw("GM", "german"), cw("GN", "german"),
                                                          afv("GT", "german"), afv("GU", "german"), inf("R1", "russian")]
    one = frozenset(["1505"])
    g = _game(units, [Deployment("german", [f"G{i}" for i in range(3)] + ["GM", "GN", "GT", "GU", "G3"],
                                 one), Deployment("russian", ["R1"], frozenset(["1510"]))])
    for i in range(3):
        g.apply(Place(f"G{i}", "1505"))
    g.apply(Place("GM", "1505", False, 1))  # crew 3: six men now
    assert [a for a in g.legal_actions() if isinstance(a, Place)] == []  # a second CW: no
    g.apply(EndSetup())
    assert g.units["GN"].hex is None
    g.apply(Place("GT", "1505", False, 1))  # one AFV on top of six men
    assert [a for a in g.legal_actions() if isinstance(a, Place)] == []  # a second AFV: no
    g.apply(EndSetup())
    assert [a for a in g.legal_actions() if isinstance(a, Place)] == []  # a seventh man: no
    with pytest.raises(IllegalAction):
        g.apply(Place("G3", "1505"))


def test_24_1_not_in_an_enemy_occupied_hex():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], ZONE)])
    g.apply(Place("G1", "1505"))
    assert {a.hex for a in g.legal_actions() if isinstance(a, Place)} == {"1504"}


def test_24_1_entering_units_are_not_set_up_and_enter_on_their_turn():
    g = _game([inf("G1", "german"), inf("R1", "russian")], [Deployment("german", ["G1"], ZONE)],
              entries=[Entry("russian", ["R1"], frozenset(["1512"]), 2)], length=2)
    g.apply(Place("G1", "1505"))
    assert g.state.phase is not Phase.SETUP and g.units["R1"].hex is None and not g.units["R1"].entered
    while g.state.turn < 2 or g.state.phasing != "russian" or g.state.phase is not Phase.MOVEMENT:
        assert not any("R1" in getattr(a, "units", ()) for a in g.legal_actions())
        g.apply(EndPhase())
    assert any("R1" in getattr(a, "units", ()) for a in g.legal_actions())


def test_24_1_hidden_information_views_hide_enemy_mines_only():
    g = _game([inf("G1", "german"), inf("R1", "russian")],
              [Deployment("german", ["G1"], ZONE), Deployment("russian", ["R1"], frozenset(["1510"]))],
              allot=[Allotment("german", ZONE, ap_mines=1)])
    g.apply(Place("G1", "1505"))
    g.apply(Place("AP-mines:1", "1504"))
    assert g.current_side() == "russian"
    vr, vg = g.view("russian"), g.view("german")
    assert vr["mines"] == {} and vg["mines"]["1504"]["ap"] == 1
    assert vr["units"]["G1"]["hex"] == "1505"  # set-up units are visible
    assert g.legal_actions("german") == []  # only the deciding side acts
