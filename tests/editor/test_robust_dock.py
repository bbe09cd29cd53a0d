"""The Play mode's Robust panel (editor/play/robust_dock.py): a robust check in the background on
the toy dice race (tests/tuning_race.py, whose tunable player's best setting is known), the three
pairings and the verdict shown, Cancel keeping what was done, and the studies and games kept
beside a saved scenario, one folder per version of it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core import rule_system  # noqa: E402
from tests.toy_system import toy, toy_file  # noqa: E402,F401 (toy: a fixture)
from tests.tuning_race import MODULE, NAME, SYSTEM  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"


@pytest.fixture
def race(tmp_path):
    rule_system.register(SYSTEM, MODULE)
    yield toy_file(tmp_path, rule_system=NAME, turns=6, target=30)
    rule_system.unregister(NAME)


def _panel(qtbot, race, storage):
    from editor.play.robust_dock import RobustPanel

    def snapshot(folder):
        # the editor writes the scenario in memory to a new sub-folder; the toy race is one file
        out = Path(folder) / f"snap{len(list(Path(folder).iterdir()))}"
        out.mkdir()
        return shutil.copy(race, out / "scenario.json")

    panel = RobustPanel(snapshot, storage_dir=(lambda: storage) if storage is not None else None)
    qtbot.addWidget(panel)
    panel.games.setValue(12)
    panel.trials.setValue(3)
    panel.tune_games.setValue(6)
    panel.workers.setValue(1)
    return panel


def _finished(panel, qtbot):
    qtbot.waitUntil(lambda: panel.run_btn.isEnabled(), timeout=120_000)


def test_the_panel_checks_shows_the_pairings_and_the_verdict(qtbot, race, tmp_path):
    from core.robust_balance import robust_balance

    panel = _panel(qtbot, race, None)
    assert panel.start()
    assert not panel.start()  # one check at a time
    _finished(panel, qtbot)
    ans = panel.answer
    assert ans is not None and ans.verdict in ("robust", "AI-dependent", "undecided")
    assert panel.table.rowCount() == 3
    assert [panel.table.item(i, 0).text() for i in range(3)] == ["default vs default", "German tuned",
                                                                 "Russian tuned"]
    assert ans.verdict.upper() in panel.verdict.text() and "German gains" in panel.verdict.text()
    assert "tunable against tunable: 12 games a pairing, seed 1" in panel.status.text()
    # the command line's answer: the same games, the same verdict
    same = robust_balance(race, rule_system.get(NAME), games=12, seed=1, trials=3, tune_games=6, workers=1,
                          player="tunable")
    assert (same.verdict, same.default) == (ans.verdict, ans.default)
    assert {s: t.gain for s, t in same.tuned.items()} == {s: t.gain for s, t in ans.tuned.items()}


def test_a_saved_scenario_keeps_its_check_beside_it_and_cancel_keeps_what_was_done(qtbot, race, tmp_path):
    from core.robust_balance import scenario_version

    storage = tmp_path / "race.robust"
    panel = _panel(qtbot, race, storage)
    panel.games.setValue(40)
    stages, steps = [], []
    panel.runner = None
    assert panel.start()
    panel.runner.stage.connect(stages.append)
    panel.runner.step.connect(lambda i, n: steps.append((i, n, panel.bar.maximum(), panel.bar.value())))
    # cancel as soon as the first check games come in: the default batch stops, its games kept
    panel.runner.games_done.connect(lambda _n: panel.cancel())
    _finished(panel, qtbot)
    assert panel.answer is None and "cancelled: the trials and games done are kept in" in panel.status.text()
    folder = storage / scenario_version(race)
    kept = json.loads((folder / "scenario-checks-default.json").read_text())
    assert 0 < len(kept["games"]) < 40
    # Check again: it goes on from the games kept and ends with a verdict
    assert panel.start()
    panel.runner.stage.connect(stages.append)
    panel.runner.step.connect(lambda i, n: steps.append((i, n, panel.bar.maximum(), panel.bar.value())))
    kept_then = []
    panel.runner.games_kept.connect(lambda n: kept_then.append((n, panel.bar.value())))
    _finished(panel, qtbot)
    # the default games kept by the cancelled run count on the bar as it resumes
    assert kept_then and kept_then[0][0] == len(kept["games"]) and kept_then[0][1] == int(1000 * len(kept["games"]) / 40)
    # the bar follows the run's stages (the default games, each side's tuning and games), told by
    # number: the kept games' message in the default stage does not move it
    assert steps == [(0, 5, 5000, 0), (0, 5, 5000, 0), (1, 5, 5000, 1000), (2, 5, 5000, 2000),
                     (3, 5, 5000, 3000), (4, 5, 5000, 4000)]
    assert any("checks-default.json: " in t and "games kept" in t for t in stages)
    assert panel.answer is not None and panel.answer.verdict != "interrupted"
    assert len(json.loads((folder / "scenario-checks-default.json").read_text())["games"]) == 40
    names = {p.name for p in folder.iterdir()}
    assert {"scenario-german.optuna.db", "scenario-russian.optuna.db", "scenario-checks-default.json"} <= names
    assert f"kept in {folder}" in panel.status.text()
    # an edited scenario is another version: a folder of its own, started afresh
    data = json.loads(Path(race).read_text())
    data["target"] = 31
    Path(race).write_text(json.dumps(data))
    assert scenario_version(race) != folder.name
    assert panel.start()
    _finished(panel, qtbot)
    assert panel.answer is not None and (storage / scenario_version(race)).is_dir()


def test_a_scenario_whose_players_take_no_settings_is_said_so(qtbot, tmp_path, toy):
    from editor.play.robust_dock import RobustPanel

    path = toy_file(tmp_path, turns=3, target=10)
    panel = RobustPanel(lambda folder: path)
    qtbot.addWidget(panel)
    panel.workers.setValue(1)
    assert panel.start()
    _finished(panel, qtbot)
    assert "take no behaviour settings to tune" in panel.status.text()
    assert panel.bar.maximum() > 0  # no busy bar left running


def test_the_robust_dock_is_a_play_mode_dock_of_the_editor(qtbot, dialogs):
    from tests.editor.conftest import opened_window

    gen = opened_window(qtbot, S1)
    win = next(gen)
    try:
        ctl = win.scenario_ctl
        assert "robust" in ctl.docks and ctl.docks["robust"] in win.mode_docks["play"]
        assert ctl.docks["robust"].widget().widget() is ctl.play.robust  # in the dock's scroll area
        # a shipped scenario is saved: its check is kept beside it
        assert ctl.play.robust.storage_dir() == S1.with_name(S1.stem + ".robust")
    finally:
        gen.close()


def test_cancel_in_a_tuning_shows_the_rows_done_and_no_verdict(qtbot, race, tmp_path):
    panel = _panel(qtbot, race, tmp_path / "race.robust")
    assert panel.start()
    panel.runner.trial.connect(lambda *_a: panel.cancel())  # the German's first trial
    _finished(panel, qtbot)
    ans = panel.answer
    assert ans is not None and ans.verdict == "interrupted" and ans.tuned == {}
    assert panel.table.rowCount() == 1 and "Cancelled during a tuning" in panel.verdict.text()


def test_cancel_in_a_tuned_side_s_games_shows_its_row_over_the_games_played(qtbot, race, tmp_path):
    panel = _panel(qtbot, race, tmp_path / "race.robust")
    assert panel.start()
    stage = [0]
    panel.runner.step.connect(lambda i, _n: stage.__setitem__(0, i))
    # the first check game of a tuned side (stage 2: the German's games; 4: the Russian's)
    panel.runner.games_done.connect(lambda _n: panel.cancel() if stage[0] in (2, 4) else None)
    _finished(panel, qtbot)
    ans = panel.answer
    assert ans is not None and ans.verdict == "interrupted"
    side, t = list(ans.tuned.items())[-1]
    assert t.played is not None and 0 < t.played < 12
    labels = [panel.table.item(i, 0).text() for i in range(panel.table.rowCount())]
    # the stopped side's row over its games, and the default's over the same seeds under it
    assert labels[-2:] == [f"{side.capitalize()} tuned ({t.played} games)", f"Default, the same {t.played}"]
    text = panel.verdict.text()
    assert f"Cancelled during the {side.capitalize()} tuned games" in text and \
        f"over the first {t.played} of 12 paired games" in text
    assert "cancelled; " in panel.status.text() and "Check again to go on" in panel.status.text()


def test_the_panel_says_how_many_games_a_check_plays_and_how_long_is_left(qtbot, race):
    from editor.drawing.widgets import TimeLeft, duration_text
    from editor.play.robust_dock import planned_games

    # the stages of core.robust_balance.robust_stages: default, then tuning and check per side
    assert planned_games(200, 30, 20) == [200, 600, 200, 600, 200]
    assert [duration_text(x) for x in (4.4, 59.6, 61, 719, 7200, 7800)] == ["4 s", "1 min", "1 min", "12 min",
                                                                            "2 h", "2 h 10 min"]
    panel = _panel(qtbot, race, None)
    assert "At most 72 games: 3 pairings x 12 check games and 2 sides x 3 tuning trials x 6 games" \
        in panel.plan.text()
    panel.games.setValue(200)
    assert panel.plan.text().startswith("At most 636 games: 3 pairings x 200")  # 3 x 200 + 2 x 3 x 6
    # the time left, from the pace of the games played since the first of them ended
    now = [1000.0]
    panel.time_left = TimeLeft(lambda: now[0])
    panel.time_left.start(1)
    panel._plan_games = planned_games(200, 3, 6)
    panel._step(0, 5)
    panel._games(1)  # the first game ends at 1000 s (its time holds the pool's start-up)
    assert "left" not in panel.status.text()
    now[0] += 10.0
    panel._games(1)
    # one game in 10 s since the first, 634 games left at most: 6,340 s
    assert panel.status.text().endswith("; 1 h 46 min left at most"), panel.status.text()
    # games an earlier run kept count as done, not as pace: 100 kept leave 534
    panel._kept(100)
    assert panel.status.text().endswith("; 1 h 29 min left at most"), panel.status.text()
    # a tuning stage: its kept trials are done (2 of 3 trials, 12 games), a trial played is pace
    panel._step(1, 5)
    panel._kept(2)
    assert panel._stage_trials * panel.tune_games.value() == 12 and panel._stage_kept == 0
    now[0] += 50.0
    panel._trial(3, 0.5, 0.5)  # 7 games played in 60 s since the first; 200 + 18 done, 418 left
    assert panel.status.text() == "tuning: trial 3 of 3, score 0.500, best 0.500; 1 h left at most", \
        panel.status.text()
