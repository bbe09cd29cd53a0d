"""Drawing point by point: :class:`DrawingTool`, the base of the Building tool
(:mod:`editor.map.building_tool`) and the Obstacle tool (:mod:`editor.map.obstacle_tool`):
click corners, double-click or Enter to finish, Esc or Backspace to take back, a rubber band."""
from __future__ import annotations

from PySide6.QtCore import Qt
from editor.drawing.tool import Tool, show_quietly

__all__ = ["DrawingTool"]


# ------------------------------------------------------------------------------------------
# Drawing point by point (buildings here; obstacles in editor.map.obstacle_tool)
# ------------------------------------------------------------------------------------------
class DrawingTool(Tool):
    """Common handling of the tools that draw a line or an outline point by point, in modes, and
    select what the map holds (:class:`BuildingTool`, :class:`editor.map.obstacle_tool.ObstacleTool`).

    - ``points`` drawn so far and ``hover``, the mouse's point (lattice map units; the rubber band
      :func:`polyline_path`): :meth:`add_point` adds one (never the same twice in a row; the
      status from :meth:`_point_status`); :meth:`draft_key`: Backspace drops the last point, Esc
      cancels (:meth:`cancel`: :meth:`_clear_draft`, a redraw, "cancelled");
    - :meth:`set_mode` (one of ``MODES``; the options panel's ``mode_combo``, items whose data are
      the modes, follows; the status is the mode's ``MODE_HELP``, else the tool's help) and
      :meth:`deactivate` drop all in progress (:meth:`_reset`);
    - the overlay follows the document (:meth:`_follow_document`, called at the end of a
      subclass's ``__init__``): after any edit (undo included) a selection the edit removed is
      forgotten (:meth:`_drop_stale`) and the current tool redraws (:meth:`_redraw`).
    """

    MODES: tuple[str, ...] = ("draw",)
    #: the status text of each mode whose text is not the tool's ``help``
    MODE_HELP: dict[str, str] = {}

    def __init__(self, ctx):
        super().__init__(ctx)
        self.mode = self.MODES[0]
        self.points: list[tuple[float, float]] = []
        self.hover: tuple[float, float] | None = None

    # the document
    def _follow_document(self) -> None:
        self.ctx.document_changed.connect(self._watch)
        if self.ctx.document is not None:
            self._watch(self.ctx.document)

    def _watch(self, doc) -> None:
        """Redraw the selection (and what goes with it) after any edit of ``doc``, undo included."""
        if doc is not None:
            doc.changed.connect(self._doc_changed)

    def _doc_changed(self, _hexes) -> None:
        if self.doc is None or self.ctx.document is not self.sender():
            return
        self._drop_stale()
        if self is getattr(self.ctx, "active_tool", lambda: None)():
            self._redraw()

    def _drop_stale(self) -> None:
        """Forget a selection that the document no longer has (an undo, a delete)."""

    def _redraw(self) -> None:
        raise NotImplementedError

    # modes and lifecycle
    def set_mode(self, mode: str) -> None:
        if mode not in self.MODES:
            raise ValueError(f"{self.name} tool modes are {self.MODES}, not {mode!r}")
        self.mode = mode
        show_quietly(getattr(self, "mode_combo", None), self.MODES, mode)
        self._reset()
        self._redraw()
        self.set_status(self.MODE_HELP.get(mode, self.help))

    def deactivate(self) -> None:
        self._reset()
        super().deactivate()

    def _clear_draft(self) -> None:
        """Drop the line being drawn (what Esc drops)."""
        self.points, self.hover = [], None

    def _reset(self) -> None:
        """Drop all in progress (on a change of mode and when the tool is put down)."""
        self._clear_draft()

    # drawing
    def add_point(self, pt) -> None:
        """Add ``pt`` (lattice map units) to the line being drawn."""
        if self.points and pt == self.points[-1]:
            return
        self.points.append(pt)
        self.set_status(self._point_status(pt))
        self._redraw()

    def _point_status(self, pt) -> str:
        return f"point {len(self.points)}"

    def cancel(self) -> None:
        self._clear_draft()
        self._redraw()
        self.set_status("cancelled")

    def draft_key(self, key) -> bool:
        """Backspace drops the last point drawn, Esc cancels; whether ``key`` was one of those."""
        if key == Qt.Key.Key_Backspace and self.points:
            self.points.pop()
            self._redraw()
            return True
        if key == Qt.Key.Key_Escape:
            self.cancel()
            return True
        return False
