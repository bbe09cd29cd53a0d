"""The designer's map edits around a scenario: roads and gullies drawn by waypoints (one undo
step), a scenario never shown or validated on a map it does not name, a resize that says first
what it changes in the open scenario. Headless (pytest-qt, offscreen); message boxes answered by
the ``dialogs`` fixture (tests/editor/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.map.edits import hex_walk  # noqa: E402
from editor.scenario.builders.region_picking import picker  # noqa: E402
from maps import hexgrid  # noqa: E402
from tests.editor.test_walkthrough_scenario4 import click_hex  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"


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


def test_hex_walk_is_a_chain_of_adjacent_hexes():
    a, b = hexgrid.parse_hex_id("1005"), hexgrid.parse_hex_id("1812")
    walk = hex_walk(a, b)
    assert walk[0] == a and walk[-1] == b and len(walk) == hexgrid.distance(a, b) + 1
    assert all(hexgrid.distance(x, y) == 1 for x, y in zip(walk, walk[1:]))
    assert walk == hex_walk(a, b)                         # the same waypoints, the same hexes
    col = hex_walk(hexgrid.parse_hex_id("1005"), hexgrid.parse_hex_id("1009"))
    assert [h.id for h in col] == ["1005", "1006", "1007", "1008", "1009"]


def test_road_by_waypoints_is_one_undo_step(window, qtbot):
    w = window
    assert w.open_file(MAP, offer_recovery=False)
    doc = w.document
    before = set(doc.hexmap.road_hexes)
    w.tools.set_tool("path")
    for hid in ("1005", "1010", "1410"):                 # three clicks: the start, a bend, the end
        click_hex(qtbot, w, hid)
    QTest.keyClick(w.view, Qt.Key.Key_Return)
    assert "ended at 1410" in w.tools.current.status   # the status says the path is finished
    new = {h.id for h in set(doc.hexmap.road_hexes) - before}
    want = {h.id for h in hex_walk(hexgrid.parse_hex_id("1005"), hexgrid.parse_hex_id("1010"))} | \
        {h.id for h in hex_walk(hexgrid.parse_hex_id("1010"), hexgrid.parse_hex_id("1410"))}
    assert new == want - {h.id for h in before} and len(want) == 10
    links = doc.hexmap.road_links
    assert hexgrid.parse_hex_id("1006") in links[hexgrid.parse_hex_id("1005")]
    assert doc.undo_stack.count() == 1                   # one path, one undo step
    doc.undo_stack.undo()
    assert set(doc.hexmap.road_hexes) == before
    # Backspace takes back the last leg
    doc.undo_stack.redo()
    w.tools.set_tool("path")
    click_hex(qtbot, w, "2005")
    click_hex(qtbot, w, "2009")
    click_hex(qtbot, w, "2509")
    QTest.keyClick(w.view, Qt.Key.Key_Backspace)
    QTest.keyClick(w.view, Qt.Key.Key_Return)
    road = {h.id for h in doc.hexmap.road_hexes}
    assert {"2005", "2007", "2009"} <= road and "2509" not in road and "2309" not in road
    assert doc.undo_stack.count() == 2


def test_undo_while_a_road_is_drawn_then_another_click_starts_a_new_path(window, qtbot):
    """Ctrl+Z in the middle of drawing a road takes the drawn path away; the next click must not
    extend the path that is gone (the editor fuzz found an IndexError there) but go on from the
    last hex as a new path."""
    w = window
    assert w.open_file(MAP, offer_recovery=False)
    doc = w.document
    roads_before = len(doc.map.roads)
    w.tools.set_tool("path")
    click_hex(qtbot, w, "2005")
    click_hex(qtbot, w, "2008")
    doc.undo_stack.undo()                                 # the road drawn so far is gone
    assert len(doc.map.roads) == roads_before
    click_hex(qtbot, w, "2010")                           # on from 2008, the tool's last hex
    QTest.keyClick(w.view, Qt.Key.Key_Return)
    assert len(doc.map.roads) == roads_before + 1
    road = {h.id for h in doc.hexmap.road_hexes}
    assert {"2008", "2009", "2010"} <= road


def test_save_as_starts_from_a_copy_of_a_shipped_map_and_a_new_scenario_beside_its_map(window, monkeypatch, tmp_path):
    """*Save map as* of the shipped mapsheet proposes a copy's name (the shipped scenarios read the
    shipped file); *Save scenario as* of a new scenario proposes a file named after its title
    beside its map, not the working folder."""
    from PySide6.QtWidgets import QFileDialog

    w = window
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: asked.append(a[2]) or ("", "")))
    assert w.open_file(MAP, offer_recovery=False)
    w.save_as()
    assert Path(asked[-1]) == MAP.with_name(MAP.stem + "_edited.json")
    mine = tmp_path / "my_map.json"
    assert w._save_to(mine)
    w.save_as()
    assert Path(asked[-1]) == mine
    w.scenario_ctl.new_scenario(mine)
    w.scenario_ctl.doc.edit("Set title", lambda d: d.__setitem__("title", "Hold Hill Z"))
    w.scenario_ctl.save_as()
    assert Path(asked[-1]) == tmp_path / "hold_hill_z.json"
