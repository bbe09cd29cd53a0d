"""Editor figures (issue 9): open and show the full mapsheet, repaint at fit-to-window, a brush
stroke over 100 hexes, the repaint after an edit (one step of a brush drag, with the full
rebuild it replaced for comparison), and "visible from here" for one hex. Prints the figures (no assertions).

    /tmp/v/bin/python benchmarks/editor.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

MAPSHEET = Path(__file__).resolve().parents[1] / "maps" / "data" / "iron_cross_mapsheet_corrected.json"


def main() -> None:
    tmp = tempfile.mkdtemp()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, tmp)
    app = QApplication.instance() or QApplication([])
    from maps.hexgrid import Hex
    from editor.main_window import MainWindow

    t0 = time.perf_counter()
    win = MainWindow()
    win.resize(1280, 800)
    win.show()
    win.open_file(MAPSHEET)
    win.view.fit()
    win.view.viewport().repaint()
    app.processEvents()
    t_open = time.perf_counter() - t0
    print(f"open the full mapsheet and show it:       {t_open * 1000:7.0f} ms   (target <= 1000 ms)")

    vp = win.view.viewport()
    img = QImage(vp.size(), QImage.Format.Format_ARGB32_Premultiplied)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        p = QPainter(img)
        win.view.render(p)
        p.end()
        times.append(time.perf_counter() - t0)
    print(f"repaint the whole scene at fit-to-window: {min(times) * 1000:7.1f} ms   (target <= 50 ms; "
          f"median {sorted(times)[2] * 1000:.1f})")

    doc = win.document
    tool = win.tools.set_tool("terrain")
    tool.terrain = "marsh"
    hexes = [Hex(c, r) for c in range(20, 30) for r in range(5, 15)]
    t0 = time.perf_counter()
    tool.stroke_hexes(hexes)
    t_stroke = time.perf_counter() - t0
    t0 = time.perf_counter()
    win.scene.map_item.refresh()
    p = QPainter(img)
    win.view.render(p)
    p.end()
    t_redraw = time.perf_counter() - t0
    print(f"apply a brush stroke over 100 hexes:      {t_stroke * 1000:7.1f} ms   (target <= 100 ms; "
          f"{doc.undo_stack.count()} undo step; then redraw of the edited map {t_redraw * 1000:.0f} ms)")

    # repaint after an edit: a brush drag, one hex per step, each step painted at fit-to-window
    # (the map item rebuilds only the columns the step changed, then the whole view repaints)
    tool.size = 1
    drag = [Hex(c, 20) for c in range(12, 42)]
    tool.stroke = None
    steps = []
    for h in drag:
        t0 = time.perf_counter()
        tool.paint_at(h)
        win.scene.map_item.refresh()
        p = QPainter(img)
        win.view.render(p)
        p.end()
        steps.append(time.perf_counter() - t0)
    tool.stroke = None
    doc.undo_stack.undo()   # the drag was one undo step: the map is as before for the LOS figure
    steps.sort()
    mp = win.scene.map_item.painter
    full = []
    for _ in range(3):   # what every step cost before: the whole map's drawing data rebuilt
        t0 = time.perf_counter()
        mp.set_map(doc.hexmap)
        p = QPainter(img)
        win.view.render(p)
        p.end()
        full.append(time.perf_counter() - t0)
    print(f"repaint after an edit (brush drag step):  {steps[len(steps) // 2] * 1000:7.1f} ms   (target <= 50 ms; "
          f"median of {len(steps)} steps, max {steps[-1] * 1000:.1f}; full rebuild + repaint {min(full) * 1000:.0f} ms)")

    los = win.tools.set_tool("los")
    los.measure("4307", "4312")
    from editor.los_tool import VisibleFromThread

    t0 = time.perf_counter()
    th = VisibleFromThread(doc.hexmap, Hex(43, 7))
    th.start()
    while not th.wait(5):
        app.processEvents()
    t_vis = time.perf_counter() - t0
    print(f"visible from here (4307, full mapsheet):  {t_vis * 1000:7.0f} ms   (target <= 1000 ms; "
          f"{len(th.visible)} hexes visible, worker thread)")
    doc.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
