"""The form of each kind of region (:data:`editor.scenario.builders.region_kinds.KINDS`): one
editor class per kind, holding the kind's parameters, inside a
:class:`editor.scenario.builders.region_builder.RegionForm`. Kinds that combine regions (side of,
beyond, reachable, adjacent to, within, union, intersection, difference) hold nested forms of
the same class as the form they sit in."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from scenarios.regions import FEATURE_KINDS
from editor.scenario.builders.region_kinds import _FEATURE_KIND_LABELS, _leaf_default
from editor.scenario.builders.region_picking import (
    FeatureField,
    HexField,
    WrapLabel,
    _DirectionCombo,
    _combo,
    _select,
    picker,
)


# =============================================================================== kind editors

class _Editor(QWidget):
    """The parameters of one kind (inside a :class:`RegionForm`)."""

    changed = Signal()
    kind = ""

    def __init__(self, form: "RegionForm"):
        super().__init__()
        self.form = form
        self.lay = QFormLayout(self)
        self.lay.setContentsMargins(0, 0, 0, 0)
        self.lay.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.lay.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

    def load(self, d: dict) -> None: ...

    def dump(self) -> dict:
        return {"kind": self.kind}

    def children(self) -> list["RegionForm"]:
        return []

    def set_context(self, ctx) -> None: ...

    def _child(self, data: dict, caption: str) -> "RegionForm":
        f = type(self.form)(parent_form=self.form)   # a nested form of the same class
        f.set_region(data)
        f.changed.connect(lambda _d: self.changed.emit())
        box = QWidget()
        v = QVBoxLayout(box)
        v.setContentsMargins(0, 2, 0, 0)
        v.setSpacing(1)
        lab = WrapLabel(caption)
        lab.setStyleSheet("color: #555")
        v.addWidget(lab)
        v.addWidget(f)
        self.lay.addRow(box)
        return f


class _HexesEditor(_Editor):
    kind = "hexes"

    def __init__(self, form):
        super().__init__(form)
        self.field = HexField("list", "4307, 4308")
        self.field.changed.connect(self.changed)
        self.lay.addRow("Hexes", self.field)

    def load(self, d):
        self.field.set_ids(list(d.get("hexes", [])))

    def dump(self):
        return {"kind": "hexes", "hexes": self.field.ids()}


class _RangeEditor(_Editor):
    kind = "hex_range"

    def __init__(self, form):
        super().__init__(form)
        self.first = HexField("one", "5014")
        self.last = HexField("one", "7014")
        self.first.next_field = self.last
        for f in (self.first, self.last):
            f.changed.connect(self.changed)
        self.lay.addRow("From", self.first)
        self.lay.addRow("To", self.last)
        hint = WrapLabel("along one hex column or one hex row, both ends included")
        hint.setStyleSheet("color: #555")
        self.lay.addRow(hint)

    def load(self, d):
        self.first.set_ids([d["first"]] if d.get("first") else [])
        self.last.set_ids([d["last"]] if d.get("last") else [])

    def dump(self):
        return {"kind": "hex_range", "first": self.first.value(), "last": self.last.value()}


class _AreaEditor(_Editor):
    kind = "area"

    def __init__(self, form):
        super().__init__(form)
        lab = WrapLabel("every hex of the scenario's map sections")
        self.lay.addRow(lab)


class _SectionEditor(_Editor):
    kind = "section"

    def __init__(self, form):
        super().__init__(form)
        self.combo = _combo()
        self.combo.setEditable(True)
        self.combo.currentTextChanged.connect(lambda _t: self.changed.emit())
        self.lay.addRow("Section", self.combo)

    def set_context(self, ctx):
        m = getattr(ctx, "hexmap", None)
        cur = self.combo.currentText()
        self.combo.blockSignals(True)
        self.combo.clear()
        for s in (m.doc.sections if m is not None else []):
            self.combo.addItem(s.name)
        self.combo.setEditText(cur)
        self.combo.blockSignals(False)

    def load(self, d):
        self.combo.blockSignals(True)
        self.combo.setEditText(d.get("name", ""))
        self.combo.blockSignals(False)

    def dump(self):
        return {"kind": "section", "name": self.combo.currentText().strip()}


class _EdgeEditor(_Editor):
    kind = "map_edge"

    def __init__(self, form):
        super().__init__(form)
        self.direction = _DirectionCombo()
        self.direction.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.lay.addRow("Edge", self.direction)
        self.only = QWidget()
        self.only_lay = QHBoxLayout(self.only)
        self.only_lay.setContentsMargins(0, 0, 0, 0)
        self.checks: dict[str, QCheckBox] = {}
        self.lay.addRow("Only of", self.only)
        self.only.setToolTip("Tick map sections to take the edge of those sections only; none ticked: the "
                             "edge of the whole playing area")
        self._sections: list[str] | None = None

    def set_context(self, ctx):
        self.direction.set_north(getattr(ctx, "north", None))
        m = getattr(ctx, "hexmap", None)
        names = [s.name for s in (m.doc.sections if m is not None else [])]
        keep = self._checked()
        if list(self.checks) == names + [s for s in (keep or []) if s not in names]:
            return
        for cb in self.checks.values():
            self.only_lay.removeWidget(cb)
            cb.hide()
            cb.deleteLater()
        self.checks = {}
        for n in names + [s for s in (keep or []) if s not in names]:
            cb = QCheckBox(n)
            cb.setChecked(n in (keep or []))
            cb.toggled.connect(lambda _on: self.changed.emit())
            self.only_lay.addWidget(cb)
            self.checks[n] = cb

    def _checked(self) -> list[str] | None:
        if not self.checks:
            return self._sections
        out = [n for n, cb in self.checks.items() if cb.isChecked()]
        return out or None

    def load(self, d):
        _select(self.direction, d.get("direction", "north"))
        self._sections = list(d["sections"]) if d.get("sections") else None
        for n, cb in self.checks.items():
            cb.blockSignals(True)
            cb.setChecked(n in (self._sections or []))
            cb.blockSignals(False)
        missing = [s for s in (self._sections or []) if s not in self.checks]
        for n in missing:
            cb = QCheckBox(n)
            cb.setChecked(True)
            cb.toggled.connect(lambda _on: self.changed.emit())
            self.only_lay.addWidget(cb)
            self.checks[n] = cb

    def dump(self):
        d = {"kind": "map_edge", "direction": self.direction.currentData()}
        secs = self._checked()
        if secs:
            d["sections"] = secs
        return d


class _FeatureEditor(_Editor):
    kind = "feature"

    def __init__(self, form):
        super().__init__(form)
        self.field = FeatureField()
        self.field.changed.connect(self.changed)
        self.lay.addRow("Feature", self.field)

    def set_context(self, ctx):
        self.field.set_hexmap(getattr(ctx, "hexmap", None))

    def load(self, d):
        self.field.set_value(d.get("name", ""))

    def dump(self):
        return {"kind": "feature", "name": self.field.value()}


class _FeatureKindEditor(_Editor):
    kind = "feature_kind"

    def __init__(self, form):
        super().__init__(form)
        self.combo = _combo([(_FEATURE_KIND_LABELS[k], k) for k in FEATURE_KINDS])
        for i, k in enumerate(FEATURE_KINDS):
            self.combo.setItemData(i, FEATURE_KINDS[k], Qt.ItemDataRole.ToolTipRole)
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.lay.addRow("Every", self.combo)

    def load(self, d):
        _select(self.combo, d.get("feature", "building_hexes"))

    def dump(self):
        return {"kind": "feature_kind", "feature": self.combo.currentData()}


class _PathEditor(_Editor):
    kind = "path"

    def __init__(self, form):
        super().__init__(form)
        self.network = _combo([("road", "road"), ("gully", "gully")], 5)
        self.network.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.through = HexField("path", "1014 - 1315 - 1608")
        self.through.changed.connect(self.changed)
        self.lay.addRow("Along", self.network)
        self.lay.addRow("Through", self.through)

    def load(self, d):
        _select(self.network, d.get("network", "road"))
        self.through.set_ids(list(d.get("through", [])))

    def dump(self):
        return {"kind": "path", "network": self.network.currentData(), "through": self.through.ids()}


class _SideOfEditor(_Editor):
    kind = "side_of"

    def __init__(self, form):
        super().__init__(form)
        self.direction = _DirectionCombo()
        self.direction.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.boundary = QCheckBox("include the line itself")
        self.boundary.toggled.connect(lambda _on: self.changed.emit())
        self.bounded = QCheckBox("bounded by the line (the pocket it closes off)")
        self.bounded.setToolTip("read 'south of the road' as the hexes the road closes off on that side (as "
                                "Reachable, with barriers), not hex column by hex column: they differ where the "
                                "road bends")
        self.bounded.toggled.connect(lambda _on: self.changed.emit())
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.lay.addRow("Side", self.direction)
        self.lay.addRow(self.boundary)
        self.lay.addRow(self.bounded)
        self.lay.addRow(self.note)
        self.of: RegionForm | None = None

    def set_context(self, ctx):
        self.direction.set_north(getattr(ctx, "north", None))

    def load(self, d):
        _select(self.direction, d.get("direction", "north"))
        self.boundary.setChecked(bool(d.get("include_boundary", False)))
        self.bounded.setChecked(bool(d.get("bounded", False)))
        self.of = self._child(d.get("of") or _leaf_default("path"), "of (a road, gully, hex line or any region)")

    def dump(self):
        d = {"kind": "side_of", "direction": self.direction.currentData(),
             "of": self.of.region() if self.of else {}, "include_boundary": self.boundary.isChecked()}
        if self.bounded.isChecked():
            d["bounded"] = True
        return d

    def explain(self, ctx) -> None:
        """Say what the side means along this line: both readings' hex counts when they differ
        (the line bends), else that they agree."""
        from scenarios.regions import RegionError, region_from_data

        self.note.setText("")
        if ctx is None:
            return
        try:
            literal, pocket = region_from_data({**self.dump(), "bounded": False}).readings(ctx)
        except (RegionError, ValueError):
            return
        side = self.direction.currentData()
        if literal == pocket:
            self.note.setText(f"Here both readings agree: {len(literal)} hexes {side} of the line.")
            return
        lines = "hex column" if side in ("north", "south") else "hex row"
        beyond = len(literal - pocket)
        self.note.setText(
            f"The line bends here. Read literally (each {lines} beyond the line's last hex on it), {side} of it is "
            f"{len(literal)} hexes" + (f", {beyond} of them beyond its far leg" if beyond else "") +
            f"; bounded by it, the pocket it closes off on that side is {len(pocket)} hexes.")
    def children(self):
        return [self.of] if self.of else []


class _BeyondEditor(_Editor):
    kind = "beyond"
    BOUNDS = (("hex row", "row"), ("hex column", "column"), ("hex", "hex"))

    def __init__(self, form):
        super().__init__(form)
        self.direction = _DirectionCombo()
        self.bound = _combo(list(self.BOUNDS), 6)
        self.column = QSpinBox()
        self.column.setRange(0, 99)
        self.column.setSuffix("xx")
        self.row = QSpinBox()
        self.row.setRange(0, 99)
        self.row.setPrefix("xx")
        self.hex = HexField("one", "3901")
        self.inclusive = QCheckBox("inclusive (the row, column or hex's own line too)")
        self.value = QWidget()
        v = QHBoxLayout(self.value)
        v.setContentsMargins(0, 0, 0, 0)
        for w in (self.row, self.column, self.hex):
            v.addWidget(w)
        v.addStretch(0)
        self.lay.addRow("Side", self.direction)
        self.lay.addRow("Of", self.bound)
        self.lay.addRow("", self.value)
        self.lay.addRow(self.inclusive)
        for s in (self.direction.currentIndexChanged, self.column.valueChanged, self.row.valueChanged,
                  self.inclusive.toggled):
            s.connect(lambda *_a: self.changed.emit())
        self.bound.currentIndexChanged.connect(self._bound_changed)
        self.hex.changed.connect(self.changed)
        self._show_bound()

    def _show_bound(self) -> None:
        b = self.bound.currentData()
        self.row.setVisible(b == "row")
        self.column.setVisible(b == "column")
        self.hex.setVisible(b == "hex")
        if b != "hex":
            picker().stop(self.hex)

    def _bound_changed(self, _i) -> None:
        self._show_bound()
        self.changed.emit()

    def set_context(self, ctx):
        self.direction.set_north(getattr(ctx, "north", None))

    def load(self, d):
        _select(self.direction, d.get("direction", "north"))
        b = "column" if d.get("column") is not None else "hex" if d.get("hex") is not None else "row"
        _select(self.bound, b)
        if d.get("column") is not None:
            self.column.setValue(int(d["column"]))
        if d.get("row") is not None:
            self.row.setValue(int(d["row"]))
        self.hex.set_ids([d["hex"]] if d.get("hex") else [])
        self.inclusive.setChecked(bool(d.get("inclusive", False)))
        self._show_bound()

    def dump(self):
        b = self.bound.currentData()
        d: dict[str, Any] = {"kind": "beyond", "direction": self.direction.currentData()}
        d[b] = {"row": self.row.value(), "column": self.column.value(), "hex": self.hex.value()}[b]
        d["inclusive"] = self.inclusive.isChecked()
        return d


class _AdjacentEditor(_Editor):
    kind = "adjacent_to"

    def __init__(self, form):
        super().__init__(form)
        self.of: RegionForm | None = None

    def load(self, d):
        self.of = self._child(d.get("of") or _leaf_default("hexes"), "hexes with a neighbour in")

    def dump(self):
        return {"kind": "adjacent_to", "of": self.of.region() if self.of else {}}

    def children(self):
        return [self.of] if self.of else []


class _WithinEditor(_Editor):
    kind = "within"

    def __init__(self, form):
        super().__init__(form)
        self.distance = QSpinBox()
        self.distance.setRange(0, 99)
        self.distance.setSuffix(" hexes")
        # "1 hex", "2 hexes": the suffix follows the number
        self.distance.valueChanged.connect(lambda v: self.distance.setSuffix(" hex" if v == 1 else " hexes"))
        self.distance.valueChanged.connect(lambda _v: self.changed.emit())
        self.lay.addRow("Within", self.distance)
        self.of: RegionForm | None = None

    def load(self, d):
        self.distance.setValue(int(d.get("distance", 1)))
        self.distance.setSuffix(" hex" if self.distance.value() == 1 else " hexes")
        self.of = self._child(d.get("of") or _leaf_default("hexes"), "of (range 11.2, the region itself included)")

    def dump(self):
        return {"kind": "within", "of": self.of.region() if self.of else {}, "distance": self.distance.value()}

    def children(self):
        return [self.of] if self.of else []


class _ReachableEditor(_Editor):
    kind = "reachable"

    def __init__(self, form):
        super().__init__(form)
        self.start: RegionForm | None = None
        self.barrier: RegionForm | None = None

    def load(self, d):
        self.start = self._child(d.get("start") or {"kind": "map_edge", "direction": "north"},
                                 "reachable from")
        self.barrier = self._child(d.get("barrier") or _leaf_default("path"),
                                   "without crossing (the barrier; a union for several)")

    def dump(self):
        return {"kind": "reachable", "start": self.start.region() if self.start else {},
                "barrier": self.barrier.region() if self.barrier else {}}

    def children(self):
        return [f for f in (self.start, self.barrier) if f is not None]


class _NamedEditor(_Editor):
    kind = "named"

    def __init__(self, form):
        super().__init__(form)
        self.combo = _combo()
        self.combo.setEditable(True)
        self.combo.currentTextChanged.connect(lambda _t: self.changed.emit())
        self.lay.addRow("Region", self.combo)

    def set_context(self, ctx):
        names = sorted(getattr(ctx, "named", {}) or {})
        skip = self.form.root().exclude_named
        cur = self.combo.currentText()
        self.combo.blockSignals(True)
        self.combo.clear()
        for n in names:
            if n not in skip:
                self.combo.addItem(n)
        self.combo.setEditText(cur)
        self.combo.blockSignals(False)

    def load(self, d):
        self.combo.blockSignals(True)
        self.combo.setEditText(d.get("name", ""))
        self.combo.blockSignals(False)

    def dump(self):
        return {"kind": "named", "name": self.combo.currentText().strip()}


class _AddNamedCombo(QComboBox):
    """*Add named region...*: the scenario's named regions; choosing one emits ``chosen(name)``
    and the list shows its prompt again. Refilled whenever it opens."""

    chosen = Signal(str)
    PROMPT = "Add named region..."

    def __init__(self, names):
        super().__init__()
        self.names = names
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(10)
        self.setToolTip("Add one of the scenario's named regions as a part")
        self.refill()
        self.currentIndexChanged.connect(self._chosen)

    def refill(self) -> None:
        self.blockSignals(True)
        self.clear()
        self.addItem(self.PROMPT, None)
        for n in self.names():
            self.addItem(n, n)
        self.setCurrentIndex(0)
        self.blockSignals(False)

    def showPopup(self) -> None:  # noqa: N802
        self.refill()
        super().showPopup()

    def _chosen(self, i: int) -> None:
        name = self.itemData(i)
        if not name:
            return
        self.blockSignals(True)
        self.setCurrentIndex(0)
        self.blockSignals(False)
        self.chosen.emit(name)


class _PartList(QWidget):
    """The parts of a union, an intersection or a difference's *minus*: nested forms, each
    removable (while more than one is left), plus *Add part* and *Add named region...*."""

    changed = Signal()

    def __init__(self, editor: _Editor, caption: str):
        super().__init__()
        self.editor = editor
        self.caption = caption
        self.forms: list[RegionForm] = []
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(0, 0, 0, 0)
        self.lay.setSpacing(2)
        self.parts = QVBoxLayout()
        self.parts.setSpacing(3)
        self.lay.addLayout(self.parts)
        row = QHBoxLayout()
        self.add_button = QToolButton()
        self.add_button.setText("Add part")
        self.add_button.setToolTip("Add a part (a new region, built the same way)")
        self.add_button.clicked.connect(lambda: self.add(_leaf_default("hexes"), emit=True))
        # a list, not a menu: choosing a name adds it (no modal popup loop)
        self.named_combo = _AddNamedCombo(self.named_choices)
        self.named_combo.chosen.connect(lambda n: self.add({"kind": "named", "name": n}, emit=True))
        row.addWidget(self.add_button)
        row.addWidget(self.named_combo, 1)
        self.lay.addLayout(row)

    def named_choices(self) -> list[str]:
        ctx = self.editor.form.ctx()
        skip = self.editor.form.root().exclude_named
        return [n for n in sorted(getattr(ctx, "named", {}) or {}) if n not in skip]

    def add(self, data: dict, emit: bool = False) -> "RegionForm":
        f = type(self.editor.form)(parent_form=self.editor.form, removable=True)
        f.set_region(data)
        f.changed.connect(lambda _d: self.changed.emit())
        f.remove_requested.connect(self.remove)
        self.parts.addWidget(f)
        self.forms.append(f)
        self._update_buttons()
        if emit:
            f.set_context(self.editor.form.ctx())
            self.changed.emit()
        return f

    def remove(self, form: "RegionForm") -> None:
        if form not in self.forms or len(self.forms) <= 1:
            return
        picker().stop_within(form)
        self.forms.remove(form)
        self.parts.removeWidget(form)
        form.hide()
        form.deleteLater()
        self._update_buttons()
        self.changed.emit()

    def _update_buttons(self) -> None:
        for f in self.forms:
            if f.remove_button is not None:
                f.remove_button.setEnabled(len(self.forms) > 1)

    def load(self, items: list[dict]) -> None:
        for d in items or [_leaf_default("hexes")]:
            self.add(d)

    def regions(self) -> list[dict]:
        return [f.region() for f in self.forms]


class _ListEditor(_Editor):
    def __init__(self, form, kind: str):
        super().__init__(form)
        self.kind = kind
        words = "in any of these parts" if kind == "union" else "in every one of these parts"
        lab = WrapLabel(f"hexes {words}")
        lab.setStyleSheet("color: #555")
        self.lay.addRow(lab)
        self.parts = _PartList(self, words)
        self.parts.changed.connect(self.changed)
        self.lay.addRow(self.parts)

    def load(self, d):
        self.parts.load([x for x in d.get("of", []) if isinstance(x, dict)])

    def dump(self):
        return {"kind": self.kind, "of": self.parts.regions()}

    def children(self):
        return list(self.parts.forms)


class _DifferenceEditor(_Editor):
    kind = "difference"

    def __init__(self, form):
        super().__init__(form)
        self.of: RegionForm | None = None
        self.minus: _PartList | None = None

    def load(self, d):
        self.of = self._child(d.get("of") or _leaf_default("feature"), "hexes of")
        lab = WrapLabel("minus the hexes of any of")
        lab.setStyleSheet("color: #555")
        self.lay.addRow(lab)
        self.minus = _PartList(self, "minus")
        self.minus.load([x for x in d.get("minus", []) if isinstance(x, dict)])
        self.minus.changed.connect(self.changed)
        self.lay.addRow(self.minus)

    def dump(self):
        return {"kind": "difference", "of": self.of.region() if self.of else {},
                "minus": self.minus.regions() if self.minus else []}

    def children(self):
        return ([self.of] if self.of else []) + (list(self.minus.forms) if self.minus else [])


_EDITORS = {
    "hexes": _HexesEditor, "hex_range": _RangeEditor, "area": _AreaEditor, "section": _SectionEditor,
    "map_edge": _EdgeEditor, "feature": _FeatureEditor, "feature_kind": _FeatureKindEditor, "path": _PathEditor,
    "side_of": _SideOfEditor, "beyond": _BeyondEditor, "adjacent_to": _AdjacentEditor, "within": _WithinEditor,
    "reachable": _ReachableEditor, "named": _NamedEditor,
    "union": lambda f: _ListEditor(f, "union"), "intersection": lambda f: _ListEditor(f, "intersection"),
    "difference": _DifferenceEditor,
}
