"""``ironcross balance``: bad input is refused in one line; an invalid change is listed, never
played; Ctrl-C keeps the table so far (exit 130). The games are faked (no engine games here)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

import core.playtest as playtest
from cli.main import cli
from core.playtest import BatchInterrupted, GameResult

S1 = str(Path(__file__).resolve().parents[2] / "scenarios" / "data" / "scenario_1_demyansk_pocket.json")


def fake_batch(calls):
    def run_batch(path, games, seed, ai, *, seeds=None, **kw):
        calls.append((path, list(seeds)))
        return [GameResult(index=i, seed=s, outcome="german" if random.Random(s).random() < 0.4 else "russian",
                           turns=7) for i, s in enumerate(seeds)]
    return run_batch


def test_bad_target_and_bad_change_are_refused():
    r = CliRunner().invoke(cli, ["balance", S1, "--target", "italian=50"])
    assert r.exit_code == 2 and "SIDE=PERCENT" in r.output
    r = CliRunner().invoke(cli, ["balance", S1, "--target", "german=50", "--try", "turns+=x"])
    assert r.exit_code == 1 and "no whole number" in r.output
    # players, settings and rules are checked as ironcross playtest checks them (else every game
    # would raise and the search would play nothing, exit 0)
    base = ["balance", S1, "--target", "german=50", "--try", "turns=8", "--budget", "2", "--workers", "1"]
    r = CliRunner().invoke(cli, [*base, "--ai", "german=skynet"])
    assert r.exit_code == 1 and "unknown AI player 'skynet'" in r.output
    r = CliRunner().invoke(cli, [*base, "--ai", "german=heuristic:aggression=9"])
    assert r.exit_code == 1 and "aggression" in r.output
    r = CliRunner().invoke(cli, [*base, "--rules", "ultra"])
    assert r.exit_code == 2 and "unknown rules 'ultra'" in r.output


def test_invalid_listed_not_played_and_json(tmp_path, monkeypatch):
    calls: list = []
    monkeypatch.setattr(playtest, "run_batch", fake_batch(calls))
    out = tmp_path / "t.json"
    r = CliRunner().invoke(cli, ["balance", S1, "--target", "german=50", "--try", "turns+=1", "--try",
                                 "russian.hidden+=1", "--budget", "16", "--first", "4", "--quiet", "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "invalid, not played: design check oob_unused" in r.output
    assert "robust/AI-dependent: not checked" in r.output
    doc = json.loads(out.read_text())
    rows = {row["change"]: row for row in doc["rows"]}
    assert rows["russian.hidden+=1"]["status"] == "invalid" and rows["russian.hidden+=1"]["games"] == 0
    assert rows["turns+=1"]["games"] >= 4 and doc["spent"] <= 16
    assert len({tuple(s) for _p, s in calls[:2]}) == 1   # the same seeds for both candidates


def test_ctrl_c_keeps_the_table(monkeypatch):
    calls: list = []
    inner = fake_batch(calls)

    def run_batch(*a, **k):
        if len(calls) == 1:
            raise BatchInterrupted([], 4)
        return inner(*a, **k)

    monkeypatch.setattr(playtest, "run_batch", run_batch)
    r = CliRunner().invoke(cli, ["balance", S1, "--target", "german=50", "--try", "turns+=1", "--budget", "16",
                                 "--first", "4", "--quiet"])
    assert r.exit_code == 130
    # the table so far, and no conclusion that the scenario needs no change: the scenario as it is
    # lies in the band on its 4 games, but a stopped search concludes nothing from so few
    assert "(as is)" in r.output and "No change needed" not in r.output
    assert "INTERRUPTED: the table covers the games played so far" in r.output


def test_a_budget_too_small_for_the_first_round_is_said_and_unplayed_candidates_show_no_shares(monkeypatch):
    calls: list = []
    monkeypatch.setattr(playtest, "run_batch", fake_batch(calls))
    r = CliRunner().invoke(cli, ["balance", S1, "--target", "german=50", "--try", "turns-=2", "--try",
                                 "german.ips+=1", "--budget", "6", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "NOTE: the first round needs 24 games (3 candidates, the scenario as it is included, x 8); " \
           "a budget of 6 leaves some candidates unplayed" in r.output
    unplayed = [line for line in r.output.splitlines() if "not played: the budget ran out" in line]
    assert len(unplayed) == 2 and all("%" not in line for line in unplayed)


def test_a_scenario_already_on_target_is_told_to_need_no_change(monkeypatch, tmp_path):
    """Every candidate plays like the scenario as it is (the fake games depend on the seed only), and
    the scenario as it is lies in the band: no change is recommended."""
    calls: list = []
    monkeypatch.setattr(playtest, "run_batch", fake_batch(calls))
    out = tmp_path / "b.json"
    r = CliRunner().invoke(cli, ["balance", S1, "--target", "german=40", "--band", "30", "--try", "turns+=1",
                                 "--budget", "16", "--first", "4", "--quiet", "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "No change needed: the scenario as it is -- german" in r.output and "Best change" not in r.output
    assert json.loads(out.read_text())["as_is_on_target"] is True
