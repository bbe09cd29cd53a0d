"""Dock panels: the terrain effects chart (editable, provenance per value) and errata preview.

* :class:`ChartPanel` - the Movement and Combat Effects Chart (:mod:`maps.terrain_chart`) as a
  table. Each value is coloured by provenance (white: rulebook, amber: reconstructed, blue:
  designer) with the reference or rationale as tooltip. Editing a value validates the whole chart
  again and marks the value ``"designer"``; an invalid entry is refused with the message. Every
  edit is a :class:`ChartEditCommand` on the panel's own ``QUndoStack`` (Undo / Redo buttons and
  a history list under the table); saving writes the file atomically
  (:func:`maps.terrain_chart.save_terrain_chart`: a temporary file, then a rename).
* :class:`ErrataPanel` - open an errata file, list every change ``target attribute: before ->
  after (status)``, highlight the hexes on the map (mismatches in red), centre the map on a hex by
  clicking its line, and apply the matching corrections as one undoable command. Mismatches are
  listed, never applied.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QUndoView,
    QVBoxLayout,
    QWidget,
)
from pydantic import ValidationError

from maps import hexgrid
from maps.errata import Change, Errata, ErrataMismatchError, apply_errata, load_errata
from maps.terrain_chart import TerrainChart, _chart_problems, load_terrain_chart, save_terrain_chart
from editor.canvas import hex_path, overlay_item
from editor.commands import ApplyErrataCommand
from editor.map_painter import hex_centre_scene

__all__ = ["ChartPanel", "ChartEditCommand", "ErrataPanel", "PROVENANCE_COLOURS", "errata_preview"]

PROVENANCE_COLOURS = {"rulebook": QColor("#ffffff"), "reconstructed": QColor("#ffe2a8"), "designer": QColor("#cfe3ff")}

CHART_COLUMNS: tuple[tuple[str, str], ...] = (
    ("level", "Level"),
    ("move.infantry_up", "Inf UP"),
    ("move.infantry_down", "Inf DOWN"),
    ("move.afv_up", "AFV UP"),
    ("move.afv_down", "AFV DOWN"),
    ("ap_dice", "AP dice"),
    ("ap_firepower_modifier", "AP FP mod"),
    ("observation_base", "Obs base"),
    ("notes", "Notes"),
)


def _get(row, path: str):
    obj = row
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _show(value) -> str:
    if value is None:
        return "None"
    if hasattr(value, "model_dump"):
        d = value.model_dump(mode="json")
        return json.dumps(d) if isinstance(d, (dict, list)) else str(value)
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


class ChartEditCommand(QUndoCommand):
    """One edit of the terrain chart: the whole chart before and after (charts are immutable values)."""

    def __init__(self, panel: "ChartPanel", before: TerrainChart, after: TerrainChart, text: str):
        super().__init__(text)
        self.panel, self.before, self.after = panel, before, after

    def redo(self) -> None:
        self.panel._set_chart(self.after)

    def undo(self) -> None:
        self.panel._set_chart(self.before)


class ChartPanel(QWidget):
    """The terrain effects chart, editable and undoable; ``chart_changed(chart)`` after every
    change (an edit, its undo or redo)."""

    chart_changed = Signal(object)

    def __init__(self, chart: TerrainChart | None = None, parent=None):
        super().__init__(parent)
        self.chart = chart or load_terrain_chart()
        self.path: Path | None = None
        self.undo_stack = QUndoStack(self)
        lay = QVBoxLayout(self)
        self.table = QTableWidget()
        lay.addWidget(self.table, 1)
        self.message = QLabel("white: rulebook · amber: reconstructed · blue: designer (hover for the source)")
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
        row = QHBoxLayout()
        self.undo_button = QPushButton("Undo")
        self.undo_button.clicked.connect(self.undo_stack.undo)
        self.undo_stack.canUndoChanged.connect(self.undo_button.setEnabled)
        self.redo_button = QPushButton("Redo")
        self.redo_button.clicked.connect(self.undo_stack.redo)
        self.undo_stack.canRedoChanged.connect(self.redo_button.setEnabled)
        self.undo_button.setEnabled(False)
        self.redo_button.setEnabled(False)
        row.addWidget(self.undo_button)
        row.addWidget(self.redo_button)
        save = QPushButton("Save chart as...")
        save.clicked.connect(self._save_as)
        row.addWidget(save)
        lay.addLayout(row)
        self.history = QUndoView(self.undo_stack)
        self.history.setEmptyLabel("<chart as loaded>")
        self.history.setMaximumHeight(90)
        lay.addWidget(self.history)
        self._filling = False
        self.table.itemChanged.connect(self._edited)
        self.fill()

    def fill(self) -> None:
        self._filling = True
        t = self.table
        t.clear()
        t.setColumnCount(len(CHART_COLUMNS) + 1)
        t.setHorizontalHeaderLabels(["Terrain"] + [h for _, h in CHART_COLUMNS])
        t.setRowCount(len(self.chart.rows))
        for i, r in enumerate(self.chart.rows):
            self._put(i, 0, r.name)
            for j, (path, _h) in enumerate(CHART_COLUMNS, start=1):
                self._put(i, j, _get(r, path))
        t.resizeColumnsToContents()
        self._filling = False

    def _put(self, i: int, j: int, cell) -> None:
        it = QTableWidgetItem(_show(cell.value))
        it.setBackground(QBrush(PROVENANCE_COLOURS.get(cell.source, QColor("white"))))
        it.setToolTip(cell.provenance.short())
        self.table.setItem(i, j, it)

    def cell_source(self, row_key: str, column: str) -> str:
        r = self.chart.row(row_key)
        return (r.name if column == "name" else _get(r, column)).source

    def set_value(self, row_index: int, column: str, text: str) -> bool:
        """Set one value from its text (validated); the value becomes ``designer``. Returns success."""
        data = self.chart.model_dump(mode="json")
        node = data["rows"][row_index]
        for part in column.split("."):
            node = node[part]
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        if column == "notes" and isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if column == "name":
            value = text
        node["value"] = value
        node["source"] = "designer"
        node.pop("ref", None)
        node.pop("rationale", None)
        try:
            chart = TerrainChart.model_validate(data)
            problems = _chart_problems(chart)
            if problems:
                raise ValueError("; ".join(str(p) for p in problems))
        except (ValidationError, ValueError) as e:
            self.message.setText(f"not accepted: {str(e).splitlines()[0] if str(e) else e}")
            return False
        desc = f"{chart.rows[row_index].key} {column} = {text}"
        self.undo_stack.push(ChartEditCommand(self, self.chart, chart, f"Chart: {desc}"))
        self.message.setText(f"{desc} (designer)")
        return True

    @property
    def dirty(self) -> bool:
        """Whether the chart has edits not yet saved."""
        return not self.undo_stack.isClean()

    def _set_chart(self, chart: TerrainChart) -> None:
        """Show ``chart`` (commands call this in redo/undo) and tell the window."""
        self.chart = chart
        self.fill()
        self.chart_changed.emit(chart)

    def save(self, path) -> bool:
        """Save the chart atomically to ``path``; on failure the old file is left as it was and the
        message says why. Returns success."""
        try:
            save_terrain_chart(self.chart, path)
        except OSError as e:
            self.message.setText(f"not saved: {e}")
            return False
        self.path = Path(path)
        self.undo_stack.setClean()
        self.message.setText(f"saved {path}")
        return True

    def _edited(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        col = "name" if item.column() == 0 else CHART_COLUMNS[item.column() - 1][0]
        if not self.set_value(item.row(), col, item.text()):
            self.fill()   # refused: show the value as it was

    def _save_as(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getSaveFileName(self, "Save terrain chart", str(self.path or "terrain_chart.json"),
                                              "Terrain chart (*.json)")
        if path:
            self.save(path)


def errata_preview(doc_map, errata: Errata) -> tuple[list[Change], Errata]:
    """Every correction's outcome on ``doc_map`` (nothing changed) and the errata reduced to the
    corrections that can be applied (mismatches dropped)."""
    try:
        _new, changes = apply_errata(doc_map, errata)
    except ErrataMismatchError as e:
        changes = e.changes
    ok = [c for c, ch in zip(errata.corrections, changes) if ch.status != "mismatch"]
    return changes, errata.model_copy(update={"corrections": ok})


class ErrataPanel(QWidget):
    """Preview and apply an errata file to the current map document."""

    centre_on = Signal(object)  # Hex

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.window = window
        self.errata: Errata | None = None
        self.applicable: Errata | None = None
        self.changes: list[Change] = []
        self._items: list = []
        lay = QVBoxLayout(self)
        self.title = QLabel("No errata file open (File > Open errata...)")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.list = QListWidget()
        self.list.itemClicked.connect(self._clicked)
        lay.addWidget(self.list, 1)
        row = QHBoxLayout()
        self.apply_button = QPushButton("Apply")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply)
        row.addWidget(self.apply_button)
        close = QPushButton("Close preview")
        close.clicked.connect(self.close_preview)
        row.addWidget(close)
        lay.addLayout(row)

    def open(self, path) -> Errata:
        """Load ``path`` (raises DocumentError) and preview it."""
        self.errata = load_errata(path)
        self.title.setText(f"<b>{self.errata.title}</b><br>{Path(path).name}")
        self.preview()
        return self.errata

    def preview(self) -> None:
        doc = self.window.document
        self.list.clear()
        self._clear_overlay()
        if self.errata is None or doc is None:
            return
        self.changes, self.applicable = errata_preview(doc.map, self.errata)
        colours = {"applied": QColor("#14801e"), "mismatch": QColor("#c01010"), "already applied": QColor("#666"),
                   "skipped": QColor("#888")}
        for ch in self.changes:
            it = QListWidgetItem(str(ch).replace("(applied)", "(will apply)"))
            it.setForeground(QBrush(colours.get(ch.status, QColor("#000"))))
            it.setToolTip(ch.line)
            it.setData(Qt.ItemDataRole.UserRole, ch.hex or self._feature_hex(ch.feature))
            self.list.addItem(it)
        pending = sum(1 for c in self.changes if c.status == "applied")
        bad = sum(1 for c in self.changes if c.status == "mismatch")
        self.apply_button.setEnabled(pending > 0)
        self.apply_button.setText(f"Apply {pending} change(s)" + (f" ({bad} mismatch(es) left out)" if bad else ""))
        self._draw()

    def _feature_hex(self, name: str | None) -> str | None:
        if not name:
            return None
        f = next((f for f in self.window.document.map.features if f.name.casefold() == name.casefold()), None)
        return f.hexes[0] if f else None

    def _draw(self) -> None:
        scene = self.window.scene
        hm = self.window.document.hexmap
        pend = [hexgrid.parse_hex_id(c.hex) for c in self.changes if c.status == "applied" and c.hex
                and hm.contains(hexgrid.parse_hex_id(c.hex))]
        bad = [hexgrid.parse_hex_id(c.hex) for c in self.changes if c.status == "mismatch" and c.hex
               and hm.contains(hexgrid.parse_hex_id(c.hex))]
        if pend:
            self._items.append(overlay_item(scene, hex_path(pend), QColor(255, 220, 0, 90), QPen(QColor(230, 150, 0), 8), 30))
        if bad:
            self._items.append(overlay_item(scene, hex_path(bad), QColor(255, 0, 0, 60), QPen(QColor(200, 0, 0), 8), 30))
        font = QFont("DejaVu Sans", 15)
        font.setBold(True)
        for c in self.changes:
            if c.hex and c.status in ("applied", "mismatch") and hm.contains(hexgrid.parse_hex_id(c.hex)):
                p = hex_centre_scene(hexgrid.parse_hex_id(c.hex))
                path = QPainterPath()
                path.addText(QPointF(p.x() - 45, p.y() - 18), font, f"{c.before}\u2192{c.after}")
                self._items.append(overlay_item(scene, path, QColor("#111"), QPen(QColor(255, 255, 255, 230), 5), 31))
                self._items.append(overlay_item(scene, path, QColor("#111") if c.status == "applied" else QColor("#b00"),
                                                None, 32))

    def _clear_overlay(self) -> None:
        for it in self._items:
            if it.scene() is not None:
                it.scene().removeItem(it)
        self._items = []

    def _clicked(self, item: QListWidgetItem) -> None:
        hid = item.data(Qt.ItemDataRole.UserRole)
        if hid:
            self.centre_on.emit(hexgrid.parse_hex_id(hid))

    def apply(self) -> bool:
        """Apply the matching corrections as one undoable command."""
        doc = self.window.document
        if self.applicable is None or not self.applicable.corrections:
            return False
        new, _changes = apply_errata(doc.map, self.applicable)
        cmd = ApplyErrataCommand(doc, new, f"Apply errata: {self.errata.title}")
        if cmd.empty:
            return False
        doc.undo_stack.push(cmd)
        self.preview()
        return True

    def close_preview(self) -> None:
        self._clear_overlay()
        self.list.clear()
        self.errata = self.applicable = None
        self.changes = []
        self.apply_button.setEnabled(False)
        self.title.setText("No errata file open (File > Open errata...)")
