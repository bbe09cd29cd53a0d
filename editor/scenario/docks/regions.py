"""The Regions dock: the scenario's regions (set-up zones, entries, victory areas, named
regions) listed, built with the region builder, renamed and deleted."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.scenario.document import ScenarioDocument, validation_message
from editor.scenario.scenario_files import set_region_at
from editor.drawing.widgets import button_grid
from editor.scenario.wording import LOC_ROLE, loc_label
from maps.json_file import JsonFileProblem, parse_json

__all__ = ["RegionPanel", "rename_named_refs"]


# ============================================================================ regions

class RegionPanel(QWidget):
    """Every region of the scenario with its resolved hex count (live), and the **region
    builder** for the selected one: its name, a form per kind with hexes and
    roads picked on the map (:class:`editor.scenario.builders.region_builder.RegionEditor`, the JSON as an
    *Advanced* view), the hexes shown live on the map (``preview_changed``) with their count.
    *OK* applies the region as one undoable command, *Cancel* goes back to the stored one, *New
    region* builds a named region, *As explicit hexes* freezes it into its list of hexes. The
    Region paint tool paints the selected region's hexes."""

    region_selected = Signal(object)   # loc tuple or None
    #: the builder's hexes (hex ids) to show on the map, after every change of the draft
    preview_changed = Signal(object)

    def __init__(self, parent=None):
        from editor.scenario.builders.region_builder import RegionEditor
        from editor.scenario.builders.region_picking import WrapLabel

        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["Region", "Hexes"])
        self.list.setRootIsDecorated(False)
        # a name in full ("Germans win: no Russian unit on Hill J or Hill K") wraps, never elided
        self.list.setWordWrap(True)
        self.list.setUniformRowHeights(False)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.header().setStretchLastSection(False)
        self.list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.list.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        # the row heights follow the column's width, so a long name wraps
        self.list.header().sectionResized.connect(lambda i, _o, _n: i == 0 and self._fit_rows())
        self.list.currentItemChanged.connect(self._selected)
        self.list.setMinimumHeight(120)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        split.addWidget(self.list)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        self.where = WrapLabel()
        f = self.where.font()
        f.setBold(True)
        self.where.setFont(f)
        bl.addWidget(self.where)
        name_row = QHBoxLayout()
        name_row.addWidget(QLabel("Name"))
        self.name = QLineEdit()
        self.name.setToolTip("The region's name in the scenario's named regions. For a set-up zone, an entry or a "
                             "victory area, a name (optional) stores the region as a named region, which the zone "
                             "then refers to")
        self.name.textEdited.connect(lambda _t: self._draft_changed(None))
        name_row.addWidget(self.name, 1)
        bl.addLayout(name_row)
        self.editor = RegionEditor()
        #: the live hex count (or the problem), the region in words and the JSON (Advanced tab)
        self.count, self.describe, self.text = self.editor.count, self.editor.describe, self.editor.text
        self.editor.changed.connect(self._draft_changed)
        bl.addWidget(self.editor, 1)
        self.message = WrapLabel()
        self.message.setStyleSheet("color: #b00000")
        self.message.hide()
        bl.addWidget(self.message)
        self.ok_button = QPushButton("OK")
        self.ok_button.setToolTip("Apply the region (one undo step)")
        self.ok_button.clicked.connect(self.apply)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Forget the changes: back to the region as stored")
        self.cancel_button.clicked.connect(self.cancel)
        bl.addLayout(button_grid([self.ok_button, self.cancel_button, ("As explicit hexes", self.to_hexes),
                                  ("New region", self.new_region)]))
        split.addWidget(box)
        split.setStretchFactor(1, 1)
        lay.addWidget(split)
        self._split = split
        self.loc: tuple | None = None
        #: True while a new named region is being built (no list entry yet)
        self.creating = False
        self._base: dict | None = None   # the stored region the draft started from
        self.prompt = None
        self._show_empty()

    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        self.loc, self.creating, self._base = None, False, None
        self.editor.set_source(doc)
        doc.changed.connect(lambda what: what == "scenario" and self.refresh())
        self.refresh()

    def refresh(self) -> None:
        keep = self.loc
        self.list.blockSignals(True)
        self.list.clear()
        sel = None
        for loc, region in self.doc.regions():
            hexes, err = self.doc.resolve(region)
            it = QTreeWidgetItem([loc_label(self.doc, loc), "error" if err else str(len(hexes))])
            it.setData(0, LOC_ROLE, loc)
            it.setToolTip(0, f"{loc_label(self.doc, loc)}: {region.describe()}")
            it.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            if err or not hexes:
                it.setForeground(1, QBrush(QColor(190, 0, 0)))
            self.list.addTopLevelItem(it)
            if keep is not None and tuple(loc) == tuple(keep):
                sel = it
        self.list.blockSignals(False)
        self._fit_rows()
        if sel is not None:
            self.list.blockSignals(True)
            self.list.setCurrentItem(sel)
            self.list.blockSignals(False)
        elif keep is not None:
            self.loc, self._base = None, None
            self.region_selected.emit(None)
        self._sync_builder()

    def _fit_rows(self) -> None:
        """Give each row the height of its name wrapped in the Region column."""
        from PySide6.QtCore import QRect, QSize

        fm = self.list.fontMetrics()
        w = max(60, self.list.header().sectionSize(0) - 12)
        for i in range(self.list.topLevelItemCount()):
            it = self.list.topLevelItem(i)
            h = fm.boundingRect(QRect(0, 0, w, 10000), int(Qt.TextFlag.TextWordWrap), it.text(0)).height() + 4
            it.setSizeHint(0, QSize(w, h))

    def select(self, loc: tuple | None) -> None:
        for i in range(self.list.topLevelItemCount()):
            it = self.list.topLevelItem(i)
            if loc is not None and tuple(it.data(0, LOC_ROLE)) == tuple(loc):
                self.list.setCurrentItem(it)
                return

    def _selected(self, it, prev) -> None:
        loc = tuple(it.data(0, LOC_ROLE)) if it is not None else None
        if loc == self.loc and not self.creating:
            return
        if self.dirty() and not self._discard_ok():
            self.list.blockSignals(True)
            self.list.setCurrentItem(prev)
            self.list.blockSignals(False)
            return
        self.creating = False
        self.loc, self._base = loc, None
        self._sync_builder()
        self.region_selected.emit(self.loc)

    def _discard_ok(self) -> bool:
        """Ask before the builder's changes are dropped (another region chosen, New region)."""
        what = "the new region" if self.creating else loc_label(self.doc, self.loc) if self.loc else "the region"
        sb = QMessageBox.StandardButton
        ans = QMessageBox.question(self, "Region not applied",
                                   f"The changes to {what} are not applied (OK). Discard them?",
                                   sb.Discard | sb.Cancel, sb.Cancel)
        return ans == sb.Discard

    # ------------------------------------------------------------------ the stored region
    def region(self):
        """The stored region (model) of the selected entry, or None."""
        if self.loc is None or self.doc is None:
            return None
        try:
            return _model_at(self.doc.scenario, self.loc)
        except (KeyError, IndexError, AttributeError, TypeError):
            return None

    def hexes(self) -> frozenset[str]:
        """The stored region's hexes (see :meth:`preview_hexes` for the builder's)."""
        r = self.region()
        return self.doc.resolve(r)[0] if r is not None else frozenset()

    def _stored(self) -> dict | None:
        r = self.region()
        return r.model_dump(mode="json", exclude_none=True) if r is not None else None

    # ------------------------------------------------------------------ the builder
    def preview_hexes(self) -> frozenset[str]:
        """The hexes of the region in the builder (shown on the map while it is edited)."""
        if self.creating or self.loc is not None:
            return self.editor.hexes()
        return frozenset()

    def dirty(self) -> bool:
        """Whether the builder holds changes not applied."""
        if self.creating:
            return True
        if self._base is None or self.loc is None:
            return False
        return self.editor.region() != self._base or self.name.text().strip() != self._stored_name()

    def _stored_name(self) -> str:
        return str(self.loc[1]) if self.loc is not None and self.loc[0] == "regions" else ""

    def _show_empty(self) -> None:
        self.where.setText("Select a region in the list, or press New region.")
        self.name.clear()
        self.name.setEnabled(False)
        self.editor.setEnabled(False)
        self.editor.set_region(None)
        self.count.setText("")
        self.describe.setText("")
        self._base = None
        self._update_buttons()
        self.preview_changed.emit(frozenset())

    def _sync_builder(self) -> None:
        """After a change of the scenario or of the selection: the builder shows the stored region
        when it changed (an undo, a paint stroke: a draft of the old one is dropped), else it keeps
        what it holds, resolved again (the map, north or named regions may have changed)."""
        self._say(None)
        if self.creating:
            self.editor.refresh()
            self._update_buttons()
            self.preview_changed.emit(self.preview_hexes())
            return
        stored = self._stored()
        if stored is None:
            self._show_empty()
            return
        if self._base is not None and stored == self._base:
            self.editor.refresh()   # the same stored region: the form (and a field picking) stays
        else:
            self._load(stored)
        self._update_buttons()
        self.preview_changed.emit(self.preview_hexes())

    def _load(self, stored: dict) -> None:
        self._base = stored
        self.where.setText(loc_label(self.doc, self.loc))
        named = self.loc[0] == "regions"
        self.editor.form.exclude_named = {self.loc[1]} if named else set()
        self.editor.setEnabled(True)
        self.editor.set_source(self.doc)
        self.editor.set_region(stored)
        self.name.setEnabled(True)
        self.name.setText(self._stored_name())
        self.name.setPlaceholderText("the region's name" if named else
                                     "optional: a name stores it as a named region")

    def _draft_changed(self, _data) -> None:
        self._say(None)
        self._update_buttons()
        self.preview_changed.emit(self.preview_hexes())

    def _update_buttons(self) -> None:
        # the form grew or shrank: a QSplitter does not tell its parent layout, so the dock's
        # scroll area would squeeze the nested parts instead of scrolling
        self._split.updateGeometry()
        active = self.creating or self.loc is not None
        self.ok_button.setEnabled(active and self.editor.is_valid())
        self.cancel_button.setEnabled(active)

    def _say(self, text: str | None) -> None:
        """A refused OK, in words under the builder (never a dialog)."""
        self.message.setText(text or "")
        self.message.setVisible(bool(text))

    def new_region(self, data: dict | None = None) -> None:
        """Start building a new named region (a suggested name, an empty hex list)."""
        if self.doc is None:
            return
        if self.dirty() and not self._discard_ok():
            return
        from PySide6.QtCore import QModelIndex

        self.list.blockSignals(True)
        self.list.setCurrentIndex(QModelIndex())
        self.list.clearSelection()
        self.list.blockSignals(False)
        if self.loc is not None:
            self.loc = None
            self.region_selected.emit(None)
        self.creating, self._base = True, None
        names = set(self.doc.scenario.regions)
        n = 1
        while f"Region {n}" in names:
            n += 1
        self.where.setText("New named region")
        self.editor.form.exclude_named = set()
        self.editor.setEnabled(True)
        self.editor.set_region(data or {"kind": "hexes", "hexes": []})
        self.name.setEnabled(True)
        self.name.setPlaceholderText("the region's name")
        self.name.setText(f"Region {n}")
        self.name.setFocus()
        self.name.selectAll()
        self._say(None)
        self._update_buttons()
        self.preview_changed.emit(self.preview_hexes())

    def apply(self) -> bool:
        """*OK*: store the builder's region as one undoable command (a new named region, a
        renamed one with every reference to it, a zone given a name). A refusal is said under
        the builder; returns whether the region was applied."""
        if self.doc is None or (self.loc is None and not self.creating):
            return False
        if not self.editor.is_valid():
            self._say(f"Not applied: {self.editor.error() or 'the region is not complete'}")
            return False
        data = self.editor.region()
        name = self.name.text().strip()
        regions = self.doc.scenario.regions
        loc = self.loc
        if self.creating or loc[0] == "regions":
            old = None if self.creating else loc[1]
            if not name:
                self._say("Not applied: a named region needs a name")
                return False
            if name != old and name in regions:
                self._say(f"Not applied: the scenario already has a region named {name!r}")
                return False
            new_loc = ("regions", name)
            if old is None:
                text = f"New region {name}"

                def change(d):
                    d.setdefault("regions", {})[name] = data
            elif name != old:
                text = f"Rename region {old} to {name}"

                def change(d):
                    d["regions"] = {(name if k == old else k): (data if k == old else v)
                                    for k, v in d["regions"].items()}
                    rename_named_refs(d, old, name)
            else:
                text = f"Edit region {name}"

                def change(d):
                    d["regions"][name] = data
        else:
            new_loc = loc
            if name:
                if name in regions:
                    self._say(f"Not applied: the scenario already has a region named {name!r}")
                    return False
                text = f"Name region {name}"

                def change(d):
                    d.setdefault("regions", {})[name] = data
                    set_region_at(d, loc, {"kind": "named", "name": name})
            else:
                text = f"Edit {loc_label(self.doc, loc)}"

                def change(d):
                    set_region_at(d, loc, data)
        before = (self.loc, self.creating, self._base)
        self.loc, self.creating, self._base = new_loc, False, None
        try:
            self.doc.edit(text, change)
        except ValidationError as e:
            self.loc, self.creating, self._base = before
            self._say(f"Not applied: {validation_message(e)}")
            return False
        self.refresh()
        self.select(new_loc)
        self.region_selected.emit(self.loc)
        return True

    def cancel(self) -> None:
        """*Cancel*: drop the builder's changes (a new region is not made)."""
        if self.creating:
            self.creating = False
            self._show_empty()
            return
        self._base = None
        self._sync_builder()

    def set_region(self, data: dict, text: str = "Edit region", stroke: int | None = None) -> bool:
        """Store ``data`` as the selected region at once (no builder); False with the reason
        under the builder when it is refused."""
        loc = self.loc
        if loc is None:
            return False
        try:
            self.doc.edit(text, lambda d: set_region_at(d, loc, data), stroke=stroke)
        except ValidationError as e:
            self._say(f"Invalid region: {validation_message(e)}")
            return False
        return True

    def apply_text(self) -> bool:
        """Apply the region typed in the *Advanced (JSON)* view."""
        try:
            data = parse_json(self.text.toPlainText())  # an endless number or deep nesting is said
        except JsonFileProblem as e:
            self._say(f"Not JSON: {e}")
            return False
        from editor.scenario.builders.region_kinds import region_problem

        msg = region_problem(data)
        if msg is not None:
            self._say(f"Not applied: {msg}")
            return False
        self.editor.set_region(data)
        return self.apply()

    def to_hexes(self) -> None:
        """*As explicit hexes*: the builder's region frozen into the list of its hexes, applied."""
        hexes = sorted(self.editor.hexes())
        if not hexes or not self.editor.is_valid():
            self._say("Not applied: the region has no hexes to list")
            return
        self.editor.set_region({"kind": "hexes", "hexes": hexes})
        if self.apply() and self.loc is not None:
            self.region_selected.emit(self.loc)


def rename_named_refs(data: Any, old: str, new: str) -> int:
    """Make every ``{"kind": "named", "name": old}`` node in the scenario's JSON ``data`` refer
    to ``new``; returns how many were changed."""
    n = 0
    if isinstance(data, dict):
        if data.get("kind") == "named" and data.get("name") == old:
            data["name"] = new
            n += 1
        for v in data.values():
            n += rename_named_refs(v, old, new)
    elif isinstance(data, list):
        for v in data:
            n += rename_named_refs(v, old, new)
    return n


def _model_at(obj, loc: tuple):
    for k in loc:
        if isinstance(obj, dict):
            obj = obj[k]
        elif isinstance(obj, list):
            obj = obj[k]
        else:
            obj = getattr(obj, k)
    return obj
