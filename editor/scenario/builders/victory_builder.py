"""The victory builder: a scenario's victory conditions edited in forms, never
typed as JSON.

:class:`VictoryPanel` is the Victory dock. It shows, for the model of :mod:`scenarios.victory`:

* the **printed text** as plain multi-line text (quotes, line breaks and any character kept as
  typed; stored in ``victory.text`` when the box loses the focus);
* the **outcomes** in order (the first that holds decides) as a tree: each outcome is its result
  and its condition; a composite condition (``all_of``, ``any_of``, ``not``) has its
  sub-conditions below it. *Add outcome*, *Add sub-condition*, *Move up*, *Move down* and
  *Remove* act on the selected node; the result when no outcome holds is *Otherwise*;
* **victory points** (``points``: the side scoring, the awards ``per_hex`` / ``per_building``
  with their region and points, and the result schedule of point bands);
* a **form** for the selected node: result and reason of an outcome; the condition's kind and,
  per kind, side, region, N, the unit kinds counted and how they are counted (``at_least``),
  sole occupancy of the region or of N buildings (``sole_occupant``); an award's kind, points and
  region; a band's range and result;
* an **Advanced (JSON)** tab with the whole ``victory`` object as JSON, applied as one edit;
* *Evaluate now*: the result on the designer's trial set-up, and per node whether it holds now.

Every change is one :meth:`editor.scenario.document.ScenarioDocument.edit` (one undo step,
refused with a message when the scenario would not validate); the panel never changes the model
itself. Loading a scenario into the forms changes nothing: a shipped scenario saved unchanged is
byte-identical.

:class:`RegionField` is the region picker of a condition or award: a named region of the scenario,
hexes typed as a list or picked on the map (the Region paint tool), named map features (hills,
buildings), a kind of terrain, or the region language as JSON (*Advanced (JSON)*, for relational
regions). It is a widget of its own (``set_region`` / ``changed``) so that a fuller region builder
can take its place.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from pydantic import ValidationError
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from scenarios.regions import region_from_data
from editor.scenario.wording import _warn
from editor.scenario.document import ScenarioDocument, validation_message
from editor.drawing.widgets import button_grid
from editor.scenario.builders.victory_conditions import (
    AWARD_KINDS,
    CONDITION_KINDS,
    GROUPINGS,
    LEAF_KINDS,
    RESULT_LABELS,
    SCOPES,
    SIDES,
    SIDE_LABELS,
    UNIT_KINDS,
    _combo,
    _get,
    _set_combo,
    convert_condition,
    natural_key,
)
from editor.scenario.builders.victory_region_field import RegionField
from editor.scenario.builders.victory_tree import VictoryTree
from maps.json_file import JsonFileProblem, parse_json

__all__ = ["VictoryPanel"]



# ============================================================================ the panel
class VictoryPanel(VictoryTree, QWidget):
    """The victory builder (the Victory dock): printed text, ordered outcomes and their condition
    trees, the default result, victory points, a form for the selected node, the whole as JSON
    (*Advanced (JSON)*) and *Evaluate now* on the designer's trial set-up.

    Node locations (``loc``) are relative to the scenario's ``victory``: ``("outcomes", i)`` an
    outcome (its result and its condition), ``("outcomes", i, "condition", "of", j, ...)`` a
    sub-condition, ``("points",)``, ``("points", "awards", i)``, ``("points", "schedule", i)``.
    ``pick_region(loc)`` asks the window to let the Region paint tool paint the region at ``loc``
    (a location in the scenario: ``("victory", ..., "region")``).
    """

    pick_region = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        self.loc: tuple | None = None
        self.last_result = None
        self._updating = False
        self._select_next: tuple | None = None
        self._decides: int | None = None
        outer = QVBoxLayout(self)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs, 1)

        # ------------------------------------------------------------ builder
        b = QWidget()
        lay = QVBoxLayout(b)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(QLabel("Printed text"))
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText("The victory conditions as printed in the scenario")
        self.text.setToolTip("plain text, as printed; kept when the box loses the focus")
        self.text.setMaximumHeight(70)
        self.text.installEventFilter(self)
        lay.addWidget(self.text)
        lay.addWidget(QLabel("Outcomes: the first that holds decides"))
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Outcome / condition", "Now"])
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().sectionResized.connect(lambda i, _o, _n: i == 0 and self._fit_rows())
        # a few outcomes in view, so the selected one's form below fits a 768-pixel screen unscrolled
        self.tree.setMinimumHeight(70)
        self.tree.setMaximumHeight(110)
        self.tree.currentItemChanged.connect(self._selected)
        lay.addWidget(self.tree)
        of = QFormLayout()
        of.setContentsMargins(0, 0, 0, 0)
        self.default = _combo(RESULT_LABELS, 10)
        self.default.setToolTip("the result when no outcome holds")
        self.default.activated.connect(self._default_chosen)
        of.addRow("Otherwise", self.default)
        lay.addLayout(of)
        self.buttons: dict[str, QPushButton] = {}
        specs = [("Add outcome", self.add_outcome), ("Add sub-condition", self.add_sub_condition),
                 ("Move up", lambda: self.move_selected(-1)), ("Move down", lambda: self.move_selected(1)),
                 ("Remove", self.remove_selected), ("Add victory points", self.add_points)]
        for text, slot in specs:
            pb = QPushButton(text)
            pb.clicked.connect(slot)
            self.buttons[text] = pb
        lay.addLayout(button_grid(list(self.buttons.values())))
        self.box = QGroupBox("Selected")
        self.form = QFormLayout(self.box)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.fields: dict[str, QWidget] = {}
        self._build_form()
        lay.addWidget(self.box)
        self.tabs.addTab(b, "Builder")

        # ------------------------------------------------------------ advanced (JSON)
        j = QWidget()
        jl = QVBoxLayout(j)
        jl.setContentsMargins(4, 4, 4, 4)
        note = QLabel("The victory conditions as JSON (scenario-format.md). The builder and this text are "
                      "the same data: *Apply JSON* replaces the victory in one undo step.")
        note.setTextFormat(Qt.TextFormat.MarkdownText)
        note.setWordWrap(True)
        jl.addWidget(note)
        self.json = QPlainTextEdit()
        jl.addWidget(self.json, 1)
        jl.addLayout(button_grid([("Apply JSON", self.apply_json), ("Revert", self._fill_json)]))
        self.tabs.addTab(j, "Advanced (JSON)")

        # ------------------------------------------------------------ evaluation
        ev = QPushButton("Evaluate now")
        ev.setToolTip("the result on the designer's trial set-up (Set-up dock)")
        ev.clicked.connect(self.evaluate_now)
        self.buttons["Evaluate now"] = ev
        outer.addLayout(button_grid([ev], 1))
        self.result = QLabel()
        self.result.setWordWrap(True)
        outer.addWidget(self.result)
        self._show_rows(())

    # ------------------------------------------------------------------ form
    def _add_row(self, key: str, label: str | None, w: QWidget, tip: str = "") -> None:
        if tip:
            w.setToolTip(tip)
        if label is None:
            self.form.addRow(w)
        else:
            self.form.addRow(label, w)
        self.fields[key] = w

    def _build_form(self) -> None:
        f = self.fields
        self._add_row("result", "Result", _combo(RESULT_LABELS, 10), "who wins when this outcome's condition holds")
        f["result"].activated.connect(lambda _i: self._set_outcome("result", f["result"].currentData()))
        reason = QLineEdit()
        reason.setPlaceholderText("optional; else the condition's words")
        reason.editingFinished.connect(self._reason_typed)
        self._add_row("reason", "Reason", reason, "the reason Evaluate now and the games give for this result")
        self._add_row("kind", "Condition", _combo(CONDITION_KINDS, 14))
        f["kind"].activated.connect(lambda _i: self.set_kind(f["kind"].currentData()))
        self._add_row("side", "Side", _combo(SIDE_LABELS, 8), "whose units the condition is about")
        f["side"].activated.connect(lambda _i: self._set_cond("side", f["side"].currentData(), "side"))
        count = QSpinBox()
        count.setRange(1, 999)
        count.setKeyboardTracking(False)
        count.valueChanged.connect(lambda v: self._set_cond("count", v, f"at least {v}"))
        self._add_row("count", "At least", count, "how many units (N)")
        kinds = QWidget()
        g = QGridLayout(kinds)
        g.setContentsMargins(0, 0, 0, 0)
        self.kind_boxes: dict[str, QCheckBox] = {}
        for i, (k, words) in enumerate(UNIT_KINDS.items()):
            cb = QCheckBox(words)
            cb.toggled.connect(lambda _on: self._kinds_ticked())
            g.addWidget(cb, i // 2, i % 2)
            self.kind_boxes[k] = cb
        self._add_row("kinds", "Only", kinds, "only these kinds of unit count; none ticked: every kind counts")
        self._add_row("grouping", "Counting", _combo(GROUPINGS, 14),
                      "Scenario 4: 'any commander unit(s) or non-commander units from the same squad'")
        f["grouping"].activated.connect(lambda _i: self._set_units("grouping", f["grouping"].currentData()))
        self._add_row("scope", "Sole occupant", _combo(SCOPES, 14),
                      "the side alone in the region, or alone in each of at least N buildings with a hex in it")
        f["scope"].activated.connect(lambda _i: self._set_cond("scope", f["scope"].currentData(), "scope"))
        nb = QSpinBox()
        nb.setRange(1, 999)
        nb.setKeyboardTracking(False)
        nb.valueChanged.connect(lambda v: self._set_cond("min_buildings", v, f"{v} building(s)"))
        self._add_row("min_buildings", "Buildings", nb, "at least this many buildings")
        self._add_row("vp_side", "Points for", _combo(SIDE_LABELS, 8), "the side that scores the victory points")
        f["vp_side"].activated.connect(lambda _i: self._set_at(("points",), "side", f["vp_side"].currentData(),
                                                               "Victory points side"))
        self._add_row("award", "Award", _combo(AWARD_KINDS, 14),
                      "points for each hex of the region the side controls, or for each building lying wholly "
                      "in the region whose every hex it controls")
        f["award"].activated.connect(lambda _i: self._set_at(self.loc, "kind", f["award"].currentData(), "Award kind"))
        pts = QSpinBox()
        pts.setRange(0, 999)
        pts.setKeyboardTracking(False)
        pts.valueChanged.connect(lambda v: self._set_at(self.loc, "points", v, f"{v} points"))
        self._add_row("points", "Points", pts, "victory points per hex or building")
        for key, label in (("band_min", "From"), ("band_max", "To")):
            sb = QSpinBox()
            sb.setRange(-9999, 9999)
            sb.setKeyboardTracking(False)
            sb.valueChanged.connect(lambda v, k=key[5:]: self._set_at(self.loc, k, v, f"Points band {k} {v}"))
            self._add_row(key, label, sb, "the band's points, inclusive")
        self._add_row("band_result", "Result", _combo(RESULT_LABELS, 10), "the result for a score in this band")
        f["band_result"].activated.connect(lambda _i: self._set_at(self.loc, "result", f["band_result"].currentData(),
                                                                   "Points band result"))
        region = RegionField()
        region.changed.connect(self._region_changed)
        region.pick_requested.connect(self._pick)
        self._add_row("region", "Region", region)
        vb = QWidget()
        vl = button_grid([("Add award", self.add_award), ("Add band", self.add_band)])
        vb.setLayout(vl)
        self.buttons["Add award"], self.buttons["Add band"] = (vl.itemAt(0).widget(), vl.itemAt(1).widget())
        self._add_row("vp_buttons", None, vb)
        hint = QLabel()
        hint.setWordWrap(True)
        self._add_row("hint", None, hint)

    def _show_rows(self, keys) -> None:
        for k, w in self.fields.items():
            self.form.setRowVisible(w, k in keys)

    @property
    def region_field(self) -> RegionField:
        return self.fields["region"]  # type: ignore[return-value]

    # ------------------------------------------------------------------ document
    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        self.loc = None
        self.last_result = None
        self.result.setText("")
        self.text.document().setModified(False)
        self.json.document().setModified(False)
        doc.changed.connect(lambda _what: self.refresh())
        self.refresh()

    def victory_data(self) -> dict:
        """The scenario's ``victory`` as JSON (the file's form)."""
        return self.doc.data()["victory"]

    def _change(self, text: str, fn: Callable[[dict], Any], select: tuple | None = None) -> bool:
        """One undo step: ``fn`` changes a JSON copy of the victory; refused with a message (and
        the form shows the model again) when the scenario would not validate."""
        if self.doc is None:
            return False
        self._select_next = select
        try:
            self.doc.edit(text, lambda d: fn(d["victory"]))
        except ValidationError as e:
            self._select_next = None
            _warn(self, "Invalid victory condition", validation_message(e))
            self.refresh()
            return False
        if self._select_next is not None:   # nothing changed: no refresh came
            self.refresh()
        return True

    # ------------------------------------------------------------------ the selected node
    def node_kind(self, loc: tuple | None = None) -> str | None:
        """``outcome``, ``condition``, ``points``, ``award``, ``band`` or None."""
        loc = self.loc if loc is None else loc
        if not loc:
            return None
        if loc[0] == "outcomes":
            return "outcome" if len(loc) == 2 else "condition"
        if loc == ("points",):
            return "points"
        return "award" if loc[1] == "awards" else "band"

    def cond_loc(self, loc: tuple | None = None) -> tuple | None:
        """The location of the selected condition (an outcome's is its ``condition``)."""
        loc = self.loc if loc is None else loc
        k = self.node_kind(loc)
        if k == "outcome":
            return (*loc, "condition")
        return loc if k == "condition" else None

    def _parent_composite(self, loc: tuple) -> tuple | None:
        """The location of the all_of / any_of holding the condition at ``loc`` (None: not in one)."""
        if self.node_kind(loc) == "condition" and isinstance(loc[-1], int) and loc[-2] == "of":
            return loc[:-2]
        return None

    def _load_form(self, vdata: dict) -> None:
        """Show the selected node in the form (called with ``_updating`` set: emits no edit)."""
        f = self.fields
        loc = self.loc
        kind = self.node_kind(loc)
        rows: list[str] = []
        try:
            node = _get(vdata, loc) if loc else None
        except (KeyError, IndexError, TypeError):
            node, kind = None, None
        titles = {"outcome": "Outcome", "condition": "Condition", "points": "Victory points",
                  "award": "Award", "band": "Points band"}
        self.box.setTitle(f"Selected: {titles[kind]}" if kind else "Select an outcome or add one")
        if kind in ("outcome", "condition"):
            if kind == "outcome":
                rows += ["result", "reason"]
                _set_combo(f["result"], node["result"])
                f["reason"].setText(node.get("text") or "")
                cond = node["condition"]
            else:
                cond = node
            rows.append("kind")
            _set_combo(f["kind"], cond["kind"])
            ck = cond["kind"]
            if ck in LEAF_KINDS:
                rows += ["side", "region"]
                _set_combo(f["side"], cond["side"])
                self._load_region(cond["region"])
            if ck == "at_least":
                rows += ["count", "kinds", "grouping"]
                f["count"].setValue(cond.get("count", 1))
                units = cond.get("units") or {}
                for k, cb in self.kind_boxes.items():
                    cb.setChecked(k in (units.get("kinds") or []))
                _set_combo(f["grouping"], units.get("grouping", "any"))
            elif ck == "sole_occupant":
                rows.append("scope")
                _set_combo(f["scope"], cond.get("scope", "region"))
                if cond.get("scope") == "each_building":
                    rows.append("min_buildings")
                    f["min_buildings"].setValue(cond.get("min_buildings", 1))
            elif ck in ("all_of", "any_of"):
                rows.append("hint")
                n = len(cond["of"])
                f["hint"].setText(f"{'Each' if ck == 'all_of' else 'One'} of the {n} condition{'s' if n != 1 else ''} "
                                  "below must hold. Select one to edit it; *Add sub-condition* adds one.")
            elif ck == "not":
                rows.append("hint")
                f["hint"].setText("The condition below must not hold. Select it to edit it.")
        elif kind == "points":
            rows += ["vp_side", "vp_buttons", "hint"]
            _set_combo(f["vp_side"], node["side"])
            f["hint"].setText("Awards (points per hex or building controlled at the end) are summed; the bands "
                              "give the result. Evaluated before the outcomes.")
        elif kind == "award":
            rows += ["award", "points", "region", "vp_buttons"]
            _set_combo(f["award"], node["kind"])
            f["points"].setValue(node.get("points", 1))
            self._load_region(node["region"])
        elif kind == "band":
            rows += ["band_min", "band_max", "band_result", "vp_buttons"]
            f["band_min"].setValue(node["min"])
            f["band_max"].setValue(node["max"])
            _set_combo(f["band_result"], node["result"])
        if "hint" in rows:
            f["hint"].setTextFormat(Qt.TextFormat.MarkdownText)
        self._show_rows(rows)
        # buttons that act on the selection
        cl = self.cond_loc(loc)
        comp = False
        if cl is not None and node is not None:
            c = _get(vdata, cl)
            comp = c["kind"] in ("all_of", "any_of") or self._parent_composite(cl) is not None
        self.buttons["Add sub-condition"].setEnabled(comp)
        movable = kind in ("outcome", "award", "band") or (cl is not None and self._parent_composite(cl) is not None)
        self.buttons["Move up"].setEnabled(bool(movable))
        self.buttons["Move down"].setEnabled(bool(movable))
        self.buttons["Remove"].setEnabled(kind is not None)

    def _load_region(self, region: dict) -> None:
        rf = self.region_field
        hm = self.doc.hexmap
        names = sorted(hm.features, key=natural_key) + sorted(
            (b.display_name() for b in hm.buildings.values() if b.number is not None or b.name), key=natural_key)

        def resolve(data):
            try:
                return self.doc.resolve(region_from_data(data))
            except ValidationError as e:
                return frozenset(), validation_message(e)

        rf.set_choices(list(self.doc.scenario.regions), names, resolve)
        rf.set_region(region)

    # ------------------------------------------------------------------ edits of the selected node
    def _target(self) -> tuple | None:
        """Where the form's condition fields write: the selected condition, or the award."""
        k = self.node_kind()
        if k in ("outcome", "condition"):
            return self.cond_loc()
        if k == "award":
            return self.loc
        return None

    def _set_at(self, loc: tuple | None, key: str, value: Any, text: str) -> None:
        if self._updating or loc is None or self.doc is None:
            return

        def fn(v):
            node = _get(v, loc)
            if value is None:
                node.pop(key, None)
            else:
                node[key] = value

        self._change(text, fn, select=self.loc)

    def _set_cond(self, key: str, value: Any, words: str) -> None:
        self._set_at(self.cond_loc(), key, value, f"Victory condition: {words}")

    def _set_outcome(self, key: str, value: Any) -> None:
        if self.node_kind() == "outcome":
            self._set_at(self.loc, key, value, f"Outcome {self.loc[1] + 1}: {key} {value}")

    def _reason_typed(self) -> None:
        if self._updating or self.node_kind() != "outcome" or not self.fields["reason"].isModified():
            return
        self.fields["reason"].setModified(False)
        t = self.fields["reason"].text()
        self._set_at(self.loc, "text", t if t else None, f"Outcome {self.loc[1] + 1}: reason")

    def _units_change(self, fn: Callable[[dict], None], text: str) -> None:
        cl = self.cond_loc()
        if self._updating or cl is None:
            return

        def change(v):
            units = _get(v, cl).setdefault("units", {})
            fn(units)

        self._change(f"Victory condition: {text}", change, select=self.loc)

    def _kinds_ticked(self) -> None:
        kinds = [k for k, cb in self.kind_boxes.items() if cb.isChecked()]

        def fn(units):
            if kinds:
                units["kinds"] = kinds
            else:
                units.pop("kinds", None)

        self._units_change(fn, "units " + ("/".join(kinds) or "of every kind"))

    def _set_units(self, key: str, value: Any) -> None:
        self._units_change(lambda units: units.__setitem__(key, value), f"{key} {value}")

    def _region_changed(self, data: dict) -> None:
        t = self._target()
        if t is not None:
            self._set_at(t, "region", data, "Victory region")

    def _pick(self) -> None:
        t = self._target()
        if t is not None:
            self.pick_region.emit(("victory", *t, "region"))

    def set_kind(self, kind: str) -> None:
        """Change the selected condition's kind (:func:`convert_condition`)."""
        cl = self.cond_loc()
        if self._updating or cl is None or kind not in CONDITION_KINDS:
            return
        outcome = _get(self.victory_data(), cl[:2])
        side = outcome["result"] if outcome["result"] in SIDES else "german"
        region = self._default_region()

        def fn(v):
            node = _get(v, cl[:-1])
            node[cl[-1]] = convert_condition(node[cl[-1]], kind, side, region)

        self._change(f"Victory condition: {CONDITION_KINDS[kind]}", fn, select=self.loc)

    def _default_region(self) -> dict:
        """A region for a new condition: the scenario's first named region, else a hex in the middle
        of the playing area."""
        if self.doc.scenario.regions:
            return {"kind": "named", "name": next(iter(self.doc.scenario.regions))}
        area = sorted(h.id for h in self.doc.context.area)
        return {"kind": "hexes", "hexes": [area[len(area) // 2]]}

    def _default_chosen(self, _i: int) -> None:
        v = self.default.currentData()
        if not self._updating and self.doc is not None:
            self._change(f"Otherwise: {RESULT_LABELS[v]}", lambda d: d.__setitem__("default", v), select=self.loc)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802
        if obj is self.text and ev.type() == QEvent.Type.FocusOut:
            self.commit_text()
        return super().eventFilter(obj, ev)

    def commit_text(self) -> bool:
        """Store the printed text as typed (one undo step); False when it is unchanged."""
        if self.doc is None:
            return False
        t = self.text.toPlainText()
        self.text.document().setModified(False)
        if t == self.doc.scenario.victory.text:
            return False
        return self._change("Printed victory text", lambda v: v.__setitem__("text", t), select=self.loc)

    # ------------------------------------------------------------------ advanced (JSON)
    def _fill_json(self, keep_edits: bool = False) -> None:
        if self.doc is None:
            return
        if keep_edits and self.json.hasFocus() and self.json.document().isModified():
            return
        self.json.setPlainText(json.dumps(self.victory_data(), indent=1, ensure_ascii=False))
        self.json.document().setModified(False)

    def apply_json(self) -> bool:
        """Replace the victory by the JSON of the *Advanced (JSON)* tab (one undo step)."""
        if self.doc is None:
            return False
        try:
            data = parse_json(self.json.toPlainText())  # an endless number or deep nesting is said
        except JsonFileProblem as e:
            _warn(self, "Not JSON", str(e))
            return False
        if not isinstance(data, dict):
            _warn(self, "Not a victory", "The victory is a JSON object: {\"text\": ..., \"outcomes\": [...], ...}")
            return False
        self.json.document().setModified(False)

        def fn(v):
            v.clear()
            v.update(data)

        return self._change("Edit victory (JSON)", fn, select=self.loc)

    # ------------------------------------------------------------------ evaluation
    def evaluate_now(self):
        """Evaluate the victory conditions on the designer's placement; shows and returns the result."""
        if self.doc is None:
            return None
        try:
            r = self.doc.evaluate()
        except Exception as e:  # noqa: BLE001 - an unresolvable region is shown, not raised
            self.result.setText(f"<span style='color:#b00'>Cannot evaluate: {e}</span>")
            return None
        n = len(self.doc.placement)
        which = f"outcome {r.outcome + 1}" if r.outcome is not None else (
            "victory points" if r.points is not None else "otherwise")
        pts = f", {r.points} points" if r.points is not None else ""
        self.result.setText(f"<b>Now ({n} units placed): {r.result.upper()}</b> ({which}{pts}): {r.reason}")
        self.last_result = r
        self.refresh()
        return r
