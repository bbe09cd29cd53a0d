"""Combat arithmetic, named by rule."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.ironcross.combat_tables import (
    ApResult, CumulativeOutcome, ap_result, ap_result_probabilities, at_destroys, attenuated, cumulative,
    flamethrower_result, grenade_result, infiltration_distance_modifier, infiltration_pr_modifier,
    infiltration_result, intensive_fire_effect, result_levels, scatter_result)


def test_11_22_example_range_attenuation():
    assert [attenuated(4, 7, r) for r in (1, 7, 8, 14, 15, 21, 22)] == [4, 4, 3, 3, 2, 2, 1]
    assert attenuated(1, 3, 30) == 0


def test_11_42_11_43_example_levels_and_result():
    assert result_levels(8) == (8, 4, 2)
    assert ap_result(8, (3, 2)) is ApResult.PINNED  # "fire dice result is a 5 ... Pinned"
    assert result_levels(7) == (7, 4, 2)
    assert ap_result(8, (2, 2)) is ApResult.SUPPRESSED
    assert ap_result(8, (1, 1, 1)) is ApResult.ELIMINATED
    assert ap_result(8, (6, 3)) is ApResult.NO_EFFECT


def test_11_44_all_ones_eliminates_regardless():
    assert ap_result(1, (1, 1)) is ApResult.ELIMINATED
    assert ap_result(0, (1, 1, 1, 1)) is ApResult.ELIMINATED
    assert ap_result(0, (1,)) is ApResult.NO_EFFECT  # one die: not "more than one die"


def test_11_45_cumulative_table():
    P, S = ApResult.PINNED, ApResult.SUPPRESSED
    assert cumulative("PINNED", P) is CumulativeOutcome.SUPPRESSED
    assert cumulative("PINNED", S) is CumulativeOutcome.SUPPRESSED
    assert cumulative("SUPPRESSED", P) is CumulativeOutcome.SUPPRESSED
    assert cumulative("SUPPRESSED", S) is CumulativeOutcome.SPECIAL_ROLL
    assert cumulative("NORMAL", P) is CumulativeOutcome.PINNED


def test_12_3_at_fire():
    assert at_destroys(10, (3, 4), armour=2, target_higher=False)  # 7 + 2 = 9 <= 10
    assert not at_destroys(10, (3, 4), armour=3, target_higher=True)  # 7 + 3 + 1 = 11
    assert at_destroys(2, (1, 1), armour=9, target_higher=True)  # 12.33 all 1s


def test_11_15_intensive_fire_table():
    assert intensive_fire_effect(6)[0] == intensive_fire_effect(8)[0] == "no effect"
    assert all(intensive_fire_effect(t) == ("jammed", 1) for t in (2, 3, 4, 10, 11, 12))
    assert intensive_fire_effect(5) == intensive_fire_effect(9) == ("major malfunction", 2)
    assert intensive_fire_effect(7) == ("broken", None)


def test_15_6_grenade_and_16_0_flamethrower_tables():
    assert [grenade_result(d, True).value for d in range(1, 7)] == ["E", "S", "S", "P", "P", "NE"]
    assert [grenade_result(d, False).value for d in range(1, 7)] == ["E", "S", "P", "P", "NE", "NE"]
    assert flamethrower_result(8, 1) is ApResult.ELIMINATED and flamethrower_result(9, 1) is ApResult.SUPPRESSED
    assert flamethrower_result(6, 2) is ApResult.ELIMINATED and flamethrower_result(7, 2) is ApResult.SUPPRESSED
    with pytest.raises(ValueError):
        flamethrower_result(5, 3)


def test_14_3_scatter_table_clamped():
    assert [scatter_result(d) for d in range(0, 9)] == [0, 0, 0, 0, 1, 1, 2, 2, 2]


def test_24_3_infiltration_tables():
    assert [infiltration_pr_modifier(p) for p in (7, 8, 9, 10, 11)] == [0, 0, -1, -2, -3]
    assert [infiltration_distance_modifier(d) for d in range(1, 9)] == [6, 5, 4, 3, 2, 1, 0, 0]
    assert [infiltration_result(m) for m in (-2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14)] == [
        "SN", "SN", "SS", "SS", "SP", "SP", "F0", "F1", "F1", "F2", "F2", "F3", "F3"]


@pytest.mark.parametrize("fp,n", [(1, 1), (8, 2), (5, 3), (12, 4), (3, 2), (0, 2)])
def test_exact_probabilities_match_enumeration(fp, n):
    probs = ap_result_probabilities(fp, n)
    counts = {r: 0 for r in ApResult}
    for dice in itertools.product(range(1, 7), repeat=n):
        counts[ap_result(fp, dice)] += 1
    for r in ApResult:
        assert probs[r] == pytest.approx(counts[r] / 6**n)


@given(st.integers(1, 40))
def test_levels_are_ordered(fp):
    p, s, e = result_levels(fp)
    assert p >= s >= e >= 1


def test_19_24_ap_mine_table_fractions_rounded_up():
    from core.ironcross.combat_tables import ap_mine_result

    # 3 factors: E on 1 (3/4 -> 1), S on 2 (3/2 -> 2), P on 3, no effect above
    assert [ap_mine_result(d, 3).value for d in range(1, 7)] == ["E", "S", "P", "NE", "NE", "NE"]
    assert [ap_mine_result(d, 4).value for d in range(1, 7)] == ["E", "S", "P", "P", "NE", "NE"]
