"""The scenario side of the main window: :class:`ScenarioController` adds the scenario docks
(properties, OOB, roster, regions, victory, set-up, validation) and docks the Play mode's panels
(playtest, watch, hot-seat, made by the shell: :class:`editor.mode_wiring.PlayMode`), adds the
scenario tools (north, region paint, unit placement) and the Play and tabletop tools, the Scenario
menu and tool bars, and follows the focus and the tools to choose the undo stack. What it draws on
the map is :mod:`editor.scenario.map_drawing`; opening, creating and saving
:class:`editor.scenario.document.ScenarioDocument` is :mod:`editor.scenario.scenario_opening`.

Opening a scenario also opens its map in the map canvas, and the scenario document resolves its
regions on that live map document (:meth:`ScenarioDocument.bind_map`): map edits show in zones,
placement checks and victory at once. A scenario of another rule system
(:class:`editor.scenario.system.scenario.SystemScenarioDocument`) binds the same way: its validation and its
games read the live map. Games started here (batch, Watch, Hot-seat) play a snapshot of the
documents in memory (:meth:`ScenarioDocument.playable_copy`). Overlays redraw from the scenario
document's ``changed`` signal.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QScrollArea, QToolBar, QUndoView, QVBoxLayout, QWidget

from maps import hexgrid
from editor.scenario.docks.unit_drag import UNIT_MIME
from editor.scenario.docks.oob import OOBPanel
from editor.scenario.docks.properties import PropertiesPanel
from editor.scenario.docks.regions import RegionPanel
from editor.scenario.builders.roster_panel import RosterPanel
from editor.scenario.docks.setup import SetupPanel
from editor.scenario.docks.validation import ValidationPanel
from editor.scenario.wording import parse_json_path
from editor.scenario.document import ScenarioDocument
from editor.scenario.builders.side_forms import SidesPanel
from editor.scenario.builders.victory_builder import VictoryPanel
from editor.scenario.overlay import GAME_LAYERS, ScenarioOverlay, region_items
from editor.scenario.system.scenario import SystemScenarioDocument, SystemScenarioPanel
from editor.scenario.tools import NorthTool, PlacementTool, RegionPaintTool, RegionPickTool, SetupMarkTool
from editor.scenario.map_drawing import ScenarioDrawing
from editor.scenario.scenario_opening import ScenarioOpening
from editor.scenario.own_map import EDITING_DOCKS, DockBanner, OwnMap
from editor.scenario.resize_impact import ResizeImpact

__all__ = ["ScenarioController", "SCENARIO_TOOLS"]

#: the tools that edit the scenario (its undo stack is the active one while they are)
SCENARIO_TOOLS = ("north", "region", "place", "marks", "hotseat", "tableplace", "tape")
#: the docks of the Scenario mode (left and right tab groups) and of the Play mode
SCENARIO_LEFT = ("properties", "sides", "oob", "roster")
SCENARIO_RIGHT = ("setup", "regions", "victory", "validation", "history")
PLAY_DOCKS = ("playtest", "watch", "hotseat", "balance", "robust")


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
            from editor.drawing.hex_scene import hex_at_scene

            h = hex_at_scene(pos.x(), pos.y())
            if self.ctl.win.scene.on_map(h):   # dropped in the margin: nothing happens
                self.ctl.drop_unit(uid, h.id)
            else:
                self.ctl.win.statusBar().showMessage("off the map: the unit is not placed", 4000)
            ev.acceptProposedAction()
            return True
        return False


class ScenarioController(ScenarioDrawing, ScenarioOpening, OwnMap, ResizeImpact, QObject):
    """The scenario on the window's map, for the Scenario and the Play modes alike.

    ``play_mode(controller)`` is given by the shell (:class:`editor.mode_wiring.PlayMode`): it
    makes the Play mode's panels (``playtest``, ``watch``, ``hotseat``: they play the scenario
    shown, :meth:`playable_file`, with the designer's set-up, :meth:`designers_setup`, and draw on
    :attr:`overlay`), the tools of the Play mode and of the measured systems (``tools``) and the
    drawing of a measured system's set-up (``draw_table_setup(doc)``); the controller docks them,
    lists them in its menus and tells them the scenario's rule system. So the Scenario mode
    imports neither the Play mode nor the tabletop tools."""

    def __init__(self, win, play_mode):
        super().__init__(win)
        self.win = win
        self.doc: ScenarioDocument | None = None
        self.overlay = ScenarioOverlay(win.scene)
        win.view.fitter = self.fit_if_shown   # Fit map: the scenario's sections in its modes
        ctx = win.ctx
        ctx.scenario = None
        ctx.region_loc = None
        ctx.unit = None
        self.tools = {}
        ctx.table_scenario = None   # a scenario of a measured system (the tabletop tools set it up)
        #: the Play mode's panels and tool and the tabletop tools, made by the shell
        self.play = play_mode(self)
        for t in [cls(ctx) for cls in (NorthTool, RegionPaintTool, PlacementTool, SetupMarkTool, RegionPickTool)] \
                + list(self.play.tools):
            win.tools.add(t)
            t.status_changed.connect(win._tool_status)
            self.tools[t.name] = t
        self._make_docks()
        self._make_map_banner()
        self.tools["marks"].panel = self.setup_panel
        # another rule system's scenario form: a hex field or list is set by clicking the map
        from editor.scenario.system.form import FormPickTool

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

        #: the forms of EDITING_DOCKS and the line over each (read-only while another map is shown)
        self.dock_panels: dict[str, QWidget] = {}
        self.dock_banners: dict[str, DockBanner] = {}

        def dock(title, widget, area, name):
            d = QDockWidget(title, w)
            d.setObjectName(name)
            # a scroll area, so a tall panel never forces the window taller than the screen
            scroll = QScrollArea(d)
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(widget)
            key = name.removeprefix("sc_")   # the name in self.docks
            if key in EDITING_DOCKS:   # a form of the scenario: a line over it (not scrolled away) while read-only
                banner = DockBanner()
                banner.linkActivated.connect(lambda _link: self.reopen_own_map())
                outer = QWidget(d)
                lay = QVBoxLayout(outer)
                lay.setContentsMargins(0, 0, 0, 0)
                lay.setSpacing(2)
                lay.addWidget(banner)
                lay.addWidget(scroll, 1)
                self.dock_banners[key] = banner
                self.dock_panels[key] = widget
                d.setWidget(outer)
            else:
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
        self.playtest, self.watch, self.hotseat = self.play.playtest, self.play.watch, self.play.hotseat
        self.sides = SidesPanel()
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
            "balance": dock("Balance", self.play.balance, right, "sc_balance"),
            "robust": dock("Robust?", self.play.robust, right, "sc_robust"),
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
        # the region builder's Pick buttons: clicks on the map go to the field
        from editor.scenario.builders.region_picking import picker

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
        from editor.modes import MODE_TOOLS

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

    def update_title(self) -> None:
        self.win._update_title()
        if self.doc is not None:
            t = self.win.windowTitle()
            title = self.doc.title if isinstance(self.doc, SystemScenarioDocument) else self.doc.scenario.title
            self.win.setWindowTitle(f"{title} ({self.doc.display_name()}"
                                    f"{' *' if self.doc.is_dirty else ''}) - {t}")

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
