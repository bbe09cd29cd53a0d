"""The scenario editor: scenario documents, OOB, regions, victory, set-up, validation,
batch playtests, watching a game and hot-seat play. Headless (pytest-qt, offscreen)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")


from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.play.game_record import GameRecording  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.document import ScenarioDocument
from editor.scenario.scenario_files import file_format
from editor.scenario.undo_commands import stack_problem

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
SETUP_ZONE = ("german", "groups", 0, "setup", "region")


@pytest.fixture(autouse=True)
def tmp_settings(dialogs):
    """Every test here runs with the shared dialogs/settings fixture (tests/editor/conftest.py)."""
    return dialogs


@pytest.fixture
def win(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    assert w.open_file(S1)   # the format is detected: a scenario opens with its map
    yield w
    w.scenario_ctl.shutdown()
    w.scenario_ctl.doc.undo_stack.setClean()


def sdoc(w) -> ScenarioDocument:
    return w.scenario_ctl.doc


def paint_zone(w, hexes):
    """Make the German set-up zone exactly ``hexes`` (region paint tool, one stroke)."""
    w.scenario_ctl.regions.select(SETUP_ZONE)
    t = w.tools.set_tool("region")
    stroke = sdoc(w).new_stroke()
    t.paint(hexes, adding=True, stroke=stroke)
    old = set(sdoc(w).resolve(sdoc(w).scenario.german.groups[0].setup.region)[0]) - set(hexes)
    t.paint(sorted(old), adding=False, stroke=stroke)


def test_open_scenario_detects_format_and_draws_zones(win):
    assert file_format(S1) == "ironcross-scenario"
    doc = sdoc(win)
    assert doc.scenario.title == "Demyansk Pocket"
    assert win.document.map.name == doc.hexmap.name    # the map canvas shows the scenario's map
    ov = win.scenario_ctl.overlay
    assert ov.count("zones") > 0 and ov.count("compass") > 0
    assert win.scenario_ctl.validation.problems() == []


def test_oob_edit_with_undo(win):
    doc, oob = sdoc(win), win.scenario_ctl.oob
    before = doc.scenario
    assert oob.add_entry("german", 0, "Squad D less R PR9")
    e = doc.scenario.german.groups[0].oob[-1]
    assert (e.letter, e.ammo, e.less[0].type, e.less[0].pr) == ("D", None, "R", 9)
    assert oob.select_loc(("german", "groups", 0, "oob", 4))
    assert oob.set_entry(("german", "groups", 0, "oob", 4), "Squad F (3 units, MP PR9, PR8, PR6 only)") is False \
        or doc.scenario.german.groups[0].oob[4].only is not None
    oob.add_entry("german", None, "10 AT Mine Factors")
    assert doc.scenario.german.mine_factors("AT") == 10
    n = doc.undo_stack.count()
    assert n >= 2 and doc.is_dirty
    for _ in range(n):
        doc.undo_stack.undo()
    assert doc.scenario == before and not doc.is_dirty
    doc.undo_stack.redo()
    assert doc.scenario.german.groups[0].oob[-1].letter == "D"
    # the tree shows the squad's men with the one "less" leaves out struck through
    texts = [it.text(0) for it in oob._items()]
    assert any("Squad D less R PR9" in t for t in texts)


def test_region_painting_and_live_count(win, qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    # the zone is built from a rule: painting it asks before freezing it into hexes; yes
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    ctl = win.scenario_ctl
    ctl.regions.select(SETUP_ZONE)
    assert ctl.regions.count.text() == "20 hexes"
    t = win.tools.set_tool("region")
    doc = sdoc(win)
    n0 = doc.undo_stack.count()
    # a drag with real mouse events: press on a hex outside the zone, move, release
    t.press(ToolEvent.at_hex("3505"))
    t.move(ToolEvent.at_hex("3506", buttons=ToolEvent.at_hex("3506").button))
    t.release(ToolEvent.at_hex("3506"))
    assert doc.undo_stack.count() == n0 + 1          # one stroke, one undo step
    hexes = doc.resolve(doc.scenario.german.groups[0].setup.region)[0]
    assert {"3505", "3506"} <= hexes and len(hexes) == 22
    assert doc.scenario.german.groups[0].setup.region.kind == "hexes"
    assert ctl.regions.count.text() == "22 hexes"     # updated live
    assert ctl.overlay.count("region") > 0
    doc.undo_stack.undo()
    assert ctl.regions.count.text() == "20 hexes"
    # editing the region language
    ctl.regions.text.setPlainText(json.dumps({"kind": "hexes", "hexes": ["4307", "4308", "4309"]}))
    ctl.regions.apply_text()
    assert ctl.regions.count.text() == "3 hexes"


def test_long_property_texts_show_their_beginning(win):
    """A text longer than its field (the printed north text, the map text) is shown from its first
    word, not scrolled to its end."""
    props = win.scenario_ctl.properties
    long = "NORTH INDICATOR: " + "Place in hex 5001 pointing to hex 5002. " * 4
    sdoc(win).edit("Set north text", lambda d: d.__setitem__("north_text", long))
    assert props.north_text.text() == long and props.north_text.cursorPosition() == 0
    sdoc(win).undo_stack.undo()


def test_north_indicator_tool(win):
    t = win.tools.set_tool("north")
    assert t.place_click("3001") is None
    assert t.place_click("3005") == "not adjacent"
    t.place_click("3002")
    t.place_click("3001")
    n = sdoc(win).scenario.north
    assert (n.hex, n.points_to) == ("3002", "3001")
    assert "top of the sheet" in n.sheet_word("north")
    assert "top of the sheet" in win.scenario_ctl.properties.north.text()


def test_victory_evaluate_now(win):
    paint_zone(win, ["4307", "4308", "4309"])
    doc, v = sdoc(win), win.scenario_ctl.victory
    assert v.evaluate_now().result == "draw"
    st = doc.setup()
    ids = st.deployments[0].units
    assert doc.place(ids[0], "4307") is None
    assert v.evaluate_now().result == "draw"
    assert doc.place(ids[1], "4308") is None
    r = v.evaluate_now()
    assert r.result == "german" and r.outcome == 0
    assert "GERMAN" in v.result.text()
    doc.undo_stack.undo()
    assert v.evaluate_now().result == "draw"


def test_drop_refused_over_the_stacking_limit(win):
    paint_zone(win, ["4307", "4308"])
    doc = sdoc(win)
    st = doc.setup()
    men = [u for u in st.deployments[0].units if st.units[u].kind.value == "infantry"]
    place = win.tools.set_tool("place")
    for uid in men[:6]:
        assert place.drop(uid, "4307") is None
    why = place.drop(men[6], "4307")
    assert why is not None and "8.62" in why and "refused" in place.status
    assert men[6] not in doc.placement
    assert place.drop(men[6], "4506") is not None and "outside the set-up zone" in place.last_refusal
    mmg = next(u for u in st.deployments[0].units if st.units[u].kind.value == "cw")
    assert place.drop(mmg, "4308") is None and doc.placement[mmg].facing == 1   # MGs face a hexside
    place.press(ToolEvent.at_hex("4308", button=ToolEvent.at_hex("4308").button.RightButton))
    assert doc.placement[mmg].facing == 2
    crew = st.units[mmg].men
    assert stack_problem([st.units[m] for m in men[:6 - crew]], st.units[mmg]) is None
    assert "8.62" in stack_problem([st.units[m] for m in men[:7 - crew]], st.units[mmg])
    assert win.scenario_ctl.overlay.count("units") == 1


def test_validation_panel_after_an_error(win):
    ctl = win.scenario_ctl
    assert ctl.validation.problems() == []
    assert ctl.oob.add_entry("german", 0, "Squad Z (10)") is False      # refused where it is typed
    assert "Add squad..." in ctl.oob.info.text()
    sdoc(win).edit("a line written in the file by hand", lambda d: d["german"]["groups"][0]["oob"].append(
        {"kind": "squad", "letter": "Z", "ammo": 10, "text": "Squad Z (10)"}))
    probs = ctl.validation.problems()
    assert any("Squad 'Z'" in p or "Squad Z" in p for p in probs)
    item = ctl.validation.list.item(0)
    ctl.validation.list.itemClicked.emit(item)
    assert ctl.oob.current_loc() == ("german", "groups", 0, "oob", 4)
    # a region off the playing area: clicking selects the region and centres the map on it
    sdoc(win).edit("bad zone", lambda d: d["german"]["groups"][0]["setup"].__setitem__(
        "region", {"kind": "hexes", "hexes": ["1005"]}))
    probs = ctl.validation.problems()
    assert any("outside the scenario's playing area" in p for p in probs)
    i = next(k for k in range(ctl.validation.list.count()) if "playing area" in ctl.validation.list.item(k).text())
    ctl.validation.list.itemClicked.emit(ctl.validation.list.item(i))
    assert ctl.regions.loc == SETUP_ZONE
    sdoc(win).undo_stack.undo()
    sdoc(win).undo_stack.undo()
    assert ctl.validation.problems() == []


def test_playtest_panel_defaults_are_the_clis(qtbot):
    """The editor's Playtest panel and ``ironcross playtest`` start from the same players and rules."""
    from cli.main import playtest as cli_playtest
    from core.playtest import DEFAULT_AI, DEFAULT_RULES, parse_ai
    from editor.play.playtest_dock import PlaytestPanel

    panel = PlaytestPanel(lambda folder: None)
    qtbot.addWidget(panel)
    defaults = {o.name: o.default for o in cli_playtest.params}
    assert panel.ai_spec() == parse_ai(defaults["ai_spec"]) == DEFAULT_AI == {"german": "heuristic",
                                                                            "russian": "heuristic"}
    from core.rule_system import get

    # --rules left out: the first rule level of the scenario's system (Iron Cross: basic)
    assert panel.rules.currentText() == get(None).resolve_rules(defaults["rules"]) == DEFAULT_RULES == "basic"
    panel.shutdown()


def test_batch_playtest_from_the_ui(win, qtbot):
    p = win.scenario_ctl.playtest
    for c in p.ai.values():
        c.setCurrentText("random")  # fast games
    p.games.setValue(2)
    p.workers.setValue(1)
    p.seed.setValue(7)
    assert p.start()
    qtbot.waitUntil(lambda: p.summary is not None, timeout=90_000)
    assert p.summary["games"] == 2 and sum(p.summary["outcomes"].values()) == 2
    assert p.outcomes.summary is p.summary
    assert p.casualties.rowCount() >= 0 and "2 games" in p.status.text()
    assert p.run_btn.isEnabled()
    # heat map of fire targets on the map
    p.heat.setCurrentText("fire targets")
    # a circle and its halo per hex, the busiest labelled
    assert win.scenario_ctl.overlay.count("heat") == 2 * len(p.heat_counts("fire targets")) + sum(
        1 for n in p.heat_counts("fire targets").values() if n / max(p.heat_counts("fire targets").values()) > 0.15)


def test_watch_step_forward_and_back(win, tmp_path):
    path = sdoc(win).playable_copy(tmp_path)
    rec = GameRecording.play(str(path), 3, {"german": "random", "russian": "random"}, max_actions=400)
    w = win.scenario_ctl.watch
    w.set_recording(rec)
    assert w.pos == 0 and "Turn 1" in w.state_label.text()
    for _ in range(150):
        w.forward()
    assert w.pos == 150
    s150 = w.snapshot()
    assert w.log.count() > 0 and win.scenario_ctl.overlay.count("game") == 1
    w.back()
    assert w.pos == 149
    w.forward()
    assert w.snapshot() == s150
    w.go(0)
    assert w.snapshot() == rec.snapshots[0]
    # a replay file of the same game rebuilds the same states
    from core.replay import write_replay

    rp = tmp_path / "game.jsonl"
    write_replay(rp, rec.header, [{"kind": "action", "side": s.side, "action": s.action} for s in rec.steps])
    w.open_replay(str(rp))
    w.go(150)
    assert w.snapshot() == s150


def test_hotseat_move_and_fire(win):
    from editor.play.hotseat import action_for_click

    hs = win.scenario_ctl.hotseat
    win.tools.set_tool("hotseat")
    hs.new_game()
    g = hs.game
    hs.auto_setup()
    assert g.state.phase.value != "setup"
    # move: wait for a unit on the map that may start a move, click it, click a hex next to it
    ok = hs.session.advance_until(lambda acts: any(
        a.kind == "start_move" and len(a.units) == 1 and a.directed_by is None and g.state.units[a.units[0]].hex
        for a in acts))
    assert ok
    start = next(a for a in g.legal_actions() if a.kind == "start_move" and len(a.units) == 1
                 and a.directed_by is None and g.state.units[a.units[0]].hex)
    uid = start.units[0]
    hs.selected = None
    here = g.state.units[uid].hex
    while hs.selected != uid:
        hs.click(here)
    from maps import hexgrid

    moved = False
    for h in hexgrid.neighbours(hexgrid.parse_hex_id(here)):
        n = len(g.actions)
        if action_for_click(g, uid, h.id) is None:
            continue
        hs.click(h.id)
        if len(g.actions) > n:
            moved = True
            break
    assert moved and any(e["kind"] in ("moved", "move_start", "move_failed") for e in g.events[-40:])
    # fire: wait for an AP fire, select the firer, click the target hex; the odds are offered
    assert hs.session.advance_until(lambda acts: any(a.kind == "fire" and a.mode == "AP" for a in acts))
    fire = next(a for a in g.legal_actions() if a.kind == "fire" and a.mode == "AP")
    hs.selected = fire.firers[0]
    hs.refresh()
    odds = [hs.actions.topLevelItem(i) for i in range(hs.actions.topLevelItemCount())]
    assert any(c.text(0).startswith("fire") for c in odds)
    n = sum(1 for e in g.events if e["kind"] == "fire")
    hs.click(fire.target)
    assert sum(1 for e in g.events if e["kind"] == "fire") == n + 1


# ---------------------------------------------------------------------------- fixed gaps
S4 = ROOT / "scenarios" / "data" / "scenario_4_tula.json"


def test_keyboard_undo_redo_follows_the_focus(win, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QUndoCommand
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    ctl, doc = win.scenario_ctl, sdoc(win)
    turns = doc.scenario.turns
    ctl.properties.turns.setValue(turns + 1)                  # a scenario edit
    assert win.undo_group.activeStack() is doc.undo_stack     # a scenario is the active document
    assert win.undo_action.text() == "&Undo Set turns" and win.undo_action.isEnabled()
    win.document.undo_stack.push(QUndoCommand("map edit"))    # an edit of the map
    win.tools.set_tool("terrain")                             # a map tool: the map's stack
    assert win.undo_group.activeStack() is win.document.undo_stack
    assert win.undo_action.text() == "&Undo map edit"
    win.tools.set_tool("place")                               # a scenario tool: the scenario's
    assert win.undo_action.text() == "&Undo Set turns"
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=2000)
    ctl.docks["oob"].show()
    ctl.oob.tree.setFocus()                                   # focus in a scenario panel
    qtbot.waitUntil(lambda: win.undo_group.activeStack() is doc.undo_stack, timeout=2000)
    QTest.keyClick(ctl.oob.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.scenario.turns == turns and win.document.undo_stack.index() == 1
    assert win.redo_action.text() == "&Redo Set turns"
    QTest.keyClick(ctl.oob.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert doc.scenario.turns == turns + 1
    win.tools.set_tool("terrain")                             # the map with a map tool: the map's stack
    win.view.setFocus()
    qtbot.waitUntil(lambda: win.view.hasFocus(), timeout=2000)
    assert win.undo_group.activeStack() is win.document.undo_stack
    QTest.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.document.undo_stack.index() == 0 and doc.scenario.turns == turns + 1


@pytest.fixture
def tula(win):
    win.scenario_ctl.open(S4)
    return sdoc(win)


def test_setup_afv_terrain_facing_hidden_hexes_and_mines(win, tula, tmp_path):
    doc = tula
    st = doc.setup()
    afv = next(u for u in st.units.values() if u.is_afv and u.side == "german")
    zone = doc.unit_zone(afv.id)
    assert "1204" in zone                                     # a building hex: prohibited to AFVs
    why = doc.place(afv.id, "1204")
    assert why is not None and "cannot enter 1204" in why
    ok_hex = next(h for h in sorted(zone) if doc.terrain.entry_cost(h, "afv", False) is not None)
    assert doc.place(afv.id, ok_hex) is None and doc.placement[afv.id].facing == 1
    # facing: infantry has none, ATGs (even with a crew of 2) have one
    inf = next(u for u in st.units.values() if u.side == "german" and u.kind.value == "infantry")
    assert doc.place(inf.id, ok_hex) is None and doc.placement[inf.id].facing is None
    doc.set_facing(inf.id, 3)
    assert doc.placement[inf.id].facing is None
    win.scenario_ctl.roster.set_value("R-45AT-1", "crew", 2)
    st = doc.setup()
    assert st.units["R-45AT-1"].crew == 2
    rz = sorted(doc.unit_zone("R-45AT-1"))
    assert doc.place("R-45AT-1", rz[0]) is None and doc.placement["R-45AT-1"].facing == 1
    doc.set_facing("R-45AT-1", 4)
    assert doc.placement["R-45AT-1"].facing == 4
    # hidden hexes: the Russians have 3, inside their zone, none for the Germans, no AFV
    tool = win.tools.set_tool("marks")
    assert tool.click("1001", "german", "hidden hex", 0) is not None      # Germans have none
    assert "outside" in doc.hidden_problem("russian", ok_hex)
    for h in rz[1:4]:
        assert tool.click(h, "russian", "hidden hex", 0) is None
    assert "only 3 hidden hexes" in tool.click(rz[4], "russian", "hidden hex", 0)
    assert doc.hidden == {h: "russian" for h in rz[1:4]}
    assert tool.click(rz[3], "russian", "hidden hex", 0) is None and rz[3] not in doc.hidden  # toggles off
    german_afv_in_hidden = doc.hidden_problem("german", ok_hex)
    assert german_afv_in_hidden is not None
    # mines: 10 AT factors, 2..7 a hex, not in buildings, within the zone
    assert "19.12" in doc.set_mines("russian", rz[5], at=1)
    assert "19.12" in doc.set_mines("russian", rz[5], at=8)
    assert "AP factors" in doc.set_mines("russian", rz[5], ap=1)    # no AP allotment
    assert "19.14" in doc.set_mines("russian", "1318", at=3)         # a building hex
    assert tool.click(rz[5], "russian", "AT mines", 7) is None
    assert "10" in tool.click(rz[6], "russian", "AT mines", 4)       # 11 of 10
    assert tool.click(rz[6], "russian", "AT mines", 3) is None
    assert doc.mines_placed("russian") == (0, 10)
    assert "no mine factors" in doc.set_mines("german", rz[7], at=2)  # the Germans have none
    assert win.scenario_ctl.overlay.count("marks") > 0
    assert "AT mines 10/10" in win.scenario_ctl.setup_panel.marks.text()
    n = doc.undo_stack.count()
    doc.undo_stack.undo()
    assert doc.mines_placed("russian") == (0, 7) and doc.undo_stack.count() == n
    doc.undo_stack.redo()
    # saved beside the scenario and read back
    out = doc.save(tmp_path / "tula.json")
    again = ScenarioDocument.open(out)
    assert again.hidden == doc.hidden and again.mines == doc.mines and again.placement == doc.placement


def test_playtest_uses_the_designers_setup(win, tula, tmp_path, qtbot, monkeypatch):
    from core.playtest import _play

    doc = tula
    st = doc.setup()
    g = next(d for d in st.deployments if d.side == "german")
    r = next(d for d in st.deployments if d.side == "russian")
    zg, zr = sorted(g.zone), sorted(r.zone)
    mmg = "G-MMG-1"
    assert doc.place(g.units[0], zg[5], down=True) is None
    assert doc.place(mmg, zg[6]) is None
    doc.set_facing(mmg, 4)
    assert doc.place(r.units[0], zr[20]) is None
    assert doc.mark_hidden("russian", zr[20]) is None
    assert doc.set_mines("russian", zr[30], at=5) is None
    fixed = doc.fixed_setup()
    path = doc.playable_copy(tmp_path)
    from core.ironcross.game import Game
    from core.ironcross.fixed_setup_player import FixedSetupPlayer
    from core.playtest import _setup_for
    from core.ironcross.players import make_player
    from core.ironcross.view import PlayerView

    setup = _setup_for(str(path), 11, fixed)
    game = Game(setup, 11, rules="advanced")
    players = {s: FixedSetupPlayer(make_player("random", i), setup.fixed, s) for i, s in enumerate(("german", "russian"))}
    while game.state.phase.value == "setup":
        s = game.current_side()
        game.apply(players[s].choose(PlayerView(game, s), s, game.legal_actions()))
    u = game.units
    assert (u[g.units[0]].hex, u[g.units[0]].down) == (zg[5], True)
    assert (u[mmg].hex, u[mmg].facing) == (zg[6], 4)
    assert u[r.units[0]].hex == zr[20] and u[r.units[0]].hidden and game.state.hidden_hexes.get(zr[20]) == "russian"
    assert game.state.mines[zr[30]]["at"] == 5
    # a played game (its set-up part) starts where the designer put the units
    res, payload = _play(str(path), 0, 3, {"german": "random", "russian": "random"}, "basic", (), True, 150, fixed)
    placed = {e["unit"]: e["hex"] for e in payload["events"] if e["kind"] == "placed"}
    assert placed[g.units[0]] == zg[5] and placed[mmg] == zg[6] and placed[r.units[0]] == zr[20]
    # the batch panel's "use this set-up" passes it into the games (the worker function is faked)
    import editor.play.game_record as gr
    from dataclasses import asdict
    from core.playtest import GameResult

    seen = []

    def fake_run_games(path, items, ai, rules, options, fixed_setup=None):
        seen.append(fixed_setup)
        return [asdict(GameResult(i, s, "draw", 1)) for i, s in items]

    monkeypatch.setattr(gr, "run_games", fake_run_games)
    p = win.scenario_ctl.playtest
    p.games.setValue(2)
    p.workers.setValue(1)
    p.use_setup.setChecked(True)
    assert p.start()
    qtbot.waitUntil(lambda: p.summary is not None, timeout=10_000)
    assert seen == [fixed, fixed] and p.summary["games"] == 2


def test_side_forms_entries_detachments_infiltration_notes(win):
    ctl, doc = win.scenario_ctl, sdoc(win)
    f = ctl.sides
    f.side.setCurrentText("russian")
    f.select_entry(0, 0)
    f.entry_turn.setValue(2)
    f.entry_phase.setCurrentText("reaction_movement")
    o = doc.scenario.russian.groups[0].entry.options[0]
    assert (o.turn, o.phase) == (2, "reaction_movement")
    n0 = doc.undo_stack.count()
    f.add_entry_option()
    assert len(doc.scenario.russian.groups[0].entry.options) == 2
    # detachments
    f.det_name.setText("Flank party")
    f.det_group.setCurrentText("Russian force")
    f.det_limits.setText("squad 1; crew_weapon 1 MMG")
    f.det_turn.setValue(3)
    assert f.add_detachment()
    d = doc.scenario.russian.detachments[0]
    assert (d.name, d.from_group, d.entry.options[0].turn) == ("Flank party", "Russian force", 3)
    assert d.limits[1].types == ["MMG"]
    f.det_limits.setText("squad two")
    assert not f.apply_detachment()                    # refused, nothing pushed
    # infiltration and hidden hexes
    assert doc.scenario.russian.infiltration.allowed
    f.infiltration.setChecked(False)
    assert doc.scenario.russian.infiltration is None
    f.infiltration.setChecked(True)
    assert doc.scenario.russian.infiltration.zone is not None
    f.hidden.setValue(2)
    assert doc.scenario.russian.hidden_hexes == 2
    # notes
    k = len(doc.scenario.russian.notes)
    assert f.add_note("The Russians may not enter building 4002.")
    assert doc.scenario.russian.notes[-1].text.startswith("The Russians may not")
    f.note_text.setPlainText("Changed note.")
    assert f.apply_note() and doc.scenario.russian.notes[k].text == "Changed note."
    assert any(loc[1] == "detachments" for loc, _ in doc.regions())   # its entry is in the Regions panel
    for _ in range(doc.undo_stack.count() - n0 + 2):
        doc.undo_stack.undo()
    assert doc.scenario.russian.groups[0].entry.options[0].turn == 1 and not doc.scenario.russian.detachments


def test_roster_edit_saved_in_the_scenario_and_type_names_shown(win, tmp_path):
    """A roster edit is an override in the scenario's roster block (saved with the scenario); the
    counters file is never written."""
    from scenarios.counters import shipped_counters_path
    from scenarios.scenario_file import load_scenario, load_scenario_roster

    shipped = shipped_counters_path().read_bytes()
    r = win.scenario_ctl.roster
    r.side.setCurrentText("russian")
    labels = [r.tree.topLevelItem(i).child(k).text(0) for i in range(r.tree.topLevelItemCount())
              for k in range(r.tree.topLevelItem(i).childCount())]
    assert any("45mm/146 M-32 anti-tank gun" in t for t in labels)
    r.set_value("R-45AT-1", "crew", 3)
    doc = sdoc(win)
    assert doc.is_dirty and "overrides 1 value" in r.summary.text()
    assert [o.model_dump(exclude_none=True) for o in doc.scenario.roster.override] == [
        {"unit": "R-45AT-1", "field": "crew", "value": 3, "provenance": {"source": "designer"}}]
    out = doc.save(tmp_path / "s1.json")
    again = load_scenario_roster(load_scenario(out), out)
    assert again.unit("R-45AT-1").crew == 3
    assert again.unit("R-45AT-1").provenance_of("crew").source == "designer"
    assert shipped_counters_path().read_bytes() == shipped


def test_playtest_panel_shows_the_blunder_report(qtbot):
    """The Playtest panel lists each side's blunders as the command line does (docs/ai.md): a row a
    side and kind with its count a game, the games with one and the mean Game Turn of the first,
    the kind's definition on the row; the casualties table a few rows high, so the dock keeps its size."""
    from core.ironcross.blunders import KINDS
    from core.playtest import GameResult
    from editor.play.playtest_dock import PlaytestPanel

    panel = PlaytestPanel(lambda folder: None)
    qtbot.addWidget(panel)
    item = {"turn": 3, "hex": "4307", "units": ["GM"], "effect": "broken"}
    panel._done([GameResult(0, 1, "russian", 7, blunders={"german": {"intensive_fire_burnout": [item, item]}}),
                 GameResult(1, 2, "russian", 7)])
    t = panel.blunders
    assert t.rowCount() == 1
    assert [t.item(0, j).text() for j in range(5)] == ["German", "intensive fire burnout", "1.00", "1", "3.0"]
    assert KINDS["intensive_fire_burnout"] in t.item(0, 1).toolTip()
    assert "games with one, of 2" in panel.blunders_label.text()
    assert "Blunders" not in panel.status.text()   # no run-on sentence in the status line
    assert panel.casualties.maximumHeight() < 10 * t.fontMetrics().height()  # the blunders take the room left
    panel._done([GameResult(0, 1, "russian", 7, blunders={"german": {}})])
    assert t.rowCount() == 0 and panel.blunders_label.text() == "Blunders: none committed"
    assert "intensive_fire_burnout" in panel.blunders_label.toolTip()  # the kinds watched for
    panel.shutdown()
