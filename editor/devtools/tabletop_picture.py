"""Pictures of the editor's tabletop tools, offscreen: ``python -m editor.devtools.tabletop_picture
SCENARIO [--unit UID --to X,Y --bearing B] [--tape X1,Y1:X2,Y2] [-o DIR]``.

Opens a copy of the measured scenario ``SCENARIO`` (the file itself is never written) in the
editor's window, Scenario mode, and saves ``setup.png``: the Set-up tool dragging unit ``UID`` to
``X,Y`` (table inches) facing ``B`` (degrees clockwise from the top of the sheet), its fire arc and
movement reach shown where it would stand; and ``tape.png``: the measuring tape from ``X1,Y1`` to
``X2,Y2`` (table inches) with its reading in inches and hexes. Both are grabs of the map view.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _xy(text: str) -> tuple[float, float]:
    x, _, y = text.partition(",")
    return (float(x), float(y))


def render(scenario: str, out: Path, unit: str, to: tuple[float, float], bearing: float,
           tape: tuple[tuple[float, float], tuple[float, float]], size: tuple[int, int] = (1400, 1000),
           zoom: float = 0.9) -> list[Path]:
    """Write ``setup.png`` and ``tape.png`` under ``out`` (see the module docstring); returns the
    files. Raises what opening the scenario raises; ValueError when the editor cannot open it."""
    from PySide6.QtCore import QPointF, QSettings, Qt
    from PySide6.QtWidgets import QApplication, QMessageBox

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages
    from editor.drawing.canvas import ToolEvent
    from editor.main_window import MainWindow
    from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
    from editor.tabletop.tools import table_scale_of

    for kind in ("critical", "warning", "question", "information"):   # offscreen: no modal loop
        setattr(QMessageBox, kind, staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Discard))
    quiet_qt_messages()
    out.mkdir(parents=True, exist_ok=True)
    src = Path(scenario).resolve()
    data = json.loads(src.read_text())
    if isinstance(data.get("map"), dict) and not Path(data["map"]["file"]).is_absolute():
        data["map"]["file"] = str((src.parent / data["map"]["file"]).resolve())
    copy = Path(tempfile.mkdtemp()) / src.name
    copy.write_text(json.dumps(data, indent=2))
    w = MainWindow(persist_settings=False)
    w.resize(*size)
    w.show()
    if not w.open_file(copy):
        raise ValueError(f"the editor cannot open {scenario}")
    w.set_mode("scenario")
    app.processEvents()
    doc = w.scenario_ctl.doc
    scale = table_scale_of(doc)
    if scale is None:
        raise ValueError(f"{scenario} is not a scenario of a measured rule system")
    kx, ky = scale * 0.5 / 3 ** 0.5, scale / 2   # inches per map unit (docs/table-map.md)

    def mu(p):
        return (p[0] / kx, p[1] / ky)

    def scene(p):
        q = mu(p)
        return QPointF(q[0] * SCENE_PER_X, q[1] * SCENE_PER_Y)

    written = []
    try:
        tool = w.tools.set_tool("tableplace")
        tool.selected = unit
        tool.refresh()
        ok = tool.preview(unit, mu(to), bearing)
        app.processEvents()
        w.view.resetTransform()
        w.view.scale(zoom, zoom)
        w.view.centerOn(scene(to))
        app.processEvents()
        p = out / "setup.png"
        w.view.viewport().grab().save(str(p), "PNG")
        written.append(p)
        print(f"setup: {w.tool_label.text()} ({'accepted' if ok else 'refused'})", file=sys.stderr)
        tape_tool = w.tools.set_tool("tape")
        a, b = tape
        L = Qt.MouseButton.LeftButton
        tape_tool.press(ToolEvent.at_scene(scene(a), button=L, buttons=L))
        tape_tool.move(ToolEvent.at_scene(scene(b), buttons=L))
        tape_tool.release(ToolEvent.at_scene(scene(b), button=L))
        mid = (scene(a) + scene(b)) / 2
        w.view.resetTransform()
        w.view.scale(zoom * 0.75, zoom * 0.75)
        w.view.centerOn(mid)
        app.processEvents()
        p = out / "tape.png"
        w.view.viewport().grab().save(str(p), "PNG")
        written.append(p)
        print(f"tape: {w.tool_label.text()}", file=sys.stderr)
    finally:
        w.scenario_ctl.shutdown()
        w.close()
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m editor.devtools.tabletop_picture", description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("--unit", default="G-T1")
    ap.add_argument("--to", default="158,50", help="table inches")
    ap.add_argument("--bearing", type=float, default=300.0)
    ap.add_argument("--tape", default="166,60:148.96,32", help="X1,Y1:X2,Y2 in table inches")
    ap.add_argument("--zoom", type=float, default=0.9)
    ap.add_argument("-o", "--out", default="tabletop-pictures")
    a = ap.parse_args(argv)
    t1, _, t2 = a.tape.partition(":")
    for p in render(a.scenario, Path(a.out), a.unit, _xy(a.to), a.bearing, (_xy(t1), _xy(t2)), zoom=a.zoom):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
