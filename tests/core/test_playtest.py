"""The headless playtest runner, its report pictures and replays (local pool and Dask backends, trust report, pictures).

Most tests play a shortened Scenario 1 (two Game Turns, same map and OOB) to stay fast.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from core.dice import derive_seed
from core.playtest import parse_ai, run_batch, summarise, wilson_interval
from tests.scenario_copies import scenario_copy

RANDOM = {"german": "random", "russian": "random"}  # fast games (the default players are heuristic)

ROOT = Path(__file__).resolve().parents[2]
S1 = str(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json")


def short_scenario(folder: Path, turns: int = 2, source: str = S1) -> str:
    """A copy of ``source`` lasting ``turns`` Game Turns (its map path made absolute)."""
    return str(scenario_copy(folder, source, turns=turns, name=f"short_{turns}.json", bring_forward=False))


def key(rs):
    return [(r.index, r.seed, r.outcome, r.turns, r.casualties, r.casualties_by_turn, r.eliminated_at,
             r.fire_at, r.fire_from) for r in rs]


def test_same_results_whatever_the_number_of_workers(tmp_path):
    sc = short_scenario(tmp_path)
    one = run_batch(sc, 2, 11, RANDOM, workers=1)
    two = run_batch(sc, 2, 11, RANDOM, workers=2, replay_dir=str(tmp_path / "rp"))
    assert key(one) == key(two)
    assert [r.seed for r in one] == [derive_seed(11, i) for i in range(2)]
    assert all(r.outcome in ("german", "russian", "draw") for r in one)
    for r in one:  # per-turn casualties add up to the casualties
        for side in ("german", "russian"):
            assert len(r.casualties_by_turn[side]) == r.turns
            assert sum(r.casualties_by_turn[side]) == sum(r.casualties[side].values())
    assert any(r.fire_from for r in one)
    # every replay verifies: the re-run reproduces every event
    for r in two:
        res = CliRunner().invoke(cli, ["replay", r.replay, "--verify"])
        assert res.exit_code == 0, res.output
        assert "verified" in res.output


def test_cli_playtest_json_report_and_summary(tmp_path):
    sc = short_scenario(tmp_path)
    out = tmp_path / "r.json"
    rep = tmp_path / "report"
    res = CliRunner().invoke(cli, ["playtest", sc, "--games", "2", "--seed", "5", "--workers", "1", "--quiet",
                                   "--json", str(out), "--report", str(rep)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    for k in ("scenario", "games", "seed", "rules", "ai", "outcomes", "per_game"):
        assert k in doc
    assert doc["games"] == 2 and doc["seed"] == 5 and doc["ai"] == {"german": "heuristic", "russian": "heuristic"}  # the default
    assert sum(doc["outcomes"].values()) == 2
    g = doc["per_game"][0]
    assert g["seed"] == derive_seed(5, 0) and g["outcome"] in ("german", "russian", "draw")
    assert g["turns"] == 2 and set(g["casualties"]) == {"german", "russian"}
    assert [len(v) for v in g["casualties_by_turn"].values()] == [2, 2]
    assert "Outcomes" in res.output and "by Game Turn" in res.output
    from PySide6.QtGui import QImage

    names = ("outcomes.png", "casualties_by_turn.png", "map_eliminations.png", "map_fire_targets.png",
             "map_fire_origins.png")
    for name in names:
        img = QImage(str(rep / name))
        assert not img.isNull() and img.width() > 500 and img.height() > 300, name


def test_cli_playtest_bad_input(tmp_path):
    r = CliRunner().invoke(cli, ["playtest", str(tmp_path / "missing.json")])
    assert r.exit_code == 1 and "file not found" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = CliRunner().invoke(cli, ["playtest", str(bad)])
    assert r.exit_code == 1 and str(bad) in r.output and "Traceback" not in r.output
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "ironcross-scenario", "title": "x"}))
    r = CliRunner().invoke(cli, ["playtest", str(wrong)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    off = json.loads(Path(S1).read_text())  # 24.1: a set-up zone listing a hex off the map is refused
    off["map"]["file"] = str((Path(S1).parent / off["map"]["file"]).resolve())
    off["german"]["groups"][0]["setup"]["region"] = {"kind": "hexes", "hexes": ["4307", "7507"]}
    (tmp_path / "off.json").write_text(json.dumps(off))
    r = CliRunner().invoke(cli, ["playtest", str(tmp_path / "off.json"), "--games", "1"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{tmp_path / 'off.json'}: $.german.groups[0].setup.region.hexes[1]: hex 7507 is not on map" in r.output
    r = CliRunner().invoke(cli, ["playtest", S1, "--ai", "german=genius"])
    assert r.exit_code == 1 and "unknown AI player" in r.output
    r = CliRunner().invoke(cli, ["playtest", S1, "--ai", "prussian=random"])
    assert r.exit_code == 1


class _Boom:
    """A player that raises on its 30th decision (in one chosen game only)."""

    name = "boom"

    def __init__(self, seed: int, bad_seed: int):
        from core.ironcross.players import RandomPlayer

        self._inner = RandomPlayer(seed)
        self._bad = seed == bad_seed
        self._n = 0

    def choose(self, view, side, actions):
        self._n += 1
        if self._bad and self._n == 30:
            raise ZeroDivisionError("boom in the AI")
        return self._inner.choose(view, side, actions)


def test_an_exception_in_one_game_does_not_kill_the_batch(tmp_path, monkeypatch):
    from core.ironcross import players

    sc = short_scenario(tmp_path, turns=1)
    bad_game_seed = derive_seed(7, 1)
    bad_player_seed = derive_seed(bad_game_seed, 1)  # the German player of game 1
    monkeypatch.setitem(players.PLAYERS, "boom", lambda seed: _Boom(seed, bad_player_seed))
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", sc, "--games", "2", "--seed", "7", "--workers", "1", "--quiet",
                                   "--ai", "german=boom", "--json", str(out)])
    assert res.exit_code == 3, res.output  # the batch ran, but a game raised: never a silent success
    assert re.search(rf"ERROR in game 1 \(seed {bad_game_seed}\): in the german player 'boom' at decision \d+: "
                     "ZeroDivisionError: boom in the AI", res.output), res.output
    assert "WARNING: 1 of 2 games raised an error (1 inside a player)" in res.output
    doc = json.loads(out.read_text())
    assert doc["per_game"][0]["outcome"] != "error"
    bad = doc["per_game"][1]
    assert bad["outcome"] == "error" and bad["seed"] == bad_game_seed and "boom in the AI" in bad["error"]
    assert doc["outcomes"]["error"] == 1
    # the errored game is left out of the shares: the one played game is 100 % of them
    good = doc["per_game"][0]["outcome"]
    assert doc["rates"][good]["rate"] == 1.0 and "error" not in doc["rates"]
    assert doc["trust"]["errors"] == 1 and doc["trust"]["player_errors"] == 1 and doc["trust"]["played"] == 1
    replay = Path(bad["replay"])
    assert replay.is_file() and replay.parent.name == "playtest-errors"
    head = json.loads(replay.read_text().splitlines()[0])
    assert head["seed"] == bad_game_seed and head["outcome"] == "error" and len(head["actions"]) >= 29
    # re-played from its seed and players, the game takes the same decisions and raises the same error
    r = CliRunner().invoke(cli, ["replay", str(replay), "--verify"])
    assert r.exit_code == 0 and "reproduced" in r.output and "boom in the AI" in r.output, r.output


def test_replay_tampered_is_reported_as_divergence(tmp_path):
    rs = run_batch(short_scenario(tmp_path, turns=1), 1, 3, RANDOM, workers=1, replay_dir=str(tmp_path))
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


def test_default_players_and_rules_are_heuristic_and_basic():
    """One set of defaults (``core.playtest.DEFAULT_AI``/``DEFAULT_RULES``) for the CLI and the editor;
    a side left out of ``--ai`` takes the default, not another player."""
    from cli.main import playtest as cli_playtest
    from core.playtest import DEFAULT_AI, DEFAULT_RULES

    assert DEFAULT_AI == {"german": "heuristic", "russian": "heuristic"} and DEFAULT_RULES == "basic"
    assert parse_ai(None) == DEFAULT_AI
    assert parse_ai("german=random") == {"german": "random", "russian": "heuristic"}
    defaults = {o.name: o.default for o in cli_playtest.params}
    # --rules left out: the first rule level of the scenario's system (Iron Cross: basic)
    from core.rule_system import get

    assert parse_ai(defaults["ai_spec"]) == DEFAULT_AI and defaults["rules"] is None
    assert get(None).resolve_rules(defaults["rules"]) == DEFAULT_RULES


def test_wilson_interval_and_summary():
    lo, hi = wilson_interval(5, 10)
    assert 0.2 < lo < 0.5 < hi < 0.8
    assert wilson_interval(0, 0) == (0.0, 0.0)
    assert summarise([])["games"] == 0


def test_summary_casualties_by_turn():
    from core.playtest import GameResult

    a = GameResult(0, 1, "german", 2, casualties_by_turn={"german": [1, 0], "russian": [2, 2]})
    b = GameResult(1, 2, "draw", 3, casualties_by_turn={"german": [3, 0, 1], "russian": [0, 0, 0]})
    s = summarise([a, b])
    assert [r["mean"] for r in s["casualties_by_turn"]["german"]] == [2.0, 0.0, 0.5]
    assert [r["mean"] for r in s["casualties_by_turn"]["russian"]] == [1.0, 1.0, 0.0]
    lo, hi = s["casualties_by_turn"]["german"][0]["ci95"]
    assert lo < 2.0 < hi


def test_eliminations_by_cause_and_bookkeeping_in_summary():
    """A playtest says what lies behind each elimination; any elimination that is no
    attack, mine, scenario roll or crew rule is the engine's own bookkeeping and is counted."""
    from core.ironcross.game_record import elimination_cause
    from core.playtest import GameResult

    assert [elimination_cause(r) for r in ("11.42", "9.2 C", "17.23", "12.32", "14.5", "24.35")] == ["attack"] * 6
    assert [elimination_cause(r) for r in ("19.24", "19.25", "24.37")] == ["mine"] * 3
    assert elimination_cause("20.3") == "crew" and elimination_cause("24.34") == "scenario"
    assert elimination_cause("8.62") == "bookkeeping" and elimination_cause("") == "bookkeeping"
    a = GameResult(0, 1, "german", 2, eliminations_by_rule={"11.42": 3, "8.62": 2})
    b = GameResult(1, 2, "draw", 3, eliminations_by_rule={"19.24": 1, "11.42": 1})
    err = GameResult(2, 3, "error", 1, eliminations_by_rule={"8.62": 5})  # errored games are left out
    s = summarise([a, b, err])
    assert s["eliminations_by_cause"] == {"attack": 2.0, "mine": 0.5, "scenario": 0.0, "crew": 0.0, "bookkeeping": 1.0}
    assert s["bookkeeping_eliminations"] == {"total": 2, "by_rule": {"8.62": 2}}


def test_units_stay_inside_the_scenarios_map_sections():
    """24.1 MAP: Scenario 1 is played on Map 2 (columns 30-50): nothing moves, fires or dies outside."""
    import random

    from core.ironcross.game import Game
    from core.ironcross.scenario_setup import load_setup

    _sc, setup = load_setup(S1, seed=4)
    setup.game_length = 3
    g = Game(setup, 4)
    rnd = random.Random(4)
    while not g.is_terminal():
        acts = g.legal_actions()
        g.apply(acts[rnd.randrange(len(acts))])
        for u in g.state.units.values():
            if u.hex is not None:
                assert 30 <= int(u.hex[:2]) <= 50, (u.id, u.hex)


def test_unit_activity_never_entered_and_never_acted():
    """Trust report: a reinforcement that has not entered is 'never entered'; a unit on the map that
    has not moved, turned or fired is 'never acted'; a unit that moved has acted."""
    from core.ironcross.actions import StartMove, Step
    from core.ironcross.game_record import unit_activity
    from core.ironcross.setup import Entry
    from core.ironcross.state import Phase
    from tests.core.engine_fixtures import inf, small_game
    from tests.core.engine_helpers import advance_to

    units = [inf("G1", "german"), inf("G2", "german"), inf("R1", "russian"), inf("R2", "russian")]
    g = small_game(units, {"G1": "1205", "G2": "1206", "R1": "1810"},
                   entries=[Entry("russian", ["R2"], frozenset({"2012"}), 3)])
    assert unit_activity(g) == {"german": {"never_entered": [], "never_acted": ["G1", "G2"]},
                                "russian": {"never_entered": ["R2"], "never_acted": ["R1"]}}
    advance_to(g, Phase.MOVEMENT)
    g.apply(StartMove(("G1",)))
    g.apply(Step("1204"))
    assert unit_activity(g)["german"] == {"never_entered": [], "never_acted": ["G2"]}


def test_balance_record_standing_objectives_attacks_and_losses_by_side(tmp_path):
    """What the balance sheet reads from each game: the outcome the victory conditions (24.1) give
    at the end of every Game Turn (the last is the game's outcome), how many objective hexes each
    side stands in then, the eliminations per side and rule, and every attack of every unit that
    stood on the map (checked against the replay's events)."""
    from collections import Counter

    from core.ironcross.game_record import ATTACK_EVENTS, objective_hexes
    from core.ironcross.scenario_setup import load_setup
    from core.playtest import _play

    _sc, setup = load_setup(S1, seed=0)
    assert objective_hexes(setup) == {"4307", "4308"}  # 24.4: a unit in both 4307 and 4308
    sc = short_scenario(tmp_path, turns=3)
    for i in range(2):
        res, payload = _play(sc, i, derive_seed(5, i), RANDOM, "basic", (), True, 200_000)
        assert res.outcome in ("german", "russian", "draw")
        assert len(res.standing_by_turn) == res.turns == 3
        assert res.standing_by_turn[-1] == res.outcome
        assert all(len(res.objective_by_turn[s]) == 3 and all(0 <= x <= 2 for x in res.objective_by_turn[s])
                   for s in ("german", "russian"))
        by_rule = Counter()
        for side in ("german", "russian"):
            by_rule.update(res.eliminations_by_side[side])
            assert sum(res.eliminations_by_side[side].values()) == sum(res.casualties[side].values())
        assert dict(by_rule) == res.eliminations_by_rule
        made = Counter()
        for e in payload["events"]:
            f = ATTACK_EVENTS.get(e["kind"])
            if f:
                v = e.get(f)
                made.update(v if isinstance(v, list) else [v])
        attacks = {**res.attacks["german"], **res.attacks["russian"]}
        assert {u: n for u, n in attacks.items() if n} == dict(made)
        for side in ("german", "russian"):  # a unit that never came onto the map is not listed
            assert not set(res.idle[side]["never_entered"]) & set(res.attacks[side])


# ------------------------------------------------------------------------- the loaded scenario
def test_load_scenario_reads_once_and_knows_system_title_and_map(tmp_path):
    import hashlib

    from core.rule_system import get, load_scenario

    sc = short_scenario(tmp_path, turns=1)
    loaded = load_scenario(sc)
    assert loaded.path == Path(sc) and loaded.system is get("ironcross")
    assert loaded.sha256 == hashlib.sha256(Path(sc).read_bytes()).hexdigest()
    assert loaded.title == "Scenario 1: Demyansk Pocket" and loaded.short_title == "Scenario 1"
    assert loaded.map_file == Path(loaded.data["map"]["file"]) and loaded.sections == loaded.data["map"]["sections"]
    hexmap, sections = loaded.load_map()
    assert sections == loaded.sections and hexmap.hex("4307").id == "4307"
    ref = loaded.ref
    assert (ref.path, ref.sha256, ref.system, ref.module) == (str(Path(sc).resolve()), loaded.sha256, "ironcross",
                                                              "core.ironcross.system")


def test_load_scenario_errors_name_the_file_the_place_and_the_problem(tmp_path):
    import pytest

    from core.rule_system import load_scenario
    from maps.document_file import DocumentError

    cases = {"missing.json": (None, "$: file not found"),
             "bad.json": (b'{"title": ', "$: not valid JSON at line 1 column 11"),
             "latin.json": (b'{"title": "\xe9"}', "$: not UTF-8 text (byte 11: 0xe9)"),
             "chess.json": (b'{"rule_system": "chess"}', "$.rule_system: unknown rule system 'chess'")}
    for name, (raw, want) in cases.items():
        p = tmp_path / name
        if raw is not None:
            p.write_bytes(raw)
        with pytest.raises(DocumentError) as e:
            load_scenario(p)
        assert str(e.value).startswith(f"{p}: {want}"), str(e.value)


def test_a_loaded_scenario_plays_the_same_games_as_its_path_and_workers_read_a_changed_file(tmp_path):
    from core.playtest import _setup_for
    from core.rule_system import load_scenario

    sc = short_scenario(tmp_path, turns=1)
    loaded = load_scenario(sc)
    by_path = run_batch(sc, 2, 4, RANDOM, workers=1, replay_dir=str(tmp_path / "a"))
    by_object = run_batch(loaded, 2, 4, RANDOM, workers=1, replay_dir=str(tmp_path / "b"))
    assert key(by_path) == key(by_object)
    header = json.loads(Path(by_object[0].replay).read_text().splitlines()[0])
    assert header["scenario"] == str(Path(sc).resolve()) and header["scenario_sha256"] == loaded.sha256
    # the task carries the reference, not the data: a file changed after loading is read again
    d = json.loads(Path(sc).read_text())
    d["turns"] = 2
    Path(sc).write_text(json.dumps(d) + " ")
    assert _setup_for(loaded.ref, 1).game_length == 2
    # ... and replay --verify says that the scenario changed since the game was played
    res = CliRunner().invoke(cli, ["replay", by_object[0].replay, "--verify"])
    assert "has changed since the game was played" in res.output
