"""Overruns (9.0-9.34) with IPs (18.4) and mines (19.2)."""

from __future__ import annotations

import pytest

from core.ironcross.actions import (
    EndPhase, IllegalAction, Overrun, OverrunAtFire, Pass, StartMove, Step, StopMove, action_from_json, action_to_json)
from core.ironcross.state import Morale, Phase
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.engine_helpers import advance_to, events
from tests.mapbuilder import make_map


def og(units, placements, script=(), **kw):
    g = small_game(units, placements, script=list(script), **kw)
    advance_to(g, Phase.MOVEMENT)
    return g


def test_9_0_overrun_needs_mp_to_enter_plus_one_and_to_exit():
    g = og([afv("GT", "german"), inf("R1", "russian")], {"GT": ("1505", False, 1), "R1": "1504"},
           script=[(6, 6), (6, 6)])
    g.apply(StartMove(("GT",)))
    g.moving.mp["GT"] = 2
    assert Overrun("1504") not in g.legal_actions()
    g.moving.mp["GT"] = 3
    g.apply(Overrun("1504"))
    assert g.units["GT"].hex == "1504" and g.moving.mp["GT"] == 1  # 1 terrain + 1 overrun
    assert StopMove() not in g.legal_actions()  # it must exit
    g.apply(Step("1503"))
    assert g.moving.mp["GT"] == 0


def test_9_11_one_overrun_per_player_turn_and_only_in_the_movement_phase():
    g = og([afv("GT", "german"), inf("R1", "russian"), inf("R2", "russian")],
           {"GT": ("1505", False, 1), "R1": "1504", "R2": "1502"}, script=[(6, 6), (6, 6)])
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    g.apply(Step("1503"))
    assert not any(isinstance(a, Overrun) for a in g.legal_actions())
    g2 = og([afv("GT", "german"), afv("RT", "russian"), inf("G1", "german")],
            {"GT": "1510", "RT": ("1505", False, 1), "G1": "1504"})
    advance_to(g2, Phase.REACTION_MOVEMENT)
    g2.apply(StartMove(("RT",)))
    assert not any(isinstance(a, Overrun) for a in g2.legal_actions())


def test_9_13_no_overrun_of_hexes_with_enemy_afvs_or_wrecks():
    g = og([afv("GT", "german"), inf("R1", "russian"), afv("RT", "russian"), inf("R2", "russian")],
           {"GT": ("1505", False, 1), "R1": "1504", "RT": "1504", "R2": "1506"})
    g.state.wrecks["1506"] = 1
    g.apply(StartMove(("GT",)))
    assert not any(isinstance(a, Overrun) for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply(Overrun("1504"))


def test_9_14_a_hex_may_be_overrun_again_by_a_different_afv():
    g = og([afv("GT", "german"), afv("GU", "german"), inf("R1", "russian")],
           {"GT": ("1505", False, 1), "GU": ("1503", False, 4), "R1": "1504"}, script=[(6, 6), (6, 6)] * 2)
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    g.apply(Step("1604"))
    g.apply(StopMove())
    g.apply(StartMove(("GU",)))
    assert Overrun("1504") in g.legal_actions()


def test_9_2_a_special_at_fire_at_frontal_armour_regardless_of_facing_once_wreck_in_adjacent_hex():
    # ATR faces away and has fired; PC (2,2) passes, AT 4 vs 2 dice (1,1) + frontal 4: all 1s destroys
    g = og([afv("GT", "german", frontal=4, flank=1), cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=2),
            inf("R1", "russian")], {"GT": ("1505", False, 1), "RA": "1504", "R1": "1504"},
           script=[(2, 2), (1, 1)])
    g.units["RA"].fired = True
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    assert g.current_side() == "russian" and g.legal_actions() == [OverrunAtFire("RA"), Pass()]
    g.apply(OverrunAtFire("RA"))
    r = events(g, "at_result")[-1]
    assert r["rule"] == "9.2 A" and r["armour"] == 4 and r["destroyed"]
    assert g.units["GT"].eliminated and g.state.wrecks == {"1505": 1} and g.moving is None


def test_9_2_a_only_once_in_the_movement_phase_at_the_first_afv():
    g = og([afv("GT", "german"), afv("GU", "german"), cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=2),
            inf("R1", "russian")],
           {"GT": ("1505", False, 1), "GU": ("1503", False, 4), "RA": "1504", "R1": "1504"},
           script=[(6, 6), (6, 6), (6, 6), (6, 6)])
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    g.apply(OverrunAtFire("RA"))  # ATR PC fails (12), infantry PC fails, attack (12) on RA suppressed...
    g.apply(Step("1604"))
    g.apply(StopMove())
    n = len([e for e in events(g, "pc") if e["rule"] == "9.2 A"])
    g.units["RA"].morale = Morale.NORMAL
    g.units["R1"].morale = Morale.NORMAL
    g.apply(StartMove(("GU",)))
    g.dice.script = [(6, 6), (6, 6), (6, 6)]
    g.apply(Overrun("1504"))  # no decision this time: the overrun goes on at once
    assert g.current_side() == "german" and g.units["GU"].hex == "1504"
    assert len([e for e in events(g, "pc") if e["rule"] == "9.2 A"]) == n == 1


def test_9_2_b_defensive_infantry_fire_men_trees_ips_commanders_twice_marsh():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1504": 1}, marsh=["1504"])
    g = og([afv("GT", "german"), inf("R1", "russian", pr=7), inf("RC", "russian", weapon="PL", pr=9, commander=True),
            cw("RM", "russian", crew=3), inf("RP", "russian")],
           {"GT": ("1505", False, 1), "R1": "1504", "RC": "1504", "RM": "1504", "RP": "1504"}, hexmap=m,
           script=[(4, 5), (6, 6, 6)])
    g.units["RP"].morale = Morale.PINNED  # not counted
    g.units["RP"].down = True
    g.state.ips["1504"] = 2
    g.apply(StartMove(("GT",)))
    g.dice.script.insert(0, (2, 1))  # woods? 1 tree: no immobilisation roll; marsh roll comes after
    g.dice.script.pop(0)
    g.apply(Overrun("1504"))
    b = events(g, "overrun_infantry_fire")[-1]
    assert events(g, "pc")[0]["unit"] == "RC"  # highest PR NORMAL infantry unit
    # men 1 + 1 + 3 = 5, trees 1, IP 2, commander 1, marsh 2
    assert (b["men"], b["trees"], b["ips"], b["commanders"], b["marsh"], b["number"]) == (5, 1, 2, 1, 2, 11)
    assert not b["destroyed"]


def test_9_2_b_three_dice_le_number_destroys_wreck_in_the_overrun_hex():
    g = og([afv("GT", "german"), inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
           {"GT": ("1505", False, 1), "R1": "1504", "R2": "1504", "R3": "1504"}, script=[(2, 2), (1, 1, 1)])
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    assert g.units["GT"].eliminated and g.state.wrecks == {"1504": 1}
    assert g.units["R1"].normal and g.units["R2"].normal and g.moving is None  # no loss to the defenders


def test_9_2_c_afv_attack_eliminates_or_suppresses_with_the_cumulative_table():
    g = og([afv("GT", "german", overrun=7), inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
           {"GT": ("1505", False, 1), "R1": "1504", "R2": "1504", "R3": "1504"},
           script=[(6, 6), (3, 3), (4, 4), (5, 5), (6, 6)])
    g.units["R3"].morale = Morale.SUPPRESSED
    g.units["R3"].down = True
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    # B: R1 PC fails (12); C: R1 6 <= 7 eliminated, R2 8 suppressed, R3 10 -> special roll (12 fails)
    assert g.units["R1"].eliminated
    assert g.units["R2"].morale is Morale.SUPPRESSED and g.units["R2"].down
    assert g.units["R3"].eliminated and events(g, "pc")[-1]["rule"] == "11.45"


def test_9_2_c_plus_one_when_all_defenders_pinned_or_suppressed_plus_trees_and_ips():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1504": 1})
    g = og([afv("GT", "german"), inf("R1", "russian")], {"GT": ("1505", False, 1), "R1": "1504"}, hexmap=m,
           script=[(3, 2)])
    g.units["R1"].morale = Morale.PINNED
    g.units["R1"].down = True
    g.state.ips["1504"] = 1
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    r = events(g, "overrun_result")[-1]
    assert r["modifier"] == 3 and not r["eliminated"]  # 5 + 3 > 7
    assert g.units["R1"].morale is Morale.SUPPRESSED  # PINNED units are still SUPPRESSED (18.4)


def test_18_4_normal_units_in_ips_are_only_pinned_suppressed_ones_remain_so():
    g = og([afv("GT", "german", overrun=2), inf("R1", "russian"), inf("R2", "russian")],
           {"GT": ("1505", False, 1), "R1": "1504", "R2": "1504"}, script=[(6, 6), (6, 6), (6, 6)])
    g.units["R2"].morale = Morale.SUPPRESSED
    g.units["R2"].down = True
    g.state.ips["1504"] = 1
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    assert g.units["R1"].morale is Morale.PINNED and g.units["R1"].down
    assert g.units["R2"].morale is Morale.SUPPRESSED and not g.units["R2"].eliminated


def test_9_12_after_the_overrun_the_afv_exits_and_may_continue():
    g = og([afv("GT", "german"), inf("R1", "russian")], {"GT": ("1505", False, 1), "R1": "1504"},
           script=[(6, 6), (6, 6)])
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    g.apply(Step("1503"))
    g.apply(Step("1502"))
    assert g.units["GT"].hex == "1502" and StopMove() in g.legal_actions()


def test_19_2_at_mines_attack_the_afv_after_the_overrun_before_it_leaves():
    g = og([afv("GT", "german"), inf("R1", "russian")], {"GT": ("1505", False, 1), "R1": "1504"},
           script=[(6, 6), (6, 6), (2, 2)])
    g.state.mines["1504"] = {"side": "russian", "ap": 0, "at": 5, "revealed_ap": False, "revealed_at": False}
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    kinds = [e["kind"] for e in g.events if e["kind"] in ("overrun_result", "mine_result")]
    assert kinds == ["overrun_result", "mine_result"]
    assert g.units["GT"].eliminated and g.state.wrecks == {"1504": 1} and g.moving is None


def test_9_3_combined_overrun_refused_when_the_hex_holds_more_men():
    g = og([afv("GT", "german"), inf("G1", "german"), cw("RM", "russian", crew=3), inf("R1", "russian")],
           {"GT": ("1505", False, 1), "G1": "1505", "RM": "1504", "R1": "1503"},
           script=[(6, 6), (6, 6)])
    g.apply(StartMove(("GT", "G1")))
    g.apply(Overrun("1504", True))
    assert events(g, "combined_overrun_refused") and g.units["G1"].hex == "1505"
    assert g.units["GT"].hex == "1504"


def test_9_31_afv_destroyed_by_special_at_fire_infantry_down_in_the_adjacent_hex_not_suppressed():
    g = og([afv("GT", "german"), inf("G1", "german"), cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=1)],
           {"GT": ("1505", False, 1), "G1": "1505", "RA": "1504"}, script=[(2, 2), (1, 1)])
    g.units["RA"].crew_max = 1
    g.apply(StartMove(("GT", "G1")))
    g.apply(Overrun("1504", True))
    g.apply(OverrunAtFire("RA"))
    u = g.units["G1"]
    assert g.units["GT"].eliminated and u.hex == "1505" and u.down and u.normal and g.moving is None


def test_9_32_9_33_9_34_combined_overrun_skips_infantry_fire_infantry_stay_and_assault_at_once():
    g = og([afv("GT", "german", overrun=2), inf("G1", "german", assault=6), inf("G2", "german", assault=6),
            inf("R1", "russian", assault=1)],
           {"GT": ("1505", False, 1), "G1": "1505", "G2": "1505", "R1": "1504"},
           script=[(6, 6), (6,), (6,), (1,)])
    g.apply(StartMove(("GT", "G1", "G2")))
    g.apply(Overrun("1504", True))
    assert not events(g, "overrun_infantry_fire")  # 9.32
    assert not [e for e in events(g, "pc")]  # no assault PC (9.33)
    assert events(g, "assault")[-1]["rule"] == "9.33"
    assert g.units["R1"].eliminated and g.units["G1"].hex == "1504" and g.units["G2"].hex == "1504"
    assert g.moving.units == ["GT"] and g.units["G1"].fired  # 9.34
    g.apply(Step("1503"))
    assert g.units["G1"].hex == "1504"


def test_9_2_a_special_at_fire_is_the_defending_players_choice_each_unit_independently():
    # 9.2 A "may fire": the overrun waits while the defender decides; RA fires (PC fails), RG is
    # declined (Pass): no PC for it; the overrun then goes on (9.2 B, 9.2 C) and the mover decides again
    g = og([afv("GT", "german", overrun=2), cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=2),
            cw("RG", "russian", weapon="45AT", ap=2, at=8, crew=3), cw("RM", "russian")],
           {"GT": ("1505", False, 1), "RA": "1504", "RG": ("1404", False, 1), "RM": ("1405", False, 1)},
           script=[(6, 6), (6, 6), (6, 6), (6, 6)])
    # 8.63 allows one CW counter a hex, so a legal position has one ATR/ATG there; the decision is per
    # unit all the same: put two in (and a PINNED MG, never offered)
    for uid in ("RG", "RM"):
        g.units[uid].hex = "1504"
    g.units["RM"].morale = Morale.PINNED
    g.units["RM"].down = True
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    w = events(g, "overrun_at_fire_window")[-1]
    assert w["rule"] == "9.2 A" and w["eligible"] == ["RA", "RG"] and w["side"] == "russian"
    assert g.current_side() == "russian" and g.units["GT"].hex == "1505"
    assert g.legal_actions() == [OverrunAtFire("RA"), OverrunAtFire("RG"), Pass()]
    assert g.legal_actions("german") == []
    with pytest.raises(IllegalAction) as e:
        g.apply(OverrunAtFire("RM"))
    assert e.value.rule == "9.2 A"
    with pytest.raises(IllegalAction) as e:
        g.apply(EndPhase())
    assert e.value.rule == "9.2 A"
    g.apply(OverrunAtFire("RA"))
    assert [p["unit"] for p in events(g, "pc")] == ["RA"] and not events(g, "at_result")
    assert g.legal_actions() == [OverrunAtFire("RG"), Pass()]  # RA has had its shot
    g.apply(Pass())
    assert events(g, "overrun_at_fire_declined")[-1]["units"] == ["RG"]
    assert [p["unit"] for p in events(g, "pc") if p["rule"] == "9.2 A"] == ["RA"]  # RG took no PC
    assert g.units["GT"].hex == "1504" and events(g, "overrun_result")  # 9.2 C happened
    assert g.current_side() == "german" and g.moving is not None
    assert not g.units["RA"].fired and not g.units["RG"].fired  # 9.2 A does not mark them fired


def test_9_2_a_declining_uses_up_the_one_chance_in_the_movement_phase():
    g = og([afv("GT", "german"), afv("GU", "german"), cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=2),
            inf("R1", "russian")],
           {"GT": ("1505", False, 1), "GU": ("1503", False, 4), "RA": "1504", "R1": "1504"},
           script=[(6, 6), (6, 6), (6, 6)])
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    g.apply(Pass())  # no special AT fire at the first AFV
    assert not [e for e in events(g, "pc") if e["rule"] == "9.2 A"]
    g.apply(Step("1604"))
    g.apply(StopMove())
    g.units["RA"].morale = Morale.NORMAL
    g.units["R1"].morale = Morale.NORMAL
    g.apply(StartMove(("GU",)))
    g.dice.script = [(6, 6), (6, 6), (6, 6)]
    g.apply(Overrun("1504"))
    assert not events(g, "overrun_at_fire_window")[1:] and g.current_side() == "german"


def test_9_2_a_overrun_at_fire_round_trips_through_json_and_reads_in_the_hot_seat_list():
    from editor.play.game_record import describe_action

    a = OverrunAtFire("RA")
    assert action_to_json(a) == {"unit": "RA", "kind": "overrun_at_fire"}
    assert action_from_json(action_to_json(a)) == a
    assert describe_action(a) == "special AT fire by RA at the overrunning AFV (9.2 A)"


def test_9_2_a_decisions_replay_from_the_seed_and_the_json_actions():
    # the game is reproduced from its seed and its decisions (core.replay / ironcross replay --verify)
    import json

    from core.ironcross.game import Game
    from core.ironcross.view import PlayerView
    from core.ironcross.players import RandomPlayer
    from core.replay import first_divergence

    g = og([afv("GT", "german"), cw("RA", "russian", weapon="ATR", ap=0, at=4, rng=4, crew=2),
            inf("R1", "russian"), inf("G1", "german")],
           {"GT": ("1505", False, 1), "RA": "1504", "R1": "1504", "G1": "1510"}, length=1, seed=5)
    g.apply(StartMove(("GT",)))
    g.apply(Overrun("1504"))
    assert g.overrun_window is not None
    players = {"german": RandomPlayer(1), "russian": RandomPlayer(2)}
    while not g.is_terminal():
        side = g.current_side()
        g.apply(players[side].choose(PlayerView(g, side), side, g.legal_actions()))
    assert any(e["kind"] == "action" and e["action"]["kind"] in ("overrun_at_fire", "pass") and e["side"] == "russian"
               for e in g.events)
    rerun = Game(g.setup, 5)
    for e in g.events:
        if e["kind"] == "action":
            rerun.apply(action_from_json(json.loads(json.dumps(e["action"]))))
    recorded = json.loads(json.dumps(g.events, default=str))
    assert first_divergence(recorded, json.loads(json.dumps(rerun.events, default=str))) is None


def test_9_33_17_23_immediate_assault_waits_for_the_defenders_casualty_choice_then_the_afv_exits():
    from core.ironcross.actions import TakeCasualty

    g = og([afv("GT", "german", overrun=2), inf("G1", "german", assault=5), inf("G2", "german", assault=5),
            inf("R1", "russian", assault=1), inf("R2", "russian", assault=3, pr=9)],
           {"GT": ("1505", False, 1), "G1": "1505", "G2": "1505", "R1": "1504", "R2": "1504"},
           # 9.2 C: R1, R2 survive (SUPPRESSED); b: G1 hits, G2 misses; c: R1 misses;
           # round 2: G1, G2 hit, R1 misses
           script=[(6, 6), (6, 6), (1,), (6,), (6,), (1,), (1,), (6,)])
    g.apply(StartMove(("GT", "G1", "G2")))
    g.apply(Overrun("1504", True))
    # in the middle of the German move the Russian owner chooses which unit the hit eliminates
    assert g.state.phase is Phase.MOVEMENT and g.current_side() == "russian"
    assert g.legal_actions() == [TakeCasualty("R1"), TakeCasualty("R2")]
    assert g.view("russian")["casualty_choice"]["hex"] == "1504"
    with pytest.raises(IllegalAction) as e:
        g.apply(Step("1503"))  # the mover waits
    assert e.value.rule == "17.23"
    g.apply(TakeCasualty("R2"))
    assert g.units["R2"].eliminated and g.units["R1"].eliminated  # round 2: two hits on R1 (forced)
    assert events(g, "casualties_forced")[-1]["units"] == ["R1"]
    # the overrun goes on: infantry stay (9.33, 9.34), the AFV must exit, the German decides again
    assert g.current_side() == "german" and g.moving.units == ["GT"] and g.moving.overrun_from == "1504"
    assert g.units["G1"].fired and g.units["G1"].down and g.units["G2"].down and not g.dice.script
    g.apply(Step("1503"))
    assert g.units["GT"].hex == "1503" and g.units["G1"].hex == "1504"


def test_19_24_combined_overrun_ap_mines_attack_every_infantry_unit_in_the_hex_defenders_too():
    # 9.33: the Russian (assault 6) wins the immediate assault against an attacker that cannot hit
    # (assault 0); the infantry that went in set the AP mines off all the same, and they attack the
    # defender left in the hex (19.24: EACH infantry/CW unit in the hex, either side)
    g = og([afv("GT", "german", overrun=2), inf("G1", "german", assault=0), inf("R1", "russian", assault=6)],
           {"GT": ("1505", False, 1), "G1": "1505", "R1": "1504"}, script=[(6, 6), (2,), (5,), (1,)])
    g.state.mines["1504"] = {"side": "russian", "ap": 4, "at": 0, "revealed_ap": False, "revealed_at": False}
    g.apply(StartMove(("GT", "G1")))
    g.apply(Overrun("1504", True))  # 9.2 C: 12 > 2, R1 SUPPRESSED; G1 misses, R1 hits (17.23)
    assert [(e["unit"], e["die"], e["result"]) for e in events(g, "mine_result")] == [("R1", 1, "E")]
    assert g.units["G1"].eliminated and g.units["R1"].eliminated  # 1 <= 4/4: ELIMINATED (19.24 a)


def test_8_62_9_3_overrun_not_offered_when_the_infantry_left_behind_would_be_over_the_limit():
    # the AFV stack passes through 1505 (five men): the two infantry may not end their move there
    # (9.3: they stay in the adjacent hex unless they go in), so only the combined overrun is offered
    units = [afv("GT", "german"), inf("A1", "german"), inf("A2", "german"), inf("R1", "russian")]
    units += [inf(f"G{i}", "german") for i in range(5)]
    g = og(units, {"GT": ("1504", False, 1), "A1": "1504", "A2": "1504", "R1": "1506",
                   **{f"G{i}": "1505" for i in range(5)}})
    g.apply(StartMove(("GT", "A1", "A2")))
    g.apply(Step("1505"))
    g.apply(Pass())  # R1's opportunity fire window
    acts = g.legal_actions()
    assert Overrun("1506", True) in acts and Overrun("1506", False) not in acts
    with pytest.raises(IllegalAction) as e:
        g.apply(Overrun("1506", False))
    assert e.value.rule == "8.62"
