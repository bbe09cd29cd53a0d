"""Grenades (15.0-15.9) and flamethrowers (16.0-16.3) through the engine, named by rule."""

from __future__ import annotations

import pytest

from core.ironcross.actions import Fire, Flame, Grenade, IllegalAction
from core.ironcross.state import Morale, Phase
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.test_fire_combat import FAIL, PASS, at_phase, building, of, rule_of, script
from tests.mapbuilder import make_map


def ft(uid="GF", side="german"):
    return inf(uid, side, weapon="FT", ap=0, rng=2)


# ---------------------------------------------------------------------------- 15.0 grenades
def test_15_1_grenades_in_the_fire_phases_at_occupied_hexes():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1510", "R1": "1508"})
    assert Grenade("G1", "1508") in g.legal_actions()
    assert Grenade("G1", "1509") not in g.legal_actions()  # empty
    for ph in (Phase.DEFENSIVE_FIRE, Phase.MOVING_FIRE):
        at_phase(g, ph, "german")
        assert Grenade("G1", "1508") in g.legal_actions()
    g.state.phase = Phase.MOVEMENT
    with pytest.raises(IllegalAction):
        g.apply(Grenade("G1", "1508"))


def test_15_2_only_infantry_not_flamethrowers_cws_or_afvs():
    g = small_game([cw("GM", "german"), ft(), afv("GT", "german", weapon="PzIIIf", ap=4, at=10), inf("R1", "russian")],
                   {"GM": "1510", "GF": "1410", "GT": "1610", "R1": "1508"})
    for uid in ("GM", "GF", "GT"):
        assert Grenade(uid, "1508") not in g.legal_actions()
        with pytest.raises(IllegalAction) as e:
            g.apply(Grenade(uid, "1508"))
        assert rule_of(e) == "15.2"


def test_15_3_eligible_pc_plus_two_all_units_in_hex_fired_one_throw_per_hex():
    g = small_game([inf("G1", "german", pr=8), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1510", "R1": "1508"})
    script(g, (3, 4))  # 7 + 2 = 9 > 8: fails
    evs = g.apply(Grenade("G1", "1508"))
    pc = of(evs, "pc")[0]
    assert pc["modifier"] == 2 and pc["rule"] == "15.3" and not pc["passed"]
    assert g.units["G1"].fired and g.units["G2"].fired  # every unit in the hex
    with pytest.raises(IllegalAction) as e:
        g.apply(Grenade("G2", "1508"))
    assert rule_of(e) == "10.11"
    assert g.state.grenades["german"] == 2  # 15.9 attempts do not count
    g.units["G2"].fired = False
    with pytest.raises(IllegalAction) as e:
        g.apply(Grenade("G2", "1508"))
    assert rule_of(e) == "15.3"
    # a PINNED unit is not eligible (10.1)
    g2 = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1510", "R1": "1508"})
    g2.units["G1"].morale, g2.units["G1"].down = Morale.PINNED, True
    with pytest.raises(IllegalAction) as e:
        g2.apply(Grenade("G1", "1508"))
    assert rule_of(e) == "10.11"


def test_15_4_two_hexes_unless_a_building_then_adjacent_only():
    m = make_map(cols=(10, 20), rows=(1, 12), buildings={"B": building("1507")})
    g = small_game([inf("G1", "german"), inf("G2", "german", squad="B"), inf("R1", "russian"),
                    inf("R2", "russian")], {"G1": "1509", "G2": "1310", "R1": "1507", "R2": "1410"}, hexmap=m)
    with pytest.raises(IllegalAction) as e:
        g.apply(Grenade("G1", "1507"))  # two hexes into a building
    assert rule_of(e) == "15.4"
    assert Grenade("G2", "1410") in g.legal_actions()  # adjacent, no building
    g.units["G1"].hex = "1508"
    assert Grenade("G1", "1507") in g.legal_actions()  # adjacent building
    g3 = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1510", "R1": "1507"})
    with pytest.raises(IllegalAction) as e:
        g3.apply(Grenade("G1", "1507"))  # three hexes
    assert rule_of(e) == "15.4"


def test_15_6_one_die_per_enemy_unit_afvs_unaffected_15_7_results_as_ap():
    g = small_game([inf("G1", "german"), inf("R1", "russian"), inf("R2", "russian"), afv("RT", "russian")],
                   {"G1": "1510", "R1": "1509", "R2": "1509", "RT": "1509"})
    script(g, PASS, (1,), (2,))  # non-building line: 1 E, 2 S
    evs = g.apply(Grenade("G1", "1509"))
    assert [(e["unit"], e["result"]) for e in of(evs, "grenade_result")] == [("R1", "E"), ("R2", "S")]
    assert g.units["R1"].eliminated and g.units["R2"].morale is Morale.SUPPRESSED and g.units["R2"].down
    assert g.units["RT"].morale is Morale.NORMAL
    assert g.state.grenades["german"] == 1  # 15.9 an actual use
    assert not of(evs, "ap_firepower")  # 15.5 resolved on its own
    # the building line: 3 = S there (P elsewhere)
    m = make_map(cols=(10, 20), rows=(1, 12), buildings={"B": building("1509")})
    g2 = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1510", "R1": "1509"}, hexmap=m)
    script(g2, PASS, (3,))
    assert of(g2.apply(Grenade("G1", "1509")), "grenade_result")[0]["result"] == "S"


def test_15_8_cw_eliminated_two_dice_per_crew_member_ten_or_less():
    g = small_game([inf("G1", "german"), cw("RM", "russian", crew=3)], {"G1": "1510", "RM": "1509"})
    script(g, PASS, (1,), (5, 5), (5, 6), (6, 6))
    evs = g.apply(Grenade("G1", "1509"))
    assert of(evs, "crew_losses")[0]["rule"] == "15.8" and g.units["RM"].crew == 2
    assert g.units["RM"].morale is Morale.SUPPRESSED


def test_15_9_availability_counts_actual_uses_only():
    g = small_game([inf("G1", "german"), inf("G2", "german", squad="B"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1410", "R1": "1509"}, grenades={"german": 1, "russian": 0})
    script(g, PASS, (6,))
    g.apply(Grenade("G1", "1509"))
    assert g.state.grenades["german"] == 0
    assert not any(isinstance(a, Grenade) for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        g.apply(Grenade("G2", "1509"))
    assert rule_of(e) == "15.9"


# ---------------------------------------------------------------------------- 16.0 flamethrowers
def test_16_0_fire_phases_same_eligibility_and_pc_no_combination():
    g = small_game([ft(), inf("G1", "german"), inf("R1", "russian")], {"GF": "1510", "G1": "1510", "R1": "1509"})
    assert Flame("GF", "1509") in g.legal_actions()
    at_phase(g, Phase.MOVING_FIRE)
    g.units["GF"].moved = True  # an infantry unit: may fire after moving
    assert Flame("GF", "1509") in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire(("GF", "G1"), "1509"))
    assert rule_of(e) == "16.0"  # no combination: a flamethrower attacks alone
    script(g, FAIL)
    evs = g.apply(Flame("GF", "1509"))
    assert of(evs, "pc")[0]["rule"] == "10.12" and g.units["GF"].fired
    with pytest.raises(IllegalAction) as e:
        g.apply(Flame("GF", "1509"))
    assert rule_of(e) == "10.11"
    g.state.phase = Phase.MOVEMENT
    g.units["GF"].fired = False
    with pytest.raises(IllegalAction):
        g.apply(Flame("GF", "1509"))


def test_16_1_range_two_no_afv_targets():
    g = small_game([ft(), inf("R1", "russian"), afv("RT", "russian"), inf("R2", "russian")],
                   {"GF": "1510", "R1": "1508", "RT": "1509", "R2": "1507"})
    acts = g.legal_actions()
    assert Flame("GF", "1508") in acts and Flame("GF", "1509") not in acts and Flame("GF", "1507") not in acts
    with pytest.raises(IllegalAction) as e:
        g.apply(Flame("GF", "1507"))
    assert rule_of(e) == "16.1"
    with pytest.raises(IllegalAction) as e:
        g.apply(Flame("GF", "1509"))
    assert rule_of(e) == "16.1"


def test_16_2_only_from_the_up_state():
    g = small_game([ft(), inf("G1", "german"), inf("R1", "russian")],
                   {"GF": ("1510", True, None), "G1": "1410", "R1": "1509"})
    with pytest.raises(IllegalAction) as e:
        g.apply(Flame("GF", "1509"))
    assert rule_of(e) == "16.2"


def test_16_3_two_dice_regardless_of_modifiers_table_by_range():
    m = make_map(cols=(10, 20), rows=(1, 12), marsh=["1508"], trees={"1508": 0})
    g = small_game([ft(), inf("R1", "russian"), inf("R2", "russian"), afv("RT", "russian"),
                    cw("RM", "russian")],
                   {"GF": "1510", "R1": ("1508", True, None), "R2": "1508", "RT": "1508", "RM": "1508"}, hexmap=m)
    at_phase(g, Phase.MOVING_FIRE)
    g.units["GF"].moved = True
    g.state.ips["1508"] = 2
    # range 2: 2-6 E, 7-12 S; every unit two dice (DOWN, marsh, moved, IPs and AFV cover ignored)
    script(g, PASS, (3, 3), (4, 3), (1, 1), (5, 4), (5, 5), (1, 2))
    evs = g.apply(Flame("GF", "1508"))
    res = [(e["unit"], e["result"]) for e in of(evs, "flame_result")]
    assert res == [("R1", "E"), ("R2", "S"), ("RM", "E")]  # the AFV is not attacked (16.1)
    assert g.units["R1"].eliminated and g.units["R2"].morale is Morale.SUPPRESSED
    assert g.units["RM"].crew == 2  # CW E: 8 or less kills, as in 11.43: 9 and 10 survive (they would not under 15.8)
    assert not g.dice.script
