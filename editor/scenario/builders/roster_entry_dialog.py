"""The roster's forms: a squad (letter, side, its men with weapon and PR), a commander, a crew
weapon or an AFV (of a type of the roster or of a new type with its values) added by the
scenario, or one value of a shipped counter overridden."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QWidget,
)

from editor.scenario.builders.roster_values import SIDES, _fmt, parse_value, refusal

__all__ = ["RosterEntryDialog"]


# ============================================================================ the forms

class RosterEntryDialog(QDialog):
    """A form adding a squad, a commander, a CW or an AFV, or overriding a value of a shipped
    counter. *OK* applies it (:meth:`submit`): a refusal is shown in the form, which stays open.
    ``panel`` is the :class:`editor.scenario.builders.roster_panel.RosterPanel` it edits for (its
    side, roster, document and current unit)."""

    TITLES = {"squad": "Add a squad", "commander": "Add a commander", "crew_weapon": "Add a crew weapon",
              "afv": "Add an AFV", "override": "Override a value of a shipped counter"}

    def __init__(self, panel: QWidget, kind: str, parent=None):
        super().__init__(parent or panel)
        if kind not in self.TITLES:
            raise ValueError(f"unknown roster form {kind!r}; expected {', '.join(self.TITLES)}")
        self.panel, self.kind = panel, kind
        self.setWindowTitle(self.TITLES[kind])
        self.form = QFormLayout(self)
        self.side = QComboBox()
        self.side.addItems(SIDES)
        self.side.setCurrentText(panel.side.currentText())
        self.form.addRow("Side", self.side)
        self.note = QLineEdit()
        self.note.setPlaceholderText("where it comes from (e.g. the printed counter)")
        getattr(self, f"_build_{kind}")()
        self.form.addRow("Note", self.note)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #a00000")
        self.form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.form.addRow(buttons)
        self.side.currentTextChanged.connect(lambda _t: self._side_changed())
        self._side_changed()

    # -- widgets
    @staticmethod
    def _spin(lo: int, hi: int, value: int, none: bool = False) -> QSpinBox:
        s = QSpinBox()
        s.setRange(lo, hi)
        if none:
            s.setSpecialValueText("none")
        s.setValue(value)
        return s

    def _build_squad(self) -> None:
        self.letter = QLineEdit()
        self.letter.setMaxLength(1)
        self.description = QLineEdit()
        self.men = QTableWidget(0, 2)
        self.men.setHorizontalHeaderLabels(["Weapon", "PR"])
        self.men.horizontalHeader().setStretchLastSection(True)
        self.men.setMinimumHeight(140)
        row = QHBoxLayout()
        add, rm = QPushButton("Add man"), QPushButton("Remove man")
        add.clicked.connect(lambda: self.add_man("R", 7))
        rm.clicked.connect(self.remove_man)
        row.addWidget(add)
        row.addWidget(rm)
        self.form.addRow("Letter", self.letter)
        self.form.addRow("Description", self.description)
        self.form.addRow("Men", self.men)
        self.form.addRow("", row)
        self.set_men([("MP", 9), ("LMG", 8), ("R", 7), ("R", 6)])

    def add_man(self, weapon: str = "R", pr: int = 7) -> None:
        from scenarios.counters import WEAPON_TYPES

        r = self.men.rowCount()
        self.men.insertRow(r)
        w = QComboBox()
        w.addItems(WEAPON_TYPES)
        w.setCurrentText(weapon)
        self.men.setCellWidget(r, 0, w)
        self.men.setCellWidget(r, 1, self._spin(2, 12, pr))

    def remove_man(self) -> None:
        r = self.men.currentRow()
        self.men.removeRow(r if r >= 0 else self.men.rowCount() - 1)

    def set_men(self, men: list[tuple[str, int]]) -> None:
        """The squad's men in counter order, ``(weapon, pr)``."""
        self.men.setRowCount(0)
        for w, pr in men:
            self.add_man(w, pr)

    def men_values(self) -> list[tuple[str, int]]:
        return [(self.men.cellWidget(r, 0).currentText(), self.men.cellWidget(r, 1).value())
                for r in range(self.men.rowCount())]

    def _build_commander(self) -> None:
        self.rank = QComboBox()
        self.rank.addItems(["PL", "APL", "PS"])
        self.number = self._spin(1, 99, 1)
        self.weapon = QComboBox()
        self.weapon.addItems(["MP", "R", "LMG"])
        self.pr = self._spin(2, 12, 10)
        self.form.addRow("Rank", self.rank)
        self.form.addRow("ID number", self.number)
        self.form.addRow("Weapon", self.weapon)
        self.form.addRow("PR", self.pr)
        self.rank.currentTextChanged.connect(lambda _t: self._next_number())

    def _build_numbered(self, fields: list[tuple[str, str, QWidget]]) -> None:
        self.type = QComboBox()
        self.type.setEditable(True)
        self.number = self._spin(1, 99, 1)
        self.type_note = QLabel()
        self.type_note.setWordWrap(True)
        self.description = QLineEdit()
        self.form.addRow("Type", self.type)
        self.form.addRow("", self.type_note)
        self.form.addRow("ID number", self.number)
        self.form.addRow("Description", self.description)
        self.values: dict[str, QWidget] = {}
        for name, label, w in fields:
            self.values[name] = w
            self.form.addRow(label, w)
        self.type.currentTextChanged.connect(lambda _t: self._type_changed())

    def _build_crew_weapon(self) -> None:
        modes = QWidget()
        ml = QHBoxLayout(modes)
        ml.setContentsMargins(0, 0, 0, 0)
        self.modes = {m: QCheckBox(m) for m in ("DF", "FL", "SP")}
        for c in self.modes.values():
            ml.addWidget(c)
        self.movement = QComboBox()
        self.movement.addItems(["0", "3", "4", "5"])
        self._build_numbered([("crew", "Crew (2-4)", self._spin(2, 4, 3)),
                              ("ap_factor", "AP factor", self._spin(0, 40, 4)),
                              ("initial_range", "Initial range (mortar: minimum)", self._spin(1, 40, 10)),
                              ("at_factor", "AT factor", self._spin(0, 40, 0, none=True)),
                              ("assault_rating", "Assault rating", self._spin(0, 6, 1)),
                              ("pr", "PR", self._spin(2, 12, 8)),
                              ("movement", "Movement (MP)", self.movement),
                              ("mg_modes", "MG modes", modes)])

    def _build_afv(self) -> None:
        self.turreted = QCheckBox("turreted (a Stug is not)")
        self.turreted.setChecked(True)
        self._build_numbered([("ap_factor", "AP factor", self._spin(0, 40, 8)),
                              ("ap_range", "AP range", self._spin(0, 40, 10)),
                              ("frontal_modifier", "Frontal armour modifier", self._spin(0, 20, 4)),
                              ("flank_modifier", "Flank armour modifier", self._spin(0, 20, 2)),
                              ("at_factor", "AT factor", self._spin(0, 40, 10, none=True)),
                              ("overrun_factor", "Overrun factor", self._spin(0, 12, 6)),
                              ("pr", "PR", self._spin(2, 12, 8)),
                              ("movement", "Movement (MP)", self._spin(0, 20, 10)),
                              ("turreted", "", self.turreted)])

    def _build_override(self) -> None:
        self.unit = QComboBox()
        self.field = QComboBox()
        self.value = QLineEdit()
        self.current = QLabel()
        self.current.setWordWrap(True)
        self.form.addRow("Counter", self.unit)
        self.form.addRow("Which value", self.field)
        self.form.addRow("", self.current)
        self.form.addRow("New value", self.value)
        self.unit.currentIndexChanged.connect(lambda _i: self._unit_changed())
        self.field.currentTextChanged.connect(lambda _t: self._field_changed())

    # -- reactions
    def _side_changed(self) -> None:
        r, side = self.panel.roster, self.side.currentText()
        if self.kind == "squad":
            have = {q.letter for q in r.squads(side)}
            self.letter.setText(next((c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in have), ""))
        elif self.kind == "commander":
            self._next_number()
        elif self.kind in ("crew_weapon", "afv"):
            sd = getattr(r.document, side)
            names = list(sd.afv_types if self.kind == "afv" else sd.cw_types)
            self.type.blockSignals(True)
            self.type.clear()
            self.type.addItems(names)
            self.type.blockSignals(False)
            self._type_changed()
        elif self.kind == "override":
            uid, field = self.panel.current_unit()
            self.unit.blockSignals(True)
            self.unit.clear()
            for u in self.panel.doc.base_roster.units(side):
                self.unit.addItem(f"{u.id} ({_unit_words(u)})", u.id)
            self.unit.blockSignals(False)
            if uid is not None and self.unit.findData(uid) >= 0:
                self.unit.setCurrentIndex(self.unit.findData(uid))
            self._unit_changed(field)

    def _next_number(self) -> None:
        r, side = self.panel.roster, self.side.currentText()
        have = [c.number for c in r.commanders(side) if c.rank == self.rank.currentText()]
        self.number.setValue(max(have, default=0) + 1)

    def _known_type(self) -> str | None:
        r, side, t = self.panel.roster, self.side.currentText(), self.type.currentText().strip()
        if not t:
            return None
        try:
            return r.afv_type(side, t) if self.kind == "afv" else r.crew_weapon_type(side, t)
        except KeyError:
            return None

    def _type_changed(self) -> None:
        r, side = self.panel.roster, self.side.currentText()
        t = self._known_type()
        what = "AFV" if self.kind == "afv" else "CW"
        if t is None:
            self.type_note.setText(f"A new {what} type: the values below define it"
                                   + (" (a CW type is MMG, ATR, Mor or <calibre>AT, 2.23)" if what == "CW" else "")
                                   + ".")
            self.description.setEnabled(True)
            if getattr(self, "_type_description", None) == self.description.text():
                self.description.clear()   # the description of the type shown before
            self._type_description = None
            self.number.setValue(1)
            return
        sd = getattr(r.document, side)
        tp = (sd.afv_types if self.kind == "afv" else sd.cw_types)[t]
        self.type_note.setText(f"A counter of the {what} type {t}: the values are the type's; a value you change "
                               "is the counter's own.")
        self.description.setEnabled(False)
        self.description.setText(tp.description or "")
        self._type_description = self.description.text()
        for name, w in self.values.items():
            self._set_widget(name, w, getattr(tp, name, None))
        units = r.afvs(side) if self.kind == "afv" else r.crew_weapons(side)
        self.number.setValue(max((u.number for u in units if u.type == t), default=0) + 1)

    def _set_widget(self, name: str, w: QWidget, v: Any) -> None:
        if name == "mg_modes":
            for m, c in self.modes.items():
                c.setChecked(m in (v or ()))
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(v))
        elif isinstance(w, QComboBox):
            w.setCurrentText(str(v))
        elif isinstance(w, QSpinBox):
            w.setValue(w.minimum() if v is None else int(v))

    def _widget_value(self, name: str, w: QWidget) -> Any:
        if name == "mg_modes":
            return [m for m, c in self.modes.items() if c.isChecked()]
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return int(w.currentText())
        if name == "at_factor" and w.value() == w.minimum():
            return None
        return w.value()

    def _unit_changed(self, field: str | None = None) -> None:
        from scenarios.scenario_roster import OVERRIDE_FIELDS

        uid = self.unit.currentData()
        self.field.blockSignals(True)
        self.field.clear()
        if uid is not None:
            u = self.panel.doc.base_roster.unit(uid)
            self.field.addItems(OVERRIDE_FIELDS[u.kind])
            self.field.setCurrentText(field or "pr")
        self.field.blockSignals(False)
        self._field_changed()

    def _field_changed(self) -> None:
        uid, f = self.unit.currentData(), self.field.currentText()
        if uid is None or not f:
            return
        shipped = getattr(self.panel.doc.base_roster.unit(uid), f)
        now = getattr(self.panel.roster.unit(uid), f)
        self.current.setText(f"shipped: {_fmt(shipped)}" + (f"; this scenario: {_fmt(now)}" if now != shipped else ""))
        self.value.setText(_fmt(now))

    # -- applying
    def submit(self) -> bool:
        """Apply the form (one undo step); on a refusal show it here and return False."""
        p, side, note = self.panel, self.side.currentText(), self.note.text().strip() or None
        try:
            if self.kind == "squad":
                p.add_squad(side, self.letter.text(), self.men_values(), self.description.text().strip() or None, note)
            elif self.kind == "commander":
                p.add_commander(side, self.rank.currentText(), self.number.value(), self.pr.value(),
                                self.weapon.currentText(), note)
            elif self.kind in ("crew_weapon", "afv"):
                t = self.type.currentText().strip()
                if not t:
                    raise ValueError("give the type (one of the list, or a new name)")
                vals = {n: self._widget_value(n, w) for n, w in self.values.items()}
                add = p.add_afv if self.kind == "afv" else p.add_crew_weapon
                add(side, t, self.number.value(), vals, self.description.text().strip() or None, note)
            else:
                uid, f = self.unit.currentData(), self.field.currentText()
                if uid is None:
                    raise ValueError("choose a counter")
                p.set_value(uid, f, parse_value(f, self.value.text()), note)
        except (ValueError, KeyError) as e:
            self.error.setText(refusal(e))
            return False
        self.error.clear()
        return True

    def accept(self) -> None:
        if self.submit():
            super().accept()


def _unit_words(u) -> str:
    if u.kind == "infantry":
        return f"Squad {u.squad} {u.weapon} PR{u.pr}"
    if u.kind == "commander":
        return f"{u.rank} PR{u.pr}"
    return f"{u.type} #{u.number} PR{u.pr}"
