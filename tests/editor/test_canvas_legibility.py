"""A designer's map at working zooms: labels off the counters, hex ids readable or hidden with a
tooltip at every zoom, the view fitted to the scenario's sections with the rest dimmed, a legend
and a status bar that stay within the window, cut tree cells readable, the Play mode's status for
the dock in front, the features list showing the name just given.

Headless (pytest-qt, QT_QPA_PLATFORM=offscreen); dialogs are patched so nothing blocks."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, QPointF, QRectF  # noqa: E402
from PySide6.QtGui import QTransform  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from maps import hexgrid  # noqa: E402
from editor.drawing.canvas import MIN_ID_PX  # noqa: E402
from editor.drawing.map_style import ID_PX  # noqa: E402
from editor.drawing.pieces import hex_centre  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.overlay import LegendItem, ZoneLabelsItem, heat_items  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
S1 = DATA / "scenario_1_demyansk_pocket.json"
S3 = DATA / "scenario_3_closing_the_ring.json"
W, H = 1366, 768

pytestmark = pytest.mark.usefixtures("dialogs")  # tests/editor/conftest.py


@pytest.fixture
def win(qtbot):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(W, H)
    w.show()
    assert w.open_file(S1)
    QApplication.processEvents()
    yield w
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


def _place_germans(w, n=6):
    doc = w.scenario_ctl.doc
    for uid in doc.setup().deployments[0].units[:n]:
        assert doc.place(uid, "4307" if len(doc.placement) < n // 2 else "4308") is None
    return doc


# ------------------------------------------------------------------------------------ item 1
def test_1_labels_never_cover_a_counter_a_heat_circle_or_the_small_area_they_name(win):
    """Scenario 3's victory area (Hill J or Hill K, 20 hexes) and Scenario 1's German zone (20
    hexes) are small at the fitted zoom: their labels stand beside them with a leader line; no
    label covers a placed counter or a heat circle, at the fit and two zooms in."""
    ctl = win.scenario_ctl
    _place_germans(win)
    ctl.overlay.set_layer("heat", heat_items({"4306": 4, "4406": 2}, QColor_orange()))
    ctl.fit()
    view = QRectF(win.view.viewport().rect())
    for zoom in (None, 1.6, 1.6):
        if zoom:
            win.view.zoom_by(zoom)
            win.view.centre_on_hex(hexgrid.parse_hex_id("4308"))
        item = ctl.overlay.layers["labels"][0]
        assert isinstance(item, ZoneLabelsItem)
        avoid = item.avoid_rects()
        assert len(avoid) >= 4   # two counter hexes and two heat circles
        tr = win.view.viewportTransform()
        placed = item.layout(tr, avoid, view)
        assert placed
        for text, _c, r in placed:
            assert not any(r.intersects(tr.mapRect(a)) for a in avoid), (zoom, text)
    # at the fit the German zone is small: its label is outside it, with a leader line to it
    ctl.fit()
    tr = win.view.viewportTransform()
    item = ctl.overlay.layers["labels"][0]
    item.layout(tr, item.avoid_rects(), view)
    zone = {h for h in ctl.doc.resolve(ctl.doc.scenario.german.groups[0].setup.region)[0]}
    german = next(x for x in item.last_placed if x[0].startswith("German force"))
    _t, _c, box, leader = german
    assert leader is not None
    covered = [h for h in zone if box.contains(tr.map(hex_centre(h)))]
    assert covered == []
    tip = hexgrid.point_to_hex(*_lattice(tr.inverted()[0].map(leader[1])))
    assert tip.id in zone                  # the leader line ends on the area it names
    # Scenario 3: "Hill J or Hill K (20)" is beside the hills, never on them
    win.scenario_ctl.open(S3)
    ctl = win.scenario_ctl
    ctl.fit()
    QApplication.processEvents()
    tr = win.view.viewportTransform()
    item = ctl.overlay.layers["labels"][0]
    item.layout(tr, item.avoid_rects(), view)
    hills = set(ctl.doc.hexmap.feature_hexes("Hill J")) | set(ctl.doc.hexmap.feature_hexes("Hill K"))
    hill_lab = next(x for x in item.last_placed if x[0].startswith("Hill J or Hill K"))
    assert hill_lab[3] is not None
    assert not [h for h in hills if hill_lab[2].intersects(_hex_box(tr, h.id))]
    # the legend names the victory area, also when its label finds no room
    legend = ctl.overlay.layers["legend"][0]
    assert any(t == "victory area: Hill J or Hill K" for _s, _c, t in legend.entries)


def QColor_orange():  # noqa: N802
    from PySide6.QtGui import QColor

    return QColor(255, 120, 0)


def _lattice(p: QPointF) -> tuple[float, float]:
    from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y

    return p.x() / SCENE_PER_X, p.y() / SCENE_PER_Y


def _hex_box(tr: QTransform, hid: str) -> QRectF:
    """The device box of the middle of a hex (a label touching only its rim does not hide it)."""
    c = hex_centre(hid)
    return tr.mapRect(QRectF(c.x() - 30, c.y() - 30, 60, 60))


# ------------------------------------------------------------------------------------ item 2
def test_2_hex_ids_are_readable_or_hidden_and_the_tooltip_names_the_hex_at_every_zoom(win):
    painter = win.scene.map_item.painter
    # 11-17 px/hex (fit): no ids (they would be 2-3 px); 27-34 px/hex: ids drawn at 8 px at least
    for px_per_hex in (11, 17):
        assert painter.id_scale(px_per_hex / 100) is None, px_per_hex
    for px_per_hex in (27, 34, 60, 120):
        k = painter.id_scale(px_per_hex / 100)
        assert k is not None and ID_PX * k * px_per_hex / 100 >= MIN_ID_PX - 1e-6, px_per_hex
    assert painter.id_scale(1.0) == 1.0   # printed size where it is readable
    # the fitted view shows no ids: the painted view has no text smaller than 8 px
    win.view.fit()
    assert win.view.scale_factor() * 100 < 20 and painter.id_scale(win.view.scale_factor()) is None
    # the mine, IP and hidden tags: a band without text when their text would be under 8 px
    doc = _place_germans(win, 2)
    zone = sorted(doc.resolve(doc.scenario.german.groups[0].setup.region)[0])
    assert doc.mark_hidden("german", next(h for h in zone if h not in ("4307", "4308"))) is None
    from editor.scenario.overlay import MIN_TEXT_PX

    tags = [it for it in win.scenario_ctl.overlay.layers["marks"] if type(it).__name__ == "_TagItem"]
    assert tags
    for t in tags:
        assert t.text_px(QTransform.fromScale(0.17, 0.17)) < MIN_TEXT_PX <= t.text_px(QTransform.fromScale(0.6, 0.6))
    # the tooltip names the hex and what is in it, at the fit and zoomed in
    h = next(iter(doc.hidden))
    for zoom in (None, 3.0):
        if zoom:
            win.view.zoom_by(zoom)
        win.view.centre_on_hex(hexgrid.parse_hex_id(h))
        tip = win.hex_tooltip(hexgrid.parse_hex_id(h))
        assert tip.startswith(f"{h}: ") and "hidden hex (german)" in tip
    tip = win.hex_tooltip(hexgrid.parse_hex_id("4307"))
    names = [doc.setup().units[u].name for u, p in doc.placement.items() if p.hex == "4307"]
    assert "set-up: " in tip and all(n in tip for n in names)
    assert "level" in win.hex_tooltip(hexgrid.parse_hex_id("4512"))   # Hill K: its level
    # the view shows that text as its tooltip
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    vp = win.view.viewport()
    pos = win.view.mapFromScene(hex_centre("4307"))
    QApplication.sendEvent(vp, QHelpEvent(QEvent.Type.ToolTip, pos, vp.mapToGlobal(pos)))
    assert QToolTip.text().startswith("4307: ") and "set-up: " in QToolTip.text()


# ------------------------------------------------------------------------------------ item 3
def test_3_fit_map_fits_the_scenarios_sections_and_dims_the_rest(win):
    ctl = win.scenario_ctl
    assert ctl.doc.scenario.map.sections == ["Map 2"]
    for mode in ("scenario", "play"):
        win.set_mode(mode)
        win.view.resetTransform()
        next(a for a in win.view_menu.actions() if a.text() == "&Fit map").trigger()
        QApplication.processEvents()
        vis = win.view.mapToScene(win.view.viewport().rect()).boundingRect()
        for hid in ("3001", "5027", "4015"):   # Map 2's corners and middle in view
            assert vis.contains(hex_centre(hid)), (mode, hid)
        assert not vis.contains(hex_centre("1015"))   # Map 1's middle not: Map 2 in the middle
        assert abs(vis.center().x() - hex_centre("4015").x()) < 0.05 * vis.width(), mode
        fitted = win.view.scale_factor()
        win.view.fit_whole()
        assert fitted > 1.1 * win.view.scale_factor(), mode   # closer than the whole sheet (fitted to its height)
    # the rest of the sheet is dimmed, the playing area not
    dim = ctl.overlay.layers["outside"]
    assert len(dim) == 1
    assert dim[0].contains(hex_centre("1015")) and dim[0].contains(hex_centre("6515"))
    assert not dim[0].contains(hex_centre("4015"))
    # in the Map mode, Fit map shows the whole sheet
    win.set_mode("map")
    win.view.fit()
    vis = win.view.mapToScene(win.view.viewport().rect()).boundingRect()
    assert vis.contains(hex_centre("1015")) and vis.contains(hex_centre("6515"))


# ------------------------------------------------------------------------------------ item 11
def test_11_the_legend_stays_within_the_view_in_scenario_and_play_modes(win):
    ctl = win.scenario_ctl
    for mode in ("scenario", "play"):
        win.set_mode(mode)
        ctl.fit()
        QApplication.processEvents()
        legend = ctl.overlay.layers["legend"][0]
        assert isinstance(legend, LegendItem)
        box = legend.deviceTransform(win.view.viewportTransform()).mapRect(legend.boundingRect())
        assert QRectF(win.view.viewport().rect()).contains(box), (mode, box)
    # a narrow view wraps it into more rows
    legend = ctl.overlay.layers["legend"][0]
    wide = legend.boundingRect().width()
    legend.wrap(wide * 0.6)
    assert legend.boundingRect().width() <= wide * 0.6 and legend.rows > LegendItem.ROWS


def test_11_the_status_bar_hex_text_never_runs_into_the_tool_message(win):
    from editor.drawing.widgets import ElidedLabel

    lab = win.hex_label
    assert isinstance(lab, ElidedLabel)
    long = "4512: clear, level 1, Hill K, a building with a long name  [reconstructed: " + "x" * 200 + "]"
    lab.setText(long)
    QApplication.processEvents()
    shown = lab.shown_text()
    assert lab.fontMetrics().horizontalAdvance(shown) <= lab.contentsRect().width()
    assert shown.endswith("…") and lab.toolTip() == long and lab.text() == long
    assert lab.geometry().right() < win.tool_label.geometry().left() + 1


def test_11_the_play_status_bar_speaks_of_the_dock_in_front(win):
    ctl = win.scenario_ctl
    win.set_mode("play")
    for name, word in (("playtest", "Playtest:"), ("watch", "Watch:"), ("hotseat", "Hot-seat:")):
        ctl.docks[name].raise_()
        QApplication.processEvents()
        assert win.dock_on_top(ctl.docks[name]), name   # its tab is shown, and in front
        assert win.tool_label.text().startswith(word), (name, win.tool_label.text())


def test_11_a_cut_tree_cell_shows_its_whole_text(win):
    from editor.drawing.widgets import cut_cell_text

    ctl = win.scenario_ctl
    win.set_mode("scenario")
    ctl.docks["oob"].raise_()
    QApplication.processEvents()
    # a long line as a hand-edited file may have it (the dock itself refuses lines it cannot build)
    ctl.doc.edit("a long OOB line", lambda d: d["german"]["groups"][0]["oob"].append(
        {"kind": "squad", "letter": "D", "text": "Squad D (9) less R PR10 and LMG PR9 and MP PR9"}))
    QApplication.processEvents()
    tree = ctl.oob.tree
    tree.expandAll()
    QApplication.processEvents()
    hits = []
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while stack:
        it = stack.pop()
        stack += [it.child(i) for i in range(it.childCount())]
        if it.text(0).startswith("Squad D (9) less"):
            tree.scrollToItem(it)
            QApplication.processEvents()
            r = tree.visualItemRect(it)
            hits.append(cut_cell_text(tree, QPoint(r.left() + 5, r.center().y())))
    assert hits and hits[0].startswith("Squad D (9) less R PR10 and LMG PR9")
    ctl.doc.undo_stack.undo()


# ------------------------------------------------------------------------------------ item 12
def test_12_the_features_list_shows_the_name_just_given(qtbot):
    from maps.mapfile import save_map  # noqa: F401
    from tests.mapbuilder import make_map

    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(W, H)
    w.show()
    w.set_document(__import__("editor.map.document", fromlist=["MapDocument"]).MapDocument(
        make_map((10, 30), (1, 12)).doc))
    tool = w.tools.set_tool("feature")
    QApplication.processEvents()
    for i in range(14):
        w.ctx.set_selection({hexgrid.Hex(10 + i, 2)})
        assert tool.name_selection(f"Hill {chr(65 + i)}")
    QApplication.processEvents()
    lst = tool.list
    assert lst.height() >= 8 * lst.fontMetrics().height()   # more than four rows in view
    cur = lst.currentItem()
    assert cur is not None and cur.text() == "Hill N"
    assert lst.viewport().rect().contains(lst.visualItemRect(cur))
    w.document.undo_stack.setClean()


def test_a_feature_label_never_cuts_a_printed_hex_id(qtbot):
    """A hill of four hexes named "Hill Z": its label at the centroid ended over "44" of 4420 and
    read "Hill Z20". Every printed id near a label is left whole: clear of it or wholly under it."""
    from editor.drawing.map_geometry import _id_rect
    from editor.drawing.map_painter import MapPainter
    from maps.hexgrid import Hex
    from tests.mapbuilder import make_map

    hill = ["4319", "4320", "4419", "4420"]
    m = make_map(cols=(40, 47), rows=(15, 25), levels={h: 1 for h in hill}, features={"Hill Z": hill})
    g = MapPainter(m)._geometry(None)
    (lab,) = g.labels
    painter = MapPainter(m)
    r = painter._label_rect(lab)
    for c in range(40, 48):
        for row in range(15, 26):
            idr = _id_rect(Hex(c, row))
            assert not r.intersects(idr) or r.contains(idr), f"the label cuts the id of {c:02d}{row:02d}"
