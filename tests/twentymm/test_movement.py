"""20 mm rules (seed 003): Setup, Sequence of Play, Infantry Movement, Crewed Weapons, Vehicle
Movement, Ditching, snow, towing, horse tows, riding in or on vehicles."""

from __future__ import annotations

import math

import pytest

from core.twentymm.actions import EndTurn, Fire, Move, Special
from core.twentymm.game import TwentyIllegal
from core.twentymm.model import FIGURE_SPACING
from tests.twentymm.helpers import game, gun, inf, script, table, traps, veh, wall

A = (50.0, 40.0)


def test_20mm_sequence_of_play_alternate_turns_move_or_fire_not_both():
    g = game([inf("G", "german", A), inf("R", "russian", (50.0, 50.0), facing=270)])
    assert g.current_side() == "german" and g.turn == 1
    g.apply(Move("G", ((50.0, 42.0),), facing=90))
    with pytest.raises(TwentyIllegal, match="Sequence of Play"):
        g.apply(Fire("G", "small_arms", "R"))
    with pytest.raises(TwentyIllegal, match="Sequence of Play"):
        g.apply(Move("R", ((50.0, 49.0),)))   # not the russian turn
    g.apply(EndTurn())
    assert g.current_side() == "russian" and g.turn == 1
    g.apply(Fire("R", "small_arms", "G"))
    with pytest.raises(TwentyIllegal, match="Sequence of Play"):
        g.apply(Move("R", ((50.0, 49.0),)))
    g.apply(EndTurn())
    assert g.current_side() == "german" and g.turn == 2


def test_20mm_sequence_of_play_an_illegal_action_changes_nothing():
    g = game([inf("G", "german", A)])
    before = (len(g.events), len(g.actions), g.units["G"].pos)
    with pytest.raises(TwentyIllegal):
        g.apply(Move("G", ((50.0, 50.0),)))
    assert (len(g.events), len(g.actions), g.units["G"].pos) == before


def test_20mm_sequence_of_play_section_splits_into_two_4_man_squads_half_an_inch_apart():
    g = game([inf("G", "german", A, men=8, smg=2, lmg=1)])
    g.apply(Special("G", "split"))
    a, b = g.units["G"], g.units["Gb"]
    assert (a.men, b.men) == (4, 4) and a.smg + b.smg == 2 and a.lmg + b.lmg == 1
    figs = a.figures()
    assert len(figs) == 4
    assert all(math.dist(p, q) == pytest.approx(FIGURE_SPACING) for p, q in zip(figs, figs[1:]))
    with pytest.raises(TwentyIllegal):
        g.apply(Special("Gb", "split"))   # a 4-man squad does not split again


def test_20mm_setup_hidden_troops_positions_recorded_in_the_setup_event():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w = t.hex_centre("2010")
    g = game([inf("R", "russian", w, hidden=True), inf("G", "german", (w[0], w[1] + 30))], t=t)
    ev = g.events[0]
    assert ev["kind"] == "setup" and ev["hidden"] == {"R": list(w)}
    assert g.units["R"].hidden


def test_20mm_infantry_movement_cross_country_3_inches():
    g = game([inf("G", "german", A)])
    with pytest.raises(TwentyIllegal, match="Infantry Movement"):
        g.apply(Move("G", ((53.2, 40.0),)))
    g.apply(Move("G", ((53.0, 40.0),)))
    assert g.units["G"].pos == (53.0, 40.0)


def test_20mm_infantry_movement_on_roads_4_inches():
    t = table(roads=[["1510", "1610", "1710", "1810", "1910", "2010"]])   # a road along row 10
    a, b = t.hex_centre("1610"), t.hex_centre("1710")                     # 4 inches along the road
    assert t.terrain_at(a).going == "road" and math.dist(a, b) == pytest.approx(4.0)
    g = game([inf("G", "german", a)], t=t)
    g.apply(Move("G", (b,)))
    assert g.units["G"].pos == b
    g2 = game([inf("G", "german", a)], t=t)
    c = t.hex_centre("1810")
    over = (b[0] + (c[0] - b[0]) * 0.1, b[1] + (c[1] - b[1]) * 0.1)
    with pytest.raises(TwentyIllegal, match="Infantry Movement"):
        g2.apply(Move("G", (b, over)))          # 4.4 inches of road: too far


def test_20mm_infantry_movement_difficult_terrain_2_inches():
    t = table(hexes=[{"id": "2010", "terrain": "marsh"}])
    c = t.hex_centre("2010")
    g = game([inf("G", "german", (c[0] - 1.0, c[1]))], t=t)
    with pytest.raises(TwentyIllegal, match="Infantry Movement"):
        g.apply(Move("G", ((c[0] + 1.5, c[1]),)))
    g.apply(Move("G", ((c[0] + 1.0, c[1]),)))


def test_20mm_infantry_movement_one_turn_to_cross_an_obstacle():
    # a wall along y = 40 inches (lattice Y = 20)
    t = table(obstacles=[wall("W1", [(40, 20), (80, 20)])])
    g = game([inf("G", "german", (60.0, 39.5))], t=t)
    with pytest.raises(TwentyIllegal, match="one turn to cross"):
        g.apply(Move("G", ((60.0, 42.5),)))     # 3 inches over the wall: no
    g.apply(Move("G", ((60.0, 41.0),)))          # the crossing is the whole turn
    assert g.units["G"].pos == (60.0, 41.0)


def test_20mm_infantry_in_snow_terrain_cross_country_counts_as_difficult():
    t = table(snow=True)
    g = game([inf("G", "german", A)], t=t)
    with pytest.raises(TwentyIllegal, match="Infantry Movement"):
        g.apply(Move("G", ((52.5, 40.0),)))
    g.apply(Move("G", ((52.0, 40.0),)))


def test_20mm_crewed_weapons_mortars_and_hmgs_take_a_turn_to_set_up_and_dismantle():
    g = game([gun("M", "german", A, "mortar_medium", crew=3), inf("R", "russian", (50.0, 80.0))])
    with pytest.raises(TwentyIllegal, match="Crewed Weapons"):
        g.apply(Move("M", ((51.0, 40.0),)))
    g.apply(Special("M", "dismantle"))
    assert not g.units["M"].deployed
    with pytest.raises(TwentyIllegal, match="Sequence of Play"):
        g.apply(Move("M", ((51.0, 40.0),)))   # the dismantling was its turn
    g.apply(EndTurn()); g.apply(EndTurn())
    g.apply(Move("M", ((53.0, 40.0),)))          # manhandled at infantry rates
    g.apply(EndTurn()); g.apply(EndTurn())
    from core.twentymm.actions import IndirectFire
    with pytest.raises(TwentyIllegal, match="set up"):
        g.apply(IndirectFire("M", (53.0, 60.0)))
    g.apply(Special("M", "set_up"))
    assert g.units["M"].deployed


def test_20mm_crewed_weapons_lmgs_move_without_set_up():
    g = game([gun("L", "german", A, "lmg", crew=2), inf("R", "russian", (50.0, 46.0))])
    g.apply(Move("L", ((50.0, 42.0),), facing=90))
    with pytest.raises(TwentyIllegal):
        g.apply(Special("L", "set_up"))


def test_20mm_crewed_weapons_anti_tank_guns_only_change_direction_which_counts_as_movement():
    g = game([gun("P", "german", A, "PAK 40 ATG"), veh("T", "russian", (50.0, 60.0), "T-34/76", facing=270)])
    with pytest.raises(TwentyIllegal, match="Crewed Weapons"):
        g.apply(Move("P", ((51.0, 40.0),)))
    g.apply(Move("P", (), facing=90))
    assert g.units["P"].facing == 90
    with pytest.raises(TwentyIllegal, match="Sequence of Play"):
        g.apply(Fire("P", "at", "T"))


@pytest.mark.parametrize("vtype,road,cc", [("Lorry", 24, 6), ("Half-track", 15, 8), ("T-34/76", 15, 8),
                                           ("Panther", 15, 8), ("Pz IV", 12, 6), ("Tiger I", 12, 6), ("Stug III", 12, 6)])
def test_20mm_vehicle_movement_maximum_distance_per_type(vtype, road, cc):
    g = game([veh("V", "german", (40.0, 40.0), vtype)])
    assert g.allowance_rates(g.units["V"])["road"] == road
    assert g.allowance_rates(g.units["V"])["cross_country"] == cc
    with pytest.raises(TwentyIllegal, match="Vehicle Movement"):
        g.apply(Move("V", ((40.0 + cc + 0.2, 40.0),)))
    g.apply(Move("V", ((40.0 + cc, 40.0),)))


def test_20mm_vehicle_movement_turret_traverse_free_up_to_45_degrees():
    g = game([veh("T", "german", A, "Pz IV", facing=0.0), veh("R", "russian", (60.0, 40.0 + 10 * math.tan(math.radians(60))), "T-34/76")])
    # target at 60 degrees off the turret: 22.5 arc + 45 free traverse = 67.5: may fire
    script(g, 1, 1)
    g.apply(Fire("T", "at", "R"))
    assert g.units["T"].turret == pytest.approx(60.0)
    g2 = game([veh("T", "german", A, "Pz IV", facing=0.0), veh("R", "russian", (50.0, 55.0), "T-34/76")])
    with pytest.raises(TwentyIllegal, match="arc"):
        g2.apply(Fire("T", "at", "R"))       # 90 degrees: traversing more than 45 is movement


def test_20mm_vehicle_movement_tiger_traverses_22_5_free_and_at_most_90_a_turn():
    far = (60.0, 40.0 + 10 * math.tan(math.radians(50)))
    g = game([veh("T", "german", A, "Tiger I", facing=0.0), veh("R", "russian", far, "T-34/76")])
    assert g.free_traverse(g.units["T"]) == 22.5
    with pytest.raises(TwentyIllegal, match="arc"):
        g.apply(Fire("T", "at", "R"))       # 50 degrees > 22.5 arc + 22.5 free traverse
    with pytest.raises(TwentyIllegal, match="90 degrees"):
        g.apply(Move("T", (), turret=100.0))
    g.apply(Move("T", (), turret=90.0))      # a 90-degree traverse is movement: no fire
    assert g.units["T"].turret == 90.0
    near = (60.0, 40.0 + 10 * math.tan(math.radians(40)))
    g2 = game([veh("T", "german", A, "Tiger I", facing=0.0), veh("R", "russian", near, "T-34/76")])
    script(g2, 1, 1)
    g2.apply(Fire("T", "at", "R"))          # 40 degrees: within the free 22.5


def test_20mm_vehicle_movement_turret_only_traverse_up_to_45_degrees_is_free_movement_and_the_tank_still_fires():
    """Vehicle Movement: "Traversing a tank turret by upto 45 degrees counts as free movement and does
    not stop the tank firing. However, traversing a turret by greater than 45 degrees, or any movement
    of the vehicle itself, prevents firing in the same turn." The free 45 degrees are the turn's:
    what a turret-only traverse took is no longer free when it fires."""
    target = (60.0, 40.0 + 10 * math.tan(math.radians(60)))
    g = game([veh("T", "german", A, "Pz IV", facing=0.0), veh("R", "russian", target, "T-34/76")])
    g.apply(Move("T", (), turret=30.0))      # free: no action spent
    t = g.units["T"]
    assert not t.acted and t.turret == 30.0 and g.free_traverse(t) == pytest.approx(15.0)
    assert g.events[-1]["free_traverse"] is True
    script(g, 1, 1)
    g.apply(Fire("T", "at", "R"))            # 60 degrees: 30 traversed + 22.5 arc + 15 free left
    assert g.units["T"].turret == pytest.approx(60.0)
    g2 = game([veh("T", "german", A, "Pz IV", facing=0.0), veh("R", "russian", target, "T-34/76")])
    g2.apply(Move("T", (), turret=50.0))     # more than 45: movement, no fire this turn
    assert g2.units["T"].acted
    with pytest.raises(TwentyIllegal, match="Sequence of Play|already"):
        g2.apply(Fire("T", "at", "R"))
    g3 = game([veh("T", "german", A, "Tiger I", facing=0.0), veh("R", "russian", target, "T-34/76")])
    g3.apply(Move("T", (), turret=20.0))     # the Tiger: 22.5 free
    assert not g3.units["T"].acted and g3.free_traverse(g3.units["T"]) == pytest.approx(2.5)
    g3.apply(Move("T", (), turret=40.0))     # 40 in all: over its free traverse, movement
    assert g3.units["T"].acted


def test_20mm_ditching_tanks_dice_in_difficult_terrain_and_ditch_on_a_1():
    t = table(hexes=[{"id": "2010", "terrain": "marsh"}])
    c = t.hex_centre("2010")
    g = game([veh("T", "german", (c[0] - 5.0, c[1]), "Pz IV"), veh("H", "german", (c[0] - 5.0, c[1] + 8), "Half-track")], t=t)
    script(g, 1)
    g.apply(Move("T", ((c[0] + 0.5, c[1]),)))
    assert g.units["T"].ditched and g.units["T"].immobilised
    assert g.events[-2]["kind"] == "roll" and g.events[-2]["rule"] == "Ditching, Obstacles and Difficult Terrain"
    script(g, 2)
    g.apply(Move("H", ((c[0] + 0.5, c[1] + 8),)))
    assert not g.units["H"].ditched


def test_20mm_ditching_wheeled_vehicles_cannot_cross_difficult_terrain_or_obstacles():
    t = table(hexes=[{"id": "2010", "terrain": "marsh"}], obstacles=[wall("H1", [(40, 30), (80, 30)], "hedge")])
    c = t.hex_centre("2010")
    g = game([veh("L", "german", (c[0] - 5.0, c[1]), "Lorry"), veh("L2", "german", (60.0, 58.0), "Lorry")], t=t)
    with pytest.raises(TwentyIllegal, match="wheeled"):
        g.apply(Move("L", ((c[0], c[1]),)))
    with pytest.raises(TwentyIllegal, match="wheeled"):
        g.apply(Move("L2", ((60.0, 62.0),)))     # the hedge at y = 60


def test_20mm_ditching_tank_traps_are_impassable_to_all_vehicles():
    t = table(tank_traps=[traps("T1", [(40, 30), (80, 30)])])
    g = game([veh("T", "german", (60.0, 58.0), "Tiger I"), inf("I", "german", (70.0, 59.5))], t=t)
    with pytest.raises(TwentyIllegal, match="tank traps"):
        g.apply(Move("T", ((60.0, 63.0),)))
    g.apply(Move("I", ((70.0, 61.0),)))          # infantry climb them like an obstacle


def test_20mm_ditching_tank_traps_destroyed_only_by_direct_he_of_75mm_or_more():
    t = table(tank_traps=[traps("T1", [(40, 30), (80, 30)])])
    g = game([veh("T", "german", (60.0, 50.0), "Pz IV", facing=90.0), veh("P3", "german", (66.0, 50.0), "Pz III", facing=90.0)], t=t)
    script(g, 6, 6)
    g.apply(Fire("P3", "he", point=(66.0, 60.0)))          # 50 mm: no hole
    assert g.holes == []
    script(g, 6, 6)
    g.apply(Fire("T", "he", point=(60.0, 60.0)))           # 75 mm: a hole one vehicle wide
    assert g.holes == [(60.0, 60.0)]
    g.apply(EndTurn()); g.apply(EndTurn())
    g.apply(Move("T", ((60.0, 55.0),)))
    g.apply(EndTurn()); g.apply(EndTurn())
    g.apply(Move("T", ((60.0, 61.0),)))          # through the hole
    assert g.units["T"].pos == (60.0, 61.0)


def test_20mm_vehicles_in_snow_terrain_wheeled_half_road_speed_and_2_cross_country_tracked_unaffected():
    t = table(snow=True)
    g = game([veh("L", "german", (40.0, 40.0), "Lorry"), veh("T", "german", (40.0, 60.0), "Pz IV")], t=t)
    r = g.allowance_rates(g.units["L"])
    assert (r["road"], r["cross_country"]) == (12, 2)
    assert g.allowance_rates(g.units["T"])["cross_country"] == 6
    with pytest.raises(TwentyIllegal):
        g.apply(Move("L", ((42.5, 40.0),)))
    g.apply(Move("T", ((46.0, 60.0),)))


def test_20mm_towing_limbering_takes_two_turns_with_no_other_activity_and_towing_is_free():
    g = game([gun("P", "german", A, "PAK 40 ATG"), veh("H", "german", (51.5, 40.0), "Half-track")])
    g.apply(Special("P", "limber", "H"))
    assert g.units["P"].busy and g.units["H"].busy
    with pytest.raises(TwentyIllegal, match="Towing"):
        g.apply(Move("H", ((55.0, 40.0),)))
    g.apply(EndTurn()); g.apply(EndTurn())
    # second turn: the limbering takes it all
    assert g.units["P"].tow == "H" and g.units["H"].towing == "P" and g.units["H"].acted
    with pytest.raises(TwentyIllegal):
        g.apply(Move("H", ((55.0, 40.0),)))
    g.apply(EndTurn()); g.apply(EndTurn())
    g.apply(Move("H", ((59.5, 40.0),)))          # a half-track's full 8 inches while towing
    assert g.units["P"].pos == (59.5, 40.0)


def test_20mm_horse_tows_move_at_infantry_speed_and_cannot_cross_obstacles():
    t = table(obstacles=[wall("F1", [(40, 30), (80, 30)], "fence")])
    g = game([veh("HT", "german", (60.0, 57.0), "Horse tow", men=4)], t=t)
    with pytest.raises(TwentyIllegal):
        g.apply(Move("HT", ((60.0, 60.5),)))    # 3.5 inches: beyond infantry speed
    with pytest.raises(TwentyIllegal, match="horse"):
        g.apply(Move("HT", ((60.0, 60.2),)))    # over the fence
    g.apply(Move("HT", ((60.0, 59.5),)))


def test_20mm_horse_tows_one_horse_killed_destroys_the_tow():
    g = game([veh("HT", "russian", (50.0, 44.0), "Horse tow", men=4), inf("G", "german", A, facing=90.0, men=1)])
    script(g, 6)
    g.apply(Fire("G", "small_arms", "HT"))
    assert not g.units["HT"].alive


def test_20mm_infantry_riding_tanks_4_men_lorries_8_one_turn_to_get_on():
    g = game([veh("T", "german", A, "Pz IV"), veh("L", "german", (60.0, 40.0), "Lorry"),
              inf("S8", "german", (51.0, 40.0), men=8), inf("S4", "german", (49.0, 40.0), men=4),
              inf("L8", "german", (61.0, 40.0), men=8), gun("M", "german", (59.0, 40.0), "mortar_medium", crew=3, deployed=False)])
    with pytest.raises(TwentyIllegal, match="4 men|carries 4"):
        g.apply(Special("S8", "embark", "T"))
    g.apply(Special("S4", "embark", "T"))
    assert g.units["S4"].embarked_in == "T"
    with pytest.raises(TwentyIllegal, match="stationary"):
        g.apply(Move("T", ((52.0, 40.0),)))     # the tank stays still while they get on
    g.apply(Special("L8", "embark", "L"))
    with pytest.raises(TwentyIllegal, match="carries 8"):
        g.apply(Special("M", "embark", "L"))     # a heavy weapon counts as 4 men


def test_20mm_infantry_riding_tank_with_riders_fires_only_its_machine_gun_and_avoids_difficult_terrain():
    t = table(hexes=[{"id": "2010", "terrain": "marsh"}])
    c = t.hex_centre("2010")
    g = game([veh("T", "german", (c[0] - 5.0, c[1]), "Pz IV", facing=90.0), inf("S", "german", (c[0] - 5.0, c[1] + 1.0), men=4),
              veh("R", "russian", (c[0] - 5.0, c[1] + 10.0), "T-34/76")], t=t)
    g.apply(Special("S", "embark", "T"))
    g.apply(EndTurn()); g.apply(EndTurn())
    with pytest.raises(TwentyIllegal, match="riders"):
        g.apply(Move("T", ((c[0], c[1]),)))
    with pytest.raises(TwentyIllegal, match="machine-gun"):
        g.apply(Fire("T", "at", "R"))


def test_20mm_infantry_riding_passengers_die_with_a_destroyed_vehicle_and_on_4_plus_when_open_topped_is_damaged():
    g = game([veh("L", "russian", (50.0, 50.0), "Lorry", facing=0.0), inf("P", "russian", (50.0, 50.0), men=8, embarked_in="L"),
              veh("H", "russian", (70.0, 50.0), "Half-track", facing=0.0), inf("Q", "russian", (70.0, 50.0), men=8, embarked_in="H")])
    g._kill(g.units["L"], "destroyed", "Anti-Tank Guns")
    assert not g.units["P"].alive
    script(g, 1, 4, 4, 4, 1, 1, 1, 1, 1)     # damage table: 1 (stunned), then 8 passenger dice
    g._damage(g.units["H"], 0)
    assert g.units["Q"].men == 5
