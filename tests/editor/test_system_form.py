"""The editor's generic scenario form for another rule system's scenario: a
Red Flags OOB unit added from the roster, a set-up zone painted by map clicks, undo, a save that
keeps the file's layout, a validation error shown with its JSON path, games played from the
scenario in memory, File > New scenario for each system, the Watch's status lines (Red Flags'
activation cards). Headless (pytest-qt, offscreen)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.play.game_record import GameRecording  # noqa: E402
from tests.toy_system import TOY, toy  # noqa: E402,F401 - toy: fixture

ROOT = Path(__file__).resolve().parents[2]
RF = ROOT / "scenarios" / "data" / "redflags_1_hill_j.json"
S20 = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"
MAP = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"


@pytest.fixture(autouse=True)
def tmp_settings(dialogs):
    return dialogs


def _copy(tmp_path: Path, src: Path) -> Path:
    """The scenario copied beside a copy of nothing else: its map named by absolute path... no:
    the same relative reference, resolved from a folder two levels down like the shipped one."""
    folder = tmp_path / "scenarios" / "data"
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "maps" / "data", tmp_path / "maps" / "data",
                    ignore=shutil.ignore_patterns("*.png", "*.pdf"))
    dst = folder / src.name
    shutil.copy(src, dst)
    return dst


@pytest.fixture
def rfwin(qtbot, tmp_path):
    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.rf_path = _copy(tmp_path, RF)
    assert w.open_file(w.rf_path)
    yield w
    w.scenario_ctl.shutdown()


def test_red_flags_unit_added_from_the_roster_zone_painted_undo_and_save_round_trip(rfwin):
    ctl = rfwin.scenario_ctl
    doc, panel = ctl.doc, ctl.system_panel
    form = panel.form
    assert doc.editable and form.isVisible() and panel.problems.item(0).text().startswith("OK - Red Flags scenario 1")
    # a unit added to 1. Zug: the roster's German entries are the choices of its type, its id is fresh
    form.select(("german", "groups", 0, "units"))
    form.add_item()
    assert form.loc == ("german", "groups", 0, "units", 4)
    unit = doc.data["german"]["groups"][0]["units"][4]
    assert unit["id"] not in {"G1", "G2", "G3", "GCO"} and unit["id"].startswith("G")
    form.select(("german", "groups", 0, "units", 4, "type"))
    combo = form.value_widget
    values = [json.loads(combo.itemData(i)) for i in range(combo.count())]
    assert "ger_pak40" in values and "sov_t34_76" not in values   # the German side's roster entries only
    combo.setCurrentIndex(values.index("ger_pioniergruppe"))
    combo.activated.emit(combo.currentIndex())
    assert doc.data["german"]["groups"][0]["units"][4]["type"] == "ger_pioniergruppe"
    assert doc.is_dirty and "*" in rfwin.windowTitle()
    # the Russian set-up zone (a block) gets its optional hex list (Add field), painted by clicks (the Pick
    # tool), highlighted with the block; a second click removes a hex
    form.select(("russian", "setup_zone"))
    fields = [form.field_add.itemText(i) for i in range(form.field_add.count())]
    assert fields == ["Add field...", "hexes"]
    form._add_field_chosen(1)
    assert form.loc == ("russian", "setup_zone", "hexes") and doc.data["russian"]["setup_zone"]["hexes"] == []
    assert rfwin.tools.current is ctl.tools["formpick"]
    for h in ("3522", "3622", "3722"):
        rfwin.tools.current.press(ToolEvent.at_hex(h))
    rfwin.tools.current.press(ToolEvent.at_hex("3622"))
    assert doc.data["russian"]["setup_zone"]["hexes"] == ["3522", "3722"]
    hl = form.highlighted()
    assert {"3522", "3722", "3023", "4427"} <= hl and "3622" not in hl   # the hexes and the block
    assert ctl.overlay.layers["region"]
    # undo: each click and the unit's edits are single steps
    n = doc.undo_stack.count()
    assert n == 7
    doc.undo_stack.undo()
    assert doc.data["russian"]["setup_zone"]["hexes"] == ["3522", "3622", "3722"]
    for _ in range(6):
        doc.undo_stack.undo()
    assert len(doc.data["german"]["groups"][0]["units"]) == 4 and not doc.is_dirty
    assert "hexes" not in doc.data["russian"]["setup_zone"]
    for _ in range(7):
        doc.undo_stack.redo()
    # save: atomic, the file's layout kept (the unchanged groups byte for byte), reloaded equal
    before = Path(rfwin.rf_path).read_text()
    assert ctl.save() and not doc.is_dirty
    after = Path(rfwin.rf_path).read_text()
    assert json.loads(after) == doc.data and list(json.loads(after)) == list(json.loads(before))
    assert '   {"name": "2. Zug", "card": {"rank": "K", "suit": "hearts"}, "units": [' in after
    assert '"hexes": ["3522", "3722"]' in after or '"3522"' in after
    # saving again unchanged writes the same bytes
    assert ctl.save() and Path(rfwin.rf_path).read_text() == after


def test_red_flags_validation_error_shown_with_its_json_path(rfwin):
    ctl = rfwin.scenario_ctl
    doc, panel = ctl.doc, ctl.system_panel
    form = panel.form
    form.select(("victory", "objectives"))
    rfwin.tools.current.press(ToolEvent.at_hex("1010"))   # Map 1: not in the playing area
    texts = [panel.problems.item(i).text() for i in range(panel.problems.count())]
    assert "problem: $.victory.objectives[3]: hex 1010 is not in Map 2 of the map" in texts
    it = form._items[("victory", "objectives")]
    assert it.foreground(0).color().red() > 150 and "not in Map 2" in it.toolTip(1)
    # two groups with one card: the card's path
    form.set_value(("russian", "groups", 0, "card"), {"rank": "A", "suit": "spades"})
    texts = [panel.problems.item(i).text() for i in range(panel.problems.count())]
    assert any(t.startswith("problem: $.russian.groups[0].card: card A♠ is already the card of '1. Zug'") for t in texts)
    # clicking the problem selects the place in the form
    row = next(i for i, t in enumerate(texts) if "$.russian.groups[0].card" in t)
    panel._problem_clicked(panel.problems.item(row))
    assert form.loc == ("russian", "groups", 0, "card")
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert panel.problems.item(0).text().startswith("OK - ")


def test_red_flags_games_from_the_editor_play_the_unsaved_scenario(rfwin, tmp_path):
    ctl = rfwin.scenario_ctl
    doc = ctl.doc
    doc.system  # noqa: B018
    ctl.system_panel.form.set_value(("turns",), 2)
    assert doc.is_dirty and json.loads(Path(rfwin.rf_path).read_text())["turns"] == 9
    played = ctl.playable_file(str(tmp_path / "games"))
    data = json.loads(Path(played).read_text())
    # the map: the one the map window shows (the scenario's map file), written beside the scenario
    assert data["turns"] == 2 and (Path(played).parent / data["map"]["file"]).is_file()
    rec = GameRecording.play(str(played), 5, {"german": "random", "russian": "random"}, max_actions=4000)
    assert rec.game.is_terminal() and rec.game.turn <= 2
    # the Watch shows the activation cards beside the map
    first_card = next(i for i, s in enumerate(rec.snapshots) if any(l.startswith("Turn 1 of 2 -- card up") for l in s.status))
    snap = rec.snapshots[first_card]
    assert any(line.startswith("To come (") for line in snap.status) and snap.status[1].startswith("Turned (1 of 10)")
    ctl.watch.set_recording(rec)
    ctl.watch.go(first_card)
    assert "card up" in ctl.watch.status_label.text() and "face down" in ctl.watch.status_label.text()


def test_autosave_beside_the_file_and_recovery_offered(rfwin, dialogs, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    ctl = rfwin.scenario_ctl
    doc = ctl.doc
    assert doc.autosave() is None   # nothing unsaved
    ctl.system_panel.form.set_value(("turns",), 7)
    ctl.autosave_system()
    a = doc.autosave_path()
    assert json.loads(a.read_text())["turns"] == 7
    doc.undo_stack.setClean()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    import os
    os.utime(a, (a.stat().st_mtime + 5, a.stat().st_mtime + 5))
    doc2 = ctl.open(rfwin.rf_path)
    assert doc2.data["turns"] == 7 and doc2.is_dirty
    ctl.save()
    assert not a.exists()


def test_new_scenario_for_each_system_validates(rfwin, tmp_path, toy):
    from core.rule_system import get

    ctl = rfwin.scenario_ctl
    for name in ("redflags", "twentymm", TOY):
        path = tmp_path / "new" / f"{name}.json"
        path.parent.mkdir(exist_ok=True)
        doc = ctl.new_system_scenario(name, path, MAP, ["Map 2"], f"A new {name} scenario")
        assert doc.system is get(name) and doc.editable
        summary, problems, _w = doc.check()
        assert summary is not None and problems == [], (name, problems)
        ref = json.loads(path.read_text())["map"]["file"]
        assert not Path(ref).is_absolute() and (path.parent / ref).resolve() == MAP.resolve()   # relative to the file
        assert ctl.system_panel.problems.item(0).text().startswith("OK - ")
    # a section the map does not have is refused plainly
    with pytest.raises(ValueError, match="no section 'Map 9'"):
        ctl.new_system_scenario("redflags", tmp_path / "new" / "bad.json", MAP, ["Map 9"])


def test_twentymm_forces_edited_a_unit_set_on_a_hex_and_its_vehicle_chosen(qtbot, tmp_path):
    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    p = _copy(tmp_path, S20)
    assert w.open_file(p)
    ctl = w.scenario_ctl
    form, doc = ctl.system_panel.form, ctl.doc
    form.select(("german", 5))
    form.duplicate()
    assert doc.data["german"][6]["vehicle"] == "Pz IV" and doc.data["german"][6]["id"] != "G-T1"
    form.select(("german", 6, "vehicle"))
    combo = form.value_widget
    vals = [json.loads(combo.itemData(i)) for i in range(combo.count())]
    assert "T-34/76" in vals and "Pz IV" in vals
    # a new section from the template: no hex yet (a problem at its path), then a click sets it
    form.select(("german",))
    form.add_item()
    i = len(doc.data["german"]) - 1
    assert any(p.path.startswith(f"$.german[{i}]") for p in doc.check()[1])
    form.select(("german", i, "hex"))
    w.tools.current.press(ToolEvent.at_hex("4010"))
    assert doc.data["german"][i]["hex"] == "4010"
    assert doc.check()[1] == []
    w.scenario_ctl.shutdown()


def test_layout_keeping_dump_round_trips_the_shipped_files():
    from editor.scenario.system.form import dump_like

    for f in (RF, S20):
        text = f.read_text()
        assert dump_like(json.loads(text), text) == text
    data = json.loads(RF.read_text())
    data["turns"] = 10
    out = dump_like(data, RF.read_text())
    diff = [(a, b) for a, b in zip(RF.read_text().splitlines(), out.splitlines()) if a != b]
    assert diff == [(' "turns": 9,', ' "turns": 10,')]


def test_status_lines_of_each_system(toy, tmp_path):
    from core.rule_system import get
    from tests.toy_system import toy_map_file

    rec = GameRecording.play(toy_map_file(tmp_path), 3, {"german": "random", "russian": "random"}, max_actions=4)
    assert rec.snapshots[0].status == ("Scores: german 0, russian 0 (target 30)",)
    rec = GameRecording.play(str(S20), 3, {"german": "random", "russian": "random"}, max_actions=3)
    assert rec.snapshots[0].status[0] == "Turn 1 of 12: the german side's turn"
    assert rec.snapshots[1].status[1].startswith("Acted (1 of ")
    assert get("ironcross").status_lines is None


def test_file_new_scenario_asks_the_rule_system_then_section_and_file(rfwin, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    asked = []

    def get_item(_parent, title, label, items, *_a, **_k):
        asked.append((label, list(items)))
        want = "Red Flags" if label == "Rule system:" else "Map 2"
        return next(i for i in items if i.startswith(want)), True

    target = tmp_path / "made" / "hill.json"
    target.parent.mkdir()
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    ctl = rfwin.scenario_ctl
    ctl.new_scenario_dialog()
    systems = asked[0][1]
    assert asked[0][0] == "Rule system:" and any(s.startswith("Iron Cross") for s in systems)
    assert any("(redflags)" in s for s in systems) and any("(twentymm)" in s for s in systems)
    assert asked[1][0] == "Map section played on:" and "Map 2" in asked[1][1]
    assert ctl.doc.path == target and ctl.doc.system.name == "redflags" and ctl.doc.check()[1] == []
    # Iron Cross: the existing new-scenario path, unchanged
    asked.clear()
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(
        lambda _p, _t, label, items, *a, **k: (next(i for i in items if i.startswith("Iron Cross")), True)))
    ctl.new_scenario_dialog()
    from editor.scenario.document import ScenarioDocument

    assert isinstance(ctl.doc, ScenarioDocument)
    ctl.doc.undo_stack.setClean()


def test_red_flags_tow_chosen_among_the_sides_unit_ids_and_undo_is_the_scenarios(rfwin):
    ctl = rfwin.scenario_ctl
    form, doc = ctl.system_panel.form, ctl.doc
    form.select(("german", "groups", 2, "units", 0, "tow"))   # GPAK's tow (Units: Transport unit)
    combo = form.value_widget
    vals = [json.loads(combo.itemData(i)) for i in range(combo.count())]
    assert vals[0] is None and "GZUG" in vals and "GPAK" not in vals and "R1" not in vals
    combo.setCurrentIndex(vals.index("G1"))
    combo.activated.emit(combo.currentIndex())
    texts = [ctl.system_panel.problems.item(i).text() for i in range(ctl.system_panel.problems.count())]
    assert "problem: $.german.groups[2].units[0].tow: 'G1' is not a transport unit of the scenario" in texts
    # the Pick tool keeps Undo on the scenario's stack
    form.select(("victory", "objectives"))
    assert rfwin.tools.current.name == "formpick" and rfwin.undo_group.activeStack() is doc.undo_stack
    rfwin.undo_group.undo()
    assert doc.data["german"]["groups"][2]["units"][0]["tow"] == "GZUG" and not doc.is_dirty


@pytest.mark.parametrize("src,loc,typed,want", [(RF, ("turns",), "7", 7), (S20, ("scale",), "5", 5.0),
                                                (S20, ("turns",), "10", 10)])
def test_number_field_typed_and_return_pressed_sets_the_value_without_a_crash(qtbot, tmp_path, src, loc, typed, want):
    """Return in a spin box of the schema form sets the value; the form shows the new value in a new
    spin box while the old one (the sender of editingFinished) is only deleted later; an undo then
    is not undone again by the old spin box's focus-out."""
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent, Qt

    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.open_file(_copy(tmp_path, src))
    ctl = w.scenario_ctl
    form, doc = ctl.system_panel.form, ctl.doc
    form.select(loc)
    spin = form.value_widget
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, typed)
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert shiboken6.isValid(spin)   # the sender of editingFinished outlives its own handler (deleted there: a crash)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qtbot.wait(10)
    assert not shiboken6.isValid(spin)   # then it is gone: no spin box piles up
    assert doc.data[loc[0]] == want and form.loc == loc
    assert form.value_widget is not spin and form.value_widget.value() == want
    doc.undo_stack.undo()
    qtbot.wait(10)
    assert doc.data[loc[0]] != want
    # twice in a row on the new spin box, then a click elsewhere (focus out of a retired spin box)
    form.select(loc)
    spin = form.value_widget
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, typed)
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    qtbot.keyClick(form.value_widget, Qt.Key.Key_Return)
    form.tree.setFocus()
    qtbot.wait(10)
    assert doc.data[loc[0]] == want and doc.undo_stack.count() == 1
    ctl.shutdown()


def test_the_forms_counts_read_as_english():
    """An object of one field and a list of one item, as the tree's value column says them."""
    from editor.scenario.system.form import SystemForm

    text = SystemForm._value_text
    assert text(object(), (), {"player": "heuristic"}) == "1 field"
    assert text(object(), (), {"a": 1, "b": 2}) == "2 fields"
    assert text(object(), (), [{"a": 1}]) == "1 item" and text(object(), (), [{"a": 1}, {"b": 2}]) == "2 items"
