"""Make the user guide's screenshots (docs/images/): ``python -m editor.devtools.screenshots [OUT_DIR]``.

The plain window shot is ``ironcross-editor FILE --screenshot OUT.png``; this script drives the
same window into each tool's state (offscreen) and grabs it with ``QWidget.grab()``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "maps" / "data"


def main(argv: list[str] | None = None) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    out = Path((argv or sys.argv[1:] or [str(ROOT / "docs" / "images")])[0])
    out.mkdir(parents=True, exist_ok=True)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    settings_dir = tempfile.mkdtemp()   # never the user's window state (it may be a scenario layout)
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, settings_dir)
    app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages

    quiet_qt_messages()   # no propagateSizeHints lines
    from maps.hexgrid import Hex
    from editor.map import edits
    from editor.main_window import MainWindow

    def window(path):
        w = MainWindow(persist_settings=False)   # never the user's window layout
        w.resize(1366, 768)
        w.show()
        w.open_file(path, offer_recovery=False)
        app.processEvents()
        w.view.fit()
        return w

    def shot(w, name):
        app.processEvents()
        w.grab().save(str(out / name), "PNG")
        w.document.undo_stack.setClean()
        w.close()

    # LOS across Map 2, blocked, with the Sighting Chart (different levels)
    w = window(DATA / "iron_cross_mapsheet_corrected.json")
    t = w.tools.set_tool("los")
    t.measure("3717", "3310")
    w.view.resetTransform()
    w.view.scale(0.42, 0.42)
    w.view.centre_on_hex(Hex(35, 13))
    shot(w, "editor-los.png")

    # errata preview on the printed mapsheet
    w = window(DATA / "iron_cross_mapsheet.json")
    w.open_errata(DATA / "iron_cross_errata.json")
    w.view.resetTransform()
    w.view.scale(0.35, 0.35)
    w.view.centre_on_hex(Hex(24, 16))
    shot(w, "editor-errata.png")

    # terrain brush (7 hexes) mid-use on the sample village, and the building tool drawing
    w = window(DATA / "sample_village.json")
    b = w.tools.set_tool("terrain")
    b.size, b.terrain = 7, "marsh"
    b.stroke_hexes(["1108", "1208"])
    b._draw_cursor(Hex(13, 8))
    w.options_dock.raise_()
    shot(w, "editor-brush.png")

    w = window(DATA / "sample_village.json")
    bt = w.tools.set_tool("building")
    for p in [(59, 11), (61, 11), (62, 12), (61, 13)]:
        bt.add_point(p)
    bt.hover = (59, 13)
    bt._redraw()
    w.chart_dock.raise_()
    shot(w, "editor-building-chart.png")

    # building edit mode: the corner handles of the largest building, one corner being dragged
    w = window(DATA / "sample_village.json")
    bt = w.tools.set_tool("building")
    bt.set_mode("edit")
    hm = w.document.hexmap
    bid = max(hm.buildings, key=lambda b: (len(hm.building_hexes[b]), b))
    bt.select_building(bid)
    bt.vertex = 0
    x, y = hm.buildings[bid].polygon[0]
    bt._drag_from, bt._drag_to = (x, y), edits.snap_to_lattice(x - 2.2, y - 0.4)
    bt._redraw()
    w.view.resetTransform()
    w.view.scale(1.1, 1.1)
    w.view.centre_on_hex(min(hm.building_hexes[bid]))
    shot(w, "editor-building-edit.png")
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
