"""20 mm rules (seed 003): Anti-Tank Guns, the damaged vehicle table, Infantry Anti-Tank Weapons,
Aiming for The Tracks, Direct Fire High Explosive, Rate of Fire, the Vehicle and Anti-Tank Gun
Reference Table."""

from __future__ import annotations

import math

import pytest

from core.twentymm import tables
from core.twentymm.actions import EndTurn, Fire, Move
from core.twentymm.game import TwentyIllegal
from tests.twentymm.helpers import game, gun, inf, script, veh

A = (50.0, 40.0)


def shots(g, since=0):
    return [e for e in g.events[since:] if e["kind"] == "at_shot"]


@pytest.mark.parametrize("d,need", [(5, 5), (10, 6), (20, 7), (30, 8), (40, 9), (5.1, 6)])
def test_20mm_anti_tank_guns_to_hit_on_2d6_by_range_band(d, need):
    assert tables.at_need(d) == need


def test_20mm_anti_tank_guns_target_within_maximum_effective_range_of_the_reference_table():
    g = game([gun("P", "german", A, "Soviet 45mm ATG", facing=0.0), veh("T", "russian", (81.0, 40.0), "Pz IV", facing=180.0)])
    with pytest.raises(TwentyIllegal, match="maximum effective range"):
        g.apply(Fire("P", "at", "T"))     # 31 inches: the 45 mm has no Strike Value beyond 30


def test_20mm_anti_tank_guns_plus_one_per_turn_on_the_same_stationary_target():
    g = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (65.0, 40.0), "Pz IV", facing=180.0)])
    script(g, 3, 3)
    g.apply(Fire("P", "at", "T"))
    assert shots(g)[-1]["mod"] == 0 and not shots(g)[-1]["hit"]      # 6 < 7
    g.apply(EndTurn()); g.apply(EndTurn())
    script(g, 3, 3, 1, 1)
    g.apply(Fire("P", "at", "T"))
    assert shots(g)[-1]["mod"] == 1 and shots(g)[-1]["hit"]          # 6 + 1 = 7
    g.apply(EndTurn()); g.apply(EndTurn())
    script(g, 1, 1)
    g.apply(Fire("P", "at", "T"))
    assert shots(g)[-1]["mod"] == 2


def test_20mm_anti_tank_guns_minus_one_against_a_moving_target():
    g = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (65.0, 36.0), "T-34/76", facing=90.0)],
             first="russian")
    g.apply(Move("T", ((65.0, 40.0),), facing=180.0))
    g.apply(EndTurn())
    script(g, 4, 3)
    g.apply(Fire("P", "at", "T"))
    assert shots(g)[-1]["mod"] == -1 and not shots(g)[-1]["hit"]     # 7 - 1 < 7


@pytest.mark.parametrize("firer,face,angled,av", [((60.0, 40.0), "front", False, 15), ((30.0, 40.0), "rear", False, 13),
                                                  ((50.0, 60.0), "side", False, 14), ((50 + 20 * math.cos(math.radians(35)), 40 + 20 * math.sin(math.radians(35))), "side", True, 15)])
def test_20mm_anti_tank_guns_armour_value_front_plus_1_rear_minus_1_angle_of_attack_under_45_plus_1(firer, face, angled, av):
    g = game([veh("T", "russian", A, "Pz IV", facing=0.0)])
    assert g.face_hit(g.units["T"], firer) == (face, angled)
    assert g.armour(g.units["T"], firer) == av


def test_20mm_anti_tank_guns_strike_value_plus_2d6_equal_damages_exceed_destroys():
    g = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (65.0, 40.0), "Pz IV", facing=90.0)])
    # side shot at 15 inches: SV 6, AV 14; to hit 7+: 4+3; strike 6 + 4 + 4 = 14 = AV: damaged; damage roll 2
    script(g, 4, 3, 4, 4, 2)
    g.apply(Fire("P", "at", "T"))
    assert g.units["T"].immobilised and g.units["T"].alive
    g2 = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (65.0, 40.0), "Pz IV", facing=90.0)])
    script(g2, 4, 3, 4, 5)
    g2.apply(Fire("P", "at", "T"))
    assert not g2.units["T"].alive
    g3 = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (65.0, 40.0), "Pz IV", facing=90.0)])
    script(g3, 4, 3, 4, 3)
    g3.apply(Fire("P", "at", "T"))
    assert g3.units["T"].alive and not g3.units["T"].immobilised


@pytest.mark.parametrize("score,effect", [(1, "stunned"), (2, "immobilised"), (3, "immobilised"), (4, "turret_jammed"), (5, "crew_hit"), (6, "crew_killed")])
def test_20mm_anti_tank_guns_damaged_vehicle_table(score, effect):
    g = game([veh("T", "russian", A, "T-34/76")])
    script(g, score)
    g._damage(g.units["T"], 0)
    t = g.units["T"]
    got = {"stunned": t.stunned, "immobilised": t.immobilised, "turret_jammed": t.turret_jammed,
           "crew_hit": t.move_only, "crew_killed": not t.alive}
    assert got[effect] and sum(got.values()) == 1


def test_20mm_anti_tank_guns_damaged_vehicle_stunned_crew_make_no_action_next_turn_and_move_only_after_gunner_killed():
    g = game([veh("T", "german", A, "Pz IV"), inf("R", "russian", (60.0, 40.0))], first="russian")
    script(g, 1)
    g._damage(g.units["T"], 0)
    g.apply(EndTurn())
    with pytest.raises(TwentyIllegal):
        g.apply(Move("T", ((52.0, 40.0),)))
    g.apply(EndTurn()); g.apply(EndTurn())
    g.apply(Move("T", ((52.0, 40.0),)))
    g.units["T"].move_only = True
    g.apply(EndTurn()); g.apply(EndTurn())
    with pytest.raises(TwentyIllegal, match="move actions only"):
        g.apply(Fire("T", "mg", "R"))


def test_20mm_anti_tank_guns_turret_result_ignored_by_assault_guns_rerolled_by_other_turretless_vehicles():
    g = game([veh("S", "russian", A, "Stug III"), veh("H", "russian", (60.0, 40.0), "Half-track")])
    script(g, 4)
    g._damage(g.units["S"], 0)
    s = g.units["S"]
    assert s.alive and not (s.immobilised or s.turret_jammed or s.stunned or s.move_only)
    script(g, 4, 2)
    g._damage(g.units["H"], 0)
    assert g.units["H"].immobilised
    assert sum(1 for e in g.events if e["kind"] == "roll" and "H" in e["purpose"]) == 2


@pytest.mark.parametrize("weapon,d,sv", [("at_rifle", 4, 6), ("at_rifle", 8, 5), ("panzerfaust", 4, 7), ("panzerfaust", 8, 6), ("panzerfaust", 8.5, None)])
def test_20mm_infantry_anti_tank_weapons_strike_values_and_ranges(weapon, d, sv):
    w = tables.reference()["infantry_at"][weapon]
    assert tables.sv_at(w["sv"], d, w["bands"]) == sv


def test_20mm_infantry_anti_tank_weapons_fire_with_the_anti_tank_procedure_and_separately_from_small_arms():
    g = game([inf("G", "german", A, facing=0.0, men=8, panzerfaust=1), veh("T", "russian", (56.0, 40.0), "T-34/76", facing=180.0),
              inf("R", "russian", (56.0, 41.0), men=4)])
    script(g, 6, 6, 6, 6)
    g.apply(Fire("G", "at", "T"))
    with pytest.raises(TwentyIllegal, match="already fired its at"):
        g.apply(Fire("G", "at", "T"))
    g.apply(Fire("G", "small_arms", "R"))   # a different weapon type may take another target
    g2 = game([inf("G", "german", A, facing=0.0, men=8, panzerfaust=1), veh("T", "russian", (59.0, 40.0), "T-34/76", facing=180.0)])
    with pytest.raises(TwentyIllegal, match="Infantry Anti-Tank Weapons"):
        g2.apply(Fire("G", "at", "T"))


def test_20mm_aiming_for_the_tracks_plus_2_strike_and_damage_minus_1_from_the_side_under_10():
    g = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (58.0, 40.0), "Pz III", facing=90.0)])
    # side at 8: SV 7 + 2 = 9; 9 + 2 + 2 = 13 = AV 13: penetrates; damage 3 - 1 = 2: immobilised
    script(g, 6, 6, 2, 2, 3)
    g.apply(Fire("P", "at", "T", tracks=True))
    assert g.units["T"].immobilised
    assert any("strike 9" in e.get("purpose", "") for e in g.events)
    g2 = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (58.0, 40.0), "Pz III", facing=90.0)])
    script(g2, 6, 6, 6, 6, 1)               # would destroy, but a natural 1 on the damage table: no effect
    g2.apply(Fire("P", "at", "T", tracks=True))
    t = g2.units["T"]
    assert t.alive and not (t.immobilised or t.stunned)


def test_20mm_aiming_for_the_tracks_only_from_the_side_and_negated_by_schuerzen():
    g = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (58.0, 40.0), "Pz III", facing=180.0)])
    with pytest.raises(TwentyIllegal, match="Aiming for The Tracks"):
        g.apply(Fire("P", "at", "T", tracks=True))     # a front shot
    g2 = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (58.0, 40.0), "Pz III", facing=90.0, schuerzen=True)])
    script(g2, 6, 6, 2, 2)
    g2.apply(Fire("P", "at", "T", tracks=True))
    assert any("strike 7" in e.get("purpose", "") for e in g2.events)


@pytest.mark.parametrize("cal,cls", [(45, "light"), (50, "light"), (75, "medium"), (88, "medium"), (105, "artillery")])
def test_20mm_direct_fire_high_explosive_calibre_equivalents(cal, cls):
    assert tables.he_class(cal) == cls


def test_20mm_direct_fire_high_explosive_rolls_as_anti_tank_then_uses_the_template():
    g = game([veh("T", "german", A, "Pz IV", facing=0.0), inf("R", "russian", (60.0, 40.0), men=8, facing=0.0)])
    script(g, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3)
    g.apply(Fire("T", "he", "R"))
    tmpl = [e for e in g.events if e["kind"] == "template"]
    assert tmpl and tmpl[0]["diameter"] == 3.0
    # a 3-inch template over a line of 8 men 1/2 inch apart (3.5 inches long) covers the middle 6
    assert g.units["R"].men == 2 and g.units["R"].under_he


def test_20mm_direct_fire_high_explosive_not_by_tank_destroyers_and_he_only_guns_not_at_tanks():
    g = game([veh("S", "german", A, "SU-85", facing=0.0), veh("H", "german", (50.0, 44.0), "Pz IV", facing=0.0, he_only=True),
              inf("R", "russian", (60.0, 40.0)), veh("T", "russian", (60.0, 44.0), "T-34/76")])
    with pytest.raises(TwentyIllegal, match="tank-destroyers"):
        g.apply(Fire("S", "he", "R"))
    with pytest.raises(TwentyIllegal, match="only HE"):
        g.apply(Fire("H", "at", "T"))


def test_20mm_rate_of_fire_small_crewed_at_guns_fire_twice_at_the_same_target():
    g = game([gun("P", "german", A, "Soviet 45mm ATG", facing=0.0), veh("T", "russian", (60.0, 40.0), "Pz IV", facing=180.0)])
    script(g, 1, 1, 1, 1)
    g.apply(Fire("P", "at", "T"))
    assert [e["target"] for e in shots(g)] == ["T", "T"]
    g2 = game([gun("P", "german", A, "PAK 40 ATG", facing=0.0), veh("T", "russian", (60.0, 40.0), "Pz IV", facing=180.0)])
    script(g2, 1, 1)
    g2.apply(Fire("P", "at", "T"))
    assert len(shots(g2)) == 1


def test_20mm_rate_of_fire_he_once_per_turn():
    g = game([gun("P", "german", A, "Soviet 45mm ATG", facing=0.0), inf("R", "russian", (60.0, 40.0))])
    script(g, 1, 1)
    g.apply(Fire("P", "he", "R"))
    assert sum(1 for e in g.events if e["kind"] == "he_shot") == 1
    with pytest.raises(TwentyIllegal):
        g.apply(Fire("P", "he", "R"))


def test_20mm_vehicle_and_anti_tank_gun_reference_table_is_rulebook_data():
    ref = tables.reference()
    assert ref["provenance"] == "rulebook"
    assert tables.vehicle("Tiger I")["av"] == 17 and tables.vehicle("Tiger I")["guns"][0]["sv"] == [12, 11, 9, 7, 5, 3]
    assert tables.vehicle("T-34/76")["av"] == 14 and tables.vehicle("T-34/76")["guns"][0]["sv"] == [8, 7, 5, 4, None, None]
    assert tables.vehicle("Panther")["av"] == 18 and tables.vehicle("Half-track")["av"] == 11
    assert tables.vehicle("Lee/Grant")["guns"][1]["sv"][:3] == [3, 2, 1]
    assert tables.gun("Soviet 57mm ATG")["sv"][:3] == [6, 5, 4] and tables.gun("German 88mm (AA)")["sv"][5] == 3
    assert all(v["provenance"] == "rulebook" for v in ref["vehicles"].values())
    with pytest.raises(KeyError, match="known"):
        tables.vehicle("Maus")
