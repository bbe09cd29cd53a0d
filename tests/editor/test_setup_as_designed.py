"""The editor's trial set-up as designers specify it: IPs placed by
clicking (18.1), UP or DOWN per unit (3.12), a set-up cap inside a sub-zone shown and refused
(24.1), the mines' own area, initial control, and the forms for the set-up text, the north text
and the map text -- each one undo step. Headless (pytest-qt, offscreen)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPointF, Qt  # noqa: E402
from PySide6.QtWidgets import QPushButton  # noqa: E402

from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.wording import UNIT_ROLE  # noqa: E402
from editor.scenario.document import ScenarioDocument  # noqa: E402
from editor.scenario.builders.setup_forms import parse_cap_limits, region_field  # noqa: E402
from maps import hexgrid  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S4 = ROOT / "scenarios" / "data" / "scenario_4_tula.json"
R_ZONE = ["1015", "1016", "1017", "1018", "1019", "1020"]
CAP = R_ZONE[:4]


@pytest.fixture(autouse=True)
def tmp_settings(dialogs):
    return dialogs


def tula_copy(tmp_path: Path, cap: bool = True) -> Path:
    d = json.loads(S4.read_text())
    d["map"]["file"] = str((S4.parent / d["map"]["file"]).resolve())
    if cap:
        d["russian"]["caps"] = [{"region": {"kind": "hexes", "hexes": CAP}, "squad": "D",
                                 "max": [{"type": "LMG", "count": 1}, {"type": "R", "count": 2}]}]
    out = tmp_path / "tula.json"
    out.write_text(json.dumps(d))
    return out


@pytest.fixture
def win(qtbot, tmp_path):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    assert w.open_file(tula_copy(tmp_path))
    yield w
    w.scenario_ctl.shutdown()
    w.scenario_ctl.doc.undo_stack.setClean()


def doc_of(w) -> ScenarioDocument:
    return w.scenario_ctl.doc


def click(tool, hid: str, button=Qt.MouseButton.LeftButton, modifiers=Qt.KeyboardModifier.NoModifier):
    tool.press(ToolEvent(hexgrid.parse_hex_id(hid), 0.0, 0.0, QPointF(), button, button, modifiers))


def test_18_1_ips_placed_by_clicking_saved_and_undone(win, tmp_path):
    doc = doc_of(win)
    tool = win.tools.set_tool("marks")
    assert tool.click(R_ZONE[0], "russian", "IP", 2) is None
    assert doc.ips == {R_ZONE[0]: {"side": "russian", "points": 2}}
    assert "only" not in (tool.click(R_ZONE[1], "russian", "IP", 1) or "")
    assert "every one already placed" in tool.click(R_ZONE[2], "russian", "IP", 2)      # one IP2
    assert "no IP3" in tool.click(R_ZONE[2], "russian", "IP", 3)
    assert "outside the set-up zone" in tool.click("1001", "russian", "IP", 1)
    assert "IP2 1/1" in win.scenario_ctl.setup_panel.marks.text()
    assert "IP1 1/3" in win.scenario_ctl.setup_panel.marks.text()
    assert doc.fixed_setup()["ips"][R_ZONE[0]] == {"side": "russian", "points": 2}
    # right-click removes (the kind and side chosen in the Set-up panel), one undo step brings it back
    panel = win.scenario_ctl.setup_panel
    panel.mark_side.setCurrentText("russian")
    panel.mark_mode.setCurrentText("IP")
    click(tool, R_ZONE[1], Qt.MouseButton.RightButton)
    assert R_ZONE[1] not in doc.ips
    doc.undo_stack.undo()
    assert doc.ips[R_ZONE[1]] == {"side": "russian", "points": 1}
    out = doc.save(tmp_path / "saved.json")
    placed = json.loads((tmp_path / "saved.placement.json").read_text())
    assert placed["ips"] == {R_ZONE[0]: {"side": "russian", "points": 2}, R_ZONE[1]: {"side": "russian", "points": 1}}
    assert ScenarioDocument.open(out).ips == doc.ips


def test_3_12_up_or_down_per_unit_toggle_and_counter(win):
    doc = doc_of(win)
    assert doc.place("R-D-3", R_ZONE[4]) is None
    panel = win.scenario_ctl.setup_panel
    panel.select_unit("R-D-3")
    assert panel.toggle_down() and doc.placement["R-D-3"].down
    assert "DOWN" in next(it.text(1) for it in _items(panel.tree) if it.data(0, UNIT_ROLE) == "R-D-3")
    tool = win.tools.set_tool("place")
    click(tool, R_ZONE[4], modifiers=Qt.KeyboardModifier.ShiftModifier)     # Shift+click: UP again
    assert not doc.placement["R-D-3"].down
    doc.undo_stack.undo()
    assert doc.placement["R-D-3"].down
    counters = win.scenario_ctl.overlay.layers["units"][0].counters
    assert next(c for c in counters if c.hex == R_ZONE[4]).down is True   # drawn with its "D" tag
    assert doc.fixed_setup()["units"]["R-D-3"]["down"] is True


def _items(tree):
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while stack:
        it = stack.pop()
        yield it
        stack.extend(it.child(i) for i in range(it.childCount()))


def test_24_1_cap_refuses_the_drop_and_shows_a_violation(win, tmp_path):
    doc = doc_of(win)
    assert doc.place("R-D-3", CAP[0]) is None and doc.place("R-D-4", CAP[1]) is None
    why = win.tools.set_tool("place").drop("R-D-6", CAP[2])
    assert why is not None and why.startswith("24.1 scenario set-up cap: no more than 1 LMG and 2 Rs of Squad D")
    assert doc.place("R-D-6", R_ZONE[5]) is None                    # outside the sub-zone: fine
    # a placement file made before the cap (or by hand) is shown, not silently played
    fixed = doc.fixed_setup()
    fixed["units"]["R-D-6"]["hex"] = CAP[2]
    from core.ironcross.placement import placement_json

    (tmp_path / "tula.placement.json").write_text(json.dumps(placement_json(fixed)))
    win.scenario_ctl.open(tmp_path / "tula.json")
    doc = doc_of(win)
    probs = {p.path: p.message for p in doc.setup_problems()}
    assert "set-up cap" in probs["$.units.R-D-6.hex"]
    assert "set-up cap" in doc.setup_problem_hexes()[CAP[2]]
    assert "Set-up problems in " + CAP[2] in win.scenario_ctl.setup_panel.status.text()
    assert any("set-up cap" in t for t in win.scenario_ctl.validation.problems())
    assert "cap: no more than 1 LMG and 2 Rs of Squad D" in win.scenario_ctl.setup_panel.marks.text()
    assert doc.remove_invalid_setup() == 1 and "R-D-6" not in doc.placement


def test_setup_tab_caps_mines_area_and_initial_control_are_undoable(win):
    doc = doc_of(win)
    sides = win.scenario_ctl.sides
    sides.side.setCurrentText("russian")
    tab = sides.setup_tab
    # a cap from the form
    tab.cap_region.setText("1015-1018")
    tab.cap_squad.setText("a")
    tab.cap_limits.setText("LMG 1 and R 3")
    tab.cap_others.setValue(0)
    assert tab.add_cap()
    cap = doc.scenario.russian.caps[1]
    assert (cap.squad, [(x.type, x.count) for x in cap.max], cap.others) == ("A", [("LMG", 1), ("R", 3)], 0)
    assert cap.region.kind == "hex_range"
    assert tab.remove_cap() and len(doc.scenario.russian.caps) == 1
    doc.undo_stack.undo()
    assert len(doc.scenario.russian.caps) == 2
    # the mines' own area: a named region or hexes
    assert tab.set_mines_area("road network")
    e = doc.scenario.russian.groups[0].oob[8]
    assert e.kind == "mines" and e.area.kind == "named" and e.area.name == "road network"
    assert tab.set_mines_area("1001, 1002, 1003")
    assert doc.mine_allotment("russian")[2] == frozenset({"1001", "1002", "1003"})
    assert tab.set_mines_area("")
    assert doc.scenario.russian.groups[0].oob[8].area is None
    # initial control: the side's region; evaluate now counts it
    assert tab.set_initial_control("1015, 1016")
    assert [(ic.side, ic.region.hexes) for ic in doc.scenario.initial_control] == [("russian", ["1015", "1016"])]
    assert doc.initial_control() == {"1015": "russian", "1016": "russian"}
    assert tab.set_initial_control("")
    assert doc.scenario.initial_control == []
    doc.undo_stack.undo()
    assert len(doc.scenario.initial_control) == 1
    # a region field that is neither a region nor hexes is refused with a message
    assert not tab.set_initial_control("Hill Q")
    assert len(doc.scenario.initial_control) == 1


def test_forms_set_up_text_north_text_map_text(win, dialogs):
    doc = doc_of(win)
    sides = win.scenario_ctl.sides
    sides.side.setCurrentText("german")
    tab = sides.setup_tab
    assert tab.setup_text.toPlainText() == doc.scenario.german.setup_text
    tab.setup_text.setPlainText("Squad B (6); PL")
    assert tab.apply_setup_text()
    assert doc.scenario.german.setup_text == "Squad B (6); PL"
    # the button itself (its clicked(bool) once reached the text parameter: "Input should be a valid string")
    tab.setup_text.setPlainText("Squad B (6); PL; PS")
    next(b for b in tab.findChildren(QPushButton) if b.text() == "Apply set-up text").click()
    assert doc.scenario.german.setup_text == "Squad B (6); PL; PS" and dialogs == []
    doc.undo_stack.undo()
    props = win.scenario_ctl.properties
    props.north_text.setText("Place in hex 1026 pointing to hex 1027 (edited).")
    props.north_text.editingFinished.emit()
    assert doc.scenario.north_text.endswith("(edited).")
    props.map_text.setText("Map 1 is used.")
    props.map_text.editingFinished.emit()
    assert doc.scenario.map.text == "Map 1 is used."
    for check in (lambda: doc.scenario.map.text, lambda: doc.scenario.north_text,
                  lambda: doc.scenario.german.setup_text):
        before = check()
        doc.undo_stack.undo()
        assert check() != before
    assert doc.scenario.german.setup_text.startswith("Squad B (6); Squad C (6)")
    assert props.map_text.text() == doc.scenario.map.text     # the form follows undo


def test_region_field_and_limit_parsing(win):
    doc = doc_of(win)
    assert region_field(doc, "") is None
    assert region_field(doc, "Road Network") == {"kind": "named", "name": "road network"}
    assert region_field(doc, "4307 4308") == {"kind": "hexes", "hexes": ["4307", "4308"]}
    with pytest.raises(ValueError, match="neither a region of the scenario"):
        region_field(doc, "Hill Q")
    assert parse_cap_limits("LMG 1, any 2, 2 R's") == [{"type": "LMG", "count": 1}, {"count": 2},
                                                         {"type": "R", "count": 2}]
    with pytest.raises(ValueError):
        parse_cap_limits("LMG")


def test_render_trial_setup_with_ip_down_unit_and_cap_violation(win, tmp_path):
    """The trial set-up with an IP, a DOWN unit and a cap violation, drawn offscreen to a PNG."""
    doc = doc_of(win)
    tool = win.tools.set_tool("marks")
    assert tool.click(CAP[0], "russian", "IP", 2) is None
    assert doc.place("R-D-3", CAP[0]) is None and doc.place("R-D-4", CAP[1]) is None
    assert doc.place("R-D-2", CAP[0]) is None and doc.set_down("R-D-2", True)
    fixed = doc.fixed_setup()
    fixed["units"]["R-D-6"] = {"hex": CAP[2], "facing": None, "down": False}
    doc._set_fixed(fixed)
    doc.changed.emit("placement")
    assert CAP[2] in doc.setup_problem_hexes()
    win.view.centre_on_hex(hexgrid.parse_hex_id(CAP[1]))
    win.view.scale(2.5, 2.5)
    out = tmp_path / "trial_setup_ip_down_cap.png"
    assert win.view.viewport().grab().save(str(out))
    assert out.stat().st_size > 1000
