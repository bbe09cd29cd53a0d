"""Legible at a laptop's size and never a traceback:

6. game views (Watch, Hot-seat) hide the designer's layers; a View menu toggles each scenario
   layer and its opacity; Watch plays game N of the Playtest panel's batch with its players and
   rules; Hot-seat can start from the designer's set-up;
9. at 1366 x 768 nothing is cut: the window is organised in Map / Scenario / Play modes, each with
   its own docks and layout;
10. zones are outlines with light fills, one colour per group, a legend; labels never overlap; the
    compass is in the margin; heat circles stand out over zones; "hidden" tags stay off counters;
11. regions and the game log are named as a designer says them;
12. the small ones (status bar after a paint, facing feedback, map name, quiet --screenshot,
    --los framing, report titles);
13. a seeded random-input run raises nothing and every document still validates.

Headless (pytest-qt, QT_QPA_PLATFORM=offscreen); dialogs are patched so nothing blocks.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QApplication,
    QDockWidget,
    QFormLayout,
    QPushButton,
    QScrollArea,
    QTabBar,
    QToolButton,
)

from maps import hexgrid  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.modes import MODE_TOOLS  # noqa: E402
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y  # noqa: E402
from editor.drawing.pieces import FILL_ALPHA, CountersItem, hex_centre
from editor.scenario.overlay import TAG_TOP, CompassRoseItem, LegendItem, ZoneLabelsItem, map_top
from tests.mapbuilder import make_map  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
S1 = DATA / "scenario_1_demyansk_pocket.json"
S3 = DATA / "scenario_3_closing_the_ring.json"
S4 = DATA / "scenario_4_tula.json"
S6 = DATA / "scenario_6_spartakovka.json"
W, H = 1366, 768


pytestmark = pytest.mark.usefixtures("dialogs")  # tests/editor/conftest.py


def window(qtbot, path=S1, size=(W, H), persist=False) -> MainWindow:
    w = MainWindow(persist_settings=persist)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    assert w.open_file(path)
    QApplication.processEvents()
    return w


def close(w) -> None:
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


@pytest.fixture
def win(qtbot):
    w = window(qtbot)
    yield w
    close(w)


# ------------------------------------------------------------------------------------ item 9
def cut_widgets(w) -> list[str]:
    """What the window shows cut: a button narrower than its size hint, a tab narrower than its
    title, a dock whose panel needs a horizontal scroll bar (only what is on screen counts)."""
    out = []
    for b in w.findChildren(QPushButton) + w.findChildren(QToolButton):
        if b.isVisible() and not b.visibleRegion().isEmpty() and b.width() < b.sizeHint().width():
            out.append(f"button {b.text()!r}: {b.width()} < {b.sizeHint().width()}")
    for tb in w.findChildren(QTabBar):
        if tb.isVisible() and not tb.visibleRegion().isEmpty():
            for i in range(tb.count()):
                if tb.tabRect(i).width() < tb.tabSizeHint(i).width():
                    out.append(f"tab {tb.tabText(i)!r}: {tb.tabRect(i).width()} < {tb.tabSizeHint(i).width()}")
    for sa in w.findChildren(QScrollArea):
        if sa.isVisible() and not sa.visibleRegion().isEmpty() and sa.horizontalScrollBar().isVisible() \
                and isinstance(sa.parentWidget(), QDockWidget):
            out.append(f"dock {sa.parentWidget().windowTitle()!r} scrolls sideways")
    return out


def test_9_every_mode_fits_1366_by_768_with_nothing_cut(win):
    assert win.size().width() == W and win.size().height() == H
    seen = set()
    for mode in ("map", "scenario", "play"):
        assert win.set_mode(mode)
        QApplication.processEvents()
        docks = win.mode_docks[mode]
        assert docks and all(not d.isHidden() for d in docks)
        # the other modes' docks are hidden, and so are their tab bars
        others = [d for m, ds in win.mode_docks.items() if m != mode for d in ds]
        assert all(d.isHidden() for d in others)
        titles = {d.windowTitle() for d in docks}
        for tb in win.findChildren(QTabBar):
            if tb.parent() is win and tb.isVisible() and tb.count():
                assert {tb.tabText(i) for i in range(tb.count())} <= titles, mode
        # the mode's tools on the tool bars shown, the others' not
        shown = {a for tb in win.mode_bars.values() if tb.isVisible() for a in tb.actions()}
        for name, a in win.tool_actions.items():
            assert (a in shown) == (name in MODE_TOOLS[mode]), (mode, name)
            assert a.isEnabled()   # its shortcut works in every mode
        for d in docks:   # each dock in front in turn
            d.raise_()
            QApplication.processEvents()
            assert win.dock_on_top(d)
            assert cut_widgets(win) == [], (mode, d.windowTitle())
            seen.add(d.windowTitle())
        # the tool bars show every action (nothing in an overflow menu)
        for tb in (win.modes_bar, win.mode_bars[mode]):
            for a in tb.actions():
                if a.isVisible() and not a.isSeparator():
                    wdg = tb.widgetForAction(a)
                    assert wdg is not None and wdg.isVisible(), (mode, a.text())
    assert {"Scenario", "Orders of battle", "Counter roster", "Set-up", "Regions", "Victory", "Validation",
            "Playtest", "Watch", "Hot-seat", "Terrain chart", "LOS / Sighting Chart"} <= seen


def fully_shown(wdg) -> bool:
    """Whether a widget is on screen in full (not below the fold of a scroll area, not cut)."""
    return wdg.isVisible() and wdg.visibleRegion().boundingRect() == wdg.rect()


def test_9_the_legend_status_bar_and_everyday_rows_fit_without_scrolling(qtbot):
    """At 1366 x 768 in the default layout: the map legend within the view (Scenario and Play
    modes), the status bar's hex text clear of the tool's message, the Victory dock's selected
    outcome (result, condition, side) and *Evaluate now*, the Playtest dock's *Run batch* and heat
    map choice, all without scrolling."""
    w = window(qtbot, S3)
    ctl = w.scenario_ctl
    for mode in ("scenario", "play"):
        assert w.set_mode(mode)
        ctl.fit()
        QApplication.processEvents()
        legend = ctl.overlay.layers["legend"][0]
        box = legend.deviceTransform(w.view.viewportTransform()).mapRect(legend.boundingRect())
        assert QRectF(w.view.viewport().rect()).contains(box), mode
        assert w.hex_label.geometry().right() <= w.tool_label.geometry().left(), mode
    w.set_mode("scenario")
    ctl.docks["victory"].raise_()
    v = ctl.victory
    v.tree.setCurrentItem(v.tree.topLevelItem(0))
    QApplication.processEvents()
    rows = [v.form.itemAt(i, QFormLayout.ItemRole.FieldRole).widget() for i in range(min(4, v.form.rowCount()))
            if v.form.itemAt(i, QFormLayout.ItemRole.FieldRole) is not None]
    assert len(rows) >= 3 and all(fully_shown(r) for r in rows[:4]), [r.geometry() for r in rows]
    w.set_mode("play")
    ctl.docks["playtest"].raise_()
    QApplication.processEvents()
    p = ctl.playtest
    assert fully_shown(p.run_btn) and fully_shown(p.heat) and fully_shown(p.games)
    close(w)


def test_9_the_scenario_form_has_no_gaps(win):
    win.set_mode("scenario")
    d = win.scenario_ctl.docks["properties"]
    d.raise_()
    QApplication.processEvents()
    form: QFormLayout = win.scenario_ctl.properties.form
    rows = []
    for i in range(form.rowCount()):
        item = form.itemAt(i, QFormLayout.ItemRole.FieldRole) or form.itemAt(i, QFormLayout.ItemRole.SpanningRole)
        if item is not None and item.widget() is not None:
            rows.append(item.widget().geometry())
    rows.sort(key=lambda r: r.top())
    gaps = [b.top() - a.bottom() for a, b in zip(rows, rows[1:])]
    assert len(rows) >= 9 and max(gaps) <= 16, gaps


def test_9_each_mode_keeps_its_own_layout(qtbot, tmp_path):
    w = window(qtbot, persist=True)
    assert str(tmp_path) in w.settings.fileName()
    ctl = w.scenario_ctl
    assert w.mode == "scenario"   # opening a scenario shows the Scenario mode
    ctl.docks["history"].hide()
    ctl.docks["victory"].raise_()
    assert w.set_mode("play")
    assert all(ctl.docks[n].isHidden() for n in ("history", "victory", "regions", "oob"))
    ctl.docks["watch"].raise_()
    assert w.set_mode("map") and w.options_dock.isVisible() and ctl.docks["watch"].isHidden()
    assert w.set_mode("scenario")
    assert ctl.docks["history"].isHidden() and w.dock_on_top(ctl.docks["victory"])
    assert w.set_mode("play") and w.dock_on_top(ctl.docks["watch"])
    # a tool of another mode switches to its mode, also by its shortcut
    from PySide6.QtTest import QTest

    w.tools.set_tool("terrain")
    assert w.mode == "map"
    w.view.setFocus()
    QTest.keyClick(w.view, Qt.Key.Key_N)
    assert w.tools.current.name == "north" and w.mode == "scenario"
    QTest.keyClick(w.view, Qt.Key.Key_T)
    assert w.tools.current.name == "terrain" and w.mode == "map"
    w.tools.set_tool("region")
    assert w.mode == "scenario" and w.dock_on_top(ctl.docks["regions"])   # the tool's dock in front
    ctl.docks["victory"].raise_()
    # the layouts are remembered with the settings
    close(w)
    w.close()
    w2 = window(qtbot, persist=True)
    assert w2.mode == "scenario" and w2.scenario_ctl.docks["history"].isHidden()
    assert w2.dock_on_top(w2.scenario_ctl.docks["victory"])
    close(w2)


def test_9_mode_switches_leave_nothing_behind(win):
    """A long session switches modes many times: a switch hides and shows docks and never makes
    new tab bars (``QMainWindow.restoreState`` made about four a switch), and nothing else the
    window owns grows from one cycle through the modes to the next (once Qt's deferred deletions,
    which its event loop runs, are done)."""
    from PySide6.QtCore import QCoreApplication, QEvent, QObject

    def cycle():
        for mode in ("scenario", "play", "map"):
            assert win.set_mode(mode)
            QApplication.processEvents()

    cycle()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    bars = len(win.findChildren(QTabBar))
    owned = len(win.findChildren(QObject))
    for _ in range(2):
        cycle()
    assert len(win.findChildren(QTabBar)) == bars   # counted before any deferred deletion runs
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert len(win.findChildren(QObject)) <= owned


def test_9_a_layout_saved_by_an_earlier_version_restores_at_the_start(qtbot):
    """Layouts saved one ``saveState`` per mode (version 2) are restored on the first entry of
    their mode, then saved as the one layout with each mode's view."""
    w = window(qtbot)
    ctl = w.scenario_ctl
    ctl.docks["history"].hide()
    ctl.docks["victory"].raise_()
    QApplication.processEvents()
    w.settings.setValue("windowState/scenario", w.saveState(2))
    close(w)
    w.close()
    w2 = window(qtbot, persist=True)
    ctl2 = w2.scenario_ctl
    assert w2.mode == "scenario" and ctl2.docks["history"].isHidden() and w2.dock_on_top(ctl2.docks["victory"])
    assert w2.set_mode("map") and w2.options_dock.isVisible() and ctl2.docks["victory"].isHidden()
    close(w2)
    w2.close()
    assert w2.settings.value("windowState/scenario") is None and w2.settings.value("windowLayout") is not None
    w3 = window(qtbot, persist=True)
    assert w3.scenario_ctl.docks["history"].isHidden() and w3.dock_on_top(w3.scenario_ctl.docks["victory"])
    close(w3)


def test_9_scenario_and_play_need_a_scenario(qtbot):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    assert w.mode == "map"
    assert not w.mode_actions["scenario"].isEnabled() and not w.mode_actions["play"].isEnabled()
    assert not w.set_mode("play") and w.mode == "map"
    w.document.undo_stack.setClean()


# ------------------------------------------------------------------------------------ item 6
def _tula_with_a_setup(w):
    """Scenario 4 with some German units, Russian hidden hexes and mines placed."""
    w.scenario_ctl.open(S4)
    doc = w.scenario_ctl.doc
    st = doc.setup()
    placed = {}
    for uid, u in st.units.items():
        if u.side == "german" and not u.is_afv and len(placed) < 4:
            h = sorted(doc.unit_zone(uid))[len(placed)]
            assert doc.place(uid, h) is None
            placed[uid] = h
    rz = sorted(doc.unit_zone("R-45AT-1"))
    assert doc.mark_hidden("russian", rz[1]) is None
    assert doc.set_mines("russian", rz[5], at=4) is None
    return doc, placed


def test_6_game_views_hide_the_designers_layers(win, tmp_path):
    doc, _placed = _tula_with_a_setup(win)
    ctl = win.scenario_ctl
    ov = ctl.overlay
    assert ov.visible_items("units") and ov.visible_items("marks") and ov.visible_items("zones")
    from editor.play.game_record import GameRecording

    rec = GameRecording.play(str(doc.playable_copy(tmp_path)), 3, {"german": "random", "russian": "random"},
                             max_actions=120)
    ctl.watch.set_recording(rec)
    ctl.watch.go(60)
    assert win.set_mode("play")
    ctl.docks["watch"].raise_()
    QApplication.processEvents()
    assert ctl.game_view == "watch"
    # the game's counters, never the trial set-up, the hidden hexes or the mines with them
    assert ov.visible_items("game") and not ov.visible_items("units") and not ov.visible_items("marks")
    assert ov.visible_items("zones")   # the zones stay (light), to see where units set up
    ctl.docks["playtest"].raise_()
    QApplication.processEvents()
    assert ctl.game_view is None and ov.visible_items("units") and not ov.visible_items("game")
    ctl.hotseat.new_game()
    ctl.docks["hotseat"].raise_()
    QApplication.processEvents()
    assert ctl.game_view == "hotseat"
    assert ov.visible_items("hotseat") and not ov.visible_items("game") and not ov.visible_items("units")
    assert win.set_mode("scenario")
    assert ctl.game_view is None and ov.visible_items("units") and not ov.visible_items("hotseat")


def test_6_view_menu_toggles_each_layer_and_its_opacity(win):
    _tula_with_a_setup(win)
    ctl = win.scenario_ctl
    ov = ctl.overlay
    labels = {a.text() for a in ctl.layer_actions.values()}
    assert labels == {"Zones", "Zone labels and legend", "Trial set-up", "Hidden hexes and mines", "Heat map",
                      "North and compass"}
    ctl.playtest.heat_changed.emit({"1204": 3, "1305": 1}, "eliminations")
    for key, layers in (("zones", ("zones",)), ("labels", ("labels", "legend")), ("setup", ("units",)),
                        ("marks", ("marks",)), ("heat", ("heat",)), ("compass", ("compass",))):
        assert all(ov.visible_items(n) for n in layers), key
        ctl.layer_actions[key].trigger()          # off
        assert not any(ov.visible_items(n) for n in layers), key
        ctl.layer_actions[key].trigger()          # on again
        assert all(ov.visible_items(n) for n in layers), key
        ctl.opacity_actions[key][50].trigger()
        assert all(it.opacity() == 0.5 for n in layers for it in ov.layers[n]), key
    # a redrawn layer keeps its opacity and its visibility
    ctl.layer_actions["zones"].trigger()
    ctl.redraw("scenario")
    assert not ov.visible_items("zones") and all(it.opacity() == 0.5 for it in ov.layers["zones"])


def test_6_watch_plays_game_n_of_the_batch_with_the_playtest_settings(win, qtbot, tmp_path):
    from core.dice import derive_seed
    from core.playtest import play_game

    ctl = win.scenario_ctl
    p = ctl.playtest
    p.seed.setValue(11)
    p.ai["german"].setCurrentText("random")
    p.ai["russian"].setCurrentText("heuristic")
    p.rules.setCurrentText("basic")
    assert "German random vs Russian heuristic, basic rules" in ctl.watch.settings_label.text()
    ctl.watch.game_no.setValue(3)
    assert ctl.watch.start_game()
    qtbot.waitUntil(lambda: ctl.watch.recording is not None, timeout=120000)
    rec = ctl.watch.recording
    assert rec.header["seed"] == derive_seed(11, 2)
    assert rec.header["ai"] == {"german": "random", "russian": "heuristic"} and rec.header["rules"] == "basic"
    res = play_game(str(ctl.doc.playable_copy(tmp_path)), 2, derive_seed(11, 2), rec.header["ai"], "basic")
    assert rec.game.state.outcome == res.outcome and len(rec) == res.actions   # the batch's game 3


def test_6_hotseat_starts_from_the_designers_setup(win):
    doc, placed = _tula_with_a_setup(win)
    ctl = win.scenario_ctl
    hs = ctl.hotseat
    hs.use_setup.setChecked(True)
    for cb in hs.human.values():
        cb.setChecked(True)
    assert hs.new_game()
    g = hs.game
    # the Russians set up first (their human player: the AI stands in for him here) ...
    hs.session.advance_until(lambda _acts: g.current_side() == "german")
    hs._after()
    # ... then the designer's German units stand where he put them, though a person plays them
    for uid, h in placed.items():
        assert g.state.units[uid].hex == h, uid
    fixed = hs.session.setup.fixed
    assert set(fixed["units"]) == set(placed) and fixed["mines"] and fixed["hidden_hexes"]
    # what he did not place is the human's to place
    acts = g.legal_actions()
    assert hs.session.human_to_act() and any(a.kind == "place" and a.unit not in placed for a in acts)
    # a set-up with a problem is refused, with the problem
    uid, h = next(iter(placed.items()))
    ctl.regions.select(("german", "groups", 0, "setup", "region"))
    win.tools.set_tool("region").paint([h], adding=False)   # the zone no longer has the unit's hex
    assert not hs.new_game() and hs.game is g
    assert "cannot start the game" in hs.state_label.text() and "outside the set-up zone" in hs.state_label.text()


# ------------------------------------------------------------------------------------ item 10
def test_10_zones_are_outlines_with_light_fills_one_colour_per_group(qtbot):
    w = window(qtbot, S6)
    ov = w.scenario_ctl.overlay
    fills, pens = [], set()
    for it in ov.layers["zones"]:
        b = it.brush()
        if b.style() == Qt.BrushStyle.SolidPattern:
            fills.append(b.color().alpha())
        if it.pen().style() != Qt.PenStyle.NoPen:
            assert it.pen().isCosmetic()
            pens.add(it.pen().color().rgb())
    assert fills and max(fills) <= 0.15 * 255       # the terrain shows through
    assert FILL_ALPHA <= 0.15 * 255
    sc = w.scenario_ctl.doc.scenario
    groups = sum(len(sc.side(s).groups) for s in ("german", "russian"))   # 4 + 3 groups
    assert len(pens) >= groups                      # one colour per group (and gold for victory)
    legend = ov.layers["legend"][0]
    assert isinstance(legend, LegendItem)
    texts = [t for _s, _c, t in legend.entries]
    for s in ("german", "russian"):
        for g in sc.side(s).groups:
            assert any(t.startswith(g.name) for t in texts), g.name
    colours = [c.rgb() for st, c, _t in legend.entries if st in ("setup", "entry")]
    assert len(colours) == len(set(colours)) == groups
    close(w)


def test_10_labels_never_overlap_at_any_zoom(qtbot):
    w = window(qtbot, S6)
    item = w.scenario_ctl.overlay.layers["labels"][0]
    assert isinstance(item, ZoneLabelsItem)
    view = QRectF(w.view.viewport().rect())
    for zoom in (None, 0.5, 2.0, 4.0):
        if zoom is not None:
            w.view.zoom_by(zoom)
        for placed in (item.layout(w.view.viewportTransform()),
                       item.layout(w.view.viewportTransform(), item.counter_rects(), view)):
            assert placed or zoom == 4.0
            rects = [r for _t, _c, r in placed]
            assert all(not a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:]), zoom
        assert all(view.contains(r) for r in rects), zoom      # never cut by the edge of the view
    # off the counters where there is room: Scenario 1 with the German force placed in 4307/4308
    w.open_file(S1)
    doc = w.scenario_ctl.doc
    for uid in doc.setup().deployments[0].units[:6]:
        assert doc.place(uid, "4307" if len(doc.placement) < 3 else "4308") is None
    w.scenario_ctl.fit()
    item = w.scenario_ctl.overlay.layers["labels"][0]
    counters = item.counter_rects()
    assert counters
    tr = w.view.viewportTransform()
    for _t, _c, r in item.layout(tr, counters, view):
        assert not any(r.intersects(tr.mapRect(c)) for c in counters)
    close(w)


def test_10_the_compass_rose_is_in_the_margin_never_on_a_hex(win):
    ctl = win.scenario_ctl
    rose = next(it for it in ctl.overlay.layers["compass"] if isinstance(it, CompassRoseItem))
    hm = ctl.doc.hexmap
    top = map_top(hm)
    for zoom in (1.0, 0.5, 3.0, 0.3):
        win.view.zoom_by(zoom)
        win.view.centerOn(rose.pos())
        box = win.view.viewportTransform().inverted()[0].mapRect(
            rose.deviceTransform(win.view.viewportTransform()).mapRect(rose.boundingRect()))
        assert box.bottom() < top, zoom     # above the first row of hexes
    # the fitted view shows it
    ctl.fit()
    vis = win.view.mapToScene(win.view.viewport().rect()).boundingRect()
    assert vis.contains(rose.pos())


def test_10_heat_circles_stand_out_over_a_zone(win):
    ctl = win.scenario_ctl
    zone = sorted(ctl.doc.resolve(ctl.doc.scenario.german.groups[0].setup.region)[0])
    hid = zone[len(zone) // 2]
    win.view.resetTransform()
    win.view.centre_on_hex(hexgrid.parse_hex_id(hid))
    QApplication.processEvents()

    def pixel():
        img = win.view.viewport().grab().toImage()
        pt = win.view.mapFromScene(hex_centre(hid) + QPointF(12, 12))
        return img.pixelColor(pt)

    before = pixel()
    for which in ("eliminations", "fire targets", "fire origins"):
        ctl.playtest.heat_changed.emit({hid: 5}, which)
        QApplication.processEvents()
        after = pixel()
        dist = sum(abs(a - b) for a, b in zip(before.getRgb()[:3], after.getRgb()[:3]))
        assert dist > 150, (which, before.getRgb(), after.getRgb())
        # above the zone and the labels, below the counters
        assert all(it.zValue() > 13.5 for it in ctl.overlay.layers["heat"])


def test_10_hidden_and_mine_tags_stay_off_the_counters(win):
    from editor.drawing.pieces import CounterSpec
    from editor.scenario.overlay import marks_items

    h = "4307"
    counters = CountersItem([CounterSpec(h, "german", "MMG")])
    items = marks_items({h: "german"}, {h: {"side": "german", "ap": 2, "at": 3}})
    tags = [it for it in items if type(it).__name__ == "_TagItem"]
    assert [t.text for t in tags] == ["hidden", "AP2 AT3"]
    c = hex_centre(h)
    counter = QRectF(c.x() - 23, c.y() - 23, 46, 46)   # a counter alone in its hex
    for t in tags:
        assert not t.sceneBoundingRect().intersects(counter), t.text
        assert t.zValue() < counters.zValue()        # under a stack that fans out over them
        assert hexgrid.point_to_hex(t.sceneBoundingRect().center().x() / SCENE_PER_X,
                                    t.sceneBoundingRect().center().y() / SCENE_PER_Y).id == h   # in its hex
    # at every zoom (the tags scale with the map)
    assert TAG_TOP.bottom() < -23
    # the window draws the designer's marks so
    doc, _placed = _tula_with_a_setup(win)
    shown = [it for it in win.scenario_ctl.overlay.layers["marks"] if type(it).__name__ == "_TagItem"]
    assert {t.text for t in shown} == {"hidden", "AT4"}


# ------------------------------------------------------------------------------------ item 11
def test_11_regions_are_named_as_a_designer_says_them(qtbot):
    from editor.scenario.wording import loc_label

    w = window(qtbot, S1)
    doc = w.scenario_ctl.doc
    names = [loc_label(doc, loc) for loc, _r in doc.regions()]
    assert "German set-up zone: German force" in names
    assert "Russian entry, turn 1: Russian force" in names
    assert "road 4001-5014 (named region)" in names
    assert "Germans win: a German unit in 4307 (with 1 more condition)" in names
    assert not any("victory outcome" in n or "of." in n for n in names)
    w.scenario_ctl.open(S3)
    doc = w.scenario_ctl.doc
    names = [loc_label(doc, loc) for loc, _r in doc.regions()]
    assert "Germans win: no Russian unit on Hill J or Hill K" in names
    assert "German entry, turn 3: Squad D and PS (option 2 of 2)" in names
    # the Regions dock shows them
    lst = w.scenario_ctl.regions.list
    assert {lst.topLevelItem(i).text(0) for i in range(lst.topLevelItemCount())} == set(names)
    close(w)


FIRE = re.compile(r"^  [^;]+ in \d{4}(; [^;]+ in \d{4})* fires at \d{4}: \d+ AP on \S+, \d+ dic?e \([\d ]+\) -> "
                  r"(ELIMINATED|SUPPRESSED|PINNED|no effect) \(11\.\d+\)$")


def test_11_watch_and_hotseat_logs_are_sentences_with_the_rule(win, tmp_path):
    from editor.play.game_record import GameRecording, describe_events

    ctl = win.scenario_ctl
    rec = GameRecording.play(str(ctl.doc.playable_copy(tmp_path)), 4, {"german": "heuristic", "russian": "heuristic"},
                             max_actions=700)
    lines = []
    for i, st in enumerate(rec.steps):
        units = rec.snapshots[i].units
        lines += describe_events(st.events, lambda u, units=units: (units.get(u) or (None,))[0])
    assert len(lines) > 500
    assert not [x for x in lines if re.search(r"\w=", x)]      # no key=value dumps
    fires = [x for x in lines if " fires at " in x and " AP on " in x]
    assert fires and all(FIRE.match(x) for x in fires), [x for x in fires if not FIRE.match(x)][:3]
    ruled = [x for x in lines if x.startswith("  ")]
    assert sum(1 for x in ruled if re.search(r"\(\d+\.\d+( ?[a-zA-Z]+)?\)$", x)) > 0.9 * len(ruled)
    # the Watch dock shows them
    ctl.watch.set_recording(rec)
    ctl.watch.go(len(rec))
    shown = [ctl.watch.log.item(i).text() for i in range(ctl.watch.log.count())]
    assert shown and not [x for x in shown if re.search(r"\w=", x)]
    # and so does the Hot-seat dock
    ctl.hotseat.new_game()
    ctl.hotseat.auto_setup()
    shown = [ctl.hotseat.log.item(i).text() for i in range(ctl.hotseat.log.count())]
    assert any(" is set up in " in x and "(24.1)" in x for x in shown)
    assert not [x for x in shown if re.search(r"\w=", x)]


# ------------------------------------------------------------------------------------ item 12
def _move(w, hid):
    vp = w.view.viewport()
    w.view.centre_on_hex(hexgrid.parse_hex_id(hid))
    pos = QPointF(w.view.mapFromScene(hex_centre(hid)))
    QApplication.sendEvent(vp, QMouseEvent(QEvent.Type.MouseMove, pos, vp.mapToGlobal(pos), Qt.MouseButton.NoButton,
                                           Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))


def test_12_the_status_bar_shows_the_terrain_just_painted(qtbot, tmp_path):
    from maps.mapfile import save_map

    mp = tmp_path / "m.json"
    save_map(mp, make_map((10, 16), (1, 8)).doc)
    w = window(qtbot, mp)
    _move(w, "1204")
    assert w.hex_label.text().startswith("1204: clear")
    brush = w.tools.set_tool("terrain")
    brush.size, brush.terrain = 1, "marsh"
    brush.stroke_hexes(["1204"])
    assert w.hex_label.text().startswith("1204: marsh")     # at once, without moving the mouse
    w.document.undo_stack.undo()
    assert w.hex_label.text().startswith("1204: clear")
    close(w)


def test_12_a_right_click_turn_says_what_it_did(win):
    doc, placed = _tula_with_a_setup(win)
    tool = win.tools.set_tool("place")
    uid, h = next(iter(placed.items()))
    assert tool.turn(h) == f"{doc.setup().units[uid].name} has no facing: only ATGs, MGs and AFVs face a hexside (8.7)"
    assert win.tool_label.text() == tool.turn(h)
    rz = sorted(doc.unit_zone("R-45AT-1"))
    assert doc.place("R-45AT-1", rz[0]) is None
    assert tool.turn(rz[0]) == "R-45AT-1 turned to face hexside 2 (8.7)"
    assert doc.placement["R-45AT-1"].facing == 2 and "hexside 2" in win.tool_label.text()
    empty = next(x for x in sorted(doc.context.area, key=lambda q: q.id) if x.id not in {p.hex for p in doc.placement.values()})
    assert tool.turn(empty.id) == f"no placed unit in {empty.id} to turn"


def test_12_the_map_name_and_description_can_be_edited(qtbot, tmp_path):
    from maps.mapfile import load_map_file, save_map

    mp = tmp_path / "copy.json"
    save_map(mp, make_map((10, 16), (1, 8)).doc)
    w = window(qtbot, mp)
    assert w.set_map_properties("Hill K crossroads (copy)", "Map 2 with a new hill")
    assert w.document.map.name == "Hill K crossroads (copy)" and "Hill K crossroads (copy)" in w.windowTitle()
    assert not w.set_map_properties("  ", "") and w.document.map.name == "Hill K crossroads (copy)"
    w.document.undo_stack.undo()
    assert w.document.map.name != "Hill K crossroads (copy)"
    w.document.undo_stack.redo()
    assert w.save()
    again = load_map_file(mp)
    assert again.name == "Hill K crossroads (copy)" and again.description == "Map 2 with a new hill"
    assert any(a.text() == "Map name and description..." for a in w.menuBar().actions()[1].menu().actions())
    close(w)


def test_12_screenshot_prints_no_propagate_size_hints_lines(tmp_path):
    out = tmp_path / "s.png"
    r = subprocess.run([sys.executable, "-m", "editor.app", str(S1), "--screenshot", str(out), "--size", "1366x768"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stderr
    assert "propagateSizeHints" not in r.stderr and "propagateSizeHints" not in r.stdout
    img = QImage(str(out))
    assert img.width() == W and img.height() == H


def test_12_los_screenshot_frames_the_line(qtbot, tmp_path, monkeypatch):
    from editor import app as app_mod

    shots = {}
    real = MainWindow.grab

    def grab(self, *a):
        v = self.view
        shots["visible"] = v.mapToScene(v.viewport().rect()).boundingRect()
        shots["scale"] = v.scale_factor()
        return real(self, *a)

    monkeypatch.setattr(MainWindow, "grab", grab)
    out = tmp_path / "los.png"
    mp = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
    assert app_mod.main([str(mp), "--los", "3717", "3310", "--screenshot", str(out), "--size", "1366x768"]) == 0
    vis = shots["visible"]
    for hid in ("3717", "3310"):
        assert vis.contains(hex_centre(hid))
    # the line, not the sheet: at least 40 px a hex (the whole sheet is about 13)
    assert shots["scale"] * 100 >= 40
    assert vis.width() < 0.3 * (61 * 3 * SCENE_PER_X)


def test_12_report_titles_are_never_cut(tmp_path, monkeypatch):
    from PySide6.QtGui import QFontMetricsF

    from cli import playtest_report as rep
    from scenarios.scenario_file import load_scenario, load_scenario_map

    drawn = []
    real = rep._text

    def text(p, x, y, w, h, s, px, **kw):
        out = real(p, x, y, w, h, s, px, **kw)
        drawn.append((s, w, kw.get("bold", False), out))
        return out

    monkeypatch.setattr(rep, "_text", text)
    sc = load_scenario(S1)
    hm = load_scenario_map(sc, S1)
    title = "Scenario 1, Demyansk Pocket: the Russian assault on the crossroads at Hill K"
    rep.heat_map(hm, ["Map 2"], {"4307": 3}, tmp_path / "h.png", title=title, subtitle="12 games", what="fire targets",
                 colour="#ff7700", games=12)
    summary = {"games": 2, "outcomes": {"german": 1, "russian": 1}, "rates": {
        "german": {"rate": 0.5, "ci95": [0.1, 0.9]}, "russian": {"rate": 0.5, "ci95": [0.1, 0.9]}},
        "casualties_by_turn": {}}
    rep.outcome_chart(summary, tmp_path / "o.png", title, "2 games")
    titles = [d for d in drawn if d[0].startswith(title)]
    assert len(titles) == 2
    for s, w, bold, (shown, px) in titles:
        assert shown == s                          # in full, not "...assau"
        assert QFontMetricsF(rep._font(px, bold)).horizontalAdvance(s) <= w
        assert px >= rep.MIN_PX


# ------------------------------------------------------------------------------------ item 13
def _validate(w, tmp_path) -> None:
    """Every document of the window still validates: the map saved and loaded back with all the
    map checks; the scenario saved by the editor (with its set-up file) and opened again as the
    same scenario and set-up. (Problems a designer may leave in a scenario, e.g. a squad the
    roster lacks typed in the OOB, are the Validation dock's to list, not a broken document.)"""
    from maps.mapfile import load_map_file, save_map
    from editor.scenario.document import ScenarioDocument

    save_map(tmp_path / "fuzzed_map.json", w.document.map)
    assert load_map_file(tmp_path / "fuzzed_map.json").extent == w.document.map.extent
    doc = w.scenario_ctl.doc
    if doc is not None:
        doc.problems()          # the validator runs on it
        doc.setup_problems()
        placement, hidden, mines = dict(doc.placement), dict(doc.hidden), dict(doc.mines)
        out = doc.save(tmp_path / "fuzzed_scenario.json")
        again = ScenarioDocument.open(out)
        assert again.placement_error is None
        assert again.scenario.model_dump() == doc.scenario.model_dump()
        assert (again.placement, again.hidden, again.mines) == (placement, hidden, mines)
        again.deleteLater()


def _fuzz(qtbot, monkeypatch, tmp_path, path, seed, n, new_scenario=False):
    import random

    from editor.devtools.fuzz import ExceptionTrap, Fuzzer, patch_dialogs

    patch_dialogs(monkeypatch, random.Random(seed))
    w = window(qtbot, path)
    if new_scenario:
        w.scenario_ctl.new_scenario()
    log: list[str] = []
    fz = Fuzzer(w, seed)
    with ExceptionTrap() as trap:
        stats = fz.run(n, log=log)
    assert trap.errors == [], (trap.errors[0], log[-15:])
    assert fz.errors == [], fz.errors[0]
    assert stats.events == n and len(stats.by_kind) >= 6
    _validate(w, tmp_path)
    close(w)


def test_13_random_input_on_a_shipped_scenario_raises_nothing(qtbot, monkeypatch, tmp_path):
    base = tmp_path / "copy"
    (base / "scenarios" / "data").mkdir(parents=True)
    (base / "maps" / "data").mkdir(parents=True)
    shutil.copy(S1, base / "scenarios" / "data" / "s1.json")
    shutil.copy(ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json", base / "maps" / "data")
    _fuzz(qtbot, monkeypatch, tmp_path, base / "scenarios" / "data" / "s1.json", 16, 150)


def test_13_random_input_on_a_map_from_column_00_raises_nothing(qtbot, monkeypatch, tmp_path):
    from maps.mapfile import save_map

    mp = tmp_path / "edge.json"
    save_map(mp, make_map((0, 8), (1, 8), trees={"0103": 2}).doc)
    _fuzz(qtbot, monkeypatch, tmp_path, mp, 1600, 150, new_scenario=True)


def test_13_games_on_a_map_from_column_00_never_ask_for_column_minus_1(qtbot, tmp_path):
    """Found by the long random run: the heuristic AI's distance map (and the engine's
    neighbour lists for infiltration, wreck pushing, overrun and assault) asked the id of the hex
    left of column 00. Whole games of a scenario set up against column 00 now play."""
    from maps.mapfile import save_map
    from editor.play.game_record import HotseatSession

    mp = tmp_path / "edge.json"
    save_map(mp, make_map((0, 8), (1, 8), trees={"0103": 2}).doc)
    w = window(qtbot, mp)
    ctl = w.scenario_ctl
    ctl.new_scenario()
    ctl.oob.add_entry("german", 0, "Squad C (10)")
    ctl.oob.add_entry("russian", 0, "Squad A (8)")
    doc = ctl.doc
    doc.edit("German zone on column 00", lambda d: d["german"]["groups"][0]["setup"].__setitem__(
        "region", {"kind": "hexes", "hexes": ["0001", "0002", "0003", "0004", "0005"]}))
    assert doc.problems() == [] and doc.setup_error() is None
    for seed in (1, 2, 3):
        s = HotseatSession(str(doc.playable_copy(tmp_path / f"g{seed}")), seed, set(),
                           ai={"german": "heuristic", "russian": "heuristic"})
        s.run_ai(limit=3000)
        assert s.game.is_terminal() or len(s.game.actions) >= 3000
        placed = [e["hex"] for e in s.log if e.get("kind") == "placed" and e.get("unit", "").startswith("G")]
        assert placed and all(h.startswith("00") for h in placed)
    close(w)


def test_13_the_level_brush_paints_only_levels_the_chart_can_play(qtbot, tmp_path):
    """Found by the long random run: a level painted beyond the chart's Hill Level rows (3 on
    the shipped chart) made a hot-seat game raise "no hill row for level 3" (8.53). The brush
    offers and paints only the levels the map's chart has a row for, and says why otherwise."""
    from PySide6.QtWidgets import QSpinBox

    from maps.mapfile import save_map

    mp = tmp_path / "m.json"
    save_map(mp, make_map((10, 16), (1, 8)).doc)
    w = window(qtbot, mp)
    brush = w.tools.set_tool("level")
    assert brush.max_level() == 2
    spin = w.options_dock.widget().findChild(QSpinBox)
    assert (spin.minimum(), spin.maximum()) == (0, 2)
    before = w.document.map
    brush.level = 3
    assert brush.paint_at(hexgrid.parse_hex_id("1204")) is False
    assert w.document.map == before and "no Hill Level 3 row" in w.tool_label.text()
    brush.level = 2
    assert brush.paint_at(hexgrid.parse_hex_id("1204"))
    assert w.document.hexmap.level(hexgrid.parse_hex_id("1204")) == 2
    close(w)
