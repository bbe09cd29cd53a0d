"""A child editor for the kill -9 tests: opens FILE offscreen, makes one edit (by document kind),
lets the autosave timer run at a short interval, prints ``AUTOSAVED <path>`` once the autosave is
on disk and then idles until it is killed. Run: ``python -m tests.editor.crash_driver KIND FILE``,
KIND one of ``map``, ``ironcross``, ``system``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(kind: str, path: str) -> None:
    """The edit per kind: the map's name; the Iron Cross scenario's title; the other system's
    scenario's ``turns``."""
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(Path(path).parent / "settings"))
    app = QApplication.instance() or QApplication([])
    from editor.main_window import MainWindow

    win = MainWindow()
    win.show()
    assert win.open_file(path), path
    if kind == "map":
        from editor.map.commands import MapPropertiesCommand

        doc = win.document
        doc.undo_stack.push(MapPropertiesCommand(doc, "Rename", fields={"name": "Renamed before the crash"}))
    elif kind == "ironcross":
        doc = win.scenario_ctl.doc
        doc.edit("Retitle", lambda d: d.__setitem__("title", "Retitled before the crash"))
    else:
        doc = win.scenario_ctl.doc
        win.scenario_ctl.system_panel.form.set_value(("turns",), 5)
    assert doc.is_dirty
    win.autosave_timer.setInterval(100)   # the editor's minute, shortened

    def check() -> None:
        a = doc.autosave_path() if callable(getattr(doc, "autosave_path", None)) else None
        if a is None:
            from editor.map.document import autosave_path

            a = autosave_path(doc.path)
        if a.is_file():
            print(f"AUTOSAVED {a}", flush=True)
            poll.stop()

    poll = QTimer()
    poll.timeout.connect(check)
    poll.start(50)
    app.exec()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
