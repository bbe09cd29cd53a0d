"""The designer's docks at 1366 x 768 and the scenario on its own map, on one window for the module:

- the Sides dock's Set-up tab: every field reachable by scrolling the tab and shown in full, its
  placeholder not cut; the Victory builder's region row no taller than the page it shows, so the
  rows under it stay in view;
- the Sides dock's entries tree: turn and phase as wide as their text, the group's name the rest;
- the Orders of battle and Set-up trees: no cell text cut; a long entry ("Squad E (4 units, MP
  PR10, ...)") or the side's marks line wraps onto more lines, read whole;
- while another map than the scenario's is shown, the scenario's editing tools refuse their
  clicks (their actions disabled, the status bar says why) and its docks' forms are read-only
  (a line over each names the map to open); both work again on its own map;
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

from PySide6.QtCore import QRect, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QFontMetrics  # noqa: E402
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


def cut_cells(tree) -> list[tuple[str, int, int]]:
    """The cells of ``tree`` (every item whose ancestors are expanded) whose text does not fit
    the cell the tree paints, wrapped at words as the tree wraps it: (text, room, rows of text
    that fit). The cell's room is its visual rect less the style's text margins."""
    style = tree.style()
    margin = 2 * (style.pixelMetric(style.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1)
    cut = []
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while stack:
        it = stack.pop()
        if it.isExpanded():
            stack += [it.child(i) for i in range(it.childCount())]
        for c in range(tree.columnCount()):
            text = it.text(c)
            if not text:
                continue
            rect = tree.visualRect(tree.indexFromItem(it, c))
            room = rect.width() - margin
            need = QFontMetrics(it.font(c)).boundingRect(QRect(0, 0, max(1, room), 10_000),
                                                         int(Qt.TextFlag.TextWordWrap), text)
            if need.width() > room or need.height() > rect.height():
                cut.append((text, room, rect.height() // max(1, QFontMetrics(it.font(c)).lineSpacing())))
    return cut


def test_oob_and_set_up_trees_show_every_cell_whole(win):
    """Scenario 4's long printed entries ("Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9
    (4) only)"), the Russian totals ("3 hidden hexes, 10 grenades, 10 AT mine factors") and the
    Set-up dock's marks line ("hidden hexes: 3; AT mine factors: 10; IPs: ...") in docks of the
    default 1366 x 768 layout: wrapped, never cut."""
    ctl = win.scenario_ctl
    assert win.set_mode("scenario")
    ctl.docks["oob"].raise_()
    ctl.docks["setup"].raise_()
    settle()
    oob, setup = ctl.oob.tree, ctl.setup_panel.tree
    assert oob.isVisible() and setup.isVisible() and oob.viewport().width() < 400   # a narrow dock
    texts = [it.text(0) for it in ctl.oob._items()]
    assert "Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)" in texts
    assert "3 hidden hexes, 10 grenades, 10 AT mine factors" in texts
    for depth in (1, None):   # as opened, then with every squad's men shown
        if depth is None:
            oob.expandAll()
        settle()
        assert cut_cells(oob) == [], depth
        # "Deploys" no wider than 40% of the tree: the entries keep the rest
        assert oob.header().sectionSize(1) <= oob.viewport().width() * 2 // 5
    assert any(it.text(0).startswith("hidden hexes: 3; AT mine factors: 10")
               for it in (setup.topLevelItem(0).child(i) for i in range(setup.topLevelItem(0).childCount())))
    assert cut_cells(setup) == []
    oob.collapseAll()
    oob.expandToDepth(1)


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
    # its forms are read-only there, a line over each dock saying which map to open
    forms = [n for n in own_map.EDITING_DOCKS if n != "system"]
    for name in forms:
        assert not ctl.dock_panels[name].isEnabled(), name
        banner = ctl.dock_banners[name]
        assert banner.isVisibleTo(ctl.docks[name]) and banner.isEnabled(), name
        assert banner.text().startswith("scenario_4_tula.json is played on iron_cross_mapsheet_corrected.json: ")
        assert "open iron_cross_mapsheet_corrected.json</a> to edit it" in banner.text()
    assert not ctl.oob.entry_text.isEnabled() and not ctl.victory.isEnabled() and not ctl.sides.hidden.isEnabled()
    assert not ctl.dock_panels["system"].isEnabled() and not ctl.dock_banners["system"].isVisibleTo(ctl.docks["system"])
    ctl.docks["oob"].raise_()
    settle()
    assert ctl.dock_banners["oob"].isVisible() and ctl.dock_banners["oob"].visibleRegion().boundingRect() == \
        ctl.dock_banners["oob"].rect()   # over the form, in full
    # back on its own map the tools work again
    assert ctl.reopen_own_map() and ctl.on_own_map()
    assert all(win.tool_actions[n].isEnabled() for n in own_map.EDITING_TOOLS if n in win.tool_actions)
    assert ctl.editing_refusal() is None
    for name in forms:   # and its forms edit it again
        assert ctl.dock_panels[name].isEnabled() and not ctl.dock_banners[name].isVisibleTo(ctl.docks[name]), name
    assert ctl.oob.entry_text.isEnabled()
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
