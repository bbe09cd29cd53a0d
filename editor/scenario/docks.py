"""Scenario panels (docks): properties, orders of battle, counter roster (:mod:`editor.scenario.builders.roster_panel`),
regions (the builder is :mod:`editor.scenario.builders.region_builder`), set-up and validation (the victory builder is
:mod:`editor.scenario.builders.victory_builder`). Each panel observes a :class:`editor.scenario.document.ScenarioDocument`
(``set_document``) and turns the user's edits into commands through ``ScenarioDocument.edit``;
none changes the model itself.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from maps.document_file import json_path
from scenarios.model import (
    UNIT_ENTRY_TYPES,
    GrenadesEntry,
    OOBParseError,
    SquadEntry,
    accepted_forms,
    parse_oob_entry,
    parse_oob_line,
)
from editor.scenario.builders.side_forms import GroupDialog, group_json, group_values
from editor.scenario.document import ScenarioDocument, placement_path, region_at, set_region_at, validation_message
from editor.drawing.widgets import button_grid
from editor.scenario.builders.roster_panel import RosterPanel  # noqa: F401 - the Roster dock lives in its own module

__all__ = ["PropertiesPanel", "OOBPanel", "RosterPanel", "RegionPanel", "ValidationPanel",
           "SetupPanel", "UnitTree", "UNIT_MIME", "loc_label", "parse_json_path", "rename_named_refs"]

SIDES = ("german", "russian")
LOC_ROLE = Qt.ItemDataRole.UserRole
UNIT_ROLE = Qt.ItemDataRole.UserRole + 1
MAN_ROLE = Qt.ItemDataRole.UserRole + 2   # a man of a squad entry (roster id) in the OOB tree


def parse_json_path(path: str) -> tuple:
    """``$.german.groups[0].oob[1]`` -> ("german", "groups", 0, "oob", 1)."""
    import re

    out: list[Any] = []
    for name, idx in re.findall(r"\.([A-Za-z_][A-Za-z0-9_ -]*)|\[(\d+)\]", path):
        out.append(int(idx) if idx else name)
    return tuple(out)


_SIDE = {"german": "German", "russian": "Russian"}
SIDE_WIDE = "Side-wide"   # the OOB tree's node of a side's entries in no group
_SIDES = {"german": "Germans", "russian": "Russians"}


def region_words(region) -> str:
    """Where a region is, as a designer says it: "on Hill K", "in 4307", "in hexes 4307, 4308",
    "in Building 3", "on the east map edge"."""
    kind = getattr(region, "kind", "")
    if kind == "feature":
        return f"on {region.name}" if region.name.lower().startswith("hill") else f"in {region.name}"
    if kind == "union" and all(getattr(r, "kind", "") == "feature" and r.name.lower().startswith("hill")
                               for r in region.of):
        return "on " + " or ".join(r.name for r in region.of)
    if kind == "hexes":
        hx = list(region.hexes)
        if len(hx) == 1:
            return f"in {hx[0]}"
        return f"in hexes {', '.join(hx)}" if len(hx) <= 4 else f"in {len(hx)} listed hexes ({hx[0]}...)"
    if kind == "map_edge":
        return f"on {region.describe()}"
    text = region.describe()
    if kind in ("named", "side_of", "beyond", "adjacent_to", "within") and \
            text.lower().startswith(("north", "south", "east", "west", "beyond", "adjacent", "within", "on ", "in ")):
        return text   # "south of the east-west road" reads without "in"
    return f"in {text}"


def condition_sentence(cond) -> str:
    """A victory condition as a designer says it: "no Russian unit on Hill K", "at least 2
    German units in 4307", "only German units in Building 3"."""
    k = getattr(cond, "kind", "")
    if k == "at_least":
        what = cond.units.describe() if cond.units.kinds or cond.units.grouping != "any" else "unit"
        n = cond.count
        if what == "unit":
            what = "unit" if n == 1 else "units"
        many = "a" if n == 1 and what == "unit" else f"at least {n}"
        return f"{many} {_SIDE.get(cond.side, cond.side)} {what} {region_words(cond.region)}"
    if k == "none_in":
        return f"no {_SIDE.get(cond.side, cond.side)} unit {region_words(cond.region)}"
    if k == "sole_occupant":
        if cond.scope == "each_building":
            return (f"{_SIDES.get(cond.side, cond.side)} alone in at least {cond.min_buildings} building(s) "
                    f"{region_words(cond.region)}")
        return f"only {_SIDE.get(cond.side, cond.side)} units {region_words(cond.region)}"
    if k == "controls":
        return f"{_SIDES.get(cond.side, cond.side)} control every hex {region_words(cond.region)}"
    if k in ("all_of", "any_of"):
        return (" and " if k == "all_of" else " or ").join(condition_sentence(c) for c in cond.of)
    if k == "not":
        return f"not ({condition_sentence(cond.of)})"
    return cond.describe() if hasattr(cond, "describe") else str(k)


def _winner(result: str) -> str:
    return {"german": "Germans win", "russian": "Russians win", "draw": "Draw"}.get(result, f"{result} wins")


def loc_label(doc: ScenarioDocument, loc: tuple) -> str:
    """The name of a region as a designer says it: "German set-up zone: German force",
    "Russian entry, turn 1: Russian force", "Germans win: no Russian unit on Hill K",
    "Hill K road (named region)"."""
    sc = doc.scenario
    if loc[0] == "regions":
        return f"{loc[1]} (named region)"
    if loc[0] in SIDES:
        side = loc[0]
        who = _SIDE[side]
        if len(loc) > 2 and loc[1] == "groups":
            g = sc.side(side).groups[loc[2]]
            if loc[3] == "setup":
                return f"{who} set-up zone: {g.name}"
            if loc[3] == "entry":
                opts = g.entry.options if g.entry is not None else []
                i = loc[5] if len(loc) > 5 and isinstance(loc[5], int) else 0
                turn = f", turn {opts[i].turn}" if i < len(opts) else ""
                alt = f" (option {i + 1} of {len(opts)})" if len(opts) > 1 else ""
                return f"{who} entry{turn}: {g.name}{alt}"
            if loc[3] == "oob":
                return f"{who} IP placement: {g.name}"
            return f"{who} {g.name}: {_words_of(loc[3:])}"
        if loc[1] == "infiltration":
            return f"{who} infiltration zone"
        if loc[1] == "oob" and len(loc) > 2 and isinstance(loc[2], int):
            try:
                e = sc.side(side).oob[loc[2]]
            except IndexError:
                e = None
            what = (getattr(e, "text", "") or getattr(e, "kind", "")) if e is not None else "entry"
            return f"{who} placement: {what}"
        if loc[1] == "detachments":
            return f"{who} detachment {sc.side(side).detachments[loc[2]].name}: entry edge"
        return f"{who} {_words_of(loc[1:])}"
    if loc[0] == "victory":
        v = sc.victory
        if loc[1] == "points" and v.points is not None:
            try:
                a = v.points.awards[loc[3]]
            except (IndexError, TypeError):
                return "victory points award"
            per = "hex" if a.kind == "per_hex" else "building"
            return f"Victory points ({_SIDE.get(v.points.side, v.points.side)}): {a.points} per {per} {region_words(a.region)}"
        try:
            o = v.outcomes[loc[2]]
            leaf = o.condition
            parents = []
            for k in loc[4:-1]:
                parents.append(leaf)
                leaf = leaf.of[k] if isinstance(k, int) else (leaf.of if k == "of" and leaf.kind == "not" else leaf)
        except (IndexError, AttributeError, TypeError):
            return f"victory outcome {loc[2] + 1}"
        text = f"{_winner(o.result)}: {condition_sentence(leaf)}"
        negated = sum(1 for p in parents if p.kind == "not") % 2 == 1
        if negated:
            text = f"{_winner(o.result)} unless {condition_sentence(leaf)}"
        comp = next((p for p in reversed(parents) if p.kind in ("all_of", "any_of")), None)
        if comp is not None:
            text += f" ({'with' if comp.kind == 'all_of' else 'or'} {len(comp.of) - 1} more condition" \
                    f"{'s' if len(comp.of) > 2 else ''})"
        return text
    return json_path(loc)


def _words_of(loc) -> str:
    return " ".join(str(x).replace("_", " ") for x in loc)


def _warn(parent, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)


def _edit_error(err: ValueError) -> str:
    """A refused edit in words: a pydantic error through :func:`validation_message`, else its text."""
    return validation_message(err) if isinstance(err, ValidationError) else str(err)


# ============================================================================ unit drag

UNIT_MIME = "application/x-ironcross-unit"


class UnitTree(QTreeWidget):
    """A tree whose unit items drag out as ``UNIT_MIME`` (the unit id) onto the map."""

    def mimeData(self, items):  # noqa: N802
        from PySide6.QtCore import QMimeData

        md = QMimeData()
        uids = [it.data(0, UNIT_ROLE) for it in items if it.data(0, UNIT_ROLE)]
        if uids:
            md.setData(UNIT_MIME, uids[0].encode())
            md.setText(uids[0])
        return md

# ============================================================================ properties

class PropertiesPanel(QWidget):
    """Title, number, background, game length, the map (its printed text; the map file's name and
    description), map sections, who sets up and moves first, and the north indicator (placed with
    the North tool) with its printed text."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        outer = QVBoxLayout(self)
        form = QFormLayout()
        outer.addLayout(form)
        outer.addStretch(1)   # the rows stay together at the top: no gaps between them
        self.form = form
        self.title = QLineEdit()
        self.number = QSpinBox()
        self.number.setRange(0, 999)
        self.number.setSpecialValueText("none")
        self.turns = QSpinBox()
        self.turns.setRange(1, 99)
        self.sets_up = QComboBox()
        self.moves = QComboBox()
        for c in (self.sets_up, self.moves):
            c.addItems(SIDES)
        self.sections = QListWidget()
        self.sections.setMaximumHeight(80)
        self.background = QPlainTextEdit()
        self.background.setMaximumHeight(110)
        self.north = QLabel()
        self.north.setWordWrap(True)
        self.north_text = QLineEdit()
        self.north_text.setPlaceholderText("as printed: Place in hex 5001 pointing to hex 5002.")
        self.map_label = QLabel()
        self.map_label.setWordWrap(True)
        self.map_text = QLineEdit()
        self.map_text.setPlaceholderText("as printed: Map 2 (hex columns 3001/3027 to 5001/5027) is used.")
        self.map_props = QPushButton("Map name and description...")
        self.map_props.setToolTip("the map file's own name and description (an edit of the map)")
        form.addRow("Title", self.title)
        form.addRow("Number", self.number)
        form.addRow("Map", self.map_label)
        form.addRow(self.map_props)
        form.addRow("Map text", self.map_text)
        form.addRow("Map sections", self.sections)
        form.addRow("Game turns", self.turns)
        form.addRow("Sets up first", self.sets_up)
        form.addRow("Moves first", self.moves)
        form.addRow("North", self.north)
        form.addRow("North text", self.north_text)
        form.addRow("Background", self.background)
        self.apply_bg = QPushButton("Apply background")
        form.addRow(self.apply_bg)
        self.title.editingFinished.connect(lambda: self._set("title", self.title.text().strip() or "Untitled"))
        self.number.valueChanged.connect(lambda v: self._set("number", v or None))
        self.turns.valueChanged.connect(lambda v: self._set("turns", v))
        self.sets_up.currentTextChanged.connect(lambda v: self._set("sets_up_first", v))
        self.moves.currentTextChanged.connect(lambda v: self._set("moves_first", v))
        self.apply_bg.clicked.connect(lambda: self._set("background", self.background.toPlainText()))
        self.sections.itemChanged.connect(self._sections_changed)
        self.north_text.editingFinished.connect(lambda: self._set("north_text", self.north_text.text().strip()))
        self.map_text.editingFinished.connect(self._map_text_changed)
        self.map_props.clicked.connect(self._map_properties)
        self._updating = False

    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        doc.changed.connect(lambda what: what == "scenario" and self.refresh())
        self.refresh()

    def refresh(self) -> None:
        sc = self.doc.scenario
        self._updating = True
        try:
            if self.title.text() != sc.title:
                self.title.setText(sc.title)
            self.number.setValue(sc.number or 0)
            self.turns.setValue(sc.turns)
            self.sets_up.setCurrentText(sc.sets_up_first)
            self.moves.setCurrentText(sc.moves_first)
            if self.background.toPlainText() != sc.background:
                self.background.setPlainText(sc.background)
            self.sections.clear()
            for s in self.doc.hexmap.doc.sections:
                it = QListWidgetItem(f"{s.name} (columns {s.first_column:02d}-{s.last_column:02d})")
                it.setData(LOC_ROLE, s.name)
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                it.setCheckState(Qt.CheckState.Checked if s.name in sc.map.sections else Qt.CheckState.Unchecked)
                self.sections.addItem(it)
            n = sc.north
            self.north.setText(f"in {n.hex} pointing to {n.points_to}: north is {n.sheet_word('north')}, "
                               f"east {n.sheet_word('east')}. Use the North tool (N) to move it.")
            self.map_label.setText(f"{self.doc.hexmap.name} ({self.doc.map_file().name})")
            if self.north_text.text() != sc.north_text:
                self.north_text.setText(sc.north_text)
            if self.map_text.text() != sc.map.text:
                self.map_text.setText(sc.map.text)
        finally:
            self._updating = False

    def _map_text_changed(self) -> None:
        t = self.map_text.text().strip()
        if self._updating or self.doc is None or t == self.doc.scenario.map.text:
            return
        self.doc.edit("Set map text", lambda d: d["map"].__setitem__("text", t))

    def _map_properties(self) -> None:
        """The map file's name and description: the main window's dialog (an undoable map edit)."""
        w = self.window()
        if hasattr(w, "map_properties_dialog"):
            w.map_properties_dialog()

    def _set(self, field: str, value) -> None:
        if self._updating or self.doc is None or getattr(self.doc.scenario, field) == value:
            return
        try:
            self.doc.edit(f"Set {field.replace('_', ' ')}", lambda d: d.__setitem__(field, value))
        except ValidationError as e:
            _warn(self, "Invalid value", validation_message(e))
            self.refresh()

    def _sections_changed(self, _item) -> None:
        if self._updating:
            return
        names = [self.sections.item(i).data(LOC_ROLE) for i in range(self.sections.count())
                 if self.sections.item(i).checkState() == Qt.CheckState.Checked]
        try:
            self.doc.edit("Set map sections", lambda d: d["map"].__setitem__("sections", names))
        except ValidationError as e:
            _warn(self, "Invalid sections", validation_message(e))
            self.refresh()


# ============================================================================ OOB

class OOBPanel(QWidget):
    """Sides -> groups -> OOB entries (-> the men of a squad from the roster), and per side a
    "Side-wide" node for the entries that belong to no group (grenades, 15.9; IPs and mines the
    side places in any of its set-up zones, 18.1, 19.1). Entries are typed in the rulebook's
    printed forms and their variants (:data:`scenarios.model.OOB_FORMS`: "Squad D (10) less R
    PR9", "MMG #'s 1 & 2 (14 each)", "Mor #1 (12)", "BT7m #1 and #2", "IP1 x2", "6 grenades"),
    several at once separated by ";". Groups are added and edited with :class:`GroupDialog`."""

    unit_selected = Signal(str)   # an engine unit id (for placement)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.tree = UnitTree()
        self.tree.setHeaderLabels(["Order of battle", "Deploys"])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)   # sized by _fit_columns
        self.tree.setDragEnabled(True)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.tree.currentItemChanged.connect(self._current)
        self.tree.itemExpanded.connect(lambda _it: self._fit_columns())
        lay.addWidget(self.tree, 1)
        self.target = QLabel()
        self.target.setWordWrap(True)
        lay.addWidget(self.target)
        row = QHBoxLayout()
        self.entry_text = QLineEdit()
        self.entry_text.setPlaceholderText("Squad D (10) less R PR9")
        self.entry_text.setToolTip(accepted_forms())
        self.entry_text.returnPressed.connect(self.add_from_field)
        row.addWidget(self.entry_text, 1)
        b = QPushButton("Add")
        b.clicked.connect(self.add_from_field)
        row.addWidget(b)
        lay.addLayout(row)
        lay.addLayout(button_grid([("Edit", self.edit_selected), ("Remove", self.remove_selected),
                                   ("Add group...", self.add_group_dialog), ("Edit group...", self.edit_group_dialog)]))
        self.info = QLabel()
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        self.prompt = None  # (title, label, default) -> str | None; set by the window
        #: (panel, side, group index or None) -> the group form's values or None; None: GroupDialog
        self.group_form = None

    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        doc.changed.connect(lambda what: self.refresh() if what == "scenario" else self._update_placed())
        self.refresh()

    def _update_placed(self) -> None:
        """A placement changed: "in 4307" beside each unit, without rebuilding the tree."""
        for it in self._items():
            uid = it.data(0, UNIT_ROLE)
            if uid:
                p = self.doc.placement.get(uid)
                it.setText(1, f"in {p.hex}" if p else "")

    # -- view
    def refresh(self) -> None:
        cur = self.current_loc()
        self.tree.clear()
        sc = self.doc.scenario
        setup = self.doc.setup()
        groups_units = {}
        if setup is not None:
            for d in setup.deployments:
                groups_units[(d.side, d.group)] = ("set up", d.units)
            for e in setup.entries:
                groups_units[(e.side, e.group)] = (f"enters turn {e.turn}", e.units)
        for side in SIDES:
            spec = sc.side(side)
            st = QTreeWidgetItem([side.capitalize(), f"{len(spec.units())} entries"])
            st.setData(0, LOC_ROLE, (side,))
            f = st.font(0)
            f.setBold(True)
            st.setFont(0, f)
            self.tree.addTopLevelItem(st)
            for gi, g in enumerate(spec.groups):
                how = "set-up zone" if g.setup is not None else \
                    "enters turn " + "/".join(str(o.turn) for o in g.entry.options)
                for r in g.restrictions:
                    how += f", no move before turn {r.until_turn}"
                gi_item = QTreeWidgetItem([g.name, how])
                gi_item.setData(0, LOC_ROLE, (side, "groups", gi))
                st.addChild(gi_item)
                for ei, e in enumerate(g.oob):
                    self._entry_item(gi_item, side, e, (side, "groups", gi, "oob", ei))
                units = groups_units.get((side, g.name), (None, []))[1]
                if units:
                    ui = QTreeWidgetItem([f"{len(units)} units on counters", ""])
                    ui.setForeground(0, QBrush(QColor(90, 90, 90)))
                    gi_item.addChild(ui)
                    for uid in units:
                        u = setup.units[uid]
                        placed = self.doc.placement.get(uid)
                        c = QTreeWidgetItem([f"{u.name or uid}  [{uid}]", f"in {placed.hex}" if placed else ""])
                        c.setData(0, UNIT_ROLE, uid)
                        ui.addChild(c)
            sw = QTreeWidgetItem([SIDE_WIDE, f"{len(spec.oob)} entr{'y' if len(spec.oob) == 1 else 'ies'}"
                                  if spec.oob else "grenades, IPs, mines"])
            sw.setData(0, LOC_ROLE, (side, "oob"))
            sw.setToolTip(0, "Entries of the whole side, in no group: grenades (15.9); IPs and mines the side "
                             "places in any of its set-up zones (18.1, 19.1). Units always belong to a group.")
            sw.setForeground(0, QBrush(QColor(60, 60, 140)))
            st.addChild(sw)
            for ei, e in enumerate(spec.oob):
                self._entry_item(sw, side, e, (side, "oob", ei))
            extra = []
            if spec.hidden_hexes:
                extra.append(f"{spec.hidden_hexes} hidden hexes")
            if spec.grenades:
                extra.append(f"{spec.grenades} grenades")
            for t in ("AT", "AP"):
                if spec.mine_factors(t):
                    extra.append(f"{spec.mine_factors(t)} {t} mine factors")
            st.setText(1, ", ".join(extra) or "")
        self.tree.expandToDepth(1)
        for it in self._items():
            if it.text(1):
                it.setToolTip(1, it.text(1))   # the second column may be cut: its full text
        if cur is not None:
            self.select_loc(cur)
        self._show_target()
        self._fit_columns()
        err = self.doc.setup_error()
        self.info.setText(f"<span style='color:#b00'>Cannot build the forces: {err}</span>" if err else
                          "Type entries as printed, several separated by ';' (the field's tooltip lists the "
                          "forms). Double-click an entry to edit it; drag a unit onto the map (Place tool) "
                          "to set it up.")

    def _fit_columns(self) -> None:
        """The "Deploys" column as wide as its text but at most 40% of the tree, so the entries
        keep their room in a narrow dock (a long side summary is cut, its tooltip is whole)."""
        want = self.tree.sizeHintForColumn(1) + 8
        self.tree.header().resizeSection(1, max(60, min(want, self.tree.viewport().width() * 2 // 5)))

    def resizeEvent(self, ev) -> None:  # noqa: N802
        super().resizeEvent(ev)
        self._fit_columns()

    def _entry_item(self, parent: QTreeWidgetItem, side: str, e, loc: tuple) -> None:
        it = QTreeWidgetItem([e.text or getattr(e, "label", lambda: e.kind)(), e.kind.replace("_", " ")])
        it.setData(0, LOC_ROLE, loc)
        parent.addChild(it)
        if isinstance(e, SquadEntry):
            try:
                sq = self.doc.roster.squad(side, e.letter)
            except KeyError as err:
                bad = QTreeWidgetItem([str(err.args[0]), ""])
                bad.setForeground(0, QBrush(QColor(180, 0, 0)))
                it.addChild(bad)
                return
            st = self.doc.setup()
            # exactly the men the engine leaves out (24.1 choices as the designer's set-up makes them)
            removed = {m.id for m in sq.men if m.id not in st.units} if st is not None else _removed_men(sq, e)
            choice = {m: c for c in self.doc.random_choices() for m in c["among"]
                      if c["side"] == side and c["squad"] == e.letter}
            for m in sq.men:
                out = m.id in removed
                c = choice.get(m.id)
                if c is not None:
                    note = "left out (24.1 choice)" if out else "kept (24.1 choice)"
                else:
                    note = "left out" if out else (f"ammo {e.ammo}" if m.weapon == "LMG" and e.ammo is not None else "")
                item = QTreeWidgetItem([f"{m.weapon} PR{m.pr}  ({m.id})", note])
                item.setData(0, MAN_ROLE, m.id)
                if c is not None:
                    tip = (f"24.1: {c['side']} Squad {c['squad']} {c['what']} chooses among {', '.join(c['among'])}. "
                           "The choice is made once here and used by every game that uses the designer's set-up "
                           "(other games draw it again). Double-click "
                           + ("another candidate to leave him out instead." if out else "to leave this man out instead."))
                    item.setToolTip(0, tip)
                    item.setToolTip(1, tip)
                if out:
                    item.setForeground(0, QBrush(QColor(150, 150, 150)))
                    f = item.font(0)
                    f.setStrikeOut(True)
                    item.setFont(0, f)
                it.addChild(item)

    def left_out_men(self) -> set[str]:
        """The men struck out in the tree (for tests and the screenshot)."""
        return {it.data(0, MAN_ROLE) for it in self._items() if it.data(0, MAN_ROLE) and it.font(0).strikeOut()}

    def toggle_left_out(self, uid: str) -> bool:
        """Change the 24.1 choice ``uid`` belongs to (:meth:`ScenarioDocument.swap_left_out`)."""
        why = self.doc.swap_left_out(uid)
        self.info.setText(f"<span style='color:#b00'>{why}</span>" if why else
                          f"24.1 choice changed: see the struck-out men (Edit > Undo to go back)")
        return why is None

    def _double_clicked(self, it: QTreeWidgetItem, _col: int) -> None:
        man = it.data(0, MAN_ROLE)
        if man and any(man in c["among"] for c in self.doc.random_choices()):
            self.toggle_left_out(man)
            return
        self.edit_selected()

    def current_loc(self) -> tuple | None:
        it = self.tree.currentItem()
        while it is not None and it.data(0, LOC_ROLE) is None:
            it = it.parent()
        return tuple(it.data(0, LOC_ROLE)) if it is not None else None

    def select_loc(self, loc: tuple) -> bool:
        """Select the tree item of a location (or its closest ancestor)."""
        loc = tuple(loc)
        best = None
        for it in self._items():
            l2 = it.data(0, LOC_ROLE)
            if l2 is not None and tuple(l2) == loc[:len(l2)] and (best is None or len(l2) > len(best.data(0, LOC_ROLE))):
                best = it
        if best is not None:
            self.tree.setCurrentItem(best)
            self.tree.scrollToItem(best)
        return best is not None

    def select_unit(self, uid: str) -> None:
        for it in self._items():
            if it.data(0, UNIT_ROLE) == uid:
                self.tree.setCurrentItem(it)
                return

    def _items(self):
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            yield it
            stack.extend(it.child(i) for i in range(it.childCount()))

    def _current(self, it, _prev) -> None:
        if it is not None and it.data(0, UNIT_ROLE):
            self.unit_selected.emit(it.data(0, UNIT_ROLE))
        self._show_target()

    def target_of(self, loc: tuple | None) -> tuple[str, int | None]:
        """Where the entry field adds for a selection: (side, group index), group None = the
        side-wide entries (the side's node or its Side-wide node selected)."""
        loc = tuple(loc or ("german",))
        if len(loc) > 2 and loc[1] == "groups":
            return loc[0], loc[2]
        return loc[0], None

    def _show_target(self) -> None:
        if self.doc is None:
            return
        side, gi = self.target_of(self.current_loc())
        where = f"group {self.doc.scenario.side(side).groups[gi].name}" if gi is not None else \
            "the side-wide entries (grenades, IPs, mines)"
        self.target.setText(f"Add to {_SIDE[side]} {where}:")

    def selected_unit(self) -> str | None:
        it = self.tree.currentItem()
        return it.data(0, UNIT_ROLE) if it is not None else None

    # -- edits
    def _ask(self, title: str, label: str, default: str = "") -> str | None:
        if self.prompt is not None:
            return self.prompt(title, label, default)
        from editor.drawing.tool import ToolContext

        return ToolContext._ask(title, label, default)

    def _types(self, side: str) -> dict:
        """The roster's crew weapon and AFV type names of ``side`` for the parser (its own
        spellings: a designer's roster may add types)."""
        sd = getattr(self.doc.roster.document, side)
        return {"crew_weapon_types": list(sd.cw_types), "afv_types": [*sd.afv_types, *sd.afv_aliases]}

    def parse(self, side: str, text: str) -> list:
        """The entries of a printed text (one entry, or several separated by ";");
        raises OOBParseError."""
        return parse_oob_line(text, **self._types(side)) if ";" in text else \
            [parse_oob_entry(text, **self._types(side))]

    def add_entry(self, side: str, group: int | None, text: str) -> bool:
        """Add printed OOB entries (one, or several separated by ";") to group ``group`` of
        ``side`` (None: the side-wide entries), one undo step. Grenades always go to the side
        (15.9: a side's number of grenades); a unit entry is refused at side level (24.1: units
        belong to a group). Refusals are shown with the accepted forms; returns False then."""
        try:
            entries = self.parse(side, text)
        except OOBParseError as err:
            _warn(self, "Cannot read the entry", str(err))
            return False
        if group is None:
            units = [e.text or e.kind for e in entries if isinstance(e, UNIT_ENTRY_TYPES)]
            if units:
                _warn(self, "Units belong to a group",
                      f"{', '.join(units)}: a unit belongs to a group, which sets it up or brings it in (24.1). "
                      "Select a group of the side first; the side-wide entries hold grenades, IPs and mines.")
                return False
        # (entry, goes to the side-wide entries)
        placed = [(e, group is None or isinstance(e, GrenadesEntry)) for e in entries]

        def change(d):
            for e, sidewide in placed:
                ej = e.model_dump(mode="json", exclude_none=True)
                (d[side].setdefault("oob", []) if sidewide else d[side]["groups"][group]["oob"]).append(ej)

        try:
            self.doc.edit(f"Add {text} to {side}", change)
        except ValidationError as err:
            _warn(self, "Invalid entry", validation_message(err))
            return False
        spec = self.doc.scenario.side(side)
        if placed[-1][1]:
            self.select_loc((side, "oob", len(spec.oob) - 1))
        else:
            self.select_loc((side, "groups", group, "oob", len(spec.groups[group].oob) - 1))
        moved = [e.text for e, sidewide in placed if sidewide and group is not None]
        if moved:
            self.info.setText(f"{', '.join(moved)}: added to the {side} side-wide entries "
                              "(15.9: grenades are the side's, not a group's).")
        return True

    def set_entry(self, loc: tuple, text: str) -> bool:
        """Replace the OOB entry at ``loc`` by a printed form (a unit entry is refused at side level)."""
        try:
            e = self.parse(loc[0], text)
            if len(e) != 1:
                raise OOBParseError(text, "an entry is edited one at a time (no ';')")
            e = e[0]
        except OOBParseError as err:
            _warn(self, "Cannot read the entry", str(err))
            return False
        if loc[1] == "oob" and isinstance(e, UNIT_ENTRY_TYPES):
            _warn(self, "Units belong to a group", f"{text}: a unit belongs to a group (24.1); add it to a group.")
            return False
        try:
            self.doc.edit(f"Edit {text}", lambda d: set_region_at(d, loc, e.model_dump(mode="json", exclude_none=True)))
        except ValidationError as err:
            _warn(self, "Invalid entry", validation_message(err))
            return False
        return True

    def remove_entry(self, loc: tuple) -> None:
        self.doc.edit("Remove OOB entry", lambda d: region_at(d, loc[:-1]).pop(loc[-1]))

    def add_from_field(self) -> None:
        """Add the typed entries where :meth:`target_of` says (the selected group, else side-wide)."""
        text = self.entry_text.text().strip()
        if not text:
            return
        side, group = self.target_of(self.current_loc())
        if self.add_entry(side, group, text):
            self.entry_text.clear()

    def edit_selected(self) -> None:
        loc = self.current_loc()
        if loc is not None and len(loc) == 3 and loc[1] == "groups":
            self.edit_group_dialog()
            return
        if loc is None or "oob" not in loc or not isinstance(loc[-1], int):   # a side or its Side-wide node
            return
        e = region_at(self.doc.scenario.model_dump(mode="json"), loc)
        t = self._ask("Edit OOB entry", "Printed form of the entry:", e.get("text") or "")
        if t:
            self.set_entry(loc, t)

    def remove_selected(self) -> None:
        loc = self.current_loc()
        if loc is None:
            return
        if "oob" in loc:
            self.remove_entry(loc)
        elif len(loc) == 3:
            try:
                self.doc.edit("Remove group", lambda d: d[loc[0]]["groups"].pop(loc[2]))
            except ValidationError as err:
                _warn(self, "Cannot remove the group", validation_message(err))

    def add_group(self, side: str, name: str, setup: bool = True, **values) -> bool:
        """Add a group (one undo step): it sets up in a zone of its own inside the map sections
        (:func:`default_setup_hexes`), or enters (``turn``, ``phase``, ``through``: a compass
        edge or "hexes" with ``hexes``; default the first edge the side's entering groups do not
        use); ``until_turn``: may not move before that Player Turn. Returns False (with a
        message) when refused."""
        vals = {"name": name, "deploy": "setup" if setup else "entry", **values}
        try:
            grp = group_json(self.doc, side, vals)
            self.doc.edit(f"Add {side} group {grp['name']}", lambda d: d[side]["groups"].append(grp))
        except ValueError as err:   # a pydantic ValidationError is a ValueError
            _warn(self, "Cannot add the group", _edit_error(err))
            return False
        self.select_loc((side, "groups", len(self.doc.scenario.side(side).groups) - 1))
        return True

    def edit_group(self, side: str, index: int, **values) -> bool:
        """Change group ``index`` of ``side`` from the group form's values (:func:`group_json`;
        a rename follows into the side's detachments), one undo step."""
        base = self.doc.data()[side]["groups"][index]
        old = base["name"]
        try:
            grp = group_json(self.doc, side, {**group_values(self.doc.scenario.side(side).groups[index]), **values},
                             base)

            def change(d):
                d[side]["groups"][index] = grp
                for det in d[side].get("detachments", []):
                    if det.get("from_group") == old:
                        det["from_group"] = grp["name"]

            self.doc.edit(f"Edit {side} group {grp['name']}", change)
        except ValueError as err:
            _warn(self, "Cannot change the group", _edit_error(err))
            return False
        return True

    def _group_values(self, side: str, index: int | None) -> dict | None:
        if self.group_form is not None:
            return self.group_form(self, side, index)
        dlg = GroupDialog(self.doc, side, index, self)
        return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None

    def add_group_dialog(self) -> None:
        """Ask for a new group of the selected side (set-up or entering; :class:`GroupDialog`)."""
        side = (self.current_loc() or ("german",))[0]
        vals = self._group_values(side, None)
        if vals:
            self.add_group(side, vals.pop("name", ""), vals.pop("deploy", "setup") == "setup", **vals)

    def edit_group_dialog(self) -> None:
        """Edit the selected group (name, deployment, entry, restriction; :class:`GroupDialog`)."""
        loc = self.current_loc()
        if loc is None or len(loc) < 3 or loc[1] != "groups":
            self.info.setText("Select a group to edit it.")
            return
        vals = self._group_values(loc[0], loc[2])
        if vals:
            self.edit_group(loc[0], loc[2], **vals)


def _removed_men(sq, e: SquadEntry) -> set[str]:
    """The men a "less"/"only" entry leaves out when the forces cannot be built (the first
    matching men); otherwise the tree shows the engine's own choice."""
    men = list(sq.men)
    if e.only is not None:
        keep: set[str] = set()
        for spec in e.only:
            for _ in range(spec.count):
                for m in men:
                    if m.id not in keep and m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr):
                        keep.add(m.id)
                        break
        return {m.id for m in men} - keep
    out: set[str] = set()
    for spec in e.less:
        for _ in range(spec.count):
            for m in men:
                if m.id not in out and m.weapon == spec.type and (spec.pr is None or m.pr == spec.pr):
                    out.add(m.id)
                    break
    return out


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
            data = json.loads(self.text.toPlainText())
        except json.JSONDecodeError as e:
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


# ============================================================================ validation

class ValidationPanel(QWidget):
    """Every problem ``check_scenario`` reports for the scenario and every problem of the
    designer's set-up (:meth:`ScenarioDocument.setup_problems`: stale placements, units or hexes
    that do not exist, hidden hexes, mines, 24.1 choices), updated after each edit; clicking one
    shows its place (``go_to(path)``; set-up problems as ``setup:$.units.<id>.hex``).
    *Remove invalid placements* drops what the set-up checks refuse (one undo step).

    Below them, apart, the **design checks** (:meth:`ScenarioDocument.design_warnings`, as
    ``ironcross validate --warnings``): warnings with their own icon and colour in their own list
    (``warnings_list``), which never stop the scenario from playing; clicking one shows its place
    like an error (a victory region, a group, an entry edge)."""

    go_to = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.itemClicked.connect(lambda it: self.go_to.emit(it.data(LOC_ROLE)))
        self.list.itemActivated.connect(lambda it: self.go_to.emit(it.data(LOC_ROLE)))
        lay.addWidget(self.list, 2)
        # design checks: warnings, apart from the errors (their own list, icon and colour)
        self.warnings_label = QLabel()
        self.warnings_label.setWordWrap(True)
        lay.addWidget(self.warnings_label)
        self.warnings_list = QListWidget()
        self.warnings_list.setWordWrap(True)
        self.warnings_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.warnings_list.itemClicked.connect(lambda it: self.go_to.emit(it.data(LOC_ROLE)))
        self.warnings_list.itemActivated.connect(lambda it: self.go_to.emit(it.data(LOC_ROLE)))
        lay.addWidget(self.warnings_list, 1)
        self.fix_btn = QPushButton("Remove invalid placements")
        self.fix_btn.setToolTip("Take every placed unit, hidden hex and mine the set-up checks refuse off the map "
                                "(one undo step)")
        self.fix_btn.clicked.connect(lambda: self.doc is not None and self.doc.remove_invalid_setup())
        self.fix_btn.setEnabled(False)
        lay.addWidget(self.fix_btn)

    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        doc.changed.connect(lambda what: self.refresh())   # a placement can go stale without a scenario edit
        self.refresh()

    #: colours of the two kinds of item: errors red, design warnings amber
    ERROR_COLOUR = QColor(170, 0, 0)
    WARNING_COLOUR = QColor(150, 95, 0)

    def refresh(self) -> None:
        from PySide6.QtWidgets import QStyle

        err_icon = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical)
        self.list.clear()
        probs = self.doc.problems()
        err = self.doc.setup_error()
        setup = self.doc.setup_problems()
        for p in probs:
            it = QListWidgetItem(f"{p.path}: {p.message}")
            it.setData(LOC_ROLE, p.path)
            it.setForeground(QBrush(self.ERROR_COLOUR))
            it.setIcon(err_icon)
            self.list.addItem(it)
        if err and not probs:
            it = QListWidgetItem(f"engine set-up: {err}")
            it.setData(LOC_ROLE, "$")
            it.setForeground(QBrush(QColor(170, 90, 0)))
            self.list.addItem(it)
        where = f"set-up ({placement_path(self.doc.path).name})" if self.doc.path is not None else "set-up"
        for p in setup:
            it = QListWidgetItem(f"{where} {p.path}: {p.message}")
            it.setData(LOC_ROLE, f"setup:{p.path}")
            it.setForeground(QBrush(self.ERROR_COLOUR))
            it.setIcon(err_icon)
            self.list.addItem(it)
        self.fix_btn.setEnabled(bool(setup) and self.doc.placement_error is None)
        n = len(probs) + len(setup)
        if not n:
            self.summary.setText("No problems: the scenario and the set-up validate.")
        else:
            parts = [f"{len(probs)} in the scenario"] if probs else []
            parts += [f"{len(setup)} in the set-up"] if setup else []
            self.summary.setText(f"{n} problem{'s' if n != 1 else ''} ({', '.join(parts)}; click one to show it)")
        self._refresh_warnings()

    def _refresh_warnings(self) -> None:
        from PySide6.QtWidgets import QStyle

        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        self.warnings_list.clear()
        ws = self.doc.design_warnings()
        for w in ws:
            it = QListWidgetItem(f"{w.path}: {w.message}")
            it.setData(LOC_ROLE, w.path)
            it.setForeground(QBrush(self.WARNING_COLOUR))
            it.setIcon(icon)
            it.setToolTip(f"Design check '{w.check}': a warning, not an error (the scenario plays)")
            self.warnings_list.addItem(it)
        self.warnings_label.setText(
            "<b>Design checks:</b> no warnings." if not ws else
            f"<b>Design checks:</b> {len(ws)} warning{'s' if len(ws) != 1 else ''} (the scenario plays; "
            "click one to show it)")

    def problems(self) -> list[str]:
        """The errors listed (scenario, engine set-up and designer's set-up), as shown."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def warnings(self) -> list[str]:
        """The design warnings listed, as shown (apart from :meth:`problems`)."""
        return [self.warnings_list.item(i).text() for i in range(self.warnings_list.count())]


# ============================================================================ set-up

class SetupPanel(QWidget):
    """The designer's trial set-up: units to place by group (with their zones), placed units
    (facing for ATGs, MGs and AFVs; UP or DOWN, 3.12), hidden hexes, mines and IPs per side (18.1),
    the side's set-up caps (24.1), entering units by turn."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc: ScenarioDocument | None = None
        lay = QVBoxLayout(self)
        self.tree = UnitTree()
        self.tree.setDragEnabled(True)
        self.tree.setHeaderLabels(["Unit", "Where"])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setStretchLastSection(False)   # the second column as wide as its text
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        lay.addWidget(self.tree, 1)
        row = QHBoxLayout()
        row.addWidget(QLabel("Facing"))
        self.facing = QSpinBox()
        self.facing.setRange(1, 6)
        row.addWidget(self.facing)
        b = QPushButton("Set facing")
        b.clicked.connect(self._set_facing)
        row.addWidget(b, 1)
        lay.addLayout(row)
        row2 = QHBoxLayout()
        self.down_btn = QPushButton("UP / DOWN")
        self.down_btn.setToolTip("The selected placed unit starts DOWN, or UP again (3.12); Shift+click on the map")
        self.down_btn.clicked.connect(self.toggle_down)
        row2.addWidget(self.down_btn)
        b2 = QPushButton("Remove from map")
        b2.clicked.connect(self._unplace)
        row2.addWidget(b2)
        lay.addLayout(row2)
        # hidden hexes and mines: what the Marks tool (K) puts on the map
        mrow = QHBoxLayout()
        mrow.addWidget(QLabel("Marks (K)"))
        self.mark_side = QComboBox()
        self.mark_side.addItems(SIDES)
        self.mark_mode = QComboBox()
        self.mark_mode.addItems(["hidden hex", "AP mines", "AT mines", "IP"])
        self.mark_factors = QSpinBox()
        self.mark_factors.setRange(1, 7)
        self.mark_factors.setValue(2)
        self.mark_factors.setToolTip("Mine factors in the hex (19.12: AP at most 4, AT 2 to 7); "
                                     "IP: the IP's points (18.1)")
        for wdg in (self.mark_side, self.mark_mode, self.mark_factors):
            mrow.addWidget(wdg)
        lay.addLayout(mrow)
        self.marks = QLabel()
        self.marks.setWordWrap(True)
        lay.addWidget(self.marks)
        self.status = QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.status)

    def set_document(self, doc: ScenarioDocument) -> None:
        self.doc = doc
        doc.changed.connect(lambda what: self.refresh())
        self.refresh()

    def selected_unit(self) -> str | None:
        it = self.tree.currentItem()
        return it.data(0, UNIT_ROLE) if it is not None else None

    def select_unit(self, uid: str) -> None:
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            if it.data(0, UNIT_ROLE) == uid:
                self.tree.setCurrentItem(it)
                return
            stack.extend(it.child(i) for i in range(it.childCount()))

    def refresh(self) -> None:
        cur = self.selected_unit()
        self.tree.clear()
        st = self.doc.setup()
        if st is None:
            self.status.setText(f"Cannot build the forces: {self.doc.setup_error()}")
            return
        sc = self.doc.scenario
        for side in (sc.sets_up_first, "russian" if sc.sets_up_first == "german" else "german"):
            spec = sc.side(side)
            top = QTreeWidgetItem([f"{side.capitalize()} sets up" if side == sc.sets_up_first else
                                   f"{side.capitalize()}", ""])
            self.tree.addTopLevelItem(top)
            for d in [d for d in st.deployments if d.side == side]:
                g = QTreeWidgetItem([d.group, f"zone of {len(d.zone)} hexes"])
                top.addChild(g)
                for uid in d.units:
                    u = st.units[uid]
                    p = self.doc.placement.get(uid)
                    where = (f"{p.hex}" + (f", facing {p.facing}" if p.facing else "") + (", DOWN" if p.down else "")
                             if p else "not placed")
                    c = QTreeWidgetItem([f"{u.name or uid}  [{uid}]", where])
                    c.setData(0, UNIT_ROLE, uid)
                    if p is None:
                        c.setForeground(1, QBrush(QColor(150, 90, 0)))
                    g.addChild(c)
            by_turn: dict[int, list] = {}
            for e in [e for e in st.entries if e.side == side]:
                by_turn.setdefault(e.turn, []).append(e)
            for turn in sorted(by_turn):
                t = QTreeWidgetItem([f"Enter on turn {turn}", ""])
                top.addChild(t)
                for e in by_turn[turn]:
                    g = QTreeWidgetItem([e.group, f"{len(e.hexes)} entry hexes"
                                         + ("" if e.phase.value == "movement" else f", {e.phase.value}")])
                    t.addChild(g)
                    for uid in e.units:
                        g.addChild(QTreeWidgetItem([f"{st.units[uid].name or uid}  [{uid}]", "enters"]))
            extra = []
            if spec.hidden_hexes:
                extra.append(f"hidden hexes: {spec.hidden_hexes}")
            for t in ("AT", "AP"):
                if spec.mine_factors(t):
                    extra.append(f"{t} mine factors: {spec.mine_factors(t)}")
            if spec.ips():
                extra.append("IPs: " + ", ".join(f"IP{e.points} x {e.count}" for e in spec.ips()))
            if spec.infiltration is not None and spec.infiltration.allowed:
                extra.append("may infiltrate")
            if extra:
                top.addChild(QTreeWidgetItem(["; ".join(extra), ""]))
        self.tree.expandAll()
        if cur:
            self.select_unit(cur)
        lines = []
        for side in SIDES:
            n = self.doc.scenario.side(side).hidden_hexes
            hh = sorted(h for h, s in self.doc.hidden.items() if s == side)
            ap, at, _z = self.doc.mine_allotment(side)
            pap, pat = self.doc.mines_placed(side)
            parts = []
            if n:
                parts.append(f"hidden hexes {len(hh)}/{n}" + (f" ({', '.join(hh)})" if hh else ""))
            if ap:
                parts.append(f"AP mines {pap}/{ap}")
            if at:
                parts.append(f"AT mines {pat}/{at}")
            have: dict[int, int] = {}
            for pts, _z, _g in self.doc.ip_allotment(side):
                have[pts] = have.get(pts, 0) + 1
            for pts in sorted(have, reverse=True):   # 18.1 the side's IPs, placed / in the OOB
                placed_ip = sum(1 for i in self.doc.ips.values() if i["side"] == side and i["points"] == pts)
                parts.append(f"IP{pts} {placed_ip}/{have[pts]}")
            for cap in self.doc.scenario.side(side).caps:
                parts.append(f"cap: {cap.describe()}")
            if parts:
                lines.append(f"{side.capitalize()}: " + "; ".join(parts))
        self.marks.setText("\n".join(lines) or "No hidden hexes or mines in this scenario.")
        placed = len(self.doc.placement)
        bad = self.doc.setup_problem_hexes()
        self.status.setText(f"{placed} of {sum(len(d.units) for d in st.deployments)} set-up units placed. "
                            "Drag a unit from this list or the OOB onto the map (Place tool), or select it "
                            "and click a hex." + (f"\nSet-up problems in {', '.join(sorted(bad))} (red on the map, "
                                                  "listed in the Validation dock)." if bad else ""))

    def _set_facing(self) -> None:
        uid = self.selected_unit()
        if uid:
            self.doc.set_facing(uid, self.facing.value())

    def _unplace(self) -> None:
        uid = self.selected_unit()
        if uid:
            self.doc.unplace(uid)

    def toggle_down(self) -> bool:
        """The selected placed unit starts DOWN, or UP again (3.12); False when none is placed."""
        uid = self.selected_unit()
        p = self.doc.placement.get(uid) if uid else None
        return p is not None and self.doc.set_down(uid, not p.down)
