"""Movement (8.0-8.75): allowances, restrictions, leaders, AFV stacks, terrain, stacking, facing."""

from __future__ import annotations

import pytest

from core.ironcross.actions import (
    EndPhase, Face, Fire, Halt, IllegalAction, PushWreck, StartMove, Step, StopMove, ToggleState)
from core.ironcross.state import Morale, Phase
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.engine_helpers import advance_to, events
from tests.mapbuilder import make_map


def moving_game(units, placements, *, pcs=False, phase=Phase.MOVEMENT, **kw):
    g = small_game(units, placements, **kw)
    advance_to(g, phase)
    if pcs:
        g.state.first_shot = True  # 8.22: the first shot has been fired
        g.state.movement_pcs_from_player_turn = 0
    return g


def starts(g):
    return [a for a in g.legal_actions() if isinstance(a, StartMove)]


# ---------------------------------------------------------------- 8.0 order
def test_8_0_movement_order_afvs_alone_then_afv_infantry_stacks_then_the_rest():
    g = moving_game([afv("GT", "german"), afv("GU", "german"), inf("G1", "german"), inf("G2", "german"),
                     inf("G3", "german"), inf("R1", "russian")],
                    {"GT": "1505", "GU": "1510", "G1": "1505", "G2": "1505", "G3": "1508", "R1": "2012"})
    assert StartMove(("GU",)) in starts(g) and StartMove(("GT", "G1", "G2")) in starts(g)
    g.apply(StartMove(("GT", "G1", "G2")))  # second stage begun
    g.apply(StopMove())
    assert StartMove(("GU",)) not in starts(g)
    with pytest.raises(IllegalAction) as e:
        g.apply(StartMove(("GU",)))
    assert e.value.rule == "8.0"
    g.apply(StartMove(("G3",)))  # third stage
    assert not any(any(g.units[u].is_afv for u in a.units) for a in starts(g))


# ---------------------------------------------------------------- 8.1 allowances
def test_8_11_infantry_six_three_pinned_three_and_one_hex():
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "2012"})
    u = g.units["G1"]
    assert g._allowance(u, False) == (6, False) and g._allowance(u, True) == (3, False)
    u.morale = Morale.PINNED
    assert g._allowance(u, False) == (3, False) and g._allowance(u, True) == (0, True)
    g.apply(StartMove(("G1",)))
    assert g.moving.mp["G1"] == 3


def test_8_12_cw_counter_ma_one_hex_in_reaction_never_without_full_crew_or_ma_0():
    g = moving_game([cw("GM", "german", ma=3), cw("GA", "german", weapon="37AT", ma=0), inf("R1", "russian")],
                    {"GM": "1505", "GA": "1508", "R1": "2012"})
    m = g.units["GM"]
    assert g._allowance(m, False) == (3, False) and g._allowance(m, True) == (0, True)
    m.morale = Morale.PINNED
    assert g._allowance(m, False) == (0, True) and g._allowance(m, True) == (0, False)
    m.morale = Morale.NORMAL
    m.crew = 2
    assert g._allowance(m, False) == (0, False)
    assert g._allowance(g.units["GA"], False) == (0, False)


def test_8_12_one_hex_regardless_of_terrain_costs():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1506": 3})
    g = moving_game([cw("GM", "german", ma=3), inf("R1", "russian")], {"GM": "1505", "R1": "2012"}, hexmap=m)
    g.units["GM"].morale = Morale.PINNED
    g.units["GM"].down = True
    g.apply(StartMove(("GM",)))
    g.apply(Step("1506"))
    assert g.units["GM"].hex == "1506" and not any(isinstance(a, Step) for a in g.legal_actions())


def test_8_13_afv_ten_and_five_bt7m_twelve_and_six():
    g = moving_game([afv("GT", "german"), afv("RB", "russian", weapon="BT7M")], {"GT": "1505", "RB": "2012"})
    assert g._allowance(g.units["GT"], False) == (10, False) and g._allowance(g.units["GT"], True) == (5, False)
    assert g._allowance(g.units["RB"], False) == (12, False) and g._allowance(g.units["RB"], True) == (6, False)


def test_8_14_flamethrower_four_two_pinned_one_hex_then_none():
    g = moving_game([inf("GF", "german", weapon="FT"), inf("R1", "russian")], {"GF": "1505", "R1": "2012"})
    u = g.units["GF"]
    assert g._allowance(u, False) == (4, False) and g._allowance(u, True) == (2, False)
    u.morale = Morale.PINNED
    assert g._allowance(u, False) == (0, True) and g._allowance(u, True) == (0, False)


def test_8_15_suppressed_units_of_any_type_may_not_move():
    g = moving_game([inf("G1", "german"), afv("GT", "german"), inf("R1", "russian")],
                    {"G1": "1505", "GT": "1508", "R1": "2012"})
    for uid in ("G1", "GT"):
        g.units[uid].morale = Morale.SUPPRESSED
        g.units[uid].down = True
    assert starts(g) == []


def test_8_16_up_down_changes_costs_not_allowance():
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": ("1505", True, None), "R1": "2012"})
    g.apply(StartMove(("G1",)))
    assert g.moving.mp["G1"] == 6
    g.apply(Step("1506"))
    assert g.moving.mp["G1"] == 4  # clear DOWN: 2 MP (8.51)


# ---------------------------------------------------------------- 8.2
def test_8_21_units_that_fired_in_support_fire_may_not_move():
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1505", "G2": "1506", "R1": "1508"}, script=[(6, 6)])
    g.apply(Fire(("G1",), "1508"))
    advance_to(g, Phase.MOVEMENT)
    assert StartMove(("G1",)) not in starts(g) and StartMove(("G2",)) in starts(g)
    with pytest.raises(IllegalAction) as e:
        g.apply(StartMove(("G1",)))
    assert e.value.rule == "8.21"


def test_8_22_pc_for_each_move_attempt_attempted_counts_as_performed():
    g = moving_game([inf("G1", "german", pr=7), inf("R1", "russian")], {"G1": "1505", "R1": "2012"}, pcs=True,
                    script=[(5, 3)])
    g.apply(StartMove(("G1",)))
    pc = events(g, "pc")[-1]
    assert pc["rule"] == "8.22" and not pc["passed"]
    assert g.units["G1"].moved and g.moving is None and StartMove(("G1",)) not in starts(g)


def test_8_22_first_shot_exception_no_pc_until_the_first_shot_then_from_next_phasing_player():
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "2012"})
    n = len(g.dice.rolls)
    g.apply(StartMove(("G1",)))
    assert len(g.dice.rolls) == n and g.moving is not None  # no PC yet
    g.apply(StopMove())
    g._note_first_shot()
    assert g._exempt_from_movement_pc()  # the rest of this Player Turn: still none
    g.state.player_turn += 1
    assert not g._exempt_from_movement_pc()  # the next Phasing Player takes them


def test_8_23_only_overrunning_afvs_enter_enemy_hexes_wrecks_are_not_enemies():
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1506"})
    g.state.wrecks["1504"] = 1
    g.apply(StartMove(("G1",)))
    with pytest.raises(IllegalAction) as e:
        g.apply(Step("1506"))
    assert e.value.rule == "8.23"
    g.apply(Step("1504"))  # infantry may enter a wreck hex
    assert g.units["G1"].hex == "1504"


# ---------------------------------------------------------------- 8.3 leaders
def _example_game(script=()):
    units = [inf("C", "german", weapon="PL", pr=10, commander=True), inf("I1", "german", pr=6),
             inf("I2", "german", pr=6), inf("I3", "german", pr=6),
             cw("ATR", "german", weapon="ATR", ap=0, at=4, rng=4, crew=2, ma=3, pr=6), inf("R1", "russian")]
    pl = {"C": "1505", "I1": "1505", "I2": "1505", "I3": "1505", "ATR": "1505", "R1": "2012"}
    return moving_game(units, pl, pcs=True, script=list(script))


def test_8_3_worked_example_leader_pc_7_passes_6_plus_2_passes_9_plus_2_fails_one_left_alone():
    g = _example_game(script=[(3, 4), (3, 3), (4, 5)])
    g.apply(StartMove(("C", "I1"), leader="C"))  # 8.32: only some units go with him
    assert events(g, "pc")[-1]["total"] == 7 and events(g, "pc")[-1]["passed"]
    g.apply(Step("1504"))
    assert g.units["C"].hex == g.units["I1"].hex == "1504"
    g.apply(StopMove())
    g.apply(StartMove(("I2",), directed_by="C"))  # 8.3 C: modified PC with the leader's PR
    pc = events(g, "pc")[-1]
    assert (pc["total"], pc["modifier"], pc["pr"], pc["passed"]) == (6, 2, 10, True)
    assert g.moving.mp["I2"] == 4  # 8.3 C: allowance reduced to 4
    g.apply(Step("1506"))
    g.apply(StopMove())
    g.apply(StartMove(("ATR",), directed_by="C"))
    pc = events(g, "pc")[-1]
    assert (pc["total"] + pc["modifier"], pc["passed"]) == (11, False)
    assert g.units["ATR"].hex == "1505" and g.units["ATR"].moved and g.moving is None
    assert not g.units["I3"].moved and g.units["I3"].hex == "1505"  # unaffected


def test_8_3_worked_example_casualty_leader_keeps_his_pr_usable_for_the_others():
    g = _example_game(script=[(3, 4), (3, 3), (1,), (6,), (3, 3)])
    g.units["R1"].hex = "1503"  # adjacent to 1504, within 3 hexes (13.2)
    g.apply(StartMove(("C", "I1"), leader="C"))
    g.apply(Step("1504"))
    # the Russian opportunity-fires: PC 6+1 <= 8, C rolls 1 (eliminated), I1 rolls 6
    assert g.current_side() == "russian"
    g.apply(Fire(("R1",), "1504"))
    assert g.units["C"].eliminated and not g.units["I1"].eliminated
    assert g.moving is not None and g.moving.units == ["I1"] and g.moving.leader is None  # 8.33
    g.apply(Step("1604"))
    g.apply(StopMove())
    g.apply(StartMove(("I2",), directed_by="C"))
    pc = events(g, "pc")[-1]
    assert pc["pr"] == 10 and pc["passed"]


def test_8_3_a_failed_leader_pc_no_unit_in_the_hex_moves_all_considered_moved():
    g = _example_game(script=[(6, 6)])
    g.apply(StartMove(("C", "I1"), leader="C"))
    assert all(g.units[u].moved for u in ("C", "I1", "I2", "I3", "ATR")) and g.moving is None
    assert starts(g) == []


def test_8_3_b_led_units_take_no_pc():
    g = _example_game(script=[(2, 2)])
    g.apply(StartMove(("C", "I1", "I2"), leader="C"))
    assert len(events(g, "pc")) == 1 and g.moving.units == ["C", "I1", "I2"]


def test_8_31_acting_leader_leads_own_squad_plus_one_cw_and_normal_units_only():
    g = moving_game([inf("A9", "german", squad="A", pr=9), inf("A1", "german", squad="A"),
                     inf("B1", "german", squad="B"), cw("GM", "german"), inf("R1", "russian")],
                    {"A9": "1505", "A1": "1505", "B1": "1505", "GM": "1505", "R1": "2012"})
    assert StartMove(("A9", "A1", "GM"), leader="A9") in starts(g)
    with pytest.raises(IllegalAction) as e:
        g.apply(StartMove(("A9", "B1"), leader="A9"))
    assert e.value.rule == "8.31"


def test_8_34_a_unit_has_only_one_leader_take_the_pc_for_it():
    g = _example_game(script=[(3, 4), (6, 6)])
    g.apply(StartMove(("C",), leader="C"))
    g.apply(StopMove())  # 8.3 C: the leader stays
    g.apply(StartMove(("I2",), directed_by="C"))  # fails
    with pytest.raises(IllegalAction):
        g.apply(StartMove(("I2",), directed_by="C"))


# ---------------------------------------------------------------- 8.4 AFV/infantry
def test_8_41_regular_pc_for_each_infantry_unit_to_accompany_the_afv():
    g = moving_game([afv("GT", "german"), inf("G1", "german", pr=7), inf("G2", "german", pr=7),
                     inf("R1", "russian")], {"GT": "1505", "G1": "1505", "G2": "1505", "R1": "2012"},
                    pcs=True, script=[(2, 2), (3, 3), (6, 6)])
    g.apply(StartMove(("GT", "G1", "G2")))
    assert [e["rule"] for e in events(g, "pc")] == ["8.22", "8.41", "8.41"]
    assert g.moving.units == ["GT", "G1"] and g.units["G2"].moved


def test_8_42_leader_directed_with_the_afv():
    g = moving_game([afv("GT", "german"), inf("C", "german", weapon="PL", pr=10, commander=True),
                     inf("G1", "german"), inf("R1", "russian")],
                    {"GT": "1505", "C": "1505", "G1": "1505", "R1": "2012"}, pcs=True, script=[(2, 2), (3, 3)])
    g.apply(StartMove(("GT", "C", "G1"), leader="C"))
    assert [e["rule"] for e in events(g, "pc")] == ["8.22", "8.42"] and g.moving.units == ["GT", "C", "G1"]


def test_8_43_infantry_stop_when_out_of_mp_and_may_halt_the_afv_goes_on():
    g = moving_game([afv("GT", "german"), inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                    {"GT": "1501", "G1": "1501", "G2": "1501", "R1": "2012"})
    g.apply(StartMove(("GT", "G1", "G2")))
    g.apply(Halt(("G2",)))
    assert g.moving.units == ["GT", "G1"]
    for h in ("1502", "1503", "1504", "1505", "1506", "1507", "1508"):
        g.apply(Step(h))
    assert g.units["G1"].hex == "1507" and g.units["GT"].hex == "1508" and g.moving.units == ["GT"]
    assert g.units["G2"].hex == "1501"


def test_8_43_when_the_afv_stops_the_infantry_stop():
    g = moving_game([afv("GT", "german"), inf("G1", "german"), inf("R1", "russian")],
                    {"GT": "1501", "G1": "1501", "R1": "2012"})
    g.apply(StartMove(("GT", "G1")))
    g.apply(Step("1502"))
    g.apply(StopMove())
    assert g.moving is None and g.units["G1"].hex == "1502"


def test_8_44_cw_units_may_not_move_with_afvs():
    g = moving_game([afv("GT", "german"), cw("GM", "german"), inf("R1", "russian")],
                    {"GT": "1505", "GM": "1505", "R1": "2012"})
    with pytest.raises(IllegalAction) as e:
        g.apply(StartMove(("GT", "GM")))
    assert e.value.rule == "8.44"


# ---------------------------------------------------------------- 8.5 terrain
def test_8_51_costs_from_the_chart_by_up_down():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1506": 2})
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "2012"}, hexmap=m)
    u = g.units["G1"]
    assert g._step_cost(u, "1505", "1504") == 1
    u.down = True
    assert g._step_cost(u, "1505", "1504") == 2
    assert g._step_cost(u, "1505", "1506") == g.terrain.chart.move_cost("woods", "infantry", True, 2) or \
        g._step_cost(u, "1505", "1506") == g.terrain.move_cost("1505", "1506", "infantry", True, False)


def test_8_52_road_rate_only_normal_up_units_along_the_road():
    m = make_map(cols=(10, 20), rows=(1, 12), roads=[["1502", "1503", "1504"]])
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1502", "R1": "2012"}, hexmap=m)
    u = g.units["G1"]
    assert g._step_cost(u, "1502", "1503") == 0.5
    assert g._step_cost(u, "1502", "1602") == 1  # not along the road
    u.down = True
    assert g._step_cost(u, "1502", "1503") == 2  # DOWN
    u.down, u.morale = False, Morale.PINNED
    assert g._step_cost(u, "1502", "1503") == 1  # not NORMAL


def test_8_53_uphill_costs_one_more_mp():
    m = make_map(cols=(10, 20), rows=(1, 12), levels={"1506": 1})
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "2012"}, hexmap=m)
    u = g.units["G1"]
    up = g._step_cost(u, "1505", "1506")
    u.hex = "1506"
    assert up == g._step_cost(u, "1506", "1505") + 1 + (up - 1 - g._step_cost(u, "1506", "1505"))
    assert g.terrain.chart.uphill_mp(0, 1) == 1 and g.terrain.chart.uphill_mp(1, 0) == 0


def test_8_54_woods_immobilisation_roll_le_trees():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1506": 2, "1507": 2})
    g = moving_game([afv("GT", "german"), inf("R1", "russian")], {"GT": "1505", "R1": "2012"}, hexmap=m,
                    script=[(2, 1), (1, 1)])
    g.apply(StartMove(("GT",)))
    g.apply(Step("1506"))
    assert not g.units["GT"].immobilized  # 3 > 2 trees
    g.apply(Step("1507"))
    assert g.units["GT"].immobilized and g.moving.mp["GT"] == 0
    assert [type(a) for a in g.legal_actions()] == [StopMove]  # no move, no facing change
    g.apply(StopMove())
    assert StartMove(("GT",)) not in starts(g)


def test_8_55_marsh_immobilisation_roll_le_4():
    m = make_map(cols=(10, 20), rows=(1, 12), marsh=["1506", "1507"])
    g = moving_game([afv("GT", "german"), inf("R1", "russian")], {"GT": "1505", "R1": "2012"}, hexmap=m,
                    script=[(3, 2), (2, 2)])
    g.apply(StartMove(("GT",)))
    g.apply(Step("1506"))
    assert not g.units["GT"].immobilized
    g.apply(Step("1507"))
    assert g.units["GT"].immobilized


# ---------------------------------------------------------------- 8.6 stacking
def test_8_61_afv_may_not_enter_a_hex_with_another_afv_or_a_wreck_infantry_move_through():
    g = moving_game([afv("GT", "german"), afv("GU", "german"), inf("G1", "german"), inf("R1", "russian")],
                    {"GT": "1505", "GU": "1506", "G1": "1504", "R1": "2012"})
    g.state.wrecks["1604"] = 1
    g.apply(StartMove(("GT",)))
    for h, rule in (("1506", "8.61"), ("1604", "12.4")):
        with pytest.raises(IllegalAction) as e:
            g.apply(Step(h))
        assert e.value.rule == rule
    g.apply(StopMove())
    advance_to(g, Phase.MOVEMENT, player_turn=3)


def test_8_62_no_voluntary_stop_above_six_men_plus_one_afv():
    units = [inf(f"G{i}", "german") for i in range(7)] + [inf("R1", "russian")]
    pl = {f"G{i}": "1505" for i in range(6)}
    pl.update({"G6": "1504", "R1": "2012"})
    g = moving_game(units, pl)
    g.apply(StartMove(("G6",)))
    g.apply(Step("1505"))
    assert StopMove() not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(StopMove())
    assert e.value.rule == "8.62"
    g.apply(Step("1506"))
    g.apply(StopMove())


def _full_hex_game(mover_at="1504", **kw):
    """Six German men in 1505, G6 elsewhere, a Russian far away."""
    units = [inf(f"G{i}", "german") for i in range(7)] + [inf("R1", "russian")]
    pl = {f"G{i}": "1505" for i in range(6)}
    pl.update({"G6": mover_at, "R1": "2012"})
    return moving_game(units, pl, **kw)


def test_8_62_no_step_into_a_full_hex_without_the_mp_to_leave_it():
    g = _full_hex_game()
    g.apply(StartMove(("G6",)))
    g.moving.mp["G6"] = 1  # 1505 costs 1: none left to leave it
    assert Step("1505") not in g.legal_actions() and Step("1404") in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(Step("1505"))
    assert e.value.rule == "8.62" and g.units["G6"].hex == "1504" and g.moving.mp["G6"] == 1
    g.moving.mp["G6"] = 2  # now it can pass through (8.61) and stop beyond
    g.apply(Step("1505"))
    assert [a for a in g.legal_actions() if isinstance(a, Step)] and StopMove() not in g.legal_actions()
    g.apply(Step("1506"))
    g.apply(StopMove())
    assert g.units["G6"].hex == "1506"


def test_8_62_a_step_is_offered_only_if_a_legal_stop_stays_reachable_several_hexes_on():
    # one column; 1505 is a level-1 hill (back up costs 2, 8.53); 1506 holds six men, 1507 four:
    # a commander with three men (four men) and 2 MP may pass 1506 but would end in 1507 with 8
    m = make_map(cols=(15, 15), rows=(1, 12), levels={"1505": 1})
    units = [inf(f"G{i}", "german") for i in range(13)] + [inf("R1", "russian")]
    pl = {f"G{i}": "1506" for i in range(6)}
    pl.update({f"G{i}": "1507" for i in range(6, 10)})
    pl.update({"G10": "1505", "G11": "1505", "G12": "1505", "R1": "1512"})
    g = moving_game([inf("C", "german", weapon="PL", pr=10, commander=True)] + units, {"C": "1505", **pl}, hexmap=m)
    g.apply(StartMove(("C", "G10", "G11", "G12"), leader="C"))
    g.moving.mp.update({"C": 2, "G10": 2, "G11": 2, "G12": 2})
    assert [a for a in g.legal_actions() if isinstance(a, Step)] == [Step("1504")]
    g.moving.mp.update({"C": 3, "G10": 3, "G11": 3, "G12": 3})
    assert Step("1506") in g.legal_actions()  # through 1506 and 1507 to 1508
    g.apply(Step("1506"))
    assert [a for a in g.legal_actions() if isinstance(a, Step)] == [Step("1505"), Step("1507")]
    assert StopMove() not in g.legal_actions()
    g.apply(Step("1507"))
    g.apply(Step("1508"))
    g.apply(StopMove())
    assert g.units["C"].hex == "1508"


def test_8_62_forced_stop_by_opportunity_fire_is_not_punished():
    # 13.18: G6 passes through the full hex 1505, R1 pins it there; it stays, nobody is eliminated
    g = _full_hex_game(script=[(1, 1), (6,), (6,), (6,), (6,), (6,), (6,), (3,)])
    g.units["R1"].hex = "1507"
    g.apply(StartMove(("G6",)))
    g.apply(Step("1505"))
    g.apply(Fire(("R1",), "1505"))
    assert g.units["G6"].morale is Morale.PINNED and g.moving is None
    assert events(g, "move_stopped")[-1]["rule"] == "13.18" and g.units["G6"].hex == "1505"
    g.apply(EndPhase())
    assert not any(u.eliminated for u in g.units.values())
    ov = events(g, "over_stacked")[-1]
    assert (ov["rule"], ov["hex"], len(ov["units"]), ov["penalty"]) == ("8.62", "1505", 7, None)


def test_8_33_8_62_group_left_without_its_leader_and_a_legal_step_stops_by_force_unpunished():
    # C leads G1 and an MMG (MA 1) into 1506 (four men): with him, G1 could go on and the MMG stop
    # there (6 men); opportunity fire kills C (8.33), and without a leader G1 and the MMG move
    # together or not at all (the MMG has no MP left): they stop over the limit, by force
    units = [inf("C", "german", weapon="PL", pr=10, commander=True), inf("G1", "german"),
             cw("GM", "german", crew=2, ma=1), inf("R1", "russian")] + [inf(f"H{i}", "german") for i in range(4)]
    pl = {"C": "1505", "G1": "1505", "GM": "1505", "R1": "1508", **{f"H{i}": "1506" for i in range(4)}}
    g = moving_game(units, pl, script=[(1, 1), (1,)] + [(6,)] * 6)  # fire PC; C rolls 1 (E), the rest 6
    g.apply(StartMove(("C", "G1", "GM"), leader="C"))
    g.apply(Step("1506"))
    g.apply(Fire(("R1",), "1506"))
    assert g.units["C"].eliminated and g.moving.units == ["G1", "GM"] and g.moving.leader is None
    assert g.legal_actions() == [StopMove()]
    g.apply(StopMove())
    end = events(g, "move_end")[-1]
    assert (end["rule"], end["forced"], end["hex"]) == ("8.62", True, "1506")
    g.apply(EndPhase())
    assert [e["unit"] for e in events(g, "eliminated")] == ["C"]
    assert events(g, "over_stacked")[-1]["hex"] == "1506"


def test_8_62_units_over_the_limit_before_the_phase_may_stay_and_are_not_eliminated():
    g = _full_hex_game()
    g.units["G6"].hex = "1505"  # seven men in 1505 (e.g. after a forced stop)
    g.apply(StartMove(("G6",)))
    assert StopMove() in g.legal_actions()  # it has not left its hex (8.62 limits ends of moves)
    g.apply(StopMove())
    g.apply(EndPhase())
    assert not any(u.eliminated for u in g.units.values()) and events(g, "over_stacked")[-1]["hex"] == "1505"


def test_8_62_leader_group_units_that_cannot_follow_must_stop_within_the_limit():
    # 8.3 B: the MMG (MA 2) passes 1506 (four men) with its commander and cannot follow him beyond
    # 1507, which holds four men: 4 + 3 crew is over the limit there, so 1507 is not offered
    units = [inf("C", "german", weapon="PL", pr=10, commander=True), cw("GM", "german", crew=3, ma=2),
             inf("R1", "russian")] + [inf(f"G{i}", "german") for i in range(8)]
    pl = {"C": "1505", "GM": "1505", "R1": "2012", **{f"G{i}": "1506" for i in range(4)},
          **{f"G{i}": "1507" for i in range(4, 8)}}
    g = moving_game(units, pl)
    g.apply(StartMove(("C", "GM"), leader="C"))
    g.apply(Step("1506"))  # they pass through 1506 together (4 + 1 + 3 = 8 men)
    assert g.moving.mp == {"C": 5, "GM": 1}
    assert Step("1507") not in g.legal_actions() and StopMove() not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(Step("1507"))
    assert e.value.rule == "8.62"
    g.apply(Step("1606"))
    assert g.moving.mp == {"C": 4, "GM": 0} and Step("1607") in g.legal_actions()
    g.apply(Step("1607"))  # the MMG cannot follow: it stops in 1606, alone
    assert g.moving.units == ["C"] and g.units["GM"].hex == "1606" and g.units["C"].hex == "1607"


def test_8_63_no_step_leaves_a_second_cw_counter_without_a_way_out():
    g = moving_game([cw("GM", "german", ma=1), cw("GN", "german", ma=3), inf("R1", "russian")],
                    {"GM": "1505", "GN": "1504", "R1": "2012"})
    g.apply(StartMove(("GN",)))
    g.moving.mp["GN"] = 1
    assert Step("1505") not in g.legal_actions() and Step("1503") in g.legal_actions()
    g.moving.mp["GN"] = 2
    assert Step("1505") in g.legal_actions()  # through the MMG's hex to 1506 (8.61)


def test_8_62_entry_from_off_the_map_only_where_a_legal_stop_remains():
    from core.ironcross.actions import Enter
    from core.ironcross.setup import Entry
    units = [inf(f"G{i}", "german") for i in range(6)] + [cw("GM", "german", crew=2, ma=1), inf("R1", "russian")]
    pl = {f"G{i}": "1501" for i in range(6)}
    pl["R1"] = "2012"
    g = moving_game(units, pl, entries=[Entry("german", ["GM"], frozenset({"1501", "1601"}), 1)])
    g.apply(StartMove(("GM",)))
    assert Enter("1501") not in g.legal_actions() and Enter("1601") in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(Enter("1501"))
    assert e.value.rule == "8.62"


def test_8_43_halt_only_within_the_limit_and_the_afv_goes_on_alone():
    units = [afv("GT", "german"), inf("A1", "german"), inf("A2", "german"), inf("R1", "russian")]
    units += [inf(f"G{i}", "german") for i in range(5)]
    pl = {"GT": "1504", "A1": "1504", "A2": "1504", "R1": "2012", **{f"G{i}": "1505" for i in range(5)}}
    g = moving_game(units, pl)
    g.apply(StartMove(("GT", "A1", "A2")))
    g.apply(Step("1505"))  # 5 + 2 men: the infantry may not halt here
    assert Halt(("A1", "A2")) not in g.legal_actions() and StopMove() not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(Halt(("A1", "A2")))
    assert e.value.rule == "8.62"
    g.apply(Halt(("A1",)))  # one of them may (six men)
    g.apply(Step("1506"))
    g.apply(Halt(("A2",)))
    g.apply(Step("1507"))  # the AFV goes on alone
    assert g.units["GT"].hex == "1507" and g.units["A2"].hex == "1506" and g.units["A1"].hex == "1505"


def test_8_43_halt_of_the_leader_and_his_men_lets_the_afv_go_on():
    g = moving_game([afv("GT", "german"), inf("C", "german", weapon="PL", pr=10, commander=True),
                     inf("G1", "german"), inf("R1", "russian")],
                    {"GT": "1505", "C": "1505", "G1": "1505", "R1": "2012"})
    g.apply(StartMove(("GT", "C", "G1"), leader="C"))
    g.apply(Step("1506"))
    g.apply(Halt(("C", "G1")))
    assert g.moving.leader is None and Step("1507") in g.legal_actions()


def test_8_62_state_change_not_offered_when_it_would_strand_the_group_over_the_limit():
    g = _full_hex_game()
    g.apply(StartMove(("G6",)))
    g.moving.mp["G6"] = 3
    g.apply(Step("1505"))  # 2 MP left: UP it can leave (1 MP), DOWN it could not (2 MP spent first)
    assert ToggleState() not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(ToggleState())
    assert e.value.rule == "8.62"
    g.moving.mp["G6"] = 4
    assert ToggleState() in g.legal_actions()  # 2 MP left after it: DOWN costs 2 in clear


def test_8_54_8_62_afv_stack_immobilised_in_a_full_hex_is_not_punished():
    # 8.54: the AFV is immobilised in a woods hex holding five men; the infantry stop with it (8.43)
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1506": 3})
    units = [afv("GT", "german"), inf("A1", "german"), inf("A2", "german"), inf("R1", "russian")]
    units += [inf(f"G{i}", "german") for i in range(5)]
    pl = {"GT": "1505", "A1": "1505", "A2": "1505", "R1": "2012", **{f"G{i}": "1506" for i in range(5)}}
    g = moving_game(units, pl, hexmap=m, script=[(1, 1)])
    g.apply(StartMove(("GT", "A1", "A2")))
    g.apply(Step("1506"))
    assert g.units["GT"].immobilized and g.moving is None
    assert events(g, "move_end")[-1]["rule"] == "8.43"
    g.apply(EndPhase())
    assert not any(u.eliminated for u in g.units.values())
    ov = events(g, "over_stacked")[-1]
    assert (ov["hex"], sorted(ov["units"])) == ("1506", ["A1", "A2", "G0", "G1", "G2", "G3", "G4", "GT"])


def test_8_63_only_one_cw_counter_a_hex():
    g = moving_game([cw("GM", "german"), cw("GN", "german"), inf("R1", "russian")],
                    {"GM": "1505", "GN": "1504", "R1": "2012"})
    g.apply(StartMove(("GN",)))
    g.apply(Step("1505"))
    assert StopMove() not in g.legal_actions()


def test_8_64_different_squads_do_not_move_together_without_a_commander():
    g = moving_game([afv("GT", "german"), inf("A1", "german", squad="A"), inf("B1", "german", squad="B"),
                     inf("R1", "russian")], {"GT": "1505", "A1": "1505", "B1": "1505", "R1": "2012"})
    with pytest.raises(IllegalAction) as e:
        g.apply(StartMove(("GT", "A1", "B1")))
    assert e.value.rule == "8.64"


def test_8_65_push_wreck_at_the_end_of_the_movement_phase():
    g = moving_game([afv("GT", "german"), inf("R1", "russian")], {"GT": "1505", "R1": "2012"}, script=[(3, 3)])
    g.state.wrecks["1504"] = 1
    a = PushWreck("GT", "1504", "1503")
    assert a in g.legal_actions()
    g.apply(a)
    assert g.units["GT"].hex == "1504" and g.state.wrecks == {"1503": 1} and events(g, "pc")[-1]["rule"] == "8.65"
    assert starts(g) == []  # the end of the phase


def test_8_65_push_wreck_fails_and_not_after_moving_nor_in_reaction():
    g = moving_game([afv("GT", "german"), afv("GU", "german"), inf("R1", "russian")],
                    {"GT": "1505", "GU": "1510", "R1": "2012"}, script=[(6, 6)])
    g.state.wrecks["1504"] = 1
    g.apply(PushWreck("GT", "1504", "1503"))
    assert g.units["GT"].hex == "1505" and g.state.wrecks == {"1504": 1}
    g.state.wrecks["1509"] = 1
    g.units["GU"].moved = True
    assert not any(isinstance(a, PushWreck) and a.afv == "GU" for a in g.legal_actions())


# ---------------------------------------------------------------- 8.7 facing
def test_8_71_facing_change_needs_a_pc_counts_as_moved_and_opens_no_opportunity_fire():
    g = moving_game([cw("GM", "german", ma=0), inf("R1", "russian")], {"GM": ("1505", False, 1), "R1": "1507"},
                    pcs=True, script=[(2, 2)])
    g.apply(StartMove(("GM",)))
    assert events(g, "pc")[-1]["rule"] == "8.22"
    g.apply(Face(4))
    assert g.units["GM"].facing == 4 and g.units["GM"].moved and g.window is None and g.current_side() == "german"


def test_8_72_atg_three_four_crew_turns_one_two_never_nor_after_firing():
    g = moving_game([cw("GA", "german", weapon="37AT", ma=0, crew=3), cw("GB", "german", weapon="45AT", ma=0, crew=4),
                     inf("R1", "russian")], {"GA": ("1505", False, 1), "GB": ("1508", False, 1), "R1": "2012"})
    g.units["GB"].crew = 2
    assert StartMove(("GA",)) in starts(g) and StartMove(("GB",)) not in starts(g)
    g.apply(StartMove(("GA",)))
    assert Face(3) in g.legal_actions()
    g.units["GA"].fired = True
    assert Face(3) not in g.legal_actions()


def test_8_73_mg_turns_to_any_hexside_regardless_of_crew():
    g = moving_game([cw("GM", "german", ma=3), inf("R1", "russian")], {"GM": ("1505", False, 1), "R1": "2012"})
    g.units["GM"].crew = 1
    g.apply(StartMove(("GM",)))
    assert {a.hexside for a in g.legal_actions() if isinstance(a, Face)} == {2, 3, 4, 5, 6}


def test_8_74_afv_one_hexside_free_per_new_hex_then_one_mp_each():
    g = moving_game([afv("GT", "german"), inf("R1", "russian")], {"GT": ("1505", False, 1), "R1": "2012"})
    g.apply(StartMove(("GT",)))
    g.apply(Step("1504"))  # keeps its facing (8.74)
    assert g.units["GT"].facing == 1 and g.moving.mp["GT"] == 9
    g.apply(Face(2))  # free
    assert g.moving.mp["GT"] == 9
    g.apply(Face(3))  # 1 MP
    assert g.moving.mp["GT"] == 8
    g.apply(Step("1505"))
    g.apply(Face(6))  # 3 -> 6: three hexsides, one free
    assert g.moving.mp["GT"] == 5


def test_8_75_afv_turning_in_place_takes_the_pc_and_pays_after_the_first():
    g = moving_game([afv("GT", "german"), inf("R1", "russian")], {"GT": ("1505", False, 1), "R1": "2012"},
                    pcs=True, script=[(2, 2)])
    g.apply(StartMove(("GT",)))
    g.apply(Face(3))
    assert g.moving.mp["GT"] == 9 and g.units["GT"].changed_facing_only
    g.apply(Face(4))
    assert g.moving.mp["GT"] == 8 and len(events(g, "pc")) == 1


def test_3_13_toggle_state_during_movement():
    g = moving_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "2012"})
    g.apply(StartMove(("G1",)))
    g.apply(ToggleState())
    assert g.units["G1"].down and g.moving.mp["G1"] == 4


def test_8_21_8_73_mg_that_fired_in_support_fire_may_still_change_facing_but_not_leave_its_hex():
    g = small_game([cw("GM", "german", ma=3), inf("GC", "german", weapon="PL", pr=9, commander=True),
                    cw("GA", "german", weapon="37AT", ap=2, rng=6, at=9, crew=3, ma=0), inf("R1", "russian")],
                   {"GM": ("1505", False, 4), "GC": "1505", "GA": ("1405", False, 4), "R1": "1508"},
                   script=[(6, 6), (6, 6)])
    g.apply(Fire(("GM",), "1508"))  # PC fails: it has fired all the same (4.0)
    g.apply(Fire(("GA",), "1508"))
    advance_to(g, Phase.MOVEMENT)
    # 8.73: the MG may turn (alone: no leader-directed or AFV stack move); 8.72: the ATG that fired may not
    assert StartMove(("GM",)) in starts(g)
    assert not any("GM" in a.units for a in starts(g) if a != StartMove(("GM",)))
    assert not any("GA" in a.units for a in starts(g))
    with pytest.raises(IllegalAction) as e:
        g.apply(StartMove(("GA",)))
    assert e.value.rule == "8.21"
    with pytest.raises(IllegalAction) as e:
        g.apply(StartMove(("GC", "GM"), leader="GC"))
    assert e.value.rule == "8.21"
    g.apply(StartMove(("GM",)))
    acts = g.legal_actions()
    assert not any(isinstance(a, (Step, ToggleState)) for a in acts)  # 8.21: not out of its hex
    assert {a.hexside for a in acts if isinstance(a, Face)} == {1, 2, 3, 5, 6}
    g.apply(Face(1))
    assert g.units["GM"].facing == 1 and g.units["GM"].changed_facing_only


def test_8_73_8_72_mg_that_opportunity_fired_may_change_facing_in_reaction_movement_an_atg_may_not():
    g = small_game([inf("G1", "german"), cw("RM", "russian"),
                    cw("RG", "russian", weapon="45AT", ap=2, rng=6, at=8, crew=3, ma=0)],
                   {"G1": "1504", "RM": ("1508", False, 1), "RG": ("1408", False, 1)},
                   script=[(6, 6), (6, 6)])
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("G1",)))
    g.apply(Step("1505"))
    g.apply(Fire(("RM",), "1505"))  # opportunity fire (PC fails)
    g.apply(Fire(("RG",), "1505"))
    assert g.units["RM"].opp_fired and g.units["RG"].opp_fired
    g.apply(StopMove())
    advance_to(g, Phase.REACTION_MOVEMENT)
    assert StartMove(("RM",)) in starts(g) and StartMove(("RG",)) not in starts(g)
    g.apply(StartMove(("RM",)))
    g.apply(Face(4))
    assert g.units["RM"].facing == 4
