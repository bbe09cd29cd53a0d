"""Tests of the Movement and Combat Effects Chart data (maps/terrain_chart.py, maps/data/terrain_chart.json).

Printed rows must equal the rulebook; every reconstructed row must agree with each rule that
mentions its terrain (test names carry the rule numbers).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maps.terrain_chart import (
    STANDARD_ROWS,
    TerrainChart,
    TerrainChartError,
    hex_row_keys,
    load_terrain_chart,
    save_terrain_chart,
    shipped_chart_path,
)

CHART = load_terrain_chart()
PRINTED = ("clear", "road")
RECONSTRUCTED = ("trees", "woods", "marsh", "building_single", "building_multi", "hill_1", "hill_2")


def _raw() -> dict:
    return json.loads(shipped_chart_path().read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: dict) -> Path:
    p = tmp_path / "chart.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- file and API


def test_shipped_file_format_version_and_rows_in_order():
    raw = _raw()
    assert raw["format"] == "ironcross-terrain-chart" and raw["version"] == 1
    assert CHART.keys == list(STANDARD_ROWS)
    assert [r.key for r in CHART.rows] == list(STANDARD_ROWS)
    assert CHART.row("woods").key == "woods"
    with pytest.raises(KeyError, match="forest"):
        CHART.row("forest")


def test_explicit_path_loads_the_same_chart():
    assert load_terrain_chart(shipped_chart_path()) == CHART
    assert load_terrain_chart(str(shipped_chart_path())) == CHART


def test_save_round_trip_is_identical(tmp_path):
    out = tmp_path / "saved.json"
    save_terrain_chart(CHART, out)
    assert json.loads(out.read_text(encoding="utf-8")) == _raw()
    assert load_terrain_chart(out) == CHART


def test_every_value_has_provenance():
    cells = list(CHART.cells())
    assert len(cells) > 200
    for path, cell in cells:
        assert cell.source in ("rulebook", "reconstructed"), path
        if cell.source == "rulebook":
            assert cell.ref and cell.ref.strip(), path
        else:
            assert cell.rationale and "\n" not in cell.rationale, path
        assert cell.provenance.source == cell.source


def test_printed_rows_are_all_rulebook():
    for key in PRINTED + ("bridge",):
        for path, cell in CHART.row(key).cells():
            assert cell.source == "rulebook", (key, path)


def test_unprinted_rows_chart_columns_are_reconstructed():
    chart_columns = ("name", "level", "notes", "ap_dice", "ap_firepower_modifier", "observation_base", "move.")
    for key in RECONSTRUCTED:
        for path, cell in CHART.row(key).cells():
            if path.lstrip(".").startswith(chart_columns):
                assert cell.source == "reconstructed", (key, path)


def test_gully_printed_part_is_rulebook_and_lost_part_reconstructed():
    g = CHART.row("gully")
    for cell in (g.name, g.level, g.move.infantry_up, g.move.infantry_down, g.move.afv_up, g.move.afv_down, g.ap_dice):
        assert cell.source == "rulebook"
    assert g.ap_firepower_modifier.source == "reconstructed"
    assert g.observation_base.source == "reconstructed"


# --------------------------------------------------------------------------- printed values


@pytest.mark.parametrize(
    "key, name, level, costs, dice, obs",
    [
        ("clear", "Clear", 0, (1, 2, 1, 2), 1, 10),
        ("road", "Road", 0, (0.5, 2, 0.5, 2), 1, 10),
    ],
)
def test_printed_rows_equal_the_rulebook(key, name, level, costs, dice, obs):
    r = CHART.row(key)
    assert r.name.value == name
    assert CHART.obstacle_height(key) == level
    got = (CHART.move_cost(key, "infantry", False), CHART.move_cost(key, "infantry", True),
           CHART.move_cost(key, "afv", False), CHART.move_cost(key, "afv", True))
    assert got == costs
    assert CHART.ap_dice(key) == dice
    assert r.ap_firepower_modifier.value is None and CHART.ap_firepower_modifier(key) == 0
    assert CHART.observation_base(key) == obs


def test_printed_gully_row_equals_the_rulebook():
    assert CHART.obstacle_height("gully") == 0
    assert [CHART.move_cost("gully", u, d) for u in ("infantry", "afv") for d in (False, True)] == [2, 3, 5, 7]
    assert CHART.ap_dice("gully") == 2


def test_printed_notes_legend_and_modifiers():
    assert set(CHART.notes) == set("abcdef")
    assert CHART.notes["a"].text.startswith("A Bridge hex is a Road hex that crosses a Gully")
    assert CHART.notes["d"].text == "Use the Observation base of the other terrain in the hex."
    assert CHART.legend["P"].text.startswith("The hex is prohibited")
    assert CHART.legend["T"].text == "# of trees in the hex."
    assert CHART.row("road").notes.value == ["a"]
    assert {m.key: m.dice for m in CHART.modifiers} == {
        "target_down": 1, "firer_moved": 1, "afv_cover": 1, "improved_position": 1}
    assert CHART.modifier("improved_position").per == "ip_point"
    assert all(m.source == "rulebook" for m in CHART.modifiers)


def test_chart_note_a_bridge_is_treated_as_road():
    for unit in ("infantry", "afv"):
        for down in (False, True):
            assert CHART.move_cost("bridge", unit, down) == CHART.move_cost("road", unit, down)
    assert CHART.ap_dice("bridge") == CHART.ap_dice("road")
    assert CHART.observation_base("bridge") == CHART.observation_base("road")
    assert "a" in CHART.row("bridge").notes.value


# --------------------------------------------------------------------------- worked examples


def test_11_32_example_marsh_down_one_firer_moved_is_4_dice():
    assert CHART.ap_dice_total("marsh", target_down=True, firer_moved=True) == 4


def test_11_31_to_11_33_and_18_3_dice_modifiers_add():
    assert CHART.ap_dice_total("clear") == 1
    assert CHART.ap_dice_total("clear", target_down=True, firer_moved=True, afv_cover=True, ip_points=2) == 6


def test_11_16_example_trees_and_higher_level_reduce_firepower():
    # 2 Tree symbols in a higher target hex (on a hill): -2 for trees, -1 for the level.
    assert CHART.ap_firepower_modifier("woods", trees=2) == -2
    assert CHART.ap_firepower_modifier("hill_1", target_higher=True) == -1
    assert CHART.ap_firepower_modifier("hill_1", target_higher=False) == 0


# --------------------------------------------------------------------------- rule consistency


def test_8_54_woods_not_prohibited_for_afv():
    for t in (2, 3, 4):
        for down in (False, True):
            cost = CHART.move_cost("woods", "afv", down, trees=t)
            assert cost is not None and cost <= 10  # 8.13: an AFV has 10 MP
    imm = CHART.row("woods").rules.afv_immobilisation.value
    assert imm.dice == 2 and imm.immobilised_at_or_below.at(3) == 3


def test_8_55_marsh_not_prohibited_for_afv():
    assert CHART.move_cost("marsh", "afv", False) is not None
    assert CHART.move_cost("marsh", "afv", True) is not None
    imm = CHART.row("marsh").rules.afv_immobilisation.value
    assert imm.dice == 2 and imm.immobilised_at_or_below.at() == 4


def test_8_54_woods_cost_uses_the_tree_count():
    assert CHART.move_cost("woods", "infantry", False, trees=2) == 2
    assert CHART.move_cost("woods", "infantry", False, trees=3) == 3
    assert CHART.move_cost("woods", "infantry", True, trees=3) == 4
    assert CHART.move_cost("woods", "afv", False, trees=3) == 6
    assert CHART.move_cost("woods", "infantry", False) == 2  # trees=0 means the row's minimum
    with pytest.raises(ValueError, match="8.54"):
        CHART.move_cost("woods", "infantry", False, trees=1)
    with pytest.raises(ValueError):
        CHART.move_cost("trees", "infantry", False, trees=2)


def test_errata_one_tree_hex_is_not_a_tree_hex_for_movement():
    for unit in ("infantry", "afv"):
        for down in (False, True):
            assert CHART.move_cost("trees", unit, down, trees=1) == CHART.move_cost("clear", unit, down)


def test_8_51_down_never_cheaper_than_up():
    for r in CHART.rows:
        t = r.tree_range.min if r.tree_range else 0
        for unit in ("infantry", "afv"):
            up, down = CHART.move_cost(r.key, unit, False, t), CHART.move_cost(r.key, unit, True, t)
            if up is None:
                assert down is None, r.key
            else:
                assert down >= up, r.key


def test_8_53_uphill_one_extra_mp():
    assert CHART.uphill_mp(0, 1) == 1
    assert CHART.uphill_mp(1, 2) == 1
    assert CHART.uphill_mp(2, 1) == 0 and CHART.uphill_mp(1, 1) == 0
    assert "e" in CHART.row("hill_1").notes.value and "f" in CHART.row("hill_2").notes.value


def test_9_0_overrun_needs_enterable_tree_and_marsh_hexes():
    # 9.2 B/C name Tree symbols and Marsh hexes in overrun hexes: AFVs must be able to enter them.
    for key in ("trees", "woods", "marsh", "gully", "clear", "road"):
        assert CHART.move_cost(key, "afv", False) is not None, key


def test_9_2_overrun_bonuses():
    assert CHART.row("marsh").rules.overrun_infantry_fire_bonus.value.at() == 2
    assert CHART.row("woods").rules.overrun_infantry_fire_bonus.value.at(3) == 3
    assert CHART.row("woods").rules.overrun_attack_bonus.value.at(3) == 3
    assert CHART.row("trees").rules.overrun_attack_bonus.value.at(1) == 1
    assert CHART.row("clear").rules.overrun_attack_bonus.value.at() == 0


def test_legend_p_buildings_prohibited_to_afv_only():
    for key in ("building_single", "building_multi"):
        assert CHART.move_cost(key, "afv", False) is None
        assert CHART.move_cost(key, "afv", True) is None
        assert CHART.move_cost(key, "infantry", False) is not None
        assert CHART.move_cost(key, "cw", True) is not None


def test_10_32_sighting_chart_levels():
    # The Sighting Chart marks levels 0, 1/2, 1 and 2.
    levels = {CHART.obstacle_height(k) for k in CHART.keys}
    assert levels <= {0, 0.5, 1, 2}
    assert CHART.obstacle_height_above_ground("building_single") == 0.5
    assert CHART.obstacle_height_above_ground("building_multi") == 0.5
    assert CHART.obstacle_height_above_ground("woods") == 0.5
    for key in ("clear", "road", "bridge", "gully", "marsh", "trees", "hill_1", "hill_2"):
        assert CHART.obstacle_height_above_ground(key) == 0, key
    assert CHART.obstacle_height("hill_2") == 2
    assert CHART.absolute_obstacle_height("building_single", ground_level=1) == 1.5
    assert CHART.absolute_obstacle_height("hill_1", ground_level=1) == 1


def test_10_31_c_and_23_2_e_marsh_note_c():
    assert "c" in CHART.row("marsh").notes.value


def test_11_16_a_trees_reduce_firepower_per_tree():
    assert CHART.ap_firepower_modifier("trees", trees=1) == -1
    assert CHART.ap_firepower_modifier("woods", trees=4) == -4


def test_14_4_woods_dice_exceed_the_ground_they_stand_on():
    # Mortars ignore Trees when counting dice, so Trees must add dice for ordinary AP fire.
    assert CHART.ap_dice("woods", trees=2) > CHART.ap_dice("clear")


def test_11_31_cover_order_clear_lt_gully_marsh_lt_buildings():
    assert CHART.ap_dice("clear") < CHART.ap_dice("gully") == CHART.ap_dice("marsh")
    assert CHART.ap_dice("marsh") < CHART.ap_dice("building_single") <= CHART.ap_dice("building_multi")


def test_14_0_mortars_may_not_fire_from_building_hexes():
    for r in CHART.rows:
        assert r.rules.mortar_fire_allowed.value == (not r.key.startswith("building")), r.key


def test_15_4_grenades_one_hex_into_buildings():
    for r in CHART.rows:
        assert r.rules.grenade_target_line.value == ("building" if r.key.startswith("building") else "non_building")


def test_19_14_no_mines_in_buildings():
    for r in CHART.rows:
        assert r.rules.mines_allowed.value == (not r.key.startswith("building")), r.key


def test_23_34_afv_mg_need_not_observe_buildings():
    for r in CHART.rows:
        assert r.rules.afv_mg_full_ap_unobserved.value == r.key.startswith("building"), r.key


def test_23_2_c_woods_have_a_lower_base_than_clear():
    assert CHART.observation_base("woods", trees=2) < CHART.observation_base("clear")
    assert "b" in CHART.row("woods").notes.value and "b" in CHART.row("trees").notes.value


def test_chart_note_d_uses_the_other_terrains_observation_base():
    for key in ("trees", "hill_1", "hill_2"):
        assert "d" in CHART.row(key).notes.value
        assert CHART.observation_base(key) == CHART.observation_base("clear")
        assert CHART.observation_base(key, other="gully") == CHART.observation_base("gully")
    assert CHART.observation_base("hill_1", other="woods") == CHART.observation_base("woods")
    with pytest.raises(ValueError):
        CHART.observation_base("hill_1", other="trees")


def test_24_3_infiltration_modifiers():
    mod = {r.key: r.rules.infiltration_modifier.value for r in CHART.rows}
    assert mod["building_multi"].at() == -3
    assert mod["building_single"].at() == -2
    assert mod["gully"].at() == -1
    assert mod["woods"].at(3) == -3 and mod["trees"].at(1) == -1
    assert all(mod[k].at() == 0 for k in ("clear", "road", "bridge", "marsh", "hill_1", "hill_2"))


def test_24_3_observation_bases_follow_infiltration_concealment():
    # Harder to infiltrate-detect means harder to observe: multi < single < gully < clear.
    ob = CHART.observation_base
    assert ob("building_multi") < ob("building_single") < ob("gully") < ob("clear")


def test_hex_row_keys_governing_order():
    assert hex_row_keys() == ["clear"]
    assert hex_row_keys(road=True, gully=True) == ["bridge", "road", "gully", "clear"]
    assert hex_row_keys(trees=3, level=1) == ["woods", "clear", "hill_1"]
    assert hex_row_keys(terrain="marsh", trees=1) == ["marsh", "trees"]
    assert hex_row_keys(building="multi", trees=2)[0] == "building_multi"


# --------------------------------------------------------------------------- bad files


def test_missing_file_names_the_path(tmp_path):
    p = tmp_path / "nope.json"
    with pytest.raises(TerrainChartError) as e:
        load_terrain_chart(p)
    assert str(p) in str(e.value) and isinstance(e.value, ValueError)


def test_invalid_json_names_the_path(tmp_path):
    p = tmp_path / "chart.json"
    p.write_text("{", encoding="utf-8")
    with pytest.raises(TerrainChartError, match="not valid JSON") as e:
        load_terrain_chart(p)
    assert str(p) in str(e.value)


def test_wrong_format_is_refused(tmp_path):
    raw = _raw()
    raw["format"] = "ironcross-map"
    p = _write(tmp_path, raw)
    with pytest.raises(TerrainChartError, match=r"\$\.format"):
        load_terrain_chart(p)


def test_bad_cost_names_the_json_path(tmp_path):
    raw = _raw()
    raw["rows"][5]["move"]["afv_up"]["value"] = "2X"
    p = _write(tmp_path, raw)
    with pytest.raises(TerrainChartError) as e:
        load_terrain_chart(p)
    msg = str(e.value)
    assert f"{p}: $.rows[5].move.afv_up.value: cannot read '2X'" in msg
    assert "Traceback" not in msg


def test_missing_rationale_is_refused(tmp_path):
    raw = _raw()
    del raw["rows"][6]["ap_dice"]["rationale"]
    with pytest.raises(TerrainChartError, match=r"\$\.rows\[6\]\.ap_dice: .*rationale"):
        load_terrain_chart(_write(tmp_path, raw))


def test_tree_expression_outside_tree_rows_is_refused(tmp_path):
    raw = _raw()
    raw["rows"][0]["move"]["infantry_up"]["value"] = "T+1"
    with pytest.raises(TerrainChartError, match=r"\$\.rows\[0\]\.move\.infantry_up\.value: T\+1 uses T"):
        load_terrain_chart(_write(tmp_path, raw))


def test_missing_standard_row_and_duplicate_key_are_refused(tmp_path):
    raw = _raw()
    raw["rows"][10]["key"] = "hill_1"
    with pytest.raises(TerrainChartError) as e:
        load_terrain_chart(_write(tmp_path, raw))
    assert "repeats" in str(e.value) and "missing the standard row 'hill_2'" in str(e.value)


def test_designer_values_are_accepted(tmp_path):
    raw = _raw()
    raw["rows"][6]["ap_dice"] = {"value": 3, "source": "designer", "rationale": "from my printed chart"}
    chart = load_terrain_chart(_write(tmp_path, raw))
    assert chart.ap_dice("marsh") == 3 and chart.row("marsh").ap_dice.source == "designer"


def test_model_is_a_pydantic_model():
    assert isinstance(CHART, TerrainChart)
    assert TerrainChart.model_validate(_raw()) == CHART
