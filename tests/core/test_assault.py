"""Assault (17.0-17.32): designation, eligibility, PCs, the fire rounds, multiple assaults."""

from __future__ import annotations

import pytest

from core.ironcross.actions import DesignateAssault, EndPhase, Grenade, IllegalAction, TakeCasualty
from core.ironcross.state import Morale, Phase
from core.ironcross.view import PlayerView
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.engine_helpers import advance_to, events

# 1505 neighbours: 1504 1605 1606 1506 1406 1405


def _at_designation(units, placements, **kw):
    g = small_game(units, placements, **kw)
    return advance_to(g, Phase.MOVEMENT, sub="assault_designation")


def _at_assault(units, placements, designations, **kw):
    g = _at_designation(units, placements, **kw)
    for d in designations:
        g.apply(d)
    return advance_to(g, Phase.ASSAULT)


def test_17_0_designation_at_end_of_movement_by_phasing_player_empty_hex_allowed():
    g = _at_designation([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1504"})
    assert g.current_side() == "german"
    acts = g.legal_actions()
    assert DesignateAssault(("G1",), "1504") in acts  # enemy occupied
    assert DesignateAssault(("G1",), "1506") in acts  # 17.0: need not be enemy occupied
    assert not any(isinstance(a, DesignateAssault) and a.target == "1508" for a in acts)
    with pytest.raises(IllegalAction) as e:
        g.apply(DesignateAssault(("G1",), "1507"))  # not adjacent
    assert e.value.rule == "17.0"
    g.apply(DesignateAssault(("G1",), "1504"))
    assert g.units["G1"].assault_hex == "1504"


def test_17_0_non_phasing_designates_at_end_of_reaction_movement():
    g = small_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1504"})
    advance_to(g, Phase.REACTION_MOVEMENT, sub="assault_designation")
    assert g.current_side() == "russian"
    assert DesignateAssault(("R1",), "1505") in g.legal_actions()


def test_17_0_friendly_only_hex_may_not_be_designated():
    g = _at_designation([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                        {"G1": "1505", "G2": "1506", "R1": "1510"})
    with pytest.raises(IllegalAction):
        g.apply(DesignateAssault(("G1",), "1506"))


def test_17_11_only_infantry_cw_may_not_be_marked():
    g = _at_designation([inf("G1", "german"), cw("GM", "german"), inf("R1", "russian")],
                        {"G1": "1505", "GM": "1505", "R1": "1504"})
    assert all("GM" not in a.units for a in g.legal_actions() if isinstance(a, DesignateAssault))
    with pytest.raises(IllegalAction) as e:
        g.apply(DesignateAssault(("GM",), "1504"))
    assert e.value.rule == "17.11"


def test_17_13_hex_with_enemy_afv_may_not_be_assaulted():
    g = _at_designation([inf("G1", "german"), afv("RT", "russian"), inf("R1", "russian")],
                        {"G1": "1505", "RT": "1504", "R1": "1504"})
    with pytest.raises(IllegalAction) as e:
        g.apply(DesignateAssault(("G1",), "1504"))
    assert e.value.rule == "17.13"


def test_17_13_only_normal_units_are_marked():
    g = _at_designation([inf("G1", "german"), inf("G2", "german"), inf("R1", "russian")],
                        {"G1": "1505", "G2": "1505", "R1": "1504"})
    g.units["G1"].morale, g.units["G1"].down = Morale.PINNED, True
    assert all(a.units == ("G2",) for a in g.legal_actions() if isinstance(a, DesignateAssault))
    with pytest.raises(IllegalAction) as e:
        g.apply(DesignateAssault(("G1",), "1504"))
    assert e.value.rule == "17.13"


def test_17_12_pc_plus_one_even_into_empty_hex_and_survivors_down():
    # PR 8: 2d6 + 1 <= 8
    g = _at_assault([inf("G1", "german", pr=8), inf("R1", "russian")], {"G1": "1505", "R1": "1510"},
                    [DesignateAssault(("G1",), "1506")], script=[(4, 3)])
    assert g.current_side() == "german"
    g.apply(DesignateAssault(("G1",), "1506"))
    pc = events(g, "pc")[-1]
    assert pc["modifier"] == 1 and pc["rule"] == "17.12" and pc["passed"]
    assert g.units["G1"].hex == "1506" and g.units["G1"].down  # 17.0 f
    assert g.state.control["1506"] == "german"


def test_17_12_failed_pc_no_assault_and_attempt_counts():
    g = _at_assault([inf("G1", "german", pr=8), inf("R1", "russian")], {"G1": "1505", "R1": "1510"},
                    [DesignateAssault(("G1",), "1506")], script=[(4, 4)])
    g.apply(DesignateAssault(("G1",), "1506"))
    assert g.units["G1"].hex == "1505" and not g.units["G1"].down
    # 4.0: the PC taken counts as the assault: the marker is used up
    assert g.units["G1"].assault_hex is None
    assert DesignateAssault(("G1",), "1506") not in g.legal_actions()


def test_17_12_leader_pc_for_the_whole_stack_and_5_2_acting_leader_only_own_squad():
    units = [inf("GL", "german", squad="A", pr=9), inf("G2", "german", squad="A", pr=6),
             inf("G3", "german", squad="B", pr=6), inf("R1", "russian")]
    g = _at_assault(units, {"GL": "1505", "G2": "1505", "G3": "1505", "R1": "1510"},
                    [DesignateAssault(("G2", "G3", "GL"), "1506")], script=[(4, 4), (6, 6)])
    g.apply(DesignateAssault(("G2", "G3", "GL"), "1506"))
    pcs = events(g, "pc")
    assert [p["unit"] for p in pcs] == ["GL", "G3"]  # GL leads G2 (own squad), G3 takes its own PC
    assert g.units["GL"].hex == g.units["G2"].hex == "1506" and g.units["G3"].hex == "1505"


def test_17_12_commander_leads_any_squad_and_failure_stops_the_stack():
    units = [inf("GC", "german", commander=True, pr=10), inf("G2", "german", squad="A"),
             inf("G3", "german", squad="B"), inf("R1", "russian")]
    g = _at_assault(units, {"GC": "1505", "G2": "1505", "G3": "1505", "R1": "1510"},
                    [DesignateAssault(("G2", "G3", "GC"), "1506")], script=[(5, 5)])
    g.apply(DesignateAssault(("G2", "G3", "GC"), "1506"))
    assert len(events(g, "pc")) == 1
    assert all(g.units[u].hex == "1505" for u in ("GC", "G2", "G3"))


def test_17_11_assault_only_into_marked_hex():
    g = _at_assault([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"},
                    [DesignateAssault(("G1",), "1506")])
    with pytest.raises(IllegalAction) as e:
        g.apply(DesignateAssault(("G1",), "1504"))
    assert e.value.rule == "17.11"


def test_17_0_assault_is_voluntary_and_markers_lapse():
    g = _at_assault([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"},
                    [DesignateAssault(("G1",), "1506")])
    g.apply(EndPhase())
    assert g.state.phase is Phase.FREE_STATE_CHANGE
    assert g.units["G1"].assault_hex is None and g.units["G1"].hex == "1505"


def test_17_15_unit_pinned_after_designation_may_not_assault():
    g = _at_designation([inf("G1", "german"), inf("R1", "russian")], {"G1": "1505", "R1": "1510"})
    g.apply(DesignateAssault(("G1",), "1506"))
    g.units["G1"].morale, g.units["G1"].down = Morale.PINNED, True
    advance_to(g, Phase.FREE_STATE_CHANGE)
    assert not events(g, "assault")


def test_17_14_moving_fire_prevents_assault_but_grenades_into_that_hex_do_not():
    units = [inf("G1", "german"), inf("G2", "german"), inf("R1", "russian"), inf("R2", "russian")]
    g = _at_designation(units, {"G1": "1505", "G2": "1405", "R1": "1504", "R2": "1510"},
                        grenades={"german": 2, "russian": 0})
    g.apply(DesignateAssault(("G1",), "1504"))
    g.apply(DesignateAssault(("G2",), "1404"))
    advance_to(g, Phase.MOVING_FIRE)
    # G2 throws a grenade into 1504 (not its assault hex 1404); G1 stays clear of firing
    g.dice.script = [(6, 6)]  # grenade PC fails; still "fired" (4.0)
    g.apply(Grenade("G2", "1504"))
    g.apply(EndPhase())
    assert g.state.phase is Phase.ASSAULT
    acts = g.legal_actions()
    assert DesignateAssault(("G1",), "1504") in acts
    assert DesignateAssault(("G2",), "1404") not in acts  # 17.14
    g.units["G1"].moving_fired, g.units["G1"].grenade_hex = True, "1504"  # grenade into the assaulted hex
    assert DesignateAssault(("G1",), "1504") in g.legal_actions()


def test_17_21_a_normal_defenders_fire_first_results_immediate():
    g = _at_assault([inf("G1", "german", assault=3), inf("R1", "russian", assault=3)],
                    {"G1": "1505", "R1": "1504"}, [DesignateAssault(("G1",), "1504")],
                    script=[(1, 1), (1,)])
    g.apply(DesignateAssault(("G1",), "1504"))
    fires = events(g, "assault_fire")
    assert [f["unit"] for f in fires] == ["R1"]  # G1 eliminated in a, never fires in b
    assert g.units["G1"].eliminated and g.units["R1"].down and not g.dice.script


def test_17_21_b_pinned_defenders_and_attackers_simultaneous_17_23_eliminated_still_fire():
    g = _at_assault([inf("G1", "german", assault=3), inf("R1", "russian", assault=3)],
                    {"G1": "1505", "R1": "1504"}, [DesignateAssault(("G1",), "1504")],
                    script=[(1, 1), (1,), (1,)])
    g.units["R1"].morale, g.units["R1"].down = Morale.PINNED, True
    g.apply(DesignateAssault(("G1",), "1504"))
    fires = events(g, "assault_fire")
    assert [(f["unit"], f["step"]) for f in fires] == [("G1", "initial b"), ("R1", "initial b")]
    assert g.units["G1"].eliminated and g.units["R1"].eliminated


def test_17_21_c_suppressed_defenders_fire_last_then_17_22_normal_and_simultaneous_rounds():
    units = [inf("G1", "german", assault=3), inf("G2", "german", assault=3), inf("R1", "russian", assault=3),
             inf("R2", "russian", assault=3)]
    g = _at_assault(units, {"G1": "1505", "G2": "1505", "R1": "1504", "R2": "1504"},
                    [DesignateAssault(("G1", "G2"), "1504")],
                    # PCs G1, G2 (no leader: PR 8); b: G1, G2 miss; c: R1 hits, R2 misses;
                    # round 2: G? fires, R1, R2 fire
                    script=[(1, 1), (1, 1), (6,), (6,), (1,), (6,), (1,), (6,), (6,), (1,), (6,)])
    for r in ("R1", "R2"):
        g.units[r].morale, g.units[r].down = Morale.SUPPRESSED, True
    g.apply(DesignateAssault(("G1", "G2"), "1504"))
    fires = events(g, "assault_fire")
    assert [f["step"] for f in fires] == ["initial b", "initial b", "initial c", "initial c", "round 2",
                                          "round 2", "round 2", "round 3", "round 3"]
    assert [e["unit"] for e in events(g, "recovered") if e["rule"] == "17.22"] == ["R1", "R2"]
    # round 2: the surviving attacker hits, both defenders miss; round 3: the last defender falls
    assert not g.dice.script
    assert not any(g.units[u].on_map for u in ("R1", "R2"))
    assert sum(g.units[u].hex == "1504" for u in ("G1", "G2")) == 1


def test_17_23_owner_chooses_which_unit_a_hit_eliminates():
    units = [inf("G1", "german", assault=3), inf("RC", "russian", commander=True, assault=4, pr=10),
             inf("R1", "russian", assault=2, pr=7)]
    g = _at_assault(units, {"G1": "1505", "RC": "1504", "R1": "1504"}, [DesignateAssault(("G1",), "1504")],
                    # PC; a: R1, RC miss; b: G1 hits -> the Russian chooses; round 2: G1 hits, R1 misses
                    script=[(1, 1), (6,), (6,), (1,), (1,), (6,)])
    g.apply(DesignateAssault(("G1",), "1504"))
    # the fight waits for the owner of the unit hit: the Russian decides, in the German Assault Phase
    assert g.current_side() == "russian" and g.state.phase is Phase.ASSAULT
    assert g.legal_actions() == [TakeCasualty("R1"), TakeCasualty("RC")]
    assert g.legal_actions("german") == []
    assert not events(g, "eliminated")
    assert events(g, "casualty_choice")[-1] == {**events(g, "casualty_choice")[-1], "rule": "17.23",
                                                "side": "russian", "hits": 1, "candidates": ["R1", "RC"]}
    # what each side may see of the open choice (Game.view and PlayerView)
    assert g.view("russian")["casualty_choice"] == {"side": "russian", "hex": "1504", "hits": 1, "rule": "17.23",
                                                   "step": "b", "candidates": ["R1", "RC"], "chosen": []}
    assert PlayerView(g, "russian").casualty_choice()["candidates"] == ["R1", "RC"]
    assert "candidates" not in g.view("german")["casualty_choice"]
    # nothing else is legal meanwhile, and an enemy or absent unit is no casualty of the Russian
    for bad in (EndPhase(), TakeCasualty("G1"), TakeCasualty("R9")):
        n = len(g.events)
        with pytest.raises(IllegalAction) as e:
            g.apply(bad)
        assert e.value.rule == "17.23" and len(g.events) == n and g.current_side() == "russian"
    g.apply(TakeCasualty("RC"))  # the owner's choice, even the commander
    assert events(g, "eliminated")[0]["unit"] == "RC" and events(g, "eliminated")[0]["rule"] == "17.23"
    assert events(g, "casualty_chosen")[0]["unit"] == "RC"
    # round 2: one hit on the last Russian: forced, no decision; the German decides again
    assert events(g, "casualties_forced")[-1]["units"] == ["R1"]
    assert g.units["R1"].eliminated and g.units["G1"].hex == "1504" and g.units["G1"].down
    assert g.current_side() == "german" and g.fight is None and not g.dice.script
    assert g.view("german")["casualty_choice"] is None and PlayerView(g, "german").casualty_choice() is None


def test_17_24_cw_hit_is_eliminated_whole_and_fires_once_per_round():
    m = cw("RM", "russian", crew=3)
    m.assault = 1
    g = _at_assault([inf("G1", "german", assault=3), m], {"G1": "1505", "RM": "1504"},
                    [DesignateAssault(("G1",), "1504")],
                    script=[(1, 1), (6,), (1,)])
    g.apply(DesignateAssault(("G1",), "1504"))
    fires = events(g, "assault_fire")
    assert [f["unit"] for f in fires] == ["RM", "G1"]  # a: the 3-man CW fires once (17.24); b: G1
    # 17.23: one hit eliminates the unit, the CW whole, not one crew member
    assert g.units["RM"].eliminated and not events(g, "crew_losses")
    assert events(g, "eliminated")[0]["unit"] == "RM" and g.units["G1"].hex == "1504"


def test_17_23_forced_choice_hits_at_least_units_is_skipped_and_logged():
    units = [inf("G1", "german", assault=6), inf("G2", "german", assault=6),
             inf("R1", "russian", assault=2, pr=7), inf("RC", "russian", commander=True, assault=4, pr=10)]
    g = _at_assault(units, {"G1": "1505", "G2": "1505", "R1": "1504", "RC": "1504"},
                    [DesignateAssault(("G1", "G2"), "1504")],
                    script=[(1, 1), (1, 1), (6,), (6,), (1,), (1,)])  # PCs; a: misses; b: two hits
    g.apply(DesignateAssault(("G1", "G2"), "1504"))
    forced = events(g, "casualties_forced")
    assert len(forced) == 1 and forced[0]["side"] == "russian" and forced[0]["units"] == ["R1", "RC"]
    assert forced[0]["rule"] == "17.23" and not events(g, "casualty_choice")
    assert g.units["R1"].eliminated and g.units["RC"].eliminated and g.current_side() == "german"


def test_17_23_identical_candidates_no_decision_but_any_difference_is_one():
    units = [inf("G1", "german", assault=3), inf("R1", "russian", assault=2), inf("R2", "russian", assault=2)]
    g = _at_assault(units, {"G1": "1505", "R1": "1504", "R2": "1504"}, [DesignateAssault(("G1",), "1504")],
                    script=[(1, 1), (6,), (6,), (1,), (1,), (6,)])
    g.apply(DesignateAssault(("G1",), "1504"))
    forced = events(g, "casualties_forced")
    assert forced[0]["units"] == ["R1"] and "identical" in forced[0]["reason"]
    assert not events(g, "casualty_choice") and g.units["R1"].eliminated
    # the same two units, one of them DOWN: no longer identical, the owner decides
    g = _at_assault(units, {"G1": "1505", "R1": "1504", "R2": ("1504", True, None)},
                    [DesignateAssault(("G1",), "1504")], script=[(1, 1), (6,), (6,), (1,)])
    g.apply(DesignateAssault(("G1",), "1504"))
    assert g.current_side() == "russian" and g.legal_actions() == [TakeCasualty("R1"), TakeCasualty("R2")]


def test_17_21_a_casualty_chosen_before_step_b_and_the_lost_unit_does_not_fire():
    units = [inf("G1", "german", assault=3), inf("G2", "german", assault=5), inf("R1", "russian", assault=3)]
    g = _at_assault(units, {"G1": "1505", "G2": "1505", "R1": "1504"}, [DesignateAssault(("G1", "G2"), "1504")],
                    script=[(1, 1), (1, 1), (1,), (1,)])  # PCs; a: R1 hits
    g.apply(DesignateAssault(("G1", "G2"), "1504"))
    assert g.current_side() == "german" and g.fight is not None  # the assaulting side decides now
    assert g.legal_actions() == [TakeCasualty("G1"), TakeCasualty("G2")]
    assert g.view("german")["casualty_choice"]["step"] == "a"
    g.apply(TakeCasualty("G2"))
    assert g.units["G2"].eliminated  # applied immediately (17.21 a): G2 does not fire in b
    assert [(f["unit"], f["step"]) for f in events(g, "assault_fire")] == [("R1", "initial a"), ("G1", "initial b")]
    assert g.units["R1"].eliminated and g.fight is None and g.current_side() == "german"


def test_17_21_b_both_sides_choose_before_either_removal_and_17_23_the_chosen_still_fired():
    units = [inf("G1", "german", assault=3), inf("G2", "german", assault=5),
             inf("R1", "russian", assault=3), inf("R2", "russian", assault=4, pr=9)]
    g = _at_assault(units, {"G1": "1505", "G2": "1505", "R1": "1504", "R2": "1504"},
                    [DesignateAssault(("G1", "G2"), "1504")],
                    # PCs; b: G1 hits, G2 misses, R1 hits, R2 misses; round 2: G2 hits, R1 misses
                    script=[(1, 1), (1, 1), (1,), (6,), (1,), (6,), (1,), (6,)])
    for r in ("R1", "R2"):
        g.units[r].morale, g.units[r].down = Morale.PINNED, True
    g.apply(DesignateAssault(("G1", "G2"), "1504"))
    # the assaulting side allots its hit first; nothing is removed before the defender has chosen too
    assert g.current_side() == "german" and g.legal_actions() == [TakeCasualty("G1"), TakeCasualty("G2")]
    g.apply(TakeCasualty("G1"))
    assert not g.units["G1"].eliminated and g.current_side() == "russian"
    assert g.legal_actions() == [TakeCasualty("R1"), TakeCasualty("R2")]
    g.apply(TakeCasualty("R2"))
    assert g.units["G1"].eliminated and g.units["R2"].eliminated
    # both had fired in b before they were removed (17.23 simultaneous)
    assert {f["unit"] for f in events(g, "assault_fire") if f["step"] == "initial b"} == {"G1", "G2", "R1", "R2"}
    # 17.22 then round 2: the last Russian falls (forced), the German decides again
    assert g.units["R1"].eliminated and g.units["G2"].hex == "1504" and g.current_side() == "german"
    assert g.fight is None and not g.dice.script


def test_17_0_e_simultaneous_round_hits_are_chosen_by_both_owners():
    units = [inf("G1", "german", assault=3), inf("G2", "german", assault=5),
             inf("R1", "russian", assault=3), inf("R2", "russian", assault=4, pr=9)]
    g = _at_assault(units, {"G1": "1505", "G2": "1505", "R1": "1504", "R2": "1504"},
                    [DesignateAssault(("G1", "G2"), "1504")],
                    # PCs; a: R1, R2 miss; b: G1, G2 miss; round 2: G1 hits, G2 misses, R1 hits, R2 misses
                    script=[(1, 1), (1, 1), (6,), (6,), (6,), (6,), (1,), (6,), (1,), (6,),
                            (6,), (1,)])  # round 3: G2 misses, R1 hits
    g.apply(DesignateAssault(("G1", "G2"), "1504"))
    assert g.view("german")["casualty_choice"]["step"] == "round 2"
    g.apply(TakeCasualty("G1"))
    assert g.view("russian")["casualty_choice"]["step"] == "round 2"
    g.apply(TakeCasualty("R2"))
    assert g.units["G1"].eliminated and g.units["R2"].eliminated
    # round 3: one hit on the last German (forced): the Russian holds the hex
    assert g.units["G2"].eliminated and g.units["R1"].hex == "1504" and g.units["R1"].down
    assert events(g, "assault_over")[-1]["winner"] == "russian" and not g.dice.script


def test_17_23_cw_with_replacements_takes_them_along_20_3():
    m = cw("RM", "russian", crew=3)
    m.crew, m.replacements = 3, ["RX"]
    units = [inf("G1", "german", assault=3), m, inf("RX", "russian")]
    g = _at_assault(units, {"G1": "1505", "RM": "1504", "RX": "1510"}, [DesignateAssault(("G1",), "1504")],
                    script=[(1, 1), (6,), (1,)])
    g.units["RX"].hex = None  # 20.1: the replacement is part of the crew
    g.apply(DesignateAssault(("G1",), "1504"))
    assert g.units["RM"].eliminated and g.units["RX"].eliminated
    assert [e["rule"] for e in events(g, "eliminated")] == ["17.23", "20.3"]


def test_17_23_take_casualty_round_trips_json_and_the_game_replays():
    import json

    from core.ironcross.actions import action_from_json, action_to_json
    from core.replay import first_divergence

    a = TakeCasualty("RC")
    assert action_to_json(a) == {"unit": "RC", "kind": "take_casualty"}
    assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a

    def build():
        units = [inf("G1", "german", assault=3), inf("RC", "russian", commander=True, assault=4, pr=10),
                 inf("R1", "russian", assault=2, pr=7)]
        return _at_assault(units, {"G1": "1505", "RC": "1504", "R1": "1504"}, [DesignateAssault(("G1",), "1504")],
                           script=[(1, 1), (6,), (6,), (1,), (1,), (6,)])

    g = build()
    n = len(g.actions)
    g.apply(DesignateAssault(("G1",), "1504"))
    g.apply(TakeCasualty("RC"))
    assert any(e["kind"] == "action" and e["action"] == {"unit": "RC", "kind": "take_casualty"} for e in g.events)
    g2 = build()
    for x in g.actions[n:]:
        g2.apply(action_from_json(json.loads(json.dumps(action_to_json(x)))))
    assert first_divergence(json.loads(json.dumps(g.events)), json.loads(json.dumps(g2.events))) is None
    assert g2.state.snapshot() == g.state.snapshot()


def test_17_31_multiple_assaults_one_at_a_time_17_32_later_stacks_move_in_without_pc():
    units = [inf("G1", "german", assault=3), inf("G2", "german"), inf("R1", "russian", assault=3)]
    g = _at_assault(units, {"G1": "1505", "G2": "1405", "R1": "1504"},
                    [DesignateAssault(("G1",), "1504"), DesignateAssault(("G2",), "1504")],
                    script=[(1, 1), (6,), (1,)])
    acts = g.legal_actions()
    assert DesignateAssault(("G1",), "1504") in acts and DesignateAssault(("G2",), "1504") in acts
    g.apply(DesignateAssault(("G1",), "1504"))
    assert g.units["R1"].eliminated
    n = len(g.dice.rolls)
    g.apply(DesignateAssault(("G2",), "1504"))
    assert len(g.dice.rolls) == n  # 17.32: no PC
    assert g.units["G2"].hex == "1504" and g.units["G2"].down


def test_6_0_G_phasing_assaults_first_then_non_phasing():
    units = [inf("G1", "german"), inf("R1", "russian"), inf("R2", "russian")]
    g = small_game(units, {"G1": "1505", "R1": "1510", "R2": "1511"}, script=[(1, 1), (1, 1)])
    advance_to(g, Phase.MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("G1",), "1506"))
    advance_to(g, Phase.REACTION_MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("R1",), "1509"))
    advance_to(g, Phase.ASSAULT)
    assert g.current_side() == "german"
    assert g.legal_actions() == [DesignateAssault(("G1",), "1506"), EndPhase()]
    g.apply(DesignateAssault(("G1",), "1506"))
    assert g.current_side() == "german"
    g.apply(EndPhase())
    assert g.state.phase is Phase.ASSAULT and g.current_side() == "russian"
    g.apply(DesignateAssault(("R1",), "1509"))
    assert g.units["R1"].hex == "1509"


def test_6_0_G_17_23_phasing_defender_chooses_in_the_non_phasing_assault_then_the_assaulter_goes_on():
    units = [inf("G1", "german", assault=3), inf("G2", "german", assault=5), inf("R1", "russian", assault=3),
             inf("R2", "russian")]
    g = small_game(units, {"G1": "1505", "G2": "1505", "R1": "1504", "R2": "1511"},
                   script=[(1, 1), (6,), (6,), (1,), (1,), (6,)])  # PC; a: G1, G2 miss; b: R1 hits; round 2
    advance_to(g, Phase.REACTION_MOVEMENT, sub="assault_designation")
    g.apply(DesignateAssault(("R1",), "1505"))
    g.apply(DesignateAssault(("R2",), "1510"))
    advance_to(g, Phase.ASSAULT)  # the German (phasing) has no assault to make: his part is skipped
    assert g.current_side() == "russian" and g._sub == "second"
    g.apply(DesignateAssault(("R1",), "1505"))
    assert g.current_side() == "german" and g.legal_actions() == [TakeCasualty("G1"), TakeCasualty("G2")]
    g.apply(TakeCasualty("G2"))
    # round 2: R1 hits, G1 misses: the last German falls (forced); the Russian goes on with his assaults
    assert g.units["G2"].eliminated and g.units["G1"].eliminated and g.units["R1"].hex == "1505"
    assert g.state.phase is Phase.ASSAULT and g.current_side() == "russian"
    assert DesignateAssault(("R2",), "1510") in g.legal_actions()


def test_17_13_enemy_afv_entering_after_designation_blocks_the_assault():
    g = _at_assault([inf("G1", "german"), inf("R1", "russian"), afv("RT", "russian")],
                    {"G1": "1505", "R1": "1504", "RT": "1510"}, [DesignateAssault(("G1",), "1504")])
    g.units["RT"].hex = "1504"
    assert g.legal_actions() == [EndPhase()] or DesignateAssault(("G1",), "1504") not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(DesignateAssault(("G1",), "1504"))
    assert e.value.rule == "17.13"
