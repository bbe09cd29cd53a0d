"""23.0 Observation (advanced rules): when it is rolled, the 2d6 procedure and its modifiers (23.2),
its effects (23.3), the optional penalty and the optional Special Roll."""

from __future__ import annotations

from core.ironcross.actions import Fire, Grenade, LaneFire, MortarFire, SetMgMode
from core.ironcross.state import Morale, Phase
from maps.terrain_chart import load_terrain_chart
from tests.core.engine_fixtures import afv, cw, inf
from tests.core.test_mg_modes import adv_game, mmg, to_support_fire
from tests.mapbuilder import make_map


def _obs_events(g):
    return [e for e in g.events if e["kind"] == "observation"]


def test_23_0_basic_rules_no_observation():
    g = adv_game([inf("G1", "german", ap=5), inf("R1", "russian")], {"G1": "1002", "R1": "1005"}, rules="basic",
                 script=[(2, 2), (6,)])
    g.apply(Fire(("G1",), "1005", "AP"))
    assert not _obs_events(g)
    assert [e["final"] for e in g.events if e["kind"] == "ap_firepower"] == [5]


def test_23_0_adjacent_hexes_always_observe():
    g = adv_game([inf("G1", "german", ap=5), inf("R1", "russian")], {"G1": "1002", "R1": "1003"},
                 script=[(2, 2), (6,)])
    g.apply(Fire(("G1",), "1003", "AP"))
    assert not _obs_events(g)
    assert [e["final"] for e in g.events if e["kind"] == "ap_firepower"] == [5]


def test_23_11_23_32_observation_before_pcs_unobserved_ap_fire_halved_rounded_up():
    g = adv_game([inf("G1", "german", ap=5), inf("R1", "russian")], {"G1": "1002", "R1": "1005"},
                 script=[(6, 6), (2, 2), (6,)])
    g.apply(Fire(("G1",), "1005", "AP"))
    kinds = [e["kind"] for e in g.events if e["kind"] in ("observation", "pc")]
    assert kinds == ["observation", "pc"]  # 23.11 before the fire PC
    ob = _obs_events(g)[0]
    assert ob["observed"] is False and ob["base"] == 10
    fp = [e for e in g.events if e["kind"] == "ap_firepower"][0]
    assert fp["final"] == 3 and fp["unobserved_reduction"] == 2  # 5 -> 3 (rounded up)


def test_23_2_observed_gives_full_firepower():
    g = adv_game([inf("G1", "german", ap=5), inf("R1", "russian")], {"G1": "1002", "R1": "1005"},
                 script=[(5, 5), (2, 2), (6,)])
    g.apply(Fire(("G1",), "1005", "AP"))
    assert _obs_events(g)[0]["observed"] is True
    assert [e["final"] for e in g.events if e["kind"] == "ap_firepower"] == [5]


def test_23_31_at_fire_needs_an_observed_target():
    at = cw("GAT", "german", weapon="37AT", ap=2, rng=6, at=12, crew=3, ma=0)
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1006": 3})
    g = adv_game([at, afv("RT", "russian"), inf("R1", "russian")], {"GAT": "1002", "RT": "1006", "R1": "1008"},
                 hexmap=m, script=[(6, 6)])
    to_support_fire(g)
    a = Fire(("GAT",), "1006", "AT", target_unit="RT")
    assert a in g.legal_actions()
    g.apply(a)  # 12 + 3 trees - 4 (AFV in the hex) > 9 (woods): not observed
    assert not g.units["GAT"].fired  # no PC taken
    assert not any(e["kind"] == "pc" for e in g.events)
    assert a not in g.legal_actions()  # 23.12 no second attempt from that hex at that hex this phase


def test_23_34_mgs_and_afvs_need_no_observation_of_building_hexes():
    g = adv_game([mmg(), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"}, script=[(2, 2), (6,)])
    to_support_fire(g)
    g.terrain.is_building = lambda h: h == "1005"
    g.apply(Fire(("GMG",), "1005", "AP"))
    assert not _obs_events(g)
    assert [e["final"] for e in g.events if e["kind"] == "ap_firepower"] == [8]


def test_23_35_fl_and_sp_attacks_never_observe_nor_halve():
    g = adv_game([mmg(), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"}, script=[(2, 2), (6,)])
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    g.apply(LaneFire("GMG"))
    assert not _obs_events(g)
    assert [e["final"] for e in g.events if e["kind"] == "mode_attack"] == [8]


def test_23_36_grenades_need_no_observation():
    g = adv_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1002", "R1": "1004"}, script=[(2, 2), (6,)])
    g.apply(Grenade("G1", "1004"))
    assert not _obs_events(g)


def test_23_12_one_observation_per_hex_per_target_hex_per_phase():
    g = adv_game([inf("G1", "german", squad="A"), inf("G2", "german", squad="B"), inf("R1", "russian")],
                 {"G1": "1002", "G2": "1002", "R1": "1005"}, script=[(6, 6), (2, 2), (6,), (2, 2), (6,)])
    g.apply(Fire(("G1",), "1005", "AP"))
    g.apply(Fire(("G2",), "1005", "AP"))
    assert len(_obs_events(g)) == 1
    assert [e["final"] for e in g.events if e["kind"] == "ap_firepower"] == [2, 2]


def test_23_2_modifiers_for_both_sides():
    m = make_map(cols=(10, 30), rows=(1, 14), trees={"1012": 2, "1008": 1}, marsh=["1009"])
    g = adv_game([inf("GC", "german", commander=True, weapon="PL", ap=3), afv("RT", "russian"),
                  inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
                 {"GC": "1001", "RT": "1012", "R1": "1012", "R2": "1012", "R3": "1012"}, hexmap=m)
    to_support_fire(g)
    gc = g.units["GC"]
    tgt, ob = g._observation_modifiers(gc, "1001", "1012")
    t = dict((r, v) for r, v in tgt)
    o = dict((r, v) for r, v in ob)
    assert t["23.2 a"] == 1  # 11 hexes: +1 for the five beyond the first five
    assert t["23.2 c"] == 2 and t["23.2 d"] == 1 and t["23.2 e"] == 1
    assert "23.2 f" not in t  # not all non-AFV DOWN units
    assert o["23.2 obs d"] == -4 and o["23.2 obs e"] == -2
    assert "23.2 obs f" not in o  # 3 men
    # history: moved / fired within the last three phases
    g._note_moved(g.units["R1"])
    g._note_fired(g.units["RT"], "j")
    g._note_moved(gc)
    tgt, ob = g._observation_modifiers(gc, "1001", "1012")
    o = dict((r, v) for r, v in ob)
    assert o["23.2 obs c"] == -2 and o["23.2 obs j"] == -5 and dict(tgt)["23.2 g"] == 2


def test_23_2_three_phase_history_excludes_the_morale_phase():
    g = adv_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1002", "R1": "1005"})
    s = g.state
    s.phase = Phase.FREE_STATE_CHANGE
    g._note_moved(g.units["R1"])
    s.player_turn += 1
    s.phase = Phase.SUPPORT_FIRE
    assert g._moved_recently(g.units["R1"])  # free state change, [morale], support fire
    s.phase = Phase.MOVEMENT
    assert g._moved_recently(g.units["R1"])
    s.phase = Phase.REACTION_MOVEMENT
    assert not g._moved_recently(g.units["R1"])


def test_23_2_observation_base_from_the_chart_note_d():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1005": 1, "1006": 2}, levels={"1007": 1}, marsh=["1008"])
    g = adv_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1002", "R1": "1004"}, hexmap=m)
    c = load_terrain_chart()
    assert g._observation_base("1004") == c.observation_base("clear")
    assert g._observation_base("1005") == c.observation_base("clear")  # single tree: note d
    assert g._observation_base("1006") == c.observation_base("woods", 2)
    assert g._observation_base("1007") == c.observation_base("clear")  # hill: note d
    assert g._observation_base("1008") == c.observation_base("marsh")


def test_23_14_group_fire_only_the_leader_observes():
    g = adv_game([inf("G1", "german"), inf("G2", "german"), inf("GL", "german", pr=9), inf("R1", "russian")],
                 {"G1": "1002", "G2": "1102", "GL": "1102", "R1": "1006"},
                 script=[(1, 1), (2, 2), (2, 2), (2, 2), (6,)])
    g.apply(Fire(("G1", "G2", "GL"), "1006", "AP"))
    ob = _obs_events(g)
    assert len(ob) == 1 and ob[0]["observer"] == "GL"


def test_23_2_optional_penalty_no_observer_modifier():
    g = adv_game([inf("G1", "german", ap=5), inf("R1", "russian")], {"G1": "1002", "R1": "1005"},
                 options=("observation-penalty",), script=[(2, 2), (2, 2), (6, 6)])
    g.apply(Fire(("G1",), "1005", "AP"))
    assert g.units["G1"].observe_moved  # a) considered to have moved: one more die
    assert any(e["kind"] == "observation_penalty" for e in g.events)
    g2 = adv_game([inf("G1", "german", ap=5), inf("R1", "russian")], {"G1": "1002", "R1": "1005"},
                  options=("observation-penalty",), script=[(2, 2), (6, 6)])
    g2.units["G1"].moved = True
    g2.apply(Fire(("G1",), "1005", "AP"))
    ob = _obs_events(g2)[0]
    assert ob["observed"] is False and ob["rule"] == "23.2 penalty b"  # b) no attempt


def test_optional_special_roll_uses_the_observation_base():
    g = adv_game([inf("G1", "german", ap=8), inf("R1", "russian")], {"G1": "1002", "R1": "1003"},
                 options=("observation-special-roll",), script=[(2, 2), (2, 2), (5, 5)])
    g.units["R1"].morale = Morale.SUPPRESSED
    g.units["R1"].down = True
    g.apply(Fire(("G1",), "1003", "AP"))  # DOWN in clear: 2 dice, 4: S on S -> Special Roll
    sr = [e for e in g.events if e["kind"] == "special_roll"]
    assert sr and sr[0]["rule"] == "11.45 optional" and sr[0]["base"] == 10 and sr[0]["eliminated"] is True
    assert g.units["R1"].eliminated


def test_23_33_unobserved_mortar_fire_scatters_more():
    mor = cw("GMO", "german", weapon="Mor", ap=6, rng=3, crew=3, ma=0)
    g = adv_game([mor, inf("R1", "russian")], {"GMO": "1002", "R1": "1006"},
                 script=[(6, 6), (2, 2), (1,), (6,)])
    to_support_fire(g)
    g.apply(MortarFire("GMO", "1006", 1))
    rd = [e for e in g.events if e["kind"] == "mortar_round"][0]
    assert rd["modifier"] == 1


def test_rule_switches_are_checked_and_recorded_in_game_start():
    import pytest
    g = adv_game([inf("G1", "german"), inf("R1", "russian")], {"G1": "1002", "R1": "1005"},
                 options=("observation-penalty", "observation-special-roll"))
    ev = g.events[0]
    assert ev["kind"] == "game_start" and ev["rules"] == "advanced"
    assert ev["options"] == ["observation-penalty", "observation-special-roll"]
    with pytest.raises(ValueError):
        adv_game([inf("G1", "german")], {"G1": "1002"}, rules="expert")
    with pytest.raises(ValueError):
        adv_game([inf("G1", "german")], {"G1": "1002"}, options=("no-such-rule",))
    with pytest.raises(ValueError):
        adv_game([inf("G1", "german")], {"G1": "1002"}, rules="basic", options=("observation-penalty",))
