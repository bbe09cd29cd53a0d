"""Units (commander, quality grades, reconnaissance, transport) and the reconstructed rules the
fragment leaves out: hits (r.hits), armour (r.armour), damage (r.damage, r.casualty_order), morale
(r.morale, r.rally), passengers (r.passengers), control and victory (r.control, r.victory)."""

from __future__ import annotations

import pytest

from core.redflags.actions import EndActivation, Fire, Move
from core.redflags.tables import rules_value, weapon_table
from tests.redflags.helpers import FixedDice, activate, events, make_game, nb, new_turn, unit

G_HEX, R_HEX = "3007", "3008"


def duel(tmp_path, gtype="ger_schuetzengruppe", rtype="sov_rifle_section", extra_g=(), extra_r=(), places=None,
         **kw):
    return make_game(tmp_path, [("A", "A-spades", [unit("G", gtype), *extra_g])],
                     [("B", "K-hearts", [unit("R", rtype), *extra_r])], {"G": G_HEX, "R": R_HEX, **(places or {})},
                     **kw)


# ------------------------------------------------------------------ commander
def test_rf_units_commander_adds_one_d6_firepower(tmp_path):
    g = duel(tmp_path, extra_g=[unit("C", "ger_kompaniechef")], places={"C": G_HEX})
    groups = g.attack_groups(g.units["G"], g.units["R"], R_HEX, 2)
    assert sum(n for _w, n, _ in groups) == 4 + 2 + 1  # 4 rifles, LMG 2D6, +1D6 commander
    g.units["C"].hexes = ["3001"]
    assert sum(n for _w, n, _ in g.attack_groups(g.units["G"], g.units["R"], R_HEX, 2)) == 6


def test_rf_units_commander_adds_one_to_morale_dice(tmp_path):
    g = duel(tmp_path, extra_g=[unit("C", "ger_kompaniechef")], places={"C": G_HEX})
    FixedDice(g, [3])
    assert g.morale_check(g.units["G"])  # 3 + 1 = 4 passes
    e = events(g, "morale")[-1]
    assert e["modifiers"] == {"commander": 1} and e["passed"]
    g2 = duel(tmp_path)
    FixedDice(g2, [3])
    assert not g2.morale_check(g2.units["G"])


def test_rf_units_commander_is_decorative_no_fire_of_his_own(tmp_path):
    g = duel(tmp_path, gtype="ger_kompaniechef")
    activate(g, "german", "A")
    assert not g.fire_options(g.units["G"])


@pytest.mark.parametrize("quality,face,passes", [("above_average", 3, True), ("average", 3, False),
                                                 ("average", 4, True), ("below_average", 4, False)])
def test_rf_units_quality_grades_move_the_morale_dice(tmp_path, quality, face, passes):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe", quality=quality)])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": G_HEX, "R": R_HEX})
    FixedDice(g, [face])
    assert g.morale_check(g.units["G"]) is passes


def test_rf_units_reconnaissance_variants(tmp_path):
    g = duel(tmp_path, gtype="ger_sdkfz222", rtype="sov_scouts")
    assert g.units["G"].armoured and g.units["G"].vehicles == 2 and g.units["G"].target_class == "vehicle"
    assert g.units["R"].personnel and g.units["R"].kind == "recon"
    activate(g, "russian", "B")
    assert g.move_allowance(g.units["R"]) == 1  # a standard infantry unit: 1 hex


def test_rf_units_engineers_each_carry_an_assault_demolition_charge(tmp_path):
    g = duel(tmp_path, gtype="ger_pioniergruppe")
    u = g.units["G"]
    assert u.charges == len(u.figures) == 6 and u.support == "flamethrower"
    FixedDice(g, [])
    g._take_hits(u, 2, "test")
    assert u.charges == 4  # a charge goes with its engineer


# ------------------------------------------------------------------ hits and armour
@pytest.mark.parametrize("target,where,dug_in,expected", [
    ("sov_rifle_section", "3008", False, 5),   # personnel in the open
    ("sov_rifle_section", "3121", False, 6),   # in woods
    ("sov_rifle_section", "3412", False, 6),   # in a building
    ("sov_rifle_section", "3008", True, 6),    # dug in
    ("sov_zis5", "3008", False, 4),            # a soft vehicle
])
def test_rf_r_hits_hit_numbers(tmp_path, target, where, dug_in, expected):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_pzkpfw_iii")])],
                  [("B", "K-hearts", [unit("R", target)])], {"G": G_HEX, "R": where})
    g.units["R"].dug_in = dug_in
    assert g.hit_number(weapon_table()["medium_tank_gun"], g.units["R"], where) == expected


@pytest.mark.parametrize("weapon,target,expected", [
    ("medium_tank_gun", "sov_t60", 4),          # penetration above the armour
    ("medium_tank_gun", "sov_t34_76", 5),       # equal
    ("medium_tank_gun", "sov_kv1", 6),          # one class below
    ("light_tank_gun", "sov_kv1", None),        # two below: cannot hurt it
    ("infantry_at", "sov_kv1", 5),              # shaped charge against the heaviest
])
def test_rf_r_armour_against_penetration(tmp_path, weapon, target, expected):
    g = duel(tmp_path, gtype="ger_pzkpfw_iii", rtype=target)
    assert g.hit_number(weapon_table()[weapon], g.units["R"], R_HEX) == expected


def test_rf_r_armour_a_gun_that_cannot_hurt_the_tank_may_not_engage_it(tmp_path):
    g = duel(tmp_path, gtype="ger_pzkpfw_ii", rtype="sov_kv1")
    activate(g, "german", "A")
    assert not g.fire_options(g.units["G"])


# ------------------------------------------------------------------ damage
def test_rf_r_damage_figures_in_casualty_order(tmp_path):
    g = duel(tmp_path, gtype="ger_schuetzengruppe_smg")
    u = g.units["G"]
    FixedDice(g, [])
    g._take_hits(u, 5, "test")
    assert u.figures == ["lmg"] and u.support_crew == 1  # riflemen, the SMG; then the LMG, the HMG's figure last
    g._take_hits(u, 1, "test")
    assert u.figures == [] and u.support_crew == 1
    g._take_hits(u, 1, "test")
    assert u.status == "eliminated"


def test_rf_r_damage_medium_afv_needs_two_hits_light_one(tmp_path):
    g = duel(tmp_path, gtype="ger_pzkpfw_iii", rtype="sov_t60")
    FixedDice(g, [])
    g._take_hits(g.units["G"], 1, "test")
    assert g.units["G"].status == "ok" and g.units["G"].damage == 1
    g._take_hits(g.units["G"], 1, "test")
    assert g.units["G"].status == "eliminated"
    g._take_hits(g.units["R"], 1, "test")
    assert g.units["R"].status == "eliminated"
    assert rules_value("hits_to_destroy", "heavy") == 2


def test_rf_r_damage_armoured_cars_lost_one_by_one(tmp_path):
    g = duel(tmp_path, gtype="ger_sdkfz222")
    FixedDice(g, [])
    g._take_hits(g.units["G"], 1, "test")
    assert g.units["G"].vehicles == 1 and g.units["G"].status == "ok"


def test_rf_r_damage_gun_lost_with_its_last_crew_figure(tmp_path):
    g = duel(tmp_path, gtype="ger_pak38")
    FixedDice(g, [])
    g._take_hits(g.units["G"], 1, "test")
    assert g.units["G"].crew == 1 and g.units["G"].status == "ok"
    g._take_hits(g.units["G"], 1, "test")
    assert g.units["G"].status == "eliminated"


def test_rf_r_passengers_of_a_lost_transport_are_set_down_and_check_morale(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("T", "ger_opel_blitz"), unit("G", "ger_schuetzengruppe", aboard="T")])],
                  [("B", "K-hearts", [unit("R", "sov_t34_76")])], {"T": G_HEX, "R": "3010"})
    activate(g, "russian", "B")
    FixedDice(g, [6, 1, 1, 1, 2])
    g.apply(Fire("R", G_HEX, "T"))
    assert g.units["T"].status == "eliminated"
    assert g.units["G"].hexes == [G_HEX] and g.units["G"].carried_by is None
    assert events(g, "passengers") and events(g, "morale")[-1]["unit"] == "G"
    assert g.units["G"].status == "shaken"  # 2 fails


# ------------------------------------------------------------------ morale
def test_rf_r_morale_checked_after_hits_shaken_then_broken(tmp_path):
    g = duel(tmp_path, rtype="sov_t34_76")
    g.units["R"].hexes = ["3010"]
    g._dirty()
    activate(g, "russian", "B")
    FixedDice(g, [5, 1, 1, 1, 1])  # one hit; morale 1: fails
    g.apply(Fire("R", G_HEX, "G"))
    assert g.units["G"].status == "shaken"
    m = events(g, "morale")[-1]
    assert m["result"] == "shaken" and m["rule"] == "r.morale"
    # shaken: may not move nor fire
    activate(g, "russian", "B")
    FixedDice(g, [5, 1, 1, 1, 2])
    g.units["R"].fired = False
    g.apply(Fire("R", G_HEX, "G"))
    assert g.units["G"].status == "broken" and events(g, "eliminated")[-1]["rule"] == "r.morale"


def test_rf_r_rally_a_shaken_unit_rallies_when_its_card_is_turned_and_does_nothing_else(tmp_path):
    g = duel(tmp_path, extra_g=[unit("X", "ger_schuetzengruppe")], places={"X": "3001"})
    g.units["G"].status = "shaken"
    activate(g, "german", "A")
    assert g.units["G"].status == "ok" and events(g, "rally")
    assert not any(getattr(a, "unit", None) == "G" for a in g.legal_actions())


def test_rf_r_morale_half_strength_is_less_steady(tmp_path):
    g = duel(tmp_path)
    u = g.units["G"]
    FixedDice(g, [4])
    g._take_hits(u, 3, "test")
    assert not g.morale_check(u)  # 4 - 1 = 3 fails
    assert events(g, "morale")[-1]["modifiers"] == {"half_strength": -1}


# ------------------------------------------------------------------ control and victory
def test_rf_r_control_goes_to_the_last_side_alone_in_the_hex(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_cavalry_section"),
                                      unit("C", "sov_commander")])],
                  {"G": "3001", "R": "3009", "C": "3007"}, objectives=["3007", "3008"])
    assert g.control == {"3007": "german", "3008": "german"}  # a commander does not take control
    activate(g, "russian", "B")
    g.apply(Move("R", "3008"))
    assert g.control["3008"] == "russian" and events(g, "control")[-1]["hex"] == "3008"
    assert g.held() == {"german": 1, "russian": 1}


def test_rf_r_victory_results_checked_in_order_at_the_end_of_the_last_turn(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_cavalry_section")])],
                  {"G": "3001", "R": "3009"}, objectives=["3008"], turns=1,
                  results=[{"outcome": "russian", "side": "russian", "controls_at_least": 1}], default="german")
    activate(g, "russian", "B")
    g.apply(Move("R", "3008"))
    assert g.standing() == "russian"
    while not g.is_terminal():
        g.apply(EndActivation())
    assert g.outcome == "russian" and g.turn == 1
    end = events(g, "game_over")[-1]
    assert end["rule"] == "r.victory" and "end of turn 1" in end["reason"]


def test_rf_r_victory_default_when_no_result_holds(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_cavalry_section")])],
                  {"G": "3001", "R": "3020"}, objectives=["3008"], turns=1, initial_control=None, default="draw",
                  results=[{"outcome": "german", "side": "german", "controls_at_least": 1}])
    while not g.is_terminal():
        g.apply(EndActivation())
    assert g.outcome == "draw"


def test_rf_r_victory_sudden_death_when_a_side_has_no_combat_unit(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_pzkpfw_iii"), unit("C", "ger_kompaniechef")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": G_HEX, "C": "3001", "R": R_HEX},
                  sudden_death=True)
    activate(g, "german", "A")
    g.units["R"].figures = ["rifle", "rifle"]
    FixedDice(g, [6] * 4)
    g.apply(Fire("G", R_HEX, "R"))
    assert g.is_terminal() and g.outcome == "german" and "sudden death" in g.reason
    assert g.legal_actions() == [] and g.current_side() is None


# ------------------------------------------------------------------ the Units table, unit by unit
ARTILLERY_KINDS = ("light_at_gun", "medium_at_gun", "heavy_at_gun", "infantry_gun", "heavy_mortar", "mountain_gun",
                   "field_gun", "medium_gun", "heavy_gun")


def test_rf_units_artillery_includes_every_listed_kind():
    from core.redflags.roster import load_roster

    guns = {e.gun for e in load_roster().units if e.kind == "artillery"}
    assert set(ARTILLERY_KINDS) <= guns
    table = weapon_table()
    assert all(table[k].artillery for k in ARTILLERY_KINDS)
    assert [k for k in ARTILLERY_KINDS if not table[k].indirect] == ["light_at_gun", "medium_at_gun", "heavy_at_gun"]


@pytest.mark.parametrize("type_,strength", [
    ("ger_pak38", 2),            # Artillery unit: 1 weapon and 2 figures
    ("ger_pzkpfw_iii", 1),       # Armoured unit: 1 armoured vehicle
    ("ger_opel_blitz", 1),       # Transport unit: 1 transport vehicle
    ("ger_beobachter", 1),       # Artillery observer: a figure
    ("ger_kompaniechef", 1),     # Commander: a figure
    ("ger_schuetzengruppe_smg", 7),  # 6 figures + the support weapon's figure
])
def test_rf_units_establishment_strength(tmp_path, type_, strength):
    g = duel(tmp_path, gtype=type_, places={})
    assert g.units["G"].strength == strength == g.units["G"].start_strength


def test_rf_units_horse_drawn_transport_tows_artillery(tmp_path):
    from core.redflags.actions import Limber

    g = make_game(tmp_path, [("A", "A-spades", [unit("P", "ger_lefh18", tow="H"), unit("H", "ger_horse_team"),
                                                unit("X", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"P": "3007", "H": "3007", "X": "3003",
                                                                          "R": "4925"})
    activate(g, "german", "A")
    g.apply(Limber("P"))
    assert g.units["H"].towing == "P" and g.move_allowance(g.units["H"]) == 2


def test_rf_units_aircraft_is_one_aircraft_arriving_on_its_card(tmp_path):
    g = make_game(tmp_path, [("Air", "10-clubs", [unit("P", "ger_bf109", arrives=2, entry="4020", heading=1)]),
                             ("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": "3007", "R": "4925"})
    p = g.units["P"]
    assert p.status == "waiting" and p.strafes == 4 and p.bombs == 0 and (p.speed, p.sortie) == (9, 6)
    activate(g, "german", "Air")
    assert p.status == "waiting"  # not before its turn
    new_turn(g)
    activate(g, "german", "Air")
    assert p.status == "ok" and p.hexes == ["4020"] and events(g, "aircraft_arrives")
