"""The Scenario dock: title, number, background, game length and the map of the scenario."""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from editor.scenario.document import ScenarioDocument, validation_message
from editor.scenario.wording import LOC_ROLE, SIDES, _warn

__all__ = ["PropertiesPanel"]


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
                self.title.setCursorPosition(0)   # a long text shows its beginning
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
                self.north_text.setCursorPosition(0)   # a long text shows its beginning
            if self.map_text.text() != sc.map.text:
                self.map_text.setText(sc.map.text)
                self.map_text.setCursorPosition(0)   # a long text shows its beginning
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
