"""21.0 Machine gun modes (advanced rules): mode choice, hidden modes, DF/FL/SP fire, 21.42 change to
SP, one fire combat per Player Turn; plus random advanced games keeping the invariants."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict

import pytest

from core.ironcross.actions import (
    ChangeToSpray, EndPhase, Fire, IllegalAction, LaneFire, Pass, Place, SetMgMode, SprayFire, StartMove, Step,
    action_from_json, action_to_json)
from core.ironcross.game import Game
from core.ironcross.setup import Deployment, GameSetup
from core.ironcross.state import Morale, Phase
from core.replay import first_divergence
from maps.terrain_chart import load_terrain_chart
from tests.core.engine_fixtures import ScriptedDice, cw, inf
from tests.mapbuilder import make_map


def adv_game(units, placements, *, hexmap=None, seed=1, first_side="german", length=3, script=(), options=(),
             rules="advanced", grenades=None):
    """Like ``small_game`` but with ``rules``/``options``; stops at the first decision after set-up
    (the 21.41 mode choice when a NORMAL MG is on the map)."""
    m = hexmap or make_map(cols=(10, 20), rows=(1, 12))
    us = {u.id: u for u in units}
    deps = []
    for uid, where in placements.items():
        hx = where if isinstance(where, str) else where[0]
        deps.append(Deployment(us[uid].side, [uid], frozenset([hx])))
    setup = GameSetup(hexmap=m, chart=load_terrain_chart(), units=us, game_length=length, first_side=first_side,
                      setup_order=("german", "russian"), deployments=deps, entries=[],
                      grenades=grenades or {"german": 2, "russian": 2})
    g = Game(setup, seed, rules=rules, options=tuple(options))
    g.dice = ScriptedDice(seed=seed, on_roll=g._log_roll, script=list(script))
    while g.state.phase is Phase.SETUP:
        uid = g._setup_queue[0][2][0]
        where = placements[uid]
        hx, down, facing = (where, False, None) if isinstance(where, str) else where
        if us[uid].has_facing and facing is None:
            facing = 4  # toward higher rows
        g.apply(Place(uid, hx, down, facing))
    return g


def to_support_fire(g):
    """End the 21.41 mode choice steps."""
    while g.state.phase is Phase.MORALE:
        g.apply(EndPhase())


def mmg(uid="GMG", side="german", ap=8, rng=6, crew=3, pr=8):
    return cw(uid, side, weapon="MMG", ap=ap, rng=rng, crew=crew, pr=pr)


# ---------------------------------------------------------------- 21.0 / 21.41 mode choice
def test_21_0_basic_rules_all_mgs_in_df_without_mode_choice():
    g = adv_game([mmg(), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"}, rules="basic")
    assert g.state.phase is Phase.SUPPORT_FIRE  # no mode choice under the basic rules
    acts = g.legal_actions()
    assert Fire(("GMG",), "1005", "AP") in acts and Fire(("GMG",), "1005", "AP", intensive=("GMG",)) in acts
    assert not any(a.kind in ("lane_fire", "spray_fire", "spray_change", "mg_mode") for a in acts)
    assert g.units["GMG"].mg_mode == "DF"


def test_21_41_mode_choice_at_end_of_morale_phase_both_players_normal_mgs_only():
    g = adv_game([mmg(), mmg("RMG", "russian"), mmg("RMG2", "russian"), inf("R1", "russian")],
                 {"GMG": "1002", "RMG": ("1010", False, 1), "RMG2": ("1210", False, 1), "R1": "1005"})
    s = g.state
    assert s.phase is Phase.MORALE and g.current_side() == "german"  # Phasing Player first
    acts = g.legal_actions()
    assert SetMgMode("GMG", "SP") in acts and SetMgMode("GMG", "FL", "1005") in acts
    assert SetMgMode("GMG", "DF") not in acts  # already DF
    g.apply(SetMgMode("GMG", "FL", "1006"))
    assert g.units["GMG"].mg_mode == "FL" and g.units["GMG"].fl_target == "1006"
    with pytest.raises(IllegalAction) as e:
        g.apply(SetMgMode("GMG", "SP"))
    assert e.value.rule == "21.41"
    # only the german MG was choosing: the german step ends once it has chosen
    assert g.current_side() == "russian"
    g.units["RMG2"].morale = Morale.PINNED
    assert not any(getattr(a, "unit", None) == "RMG2" for a in g.legal_actions())  # 21.41 NORMAL only
    with pytest.raises(IllegalAction):
        g.apply(SetMgMode("RMG2", "SP"))
    g.apply(SetMgMode("RMG", "SP"))
    g.apply(EndPhase())
    assert s.phase is not Phase.MORALE
    ev = [e for e in g.events if e["kind"] == "game_start"][0]
    assert ev["rules"] == "advanced"


def test_21_21_fire_lane_target_within_los_range_frontal_area_and_level():
    m = make_map(cols=(10, 20), rows=(1, 12), levels={"1205": 1})
    g = adv_game([mmg(rng=6), inf("R1", "russian")], {"GMG": "1002", "R1": "1012"}, hexmap=m)
    targets = g._fl_targets(g.units["GMG"])
    assert "1003" in targets and "1008" in targets
    assert "1009" not in targets  # beyond the initial range (6)
    assert "1205" not in targets  # not on the MG's level
    assert "1001" not in targets  # not in the frontal area (facing 4)
    with pytest.raises(IllegalAction) as e:
        g.apply(SetMgMode("GMG", "FL", "1009"))
    assert e.value.rule == "21.21"


def test_21_0_mode_hidden_from_the_opponent_until_the_mg_fires():
    g = adv_game([mmg(), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"},
                 script=[(1, 1), (6,)])
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    assert g.visible_mode("GMG", "german") == "FL"
    assert g.visible_mode("GMG", "russian") is None
    v = g.view("russian")
    assert v["units"]["GMG"]["mg_mode"] is None and v["units"]["GMG"]["fl_target"] is None
    assert g.view("german")["units"]["GMG"]["mg_mode"] == "FL"
    g.apply(LaneFire("GMG"))  # PC (1,1) passes, attack (6,6)
    assert g.visible_mode("GMG", "russian") == "FL"
    assert g.view("russian")["units"]["GMG"]["fl_target"] == "1006"


# ---------------------------------------------------------------- 21.1 DF
def test_21_1_intensive_fire_only_in_df_and_fl_sp_mgs_do_not_fire_df():
    g = adv_game([mmg(), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"})
    g.apply(SetMgMode("GMG", "SP"))
    to_support_fire(g)
    acts = g.legal_actions()
    assert not any(isinstance(a, Fire) and "GMG" in a.firers for a in acts)
    assert SprayFire("GMG", ("R1",)) in acts
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire(("GMG",), "1005", "AP", intensive=("GMG",)))
    assert e.value.rule == "21.0"


# ---------------------------------------------------------------- 21.2 FL
def test_21_23_fl_attacks_every_unit_in_the_lane_separately_including_friendly_ones():
    units = [mmg(), inf("G1", "german"), inf("R1", "russian"), inf("R2", "russian")]
    # 1: PC; then one attack per unit in lane order (1004 G1, 1005 R1 R2): 1 die each (clear, UP)
    g = adv_game(units, {"GMG": "1002", "G1": "1004", "R1": "1005", "R2": "1005"},
                 script=[(2, 2), (6,), (1,), (5,)])
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    assert g._fire_lane(g.units["GMG"]) == ["1003", "1004", "1005", "1006"]
    g.apply(LaneFire("GMG"))
    attacks = [e for e in g.events if e["kind"] == "mode_attack"]
    assert [a["target"] for a in attacks] == ["G1", "R1", "R2"]
    assert all(a["final"] == 8 for a in attacks)  # 21.25 full AP firepower for EACH attack
    res = {e["unit"]: e["result"] for e in g.events if e["kind"] == "ap_result"}
    assert res == {"G1": "P", "R1": "E", "R2": "P"}  # friendly G1 pinned too
    # 21.27 all part of the one fire combat: nothing more this phase (each unit once, 10.24)
    assert LaneFire("GMG") not in g.legal_actions()


def test_21_2_fire_lane_does_not_penetrate_beyond_four_tree_symbols():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1005": 2, "1004": 2})
    g = adv_game([mmg(), inf("R1", "russian"), inf("R2", "russian")], {"GMG": "1002", "R1": "1005", "R2": "1006"},
                 hexmap=m)
    g.apply(SetMgMode("GMG", "FL", "1005"))  # 4 trees are met in 1004-1005: the lane ends in 1005
    assert "1006" not in g._fl_targets(g.units["GMG"])
    to_support_fire(g)
    assert g._fire_lane(g.units["GMG"]) == ["1003", "1004", "1005"]


def test_21_2_fire_lane_ends_in_the_hex_where_the_building_symbol_is():
    """10.33 + 21.21: the lane runs into the hex holding the building symbol that blocks the LOS,
    not just up to the hex before it (the symbol fills 1004; its edge is the 1003/1004 hexside)."""
    m = make_map(cols=(10, 20), rows=(1, 12),
                 buildings={"B1": [(32, 8), (31, 9), (29, 9), (28, 8), (29, 7), (31, 7)]})
    g = adv_game([mmg(), inf("R1", "russian"), inf("R2", "russian")], {"GMG": "1002", "R1": "1004", "R2": "1005"},
                 hexmap=m, script=[(2, 2), (6, 6, 6)])  # the fire PC, then the one attack (on R1)
    g.apply(SetMgMode("GMG", "FL", "1003"))
    to_support_fire(g)
    u = g.units["GMG"]
    u.fl_target = "1006"  # a target chosen before the MG moved into this hex (the lane is taken now)
    los = g.los("1002", "1006")
    assert not los.clear and los.blocking_hex == "1004"
    assert g._fire_lane(u) == ["1003", "1004"]  # R1 in the building hex is in the lane, R2 beyond it is not
    g.apply(LaneFire("GMG"))
    assert [e["target"] for e in g.events if e["kind"] == "mode_attack"] == ["R1"]


def test_21_25_fl_per_hex_terrain_reductions():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1004": 1})
    g = adv_game([mmg(), inf("R1", "russian"), inf("R2", "russian")], {"GMG": "1002", "R1": "1004", "R2": "1006"},
                 hexmap=m, script=[(2, 2), (6,), (6,)])
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    g.apply(LaneFire("GMG"))
    fp = {e["target"]: e["final"] for e in g.events if e["kind"] == "mode_attack"}
    assert fp == {"R1": 7, "R2": 7}  # 1004: its tree (11.16 a); 1006: the tree along the LOS (11.16 b)


def test_21_24_pc_once_per_phase_failure_ends_fire_for_the_player_turn():
    g = adv_game([mmg(), inf("R1", "russian"), inf("R2", "russian")], {"GMG": "1002", "R1": "1004", "R2": "1006"},
                 script=[(6, 6)])
    g.apply(SetMgMode("GMG", "SP"))
    to_support_fire(g)
    g.apply(SprayFire("GMG", ("R1",)))  # PC 12 fails
    assert not any(a.kind in ("spray_fire", "lane_fire") for a in g.legal_actions())
    assert not any(e["kind"] == "ammo" for e in g.events)


def test_21_22_fl_opportunity_fire_in_movement_and_13_12_reaction_movement_phase():
    # Russian Player Turn first: the german FL MG opportunity-fires in the Movement Phase
    g = adv_game([mmg(), inf("R1", "russian")], {"GMG": "1002", "R1": "1207"}, first_side="russian",
                 script=[(2, 2), (6,)])
    while g.state.phase is Phase.MORALE:
        if g.current_side() == "german":
            g.apply(SetMgMode("GMG", "FL", "1006"))
        g.apply(EndPhase())
    while g.state.phase is not Phase.MOVEMENT:
        g.apply(EndPhase())
    g.apply(StartMove(("R1",)))
    g.apply(Step("1106"))
    assert g.window is None or LaneFire("GMG") not in g.legal_actions()  # 1106 is not in the lane
    if g.window is not None:
        g.apply(Pass())
    g.apply(Step("1006"))
    assert g.window is not None and LaneFire("GMG") in g.legal_actions()
    g.apply(LaneFire("GMG"))
    assert [e["target"] for e in g.events if e["kind"] == "mode_attack"] == ["R1"]


def test_13_12_reaction_phase_fl_opportunity_fire_by_phasing_mg():
    g = adv_game([mmg(), inf("R1", "russian")], {"GMG": "1002", "R1": "1207"}, script=[(2, 2), (6,)])
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    while g.state.phase is not Phase.REACTION_MOVEMENT:
        g.apply(EndPhase())
    assert g.current_side() == "russian"
    g.apply(StartMove(("R1",)))
    g.apply(Step("1106"))
    if g.window is not None:
        g.apply(Pass())
    g.apply(Step("1006"))
    assert g.window is not None and g.current_side() == "german"
    g.apply(LaneFire("GMG"))
    pc = [e for e in g.events if e["kind"] == "pc" and e["rule"] == "21.24"][0]
    assert pc["modifier"] == 1  # 13.17 +1 in the Reaction Movement Phase


# ---------------------------------------------------------------- 21.3 SP
def test_21_33_21_35_sp_owner_picks_targets_half_firepower_rounded_down():
    g = adv_game([mmg(ap=7), inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
                 {"GMG": "1002", "R1": "1004", "R2": "1005", "R3": "1205"}, script=[(2, 2), (6,), (6,)])
    g.apply(SetMgMode("GMG", "SP"))
    to_support_fire(g)
    acts = g.legal_actions()
    assert SprayFire("GMG", ("R1",)) in acts and SprayFire("GMG", ("R1", "R2", "R3")) in acts
    g.apply(SprayFire("GMG", ("R1", "R3")))
    fp = {e["target"]: e["final"] for e in g.events if e["kind"] == "mode_attack"}
    assert fp == {"R1": 3, "R3": 3}  # 7 // 2
    # later SP attacks in the same phase: no new PC, R2 still open, R1/R3 not again (10.24)
    assert SprayFire("GMG", ("R2",)) in g.legal_actions()
    assert SprayFire("GMG", ("R1",)) not in g.legal_actions()
    n_pc = sum(1 for e in g.events if e["kind"] == "pc")
    g.apply(SprayFire("GMG", ("R2",)))
    assert sum(1 for e in g.events if e["kind"] == "pc") == n_pc


def test_21_31_spray_area_is_the_frontal_area_within_range_and_level():
    m = make_map(cols=(10, 20), rows=(1, 12), levels={"1005": 1})
    g = adv_game([mmg(rng=4), inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
                 {"GMG": "1003", "R1": "1005", "R2": "1008", "R3": "1001"}, hexmap=m)
    g.apply(SetMgMode("GMG", "SP"))
    to_support_fire(g)
    assert not any(a.kind == "spray_fire" for a in g.legal_actions())  # level 1, out of range, behind


def test_21_42_change_to_sp_takes_a_pc_and_quarters_the_firepower():
    g = adv_game([mmg(ap=8), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"},
                 script=[(2, 2), (2, 2), (6,)])
    to_support_fire(g)  # DF
    assert ChangeToSpray("GMG") in g.legal_actions()
    assert not any(a.kind in ("spray_fire", "lane_fire") for a in g.legal_actions())  # DF fires with Fire
    g.apply(ChangeToSpray("GMG"))
    u = g.units["GMG"]
    assert u.mg_mode == "SP" and u.sp_halved_turn == g.state.player_turn
    assert ChangeToSpray("GMG") not in g.legal_actions()
    g.apply(SprayFire("GMG", ("R1",)))
    assert [e["final"] for e in g.events if e["kind"] == "mode_attack"] == [2]  # 8 / 2 / 2


def test_21_42_failed_change_keeps_the_mode_and_the_mg_may_still_fire():
    g = adv_game([mmg(ap=8), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"}, script=[(6, 6)])
    to_support_fire(g)
    g.apply(ChangeToSpray("GMG"))
    assert g.units["GMG"].mg_mode == "DF"
    assert Fire(("GMG",), "1005", "AP") in g.legal_actions()


def test_21_27_fl_mg_makes_one_fire_combat_per_player_turn():
    g = adv_game([mmg(), inf("R1", "russian"), inf("R2", "russian")], {"GMG": "1002", "R1": "1005", "R2": "1009"},
                 script=[(2, 2), (6,)])
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    g.apply(LaneFire("GMG"))
    while g.state.phase is not Phase.REACTION_MOVEMENT:
        g.apply(EndPhase())
    g.apply(StartMove(("R2",)))
    for h in ("1008", "1007", "1006"):
        if g.window is not None:
            g.apply(Pass())
        g.apply(Step(h))
    assert LaneFire("GMG") not in g.legal_actions()  # it fired in the Support Fire Phase


# ---------------------------------------------------------------- random advanced games
def _ammo_setup(which):
    from tests.core.test_invariants import SETUPS
    st = SETUPS[which]()
    for u in st.units.values():
        if u.weapon in ("MMG", "LMG") or u.is_cw:
            u.ammo = 4
    return st


MODE_KINDS = ("mg_mode", "lane_fire", "spray_fire", "spray_change")


@pytest.mark.parametrize("which,seed", [("open", 1), ("close", 2), ("open", 3), ("close", 4), ("close", 5),
                                        ("open", 6)])
def test_random_advanced_games_keep_invariants_ammo_and_one_fire_combat(which, seed):
    from tests.core.test_invariants import _check, _track
    opts = ("observation-penalty", "observation-special-roll") if seed % 2 else ()
    g = Game(_ammo_setup(which), seed, rules="advanced", options=opts)
    rnd = random.Random(seed)
    fired: Counter = Counter()
    combats = defaultdict(set)
    forced: dict = {}
    seen = 0
    steps = 0
    while not g.is_terminal():
        acts = g.legal_actions()
        assert acts
        mode = [a for a in acts if a.kind in MODE_KINDS]
        pick = mode if mode and rnd.random() < 0.6 else acts
        g.apply(pick[rnd.randrange(len(pick))])
        steps += 1
        for e in g.events[seen:]:
            if e["kind"] == "pc" and e["rule"] in {"10.12", "13.17", "15.3", "16.0", "21.24", "21.34"}:
                fired[(e["player_turn"], e["unit"])] += 1
            if e["kind"] == "mode_attack":
                combats[(e["player_turn"], e["unit"])].add(e["phase"])
        _track(g, seen, Counter(), forced)  # 8.62: who was stopped by force where
        seen = len(g.events)
        _check(g, fired, forced=forced)
        for u in g.state.units.values():
            assert u.ammo is None or u.ammo >= 0  # 22.1
            if u.is_mg and u.side != g.current_side() and g.current_side() is not None:
                v = g.view(g.current_side())["units"][u.id]
                assert v["mg_mode"] in (None, u.mg_mode) and (v["mg_mode"] is None or u.mg_mode_known)
        assert all(len(p) == 1 for p in combats.values())  # 21.27/21.37 one fire combat per Player Turn
        assert steps < 20000
    g2 = Game(_ammo_setup(which), seed, rules="advanced", options=opts)
    for a in g.actions:
        g2.apply(action_from_json(action_to_json(a)))
    assert first_divergence(json.loads(json.dumps(g.events)), json.loads(json.dumps(g2.events))) is None
    assert g2.state.snapshot() == g.state.snapshot()
