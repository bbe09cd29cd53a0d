"""20 mm rules (seed 003): Visibility and Spotting, Firing, Infantry Small Arms Weapons, Cover
Saves, Removing Casualties, Casualties Among Gun Crews, Firing on Troops in Buildings, Elite Units."""

from __future__ import annotations

import pytest

from core.twentymm import tables
from core.twentymm.actions import EndTurn, Fire, Move
from core.twentymm.game import TwentyIllegal
from tests.twentymm.helpers import game, gun, inf, rolls, script, table, veh, wall

A = (50.0, 40.0)


def woods_table():
    return table(hexes=[{"id": "2010", "trees": 2}])


def test_20mm_visibility_and_spotting_distances_12_24_command_24_open_hatches_0_closed_up_halved_moving():
    g = game([inf("S", "german", A), inf("C", "german", A, role="command"), inf("F", "german", A, role="foo"),
              veh("T", "german", A, "Pz IV"), inf("R", "russian", (90.0, 40.0))])
    sd = g.spotting_distance
    assert (sd(g.units["S"]), sd(g.units["C"]), sd(g.units["F"]), sd(g.units["T"])) == (12, 24, 24, 24)
    g.units["T"].moved = True
    assert sd(g.units["T"]) == 12
    g.units["T"].closed_up = True
    assert sd(g.units["T"]) == 0


def test_20mm_visibility_and_spotting_hidden_troops_spotted_within_spotting_distance():
    t = woods_table()
    w = t.hex_centre("2010")
    g = game([inf("R", "russian", w, hidden=True), inf("G", "german", (w[0], w[1] + 13.0), facing=270)], t=t)
    assert not g.can_see(g.units["G"], g.units["R"])
    g.apply(Move("G", ((w[0], w[1] + 11.0),)))
    assert "G" in g.units["R"].known_by and g.can_see(g.units["G"], g.units["R"])
    assert any(e["kind"] == "spotted" and e["rule"] == "Visibility and Spotting" for e in g.events)


def test_20mm_visibility_and_spotting_spotted_enemy_passed_to_friends_in_line_of_sight():
    t = woods_table()
    w = t.hex_centre("2010")
    g = game([inf("R", "russian", w, hidden=True), inf("G", "german", (w[0], w[1] + 13.0), facing=270),
              inf("F", "german", (w[0] + 20.0, w[1] + 13.0)), ], t=t)
    g.apply(Move("G", ((w[0], w[1] + 11.0),)))
    assert "F" in g.units["R"].known_by        # F sees G: told


def test_20mm_visibility_and_spotting_hidden_troops_revealed_when_they_fire():
    t = woods_table()
    w = t.hex_centre("2010")
    g = game([inf("R", "russian", (w[0], w[1] + 1.5), facing=90, hidden=True), inf("G", "german", (w[0], w[1] + 12.0))], t=t, first="russian")
    g.units["G"].known_by = set()
    assert g.units["R"].hidden
    g.apply(Fire("R", "small_arms", "G"))
    assert not g.units["R"].hidden
    assert any(e["kind"] == "revealed" and e["why"] == "fired" for e in g.events)


def test_20mm_visibility_and_spotting_hidden_troops_revealed_when_they_move_out_of_cover():
    t = woods_table()
    w = t.hex_centre("2010")
    g = game([inf("R", "russian", w, hidden=True), inf("G", "german", (w[0] + 30, w[1] + 30))], t=t, first="russian")
    g.apply(Move("R", ((w[0], w[1] + 1.0),)))       # still in the wood
    assert g.units["R"].hidden
    g.apply(EndTurn()); g.apply(EndTurn())
    g.apply(Move("R", ((w[0], w[1] + 3.5),)))       # out in the open
    assert not g.units["R"].hidden


def test_20mm_visibility_and_spotting_tank_commanders_close_up_when_the_shooting_starts():
    g = game([veh("T", "german", (40.0, 40.0), "Pz IV"), inf("G", "german", A, facing=90), inf("R", "russian", (50.0, 45.0))])
    assert not g.units["T"].closed_up
    g.apply(Fire("G", "small_arms", "R"))
    assert g.units["T"].closed_up and g.spotting_distance(g.units["T"]) == 0


def test_20mm_firing_only_within_45_degree_arc_plus_minus_22_5():
    g = game([inf("G", "german", A, facing=0.0), inf("R1", "russian", (58.0, 43.0)), inf("R2", "russian", (58.0, 45.0))])
    # R1 at 20.6 degrees: in the arc; R2 at 32 degrees: not
    with pytest.raises(TwentyIllegal, match="arc"):
        g.apply(Fire("G", "small_arms", "R2"))
    g.apply(Fire("G", "small_arms", "R1"))


def test_20mm_firing_only_on_targets_not_obscured_by_terrain():
    t = woods_table()
    w = t.hex_centre("2010")
    g = game([inf("G", "german", (w[0], w[1] - 8.0), facing=90), inf("R", "russian", (w[0], w[1] + 8.0))], t=t)
    with pytest.raises(TwentyIllegal, match="obscured"):
        g.apply(Fire("G", "small_arms", "R"))


@pytest.mark.parametrize("weapon,d,need", [("smg", 4, 3), ("smg", 4.1, None), ("rifle", 4, 4), ("rifle", 8, 5), ("rifle", 12, 6),
                                           ("rifle", 12.5, None), ("lmg", 4, 3), ("lmg", 8, 4), ("lmg", 12, 5), ("lmg", 16, 6),
                                           ("hmg", 4, 3), ("hmg", 8, 4), ("hmg", 12, 4), ("hmg", 16, 5), ("hmg", 20, 6), ("hmg", 21, None)])
def test_20mm_infantry_small_arms_weapons_to_hit_table(weapon, d, need):
    assert tables.small_arms_need(weapon, d) == need


def test_20mm_infantry_small_arms_weapons_rifles_and_smgs_roll_per_firer():
    g = game([inf("G", "german", A, facing=0.0, men=8, smg=2), inf("R", "russian", (57.0, 40.0), men=8)])
    n = len(g.events)
    script(g, 4, 4, 4, 4, 4, 4, 1, 1)     # 6 rifles need 5+ at 7 inches: no hits; 2 SMGs out of range
    g.apply(Fire("G", "small_arms", "R"))
    r = rolls(g, n)
    assert len(r) == 1 and len(r[0]["dice"]) == 6 and g.units["R"].men == 8
    g2 = game([inf("G", "german", A, facing=0.0, men=8, smg=2), inf("R", "russian", (53.0, 40.0), men=8)])
    script(g2, 4, 4, 4, 3, 1, 1, 3, 2)    # at 3 inches: 6 rifles 4+ (3 hits), 2 SMGs 3+ (1 hit)
    g2.apply(Fire("G", "small_arms", "R"))
    assert g2.units["R"].men == 4


def test_20mm_infantry_small_arms_weapons_lmg_rolls_per_target_in_the_2_inch_fire_corridor():
    g = game([gun("L", "german", A, "lmg", facing=0.0, crew=2), inf("R", "russian", (60.0, 40.0), men=2, facing=0.0),
              inf("Q", "russian", (64.0, 40.5), men=2, facing=0.0), inf("X", "russian", (60.0, 45.0), men=2)])
    n = len(g.events)
    script(g, 6, 6, 6, 6)
    g.apply(Fire("L", "small_arms", "R"))
    r = rolls(g, n)
    assert len(r) == 4      # R's two men and Q's two men are in the corridor; X (5 inches off) is not
    assert g.units["R"].men == 0 and g.units["Q"].men == 0 and g.units["X"].men == 2


def test_20mm_infantry_small_arms_weapons_vehicle_machine_guns_count_as_lmgs():
    g = game([veh("T", "german", A, "Pz IV", facing=0.0), inf("R", "russian", (57.0, 40.0), men=2)])
    assert g.small_arms_of(g.units["T"]) == {"lmg": 1}
    script(g, 4, 4)
    g.apply(Fire("T", "mg", "R"))
    assert g.units["R"].men == 0


@pytest.mark.parametrize("cover,vs,need", [("soft", "small_arms", 5), ("hard", "small_arms", 2), ("soft", "at_he", None),
                                           ("hard", "at_he", 5), (None, "small_arms", None)])
def test_20mm_cover_saves_table(cover, vs, need):
    assert tables.cover_save_need(cover, vs) == need


def test_20mm_cover_saves_soft_cover_saves_small_arms_hits_on_5_plus():
    t = woods_table()
    w = t.hex_centre("2010")
    g = game([inf("G", "german", (w[0], w[1] + 5.0), facing=270, men=4), inf("R", "russian", (w[0], w[1] + 1.5), men=8)], t=t)
    script(g, 6, 6, 6, 6, 5, 4, 4, 1)     # 4 rifle hits at 3.5 inches; saves 5,4,4,1 -> one saved
    g.apply(Fire("G", "small_arms", "R"))
    assert g.units["R"].men == 5


def test_20mm_cover_saves_behind_a_wall_hard_cover_saves_small_arms_on_2_plus():
    t = table(obstacles=[wall("W", [(40, 20), (80, 20)])])
    g = game([inf("G", "german", (60.0, 44.0), facing=270, men=2), inf("R", "russian", (60.0, 39.5), men=8)], t=t)
    script(g, 6, 6, 2, 1)
    g.apply(Fire("G", "small_arms", "R"))
    assert g.units["R"].men == 7


def test_20mm_cover_saves_vehicle_behind_hard_cover_saves_at_hits_on_5_plus():
    t = table(obstacles=[wall("W", [(40, 20), (80, 20)])])
    g = game([gun("P", "german", (60.0, 50.0), "PAK 40 ATG", facing=270), veh("T", "russian", (60.0, 39.0), "T-34/76", facing=90)], t=t)
    script(g, 6, 6, 5)
    g.apply(Fire("P", "at", "T"))
    assert g.units["T"].alive and any(e["kind"] == "saved" for e in g.events)


def test_20mm_removing_casualties_chosen_under_small_arms_weapons_picked_up():
    g = game([inf("G", "german", A, facing=0.0, men=6), inf("R", "russian", (53.0, 40.0), men=4, smg=1, lmg=1, panzerfaust=1)])
    script(g, 6, 6, 6, 6, 6, 6)
    g.apply(Fire("G", "small_arms", "R"))       # 6 hits on 4 men: all die
    assert not g.units["R"].alive
    g2 = game([inf("G", "german", A, facing=0.0, men=2), inf("R", "russian", (53.0, 40.0), men=4, smg=1, lmg=1, panzerfaust=1)])
    script(g2, 6, 1)
    g2.apply(Fire("G", "small_arms", "R"))      # one casualty: the rifleman, the others keep their weapons
    r = g2.units["R"]
    assert (r.men, r.rifles, r.smg, r.lmg, r.panzerfaust) == (3, 0, 1, 1, 1)


def test_20mm_removing_casualties_random_under_he():
    g = game([inf("R", "russian", A, men=4, smg=1, lmg=1, panzerfaust=1)])
    script(g, 3)   # the random pick: the 3rd figure of rifle, smg, lmg, panzerfaust = the LMG
    g._casualties(g.units["R"], 1, "he", "Mortars and Other Indirect Fire Weapons")
    r = g.units["R"]
    assert (r.men, r.lmg, r.rifles) == (3, 0, 1)
    assert g.events[-2]["rule"] == "Removing Casualties"


def test_20mm_casualties_among_gun_crews_half_rate_and_two_crew_needed():
    g = game([gun("H", "german", A, "hmg", facing=0.0, crew=3), inf("R", "russian", (70.0, 40.0), men=8)])
    g.units["H"].crew = 2
    script(g, 1)
    g.apply(Fire("H", "small_arms", "R"))
    g.apply(EndTurn()); g.apply(EndTurn())
    with pytest.raises(TwentyIllegal, match="half rate"):
        g.apply(Fire("H", "small_arms", "R"))     # every other turn
    g.apply(EndTurn()); g.apply(EndTurn())
    g.apply(Fire("H", "small_arms", "R"))
    g.units["H"].crew = 1
    g.apply(EndTurn()); g.apply(EndTurn()); g.apply(EndTurn()); g.apply(EndTurn())
    with pytest.raises(TwentyIllegal, match="fewer than two"):
        g.apply(Fire("H", "small_arms", "R"))


def test_20mm_casualties_among_gun_crews_small_at_gun_fires_once_instead_of_twice():
    g = game([gun("P", "german", A, "Soviet 45mm ATG", facing=0.0, crew=4), veh("T", "russian", (60.0, 40.0), "Pz IV", facing=180.0)])
    g.units["P"].crew = 3
    n = len(g.events)
    script(g, 1, 1)
    g.apply(Fire("P", "at", "T"))
    assert sum(1 for e in g.events[n:] if e["kind"] == "at_shot") == 1


def test_20mm_firing_on_troops_in_buildings_hard_cover_against_direct_fire():
    t = table(buildings=[{"id": "B1", "polygon": [[57, 19], [63, 19], [63, 21], [57, 21]]}])
    b = t.buildings[0].polygon.centroid
    g = game([inf("G", "german", (b.x, b.y + 6.0), facing=270, men=2), inf("R", "russian", (b.x, b.y), men=8)], t=t)
    assert g.cover_at(g.units["R"], g.units["G"].pos) == "hard"
    script(g, 6, 6, 2, 2)
    g.apply(Fire("G", "small_arms", "R"))
    assert g.units["R"].men == 8


def test_20mm_firing_on_troops_in_buildings_indirect_he_pins_but_kills_none():
    t = table(buildings=[{"id": "B1", "polygon": [[57, 19], [63, 19], [63, 21], [57, 21]]}])
    b = t.buildings[0].polygon.centroid
    g = game([inf("R", "russian", (b.x, b.y), men=8)], t=t)
    g.template((b.x, b.y), "artillery")
    assert g.units["R"].men == 8 and g.units["R"].under_he
    assert any(e["kind"] == "pinned_in_building" for e in g.events)


def test_20mm_elite_units_get_plus_one_to_hit_and_count_as_officer_led():
    assert tables.small_arms_need("rifle", 8, elite=True) == 4
    g = game([inf("E", "german", A, elite=True)])
    assert g.units["E"].officer_led
