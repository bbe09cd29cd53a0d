"""The scenario side of the main window: :class:`ScenarioController` adds the scenario docks
(properties, OOB, roster, regions, victory, set-up, validation, playtest, watch, hot-seat), the
scenario tools (north, region paint, unit placement, hot-seat play), the Scenario menu and the
overlays, and opens, creates and saves :class:`editor.scenario_document.ScenarioDocument`.

Opening a scenario also opens its map in the map canvas, and the scenario document resolves its
regions on that live map document (:meth:`ScenarioDocument.bind_map`): map edits show in zones,
placement checks and victory at once. A scenario of another rule system
(:class:`editor.system_scenario.SystemScenarioDocument`) binds the same way: its validation and its
games read the live map. Games started here (batch, Watch, Hot-seat) play a snapshot of the
documents in memory (:meth:`ScenarioDocument.playable_copy`). Overlays redraw from the scenario
document's ``changed`` signal.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDockWidget, QFileDialog, QFrame, QMessageBox, QScrollArea, QToolBar, QUndoView

from maps import hexgrid
from maps.document_file import DocumentError
from editor.document import MapDocument
from editor.hotseat import HotseatPanel, HotseatTool
from editor.playtest_dock import PlaytestPanel
from editor.scenario_docks import (
    UNIT_MIME,
    OOBPanel,
    PropertiesPanel,
    RegionPanel,
    RosterPanel,
    SetupPanel,
    ValidationPanel,
    parse_json_path,
)
from editor.scenario_document import ScenarioDocument
from editor.scenario_forms import SidesPanel
from editor.victory_builder import VictoryPanel
from editor.scenario_overlay import (
    DESIGNER_LAYERS,
    GAME_LAYERS,
    SCENARIO_LAYERS,
    CounterSpec,
    CountersItem,
    LegendItem,
    ScenarioOverlay,
    ZoneLabelsItem,
    compass_items,
    group_colour,
    heat_items,
    map_bottom,
    marks_items,
    region_items,
)
from editor.system_scenario import SystemScenarioDocument, SystemScenarioPanel, is_forms_scenario
from editor.scenario_tools import NorthTool, PlacementTool, RegionPaintTool, RegionPickTool, SetupMarkTool
from editor.watch import WatchPanel

__all__ = ["ScenarioController", "SCENARIO_TOOLS"]

#: the tools that edit the scenario (its undo stack is the active one while they are)
SCENARIO_TOOLS = ("north", "region", "place", "marks", "hotseat", "tableplace", "tape")
#: the docks of the Scenario mode (left and right tab groups) and of the Play mode
SCENARIO_LEFT = ("properties", "sides", "oob", "roster")
SCENARIO_RIGHT = ("setup", "regions", "victory", "validation", "history")
PLAY_DOCKS = ("playtest", "watch", "hotseat")


class _DropFilter(QObject):
    """Accepts units dragged from the OOB / set-up trees onto the map viewport."""

    def __init__(self, ctl: "ScenarioController"):
        super().__init__(ctl.win)
        self.ctl = ctl

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802
        t = ev.type()
        if t in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and ev.mimeData().hasFormat(UNIT_MIME):
            ev.acceptProposedAction()
            return True
        if t == QEvent.Type.Drop and ev.mimeData().hasFormat(UNIT_MIME):
            uid = bytes(ev.mimeData().data(UNIT_MIME)).decode()
            pos = self.ctl.win.view.mapToScene(ev.position().toPoint())
            from editor.map_painter import hex_at_scene

            h = hex_at_scene(pos.x(), pos.y())
            if self.ctl.win.scene.on_map(h):   # dropped in the margin: nothing happens
                self.ctl.drop_unit(uid, h.id)
            else:
                self.ctl.win.statusBar().showMessage("off the map: the unit is not placed", 4000)
            ev.acceptProposedAction()
            return True
        return False


class ScenarioController(QObject):
    def __init__(self, win):
        super().__init__(win)
        self.win = win
        self.doc: ScenarioDocument | None = None
        self.overlay = ScenarioOverlay(win.scene)
        ctx = win.ctx
        ctx.scenario = None
        ctx.region_loc = None
        ctx.unit = None
        self.tools = {}
        from editor.tabletop_tools import TablePlaceTool, TapeTool

        ctx.table_scenario = None   # a scenario of a measured system (editor.tabletop_tools)
        for cls in (NorthTool, RegionPaintTool, PlacementTool, SetupMarkTool, HotseatTool, RegionPickTool,
                    TablePlaceTool, TapeTool):
            t = win.tools.add(cls(ctx))
            t.status_changed.connect(win._tool_status)
            self.tools[t.name] = t
        self._make_docks()
        self.tools["hotseat"].panel = self.hotseat
        self.tools["marks"].panel = self.setup_panel
        # another rule system's scenario form: a hex field or list is set by clicking the map
        from editor.system_form import FormPickTool

        t = win.tools.add(FormPickTool(ctx))
        t.status_changed.connect(win._tool_status)
        t.form = self.system_panel.form
        self.tools[t.name] = t
        self.system_panel.form.pick_wanted.connect(self._form_pick_wanted)
        self.system_panel.form.selection_changed.connect(lambda _loc: self._draw_form_selection())
        win.autosave_timer.timeout.connect(self.autosave_system)
        # Undo/Redo (Edit menu, Ctrl+Z / Ctrl+Shift+Z) act on the scenario's stack after a scenario
        # is opened, a scenario panel takes the focus or a scenario tool is chosen; on the map's
        # after a map tool is chosen or a map dock (history, chart...) takes the focus
        from PySide6.QtWidgets import QApplication

        QApplication.instance().focusChanged.connect(self._focus_changed)
        win.view.setAcceptDrops(True)
        win.view.viewport().setAcceptDrops(True)
        self._drop = _DropFilter(self)
        win.view.viewport().installEventFilter(self._drop)

    # ------------------------------------------------------------------ docks
    def _make_docks(self) -> None:
        w = self.win
        right, left = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea

        def dock(title, widget, area, name):
            d = QDockWidget(title, w)
            d.setObjectName(name)
            # a scroll area, so a tall panel never forces the window taller than the screen
            scroll = QScrollArea(d)
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(widget)
            d.setWidget(scroll)
            w.addDockWidget(area, d)
            d.hide()
            return d

        self.properties = PropertiesPanel()
        self.oob = OOBPanel()
        self.oob.prompt = w._prompt
        self.roster = RosterPanel()
        self.regions = RegionPanel()
        self.regions.prompt = w._prompt
        self.victory = VictoryPanel()
        self.setup_panel = SetupPanel()
        self.validation = ValidationPanel()
        self.playtest = PlaytestPanel(self.playable_file, fixed_setup=self.designers_setup)
        self.sides = SidesPanel()
        # Watch and Hot-seat play with the Playtest panel's AIs and rules (Watch: its seed and set-up too)
        self.watch = WatchPanel(self.overlay, self.playable_file, settings=self.playtest.game_settings,
                                describe_settings=self.playtest.describe_settings)
        self.hotseat = HotseatPanel(self.overlay, self.playable_file, settings=self.playtest.game_settings,
                                    fixed_setup=self.designers_setup, describe_settings=self.playtest.describe_settings)
        self.playtest.settings_changed.connect(self.watch.update_settings)
        self.playtest.settings_changed.connect(self.hotseat.update_settings)
        self.scenario_history = QUndoView()
        self.system_panel = SystemScenarioPanel()   # a scenario of another rule system
        self.docks = {
            # Scenario mode, left: what the scenario is
            "properties": dock("Scenario", self.properties, left, "sc_properties"),
            "sides": dock("Sides", self.sides, left, "sc_sides"),
            "oob": dock("Orders of battle", self.oob, left, "sc_oob"),
            "roster": dock("Counter roster", self.roster, left, "sc_roster"),
            # Scenario mode, right: where it happens
            "setup": dock("Set-up", self.setup_panel, right, "sc_setup"),
            "regions": dock("Regions", self.regions, right, "sc_regions"),
            "victory": dock("Victory", self.victory, right, "sc_victory"),
            "validation": dock("Validation", self.validation, right, "sc_validation"),
            "history": dock("History", self.scenario_history, right, "sc_history"),
            # Play mode
            "playtest": dock("Playtest", self.playtest, right, "sc_playtest"),
            "watch": dock("Watch", self.watch, right, "sc_watch"),
            "hotseat": dock("Hot-seat", self.hotseat, right, "sc_hotseat"),
            # Scenario mode for a scenario of another rule system: what is generic about it
            "system": dock("Scenario (other rule system)", self.system_panel, left, "sc_system"),
        }
        self.docks["history"].setToolTip("the scenario's undo history")
        for names in (SCENARIO_LEFT, SCENARIO_RIGHT, PLAY_DOCKS):
            for a, b in zip(names, names[1:]):
                w.tabifyDockWidget(self.docks[a], self.docks[b])
        w.mode_docks["scenario"] = [self.docks[n] for n in SCENARIO_LEFT + SCENARIO_RIGHT]
        w.mode_docks["play"] = [self.docks[n] for n in PLAY_DOCKS]
        #: the docks of no mode now (the forms while another system's scenario is open, or its
        #: panel while a forms scenario is): kept hidden by the mode switch
        w.mode_docks["unused"] = [self.docks["system"]]
        w.mode_layouts["scenario"] = self._scenario_layout
        w.mode_layouts["play"] = self._play_layout
        #: the game view shown ("watch", "hotseat") or None: it hides the designer's layers
        self.game_view: str | None = None
        w.mode_changed.connect(lambda _m: self.update_game_view())
        for n in PLAY_DOCKS:
            self.docks[n].visibilityChanged.connect(lambda _v: self.update_game_view())
        self.overlay.set_suppressed([x for names in GAME_LAYERS.values() for x in names])
        self._make_layer_menu()
        self.regions.region_selected.connect(self._region_selected)
        self.victory.pick_region.connect(self.pick_region_on_map)
        self.regions.preview_changed.connect(self.preview_region)
        # the region builder's Pick buttons: clicks on the map go to the field (issue 17 item 1)
        from editor.region_builder import picker

        self._tool_before_pick: str | None = None
        picker().active_changed.connect(self._picking_changed)
        picker().picked.connect(self._draw_picked)
        self.validation.go_to.connect(self.go_to)
        self.oob.unit_selected.connect(self._unit_selected)
        self.setup_panel.tree.currentItemChanged.connect(
            lambda it, _p: it is not None and it.data(0, Qt.ItemDataRole.UserRole + 1)
            and self._unit_selected(it.data(0, Qt.ItemDataRole.UserRole + 1)))
        self.playtest.heat_changed.connect(self._heat)
        w.tools.tool_changed.connect(self._tool_changed)
        # menus
        mb = w.menuBar()
        f = next(a.menu() for a in mb.actions() if a.text() == "&File")
        first = f.actions()[2] if len(f.actions()) > 2 else None
        for text, slot, key in (("New scenario on this map...", self.new_scenario_dialog, "Ctrl+Alt+N"),
                                ("Open scenario...", self.open_dialog, "Ctrl+Alt+O"),
                                ("Save scenario", self.save, "Ctrl+Alt+S"),
                                ("Save scenario as...", self.save_as, None)):
            a = w._act(f, text, slot, key)
            if first is not None:
                f.removeAction(a)
                f.insertAction(first, a)
        m = mb.addMenu("S&cenario")
        w._act(m, "Evaluate victory now", self.victory.evaluate_now, "Ctrl+Alt+E")
        w._act(m, "Run playtest batch", self._run_batch, "Ctrl+Alt+P")
        m.addSeparator()
        for name in SCENARIO_TOOLS:
            t = self.tools[name]
            a = w._act(m, t.label, lambda _=False, n=name: w.tools.set_tool(n), t.shortcut, checkable=True)
            a.setToolTip(f"{t.help} ({t.shortcut})")
            w.tool_actions[name] = a
        # a tool bar per mode (shown with its mode); the actions stay enabled, so a tool's shortcut
        # works in any mode and switches to the tool's mode
        from editor.main_window import MODE_TOOLS

        for mode, title in (("scenario", "Scenario tools"), ("play", "Play tools")):
            tb = QToolBar(title, w)
            tb.setObjectName(f"{mode}_tools")
            w.addToolBar(Qt.ToolBarArea.TopToolBarArea, tb)
            for name in MODE_TOOLS[mode]:
                tb.addAction(w.tool_actions[name])
            tb.hide()
            w.mode_bars[mode] = tb
        group = next((a.actionGroup() for a in w.tool_actions.values() if a.actionGroup() is not None), None)
        if group is not None:
            for name in SCENARIO_TOOLS:
                group.addAction(w.tool_actions[name])

    def _make_layer_menu(self) -> None:
        """View > Scenario layers: a check box per layer and its opacity (issue 16 item 6)."""
        from PySide6.QtGui import QAction, QActionGroup

        w = self.win
        v = w.view_menu
        m = v.addMenu("Scenario &layers")
        v.insertMenu(w.docks_menu.menuAction(), m)
        self.layer_actions: dict[str, QAction] = {}
        self.opacity_actions: dict[str, dict[int, QAction]] = {}
        for key, label, _names in SCENARIO_LAYERS:
            a = QAction(label, w)
            a.setCheckable(True)
            a.setChecked(True)
            a.toggled.connect(lambda on, k=key: self.set_layer(k, on))
            m.addAction(a)
            self.layer_actions[key] = a
        m.addSeparator()
        om = m.addMenu("Opacity")
        for key, label, _names in SCENARIO_LAYERS:
            sub = om.addMenu(label)
            group = QActionGroup(w)
            self.opacity_actions[key] = {}
            for pct in (100, 75, 50, 25):
                a = QAction(f"{pct} %", w)
                a.setCheckable(True)
                a.setChecked(pct == 100)
                a.triggered.connect(lambda _=False, k=key, x=pct: self.set_layer_opacity(k, x / 100))
                group.addAction(a)
                sub.addAction(a)
                self.opacity_actions[key][pct] = a

    def set_layer(self, key: str, on: bool) -> None:
        """Show or hide a scenario layer of the View menu ("zones", "labels", "setup", "marks",
        "heat", "compass")."""
        names = next(n for k, _l, n in SCENARIO_LAYERS if k == key)
        for n in names:
            self.overlay.set_visible(n, on)
        a = self.layer_actions.get(key)
        if a is not None and a.isChecked() != on:
            a.setChecked(on)

    def set_layer_opacity(self, key: str, opacity: float) -> None:
        names = next(n for k, _l, n in SCENARIO_LAYERS if k == key)
        for n in names:
            self.overlay.set_opacity(n, opacity)
        pct = int(round(opacity * 100))
        a = self.opacity_actions.get(key, {}).get(pct)
        if a is not None and not a.isChecked():
            a.setChecked(True)

    def update_game_view(self) -> None:
        """In the Play mode, the Watch or Hot-seat tab in front is a game view: its game is drawn
        and the designer's layers (trial set-up, hidden hexes and mines, the selected region, the
        heat map) are hidden, so no phantom stacks mix with the game's counters; elsewhere the
        games are hidden and the designer's layers shown (as the View menu has them)."""
        w = self.win
        import shiboken6

        if not shiboken6.isValid(w):   # a dock hidden while the window is destroyed
            return
        view = None
        if w.mode == "play" and self.doc is not None:
            if w.dock_on_top(self.docks["watch"]):
                view = "watch"
            elif w.dock_on_top(self.docks["hotseat"]):
                view = "hotseat"
        self.game_view = view
        hide = [n for v, names in GAME_LAYERS.items() if v != view for n in names]
        if view is not None:
            hide += list(DESIGNER_LAYERS)
        self.overlay.set_suppressed(hide)

    # ------------------------------------------------------------------ documents
    def open(self, path: str | os.PathLike[str]) -> ScenarioDocument | SystemScenarioDocument:
        """Open a scenario file (and its map); raises DocumentError / OSError. A scenario of
        another rule system than the forms edit opens read-only (:class:`SystemScenarioDocument`)."""
        if is_forms_scenario(path):
            doc = ScenarioDocument.open(path, self)
        else:
            doc = SystemScenarioDocument.open(path, self)
        self.set_document(doc)
        auto = doc.newer_autosave() if not isinstance(doc, SystemScenarioDocument) or doc.editable else None
        if auto is not None:
            ans = QMessageBox.question(self.win, "Recover autosave",
                                       f"An autosave of {doc.display_name()} newer than the file exists (the editor may "
                                       "have crashed).\nRecover the autosaved scenario?")
            if ans == QMessageBox.StandardButton.Yes:
                try:
                    doc.recover_from(auto)
                except DocumentError as e:   # a damaged autosave: the file as saved stays open
                    QMessageBox.warning(self.win, "Cannot recover autosave", str(e))
            else:
                doc.discard_autosave()
        return doc

    def new_scenario(self, map_path: str | os.PathLike[str] | None = None) -> ScenarioDocument:
        mp = map_path or self.win.document.path
        if mp is None:
            raise ValueError("save the map first: a scenario refers to a map file")
        doc = ScenarioDocument.create(mp, self)
        self.set_document(doc)
        return doc

    def _use_forms(self, forms: bool) -> None:
        """Scenario mode shows the forms (a forms scenario) or the other system's panel."""
        w = self.win
        panels = [self.docks[n] for n in SCENARIO_LEFT + SCENARIO_RIGHT]
        other = [self.docks["system"]]
        w.mode_docks["scenario"] = panels if forms else other
        w.mode_docks["unused"] = other if forms else panels
        for d in w.mode_docks["unused"]:
            d.hide()
        if w.mode == "scenario":
            for d in w.mode_docks["scenario"]:
                d.show()

    @property
    def system(self):
        """The rule system of the open scenario (the forms' system without one)."""
        from core.rule_system import get

        return getattr(self.doc, "system", None) or get(None)

    def set_document(self, doc: ScenarioDocument | SystemScenarioDocument) -> None:
        old = self.doc
        if isinstance(doc, SystemScenarioDocument):
            self._set_system_document(doc, old)
            return
        self._use_forms(True)
        self.system_panel.set_document(None)
        self.win.ctx.other_system_note = None
        self.win.ctx.table_scenario = None
        self.doc = doc
        self.playtest.set_system(self.system)
        self.hotseat.set_system(self.system)
        self.win.update_mode_actions()
        self.win.ctx.scenario = doc
        self.win.ctx.region_loc = None
        self.win.ctx.unit = None
        mp = doc.map_file()
        if self.win.document.path is None or Path(self.win.document.path).resolve() != mp.resolve():
            try:
                self.win.set_document(MapDocument.open(mp))
            except (DocumentError, OSError):
                pass
        self.map_document_changed(self.win.document)   # one truth: the scenario sees the live map
        for p in (self.properties, self.oob, self.regions, self.victory, self.setup_panel, self.validation, self.sides):
            p.setEnabled(True)
            p.set_document(doc)
        self.roster.set_document(doc)
        self._attach(doc)
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, self.fit)
        self.overlay.clear()
        self.redraw("scenario")
        self.update_title()
        if old is not None and old is not doc:
            old.bind_map(None)
            old.deleteLater()
        if doc.placement_error is not None:
            QMessageBox.warning(self.win, "Set-up not loaded",
                                f"The designer's set-up beside the scenario cannot be read; the scenario opens "
                                f"without it:\n\n{doc.placement_error}")
        else:
            n = len(doc.setup_problems())
            if n:
                from editor.scenario_document import placement_path

                self.win.statusBar().showMessage(f"{placement_path(doc.path).name}: {n} set-up problem(s), listed in "
                                                 "the Validation dock", 10000)
                self.docks["validation"].show()
                self.docks["validation"].raise_()

    def _form_pick_wanted(self, on: bool) -> None:
        """A hex field of the form is selected: map clicks pick hexes (the Pick tool)."""
        if on and self.win.mode == "scenario" and self.win.tools.current is not self.tools["formpick"]:
            self.win.tools.set_tool("formpick")

    def _draw_form_selection(self) -> None:
        """The hexes of the form's selection (a set-up zone, a hex list, a hex), highlighted."""
        if isinstance(self.doc, SystemScenarioDocument):
            self.overlay.set_layer("region", region_items(self.system_panel.form.highlighted(), "paint", None, None))

    def autosave_system(self) -> None:
        """The autosave timer: the scenario (of any rule system) with unsaved edits is written beside its file."""
        if self.doc is not None:
            try:
                self.doc.autosave()
            except OSError as e:
                self.win.statusBar().showMessage(f"scenario autosave failed: {e}", 6000)

    def new_system_scenario(self, system_name: str, path: str | os.PathLike[str], map_path: str | os.PathLike[str],
                            sections: list[str], title: str = "New scenario") -> SystemScenarioDocument:
        """Write a new scenario of the rule system ``system_name`` to ``path`` (the system's
        ``new_scenario`` on ``map_path``, named relative to ``path``, and ``sections``) and open it.
        Raises ValueError (a system without ``new_scenario``, a bad section), OSError."""
        from core.rule_system import get
        from maps.document_file import atomic_write_text

        system = get(system_name)
        if system.new_scenario is None:
            raise ValueError(f"{system.title} cannot make a new scenario in the editor")
        path = Path(path)
        try:
            ref = os.path.relpath(Path(map_path).resolve(), path.resolve().parent).replace(os.sep, "/")
        except ValueError:
            ref = str(Path(map_path).resolve())
        cwd = os.getcwd()
        try:   # the system reads the map through the reference, relative to the new file's folder
            os.chdir(path.resolve().parent)
            data = system.new_scenario(ref, list(sections), title)
        finally:
            os.chdir(cwd)
        from editor.system_form import dump_like

        atomic_write_text(path, dump_like(data, None))
        return self.open(path)

    def _set_system_document(self, doc: SystemScenarioDocument, old) -> None:
        """A scenario of another rule system: its panel instead of the forms, its map, its
        sections outlined; Playtest, Watch and Hot-seat play it through its system."""
        self.doc = doc
        self._use_forms(False)
        for p in (self.properties, self.oob, self.regions, self.victory, self.setup_panel, self.validation, self.sides):
            p.setEnabled(False)
        self.win.update_mode_actions()
        self.win.ctx.scenario = None   # the scenario tools edit forms scenarios only
        self.win.ctx.table_scenario = doc   # the tabletop tools set up a measured system's units
        self.win.ctx.other_system_note = (f"{doc.display_name()} is a {doc.system.title} scenario: the scenario tools "
                                          "edit the forms' scenarios; " + (
                                              "edit it in the Scenario dock's form (Pick tool for hexes)"
                                              if doc.editable else "edit it in its file for now"))
        self.win.ctx.region_loc = None
        self.win.ctx.unit = None
        mp = doc.map_file()
        if mp is not None and mp.is_file() and (
                self.win.document.path is None or Path(self.win.document.path).resolve() != mp.resolve()):
            try:
                self.win.set_document(MapDocument.open(mp))
            except (DocumentError, OSError):
                pass
        self.system_panel.set_document(doc)
        # one truth: while the window shows the scenario's map file, the document reads that live
        # map (validation and games included); an edit of map.file binds or unbinds it again
        self.map_document_changed(self.win.document)
        doc.changed.connect(lambda _w, d=doc: d is self.doc and self.map_document_changed(self.win.document))
        self.playtest.set_system(doc.system)
        self.hotseat.set_system(doc.system)
        was = self.win.mode
        self._attach(doc)
        if was not in (None, "map"):
            self._use_forms(False)
        self.docks["system"].show()
        self.docks["system"].raise_()
        self.win.resizeDocks([self.docks["system"]], [375], Qt.Orientation.Horizontal)
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, self.fit)
        self.overlay.clear()
        self.redraw("scenario")
        self.update_title()
        if old is not None and old is not doc:
            old.bind_map(None)
            old.deleteLater()

    def map_document_changed(self, map_doc) -> None:
        """The window shows another map document: the scenario (of any system) resolves on it
        when it is the scenario's map file, else on that file as saved."""
        doc = self.doc
        if doc is None:
            return
        mf = doc.map_file()
        same = map_doc is not None and map_doc.path is not None and mf is not None and \
            Path(map_doc.path).resolve() == mf.resolve()
        doc.bind_map(map_doc if same else None)
        if same and not getattr(map_doc, "_scenario_watch", False):
            map_doc._scenario_watch = True
            map_doc.path_changed.connect(lambda p, m=map_doc: self._map_saved_as(m, p))

    def _map_saved_as(self, map_doc, path) -> None:
        """The scenario's map was saved under another name: the scenario names the new file (an
        undoable scenario edit), so what it is saved with is what the designer sees."""
        doc = self.doc
        if doc is None or doc.map_document is not map_doc or path is None:
            return
        mf = doc.map_file()
        if mf is not None and Path(path).resolve() == mf.resolve():
            return
        if isinstance(doc, SystemScenarioDocument):
            if not doc.editable:   # edited in its file: it plays the file it names, as saved
                doc.bind_map(None)
                return
            import copy

            from editor.system_form import DataCommand

            after = copy.deepcopy(doc.data)
            try:   # named relative to the scenario file, as File > New scenario names it
                ref = os.path.relpath(Path(path).resolve(), doc.path.resolve().parent).replace(os.sep, "/")
            except ValueError:   # another drive
                ref = str(Path(path).resolve())
            after["map"]["file"] = ref
            doc.push(DataCommand(doc, f"Map saved as {Path(path).name}", copy.deepcopy(doc.data), after))
            return
        doc.edit(f"Map saved as {Path(path).name}",
                 lambda d: d["map"].__setitem__("file", str(Path(path).resolve())))

    def _scenario_layout(self) -> None:
        """The Scenario mode's default layout: the scenario's forms left, its map-related panels right
        (a scenario of another rule system: its panel)."""
        w = self.win
        if isinstance(self.doc, SystemScenarioDocument):
            self.docks["system"].show()
            self.docks["system"].raise_()
            w.resizeDocks([self.docks["system"]], [375], Qt.Orientation.Horizontal)
            return
        for n in SCENARIO_LEFT + SCENARIO_RIGHT:
            self.docks[n].show()
        self.docks[SCENARIO_LEFT[0]].raise_()
        self.docks[SCENARIO_RIGHT[0]].raise_()
        w.resizeDocks([self.docks[SCENARIO_LEFT[0]], self.docks[SCENARIO_RIGHT[0]]], [375, 375],
                      Qt.Orientation.Horizontal)

    def _play_layout(self) -> None:
        """The Play mode's default layout: batch, Watch and Hot-seat tabbed right, the map large."""
        for n in PLAY_DOCKS:
            self.docks[n].show()
        self.docks[PLAY_DOCKS[0]].raise_()
        self.win.resizeDocks([self.docks[PLAY_DOCKS[0]]], [440], Qt.Orientation.Horizontal)

    def fit(self) -> None:
        """Fit the view to the scenario's playing area with the compass rose and the legend in
        the margin (the legend has a constant size on screen: the fit is refined for it)."""
        if self.doc is None:
            self.win.view.fit()
            return

        from editor.canvas import hex_path

        try:
            area = self.doc.context.area
        except Exception:  # noqa: BLE001
            area = None
        if not area:
            self.win.view.fit()
            return
        view = self.win.view
        r = hex_path(area).boundingRect().adjusted(-60, -60, 60, 60)
        # the compass rose and the legend have a constant size on screen: their size in scene
        # units depends on the scale, so the fit is refined
        fixed = [it for name in ("compass", "legend") for it in self.overlay.layers.get(name, [])
                 if it.flags() & it.GraphicsItemFlag.ItemIgnoresTransformations and it.boundingRect().width() > 30]
        fitted = r
        for _ in range(3):
            view.fitInView(fitted, Qt.AspectRatioMode.KeepAspectRatio)
            s = max(view.scale_factor(), 1e-3)
            fitted = r
            for it in fixed:
                b = it.boundingRect()
                fitted = fitted.united(QRectF(it.pos() + QPointF(b.left() / s, b.top() / s),
                                              QSizeF(b.width() / s + 20, b.height() / s + 20)))
        view.zoom_changed.emit(view.scale_factor())

    def _extra_scene_rect(self) -> None:
        """Let the view scroll to the compass rose and the legend in the margin."""
        r = QRectF()
        for it in self.overlay.layers.get("compass", []):
            if it.data(0) == "compass-rose":
                r = r.united(QRectF(it.pos() - QPointF(600, 900), QSizeF(1200, 900)))
        for it in self.overlay.layers.get("legend", []):
            r = r.united(QRectF(it.pos(), QSizeF(2500, 900)))
        self.win.scene.extra_rect = r
        self.win.scene.update_rect()

    def update_title(self) -> None:
        self.win._update_title()
        if self.doc is not None:
            t = self.win.windowTitle()
            title = self.doc.title if isinstance(self.doc, SystemScenarioDocument) else self.doc.scenario.title
            self.win.setWindowTitle(f"{title} ({self.doc.display_name()}"
                                    f"{' *' if self.doc.is_dirty else ''}) - {t}")

    def playable_file(self, folder: str) -> Path:
        """A snapshot of the scenario, the live map with its chart and the roster in memory, for a
        game started here (:meth:`ScenarioDocument.playable_copy`)."""
        if self.doc is None:
            raise ValueError("no scenario is open")
        return self.doc.playable_copy(folder)

    def designers_setup(self) -> dict | None:
        """The designer's set-up for "Use this set-up"; raises ValueError listing every problem
        (the games would not start from what is placed)."""
        if self.doc is None:
            return None
        problems = self.doc.setup_problems()
        if problems:
            raise ValueError(f"the set-up has {len(problems)} problem(s) (Validation dock): "
                             + "; ".join(str(p) for p in problems[:5]) + (" ..." if len(problems) > 5 else ""))
        return self.doc.fixed_setup()

    def _read_only(self) -> bool:
        """A scenario of another rule system is edited in its file: say so (True) when it is open."""
        if isinstance(self.doc, SystemScenarioDocument) and not self.doc.editable:
            self.win.statusBar().showMessage(f"{self.doc.display_name()} is a {self.doc.system.title} scenario: "
                                             "it is edited in its file for now (nothing to save here)", 6000)
            return True
        return False

    def save(self) -> bool:
        if self.doc is None or self._read_only():
            return False
        if self.doc.path is None:
            return self.save_as()
        try:
            self.doc.save()
        except (DocumentError, OSError, ValueError) as e:
            QMessageBox.critical(self.win, "Cannot save scenario", str(e))
            return False
        self.win.statusBar().showMessage(f"saved {self.doc.path}", 4000)
        return True

    def save_as(self) -> bool:
        if self.doc is None or self._read_only():
            return False
        path, _ = QFileDialog.getSaveFileName(self.win, "Save scenario as", str(self.doc.path or "scenario.json"),
                                              "Iron Cross scenarios (*.json)")
        if not path:
            return False
        try:
            self.doc.save(path)
        except (DocumentError, OSError, ValueError) as e:
            QMessageBox.critical(self.win, "Cannot save scenario", str(e))
            return False
        return True

    def maybe_save(self) -> bool:
        if self.doc is None or not self.doc.is_dirty:
            return True
        ans = QMessageBox.question(self.win, "Unsaved scenario", f"Save changes to {self.doc.display_name()}?",
                                   QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                   | QMessageBox.StandardButton.Cancel)
        if ans == QMessageBox.StandardButton.Save:
            return self.save()
        if ans == QMessageBox.StandardButton.Discard:
            self.doc.discard_autosave()   # changes thrown away: nothing to offer on the next open
            return True
        return False

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self.win, "Open scenario", "", "Iron Cross scenarios (*.json)")
        if path:
            try:
                self.open(path)
            except (DocumentError, OSError) as e:
                QMessageBox.critical(self.win, "Cannot open scenario", str(e))

    def new_scenario_dialog(self) -> None:
        if not self.maybe_save():
            return
        from core.rule_system import installed

        systems = [s for s in installed() if s.name == "ironcross" or s.new_scenario is not None]
        if len(systems) > 1:
            from PySide6.QtWidgets import QInputDialog

            labels = [f"{s.title} ({s.name})" for s in systems]
            choice, ok = QInputDialog.getItem(self.win, "New scenario", "Rule system:", labels, 0, False)
            if not ok:
                return
            system = systems[labels.index(choice)]
            if system.name != "ironcross":
                return self._new_system_scenario_dialog(system)
        try:
            self.new_scenario()
        except (ValueError, DocumentError, OSError) as e:
            QMessageBox.critical(self.win, "Cannot create scenario", str(e))

    def _new_system_scenario_dialog(self, system) -> None:
        """Another system's new scenario: its map section (of the map shown) and its file name."""
        from PySide6.QtWidgets import QInputDialog

        mp = self.win.document.path
        if mp is None:
            QMessageBox.critical(self.win, "Cannot create scenario", "save the map first: a scenario refers to a map file")
            return
        names = [sec.name for sec in self.win.document.map.sections] if hasattr(self.win.document, "map") else []
        sections: list[str] = []
        if names:
            sec, ok = QInputDialog.getItem(self.win, "New scenario", "Map section played on:", names, 0, False)
            if not ok:
                return
            sections = [sec]
        path, _ = QFileDialog.getSaveFileName(self.win, f"New {system.title} scenario",
                                              str(Path(mp).parent / f"{system.name}_scenario.json"),
                                              "Scenarios (*.json)")
        if not path:
            return
        try:
            self.new_system_scenario(system.name, path, mp, sections)
        except (ValueError, DocumentError, OSError) as e:
            QMessageBox.critical(self.win, "Cannot create scenario", str(e))

    def shutdown(self) -> None:
        self.playtest.shutdown()
        self.watch.shutdown()
        if isinstance(self.doc, SystemScenarioDocument):   # the window closes: the scenario reads its file again
            self.doc.bind_map(None)

    # ------------------------------------------------------------------ overlays
    def redraw(self, what: str = "scenario") -> None:
        doc = self.doc
        if doc is None:
            return
        if isinstance(doc, SystemScenarioDocument):   # its map sections, outlined
            area = {h.id for h in doc.context.area}
            zones = region_items(area, "setup", None, colour=QColor(90, 90, 90)) if area else []
            form = self.system_panel.form
            if doc.editable and form.doc is doc:   # each side's hexes (set-up zones...) in its colour
                for side in doc.system.sides:
                    if isinstance(doc.data, dict) and side in doc.data:
                        zones += region_items(form.hexes_of((side,)), "setup", side)
            self.overlay.set_layer("zones", zones)
            for name in ("labels", "compass", "legend", "units", "marks"):
                self.overlay.set_layer(name, [])
            self._draw_table_setup(doc)
            self._draw_form_selection()
            self.update_title()
            return
        if what == "scenario":
            zones, labels, legend = [], [], []
            sc = doc.scenario
            for side in ("german", "russian"):
                for gi, g in enumerate(sc.side(side).groups):
                    colour = group_colour(side, gi)   # one colour per group
                    if g.setup is not None:
                        hexes, _ = doc.resolve(g.setup.region)
                        zones += region_items(hexes, "setup", side, colour=colour)
                        labels.append((f"{g.name} ({len(hexes)})", colour, hexes))
                        legend.append(("setup", colour, f"{g.name}: sets up"))
                    else:
                        for o in g.entry.options:
                            hexes, _ = doc.resolve(o.region)
                            zones += region_items(hexes, "entry", side, colour=colour)
                            labels.append((f"{g.name}: enters turn {o.turn} ({len(hexes)})", colour, hexes))
                        turns = "/".join(str(o.turn) for o in g.entry.options)
                        legend.append(("entry", colour, f"{g.name}: enters turn {turns}"))
            from scenarios.victory import iter_condition_regions

            seen = set()
            for _loc, r in iter_condition_regions(sc.victory):
                hexes, _ = doc.resolve(r)
                key = frozenset(hexes)
                if key in seen or not hexes:
                    continue
                seen.add(key)
                zones += region_items(hexes, "victory", None)
                if len(hexes) > 3:   # a victory hex or two is evident from its hatching
                    text = r.describe()
                    labels.append(((text if len(text) <= 28 else text[:27] + "...") + f" ({len(hexes)})",
                                   QColor(130, 95, 0), hexes))
            if seen:
                legend.append(("victory", QColor(0, 0, 0), "victory area"))
            for side in ("german", "russian"):
                if doc.scenario.side(side).hidden_hexes:
                    from editor.scenario_overlay import SIDE_COLOURS

                    legend.append(("hidden", SIDE_COLOURS[side], f"{side.capitalize()} hidden hex"))
            if any(doc.scenario.side(s).mine_factors(t) for s in ("german", "russian") for t in ("AP", "AT")):
                legend.append(("mines", QColor(120, 0, 0), "mine factors"))
            self.overlay.set_layer("zones", zones)
            self.overlay.set_layer("labels", [ZoneLabelsItem(labels)] if labels else [])
            cols = self._area_columns()
            try:
                self.overlay.set_layer("compass", compass_items(sc.north, doc.hexmap, cols))
            except Exception:  # noqa: BLE001 - a north indicator off the map: nothing to draw
                self.overlay.set_layer("compass", [])
            if legend:
                from editor.scenario_overlay import hex_centre

                hm = doc.hexmap
                c0 = cols[0] if cols else hm.first_column
                at = QPointF(hex_centre(hexgrid.Hex(c0, hm.last_row)).x() - 40, map_bottom(hm, cols) + 40)
                self.overlay.set_layer("legend", [LegendItem(legend, at)])
            else:
                self.overlay.set_layer("legend", [])
            self._extra_scene_rect()
            self._region_selected(self.win.ctx.region_loc)
        self.draw_units()
        self.update_title()

    def _draw_table_setup(self, doc) -> None:
        """A measured system's units where they set up (``setup_pieces``), unless the Set-up tool
        (which draws them itself, with the selected piece's arc and reach) is the current one."""
        from core.rule_system import ScenarioError
        from editor.tabletop_tools import setup_items, table_document

        cur = self.win.tools.current
        if table_document(self.win.ctx) is not doc:
            return
        if cur is not None and cur.name == "tableplace":
            cur.show()
            return
        try:
            self.overlay.set_layer("units", setup_items(doc))
        except ScenarioError as e:   # the System panel lists the scenario's problems
            self.win.statusBar().showMessage(f"the set-up cannot be drawn: {e}", 8000)

    def _area_columns(self) -> tuple[int, int] | None:
        try:
            area = self.doc.context.area
        except Exception:  # noqa: BLE001 - no playing area (sections that do not resolve)
            return None
        if not area:
            return None
        return min(h.col for h in area), max(h.col for h in area)

    def draw_units(self) -> None:
        doc = self.doc
        st = doc.setup() if doc is not None and not isinstance(doc, SystemScenarioDocument) else None
        if st is None:
            self.overlay.set_layer("units", [])
            return
        specs = []
        for uid, p in sorted(doc.placement.items()):
            u = st.units.get(uid)
            if u is None:
                continue
            lab = f"{u.weapon}{u.squad or ''}" if u.kind.value == "infantry" else u.weapon[:5]
            specs.append(CounterSpec(p.hex, u.side, lab, p.facing, p.down, "normal", uid == self.win.ctx.unit))
        self.overlay.set_layer("units", [CountersItem(specs)] if specs else [])
        self.overlay.set_layer("marks", marks_items(doc.hidden, doc.mines, doc.ips, doc.setup_problem_hexes()))

    def _region_selected(self, loc) -> None:
        self.win.ctx.region_loc = loc
        self.preview_region(self.regions.preview_hexes() if self.doc is not None else frozenset())

    def preview_region(self, hexes) -> None:
        """Draw ``hexes`` (hex ids) as the region being edited (magenta), replacing the previous
        one: the Regions dock's builder after every change; another panel embedding a
        :class:`editor.region_builder.RegionEditor` may call it with ``editor.hexes()``."""
        self.overlay.set_layer("region", region_items(hexes, "paint", None) if hexes else [])

    def _picking_changed(self, field) -> None:
        """A Pick button of the region builder went down (the Pick hexes tool takes the map's
        clicks) or up (the tool chosen before comes back)."""
        tools = self.win.tools
        pick = self.tools["pick"]
        if field is not None:
            if tools.current is not pick:
                self._tool_before_pick = tools.current.name if tools.current is not None else None
                tools.set_tool("pick")
        elif tools.current is pick and not pick.leaving:
            from editor.main_window import MODE_TOOLS

            prev = self._tool_before_pick
            mode = self.win.mode or "scenario"
            if prev is None or self.win.mode_of_tool(prev) not in (None, mode):
                prev = MODE_TOOLS.get(mode, ("region",))[0]
            tools.set_tool(prev)
        self._draw_picked()

    def _draw_picked(self, *_args) -> None:
        from editor.region_builder import picked_items, picker

        hexes, ordered = picker().hexes()
        self.overlay.set_layer("pick", picked_items(hexes, ordered))

    def pick_region_on_map(self, loc: tuple) -> None:
        """Let the Region paint tool paint the region at ``loc`` (the victory builder's *Pick on
        map*): the region is selected (shown on the map), the tool chosen, the Victory dock stays
        in front."""
        if self.doc is None or isinstance(self.doc, SystemScenarioDocument):
            return
        self.regions.select(loc)
        self.win.tools.set_tool("region")
        self.docks["victory"].show()
        self.docks["victory"].raise_()
        self.win.statusBar().showMessage("Pick the victory region's hexes: click or drag on the map to add hexes; "
                                         "start inside the region to remove them", 10000)

    def _unit_selected(self, uid: str) -> None:
        self.win.ctx.unit = uid
        if self.doc is not None and not isinstance(self.doc, SystemScenarioDocument):
            zone = self.doc.unit_zone(uid)
            self.overlay.set_layer("region", region_items(zone or [], "paint", None, None))
            self.draw_units()

    def drop_unit(self, uid: str, hid: str) -> str | None:
        """A unit dropped on the map (drag from the OOB or set-up list)."""
        return self.tools["place"].drop(uid, hid)

    def _heat(self, counts: dict, which: str) -> None:
        # dark, saturated colours with a halo: visible over the light zone fills of either side
        colour = {"eliminations": QColor(120, 0, 60), "fire targets": QColor(230, 90, 0),
                  "fire origins": QColor(60, 0, 160)}.get(which, QColor(120, 0, 60))
        self.overlay.set_layer("heat", heat_items(counts, colour))

    def _attach(self, doc) -> None:
        """Make ``doc`` (a scenario document of any system) the one the window edits: its undo
        stack active, its signals redrawing the map and the title, Scenario mode shown."""
        self.scenario_history.setStack(doc.undo_stack)
        self.win.undo_group.addStack(doc.undo_stack)
        self.win.undo_group.setActiveStack(doc.undo_stack)
        doc.changed.connect(self.redraw)
        doc.dirty_changed.connect(lambda _d: self.update_title())
        doc.path_changed.connect(lambda _p: self.update_title())
        if self.win.mode in (None, "map"):
            self.win.set_mode("scenario")

    def _tool_changed(self, tool) -> None:
        self.activate_stack(tool.name in SCENARIO_TOOLS or tool.name in ("pick", "formpick"))
        if isinstance(self.doc, SystemScenarioDocument):   # the set-up: drawn by the Set-up tool or the layer
            self.redraw("scenario")
        if self.win.switching_mode:   # the mode's own layout decides which dock is in front
            return
        if tool.name in ("hotseat",):
            self.docks["hotseat"].show()
            self.docks["hotseat"].raise_()
        elif isinstance(self.doc, SystemScenarioDocument):   # the forms' docks do not apply
            return
        elif tool.name in ("place", "marks"):
            self.docks["setup"].show()
            self.docks["setup"].raise_()
        elif tool.name == "region":
            self.docks["regions"].show()
            self.docks["regions"].raise_()

    # ------------------------------------------------------------------ undo
    def activate_stack(self, scenario: bool) -> None:
        """Make the scenario's (``scenario``) or the map's undo stack the one Undo/Redo act on."""
        g = self.win.undo_group
        if scenario and self.doc is not None:
            g.setActiveStack(self.doc.undo_stack)
        elif not scenario and self.win.document is not None:
            g.setActiveStack(self.win.document.undo_stack)

    def _focus_changed(self, _old, new) -> None:
        try:
            if new is None or new.window() is not self.win:
                return
        except RuntimeError:   # a widget of a window being destroyed
            return
        w = new
        scenario_docks = set(self.docks.values())
        map_docks = {self.win.options_dock, self.win.history_dock, self.win.los_dock, self.win.chart_dock,
                     self.win.errata_dock}
        while w is not None:
            if w in scenario_docks:
                return self.activate_stack(True)
            if w in map_docks:
                return self.activate_stack(False)
            if w is self.win.view:
                return None   # the map canvas: the stack of the current tool's document stays
            w = w.parentWidget()

    def _run_batch(self) -> None:
        if not self.win.set_mode("play"):
            return
        self.docks["playtest"].show()
        self.docks["playtest"].raise_()
        self.playtest.start()

    # ------------------------------------------------------------------ navigation
    def go_to(self, path: str) -> None:
        """Show the place of a problem: an OOB entry in the OOB tree, a region on the map, a hex."""
        if self.doc is None or isinstance(self.doc, SystemScenarioDocument) or not self.win.set_mode("scenario"):
            return
        if path.startswith("setup:"):
            return self._go_to_setup(path[len("setup:"):])
        loc = parse_json_path(path)
        if "oob" in loc and loc[0] in ("german", "russian"):
            self.docks["oob"].show()
            self.docks["oob"].raise_()
            i = loc.index("oob")
            self.oob.select_loc(loc[:i + 2])
            return
        if loc[:1] == ("north",):
            n = self.doc.scenario.north
            self._centre(n.hex)
            return
        for rloc, _r in self.doc.regions():
            if tuple(loc[:len(rloc)]) == tuple(rloc):
                self.docks["regions"].show()
                self.docks["regions"].raise_()
                self.regions.select(rloc)
                hexes = self.regions.hexes()
                if hexes:
                    self._centre(sorted(hexes)[0])
                else:
                    from scenarios.regions import iter_hex_refs

                    for _l, hid in iter_hex_refs(_r):
                        try:
                            self._centre(hid)
                        except ValueError:
                            continue
                        break
                return
        if loc and loc[0] in ("german", "russian"):
            self.docks["oob"].show()
            self.docks["oob"].raise_()
            self.oob.select_loc(loc)

    def _go_to_setup(self, path: str) -> None:
        """Show a set-up problem: the unit in the Set-up list and its hex, a hidden or mined hex."""
        parts = path.split(".")
        what = parts[1] if len(parts) > 1 else ""
        key = parts[2] if len(parts) > 2 else ""
        hid = None
        if what == "units":
            self.docks["setup"].show()
            self.docks["setup"].raise_()
            self.setup_panel.select_unit(key)
            p = self.doc.placement.get(key)
            hid = p.hex if p is not None else None
        elif what in ("hidden_hexes", "mines"):
            hid = key
        elif what.startswith("left_out"):
            self.docks["oob"].show()
            self.docks["oob"].raise_()
        if hid is not None:
            try:
                h = hexgrid.parse_hex_id(hid)
            except hexgrid.HexIdError:
                return
            if self.win.document.hexmap.contains(h):
                self._centre(hid)

    def _centre(self, hid: str) -> None:
        self.win.view.centre_on_hex(hexgrid.parse_hex_id(hid))
        self.overlay.set_layer("goto", region_items([hid], "paint", None, None))
