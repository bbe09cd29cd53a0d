"""The scenario side of the main window: :class:`ScenarioController` adds the scenario docks
(properties, OOB, roster, regions, victory, set-up, validation, playtest, watch, hot-seat), the
scenario tools (north, region paint, unit placement, hot-seat play), the Scenario menu and the
overlays, and opens, creates and saves :class:`editor.scenario_document.ScenarioDocument`.

Opening a scenario also opens its map in the map canvas, and the scenario document resolves its
regions on that live map document (:meth:`ScenarioDocument.bind_map`): map edits show in zones,
placement checks and victory at once. Games started here (batch, Watch, Hot-seat) play a snapshot
of the documents in memory (:meth:`ScenarioDocument.playable_copy`). Overlays redraw from the
scenario document's ``changed`` signal.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
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
    VictoryPanel,
    parse_json_path,
)
from editor.scenario_document import ScenarioDocument
from editor.scenario_forms import SidesPanel
from editor.scenario_overlay import (
    CounterSpec,
    CountersItem,
    ScenarioOverlay,
    compass_items,
    heat_items,
    marks_items,
    region_items,
)
from editor.scenario_tools import NorthTool, PlacementTool, RegionPaintTool, SetupMarkTool
from editor.watch import WatchPanel

__all__ = ["ScenarioController", "SCENARIO_TOOLS"]

#: the tools that edit the scenario (its undo stack is the active one while they are)
SCENARIO_TOOLS = ("north", "region", "place", "marks", "hotseat")


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
        for cls in (NorthTool, RegionPaintTool, PlacementTool, SetupMarkTool, HotseatTool):
            t = win.tools.add(cls(ctx))
            t.status_changed.connect(win._tool_status)
            self.tools[t.name] = t
        self._make_docks()
        self.tools["hotseat"].panel = self.hotseat
        self.tools["marks"].panel = self.setup_panel
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
        self.watch = WatchPanel(self.overlay, self.playable_file)
        self.hotseat = HotseatPanel(self.overlay, self.playable_file)
        self.scenario_history = QUndoView()
        self.docks = {
            "properties": dock("Scenario", self.properties, left, "sc_properties"),
            "oob": dock("Orders of battle", self.oob, left, "sc_oob"),
            "setup": dock("Set-up", self.setup_panel, left, "sc_setup"),
            "sides": dock("Sides", self.sides, left, "sc_sides"),
            "history": dock("Scenario history", self.scenario_history, left, "sc_history"),
            "regions": dock("Regions", self.regions, right, "sc_regions"),
            "victory": dock("Victory", self.victory, right, "sc_victory"),
            "validation": dock("Validation", self.validation, right, "sc_validation"),
            "roster": dock("Counter roster", self.roster, right, "sc_roster"),
            "playtest": dock("Playtest", self.playtest, right, "sc_playtest"),
            "watch": dock("Watch", self.watch, right, "sc_watch"),
            "hotseat": dock("Hot-seat", self.hotseat, right, "sc_hotseat"),
        }
        self.regions.region_selected.connect(self._region_selected)
        self.validation.go_to.connect(self.go_to)
        self.oob.unit_selected.connect(self._unit_selected)
        self.setup_panel.tree.currentItemChanged.connect(
            lambda it, _p: it is not None and it.data(0, Qt.ItemDataRole.UserRole + 1)
            and self._unit_selected(it.data(0, Qt.ItemDataRole.UserRole + 1)))
        self.playtest.heat_changed.connect(self._heat)
        self.roster.roster_changed.connect(self._roster_changed)
        self.roster.roster_saved.connect(self._roster_saved)
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
        for d in self.docks.values():
            m.addAction(d.toggleViewAction())
        m.addSeparator()
        for name in SCENARIO_TOOLS:
            t = self.tools[name]
            a = w._act(m, t.label, lambda _=False, n=name: w.tools.set_tool(n), t.shortcut, checkable=True)
            a.setToolTip(f"{t.help} ({t.shortcut})")
            w.tool_actions[name] = a
        tbs = [t for t in w.findChildren(QToolBar) if t.objectName() == "tools"]
        if tbs:
            tbs[0].addSeparator()
            for name in SCENARIO_TOOLS:
                tbs[0].addAction(w.tool_actions[name])
        group = next((a.actionGroup() for a in w.tool_actions.values() if a.actionGroup() is not None), None)
        if group is not None:
            for name in SCENARIO_TOOLS:
                group.addAction(w.tool_actions[name])

    # ------------------------------------------------------------------ documents
    def open(self, path: str | os.PathLike[str]) -> ScenarioDocument:
        """Open a scenario file (and its map); raises DocumentError / OSError."""
        doc = ScenarioDocument.open(path, self)
        self.set_document(doc)
        return doc

    def new_scenario(self, map_path: str | os.PathLike[str] | None = None) -> ScenarioDocument:
        mp = map_path or self.win.document.path
        if mp is None:
            raise ValueError("save the map first: a scenario refers to a map file")
        doc = ScenarioDocument.create(mp, self)
        self.set_document(doc)
        return doc

    def set_document(self, doc: ScenarioDocument) -> None:
        old = self.doc
        self.doc = doc
        if old is None and getattr(self.win, "persist_settings", False):
            state = self.win.settings.value("windowState/scenario")  # the layout last used for scenarios
            if state is not None:
                self.win.restoreState(state)
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
            p.set_document(doc)
        self.roster.set_roster(doc.roster)
        self.scenario_history.setStack(doc.undo_stack)
        self.win.undo_group.addStack(doc.undo_stack)
        self.win.undo_group.setActiveStack(doc.undo_stack)
        doc.changed.connect(self.redraw)
        doc.dirty_changed.connect(lambda _d: self.update_title())
        doc.path_changed.connect(lambda _p: self.update_title())
        self.arrange_docks()
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

    def map_document_changed(self, map_doc) -> None:
        """The window shows another map document: the scenario resolves on it when it is the
        scenario's map file, else on that file as saved."""
        doc = self.doc
        if doc is None:
            return
        same = map_doc is not None and map_doc.path is not None and \
            Path(map_doc.path).resolve() == doc.map_file().resolve()
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
        if Path(path).resolve() != doc.map_file().resolve():
            doc.edit(f"Map saved as {Path(path).name}",
                     lambda d: d["map"].__setitem__("file", str(Path(path).resolve())))

    def arrange_docks(self) -> None:
        """Scenario layout: map-editing docks hidden; scenario docks tabbed left and right."""
        w = self.win
        if getattr(self, "_arranged", False):
            return
        self._arranged = True
        for d in (w.options_dock, w.history_dock, w.los_dock, w.chart_dock, w.errata_dock):
            d.hide()
        left = ["properties", "oob", "setup", "sides", "history"]
        right = ["regions", "victory", "validation", "playtest", "watch", "hotseat", "roster"]
        for names in (left, right):
            for n in names:
                self.docks[n].show()
            for a, b in zip(names, names[1:]):
                w.tabifyDockWidget(self.docks[a], self.docks[b])
        self.docks["properties"].raise_()
        self.docks["regions"].raise_()
        w.resizeDocks([self.docks["properties"], self.docks["regions"]], [330, 400], Qt.Orientation.Horizontal)

    def fit(self) -> None:
        """Fit the view to the scenario's playing area."""
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
        r = hex_path(area).boundingRect().adjusted(-60, -60, 60, 60)
        self.win.view.fitInView(r, Qt.AspectRatioMode.KeepAspectRatio)
        self.win.view.zoom_changed.emit(self.win.view.scale_factor())

    def update_title(self) -> None:
        self.win._update_title()
        if self.doc is not None:
            t = self.win.windowTitle()
            self.win.setWindowTitle(f"{self.doc.scenario.title} ({self.doc.display_name()}"
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

    def save(self) -> bool:
        if self.doc is None:
            return False
        if self.doc.path is None:
            return self.save_as()
        try:
            self.doc.save()
        except (DocumentError, OSError, ValueError) as e:
            QMessageBox.critical(self.win, "Cannot save scenario", str(e))
            return False
        self.win.statusBar().showMessage(f"saved {self.doc.path}", 4000)
        self._warn_unsaved_roster()
        return True

    def _warn_unsaved_roster(self) -> None:
        if self.doc is not None and self.roster.dirty:
            QMessageBox.warning(self.win, "Counter roster not saved",
                                "The counter roster has changes that are not saved: games started in the editor use "
                                "them, the saved scenario does not. Save the roster (Counter roster dock); the "
                                "scenario then names that counters file.")

    def save_as(self) -> bool:
        if self.doc is None:
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
        self._warn_unsaved_roster()
        return True

    def maybe_save(self) -> bool:
        if self.doc is None or not self.doc.is_dirty:
            return True
        ans = QMessageBox.question(self.win, "Unsaved scenario", f"Save changes to {self.doc.display_name()}?",
                                   QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                   | QMessageBox.StandardButton.Cancel)
        if ans == QMessageBox.StandardButton.Save:
            return self.save()
        return ans == QMessageBox.StandardButton.Discard

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
        try:
            self.new_scenario()
        except (ValueError, DocumentError, OSError) as e:
            QMessageBox.critical(self.win, "Cannot create scenario", str(e))

    def shutdown(self) -> None:
        self.playtest.shutdown()
        self.watch.shutdown()

    # ------------------------------------------------------------------ overlays
    def redraw(self, what: str = "scenario") -> None:
        doc = self.doc
        if doc is None:
            return
        if what == "scenario":
            zones = []
            sc = doc.scenario
            for side in ("german", "russian"):
                for g in sc.side(side).groups:
                    if g.setup is not None:
                        hexes, _ = doc.resolve(g.setup.region)
                        zones += region_items(hexes, "setup", side, f"{g.name}: set-up ({len(hexes)})")
                    else:
                        for i, o in enumerate(g.entry.options):
                            hexes, _ = doc.resolve(o.region)
                            zones += region_items(hexes, "entry", side, f"{g.name}: enters T{o.turn} ({len(hexes)})")
            from scenarios.victory import iter_condition_regions

            seen = set()
            for _loc, r in iter_condition_regions(sc.victory):
                hexes, _ = doc.resolve(r)
                key = frozenset(hexes)
                if key in seen:
                    continue
                seen.add(key)
                zones += region_items(hexes, "victory", None, f"victory ({len(hexes)})" if len(hexes) > 3 else None)
            self.overlay.set_layer("zones", zones)
            try:
                self.overlay.set_layer("compass", compass_items(sc.north, doc.hexmap))
            except Exception:  # noqa: BLE001 - a north indicator off the map: nothing to draw
                self.overlay.set_layer("compass", [])
            self._region_selected(self.win.ctx.region_loc)
        self.draw_units()
        self.update_title()

    def draw_units(self) -> None:
        doc = self.doc
        st = doc.setup() if doc is not None else None
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
        self.overlay.set_layer("marks", marks_items(doc.hidden, doc.mines))

    def _region_selected(self, loc) -> None:
        self.win.ctx.region_loc = loc
        if loc is None or self.doc is None:
            self.overlay.set_layer("region", [])
            return
        hexes = self.regions.hexes()
        self.overlay.set_layer("region", region_items(hexes, "paint", None, f"{len(hexes)} hexes"))

    def _unit_selected(self, uid: str) -> None:
        self.win.ctx.unit = uid
        if self.doc is not None:
            zone = self.doc.unit_zone(uid)
            self.overlay.set_layer("region", region_items(zone or [], "paint", None, None))
            self.draw_units()

    def drop_unit(self, uid: str, hid: str) -> str | None:
        """A unit dropped on the map (drag from the OOB or set-up list)."""
        return self.tools["place"].drop(uid, hid)

    def _heat(self, counts: dict, which: str) -> None:
        colour = {"eliminations": QColor(200, 0, 0), "fire targets": QColor(255, 120, 0),
                  "fire origins": QColor(0, 90, 220)}.get(which, QColor(200, 0, 0))
        self.overlay.set_layer("heat", heat_items(counts, colour))

    def _roster_changed(self, roster) -> None:
        if self.doc is not None:
            self.doc.roster = roster
            self.doc.roster_dirty = self.roster.dirty
            self.doc._set_scenario(self.doc.scenario)

    def _roster_saved(self, path) -> None:
        """The roster was written to ``path``: the scenario names that counters file (the shipped
        one: none), so the CLI and the workers play the roster the designer edited."""
        from scenarios.counters import shipped_counters_path
        from scenarios.scenario_file import roster_path

        doc = self.doc
        if doc is None:
            return
        doc.roster_dirty = False
        p = Path(path).resolve()
        ref = None if p == shipped_counters_path().resolve() else str(p)
        cur = roster_path(doc.scenario, doc.path)
        if (cur.resolve() if cur is not None else None) != (p if ref is not None else None):
            doc.edit(f"Use counters {p.name}", lambda d: d.__setitem__("counters", ref) if ref else d.pop("counters", None))

    def _tool_changed(self, tool) -> None:
        self.activate_stack(tool.name in SCENARIO_TOOLS)
        if tool.name in ("hotseat",):
            self.docks["hotseat"].show()
            self.docks["hotseat"].raise_()
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
        self.docks["playtest"].show()
        self.docks["playtest"].raise_()
        self.playtest.start()

    # ------------------------------------------------------------------ navigation
    def go_to(self, path: str) -> None:
        """Show the place of a problem: an OOB entry in the OOB tree, a region on the map, a hex."""
        if self.doc is None:
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
