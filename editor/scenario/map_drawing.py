"""What the Scenario controller draws on the map: the scenario's zones, labels, legend and
compass, the designer's set-up and marks, the region being built or picked, the heat map of a
batch; the View menu's scenario layers and their opacity; the game view of the Play mode; the
view fitted to the playing area."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor

from maps import hexgrid
from editor.scenario.overlay import (
    DESIGNER_LAYERS,
    GAME_LAYERS,
    SCENARIO_LAYERS,
    LegendItem,
    ZoneLabelsItem,
    compass_items,
    heat_items,
    map_bottom,
    marks_items,
    region_items,
)
from editor.drawing.pieces import CounterSpec, CountersItem, group_colour
from editor.scenario.system.scenario import SystemScenarioDocument


#: the map outside the scenario's sections: dimmed, so the playing area stands out
OUTSIDE_DIM = QColor(70, 70, 70, 120)


def outside_items(doc) -> list:
    """The map's hexes outside the scenario's playing area, dimmed (one path item under the
    zones); none when the scenario plays the whole map or its sections do not resolve."""
    from editor.drawing.pieces import _outline, _path_item

    try:
        area = set(doc.context.area)
        rest = [h for h in doc.hexmap.all_hexes() if h not in area]
    except Exception:  # noqa: BLE001 - sections that do not resolve, no map yet: nothing to dim
        return []
    if not area or not rest:
        return []
    item = _path_item(_outline(rest), OUTSIDE_DIM, None, 2)
    item.setData(0, "outside")
    return [item]


#: the Play mode's status bar for the dock in front (the Hot-seat's is its tool's)
PLAY_STATUS = {
    None: "Playtest: set the games, players and rules, then Run batch; the heat map shows on the map",
    "watch": "Watch: a game of the Playtest batch, step by step (|< < > >|, Play); its counters on the map",
}


class ScenarioDrawing:
    """The drawing half of :class:`editor.scenario.window.ScenarioController` (its ``overlay``,
    ``doc``, ``win`` and docks are the controller's)."""

    def _make_layer_menu(self) -> None:
        """View > Scenario layers: a check box per layer and its opacity, so a designer can
        thin out a crowded map."""
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
        if w.mode == "play" and self.doc is not None:   # the status bar speaks of the dock in front
            tool = w.tools.current
            w.tool_label.setText(PLAY_STATUS.get(view) if view != "hotseat" or tool is None else tool.status)
        hide = [n for v, names in GAME_LAYERS.items() if v != view for n in names]
        if view is not None:
            hide += list(DESIGNER_LAYERS)
        self.overlay.set_suppressed(hide)

    def fit_if_shown(self) -> bool:
        """The view's *Fit map* (``MapView.fitter``): in the Scenario and Play modes, with a
        scenario open, fit its playing area (True); else leave the whole map to the view (False)."""
        if self.doc is None or self.win.mode == "map":
            return False
        self.fit()
        return True

    def fit(self) -> None:
        """Fit the view to the scenario's playing area (its map sections) with the compass rose
        and the legend in the margin (the legend has a constant size on screen: the fit is
        refined for it, and the legend wraps to stay within the view)."""
        if self.doc is None:
            self.win.view.fit_whole()
            return

        from editor.drawing.canvas import hex_path

        try:
            area = self.doc.context.area
        except Exception:  # noqa: BLE001
            area = None
        if not area:
            self.win.view.fit_whole()
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
            self.wrap_legend()
            s = max(view.scale_factor(), 1e-3)
            fitted = r
            for it in fixed:
                b = it.boundingRect()
                fitted = fitted.united(QRectF(it.pos() + QPointF(b.left() / s, b.top() / s),
                                              QSizeF(b.width() / s + 20, b.height() / s + 20)))
        view.zoom_changed.emit(view.scale_factor())

    def wrap_legend(self) -> None:
        """Keep the legend within the view: it wraps into more rows when the view is narrow."""
        view = self.win.view
        for it in self.overlay.layers.get("legend", []):
            if isinstance(it, LegendItem):
                x = max(0, view.mapFromScene(it.pos()).x())
                it.wrap(max(120, view.viewport().width() - x - 12))

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
            self.overlay.set_layer("outside", outside_items(doc))
            for name in ("labels", "compass", "legend", "units", "marks"):
                self.overlay.set_layer(name, [])
            self.play.draw_table_setup(doc)
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

            seen, names = set(), []
            for _loc, r in iter_condition_regions(sc.victory):
                hexes, _ = doc.resolve(r)
                key = frozenset(hexes)
                if key in seen or not hexes:
                    continue
                seen.add(key)
                zones += region_items(hexes, "victory", None)
                text = r.describe()
                text = text if len(text) <= 28 else text[:27] + "..."
                names.append(text)
                if len(hexes) > 3:   # a victory hex or two is evident from its hatching
                    labels.append((text + f" ({len(hexes)})", QColor(130, 95, 0), hexes))
            if seen:   # the legend names them, also when their labels find no room
                legend.append(("victory", QColor(0, 0, 0), "victory area: " + "; ".join(names)))
            for side in ("german", "russian"):
                if doc.scenario.side(side).hidden_hexes:
                    from editor.drawing.pieces import SIDE_COLOURS

                    legend.append(("hidden", SIDE_COLOURS[side], f"{side.capitalize()} hidden hex"))
            if any(doc.scenario.side(s).mine_factors(t) for s in ("german", "russian") for t in ("AP", "AT")):
                legend.append(("mines", QColor(120, 0, 0), "mine factors"))
            self.overlay.set_layer("zones", zones)
            self.overlay.set_layer("outside", outside_items(doc))
            self.overlay.set_layer("labels", [ZoneLabelsItem(labels)] if labels else [])
            cols = self._area_columns()
            try:
                self.overlay.set_layer("compass", compass_items(sc.north, doc.hexmap, cols))
            except Exception:  # noqa: BLE001 - a north indicator off the map: nothing to draw
                self.overlay.set_layer("compass", [])
            if legend:
                from editor.drawing.pieces import hex_centre

                hm = doc.hexmap
                c0 = cols[0] if cols else hm.first_column
                at = QPointF(hex_centre(hexgrid.Hex(c0, hm.last_row)).x() - 40, map_bottom(hm, cols) + 40)
                self.overlay.set_layer("legend", [LegendItem(legend, at)])
                self.wrap_legend()
            else:
                self.overlay.set_layer("legend", [])
            self._extra_scene_rect()
            self._region_selected(self.win.ctx.region_loc)
        self.draw_units()
        self.update_title()

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

    def hex_contents(self, hid: str) -> list[str]:
        """What the scenario shows in hex ``hid`` (lines for the map's tooltip): the units of
        the designer's set-up or of the game shown, by name, and the hidden-hex, IP and mine
        marks; nothing of a layer that is hidden."""
        doc = self.doc
        if doc is None or isinstance(doc, SystemScenarioDocument):
            return []
        out = []
        if self.overlay.visible_items("units"):
            st = doc.setup()
            names = [st.units[uid].name for uid, p in sorted(doc.placement.items()) if p.hex == hid and uid in st.units]
            if names:
                out.append("set-up: " + ", ".join(names))
        for name in ("game", "hotseat"):
            for it in self.overlay.visible_items(name):
                if isinstance(it, CountersItem):
                    here = [f"{c.label} ({c.side})" for c in it.counters if c.hex == hid]
                    if here:
                        out.append("in the game: " + ", ".join(here))
        if self.overlay.visible_items("marks"):
            if hid in doc.hidden:
                out.append(f"hidden hex ({doc.hidden[hid]})")
            ip = doc.ips.get(hid)
            if ip:
                out.append(f"IP{ip['points']} ({ip.get('side', '')})")
            m = doc.mines.get(hid)
            if m:
                kinds = " ".join(f"{k.upper()}{m[k]}" for k in ("ap", "at") if m.get(k))
                out.append(f"mines {kinds} ({m.get('side', '')})")
        return out

    def _region_selected(self, loc) -> None:
        self.win.ctx.region_loc = loc
        self.preview_region(self.regions.preview_hexes() if self.doc is not None else frozenset())

    def preview_region(self, hexes) -> None:
        """Draw ``hexes`` (hex ids) as the region being edited (magenta), replacing the previous
        one: the Regions dock's builder after every change; another panel embedding a
        :class:`editor.scenario.builders.region_builder.RegionEditor` may call it with ``editor.hexes()``."""
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
            from editor.modes import MODE_TOOLS

            prev = self._tool_before_pick
            mode = self.win.mode or "scenario"
            # the North tool moves the indicator with any click: never armed again unasked
            if prev is None or prev == "north" or self.win.mode_of_tool(prev) not in (None, mode):
                prev = MODE_TOOLS.get(mode, ("region",))[0]
            tools.set_tool(prev)
        self._draw_picked()

    def _draw_picked(self, *_args) -> None:
        from editor.scenario.builders.region_builder import picked_items
        from editor.scenario.builders.region_picking import picker

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
