"""Small layout helpers shared by the docks, so that every panel fits a dock of about 360 pixels
(a laptop's 1366 x 768 screen) with its buttons in full."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QGridLayout, QLabel, QPushButton, QSizePolicy, QToolTip, QWidget

__all__ = ["ask_choice", "button_grid", "ElidedLabel", "CutCellTips", "cut_cell_text", "install_cut_cell_tips"]


def button_grid(buttons: list[tuple[str, object]] | list[QWidget], columns: int = 2) -> QGridLayout:
    """A grid of buttons, ``columns`` a row, all of one width: ``buttons`` are widgets or
    ``(text, slot)`` pairs (a ``QPushButton`` is made for each, its ``clicked`` connected to the
    slot). Two columns of the longest labels ("Save roster as...", "Remove invalid placements")
    fit a 360-pixel dock, where a row of four would be cut."""
    grid = QGridLayout()
    grid.setContentsMargins(0, 0, 0, 0)
    for i, b in enumerate(buttons):
        if not isinstance(b, QWidget):
            text, slot = b
            b = QPushButton(text)
            b.clicked.connect(slot)
        grid.addWidget(b, i // columns, i % columns)
    for c in range(columns):
        grid.setColumnStretch(c, 1)
    return grid


class ElidedLabel(QLabel):
    """A one-line label that never runs into its neighbours: a text longer than the label ends
    in "..." (``shown_text()``) and the whole text is its tooltip. For the status bar, where the
    hex's description with its provenance must not overwrite the tool's message."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802
        self._full = text or ""
        self.setToolTip(self._full)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def shown_text(self) -> str:
        return super().text()

    def text(self) -> str:
        return self._full

    def resizeEvent(self, ev) -> None:  # noqa: N802
        super().resizeEvent(ev)
        self._elide()

    def _elide(self) -> None:
        room = max(0, self.contentsRect().width() - 2)
        QLabel.setText(self, self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, room))


class CutCellTips(QObject):
    """An event filter for the viewports of item views (trees, lists, tables): a cell whose text
    does not fit its column ("Squad D (9) less R PR...") shows its whole text as a tooltip (a cell
    with a tooltip of its own keeps it)."""

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802
        if ev.type() == QEvent.Type.ToolTip:
            view = obj.parent()
            if isinstance(view, QAbstractItemView):
                text = cut_cell_text(view, ev.pos())
                if text:
                    QToolTip.showText(ev.globalPos(), text, obj)
                    return True
        return False


def cut_cell_text(view: QAbstractItemView, pos) -> str:
    """The whole text of the cell at viewport point ``pos`` when the cell shows it cut, else ""."""
    idx = view.indexAt(pos)
    if not idx.isValid() or idx.data(Qt.ItemDataRole.ToolTipRole):
        return ""
    text = idx.data(Qt.ItemDataRole.DisplayRole)
    if not text:
        return ""
    text = str(text)
    rect = view.visualRect(idx)
    icon = 20 if idx.data(Qt.ItemDataRole.DecorationRole) is not None else 0
    return text if view.fontMetrics().horizontalAdvance(text) + icon + 8 > rect.width() else ""


def install_cut_cell_tips(root: QWidget) -> CutCellTips:
    """Give every item view under ``root`` the whole text of its cut cells as tooltips."""
    tips = CutCellTips(root)
    for view in root.findChildren(QAbstractItemView):
        view.viewport().installEventFilter(tips)
    return tips


def ask_choice(parent: QWidget | None, title: str, text: str, choices: list[str], detail: str = "") -> str | None:
    """Ask the user to choose one of ``choices`` (a button each, the first the default) or
    *Cancel*; returns the chosen text, or None for Cancel (or the window closed). ``detail`` is
    shown under *Show Details...* (a long list of what a choice changes)."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=parent)
    buttons = [box.addButton(c, QMessageBox.ButtonRole.AcceptRole) for c in choices]
    box.addButton(QMessageBox.StandardButton.Cancel)
    if buttons:
        box.setDefaultButton(buttons[0])
    if detail:
        box.setDetailedText(detail)
    box.exec()
    clicked = box.clickedButton()
    return next((c for c, b in zip(choices, buttons) if b is clicked), None)
