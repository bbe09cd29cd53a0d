"""The editor for any rule system: Watch, Hot-seat, the
Playtest dock and the scenario window play and show a scenario of a system the editor knows
nothing about -- the toy dice race of ``tests/toy_system.py`` (rules T.1-T.8), registered at run
time -- through the rule-system boundary only; Iron Cross keeps its richer views. Headless
(pytest-qt, offscreen)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.dice import derive_seed  # noqa: E402
from core.rule_system import Piece  # noqa: E402
from editor.play.game_record import GameRecording, HotseatSession, snapshot, state_text  # noqa: E402
from tests.toy_system import TOY, ToyHold, ToyNudge, ToyRoll, toy, toy_map_file  # noqa: E402,F401 - toy: fixture

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
AI = {"german": "random", "russian": "heuristic"}


@pytest.fixture(autouse=True)
def tmp_settings(dialogs):
    return dialogs


@pytest.fixture
def win(qtbot, toy, tmp_path):
    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    path = toy_map_file(tmp_path)
    assert w.open_file(path)
    w.toy_path = path
    yield w
    w.scenario_ctl.shutdown()


# ------------------------------------------------------------------------------- Watch, no Qt
def test_t_watch_records_a_toy_game_through_its_system_as_the_runner_plays_it(toy, tmp_path):
    from core.playtest import play_game

    sc = toy_map_file(tmp_path)
    seed = derive_seed(5, 2)
    rec = GameRecording.play(sc, seed, AI)
    assert rec.system is toy and rec.header["rule_system"] == TOY and rec.header["rules"] == "standard"
    res = play_game(sc, 2, seed, AI, "standard", replay_dir=str(tmp_path / "rp"))
    assert rec.game.outcome == res.outcome and len(rec) == res.actions and rec.game.turn == res.turns
    # snapshots from pieces(game): turn, decider, the runners on their tracks (T.7), the wagon across 2 hexes
    first, last = rec.snapshots[0], rec.snapshots[-1]
    assert (first.turn, first.decider, first.phase) == (1, "german", "")
    assert last.decider is None and last.outcome == res.outcome
    assert [p.uid for p in first.pieces] == ["G", "R", "W"]
    assert first.pieces[2] == Piece("W", "german", ("4012", "4013"), "WAG", "wagon")
    g = next(p for p in last.pieces if p.uid == "G")
    assert g.hexes == (f"{35 + min(rec.game.score['german'] // 5, 9)}10",) and g.label == str(rec.game.score["german"])
    assert last.units["G"][0] == g.hexes[0] and last.units["W"][0] == "4012"
    assert "<b>Turn" in state_text(last) and "game over" in state_text(last)
    # each step: the side, the action's JSON (the system's), the events it caused
    assert all(s.action["kind"] in ("roll", "nudge", "hold") for s in rec.steps)
    assert rec.steps[0].side == "german" and rec.steps[1].side == "russian"
    # the runner's replay gives the same recording (its header's rule_system)
    again = GameRecording.from_replay(res.replay)
    assert again.system is toy and again.snapshots == rec.snapshots


def test_iron_cross_watch_keeps_its_richer_snapshot(tmp_path):
    rec = GameRecording.play(str(S1), 3, {"german": "random", "russian": "random"}, max_actions=60)
    assert rec.header["rule_system"] == "ironcross" and rec.header["rules"] == "basic"
    s = rec.snapshots[-1]
    assert s.pieces == () and s.phase and s.turns == rec.game.state.game_length
    uid, (h, facing, down, morale, side, label) = next(iter(s.units.items()))
    u = rec.game.state.units[uid]
    assert (h, facing, down, morale, side) == (u.hex, u.facing, u.down, u.morale.value.lower(), u.side)
    assert rec.steps[0].action == rec.system.action_to_json(rec.game.actions[0])


# ------------------------------------------------------------------------------- Watch panel
def test_t_watch_panel_draws_toy_pieces_and_steps_forward_and_back(win):
    from editor.drawing.pieces import PiecesItem

    ctl = win.scenario_ctl
    rec = GameRecording.play(win.toy_path, 7, AI)
    w = ctl.watch
    w.set_recording(rec)
    assert w.pos == 0 and "<b>Turn 1</b>; german to act" in w.state_label.text()
    items = ctl.overlay.layers["game"]
    assert len(items) == 1 and isinstance(items[0], PiecesItem)
    assert {p.uid: p.hexes for p in items[0].pieces} == {"G": ("3510",), "R": ("3514",), "W": ("4012", "4013")}
    for _ in range(4):
        w.forward()
    assert w.pos == 4 and w.snapshot() == rec.snapshots[4]
    log = [w.log.item(i).text() for i in range(w.log.count())]
    assert log[0].startswith("1. ") and any("(T.2)" in t or "(T.8)" in t or "hold" in t for t in log)
    assert sum(1 for t in log if t[0].isdigit()) == 4   # one numbered line per decision
    w.back()
    assert w.pos == 3 and w.snapshot() == rec.snapshots[3]
    w.go(len(rec))
    assert "game over" in w.state_label.text() and ctl.overlay.layers["game"][0].pieces == \
        [p for p in rec.snapshots[-1].pieces if p.hexes]
    # a runner that moved on is joined to where it stood by a blue line
    moved = next(i for i in range(1, len(rec) + 1)
                 if rec.snapshots[i].units["G"][0] != rec.snapshots[i - 1].units["G"][0]
                 or rec.snapshots[i].units["R"][0] != rec.snapshots[i - 1].units["R"][0])
    w.go(moved)
    assert ctl.overlay.layers["game-lines"]


def test_t_watch_plays_game_n_of_the_toy_batch_with_the_playtest_settings(win, qtbot, tmp_path):
    from core.playtest import play_game

    ctl = win.scenario_ctl
    ctl.playtest.seed.setValue(4)
    ctl.playtest.ai["german"].setCurrentText("heuristic")
    ctl.playtest.ai["russian"].setCurrentText("random")
    ctl.watch.game_no.setValue(2)
    assert ctl.watch.start_game()
    qtbot.waitUntil(lambda: ctl.watch.recording is not None, timeout=60000)
    rec = ctl.watch.recording
    assert rec.header["seed"] == derive_seed(4, 1) and rec.header["rules"] == "standard"
    res = play_game(win.toy_path, 1, derive_seed(4, 1), {"german": "heuristic", "russian": "random"}, "standard")
    assert rec.game.outcome == res.outcome and len(rec) == res.actions


# ------------------------------------------------------------------------------------ Hot-seat
def test_t_hotseat_session_humans_choose_legal_actions_ais_reply(toy, tmp_path):
    s = HotseatSession(toy_map_file(tmp_path), 3, {"german"}, ai={"russian": "heuristic"})
    assert s.system is toy and s.human_to_act() and s.game.current_side() == "german"
    assert s.players["russian"].name == "heuristic" and s.fixed_players is None
    s.apply(ToyNudge("G"))   # T.8
    assert s.game.score["german"] == 1 and not s.human_to_act()
    assert s.run_ai() == 1 and s.human_to_act() and s.game.turn == 2
    assert snapshot(s.game, s.system).pieces[0].label == "1"


def _labels(panel) -> dict[str, list[str]]:
    out = {}
    for i in range(panel.actions.topLevelItemCount()):
        top = panel.actions.topLevelItem(i)
        out[top.text(0)] = [top.child(k).text(0) for k in range(top.childCount())]
    return out


def test_t_hotseat_panel_lists_the_legal_actions_and_a_click_filters_them(win):
    ctl = win.scenario_ctl
    hs = ctl.hotseat
    hs.human["russian"].setChecked(False)
    ctl.playtest.ai["russian"].setCurrentText("heuristic")
    assert hs.new_game()
    assert hs.session.system.name == TOY and not hs.auto_btn.isEnabled()   # no set-up phase in the toy
    assert not hs.use_setup.isEnabled()   # nor designer's set-ups
    assert "<b>german</b> to act" in hs.state_label.text()
    assert "<br>Scores: german 0, russian 0 (target 30)" in hs.state_label.text()   # the system's status_lines
    assert _labels(hs) == {"roll (2)": ["roll: dice 1", "roll: dice 2"], "nudge (1)": ["nudge: runner G"],
                           "hold (1)": ["hold"]}
    # only what legal_actions() gave is listed: every item's action is one of them
    acts = hs.game.legal_actions()
    listed = [hs.actions.topLevelItem(i).child(k).data(0, 0x0100) for i in range(hs.actions.topLevelItemCount())
              for k in range(hs.actions.topLevelItem(i).childCount())]
    assert listed == [ToyRoll(1), ToyRoll(2), ToyNudge("G"), ToyHold()] and all(a in acts for a in listed)
    # a click on the Russian runner (not the side to act's): actions naming it -- none -- and those naming no piece
    assert hs.click("3514") == "selected R"
    assert "nudge (1)" not in _labels(hs) and "roll (2)" in _labels(hs)
    # a click on the German runner: its nudge is back; a click on the wagon (either of its hexes) selects it
    assert hs.click("3510") == "selected G" and "nudge (1)" in _labels(hs)
    assert hs.click("4013") == "selected W" and hs.click("4012") == "selected W"
    assert hs.click("3001") == "nothing to do there" and hs.selected is None
    # the human nudges (double-click / Do it); the AI replies; back to the human
    top = next(hs.actions.topLevelItem(i) for i in range(hs.actions.topLevelItemCount())
               if hs.actions.topLevelItem(i).text(0) == "nudge (1)")
    hs.actions.setCurrentItem(top.child(0))
    assert hs.do_selected()
    assert hs.game.score["german"] == 1 and hs.game.current_side() == "german" and hs.game.turn == 2
    log = [hs.log.item(i).text() for i in range(hs.log.count())]
    # the log: each decision as "Side: label", its events as the toy's describe_event gives them
    assert log[:5] == ["game_start (T.1)", "German: nudge: runner G", "scored (T.8)", "Russian: roll: dice 2",
                       "roll (T.2)"]   # the heuristic AI rolls two dice when behind
    assert ctl.overlay.layers["hotseat"] and hs.click("3510") == "selected G"


# ------------------------------------------------------------------------------ Playtest dock
def test_t_playtest_dock_offers_the_toy_players_and_rules_and_runs_a_batch(win, qtbot):
    p = win.scenario_ctl.playtest
    assert [p.ai["german"].itemText(i) for i in range(p.ai["german"].count())] == ["heuristic", "random"]
    assert [p.rules.itemText(i) for i in range(p.rules.count())] == ["standard"]
    assert not p.use_setup.isEnabled() and p.game_settings()["rules"] == "standard"
    p.games.setValue(4)
    p.workers.setValue(1)
    assert p.start()
    qtbot.waitUntil(lambda: p.summary is not None, timeout=60000)
    assert p.summary["games"] == 4 and all(r.rule_system == TOY for r in p.results)
    assert "4 games" in p.status.text()
    # two worker processes (spawned: the toy, added at run time, is sent by module): the same games
    one = [(r.seed, r.outcome, r.turns, r.actions) for r in p.results]
    p.summary = None
    p.workers.setMaximum(2)
    p.workers.setValue(2)
    assert p.start()
    qtbot.waitUntil(lambda: p.summary is not None, timeout=120000)
    assert [(r.seed, r.outcome, r.turns, r.actions) for r in p.results] == one


def test_playtest_dock_offers_iron_cross_players_and_rules_by_default(qtbot):
    from editor.play.playtest_dock import PlaytestPanel

    p = PlaytestPanel()
    qtbot.addWidget(p)
    assert [p.rules.itemText(i) for i in range(p.rules.count())] == ["basic", "advanced"]
    assert p.rules.currentText() == "basic" and p.ai["german"].currentText() == "heuristic"
    assert {"random", "heuristic"} <= {p.ai["russian"].itemText(i) for i in range(p.ai["russian"].count())}
    assert p.use_setup.isEnabled()


# ----------------------------------------------------------------------------- scenario window
def test_t_scenario_window_shows_a_toy_scenario_without_the_iron_cross_forms(win, tmp_path):
    from editor.scenario.system.scenario import SystemScenarioDocument

    ctl = win.scenario_ctl
    doc = ctl.doc
    assert isinstance(doc, SystemScenarioDocument) and doc.system.name == TOY
    assert win.mode == "scenario" and "Scenario 7: Toy race" in win.windowTitle()
    assert ctl.docks["system"].isVisible()
    for n in ("properties", "sides", "oob", "roster", "setup", "regions", "victory", "validation"):
        assert not ctl.docks[n].isVisible(), n
    panel = ctl.system_panel
    assert "Toy Race Game" in panel.info.text() and "Map 2" in panel.info.text()
    assert panel.problems.item(0).text() == "OK - toy scenario 'Toy race': first to 30 in 6 turns"
    assert "Edit the Toy Race Game scenario in the form" in panel.note.text() and panel.form.isVisible()
    # its map sections are outlined; the map shown is the scenario's
    assert ctl.overlay.layers["zones"] and Path(win.document.path).name == "iron_cross_mapsheet_corrected.json"
    assert {h.col for h in doc.context.area} == set(range(30, 51))   # Map 2: hex columns 30-50
    # the forms' tools say plainly that they do not edit it; its own form does
    from editor.drawing.canvas import ToolEvent

    for name in ("place", "region", "north"):
        t = win.tools.set_tool(name)
        t.press(ToolEvent.at_hex("3510"))
        assert "is a Toy Race Game scenario" in t.status and "edit it in the Scenario dock's form" in t.status, name
    panel.form.set_value(("target",), 100)
    assert ctl.save() and json.loads(Path(win.toy_path).read_text())["target"] == 100
    assert any(panel.problems.item(i).text().startswith("warning: $.target: 100 cannot be reached")
               for i in range(panel.problems.count()))
    assert win.set_mode("play") and ctl.docks["playtest"].isVisible()
    assert win.set_mode("scenario") and ctl.docks["system"].isVisible() and not ctl.docks["oob"].isVisible()
    # a system that does not describe its file (no scenario_schema) opens read-only: edited in its file, Reload
    import dataclasses

    from core import rule_system
    from tests.toy_system import SYSTEM

    rule_system.register(dataclasses.replace(SYSTEM, name="toyro", scenario_schema=None))
    try:
        ro = toy_map_file(tmp_path, "ro.json", rule_system="toyro")
        assert win.open_file(ro)
        assert not ctl.doc.editable and not panel.form.isVisible() and "edit it in its file for now" in panel.note.text()
        t = win.tools.set_tool("place")
        t.press(ToolEvent.at_hex("3510"))
        assert "edit it in its file" in t.status
        assert not ctl.save() and not ctl.save_as()
        data = json.loads(Path(ro).read_text())
        Path(ro).write_text(json.dumps({**data, "target": 100}))
        panel.reload()
        assert any(panel.problems.item(i).text().startswith("warning: $.target: 100 cannot be reached")
                   for i in range(panel.problems.count()))
    finally:
        rule_system.unregister("toyro")
    # an Iron Cross scenario again: the forms are back
    assert win.open_file(S1)
    assert ctl.docks["oob"].isVisible() or ctl.docks["properties"].isVisible()
    assert not ctl.docks["system"].isVisible() and ctl.properties.isEnabled() and ctl.hotseat.use_setup.isEnabled()
    assert [ctl.playtest.rules.itemText(i) for i in range(ctl.playtest.rules.count())] == ["basic", "advanced"]
    ctl.doc.undo_stack.setClean()


def test_a_scenario_of_a_system_not_installed_or_unknown_is_refused_plainly(win, tmp_path, dialogs, monkeypatch):
    from core import rule_system
    from tests.toy_system import toy_file

    monkeypatch.setitem(rule_system.SYSTEM_MODULES, "ghost", "tests.no_such_system")
    ghost = toy_file(tmp_path, "ghost.json", rule_system="ghost")
    assert not win.open_file(ghost)
    kind, args = dialogs[-1]
    assert kind == "critical" and "$.rule_system: the rule system 'ghost' is not installed here" in args[2]
    chess = toy_file(tmp_path, "chess.json", rule_system="chess")
    assert not win.open_file(chess)
    assert "$.rule_system: unknown rule system 'chess'" in dialogs[-1][1][2]
    assert win.scenario_ctl.doc.system.name == TOY   # the open scenario stays


# ------------------------------------------------------------------------------ a measured system (20 mm)
S20 = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"


@pytest.fixture
def win20(qtbot):
    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    assert w.open_file(S20)   # its own format, "twentymm-scenario", naming its rule_system
    w.set_mode("play")
    yield w
    w.scenario_ctl.shutdown()


def test_iron_cross_and_toy_pieces_leave_the_measured_fields_empty(toy, tmp_path):
    rec = GameRecording.play(toy_map_file(tmp_path), 3, AI, max_actions=6)
    for p in rec.snapshots[-1].pieces:
        assert (p.point, p.bearing, p.footprint, p.arc, p.figures, p.turret, p.reach) == (None, None, (), None, (), None, None)
    assert Piece("A", "german", ("4010",), "x") == Piece("A", "german", ("4010",), "x", "", (), None, None, None, (), None)
    assert rec.system.marks is None


def test_20mm_watch_draws_pieces_where_they_stand_with_fire_and_templates(win20):
    """The Watch of a 20 mm game: each piece at its point (map units -> scene), facing, footprint;
    the decision's marks: a line of fire, a template, a corridor; a removed piece's cross."""
    from PySide6.QtGui import QImage, QPainter

    from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
    from editor.drawing.pieces import PiecesItem

    ctl = win20.scenario_ctl
    assert ctl.doc.system.name == "twentymm"
    rec = GameRecording.play(str(S20), 3, {"german": "heuristic", "russian": "heuristic"})
    w = ctl.watch
    ctl.docks["watch"].raise_()
    ctl.update_game_view()
    w.set_recording(rec)
    item = ctl.overlay.layers["game"][0]
    assert isinstance(item, PiecesItem) and all(p.point is not None for p in item.pieces)
    for p in item.pieces:   # drawn where the piece stands
        assert item.boundingRect().contains(p.point[0] * SCENE_PER_X, p.point[1] * SCENE_PER_Y)
    marks = rec.system.marks
    step = next(i for i, s in enumerate(rec.steps, 1) if any(m.kind == "template" for m in marks(rec.game, s.events)))
    w.go(step)
    kinds = [m.kind for m in marks(rec.game, rec.steps[step - 1].events)]
    lines = ctl.overlay.layers["game-lines"]
    assert "template" in kinds and len(lines) >= len(kinds)
    # the arcs: off by default, every piece's with the box ticked (a bigger picture)
    small = ctl.overlay.layers["game"][0].boundingRect()
    w.arcs.setChecked(True)
    assert ctl.overlay.layers["game"][0].arcs and ctl.overlay.layers["game"][0].boundingRect().width() > small.width()
    # a piece that was removed: a red cross where it stood
    gone = next(i for i in range(1, len(rec) + 1)
                if {p.uid for p in rec.snapshots[i - 1].pieces} - {p.uid for p in rec.snapshots[i].pieces})
    w.go(gone)
    assert len(ctl.overlay.layers["game-lines"]) >= 1
    # it paints (offscreen) without error, pieces in their side's colours
    img = QImage(800, 600, QImage.Format.Format_ARGB32)
    img.fill(0xFFFFFFFF)
    painter = QPainter(img)
    win20.view.render(painter)
    painter.end()
    assert not img.isNull()


def test_20mm_hotseat_click_near_a_piece_selects_it_and_a_game_plays_to_its_end(win20):
    """Hot-seat for a measured system: a click near a piece (not on its hex centre) selects the
    nearest within the radius, of the side to act; the German human chooses only among the
    listed legal actions, the Russian AI replies, to the game's end."""
    import random

    from PySide6.QtCore import Qt

    from core.twentymm.actions import EndTurn
    from editor.play.hotseat import PICK_RADIUS
    from editor.drawing.map_style import SCENE_PER_Y

    ctl = win20.scenario_ctl
    hs = ctl.hotseat
    ctl.docks["hotseat"].raise_()
    hs.human["russian"].setChecked(False)
    ctl.playtest.ai["russian"].setCurrentText("heuristic")
    assert hs.new_game() and hs.session.system.name == "twentymm"
    snap = snapshot(hs.game, hs.system)
    mine = [p for p in snap.pieces if p.side == "german"]
    p0 = mine[0]
    near = (p0.point[0], p0.point[1] + 20.0 / SCENE_PER_Y)   # 20 scene units below it
    assert hs.piece_near(near) == p0.uid
    assert hs.click(snap.units[p0.uid][0], near) == f"selected {p0.uid}" and hs.selected == p0.uid
    # the list narrows to its actions (and those naming no piece); the map shows its arc
    labels = [hs.actions.topLevelItem(i).child(k).text(0) for i in range(hs.actions.topLevelItemCount())
              for k in range(hs.actions.topLevelItem(i).childCount())]
    assert labels and ctl.overlay.layers["hotseat"][0].selected == p0.uid
    # a click far from every piece selects none of them
    from editor.drawing.map_style import SCENE_PER_X

    far = next((x, y) for x in range(100, 160) for y in range(5, 55)
               if all(math.hypot((p.point[0] - x) * SCENE_PER_X, (p.point[1] - y) * SCENE_PER_Y) > PICK_RADIUS
                      for p in snap.pieces))
    assert hs.piece_near(far) is None
    # the map tool: a press near another German piece selects it (the press's point, not its hex)
    from PySide6.QtCore import QPointF

    from editor.drawing.canvas import ToolEvent

    p1 = mine[1]
    tool = win20.tools.set_tool("hotseat")
    tool.press(ToolEvent.at_scene(QPointF(p1.point[0] * SCENE_PER_X + 15, p1.point[1] * SCENE_PER_Y - 10)))
    assert hs.selected == p1.uid
    rnd = random.Random(5)
    n = marked = 0
    while not hs.game.is_terminal() and n < 400:
        assert hs.session.human_to_act()
        acts = hs.game.legal_actions()
        items = [hs.actions.topLevelItem(i).child(k) for i in range(hs.actions.topLevelItemCount())
                 for k in range(hs.actions.topLevelItem(i).childCount())]
        assert items and all(it.data(0, Qt.ItemDataRole.UserRole) in acts for it in items)
        # end the turn half the time, else any listed action
        ends = [it for it in items if isinstance(it.data(0, Qt.ItemDataRole.UserRole), EndTurn)]
        it = ends[0] if ends and rnd.random() < 0.5 else rnd.choice(items)
        hs.actions.setCurrentItem(it)
        assert hs.do_selected()
        n += 1
        marked += len(ctl.overlay.layers["hotseat"]) > 1   # the pieces, and the decisions' marks
        if hs.selected is not None and n % 7 == 0:
            hs.selected = None
            hs.refresh()
    assert hs.game.is_terminal() and hs.game.outcome in ("german", "russian", "draw") and n >= 10
    assert "game over" in hs.state_label.text()
    assert hs.game.actions and len(hs.game.actions) > n   # the AI's decisions too
    assert marked >= 1   # moves and shots since the human's last decision are drawn


def test_measured_pieces_and_marks_are_drawn_from_map_units_alone(qtbot):
    """A piece at a point and a system's marks need no system: map units in, scene items out (a
    hex is 100 scene units across flats); the selected piece's arc reaches ``reach`` hexes."""
    from core.rule_system import Mark
    from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
    from editor.drawing.pieces import PiecesItem, arc_polygon, bearing_vector, map_point, mark_items

    tank = Piece("T", "german", ("4307",), "T Pz IV", "afv", (), 1, point=(129.0, 14.0), bearing=0.0,
                 footprint=((128.5, 13.0), (129.5, 13.0), (129.5, 15.0), (128.5, 15.0)), arc=67.5, turret=90.0, reach=10.0)
    men = Piece("S", "russian", ("4308",), "S 8 men", "infantry", ("hidden",), 4, point=(129.0, 17.0), bearing=180.0,
                figures=tuple((129.0 + 0.25 * i, 17.0) for i in range(8)), arc=22.5, reach=4.0)
    assert map_point(tank.point).x() == pytest.approx(129.0 * SCENE_PER_X) and map_point(tank.point).y() == 14.0 * SCENE_PER_Y
    up, right = bearing_vector(0.0), bearing_vector(90.0)
    assert (round(up.x(), 9), up.y(), right.x(), round(right.y(), 9)) == (0.0, -1.0, 1.0, 0.0)
    wedge = arc_polygon(map_point(tank.point), 90.0, 22.5, 1000.0)   # +-22.5 about "right"
    c = map_point(tank.point)
    assert max(q.x() for q in wedge) == pytest.approx(c.x() + 1000.0)
    assert max(q.y() for q in wedge) - c.y() == pytest.approx(1000.0 * math.sin(math.radians(22.5)))
    plain = PiecesItem([tank, men]).boundingRect()
    sel = PiecesItem([tank, men], selected="T").boundingRect()
    assert sel.contains(plain) and sel.width() >= 2 * 10 * 100   # the selected tank's arc, 10 hexes
    ring = tuple((129.0 + 0.3 * math.cos(k), 20.0 + 0.5 * math.sin(k)) for k in range(12))
    marks = [Mark("fire", ((129.0, 14.0), (129.0, 17.0)), "german", "T HE", True),
             Mark("fire", ((129.0, 14.0), (129.0, 20.0)), "german", "", False), Mark("template", ring),
             Mark("corridor", ring), Mark("scatter", ((129.0, 20.0), (130.0, 21.0))),
             Mark("move", ((120.0, 14.0), (129.0, 14.0))), Mark("smoke", ((120.0, 14.0), (121.0, 14.0))),
             Mark("fire", ((1.0, 1.0),))]   # one point: nothing to draw
    items = mark_items(marks)
    # a line each (the first with its label), the template's disc and centre cross, a corridor, scatter, move, grey
    assert len(items) == 2 + 1 + 2 + 1 + 1 + 1 + 1

