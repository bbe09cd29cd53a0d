"""The Validation dock: every problem of the scenario and of the designer's set-up, each leading
to its place (``go_to``)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from editor.scenario.document import ScenarioDocument
from editor.scenario.scenario_files import placement_path
from editor.scenario.wording import LOC_ROLE

__all__ = ["ValidationPanel"]


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
