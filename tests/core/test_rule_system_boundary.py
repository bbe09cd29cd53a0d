"""The rule-system boundary (``core/rule_system.py``).

A toy rule system -- a two-side dice race, nothing like Iron Cross, ``tests/toy_system.py`` -- is
registered at run time (``SYSTEM_MODULES["toy"] = "tests.toy_system"``) and the playtest runner (local
pool), ``replay --verify``, ``validate`` and ``ironcross playtest`` play, check and report it with
no change outside the toy's module. Then Iron Cross's own side of the boundary: its ``SYSTEM``, the
optional ``rule_system`` key of its scenario files, and replays written before the key.

The toy's rules (T.1-T.7) are in its module's docstring.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from core.dice import derive_seed
from core.rule_system import IllegalActionError, ScenarioError
from maps.document_file import DocumentError
from tests.toy_system import SIDES, TOY, toy, toy_file  # noqa: F401 - toy is a fixture

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"


def _plain(r) -> dict:
    d = asdict(r)
    d.pop("seconds")
    d.pop("replay")
    return d


# ------------------------------------------------------------------------------------ toy: runner
def test_toy_system_runs_through_the_runner_same_results_on_1_and_2_workers(toy, tmp_path):
    from core.playtest import run_batch, summarise

    sc = toy_file(tmp_path)
    ai = {"german": "random", "russian": "heuristic"}
    one = run_batch(sc, 6, 3, ai, workers=1)
    two = run_batch(sc, 6, 3, ai, workers=2, replay_dir=str(tmp_path / "rp"))
    assert [_plain(r) for r in one] == [_plain(r) for r in two]
    assert [r.seed for r in one] == [derive_seed(3, i) for i in range(6)]
    assert all(r.rule_system == TOY and r.outcome in ("german", "russian", "draw") for r in one)
    assert all(len(r.standing_by_turn) == r.turns and r.standing_by_turn[-1] == r.outcome for r in one)
    assert all(r.reason.startswith("scores ") and r.first_contact == 1 for r in one)
    s = summarise(one)
    assert sum(s["outcomes"].values()) == 6 and set(s["eliminations_by_cause"]) == {"reset"}
    head = json.loads(Path(two[0].replay).read_text().splitlines()[0])
    assert head["rule_system"] == TOY and head["actions"][0]["kind"] in ("roll", "hold")


def test_toy_replays_verify_and_a_tampered_one_diverges(toy, tmp_path):
    from core.playtest import run_batch

    rs = run_batch(toy_file(tmp_path), 2, 5, {"german": "random", "russian": "random"}, workers=1,
                   replay_dir=str(tmp_path / "rp"))
    for r in rs:
        res = CliRunner().invoke(cli, ["replay", r.replay, "--verify"])
        assert res.exit_code == 0 and "verified" in res.output and "(Toy Race Game)" in res.output, res.output
    p = Path(rs[0].replay)
    lines = p.read_text().splitlines()
    i = next(k for k, line in enumerate(lines[1:], 1) if json.loads(line)["kind"] == "roll")
    e = json.loads(lines[i])
    e["dice"] = [7 - d for d in e["dice"]]
    lines[i] = json.dumps(e, sort_keys=True)
    p.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(cli, ["replay", str(p), "--verify"])
    assert res.exit_code == 1 and "DIVERGED" in res.output


def test_toy_engine_error_is_reported_with_its_seed_and_replay(toy, tmp_path, monkeypatch):
    sc = toy_file(tmp_path, boom_in_turn=2)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", sc, "--games", "2", "--seed", "9", "--workers", "1", "--quiet",
                                   "--json", str(out)])
    assert res.exit_code == 3, res.output  # the batch ran, but games raised
    seed0 = derive_seed(9, 0)
    assert re.search(rf"ERROR in game 0 \(seed {seed0}\): in the engine at decision 1 \(ToyRoll\(dice=\d, kind='roll'\)\): "
                     r"RuntimeError: toy engine failure at the start of Game Turn 2 \(T\.6\); replay ", res.output), res.output
    doc = json.loads(out.read_text())
    assert doc["rule_system"] == TOY and doc["outcomes"]["error"] == 2
    bad = doc["per_game"][0]
    replay = Path(bad["replay"])
    assert bad["seed"] == seed0 and replay.is_file() and replay.parent.name == "playtest-errors"
    head = json.loads(replay.read_text().splitlines()[0])
    assert head["rule_system"] == TOY and head["outcome"] == "error" and len(head["actions"]) == 2
    assert head["failed_action"]["kind"] == "roll"
    r = CliRunner().invoke(cli, ["replay", str(replay), "--verify"])
    assert r.exit_code == 0 and "reproduced" in r.output and "toy engine failure" in r.output, r.output


# ------------------------------------------------------------------------------ toy: the CLI
def test_toy_validate_summary_warnings_and_errors(toy, tmp_path):
    ok = toy_file(tmp_path, target=100)
    r = CliRunner().invoke(cli, ["validate", "--warnings", ok])
    assert r.exit_code == 0, r.output
    assert f"{ok}: OK - toy scenario 'Toy race': first to 100 in 6 turns (1 warning)" in r.output
    assert f"{ok}: warning: $.target: 100 cannot be reached in 6 turns" in r.output
    bad = toy_file(tmp_path, "bad.json", turns=0)
    r = CliRunner().invoke(cli, ["validate", bad])
    assert r.exit_code == 1 and f"{bad}: $.turns: must be a whole number of at least 1, not 0" in r.output


def test_toy_cli_playtest_players_rules_and_json(toy, tmp_path):
    sc = toy_file(tmp_path)
    out = tmp_path / "r.json"
    r = CliRunner().invoke(cli, ["playtest", sc, "--games", "3", "--workers", "1", "--quiet", "--json", str(out),
                                 "--ai", "german=random"])
    assert r.exit_code == 0, r.output
    assert "Scenario 7: Toy race - 3 games, seed 1, Toy Race Game rules standard, German: random, Russian: heuristic" \
        in r.output
    assert "Eliminations per game by cause: reset" in r.output
    doc = json.loads(out.read_text())
    assert doc["rule_system"] == TOY and doc["rules"] == "standard" and len(doc["per_game"]) == 3
    r = CliRunner().invoke(cli, ["playtest", sc, "--ai", "german=genius"])
    assert r.exit_code == 1
    assert "unknown AI player 'genius' for german in Toy Race Game; known: heuristic, random" in r.output
    r = CliRunner().invoke(cli, ["playtest", sc, "--rules", "advanced"])  # Iron Cross's level, not the toy's
    assert r.exit_code == 2 and "unknown rules 'advanced' for Toy Race Game: use one of standard" in r.output
    r = CliRunner().invoke(cli, ["playtest", sc, "--option", "observation-penalty"])
    assert r.exit_code == 2 and "unknown optional rule(s) observation-penalty for Toy Race Game" in r.output
    placement = tmp_path / "race.placement.json"
    placement.write_text("{}")
    r = CliRunner().invoke(cli, ["playtest", sc, "--setup", str(placement)])
    assert r.exit_code == 1 and "Toy Race Game scenarios have no designer's set-up files" in r.output
    r = CliRunner().invoke(cli, ["systems"])
    assert r.exit_code == 0 and "toy: Toy Race Game" in r.output and "ironcross: Iron Cross (the default)" in r.output
    # the rulebook text a system was written from is named as a source a user does not have
    assert "ironcross: Iron Cross (the default); rulebook source seeds/000_" in r.output
    assert "(not distributed with the toolkit)" in r.output
    # each system whose heuristic takes settings lists them with their defaults; the toy's take none
    lines = r.output.splitlines()
    toy_block = lines[lines.index(next(x for x in lines if x.startswith("toy: "))):]
    assert not any("settings (--ai" in x for x in toy_block[1:3])
    assert "  heuristic settings (--ai SIDE=heuristic:NAME=VALUE; docs/ai.md), defaults: aggression=2.5, " \
           "defend_aggression=0.11," in r.output  # Red Flags'
    assert "defaults: aggression=2.5, defend_aggression=0.4, hold_objective=1, cover=0.125," in r.output  # 20 mm's
    r = CliRunner().invoke(cli, ["systems", "--json"])
    by_name = {s["name"]: s for s in json.loads(r.output)}
    assert by_name["toy"]["settings"] == {}
    assert by_name["redflags"]["settings"]["heuristic"]["charge_cost"] == 0.6
    assert by_name["ironcross"]["settings"]["heuristic"]["defend_hold_objective"] == 3.0


def test_unknown_rule_system_is_a_clear_error(toy, tmp_path):
    chess = toy_file(tmp_path, "chess.json", rule_system="chess")
    want = f"{chess}: $.rule_system: unknown rule system 'chess'; known: "
    for args in (["validate", chess], ["playtest", chess, "--games", "1"]):
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 1 and want in r.output and "ironcross" in r.output and "toy" in r.output, r.output
        assert "Traceback" not in r.output
    number = toy_file(tmp_path, "number.json", rule_system=3)
    r = CliRunner().invoke(cli, ["validate", number])
    assert r.exit_code == 1 and f"{number}: $.rule_system: \"rule_system\" must be a string" in r.output
    # a replay naming an unknown system
    from core.replay import write_replay

    rp = tmp_path / "chess.jsonl"
    write_replay(rp, {"scenario": chess, "rule_system": "chess", "seed": 1, "rules": "standard"}, [])
    r = CliRunner().invoke(cli, ["replay", str(rp), "--verify"])
    assert r.exit_code == 1 and f"{rp}: line 1.rule_system: unknown rule system 'chess'" in r.output


# ----------------------------------------------------------------------------- Iron Cross's side
def test_iron_cross_system_plays_through_the_boundary():
    import random

    from core.ironcross.actions import IllegalAction
    from core.ironcross.setup import SetupError
    from core.rule_system import get

    ic = get(None)
    assert ic.name == "ironcross" and {"random", "heuristic"} <= set(ic.players) and ic.rules[0] == "basic"
    assert issubclass(IllegalAction, IllegalActionError) and issubclass(SetupError, ScenarioError)
    setup = ic.load_setup(str(S1), 4)
    game = ic.new_game(setup, 4, "basic", ())
    with pytest.raises(AttributeError):
        game.turn = 3  # read-only (the state owns it)
    rnd = random.Random(4)
    while game.turn < 2 and not game.is_terminal():
        acts = game.legal_actions()
        game.apply(acts[rnd.randrange(len(acts))])
    assert game.turn == game.state.turn == 2 and game.outcome is None
    with pytest.raises(IllegalActionError, match=r"illegal \("):
        game.apply(ic.action_from_json({"kind": "place", "unit": "G-C-1", "hex": "4307"}))
    pieces = ic.pieces(game)
    on_map = {u.id for u in game.state.units.values() if u.on_map}
    assert {p.uid for p in pieces} == on_map and all(len(p.hexes) == 1 for p in pieces)
    assert all(p.facing is None or 1 <= p.facing <= 6 for p in pieces)
    assert all(ic.describe_event(e).endswith(".") for e in game.events)
    fire = next((e for e in game.events if e["kind"] == "eliminated"), None)
    if fire is not None:
        assert f"{fire['unit']} is eliminated" in ic.describe_event(fire)
    a, b = "4307", "3314"
    assert ic.los(game, a, b) is bool(game.los(a, b).clear)
    outcome, held = ic.turn_record(game)
    assert outcome in ("german", "russian", "draw") and set(held) == set(SIDES)
    m = ic.terrain_mapping
    json.dumps(m)
    assert m["provenance"] == "rulebook"
    assert set(m["features"]) == {"clear", "trees", "marsh", "levels", "buildings", "roads", "gullies"}
    assert all(f["provenance"] == "rulebook" and f["ref"] for f in m["features"].values())


def test_iron_cross_scenario_may_name_its_rule_system(tmp_path):
    """An Iron Cross scenario with ``"rule_system": "ironcross"`` plays the same games as without
    it; the Iron Cross scenario model refuses another system's name, saying so."""
    from core.playtest import run_batch
    from scenarios.scenario_file import load_scenario
    from tests.core.test_playtest import short_scenario

    plain = short_scenario(tmp_path, turns=1)
    d = json.loads(Path(plain).read_text())
    named = tmp_path / "named.json"
    named.write_text(json.dumps({**d, "rule_system": "ironcross"}))
    assert load_scenario(named).rule_system == "ironcross"
    ai = {"german": "random", "russian": "random"}
    assert [_plain(r) for r in run_batch(plain, 1, 2, ai, workers=1)] == \
        [_plain(r) for r in run_batch(str(named), 1, 2, ai, workers=1)]
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**d, "rule_system": "redflags"}))
    with pytest.raises(DocumentError) as e:
        load_scenario(other)
    assert "$.rule_system: rule_system 'redflags': this is the Iron Cross scenario model" in str(e.value)


def test_replay_written_before_rule_systems_had_names_verifies(tmp_path):
    """Replays without ``rule_system`` in their header are Iron Cross games."""
    from core.playtest import run_batch
    from tests.core.test_playtest import short_scenario

    rs = run_batch(short_scenario(tmp_path, turns=1), 1, 8, {"german": "random", "russian": "random"}, workers=1,
                   replay_dir=str(tmp_path / "rp"))
    p = Path(rs[0].replay)
    lines = p.read_text().splitlines()
    head = json.loads(lines[0])
    assert head.pop("rule_system") == "ironcross"
    p.write_text("\n".join([json.dumps(head, sort_keys=True)] + lines[1:]) + "\n")
    r = CliRunner().invoke(cli, ["replay", str(p), "--verify"])
    assert r.exit_code == 0 and "verified" in r.output and "(Iron Cross)" in r.output, r.output
