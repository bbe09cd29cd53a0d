"""Small layout helpers shared by the docks, so that every panel fits a dock of about 360 pixels
(a laptop's 1366 x 768 screen) with its buttons in full."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QBoxLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QTreeView,
    QWidget,
)

__all__ = ["ask_choice", "button_grid", "run_controls", "TimeLeft", "duration_text", "ElidedLabel", "CutCellTips",
           "cut_cell_text", "install_cut_cell_tips", "WrappedCells", "wrap_tree_cells"]


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


def run_controls(lay: QBoxLayout, run_text: str, start, cancel) -> tuple[QPushButton, QPushButton, QProgressBar,
                                                                          QLabel]:
    """The controls of a panel that runs games in the background, added to ``lay``: a row of a
    ``run_text`` button (its ``clicked`` calling ``start``) and a Cancel button (disabled until
    something runs; calling ``cancel``), a progress bar and a word-wrapped status line. Returns
    (run button, cancel button, bar, status)."""
    row = QHBoxLayout()
    run_btn = QPushButton(run_text)
    run_btn.clicked.connect(start)
    cancel_btn = QPushButton("Cancel")
    cancel_btn.setEnabled(False)
    cancel_btn.clicked.connect(cancel)
    row.addWidget(run_btn)
    row.addWidget(cancel_btn)
    lay.addLayout(row)
    bar = QProgressBar()
    lay.addWidget(bar)
    status = QLabel("")
    status.setWordWrap(True)
    lay.addWidget(status)
    return run_btn, cancel_btn, bar, status


def duration_text(seconds: float) -> str:
    """``seconds`` for a person waiting: "40 s", "12 min", "2 h", "2 h 10 min"."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s} s"
    m = int(round(s / 60.0))
    if m < 60:
        return f"{m} min"
    return f"{m // 60} h {m % 60} min" if m % 60 else f"{m // 60} h"


class TimeLeft:
    """The time left of a run of games in the background, for its status line: the pace of the
    games played since the first of them ended (the time before it holds the start-up: the pool's
    workers, a search's checks of its candidates) times the games still to play. Games an earlier
    run kept are no pace: the caller counts them as done. ``workers``: the worker processes (games
    end a worker's at a time, so the pace needs a game a worker after the first); ``clock``:
    seconds (tests)."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self.start(1)

    def start(self, workers: int) -> None:
        self._workers, self.played = max(1, workers), 0
        self._first: tuple[float, int] | None = None  # (when, games played) at the first report

    def add_played(self, n: int) -> None:
        """``n`` more games played by this run."""
        self.played += n
        if self._first is None and n > 0:
            self._first = (self._clock(), self.played)

    def set_played(self, total: int) -> None:
        """``total`` games played by this run so far."""
        self.add_played(total - self.played)

    def text(self, left: int, at_most: bool = False) -> str:
        """"; about 12 min left" for ``left`` games still to play ("; 12 min left at most" when the
        run may end before them or play fewer); "" until a game a worker has ended since the first
        report, over 5 s or more, or when nothing is left."""
        if self._first is None or left <= 0:
            return ""
        since, played = self._clock() - self._first[0], self.played - self._first[1]
        if played < self._workers or since < 5.0:
            return ""
        t = duration_text(since / played * left)
        return f"; {t} left at most" if at_most else f"; about {t} left"


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


class WrappedCells(QStyledItemDelegate):
    """The cells of a tree laid out on as many lines as their text needs at their column's width
    (words wrapped, as a label with word wrap), so that a designer's long entry ("Squad E (4
    units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)") is read whole in a 360-pixel dock.

    Qt's tree asks its delegate for a row's height without the column's width (so a wrapped row
    would stay one line tall): this delegate gives the width of the cell the tree paints, the
    section's width less the branch indentation in the tree column, the viewport's width for a
    row spanning its columns; the rows are laid out again when a column changes width. A column
    sized to its contents (``ResizeToContents``) keeps its cells on one line."""

    def __init__(self, view: QTreeView):
        super().__init__(view)
        self.view = view
        self._widths: tuple[int, ...] = ()
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(0)
        self._relayout.timeout.connect(self._layout_rows)
        view.setWordWrap(True)
        view.setUniformRowHeights(False)
        view.setTextElideMode(Qt.TextElideMode.ElideRight)   # only a word longer than the cell is cut
        view.header().sectionResized.connect(lambda *_a: self._relayout.start())

    def cell_width(self, index) -> int:
        """Pixels of the cell ``index`` as the tree paints it (``QTreeView.visualRect``)."""
        v = self.view
        if v.isFirstColumnSpanned(index.row(), index.parent()):
            width = v.viewport().width()
        else:
            width = v.header().sectionSize(index.column())
        if index.column() == (v.treePosition() if v.treePosition() >= 0 else v.header().logicalIndex(0)):
            level, p = 0, index.parent()
            while p.isValid():
                level, p = level + 1, p.parent()
            width -= v.indentation() * (level + (1 if v.rootIsDecorated() else 0))
        return max(1, width)

    def sizeHint(self, option, index):  # noqa: N802
        if self.view.header().sectionResizeMode(index.column()) == QHeaderView.ResizeMode.ResizeToContents \
                and not self.view.isFirstColumnSpanned(index.row(), index.parent()):
            return super().sizeHint(option, index)   # a column as wide as its text: one line
        opt = QStyleOptionViewItem(option)
        opt.rect = QRect(0, 0, self.cell_width(index), max(1, option.rect.height()))
        opt.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
        return super().sizeHint(opt, index)

    def _layout_rows(self) -> None:
        h = self.view.header()
        widths = (self.view.viewport().width(), *(h.sectionSize(c) for c in range(h.count())))
        if widths != self._widths:   # a column changed: the rows' heights follow
            self._widths = widths
            self.view.doItemsLayout()


def wrap_tree_cells(view: QTreeView) -> WrappedCells:
    """Give ``view`` (a tree) word-wrapped cells as tall as their text (:class:`WrappedCells`)."""
    delegate = WrappedCells(view)
    view.setItemDelegate(delegate)
    return delegate


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
    box.deleteLater()   # a box made for each question: never left behind as the parent's child
    return next((c for c, b in zip(choices, buttons) if b is clicked), None)
