"""A robust run's check games kept in its storage directory (core/robust_balance.py
``kept_batch``): a stopped run resumes, more games play only the games added, kept games of another
seed, scenario file or code are refused by name, and a tuned side at its defaults plays the default
games. On the toy dice race of ``tests/tuning_race.py``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import core.robust_balance as rb
from core import rule_system
from core.playtest import BatchInterrupted, run_batch
from tests.toy_system import toy_file
from tests.tuning_race import MODULE, NAME, SYSTEM

AI = {"german": "tunable:two_dice=0.5", "russian": "heuristic"}


@pytest.fixture
def race(tmp_path):
    rule_system.register(SYSTEM, MODULE)
    yield toy_file(tmp_path, rule_system=NAME, turns=6, target=30)
    rule_system.unregister(NAME)


@pytest.fixture
def counted(monkeypatch):
    """The games each run_batch call of kept_batch played (a list of their counts)."""
    calls: list[int] = []

    def counting(*a, **kw):
        out = run_batch(*a, **kw)
        calls.append(len(out))
        return out

    monkeypatch.setattr(rb, "run_batch", counting)
    return calls


def _outcomes(results):
    return [(r.index, r.seed, r.outcome, r.turns) for r in results]


def _ctrl_c_at_game(monkeypatch, n: int) -> tuple[list[int], object]:
    """Ctrl-C in the ``n``-th game played in this process (tuning and check games counted alike):
    the games counted so far (a one-item list) and the real game function."""
    from core import playtest

    real, calls = playtest._play, [0]

    def play(*a, **k):
        calls[0] += 1
        if calls[0] == n:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(playtest, "_play", play)
    return calls, real


def test_kept_games_are_extended_by_a_longer_run_and_equal_one_batch(race, tmp_path, counted):
    f = tmp_path / "checks.json"
    first = rb.kept_batch(f, race, 12, 5, AI, workers=1)
    assert counted == [12] and _outcomes(first) == _outcomes(run_batch(race, 12, 5, AI, workers=1))
    more = rb.kept_batch(f, race, 30, 5, AI, workers=1)
    assert counted == [12, 18]  # only the 18 games added were played
    assert _outcomes(more) == _outcomes(run_batch(race, 30, 5, AI, workers=1))
    again = rb.kept_batch(f, race, 20, 5, AI, workers=1)  # fewer games: the first 20 kept, none played
    assert counted == [12, 18] and _outcomes(again) == _outcomes(more[:20])
    doc = json.loads(f.read_text())
    assert doc["format"] == rb.CHECK_FORMAT and doc["seed"] == 5 and len(doc["games"]) == 30
    assert doc["ai"] == {"german": "tunable:two_dice=0.5", "russian": "heuristic"}


def test_the_file_is_written_after_every_slice_and_on_ctrl_c(race, tmp_path, monkeypatch):
    """A stopped run keeps the slices done and the games of the stopped slice that finished; run
    again, it plays only the rest, and the whole equals one batch."""
    monkeypatch.setattr(rb, "CHECK_SLICE", 5)
    calls = []

    def stopped_in_third_slice(*a, **kw):
        out = run_batch(*a, **kw)
        calls.append(len(out))
        if len(calls) == 3:
            raise BatchInterrupted(out[:2], len(out))  # two games of the slice finished
        return out

    monkeypatch.setattr(rb, "run_batch", stopped_in_third_slice)
    f = tmp_path / "checks.json"
    with pytest.raises(KeyboardInterrupt):
        rb.kept_batch(f, race, 17, 9, AI, workers=1)
    assert len(json.loads(f.read_text())["games"]) == 5 + 5 + 2
    calls.clear()
    done = rb.kept_batch(f, race, 17, 9, AI, workers=1)
    assert calls == [5]  # games 12-16: the 3 of the stopped slice not finished and the last slice's 2
    assert _outcomes(done) == _outcomes(run_batch(race, 17, 9, AI, workers=1))


def test_kept_games_of_another_seed_scenario_or_code_are_refused_by_name(race, tmp_path, monkeypatch):
    f = tmp_path / "checks.json"
    rb.kept_batch(f, race, 4, 5, AI, workers=1)
    with pytest.raises(ValueError, match=r"checks\.json: its games were played with another batch seed: delete"):
        rb.kept_batch(f, race, 4, 6, AI, workers=1)
    monkeypatch.setattr(rb, "play_code_fingerprint", lambda module=None: "0" * 64)
    with pytest.raises(ValueError, match=r"checks\.json: .*other code \(a file under core/, maps/ or scenarios/"):
        rb.kept_batch(f, race, 4, 5, AI, workers=1)
    monkeypatch.undo()
    data = json.loads(Path(race).read_text())
    data["turns"] = 5  # the scenario file edited since
    Path(race).write_text(json.dumps(data))
    with pytest.raises(ValueError, match="another version of the scenario file"):
        rb.kept_batch(f, race, 4, 5, AI, workers=1)


def test_kept_games_hold_only_while_the_documents_the_scenario_names_stay_the_same(race, tmp_path):
    """A scenario plays the map and the roster it names: an edited map is another game, although
    the scenario file itself is the same (the editor's snapshot names ``map.json`` in its folder)."""
    data = json.loads(Path(race).read_text())
    (tmp_path / "map.json").write_text('{"hexes": 1}')
    data["map"] = {"file": "map.json"}
    Path(race).write_text(json.dumps(data))
    assert rb.scenario_documents(race, data) == {"map.json": rb.hashlib.sha256(b'{"hexes": 1}').hexdigest()}
    f = tmp_path / "checks.json"
    rb.kept_batch(f, race, 3, 5, AI, workers=1)
    assert len(rb.kept_batch(f, race, 3, 5, AI, workers=1)) == 3  # unchanged: kept
    (tmp_path / "map.json").write_text('{"hexes": 2}')
    with pytest.raises(ValueError, match=r"other versions of the documents the scenario names \(its map"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)


def test_a_damaged_kept_file_is_a_clear_error(race, tmp_path):
    f = tmp_path / "checks.json"
    rb.kept_batch(f, race, 3, 5, AI, workers=1)
    doc = json.loads(f.read_text())
    doc["games"][1][1] += 1  # a hand-edited seed
    f.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"checks\.json: games\[1\]: seed .* is not game 1's of batch seed 5"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    good = json.loads(json.dumps(doc["games"][1]))
    good[1] -= 1
    for outcome, error in (("martian", None), ("error", None), ("german", "boom")):
        doc["games"][1] = [good[0], good[1], outcome, good[3], error]  # outcomes no game can have
        f.write_text(json.dumps(doc))
        with pytest.raises(ValueError, match=rf"games\[1\]: outcome '{outcome}' with error .*delete the file"):
            rb.kept_batch(f, race, 3, 5, AI, workers=1)
    doc["games"][1] = [good[0], good[1], good[2], -3, good[4]]
    f.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"games\[1\]: not \[index, seed, outcome, turns, error\]"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    doc["games"][1] = "german"
    f.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"games\[1\]: not \[index, seed, outcome, turns, error\]"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    f.write_text('{"format": ')
    with pytest.raises(ValueError, match=r"checks\.json: \$: not valid JSON at line 1 column 12: .*: delete the file"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    f.write_text("[]")
    with pytest.raises(ValueError, match="not a file of kept check games"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    # a game kept twice (a line pasted in) would change the verdict silently: refused
    doc["games"][1] = good
    doc["games"].append([good[0], good[1], "russian" if good[2] != "russian" else "german", good[3], None])
    f.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"games\[3\]: game 1 is kept twice"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    doc["games"].pop()
    # no players named: a damaged file, not one of other players (whose games would be played again)
    for ai in (None, "heuristic", {"german": 3}):
        bad = dict(doc, ai=ai) if ai is not None else {k: v for k, v in doc.items() if k != "ai"}
        f.write_text(json.dumps(bad))
        with pytest.raises(ValueError, match=r"'ai' is not the players of its games"):
            rb.kept_batch(f, race, 3, 5, AI, workers=1)
    # no end of bytes (a link to /dev/zero, a named pipe) and deep nesting: the safe reader's refusals
    f.unlink()
    f.symlink_to("/dev/zero")
    with pytest.raises(ValueError, match=r"checks\.json: .*only regular files are read"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    f.unlink()
    os.mkfifo(f)
    with pytest.raises(ValueError, match=r"checks\.json: .*only regular files are read"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)
    f.unlink()
    f.write_text("[" * 200_000)
    with pytest.raises(ValueError, match=r"checks\.json: .*delete the file"):
        rb.kept_batch(f, race, 3, 5, AI, workers=1)


def test_kept_games_of_other_settings_are_played_again(race, tmp_path, counted):
    """A tuned side's best trial changed (its study extended): its old games answer nothing now."""
    f = tmp_path / "checks.json"
    rb.kept_batch(f, race, 6, 5, AI, workers=1)
    said = []
    other = {"german": "tunable:two_dice=0.9", "russian": "heuristic"}
    got = rb.kept_batch(f, race, 6, 5, other, workers=1, say=said.append)
    assert counted == [6, 6] and "other players or settings: played again" in said[0]
    said.clear()
    rb.kept_batch(f, race, 8, 5, other, workers=1, say=said.append)
    assert said == ["checks.json: 6 of 8 games kept, 2 to play"]
    assert _outcomes(got) == _outcomes(run_batch(race, 6, 5, other, workers=1))
    assert json.loads(f.read_text())["ai"]["german"] == "tunable:two_dice=0.9"


def test_a_robust_run_keeps_its_check_games_and_a_side_at_its_defaults_plays_the_default_games(race, tmp_path,
                                                                                                counted):
    system = rule_system.get(NAME)
    files = {}

    def kept(pairing):
        return files.setdefault(pairing, str(tmp_path / f"checks-{pairing}.json"))

    # one trial a side: the first trial is the defaults, so both tuned rows are the default games
    said = []
    ans = rb.robust_balance(race, system, games=10, seed=2, trials=1, tune_games=4, workers=1, player="tunable",
                            kept=kept, on_stage=said.append)
    assert [Path(p).name for p in sorted(files.values()) if Path(p).exists()] == ["checks-default.json"]
    assert all(t.shares == ans.default and t.gain == (0.0, 0.0, 0.0) for t in ans.tuned.values())
    assert sum("its best trial is the defaults" in s for s in said) == 2
    played = sum(counted)
    assert played == 10  # the check games: the default batch once (tuning games are not counted here)
    # a second run with more games plays only the added default games, and says what it kept
    said.clear()
    studies = {s: str(tmp_path / f"{s}.optuna.db") for s in ("german", "russian")}
    rb.robust_balance(race, system, games=15, seed=2, trials=1, tune_games=4, workers=1, player="tunable", kept=kept,
                      storage=studies.get, on_stage=said.append)
    assert sum(counted) == played + 5
    assert "checks-default.json: 10 of 15 games kept, 5 to play" in said and "tuning german" in said
    said.clear()
    rb.robust_balance(race, system, games=15, seed=2, trials=2, tune_games=4, workers=1, player="tunable", kept=kept,
                      storage=studies.get, on_stage=said.append)
    assert "tuning german: 1 of 2 trials kept" in said and "tuning russian: 1 of 2 trials kept" in said
    # another seed with the same studies: refused, saying which seeds the tuning plays
    with pytest.raises(ValueError, match=r"seed 3 there, 4 here\); .* \(a robust run tunes each side on the batch "
                                         r"seed after its own: 4 for seed 3; .*another --storage folder\)"):
        rb.robust_balance(race, system, games=15, seed=3, trials=2, tune_games=4, workers=1, player="tunable",
                          storage=studies.get)


def test_ctrl_c_in_a_robust_run_s_tuning_ends_the_run_without_the_half_tuned_side_s_check_games(race, tmp_path,
                                                                                                 monkeypatch):
    """Ctrl-C or SIGTERM while a side is tuned ends the run there ("interrupted"), its study kept: the
    check games of the best found so far are not started (a 1,000-game batch that a second SIGTERM,
    ignored while the answer is written, could not stop)."""
    system = rule_system.get(NAME)
    calls, _real = _ctrl_c_at_game(monkeypatch, 6 + 3 * 4 + 2)  # the German's 4th trial's 2nd game
    studies = {s: str(tmp_path / f"{s}.optuna.db") for s in ("german", "russian")}
    best = {}
    real_tune = rb.tune

    def tune(*a, **k):
        t = real_tune(*a, **k)
        best[k.get("seed")] = t.best
        return t

    monkeypatch.setattr(rb, "tune", tune)
    ans = rb.robust_balance(race, system, games=6, seed=5, trials=5, tune_games=4, workers=1, player="tunable",
                            storage=studies.get)
    assert ans.verdict == "interrupted" and calls[0] == 6 + 3 * 4 + 2  # not one game after the Ctrl-C
    assert ans.text == "stopped in the german tuning: no verdict"
    assert not ans.tuned  # no German row from a half-searched best ...
    _space, defaults = system.settings_space("tunable")
    assert any(v != float(defaults[n]) for n, v in best[6].items())  # ... which was no longer the defaults here
    assert rb._trials_kept(studies["german"], rb.default_study_name(race, "german", "tunable")) == 3


def test_kept_games_of_another_seed_stop_a_robust_run_before_its_first_game(race, tmp_path, counted):
    system = rule_system.get(NAME)
    kept = {"default": str(tmp_path / "d.json"), "german": str(tmp_path / "g.json"), "russian": None}
    rb.kept_batch(kept["german"], race, 3, 7, AI, workers=1)
    counted.clear()
    with pytest.raises(ValueError, match=r"g\.json: its games were played with another batch seed"):
        rb.robust_balance(race, system, games=3, seed=2, trials=1, tune_games=4, workers=1, player="tunable",
                          kept=kept.get)
    assert counted == []


def test_playtest_robust_storage_keeps_check_games_beside_the_studies(race, tmp_path):
    from cli.main import cli

    studies = tmp_path / "studies"
    args = ["playtest", race, "--robust", "--games", "8", "--tune-games", "4", "--trials", "2", "--workers", "1",
            "--ai", "german=tunable,russian=tunable", "--storage", str(studies), "--quiet"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    stem = Path(race).stem
    names = sorted(p.name for p in studies.iterdir())
    assert f"{stem}-checks-default.json" in names and f"{stem}-german.optuna.db" in names
    doc = json.loads((studies / f"{stem}-checks-default.json").read_text())
    assert len(doc["games"]) == 8
    Path(race).write_text(Path(race).read_text().replace('"turns": 6', '"turns": 7'))
    bad = CliRunner().invoke(cli, args)
    # the studies are checked first: their trials were scored on the other version's games
    assert bad.exit_code == 1 and "german.optuna.db: the study" in bad.output and \
        "the scenario, a document it names or the code has changed since" in bad.output and \
        "another version of the scenario or the code needs another --storage folder" in bad.output
    assert "Traceback" not in bad.output
    for db in studies.glob("*.optuna.db"):
        db.unlink()  # the kept check games are refused too
    bad = CliRunner().invoke(cli, args)
    assert bad.exit_code == 1 and "checks-default.json: its games were played with another version of the " \
        "scenario file: delete the file to play them again" in bad.output and "Traceback" not in bad.output


def test_the_code_digest_reads_the_modules_and_data_files_not_what_runs_write(tmp_path):
    """A robust check the editor runs on a shipped scenario keeps its games beside it, in
    scenarios/data/<stem>.robust/: those files must not change the digest they are checked against."""
    made = {}
    for rel in ("core/ironcross/game.py", "scenarios/data/scenario_9.json", "maps/mapsheet_source/map1.txt",
                "scenarios/data/s.robust/0123456789ab/scenario-checks-default.json",
                "scenarios/data/scenario_9-checks-default.json", "scenarios/data/scenario_9.json.autosave",
                "core/__pycache__/game.cpython-313.pyc", "scenarios/data/notes/old.json"):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
        made[rel] = rb._plays(p)
    assert [k for k, v in made.items() if v] == ["core/ironcross/game.py", "scenarios/data/scenario_9.json",
                                                 "maps/mapsheet_source/map1.txt"]


def test_a_folder_that_cannot_keep_the_games_is_said_before_any_is_played(race, tmp_path, monkeypatch):
    """A read-only storage folder: the games would be played and lost at the first write, so the run
    says so first (the check works for any user; root, who may write anyway, is simulated here)."""
    f = tmp_path / "checks.json"
    rb.kept_batch(f, race, 2, 5, AI, workers=1)
    played = []
    monkeypatch.setattr(rb, "run_batch", lambda *a, **k: played.append(a) or [])
    monkeypatch.setattr(rb.os, "access", lambda p, mode: False)
    assert len(rb.kept_batch(f, race, 2, 5, AI, workers=1)) == 2   # nothing to add: it reads only
    with pytest.raises(ValueError, match=rf"{tmp_path}: the folder is not writable: the check games of checks\.json"):
        rb.kept_batch(f, race, 4, 5, AI, workers=1)
    assert played == []


def test_a_robust_run_stopped_in_a_tuned_side_s_check_games_reports_its_row_over_the_games_played(
        race, tmp_path, monkeypatch):
    """Ctrl-C or SIGTERM in a tuned side's check games: no verdict, but that side's row over the
    check games played by then, each paired with the default game of its seed (so a designer who
    stops a run of hours sees how far the gain has come); run again, it resumes from the kept games
    and the row over all of them is the same games'."""
    from cli.tune_command import robust_lines
    from core import playtest

    system = rule_system.get(NAME)
    # after the 6 default games and the German's 3 trials x 4 games, the 4th German check game
    stop_at = 6 + 3 * 4 + 4
    calls, real = _ctrl_c_at_game(monkeypatch, stop_at)
    files = {p: str(tmp_path / f"checks-{p}.json") for p in ("default", "german", "russian")}
    studies = {s: str(tmp_path / f"{s}.optuna.db") for s in ("german", "russian")}
    run = dict(games=6, seed=5, trials=3, tune_games=4, workers=1, player="tunable", storage=studies.get,
               kept=files.get)
    ans = rb.robust_balance(race, system, **run)
    assert calls[0] == stop_at and ans.verdict == "interrupted" and list(ans.tuned) == ["german"]
    t = ans.tuned["german"]
    assert t.moved and t.played == 3  # a best that is not the defaults, 3 of its 6 games played
    players = {"german": t.tuning.best_spec, "russian": "tunable"}
    base = rb.kept_batch(files["default"], race, 6, 5, {"german": "tunable", "russian": "tunable"}, workers=1)
    tuned = run_batch(race, 6, 5, players, workers=1)
    assert t.shares == rb._shares(tuned[:3]) and t.gain == rb.paired_gain(base, tuned[:3], "german")
    assert t.default_shares == rb._shares(base[:3])  # what the gain compares with, beside the 6 games' shares
    assert ans.text == "stopped in the german tuned games after 3 of 6: no verdict"
    text = "\n".join(robust_lines("race", ans))
    assert "german tuned (3 games)" in text and "default, the same 3" in text and \
        "over the first 3 of 6 paired games (the run was stopped in them)" in text and "Verdict:" not in text
    # run again: the 3 games kept, the other 3 played, and the row is over all 6
    monkeypatch.setattr(playtest, "_play", real)
    again = rb.robust_balance(race, system, **run)
    assert again.verdict != "interrupted" and again.tuned["german"].played is None
    assert again.tuned["german"].gain == rb.paired_gain(base, tuned, "german")
    assert len(json.loads(Path(files["german"]).read_text())["games"]) == 6


def test_playtest_robust_stopped_in_a_tuned_side_s_games_prints_and_writes_its_row_so_far(race, tmp_path,
                                                                                         monkeypatch):
    from cli.main import cli

    _ctrl_c_at_game(monkeypatch, 6 + 3 * 4 + 4)  # the 4th German check game, as above
    out = tmp_path / "robust.json"
    r = CliRunner().invoke(cli, ["playtest", race, "--robust", "--games", "6", "--seed", "5", "--tune-games", "4",
                                 "--trials", "3", "--workers", "1", "--ai", "german=tunable,russian=tunable",
                                 "--storage", str(tmp_path / "kept"), "--json", str(out), "--quiet"])
    assert r.exit_code == 130, r.output
    assert "german tuned (3 games)" in r.output and "over the first 3 of 6 paired games" in r.output
    assert "interrupted: no verdict; the tuning trials and check games done are kept in" in r.output
    doc = json.loads(out.read_text())
    assert doc["verdict"] == "interrupted" and doc["tuned"]["german"]["played"] == 3 and "russian" not in doc["tuned"]
    assert doc["text"] == "stopped in the german tuned games after 3 of 6: no verdict" and doc["stopped_in"] == "german"
    assert sum(v["count"] for v in doc["tuned"]["german"]["default_shares"].values()) == 3


def test_a_robust_run_stopped_before_a_tuned_side_s_first_check_game_ended_keeps_the_rows_done(
        race, tmp_path, monkeypatch):
    """Ctrl-C in the first of the Russian's check games (none kept, none ended): the rows done
    before (the default games, the German's tuned games) are the answer, the text names where it
    stopped, and the CLI prints them, where the run used to end with a bare Ctrl-C."""
    from cli.tune_command import robust_lines

    system = rule_system.get(NAME)
    # the 6 default games, the German's 3 trials x 4 games and 6 check games, the Russian's 3 x 4
    stop_at = 6 + 3 * 4 + 6 + 3 * 4 + 1
    calls, _ = _ctrl_c_at_game(monkeypatch, stop_at)
    files = {p: str(tmp_path / f"checks-{p}.json") for p in ("default", "german", "russian")}
    ans = rb.robust_balance(race, system, games=6, seed=5, trials=3, tune_games=4, workers=1, player="tunable",
                            storage=lambda s: str(tmp_path / f"{s}.optuna.db"), kept=files.get)
    assert calls[0] == stop_at and ans.verdict == "interrupted" and ans.stopped_in == "russian"
    assert list(ans.tuned) == ["german"] and ans.tuned["german"].played is None  # the German's row is complete
    assert ans.text == "stopped in the russian tuned games before the first of 6 ended: no verdict"
    text = "\n".join(robust_lines("race", ans))
    assert "german tuned " in text and "russian tuned" not in text and "Verdict:" not in text
    assert json.loads(Path(files["russian"]).read_text())["games"] == []  # the kept file is written, empty
