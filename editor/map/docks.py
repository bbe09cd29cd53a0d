"""Dock panels: the terrain effects chart (editable, provenance per value) and errata preview.

* :class:`ChartPanel` - the Movement and Combat Effects Chart (:mod:`maps.terrain_chart`) as a
  table. Each value is coloured by provenance (white: rulebook, amber: reconstructed, blue:
  designer) with the reference or rationale as tooltip. Editing a value validates the whole chart
  again and marks the value ``"designer"``; an invalid entry is refused with the message. The
  chart is the current map's (``MapDocument.chart``): every edit is a map edit on the map's undo
  stack (Undo / Redo buttons and a history list under the table) and the chart is saved with the
  map (embedded); *Save chart as...* writes a chart file atomically
  (:func:`maps.terrain_chart.save_terrain_chart`: a temporary file, then a rename) and makes the
  map name it.
* :class:`ErrataPanel` - open an errata file, list every change ``target attribute: before ->
  after (status)``, highlight the hexes on the map (mismatches in red), centre the map on a hex by
  clicking its line, and apply the corrections as one undoable command. As ``ironcross errata
  apply``, it refuses when any correction does not match the map, unless the designer confirms a
  dialog listing the mismatches (:func:`confirm_errata_mismatches`): apply only the matching
  corrections, or force them all (``--force``).
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
from maps.document_file import DocumentError
from maps.errata import Change, Errata, ErrataMismatchError, apply_errata, load_errata
from maps.terrain_chart import TerrainChart, _chart_problems, load_terrain_chart, save_terrain_chart
from editor.drawing.canvas import hex_path, overlay_item
from editor.map.commands import ApplyErrataCommand
from editor.drawing.hex_scene import hex_centre_scene
from maps.json_file import JsonFileProblem, parse_json

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
    """One edit of a chart that belongs to no map document (a panel on its own): the whole chart
    before and after (charts are immutable values)."""

    def __init__(self, panel: "ChartPanel", before: TerrainChart, after: TerrainChart, text: str):
        super().__init__(text)
        self.panel, self.before, self.after = panel, before, after

    def redo(self) -> None:
        self.panel._set_chart(self.after)

    def undo(self) -> None:
        self.panel._set_chart(self.before)


class ChartPanel(QWidget):
    """The terrain effects chart of the current map, editable and undoable; ``chart_changed(chart)``
    after every change (an edit, its undo or redo, another map).

    With a map document (:meth:`set_document`) the chart is the map's (``MapDocument.chart``) and
    every edit is a map edit on the map's undo stack (the chart is embedded in the map file when
    the map is saved); *Save chart as...* writes a chart file and makes the map name it. Without
    a document the panel keeps its own chart and undo stack."""

    chart_changed = Signal(object)

    def __init__(self, chart: TerrainChart | None = None, parent=None):
        super().__init__(parent)
        self.document = None
        self._chart = chart or load_terrain_chart()
        self._saved = self._chart
        self.path: Path | None = None
        self._own_stack = QUndoStack(self)
        lay = QVBoxLayout(self)
        self.source = QLabel()
        self.source.setWordWrap(True)
        lay.addWidget(self.source)
        self.table = QTableWidget()
        lay.addWidget(self.table, 1)
        self.message = QLabel("white: rulebook · amber: reconstructed · blue: designer (hover for the source)")
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
        row = QHBoxLayout()
        self.undo_button = QPushButton("Undo")
        self.undo_button.clicked.connect(lambda: self.undo_stack.undo())
        self.redo_button = QPushButton("Redo")
        self.redo_button.clicked.connect(lambda: self.undo_stack.redo())
        row.addWidget(self.undo_button)
        row.addWidget(self.redo_button)
        save = QPushButton("Save chart as...")
        save.clicked.connect(self._save_as)
        row.addWidget(save)
        lay.addLayout(row)
        self.history = QUndoView(self._own_stack)
        self.history.setEmptyLabel("<chart as loaded>")
        self.history.setMaximumHeight(90)
        lay.addWidget(self.history)
        self._filling = False
        self.table.itemChanged.connect(self._edited)
        self._bind_stack()
        self.fill()

    # -- the chart and its document
    @property
    def chart(self) -> TerrainChart:
        """The chart shown: the map document's (when the panel has one), else the panel's own."""
        return self.document.chart if self.document is not None else self._chart

    @property
    def undo_stack(self) -> QUndoStack:
        """Where chart edits go: the map document's undo stack, else the panel's own."""
        return self.document.undo_stack if self.document is not None else self._own_stack

    def set_document(self, document) -> None:
        """Show and edit the chart of map ``document`` (an :class:`editor.map.document.MapDocument`)."""
        if self.document is not None:
            try:
                self.document.chart_changed.disconnect(self._document_chart)
            except (RuntimeError, TypeError):
                pass
        self.document = document
        document.chart_changed.connect(self._document_chart)
        self._saved = document.chart
        self._bind_stack()
        self.fill()
        self.chart_changed.emit(self.chart)

    def _bind_stack(self) -> None:
        st = self.undo_stack
        self.history.setStack(st)
        self.history.setEmptyLabel("<map as loaded>" if self.document is not None else "<chart as loaded>")
        for b, sig, can in ((self.undo_button, st.canUndoChanged, st.canUndo),
                            (self.redo_button, st.canRedoChanged, st.canRedo)):
            b.setEnabled(can())
            sig.connect(b.setEnabled)

    def _document_chart(self, chart) -> None:
        self.fill()
        self.chart_changed.emit(chart)

    def _source_text(self) -> str:
        d = self.document
        if d is None:
            return f"chart file {self.path}" if self.path else "the shipped chart"
        ref = d.map.terrain_chart
        if ref is None:
            return "This map is played with the shipped chart (an edit embeds the chart in the map file)."
        if isinstance(ref, str):
            return f"This map is played with the chart file {ref} (an edit embeds the chart in the map file)."
        return "This map carries its own chart (embedded in the map file, saved with the map)."

    def fill(self) -> None:
        self._filling = True
        self.source.setText(self._source_text())
        t = self.table
        t.clear()
        t.setColumnCount(len(CHART_COLUMNS) + 1)
        t.setHorizontalHeaderLabels(["Terrain"] + [h for _, h in CHART_COLUMNS])
        chart = self.chart
        t.setRowCount(len(chart.rows))
        for i, r in enumerate(chart.rows):
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
            value = parse_json(text)  # the safe parser: NaN, an endless number or deep nesting stay text
        except JsonFileProblem:
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
        if self.document is not None:
            self.document.set_chart(chart, f"Chart: {desc}")
        else:
            self.undo_stack.push(ChartEditCommand(self, self.chart, chart, f"Chart: {desc}"))
        self.message.setText(f"{desc} (designer)")
        return True

    @property
    def dirty(self) -> bool:
        """Whether the chart has edits not written to a chart file by this panel (with a map
        document they are saved with the map in any case)."""
        return self.chart is not self._saved and self.chart != self._saved

    def _set_chart(self, chart: TerrainChart) -> None:
        """Show ``chart`` (the panel's own commands call this in redo/undo) and tell the window."""
        self._chart = chart
        self.fill()
        self.chart_changed.emit(chart)

    def save(self, path) -> bool:
        """Save the chart atomically to ``path``; with a map document, the map then names that
        chart file (an undoable map edit). On failure the old file is left as it was and the
        message says why. Returns success."""
        chart = self.chart
        try:
            save_terrain_chart(chart, path)
        except OSError as e:
            self.message.setText(f"not saved: {e}")
            return False
        self.path = Path(path)
        if self.document is not None:
            try:
                self.document.use_chart_file(path)
            except DocumentError as e:   # pragma: no cover - we just wrote it
                self.message.setText(f"saved {path}, but the map cannot use it: {e}")
                return False
        else:
            self.undo_stack.setClean()
        self._saved = self.chart
        self.message.setText(f"saved {path}" + ("; the map now names this chart file" if self.document else ""))
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


def confirm_errata_mismatches(parent, mismatches: list[Change], pending: int) -> str | None:
    """Ask whether to apply errata whose preconditions do not all match the map (the CLI refuses
    unless --force). Lists every mismatch; returns ``"matching"`` (apply the ``pending`` matching
    corrections, leave the mismatches), ``"force"`` (overwrite the mismatched values too, as
    ``--force``) or None (apply nothing)."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Errata do not match this map")
    box.setText(f"{len(mismatches)} correction(s) do not match the map: it shows neither the printed nor the "
                f"corrected value. These errata may be meant for another edition.\n\n"
                "`ironcross errata apply` refuses such errata unless --force. Apply anyway?")
    shown = [str(c) for c in mismatches[:8]] + ([f"... and {len(mismatches) - 8} more (Show Details)"]
                                                if len(mismatches) > 8 else [])
    box.setInformativeText("\n".join(shown))
    box.setDetailedText("\n".join(str(c) for c in mismatches))
    matching = box.addButton(f"Apply the {pending} matching only", QMessageBox.ButtonRole.AcceptRole)
    force = box.addButton("Force all (--force)", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    clicked = box.clickedButton()
    box.deleteLater()   # a box made for each question: never left behind as the parent's child
    return "matching" if clicked is matching else "force" if clicked is force else None


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
        self.list.setWordWrap(True)   # a long correction wraps in the dock, never cut
        self.list.itemClicked.connect(self._clicked)
        lay.addWidget(self.list, 1)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
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
        self.apply_button.setEnabled(pending > 0 or bad > 0)
        self.apply_button.setText(f"Apply {pending} change(s)" + (f" ({bad} mismatch(es): asks first)" if bad else ""))
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
        """Apply the errata as one undoable command, by the CLI's rule: when any correction does
        not match the map, nothing is applied unless the designer confirms the dialog listing the
        mismatches (:func:`confirm_errata_mismatches`), choosing the matching corrections only or
        forcing all. Returns whether the map changed."""
        doc = self.window.document
        if self.errata is None or self.applicable is None:
            return False
        mismatches = [c for c in self.changes if c.status == "mismatch"]
        pending = sum(1 for c in self.changes if c.status == "applied")
        errata = self.applicable
        force = False
        if mismatches:
            choice = confirm_errata_mismatches(self, mismatches, pending)
            if choice is None:
                self.message.setText(f"Nothing applied: {len(mismatches)} correction(s) do not match this map "
                                     "(as `ironcross errata apply` refuses without --force).")
                return False
            if choice == "force":
                errata, force = self.errata, True
        if not errata.corrections:
            return False
        try:
            new, _changes = apply_errata(doc.map, errata, force=force)
        except ErrataMismatchError as e:
            self.message.setText(f"Nothing applied: {e}")
            return False
        cmd = ApplyErrataCommand(doc, new, f"Apply errata: {self.errata.title}" + (" (forced)" if force else ""))
        if cmd.empty:
            return False
        doc.undo_stack.push(cmd)
        self.message.setText("Applied" + (" (forced)" if force else "") + ": Edit > Undo takes it back.")
        self.preview()
        return True

    def close_preview(self) -> None:
        self._clear_overlay()
        self.list.clear()
        self.errata = self.applicable = None
        self.changes = []
        self.apply_button.setEnabled(False)
        self.title.setText("No errata file open (File > Open errata...)")
