"""The 20 mm system through the shared front ends (the rule-system boundary): ``ironcross validate``,
``playtest`` (with replays) and ``replay --verify`` know it only through ``core.rule_system``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli

SCENARIO = str(Path(__file__).resolve().parents[2] / "scenarios" / "data" / "twentymm_1_village_counterattack.json")


def test_20mm_validate_reads_the_scenario_through_its_rule_system():
    res = CliRunner().invoke(cli, ["validate", "--warnings", SCENARIO])
    assert res.exit_code == 0, res.output
    assert "OK - 20 mm scenario 'Counterattack at the Village'" in res.output


def test_20mm_validate_names_the_file_and_path_of_a_bad_scenario(tmp_path):
    data = json.loads(Path(SCENARIO).read_text())
    data["turns"] = "many"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    res = CliRunner().invoke(cli, ["validate", str(bad)])
    assert res.exit_code != 0
    assert "bad.json" in res.output and "turns" in res.output
    assert "Traceback" not in res.output


def test_20mm_playtest_writes_replays_that_verify(tmp_path):
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", SCENARIO, "--games", "1", "--seed", "3", "--workers", "1", "--quiet",
                                   "--replays", str(tmp_path / "rp"), "--json", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    assert doc["rule_system"] == "twentymm"
    games = doc["per_game"]
    assert len(games) == 1 and all(g["outcome"] in ("german", "russian", "draw") for g in games)
    for g in games:
        r = CliRunner().invoke(cli, ["replay", g["replay"], "--verify"])
        assert r.exit_code == 0, r.output
