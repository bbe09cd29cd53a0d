"""Render the region builder for ``docs/images/region-builder.png``:
``python -m editor.devtools.region_builder_screenshot docs/images/region-builder.png``."""
from __future__ import annotations

from editor.scenario.builders.region_picking import picker


# =============================================================================== screenshot

def screenshot(out: str, size: tuple[int, int] = (1366, 768)) -> str:
    """Render the region builder offscreen to the PNG ``out``: Scenario 2 in the Scenario mode,
    a new region "north of the road" being built as *Reachable* from the north map edge with the
    east-west road (three waypoints picked on the map, numbered) as the barrier, the result
    drawn on the map. ``python -m editor.devtools.region_builder_screenshot docs/images/region-builder.png``."""
    from pathlib import Path

    from PySide6.QtWidgets import QApplication

    from editor.drawing.canvas import ToolEvent
    from editor.main_window import MainWindow

    root = Path(__file__).resolve().parents[2]
    app = QApplication.instance() or QApplication([])
    w = MainWindow(persist_settings=False)
    w.resize(*size)
    w.show()
    app.processEvents()
    w.open_file(root / "scenarios" / "data" / "scenario_2_khristishche.json", offer_recovery=False)
    ctl = w.scenario_ctl
    ctl.docks["regions"].raise_()
    panel = ctl.regions
    panel.new_region()
    panel.name.setText("north of the road")
    form = panel.editor.form
    form.set_kind("reachable")
    barrier = form.parts()[1]
    barrier.editor.through.pick_button.click()
    tool = w.tools.current
    for h in ("1014", "1715", "3014"):
        tool.press(ToolEvent.at_hex(h))
        tool.release(ToolEvent.at_hex(h))
    app.processEvents()
    ctl.fit()
    app.processEvents()
    w.grab().save(str(out), "PNG")
    picker().stop()
    ctl.doc.undo_stack.setClean()
    w.close()
    return str(out)


if __name__ == "__main__":   # pragma: no cover - a documentation helper
    import os
    import sys

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    import tempfile

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    _app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages

    quiet_qt_messages()
    print(screenshot(sys.argv[1] if len(sys.argv) > 1 else "docs/images/region-builder.png"))
