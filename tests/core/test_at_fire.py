"""AT fire through the engine (12.0-12.4), each test named by its rule."""

from __future__ import annotations

import pytest

from core.ironcross.actions import Fire, IllegalAction
from core.ironcross.state import Morale, Phase
from tests.core.engine_fixtures import afv, cw, inf, small_game
from tests.core.test_fire_combat import PASS, at_phase, fire, of, rule_of, script
from tests.mapbuilder import make_map


def atg(uid="GA", at=9):
    return cw(uid, "german", weapon="37AT", ap=2, rng=6, at=at, crew=3, ma=0)


def test_12_14_at_factors_are_never_combined():
    g = small_game([atg("GA"), atg("GB"), afv("RT", "russian")], {"GA": "1510", "GB": "1410", "RT": "1507"})
    with pytest.raises(IllegalAction) as e:
        fire(g, "GA", "GB", target="1507", mode="AT", target_unit="RT")
    assert rule_of(e) == "12.14"
    assert not any(isinstance(a, Fire) and a.mode == "AT" and len(a.firers) > 1 for a in g.legal_actions())


def test_12_12_at_fire_only_against_afvs():
    g = small_game([atg(), inf("R1", "russian"), afv("RT", "russian")], {"GA": "1510", "R1": "1507", "RT": "1507"})
    with pytest.raises(IllegalAction) as e:
        fire(g, "GA", target="1507", mode="AT", target_unit="R1")
    assert rule_of(e) == "12.12"


def test_12_15_at_firepower_never_modified_for_terrain():
    m = make_map(cols=(10, 20), rows=(1, 12), trees={"1507": 3, "1508": 2})
    g = small_game([atg(at=9), afv("RT", "russian", frontal=4, flank=2)], {"GA": "1510", "RT": ("1507", False, 4)},
                   hexmap=m)
    script(g, PASS, (2, 3))  # 5 + 4 (frontal) = 9 <= 9
    r = of(fire(g, "GA", target="1507", mode="AT", target_unit="RT"), "at_result")[0]
    assert r["at"] == 9 and r["destroyed"]


def test_12_16_only_atrs_suffer_range_attenuation():
    g = small_game([atg(at=9), cw("GR", "german", weapon="ATR", ap=1, rng=4, at=6, crew=2),
                    afv("RT", "russian")], {"GA": "1512", "GR": "1412", "RT": "1501"})
    script(g, PASS, (6, 6), PASS, (6, 6))
    assert of(fire(g, "GA", target="1501", mode="AT", target_unit="RT"), "at_result")[0]["at"] == 9
    r = of(fire(g, "GR", target="1501", mode="AT", target_unit="RT"), "at_result")[0]
    assert r["at"] == 6 - 2  # range 11 with initial range 4 (11.22)


def test_12_2_two_dice_three_if_moved():
    g = small_game([afv("GT", "german", weapon="PzIIIf", ap=4, at=10), atg(), afv("RT", "russian")],
                   {"GT": "1510", "GA": "1410", "RT": "1507"})
    at_phase(g, Phase.MOVING_FIRE)
    g.units["GT"].moved = True
    script(g, PASS, (6, 6, 6), PASS, (6, 6))
    assert len(of(fire(g, "GT", target="1507", mode="AT", target_unit="RT"), "at_result")[0]["dice"]) == 3
    assert len(of(fire(g, "GA", target="1507", mode="AT", target_unit="RT"), "at_result")[0]["dice"]) == 2


def test_12_31_frontal_or_flank_armour_by_the_firers_position_and_higher_level():
    m = make_map(cols=(10, 20), rows=(1, 12), levels={"1505": 1})
    us = [atg("GA", at=10), atg("GB", at=10), afv("RT", "russian", frontal=4, flank=2),
          afv("RU", "russian", frontal=4, flank=2)]
    # RT faces the bottom (toward GA below it): frontal; RU faces the top: GB is on its flank
    g = small_game(us, {"GA": "1510", "GB": "1410", "RT": ("1507", False, 4), "RU": ("1505", False, 1)},
                   hexmap=m)
    script(g, PASS, (3, 3), PASS, (3, 3))
    r = of(fire(g, "GA", target="1507", mode="AT", target_unit="RT"), "at_result")[0]
    assert r["frontal"] and r["armour"] == 4 and not r["higher"] and r["total"] == 10 and r["destroyed"]
    r = of(fire(g, "GB", target="1505", mode="AT", target_unit="RU"), "at_result")[0]
    assert not r["frontal"] and r["armour"] == 2 and r["higher"] and r["total"] == 6 + 2 + 1


def test_12_32_destroyed_afv_becomes_a_wreck_and_12_4_wrecks_count():
    g = small_game([atg(at=12), inf("G1", "german"), afv("RT", "russian")],
                   {"GA": "1510", "G1": "1410", "RT": "1507"})
    script(g, PASS, (3, 3))
    fire(g, "GA", target="1507", mode="AT", target_unit="RT")
    t = g.units["RT"]
    assert t.eliminated and g.state.wrecks == {"1507": 1}
    occ = g.occupancy()
    assert sum(o.wrecks for o in occ.values()) == 1  # in LOS (10.31 b) and 11.16 a
    assert g.los("1510", "1504").trees_afvs_wrecks == 1


def test_12_33_all_ones_destroy_without_modifiers():
    m = make_map(cols=(10, 20), rows=(1, 12), levels={"1507": 1})
    g = small_game([atg(at=2), afv("RT", "russian", frontal=9, flank=9)], {"GA": "1510", "RT": "1507"}, hexmap=m)
    script(g, PASS, (1, 1))
    r = of(fire(g, "GA", target="1507", mode="AT", target_unit="RT"), "at_result")[0]
    assert r["destroyed"] and r["rule"] == "12.33"


def test_12_34_infantry_stacked_with_a_destroyed_afv_are_suppressed():
    g = small_game([atg(at=12), afv("RT", "russian"), inf("R1", "russian"), cw("RM", "russian")],
                   {"GA": "1510", "RT": "1507", "R1": "1507", "RM": "1507"})
    script(g, PASS, (3, 3))
    fire(g, "GA", target="1507", mode="AT", target_unit="RT")
    assert g.units["R1"].morale is Morale.SUPPRESSED and g.units["R1"].down
    assert g.units["RM"].morale is Morale.NORMAL  # 12.34 speaks of infantry only
