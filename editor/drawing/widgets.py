"""Small layout helpers shared by the docks, so that every panel fits a dock of about 360 pixels
(a laptop's 1366 x 768 screen) with its buttons in full."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QPushButton, QWidget

__all__ = ["button_grid"]


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
