"""Fire combat through the engine (10.0-11.45, 3.25, 8.22), each test named by its rule.

Dice are scripted: one tuple per roll, in roll order, with exactly the number of dice rolled
(a PC is two dice). Preconditions that belong to other phases (a unit that moved, a unit in the
Moving Fire Phase) are set directly on the state; the attack itself always goes through
``Game.apply``.
"""

from __future__ import annotations

import pytest

from core.ironcross.actions import EndPhase, Fire, IllegalAction
from core.ironcross.state import Morale, Phase
from maps import hexgrid
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.mapbuilder import make_map

PASS = (1, 2)     # a PC total of 3: passes any PR >= 3 (even with +2)
FAIL = (6, 6)     # a PC total of 12: fails


# ---------------------------------------------------------------------------- helpers
def at_phase(g, phase, decider=None):
    """Put the game in ``phase`` with ``decider`` to act (default: who acts in that phase)."""
    g.state.phase = phase
    g._sub = ""
    if decider is None:
        decider = g.state.phasing if phase in (Phase.SUPPORT_FIRE, Phase.MOVING_FIRE) else g.state.non_phasing
    g._decider = decider
    return g


def script(g, *rolls):
    g.dice.script.extend(tuple(r) for r in rolls)


def events(g, kind, since=0):
    return [e for e in g.events[since:] if e["kind"] == kind]


def fire(g, *firers, target, mode="AP", target_unit=None, intensive=()):
    return g.apply(Fire(tuple(firers), target, mode, target_unit=target_unit, intensive=tuple(intensive)))


def of(evs, kind):
    return [e for e in evs if e["kind"] == kind]


def building(hex_id):
    """A small building polygon inside ``hex_id`` (lattice units)."""
    h = hexgrid.parse_hex_id(hex_id)
    x, y = 3 * h.col, 2 * h.row + (h.col & 1)
    return [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)]


def rule_of(exc):
    return exc.value.rule


# ---------------------------------------------------------------------------- 10.1 eligibility
def test_10_11_only_normal_units_that_have_not_fired_are_eligible():
    g = small_game([inf("G1", "german"), inf("G2", "german", squad="B"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1410", "R1": "1507"})
    g.units["G2"].morale = Morale.PINNED
    g.units["G2"].down = True
    with pytest.raises(IllegalAction) as e:
        fire(g, "G2", target="1507")
    assert rule_of(e) == "10.11"
    script(g, FAIL)
    fire(g, "G1", target="1507")
    assert g.units["G1"].fired  # 4.0: attempted counts as performed
    assert all(a.firers != ("G1",) for a in g.legal_actions() if isinstance(a, Fire))
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", target="1507")
    assert rule_of(e) == "10.11"


def test_10_12_firing_needs_a_passed_pc_and_no_combat_dice_otherwise():
    g = small_game([inf("G1", "german", pr=7), inf("R1", "russian")], {"G1": "1510", "R1": "1507"})
    script(g, (4, 4))  # 8 > PR 7
    evs = fire(g, "G1", target="1507")
    assert of(evs, "pc")[0]["passed"] is False and not of(evs, "ap_result")
    assert of(evs, "pc")[0]["rule"] == "10.12"


def test_10_13_fire_phases_cw_moved_and_reaction_movers():
    g = small_game([cw("GM", "german", crew=3), inf("G1", "german"), inf("R1", "russian")],
                   {"GM": "1510", "G1": "1410", "R1": "1507"})
    at_phase(g, Phase.MOVING_FIRE)
    g.units["GM"].moved = True
    g.units["G1"].moved = True
    with pytest.raises(IllegalAction) as e:
        fire(g, "GM", target="1507")
    assert rule_of(e) == "10.13"
    # moved infantry may fire in the Moving Fire Phase (with the 11.32 extra die)
    script(g, PASS, (6, 6))  # clear, UP: one die, +1 because G1 moved (11.32)
    evs = fire(g, "G1", target="1507")
    assert len(of(evs, "ap_result")[0]["dice"]) == 2
    # Defensive Fire: units that moved in the Reaction Movement Phase may not fire
    g2 = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1510", "R1": "1507"})
    at_phase(g2, Phase.DEFENSIVE_FIRE, "russian")
    g2.units["R1"].reaction_moved = True
    with pytest.raises(IllegalAction) as e:
        fire(g2, "R1", target="1510")
    assert rule_of(e) == "10.13"
    assert g2.legal_actions() == [EndPhase()]


def test_10_14_stug_that_moved_may_not_fire_but_one_that_only_turned_may():
    g = small_game([afv("GS", "german", weapon="StugIIIb", ap=4, at=10), afv("RT", "russian")],
                   {"GS": "1510", "RT": "1507"})
    at_phase(g, Phase.MOVING_FIRE)
    s = g.units["GS"]
    s.moved = True
    with pytest.raises(IllegalAction) as e:
        fire(g, "GS", target="1507", mode="AT", target_unit="RT")
    assert rule_of(e) == "10.14"
    s.changed_facing_only = True
    script(g, PASS, (6, 6, 6))
    evs = fire(g, "GS", target="1507", mode="AT", target_unit="RT")
    assert len(of(evs, "at_result")[0]["dice"]) == 3  # 12.2


def test_10_15_atg_with_crew_of_two_fires_once_per_game_turn():
    g = small_game([cw("GA", "german", weapon="37AT", ap=2, rng=6, at=9, crew=3, ma=0), afv("RT", "russian")],
                   {"GA": "1510", "RT": "1507"})
    a = g.units["GA"]
    a.crew = 2
    script(g, FAIL)
    fire(g, "GA", target="1507", mode="AT", target_unit="RT")
    # the other Player Turn of the same Game Turn
    a.reset_player_turn()
    g.state.player_turn += 1
    g.state.phasing = "russian"
    at_phase(g, Phase.DEFENSIVE_FIRE, "german")
    with pytest.raises(IllegalAction) as e:
        fire(g, "GA", target="1507", mode="AT", target_unit="RT")
    assert rule_of(e) == "10.15"
    g.state.turn += 1  # next Game Turn
    assert g._can_fire_basic(a)
    a.crew = 3  # a full crew fires every Player Turn
    g.state.turn -= 1
    assert g._can_fire_basic(a)


def test_10_16_atr_without_full_crew_may_not_fire():
    g = small_game([cw("GR", "german", weapon="ATR", ap=1, rng=4, at=5, crew=2), afv("RT", "russian")],
                   {"GR": "1510", "RT": "1507"})
    g.units["GR"].crew = 1
    with pytest.raises(IllegalAction) as e:
        fire(g, "GR", target="1507", mode="AT", target_unit="RT")
    assert rule_of(e) == "10.16"


# ---------------------------------------------------------------------------- 10.2 target hexes, 10.3 LOS
def test_10_21_target_hex_enemy_occupied_and_unblocked_los_from_each_firer():
    m = make_map(cols=(10, 20), rows=(1, 12), buildings={"B": building("1508")})
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1410", "R1": "1507"}, hexmap=m)
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", target="1506")  # empty
    assert rule_of(e) == "10.21"
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", target="1507")  # the building in 1508 blocks (10.31 a)
    assert rule_of(e) == "10.21"
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", "G2", target="1507")  # one firer without LOS spoils the attack
    assert rule_of(e) == "10.21"
    assert Fire(("G2",), "1507") in g.legal_actions()
    assert Fire(("G1",), "1507") not in g.legal_actions()


def test_10_22_a_hex_may_be_attacked_any_number_of_times():
    g = small_game([inf("G1", "german"), inf("G2", "german", squad="B"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1410", "R1": "1507"})
    script(g, PASS, (6,), PASS, (6,))
    fire(g, "G1", target="1507")
    evs = fire(g, "G2", target="1507")
    assert len(of(evs, "ap_result")) == 1
    assert not g.dice.script


def test_10_23_atg_mg_stug_fire_only_into_frontal_area_other_afvs_any_hexside():
    us = [cw("GM", "german"), cw("GA", "german", weapon="37AT", ap=2, rng=6, at=9, ma=0),
          afv("GS", "german", weapon="StugIIIb", ap=4, at=10), afv("GT", "german", weapon="PzIIIf", ap=4, at=10),
          inf("GL", "german", weapon="LMG", ap=6), inf("R1", "russian")]
    # everybody faces hexside 4 (bottom, away from the target above them)
    pl = {u.id: (h, False, 4) for u, h in zip(us[:5], ["1510", "1410", "1610", "1511", "1311"])}
    pl["GL"] = ("1311", False, 4)
    pl["R1"] = "1507"
    g = small_game(us, pl)
    for uid in ("GM", "GA", "GS", "GL"):
        with pytest.raises(IllegalAction) as e:
            fire(g, uid, target="1507")
        assert rule_of(e) == "10.23"
    assert Fire(("GT",), "1507") in g.legal_actions()
    g.units["GM"].facing = 1
    assert Fire(("GM",), "1507") in g.legal_actions()


def test_10_24_every_unit_in_the_target_hex_is_attacked_once():
    g = small_game([inf("G1", "german"), inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
                   {"G1": "1510", "R1": "1507", "R2": "1507", "R3": "1507"})
    script(g, PASS, (6,), (6,), (5,))
    evs = fire(g, "G1", target="1507")
    assert [e["unit"] for e in of(evs, "ap_result")] == ["R1", "R2", "R3"]
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire(("G2",), "1507"))
    assert rule_of(e) == "24.1"


def test_10_3_los_is_the_map_toolkits_down_firer_and_marsh():
    m = make_map(cols=(10, 20), rows=(1, 12), marsh=["1509"])
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": ("1510", True, None), "R1": "1507"},
                   hexmap=m)
    at_phase(g, Phase.SUPPORT_FIRE)  # (the engine skipped a Support Fire Phase with no possible attack)
    assert g.los("1510", "1507", firer_down=True).rule == "10.31c"
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", target="1507")
    assert rule_of(e) == "10.21"
    g.units["G1"].down = False
    assert Fire(("G1",), "1507") in g.legal_actions()


# ---------------------------------------------------------------------------- 11.0, 11.1
def test_11_0_afv_fires_ap_or_at_not_both_in_a_player_turn():
    g = small_game([afv("GT", "german", weapon="PzIIIf", ap=4, at=10), afv("RT", "russian")],
                   {"GT": "1510", "RT": "1507"})
    assert Fire(("GT",), "1507", "AP") in g.legal_actions()
    assert Fire(("GT",), "1507", "AT", target_unit="RT") in g.legal_actions()
    script(g, PASS, (6, 6))
    fire(g, "GT", target="1507")
    with pytest.raises(IllegalAction) as e:
        fire(g, "GT", target="1507", mode="AT", target_unit="RT")
    assert rule_of(e) == "10.11"


def test_11_1_order_attenuation_then_doubling_halving_then_other_reductions():
    # MMG AP 7, range 4, crew 2 of 3, at range 5 into a hex with 2 trees, Intensive Fire:
    # 7 -> 6 (11.2) -> 12 (x2, 11.15) -> 6 (halved, 11.16 d) -> 4 (-2 trees, 11.16 a)
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1505": 2})
    g = small_game([cw("GM", "german", ap=7, rng=4), inf("R1", "russian")], {"GM": "1510", "R1": "1505"}, hexmap=m)
    g.units["GM"].crew = 2
    n = g.terrain.ap_dice("1505", target_down=False, firer_moved=False, afv_cover=False, ip_points=0)
    script(g, PASS, (6,) * n, (3, 3))
    evs = fire(g, "GM", target="1505", intensive=("GM",))
    fp = of(evs, "ap_firepower")[0]
    assert fp["units"] == [{"unit": "GM", "range": 5, "factor": 6}]
    assert (fp["base"], fp["target_hex_reduction"], fp["final"]) == (6, 2, 4)
    # without Intensive Fire: 7 -> 6 -> 3 (halved, rounded down) -> 1
    g2 = small_game([cw("GM", "german", ap=7, rng=4), inf("R1", "russian")], {"GM": "1510", "R1": "1505"},
                    hexmap=m)
    g2.units["GM"].crew = 2
    script(g2, PASS, (6,) * n)
    assert of(fire(g2, "GM", target="1505"), "ap_firepower")[0]["final"] == 1


def test_11_12_afvs_and_atgs_do_not_combine_ap_factors():
    g = small_game([afv("GT", "german", weapon="PzIIIf", ap=4, at=10), inf("G1", "german"),
                    cw("GA", "german", weapon="37AT", ap=2, rng=6, at=9, ma=0), inf("R1", "russian")],
                   {"GT": "1510", "G1": "1510", "GA": "1410", "R1": "1507"})
    for pair in (("G1", "GT"), ("G1", "GA")):
        with pytest.raises(IllegalAction) as e:
            fire(g, *pair, target="1507")
        assert rule_of(e) == "11.12"


def test_11_13_a_same_squad_stacked_combine():
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1510", "R1": "1507"})
    assert Fire(("G1", "G2"), "1507") in g.legal_actions()
    script(g, PASS, PASS, (6,))
    evs = fire(g, "G1", "G2", target="1507")
    assert of(evs, "ap_firepower")[0]["final"] == 8


def test_11_13_b_different_squads_combine_only_with_a_normal_commander():
    us = [inf("G1", "german", squad="A"), inf("G2", "german", squad="B"),
          inf("GC", "german", weapon="PL", ap=3, rng=5, pr=10, commander=True), inf("R1", "russian")]
    g = small_game(us, {"G1": "1510", "G2": "1510", "GC": "1510", "R1": "1507"})
    g.units["GC"].morale = Morale.PINNED
    g.units["GC"].down = True
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", "G2", target="1507")
    assert rule_of(e) == "11.13 b"
    g.units["GC"].morale = Morale.NORMAL
    assert Fire(("G1", "G2", "GC"), "1507") in g.legal_actions()
    script(g, PASS, PASS, (6,))
    evs = fire(g, "G1", "G2", target="1507")  # the commander need not fire himself
    assert of(evs, "ap_firepower")[0]["final"] == 8


def test_11_13_c_group_fire_two_adjacent_hexes_normal_leader_support_and_defensive_only():
    us = [inf("G1", "german", pr=9), inf("G2", "german", pr=8), inf("G3", "german", squad="B"),
          inf("R1", "russian")]
    g = small_game(us, {"G1": "1510", "G2": "1410", "G3": "1410", "R1": "1507"})
    assert Fire(("G1", "G2"), "1507") in g.legal_actions()  # G1 (PR 9) is an acting leader (5.2)
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", "G3", target="1507")  # different squads
    assert rule_of(e) == "11.13 c"
    g.units["G1"].pr = 8  # no leader any more
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", "G2", target="1507")
    assert rule_of(e) == "11.13 c"
    g.units["G1"].pr = 9
    at_phase(g, Phase.MOVING_FIRE)
    with pytest.raises(IllegalAction) as e:
        fire(g, "G1", "G2", target="1507")
    assert rule_of(e) == "11.13 c"
    at_phase(g, Phase.DEFENSIVE_FIRE, "german")
    script(g, PASS, PASS, (6,))
    assert of(fire(g, "G1", "G2", target="1507"), "ap_firepower")[0]["base"] == 8
    # two hexes that are not adjacent never combine
    g2 = small_game(us, {"G1": "1510", "G2": "1310", "G3": "1410", "R1": "1507"})
    with pytest.raises(IllegalAction) as e:
        fire(g2, "G1", "G2", target="1507")
    assert rule_of(e) == "11.13 c"


def test_11_14_mmg_combines_with_stacked_or_adjacent_infantry_and_in_group_fire():
    us = [cw("GM", "german", ap=8, rng=12), inf("G1", "german", pr=9), inf("G2", "german"),
          inf("G3", "german", squad="B"), inf("R1", "russian")]
    g = small_game(us, {"GM": "1510", "G1": "1410", "G2": "1510", "G3": "1410", "R1": "1507"})
    acts = g.legal_actions()
    assert Fire(("G2", "GM"), "1507") in acts  # stacked
    # MG assisted fire from two adjacent hexes, also in the Moving Fire Phase
    at_phase(g, Phase.MOVING_FIRE)
    script(g, PASS, PASS, (6,))
    assert of(fire(g, "G3", "GM", target="1507"), "ap_firepower")[0]["base"] == 12
    # group fire with the MMG in one of the two hexes (Support Fire)
    g2 = small_game(us, {"GM": "1510", "G1": "1410", "G2": "1510", "G3": "1410", "R1": "1507"})
    script(g2, PASS, PASS, PASS, (6,))
    assert of(fire(g2, "G1", "G2", "GM", target="1507"), "ap_firepower")[0]["base"] == 16
    with pytest.raises(IllegalAction):
        fire(g2, "G3", "G1", target="1507")  # G1 fired already


def test_11_15_intensive_fire_doubles_and_the_table_is_rolled_after_the_attack():
    g = small_game([cw("GM", "german", ap=8, rng=12), inf("R1", "russian")], {"GM": "1510", "R1": "1507"})
    script(g, PASS, (6,), (3, 4))  # 7: Weapon Broken
    evs = fire(g, "GM", target="1507", intensive=("GM",))
    assert of(evs, "ap_firepower")[0]["final"] == 16
    kinds = [e["kind"] for e in evs if e["kind"] in ("ap_result", "intensive_fire")]
    assert kinds == ["ap_result", "intensive_fire"]
    assert g.units["GM"].mg_broken
    g.units["GM"].reset_player_turn()
    g.state.player_turn += 5
    assert g._ineligibility(g.units["GM"])[0] == "11.15"
    # jammed: out this Player Turn and the next
    g2 = small_game([cw("GM", "german", ap=8, rng=12), inf("R1", "russian")], {"GM": "1510", "R1": "1507"})
    script(g2, PASS, (6,), (1, 1))
    fire(g2, "GM", target="1507", intensive=("GM",))
    m = g2.units["GM"]
    m.reset_player_turn()
    g2.state.player_turn += 1
    assert g2._ineligibility(m)[0] == "11.15"
    g2.state.player_turn += 1
    assert g2._ineligibility(m) is None
    # only MGs use Intensive Fire, and a MG that failed its PC did not use it (no table roll)
    g3 = small_game([cw("GM", "german", ap=8, rng=12), inf("G1", "german"), inf("R1", "russian")],
                    {"GM": "1510", "G1": "1510", "R1": "1507"})
    with pytest.raises(IllegalAction) as e:
        fire(g3, "G1", target="1507", intensive=("G1",))
    assert rule_of(e) == "11.15"
    script(g3, PASS, FAIL, (6,))
    evs = fire(g3, "G1", "GM", target="1507", intensive=("GM",))
    assert not of(evs, "intensive_fire") and not g3.dice.script


def test_11_16_worked_example_two_hexes_reductions():
    # hex A (1205): 12 AP through a hex with 1 Tree (1405); hex B (1206): 10 AP through a hex with
    # 3 Trees (1406); target 1505 on a higher level with 2 Trees. 22 - 7 = 15.
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1505": 2, "1405": 1, "1406": 3}, levels={"1505": 1})
    us = [inf("A1", "german", pr=9), inf("A2", "german"), inf("A3", "german"),
          inf("B1", "german"), inf("B2", "german", weapon="LMG", ap=6), inf("R1", "russian")]
    g = small_game(us, {"A1": "1205", "A2": "1205", "A3": "1205", "B1": "1206", "B2": ("1206", False, 2), "R1": "1505"},
                   hexmap=m)
    assert g.los("1205", "1505").trees_afvs_wrecks == 1
    assert g.los("1206", "1505").trees_afvs_wrecks == 3
    n = g.terrain.ap_dice("1505", target_down=False, firer_moved=False, afv_cover=False, ip_points=0)
    script(g, *([PASS] * 5), (6,) * n)
    evs = fire(g, "A1", "A2", "A3", "B1", "B2", target="1505")
    fp = of(evs, "ap_firepower")[0]
    assert (fp["base"], fp["target_hex_reduction"], fp["los_reduction"], fp["higher"], fp["final"]) == (
        22, 2, 4, True, 15)  # 11.16 c: minus one only, although both hexes are lower
    assert of(evs, "ap_result")[0]["levels"] == [15, 8, 4]


def test_11_16_b_reductions_per_firing_hex_los_and_a_afvs_wrecks_in_the_target_hex():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1508": 1})
    us = [inf("G1", "german"), cw("GM", "german", ap=8, rng=12), inf("R1", "russian"), afv("RT", "russian")]
    g = small_game(us, {"G1": "1510", "GM": "1410", "R1": "1507", "RT": "1507"}, hexmap=m)
    g.state.wrecks["1507"] = 1
    script(g, PASS, PASS, (6, 6), (6, 6))
    fp = of(fire(g, "G1", "GM", target="1507"), "ap_firepower")[0]
    assert fp["los_reduction"] == g.los("1510", "1507").trees_afvs_wrecks + g.los("1410", "1507").trees_afvs_wrecks
    assert fp["target_hex_reduction"] == 2  # one AFV and one Wreck in the target hex
    assert fp["final"] == 12 - 2 - fp["los_reduction"]


def test_11_22_range_attenuation_through_the_engine():
    g = small_game([inf("G1", "german", ap=4, rng=7), inf("R1", "russian")], {"G1": "1512", "R1": "1504"})
    script(g, PASS, (6,))
    fp = of(fire(g, "G1", target="1504"), "ap_firepower")[0]
    assert fp["units"][0]["range"] == 8 and fp["final"] == 3


def test_11_32_example_down_unit_in_marsh_two_firers_one_moved_four_dice():
    m = make_map(cols=(10, 20), rows=(1, 12), marsh=["1507"])
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1510", "R1": ("1507", True, None)}, hexmap=m)
    at_phase(g, Phase.MOVING_FIRE)
    g.units["G2"].moved = True
    script(g, PASS, PASS, (6, 6, 6, 6))
    evs = fire(g, "G1", "G2", target="1507")
    assert len(of(evs, "ap_result")[0]["dice"]) == 4
    assert not g.dice.script


def test_11_33_afv_and_wreck_cover_for_infantry_not_for_cws():
    us = [inf("G1", "german"), inf("R1", "russian"), cw("RM", "russian"), afv("RT", "russian")]
    g = small_game(us, {"G1": "1510", "R1": "1507", "RM": "1507", "RT": "1507"})
    g.units["RT"].moved = True  # a moved AFV gives no cover (11.33 a) ...
    assert not g._afv_cover(g.units["R1"])
    g.units["R1"].moved_with_afv = "RT"  # ... unless the infantry moved with it (11.33 b)
    assert g._afv_cover(g.units["R1"])
    g.units["RT"].moved = False
    g.units["R1"].moved_with_afv = None
    script(g, PASS, (6, 6), (6,), (6, 6))  # R1: 2 dice (cover), RM: 1 (CWs get none), RT: 2 (11.34)
    evs = fire(g, "G1", target="1507")
    assert {e["unit"]: len(e["dice"]) for e in of(evs, "ap_result")} == {"R1": 2, "RM": 1, "RT": 2}
    g2 = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1510", "R1": "1507"})
    g2.state.wrecks["1507"] = 1  # wrecks never move
    assert g2._afv_cover(g2.units["R1"])


def test_11_34_ap_fire_against_afvs_dice_pinned_no_effect_e_kills_the_commander():
    g = small_game([inf("G1", "german"), inf("G2", "german", squad="B"), afv("RT", "russian")],
                   {"G1": "1510", "G2": "1410", "RT": "1507"})
    script(g, PASS, (4, 4))  # firepower 4-1 (AFV in hex) = 3: 8 no effect
    evs = fire(g, "G1", target="1507")
    assert len(of(evs, "ap_result")[0]["dice"]) == 2  # UP: two dice
    t = g.units["RT"]
    t.down = True
    at_phase(g, Phase.MOVING_FIRE)
    g.units["G2"].moved = True
    script(g, PASS, (1, 1, 1, 2, 6))  # DOWN: 4 dice, +1 moved = 5
    evs = fire(g, "G2", target="1507")
    assert len(of(evs, "ap_result")[0]["dice"]) == 5
    # Pinned has no effect on an AFV; E = suppressed and DOWN for the rest of the game
    g._apply_ap_result(t, g_ap("P"), "11.43")
    assert t.morale is Morale.NORMAL
    g._apply_ap_result(t, g_ap("E"), "11.43")
    assert t.commander_killed and t.morale is Morale.SUPPRESSED and t.down


def g_ap(v):
    from core.ironcross.combat_tables import ApResult
    return ApResult(v)


# ---------------------------------------------------------------------------- 11.4 results
def test_11_41_each_unit_separately_dice_by_its_state():
    g = small_game([inf("G1", "german"), inf("R1", "russian"), inf("R2", "russian")],
                   {"G1": "1510", "R1": "1507", "R2": ("1507", True, None)})
    script(g, PASS, (6,), (6, 6))
    evs = fire(g, "G1", target="1507")
    assert [len(e["dice"]) for e in of(evs, "ap_result")] == [1, 2]


def test_11_42_11_43_example_firepower_8_roll_5_pinned_through_the_engine():
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1510", "R1": "1507"})
    script(g, PASS, PASS, (5,))
    evs = fire(g, "G1", "G2", target="1507")
    r = of(evs, "ap_result")[0]
    assert r["levels"] == [8, 4, 2] and r["result"] == "P"
    assert g.units["R1"].morale is Morale.PINNED and g.units["R1"].down  # 11.43, 3.25
    # S and E
    g2 = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian"), inf("R2", "russian")],
                    {"G1": "1510", "G2": "1510", "R1": "1507", "R2": "1507"})
    script(g2, PASS, PASS, (4,), (1,))
    fire(g2, "G1", "G2", target="1507")
    assert g2.units["R1"].morale is Morale.SUPPRESSED and g2.units["R1"].down
    assert g2.units["R2"].eliminated and g2.units["R2"].hex is None


def test_11_43_cw_eliminated_result_crew_rolls_8_or_less():
    g = small_game([inf("G1", "german"), inf("G2", "german"), cw("RM", "russian", crew=3)],
                   {"G1": "1510", "G2": "1510", "RM": "1507"})
    script(g, PASS, PASS, (1,), (4, 4), (4, 5), (2, 3))  # E; crew: 8 killed, 9 survives, 5 killed
    evs = fire(g, "G1", "G2", target="1507")
    m = g.units["RM"]
    assert of(evs, "crew_losses")[0]["lost"] == 2 and m.crew == 1
    assert m.morale is Morale.SUPPRESSED and m.down and not m.eliminated
    g2 = small_game([inf("G1", "german"), inf("G2", "german"), cw("RM", "russian", crew=2)],
                    {"G1": "1510", "G2": "1510", "RM": "1507"})
    script(g2, PASS, PASS, (1,), (1, 2), (3, 5))
    fire(g2, "G1", "G2", target="1507")
    assert g2.units["RM"].eliminated


def test_11_44_all_ones_eliminate_regardless_of_firepower():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1507": 3})
    g = small_game([inf("G1", "german", ap=1), inf("R1", "russian")], {"G1": "1510", "R1": "1507"}, hexmap=m)
    n = g.terrain.ap_dice("1507", target_down=False, firer_moved=False, afv_cover=False, ip_points=0)
    script(g, PASS, (1,) * n)
    evs = fire(g, "G1", target="1507")
    r = of(evs, "ap_result")[0]
    assert r["firepower"] <= 0 and r["rule"] == "11.44" and g.units["R1"].eliminated


def test_11_45_cumulative_table_and_special_roll():
    g = small_game([inf("G1", "german"), inf("G2", "german", squad="B", ap=8), inf("G3", "german", squad="C"),
                    inf("R1", "russian", pr=7)], {"G1": "1510", "G2": "1410", "G3": "1610", "R1": "1507"})
    r1 = g.units["R1"]
    r1.morale, r1.down = Morale.PINNED, True
    script(g, PASS, (4, 4))  # DOWN: 2 dice; 8 > 4: no effect
    fire(g, "G1", target="1507")
    assert r1.morale is Morale.PINNED
    g._apply_ap_result(r1, g_ap("P"), "11.43")  # P + P = S
    assert r1.morale is Morale.SUPPRESSED
    g._apply_ap_result(r1, g_ap("P"), "11.43")  # S + P = S
    assert r1.morale is Morale.SUPPRESSED
    script(g, (3, 4))  # S + S: special roll, PC 7 <= 7 passes: stays SUPPRESSED
    g._apply_ap_result(r1, g_ap("S"), "11.43")
    assert r1.morale is Morale.SUPPRESSED and not r1.eliminated
    script(g, PASS, (1, 2), (4, 4))  # S result (3 vs 8/4/2) through the engine; special roll 8 > 7: eliminated
    evs = fire(g, "G2", target="1507")
    assert of(evs, "special_roll")[0]["passed"] is False and r1.eliminated
    assert not g.dice.script


def test_3_25_units_pinned_or_suppressed_go_down():
    g = small_game([inf("G1", "german"), afv("RT", "russian"), cw("RM", "russian")],
                   {"G1": "1510", "RT": "1507", "RM": "1507"})
    for u in (g.units["RT"], g.units["RM"]):
        assert not u.down
    g._apply_ap_result(g.units["RM"], g_ap("P"), "11.43")
    g._apply_ap_result(g.units["RT"], g_ap("S"), "11.43")
    assert g.units["RM"].down and g.units["RT"].down


def test_8_22_first_shot_is_the_first_combat_roll_not_a_pc():
    g = small_game([inf("G1", "german"), inf("G2", "german", squad="B"), inf("R1", "russian")],
                   {"G1": "1510", "G2": "1410", "R1": "1507"})
    script(g, FAIL)
    fire(g, "G1", target="1507")
    assert not g.state.first_shot and g.state.movement_pcs_from_player_turn is None
    script(g, PASS, (6,))
    evs = fire(g, "G2", target="1507")
    assert g.state.first_shot and g.state.movement_pcs_from_player_turn == g.state.player_turn + 1
    assert len(of(evs, "first_shot")) == 1


def test_fire_actions_listed_are_all_legal_and_illegal_ones_change_nothing():
    us = [cw("GM", "german"), inf("G1", "german", pr=9), inf("G2", "german"), inf("G3", "german", squad="B"),
          inf("GC", "german", weapon="PL", ap=3, rng=5, pr=10, commander=True),
          afv("GT", "german", weapon="PzIIIf", ap=4, at=10), inf("R1", "russian"), afv("RT", "russian")]
    g = small_game(us, {"GM": "1510", "G1": "1410", "G2": "1510", "G3": "1410", "GC": "1410", "GT": "1611",
                        "R1": "1507", "RT": "1506"})
    acts = [a for a in g.legal_actions() if isinstance(a, Fire)]
    assert len(acts) > 10
    for a in acts:
        assert g._fire_problem(a, "german") is None, a
    before = g.state.snapshot()
    n = len(g.events)
    with pytest.raises(IllegalAction):
        g.apply(Fire(("G1", "GT"), "1507"))
    assert g.state.snapshot() == before and len(g.events) == n


# ---------------------------------------------------------------------------- 8.72 / 8.73 turn and fire
def _turn(g, uid, hexside):
    """Change ``uid``'s facing in its hex (8.71: a move with its PC; none before the first shot)."""
    from core.ironcross.actions import Face, StartMove, StopMove
    g.apply(StartMove((uid,)))
    g.apply(Face(hexside))
    g.apply(StopMove())


def test_8_73_10_13_mg_that_only_changed_facing_in_the_movement_phase_fires_in_moving_fire():
    from tests.core.engine_helpers import advance_to
    g = small_game([cw("GM", "german"), cw("GN", "german"), inf("R1", "russian")],
                   {"GM": ("1505", False, 1), "GN": ("1405", False, 1), "R1": "1508"})
    advance_to(g, Phase.MOVEMENT)
    _turn(g, "GM", 4)  # 1508 is now in its frontal area
    from core.ironcross.actions import Pass, StartMove, Step, StopMove
    g.apply(StartMove(("GN",)))
    g.apply(Step("1406"))  # moved to another hex: no exception
    if g.window is not None:
        g.apply(Pass())  # no opportunity fire
    g.apply(StopMove())
    advance_to(g, Phase.MOVING_FIRE)
    gm = g.units["GM"]
    assert gm.moved and gm.changed_facing_only
    assert Fire(("GM",), "1508") in g.legal_actions()
    assert not any(isinstance(a, Fire) and "GN" in a.firers for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        fire(g, "GN", target="1508")
    assert rule_of(e) == "10.13"
    # 8.71 "considered to have moved for all purposes": the 11.32 extra die (clear, UP: 1 + 1)
    script(g, PASS, (6, 6))
    evs = fire(g, "GM", target="1508")
    assert of(evs, "pc")[0]["passed"] and len(of(evs, "ap_result")[0]["dice"]) == 2


def test_8_72_10_13_atg_that_only_changed_facing_fires_in_moving_fire_with_three_at_dice():
    from tests.core.engine_helpers import advance_to
    g = small_game([cw("GA", "german", weapon="37AT", ap=2, rng=6, at=9, crew=3, ma=0), afv("RT", "russian")],
                   {"GA": ("1505", False, 1), "RT": "1508"})
    advance_to(g, Phase.MOVEMENT)
    _turn(g, "GA", 4)
    advance_to(g, Phase.MOVING_FIRE)
    assert Fire(("GA",), "1508", "AT", target_unit="RT") in g.legal_actions()
    script(g, PASS, (6, 6, 6))
    evs = fire(g, "GA", target="1508", mode="AT", target_unit="RT")
    assert len(of(evs, "at_result")[0]["dice"]) == 3  # 12.2: it moved (8.71)


def test_8_73_10_13_a_failed_movement_pc_is_not_a_facing_change():
    # the reading: the exception covers a facing change made; a failed PC (StartMove does not say
    # whether the MG meant to turn or to leave) is a move (4.0) and 10.13 still bars the CW
    from tests.core.engine_helpers import advance_to
    g = small_game([cw("GM", "german", pr=7), inf("G2", "german"), inf("R1", "russian")],
                   {"GM": ("1505", False, 4), "G2": "1405", "R1": "1508"})
    advance_to(g, Phase.MOVEMENT)
    g.state.first_shot = True
    g.state.movement_pcs_from_player_turn = 0
    from core.ironcross.actions import StartMove
    script(g, FAIL)
    g.apply(StartMove(("GM",)))
    advance_to(g, Phase.MOVING_FIRE, player_turn=1)
    assert g.units["GM"].moved and not g.units["GM"].changed_facing_only
    with pytest.raises(IllegalAction) as e:
        fire(g, "GM", target="1508")
    assert rule_of(e) == "10.13"


def test_8_73_8_72_10_13_mg_and_atg_that_turned_in_reaction_movement_fire_in_defensive_fire():
    from tests.core.engine_helpers import advance_to
    g = small_game([cw("RM", "russian"), cw("RG", "russian", weapon="45AT", ap=2, rng=6, at=8, crew=3),
                    cw("RN", "russian"), inf("G1", "german"), afv("GT", "german")],
                   {"RM": ("1508", False, 1), "RG": ("1608", False, 1), "RN": ("1408", False, 1),
                    "G1": "1511", "GT": "1611"})
    advance_to(g, Phase.REACTION_MOVEMENT)
    _turn(g, "RM", 4)
    _turn(g, "RG", 4)
    from core.ironcross.actions import StartMove, Step, StopMove
    g.apply(StartMove(("RN",)))
    g.apply(Step("1409"))  # a reaction move to another hex
    g.apply(StopMove())
    advance_to(g, Phase.DEFENSIVE_FIRE)
    acts = g.legal_actions()
    assert Fire(("RM",), "1511") in acts and Fire(("RG",), "1611", "AT", target_unit="GT") in acts
    assert not any(isinstance(a, Fire) and "RN" in a.firers for a in acts)
    with pytest.raises(IllegalAction) as e:
        fire(g, "RN", target="1511")
    assert rule_of(e) == "10.13"
    script(g, PASS, (6, 6), PASS, (6, 6, 6))
    assert len(of(fire(g, "RM", target="1511"), "ap_result")[0]["dice"]) == 2  # 11.32: it moved
    assert len(of(fire(g, "RG", target="1611", mode="AT", target_unit="GT"), "at_result")[0]["dice"]) == 3  # 12.2
