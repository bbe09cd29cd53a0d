"""The scenario editor (issue 10): scenario documents, OOB, regions, victory, set-up, validation,
batch playtests, watching a game and hot-seat play. Headless (pytest-qt, offscreen)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor.canvas import ToolEvent  # noqa: E402
from editor.game_record import GameRecording  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.scenario_document import ScenarioDocument, file_format, stack_problem  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
SETUP_ZONE = ("german", "groups", 0, "setup", "region")


@pytest.fixture(autouse=True)
def tmp_settings(tmp_path, monkeypatch):
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    calls = []
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(lambda *a, **k: calls.append(("critical", a))))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: calls.append(("warning", a))))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: calls.append(("question", a)) or QMessageBox.StandardButton.Discard))
    return calls


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
    assert oob.add_entry("german", 0, "Squad D (10) less R PR9")
    e = doc.scenario.german.groups[0].oob[-1]
    assert (e.letter, e.ammo, e.less[0].type, e.less[0].pr) == ("D", 10, "R", 9)
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
    assert any("Squad D (10) less R PR9" in t for t in texts)


def test_region_painting_and_live_count(win, qtbot):
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
    ctl.oob.add_entry("german", 0, "Squad Z (10)")
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


def test_batch_playtest_from_the_ui(win, qtbot):
    p = win.scenario_ctl.playtest
    p.games.setValue(2)
    p.workers.setValue(1)
    p.seed.setValue(7)
    with qtbot.waitSignal(p.runner.done if p.runner else p.heat_changed, timeout=90_000, raising=False):
        assert p.start()
    qtbot.waitUntil(lambda: p.summary is not None, timeout=90_000)
    assert p.summary["games"] == 2 and sum(p.summary["outcomes"].values()) == 2
    assert p.outcomes.summary is p.summary
    assert p.casualties.rowCount() >= 0 and "2 games" in p.status.text()
    assert p.run_btn.isEnabled()
    # heat map of fire targets on the map
    p.heat.setCurrentText("fire targets")
    assert win.scenario_ctl.overlay.count("heat") == len(p.heat_counts("fire targets")) + sum(
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
    from editor.hotseat import action_for_click

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
