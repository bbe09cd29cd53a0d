"""20 mm rules (seed 003): the clauses not covered elsewhere - buildings, shooting through the
section, contact spotting by closed-up tanks, directing units under fire, radio contact through a
command element, defensive fire eligibility, low stone walls, gun shields, tank riders, getting off."""

from __future__ import annotations

import pytest

from core.twentymm.actions import Assault, EndTurn, Fire, IndirectFire, Move, Special
from core.twentymm.game import TwentyIllegal
from tests.twentymm.helpers import game, gun, inf, script, table, veh, wall

A = (50.0, 40.0)
HOUSE = {"id": "B1", "polygon": [[57, 19], [63, 19], [63, 21], [57, 21]]}


def test_20mm_infantry_moving_and_firing_in_buildings_shoot_out_of_any_side_and_move_in_through_any_wall():
    t = table(buildings=[HOUSE])
    b = t.buildings[0].polygon
    c = (b.centroid.x, b.bounds[1] + 0.5)        # against the north wall
    g = game([inf("R", "russian", c, facing=270.0, men=2), inf("G", "german", (c[0], c[1] - 8.0), men=4),
              inf("Q", "russian", (c[0], b.bounds[3] + 2.0), facing=270.0)], t=t, first="russian")
    script(g, 1, 1)
    g.apply(Fire("R", "small_arms", "G"))       # out of the north side
    g.apply(Move("Q", ((c[0], b.bounds[3] - 0.5),)))   # in through the south wall
    assert g.terrain(g.units["Q"].pos).building == "B1"


def test_20mm_firing_infantrymen_may_shoot_through_other_infantrymen_of_their_own_and_friendly_units():
    g = game([inf("G", "german", A, facing=0.0, men=2), inf("F", "german", (53.0, 40.0)), inf("R", "russian", (56.0, 40.0), men=2)])
    script(g, 6, 6)
    g.apply(Fire("G", "small_arms", "R"))
    assert g.units["R"].men == 0


def test_20mm_visibility_and_spotting_closed_up_tanks_spot_only_on_contact():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w = t.hex_centre("2010")
    g = game([inf("R", "russian", (w[0], w[1] + 1.5), hidden=True), veh("T", "german", (w[0], w[1] + 5.0), "Pz IV", facing=270.0, closed_up=True),
              inf("X", "russian", (w[0] + 30, w[1] + 30))], t=t)
    g.apply(EndTurn())
    assert "T" not in g.units["R"].known_by
    g.apply(EndTurn())
    g.apply(Move("T", ((w[0], w[1] + 2.4),), facing=270.0))     # within an inch: contact
    assert "T" in g.units["R"].known_by


def test_20mm_calling_down_fire_directing_unit_must_not_be_under_fire():
    g = game([gun("M", "german", (50.0, 20.0), "mortar_medium", facing=90.0, crew=3), inf("D", "german", (55.0, 30.0), facing=90.0),
              inf("R", "russian", (50.0, 45.0))])
    g.units["D"].under_fire = True
    with pytest.raises(TwentyIllegal, match="not be under fire"):
        g.apply(IndirectFire("M", (50.0, 45.0), director="D"))


def test_20mm_calling_down_fire_firers_in_contact_with_a_command_element_count_as_radio_equipped():
    t = table(hexes=[{"id": "2010", "trees": 2}])
    w = t.hex_centre("2010")
    units = [gun("M", "german", (w[0], w[1] - 10.0), "mortar_medium", facing=90.0, crew=3),
             inf("F", "german", (w[0], w[1] + 10.0), facing=90.0, men=2, role="foo", radio=True), inf("R", "russian", (w[0], w[1] + 18.0))]
    g = game(units, t=t)
    with pytest.raises(TwentyIllegal, match="radio-equipped"):
        g.apply(IndirectFire("M", (w[0], w[1] + 18.0), director="F"))
    g2 = game(units + [inf("C", "german", (w[0] + 0.8, w[1] - 10.0), role="command", men=2)], t=t)
    script(g2, 6, 6, 1, 1)
    g2.apply(IndirectFire("M", (w[0], w[1] + 18.0), director="F"))
    assert any(e["kind"] == "ranged" for e in g2.events)


def test_20mm_close_assault_no_defensive_fire_from_troops_under_he():
    g = game([inf("G", "german", (50.0, 20.0), facing=90.0, men=8, smg=4), inf("R", "russian", (50.0, 22.0), men=4)])
    g.units["R"].under_he = True
    n = len(g.events)
    script(g, 6, 6, 6, 6, 1)
    g.apply(Assault("G", "R"))
    assert not any("fire at" in e.get("purpose", "") for e in g.events[n:])
    assert g.units["G"].men == 8


def test_20mm_cover_saves_low_stone_walls_give_hard_cover_only_to_low_profile_tanks():
    t = table(obstacles=[wall("L", [(40, 20), (80, 20)], "low_stone_wall")])
    g = game([veh("S", "russian", (60.0, 39.0), "Stug III", facing=0.0), veh("P", "russian", (70.0, 39.0), "Pz IV", facing=0.0),
              inf("I", "russian", (65.0, 39.5))], t=t)
    assert g.cover_at(g.units["S"], (60.0, 50.0)) == "hard"
    assert g.cover_at(g.units["P"], (70.0, 50.0)) is None
    assert g.cover_at(g.units["I"], (65.0, 50.0)) == "hard"


def test_20mm_cover_saves_gun_crews_count_their_gun_as_soft_cover_from_the_front():
    g = game([gun("P", "russian", A, "PAK 40 ATG", facing=0.0)])
    assert g.cover_at(g.units["P"], (60.0, 40.0)) == "soft"
    assert g.cover_at(g.units["P"], (40.0, 40.0)) is None


def test_20mm_cover_saves_tank_riders_count_the_turret_as_soft_cover_from_the_front():
    g = game([veh("T", "russian", A, "T-34/76", facing=0.0), inf("P", "russian", A, men=4, embarked_in="T"),
              inf("G", "german", (58.0, 40.0), facing=180.0, men=4), inf("H", "german", (42.0, 40.0), facing=0.0, men=4)])
    assert g.cover_at(g.units["P"], (58.0, 40.0)) == "soft" and g.cover_at(g.units["P"], (42.0, 40.0)) is None
    script(g, 5, 5, 5, 5, 5, 5, 1, 1)    # 4 rifle hits at 8 (5+); saves 5, 5, 1, 1
    g.apply(Fire("G", "small_arms", "T"))
    assert g.units["P"].men == 2


def test_20mm_infantry_riding_in_or_on_vehicles_one_turn_to_get_off_and_the_vehicle_stays_still():
    g = game([veh("L", "german", A, "Lorry"), inf("P", "german", A, men=8, embarked_in="L")])
    with pytest.raises(TwentyIllegal, match="within 2"):
        g.apply(Special("P", "disembark", point=(55.0, 40.0)))
    g.apply(Special("P", "disembark", point=(51.5, 40.0)))
    assert g.units["P"].pos == (51.5, 40.0) and g.units["P"].embarked_in is None and g.units["P"].acted
    with pytest.raises(TwentyIllegal, match="stationary"):
        g.apply(Move("L", ((55.0, 40.0),)))


def test_20mm_infantry_riding_in_or_on_vehicles_the_tank_stays_still_but_fires_its_machine_gun():
    g = game([veh("T", "german", A, "Pz IV", facing=0.0), inf("S", "german", (50.0, 41.0), men=4), inf("R", "russian", (57.0, 40.0), men=2)])
    g.apply(Special("S", "embark", "T"))
    script(g, 1, 1)
    g.apply(Fire("T", "mg", "R"))
    assert any(e["kind"] == "small_arms_fire" and e["uid"] == "T" for e in g.events)


def test_20mm_calling_down_fire_limited_availability_raises_the_radio_score():
    from core.twentymm.model import Unit
    b = Unit(uid="B", side="german", kind="battery", guns=1, calibre=105, facing=90.0, radio=True, radio_penalty=1)
    g = game([b, inf("C", "german", (52.0, 30.0), facing=90.0, role="command", radio=True), inf("R", "russian", (50.0, 45.0))])
    script(g, 4)
    g.apply(IndirectFire("B", (50.0, 45.0), director="C"))     # a new target needs 4 + 1
    assert any(e["kind"] == "radio_failed" for e in g.events)
    assert "need 5+" in [e for e in g.events if e["kind"] == "roll"][-1]["purpose"]
