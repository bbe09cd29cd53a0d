"""Shared fixtures of the editor tests."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QInputDialog, QMessageBox  # noqa: E402


@pytest.fixture
def dialogs(tmp_path, monkeypatch):
    """Settings in a temporary folder (never the user's) and message boxes (and item choices:
    the default) answered without a modal loop; returns the list of (kind, args) of the message boxes shown."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):   # never the user's settings
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    calls = []
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(lambda *a, **k: calls.append(("critical", a))))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: calls.append(("warning", a))))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: calls.append(("question", a)) or QMessageBox.StandardButton.Discard))

    def get_item(parent, title, label, items, current=0, editable=True, *a, **k):
        # a choice (e.g. File > New scenario's rule system): its default, without a modal loop
        return items[current], True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
    return calls


def opened_window(qtbot, path, size=(1200, 800)):
    """The main window with ``path`` (a map or scenario file) open and shown at ``size``, for a
    fixture to ``yield from``; afterwards its games stop and its documents are marked clean so
    closing asks nothing."""
    from editor.main_window import MainWindow

    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    assert w.open_file(path)
    yield w
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


def search_finished(panel, qtbot, timeout=120_000):
    """Wait until the Balance panel's search ended (its result shown or its error), then assert it
    has a result. Waiting on what the worker's ``done`` does in the GUI thread, not on the signal:
    a search of fake games can finish before a signal blocker would connect."""
    qtbot.waitUntil(lambda: panel.result is not None or panel.run_btn.isEnabled(), timeout=timeout)
    assert panel.result is not None, panel.status.text()
