"""20 mm rules (seed 003): Mortars and Other Indirect Fire Weapons, Calling Down Fire, Battery
Fire, Close Assault, Infantry Close Assaulting Vehicles, Pinning, Force Morale."""

from __future__ import annotations

import pytest

from core.twentymm import tables
from core.twentymm.actions import Assault, EndTurn, Fire, IndirectFire, Move
from core.twentymm.game import TwentyIllegal
from core.twentymm.model import Unit
from tests.twentymm.helpers import game, gun, inf, script, table, veh

A = (50.0, 20.0)


def battery(uid="B", side="german", guns=2, facing=90.0):
    return Unit(uid=uid, side=side, kind="battery", guns=guns, calibre=105, facing=facing, radio=True)


def test_20mm_mortars_maximum_ranges_and_minimum_6():
    assert tables.MORTAR_RANGE == {"mortar_light": 24.0, "mortar_medium": 48.0, "mortar_heavy": 120.0}
    g = game([gun("M", "german", A, "mortar_light", facing=90.0, crew=2), inf("R", "russian", (50.0, 25.0)), inf("Q", "russian", (50.0, 45.0))])
    with pytest.raises(TwentyIllegal, match="minimum range of 6"):
        g.apply(IndirectFire("M", (50.0, 25.0)))
    with pytest.raises(TwentyIllegal, match="maximum range"):
        g.apply(IndirectFire("M", (50.0, 45.0)))


def test_20mm_mortars_ranging_5_plus_first_then_4_plus_then_scatter():
    g = game([gun("M", "german", A, "mortar_medium", facing=90.0, crew=3), inf("R", "russian", (50.0, 40.0), men=4)])
    script(g, 4)
    g.apply(IndirectFire("M", (50.0, 40.0)))
    assert any(e["kind"] == "ranging_failed" for e in g.events) and g.units["R"].men == 4
    g.apply(EndTurn()); g.apply(EndTurn())
    script(g, 4, 1, 1, 3, 3, 3, 3)          # ranged on 4+ the second turn; scatter 1/1: on the point
    g.apply(IndirectFire("M", (50.0, 40.0)))
    assert any(e["kind"] == "ranged" for e in g.events)
    assert g.units["R"].men == 0


def test_20mm_mortars_scatter_by_the_d6_scatter_dice():
    g = game([])
    script(g, 1, 6)                # direction 1 (over, along the line of fire), distance 6 - 3 = 3 inches
    land = g.scatter((50.0, 40.0), 90.0)
    assert land == pytest.approx((50.0, 43.0))
    script(g, 4, 2)
    assert g.scatter((50.0, 40.0), 90.0) == pytest.approx((50.0, 40.0))


@pytest.mark.parametrize("he,d", [("light", 2.0), ("medium", 3.0), ("heavy", 3.0), ("artillery", 4.0)])
def test_20mm_mortars_shell_blast_templates_2_3_4_inches(he, d):
    g = game([])
    g.template((50.0, 40.0), he)
    assert g.events[-1]["diameter"] == d


def test_20mm_mortars_infantry_under_the_template_hit_on_3_plus():
    g = game([inf("R", "russian", (50.0, 40.0), men=4, facing=0.0)])     # 4 men along y, 1.5 inches long
    script(g, 3, 2, 6, 1)
    g.template((50.0, 40.0), "medium")
    assert g.units["R"].men == 2


@pytest.mark.parametrize("vtype,he,score,result", [("Lorry", "medium", 2, "none"), ("Lorry", "medium", 3, "damaged"), ("Lorry", "medium", 5, "destroyed"),
                                                   ("Half-track", "heavy", 3, "none"), ("Half-track", "heavy", 4, "damaged"), ("Half-track", "heavy", 6, "destroyed"),
                                                   ("Pz IV", "artillery", 4, "none"), ("Pz IV", "artillery", 5, "damaged"), ("Pz IV", "artillery", 6, "destroyed"),
                                                   ("Pz IV", "medium", 6, "none"), ("Lorry", "light", 6, "none"), ("Light armd. car", "medium", 6, "none")])
def test_20mm_mortars_vehicle_effect_table_by_type(vtype, he, score, result):
    g = game([veh("V", "russian", (50.0, 40.0), vtype)])
    assert tables.vehicle_effect(g.units["V"].effect_class, he, score) == result


def test_20mm_mortars_vehicles_under_the_template_hit_automatically_and_open_topped_passengers_on_3_plus():
    g = game([veh("L", "russian", (50.0, 40.0), "Lorry"), inf("P", "russian", (50.0, 40.0), men=4, embarked_in="L")])
    script(g, 6, 3, 3, 1, 1)   # vehicle effect 6, passengers 3,3,1,1 (random casualties follow)
    g.template((50.0, 40.0), "medium")
    assert not g.units["L"].alive and not g.units["P"].alive   # destroyed: all passengers killed


def test_20mm_calling_down_fire_directing_unit_sees_the_target_and_makes_no_other_action():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w = t.hex_centre("2010")
    g = game([gun("M", "german", (w[0], w[1] - 14.0), "mortar_medium", facing=90.0, crew=3),
              inf("D", "german", (w[0] + 8.0, w[1] + 4.0), facing=90.0), inf("R", "russian", (w[0], w[1] + 4.0))], t=t)
    with pytest.raises(TwentyIllegal, match="name a directing unit"):
        g.apply(IndirectFire("M", (w[0], w[1] + 4.0)))
    script(g, 6, 4, 4)
    g.apply(IndirectFire("M", (w[0], w[1] + 4.0), director="D"))
    assert g.units["D"].acted
    with pytest.raises(TwentyIllegal):
        g.apply(Move("D", ((w[0] + 9.0, w[1] + 4.0),)))


def test_20mm_calling_down_fire_by_radio_3_plus_and_4_plus_on_a_new_target():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w = t.hex_centre("2010")
    # the FOO and the mortar cannot see each other (the wood between them)
    g = game([gun("M", "german", (w[0], w[1] - 10.0), "mortar_medium", facing=90.0, crew=3, radio=True),
              inf("F", "german", (w[0], w[1] + 10.0), facing=90.0, men=2, role="foo", radio=True), inf("R", "russian", (w[0], w[1] + 18.0))], t=t)
    assert not g.los(g.units["M"].pos, g.units["F"].pos)
    script(g, 3)      # a new target needs 4+
    g.apply(IndirectFire("M", (w[0], w[1] + 18.0), director="F"))
    assert any(e["kind"] == "radio_failed" for e in g.events)
    assert not g.units["F"].acted              # the failed radio unit may still act
    g.apply(EndTurn()); g.apply(EndTurn())
    script(g, 4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    g.apply(IndirectFire("M", (w[0], w[1] + 18.0), director="F"))
    assert any(e["kind"] == "ranged" for e in g.events)
    g.apply(EndTurn()); g.apply(EndTurn())
    n = len(g.events)
    script(g, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1)    # the same target directed again: 3+ suffices
    g.apply(IndirectFire("M", (w[0], w[1] + 18.0), director="F"))
    assert not any(e["kind"] == "radio_failed" for e in g.events[n:])


def test_20mm_calling_down_fire_off_table_artillery_only_by_command_and_foos():
    g = game([battery(), inf("S", "german", (50.0, 30.0), facing=90.0), inf("C", "german", (52.0, 30.0), facing=90.0, role="command", radio=True),
              inf("R", "russian", (50.0, 45.0))])
    with pytest.raises(TwentyIllegal, match="Calling Down Fire"):
        g.apply(IndirectFire("B", (50.0, 45.0)))
    with pytest.raises(TwentyIllegal, match="command elements and FOOs"):
        g.apply(IndirectFire("B", (50.0, 45.0), director="S"))
    script(g, 4, 5)
    g.apply(IndirectFire("B", (50.0, 45.0), director="C"))
    assert any(e["kind"] == "ranged" for e in g.events)


def test_20mm_battery_fire_spread_along_a_line_perpendicular_to_the_direction_of_fire():
    g = game([battery(guns=3), inf("C", "german", (52.0, 30.0), facing=90.0, role="command", radio=True), inf("R", "russian", (50.0, 45.0))])
    script(g, 4, 5, 2, 2, 2, 2, 2, 2)    # radio, ranging, then three shots on their aim points (no scatter)
    g.apply(IndirectFire("B", (50.0, 45.0), director="C", spread=True))
    aims = [tuple(e["aim"]) for e in g.events if e["kind"] == "scatter"]
    # direction of fire 90 (towards +y): right of it is +90 -> -x; one template (4 inches) apart
    assert aims == [pytest.approx((50.0, 45.0)), pytest.approx((46.0, 45.0)), pytest.approx((54.0, 45.0))]
    g2 = game([battery(guns=3), inf("C", "german", (52.0, 30.0), facing=90.0, role="command", radio=True), inf("R", "russian", (50.0, 45.0))])
    script(g2, 4, 5, 2, 2, 2, 2, 2, 2)
    g2.apply(IndirectFire("B", (50.0, 45.0), director="C"))
    assert [tuple(e["aim"]) for e in g2.events if e["kind"] == "scatter"] == [pytest.approx((50.0, 45.0))] * 3


def test_20mm_close_assault_dice_per_4_rifles_and_per_smg_and_paired_highest_dice():
    assert tables.assault_dice(8, 0) == 2 and tables.assault_dice(7, 1) == 2 and tables.assault_dice(3, 2) == 2
    assert tables.assault_kills([6, 3], [5, 4]) == (1, 1)
    assert tables.assault_kills([6, 5, 2, 1], [4]) == (3, 0)     # 6 beats 4; unpaired 5 and 2 kill (2+), 1 does not
    assert tables.assault_kills([4], [4]) == (0, 0)


def test_20mm_close_assault_within_a_normal_move_and_defensive_fire_under_4_inches():
    g = game([inf("G", "german", A, facing=90.0, men=8, smg=4), inf("R", "russian", (50.0, 22.8), men=4)])
    with pytest.raises(TwentyIllegal, match="normal move"):
        game([inf("G", "german", A, men=8), inf("R", "russian", (50.0, 24.0), men=4)]).apply(Assault("G", "R"))
    # defensive fire: 4 rifles at under 4 inches need 4+: two hits; then the assault dice
    script(g, 4, 4, 1, 1, 6, 6, 6, 5, 2)
    g.apply(Assault("G", "R"))
    assert g.units["G"].men == 6 and g.units["G"].smg == 4       # no cover for the chargers
    r = [e for e in g.events if e["kind"] == "assault_round"][0]
    assert len(r["attack_dice"]) == 4 and len(r["defence_dice"]) == 1   # 2 rifles round down to 0 dice + 4 SMGs
    assert not g.units["R"].alive


def test_20mm_close_assault_losers_surrender_and_one_guard_per_four_prisoners():
    g = game([inf("G", "german", A, facing=90.0, men=8, smg=4), inf("R", "russian", (50.0, 22.0), men=5, smg=0)])
    # defensive fire: 5 rifles miss; attackers 4 SMGs + 1 (4 rifles) = 5 dice vs 1 die
    script(g, 1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 2)
    g.apply(Assault("G", "R"))
    assert not g.units["R"].alive
    sur = [e for e in g.events if e["kind"] == "surrender"][0]
    assert sur["winner"] == "G" and sur["losers"] == ["R"]


def test_20mm_close_assault_prisoners_need_guards():
    g = game([inf("G", "german", A, facing=90.0, men=8, smg=1), inf("R", "russian", (50.0, 22.0), men=9, smg=0)])
    # defensive fire misses (9 dice of 1); attack 1 SMG + 7 rifles -> 2 dice: 6, 6 vs 2 dice: 1, 1 -> 2 kills, none back
    script(g, *([1] * 9), 6, 6, 1, 1)
    g.apply(Assault("G", "R"))
    sur = [e for e in g.events if e["kind"] == "surrender"][0]
    assert sur["prisoners"] == 7 and sur["guards"] == 2 and g.units["G"].men == 6


def test_20mm_close_assault_a_draw_fights_another_round():
    g = game([inf("G", "german", A, facing=90.0, men=4, smg=1), inf("R", "russian", (50.0, 22.0), men=4, smg=1)])
    # defensive fire: 3 rifles (4+) and 1 SMG (3+) miss; round 1: 4 vs 4 (a draw); round 2: 6 vs 1
    script(g, 1, 1, 1, 1, 4, 4, 6, 1)
    g.apply(Assault("G", "R"))
    rounds = [e for e in g.events if e["kind"] == "assault_round"]
    assert len(rounds) == 2 and not g.units["R"].alive


def test_20mm_close_assault_attackers_retire_with_insufficient_survivors():
    g = game([inf("G", "german", A, facing=90.0, men=4), inf("R", "russian", (50.0, 22.0), men=8, smg=8)])
    script(g, 6, 6, 6, 6, 6, 6, 6, 6)
    g.apply(Assault("G", "R"))
    assert not g.units["G"].alive or g.units["G"].pos == A
    assert any(e["kind"] == "assault_retires" for e in g.events)


def test_20mm_infantry_close_assaulting_vehicles_more_than_4_men_and_tanks_only_from_side_or_rear():
    g = game([inf("G", "german", A, facing=90.0, men=4), veh("T", "russian", (50.0, 22.0), "T-34/76", facing=0.0)])
    with pytest.raises(TwentyIllegal, match="more than 4"):
        g.apply(Assault("G", "T"))
    g2 = game([inf("G", "german", (52.0, 20.0), facing=180.0, men=8), veh("T", "russian", A, "T-34/76", facing=0.0)])
    with pytest.raises(TwentyIllegal, match="side or rear"):
        g2.apply(Assault("G", "T"))


def test_20mm_infantry_close_assaulting_vehicles_grenade_bundles_5_plus_then_damage_minus_1():
    g = game([inf("G", "german", (50.0, 22.0), facing=270.0, men=8), veh("T", "russian", A, "T-34/76", facing=0.0)])
    script(g, 5, 3)     # the tank's MG cannot bear (the attackers are on its side); 5: damage 3 - 1 = 2
    g.apply(Assault("G", "T"))
    assert g.units["T"].immobilised


def test_20mm_infantry_close_assaulting_vehicles_soft_skins_hit_automatically_as_a_medium_mortar():
    g = game([inf("G", "german", (50.0, 22.0), facing=270.0, men=8), veh("L", "russian", A, "Lorry", facing=0.0)])
    script(g, 5)
    g.apply(Assault("G", "L"))
    assert not g.units["L"].alive


def test_20mm_infantry_close_assaulting_vehicles_embarked_infantry_assaulted_with_one_extra_die_and_vehicle_immobilised():
    g = game([inf("G", "german", (50.0, 22.0), facing=270.0, men=8), veh("L", "russian", A, "Lorry", facing=0.0),
              inf("P", "russian", A, men=4, embarked_in="L")])
    # defensive fire by the 4 passengers (rifles 4+): all miss; attack 2 + 1 dice vs 1 die
    script(g, 1, 1, 1, 1, 6, 6, 6, 1)
    g.apply(Assault("G", "L"))
    r = [e for e in g.events if e["kind"] == "assault_round"][0]
    assert len(r["attack_dice"]) == 3
    assert not g.units["P"].alive and g.units["L"].immobilised


def test_20mm_pinning_under_fire_in_cover_may_only_move_to_equal_cover_unless_officer_led():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w = t.hex_centre("2010")
    g = game([inf("R", "russian", (w[0], w[1] + 1.0), men=8), inf("O", "russian", (w[0] + 1.0, w[1] + 1.0), men=8, officer=True)],
             t=t, first="russian")
    g.units["R"].under_fire = g.units["O"].under_fire = True
    with pytest.raises(TwentyIllegal, match="Pinning"):
        g.apply(Move("R", ((w[0], w[1] + 2.8),)))
    g.apply(Move("R", ((w[0], w[1] + 0.5),)))     # within the wood: same cover
    g.apply(Move("O", ((w[0] + 1.0, w[1] + 2.8),)))   # officer-led


def test_20mm_pinning_under_he_must_move_to_better_cover_and_cannot_fire_nor_move_back():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w = t.hex_centre("2010")
    start = (w[0], w[1] + 4.0)
    g = game([inf("R", "russian", start, men=8, facing=90.0), inf("G", "german", (w[0], w[1] + 10.0))], t=t)
    script(g, 1, 1, 1, 1, 1, 1, 1, 1)
    g.template(start, "light")
    assert g.units["R"].under_he
    g.apply(EndTurn())
    assert g.units["R"].hold
    with pytest.raises(TwentyIllegal, match="Pinning"):
        g.apply(Fire("R", "small_arms", "G"))
    with pytest.raises(TwentyIllegal, match="better cover"):
        g.apply(Move("R", ((w[0] + 2.0, w[1] + 5.0),)))
    g.apply(Move("R", ((w[0], w[1] + 1.5),)))
    g.apply(EndTurn()); g.apply(EndTurn())
    with pytest.raises(TwentyIllegal, match="may not move back"):
        g.apply(Move("R", ((w[0], w[1] + 4.0),)))


def test_20mm_pinning_tanks_under_he_fire_cannot_fire():
    g = game([veh("T", "russian", A, "T-34/76", facing=90.0), inf("G", "german", (50.0, 30.0))], first="russian")
    g.units["T"].under_he = True
    with pytest.raises(TwentyIllegal, match="under HE"):
        g.apply(Fire("T", "mg", "G"))


def test_20mm_force_morale_over_50_percent_losses_withdraw():
    g = game([inf("G1", "german", A, men=8), inf("G2", "german", (60.0, 20.0), men=8), veh("T", "german", (70.0, 20.0), "Pz IV"),
              inf("R", "russian", (50.0, 60.0), men=8)])
    assert g.start_strength["german"] == 17
    g.units["G1"].men = 0
    g._kill(g.units["G1"], "test", "test")
    g._check_morale()
    assert g.outcome is None       # 8 of 17 lost
    g.units["G2"].men = 7
    g.apply(EndTurn())
    assert g.outcome == "russian" and "withdraws" in g.reason


def test_20mm_scenario_victory_conditions_attacker_must_hold_every_objective():
    obj = [{"name": "house", "point": [50.0, 40.0], "radius": 4.0}]
    g = game([inf("G", "german", (50.0, 42.0)), inf("R", "russian", (70.0, 70.0))], objectives=obj, turns=1)
    g.apply(EndTurn()); g.apply(EndTurn())
    assert g.outcome == "german"
    g2 = game([inf("G", "german", (50.0, 42.0)), inf("R", "russian", (51.0, 40.0))], objectives=obj, turns=1)
    g2.apply(EndTurn()); g2.apply(EndTurn())
    assert g2.outcome == "russian"
