"""Unit states (3.0), Performance Checks (4.0), leaders (5.0) and the Morale Phase (7.0)."""

from __future__ import annotations

import pytest

from core.ironcross import combat_tables as ct
from core.ironcross.actions import (
    DesignateAssault, EndPhase, Fire, Grenade, IllegalAction, SetState, StartMove, StopMove, ToggleState)
from core.ironcross.state import Morale, Phase
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.engine_helpers import advance_to, events


def test_3_12_units_start_up_or_down_as_desired_afvs_too():
    g = small_game([inf("G1", "german"), inf("G2", "german"), afv("GT", "german"), inf("R1", "russian")],
                   {"G1": ("1505", True, None), "G2": "1506", "GT": ("1507", True, 2), "R1": "1510"})
    assert g.units["G1"].down and not g.units["G2"].down and g.units["GT"].down and g.units["GT"].facing == 2


def test_3_13_voluntary_change_in_movement_costs_2_mp_infantry_5_afv():
    g = small_game([inf("G1", "german"), afv("GT", "german", ma=10), inf("R1", "russian")],
                   {"G1": "1505", "GT": "1507", "R1": "1512"})
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("GT",)))
    g.apply(ToggleState())
    assert g.moving.mp["GT"] == 5 and g.units["GT"].down
    g.apply(StopMove())
    g.apply(StartMove(("G1",)))
    g.apply(ToggleState())
    assert g.moving.mp["G1"] == 4 and g.units["G1"].down
    ev = events(g, "state_change")
    assert [e["rule"] for e in ev] == ["3.13", "3.13"]


def test_3_13_no_voluntary_change_outside_movement_and_phase_H():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1506"})
    assert g.state.phase is Phase.SUPPORT_FIRE
    with pytest.raises(IllegalAction):
        g.apply(SetState(("G1",), True))
    assert not any(isinstance(a, (SetState, ToggleState)) for a in g.legal_actions())


def test_3_14_3_25_combat_result_puts_unit_down():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"})
    g._apply_ap_result(g.units["R1"], ct.ApResult.PINNED, "11.43")
    assert g.units["R1"].morale is Morale.PINNED and g.units["R1"].down


def test_3_15_a_down_unit_may_assault():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": ("1505", True, None), "R1": "1504"})
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    assert DesignateAssault(("G1",), "1504") in g.legal_actions()


def test_3_22_pinned_and_suppressed_units_may_not_fire_or_assault_suppressed_may_not_move():
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1505", "G2": "1506", "R1": "1508"})
    g.units["G1"].morale, g.units["G1"].down = Morale.PINNED, True
    g.units["G2"].morale, g.units["G2"].down = Morale.SUPPRESSED, True
    acts = g.legal_actions()
    assert not any(isinstance(a, Fire) and set(a.firers) & {"G1", "G2"} for a in acts)
    advance_to(g, Phase.MOVEMENT)
    starts = [a for a in g.legal_actions() if isinstance(a, StartMove)]
    assert any("G1" in a.units for a in starts) and not any("G2" in a.units for a in starts)  # 8.1 / 3.22
    g.units["R1"].hex = "1504"  # adjacent to G1
    assert g._assault_designations("german") == []
    g.apply(EndPhase())  # no designation possible: the step is skipped
    assert g.state.phase is Phase.REACTION_MOVEMENT


def test_3_26_3_27_pinned_units_stay_down_only_normal_change_voluntarily():
    g = small_game([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                   {"G1": "1505", "G2": "1506", "R1": "1510"})
    advance_to(g, Phase.MOVEMENT)
    g.units["G1"].morale, g.units["G1"].down = Morale.PINNED, True
    g.apply(StartMove(("G1",)))
    assert ToggleState() not in g.legal_actions()  # 3.27 during movement
    g.apply(StopMove())
    advance_to(g, Phase.FREE_STATE_CHANGE)
    assert SetState(("G1",), False) not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(SetState(("G1",), False))
    assert e.value.rule == "3.26"


def test_4_0_pc_two_dice_less_or_equal_pr_passes():
    g = small_game([inf("G1", "german", pr=7), inf("R1", "russian")], {"G1": "1505", "R1": "1510"},
                   script=[(3, 4), (4, 4)])
    assert g.pc(g.units["G1"], "test", "4.0") is True
    assert g.pc(g.units["G1"], "test", "4.0") is False
    assert [len(r.dice) for r in g.dice.rolls] == [2, 2]


def test_4_12_modified_pcs_morale_plus_2_assault_plus_1_grenade_plus_2():
    units = [inf("G1", "german"), inf("G2", "german"), inf("R1", "russian"), inf("R2", "russian")]
    g = small_game(units, {"G1": "1505", "G2": "1405", "R1": "1504", "R2": "1507"},
                   script=[(6, 6), (1, 1)], grenades={"german": 1, "russian": 0})
    g.apply(Grenade("G2", "1504"))  # Support Fire: PC +2 (15.3) fails at 12
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("G1",), "1504"))
    g.units["R2"].morale, g.units["R2"].down = Morale.SUPPRESSED, True
    advance_to(g, Phase.ASSAULT)
    g.dice.script = [(6, 6)]
    g.apply(DesignateAssault(("G1",), "1504"))
    g.dice.script = [(3, 3)]
    advance_to(g, Phase.SUPPORT_FIRE, player_turn=2)
    mods = {e["rule"]: e["modifier"] for e in events(g, "pc")}
    assert mods == {"15.3": 2, "17.12": 1, "7.0 b": 2}


def test_4_0_attempted_counts_as_performed_failed_fire_pc_means_fired_and_no_move():
    g = small_game([inf("G1", "german", pr=7), inf("R1", "russian")], {"G1": "1505", "R1": "1508"},
                   script=[(6, 6)])
    fire = next(a for a in g.legal_actions() if isinstance(a, Fire) and a.firers == ("G1",))
    g.apply(fire)
    assert g.units["G1"].fired
    assert not any(isinstance(a, Fire) and "G1" in a.firers for a in g.legal_actions())
    advance_to(g, Phase.MOVEMENT)
    assert not any(isinstance(a, StartMove) and "G1" in a.units for a in g.legal_actions())  # 8.21


def test_5_1_commanders_lead_any_friendly_infantry_or_cw():
    c = inf("GC", "german", commander=True)
    assert c.is_leader_for(inf("G1", "german", squad="A")) and c.is_leader_for(inf("G2", "german", squad="B"))
    assert c.is_leader_for(cw("GM", "german"))
    assert not c.is_leader_for(inf("R1", "russian")) and not c.is_leader_for(afv("GT", "german"))


def test_5_2_acting_leader_pr9_normal_own_squad_plus_cw():
    al = inf("GA", "german", squad="A", pr=9)
    assert al.is_leader_for(inf("G1", "german", squad="A")) and al.is_leader_for(cw("GM", "german"))
    assert not al.is_leader_for(inf("G2", "german", squad="B"))
    assert not inf("GB", "german", squad="A", pr=8).is_leader_for(inf("G1", "german", squad="A"))
    assert not inf("GF", "german", squad="A", weapon="FT", pr=9).is_leader_for(inf("G1", "german", squad="A"))
    al.morale = Morale.PINNED
    assert not al.is_leader_for(inf("G1", "german", squad="A"))


def test_5_3_different_squads_do_not_combine_fire_without_a_commander():
    units = [inf("G1", "german", squad="A"), inf("G2", "german", squad="B"), inf("R1", "russian")]
    g = small_game(units, {"G1": "1505", "G2": "1505", "R1": "1508"})
    assert not any(isinstance(a, Fire) and set(a.firers) == {"G1", "G2"} for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply(Fire(("G1", "G2"), "1508"))


def test_7_0_a_pinned_removed_automatically_b_suppressed_2d6_plus_2_vs_pr():
    units = [inf("G1", "german", pr=8), inf("G2", "german", pr=8), inf("G3", "german", pr=8), inf("R1", "russian")]
    g = small_game(units, {"G1": "1505", "G2": "1506", "G3": "1507", "R1": "1512"}, script=[(3, 3), (4, 3)])
    g.units["G1"].morale = Morale.PINNED
    g.units["G2"].morale = Morale.SUPPRESSED
    g.units["G3"].morale = Morale.SUPPRESSED
    for u in ("G1", "G2", "G3"):
        g.units[u].down = True
    advance_to(g, Phase.SUPPORT_FIRE, player_turn=2)
    assert g.units["G1"].normal  # 7.0 a: no roll
    assert g.units["G2"].normal  # 6 + 2 <= 8
    assert g.units["G3"].morale is Morale.PINNED and g.units["G3"].down  # 7 + 2 > 8: S -> P
    assert [e["unit"] for e in events(g, "pc")] == ["G2", "G3"]
    assert all(g.units[u].down for u in ("G1", "G2", "G3"))  # recovery does not stand units up
