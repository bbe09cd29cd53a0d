"""Scenario tools (one class per tool, as :mod:`editor.map.tools`): the north indicator, region
painting and unit placement. They work on ``ctx.scenario`` (a
:class:`editor.scenario.document.ScenarioDocument`) and turn clicks into its commands.

* :class:`NorthTool` (N): click the indicator's hex, then the adjacent hex it points to.
* :class:`RegionPaintTool` (G): paint the selected region's hexes (an explicit ``hexes``
  region): a drag that starts on a hex outside the region adds, inside removes; one drag is one
  undo step. The region to paint is ``ctx.region_loc`` (set by the Regions panel). A region
  built from a rule (a road, a side of it, a hill minus ...) is frozen into its list of hexes
  only after the designer says so (a question; No leaves it unchanged).
* :class:`RegionPickTool`: the region builder's clicks on the map (hexes, waypoints, features).
* :class:`SetupMarkTool` (K): hidden hexes (24.2), mines (19.1) and IPs (18.1) of the side
  chosen in the Set-up panel: click toggles a hidden hex, sets the hex's AP/AT mine factors, or
  puts (toggles) an IP of the chosen points; right-click removes the hex's mines or IP. Refusals
  (zone, count, 19.12 limits, buildings, allotment, the side's IPs) in the status bar.
* :class:`PlacementTool` (U): drop the selected unit (``ctx.unit``) in a hex, or drag a placed
  unit to another hex; refused (with the reason in the status bar) outside the unit's set-up zone,
  over the stacking limit (8.62) or over a scenario's set-up cap (24.1). Right-click turns a
  facing unit one hexside clockwise; Shift+click sets a placed unit UP or DOWN (3.12).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

from maps import hexgrid
from editor.drawing.canvas import ToolEvent, hex_path
from editor.scenario.scenario_files import region_at, set_region_at
from editor.drawing.tool import Tool

__all__ = ["NorthTool", "RegionPaintTool", "RegionPickTool", "PlacementTool", "SetupMarkTool"]


class _ScenarioTool(Tool):
    @property
    def sdoc(self):
        return getattr(self.ctx, "scenario", None)

    def _need(self) -> bool:
        if self.sdoc is None:
            other = getattr(self.ctx, "other_system_note", None)   # a scenario of another rule system is open
            self.set_status(other or "open or create a scenario first (File > New scenario / Open)")
            return False
        return True

    def _hex_id(self, ev: ToolEvent) -> str | None:
        """The id of the event's hex, or None (and "off the map" in the status bar) in the margin."""
        if not ev.on_map or not self.sdoc.hexmap.contains(ev.hex):
            self.set_status("off the map")
            return None
        return ev.hex.id


class NorthTool(_ScenarioTool):
    name = "north"
    label = "North"
    shortcut = "N"
    help = "North indicator: click its hex, then the adjacent hex it points to"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.first = None

    def activate(self) -> None:
        self.first = None
        super().activate()

    def press(self, ev: ToolEvent) -> None:
        if not self._need() or ev.button != Qt.MouseButton.LeftButton:
            return
        hid = self._hex_id(ev)
        if hid is not None:
            self.place_click(hid)

    def place_click(self, hid: str) -> str | None:
        """One click: the indicator's hex, then the hex it points to. Returns an error text or None."""
        if not self.sdoc.hexmap.contains(hexgrid.parse_hex_id(hid)):
            self.set_status(f"{hid} is off the map")
            return "off the map"
        if self.first is None:
            self.first = hid
            self.clear_overlay()
            self.add_overlay(hex_path([hexgrid.parse_hex_id(hid)]), QColor(255, 0, 0, 90), QPen(QColor(200, 0, 0), 4), 60)
            self.set_status(f"north indicator in {hid}: now click the adjacent hex it points to (Esc cancels)")
            return None
        a, b = self.first, hid
        self.first = None
        self.clear_overlay()
        if hexgrid.hexside_between(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b)) is None:
            self.set_status(f"{b} is not adjacent to {a}: click the indicator's hex again")
            return "not adjacent"
        old = self.sdoc.scenario.north
        if old is not None and (old.hex, old.points_to) == (a, b):
            self.set_status(f"the north indicator is already in {a} pointing to {b}: nothing changed")
            return None
        self.sdoc.edit(f"North indicator {a} -> {b}",
                       lambda d: d.__setitem__("north", {"hex": a, "points_to": b}))
        # the placement is one undo step of the scenario: Ctrl+Z undoes it whatever had the focus
        self.sdoc.undo_stack.setActive(True)
        n = self.sdoc.scenario.north
        self.set_status(f"north indicator in {a} pointing to {b}: north is {n.sheet_word('north')} (Ctrl+Z undoes)")
        return None

    def key(self, key: int, modifiers) -> bool:
        """Esc drops a first click (the indicator's hex) not yet followed by the hex it points to."""
        if key == Qt.Key.Key_Escape and self.first is not None:
            self.first = None
            self.clear_overlay()
            self.set_status("north indicator: cancelled")
            return True
        return False


class RegionPaintTool(_ScenarioTool):
    name = "region"
    label = "Region paint"
    shortcut = "G"
    help = "Paint the selected region's hexes (Regions panel): drag to add; start inside the region to remove"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.stroke = None
        self.adding = True

    def _region(self):
        loc = getattr(self.ctx, "region_loc", None)
        if loc is None:
            return None, None
        try:
            return loc, region_at(self.sdoc.data(), loc)
        except (KeyError, IndexError, TypeError):
            return None, None

    def press(self, ev: ToolEvent) -> None:
        if not self._need() or ev.button != Qt.MouseButton.LeftButton:
            return
        loc, data = self._region()
        if loc is None:
            self.set_status("select a region in the Regions panel first")
            return
        hid = self._hex_id(ev)
        if hid is None:
            return
        if data.get("kind") != "hexes" and not self.confirm_freeze(loc):
            return
        current = self.sdoc.resolve(_model(self.sdoc.scenario, loc))[0]
        self.adding = hid not in current
        self.stroke = self.sdoc.new_stroke()
        self.paint([hid])

    def confirm_freeze(self, loc: tuple) -> bool:
        """Ask before painting turns a region built from a rule into a plain list of its hexes;
        True to go on. No (or closing the question) leaves the region as it is."""
        from PySide6.QtWidgets import QMessageBox

        from editor.scenario.wording import loc_label

        r = _model(self.sdoc.scenario, loc)
        n = len(self.sdoc.resolve(r)[0])
        label = loc_label(self.sdoc, loc)
        sb = QMessageBox.StandardButton
        parent = self.ctx.parent() if hasattr(self.ctx.parent(), "windowTitle") else None
        ans = QMessageBox.question(
            parent, "Freeze the region into hexes?",
            f"{label} is built from a rule: {r.describe()}.\n\nPainting turns it into a plain list of its {n} "
            "hexes: it no longer follows the map or the rule it was built from (Undo brings the rule back; "
            "the Regions dock's builder edits the rule instead).\n\nFreeze it into hexes and paint?",
            sb.Yes | sb.No, sb.No)
        if ans != sb.Yes:
            self.set_status(f"not painted: {label} is still built from its rule (no change)")
            return False
        return True

    def move(self, ev: ToolEvent) -> None:
        if self.stroke is not None and ev.left_down and self.sdoc is not None:
            hid = self._hex_id(ev)
            if hid is not None:
                self.paint([hid])

    def release(self, ev: ToolEvent) -> None:
        self.stroke = None

    def paint(self, hexes, adding: bool | None = None, stroke: int | None = None) -> int:
        """Add (or remove) ``hexes`` to the selected region, which becomes an explicit hexes region
        (its resolved hexes). Returns the region's new hex count."""
        loc, data = self._region()
        if loc is None:
            return 0
        adding = self.adding if adding is None else adding
        area = {h.id for h in self.sdoc.context.area}
        cur = set(self.sdoc.resolve(_model(self.sdoc.scenario, loc))[0])
        new = (cur | {h for h in hexes if h in area}) if adding else (cur - set(hexes))
        if new == cur and data.get("kind") == "hexes":
            return len(cur)
        if not new:
            self.set_status("a region needs at least one hex")
            return len(cur)
        value = {"kind": "hexes", "hexes": sorted(new)}
        self.sdoc.edit("Paint region", lambda d: set_region_at(d, loc, value),
                       stroke=self.stroke if stroke is None else stroke)
        self.set_status(f"region: {len(new)} hexes")
        return len(new)


class RegionPickTool(_ScenarioTool):
    """Clicks on the map for the region builder (:mod:`editor.scenario.builders.region_builder`): each click goes
    to the field whose *Pick* button is down (:func:`editor.scenario.builders.region_builder.picker`); a drag adds
    or removes several hexes of a hex list. Chosen by the window while a field picks; Esc, the
    field's button again or another tool ends picking."""

    name = "pick"
    label = "Pick hexes"
    shortcut = ""
    help = ("Region builder: click hexes for the field whose Pick button is down (a hex list: click adds or "
            "removes, drag for several; a road: click the waypoints in order); Esc ends")

    def __init__(self, ctx):
        super().__init__(ctx)
        #: True while the tool is being left (picking stops; the window must not choose a tool then)
        self.leaving = False

    def press(self, ev: ToolEvent) -> None:
        from editor.scenario.builders.region_picking import picker

        if not self._need() or ev.button != Qt.MouseButton.LeftButton:
            return
        hid = self._hex_id(ev)
        if hid is not None:
            self.set_status(picker().pick(hid))

    def move(self, ev: ToolEvent) -> None:
        from editor.scenario.builders.region_picking import picker

        if ev.left_down and self.sdoc is not None and ev.on_map and self.sdoc.hexmap.contains(ev.hex):
            msg = picker().drag(ev.hex.id)
            if msg:
                self.set_status(msg)

    def key(self, key: int, modifiers) -> bool:
        from editor.scenario.builders.region_picking import picker

        if key == Qt.Key.Key_Escape:
            picker().stop()
            return True
        return False

    def deactivate(self) -> None:
        from editor.scenario.builders.region_picking import picker

        self.leaving = True
        try:
            picker().stop()
        finally:
            self.leaving = False
        super().deactivate()


def _model(obj, loc):
    for k in loc:
        obj = obj[k] if isinstance(obj, (dict, list)) else getattr(obj, k)
    return obj


class PlacementTool(_ScenarioTool):
    name = "place"
    label = "Place units"
    shortcut = "U"
    help = "Set-up: click a hex to place the selected unit (or drag a placed unit); right-click turns its facing"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.dragging: str | None = None
        self.last_refusal: str | None = None

    def _unit_at(self, hid: str) -> str | None:
        here = [k for k, p in self.sdoc.placement.items() if p.hex == hid]
        sel = getattr(self.ctx, "unit", None)
        if sel in here:
            return sel
        return here[-1] if here else None

    def press(self, ev: ToolEvent) -> None:
        if not self._need():
            return
        hid = self._hex_id(ev)
        if hid is None:
            return
        if ev.button == Qt.MouseButton.RightButton:
            self.turn(hid)
            return
        if ev.modifiers & Qt.KeyboardModifier.ShiftModifier:
            self.toggle_down(hid)
            return
        uid = self._unit_at(hid)
        sel = getattr(self.ctx, "unit", None)
        if sel and sel not in self.sdoc.placement:
            self.drop(sel, hid)
        elif uid is not None:
            self.dragging = uid
            self.ctx.unit = uid
            self.set_status(f"dragging {uid}: release on the hex to move it to")
        elif sel:
            self.drop(sel, hid)

    def turn(self, hid: str) -> str:
        """Right-click: turn the unit in ``hid`` that has a facing (the selected one first) one
        hexside clockwise (8.7); returns what happened (also in the status bar)."""
        here = [k for k, p in self.sdoc.placement.items() if p.hex == hid]
        st = self.sdoc.setup()
        units = st.units if st is not None else {}
        faced = [k for k in here if getattr(units.get(k), "has_facing", False)]
        sel = getattr(self.ctx, "unit", None)
        if not here:
            msg = f"no placed unit in {hid} to turn"
        elif not faced:
            u = units.get(here[-1])
            msg = (f"{getattr(u, 'name', None) or here[-1]} has no facing: only ATGs, MGs and AFVs face a "
                   "hexside (8.7)")
        else:
            uid = sel if sel in faced else faced[-1]
            p = self.sdoc.placement[uid]
            new = (p.facing or 0) % 6 + 1
            self.sdoc.set_facing(uid, new)
            msg = f"{uid} turned to face hexside {new} (8.7)"
        self.set_status(msg)
        return msg

    def toggle_down(self, hid: str) -> str:
        """Shift+click: set the placed unit in ``hid`` (the selected one first) DOWN, or UP again
        (3.12: a unit starts the game in either state as its owner wishes); returns what happened."""
        here = [k for k, p in self.sdoc.placement.items() if p.hex == hid]
        sel = getattr(self.ctx, "unit", None)
        if not here:
            msg = f"no placed unit in {hid}"
        else:
            uid = sel if sel in here else here[-1]
            down = not self.sdoc.placement[uid].down
            self.sdoc.set_down(uid, down)
            msg = f"{uid} starts {'DOWN' if down else 'UP'} (3.12)"
        self.set_status(msg)
        return msg

    def release(self, ev: ToolEvent) -> None:
        if self.dragging is not None:
            uid, self.dragging = self.dragging, None
            hid = self._hex_id(ev)
            if hid is None:   # released in the margin: the unit stays where it was
                return
            if self.sdoc.placement.get(uid) and self.sdoc.placement[uid].hex != hid:
                self.drop(uid, hid)

    def drop(self, uid: str, hid: str, facing: int | None = None) -> str | None:
        """Place ``uid`` in ``hid`` (the end of a drag from the OOB or the map). Returns the refusal
        reason (also shown in the status bar) or None when placed."""
        why = self.sdoc.place(uid, hid, facing)
        self.last_refusal = why
        self.set_status(f"refused: {why}" if why else f"{uid} placed in {hid}")
        return why


class SetupMarkTool(_ScenarioTool):
    name = "marks"
    label = "Hidden hexes, mines, IPs"
    shortcut = "K"
    help = ("Hidden hexes, mines and IPs (side and kind in the Set-up panel): click marks or unmarks a hidden "
            "hex, sets the mine factors of the hex or puts an IP; right-click removes the hex's mines or IP")

    def __init__(self, ctx):
        super().__init__(ctx)
        self.panel = None  # the SetupPanel (side, mode, factors)
        self.last_refusal: str | None = None

    def settings(self) -> tuple[str, str, int]:
        p = self.panel
        if p is None:
            return "german", "hidden hex", 2
        return p.mark_side.currentText(), p.mark_mode.currentText(), p.mark_factors.value()

    def press(self, ev: ToolEvent) -> None:
        if not self._need():
            return
        side, mode, n = self.settings()
        hid = self._hex_id(ev)
        if hid is None:
            return
        if ev.button == Qt.MouseButton.RightButton:
            self.click(hid, side, mode, 0)
        elif ev.button == Qt.MouseButton.LeftButton:
            self.click(hid, side, mode, n)

    def click(self, hid: str, side: str, mode: str, factors: int) -> str | None:
        """One click: toggle a hidden hex, set (``factors`` 0: remove) mines, or put (toggle; 0:
        remove) an IP of ``factors`` points. Returns the refusal."""
        d = self.sdoc
        if mode == "IP":   # 18.1: factors = the IP's points
            cur = d.ips.get(hid)
            if factors == 0 or (cur is not None and cur == {"side": side, "points": factors}):
                removed = d.remove_ip(hid)
                why, done = None, (f"IP removed from {hid}" if removed else f"no IP in {hid}")
            else:
                why = d.place_ip(side, hid, factors)
                done = f"IP{factors} in {hid} ({side})"
            self.last_refusal = why
            self.set_status(f"refused: {why}" if why else done)
            return why
        if mode == "hidden hex":
            if d.hidden.get(hid) == side:
                d.unmark_hidden(hid)
                why, done = None, f"{hid} is no longer hidden"
            else:
                why = d.mark_hidden(side, hid)
                done = f"{hid} is a {side} hidden hex"
        else:
            m = d.mines.get(hid, {"side": side, "ap": 0, "at": 0})
            ap, at = m["ap"], m["at"]
            if mode.startswith("AP"):
                ap = factors
            else:
                at = factors
            why = d.set_mines(side, hid, ap, at)
            done = f"{hid}: {ap} AP, {at} AT mine factors ({side})" if ap or at else f"no mines in {hid}"
        self.last_refusal = why
        self.set_status(f"refused: {why}" if why else done)
        return why
