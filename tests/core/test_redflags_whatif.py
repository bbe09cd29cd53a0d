"""Red Flags what-if changes (core.redflags.whatif_changes): each kind changes exactly what it says in
the scenario's JSON, the changed scenario validates (errors and design warnings), and the what-if
search and ``ironcross balance`` take a Red Flags scenario."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.redflags import whatif_changes as wc
from core.whatif import candidate_file, search
from tests.core.test_whatif_changes import diff

RF1 = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "redflags_1_hill_j.json"


def load() -> dict:
    return json.loads(RF1.read_text(encoding="utf-8"))


def valid(tmp_path: Path, data: dict, name: str = "c.json"):
    return wc.check_file(str(candidate_file(data, RF1.parent, tmp_path, name)), frozenset())


def test_turns(tmp_path):
    d = load()
    new = wc.apply_change(d, "turns+=2", str(RF1))
    assert new["turns"] == 11 and diff(d, new) == ["$.turns"]
    assert wc.apply_change(d, "turns=5", str(RF1))["turns"] == 5
    with pytest.raises(ValueError, match="outside 1-50"):
        wc.apply_change(d, "turns-=9", str(RF1))
    assert d["turns"] == 9   # the input is never edited
    assert valid(tmp_path, new) == frozenset()


def test_oob_adds_a_copy_in_the_same_group_and_removes_the_last_of_a_type(tmp_path):
    d = load()
    new = wc.apply_change(d, "russian.oob+=sov_t34_76", str(RF1))
    assert diff(d, new) == ["$.russian.groups[2].units"]
    added = new["russian"]["groups"][2]["units"][-1]
    assert added == {"id": "RT1+2", "type": "sov_t34_76"}
    assert valid(tmp_path, new) == frozenset()
    fewer = wc.apply_change(d, "russian.oob-=sov_rifle_section", str(RF1))
    assert [u["id"] for u in fewer["russian"]["groups"][1]["units"]] == ["R5", "R6", "RSC"]   # R4, the last
    assert valid(tmp_path, fewer, "f.json") == frozenset()


def test_oob_never_removes_a_groups_last_unit_or_a_transport_and_names_a_type_not_fielded():
    d = load()
    with pytest.raises(ValueError, match="last unit or another unit's transport"):
        wc.apply_change(d, "german.oob-=ger_sdkfz7", str(RF1))   # it tows the Pak 40
    with pytest.raises(ValueError, match="last unit"):
        wc.apply_change(d, "german.oob-=ger_pzkpfw_iv_f2", str(RF1))   # the Panzer group's only unit
    with pytest.raises(ValueError, match="fields no ger_tiger"):
        wc.apply_change(d, "german.oob+=ger_tiger", str(RF1))


def test_a_copied_gun_has_no_tow_and_is_refused_by_the_design_check(tmp_path):
    """The Pak 40 copy cannot share the half-track: a heavy gun without tow never moves, a design
    warning the scenario did not have, so the candidate is invalid (never played)."""
    new = wc.apply_change(load(), "german.oob+=ger_pak40", str(RF1))
    assert "tow" not in new["german"]["groups"][2]["units"][-1]
    assert valid(tmp_path, new).startswith("design check:") and "can never move" in valid(tmp_path, new)


def test_setup_zone_one_hex_wider_and_narrower(tmp_path):
    d = load()
    wide = wc.apply_change(d, "german.setup+=1", str(RF1))
    assert wide["german"]["setup_zone"] == {"columns": [33, 42], "rows": [11, 20]}
    assert diff(d, wide) == ["$.german.setup_zone.columns[0]", "$.german.setup_zone.columns[1]",
                             "$.german.setup_zone.rows[0]", "$.german.setup_zone.rows[1]"]
    narrow = wc.apply_change(d, "russian.setup-=1", str(RF1))
    assert narrow["russian"]["setup_zone"] == {"columns": [31, 43], "rows": [24, 26]}
    assert valid(tmp_path, wide) == frozenset()


def test_victory_count_of_one_result_or_every_result():
    d = load()
    new = wc.apply_change(d, "victory.count[1]+=1", str(RF1))
    assert [r["controls_at_least"] for r in new["victory"]["results"]] == [3, 3]
    both = wc.apply_change(d, "victory.count-=1", str(RF1))
    assert [r["controls_at_least"] for r in both["victory"]["results"]] == [1, 2]
    with pytest.raises(ValueError, match="more objective hexes"):
        wc.apply_change(d, "victory.count[2]+=1", str(RF1))   # already all three
    with pytest.raises(ValueError, match="2 result"):
        wc.apply_change(d, "victory.count[3]+=1", str(RF1))


def test_parse_names_the_problem():
    with pytest.raises(ValueError, match="unknown target"):
        wc.parse_change("german.ips+=1")
    with pytest.raises(ValueError, match="by \\+= or -="):
        wc.parse_change("german.oob=ger_schuetzengruppe")
    with pytest.raises(ValueError, match="no whole number"):
        wc.parse_change("turns+=two")


def test_default_changes_are_the_ones_that_can_be_made():
    d = load()
    texts = wc.default_changes(d, str(RF1))
    assert texts[:4] == ["turns+=1", "turns-=1", "turns+=2", "turns-=2"]
    assert "german.oob-=ger_sdkfz7" not in texts and "german.oob-=ger_pzkpfw_iv_f2" not in texts
    assert not any("ju87" in t or "il2" in t for t in texts)   # aircraft: one sortie each
    assert "victory.count[2]+=1" not in texts and "victory.count[1]-=1" in texts
    assert wc.default_changes(d, str(RF1), ("setup",)) == ["german.setup+=1", "german.setup-=1",
                                                           "russian.setup+=1", "russian.setup-=1"]


def test_the_search_takes_a_red_flags_scenario_and_reports_an_invalid_candidate(tmp_path):
    from core.rule_system import load_scenario

    played: list[str] = []

    def play(arm, seeds):
        played.append(arm.candidate.label)
        return ["german" if random.Random(s).random() < 0.5 else "russian" for s in seeds]

    res = search(load_scenario(RF1), side="german", target=0.5, budget=12, first=4, folder=tmp_path, play=play,
                 changes=["turns+=1", "german.oob+=ger_pak40"])
    rows = {a.candidate.label: a for a in res.rows()}
    assert "can never move" in rows["german.oob+=ger_pak40"].invalid
    assert set(played) == {"(as is)", "turns+=1"}


def test_ironcross_balance_lists_the_red_flags_changes_it_would_try(tmp_path):
    """``ironcross balance`` on a Red Flags scenario with a budget of one round of one game each:
    it plays a real game of the scenario and of one change and prints the table."""
    from cli.main import cli

    r = CliRunner().invoke(cli, ["balance", str(RF1), "--target", "german=50", "--try", "turns-=8", "--budget", "2",
                                 "--first", "1", "--workers", "1", "--json", str(tmp_path / "out.json")])
    assert r.exit_code == 0, r.output
    assert "turns-=8" in r.output
    out = json.loads((tmp_path / "out.json").read_text())
    assert {row["change"] for row in out["rows"]} >= {"(as is)", "turns-=8"}
