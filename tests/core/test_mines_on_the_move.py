"""Mines met during movement (19.2-19.27) and crew replacements (20.0-20.3)."""

from __future__ import annotations

import pytest

from core.ironcross.actions import CrewReplacement, EndPhase, IllegalAction, StartMove, Step, StopMove
from core.ironcross.state import Morale, Phase
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.engine_helpers import advance_to, events


def og(units, placements, script=(), **kw):
    g = small_game(units, placements, script=list(script), **kw)
    advance_to(g, Phase.MOVEMENT)
    return g


def mine(g, hx, ap=0, at=0, side="russian"):
    g.state.mines[hx] = {"side": side, "ap": ap, "at": at, "revealed_ap": False, "revealed_at": False}


def test_19_21_infantry_entering_an_enemy_at_mined_hex_no_reveal_no_detonation():
    g = og([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "2012"})
    mine(g, "1506", at=5)
    n = len(g.dice.rolls)
    g.apply(StartMove(("G1",)))
    g.apply(Step("1506"))
    assert len(g.dice.rolls) == n and not g.state.mines["1506"]["revealed_at"]
    assert "at" not in g.view("german")["mines"].get("1506", {})


def test_19_22_any_unit_entering_an_ap_mined_hex_reveals_and_detonates_own_mines_too():
    g = og([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "2012"}, script=[(6,)])
    mine(g, "1506", ap=2, side="german")
    g.apply(StartMove(("G1",)))
    g.apply(Step("1506"))
    assert g.state.mines["1506"]["revealed_ap"] and events(g, "mine_result")[-1]["rule"] == "19.24"


def test_19_23_19_25_afv_entering_at_mined_hex_2d6_le_factors_destroys():
    g = og([afv("GT", "german"), inf("R1", "russian")], {"GT": "1505", "R1": "2012"}, script=[(3, 3)])
    mine(g, "1506", at=6)
    g.apply(StartMove(("GT",)))
    g.apply(Step("1506"))
    assert g.state.mines["1506"]["revealed_at"] and g.units["GT"].eliminated and g.state.wrecks == {"1506": 1}
    assert g.moving is None


def test_19_24_ap_mine_attack_one_die_each_unit_quarter_half_full_rounded_up():
    g = og([inf("C", "german", weapon="PL", pr=10, commander=True), inf("G1", "german"), inf("G2", "german"),
            inf("G3", "german"), inf("R1", "russian")],
           {"C": "1505", "G1": "1505", "G2": "1505", "G3": "1505", "R1": "2012"}, script=[(1,), (2,), (3,), (5,)])
    mine(g, "1506", ap=3)  # E <= 1, S <= 2, P <= 3
    g.apply(StartMove(("C", "G1", "G2", "G3"), leader="C"))
    g.apply(Step("1506"))
    assert g.units["C"].eliminated
    assert g.units["G1"].morale is Morale.SUPPRESSED and g.units["G2"].morale is Morale.PINNED
    assert g.units["G3"].normal


def test_19_25_infantry_accompanying_a_destroyed_afv_are_suppressed():
    g = og([afv("GT", "german"), inf("G1", "german"), inf("R1", "russian")], {"GT": "1505", "G1": "1505",
                                                                          "R1": "2012"}, script=[(2, 2)])
    mine(g, "1506", at=4)
    g.apply(StartMove(("GT", "G1")))
    g.apply(Step("1506"))
    assert g.units["GT"].eliminated and g.units["G1"].morale is Morale.SUPPRESSED and g.moving is None


def test_19_26_afv_alone_in_ap_mined_hex_rolls_nothing_infantry_with_it_are_attacked():
    g = og([afv("GT", "german"), inf("G1", "german"), inf("R1", "russian")], {"GT": "1505", "G1": "1505",
                                                                          "R1": "2012"}, script=[(6,)])
    mine(g, "1506", ap=4)
    mine(g, "1504", ap=4)
    g.apply(StartMove(("GT", "G1")))
    g.apply(StopMove())
    # G1 moved with GT; a fresh game for the AFV alone
    g2 = og([afv("GT", "german"), inf("R1", "russian")], {"GT": "1505", "R1": "2012"})
    mine(g2, "1506", ap=4)
    n = len(g2.dice.rolls)
    g2.apply(StartMove(("GT",)))
    g2.apply(Step("1506"))
    assert len(g2.dice.rolls) == n and g2.state.mines["1506"]["revealed_ap"]
    g3 = og([afv("GT", "german"), inf("G1", "german"), inf("R1", "russian")], {"GT": "1505", "G1": "1505",
                                                                           "R1": "2012"}, script=[(6,)])
    mine(g3, "1506", ap=4)
    g3.apply(StartMove(("GT", "G1")))
    g3.apply(Step("1506"))
    assert [e["unit"] for e in events(g3, "mine_result")] == ["G1"]


def test_19_27_only_normal_units_after_a_mine_attack_continue():
    g = og([inf("C", "german", weapon="PL", pr=10, commander=True), inf("G1", "german"), inf("R1", "russian")],
           {"C": "1505", "G1": "1505", "R1": "2012"}, script=[(4,), (6,)])
    mine(g, "1506", ap=4)
    g.apply(StartMove(("C", "G1"), leader="C"))
    g.apply(Step("1506"))
    assert g.units["C"].morale is Morale.PINNED and g.moving.units == ["G1"]


def test_8_22_mine_detonations_are_not_the_first_shot():
    g = og([afv("GT", "german"), inf("R1", "russian")], {"GT": "1505", "R1": "2012"}, script=[(6, 6)])
    mine(g, "1506", at=4)
    g.apply(StartMove(("GT",)))
    g.apply(Step("1506"))
    assert not g.state.first_shot


# ---------------------------------------------------------------- 20.0 crew replacements
def _crew_game():
    g = og([cw("GM", "german", crew=3), inf("G1", "german"), inf("G2", "german"), inf("GC", "german", weapon="PL",
            commander=True), inf("R1", "russian")],
           {"GM": "1505", "G1": "1505", "G2": "1506", "GC": "1505", "R1": "2012"})
    g.units["GM"].crew = 2
    return g


def test_20_1_at_the_end_of_the_movement_phase_a_stacked_infantry_unit_joins_the_crew():
    g = _crew_game()
    acts = [a for a in g.legal_actions() if isinstance(a, CrewReplacement)]
    assert acts == [CrewReplacement("G1", "GM")]  # not G2 (not stacked), not the commander
    g.apply(acts[0])
    assert g.units["GM"].crew == 3 and g.units["G1"].hex is None and g.units["GM"].replacements == ["G1"]
    assert [a for a in g.legal_actions() if isinstance(a, StartMove)] == []  # end of the phase
    g.apply(EndPhase())
    advance_to(g, Phase.REACTION_MOVEMENT)
    assert not [a for a in g.legal_actions() if isinstance(a, CrewReplacement)]


def test_20_1_not_in_the_reaction_movement_phase():
    g = _crew_game()
    with pytest.raises(IllegalAction):
        g.apply(CrewReplacement("G2", "GM"))
    advance_to(g, Phase.REACTION_MOVEMENT)
    assert not [a for a in g.legal_actions() if isinstance(a, CrewReplacement)]


def test_20_2_no_replacements_once_the_original_crew_is_gone():
    g = _crew_game()
    g.units["GM"].crew = 1
    g.units["GM"].replacements = ["G2"]
    g.units["G2"].hex = None
    assert not [a for a in g.legal_actions() if isinstance(a, CrewReplacement)]


def test_20_3_only_replacements_left_they_revert_to_suppressed_infantry_and_the_cw_is_removed():
    g = _crew_game()
    g.apply(CrewReplacement("G1", "GM"))
    g.units["GM"].crew = 1  # two losses fall on the original crew
    g._crew_reversion()
    assert g.units["GM"].eliminated and g.units["G1"].hex == "1505"
    assert g.units["G1"].morale is Morale.SUPPRESSED and g.units["G1"].down


# ---------------------------------------------------------------- 19.24: each unit in the hex
def test_19_24_units_already_in_the_hex_are_attacked_too():
    g = og([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")], {"G1": "1505", "G2": "1506",
                                                                          "R1": "2012"}, script=[(6,), (1,)])
    mine(g, "1506", ap=2)  # E <= 1, S <= 1, P <= 2
    g.apply(StartMove(("G1",)))
    g.apply(Step("1506"))
    assert [(e["unit"], e["die"], e["result"]) for e in events(g, "mine_result")] == [
        ("G1", 6, "NE"), ("G2", 1, "E")]
    assert g.units["G2"].eliminated and g.units["G1"].normal and g.moving.units == ["G1"]


def test_19_26_infantry_moving_with_an_afv_detonate_for_every_infantry_cw_unit_in_the_hex():
    g = og([afv("GT", "german"), inf("G1", "german"), cw("GM", "german", crew=2), inf("R1", "russian")],
           {"GT": "1505", "G1": "1505", "GM": "1506", "R1": "2012"}, script=[(6,), (6,)])
    mine(g, "1506", ap=4)
    g.apply(StartMove(("GT", "G1")))
    g.apply(Step("1506"))
    assert [e["unit"] for e in events(g, "mine_result")] == ["G1", "GM"]  # not the AFV (19.26)


def test_19_26_an_afv_alone_rolls_nothing_for_the_units_in_the_hex():
    g = og([afv("GT", "german"), inf("G2", "german"), inf("R1", "russian")], {"GT": "1505", "G2": "1506",
                                                                          "R1": "2012"})
    mine(g, "1506", ap=4)
    n = len(g.dice.rolls)
    g.apply(StartMove(("GT",)))
    g.apply(Step("1506"))
    assert len(g.dice.rolls) == n and g.state.mines["1506"]["revealed_ap"] and not events(g, "mine_result")


def test_8_65_19_26_an_afv_pushing_a_wreck_into_an_ap_mined_hex_rolls_nothing_for_the_units_there():
    from core.ironcross.actions import PushWreck
    g = og([afv("GT", "german"), inf("G2", "german"), inf("R1", "russian")], {"GT": "1505", "G2": "1504",
                                                                          "R1": "2012"}, script=[(3, 3)])
    g.state.wrecks["1504"] = 1
    mine(g, "1504", ap=4)
    g.apply(PushWreck("GT", "1504", "1503"))
    assert g.units["GT"].hex == "1504" and g.state.mines["1504"]["revealed_ap"]
    assert [e["rule"] for e in events(g, "roll")] == ["8.65"] and not events(g, "mine_result")
