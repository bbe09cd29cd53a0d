"""Small layout helpers shared by the docks, so that every panel fits a dock of about 360 pixels
(a laptop's 1366 x 768 screen) with its buttons in full."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSizePolicy, QTreeWidget, QWidget

__all__ = ["button_grid", "ElidedLabel", "fit_tree_columns"]


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


def fit_tree_columns(tree: QTreeWidget, last_min: int = 60) -> None:
    """Size a tree's columns to their contents within the tree's width (the last column keeps at
    least ``last_min`` pixels), and give every cell whose text is cut a tooltip with its full
    text, so "Squad D (9) less R PR..." can always be read in full."""
    n = tree.columnCount()
    header = tree.header()
    room = tree.viewport().width()
    for c in range(n):
        tree.resizeColumnToContents(c)
    if n > 1:
        rest = sum(header.sectionSize(c) for c in range(1, n))
        first = max(120, min(header.sectionSize(0), room - min(rest, room - 120)))
        if header.sectionSize(0) > first:
            header.resizeSection(0, first)
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while stack:
        it = stack.pop()
        for c in range(n):
            if it.text(c) and not it.toolTip(c):
                it.setToolTip(c, it.text(c))
        stack += [it.child(i) for i in range(it.childCount())]
