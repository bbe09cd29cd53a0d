"""The LOS tool: the rulebook's answer drawn on the map, and the Sighting Chart profile of 10.32.

Every answer here is :func:`maps.los.line_of_sight`'s (and "visible from here" is
:func:`maps.los.line_of_sight` hex by hex, as :func:`maps.los.visible_from` does, on a worker
thread so the UI never blocks); this module only draws.

* :class:`LosTool` - press on the firer's hex and release on the target's (or click one, then the
  other). The line is green when clear; when blocked it is red up to where it enters the blocking
  hex and grey beyond. Crossed hexes are tinted and labelled with the tree/AFV/wreck number they
  add (10.31 b); the blocking hex is outlined. The rule and reason go to the status bar and the
  panel. ``firer_down`` is the firer's UP/DOWN state (10.31 c).
* :class:`SightingProfile` - range from the lower unit on x, levels on y, each obstruction a bar
  at its height, the sight line from the lower unit to the higher.
* :class:`LosPanel` - the dock: UP/DOWN toggle, result text, the profile, "Visible from here".
* :class:`VisibleFromThread` - computes the hexes in LOS of one hex off the UI thread, with progress.
"""

from __future__ import annotations


from PySide6.QtCore import QPointF, QRectF, Qt, QThread, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from maps import hexgrid
from maps.hexgrid import Hex
from maps.los import LosResult, line_of_sight
from editor.drawing.canvas import ToolEvent, hex_path
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
from editor.drawing.hex_scene import hex_centre_scene
from editor.drawing.tool import Tool

__all__ = ["LosTool", "SightingProfile", "LosPanel", "VisibleFromThread", "CLEAR_COLOUR", "BLOCKED_COLOUR",
           "BEYOND_COLOUR"]

CLEAR_COLOUR = QColor(20, 170, 40)
BLOCKED_COLOUR = QColor(215, 25, 25)
BEYOND_COLOUR = QColor(120, 120, 120)
VISIBLE_FILL = QColor(255, 240, 60, 85)


class VisibleFromThread(QThread):
    """Every hex in LOS of ``origin`` (firer UP or DOWN), computed column by column on a worker
    thread with :func:`maps.los.line_of_sight` (the same loop as :func:`maps.los.visible_from`).

    Signals ``progress(done, total)`` (columns) and ``result(object)`` (a set of hex ids).
    The map is an immutable snapshot, so the UI may keep editing meanwhile.
    """

    progress = Signal(int, int)
    result = Signal(object)

    def __init__(self, hexmap, origin: Hex, firer_down: bool = False, chart=None, parent=None):
        super().__init__(parent)
        self.hexmap, self.origin, self.firer_down, self.chart = hexmap, origin, firer_down, chart
        self._cancel = False
        self.visible: set[str] | None = None

    def cancel(self) -> None:
        self._cancel = True

    def run(self) -> None:
        m = self.hexmap
        cols = list(range(m.first_column, m.last_column + 1))
        out: set[str] = set()
        for i, c in enumerate(cols):
            if self._cancel:
                return
            for r in range(m.first_row, m.last_row + 1):
                h = Hex(c, r)
                if h != self.origin and line_of_sight(m, self.origin, h, firer_down=self.firer_down,
                                                      chart=self.chart).clear:
                    out.add(h.id)
            self.progress.emit(i + 1, len(cols))
        self.visible = out
        self.result.emit(out)


class SightingProfile(QWidget):
    """Draws the Sighting Chart of 10.32 for one :class:`LosResult`."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.result: LosResult | None = None
        self.setMinimumSize(260, 170)

    def set_result(self, result: LosResult | None) -> None:
        self.result = result
        self.update()

    def paintEvent(self, ev) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#fbf7ec"))
        r = self.result
        f = QFont("DejaVu Sans", 8)
        p.setFont(f)
        if r is None:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Sighting Chart (10.32)\nuse the LOS tool")
            return
        if r.firer_level == r.target_level:
            p.drawText(self.rect().adjusted(6, 6, -6, -6), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                       f"Both units on level {r.firer_level}: no Sighting Chart (10.31 applies)\n\n"
                       f"{'CLEAR' if r.clear else 'BLOCKED ' + (r.rule or '')}")
            return
        obs = r.sighting
        rng = max(r.range, 1)
        top = max([max(r.firer_level, r.target_level)] + [float(o.height) for o in obs]) + 0.5
        left, right, tp, bottom = 34, self.width() - 12, 18, self.height() - 26

        def X(x: float) -> float:
            return left + (right - left) * x / rng

        def Y(lv: float) -> float:
            return bottom - (bottom - tp) * lv / top

        p.setPen(QPen(QColor("#bbb"), 1))
        lv = 0.0
        while lv <= top + 1e-9:
            p.drawLine(QPointF(left, Y(lv)), QPointF(right, Y(lv)))
            p.drawText(QRectF(0, Y(lv) - 7, left - 4, 14), Qt.AlignmentFlag.AlignRight, f"{lv:g}")
            lv += 0.5
        for x in range(0, rng + 1):
            p.drawText(QRectF(X(x) - 12, bottom + 2, 24, 12), Qt.AlignmentFlag.AlignCenter, str(x))
        p.setPen(QColor("#333"))
        p.drawText(QRectF(left, bottom + 12, right - left, 12), Qt.AlignmentFlag.AlignCenter,
                   "range from the lower unit (hexes)")
        p.drawText(QRectF(2, 0, 200, 14), Qt.AlignmentFlag.AlignLeft, "level")
        w = max(4.0, (right - left) / rng * 0.5)
        for o in obs:
            col = BLOCKED_COLOUR if o.blocks else QColor("#8a6d3b")
            p.fillRect(QRectF(X(o.x) - w / 2, Y(float(o.height)), w, Y(0) - Y(float(o.height))), col)
        low, high = min(r.firer_level, r.target_level), max(r.firer_level, r.target_level)
        p.setPen(QPen(CLEAR_COLOUR if r.clear else BLOCKED_COLOUR, 2.5))
        p.drawLine(QPointF(X(0), Y(low)), QPointF(X(rng), Y(high)))
        p.setBrush(QColor("#222"))
        for x, lv in ((0, low), (rng, high)):
            p.drawEllipse(QPointF(X(x), Y(lv)), 4, 4)
        p.end()


class LosTool(Tool):
    """LOS: drag (or click, click) from the firer's hex to the target's."""

    name = "los"
    label = "LOS"
    shortcut = "O"
    help = "LOS: press on the firer's hex and release on the target's (or click one, then the other)"
    result_changed = Signal(object)

    def __init__(self, ctx):
        super().__init__(ctx)
        self.firer_down = False
        self.firer: Hex | None = None
        self.target: Hex | None = None
        self.result: LosResult | None = None
        self._pressed = False
        self._vis_items: list = []
        ctx.document_changed.connect(lambda _d: self._recompute())

    def deactivate(self) -> None:
        super().deactivate()
        self.clear_visible()

    # events
    def press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton or not self.doc.hexmap.contains(ev.hex):
            return
        if self.firer is not None and self.target is None and not self._pressed:
            self.measure(self.firer, ev.hex)
            return
        self._pressed = True
        self.firer, self.target, self.result = ev.hex, None, None
        self._draw()
        self.set_status(f"firer {ev.hex.id}: release (or click) on the target")

    def move(self, ev: ToolEvent) -> None:
        if self._pressed and ev.left_down and self.firer is not None and ev.hex != self.firer \
                and self.doc.hexmap.contains(ev.hex):
            self.measure(self.firer, ev.hex, keep_pressed=True)

    def release(self, ev: ToolEvent) -> None:
        if not self._pressed:
            return
        self._pressed = False
        if self.firer is not None and ev.hex != self.firer and self.doc.hexmap.contains(ev.hex):
            self.measure(self.firer, ev.hex)

    def double_click(self, ev: ToolEvent) -> None:
        pass

    def key(self, key, modifiers) -> bool:
        if key == Qt.Key.Key_D:
            self.set_firer_down(not self.firer_down)
            return True
        if key == Qt.Key.Key_Escape:
            self.firer = self.target = self.result = None
            self._pressed = False
            self.clear_overlay()
            self.result_changed.emit(None)
            return True
        return False

    # LOS
    def set_firer_down(self, down: bool) -> None:
        self.firer_down = bool(down)
        self._recompute()

    def _recompute(self) -> None:
        if self.firer is not None and self.target is not None and self.doc is not None:
            try:
                self.measure(self.firer, self.target)
            except KeyError:
                self.firer = self.target = self.result = None
                self.clear_overlay()

    def measure(self, firer: Hex | str, target: Hex | str, keep_pressed: bool = False) -> LosResult:
        """LOS from ``firer`` to ``target`` by :func:`maps.los.line_of_sight`; draws it."""
        hm = self.doc.hexmap
        self.firer, self.target = hm.hex(firer), hm.hex(target)
        self._pressed = keep_pressed
        self.result = line_of_sight(hm, self.firer, self.target, firer_down=self.firer_down, chart=self.ctx.chart)
        self._draw()
        r = self.result
        state = "DOWN" if self.firer_down else "UP"
        if r.clear:
            self.set_status(f"LOS {r.firer} ({state}) -> {r.target}: CLEAR, range {r.range}. {r.reason}")
        else:
            self.set_status(f"LOS {r.firer} ({state}) -> {r.target}: BLOCKED ({r.rule}) at {r.blocking_hex}: {r.reason}")
        self.result_changed.emit(r)
        return r

    def _block_t(self) -> float:
        """Where (fraction of the line) the line enters the blocking hex; drawing only."""
        r = self.result
        b = hexgrid.parse_hex_id(r.blocking_hex)
        for lh in hexgrid.line_hexes(self.firer, self.target):
            if lh.hex == b:
                return float(lh.t_in)
        return 1.0

    def _draw(self) -> None:
        self.clear_overlay()
        if self.firer is None:
            return
        self.add_overlay(hex_path([self.firer]), QColor(30, 90, 220, 70), QPen(QColor(30, 90, 220), 6), 20)
        r = self.result
        if r is None:
            return
        a, b = hex_centre_scene(self.firer), hex_centre_scene(self.target)
        # crossed hexes, tinted, with the number each adds to the 10.31 b count
        inter = [h for h in r.hexes if h.role == "intermediate"]
        crossed = [hexgrid.parse_hex_id(h.id) for h in inter if h.contact != "vertex"]
        touched = [hexgrid.parse_hex_id(h.id) for h in inter if h.contact == "vertex"]
        if crossed:
            self.add_overlay(hex_path(crossed), QColor(255, 170, 0, 55), QPen(QColor(200, 120, 0, 160), 3), 19)
        if touched:
            self.add_overlay(hex_path(touched), None, QPen(QColor(200, 120, 0, 120), 2, Qt.PenStyle.DotLine), 19)
        self.add_overlay(hex_path([self.target]), QColor(30, 90, 220, 40), QPen(QColor(30, 90, 220), 6), 20)
        font = QFont("DejaVu Sans", 16)
        font.setBold(True)
        for h in inter:
            n = h.trees + h.afvs + h.wrecks
            if n and h.contact != "vertex":
                c = hex_centre_scene(hexgrid.parse_hex_id(h.id))
                txt = f"T{h.trees}" + (f" A{h.afvs}" if h.afvs else "") + (f" W{h.wrecks}" if h.wrecks else "")
                path = QPainterPath()
                path.addText(QPointF(c.x() - 22, c.y() + 38), font, txt + ("" if h.counted else " -"))
                self.add_overlay(path, QColor(90, 40, 0), QPen(QColor(255, 255, 255, 220), 4), 22)
                self.add_overlay(path, QColor(90, 40, 0), None, 23)
        if r.clear:
            line = QPainterPath(a)
            line.lineTo(b)
            self.add_overlay(line, None, QPen(CLEAR_COLOUR, 9, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap), 25)
        else:
            t = self._block_t()
            m = QPointF(a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t)
            first = QPainterPath(a)
            first.lineTo(m)
            rest = QPainterPath(m)
            rest.lineTo(b)
            self.add_overlay(rest, None, QPen(BEYOND_COLOUR, 7, Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap), 24)
            self.add_overlay(first, None, QPen(BLOCKED_COLOUR, 9, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap), 25)
            bh = hexgrid.parse_hex_id(r.blocking_hex)
            self.add_overlay(hex_path([bh]), None, QPen(BLOCKED_COLOUR, 9), 26)
            bid = next((lh.building for lh in r.hexes if lh.id == r.blocking_hex and lh.building), None)
            if bid and bid in self.doc.hexmap.building_polygons:
                from PySide6.QtGui import QTransform
                from editor.drawing.map_symbols import _shapely_path

                path = QTransform.fromScale(SCENE_PER_X, SCENE_PER_Y).map(
                    _shapely_path(self.doc.hexmap.building_polygons[bid]))
                self.add_overlay(path, None, QPen(QColor(255, 230, 0), 8), 26)

    # visible from here
    def show_visible(self, ids: set[str]) -> None:
        self.clear_visible()
        if self.ctx.scene is None:
            return
        from editor.drawing.canvas import overlay_item

        hs = [hexgrid.parse_hex_id(i) for i in ids]
        self._vis_items.append(overlay_item(self.ctx.scene, hex_path(hs), VISIBLE_FILL,
                                            QPen(QColor(200, 170, 0, 120), 1.5), 9))
        self.set_status(f"{len(ids)} hexes in LOS of {self.firer.id if self.firer else '?'}")

    def clear_visible(self) -> None:
        for it in self._vis_items:
            if it.scene() is not None:
                it.scene().removeItem(it)
        self._vis_items = []

    def make_options(self) -> QWidget:
        lab = QLabel(self.help + ". D toggles the firer UP/DOWN. See the LOS dock.")
        lab.setWordWrap(True)
        lab.setAlignment(Qt.AlignmentFlag.AlignTop)
        return lab


class LosPanel(QWidget):
    """The LOS dock: UP/DOWN, the result, the Sighting Chart profile and "Visible from here"."""

    def __init__(self, tool: LosTool, parent=None):
        super().__init__(parent)
        self.tool = tool
        self.thread: VisibleFromThread | None = None
        lay = QVBoxLayout(self)
        self.down = QCheckBox("Firer DOWN (10.31 c)")
        self.down.toggled.connect(tool.set_firer_down)
        lay.addWidget(self.down)
        self.text = QLabel("Use the LOS tool (O): drag from the firer's hex to the target's.")
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.text)
        self.profile = SightingProfile()
        lay.addWidget(self.profile, 1)
        self.vis_button = QPushButton("Visible from the firer's hex")
        self.vis_button.clicked.connect(self.start_visible)
        lay.addWidget(self.vis_button)
        self.clear_button = QPushButton("Clear shading")
        self.clear_button.clicked.connect(tool.clear_visible)
        lay.addWidget(self.clear_button)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        lay.addWidget(self.progress)
        tool.result_changed.connect(self.show_result)

    def show_result(self, r: LosResult | None) -> None:
        self.profile.set_result(r)
        if r is None:
            self.text.setText("")
            return
        if self.down.isChecked() != r.firer_down:
            self.down.blockSignals(True)
            self.down.setChecked(r.firer_down)
            self.down.blockSignals(False)
        head = "<b style='color:#14aa28'>CLEAR</b>" if r.clear else f"<b style='color:#d71919'>BLOCKED ({r.rule})</b>"
        lines = [f"{r.firer} (level {r.firer_level}, {'DOWN' if r.firer_down else 'UP'}) &rarr; {r.target} "
                 f"(level {r.target_level}): {head}",
                 f"range {r.range}; trees/AFVs/wrecks along the line: {r.trees_afvs_wrecks}; "
                 f"marsh hexes: {r.marsh_hexes}"]
        if not r.clear:
            lines.append(f"blocking hex {r.blocking_hex}: {r.blocking_feature}")
        lines.append(r.reason)
        self.text.setText("<br>".join(lines))

    def start_visible(self) -> VisibleFromThread | None:
        """Shade every hex in LOS of the firer's hex (worker thread, with progress)."""
        t = self.tool
        if t.firer is None:
            self.text.setText("Pick a firer hex with the LOS tool first.")
            return None
        if self.thread is not None and self.thread.isRunning():
            self.thread.cancel()
            self.thread.wait()
        self.thread = VisibleFromThread(t.doc.hexmap, t.firer, t.firer_down, t.ctx.chart, self)
        self.progress.setVisible(True)
        self.progress.setValue(0)
        self.thread.progress.connect(lambda d, n: (self.progress.setMaximum(n), self.progress.setValue(d)))
        self.thread.result.connect(self._visible_done)
        self.thread.start()
        return self.thread

    def _visible_done(self, ids: set[str]) -> None:
        self.progress.setVisible(False)
        self.tool.show_visible(ids)
        self.text.setText(self.text.text() + f"<br>{len(ids)} hexes in LOS of {self.tool.firer.id}")

    def shutdown(self) -> None:
        if self.thread is not None and self.thread.isRunning():
            self.thread.cancel()
            self.thread.wait()
