"""Editor figures: open and show the full mapsheet, repaint at fit-to-window, a brush
stroke over 100 hexes, the repaint after an edit (one step of a brush drag, with the full
rebuild it replaced for comparison), and "visible from here" for one hex.

Big maps: a generated 100 x 100 map (trees and levels on 40 % of the hexes, seeded:
:func:`big_map`) opened and shown, and a brush drag step on it and on the full mapsheet at
fit-to-window, 100 % (100 px per hex) and zoomed in (400 %). A drag step is what the window does
for one mouse move of a drag: the move event sent to the viewport (the tool applies the edit, the
status bar follows), then the event loop runs until the viewport has repainted what is in view.

Prints the figures (no assertions), each also as a multiple of the yardstick
(``benchmarks/yardstick.py``) timed at the start of the same run ("ys").

    python benchmarks/editor.py             # every figure
    python benchmarks/editor.py --profile   # also cProfile the 100 x 100 drag steps at fit
"""

from __future__ import annotations

import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEvent, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QImage, QMouseEvent, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from benchmarks.yardstick import Yardstick  # noqa: E402

MAPSHEET = Path(__file__).resolve().parents[1] / "maps" / "data" / "iron_cross_mapsheet_corrected.json"


def _ys(ys: Yardstick, seconds: float) -> str:
    """``seconds`` as yardsticks, for the end of a figure's line."""
    return f"= {ys.multiple(seconds):.3f} ys"


def main() -> None:
    ys = Yardstick.measure()
    print(ys.describe())
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
    print(f"open the full mapsheet and show it:       {t_open * 1000:7.0f} ms {_ys(ys, t_open)}   (target <= 1000 ms)")

    vp = win.view.viewport()
    img = QImage(vp.size(), QImage.Format.Format_ARGB32_Premultiplied)
    times, anew = [], []
    for _ in range(5):
        for out, invalidate in ((times, False), (anew, True)):
            if invalidate:   # the map item caches the view: have it draw the whole view again
                win.scene.map_item.update()
            t0 = time.perf_counter()
            p = QPainter(img)
            win.view.render(p)
            p.end()
            out.append(time.perf_counter() - t0)
    print(f"repaint the whole scene at fit-to-window: {min(times) * 1000:7.1f} ms {_ys(ys, min(times))}   (target <= 50 ms; "
          f"median {sorted(times)[2] * 1000:.1f}; drawing the whole map anew {sorted(anew)[2] * 1000:.1f})")

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
    print(f"apply a brush stroke over 100 hexes:      {t_stroke * 1000:7.1f} ms {_ys(ys, t_stroke)}   (target <= 100 ms; "
          f"{doc.undo_stack.count()} undo step; then redraw of the edited map {t_redraw * 1000:.0f} ms)")

    # repaint after an edit: a brush drag, one hex per step, each step painted at fit-to-window
    # (the map item rebuilds only the blocks of hexes the step changed and draws the tiles of the
    # view under them again; the rest of the view comes from its cache)
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
        win.scene.map_item.update()   # and the cached view drawn anew
        p = QPainter(img)
        win.view.render(p)
        p.end()
        full.append(time.perf_counter() - t0)
    print(f"repaint after an edit (brush drag step):  {steps[len(steps) // 2] * 1000:7.1f} ms {_ys(ys, steps[len(steps) // 2])}   (target <= 50 ms; "
          f"median of {len(steps)} steps, max {steps[-1] * 1000:.1f}; full rebuild + repaint {min(full) * 1000:.0f} ms)")

    los = win.tools.set_tool("los")
    los.measure("4307", "4312")
    from editor.map.los_tool import VisibleFromThread

    t0 = time.perf_counter()
    th = VisibleFromThread(doc.hexmap, Hex(43, 7))
    th.start()
    while not th.wait(5):
        app.processEvents()
    t_vis = time.perf_counter() - t0
    print(f"visible from here (4307, full mapsheet):  {t_vis * 1000:7.0f} ms {_ys(ys, t_vis)}   (target <= 1000 ms; "
          f"{len(th.visible)} hexes visible, worker thread)")
    # the same drag as the big map's, by mouse events, at every zoom
    for label, zoom in ZOOMS:
        steps = drag_steps(app, win, zoom, Hex(40, 14))
        print(f"full mapsheet: brush drag step at {label}:{' ' * (10 - len(label))}{_median(steps) * 1000:7.1f} ms "
              f"{_ys(ys, _median(steps))}   "
              f"(target <= 30 ms; median of {len(steps)} steps, max {max(steps) * 1000:.1f})")
    doc.undo_stack.setClean()
    win.close()

    big_map_figures(app, tmp, ys, profile="--profile" in sys.argv[1:])


# ------------------------------------------------------------------------------------------
# Big maps
# ------------------------------------------------------------------------------------------
#: the zooms a drag step is measured at: fit-to-window, 100 px per hex, 400 px per hex
ZOOMS = (("fit", None), ("100 %", 1.0), ("400 %", 4.0))
STEPS = 12


def big_map(cols: int = 100, rows: int = 100, share: float = 0.4, seed: int = 15):
    """A ``cols`` x ``rows`` map (columns and rows from 00) with trees and a hill level on
    ``share`` of the hexes, chosen with ``random.Random(seed)``: the same map on every run."""
    from editor.map.document import new_map
    from maps.hexgrid import hex_id
    from maps.model import HexRecord

    rng = random.Random(seed)
    doc = new_map((0, cols - 1), (0, rows - 1), name=f"Generated {cols} x {rows}")
    ids = [hex_id(c, r) for c in range(cols) for r in range(rows)]
    recs = [HexRecord(id=t, trees=rng.randint(1, 4), level=rng.randint(1, 2))
            for t in sorted(rng.sample(ids, round(share * len(ids))))]
    return doc.model_copy(update={"hexes": recs})


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def _send(win, kind, h, button, buttons) -> None:
    from PySide6.QtWidgets import QApplication
    from editor.drawing.hex_scene import hex_centre_scene

    vp = win.view.viewport()
    p = QPointF(win.view.mapFromScene(hex_centre_scene(h)))
    QApplication.sendEvent(vp, QMouseEvent(kind, p, vp.mapToGlobal(p), button, buttons, Qt.KeyboardModifier.NoModifier))


def set_zoom(app, win, zoom: float | None, centre) -> None:
    """Fit the map (None) or show ``zoom`` px per scene unit centred on hex ``centre``; painted."""
    if zoom is None:
        win.view.fit()
    else:
        win.view.resetTransform()
        win.view.scale(zoom, zoom)
        win.view.centre_on_hex(centre)
    app.processEvents()
    win.view.viewport().repaint()


def drag_steps(app, win, zoom: float | None, centre, n: int = STEPS) -> list[float]:
    """Seconds per step of terrain-brush drags over hexes in view at ``zoom`` (see :func:`set_zoom`).

    Each step is one mouse event (the press, or a move with the left button held) sent to the
    viewport followed by the event loop until it has repainted. The drags go along the hexes whose
    centres are in view, marsh then clear again (a new stroke each pass), until ``n`` steps."""
    from editor.drawing.hex_scene import hex_at_scene

    set_zoom(app, win, zoom, centre)
    tool = win.tools.set_tool("terrain")
    tool.size = 1
    view = win.view
    r = view.mapToScene(view.viewport().rect().adjusted(40, 40, -40, -40)).boundingRect()
    a, b = hex_at_scene(r.left(), r.top()), hex_at_scene(r.right(), r.bottom())
    inside = [h for h in (type(a)(c, rw) for rw in range(a.row, b.row + 1) for c in range(a.col, b.col + 1))
              if win.scene.on_map(h) and r.contains(_centre(h))]
    inside = inside[:n] or [centre]
    steps: list[float] = []
    k = 0
    while len(steps) < n:
        tool.terrain = "marsh" if k % 2 == 0 else "clear"
        path = inside if k % 2 == 0 else inside[::-1]
        for i, h in enumerate(path):
            if len(steps) == n:
                break
            t0 = time.perf_counter()
            if i == 0:
                _send(win, QEvent.Type.MouseButtonPress, h, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
            else:
                _send(win, QEvent.Type.MouseMove, h, Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton)
            app.processEvents()
            steps.append(time.perf_counter() - t0)
        _send(win, QEvent.Type.MouseButtonRelease, path[min(len(path), n) - 1], Qt.MouseButton.LeftButton,
              Qt.MouseButton.NoButton)
        app.processEvents()
        k += 1
    return steps


def _centre(h):
    from editor.drawing.hex_scene import hex_centre_scene

    return hex_centre_scene(h)


def big_map_figures(app, tmp: str, ys: Yardstick, *, profile: bool = False) -> None:
    from maps.hexgrid import Hex
    from maps.mapfile import save_map
    from editor.main_window import MainWindow

    path = Path(tmp) / "big_100x100.json"
    doc = big_map()
    save_map(path, doc)
    t0 = time.perf_counter()
    win = MainWindow()
    win.resize(1280, 800)
    win.show()
    win.open_file(path)
    win.view.fit()
    win.view.viewport().repaint()
    app.processEvents()
    t_open = time.perf_counter() - t0
    print(f"100 x 100 map ({len(doc.hexes)} hexes with trees and levels): open and show: "
          f"{t_open * 1000:5.0f} ms {_ys(ys, t_open)}   (target <= 1500 ms)")
    centre = Hex(50, 50)
    for label, zoom in ZOOMS:
        if profile and zoom is None:
            prof = cProfile.Profile()
            prof.enable()
            steps = drag_steps(app, win, zoom, centre)
            prof.disable()
        else:
            steps = drag_steps(app, win, zoom, centre)
        print(f"100 x 100 map: brush drag step at {label}:{' ' * (10 - len(label))}{_median(steps) * 1000:7.1f} ms "
              f"{_ys(ys, _median(steps))}   "
              f"(target <= 50 ms; median of {len(steps)} steps, max {max(steps) * 1000:.1f})")
        if profile and zoom is None:
            pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
            pstats.Stats(prof).sort_stats("tottime").print_stats(20)
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
