"""The map editor: document and undo, tools, save/reload, errata, LOS tool, autosave.

Headless (pytest-qt, QT_QPA_PLATFORM=offscreen); QSettings go to a temporary folder and
QMessageBox is patched so nothing blocks.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPointF, QRectF, QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from maps import building_shapes, hexgrid  # noqa: E402
from maps.hexgrid import Hex  # noqa: E402
from maps.hexmap import HexMap  # noqa: E402
from maps.los import line_of_sight, visible_from  # noqa: E402
from maps.mapfile import check_map, load_map_file  # noqa: E402
from editor.map import edits  # noqa: E402
from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.map.document import MapDocument, autosave_path  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y  # noqa: E402
from tests.mapbuilder import make_map  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "data" / "sample_village.json"


def poly(*hexes: str):
    return [tuple(p) for p in building_shapes.polygon_coords(building_shapes.footprint(list(hexes)))]


@pytest.fixture(autouse=True)
def tmp_settings(tmp_path, monkeypatch):
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    calls = []
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(lambda *a, **k: calls.append(("critical", a))))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: calls.append(("warning", a))))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: calls.append(("question", a)) or QMessageBox.StandardButton.Yes))
    return calls


def small_doc(**kw) -> MapDocument:
    return MapDocument(make_map((10, 20), (1, 10), **kw).doc)


@pytest.fixture
def win(qtbot):
    w = MainWindow(small_doc(trees={"1204": 2}, levels={"1503": 1}, marsh=["1808"],
                             buildings={"B1": poly("1305"), "B2": poly("1407", "1408")},
                             roads=[["1001", "1101", "1202"]], gullies=[["1601", "1602", "1603"]]))
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    w.document.undo_stack.setClean()
    return w


def tool(w, name):
    return w.tools.set_tool(name)


# ------------------------------------------------------------------------------ terrain
@pytest.mark.parametrize("terrain", ["marsh", "clear"])
def test_paint_terrain_undo_redo(win, terrain):
    doc = win.document
    before = doc.map
    t = tool(win, "terrain")
    t.terrain = terrain
    t.size = 7
    start = "1808" if terrain == "clear" else "1303"
    t.stroke_hexes([start])
    hm = doc.hexmap
    painted = edits.brush_hexes(hm, hexgrid.parse_hex_id(start), 7)
    assert len(painted) == 7
    assert all(hm.terrain(h) == terrain for h in painted)
    assert doc.undo_stack.count() == 1 and doc.is_dirty
    doc.undo_stack.undo()
    assert doc.map == before and not doc.is_dirty
    doc.undo_stack.redo()
    assert all(doc.hexmap.terrain(h) == terrain for h in painted)


@pytest.mark.parametrize("name,attr,value", [("trees", "trees", 3), ("level", "level", 2)])
def test_tree_and_level_brush_undo_redo(win, name, attr, value):
    doc = win.document
    before = doc.map
    t = tool(win, name)
    setattr(t, "count" if name == "trees" else "level", value)
    t.stroke_hexes(["1102", "1103", "1104", "1105"])
    assert [getattr(doc.hexmap, attr)(Hex(11, r)) for r in (2, 3, 4, 5)] == [value] * 4
    assert doc.undo_stack.count() == 1  # one stroke, one undo step
    doc.undo_stack.undo()
    assert doc.map == before
    doc.undo_stack.redo()
    assert getattr(doc.hexmap, attr)(Hex(11, 5)) == value


def test_tree_brush_add_remove(win):
    doc = win.document
    t = tool(win, "trees")
    t.mode = "add"
    t.stroke_hexes(["1204", "1205"])
    assert (doc.hexmap.trees(Hex(12, 4)), doc.hexmap.trees(Hex(12, 5))) == (3, 1)
    t.mode = "remove"
    t.stroke_hexes(["1204"])
    assert doc.hexmap.trees(Hex(12, 4)) == 2


def test_brush_drag_with_mouse_is_one_undo_step(win, qtbot):
    doc = win.document
    t = tool(win, "terrain")
    t.terrain = "marsh"
    vp = win.view.viewport()
    win.view.centre_on_hex(Hex(13, 5))
    pts = [win.view.mapFromScene(QPointF(*[c * s for c, s in zip(hexgrid.centre(Hex(13, r)), (SCENE_PER_X, SCENE_PER_Y))]))
           for r in (3, 4, 5, 6)]
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=pts[0])
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication
    for p in pts[1:]:
        ev = QMouseEvent(QEvent.Type.MouseMove, QPointF(p), QPointF(vp.mapToGlobal(p)), Qt.MouseButton.NoButton,
                         Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(vp, ev)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=pts[-1])
    assert [doc.hexmap.terrain(Hex(13, r)) for r in (3, 4, 5, 6)] == ["marsh"] * 4
    assert doc.undo_stack.count() == 1


def test_painting_over_building_hex_and_undo_restores_building_exactly(win):
    doc = win.document
    before = doc.map
    b2 = next(b for b in before.buildings if b.id == "B2")
    t = tool(win, "terrain")
    t.terrain = "clear"
    t.stroke_hexes(["1305", "1408"])
    hm = doc.hexmap
    assert "B1" not in hm.buildings
    assert hm.building_hexes["B2"] == {Hex(14, 7)}   # the multi-hex building lost its painted hex
    doc.undo_stack.undo()
    assert doc.map == before
    assert next(b for b in doc.map.buildings if b.id == "B2") == b2
    assert doc.hexmap.building_hexes["B2"] == {Hex(14, 7), Hex(14, 8)}


def test_flood_fill_follows_diagonal_looking_links_and_undoes_in_one_step(win):
    doc = win.document
    # a staircase across hexside 2 (upper right): in offset coordinates every other step looks
    # diagonal, (c, r) -> (c + 1, r - 1); it is 6-connected
    stair = [Hex(10, 9)]
    for _ in range(8):
        stair.append(hexgrid.neighbour(stair[-1], 2))
    assert any(b.row == a.row - 1 for a, b in zip(stair, stair[1:]))
    t = tool(win, "terrain")
    t.terrain = "marsh"
    t.stroke_hexes(stair)
    lonely = Hex(11, 10)  # offset-diagonal to 1009 but not its neighbour (1009's lower right is 1109)
    assert lonely not in hexgrid.neighbours(Hex(10, 9))
    t.stroke_hexes([lonely])
    doc.undo_stack.setClean()
    n = doc.undo_stack.count()
    t.terrain = "clear"
    t.flood_fill(stair[0])
    hm = doc.hexmap
    assert all(hm.terrain(h) == "clear" for h in stair)
    assert hm.terrain(lonely) == "marsh" and hm.terrain(Hex(18, 8)) == "marsh"
    assert doc.undo_stack.count() == n + 1
    doc.undo_stack.undo()
    assert all(doc.hexmap.terrain(h) == "marsh" for h in stair)


def test_fill_mode_click(win, qtbot):
    t = tool(win, "terrain")
    t.terrain, t.fill_mode = "marsh", True
    t.press(ToolEvent.at_hex("1001"))
    hm = win.document.hexmap
    assert hm.terrain(Hex(20, 10)) == "marsh" and hm.terrain(Hex(10, 1)) == "marsh"


# ------------------------------------------------------------------------------ regions
def test_copied_region_rotated_six_times_comes_back(win):
    doc = win.document
    hexes = [hexgrid.parse_hex_id(t) for t in ("1303", "1304", "1305", "1204", "1404", "1202", "1101")]
    region = edits.copy_region(doc.hexmap, hexes, Hex(13, 4))
    assert region.buildings and region.roads  # B1 in 1305 and the road 1102-1202
    r = region
    for i in range(6):
        r = r.rotated()
        if i < 5:
            assert r != region
    assert r == region


def test_paste_rotated_region(win):
    doc = win.document
    sel = win.tools.set_tool("select")
    win.ctx.set_selection({Hex(12, 4), Hex(12, 5)})  # trees 2 in 1204
    sel.copy()
    sel.start_paste()
    sel.rotate_paste(3)  # 180 degrees: 1204 -> anchor, 1205 -> above
    sel.press(ToolEvent.at_hex("1707"))
    assert doc.hexmap.trees(Hex(17, 7)) == 2
    assert doc.undo_stack.count() == 1


def test_resize_keeps_adjacency(win):
    doc = win.document
    hm0 = doc.hexmap
    win.resize_map(left=3, right=-2, top=0, bottom=-1)
    hm = doc.hexmap
    assert (hm.first_column, hm.last_column, hm.first_row, hm.last_row) == (7, 18, 1, 9)
    assert check_map(doc.map) == []
    for h in hm.all_hexes():
        if hm0.contains(h):
            assert hm.record(h) == hm0.record(h)
            assert hm.road_links.get(h, set()) == {n for n in hm0.road_links.get(h, set()) if hm.contains(n)}
    assert hm.building_hexes["B2"] == hm0.building_hexes["B2"]
    assert hm.is_gully(Hex(16, 2)) and hm.road_connected(Hex(10, 1), Hex(11, 1))
    doc.undo_stack.undo()
    assert doc.hexmap.last_column == 20


def test_feature_naming(win):
    f = tool(win, "feature")
    win.ctx.set_selection({Hex(15, 3), Hex(15, 4)})
    assert f.name_selection("Hill K")
    hm = win.document.hexmap
    assert hm.feature_hexes("Hill K") == {Hex(15, 3), Hex(15, 4)}
    assert hm.features["Hill K"].kind == "hill"


# ------------------------------------------------------------------------------ buildings, paths
def click(qtbot, view, x, y, double=False):
    pos = view.mapFromScene(QPointF(x * SCENE_PER_X, y * SCENE_PER_Y))
    if double:
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    else:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_building_polygon_drawn_with_mouse(win, qtbot):
    doc = win.document
    t = tool(win, "building")
    win.view.resetTransform()
    win.view.scale(0.8, 0.8)
    cx, cy = hexgrid.centre(Hex(17, 5))  # (51, 11)
    win.view.centerOn(QPointF(cx * SCENE_PER_X, cy * SCENE_PER_Y))
    # corners near lattice points: snapped to the hex's vertices
    corners = [(cx - 0.9, cy - 0.95), (cx + 1.1, cy - 1.05), (cx + 1.9, cy + 0.1), (cx - 1.05, cy + 0.9)]
    for x, y in corners:
        click(qtbot, win.view, x, y)
    assert t.points == [(cx - 1, cy - 1), (cx + 1, cy - 1), (cx + 2, cy), (cx - 1, cy + 1)]
    click(qtbot, win.view, cx - 1.05, cy - 1.0)  # the first corner again closes it
    new = [b for b in doc.map.buildings if b.id not in ("B1", "B2")]
    assert len(new) == 1
    assert new[0].polygon == [(cx - 1, cy - 1), (cx + 1, cy - 1), (cx + 2, cy), (cx - 1, cy + 1)]
    assert doc.hexmap.building_hexes[new[0].id] == {Hex(17, 5)}
    assert check_map(doc.map) == []
    t.set_number_name(new[0].id, 7, None)
    assert doc.hexmap.building_by_name("Building 7").id == new[0].id
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert len(doc.map.buildings) == 2


def test_building_footprint_and_join(win):
    doc = win.document
    t = tool(win, "building")
    t.set_mode("footprint")
    bid = t.add_footprint([Hex(14, 9)])
    assert doc.hexmap.building_hexes[bid] == {Hex(14, 9)}
    assert t.join("B2", bid)
    hm = doc.hexmap
    assert bid not in hm.buildings and hm.building_hexes["B2"] == {Hex(14, 7), Hex(14, 8), Hex(14, 9)}
    doc.undo_stack.undo()
    assert doc.hexmap.building_hexes[bid] == {Hex(14, 9)}


def test_road_path_with_clicks_and_bridge(win, qtbot):
    doc = win.document
    t = tool(win, "path")
    win.view.resetTransform()
    win.view.scale(0.5, 0.5)
    win.view.centre_on_hex(Hex(16, 2))
    n = doc.undo_stack.count()
    for hid in ("1502", "1602", "1702", "1903"):  # 1903 is a waypoint: the hex between is filled
        c = hexgrid.centre(hexgrid.parse_hex_id(hid))
        click(qtbot, win.view, *c)
    assert t.status == "road to 1903"
    road = doc.map.roads[-1]
    assert road[:3] == ["1502", "1602", "1702"] and road[-1] == "1903" and len(road) == 5
    assert doc.hexmap.is_bridge(Hex(16, 2))          # the road crosses the gully at 1602
    assert doc.hexmap.road_connected(Hex(15, 2), Hex(16, 2))
    assert doc.undo_stack.count() == n + 1           # one path, one undo step
    t.finish()
    doc.undo_stack.undo()
    assert not doc.hexmap.is_bridge(Hex(16, 2))


def test_gully_path(win):
    t = tool(win, "path")
    t.kind = "gullies"
    t.draw_path(["1006", "1106", "1207"])
    assert win.document.map.gullies[-1] == ["1006", "1106", "1207"]


# ------------------------------------------------------------------------------ files
def test_save_and_reload_round_trip(win, tmp_path):
    t = tool(win, "terrain")
    t.stroke_hexes(["1109"])
    tool(win, "building").add_footprint([Hex(19, 2), Hex(19, 3)])
    p = tmp_path / "m.json"
    assert win._save_to(p)
    assert not win.document.is_dirty and "*" not in win.windowTitle()
    assert load_map_file(p) == win.document.map
    assert win.open_file(p)
    assert win.document.map == load_map_file(p)
    assert str(p.resolve()) in win.recent_files()


def test_open_corrupt_file_shows_error_and_keeps_document(win, tmp_path, tmp_settings):
    bad = tmp_path / "bad.json"
    data = json.loads(SAMPLE.read_text())
    data["hexes"][0]["id"] = "99x"
    data["roads"] = [["1001", "1005"]]
    bad.write_text(json.dumps(data))
    before = win.document
    assert not win.open_file(bad)
    assert win.document is before
    kind, args = tmp_settings[-1]
    assert kind == "critical" and "not adjacent" in args[2] and "$.hexes[0].id" in args[2]
    (tmp_path / "junk.json").write_text("{not json")
    assert not win.open_file(tmp_path / "junk.json")
    assert win.document is before


def test_autosave_and_recovery(win, tmp_path, tmp_settings):
    p = tmp_path / "a.json"
    assert win._save_to(p)
    tool(win, "trees").stroke_hexes(["1909"])
    edited = win.document.map
    a = win.autosave()
    assert a == autosave_path(p) and a.exists()
    os.utime(p, (time.time() - 100, time.time() - 100))
    # "crash": open the file again in a new window; recovery is offered (patched: Yes)
    w2 = MainWindow()
    try:
        assert w2.open_file(p)
        assert any(k == "question" for k, _ in tmp_settings)
        assert w2.document.map == edited and w2.document.is_dirty
        w2.document.save()
        assert not autosave_path(p).exists()
    finally:
        w2.document.undo_stack.setClean()
        w2.close()


def test_autosave_recovery_offered_when_the_map_is_named_on_the_command_line(win, tmp_path, tmp_settings):
    """``ironcross-editor FILE`` opens the map as File > Open does: a newer autosave is offered."""
    from editor.app import map_window

    p = tmp_path / "a.json"
    assert win._save_to(p)
    tool(win, "trees").stroke_hexes(["1909"])
    edited = win.document.map
    win.autosave()
    os.utime(p, (time.time() - 100, time.time() - 100))
    w2 = map_window(str(p), 1366, 768)
    try:
        assert any(k == "question" for k, _ in tmp_settings)
        assert w2.document.map == edited and w2.document.is_dirty
    finally:
        w2.document.undo_stack.setClean()
        w2.close()


def test_autosave_timer_interval(win):
    assert win.autosave_timer.isActive() and win.autosave_timer.interval() == 60_000


def test_export_png_svg(win, tmp_path):
    for whole in (True, False):
        for ext in ("png", "svg"):
            out = tmp_path / f"x{whole}.{ext}"
            win.export(out, whole=whole)
            assert out.stat().st_size > 1000


# ------------------------------------------------------------------------------ errata
def test_errata_preview_apply_undo(win, tmp_path, monkeypatch):
    doc = win.document
    errata = {
        "format": "ironcross-errata", "version": 1, "title": "Test errata", "source": "test",
        "corrections": [
            {"hex": "1204", "attribute": "trees", "printed": 2, "corrected": 1, "line": "Hex 1204 has 1 tree."},
            {"hex": "1503", "attribute": "level", "printed": 1, "corrected": 2, "line": "Hex 1503 is level 2."},
            {"hex": "1305", "attribute": "building", "printed": "single", "corrected": "none",
             "line": "Hex 1305 is not a building hex."},
            {"hex": "1909", "attribute": "trees", "printed": 3, "corrected": 1, "line": "Hex 1909 has 1 tree."},
        ]}
    path = tmp_path / "errata.json"
    path.write_text(json.dumps(errata))
    before = doc.map
    assert win.open_errata(path)
    panel = win.errata_panel
    assert [c.status for c in panel.changes] == ["applied", "applied", "applied", "mismatch"]
    assert panel.list.count() == 4 and "1204 trees: 2 -> 1" in panel.list.item(0).text()
    assert panel._items  # highlighted on the map
    assert doc.map == before  # preview changes nothing
    win.view.resetTransform()
    panel._clicked(panel.list.item(1))  # centres the map on 1503
    c = win.view.mapToScene(win.view.viewport().rect().center())
    assert hexgrid.distance(edits.hexgrid.point_to_hex(c.x() / SCENE_PER_X, c.y() / SCENE_PER_Y), Hex(15, 3)) <= 1
    n = doc.undo_stack.count()
    import editor.map.docks as docks

    asked = []
    monkeypatch.setattr(docks, "confirm_errata_mismatches",
                        lambda parent, mismatches, pending: asked.append((mismatches, pending)) or "matching")
    assert panel.apply()
    assert [c.hex for c in asked[0][0]] == ["1909"] and asked[0][1] == 3   # the designer confirmed the mismatch
    hm = doc.hexmap
    assert (hm.trees(Hex(12, 4)), hm.level(Hex(15, 3)), hm.is_building_hex(Hex(13, 5))) == (1, 2, False)
    assert hm.trees(Hex(19, 9)) == 0  # the mismatch is not applied
    assert doc.undo_stack.count() == n + 1
    doc.undo_stack.undo()
    assert doc.map == before


# ------------------------------------------------------------------------------ LOS
@pytest.mark.parametrize("down", [False, True])
def test_los_tool_equals_line_of_sight(win, qtbot, down):
    doc = win.document
    t = tool(win, "los")
    t.set_firer_down(down)
    pairs = [("1001", "2010"), ("1204", "1206"), ("1103", "1503"), ("1706", "1910"), ("1303", "1307")]
    for a, b in pairs:
        r = t.measure(a, b)
        ref = line_of_sight(doc.hexmap, a, b, firer_down=down)
        assert r == ref and r.to_json() == ref.to_json()
    # and with the mouse: press on the firer, release on the target
    win.view.resetTransform()
    win.view.scale(0.4, 0.4)
    win.view.centre_on_hex(Hex(13, 5))
    pa = win.view.mapFromScene(QPointF(*[c * s for c, s in zip(hexgrid.centre(Hex(11, 3)), (SCENE_PER_X, SCENE_PER_Y))]))
    pb = win.view.mapFromScene(QPointF(*[c * s for c, s in zip(hexgrid.centre(Hex(15, 7)), (SCENE_PER_X, SCENE_PER_Y))]))
    qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=pa)
    qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=pb)
    assert t.result == line_of_sight(doc.hexmap, "1103", "1507", firer_down=down)
    assert win.los_panel.profile.result is t.result


def test_los_blocked_drawing_and_sighting(win):
    t = tool(win, "los")
    r = t.measure("1303", "1307")  # through Building B1 in 1305
    assert not r.clear and r.blocking_hex == "1305"
    assert len(t._items) >= 4
    r2 = t.measure("1503", "1507")  # from level 1 down to level 0: the Sighting Chart
    assert r2.firer_level != r2.target_level
    assert win.los_panel.profile.result is r2
    img = win.los_panel.profile.grab()
    assert not img.isNull()


def test_10_33_los_tool_says_why_a_los_past_an_own_hex_building_is_clear(win):
    """B1 fills 1305: from 1305 to the adjacent 1304 the line meets it only in the firer's own hex."""
    t = tool(win, "los")
    r = t.measure("1305", "1304")
    assert r.clear and r.own_hex_buildings == (("1305", "B1"),)
    for text in (t.status, win.los_panel.text.text()):
        assert "only in the firer's/target's own hexes" in text and "10.33" in text, text
    assert [(h.id, h.building) for h in r.hexes] == [("1305", "B1"), ("1304", None)]


def test_visible_from_worker(win, qtbot):
    t = tool(win, "los")
    t.measure("1204", "1206")
    th = win.los_panel.start_visible()
    # The worker may finish before a signal blocker could connect (a few ms on a quiet machine),
    # so wait for what its result does in the GUI thread: the shaded hexes.
    qtbot.waitUntil(lambda: bool(t._vis_items), timeout=20000)
    assert th.visible == visible_from(win.document.hexmap, "1204")
    assert t._vis_items


# ------------------------------------------------------------------------------ chart, window
def test_chart_panel_provenance_and_edit(win):
    panel = win.chart_panel
    chart = panel.chart
    woods = chart.keys.index("woods")
    item = panel.table.item(woods, 1)
    assert item.toolTip()
    assert panel.set_value(woods, "observation_base", "3")
    assert panel.cell_source("woods", "observation_base") == "designer"
    assert not panel.set_value(woods, "ap_dice", "\"nonsense\"")
    assert win.ctx.chart is panel.chart


def test_status_bar_and_layers(win):
    text = win.describe_hex(Hex(12, 4))
    assert text.startswith("1204: clear, 2 trees (Woods)")
    win.set_layer("grid", False)
    assert "grid" not in win.scene.map_item.layers()
    win.set_layer("grid", True)
    win.view.fit()
    z = win.view.scale_factor()
    win.view.zoom_in()
    assert win.view.scale_factor() > z


def test_screenshot_cli(tmp_path, qtbot):
    from editor.app import main

    out = tmp_path / "s.png"
    assert main([str(SAMPLE), "--screenshot", str(out), "--size", "800x500"]) == 0
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert (img.width(), img.height()) == (800, 500)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main([str(bad), "--screenshot", str(tmp_path / "b.png")]) == 1
    assert not (tmp_path / "b.png").exists()


# ------------------------------------------------------------------------------ fixed gaps
def _drag(qtbot, view, pts):
    """Press at the first lattice point, move through the others with the left button, release."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    vp = view.viewport()
    pos = [view.mapFromScene(QPointF(x * SCENE_PER_X, y * SCENE_PER_Y)) for x, y in pts]
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=pos[0])
    for p in pos[1:]:
        QApplication.sendEvent(vp, QMouseEvent(QEvent.Type.MouseMove, QPointF(p), QPointF(vp.mapToGlobal(p)),
                                               Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                                               Qt.KeyboardModifier.NoModifier))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=pos[-1])


def test_building_corners_drag_insert_delete(win, qtbot):
    doc = win.document
    t = tool(win, "building")
    win.view.resetTransform()
    win.view.scale(0.8, 0.8)
    win.view.centre_on_hex(Hex(17, 5))
    for p in [(50, 10), (52, 10), (53, 11), (50, 12)]:   # lattice corners inside hex 1705
        t.add_point(p)
    bid = t.close_polygon()
    assert doc.hexmap.building_hexes[bid] == {Hex(17, 5)}
    t.set_mode("edit")
    assert t.mode_combo.currentText() == "edit"     # the options panel follows
    click(qtbot, win.view, 51, 11)                  # select the building
    assert t.selected == bid
    n = doc.undo_stack.count()
    # drag corner (53, 11) through some points to near (55, 11): snapped, one undo step
    _drag(qtbot, win.view, [(53, 11), (53.6, 11.1), (54.4, 10.9), (54.9, 11.05)])
    b = doc.hexmap.buildings[bid]
    assert b.polygon == [(50, 10), (52, 10), (55, 11), (50, 12)]
    hexes = doc.hexmap.building_hexes[bid]
    assert Hex(18, 5) in hexes and hexes == edits._hexes_of_polygon(doc.hexmap.building_polygons[bid])
    assert doc.undo_stack.count() == n + 1
    assert check_map(doc.map) == []
    # double-click on the edge (55, 11)-(50, 12): a corner snapped to the lattice is inserted
    click(qtbot, win.view, 52, 11.6, double=True)
    assert doc.hexmap.buildings[bid].polygon == [(50, 10), (52, 10), (55, 11), (52, 12), (50, 12)]
    assert t.vertex == 3
    # click a corner, Delete removes it
    click(qtbot, win.view, 52, 10)
    assert t.vertex == 1
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Delete)
    assert doc.hexmap.buildings[bid].polygon == [(50, 10), (55, 11), (52, 12), (50, 12)]
    assert doc.undo_stack.count() == n + 3
    # a drag making the polygon cross itself is refused
    assert not t.move_vertex(bid, 0, (56, 12))
    for _ in range(3):
        doc.undo_stack.undo()
    assert doc.hexmap.building_hexes[bid] == {Hex(17, 5)}
    assert doc.hexmap.buildings[bid].polygon == [(50, 10), (52, 10), (53, 11), (50, 12)]


def test_copy_paste_takes_named_features(win):
    doc = win.document
    f = tool(win, "feature")
    win.ctx.set_selection({Hex(15, 3), Hex(15, 4), Hex(16, 8)})
    assert f.name_selection("Hill K")
    sel = win.tools.set_tool("select")
    win.ctx.set_selection({Hex(15, 3), Hex(15, 4), Hex(15, 5)})   # part of Hill K (not 1608)
    region = sel.copy()
    assert region.features == (("Hill K", "hill", frozenset({(0, 0, 0), (0, -1, 1)})),)
    r = region
    for _ in range(6):
        r = r.rotated()
    assert r == region
    sel.start_paste()
    sel.press(ToolEvent.at_hex("1205"))
    hm = doc.hexmap
    assert hm.feature_hexes("Hill K") == {Hex(15, 3), Hex(15, 4), Hex(16, 8)}   # unchanged
    assert hm.feature_hexes("Hill K (2)") == {Hex(12, 5), Hex(12, 6)}          # the name was taken
    assert hm.features["Hill K (2)"].kind == "hill"
    assert check_map(doc.map) == []
    doc.undo_stack.undo()
    assert "Hill K (2)" not in doc.hexmap.features
    # into another map, where the name is free: the same name; rotated by 60 degrees
    other = small_doc()
    hexes, fields = edits.paste_region(other.map, other.hexmap, region.rotated(), Hex(12, 5))
    assert [(x.name, x.hexes) for x in fields["features"]] == [("Hill K", ["1105", "1205"])]   # 1504 was below 1503: now below-left


def test_brush_size_control_follows_the_tool(win):
    t = tool(win, "terrain")
    combo = t.size_combo
    assert win.options_dock.widget() is t.options_widget()
    t.size = 7
    assert combo.currentText() == "7 hexes"
    t.size = 19
    assert combo.currentText() == "19 hexes"
    combo.setCurrentIndex(0)
    assert t.size == 1
    with pytest.raises(ValueError):
        t.size = 3


def test_chart_edits_undo_and_atomic_save(win, tmp_path, monkeypatch):
    panel = win.chart_panel
    woods = panel.chart.keys.index("woods")
    before = panel.chart
    old = before.row("woods").observation_base.value
    assert panel.set_value(woods, "observation_base", "3")
    assert panel.dirty and panel.undo_stack.count() == 1
    assert win.ctx.chart is panel.chart
    panel.undo_stack.undo()
    assert panel.chart is before and win.ctx.chart is before
    assert panel.cell_source("woods", "observation_base") != "designer"
    from editor.map.docks import CHART_COLUMNS

    col = 1 + [c for c, _ in CHART_COLUMNS].index("observation_base")
    assert panel.table.item(woods, col).text() == str(old)
    panel.undo_stack.redo()
    assert panel.cell_source("woods", "observation_base") == "designer"
    path = tmp_path / "chart.json"
    assert panel.save(path) and not panel.dirty
    saved = path.read_text()
    assert panel.set_value(woods, "observation_base", "4")

    def broken_replace(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    assert not panel.save(path)
    assert "disk full" in panel.message.text()
    assert path.read_text() == saved                      # the old file is untouched
    assert [p.name for p in tmp_path.iterdir()] == ["chart.json"]   # no temporary file left
    assert panel.dirty


def test_repaint_after_edits_rebuilds_only_what_changed_and_matches(win):
    from PySide6.QtGui import QImage, QPainter
    from editor.drawing.map_geometry import BLOCK
    from editor.drawing.map_painter import MapPainter

    item = win.scene.map_item

    def image(mp):
        img = QImage(400, 300, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(0)
        p = QPainter(img)
        mp.paint(p, target_rect=QRectF(0, 0, 400, 300))
        p.end()
        return img

    image(item.painter)   # geometry cached
    g = item.painter._geometry(None)

    def blocks_of(*hexes):   # the blocks of drawing data holding these hexes and their neighbours
        near = {x for t in hexes for h in [hexgrid.parse_hex_id(t)] for x in [h, *hexgrid.neighbours(h)]}
        return {(x.col // BLOCK, x.row // BLOCK) for x in near if 10 <= x.col <= 20 and 1 <= x.row <= 10}

    blocks_before = dict(g.blocks)
    t = tool(win, "level")
    t.level = 2
    t.stroke_hexes(["1305"])          # over building B1: the buildings change too
    tool(win, "trees").stroke_hexes(["1804", "1805"])
    item.refresh()
    g = item.painter._geometry(None)
    far = set(g.blocks) - blocks_of("1305", "1804", "1805")
    assert far and all(g.blocks[k] is blocks_before[k] for k in far)   # far from the edits: kept
    tr = tool(win, "trees")
    before = dict(g.blocks)
    tr.stroke_hexes(["1909"])         # hexes only: the blocks of 1909 and its neighbours rebuilt, the others kept
    item.refresh()
    assert {k for k in g.blocks if g.blocks[k] is not before[k]} == blocks_of("1909")
    tool(win, "path").draw_path(["1201", "1301", "1401"])
    win.document.undo_stack.undo()
    win.document.undo_stack.undo()
    item.refresh()
    fresh = MapPainter(win.document.hexmap, item.layers())
    fresh.min_id_px = item.painter.min_id_px   # the canvas's readable ids (8 px or none)
    assert image(item.painter) == image(fresh)


def test_building_tool_drawing_keys_modes_and_the_selection_after_undo(win):
    doc = win.document
    t = tool(win, "building")
    t.options_widget()
    n = doc.undo_stack.count()
    for p in [(50, 10), (52, 10), (53, 11), (53, 11)]:   # the same corner twice in a row: once
        t.add_point(p)
    assert len(t.points) == 3 and t.status == "corner 3 at lattice (53, 11); click the first corner to close"
    t.move(ToolEvent.at_scene(QPointF(50.2 * SCENE_PER_X, 12.1 * SCENE_PER_Y)))
    assert t.hover == (50, 12)                 # snapped to the lattice
    band, dots = t._items                      # the rubber band to the mouse, a dot at each corner and the mouse
    assert band.path().elementCount() == 4
    assert dots.path().boundingRect().contains(QPointF(50 * SCENE_PER_X, 12 * SCENE_PER_Y))
    assert t.key(Qt.Key.Key_Backspace, Qt.KeyboardModifier.NoModifier) and len(t.points) == 2
    assert t.key(Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    assert t.points == [] and t.status == "cancelled"
    assert t.hover == (50, 12) and len(t._items) == 2   # the mouse's corner is still shown
    t.set_mode("footprint")
    assert t.mode_combo.currentText() == "footprint" and t.status.startswith("Building: drag over hexes")
    t.set_mode("draw")
    assert t.status == t.help
    with pytest.raises(ValueError, match="building tool modes are"):
        t.set_mode("erase")
    assert doc.undo_stack.count() == n          # nothing drawn, no undo step
    bid = t.add_footprint([Hex(14, 9)])
    assert t.selected == bid
    doc.undo_stack.undo()                       # the selected building is gone: not selected any more
    assert t.selected is None
    for p in [(50, 10), (52, 10)]:
        t.add_point(p)
    tool(win, "select")                         # putting the tool down drops the drawing
    assert t.points == [] and t._items == []
