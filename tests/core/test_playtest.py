"""The headless playtest runner and replays (issue 6 part 5-6)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from core.cli import cli
from core.playtest import parse_ai, run_batch, summarise, wilson_interval

ROOT = Path(__file__).resolve().parents[2]
S1 = str(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json")


def test_same_results_whatever_the_number_of_workers(tmp_path):
    one = run_batch(S1, 2, 11, parse_ai(None), workers=1)
    two = run_batch(S1, 2, 11, parse_ai(None), workers=2, replay_dir=str(tmp_path))
    key = lambda rs: [(r.index, r.seed, r.outcome, r.turns, r.casualties) for r in rs]  # noqa: E731
    assert key(one) == key(two)
    assert all(r.outcome in ("german", "russian", "draw") for r in one)
    # every replay verifies: the re-run reproduces every event
    for r in two:
        res = CliRunner().invoke(cli, ["replay", r.replay, "--verify"])
        assert res.exit_code == 0, res.output
        assert "verified" in res.output


def test_cli_playtest_json_and_summary(tmp_path):
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", S1, "--games", "1", "--seed", "5", "--workers", "1", "--quiet",
                                   "--json", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    for key in ("scenario", "games", "seed", "rules", "ai", "outcomes", "per_game"):
        assert key in doc
    assert doc["per_game"][0]["seed"] and doc["per_game"][0]["outcome"] in ("german", "russian", "draw")
    assert "Outcomes" in res.output


def test_cli_playtest_bad_input(tmp_path):
    r = CliRunner().invoke(cli, ["playtest", str(tmp_path / "missing.json")])
    assert r.exit_code == 1 and "file not found" in r.output
    r = CliRunner().invoke(cli, ["playtest", S1, "--ai", "german=genius"])
    assert r.exit_code == 1 and "unknown AI player" in r.output
    r = CliRunner().invoke(cli, ["playtest", S1, "--ai", "prussian=random"])
    assert r.exit_code == 1


def test_replay_tampered_is_reported_as_divergence(tmp_path):
    rs = run_batch(S1, 1, 3, parse_ai(None), workers=1, replay_dir=str(tmp_path))
    p = Path(rs[0].replay)
    lines = p.read_text().splitlines()
    for i, line in enumerate(lines[1:], 1):
        e = json.loads(line)
        if e["kind"] == "roll":
            e["dice"] = [7 - d for d in e["dice"]]
            lines[i] = json.dumps(e, sort_keys=True)
            break
    p.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(cli, ["replay", str(p), "--verify"])
    assert res.exit_code == 1 and "DIVERGED" in res.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    res = CliRunner().invoke(cli, ["replay", str(bad)])
    assert res.exit_code == 1 and "line 1" in res.output


def test_wilson_interval_and_summary():
    lo, hi = wilson_interval(5, 10)
    assert 0.2 < lo < 0.5 < hi < 0.8
    assert wilson_interval(0, 0) == (0.0, 0.0)
    assert summarise([])["games"] == 0
