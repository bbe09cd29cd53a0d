"""The map canvas draws only what is exposed and caches the view: after any edit the
picture in the window is exactly a fresh full redraw of the same document, and a brush step
repaints a bounded part of the map, not the whole of it."""

from __future__ import annotations

import math
import random

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRectF, QSettings  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from maps import building_shapes, hexgrid  # noqa: E402
from maps.hexgrid import Hex, hex_id  # noqa: E402
from editor.drawing.canvas import TILE, MapScene, MapView  # noqa: E402
from editor.map.document import MapDocument  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.drawing.map_geometry import BLOCK
from editor.drawing.map_style import HEX_HEIGHT, HEX_WIDTH, MARGIN_BG
from editor.drawing.map_painter import MapPainter
from editor.drawing.hex_scene import hex_centre_scene
from tests.mapbuilder import make_map  # noqa: E402

COLS, ROWS = (10, 41), (1, 27)   # 32 x 27 hexes


def poly(*hexes: str):
    return [tuple(p) for p in building_shapes.polygon_coords(building_shapes.footprint(list(hexes)))]


def big_doc() -> MapDocument:
    """Trees and levels on 40 % of the hexes (seeded), a marsh, buildings, a road, a gully, a hill."""
    rng = random.Random(15)
    ids = [hex_id(c, r) for c in range(COLS[0], COLS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)]
    chosen = sorted(rng.sample(ids, round(0.4 * len(ids))))
    hm = make_map(COLS, ROWS, trees={h: rng.randint(1, 4) for h in chosen},
                  levels={h: rng.randint(1, 2) for h in chosen}, marsh=["3010", "3011"],
                  buildings={"B1": poly("2005"), "B2": poly("2107", "2108")},
                  roads=[["1801", "1901", "2002", "2102"]], gullies=[["2201", "2202", "2203"]],
                  features={"Hill K": ["2504", "2505"]})
    return MapDocument(hm.doc)


@pytest.fixture(autouse=True)
def tmp_settings(tmp_path, monkeypatch):
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):   # never the user's settings
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))


@pytest.fixture
def win(qtbot):
    w = MainWindow(big_doc(), persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    w.view.fit()
    QApplication.processEvents()
    w.document.undo_stack.setClean()
    return w


def grab(view: MapView) -> QImage:
    """The map in the viewport as the window shows it (through the map item's cache), without
    the tools' overlays (a selected building's outline, the brush cursor)."""
    QApplication.processEvents()
    overlays = [it for it in view.scene().items() if it is not view.scene().map_item and it.isVisible()]
    for it in overlays:
        it.setVisible(False)
    try:
        return view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)
    finally:
        for it in overlays:
            it.setVisible(True)


def fresh_view(win, qtbot) -> MapView:
    """A new scene and view of the same document, at the same zoom and scroll: nothing cached."""
    scene = MapScene()
    scene.set_document(win.document)
    for name in win.scene.map_item.layers() ^ set(scene.map_item.layers()):
        scene.map_item.set_layer(name, name in win.scene.map_item.layers())
    view = MapView(scene)
    qtbot.addWidget(view)
    view._scene = scene   # keep the scene alive with the view
    view.resize(win.view.size())
    view.show()
    view.setTransform(win.view.transform())
    QApplication.processEvents()
    view.horizontalScrollBar().setValue(win.view.horizontalScrollBar().value())
    view.verticalScrollBar().setValue(win.view.verticalScrollBar().value())
    assert view.viewport().size() == win.view.viewport().size()
    assert view.viewportTransform() == win.view.viewportTransform()
    return view


def assert_same_as_fresh(win, qtbot) -> None:
    shown = grab(win.view)
    fresh = grab(fresh_view(win, qtbot))
    assert shown.size() == fresh.size()
    if shown != fresh:
        diff = sum(1 for y in range(shown.height()) for x in range(shown.width())
                   if shown.pixel(x, y) != fresh.pixel(x, y))
        pytest.fail(f"{diff} pixels differ from a fresh full redraw")


def zoom_to(win, zoom: float | None, centre: Hex = Hex(21, 5)) -> None:
    if zoom is None:
        win.view.fit()
    else:
        win.view.resetTransform()
        win.view.scale(zoom, zoom)
        win.view.centre_on_hex(centre)
    grab(win.view)   # painted (and cached) at this zoom before the edits


ZOOMS = [pytest.param(None, id="fit"), pytest.param(0.45, id="45%")]


# ------------------------------------------------------------------------------ the picture after edits
@pytest.mark.parametrize("zoom", ZOOMS)
def test_terrain_level_and_trees_brushes_then_undo_redo_match_a_fresh_redraw(win, qtbot, zoom):
    zoom_to(win, zoom)
    t = win.tools.set_tool("terrain")
    t.terrain = "marsh"
    t.size = 7
    t.stroke_hexes(["2104", "2205"])
    assert_same_as_fresh(win, qtbot)
    lv = win.tools.set_tool("level")
    lv.level = 2
    lv.size = 7
    lv.stroke_hexes(["2306"])              # contours of the neighbours change too
    tr = win.tools.set_tool("trees")
    tr.count = 6
    tr.stroke_hexes(["1904", "2004"])      # next to the road and building B1
    assert_same_as_fresh(win, qtbot)
    lv.level = 0
    lv.size = 1
    lv.stroke_hexes(["1709"])
    assert_same_as_fresh(win, qtbot)
    for _ in range(3):
        win.document.undo_stack.undo()
    assert_same_as_fresh(win, qtbot)
    win.document.undo_stack.redo()
    win.document.undo_stack.redo()
    assert_same_as_fresh(win, qtbot)


@pytest.mark.parametrize("zoom", ZOOMS)
def test_building_road_gully_and_feature_edits_then_undo_match_a_fresh_redraw(win, qtbot, zoom):
    zoom_to(win, zoom)
    t = win.tools.set_tool("terrain")
    t.terrain = "marsh"
    t.size = 1
    t.stroke_hexes(["2108"])               # paints over B2: the building symbol loses a hex
    assert_same_as_fresh(win, qtbot)
    b = win.tools.set_tool("building")
    b.set_mode("footprint")
    bid = b.add_footprint([Hex(23, 4)])    # a new building symbol: the ids' halo follows it
    b.set_number_name(bid, 7, None)
    assert_same_as_fresh(win, qtbot)
    path = win.tools.set_tool("path")
    path.draw_path(["2102", "2203", "2303", "2404"])   # crosses the gully: a bridge
    assert_same_as_fresh(win, qtbot)
    sel = win.tools.set_tool("feature")
    win.ctx.set_selection({Hex(20, 3), Hex(21, 3)})
    sel.name_selection("Wood W")           # the labels make room for each other
    assert_same_as_fresh(win, qtbot)
    for _ in range(5):
        win.document.undo_stack.undo()
    assert_same_as_fresh(win, qtbot)
    for _ in range(5):
        win.document.undo_stack.redo()
    assert_same_as_fresh(win, qtbot)


def test_zoom_scroll_and_layers_after_edits_match_a_fresh_redraw(win, qtbot):
    t = win.tools.set_tool("terrain")
    t.terrain = "marsh"
    t.stroke_hexes(["1505", "3020"])
    zoom_to(win, 0.6, Hex(15, 5))          # a new zoom draws the view anew
    assert_same_as_fresh(win, qtbot)
    t.stroke_hexes(["1606"])
    win.view.horizontalScrollBar().setValue(win.view.horizontalScrollBar().value() + 237)
    win.view.verticalScrollBar().setValue(win.view.verticalScrollBar().value() + 91)
    assert_same_as_fresh(win, qtbot)       # the scrolled-in strips are drawn, the rest kept
    win.set_layer("trees", False)
    assert_same_as_fresh(win, qtbot)
    win.set_layer("trees", True)
    win.set_layer("ids", False)
    assert_same_as_fresh(win, qtbot)


@pytest.mark.parametrize("zoom", [*ZOOMS, pytest.param(4.0, id="400%")])
def test_tiled_view_looks_like_painting_the_whole_map_at_once(win, zoom):
    """The tiles and the culling of blocks change nothing a user could see: the view is what
    painting the whole map with the renderer in one go gives, within a stated tolerance. (A thin
    line that crosses a tile's edge is drawn from where it enters the tile's image, so its
    antialiasing may round a channel a few levels differently: at most 8 of 255, on at most 1 %
    of the pixels; everything else is identical.)"""
    zoom_to(win, zoom)
    t = win.tools.set_tool("trees")
    t.count = 3
    t.stroke_hexes(["2104", "2105", "3015"])
    shown = grab(win.view)
    img = QImage(shown.size(), QImage.Format.Format_ARGB32)
    img.fill(MARGIN_BG)
    p = QPainter(img)
    p.setTransform(win.view.viewportTransform())
    whole = MapPainter(win.document.hexmap, win.scene.map_item.layers())
    whole.min_id_px = win.scene.map_item.painter.min_id_px   # the canvas's readable ids (8 px or none)
    whole.paint(p)
    p.end()
    worst, differ = 0, 0
    for y in range(0, img.height()):
        for x in range(0, img.width()):
            a, b = QColor(shown.pixel(x, y)), QColor(img.pixel(x, y))
            d = max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue()))
            worst = max(worst, d)
            differ += d > 0
    assert worst <= 8
    assert differ <= 0.01 * img.width() * img.height()


# ------------------------------------------------------------------------------ what a step repaints
@pytest.mark.parametrize("zoom", [pytest.param(None, id="fit"), pytest.param(1.0, id="100%")])
def test_a_brush_step_repaints_a_bounded_part_of_the_map(win, zoom):
    zoom_to(win, zoom, Hex(25, 14))
    item = win.scene.map_item
    mp = item.painter
    vp = win.view.viewport()
    in_view = math.ceil(vp.width() / TILE) * math.ceil(vp.height() / TILE)
    scale = win.view.scale_factor()
    t = win.tools.set_tool("terrain")
    t.terrain = "marsh"
    t.size = 1
    t.stroke = None
    for h in (Hex(25, 14), Hex(26, 14)):
        item.last_paint_rect, item.last_tiles = None, 0
        t.paint_at(h)
        grab(win.view)
        (step,) = item.last_update_rects                 # the hex's own rect is invalidated
        assert step.contains(hex_centre_scene(h)) and step.width() < 1.5 * HEX_WIDTH
        # and repainted: the tiles under it, not the whole view
        bound = (math.ceil(step.width() * scale / TILE) + 1) * (math.ceil(step.height() * scale / TILE) + 1)
        assert 0 < item.last_tiles <= bound < in_view / 4
        assert item.last_paint_rect.contains(hex_centre_scene(h))
        # of the blocks of hexes (BLOCK x BLOCK), a tile draws those under it
        assert mp.last_blocks[1] == len(range(COLS[0] // BLOCK, COLS[1] // BLOCK + 1)) * len(
            range(ROWS[0] // BLOCK, ROWS[1] // BLOCK + 1))
        assert mp.last_blocks[0] <= 9 <= mp.last_blocks[1] / 4
    item.last_paint_rect = "not painted"
    win.view.viewport().repaint()              # nothing changed: the cached pixels are shown
    assert item.last_paint_rect == "not painted"


def test_an_edit_rebuilds_and_invalidates_only_what_it_changed(win):
    item = win.scene.map_item
    mp = item.painter
    t = win.tools.set_tool("level")
    t.level = 1
    t.size = 1
    t.stroke_hexes(["3020"])   # hexes only: invalidated where they lie, rebuilt at the next paint
    assert item._pending == {"3020"}
    assert item.last_update_rects == mp.hex_rects(["3020"])
    blocks = dict(mp._geometry(None).blocks)
    assert item.refresh() == mp.hex_rects(["3020"])
    now = mp._geometry(None).blocks

    def blocks_of(h: Hex):   # the blocks holding the hex and its neighbours (for their contours)
        return {(x.col // BLOCK, x.row // BLOCK) for x in [h, *hexgrid.neighbours(h)]}

    assert {k for k in now if now[k] is not blocks[k]} == blocks_of(Hex(30, 20))
    blocks = dict(now)
    win.tools.set_tool("trees").stroke_hexes(["3320"])
    item.refresh()
    assert {k for k in now if now[k] is not blocks[k]} == blocks_of(Hex(33, 20))
    assert len(blocks_of(Hex(33, 20))) == 2 and len(now) > 40   # its neighbour 3319 lies in the block above
    win.tools.set_tool("path").draw_path(["3503", "3603"])   # a road far from the rest
    assert item._stale and item._pending is None   # compared with the drawn map once, before the next paint
    QApplication.processEvents()
    assert not item._stale
    area = QRectF()
    for r in item.last_update_rects:
        area = area.united(r)
    assert area.contains(hex_centre_scene(Hex(35, 3))) and area.contains(hex_centre_scene(Hex(36, 3)))
    assert area.width() < 6 * HEX_WIDTH and area.height() < 6 * HEX_HEIGHT


def test_view_exported_to_svg_is_drawn_in_vectors_not_from_the_cache(win, tmp_path):
    win.tools.set_tool("trees").stroke_hexes(["2104"])
    grab(win.view)                                  # the view is cached as a pixmap
    out = tmp_path / "view.svg"
    win.export(out, whole=False)
    text = out.read_text()
    assert "<image" not in text                     # no pixmap of the view in it
    assert text.count("<path") >= 10 and len(text) > 100_000   # the map's layers as paths
    assert win.scene.map_item.cacheMode() == win.scene.map_item.CacheMode.DeviceCoordinateCache
