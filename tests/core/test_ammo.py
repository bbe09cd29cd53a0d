"""22.0 Ammo depletion (advanced rules): costs of 22.2, failed PCs cost nothing (22.1), out of ammo
means no more fire, unlimited without an ammo number, nothing depletes under the basic rules."""

from __future__ import annotations

import pytest

from core.ironcross.actions import Fire, IllegalAction, LaneFire, MortarFire, SetMgMode, SprayFire
from tests.core.engine_fixtures import afv, cw, inf
from tests.core.test_mg_modes import adv_game, mmg, to_support_fire


def _mg(ammo, **kw):
    u = mmg(**kw)
    u.ammo = ammo
    return u


def test_22_0_basic_rules_do_not_deplete_ammo():
    g = adv_game([_mg(1), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"}, rules="basic",
                 script=[(2, 2), (6,)])
    g.apply(Fire(("GMG",), "1005", "AP"))
    assert g.units["GMG"].ammo == 1


def test_22_2_mg_df_costs_one_point_and_22_1_out_of_ammo_fires_no_more():
    g = adv_game([_mg(1), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"},
                 script=[(1, 1), (2, 2), (6,)])  # observation (23.2), PC, attack
    to_support_fire(g)
    acts = g.legal_actions()
    assert Fire(("GMG",), "1005", "AP", intensive=("GMG",)) not in acts  # 3 points needed
    g.apply(Fire(("GMG",), "1005", "AP"))
    u = g.units["GMG"]
    assert u.ammo == 0
    assert any(e["kind"] == "out_of_ammo" for e in g.events)
    u.fired = False  # a new Player Turn would clear it; out of ammo it still may not fire
    assert not any(isinstance(a, Fire) and "GMG" in a.firers for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire(("GMG",), "1005", "AP"))
    assert e.value.rule == "22.1"


def test_22_2_intensive_fire_costs_three_points():
    g = adv_game([_mg(5), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"}, script=[(1, 1), (2, 2), (6,), (6, 6)])
    to_support_fire(g)
    g.apply(Fire(("GMG",), "1005", "AP", intensive=("GMG",)))
    assert g.units["GMG"].ammo == 2


def test_22_1_a_failed_pc_costs_no_ammo():
    g = adv_game([_mg(3), inf("R1", "russian")], {"GMG": "1002", "R1": "1005"}, script=[(1, 1), (6, 6)])
    to_support_fire(g)
    g.apply(Fire(("GMG",), "1005", "AP"))
    assert g.units["GMG"].ammo == 3


def test_22_2_fl_costs_two_points_whatever_the_number_of_hexes():
    g = adv_game([_mg(3), inf("R1", "russian"), inf("R2", "russian")], {"GMG": "1002", "R1": "1004", "R2": "1006"},
                 script=[(2, 2), (6,), (6,)])
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    g.apply(LaneFire("GMG"))
    assert g.units["GMG"].ammo == 1


def test_22_2_fl_needs_two_points():
    g = adv_game([_mg(1), inf("R1", "russian")], {"GMG": "1002", "R1": "1004"})
    g.apply(SetMgMode("GMG", "FL", "1006"))
    to_support_fire(g)
    assert LaneFire("GMG") not in g.legal_actions()


def test_22_2_sp_one_point_for_one_hex_two_in_all_for_several():
    g = adv_game([_mg(5), inf("R1", "russian"), inf("R2", "russian"), inf("R3", "russian")],
                 {"GMG": "1002", "R1": "1004", "R2": "1004", "R3": "1006"}, script=[(2, 2), (6,), (6,), (6,)])
    g.apply(SetMgMode("GMG", "SP"))
    to_support_fire(g)
    g.apply(SprayFire("GMG", ("R1", "R2")))
    assert g.units["GMG"].ammo == 4  # one hex: 1 point
    g.apply(SprayFire("GMG", ("R3",)))
    assert g.units["GMG"].ammo == 3  # several hexes: 2 points in all


def test_22_2_atg_and_atr_one_point_unlimited_without_number():
    at = cw("GAT", "german", weapon="37AT", ap=2, rng=6, at=12, crew=3, ma=0)
    at.ammo = 2
    g = adv_game([at, inf("G1", "german"), afv("RT", "russian"), inf("R1", "russian")],
                 {"GAT": "1002", "G1": "1003", "RT": "1004", "R1": "1005"},
                 script=[(2, 2), (6, 6), (2, 2), (6,)])
    to_support_fire(g)
    g.apply(Fire(("GAT",), "1004", "AT", target_unit="RT"))  # adjacent? 1002-1004 is 2: observation
    # (observation may have failed: then nothing fired and nothing spent)
    fired = [e for e in g.events if e["kind"] == "fire" and e["firers"] == ["GAT"]][-1]
    assert g.units["GAT"].ammo == (1 if fired["passed"] else 2)
    assert g.units["G1"].ammo is None  # rifles: unlimited


def test_22_2_mortar_one_point_per_round():
    mor = cw("GMO", "german", weapon="Mor", ap=6, rng=3, crew=3, ma=0)
    mor.ammo = 3
    g = adv_game([mor, inf("R1", "russian")], {"GMO": "1002", "R1": "1003"},
                 script=[(2, 2), (1,), (6,), (1,), (6, 6)])
    to_support_fire(g)
    acts = g.legal_actions()
    assert MortarFire("GMO", "1003", 3) in acts and MortarFire("GMO", "1003", 4) not in acts
    g.apply(MortarFire("GMO", "1003", 2))
    assert g.units["GMO"].ammo == 1


def test_22_1_a_flamethrower_with_an_ammo_number_spends_one_per_flame_attack_and_then_stops():
    """Scenario 4's "FT PR9 (4)": an FT's own ammo number counts under the advanced rules (22.1 "the
    maximum number of times the unit can fire"), one point per flame attack that passes its PC."""
    from core.ironcross.actions import Flame

    ft = inf("GF", "german", weapon="FT", ap=0, rng=2, pr=9)
    ft.ammo = 1
    g = adv_game([ft, inf("R1", "russian")], {"GF": "1502", "R1": "1503"}, script=[(1, 1), (6, 6)])
    assert Flame("GF", "1503") in g.legal_actions()
    g.apply(Flame("GF", "1503"))
    assert g.units["GF"].ammo == 0 and any(e["kind"] == "out_of_ammo" for e in g.events)
    g.units["GF"].fired = False
    assert Flame("GF", "1503") not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(Flame("GF", "1503"))
    assert e.value.rule == "22.1"
    basic = adv_game([inf("GF", "german", weapon="FT", ap=0, rng=2, pr=9), inf("R1", "russian")],
                     {"GF": "1502", "R1": "1503"}, rules="basic", script=[(1, 1), (6, 6)])
    basic.units["GF"].ammo = 1
    basic.apply(Flame("GF", "1503"))
    assert basic.units["GF"].ammo == 1  # 22.0: nothing but grenades depletes under the basic rules
