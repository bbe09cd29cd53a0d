"""Opportunity fire (13.0-13.2): who fires in which phase, targets, ranges, PCs, pinned movers."""

from __future__ import annotations

from core.ironcross.actions import Fire, Pass, StartMove, Step
from core.ironcross.state import Morale, Phase
from core.ironcross.view import PlayerView
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.engine_helpers import advance_to, events


def og(units, placements, script=(), phase=Phase.MOVEMENT, **kw):
    g = small_game(units, placements, script=list(script), **kw)
    advance_to(g, phase)
    return g


def firers(g, side, hx):
    return sorted(u.id for u in g._opp_firers(side, hx))


def test_13_11_movement_phase_non_phasing_infantry_afv_mg_atr_atg_not_mortars_or_flamethrowers():
    g = og([inf("G1", "german"), inf("R1", "russian"), afv("RT", "russian"), cw("RM", "russian"),
            cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=2), cw("RG", "russian", weapon="45AT", ap=2, at=8),
            cw("RO", "russian", weapon="Mor", ap=6, rng=3), inf("RF", "russian", weapon="FT")],
           {"G1": "1505", "R1": "1508", "RT": ("1509", False, 1), "RM": ("1510", False, 1), "RA": "1511",
            "RG": ("1512", False, 1), "RO": "1208", "RF": "1507"})
    assert firers(g, "russian", "1506") == ["R1", "RA", "RG", "RM", "RT"]


def test_13_12_reaction_phase_only_phasing_atr_atg_that_did_not_move():
    g = og([inf("G1", "german"), cw("GA", "german", weapon="ATR", ap=0, at=4, rng=4, crew=2),
            cw("GG", "german", weapon="45AT", ap=2, at=8), inf("R1", "russian")],
           {"G1": "1508", "GA": "1509", "GG": ("1510", False, 1), "R1": "1505"}, phase=Phase.REACTION_MOVEMENT)
    assert firers(g, "german", "1506") == ["GA", "GG"]
    g.units["GA"].moved = True
    assert firers(g, "german", "1506") == ["GG"]


def test_13_13_only_hexes_entered_all_units_there_moving_or_not_are_subject():
    g = og([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian", ap=4)],
           {"G1": "1505", "G2": "1506", "R1": "1508"}, script=[(2, 2), (6,), (6,)])
    g.apply(StartMove(("G1",)))
    g.apply(Step("1506"))
    assert g.current_side() == "russian" and {a.target for a in g.legal_actions() if isinstance(a, Fire)} == {"1506"}
    g.apply(Fire(("R1",), "1506"))
    assert {e["unit"] for e in events(g, "ap_result")} == {"G1", "G2"}


def test_13_14_afvs_opportunity_fire_only_into_their_frontal_area():
    g = og([inf("G1", "german"), afv("RT", "russian")], {"G1": "1505", "RT": ("1508", False, 4)})
    assert firers(g, "russian", "1506") == []  # 1506 is behind it (it faces hexside 4, down the sheet)
    g.units["RT"].facing = 1
    assert firers(g, "russian", "1506") == ["RT"]


def test_13_15_once_per_player_turn_and_combinations_as_in_11_13():
    g = og([inf("G1", "german"), inf("R1", "russian"), inf("R2", "russian")],
           {"G1": "1505", "R1": "1508", "R2": "1508"}, script=[(6, 6), (6, 6)])
    g.apply(StartMove(("G1",)))
    g.apply(Step("1506"))
    assert Fire(("R1", "R2"), "1506") in g.legal_actions()
    g.apply(Fire(("R1", "R2"), "1506"))
    g.apply(Step("1507"))
    assert g.window is None and g.current_side() == "german"  # both have fired


def test_13_16_each_hex_entered_may_be_fired_upon():
    g = og([inf("G1", "german"), inf("R1", "russian")], {"G1": "1504", "R1": "1508"})
    g.apply(StartMove(("G1",)))
    g.apply(Step("1505"))
    assert g.window is not None and g.window.hex == "1505"
    g.apply(Pass())
    g.apply(Step("1506"))
    assert g.window is not None and g.window.hex == "1506"


def test_13_17_plus_one_for_infantry_and_afvs_not_mgs_in_movement_everybody_in_reaction():
    g = og([inf("G1", "german"), inf("R1", "russian"), cw("RM", "russian")],
           {"G1": "1505", "R1": "1508", "RM": ("1509", False, 1)}, script=[(6, 6), (6, 6)])
    g.apply(StartMove(("G1",)))
    g.apply(Step("1506"))
    g.apply(Fire(("R1",), "1506"))
    g.apply(Fire(("RM",), "1506"))
    mods = {e["unit"]: e["modifier"] for e in events(g, "pc")}
    assert mods == {"R1": 1, "RM": 0}
    # an LMG man is an MG: no +1 in the Movement Phase either
    g3 = og([inf("G1", "german"), inf("RL", "russian", weapon="LMG", ap=7)],
            {"G1": "1505", "RL": ("1508", False, 1)}, script=[(6, 6)])
    g3.apply(StartMove(("G1",)))
    g3.apply(Step("1506"))
    g3.apply(Fire(("RL",), "1506"))
    assert events(g3, "pc")[-1]["modifier"] == 0
    g2 = og([inf("G1", "german"), cw("GA", "german", weapon="ATR", ap=1, at=4, rng=4, crew=2), inf("R1", "russian")],
            {"G1": "1510", "GA": "1508", "R1": "1505"}, script=[(6, 6)], phase=Phase.REACTION_MOVEMENT)
    g2.apply(StartMove(("R1",)))
    g2.apply(Step("1506"))
    g2.apply(Fire(("GA",), "1506"))
    assert events(g2, "pc")[-1]["modifier"] == 1 and events(g2, "pc")[-1]["rule"] == "13.17"


def test_13_18_movers_that_become_pinned_move_no_further_unaffected_ones_go_on():
    g = og([inf("C", "german", weapon="PL", pr=10, commander=True), inf("G1", "german"), inf("R1", "russian")],
           {"C": "1504", "G1": "1504", "R1": "1507"}, script=[(2, 2), (4,), (6,)])
    g.apply(StartMove(("C", "G1"), leader="C"))
    g.apply(Step("1505"))
    g.apply(Fire(("R1",), "1505"))  # firepower 4: C rolls 4 -> PINNED, G1 6 -> no effect
    assert g.units["C"].morale is Morale.PINNED
    assert g.moving.units == ["G1"]
    g.apply(Step("1605"))
    assert g.units["C"].hex == "1505" and g.units["G1"].hex == "1605"


def test_13_2_ranges_infantry_three_mg_initial_range():
    g = og([inf("G1", "german"), inf("R1", "russian"), cw("RM", "russian", rng=4)],
           {"G1": "1501", "R1": "1505", "RM": ("1507", False, 1)})
    assert firers(g, "russian", "1502") == ["R1"]  # R1 at 3 hexes; the MG at 5 > its initial range 4
    assert firers(g, "russian", "1503") == ["R1", "RM"]
    g.units["R1"].hex = "1506"
    assert firers(g, "russian", "1502") == []


def test_13_2_afv_ap_at_most_four_factors_up_to_ten_hexes_at_unlimited():
    g = og([afv("GT", "german"), inf("G1", "german"), afv("RT", "russian", ap=8)],
           {"GT": "1501", "G1": "1001", "RT": ("1512", False, 1)})
    acts = g._fire_options(g._opp_firers("russian", "1501"), "1501", [g.units["GT"]], opportunity=True)
    assert Fire(("RT",), "1501", "AT", target_unit="GT") in acts  # 11 hexes: AT only
    assert Fire(("RT",), "1501", "AP") not in acts
    acts = g._fire_options(g._opp_firers("russian", "1502"), "1502", [g.units["G1"]], opportunity=True)
    assert Fire(("RT",), "1502", "AP") in acts


def test_13_2_afv_ap_capped_before_attenuation():
    # 13.2: "AP factors (4 factors maximum) ... Range attenuation applies": AP 6, initial range 5,
    # at range 8 -> the cap first (4), then one less for the second range increment -> 3 (not 4)
    g = og([inf("G1", "german"), afv("RT", "russian", ap=6)], {"G1": "1505", "RT": ("1512", False, 1)},
           script=[(2, 2)])
    g.units["RT"].ap_range = 5
    g.apply(StartMove(("G1",)))
    g.apply(Step("1504"))  # range 8 from 1512
    assert g.current_side() == "russian"
    assert PlayerView(g, "russian").ap_firepower(("RT",), "1504", opportunity=True) == 3
    g.apply(Fire(("RT",), "1504"))
    fp = events(g, "ap_firepower")[-1]
    assert fp["units"] == [{"unit": "RT", "range": 8, "factor": 3}] and fp["final"] == 3


def test_13_12_8_72_phasing_atg_that_only_changed_facing_may_opportunity_fire_in_reaction_movement():
    from core.ironcross.actions import Face, StopMove
    g = og([cw("GG", "german", weapon="45AT", ap=2, at=8, ma=0), cw("GA", "german", weapon="ATR", ap=0, at=4,
            rng=4, crew=2), afv("RT", "russian")],
           {"GG": ("1505", False, 1), "GA": "1405", "RT": ("1510", False, 1)}, script=[(1, 2), (6, 6, 6)])
    g.apply(StartMove(("GG",)))
    g.apply(Face(4))  # towards 1509
    g.apply(StopMove())
    g.units["GA"].moved = True  # an ATR that moved out of its hex (no exception: it has no facing)
    advance_to(g, Phase.REACTION_MOVEMENT)
    g.apply(StartMove(("RT",)))
    g.apply(Step("1509"))
    assert g.current_side() == "german" and firers(g, "german", "1509") == ["GG"]
    evs = g.apply(Fire(("GG",), "1509", "AT", target_unit="RT"))
    pc = [e for e in evs if e["kind"] == "pc"][0]
    assert pc["rule"] == "13.17" and pc["modifier"] == 1  # +1 in the Reaction Movement Phase
    assert len([e for e in evs if e["kind"] == "at_result"][0]["dice"]) == 3  # 12.2: it moved (8.71)
