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

import copy
import json
import re
from typing import Any, Callable

from pydantic import ValidationError
from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from maps import hexgrid
from scenarios.regions import FEATURE_KINDS, region_from_data
from editor.scenario.docks import LOC_ROLE, _warn, _winner, condition_sentence, region_words
from editor.scenario.document import ScenarioDocument, validation_message
from editor.drawing.widgets import button_grid

__all__ = ["VictoryPanel", "RegionField", "CONDITION_KINDS", "LEAF_KINDS", "leaf_condition", "convert_condition",
           "parse_hex_list", "region_mode"]

SIDES = ("german", "russian")
RESULT_LABELS = {"german": "Germans win", "russian": "Russians win", "draw": "Draw"}
SIDE_LABELS = {"german": "German", "russian": "Russian"}
#: condition kind -> its words in the Condition box
CONDITION_KINDS = {
    "at_least": "at least N units in",
    "none_in": "no units in",
    "sole_occupant": "sole occupant of",
    "controls": "controls every hex of",
    "all_of": "all of (each must hold)",
    "any_of": "any of (one must hold)",
    "not": "not (must not hold)",
}
LEAF_KINDS = ("at_least", "none_in", "sole_occupant", "controls")
UNIT_KINDS = {"infantry": "infantry", "commander": "commanders", "crew_weapon": "crew weapons", "afv": "AFVs"}
GROUPINGS = {"any": "every unit counts", "same_squad_or_commanders": "commanders or units of one squad"}
SCOPES = {"region": "of the region as a whole", "each_building": "of at least N buildings of it"}
AWARD_KINDS = {"per_hex": "per hex controlled", "per_building": "per building wholly controlled"}
#: region field modes and their words
REGION_MODES = {"named": "Named region", "hexes": "Hexes", "features": "Map features",
                "terrain": "Kind of terrain", "json": "Advanced (JSON)"}


def other_side(side: str) -> str:
    return "russian" if side == "german" else "german"


def leaf_condition(kind: str, side: str, region: dict) -> dict:
    """A new condition of a leaf ``kind`` (at_least, none_in, sole_occupant, controls) as JSON:
    ``side``'s units, ``region`` (JSON, copied); at_least counts 1 unit."""
    if kind not in LEAF_KINDS:
        raise ValueError(f"{kind!r} is not a condition on a region (one of {', '.join(LEAF_KINDS)})")
    out: dict[str, Any] = {"kind": kind, "side": side, "region": copy.deepcopy(region)}
    if kind == "at_least":
        out["count"] = 1
    return out


def _subs(cond: dict) -> list[dict]:
    of = cond.get("of")
    return of if isinstance(of, list) else ([of] if isinstance(of, dict) else [])


def first_leaf(cond: dict) -> dict | None:
    """The first condition on a region in ``cond`` (depth first), or None."""
    if cond.get("kind") in LEAF_KINDS:
        return cond
    for s in _subs(cond):
        x = first_leaf(s)
        if x is not None:
            return x
    return None


def convert_condition(cond: dict, kind: str, side: str, region: dict) -> dict:
    """``cond`` (JSON) turned into a condition of ``kind``, keeping what carries over:

    * to ``all_of`` / ``any_of``: the sub-conditions of a composite, else ``[cond]``;
    * to ``not``: ``cond`` itself becomes the one condition that must not hold;
    * to a leaf kind: the side and region of ``cond``'s first leaf (``side`` and ``region`` when
      it has none); that leaf itself when it is already of ``kind``.
    """
    old = cond.get("kind")
    if kind == old:
        return copy.deepcopy(cond)
    if kind in ("all_of", "any_of"):
        if old in ("all_of", "any_of"):
            return {"kind": kind, "of": copy.deepcopy(cond["of"])}
        if old == "not":
            return {"kind": kind, "of": [copy.deepcopy(cond["of"])]}
        return {"kind": kind, "of": [copy.deepcopy(cond)]}
    if kind == "not":
        return {"kind": "not", "of": copy.deepcopy(cond)}
    leaf = first_leaf(cond)
    if leaf is not None and leaf["kind"] == kind:
        return copy.deepcopy(leaf)
    if leaf is not None:
        side, region = leaf.get("side", side), leaf.get("region", region)
    return leaf_condition(kind, side, region)


def parse_hex_list(text: str) -> list[str]:
    """``"4307, 4308 4309"`` -> ``["4307", "4308", "4309"]``: hex ids separated by commas,
    semicolons or spaces, in the order typed (a repeat is dropped). Raises ValueError naming a
    token that is not a hex id, or when there is none."""
    out: list[str] = []
    for tok in re.split(r"[\s,;]+", text.strip()):
        if not tok:
            continue
        try:
            h = hexgrid.parse_hex_id(tok)
        except hexgrid.HexIdError:
            raise ValueError(f"{tok!r} is not a hex id (four digits, column and row: 4307)") from None
        if h.id not in out:
            out.append(h.id)
    if not out:
        raise ValueError("type at least one hex id (4307, 4308)")
    return out


def region_mode(data: Any) -> str:
    """Which page of :class:`RegionField` shows the region JSON ``data``: ``named``, ``hexes``,
    ``features`` (one named map feature or a union of them), ``terrain`` (a ``feature_kind``) or
    ``json`` (anything else)."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind in ("named", "hexes"):
        return kind
    if kind == "feature":
        return "features"
    if kind == "union" and data.get("of") and all(isinstance(r, dict) and r.get("kind") == "feature"
                                                  for r in data["of"]):
        return "features"
    if kind == "feature_kind":
        return "terrain"
    return "json"


def _feature_names(data: dict) -> list[str]:
    if data.get("kind") == "feature":
        return [data["name"]]
    return [r["name"] for r in data.get("of", [])]


def natural_key(name: str) -> list:
    """Sort "Building 10" after "Building 9"."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]


def _combo(items: dict[str, str], min_chars: int = 14) -> QComboBox:
    """A combo box of ``items`` (key -> words; the key is the item's data) that never asks for
    the width of its longest item (the dock is about 360 pixels wide)."""
    c = QComboBox()
    for k, v in items.items():
        c.addItem(v, k)
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(min_chars)
    return c


def _set_combo(c: QComboBox, key: Any) -> None:
    i = c.findData(key)
    c.setCurrentIndex(i)


# ============================================================================ region field

class RegionField(QWidget):
    """A region picked without typing JSON (a named region, hexes, map features, a kind of
    terrain) or, for a relational region, typed in the region language (*Advanced (JSON)*).

    :meth:`set_region` shows a region (JSON) and emits nothing; a change the user makes emits
    ``changed(region JSON)``; *Pick on map* emits ``pick_requested`` (the panel then lets the
    Region paint tool paint this region's hexes). :meth:`set_choices` gives the scenario's named
    regions, the map's named features and a resolver (region JSON -> (hex ids, error or None))
    for the hex count shown below.
    """

    changed = Signal(object)
    pick_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._data: dict | None = None
        self._updating = False
        self._resolve: Callable[[dict], tuple[frozenset, str | None]] | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.mode = _combo(REGION_MODES, 12)
        self.mode.setToolTip("how the region is given: a named region of the scenario, hexes, named map features, "
                             "a kind of terrain, or the region language (JSON) for a relational region")
        self.mode.currentIndexChanged.connect(self._mode_changed)
        lay.addWidget(self.mode)
        self.pages = QStackedWidget()
        lay.addWidget(self.pages)
        # named region
        self.named = QComboBox()
        self.named.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.named.setMinimumContentsLength(12)
        self.named.setToolTip("a region of the scenario's table of named regions (Regions dock: Add named region)")
        self.named.activated.connect(self._named_chosen)
        self.pages.addWidget(self.named)
        # hexes
        w = QWidget()
        hl = QHBoxLayout(w)
        hl.setContentsMargins(0, 0, 0, 0)
        self.hexes = QLineEdit()
        self.hexes.setPlaceholderText("4307, 4308")
        self.hexes.setToolTip("hex ids separated by commas or spaces; Enter applies")
        self.hexes.editingFinished.connect(self._hexes_typed)
        hl.addWidget(self.hexes, 1)
        self.pick = QPushButton("Pick on map")
        self.pick.setToolTip("click or drag on the map to add hexes (start inside the region to remove); "
                             "the Region paint tool")
        self.pick.clicked.connect(self._pick)
        hl.addWidget(self.pick)
        self.pages.addWidget(w)
        # map features
        self.features = QListWidget()
        self.features.setToolTip("tick the hills and buildings that make the region")
        self.features.setMaximumHeight(110)
        self.features.itemChanged.connect(self._features_ticked)
        w = QWidget()   # (in a layout, the page is as tall as the list's maximum height)
        fl = QVBoxLayout(w)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.addWidget(self.features)
        self.pages.addWidget(w)
        # kind of terrain
        self.terrain = _combo(FEATURE_KINDS, 12)
        self.terrain.activated.connect(self._terrain_chosen)
        self.pages.addWidget(self.terrain)
        # advanced (JSON)
        w = QWidget()
        jl = QVBoxLayout(w)
        jl.setContentsMargins(0, 0, 0, 0)
        self.json = QPlainTextEdit()
        self.json.setPlaceholderText('{"kind": "within", "of": {"kind": "feature", "name": "Hill K"}, "distance": 2}')
        self.json.setMaximumHeight(120)
        jl.addWidget(self.json)
        self.apply_json = QPushButton("Apply region JSON")
        self.apply_json.clicked.connect(self._json_applied)
        jl.addWidget(self.apply_json)
        self.pages.addWidget(w)
        self.info = QLabel()
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        self._show_page(0)

    # ------------------------------------------------------------------ input
    def set_choices(self, named: list[str], features: list[str],
                    resolve: Callable[[dict], tuple[frozenset, str | None]] | None) -> None:
        """The scenario's named regions, the map's named features and buildings, and how a region
        resolves (for the hex count)."""
        self._updating = True
        try:
            self.named.clear()
            self.named.addItems(list(named))
            self.named.setEnabled(bool(named))
            self.named.setPlaceholderText("no named regions" if not named else "")
            self.features.clear()
            for n in features:
                it = QListWidgetItem(n)
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                it.setCheckState(Qt.CheckState.Unchecked)
                self.features.addItem(it)
            self._resolve = resolve
        finally:
            self._updating = False
        if self._data is not None:
            self.set_region(self._data)

    def set_region(self, data: dict | None) -> None:
        """Show the region ``data`` (JSON) in the page that fits it; emits nothing."""
        self._data = copy.deepcopy(data) if data is not None else None
        self._updating = True
        try:
            mode = region_mode(data) if data is not None else "hexes"
            self.mode.setCurrentIndex(list(REGION_MODES).index(mode))
            self._fill(mode)
        finally:
            self._updating = False
        self._info()

    def region(self) -> dict | None:
        """The region shown (JSON), as last set or changed."""
        return copy.deepcopy(self._data) if self._data is not None else None

    def current_mode(self) -> str:
        return list(REGION_MODES)[max(0, self.mode.currentIndex())]

    # ------------------------------------------------------------------ pages
    def _show_page(self, i: int) -> None:
        """Show page ``i``; the other pages take no room (the field is as tall as its page)."""
        for k in range(self.pages.count()):
            p = self.pages.widget(k)
            p.setSizePolicy(QSizePolicy.Policy.Preferred,
                            QSizePolicy.Policy.Preferred if k == i else QSizePolicy.Policy.Ignored)
            p.updateGeometry()
        self.pages.setCurrentIndex(i)
        self.pages.updateGeometry()

    def _mode_changed(self, i: int) -> None:
        self._show_page(i)
        if self._updating:
            return
        # the user chose another way to give the region: the page starts from the region shown;
        # the region changes when the page is used
        self._updating = True
        try:
            self._fill(self.current_mode())
        finally:
            self._updating = False

    def _fill(self, mode: str) -> None:
        d = self._data or {}
        same = region_mode(d) == mode if d else False
        if mode == "named":
            self.named.setCurrentIndex(self.named.findText(d.get("name", "")) if same else -1)
            if same and self.named.currentIndex() < 0:   # a name the table lacks: shown, kept
                self.named.addItem(d["name"])
                self.named.setCurrentIndex(self.named.count() - 1)
        elif mode == "hexes":
            if same:
                self.hexes.setText(", ".join(d["hexes"]))
            else:
                ids = self._resolve(d)[0] if (self._resolve is not None and d) else frozenset()
                self.hexes.setText(", ".join(sorted(ids)))
        elif mode == "features":
            names = _feature_names(d) if same else []
            have = {self.features.item(i).text() for i in range(self.features.count())}
            for n in names:
                if n not in have:   # a feature the map lacks: listed, so the region is kept as it is
                    it = QListWidgetItem(n)
                    it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    self.features.addItem(it)
            first = None
            for i in range(self.features.count()):
                it = self.features.item(i)
                it.setCheckState(Qt.CheckState.Checked if it.text() in names else Qt.CheckState.Unchecked)
                if first is None and it.text() in names:
                    first = it
            if first is not None:
                self.features.scrollToItem(first, QListWidget.ScrollHint.PositionAtTop)
        elif mode == "terrain":
            _set_combo(self.terrain, d.get("feature") if same else None)
        else:
            self.json.setPlainText(json.dumps(d, indent=1, ensure_ascii=False) if d else "")

    def _info(self, error: str | None = None) -> None:
        if error is not None:
            self.info.setText(f"<span style='color:#b00'>{error}</span>")
            return
        d = self._data
        if d is None or self._resolve is None:
            self.info.setText("")
            return
        ids, err = self._resolve(d)
        try:
            words = region_from_data(d).describe()
        except ValidationError:
            words = "?"
        if err:
            self.info.setText(f"<span style='color:#b00'>{err}</span>")
        else:
            n = len(ids)
            colour = "#b00" if n == 0 else "#444"
            self.info.setText(f"<span style='color:{colour}'>{words}: {n} hex{'es' if n != 1 else ''}</span>")
        self.info.setToolTip(words)

    def _emit(self, data: dict) -> None:
        if self._updating or data == self._data:
            return
        self._data = copy.deepcopy(data)
        self.changed.emit(copy.deepcopy(data))

    def _named_chosen(self, _i: int) -> None:
        name = self.named.currentText()
        if name:
            self._emit({"kind": "named", "name": name})

    def _hexes_typed(self) -> None:
        if self._updating or not self.hexes.isModified():   # focus passing through changes nothing
            return
        self.hexes.setModified(False)
        try:
            ids = parse_hex_list(self.hexes.text())
        except ValueError as e:
            self._info(str(e))
            return
        self._emit({"kind": "hexes", "hexes": ids})

    def _pick(self) -> None:
        self.pick_requested.emit()

    def _features_ticked(self, _item) -> None:
        if self._updating:
            return
        ticked = [self.features.item(i).text() for i in range(self.features.count())
                  if self.features.item(i).checkState() == Qt.CheckState.Checked]
        d = self._data or {}
        before = _feature_names(d) if region_mode(d) == "features" else []
        # the order of the region is kept; a newly ticked feature comes last
        names = [n for n in before if n in ticked] + [n for n in ticked if n not in before]
        if not names:
            self._info("tick at least one feature")
            return
        if len(names) == 1:
            self._emit({"kind": "feature", "name": names[0]})
        else:
            self._emit({"kind": "union", "of": [{"kind": "feature", "name": n} for n in names]})

    def _terrain_chosen(self, _i: int) -> None:
        k = self.terrain.currentData()
        if k:
            self._emit({"kind": "feature_kind", "feature": k})

    def _json_applied(self) -> None:
        try:
            data = json.loads(self.json.toPlainText())
        except json.JSONDecodeError as e:
            self._info(f"not JSON: {e}")
            return
        try:
            region_from_data(data)
        except ValidationError as e:
            self._info("not a region: " + validation_message(e).replace("\n", "; "))
            return
        self._emit(data)


# ============================================================================ the panel

def _get(data: Any, loc: tuple) -> Any:
    for k in loc:
        data = data[k]
    return data


class VictoryPanel(QWidget):
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
        self.text.setMaximumHeight(90)
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
        self.tree.setMinimumHeight(150)
        self.tree.currentItemChanged.connect(self._selected)
        lay.addWidget(self.tree, 1)
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

    # ------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        """Show the document's victory (tree, form, text, JSON) and what holds on the trial set-up."""
        if self.doc is None:
            return
        v = self.doc.scenario.victory
        vdata = self.victory_data()
        want = self._select_next if self._select_next is not None else self.loc
        self._select_next = None
        self._updating = True
        try:
            if not (self.text.hasFocus() and self.text.document().isModified()) and self.text.toPlainText() != v.text:
                self.text.setPlainText(v.text)
                self.text.document().setModified(False)
            _set_combo(self.default, v.default)
            self.buttons["Add victory points"].setEnabled(v.points is None)
            self._fill_json(keep_edits=True)
            try:
                self._decides = self.doc.evaluate().outcome
            except Exception:  # noqa: BLE001 - an unresolvable region: shown per node below
                self._decides = None
            self.tree.blockSignals(True)
            self.tree.clear()
            sel = None
            items = []
            for i, o in enumerate(v.outcomes):
                it = self._outcome_item(i, o)
                self.tree.addTopLevelItem(it)
                items.append(it)
                self._add_children(it, o.condition, ("outcomes", i, "condition"))
            if v.points is not None:
                self.tree.addTopLevelItem(self._points_item(v.points))
            self.tree.expandAll()
            # the selection: the node wanted, else the nearest node above it that is left
            if want is not None:
                for n in range(len(want), 0, -1):
                    sel = self._item_at(want[:n])
                    if sel is not None:
                        break
            if sel is None and self.tree.topLevelItemCount():
                sel = self.tree.topLevelItem(0)
            if sel is not None:
                self.tree.setCurrentItem(sel)
            self.loc = tuple(sel.data(0, LOC_ROLE)) if sel is not None else None
            self.tree.blockSignals(False)
            self._fit_rows()
            self._load_form(vdata)
        finally:
            self._updating = False

    def _now(self, cond) -> str:
        from scenarios.victory import condition_holds

        try:
            return "holds" if condition_holds(cond, self.doc.placement_refs(), self.doc.context,
                                              self.doc.initial_control()) else "-"
        except Exception as e:  # noqa: BLE001 - an unresolvable region is shown, not raised
            return f"error: {e}"

    def _outcome_item(self, i: int, o) -> QTreeWidgetItem:
        c = o.condition
        head = f"{i + 1}. {_winner(o.result)} if "
        words = {"all_of": "all of:", "any_of": "any of:", "not": "not:"}.get(c.kind) or condition_sentence(c)
        now = self._now(c)
        if self._decides == i:
            now = "decides"
        it = QTreeWidgetItem([head + words, now])
        it.setData(0, LOC_ROLE, ("outcomes", i))
        it.setToolTip(0, (o.text + "\n\n" if o.text else "") + c.describe())
        f = it.font(0)
        f.setBold(True)
        it.setFont(0, f)
        if self._decides == i:
            it.setFont(1, f)
            it.setForeground(1, QBrush(QColor(0, 110, 0)))
        return it

    def _add_children(self, parent: QTreeWidgetItem, cond, loc: tuple) -> None:
        if cond.kind in ("all_of", "any_of"):
            subs = [(("of", j), s) for j, s in enumerate(cond.of)]
        elif cond.kind == "not":
            subs = [(("of",), cond.of)]
        else:
            return
        for tail, s in subs:
            words = {"all_of": "all of:", "any_of": "any of:", "not": "not:"}.get(s.kind) or condition_sentence(s)
            it = QTreeWidgetItem([words, self._now(s)])
            it.setData(0, LOC_ROLE, (*loc, *tail))
            it.setToolTip(0, s.describe())
            parent.addChild(it)
            self._add_children(it, s, (*loc, *tail))

    def _points_item(self, vp) -> QTreeWidgetItem:
        from scenarios.victory import max_points, score

        try:
            mx = str(max_points(vp, self.doc.context))
        except Exception:  # noqa: BLE001 - an unresolvable award region
            mx = "?"
        try:
            now: int | None = score(vp, self.doc.context, placement=self.doc.placement_refs())
        except Exception:  # noqa: BLE001
            now = None
        it = QTreeWidgetItem([f"Victory points for the {SIDE_LABELS[vp.side]}s (at most {mx})",
                              f"{now} VP" if now is not None else "error"])
        it.setData(0, LOC_ROLE, ("points",))
        f = it.font(0)
        f.setBold(True)
        it.setFont(0, f)
        for i, a in enumerate(vp.awards):
            c = QTreeWidgetItem([f"{a.points} VP per {'hex' if a.kind == 'per_hex' else 'building'} "
                                 f"{region_words(a.region)}", ""])
            c.setData(0, LOC_ROLE, ("points", "awards", i))
            c.setToolTip(0, a.region.describe())
            it.addChild(c)
        for i, band in enumerate(vp.schedule):
            here = now is not None and band.min <= now <= band.max
            c = QTreeWidgetItem([f"{band.min}-{band.max} VP: {_winner(band.result)}", "now" if here else ""])
            c.setData(0, LOC_ROLE, ("points", "schedule", i))
            it.addChild(c)
        return it

    def _items(self):
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop(0)
            yield it
            stack[:0] = [it.child(i) for i in range(it.childCount())]

    def _item_at(self, loc: tuple) -> QTreeWidgetItem | None:
        for it in self._items():
            if tuple(it.data(0, LOC_ROLE) or ()) == tuple(loc):
                return it
        return None

    def _fit_rows(self) -> None:
        """Give each row the height of its words wrapped in the first column (less its indent)."""
        fm = self.tree.fontMetrics()
        width = self.tree.header().sectionSize(0)
        for it in self._items():
            depth, p = 0, it.parent()
            while p is not None:
                depth, p = depth + 1, p.parent()
            w = max(60, width - self.tree.indentation() * (depth + 1) - 8)
            h = fm.boundingRect(QRect(0, 0, w, 10000), int(Qt.TextFlag.TextWordWrap), it.text(0)).height() + 4
            it.setSizeHint(0, QSize(w, h))

    def select(self, loc: tuple | None) -> bool:
        """Select the node at ``loc`` (relative to the victory); False when there is none."""
        it = self._item_at(loc) if loc is not None else None
        if it is None:
            return False
        self.tree.setCurrentItem(it)
        return True

    def _selected(self, it, _prev) -> None:
        if it is None:
            return
        self.loc = tuple(it.data(0, LOC_ROLE))
        self._updating = True
        try:
            self._load_form(self.victory_data())
        finally:
            self._updating = False

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

    # ------------------------------------------------------------------ structure
    def add_outcome(self) -> None:
        """A new outcome at the end: the other side's win (after a German outcome a Russian one) on
        at least 1 unit in the default region."""
        if self.doc is None:
            return
        outs = self.victory_data()["outcomes"]
        last = outs[-1]["result"] if outs else None
        result = other_side(last) if last in SIDES else "german"
        cond = leaf_condition("at_least", result, self._default_region())
        i = len(outs)
        self._change(f"Add outcome {i + 1}", lambda v: v["outcomes"].append({"result": result, "condition": cond}),
                     select=("outcomes", i))

    def add_sub_condition(self) -> None:
        """Add a condition to the selected all of / any of (a copy of its last one), or after the
        selected condition inside one (a copy of it)."""
        cl = self.cond_loc()
        if cl is None or self.doc is None:
            return
        vdata = self.victory_data()
        node = _get(vdata, cl)
        if node["kind"] in ("all_of", "any_of"):
            parent, j = cl, len(node["of"])
            new = copy.deepcopy(node["of"][-1])
        else:
            parent = self._parent_composite(cl)
            if parent is None:
                _warn(self, "Add sub-condition", "Sub-conditions go in an 'all of' or 'any of': change the "
                      "condition's kind to one of them first.")
                return
            j = cl[-1] + 1
            new = copy.deepcopy(node)
        self._change("Add sub-condition", lambda v: _get(v, parent)["of"].insert(j, new), select=(*parent, "of", j))

    def remove_selected(self) -> None:
        """Remove the selected outcome, sub-condition, award, band or the victory points."""
        loc, kind = self.loc, self.node_kind()
        if loc is None or self.doc is None:
            return
        if kind == "condition":
            parent = self._parent_composite(loc)
            if parent is None:
                _warn(self, "Cannot remove", "A 'not' has exactly one condition: change the kind of the 'not' "
                      "(or remove the outcome) instead.")
                return
            if len(_get(self.victory_data(), parent)["of"]) == 1:
                _warn(self, "Cannot remove", "An 'all of' or 'any of' needs at least one condition: change its "
                      "kind or remove the outcome instead.")
                return
        if kind == "points":
            self._change("Remove victory points", lambda v: v.pop("points"), select=("outcomes", 0))
            return
        j = loc[-1]
        # then select the node before it, else its parent (an outcome's condition: the outcome)
        near = (*loc[:-1], j - 1) if j > 0 else (loc[:-2] if kind == "condition" else loc)
        self._change("Remove from victory", lambda v: _get(v, loc[:-1]).pop(j), select=near)

    def move_selected(self, d: int) -> None:
        """Move the selected outcome (or sub-condition of an all of / any of, award, band) up
        (``d`` = -1) or down (+1): the first outcome that holds decides, so the order matters."""
        loc = self.loc
        if loc is None or self.doc is None:
            return
        kind = self.node_kind()
        if kind == "condition" and self._parent_composite(loc) is None:
            return
        if kind not in ("outcome", "condition", "award", "band"):
            return
        i = loc[-1]
        j = i + d
        seq = _get(self.victory_data(), loc[:-1])
        if not 0 <= j < len(seq):
            return

        def fn(v):
            s = _get(v, loc[:-1])
            s[i], s[j] = s[j], s[i]

        what = {"outcome": "outcome", "condition": "condition", "award": "award", "band": "points band"}[kind]
        self._change(f"Move {what} {'up' if d < 0 else 'down'}", fn, select=(*loc[:-1], j))

    def add_points(self) -> None:
        """Decide the game by victory points too (evaluated before the outcomes): the Germans score
        1 VP per hex of the default region they control; the lower half of the points a Russian
        victory, the upper half a German one."""
        if self.doc is None or self.doc.scenario.victory.points is not None:
            return
        region = self._default_region()
        try:
            top = max(1, len(self.doc.resolve(region_from_data(region))[0]))
        except ValidationError:
            top = 1
        half = (top - 1) // 2
        vp = {"side": "german", "awards": [{"kind": "per_hex", "region": region, "points": 1}],
              "schedule": [{"min": 0, "max": half, "result": "russian"},
                           {"min": half + 1, "max": top, "result": "german"}]}
        self._change("Add victory points", lambda v: v.__setitem__("points", vp), select=("points",))

    def add_award(self) -> None:
        """Another award: a copy of the last one."""
        vp = self.victory_data().get("points")
        if vp is None:
            return
        new = copy.deepcopy(vp["awards"][-1])
        n = len(vp["awards"])
        self._change("Add victory points award", lambda v: v["points"]["awards"].append(new),
                     select=("points", "awards", n))

    def add_band(self) -> None:
        """Another band of the schedule (a draw): the first gap between the bands (0-13 and 19-34
        leave 14-18), else the point above the highest band; placed in the order of the points."""
        vp = self.victory_data().get("points")
        if vp is None:
            return
        sched = vp["schedule"]
        bands = sorted(sched, key=lambda b: b["min"])
        gap = next(((a["max"] + 1, b["min"] - 1) for a, b in zip(bands, bands[1:]) if b["min"] > a["max"] + 1), None)
        lo, hi = gap if gap is not None else (bands[-1]["max"] + 1,) * 2
        new = {"min": lo, "max": hi, "result": "draw"}
        at = next((i for i, b in enumerate(sched) if b["min"] > hi), len(sched))
        self._change("Add points band", lambda v: v["points"]["schedule"].insert(at, new),
                     select=("points", "schedule", at))

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
            data = json.loads(self.json.toPlainText())
        except json.JSONDecodeError as e:
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
