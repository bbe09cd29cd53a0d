"""The "Set-up" tab of the Sides panel: a side's printed set-up text, its set-up caps inside
sub-zones (24.1: "no more than one LMG and any two rifle units of Squad D in region R"), the
region it controls from the start (initial control), and the areas of its mines (19.1: an area of
their own instead of the group's set-up zone).

Regions are typed as a **region field**: the name of a region of the scenario's regions table
(``Hill K area``), or hexes (``4307, 4308`` or ``3001-3013``); blank removes the area. Every
change is one ``ScenarioDocument.edit`` (one undo step, refused with a message when the result is
not a valid scenario). Once made, each region is also listed (and paintable) in the Regions panel.
"""

from __future__ import annotations

import re

from pydantic import ValidationError
from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from editor.scenario.document import ScenarioDocument, validation_message

__all__ = ["SetupSpecsTab", "hexes_region", "region_field", "map_feature_names", "region_text", "parse_cap_limits", "format_cap_limits"]


def hexes_region(text: str) -> dict:
    """The entry hexes a designer types: ``"5014"``, ``"3001, 3005"`` (hexes) or ``"3001-3013"``
    (a range along a column or row, inclusive) -> a region (JSON). Raises ValueError."""
    from maps import hexgrid

    t = text.strip()
    m = re.fullmatch(r"(\d{4})\s*(?:-|–|to)\s*(\d{4})", t)
    if m:
        a, b = hexgrid.parse_hex_id(m[1]), hexgrid.parse_hex_id(m[2])
        if a.col != b.col and a.row != b.row:
            raise ValueError(f"hexes {m[1]} to {m[2]} are neither on one column nor on one row")
        return {"kind": "hex_range", "first": m[1], "last": m[2]}
    ids = [x for x in t.replace(",", " ").replace(";", " ").split() if x]
    if not ids:
        raise ValueError("give the entry hexes, e.g. '5014', '3001, 3002' or '3001-3013'")
    for x in ids:
        try:
            hexgrid.parse_hex_id(x)
        except ValueError as e:
            raise ValueError(f"{x!r} is not a hex id: {e}") from None
    return {"kind": "hexes", "hexes": ids}



def region_field(doc: ScenarioDocument, text: str) -> dict | None:
    """A region field's text -> region JSON. The same field everywhere a region is asked (initial
    control, a cap's region, a mines area): a name of the scenario's regions table (any case)
    -> ``{"kind": "named"}``; a named feature or building of the scenario's map ("Hill I",
    "Building 2") -> ``{"kind": "feature"}``; several of these separated by "," or ";" -> their
    union; else hexes (``"4307, 4308"``, ``"3001-3013"``); blank -> None. A region name wins over
    a feature of the same name. Raises ValueError naming what was not understood and what is known."""
    t = text.strip()
    if not t:
        return None
    names = {n.lower(): n for n in doc.scenario.regions}
    features = {n.lower(): n for n in map_feature_names(doc)}

    def one(part: str) -> dict | None:
        p = part.strip()
        if p.lower() in names:
            return {"kind": "named", "name": names[p.lower()]}
        if p.lower() in features:
            return {"kind": "feature", "name": features[p.lower()]}
        return None

    whole = one(t)
    if whole is not None:
        return whole
    parts = [p for p in re.split(r"[;,]", t) if p.strip()]
    named = [one(p) for p in parts]
    if len(parts) > 1 and all(named):
        return {"kind": "union", "of": named}
    try:
        return hexes_region(t)
    except ValueError as e:
        known = ", ".join(sorted(doc.scenario.regions)) or "none"
        feats = ", ".join(sorted(features.values())) or "none"
        raise ValueError(f"{t!r} is neither a region of the scenario (regions: {known}), a feature of the map "
                         f"(features: {feats}) nor hexes: {e}") from None


def map_feature_names(doc: ScenarioDocument) -> list[str]:
    """The named features and buildings of the scenario's map ("Hill K", "Building 1"), sorted;
    none when the map is not open."""
    m = getattr(doc, "hexmap", None)
    if m is None:
        return []
    out = set(m.features)
    out.update(b.display_name() for b in m.buildings.values() if b.number is not None or b.name)
    return sorted(out)


def region_text(region) -> str:
    """The region field's text of a region: its name, its hexes, or its description."""
    if region is None:
        return ""
    k = getattr(region, "kind", "")
    if k in ("named", "feature"):
        return region.name
    if k == "union" and all(getattr(r, "kind", "") in ("named", "feature") for r in region.of):
        return ", ".join(r.name for r in region.of)
    if k == "hexes":
        return ", ".join(region.hexes)
    if k == "hex_range":
        return f"{region.first}-{region.last}"
    return region.describe()


def parse_cap_limits(text: str) -> list[dict]:
    """``"LMG 1, R 2"`` -> [{"type": "LMG", "count": 1}, {"type": "R", "count": 2}]; ``"any 3"``
    (or a bare number) caps every unit counted. Raises ValueError."""
    out: list[dict] = []
    for part in (p.strip() for p in re.split(r"[;,]|\band\b", text)):
        if not part:
            continue
        m = re.fullmatch(r"(?:(?P<t>[A-Za-z0-9]+)\s+)?(?P<n>\d+)|(?P<n2>\d+)\s+(?P<t2>[A-Za-z0-9]+?)(?:'?s)?", part)
        if not m:
            raise ValueError(f"a limit is 'TYPE COUNT' (e.g. 'LMG 1, R 2'), not {part!r}")
        t, n = (m["t"], m["n"]) if m["n"] is not None else (m["t2"], m["n2"])
        out.append({"count": int(n)} if t is None or t.lower() in ("any", "unit", "units") else
                   {"type": t.upper() if len(t) <= 4 else t, "count": int(n)})
    if not out:
        raise ValueError("a cap needs at least one limit, e.g. 'LMG 1, R 2'")
    return out


def format_cap_limits(limits) -> str:
    return ", ".join(f"{x.type or 'any'} {x.count}" for x in limits)



def edit_or_warn(panel, text: str, change) -> bool:
    """Apply ``change`` to ``panel.doc`` as one undo step named ``text``
    (:meth:`ScenarioDocument.edit`); a change the model refuses is shown in a warning and the
    panel is refreshed from the document. Returns whether it was applied."""
    try:
        panel.doc.edit(text, change)
    except (ValidationError, ValueError, KeyError, IndexError) as e:
        msg = validation_message(e) if isinstance(e, ValidationError) else str(e)
        QMessageBox.warning(panel, "Invalid change", msg)
        panel.refresh()
        return False
    return True

class SetupSpecsTab(QWidget):
    """One side's set-up text, set-up caps, initial control and mine areas (see the module)."""

    def __init__(self, side_of, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        self._side_of = side_of   # () -> the side shown
        v = QVBoxLayout(self)
        f = QFormLayout()
        self.setup_text = QPlainTextEdit()
        self.setup_text.setMaximumHeight(70)
        self.setup_text.setPlaceholderText("the printed SET-UP line, e.g. Squad C (10); MMG #1 (12); PL; IP1 x 2")
        b = QPushButton("Apply set-up text")
        b.clicked.connect(lambda: self.apply_setup_text())   # not the signal's "checked" as the text
        f.addRow("Set-up text", self.setup_text)
        f.addRow(b)
        self.control = QLineEdit()
        # short placeholders that fit the Sides dock at 1366 x 768; the whole sentence in the tool tip
        self.control.setPlaceholderText("region, feature or hexes")
        self.control.setToolTip("the side holds these hexes from the start until the enemy occupies them: a region, "
                                "a map feature (Hill I) or hexes; blank: none")
        self.control.editingFinished.connect(lambda: self.set_initial_control(self.control.text()))
        f.addRow("Controls at start", self.control)
        v.addLayout(f)
        # -- mines areas (19.1)
        mf = QFormLayout()
        self.mines = QComboBox()
        self.mines.currentIndexChanged.connect(lambda _i: self._mines_selected())
        self.mines_area = QLineEdit()
        self.mines_area.setPlaceholderText("blank: the set-up zone")
        self.mines_area.setToolTip("where the mines may be laid: a region, a map feature (Hill I) or hexes; "
                                   "blank: the group's set-up zone")
        self.mines_area.editingFinished.connect(lambda: self.set_mines_area(self.mines_area.text()))
        mf.addRow("Mines", self.mines)
        mf.addRow("Mines area", self.mines_area)
        v.addLayout(mf)
        # -- caps (24.1)
        v.addWidget(QLabel("Set-up caps inside sub-zones (24.1)"))
        self.caps = QListWidget()
        self.caps.setMaximumHeight(80)
        self.caps.currentRowChanged.connect(lambda _r: self._cap_selected())
        v.addWidget(self.caps)
        cf = QFormLayout()
        self.cap_region = QLineEdit()
        self.cap_region.setPlaceholderText("region, feature or hexes")
        self.cap_region.setToolTip("the sub-zone the cap holds in: a region, a map feature (Hill I) or hexes")
        self.cap_squad = QLineEdit()
        self.cap_squad.setPlaceholderText("letter, e.g. D (blank: any)")
        self.cap_squad.setToolTip("the squad's letter, e.g. D; blank: any squad")
        self.cap_group = QComboBox()
        self.cap_limits = QLineEdit()
        self.cap_limits.setPlaceholderText("LMG 1, R 2")
        self.cap_others = QSpinBox()
        self.cap_others.setRange(-1, 99)
        self.cap_others.setSpecialValueText("not capped")
        self.cap_text = QLineEdit()
        self.cap_text.setPlaceholderText("as printed (optional)")
        others_tip = ("the units of the squad / group that no 'At most' limit names: how many of them may set up "
                      "in the region too ('not capped': any number; 0: none of them)")
        self.cap_others.setToolTip(others_tip)
        cf.addRow("Region", self.cap_region)
        cf.addRow("Squad", self.cap_squad)
        cf.addRow("Group", self.cap_group)
        cf.addRow("At most", self.cap_limits)
        others_label = QLabel("Other units")
        others_label.setToolTip(others_tip)
        cf.addRow(others_label, self.cap_others)
        self.cap_others_note = QLabel("Other units: the squad's units no limit names ('not capped': any).")
        self.cap_others_note.setWordWrap(True)
        self.cap_others_note.setToolTip(others_tip)
        cf.addRow(self.cap_others_note)
        cf.addRow("Printed text", self.cap_text)
        v.addLayout(cf)
        # what is wrong with the cap typed, said under the form (no modal box)
        self.cap_error = QLabel()
        self.cap_error.setWordWrap(True)
        self.cap_error.setStyleSheet("color: #b00")
        self.cap_error.hide()
        v.addWidget(self.cap_error)
        # the region fields complete the scenario's regions and the map's features
        self._region_words = QStringListModel(self)
        for field in (self.control, self.mines_area, self.cap_region):
            c = QCompleter(self._region_words, field)
            c.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            field.setCompleter(c)
        # the buttons on a grid of two columns: the row fits the Sides dock at 1366 x 768
        grid = QGridLayout()
        self.cap_buttons = {}
        for i, (text, slot) in enumerate((("Add cap", self.add_cap), ("Apply", self.apply_cap),
                                          ("Remove", self.remove_cap))):
            b = QPushButton(text)
            b.clicked.connect(slot)
            grid.addWidget(b, i // 2, i % 2)
            self.cap_buttons[text] = b
        self.cap_buttons["Apply"].setToolTip("change the cap selected in the list above to the form's values")
        self.cap_buttons["Remove"].setToolTip("remove the cap selected in the list above")
        v.addLayout(grid)
        v.addStretch(1)

    # ------------------------------------------------------------------ document
    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        self.refresh()

    @property
    def side(self) -> str:
        return self._side_of()

    def _edit(self, text: str, change) -> bool:
        return edit_or_warn(self, text, change)

    def mines_locs(self) -> list[tuple]:
        """The locations of the side's mines entries (``("russian", "groups", 0, "oob", 8)``)."""
        spec = self.doc.scenario.side(self.side)
        locs = [(self.side, "groups", gi, "oob", ei) for gi, g in enumerate(spec.groups)
                for ei, e in enumerate(g.oob) if e.kind == "mines"]
        return locs + [(self.side, "oob", ei) for ei, e in enumerate(spec.oob) if e.kind == "mines"]

    def _entry(self, loc):
        spec = self.doc.scenario.side(self.side)
        return spec.groups[loc[2]].oob[loc[4]] if loc[1] == "groups" else spec.oob[loc[2]]

    def refresh(self) -> None:
        if self.doc is None:
            return
        sc = self.doc.scenario
        spec = sc.side(self.side)
        for w in (self.setup_text, self.control, self.mines, self.mines_area, self.caps, self.cap_group):
            w.blockSignals(True)
        try:
            if self.setup_text.toPlainText() != spec.setup_text:
                self.setup_text.setPlainText(spec.setup_text)
            mine = [ic for ic in sc.initial_control if ic.side == self.side]
            self.control.setText(region_text(mine[0].region) if mine else "")
            self.control.setEnabled(len(mine) <= 1)
            cur = self.mines.currentIndex()
            self.mines.clear()
            for loc in self.mines_locs():
                e = self._entry(loc)
                where = f"{spec.groups[loc[2]].name}: " if loc[1] == "groups" else "side: "
                self.mines.addItem(where + (e.text or f"{e.factors} {e.mine_type} mine factors"))
            if self.mines.count():
                self.mines.setCurrentIndex(min(max(cur, 0), self.mines.count() - 1))
            self.mines_area.setEnabled(self.mines.count() > 0)
            row = self.caps.currentRow()
            self.caps.clear()
            for c in spec.caps:
                self.caps.addItem(c.describe())
            if spec.caps:
                self.caps.setCurrentRow(min(max(row, 0), len(spec.caps) - 1))
            self.cap_group.clear()
            self.cap_group.addItems(["(any group)"] + [g.name for g in spec.groups])
        finally:
            for w in (self.setup_text, self.control, self.mines, self.mines_area, self.caps, self.cap_group):
                w.blockSignals(False)
        self._mines_selected()
        self._cap_selected()
        # the region fields complete the scenario's regions and the map's features
        words = sorted(self.doc.scenario.regions) + map_feature_names(self.doc)
        if self._region_words.stringList() != words:
            self._region_words.setStringList(words)

    # ------------------------------------------------------------------ set-up text, control
    def apply_setup_text(self, text: str | None = None) -> bool:
        t = self.setup_text.toPlainText() if text is None else text
        if t == self.doc.scenario.side(self.side).setup_text:
            return False
        side = self.side
        return self._edit(f"{side.capitalize()} set-up text", lambda d: d[side].__setitem__("setup_text", t))

    def set_initial_control(self, text: str) -> bool:
        """The side controls the region typed (a region field) from the start; blank: no region."""
        side = self.side
        try:
            region = region_field(self.doc, text)
        except ValueError as e:
            QMessageBox.warning(self, "Invalid region", str(e))
            self.refresh()
            return False

        def change(d):
            rest = [ic for ic in d.get("initial_control", []) if ic["side"] != side]
            old = next((ic for ic in d.get("initial_control", []) if ic["side"] == side), None)
            if region is not None:
                rest.append({**(old or {}), "side": side, "region": region})
            d["initial_control"] = rest
        return self._edit(f"{side.capitalize()} initial control", change)

    # ------------------------------------------------------------------ mines (19.1)
    def _mines_selected(self) -> None:
        locs = self.mines_locs() if self.doc is not None else []
        i = self.mines.currentIndex()
        self.mines_area.blockSignals(True)
        self.mines_area.setText(region_text(self._entry(locs[i]).area) if 0 <= i < len(locs) else "")
        self.mines_area.blockSignals(False)

    def set_mines_area(self, text: str, index: int | None = None) -> bool:
        """The selected mines entry (or ``index``) goes in the region typed; blank: the zone."""
        locs = self.mines_locs()
        i = self.mines.currentIndex() if index is None else index
        if not 0 <= i < len(locs):
            return False
        loc = locs[i]
        try:
            region = region_field(self.doc, text)
        except ValueError as e:
            QMessageBox.warning(self, "Invalid region", str(e))
            self.refresh()
            return False

        def change(d):
            e = d[loc[0]]["groups"][loc[2]]["oob"][loc[4]] if loc[1] == "groups" else d[loc[0]]["oob"][loc[2]]
            if region is None:
                e.pop("area", None)
            else:
                e["area"] = region
        return self._edit("Mines area" if region is not None else "Mines in the set-up zone", change)

    # ------------------------------------------------------------------ caps (24.1)
    def _cap_selected(self) -> None:
        if self.doc is None:
            return
        caps = self.doc.scenario.side(self.side).caps
        r = self.caps.currentRow()
        for name in ("Apply", "Remove"):
            self.cap_buttons[name].setEnabled(0 <= r < len(caps))
        if not 0 <= r < len(caps):
            return
        c = caps[r]
        self.cap_region.setText(region_text(c.region))
        self.cap_squad.setText(c.squad or "")
        self.cap_group.setCurrentText(c.group or "(any group)")
        self.cap_limits.setText(format_cap_limits(c.max))
        self.cap_others.setValue(-1 if c.others is None else c.others)
        self.cap_text.setText(c.text or "")

    def cap_form(self, base: dict | None = None) -> dict:
        """The cap the form describes (JSON); raises ValueError naming what is wrong."""
        region = region_field(self.doc, self.cap_region.text())
        if region is None:
            raise ValueError("a cap needs its region (a region name or hexes)")
        d = dict(base or {})
        d.update({"region": region, "max": parse_cap_limits(self.cap_limits.text())})
        squad = self.cap_squad.text().strip().upper()
        group = self.cap_group.currentText()
        for k, v in (("squad", squad or None), ("group", None if group.startswith("(") else group),
                     ("others", None if self.cap_others.value() < 0 else self.cap_others.value()),
                     ("text", self.cap_text.text().strip() or None)):
            if v is None:
                d.pop(k, None)
            else:
                d[k] = v
        return d

    def _cap_problem(self, text: str) -> None:
        """Say under the form why the cap is not taken ("" hides the line)."""
        self.cap_error.setText(text)
        self.cap_error.setVisible(bool(text))

    def add_cap(self) -> bool:
        side = self.side
        try:
            cap = self.cap_form()
        except ValueError as e:
            self._cap_problem(f"Cannot add the cap: {e}")
            return False
        self._cap_problem("")
        ok = self._edit(f"{side.capitalize()} set-up cap", lambda d: d[side].setdefault("caps", []).append(cap))
        if ok:
            self.caps.setCurrentRow(self.caps.count() - 1)
        return ok

    def apply_cap(self) -> bool:
        side, r = self.side, self.caps.currentRow()
        if r < 0:
            self._cap_problem("No cap is selected: choose one in the list to change it, or use Add cap.")
            return False
        try:
            cap = self.cap_form(self.doc.data()[side]["caps"][r])
        except ValueError as e:
            self._cap_problem(f"Cannot apply: {e}")
            return False
        self._cap_problem("")
        return self._edit(f"{side.capitalize()} set-up cap {r + 1}", lambda d: d[side]["caps"].__setitem__(r, cap))

    def remove_cap(self) -> bool:
        side, r = self.side, self.caps.currentRow()
        if r < 0:
            self._cap_problem("No cap is selected: choose the one to remove in the list.")
            return False
        return self._edit(f"Remove {side} set-up cap {r + 1}", lambda d: d[side]["caps"].pop(r))
