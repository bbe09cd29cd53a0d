"""Heat maps of a what-if change beside today's: the Balance panel's comparison window.

After *Apply* and the confirming playtest, the designer sees where the games are fought before and
after the change: today's scenario on the left, the changed one on the right, each the report
picture of ``ironcross playtest --report`` (:func:`cli.playtest_report.heat_image`: the map drawn
by the editor's painter, a circle per hex whose area grows with the count, the legend and the
busiest hexes), for the heat kind chosen (eliminations, fire targets, fire origins, as in the
Playtest panel). Both pictures are drawn on one scale (the larger batch's busiest hex is the
largest circle in both), so a circle of the same size means the same count in both. Each side is
titled with its scenario (today / the change) and says the target side's share with its 95 %
interval and the games it played.

The pictures are drawn from the batches the panels hold (the very ``GameResult`` lists) and the
map in memory (``map_source``), never from files read again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

__all__ = ["HeatBatch", "HeatComparison", "share_text", "comparison_images", "side_by_side"]

#: the heat kinds offered, in the Playtest panel's words and order
KINDS = ("eliminations", "fire targets", "fire origins")


@dataclass
class HeatBatch:
    """One side of the comparison: ``title`` ("Today", "Changed: turns-=2"), ``results`` (the
    batch's ``GameResult`` list as the panel holds it) and ``note`` (where the games come from:
    "the last Playtest batch before Apply", ...)."""

    title: str
    results: list = field(default_factory=list)
    note: str = ""


def share_text(results: list, side: str) -> str:
    """"German wins 35 % [18-56 %], Russian 50 %, draw 15 % of 20 games" for the batch ``results``:
    ``side``'s share first with its 95 % Wilson interval (:func:`core.playtest.summarise`), then the
    other outcomes that happened; "no games" for an empty batch."""
    from core.playtest import summarise

    if not results:
        return "no games"
    s = summarise(results)
    rates, n = s["rates"], s["games"]
    r = rates.get(side)
    if r is None:
        return f"{n} games"
    lo, hi = r["ci95"]
    rest = [f"{k if k in ('draw', 'error') else k.capitalize()} {rates[k]['rate']:.0%}"
            for k in ("german", "russian", "draw", "error") if k != side and k in rates and s["outcomes"].get(k)]
    return f"{side.capitalize()} wins {r['rate']:.0%} [{lo:.0%}-{hi:.0%}]" + "".join(f", {x}" for x in rest) + f" of {n} games"


def comparison_images(hexmap, sections, today: HeatBatch, changed: HeatBatch, kind: str, side: str,
                      px_per_hex: float = 30.0) -> tuple[QImage, QImage]:
    """The two report pictures (:func:`cli.playtest_report.heat_image`) of ``kind`` (a key of
    ``HEAT_KINDS``) for ``today`` and ``changed`` on the map ``hexmap`` / ``sections``, on one
    scale: the largest count of the two batches is the largest circle in both."""
    from cli.playtest_report import HEAT_KINDS, heat_counts, heat_image

    _field, what, short, colour = HEAT_KINDS[kind]
    counts = [heat_counts(b.results, kind) for b in (today, changed)]
    top = max((max(c.values(), default=0) for c in counts), default=0)
    out = []
    for b, c in zip((today, changed), counts):
        sub = share_text(b.results, side) + (f" ({b.note})" if b.note else "")
        out.append(heat_image(hexmap, sections, c, title=b.title, subtitle=sub, what=what, short=short,
                              colour=colour, games=len(b.results), px_per_hex=px_per_hex, scale_max=top or None))
    return out[0], out[1]


def side_by_side(left: QImage, right: QImage, gap: int = 12) -> QImage:
    """One picture of ``left`` and ``right`` next to each other, tops aligned (for saving)."""
    img = QImage(left.width() + gap + right.width(), max(left.height(), right.height()),
                 QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor("#d9d1bf"))
    p = QPainter(img)
    p.drawImage(0, 0, left)
    p.drawImage(left.width() + gap, 0, right)
    p.end()
    return img


class _Picture(QWidget):
    """A picture drawn as large as the widget allows, keeping its proportions."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.image: QImage | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 200)

    def set_image(self, image: QImage | None) -> None:
        self.image = image
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(560, 520) if self.image is None else self.image.size().scaled(
            QSize(640, 640), Qt.AspectRatioMode.KeepAspectRatio)

    def paintEvent(self, _ev) -> None:  # noqa: N802
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#fbf7ec"))
        if self.image is not None and not self.image.isNull():
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            sz = self.image.size().scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio)
            x, y = (self.width() - sz.width()) / 2, 0
            p.drawImage(QRectF(x, y, sz.width(), sz.height()), self.image)
        p.end()


class HeatComparison(QDialog):
    """The comparison window (not modal: the editor stays usable). ``map_source() -> (HexMap,
    [section names])``: the map in memory the games were played on. :meth:`show_batches` fills it
    and shows it; the kind selector redraws both sides; *Save picture...* writes both side by side
    as one PNG."""

    def __init__(self, map_source, parent=None):
        super().__init__(parent)
        self.map_source = map_source
        self.setWindowTitle("Heat maps: the change beside today's")
        self.setModal(False)
        self.change = ""
        self.description = ""
        self.side = "german"
        self.today: HeatBatch | None = None
        self.changed: HeatBatch | None = None
        self.images: tuple[QImage, QImage] | None = None
        lay = QVBoxLayout(self)
        self.heading = QLabel("")
        self.heading.setWordWrap(True)
        lay.addWidget(self.heading)
        row = QHBoxLayout()
        row.addWidget(QLabel("Heat map"))
        self.kind = QComboBox()
        self.kind.addItems(list(KINDS))
        self.kind.currentTextChanged.connect(lambda _t: self.redraw())
        row.addWidget(self.kind, 1)
        self.save_btn = QPushButton("Save picture...")
        self.save_btn.clicked.connect(self._save_dialog)
        row.addWidget(self.save_btn)
        lay.addLayout(row)
        pics = QHBoxLayout()
        self.left, self.right = _Picture(), _Picture()
        pics.addWidget(self.left, 1)
        pics.addWidget(self.right, 1)
        lay.addLayout(pics, 1)
        self.resize(1280, 760)

    def show_batches(self, change: str, today: HeatBatch, changed: HeatBatch, side: str, kind: str | None = None,
                     description: str = "") -> None:
        """Show ``today`` (left) and ``changed`` (right), the what-if ``change`` (its label;
        ``description`` in words), ``side``'s share in each title; ``kind``: the heat map to start
        with (else the one shown)."""
        self.description = description
        self.change, self.today, self.changed, self.side = change, today, changed, side
        self.setWindowTitle(f"Heat maps: {change} beside today's")
        if kind in KINDS and kind != self.kind.currentText():
            self.kind.setCurrentText(kind)   # redraws
        else:
            self.redraw()
        self.show()
        self.raise_()

    def redraw(self) -> None:
        if self.today is None or self.changed is None:
            return
        hexmap, sections = self.map_source()
        kind = self.kind.currentText()
        self.images = comparison_images(hexmap, sections, self.today, self.changed, kind, self.side)
        from cli.playtest_report import heat_counts

        a, b = (sum(heat_counts(x.results, kind).values()) / max(1, len(x.results)) for x in (self.today, self.changed))
        what = f" ({self.description})" if self.description else ""
        self.heading.setText(f"<b>What-if {self.change}</b>{what}: today's scenario on the left "
                             f"({len(self.today.results)} games), the changed one on the right "
                             f"({len(self.changed.results)} games); the circles of both on one scale. "
                             f"{kind.capitalize()} a game: {a:.1f} today, {b:.1f} changed.")
        self.left.set_image(self.images[0])
        self.right.set_image(self.images[1])

    def picture(self) -> QImage | None:
        """Both pictures side by side (None before :meth:`show_batches`)."""
        return None if self.images is None else side_by_side(*self.images)

    def save(self, path: str | Path) -> Path:
        """Write :meth:`picture` as PNG (atomically); OSError when it cannot be written,
        ValueError when nothing is shown."""
        import os

        img = self.picture()
        if img is None:
            raise ValueError("no heat maps to save")
        path = Path(path)
        tmp = path.with_name(path.name + ".part")
        if not img.save(str(tmp), "PNG"):
            raise OSError(f"cannot write PNG file {path}")
        os.replace(tmp, path)
        return path

    def _save_dialog(self) -> None:
        name, _f = QFileDialog.getSaveFileName(self, "Save the heat maps", "heat_maps.png", "PNG pictures (*.png)")
        if name:
            try:
                self.save(name)
            except (OSError, ValueError) as e:
                self.heading.setText(f"<span style='color:#b00'>cannot save: {e}</span>")
