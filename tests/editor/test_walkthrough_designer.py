"""A designer's short afternoon through the real widgets, at 1366 x 768: on the mapsheet, a new
road drawn by waypoints (three clicks, one undo step), a new scenario with a region bounded by that
bent road (the pocket it closes off), a set-up cap inside a named map feature, control of a named
feature from the start, and an OOB line the roster cannot build refused where it is typed (24.1).
Headless (pytest-qt, offscreen); message boxes answered by the ``dialogs`` fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.builders.region_picking import picker  # noqa: E402
from maps import hexgrid  # noqa: E402
from scenarios.regions import RegionContext, region_from_data  # noqa: E402
from tests.editor.test_walkthrough_scenario4 import choose, click_hex, menu_action, type_into  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
WAYPOINTS = ("1006", "1306", "1301")   # from the west edge east along row 06, then north to the north edge


@pytest.fixture
def window(qtbot, dialogs):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    yield w
    picker().stop()
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


def test_a_designers_scenario_with_a_new_road_by_waypoints(window, qtbot, dialogs):
    w = window
    assert w.open_file(MAP, offer_recovery=False)
    mapdoc = w.document
    # -- a new road by waypoints: three clicks and Enter, one undo step
    w.tool_actions["path"].trigger()
    for hid in WAYPOINTS:
        click_hex(qtbot, w, hid)
    QTest.keyClick(w.view, Qt.Key.Key_Return)
    assert mapdoc.undo_stack.count() == 1
    road = mapdoc.map.roads[-1]
    assert road[0] == "1006" and road[-1] == "1301" and "1306" in road
    assert all(hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b)) == 1 for a, b in zip(road, road[1:]))

    # -- a new scenario on this map
    menu_action(w, "New scenario on this map...").trigger()
    ctl = w.scenario_ctl
    doc = ctl.doc
    assert doc is not None and w.mode == "scenario"

    # -- a region bounded by the bent road: the pocket it closes off in the north-west corner
    ctl.docks["regions"].show()
    ctl.docks["regions"].raise_()
    panel = ctl.regions
    panel.new_region()
    panel.name.clear()
    qtbot.keyClicks(panel.name, "north-west pocket")
    form = panel.editor.form
    choose(form.kind_combo, "side_of")
    side = form.editor
    choose(side.direction, "west")
    qtbot.keyClicks(form.parts()[0].editor.through.edit, " - ".join(WAYPOINTS))
    side.bounded.setChecked(True)
    QApplication.processEvents()
    assert "pocket it closes off" in side.bounded.text() and side.note.text()
    panel.ok_button.click()
    region = doc.scenario.regions["north-west pocket"]
    assert region.bounded
    got = doc.resolve(region)[0]
    ctx = RegionContext(doc.hexmap, doc.scenario.north, doc.scenario.map.sections or None, {})
    reach = region_from_data({"kind": "reachable", "start": {"kind": "hexes", "hexes": ["1001"]},
                              "barrier": {"kind": "path", "through": list(WAYPOINTS)}}).resolve(ctx)
    assert got == frozenset(h.id for h in reach) and "1001" in got and "1207" not in got

    # -- the Sides dock's Set-up tab: control of Hill K from the start, a cap inside Hill J
    ctl.docks["sides"].show()
    ctl.docks["sides"].raise_()
    sides = ctl.sides
    sides.side.setCurrentText("german")
    sides.tabs.setCurrentIndex(2)
    tab = sides.setup_tab
    type_into(qtbot, tab.control, "Hill K", enter=True)
    assert [(c.side, c.region.name) for c in doc.scenario.initial_control] == [("german", "Hill K")]
    type_into(qtbot, tab.cap_region, "Hill J")
    type_into(qtbot, tab.cap_limits, "LMG 1")
    tab.cap_buttons["Add cap"].click()
    cap = doc.scenario.german.caps[0]
    assert (cap.region.kind, cap.region.name) == ("feature", "Hill J") and not tab.cap_error.isVisible()

    # -- an OOB line the roster cannot build: refused where it is typed
    ctl.docks["oob"].show()
    ctl.docks["oob"].raise_()
    oob = ctl.oob
    assert oob.select_loc(("german", "groups", 0))
    n = doc.undo_stack.count()
    type_into(qtbot, oob.entry_text, "Squad E (12) less R PR10", enter=True)
    assert doc.undo_stack.count() == n and "has no R PR10 to leave out" in oob.info.text()
    type_into(qtbot, oob.entry_text, "Squad E (12) less R PR8", enter=True)
    assert doc.undo_stack.count() == n + 1
    assert not [d for d in dialogs if d[0] in ("warning", "critical")], dialogs
