"""A shipped scenario copied out of the toolkit's folders names its map by a path relative to its
old folder: the error says where the map was looked for and where the toolkit's map of that name
is (maps/mapfile.missing_map_hint), for each rule system's scenario loader."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from maps.mapfile import missing_map_hint

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_MAP = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"


@pytest.mark.parametrize("name", ["scenario_1_demyansk_pocket.json", "redflags_1_hill_j.json",
                                  "twentymm_1_village_counterattack.json"])
def test_a_copied_scenario_is_told_where_its_map_was_looked_for_and_where_the_shipped_one_is(tmp_path, name):
    copy = tmp_path / "mine" / name
    copy.parent.mkdir()
    shutil.copy(ROOT / "scenarios" / "data" / name, copy)
    r = CliRunner().invoke(cli, ["validate", str(copy)])
    assert r.exit_code == 1, r.output
    text = " ".join(r.output.split())   # the message as one line (a terminal may wrap it)
    assert "$.map.file" in text
    assert "a relative map path is read from the scenario file's folder" in text
    assert f"the toolkit ships a map of that name, {SHIPPED_MAP}" in text
    # the advice works: the map copied beside the scenario and named by its file name
    shutil.copy(SHIPPED_MAP, copy.parent / SHIPPED_MAP.name)
    data = json.loads(copy.read_text())
    data["map"]["file"] = SHIPPED_MAP.name
    copy.write_text(json.dumps(data))
    r = CliRunner().invoke(cli, ["validate", str(copy)])
    assert r.exit_code == 0, r.output


def test_the_hint_is_empty_for_a_map_that_exists_and_names_no_shipped_map_it_does_not_know(tmp_path):
    assert missing_map_hint(str(SHIPPED_MAP), SHIPPED_MAP) == ""
    hint = missing_map_hint("/nowhere/my_map.json", "/nowhere/my_map.json")
    assert hint == " (looked for /nowhere/my_map.json)"
