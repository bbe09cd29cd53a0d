"""The editor's main window: canvas, tools, docks, menus, files and settings.

Layout: the map canvas (:class:`editor.drawing.canvas.MapView` over a :class:`editor.drawing.canvas.MapScene`) in
the centre; a tool bar of the tools (:mod:`editor.map.tools`, :mod:`editor.map.los_tool`); docks for the
tool options, the undo history (``QUndoView``), the terrain chart, errata and LOS. The status bar
shows the hex under the cursor with its terrain and provenance, and the tool's status text.
Window geometry, dock state and recent files live in ``QSettings("IronCross", "editor")``.

**Modes** (the *Modes* tool bar, ``Ctrl+1`` / ``Ctrl+2`` / ``Ctrl+3``): *Map* (the map tools and
docks), *Scenario* (the scenario's forms, regions, victory, set-up, validation and their tools) and
*Play* (batch playtest, Watch, Hot-seat). Each mode shows its own docks and tools, so the window
fits 1366 x 768 with every tab and button in full; each mode keeps its own dock layout
(:mod:`editor.mode_layout`: one dock layout for all docks, each mode's docks shown, in front and
sized as they were; saved in the settings). Choosing a tool of another mode (its shortcut)
switches to that mode.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoGroup
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSpinBox,
    QTabBar,
    QToolBar,
    QUndoView,
)

from maps.document_file import DocumentError
from maps.hexgrid import Hex
from editor.map import commands as C
from editor.map import edits
from editor.drawing.canvas import MapScene, MapView
from editor.map.docks import ChartPanel, ErrataPanel
from editor.map.document import MapDocument, is_shipped_map, new_map
from editor.map.los_tool import LosPanel, LosTool
from editor.drawing.map_painter import render_png, render_svg
from editor.map.obstacle_tool import ObstacleTool
from editor.map.building_tool import BuildingTool
from editor.map.tools import FeatureTool, LevelBrushTool, PathTool, SelectTool, TerrainBrushTool, TreeBrushTool
from editor.drawing.tool import ToolContext, ToolManager

from editor.modes import MODE_HELP, MODE_TOOLS, MODES

__all__ = ["MainWindow", "LAYER_MENU", "AUTOSAVE_MS"]

#: Layers offered in the View menu, with their labels.
LAYER_MENU: tuple[tuple[str, str], ...] = (
    ("grid", "Grid"), ("ids", "Hex ids"), ("trees", "Trees"), ("buildings", "Buildings"), ("levels", "Levels"),
    ("roads", "Roads"), ("gullies", "Gullies"), ("marshes", "Marshes"), ("labels", "Labels"),
    ("sections", "Sections"), ("provenance", "Provenance marks"), ("obstacles", "Obstacles and tank traps"),
)
AUTOSAVE_MS = 60_000
MAX_RECENT = 8

class MainWindow(QMainWindow):
    """The map editor window; one map document at a time (and one scenario, see
    :class:`editor.scenario.window.ScenarioController`). ``mode_changed(str)`` after a mode switch."""

    mode_changed = Signal(str)

    def __init__(self, document: MapDocument | None = None, *, persist_settings: bool = True):
        super().__init__()
        self.settings = QSettings("IronCross", "editor")
        #: False for ``--screenshot`` runs: neither restore nor save the user's window layout, so a
        #: picture never depends on (or changes) what the user last had open
        self.persist_settings = persist_settings
        self.document: MapDocument | None = None
        self.scene = MapScene(self)   # the view does not own its scene: the window does
        self.view = MapView(self.scene, self)
        self.setCentralWidget(self.view)
        self.ctx = ToolContext(scene=self.scene, parent=self)
        self.ctx.prompt = self._prompt
        self.tools = ToolManager(self.ctx)
        self.ctx.active_tool = lambda: self.tools.current
        for cls in (SelectTool, TerrainBrushTool, TreeBrushTool, LevelBrushTool, BuildingTool, PathTool,
                    ObstacleTool, FeatureTool, LosTool):
            t = self.tools.add(cls(self.ctx))
            t.status_changed.connect(self._tool_status)
        self.scene.tools = self.tools
        self.scene.hover_hex.connect(self._hover)
        self.view.hex_tooltip = self.hex_tooltip

        from editor.drawing.widgets import ElidedLabel

        self.hex_label = ElidedLabel()   # cut with "...", never over the tool's message
        self.tool_label = ElidedLabel()
        self.zoom_label = QLabel()
        self.statusBar().addWidget(self.hex_label, 1)
        self.statusBar().addWidget(self.tool_label, 2)
        self.statusBar().addPermanentWidget(self.zoom_label)
        self.view.zoom_changed.connect(lambda s: self.zoom_label.setText(f"zoom {s * 100:.0f} px/hex"))
        self.hex_label.setText("hex under the cursor")

        self._make_docks()
        self._make_actions()
        self.tools.tool_changed.connect(self._tool_changed)

        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()

        from editor.mode_wiring import PlayMode
        from editor.scenario.window import ScenarioController

        self.mode: str | None = None
        self.switching_mode = False
        self._make_modes()
        # scenario docks, tools and menus, with the Play mode's docks and the tabletop tools
        self.scenario_ctl = ScenarioController(self, PlayMode)
        from editor.drawing.widgets import install_cut_cell_tips

        self.cut_cell_tips = install_cut_cell_tips(self)   # a cut cell of any dock's tree: its text in full
        self.set_document(document or MapDocument(new_map()))
        self.resize(1366, 768)
        if persist_settings:
            geo = self.settings.value("geometry")
            if geo is not None:
                self.restoreGeometry(geo)
        from editor.mode_layout import ModeLayouts

        #: each mode's dock layout: a scenario's docks never reappear around a bare map
        self.mode_layout = ModeLayouts(self)
        if persist_settings:
            self.mode_layout.load(self.settings)
        self.set_mode("map")
        self.tools.set_tool("select")

    # ------------------------------------------------------------------ set-up
    def _make_docks(self) -> None:
        def dock(title: str, widget, area, name: str) -> QDockWidget:
            d = QDockWidget(title, self)
            d.setObjectName(name)
            d.setWidget(widget)
            self.addDockWidget(area, d)
            return d

        self.options_dock = dock("Tool options", QLabel(), Qt.DockWidgetArea.LeftDockWidgetArea, "options")
        self.undo_view = QUndoView()
        self.history_dock = dock("Map history", self.undo_view, Qt.DockWidgetArea.LeftDockWidgetArea, "history")
        self.los_panel = LosPanel(self.tools.tools["los"])
        self.los_dock = dock("LOS / Sighting Chart", self.los_panel, Qt.DockWidgetArea.RightDockWidgetArea, "los")
        self.chart_panel = ChartPanel()
        self.ctx.chart = self.chart_panel.chart
        self.chart_panel.chart_changed.connect(self._chart_changed)
        self.chart_dock = dock("Terrain chart", self.chart_panel, Qt.DockWidgetArea.RightDockWidgetArea, "chart")
        self.errata_panel = ErrataPanel(self)
        self.errata_panel.centre_on.connect(self.view.centre_on_hex)
        self.errata_dock = dock("Errata", self.errata_panel, Qt.DockWidgetArea.RightDockWidgetArea, "errata")
        for d in (self.options_dock, self.history_dock):
            d.setMaximumWidth(380)
        self.tabifyDockWidget(self.los_dock, self.chart_dock)
        self.tabifyDockWidget(self.chart_dock, self.errata_dock)
        self.los_dock.raise_()
        self.resizeDocks([self.options_dock, self.los_dock], [230, 330], Qt.Orientation.Horizontal)

    def _act(self, menu, text: str, slot, shortcut=None, checkable=False) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        menu.addAction(a)
        self.addAction(a)
        return a

    def _make_actions(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self._act(f, "&New", self.new_document, QKeySequence.StandardKey.New)
        self._act(f, "&Open...", self.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = f.addMenu("Open &recent")
        self._act(f, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._act(f, "Save &as...", self.save_as, QKeySequence.StandardKey.SaveAs)
        f.addSeparator()
        self._act(f, "Open &errata...", self.open_errata_dialog, "Ctrl+E")
        f.addSeparator()
        self._act(f, "Export view as PNG/SVG...", lambda: self.export_dialog(whole=False))
        self._act(f, "Export whole map as PNG/SVG...", lambda: self.export_dialog(whole=True), "Ctrl+Shift+X")
        from editor.export_menu import add_export_actions  # VASSAL module, Tiled map (docs/export.md)

        add_export_actions(self, f)
        f.addSeparator()
        self._act(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        e = mb.addMenu("&Edit")
        # one group for the map's and the scenario's stacks: Undo/Redo act on the active stack
        # (the scenario controller switches it with the focus and the tool)
        self.undo_group = QUndoGroup(self)
        self.undo_action = self._act(e, "&Undo", self.undo_group.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._act(e, "&Redo", self.undo_group.redo, "Ctrl+Shift+Z")
        self.undo_group.undoTextChanged.connect(lambda t: self.undo_action.setText(f"&Undo {t}".rstrip()))
        self.undo_group.redoTextChanged.connect(lambda t: self.redo_action.setText(f"&Redo {t}".rstrip()))
        self.undo_group.canUndoChanged.connect(self.undo_action.setEnabled)
        self.undo_group.canRedoChanged.connect(self.redo_action.setEnabled)
        e.addSeparator()
        self._act(e, "&Copy hexes", self.copy, QKeySequence.StandardKey.Copy)
        self._act(e, "&Paste hexes", self.paste, QKeySequence.StandardKey.Paste)
        self._act(e, "Rotate paste 60°", self.rotate_paste, "R")
        e.addSeparator()
        self._act(e, "Name selected hexes as feature...", self.name_feature, "Ctrl+K")
        self._act(e, "Resize map...", self.resize_dialog, "Ctrl+Shift+R")
        self._act(e, "Map name and description...", self.map_properties_dialog)

        v = mb.addMenu("&View")
        self._act(v, "Zoom &in", self.view.zoom_in, "+")
        self.addAction(self._act(v, "Zoom in (=)", self.view.zoom_in, "="))
        self._act(v, "Zoom &out", self.view.zoom_out, "-")
        self._act(v, "&Fit map", self.view.fit, "Ctrl+0")
        v.addSeparator()
        self.layer_actions: dict[str, QAction] = {}
        for name, label in LAYER_MENU:
            a = self._act(v, label, lambda on, n=name: self.set_layer(n, on), checkable=True)
            a.setChecked(name in self.scene.map_item.layers())
            self.layer_actions[name] = a
        v.addSeparator()
        #: the docks of the current mode (rebuilt when the menu opens)
        self.docks_menu = v.addMenu("&Docks")
        self.docks_menu.aboutToShow.connect(self._fill_docks_menu)
        self.view_menu = v

        t = mb.addMenu("&Tools")
        self.tools_menu = t
        tb = self.addToolBar("Map tools")
        tb.setObjectName("tools")
        self.tools_bar = tb
        group = QActionGroup(self)
        # a tool without a button (the region builder's Pick hexes) leaves no button pressed
        group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
        self.tool_actions: dict[str, QAction] = {}
        for name, tool in self.tools.tools.items():
            a = self._act(t, tool.label, lambda _=False, n=name: self.tools.set_tool(n), tool.shortcut, checkable=True)
            a.setToolTip(f"{tool.help} ({tool.shortcut})")
            group.addAction(a)
            tb.addAction(a)
            self.tool_actions[name] = a
        self._update_recent_menu()

    # ------------------------------------------------------------------ modes
    def _make_modes(self) -> None:
        """The Modes tool bar (an exclusive ``QActionGroup``) and the docks of the Map mode."""
        tb = QToolBar("Modes", self)
        tb.setObjectName("modes")
        self.insertToolBar(self.tools_bar, tb)
        self.modes_bar = tb
        group = QActionGroup(self)
        group.setExclusive(True)
        self.mode_actions: dict[str, QAction] = {}
        for i, (name, label) in enumerate(MODES):
            a = QAction(label, self)
            a.setCheckable(True)
            a.setShortcut(QKeySequence(f"Ctrl+{i + 1}"))
            a.setToolTip(f"{label} mode (Ctrl+{i + 1}): {MODE_HELP[name]}")
            a.triggered.connect(lambda _=False, n=name: self.set_mode(n))
            group.addAction(a)
            tb.addAction(a)
            self.addAction(a)
            self.mode_actions[name] = a
        f = next(a.menu() for a in self.menuBar().actions() if a.text() == "&View")
        f.insertSeparator(f.actions()[0])
        for a in reversed(list(self.mode_actions.values())):
            f.insertAction(f.actions()[0], a)
        #: the docks of each mode (the scenario controller adds its own)
        self.mode_docks: dict[str, list[QDockWidget]] = {
            "map": [self.options_dock, self.history_dock, self.los_dock, self.chart_dock, self.errata_dock],
            "scenario": [], "play": []}
        #: the default layout of each mode, used until the user changes it (the controller adds its own)
        self.mode_layouts = {"map": self._map_layout}
        #: the tool bar of each mode's tools
        self.mode_bars: dict[str, QToolBar] = {"map": self.tools_bar}
        self.update_mode_actions()

    def _map_layout(self) -> None:
        for d in self.mode_docks["map"]:
            d.show()
        self.los_dock.raise_()
        self.resizeDocks([self.options_dock, self.los_dock], [260, 340], Qt.Orientation.Horizontal)

    def update_mode_actions(self) -> None:
        """Scenario and Play need an open scenario."""
        has = getattr(getattr(self, "scenario_ctl", None), "doc", None) is not None
        for name, a in self.mode_actions.items():
            a.setEnabled(name == "map" or has)

    def mode_of_tool(self, name: str) -> str | None:
        return next((m for m, tools in MODE_TOOLS.items() if name in tools), None)

    def set_mode(self, mode: str) -> bool:
        """Show the docks and tools of ``mode`` ("map", "scenario", "play") with the layout it had
        last (or its default one); False (nothing changes) for Scenario or Play without a scenario."""
        if mode not in MODE_TOOLS:
            raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODE_TOOLS)}")
        if mode != "map" and getattr(self.scenario_ctl, "doc", None) is None:
            self.statusBar().showMessage(f"open or create a scenario first ({mode} mode)", 4000)
            self.mode_actions[self.mode or "map"].setChecked(True)
            return False
        if mode == self.mode:
            self.mode_actions[mode].setChecked(True)
            return True
        if self.mode is not None:
            self.mode_layout.capture(self.mode)
        self.mode = mode
        mine = set(self.mode_docks[mode])
        self._hide_other_docks(mine)
        if not self.mode_layout.apply(mode):   # hide and show, never restoreState (see mode_layout)
            self.mode_layouts[mode]()
        self._hide_other_docks(mine)
        self._hide_stale_tab_bars()
        for m, tb in self.mode_bars.items():   # the mode's tools on its tool bar
            tb.setVisible(m == mode)
        self.mode_actions[mode].setChecked(True)
        cur = self.tools.current
        if cur is None or self.mode_of_tool(cur.name) != mode:
            self.switching_mode = True   # the mode's tool is chosen without bringing its dock to the front
            try:
                self.tools.set_tool(MODE_TOOLS[mode][0])
            finally:
                self.switching_mode = False
        self.mode_changed.emit(mode)
        return True

    def _hide_other_docks(self, mine: set) -> None:
        for docks in self.mode_docks.values():
            for d in docks:
                if d not in mine and not d.isHidden():
                    d.hide()

    def _hide_stale_tab_bars(self) -> None:
        """Hide the tab bars of dock groups whose docks are all hidden: ``QMainWindow`` leaves
        them shown (over the docks of the new mode) until its next full relayout; and show again
        those of the groups shown, else the mode's tabbed docks (Playtest, Watch, Hot-seat) have
        no tabs to reach the ones behind."""
        shown = {d.windowTitle() for docks in self.mode_docks.values() for d in docks if not d.isHidden()}
        bars = [tb for tb in self.findChildren(QTabBar) if tb.parent() is self]
        for tb in bars:
            titles = {tb.tabText(i) for i in range(tb.count())}
            n = len(titles & shown)
            if n == 0 and not tb.isHidden():
                tb.hide()
            elif n >= 2 and tb.isHidden() and not any(
                    o is not tb and titles & {o.tabText(i) for i in range(o.count())} for o in bars):
                tb.show()   # the one bar of its group (a group with a twin bar is Qt's to show)

    def _fill_docks_menu(self) -> None:
        self.docks_menu.clear()
        for d in self.mode_docks.get(self.mode or "map", []):
            self.docks_menu.addAction(d.toggleViewAction())

    def dock_on_top(self, dock: QDockWidget) -> bool:
        """Whether ``dock`` is shown and, when it shares a tab bar, its tab is the current one."""
        if dock.isHidden():
            return False
        title = dock.windowTitle()
        for tb in self.findChildren(QTabBar):
            if tb.parent() is not self or not tb.isVisible():
                continue
            titles = [tb.tabText(i) for i in range(tb.count())]
            if title in titles:
                return tb.tabText(tb.currentIndex()) == title
        return True

    # ------------------------------------------------------------------ documents
    def set_document(self, document: MapDocument) -> None:
        old = self.document
        self.document = document
        document.setParent(self)
        self.scene.set_document(document)
        self.ctx.set_document(document)
        self.chart_panel.set_document(document)   # the chart is the map's (its file names it)
        self.undo_view.setStack(document.undo_stack)
        self.undo_group.addStack(document.undo_stack)
        if self.undo_group.activeStack() is None or old is None or self.undo_group.activeStack() is old.undo_stack:
            self.undo_group.setActiveStack(document.undo_stack)
        document.dirty_changed.connect(lambda _d: self._update_title())
        document.path_changed.connect(lambda _p: self._update_title())
        # the status bar describes the hex under the cursor as it is now (a brush just painted it)
        document.changed.connect(lambda _h, d=document: d is self.document and self._refresh_hover())
        document.changed.connect(lambda _h, d=document: d is self.document and self._update_title())
        self._update_title()
        if self.errata_panel.errata is not None:
            self.errata_panel.preview()
        QTimer.singleShot(0, self.view.fit)
        self.view.fit()
        ctl = getattr(self, "scenario_ctl", None)
        if ctl is not None:   # an open scenario resolves on this map when it is the scenario's
            ctl.map_document_changed(document)
        if old is not None and old is not document:
            old.deleteLater()

    def _update_title(self) -> None:
        d = self.document
        self.setWindowTitle(f"{d.display_name()}{' *' if d.is_dirty else ''} - {d.map.name} - Iron Cross editor")

    def open_file(self, path: str | os.PathLike[str], *, offer_recovery: bool = True) -> bool:
        """Open a map file, or a scenario file (detected by its format) with its map. An invalid
        file shows the validator's messages in a dialog and the current document stays. A newer
        autosave is offered for recovery."""
        from editor.scenario.scenario_files import file_format, is_scenario_format

        if is_scenario_format(file_format(path)):
            try:
                self.scenario_ctl.open(path)
            except (DocumentError, OSError) as e:
                QMessageBox.critical(self, "Cannot open scenario", f"{path} cannot be opened:\n\n{e}")
                return False
            self._add_recent(Path(path))
            return True
        ctl = getattr(self, "scenario_ctl", None)
        if ctl is not None and not ctl.confirm_open_map(path):   # another map than the scenario's: asked
            return False
        try:
            doc = MapDocument.open(path)
        except DocumentError as e:
            QMessageBox.critical(self, "Cannot open map", f"{path} is not a valid map:\n\n{e}")
            return False
        except OSError as e:
            QMessageBox.critical(self, "Cannot open map", str(e))
            return False
        self.set_document(doc)
        self._add_recent(Path(path))
        auto = MapDocument.newer_autosave(path) if offer_recovery else None
        if auto is not None:
            ans = QMessageBox.question(
                self, "Recover autosave",
                f"An autosave of {Path(path).name} newer than the file exists (the editor may have crashed).\n"
                "Recover the autosaved map?")
            if ans == QMessageBox.StandardButton.Yes:
                try:
                    doc.recover_from(auto)
                except DocumentError as e:
                    QMessageBox.warning(self, "Cannot recover", str(e))
            else:
                doc.discard_autosave()
        return True

    def new_document(self) -> None:
        if self._maybe_save():
            self.set_document(MapDocument(new_map()))

    def open_dialog(self) -> None:
        if not self._maybe_save():
            return
        start = str(self.document.path.parent) if self.document.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open map or scenario", start,
                                              "Iron Cross maps and scenarios (*.json);;All files (*)")
        if path:
            self.open_file(path)

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = Path(self.document.path or "map.json")
        if is_shipped_map(start):   # a shipped map is edited into a copy (the shipped scenarios read it)
            start = start.with_name(f"{start.stem}_edited.json")
        path, _ = QFileDialog.getSaveFileName(self, "Save map as", str(start), "Iron Cross maps (*.json)")
        return bool(path) and self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except (DocumentError, OSError, ValueError) as e:
            QMessageBox.critical(self, "Cannot save", str(e))
            return False
        self._add_recent(path)
        self.statusBar().showMessage(f"saved {path}", 4000)
        return True

    def autosave(self) -> Path | None:
        try:
            return self.document.autosave()
        except OSError as e:
            self.statusBar().showMessage(f"autosave failed: {e}", 6000)
            return None

    def _maybe_save(self) -> bool:
        if not self.document.is_dirty:
            return True
        ans = QMessageBox.question(self, "Unsaved changes", f"Save changes to {self.document.display_name()}?",
                                   QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                   | QMessageBox.StandardButton.Cancel)
        if ans == QMessageBox.StandardButton.Save:
            return self.save()
        if ans == QMessageBox.StandardButton.Discard:
            self.document.discard_autosave()
            return True
        return False

    # recent files
    def recent_files(self) -> list[str]:
        v = self.settings.value("recentFiles", [])
        if isinstance(v, str):
            v = [v]
        return [str(x) for x in (v or [])]

    def _add_recent(self, path: Path) -> None:
        p = str(Path(path).resolve())
        files = [p] + [f for f in self.recent_files() if f != p]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])
        self._update_recent_menu()

    def _update_recent_menu(self) -> None:
        self.recent_menu.clear()
        for i, f in enumerate(self.recent_files()):
            a = self.recent_menu.addAction(f"&{i + 1} {Path(f).name}")
            a.setToolTip(f)
            a.triggered.connect(lambda _=False, f=f: self._maybe_save() and self.open_file(f))

    # ------------------------------------------------------------------ edit actions
    def copy(self) -> None:
        self.tools.tools["select"].copy()

    def paste(self) -> None:
        t = self.tools.set_tool("select")
        t.start_paste()

    def rotate_paste(self) -> None:
        t = self.tools.current
        if isinstance(t, SelectTool) and t.pasting is not None:
            t.rotate_paste()

    def name_feature(self) -> None:
        if not self.ctx.selection:
            self.statusBar().showMessage("select the feature's hexes first", 4000)
            return
        name = self.ctx.prompt("Name feature", "Name of the selected hexes (e.g. Hill K):", "")
        if name:
            self.tools.tools["feature"].name_selection(name)

    def resize_map(self, left: int = 0, right: int = 0, top: int = 0, bottom: int = 0) -> bool:
        doc = self.document
        sizes = {"left": left, "right": right, "top": top, "bottom": bottom}
        try:   # an open scenario on this map: what the resize changes in it is said first
            ctl = getattr(self, "scenario_ctl", None)
            how = ctl.confirm_resize(doc, edits.resize_map, **sizes) if ctl is not None else {}
            if how is None:
                return False
            new = edits.resize_map(doc.map, doc.hexmap, **sizes, **how)
        except ValueError as e:
            QMessageBox.warning(self, "Cannot resize", str(e))
            return False
        cmd = C.ResizeMapCommand(doc, f"Resize map (W{left:+d} E{right:+d} N{top:+d} S{bottom:+d})",
                                 fields={k: getattr(new, k) for k in ("extent", "hexes", "roads", "gullies", "features",
                                                                      "buildings", "sections")})
        doc.undo_stack.push(cmd)
        self.view.fit()
        return True

    def set_map_properties(self, name: str, description: str) -> bool:
        """Rename the map and change its description (one undo step); False (and a message)
        for an empty name."""
        name = name.strip()
        if not name:
            self.statusBar().showMessage("a map needs a name", 4000)
            return False
        doc = self.document
        fields = {k: v for k, v in (("name", name), ("description", description)) if getattr(doc.map, k) != v}
        if fields:
            doc.undo_stack.push(C.MapPropertiesCommand(doc, f"Map name: {name}" if "name" in fields
                                                       else "Map description", fields=fields))
        return True

    def map_properties_dialog(self) -> None:
        from PySide6.QtWidgets import QLineEdit, QPlainTextEdit

        dlg = QDialog(self)
        dlg.setWindowTitle("Map name and description")
        form = QFormLayout(dlg)
        name = QLineEdit(self.document.map.name)
        desc = QPlainTextEdit(self.document.map.description)
        form.addRow("Name", name)
        form.addRow("Description", desc)
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        bb.accepted.connect(dlg.accept)
        bb.rejected.connect(dlg.reject)
        form.addRow(bb)
        accepted = dlg.exec() == QDialog.DialogCode.Accepted
        dlg.deleteLater()   # a dialog made for each call: never left behind as the window's child
        if accepted:
            self.set_map_properties(name.text(), desc.toPlainText())

    def resize_dialog(self) -> None:
        dlg = QDialog(self)
        dlg.setWindowTitle("Resize map")
        form = QFormLayout(dlg)
        form.addRow(QLabel("Columns/rows to add (negative: remove) on each edge.\nHexes keep their ids."))
        spins = {}
        for key, label in (("left", "West (left) columns"), ("right", "East (right) columns"),
                           ("top", "Top rows"), ("bottom", "Bottom rows")):
            sp = QSpinBox()
            sp.setRange(-99, 99)
            form.addRow(label, sp)
            spins[key] = sp
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        bb.accepted.connect(dlg.accept)
        bb.rejected.connect(dlg.reject)
        form.addRow(bb)
        accepted = dlg.exec() == QDialog.DialogCode.Accepted
        values = {k: s.value() for k, s in spins.items()}
        dlg.deleteLater()   # a dialog made for each call: never left behind as the window's child
        if accepted:
            self.resize_map(**values)

    # ------------------------------------------------------------------ errata, export
    def open_errata(self, path) -> bool:
        try:
            self.errata_panel.open(path)
        except DocumentError as e:
            QMessageBox.critical(self, "Cannot open errata", str(e))
            return False
        self.errata_dock.show()
        self.errata_dock.raise_()
        return True

    def open_errata_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open errata", "", "Errata (*.json)")
        if path:
            self.open_errata(path)

    def export(self, path: str | os.PathLike[str], whole: bool = True) -> None:
        """Export the whole map (the renderer's PNG/SVG) or the current view (PNG/SVG) to ``path``."""
        ext = Path(path).suffix.lower()
        if ext not in (".png", ".svg"):
            raise ValueError(f"export to .png or .svg, not {ext or 'no extension'}")
        if whole:
            (render_png if ext == ".png" else render_svg)(self.document.hexmap, path)
            return
        if ext == ".png":
            if not self.view.viewport().grab().save(str(path), "PNG"):
                raise OSError(f"cannot write {path}")
            return
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QPainter
        from PySide6.QtSvg import QSvgGenerator

        vp = self.view.viewport().rect()
        gen = QSvgGenerator()
        gen.setFileName(str(path))
        gen.setSize(vp.size())
        gen.setViewBox(vp)
        p = QPainter(gen)
        try:
            with self.scene.map_item.uncached():   # vectors, not the cached pixmap of the view
                self.view.render(p, QRectF(vp), vp)
        finally:
            p.end()

    def export_dialog(self, whole: bool) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export map" if whole else "Export view", "map.png",
                                              "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            try:
                self.export(path, whole)
            except (ValueError, OSError) as e:
                QMessageBox.critical(self, "Cannot export", str(e))

    # ------------------------------------------------------------------ misc
    def set_layer(self, name: str, visible: bool) -> None:
        self.scene.map_item.set_layer(name, visible)
        if name in self.layer_actions and self.layer_actions[name].isChecked() != visible:
            self.layer_actions[name].setChecked(visible)

    def _chart_changed(self, chart) -> None:
        self.ctx.chart = chart
        los = self.tools.tools["los"]
        los._recompute()

    def _tool_changed(self, tool) -> None:
        m = self.mode_of_tool(tool.name)
        if self.mode is not None and m is not None and m != self.mode and not self.set_mode(m):
            return
        self.options_dock.setWidget(tool.options_widget())
        self.options_dock.setWindowTitle(f"Tool options: {tool.label}")
        if tool.name in self.tool_actions:
            self.tool_actions[tool.name].setChecked(True)
        else:
            for a in self.tool_actions.values():
                a.setChecked(False)
        self._tool_status(tool.status)
        if tool.name == "los":
            self.los_dock.show()
            self.los_dock.raise_()

    def _tool_status(self, text: str) -> None:
        self.tool_label.setText(text)

    def _hover(self, h: Hex | None) -> None:
        self.hex_label.setText(self.describe_hex(h) if h is not None else "")

    def _refresh_hover(self) -> None:
        h = self.scene._last_hover
        if h is not None:
            self._hover(h)

    def hex_tooltip(self, h: Hex) -> str:
        """The map's tooltip for hex ``h``: its id, terrain, level, trees, road, buildings,
        features and provenance, then what the scenario shows there (units, marks)."""
        if not self.document.hexmap.contains(h):
            return ""
        return "\n".join([self.describe_hex(h)] + self.scenario_ctl.hex_contents(h.id))

    def describe_hex(self, h: Hex) -> str:
        """Hex id, terrain and provenance for the status bar."""
        hm = self.document.hexmap
        if not hm.contains(h):   # the margin: no hex (its "id" may not even exist, e.g. column -1)
            return "off the map"
        rec = hm.record(h)
        parts = [rec.terrain]
        if rec.trees:
            parts.append(f"{rec.trees} tree{'s' if rec.trees > 1 else ''}" + (" (Woods)" if rec.trees >= 2 else ""))
        if rec.level:
            parts.append(f"level {rec.level}" + (f"/{rec.upper_level}" if rec.upper_level else ""))
        if hm.is_bridge(h):
            parts.append("bridge")
        elif hm.is_road(h):
            parts.append("road")
        elif hm.is_gully(h):
            parts.append("gully")
        for bid in hm.buildings_at(h):
            parts.append(hm.buildings[bid].display_name())
        feats = [f.name for f in hm.doc.features if h.id in f.hexes]
        parts.extend(feats)
        prov = rec.provenance or hm.doc.provenance
        return f"{h.id}: {', '.join(parts)}" + (f"  [{prov.short()}]" if prov else "")

    def _prompt(self, title: str, label: str, default: str = "") -> str | None:
        from editor.drawing.tool import ToolContext

        return ToolContext._ask(title, label, default)

    def closeEvent(self, ev) -> None:  # noqa: N802
        if not self._maybe_save() or not self.scenario_ctl.maybe_save():
            ev.ignore()
            return
        self.los_panel.shutdown()
        self.scenario_ctl.shutdown()
        if self.persist_settings:
            self.settings.setValue("geometry", self.saveGeometry())
            self.mode_layout.save(self.settings, self.mode)
        ev.accept()
