"""Firing and bombing: hex to hex, the initiative roll and its exceptions, who may engage what, the
weapon table (ranges and effectiveness), charges, strafing, bombing, minefields, artillery hits on
every unit of the hex, indirect fire and the observer's one target per turn."""

from __future__ import annotations

import pytest

from core.redflags.actions import AirStep, Bomb, Fire, IllegalAction, Move, Strafe
from core.redflags.tables import weapon_table
from tests.redflags.helpers import FixedDice, activate, events, make_game, nb, new_turn, unit

G_HEX, R_HEX = "3007", "3008"  # adjacent, column 30: the German faces down the sheet (4), the Russian up (1)


def duel(tmp_path, gtype="ger_schuetzengruppe", rtype="sov_rifle_section", ghex=G_HEX, rhex=R_HEX, extra_g=(),
         extra_r=(), places=None, **kw):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", gtype), *extra_g])],
                  [("B", "K-hearts", [unit("R", rtype), *extra_r])],
                  {"G": ghex, "R": rhex, **(places or {})}, **kw)
    return g


def order_of_fire(g, start):
    return [(e["unit"], e["returning"]) for e in events(g, "fire", start)]


# ------------------------------------------------------------------ initiative
def test_rf_fire_initiative_the_highest_d6_fires_first(tmp_path):
    g = duel(tmp_path)
    activate(g, "german", "A")
    FixedDice(g, [2, 5] + [1] * 40)
    n = len(g.events)
    g.apply(Fire("G", R_HEX, "R"))
    ini = events(g, "initiative", n)[0]
    assert ini["first"] == "R" and ini["scores"] == [2, 5] and ini["rule"] == "fire.initiative"
    assert order_of_fire(g, n) == [("R", True), ("G", False)]
    first_rolls = [e for e in g.events[n:] if e["kind"] == "roll"][:2]
    assert [len(e["dice"]) for e in first_rolls] == [1, 1]  # both units throw a 1D6


def test_rf_fire_initiative_the_winner_fires_first_and_the_loser_with_what_is_left(tmp_path):
    g = duel(tmp_path)
    activate(g, "german", "A")
    # German wins 6-1 and hits with every die: the Russian section (6 figures) is wiped out first
    FixedDice(g, [6, 1] + [6] * 40)
    n = len(g.events)
    g.apply(Fire("G", R_HEX, "R"))
    assert order_of_fire(g, n) == [("G", False)]
    assert g.units["R"].status == "eliminated"


def test_rf_fire_initiative_tie_both_fire_at_once(tmp_path):  # r.initiative_tie
    g = duel(tmp_path)
    activate(g, "german", "A")
    FixedDice(g, [4, 4] + [6] * 40)
    n = len(g.events)
    g.apply(Fire("G", R_HEX, "R"))
    assert events(g, "initiative", n)[0]["rule"] == "r.initiative_tie"
    fires = events(g, "fire", n)
    assert [f["unit"] for f in fires] == ["G", "R"]
    assert fires[1]["weapons"] == {"lmg": 2, "rifle": 4, "smg": 2}  # its full strength before the exchange


def test_rf_fire_initiative_dug_in_units_always_fire_first(tmp_path):
    g = duel(tmp_path, dug_in=True)  # the Germans set up dug in
    assert g.units["G"].dug_in
    activate(g, "russian", "B")
    FixedDice(g, [1] * 40)
    n = len(g.events)
    g.apply(Fire("R", G_HEX, "G"))
    ini = events(g, "initiative", n)[0]
    assert ini["first"] == "G" and "dug in" in ini["reason"]
    assert order_of_fire(g, n)[0] == ("G", True)
    assert not any(e["rule"] == "fire.initiative" for e in g.events[n:] if e["kind"] == "roll")


def test_rf_fire_initiative_reconnaissance_units_always_fire_last(tmp_path):
    g = duel(tmp_path, rtype="sov_scouts")
    activate(g, "russian", "B")
    FixedDice(g, [1] * 40)
    n = len(g.events)
    g.apply(Fire("R", G_HEX, "G"))
    ini = events(g, "initiative", n)[0]
    assert ini["first"] == "G" and "reconnaissance" in ini["reason"]
    activate(g, "german", "A")
    n = len(g.events)
    g.apply(Fire("G", R_HEX, "R"))
    assert events(g, "initiative", n)[0]["first"] == "G"


def test_rf_fire_initiative_enfiladed_units_may_not_return_fire_until_activated(tmp_path):
    # the German faces down the sheet (hexside 4); fire from the hex above it comes from its rear
    above = nb(G_HEX, 1)
    g = duel(tmp_path, extra_r=[unit("R2", "sov_rifle_section")], places={"R2": above})
    activate(g, "russian", "B")
    FixedDice(g, [1] * 80)
    n = len(g.events)
    g.apply(Fire("R2", G_HEX, "G"))
    assert events(g, "enfiladed", n) and g.units["G"].enfiladed
    assert not events(g, "initiative", n) and order_of_fire(g, n) == [("R2", False)]
    # still enfiladed: no return fire at the unit in front of it either
    n = len(g.events)
    g.apply(Fire("R", G_HEX, "G"))
    assert order_of_fire(g, n) == [("R", False)]
    # its card is turned: the mark goes, it fires (and returns fire) again
    activate(g, "german", "A")
    assert not g.units["G"].enfiladed and events(g, "enfilade_ends")


def test_rf_fire_initiative_does_not_take_the_opponents_activation(tmp_path):
    g = duel(tmp_path)
    activate(g, "german", "A")
    FixedDice(g, [2, 5] + [1] * 80)
    g.apply(Fire("G", R_HEX, "R"))  # R returned fire
    activate(g, "russian", "B")
    assert Fire("R", G_HEX, "G") in g.legal_actions()


# ------------------------------------------------------------------ who may engage what
def test_rf_fire_small_arms_may_only_engage_personnel(tmp_path):
    g = duel(tmp_path, rtype="sov_t34_76")
    activate(g, "german", "A")
    assert not g.fire_options(g.units["G"])
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire("G", R_HEX, "R"))
    assert e.value.rule == "fire.targets"


def test_rf_fire_infantry_anti_tank_weapons_engage_tanks_and_fire_as_rifles_at_personnel(tmp_path):
    g = duel(tmp_path, gtype="ger_panzerjaeger_trupp", rtype="sov_t34_76")
    activate(g, "german", "A")
    assert g.attack_groups(g.units["G"], g.units["R"], R_HEX, 1) == [("infantry_at", 2, weapon_table()["infantry_at"])]
    g2 = duel(tmp_path, gtype="ger_panzerjaeger_trupp")
    groups = {w: n for w, n, _ in g2.attack_groups(g2.units["G"], g2.units["R"], R_HEX, 1)}
    assert groups == {"rifle": 4, "smg": 2}  # 2 riflemen + 2 AT figures with rifles; the SMG 2D6


def test_rf_fire_tank_guns_and_artillery_engage_everything_on_the_ground(tmp_path):
    g = duel(tmp_path, gtype="ger_pzkpfw_iii")
    assert g.attack_groups(g.units["G"], g.units["R"], R_HEX, 1)
    g = duel(tmp_path, gtype="ger_pzkpfw_iii", rtype="sov_t34_76")
    assert g.attack_groups(g.units["G"], g.units["R"], R_HEX, 1)


def test_rf_fire_only_anti_aircraft_weapons_engage_aircraft(tmp_path):
    il2 = unit("IL", "sov_il2", arrives=1, entry="3010", heading=1)
    g = make_game(tmp_path, [("A", "A-spades", [unit("F", "ger_flak38"), unit("G", "ger_schuetzengruppe")])],
                  [("Air", "9-hearts", [il2]), ("B", "K-hearts", [unit("R", "sov_rifle_section")])],
                  {"F": "3007", "G": "3006", "R": "4925"})
    activate(g, "russian", "Air")
    activate(g, "german", "A")
    assert Fire("F", "3010", "IL") in g.legal_actions()
    assert not any(isinstance(a, Fire) and a.target == "IL" and a.unit == "G" for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire("G", "3010", "IL"))
    assert e.value.rule == "fire.anti_aircraft"
    FixedDice(g, [6, 1, 1, 1])
    g.apply(Fire("F", "3010", "IL"))
    assert g.units["IL"].status == "eliminated"  # a 6 brings it down (r.aircraft)


def test_rf_fire_anti_aircraft_guns_against_ground_targets_count_as_hmg_or_at_gun(tmp_path):
    g = duel(tmp_path, gtype="ger_flak38")
    assert g.weapon_counts(g.units["G"], "personnel") == [("hmg", 2)]
    g = duel(tmp_path, gtype="ger_flak36", rtype="sov_t34_76")
    assert g.weapon_counts(g.units["G"], "vehicle") == [("heavy_at_gun", 2)]


# ------------------------------------------------------------------ the weapon table
RANGES = {"smg": 1, "rifle": 2, "lmg": 2, "infantry_at": 1, "hmg": 4, "infantry_mortar": 4, "demolition_charge": 1,
          "flamethrower": 1, "light_at_gun": 4, "medium_at_gun": 6, "heavy_at_gun": 8, "infantry_gun": 6,
          "heavy_mortar": 6, "mountain_gun": 8, "field_gun": 12, "medium_gun": 16, "heavy_gun": 20,
          "light_tank_gun": 4, "medium_tank_gun": 6, "heavy_tank_gun": 8, "strafing": 2}
EFFECT = {"smg": (2, "figure"), "rifle": (1, "figure"), "lmg": (2, "crew figure"), "infantry_at": (1, "figure"),
          "hmg": (4, "crew figure"), "infantry_mortar": (2, "crew figure"), "demolition_charge": (4, "engineer"),
          "flamethrower": (4, "figure"), "light_at_gun": (2, "crew figure"), "medium_at_gun": (2, "crew figure"),
          "heavy_at_gun": (2, "crew figure"), "infantry_gun": (2, "crew figure"), "heavy_mortar": (2, "crew figure"),
          "mountain_gun": (2, "crew figure"), "field_gun": (2, "crew figure"), "medium_gun": (2, "crew figure"),
          "heavy_gun": (2, "crew figure"), "light_tank_gun": (4, "AFV"), "medium_tank_gun": (4, "AFV"),
          "heavy_tank_gun": (4, "AFV"), "strafing": (4, "aircraft"), "minefield": (4, "hex of mines")}


@pytest.mark.parametrize("weapon", sorted(RANGES))
def test_rf_fire_weapon_table_range(weapon):
    assert weapon_table()[weapon].range == RANGES[weapon]


@pytest.mark.parametrize("weapon", sorted(EFFECT))
def test_rf_fire_weapon_table_effectiveness(weapon):
    w = weapon_table()[weapon]
    assert (w.dice, w.per) == EFFECT[weapon]


def test_rf_fire_weapon_table_second_reading_of_the_artillery_ranges():
    b = weapon_table(("ranges-b",))
    assert [b[w].range for w in ("infantry_gun", "heavy_mortar", "mountain_gun", "field_gun", "medium_gun",
                                 "heavy_gun")] == [6, 8, 12, 16, 20, 20]


def test_rf_fire_weapon_table_bomb_load_falls_on_the_bombed_area():
    w = weapon_table()["bombs"]
    assert w.range is None and w.artillery and "vehicle" in w.targets


@pytest.mark.parametrize("d,expected", [
    (1, {"lmg": 2, "rifle": 4, "smg": 2}),  # Soviet rifle section: 4 rifles, DP, PPSh
    (2, {"lmg": 2, "rifle": 4}),            # the SMG reaches 1 hex
    (3, {}),                                # nothing reaches 3 hexes
])
def test_rf_fire_weapon_table_dice_per_figure_within_range(tmp_path, d, expected):
    g = duel(tmp_path)
    got = {w: n for w, n, _ in g.attack_groups(g.units["R"], g.units["G"], G_HEX, d)}
    assert got == expected


def test_rf_fire_weapon_table_dice_per_crew_figure_and_per_afv(tmp_path):
    g = duel(tmp_path, gtype="ger_schuetzengruppe_smg", rtype="sov_zis3")
    assert not g.attack_groups(g.units["G"], g.units["R"], R_HEX, 4)  # a gun is not personnel
    g0 = duel(tmp_path, gtype="ger_schuetzengruppe_smg")
    assert {w: n for w, n, _ in g0.attack_groups(g0.units["G"], g0.units["R"], R_HEX, 4)} == {"hmg": 4}
    assert {w: n for w, n, _ in g.attack_groups(g.units["R"], g.units["G"], G_HEX, 12)} == {"field_gun": 4}
    g.units["R"].crew = 1
    assert {w: n for w, n, _ in g.attack_groups(g.units["R"], g.units["G"], G_HEX, 12)} == {"field_gun": 2}
    g = duel(tmp_path, gtype="ger_sdkfz222")  # two armoured cars: 4D6 per AFV
    assert {w: n for w, n, _ in g.attack_groups(g.units["G"], g.units["R"], R_HEX, 4)} == {"light_tank_gun": 8}


def test_rf_fire_demolition_charges_one_per_engineer_used_once(tmp_path):
    g = duel(tmp_path, gtype="ger_pioniergruppe", rtype="sov_t34_76")
    u = g.units["G"]
    assert u.charges == 6
    activate(g, "german", "A")
    assert Fire("G", R_HEX, "R", True) in g.legal_actions()
    groups = {w: n for w, n, _ in g.attack_groups(u, g.units["R"], R_HEX, 1, True)}
    assert groups == {"demolition_charge": 24, "flamethrower": 4}  # 4D6 per engineer, 4D6 per flamethrower figure
    FixedDice(g, [1] * 80)
    g.apply(Fire("G", R_HEX, "R", True))
    assert u.charges == 0 and events(g, "charges")[0]["used"] == 6
    new_turn(g)
    activate(g, "german", "A")
    assert Fire("G", R_HEX, "R", True) not in g.legal_actions()
    assert Fire("G", R_HEX, "R") in g.legal_actions()  # the flamethrower still may


def test_rf_fire_demolition_charges_reach_one_hex(tmp_path):
    g = duel(tmp_path, gtype="ger_pioniergruppe", rtype="sov_t34_76", rhex="3009")
    activate(g, "german", "A")
    assert not g.fire_options(g.units["G"])


# ------------------------------------------------------------------ hex to hex, artillery hits
def test_rf_fire_artillery_hits_take_effect_on_every_unit_in_the_hex(tmp_path):
    g = duel(tmp_path, gtype="ger_schuetzengruppe", rtype="sov_zis3", rhex="3011",
             extra_g=[unit("C", "ger_kompaniechef"), unit("T", "ger_opel_blitz")], places={"C": G_HEX, "T": G_HEX})
    activate(g, "russian", "B")
    FixedDice(g, [6, 6, 6, 6] + [1] * 20)
    g.apply(Fire("R", G_HEX, "G"))
    hits = events(g, "fire")[-1]["hits"]
    assert hits == {"C": 4, "G": 4, "T": 4}  # every die against every unit of the hex
    assert g.units["C"].status == "eliminated" and g.units["T"].status == "eliminated"


def test_rf_fire_tank_gun_hits_only_the_engaged_unit(tmp_path):
    g = duel(tmp_path, gtype="ger_schuetzengruppe", rtype="sov_t34_76", rhex="3011",
             extra_g=[unit("C", "ger_kompaniechef")], places={"C": G_HEX})
    activate(g, "russian", "B")
    FixedDice(g, [6, 6, 6, 6] + [1] * 20)
    g.apply(Fire("R", G_HEX, "G"))
    assert events(g, "fire")[-1]["hits"] == {"G": 4} and g.units["C"].status == "ok"


def test_rf_fire_all_firing_is_hex_to_hex(tmp_path):
    g = duel(tmp_path)
    activate(g, "german", "A")
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire("G", "3009", "R"))
    assert e.value.rule == "fire.hex_to_hex"


def test_rf_general_move_then_fire_or_fire_then_move(tmp_path):
    g = duel(tmp_path, rhex="3010", extra_g=[unit("X", "ger_schuetzengruppe")], places={"X": "3001"})
    activate(g, "german", "A")
    assert not g.fire_options(g.units["G"])  # 3 hexes: out of range
    g.apply(Move("G", "3008"))
    assert Fire("G", "3010", "R") in g.legal_actions()  # move, then fire
    FixedDice(g, [6, 1] + [1] * 40)
    g.apply(Fire("G", "3010", "R"))
    assert not any(isinstance(a, (Fire, Move)) and a.unit == "G" for a in g.legal_actions())
    g2 = duel(tmp_path, rhex="3009", extra_g=[unit("X", "ger_schuetzengruppe")], places={"X": "3001"})
    activate(g2, "german", "A")
    FixedDice(g2, [6, 1] + [1] * 40)
    g2.apply(Fire("G", "3009", "R"))  # fire, then move
    assert any(isinstance(a, Move) and a.unit == "G" for a in g2.legal_actions())


# ------------------------------------------------------------------ indirect fire and observers
def indirect(tmp_path, observer_hex="3009", gun="sov_zis3"):
    # column 30: the Russian truck in 3005 hides 3007 from the gun in 3003
    return make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), unit("G2", "ger_schuetzengruppe")])],
                     [("B", "K-hearts", [unit("R", gun), unit("R3", "sov_zis3"), unit("T", "sov_zis5"),
                                         unit("O", "sov_observer")])],
                     {"G": "3007", "G2": "3011", "R": "3003", "R3": "3001", "T": "3005", "O": observer_hex})


def test_rf_general_artillery_fires_at_what_it_cannot_see_through_a_spotter(tmp_path):
    g = indirect(tmp_path)
    activate(g, "russian", "B")
    assert not g.los("3003", "3007") and g.los("3009", "3007")
    assert Fire("R", "3007", "G") in g.legal_actions()
    FixedDice(g, [1] * 10)
    n = len(g.events)
    g.apply(Fire("R", "3007", "G"))
    assert events(g, "engage", n)[0]["spotter"] == "O"
    assert not events(g, "initiative", n)  # the target cannot see the gun: no return fire


def test_rf_general_no_spotter_no_indirect_fire(tmp_path):
    g = indirect(tmp_path, observer_hex="3020")
    activate(g, "russian", "B")
    assert not g.los("3020", "3007")
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire("R", "3007", "G"))
    assert e.value.rule == "general.indirect"


def test_rf_general_anti_tank_guns_fire_only_at_what_they_see(tmp_path):
    g = indirect(tmp_path, gun="sov_45mm_at")
    activate(g, "russian", "B")
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire("R", "3007", "G"))
    assert e.value.rule == "general.los"


def test_rf_units_observer_directs_artillery_onto_one_target_per_turn(tmp_path):
    g = indirect(tmp_path)
    activate(g, "russian", "B")
    assert g.los("3009", "3011") and not g.los("3001", "3011")
    FixedDice(g, [1] * 40)
    g.apply(Fire("R", "3007", "G"))
    assert Fire("R3", "3007", "G") in g.legal_actions()      # the same target again: yes
    assert Fire("R3", "3011", "G2") not in g.legal_actions()  # another target: not this turn
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire("R3", "3011", "G2"))
    assert e.value.rule == "general.indirect"
    new_turn(g)
    activate(g, "russian", "B")
    assert Fire("R3", "3011", "G2") in g.legal_actions()


# ------------------------------------------------------------------ aircraft
def plane(tmp_path, type_, entry, heading, german_at, extra=(), places=None):
    return make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), *extra])],
                     [("Air", "9-hearts", [unit("P", type_, arrives=1, entry=entry, heading=heading)]),
                      ("B", "K-hearts", [unit("R", "sov_rifle_section")])],
                     {"G": german_at, "R": "4925", **(places or {})})


def test_rf_fire_strafing_hits_the_hex_two_ahead_at_most_four_times(tmp_path):
    g = plane(tmp_path, "sov_yak1", "3012", 1, "3010")  # flying up column 30: 2 ahead of 3012 is 3010
    activate(g, "russian", "Air")
    assert g.strafe_hex(g.units["P"]) == "3010"
    FixedDice(g, [5, 5, 5, 5] + [1] * 40)
    n = len(g.events)
    g.apply(Strafe("P"))
    assert [e for e in g.events[n:] if e["kind"] == "roll"][0]["dice"] == [5, 5, 5, 5]  # 4D6 per aircraft
    assert events(g, "fire", n)[0]["hits"] == {"G": 4}
    assert Strafe("P") not in g.legal_actions()  # once per activation (r.aircraft)
    for _ in range(3):
        new_turn(g)
        activate(g, "russian", "Air")
        g.apply(Strafe("P"))
    new_turn(g)
    activate(g, "russian", "Air")
    assert g.units["P"].strafes == 0 and Strafe("P") not in g.legal_actions()


def test_rf_fire_strafing_cannot_hurt_vehicles(tmp_path):
    g = plane(tmp_path, "sov_yak1", "3012", 1, "3003", extra=[unit("T", "ger_pzkpfw_iii")], places={"T": "3010"})
    activate(g, "russian", "Air")
    FixedDice(g, [6, 6, 6, 6])
    g.apply(Strafe("P"))
    assert events(g, "fire")[-1]["hits"] == {}


def test_rf_fire_dive_bombers_drop_on_the_hex_directly_in_front(tmp_path):
    g = make_game(tmp_path, [("Air", "10-clubs", [unit("P", "ger_ju87", arrives=1, entry="3012", heading=1)]),
                             ("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": "3001", "R": "3011"})
    activate(g, "german", "Air")
    FixedDice(g, [6, 6, 1, 1, 6])
    n = len(g.events)
    g.apply(Bomb("P"))
    assert events(g, "air_attack", n)[0]["hex"] == "3011"
    assert not [e for e in g.events[n:] if e["kind"] == "roll" and e["rule"] == "fire.bombing" and len(e["dice"]) == 1]
    assert events(g, "fire", n)[0]["hits"] == {"R": 2}
    assert Bomb("P") not in g.legal_actions()  # one bomb load


@pytest.mark.parametrize("face,steps", [(1, (0,)), (2, (-1,)), (3, (1,)), (4, (0, 0)), (5, (0, -1)), (6, (0, 1))])
def test_rf_fire_ground_attack_aircraft_bomb_the_1d6_hex_in_front(tmp_path, face, steps):
    g = plane(tmp_path, "sov_il2", "3514", 1, "3001")
    activate(g, "russian", "Air")
    FixedDice(g, [face] + [1] * 4)
    n = len(g.events)
    g.apply(Bomb("P"))
    assert [e for e in g.events[n:] if e["kind"] == "roll"][0]["purpose"].startswith("bombed area")
    expected = g.terrain.in_front("3514", 1, steps)
    assert events(g, "air_attack", n)[0]["hex"] == expected
    if face == 4:
        assert expected == nb(nb("3514", 1), 1)  # 'hex 4' is the hex 2 in front


def test_rf_fire_anti_aircraft_gun_in_the_bombed_hex_engages_the_aircraft(tmp_path):
    g = make_game(tmp_path, [("Air", "10-clubs", [unit("P", "ger_ju87", arrives=1, entry="3012", heading=1)]),
                             ("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_61k")])], {"G": "3001", "R": "3011"})
    activate(g, "german", "Air")
    FixedDice(g, [1, 6] + [6, 1, 1, 1] + [1] * 8)  # the gun wins the roll-off and brings the Stuka down
    n = len(g.events)
    g.apply(Bomb("P"))
    assert events(g, "initiative", n)[0]["first"] == "R"
    assert g.units["P"].status == "eliminated"
    assert not [e for e in events(g, "fire", n) if e["unit"] == "P"]  # no bombs fell


def test_rf_fire_aircraft_move_then_attack(tmp_path):
    g = plane(tmp_path, "sov_yak1", "3014", 1, "3010")
    activate(g, "russian", "Air")
    g.apply(AirStep("P", 0))
    g.apply(AirStep("P", 0))
    assert g.strafe_hex(g.units["P"]) == "3010" and Strafe("P") in g.legal_actions()


def test_rf_general_reconnaissance_units_spot_for_artillery(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_zis3"), unit("T", "sov_zis5"), unit("S", "sov_scouts")])],
                  {"G": "3007", "R": "3003", "T": "3005", "S": "3009"})
    activate(g, "russian", "B")
    assert g.spotter_for(g.units["R"], "3007").uid == "S"
    assert Fire("R", "3007", "G") in g.legal_actions()


def test_rf_general_reconnaissance_aircraft_spot_for_artillery(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("H", "ger_lefh18"), unit("T", "ger_opel_blitz")]),
                             ("Air", "10-clubs", [unit("P", "ger_fi156", arrives=2, entry="4020", heading=1)])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])],
                  {"H": "3003", "T": "3005", "R": "3007"})
    activate(g, "german", "A")
    assert not g.los("3003", "3007") and g.spotter_for(g.units["H"], "3007") is None
    new_turn(g)
    activate(g, "german", "Air")  # the Storch arrives: it sees every hex (r.aircraft)
    activate(g, "german", "A")
    assert g.spotter_for(g.units["H"], "3007").uid == "P"
    assert Fire("H", "3007", "R") in g.legal_actions()


def test_rf_general_artillery_hits_a_hit_on_one_unit_counts_as_a_hit_on_all_the_units_in_the_hex(tmp_path):
    """General rules: "any artillery hits on the hex will take effect on all the units in the hex
    (i.e. a hit on one unit will count as a hit on all the units in the hex)": the dice score hits
    against the engaged unit, and a Tiger sharing its hex takes the same hits, although a 5 would not
    hit the Tiger itself."""
    g = duel(tmp_path, gtype="ger_schuetzengruppe", rtype="sov_zis3", rhex="3011",
             extra_g=[unit("T", "ger_tiger")], places={"T": G_HEX})
    assert g.hit_number(g.weapons[g.units["R"].gun], g.units["T"], G_HEX) != 5   # a 5 alone does not hit a Tiger
    activate(g, "russian", "B")
    FixedDice(g, [5, 5, 5, 5] + [1] * 20)
    g.apply(Fire("R", G_HEX, "G"))
    hits = events(g, "fire")[-1]
    assert hits["rule"] == "general.artillery_hits" and hits["hits"] == {"G": 4, "T": 4}
    assert g.units["T"].status == "eliminated"   # r.hits: two hits knock out a heavy AFV
