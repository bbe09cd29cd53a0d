"""Mortars (14.0-14.52) through the engine, each test named by its rule."""

from __future__ import annotations

import json
import random

import pytest

from core.ironcross.actions import Fire, IllegalAction, MortarFire, action_from_json, action_to_json
from core.ironcross.game import Game
from core.ironcross.mortars import SCATTER_DIAGRAM, mortar_max_rounds, scatter_hex
from core.ironcross.state import Morale, Phase
from core.replay import first_divergence
from maps import hexgrid
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.test_fire_combat import FAIL, PASS, at_phase, building, of, rule_of, script
from tests.mapbuilder import make_map


def mortar(uid="GO", side="german", ap=6, rng=3, crew=3):
    return cw(uid, side, weapon="Mor", ap=ap, rng=rng, crew=crew, ma=0)


def cmdr(uid="GC", side="german", pr=10):
    return inf(uid, side, weapon="PL", ap=3, rng=5, pr=pr, commander=True)


def mfire(g, target, rounds=1, spotter=None, unit="GO"):
    return g.apply(MortarFire(unit, target, rounds, spotter))


def test_14_0_fire_phases_pc_and_eligibility():
    g = small_game([mortar(), inf("R1", "russian")], {"GO": "1510", "R1": "1505"})
    assert g.state.phase is Phase.SUPPORT_FIRE
    assert MortarFire("GO", "1505", 5) in g.legal_actions()
    script(g, FAIL)
    evs = mfire(g, "1505", 3)
    assert of(evs, "pc")[0]["rule"] == "14.0" and not of(evs, "mortar_round")
    assert g.units["GO"].fired  # 4.0
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505")
    assert rule_of(e) == "10.11"
    # Moving Fire Phase: not after moving (like other CWs); Defensive Fire Phase allowed
    g2 = small_game([mortar(), inf("R1", "russian")], {"GO": "1510", "R1": "1505"})
    at_phase(g2, Phase.MOVING_FIRE)
    g2.units["GO"].moved = True
    with pytest.raises(IllegalAction) as e:
        mfire(g2, "1505")
    assert rule_of(e) == "14.0"
    g2.units["GO"].moved = False
    assert MortarFire("GO", "1505", 1) in g2.legal_actions()
    g2.state.phase = Phase.MOVEMENT
    with pytest.raises(IllegalAction):
        mfire(g2, "1505")


def test_14_0_not_from_building_hexes():
    m = make_map(cols=(10, 20), rows=(1, 12), buildings={"B": building("1510")})
    g = small_game([mortar(), inf("G1", "german"), inf("R1", "russian")], {"GO": "1510", "G1": "1410", "R1": "1505"},
                   hexmap=m)
    assert not any(isinstance(a, MortarFire) for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505")
    assert rule_of(e) == "14.0"


def test_14_0_mortar_fire_is_resolved_before_any_other_fire_in_the_phase():
    g = small_game([mortar(), inf("G1", "german"), inf("R1", "russian")], {"GO": "1510", "G1": "1410", "R1": "1505"})
    script(g, FAIL)
    g.apply(Fire(("G1",), "1505"))
    assert not any(isinstance(a, MortarFire) for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505")
    assert rule_of(e) == "14.0" and "before any other" in str(e.value)
    # in the next fire phase the mortar may fire again first
    g.units["GO"].fired = False
    at_phase(g, Phase.MOVING_FIRE)
    assert MortarFire("GO", "1505", 1) in g.legal_actions()


def test_14_11_up_to_five_rounds_full_factors_each_resolved_in_turn():
    g = small_game([mortar(ap=5), inf("R1", "russian")], {"GO": "1510", "R1": "1505"})
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505", 6)
    assert rule_of(e) == "14.12"
    rolls = [PASS]
    for _ in range(5):
        rolls += [(1,), (6,)]  # scatter 1+1 = 2: T; AP die 6 vs 5/3/2: no effect
    script(g, *rolls)
    evs = mfire(g, "1505", 5)
    rounds = of(evs, "mortar_round")
    assert [r["round"] for r in rounds] == [1, 2, 3, 4, 5] and all(r["modifier"] == 1 for r in rounds)
    assert all(e["firepower"] == 5 for e in of(evs, "ap_result"))
    kinds = [e["kind"] for e in evs if e["kind"] in ("mortar_round", "ap_result")]
    assert kinds == ["mortar_round", "ap_result"] * 5  # 14.52 each round completely, in turn
    assert not g.dice.script


def test_14_12_crew_limits_rounds():
    assert [mortar_max_rounds(c, 3, False) for c in (3, 2, 1, 0)] == [5, 3, 2, 0]
    g = small_game([mortar(crew=3), inf("R1", "russian")], {"GO": "1510", "R1": "1505"})
    g.units["GO"].crew = 2
    assert MortarFire("GO", "1505", 3) in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505", 4)
    assert rule_of(e) == "14.12"
    g.units["GO"].crew = 1
    with pytest.raises(IllegalAction):
        mfire(g, "1505", 3)
    assert MortarFire("GO", "1505", 2) in g.legal_actions()


def _indirect_game(**kw):
    # the building in 1508 blocks the mortar's LOS to 1505; the commander in 1610 sees 1505
    m = make_map(cols=(10, 20), rows=(1, 12), buildings={"B": building("1508")})
    return small_game([mortar(), cmdr(**kw), inf("R1", "russian")], {"GO": "1510", "GC": "1610", "R1": "1505"},
                      hexmap=m)


def test_14_2_target_hex_in_los_unless_indirect_fire():
    g = _indirect_game()
    assert not g.los("1510", "1505").clear and g.los("1610", "1505").clear
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505")
    assert rule_of(e) == "14.2"
    assert MortarFire("GO", "1505", 2, spotter="GC") in g.legal_actions()
    # a mortar that sees its target fires directly
    g2 = small_game([mortar(), cmdr(), inf("R1", "russian")], {"GO": "1510", "GC": "1610", "R1": "1505"})
    with pytest.raises(IllegalAction) as e:
        mfire(g2, "1505", spotter="GC")
    assert rule_of(e) == "14.22"


def test_14_13_indirect_fire_at_most_two_rounds():
    g = _indirect_game()
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505", 3, spotter="GC")
    assert rule_of(e) == "14.13"
    assert mortar_max_rounds(3, 3, True) == 2


def test_14_22_a_spotter_normal_commander_within_two_hexes_not_moved_or_fired_with_los():
    g = _indirect_game()
    c = g.units["GC"]
    for change, undo in (("moved", False), ("fired", False)):
        setattr(c, change, True)
        with pytest.raises(IllegalAction) as e:
            mfire(g, "1505", spotter="GC")
        assert rule_of(e) == "14.22 a"
        setattr(c, change, undo)
    c.morale, c.down = Morale.PINNED, True
    with pytest.raises(IllegalAction):
        mfire(g, "1505", spotter="GC")
    c.morale, c.down = Morale.NORMAL, False
    c.hex = "1813"  # three hexes away
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505", spotter="GC")
    assert rule_of(e) == "14.22 a"


def test_14_22_b_spotter_pc_failed_no_indirect_fire_this_player_turn():
    g = _indirect_game()
    script(g, FAIL)
    evs = mfire(g, "1505", spotter="GC")
    assert of(evs, "pc")[0]["rule"] == "14.22" and of(evs, "spotting_failed")
    assert not g.units["GO"].fired  # the mortar took no PC
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1505", spotter="GC")
    assert rule_of(e) == "14.22 b"
    # spotter passes: the mortar's own PC, then the rounds with +1 for indirect fire
    g2 = _indirect_game()
    script(g2, PASS, PASS, (2,), (6,))
    evs = mfire(g2, "1505", 1, spotter="GC")
    assert [e["rule"] for e in of(evs, "pc")] == ["14.22", "14.0"]
    assert of(evs, "mortar_round")[0]["modifier"] == 1 and of(evs, "mortar_round")[0]["result"] == "T"


def test_14_21_not_into_its_own_hex_and_under_minimum_range_plus_one():
    g = small_game([mortar(rng=3), inf("R1", "russian"), inf("R2", "russian")],
                   {"GO": "1510", "R1": "1508", "R2": "1505"})
    with pytest.raises(IllegalAction) as e:
        mfire(g, "1510")
    assert rule_of(e) == "14.21"
    script(g, PASS, (3,), (1,), (6,))  # range 2 < 3: 3 + 1 = 4: S1, direction 1 (top): 1507, empty
    evs = mfire(g, "1508", 1)
    r = of(evs, "mortar_round")[0]
    assert r["modifier"] == 1 and r["result"] == "S1" and r["direction"] == 1 and r["impact"] == "1507"
    assert not of(evs, "ap_result")


def test_14_3_scatter_table_modifiers_and_the_scatter_diagram():
    assert SCATTER_DIAGRAM == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
    assert scatter_hex("1505", 4, 2).id == "1507"
    assert scatter_hex("1505", 2, 1) == hexgrid.neighbour(hexgrid.parse_hex_id("1505"), 2)
    g = small_game([mortar(), inf("R1", "russian"), inf("G1", "german")],
                   {"GO": "1510", "R1": "1505", "G1": "1507"})
    # S2 toward the bottom of the sheet lands on the friendly unit in 1507: it is attacked too
    script(g, PASS, (6,), (4,), (6,))
    evs = mfire(g, "1505", 1)
    r = of(evs, "mortar_round")[0]
    assert (r["result"], r["impact"]) == ("S2", "1507") and of(evs, "ap_result")[0]["unit"] == "G1"
    # the next Player Turn in which it fires, at the same target hex: -1
    g.units["GO"].reset_player_turn()
    g.state.player_turn += 2
    at_phase(g, Phase.SUPPORT_FIRE)
    script(g, PASS, (4,), (6,))
    evs = mfire(g, "1505", 1)
    r = of(evs, "mortar_round")[0]
    assert r["modifier"] == -1 and r["result"] == "T"
    # a round scattering off the map is lost
    g2 = small_game([mortar(), inf("R1", "russian")], {"GO": "1510", "R1": "1501"})
    script(g2, PASS, (6,), (1,))
    evs = mfire(g2, "1501", 1)
    assert of(evs, "mortar_round_lost") and not of(evs, "ap_result")


def test_14_4_mortar_dice_ignore_trees_afvs_wrecks_and_elevation():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1505": 2}, levels={"1505": 1})
    g = small_game([mortar(), inf("R1", "russian"), inf("R2", "russian"), afv("RT", "russian")],
                   {"GO": "1510", "R1": "1505", "R2": ("1505", True, None), "RT": "1505"}, hexmap=m)
    g.state.wrecks["1505"] = 1
    assert g._ap_dice_against(g.units["R1"], "1505", False) == 3  # woods 2 + AFV cover, for other fire
    script(g, PASS, (1,), (6,), (6, 6), (6, 6))  # R1 UP: 1 die (clear); R2 DOWN: 2; RT (11.34): 2
    evs = mfire(g, "1505", 1)
    assert {e["unit"]: len(e["dice"]) for e in of(evs, "ap_result")} == {"R1": 1, "R2": 2, "RT": 2}
    assert all(e["firepower"] == 6 for e in of(evs, "ap_result"))  # 14.51


def test_14_51_printed_ap_factor_never_modified():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1502": 3}, levels={"1502": 1})
    g = small_game([mortar(ap=4, rng=3), inf("R1", "russian")], {"GO": "1512", "R1": "1502"}, hexmap=m)
    script(g, PASS, (1,), (5,))
    e = of(mfire(g, "1502", 1), "ap_result")[0]
    assert e["firepower"] == 4 and e["levels"] == [4, 2, 1]


def test_14_52_successive_rounds_cumulate_on_the_same_unit():
    g = small_game([mortar(ap=6), inf("R1", "russian")], {"GO": "1510", "R1": "1505"})
    script(g, PASS, (1,), (5,), (1,), (2, 2))  # round 1: 5 <= 6: P (now DOWN: 2 dice); round 2: 4: P + P = S
    evs = mfire(g, "1505", 2)
    assert [e["result"] for e in of(evs, "ap_result")] == ["P", "P"]
    assert g.units["R1"].morale is Morale.SUPPRESSED and not g.dice.script


def test_14_52_round_after_round_special_roll():
    g = small_game([mortar(ap=8), inf("R1", "russian", pr=2)], {"GO": "1510", "R1": "1505"})
    # round 1: 4 <= S level 4: SUPPRESSED (DOWN now: 2 dice); round 2: 3 <= 4: S + S: special roll 12 > 2
    script(g, PASS, (1,), (4,), (1,), (1, 2), (6, 6))
    evs = mfire(g, "1505", 2)
    assert of(evs, "special_roll")[0]["passed"] is False and g.units["R1"].eliminated
    assert not g.dice.script


def _random_setup():
    from core.ironcross.setup import Deployment, GameSetup
    from maps.terrain_chart import load_terrain_chart
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1204": 2, "1506": 3}, buildings={"B": building("1508")})
    us = [mortar("GO"), mortar("GP", crew=2), cmdr("GC"), inf("G1", "german"), inf("G2", "german"),
          mortar("RO", side="russian"), cmdr("RC", side="russian"), inf("R1", "russian", squad="B"),
          inf("R2", "russian", squad="B"), afv("RT", "russian")]
    units = {u.id: u for u in us}
    gz = frozenset(h.id for h in m.all_hexes() if h.row >= 9)
    rz = frozenset(h.id for h in m.all_hexes() if h.row <= 4)
    return GameSetup(hexmap=m, chart=load_terrain_chart(), units=units, game_length=3, first_side="german",
                     setup_order=("german", "russian"),
                     deployments=[Deployment("german", [u for u in units if u.startswith("G")], gz),
                                  Deployment("russian", [u for u in units if u.startswith("R")], rz)],
                     entries=[], grenades={"german": 2, "russian": 2}, victory=None)


def _play(seed):
    g = Game(_random_setup(), seed)
    rnd = random.Random(seed)
    while not g.is_terminal():
        acts = g.legal_actions()
        mort = [a for a in acts if isinstance(a, MortarFire)]
        pick = mort if mort and rnd.random() < 0.7 else acts
        g.apply(pick[rnd.randrange(len(pick))])
        for u in g.state.units.values():
            if u.on_map and u.morale is not Morale.NORMAL:
                assert u.down  # 3.25
    return g


def test_14_0_random_games_with_mortars_end_and_replay():
    fired = 0
    for seed in range(4):
        g = _play(seed)
        fired += sum(1 for e in g.events if e["kind"] == "mortar_round")
        g2 = Game(_random_setup(), seed)
        for a in g.actions:
            g2.apply(action_from_json(action_to_json(a)))
        assert first_divergence(json.loads(json.dumps(g.events)), json.loads(json.dumps(g2.events))) is None
    assert fired > 0
