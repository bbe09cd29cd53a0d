"""The map canvas: a ``QGraphicsScene`` that draws through :class:`editor.drawing.map_painter.MapPainter`
(the same renderer as ``ironcross render``) and forwards mouse events to the current tool, and a
``QGraphicsView`` with zoom and pan.

* :class:`MapItem` - one ``QGraphicsItem`` whose ``paint()`` calls ``MapPainter.paint`` in scene
  coordinates, cached in device coordinates (a pixmap of the view); it follows the document's
  ``changed`` signal, invalidates only the part of the picture an edit changed, and has the
  painter rebuild only what changed (:meth:`MapPainter.update_map`: the blocks of the changed
  hexes, or the roads, buildings or labels when those changed) and draw only what is exposed.
* :class:`MapScene` - forwards press / move / release / double-click / key events as
  :class:`ToolEvent` values to a :class:`editor.map.tools.ToolManager`; reports the hex under the
  cursor (``hover_hex``).
* :class:`MapView` - wheel zoom around the cursor, ``zoom_in`` / ``zoom_out`` / ``fit``, pan with
  the middle button, with Space + left drag, or the scrollbars.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import (QBrush, QColor, QImage, QPainter, QPainterPath, QPen, QPixmap, QPixmapCache, QPolygonF,
                           QTransform)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene, QGraphicsView, QWidget

from maps import hexgrid
from maps.hexgrid import Hex
from editor.drawing.map_style import LAYERS, MARGIN_BG, SCENE_PER_X, SCENE_PER_Y
from editor.drawing.map_painter import MapPainter
from editor.drawing.hex_scene import hex_at_scene, scene_to_lattice

__all__ = ["ToolEvent", "MapItem", "MapScene", "MapView", "hex_path", "EDITOR_LAYERS", "overlay_item", "tile_size"]

#: Layers drawn in the editor by default (the title and legend margins are for exports).
EDITOR_LAYERS = frozenset(LAYERS) - {"title", "legend"}


def tile_size(scale: float) -> int:
    """Device pixels per side of the tiles of a view at ``scale`` device pixels per scene unit: a
    power of two from :data:`TILE` to 8 x TILE, spanning about :data:`TILE_SCENE` scene units, so
    that a tile holds a few hexes at every zoom (a hex step repaints a few tiles)."""
    n = TILE
    while n < 8 * TILE and n < TILE_SCENE * scale:
        n *= 2
    return n


#: the smallest hex id drawn on the canvas (screen pixels)
MIN_ID_PX = 8.0


@lru_cache(maxsize=16384)
def _hex_polygon(h: Hex) -> QPolygonF:
    """The closed outline of hex ``h`` in scene units (vertices from the lattice), remembered per
    hex: overlays outline the same hexes again and again (the dimmed map outside a scenario's
    playing area holds most of the map). Callers only copy it (``addPolygon``)."""
    pts = [QPointF(x * SCENE_PER_X, y * SCENE_PER_Y) for x, y in hexgrid.vertices(h)]
    return QPolygonF(pts + [pts[0]])


def hex_path(hexes) -> QPainterPath:
    """A path of the outlines of ``hexes`` (:class:`Hex`) in scene units (vertices from the lattice)."""
    path = QPainterPath()
    for h in hexes:
        path.addPolygon(_hex_polygon(h))
        path.closeSubpath()
    return path


def overlay_item(scene: QGraphicsScene, path: QPainterPath, fill: QColor | None, pen: QPen | None, z: float = 10
                 ) -> QGraphicsPathItem:
    """Add a path item on top of the map (no mouse handling of its own)."""
    item = QGraphicsPathItem(path)
    item.setBrush(QBrush(fill) if fill is not None else QBrush(Qt.BrushStyle.NoBrush))
    item.setPen(pen if pen is not None else QPen(Qt.PenStyle.NoPen))
    item.setZValue(z)
    item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    scene.addItem(item)
    return item


@dataclass(frozen=True)
class ToolEvent:
    """A mouse event as a tool sees it: the hex, the point in lattice units and in the scene.

    ``on_map`` is False for a position in the margin (a hex outside the map's extent, possibly one
    without a hex id, e.g. column -1 left of a map whose first column is 00): the scene never
    passes such presses, moves or double-clicks to a tool, and a release there only ends the
    gesture (tools must not act on its hex)."""

    hex: Hex
    x: float
    y: float
    scene_pos: QPointF
    button: Qt.MouseButton = Qt.MouseButton.LeftButton
    buttons: Qt.MouseButton = Qt.MouseButton.NoButton
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    on_map: bool = True

    @classmethod
    def at_scene(cls, pos: QPointF, button=Qt.MouseButton.LeftButton, buttons=Qt.MouseButton.NoButton,
                 modifiers=Qt.KeyboardModifier.NoModifier) -> "ToolEvent":
        x, y = scene_to_lattice(pos.x(), pos.y())
        return cls(hex_at_scene(pos.x(), pos.y()), x, y, QPointF(pos), button, buttons, modifiers)

    @classmethod
    def at_hex(cls, h: Hex | str, **kw) -> "ToolEvent":
        """An event at the centre of a hex (for tests and scripts)."""
        h = hexgrid.parse_hex_id(h) if isinstance(h, str) else h
        x, y = hexgrid.centre(h)
        return cls.at_scene(QPointF(x * SCENE_PER_X, y * SCENE_PER_Y), **kw)

    @property
    def shift(self) -> bool:
        return bool(self.modifiers & Qt.KeyboardModifier.ShiftModifier)

    @property
    def ctrl(self) -> bool:
        return bool(self.modifiers & Qt.KeyboardModifier.ControlModifier)

    @property
    def left_down(self) -> bool:
        return bool(self.buttons & Qt.MouseButton.LeftButton)


#: Device pixels per side of the tiles a view of the map is drawn in (at least; see :func:`tile_size`).
TILE = 64
#: Scene units a tile spans at least when zoomed in (2.5 hexes), up to 8 x TILE pixels.
TILE_SCENE = 256.0
#: Scene units of context drawn around a tile (more than half the widest pen of the map, a
#: feature name's halo), so that the pixels along its edges are those of a whole repaint.
PAINT_CONTEXT = 8.0
_RASTER_DEVICES = (QWidget, QPixmap, QImage)

#: Room (KB) the map item's device-coordinate cache needs in ``QPixmapCache``: the viewport's
#: pixels (a 3840 x 2160 screen at device pixel ratio 2 is about 130 MB). A pixmap larger than the
#: cache's limit is not kept, and then every repaint would draw the whole view again.
PIXMAP_CACHE_KB = 256 * 1024


class MapItem(QGraphicsItem):
    """The map, painted by :class:`MapPainter` in scene coordinates.

    The item caches its picture in device coordinates (``DeviceCoordinateCache``: a pixmap of what
    is in view, kept in ``QPixmapCache``), so a repaint that does not change the map only copies
    pixels. An edit invalidates only the part of that pixmap it changed (:meth:`update` with the
    rects from :meth:`MapPainter.hex_rects`, or those :meth:`MapPainter.update_map` finds by
    comparing the maps), and the paint that follows draws the tiles of the view under that part
    (:func:`tile_size` device pixels, at fixed places relative to the scene), each drawing only
    the blocks of hexes that reach into it (``exposed`` of :meth:`MapPainter.paint`). A tile is
    always drawn the same way, so the cached view is pixel for pixel a fresh full repaint. A zoom
    draws the view anew; a scroll draws the strips that come into view.

    ``last_update_rects``, ``last_paint_rect`` and ``last_tiles`` tell what the last change
    invalidated and what the last paint drew (for tests and benchmarks).
    """

    def __init__(self, document=None):
        super().__init__()
        self.painter: MapPainter | None = None
        self.document = None
        self._stale = False
        self._pending: set[str] | None = None
        self._layers = set(EDITOR_LAYERS)
        self._rect = QRectF()
        self._extent = None
        self._flush_queued = False
        #: the scene rect the last paint drew the map's blocks for (None: all of them), and the
        #: number of tiles it drew
        self.last_paint_rect: QRectF | None = None
        self.last_tiles = 0
        #: the scene rects the last document change invalidated (None: the whole picture)
        self.last_update_rects: list[QRectF] | None = None
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if QPixmapCache.cacheLimit() < PIXMAP_CACHE_KB:
            QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        if document is not None:
            self.set_document(document)

    def set_document(self, document) -> None:
        if self.document is not None:
            try:
                self.document.changed.disconnect(self._on_changed)
            except (RuntimeError, TypeError):
                pass
        self.document = document
        self.prepareGeometryChange()
        self.painter = MapPainter(document.hexmap, self._layers)
        self.painter.min_id_px = MIN_ID_PX   # ids readable or not drawn (the hex tooltip has them)
        document.changed.connect(self._on_changed)
        self._stale = False
        self._pending = None
        self._rect = self.painter.scene_rect()
        self._extent = document.map.extent
        self.update()

    def set_layer(self, name: str, visible: bool) -> None:
        (self._layers.add if visible else self._layers.discard)(name)
        if self.painter is not None:
            self.prepareGeometryChange()
            self.painter.set_layer(name, visible)
            self._rect = self.painter.scene_rect()
        self.update()

    def layers(self) -> set[str]:
        return set(self._layers)

    @contextmanager
    def uncached(self):
        """Inside the block the item paints its vectors straight onto the painter (no pixmap),
        e.g. to export the view to SVG; the cache is drawn anew afterwards."""
        mode = self.cacheMode()
        self.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        try:
            yield self
        finally:
            self.setCacheMode(mode)

    def _on_changed(self, hexes) -> None:
        if self.painter is None:
            return
        if hexes is not None:
            # only these hexes' records changed: their drawing data is rebuilt at the next paint
            # (once for all the edits before it); the part of the picture they cover is redrawn
            if not self._stale:
                self._pending = set(hexes)
            elif self._pending is not None:
                self._pending |= set(hexes)
            self._stale = True
            self.last_update_rects = rects = self.painter.hex_rects(hexes)
            for r in rects:
                self.update(r)
            return
        # anything may have changed: what differs from the picture is found by comparing the maps,
        # once for all the edits of this turn of the event loop (a scripted stroke makes many),
        # then invalidated; until then a paint shows the map as it was
        self._stale = True
        self._pending = None
        if self.document.map.extent != self._extent:   # resized: the bounding rect changes now
            self.refresh()
        elif not self._flush_queued:
            self._flush_queued = True
            QTimer.singleShot(0, self.document, self._flush)

    def _flush(self) -> None:
        self._flush_queued = False
        self.refresh()

    def refresh(self) -> list[QRectF] | None:
        """Rebuild the painter's geometry now if the document changed since the last paint, and
        invalidate the parts of the picture that changed.

        Returns the scene rects whose picture changed ([] when nothing changed), or None when
        anything may have (:meth:`MapPainter.update_map`)."""
        if not self._stale or self.painter is None:
            return []
        compare = self._pending is None
        # only the parts of the drawing data that the edits changed are rebuilt
        rects = self.painter.update_map(self.document.hexmap, self._pending)
        self._stale = False
        self._pending = None
        rect = self.painter.scene_rect()
        if rect != self._rect:   # a resized map or new sections
            self.prepareGeometryChange()
            self._rect = rect
        self._extent = self.document.map.extent
        if compare:   # hexes were invalidated when they changed; the rest is now
            self.last_update_rects = rects
            if rects is None:
                self.update()
            else:
                for r in rects:
                    self.update(r)
        return rects

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(self._rect)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.painter is None:
            return
        if self._stale and self._pending is not None:   # never invalidate during a paint: Qt's
            self.refresh()                                # cache would forget it afterwards
        t = painter.worldTransform()
        dev = painter.device()
        tiled = (isinstance(dev, _RASTER_DEVICES) and t.type().value <= QTransform.TransformationType.TxScale.value
                 and t.m11() > 0 and t.m22() > 0 and float(dev.devicePixelRatio()).is_integer())
        if not tiled:
            # vectors (SVG export), a rotated or mirrored view, or a fractional device pixel ratio
            # (tiles would not meet on whole pixels): the exposed blocks straight onto the painter
            exposed = self._exposed(painter)
            self.last_paint_rect = exposed
            self.painter.paint(painter, exposed=exposed)
            return
        # Raster: draw the tiles of the device that the painter may change (its clip), each in an
        # image of its own with a margin of context around it, and copy them. A tile is always drawn
        # the same way (the same device rect at the same offset from the scene), whatever part of
        # the view is being repainted: a line that ends at the edge of a device is drawn a little
        # differently than one that goes on (Qt's strokers clip to the device), so pixels drawn
        # for a part of the view would otherwise differ from the same pixels of a whole repaint.
        sx, sy = t.m11(), t.m22()
        area = QRectF(QPointF(0, 0), _logical_size(dev))
        if painter.hasClipping():
            area = area.intersected(t.mapRect(painter.clipBoundingRect()))
        part = area.toAlignedRect()
        if part.isEmpty():
            return
        ox, oy = math.floor(t.dx()), math.floor(t.dy())
        # the offset of the scene from the pixel grid, the same in every painter of this view
        fx, fy = round((t.dx() - ox) * 1024) / 1024, round((t.dy() - oy) * 1024) / 1024
        n = tile_size(max(sx, sy))
        m = 3 + math.ceil(PAINT_CONTEXT * max(sx, sy))
        dpr = dev.devicePixelRatio()
        self.last_paint_rect = QRectF()
        self.last_tiles = 0
        painter.save()
        painter.setWorldTransform(QTransform())
        for i in range((part.left() - ox) // n, (part.right() - ox) // n + 1):
            for j in range((part.top() - oy) // n, (part.bottom() - oy) // n + 1):
                img = self._tile(QTransform(sx, 0, 0, sy, fx - i * n + m, fy - j * n + m), n + 2 * m, dpr)
                painter.drawImage(QRectF(ox + i * n, oy + j * n, n, n), img, QRectF(m * dpr, m * dpr, n * dpr, n * dpr))
        painter.restore()

    def _tile(self, transform: QTransform, size: int, dpr: float) -> QImage:
        """A ``size`` x ``size`` image (device pixels) of the map drawn with ``transform``."""
        img = QImage(math.ceil(size * dpr), math.ceil(size * dpr), QImage.Format.Format_ARGB32_Premultiplied)
        img.setDevicePixelRatio(dpr)
        img.fill(0)
        p = QPainter(img)
        try:
            p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
            p.setWorldTransform(transform)
            exposed = transform.inverted()[0].mapRect(QRectF(-2, -2, size + 4, size + 4))
            self.last_paint_rect = self.last_paint_rect.united(exposed)
            self.last_tiles += 1
            self.painter.paint(p, exposed=exposed)
        finally:
            p.end()
        return img

    @staticmethod
    def _exposed(painter: QPainter) -> QRectF | None:
        """The scene rect ``painter`` can change: its clip, else its device, grown by two device
        pixels for antialiasing (None: the transform has no inverse; draw everything)."""
        t = painter.worldTransform()
        inv, invertible = t.inverted()
        if not invertible:
            return None
        dev = painter.device()
        area = QRectF(0, 0, dev.width(), dev.height())   # device units (at least the painter's window)
        if painter.hasClipping():
            area = area.intersected(t.mapRect(painter.clipBoundingRect()))
        return inv.mapRect(area.adjusted(-2, -2, 2, 2))


def _logical_size(dev) -> QSizeF:
    """The size of a raster paint device in the units a painter on it draws in (device
    independent pixels: a pixmap at device pixel ratio 2 is half its pixel size)."""
    if isinstance(dev, QWidget):
        return QSizeF(dev.size())
    return dev.deviceIndependentSize()


class MapScene(QGraphicsScene):
    """The scene of one map document; forwards events to the tool manager."""

    hover_hex = Signal(object)   # Hex or None

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setBackgroundBrush(MARGIN_BG)
        self.map_item = MapItem()
        self.addItem(self.map_item)
        self.tools = None  # a ToolManager
        self._last_hover: Hex | None = None
        #: room the overlays need in the margin (the scenario's compass rose and legend)
        self.extra_rect = QRectF()

    def set_document(self, document) -> None:
        self.map_item.set_document(document)
        self.update_rect()
        document.changed.connect(lambda _h: self.update_rect())

    def update_rect(self) -> None:
        r = self.map_item.boundingRect().adjusted(-200, -200, 200, 200)
        self.setSceneRect(r.united(self.extra_rect) if not self.extra_rect.isNull() else r)

    # -- events -> tool
    def _tool(self):
        return self.tools.current if self.tools is not None else None

    def _refused(self, t) -> bool:
        """Whether tool ``t`` may not act now (its :attr:`Tool.refusal` says why, and shows it)."""
        return t.refusal is not None and t.refusal() is not None

    def on_map(self, h: Hex) -> bool:
        """Whether ``h`` is a hex of the document's map (the margin around it is not)."""
        doc = self.map_item.document
        if doc is None:
            return True
        ex = doc.map.extent   # the extent, not the HexMap: no rebuild on every move after an edit
        return ex.first_column <= h.col <= ex.last_column and ex.first_row <= h.row <= ex.last_row

    def _event(self, ev, button) -> ToolEvent:
        e = ToolEvent.at_scene(ev.scenePos(), button, ev.buttons(), ev.modifiers())
        return e if self.on_map(e.hex) else replace(e, on_map=False)

    def mousePressEvent(self, ev) -> None:  # noqa: N802
        t = self._tool()
        if t is not None:
            e = self._event(ev, ev.button())
            if e.on_map and not self._refused(t):   # the margin is not a hex: no tool acts there
                t.press(e)
            ev.accept()
        else:
            super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev) -> None:  # noqa: N802
        e = self._event(ev, Qt.MouseButton.NoButton)
        if e.hex != self._last_hover:
            self._last_hover = e.hex
            self.hover_hex.emit(e.hex)   # the status bar says "off the map" for the margin
        t = self._tool()
        if t is not None:
            if e.on_map:
                t.move(e)
            ev.accept()
        else:
            super().mouseMoveEvent(ev)

    def mouseReleaseEvent(self, ev) -> None:  # noqa: N802
        t = self._tool()
        if t is not None:
            t.release(self._event(ev, ev.button()))   # off the map (on_map False) it only ends the gesture
            ev.accept()
        else:
            super().mouseReleaseEvent(ev)

    def mouseDoubleClickEvent(self, ev) -> None:  # noqa: N802
        t = self._tool()
        if t is not None:
            e = self._event(ev, ev.button())
            if e.on_map and not self._refused(t):
                t.double_click(e)
            ev.accept()
        else:
            super().mouseDoubleClickEvent(ev)

    def keyPressEvent(self, ev) -> None:  # noqa: N802
        t = self._tool()
        if t is not None and not self._refused(t) and t.key(ev.key(), ev.modifiers()):
            ev.accept()
            return
        super().keyPressEvent(ev)


class MapView(QGraphicsView):
    """Zoom (wheel, :meth:`zoom_in`, :meth:`zoom_out`, :meth:`fit`) and pan (middle drag,
    Space + left drag, scrollbars). A ``QGraphicsView`` does not own its scene: the window keeps it."""

    zoom_changed = Signal(float)

    MIN_SCALE = 0.02
    MAX_SCALE = 4.0

    def __init__(self, scene: QGraphicsScene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from: QPointF | None = None
        self._space = False
        #: hex -> the tooltip of the hex under the cursor ("" for none), at every zoom
        self.hex_tooltip = None

    def viewportEvent(self, ev) -> bool:  # noqa: N802
        """A tooltip over the map: the hex's id and contents (:attr:`hex_tooltip`), then the
        tooltips of the items there (a set-up problem, say)."""
        from PySide6.QtCore import QEvent
        from PySide6.QtWidgets import QToolTip

        if ev.type() == QEvent.Type.ToolTip and self.hex_tooltip is not None:
            at = self.mapToScene(ev.pos())
            lines = [self.hex_tooltip(hex_at_scene(at.x(), at.y()))]
            lines += [it.toolTip() for it in self.items(ev.pos()) if it.toolTip()]
            text = "\n".join(x for x in lines if x)
            if text:
                QToolTip.showText(ev.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(ev)

    # -- zoom
    def scale_factor(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        s = self.scale_factor()
        factor = max(self.MIN_SCALE / s, min(self.MAX_SCALE / s, factor))
        self.scale(factor, factor)

    def zoom_in(self) -> None:
        self.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.zoom_by(0.8)

    def fit(self) -> None:
        """Fit the map into the window: what :attr:`fitter` fits (the open scenario's playing
        area, when it says so by returning True), else the whole map."""
        fitter = getattr(self, "fitter", None)
        if fitter is not None and fitter():
            return
        self.fit_whole()

    def fit_whole(self) -> None:
        """Fit the whole map into the window."""
        item = getattr(self.scene(), "map_item", None)
        rect = item.boundingRect() if item is not None else self.scene().itemsBoundingRect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.zoom_changed.emit(self.scale_factor())

    def centre_on_hex(self, h: Hex) -> None:
        x, y = hexgrid.centre(h)
        self.centerOn(QPointF(x * SCENE_PER_X, y * SCENE_PER_Y))

    def setTransform(self, *a, **k):  # noqa: N802 - keep the zoom read-out right
        super().setTransform(*a, **k)
        self.zoom_changed.emit(self.scale_factor())

    def scale(self, sx: float, sy: float) -> None:
        super().scale(sx, sy)
        self.zoom_changed.emit(self.scale_factor())

    def wheelEvent(self, ev) -> None:  # noqa: N802
        dy = ev.angleDelta().y()
        if dy:
            self.zoom_by(1.0015 ** dy)
            ev.accept()

    # -- pan
    def keyPressEvent(self, ev) -> None:  # noqa: N802
        if ev.key() == Qt.Key.Key_Space and not ev.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            ev.accept()
            return
        super().keyPressEvent(ev)

    def keyReleaseEvent(self, ev) -> None:  # noqa: N802
        if ev.key() == Qt.Key.Key_Space and not ev.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            ev.accept()
            return
        super().keyReleaseEvent(ev)

    def mousePressEvent(self, ev) -> None:  # noqa: N802
        if ev.button() == Qt.MouseButton.MiddleButton or (self._space and ev.button() == Qt.MouseButton.LeftButton):
            self._pan_from = ev.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            ev.accept()
            return
        super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev) -> None:  # noqa: N802
        if self._pan_from is not None:
            d = ev.position() - self._pan_from
            self._pan_from = ev.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(d.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(d.y()))
            ev.accept()
            return
        super().mouseMoveEvent(ev)

    def mouseReleaseEvent(self, ev) -> None:  # noqa: N802
        if self._pan_from is not None and ev.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.LeftButton):
            self._pan_from = None
            if self._space:
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            else:
                self.viewport().unsetCursor()
            ev.accept()
            return
        super().mouseReleaseEvent(ev)
