"""The designer's docks at 1366 x 768 and the scenario on its own map, on one window for the module:

- the Sides dock's Set-up tab: every field reachable by scrolling the tab and shown in full, its
  placeholder not cut; the Victory builder's region row no taller than the page it shows, so the
  rows under it stay in view;
- the Sides dock's entries tree: turn and phase as wide as their text, the group's name the rest;
- while another map than the scenario's is shown, the scenario's editing tools refuse their
  clicks (their actions disabled, the status bar says why) and work again on its own map;
- the resize question for a Red Flags scenario (a scenario of another rule system on the map):
  its set-up block left off the playing area is named before the resize.

The tests run in file order on the one window: Scenario 4 first, then Scenario 1 (its entering
groups), then Red Flags' Hill J.

Headless (pytest-qt, QT_QPA_PLATFORM=offscreen); message boxes and choices answered without a
modal loop. One main window for the module (the suite is slow enough): the tests run in file
order and each leaves what it opened with nothing unsaved.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
)

from editor.drawing import widgets  # noqa: E402
from editor.scenario import own_map, resize_impact  # noqa: E402
from tests.editor.test_walkthrough_scenario4 import click_hex  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
S1 = DATA / "scenario_1_demyansk_pocket.json"
S4 = DATA / "scenario_4_tula.json"
REDFLAGS = DATA / "redflags_1_hill_j.json"
MAPSHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
W, H = 1366, 768


@pytest.fixture(scope="module")
def win(qapp, tmp_path_factory):
    """The main window at 1366 x 768 with Scenario 4 open, for the whole module; settings in a
    temporary folder, message boxes answered without a modal loop."""
    from editor.main_window import MainWindow

    folder = tmp_path_factory.mktemp("settings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    with pytest.MonkeyPatch.context() as mp:
        for name in ("critical", "warning", "information"):
            mp.setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))
        mp.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
        mp.setattr(QInputDialog, "getItem", staticmethod(lambda p, t, l, items, current=0, *a, **k: (items[current], True)))
        w = MainWindow(persist_settings=False)
        w.resize(W, H)
        w.show()
        assert w.open_file(S4, offer_recovery=False)
        QApplication.processEvents()
        yield w
        w.scenario_ctl.shutdown()
        for doc in (w.scenario_ctl.doc, w.document):
            if doc is not None:
                doc.undo_stack.setClean()
        w.close()
        w.deleteLater()
        QApplication.processEvents()


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def scroll_area_of(widget) -> QScrollArea:
    p = widget.parentWidget()
    while not isinstance(p, QScrollArea):
        p = p.parentWidget()
    return p


def shown_in_full(widget) -> bool:
    """After its scroll area scrolls to it: on screen, whole, with a non-zero size."""
    scroll_area_of(widget).ensureWidgetVisible(widget)
    settle()
    return not widget.rect().isEmpty() and widget.visibleRegion().boundingRect() == widget.rect()


def test_sides_set_up_tab_every_field_reachable_and_uncut(win):
    ctl = win.scenario_ctl
    assert win.set_mode("scenario")
    ctl.docks["sides"].raise_()
    sides = ctl.sides
    sides.tabs.setCurrentIndex(2)
    settle()
    scroll = sides.tabs.widget(2)
    assert isinstance(scroll, QScrollArea) and sides.tabs.tabText(2) == "Set-up"
    assert scroll.widget().minimumSizeHint().width() <= scroll.viewport().width()   # no sideways cut
    tab = sides.setup_tab
    fields = [f for kind in (QLineEdit, QComboBox, QAbstractSpinBox, QPushButton)
              for f in scroll.widget().findChildren(kind) if f.isVisibleTo(scroll.widget()) and not isinstance(f.parentWidget(), (QComboBox, QAbstractSpinBox))]
    assert {tab.control, tab.mines_area, tab.cap_region, tab.cap_limits, tab.cap_text, *tab.cap_buttons.values(),
            sides.hidden} <= set(fields)
    for f in fields:
        assert shown_in_full(f), (type(f).__name__, f.geometry())
        if isinstance(f, QLineEdit) and f.placeholderText():   # the hint is read whole in the field
            room = f.width() - 2 * f.style().pixelMetric(f.style().PixelMetric.PM_DefaultFrameWidth) - 8
            assert f.fontMetrics().horizontalAdvance(f.placeholderText()) <= room, f.placeholderText()
    for f in (tab.control, tab.mines_area, tab.cap_region, tab.cap_squad):   # the whole sentence in the tip
        assert f.placeholderText() and len(f.toolTip()) > len(f.placeholderText())


def test_victory_region_row_as_tall_as_its_page_and_the_rows_under_it_in_view(win):
    ctl = win.scenario_ctl
    ctl.docks["victory"].raise_()
    v = ctl.victory
    v.tree.setCurrentItem(v.tree.topLevelItem(0).child(0))   # "no Russian unit south of the road"
    settle()
    rf = v.region_field
    assert rf.isVisible()
    for mode in range(rf.mode.count()):
        rf.mode.setCurrentIndex(mode)
        settle()
        page = rf.pages.currentWidget()
        assert page.height() <= page.sizeHint().height() + 2, (rf.mode.currentText(), page.height())
        assert shown_in_full(rf.mode) and shown_in_full(page), rf.mode.currentText()
    rf.mode.setCurrentIndex(0)   # a named region: one line; the rows and Evaluate now in view, unscrolled
    scroll_area_of(rf).verticalScrollBar().setValue(0)
    settle()
    rows = [v.form.itemAt(i, QFormLayout.ItemRole.FieldRole).widget() for i in range(v.form.rowCount())
            if v.form.itemAt(i, QFormLayout.ItemRole.FieldRole) is not None]
    shown = [r for r in rows if r.isVisible()]
    assert rf in shown and all(r.visibleRegion().boundingRect() == r.rect() for r in shown)


def test_scenario_tools_refused_on_another_map(win, qtbot, tmp_path, monkeypatch):
    ctl = win.scenario_ctl
    doc = ctl.doc
    other = tmp_path / "another_map.json"
    shutil.copyfile(MAPSHEET, other)
    monkeypatch.setattr(widgets, "ask_choice", lambda *a, **k: own_map.KEEP_SCENARIO)
    assert win.open_file(other)
    assert not ctl.on_own_map() and win.set_mode("scenario")
    for name in own_map.EDITING_TOOLS:
        if name in win.tool_actions:
            assert not win.tool_actions[name].isEnabled(), name
    win.tools.set_tool("north")
    before = doc.scenario.north
    steps = doc.undo_stack.count()
    click_hex(qtbot, win, "4010")
    assert win.tools.current.first is None   # the click was not taken
    click_hex(qtbot, win, "4009")
    assert doc.scenario.north == before and doc.undo_stack.count() == steps   # nothing edited
    said = win.statusBar().currentMessage()
    assert "scenario_4_tula.json is played on iron_cross_mapsheet_corrected.json" in said and "open" in said
    # back on its own map the tools work again
    assert ctl.reopen_own_map() and ctl.on_own_map()
    assert all(win.tool_actions[n].isEnabled() for n in own_map.EDITING_TOOLS if n in win.tool_actions)
    assert ctl.editing_refusal() is None
    win.tools.set_tool("north")
    click_hex(qtbot, win, "4010")
    click_hex(qtbot, win, "4009")
    assert (doc.scenario.north.hex, doc.scenario.north.points_to) == ("4010", "4009")
    assert doc.undo_stack.count() == steps + 1
    doc.undo_stack.undo()
    assert doc.scenario.north == before


def test_sides_entries_tree_columns_fit_their_text(win):
    assert win.open_file(S1)   # Scenario 1: Russian groups entering on turns and phases
    ctl = win.scenario_ctl
    assert win.set_mode("scenario")
    ctl.docks["sides"].raise_()
    sides = ctl.sides
    sides.side.setCurrentText("russian")
    sides.tabs.setCurrentIndex(0)
    settle()
    tree = sides.entries
    head = tree.header()
    assert tree.topLevelItemCount() > 0
    assert head.sectionResizeMode(0) == QHeaderView.ResizeMode.Stretch
    for c in (1, 2):
        assert head.sectionResizeMode(c) == QHeaderView.ResizeMode.ResizeToContents
        assert tree.columnWidth(c) >= tree.sizeHintForColumn(c) > 0   # "Turn" and "Phase" never cut
    assert sum(tree.columnWidth(c) for c in range(3)) == tree.viewport().width()   # the name takes the rest


def test_resize_question_for_a_red_flags_scenario(win, monkeypatch):
    """Red Flags plays Hill J on Map 2 with set-up blocks of columns and rows: removing three rows
    at the south edge leaves part of the Russian block off the playing area, said before the
    resize; Cancel changes nothing, Resize resizes."""
    assert win.open_file(REDFLAGS)
    ctl = win.scenario_ctl
    assert type(ctl.doc).__name__ == "SystemScenarioDocument" and ctl.doc.map_document is win.document
    asked = []
    monkeypatch.setattr(widgets, "ask_choice", lambda parent, title, text, choices, detail="": (
        asked.append((text, list(choices))) or None))
    last_row = win.document.map.extent.last_row
    assert not win.resize_map(bottom=-3)
    assert len(asked) == 1 and asked[0][1] == [resize_impact.RESIZE]   # Map 2's columns are the same either way
    assert "redflags_1_hill_j.json" in asked[0][0]
    assert "$.russian.setup_zone: 45 of its 75 hexes are left off the playing area" in asked[0][0]
    assert win.document.map.extent.last_row == last_row and win.document.undo_stack.count() == 0
    assert win.resize_map(right=1) and len(asked) == 1   # east of Map 3: nothing of the scenario changes
    monkeypatch.setattr(widgets, "ask_choice", lambda *a, **k: resize_impact.RESIZE)
    assert win.resize_map(bottom=-3) and win.document.map.extent.last_row == last_row - 3
    win.document.undo_stack.undo()
    win.document.undo_stack.undo()
    assert win.document.map.extent.last_row == last_row
