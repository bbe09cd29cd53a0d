"""The Obstacle tool (walls, low stone walls, hedges, fences, tank traps): draw with the mouse,
select, re-kind, delete, undo; saved with provenance "designer"; drawn by the map painter."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPointF, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from maps.mapfile import check_map, load_map_file  # noqa: E402
from maps.model import Obstacle, TankTraps  # noqa: E402
from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.map.document import MapDocument  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.drawing.map_style import LAYERS, SCENE_PER_X, SCENE_PER_Y
from editor.drawing.map_painter import MapPainter
from tests.editor.test_canvas_cache import assert_same_as_fresh, big_doc, zoom_to  # noqa: E402
from tests.mapbuilder import make_map  # noqa: E402


@pytest.fixture
def win(qtbot, dialogs):
    w = MainWindow(MapDocument(make_map((10, 20), (1, 10), trees={"1204": 2}).doc), persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    w.view.resetTransform()
    w.view.scale(0.5, 0.5)
    w.view.centerOn(QPointF(45 * SCENE_PER_X, 10 * SCENE_PER_Y))
    w.document.undo_stack.setClean()
    return w


def click(qtbot, view, x, y, double=False, button=Qt.MouseButton.LeftButton):
    pos = view.mapFromScene(QPointF(x * SCENE_PER_X, y * SCENE_PER_Y))
    if double:
        qtbot.mouseDClick(view.viewport(), button, pos=pos)
    else:
        qtbot.mouseClick(view.viewport(), button, pos=pos)


def test_draw_a_wall_with_the_mouse_is_one_undo_step_with_designer_provenance(win, qtbot):
    doc = win.document
    t = win.tools.set_tool("obstacle")
    assert win.tool_actions["obstacle"].shortcut().toString() == "W"
    n = doc.undo_stack.count()
    for x, y in ((36, 8), (42, 8), (42, 14)):
        click(qtbot, win.view, x, y)
    click(qtbot, win.view, 42, 14, double=True)   # a double-click on the last point ends the line
    assert len(doc.map.obstacles) == 1
    w = doc.map.obstacles[0]
    assert (w.id, w.kind, w.provenance.source) == ("W1", "wall", "designer")
    assert [c for p in w.line for c in p] == pytest.approx([36, 8, 42, 8, 42, 14], abs=0.1)
    assert doc.undo_stack.count() == n + 1 and check_map(doc.map) == []
    assert t.selected == ("obstacles", "W1")
    doc.undo_stack.undo()
    assert doc.map.obstacles == [] and t.selected is None
    doc.undo_stack.redo()
    assert [o.id for o in doc.map.obstacles] == ["W1"]


def test_kind_from_the_options_tank_traps_and_escape_backspace_enter(win, qtbot):
    doc = win.document
    t = win.tools.set_tool("obstacle")
    t.options_widget()
    t.kind_combo.setCurrentIndex(t.kind_combo.findData("tank_traps"))
    assert t.kind == "tank_traps"
    t.snap_box.setChecked(True)                                 # snapped to hex centres and corners
    click(qtbot, win.view, 33.2, 12.8)                          # the centres of 1106 and 1306
    click(qtbot, win.view, 38.9, 13.1)
    click(qtbot, win.view, 45, 4)
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Backspace)   # drops (45, 4)
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Return)
    assert [(r.id, r.line) for r in doc.map.tank_traps] == [("T1", [(33, 13), (39, 13)])]
    assert doc.map.obstacles == []
    t.kind_combo.setCurrentIndex(t.kind_combo.findData("hedge"))
    click(qtbot, win.view, 33, 4)
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Escape)      # cancelled: nothing added
    click(qtbot, win.view, 33, 6, button=Qt.MouseButton.RightButton)   # one point only: nothing
    assert doc.map.obstacles == [] and t.points == []
    t.add_point((33, 6))
    t.add_point((39, 6))
    assert t.finish() == "H1"
    assert doc.map.obstacles[0].line == [(33.0, 6.0), (39.0, 6.0)]


def test_select_rekind_and_delete_with_undo(win, qtbot):
    doc = win.document
    t = win.tools.set_tool("obstacle")
    t.options_widget()
    t.add_line("wall", [(36, 8), (42, 8)])
    t.add_line("fence", [(36, 14), (42, 14)])
    t.set_mode("select")
    assert t.mode_combo.currentData() == "select"
    click(qtbot, win.view, 39, 8.1)                  # near the wall
    assert t.selected == ("obstacles", "W1")
    click(qtbot, win.view, 39, 11)                   # nothing near
    assert t.selected is None
    click(qtbot, win.view, 40, 13.9)
    assert t.selected == ("obstacles", "F1") and t.kind_combo.currentData() == "fence"
    n = doc.undo_stack.count()
    t.kind_combo.setCurrentIndex(t.kind_combo.findData("low_stone_wall"))   # re-kind the selected line
    assert [(o.id, o.kind) for o in doc.map.obstacles] == [("W1", "wall"), ("F1", "low_stone_wall")]
    t.kind_combo.setCurrentIndex(t.kind_combo.findData("tank_traps"))      # into the tank traps
    assert [o.id for o in doc.map.obstacles] == ["W1"]
    assert [(r.id, r.line) for r in doc.map.tank_traps] == [("F1", [(36, 14), (42, 14)])]
    assert t.selected == ("tank_traps", "F1")
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Delete)
    assert doc.map.tank_traps == [] and t.selected is None
    assert doc.undo_stack.count() == n + 3 and check_map(doc.map) == []
    for _ in range(3):
        doc.undo_stack.undo()
    assert [(o.id, o.kind) for o in doc.map.obstacles] == [("W1", "wall"), ("F1", "fence")]
    assert doc.map.tank_traps == []
    # a field of tank traps (from a file) cannot become a wall; it is selected by clicking inside
    doc.undo_stack.push(__import__("editor.map.commands", fromlist=["x"]).ObstacleCommand(
        doc, "field", fields={"tank_traps": [TankTraps(id="T9", polygon=[(48, 4), (54, 4), (54, 8), (48, 8)])]}))
    click(qtbot, win.view, 51, 6)
    assert t.selected == ("tank_traps", "T9")
    assert not t.change_kind(("tank_traps", "T9"), "wall") and "polygon" in t.status


def test_obstacles_are_saved_in_the_map_file_with_provenance(win, tmp_path):
    t = win.tools.set_tool("obstacle")
    t.add_line("hedge", [(36, 8), (42.25, 9.5)])
    t.add_line("tank_traps", [(36, 14), (42, 14)])
    path = tmp_path / "m.json"
    win.document.save(path)
    back = load_map_file(path)
    assert back.obstacles == [Obstacle(id="H1", kind="hedge", line=[(36, 8), (42.25, 9.5)],
                                       provenance={"source": "designer"})]
    assert back.tank_traps == [TankTraps(id="T1", line=[(36, 14), (42, 14)], provenance={"source": "designer"})]


def test_resize_drops_obstacles_left_off_the_map(win):
    doc = win.document
    t = win.tools.set_tool("obstacle")
    t.add_line("wall", [(56, 4), (58, 6)])        # column 19
    t.add_line("wall", [(33, 4), (36, 6)])        # columns 11-12
    from editor.map import edits

    out = edits.resize_map(doc.map, doc.hexmap, right=-3)   # keeps columns 10-17
    assert [o.id for o in out.obstacles] == ["W2"] and check_map(out) == []
    same = edits.resize_map(doc.map, doc.hexmap, left=1)
    assert same.obstacles is doc.map.obstacles


def _pixel(img: QImage, x: float, y: float) -> QColor:
    return QColor(img.pixel(round(x * SCENE_PER_X), round(y * SCENE_PER_Y)))


def test_the_painter_draws_walls_dark_hedges_green_and_tank_traps_as_crosses():
    hm = make_map((10, 20), (1, 10))
    doc = hm.doc.model_copy(update={
        "obstacles": [Obstacle(id="W1", kind="wall", line=[(33, 4), (42, 4)]),
                      Obstacle(id="H1", kind="hedge", line=[(33, 10), (42, 10)])],
        "tank_traps": [TankTraps(id="T1", line=[(33, 16), (42, 16)])]})
    from maps.hexmap import HexMap

    def paint(layers):
        img = QImage(round(70 * SCENE_PER_X), round(24 * SCENE_PER_Y), QImage.Format.Format_ARGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        MapPainter(HexMap(doc), layers=layers).paint(p)   # scene coordinates: 1 pixel per scene unit
        p.end()
        return img

    base = set(LAYERS) - {"title", "legend", "grid", "ids"}
    img = paint(base)
    wall, hedge = _pixel(img, 37.5, 4), _pixel(img, 37.5, 10)
    assert max(wall.red(), wall.green(), wall.blue()) < 60                     # solid dark
    assert hedge.green() > hedge.red() + 30 and hedge.green() > hedge.blue() + 30   # green
    row = [QColor(img.pixel(x, round(16 * SCENE_PER_Y))) for x in range(round(34 * SCENE_PER_X), round(41 * SCENE_PER_X))]
    dark = [c.lightness() < 100 for c in row]
    assert any(dark) and not all(dark)                                         # crosses, with gaps
    runs = sum(1 for a, b in zip(dark, dark[1:]) if b and not a)
    assert runs >= 10                                                          # a row of them
    off = paint(base - {"obstacles"})
    assert _pixel(off, 37.5, 4).lightness() > 150
    legend = MapPainter(HexMap(doc))._legend_entries(MapPainter(HexMap(doc))._geometry(None))
    assert {"wall", "hedge", "tank_traps"} <= {k for k, _ in legend}


def test_obstacle_edits_then_undo_match_a_fresh_redraw(qtbot, dialogs):
    w = MainWindow(big_doc(), persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    w.view.fit()
    QApplication.processEvents()
    zoom_to(w, 0.45)
    t = w.tools.set_tool("obstacle")
    t.add_line("wall", [(60, 8), (66, 9), (66, 14)])
    t.add_line("tank_traps", [(70, 4), (76, 12)])
    assert_same_as_fresh(w, qtbot)
    t.set_mode("select")
    t.select(("obstacles", "W1"))
    t.change_kind(("obstacles", "W1"), "hedge")
    t.delete(("tank_traps", "T1"))
    assert_same_as_fresh(w, qtbot)
    for _ in range(4):
        w.document.undo_stack.undo()
    assert_same_as_fresh(w, qtbot)
    assert w.scene.map_item.last_update_rects   # an obstacle edit invalidates a part, not everything


def test_escape_mode_change_and_putting_the_tool_down_drop_the_line_being_drawn(win, qtbot):
    from editor.map.drawing_tool import DrawingTool

    doc = win.document
    t = win.tools.set_tool("obstacle")
    assert isinstance(t, DrawingTool)
    t.options_widget()
    n = doc.undo_stack.count()
    click(qtbot, win.view, 36, 8)
    click(qtbot, win.view, 42, 8)
    assert t.status == "wall: point 2; double-click or Enter ends it"
    t.move(ToolEvent.at_scene(QPointF(42 * SCENE_PER_X, 14 * SCENE_PER_Y)))
    assert t.hover == pytest.approx((42, 14), abs=0.01)
    band, dots = t._items                       # the rubber band through the points to the mouse, and the dots
    assert band.path().elementCount() == 3 and dots.path().boundingRect().bottom() < 9 * SCENE_PER_Y
    last = band.path().elementAt(2)
    assert (last.x, last.y) == pytest.approx((42 * SCENE_PER_X, 14 * SCENE_PER_Y), abs=1)
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Escape)
    assert (t.points, t.hover, t._items, t.status) == ([], None, [], "cancelled")
    for p in ((36, 8), (42, 8)):
        t.add_point(p)
    t.set_mode("select")                        # a change of mode drops it; the options follow
    assert t.points == [] and t.mode_combo.currentData() == "select" and t._items == []
    assert t.status.startswith("Obstacle: click a line to select it")
    t.set_mode("draw")
    assert t.status == t.help
    with pytest.raises(ValueError, match="obstacle tool modes are"):
        t.set_mode("erase")
    t.add_point((36, 8))
    win.tools.set_tool("select")                # putting the tool down drops it too
    assert t.points == [] and t.hover is None
    assert doc.undo_stack.count() == n and doc.map.obstacles == []   # nothing drawn, no undo step


def test_kind_set_in_code_shows_in_the_options_and_rekinds_the_selection_once(win):
    doc = win.document
    t = win.tools.set_tool("obstacle")
    t.options_widget()
    t.add_line("wall", [(36, 8), (42, 8)])
    t.set_mode("select")
    t.select(("obstacles", "W1"))
    n = doc.undo_stack.count()
    t.set_kind("hedge")                         # the combo follows without re-kinding a second time
    assert t.kind_combo.currentData() == "hedge" and doc.undo_stack.count() == n + 1
    assert [(o.id, o.kind) for o in doc.map.obstacles] == [("W1", "hedge")]
    doc.undo_stack.undo()                       # the selection stays (W1 still there), redrawn
    assert t.selected == ("obstacles", "W1") and doc.map.obstacles[0].kind == "wall"
    t.select(("obstacles", "W1"))
    assert t.kind_combo.currentData() == "wall"
