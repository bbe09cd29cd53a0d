"""File > Export of the documents the designer has open: the scenario as a VASSAL module and the
map as a Tiled map, written from the in-memory documents (one truth: what the designer sees, edits
not yet saved included), with the same writers as ``ironcross export vassal`` / ``export tiled``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox

__all__ = ["add_export_actions", "export_vassal", "export_tiled"]


def add_export_actions(win, menu: QMenu) -> None:
    """Add "Export scenario as VASSAL module..." and "Export map as Tiled map..." to ``menu`` of the
    main window ``win`` (which has ``document``, the map, and ``scenario_ctl.doc``, the scenario)."""
    a = menu.addAction("Export scenario as VASSAL module...")
    a.triggered.connect(lambda: _ask_and_export(win, "vassal"))
    b = menu.addAction("Export map as Tiled map...")
    b.triggered.connect(lambda: _ask_and_export(win, "tiled"))


def _ask_and_export(win, kind: str) -> None:
    if kind == "vassal":
        doc = _scenario_document(win)
        if doc is None:
            QMessageBox.information(win, "Export VASSAL module",
                                    "Open an Iron Cross scenario first (File > Open...).")
            return
        stem = doc.path.stem if doc.path else "scenario"
        path, _ = QFileDialog.getSaveFileName(win, "Export VASSAL module", f"{stem}.vmod", "VASSAL module (*.vmod)")
        if path:
            _report(win, "Export VASSAL module", lambda: export_vassal(win, path))
        return
    path, _ = QFileDialog.getSaveFileName(win, "Export Tiled map", "map.tmx", "Tiled map (*.tmx *.tmj)")
    if path:
        _report(win, "Export Tiled map", lambda: export_tiled(win, path))


def _report(win, title: str, job) -> None:
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        message = job()
    except (ValueError, OSError) as e:
        QApplication.restoreOverrideCursor()
        QMessageBox.critical(win, title, str(e))
        return
    QApplication.restoreOverrideCursor()
    win.statusBar().showMessage(message, 10000)


def _scenario_document(win):
    from editor.scenario.document import ScenarioDocument

    doc = getattr(getattr(win, "scenario_ctl", None), "doc", None)
    return doc if isinstance(doc, ScenarioDocument) else None


def export_vassal(win, path: str) -> str:
    """Write the open scenario (its in-memory scenario, map, roster and set-up) as a VASSAL module
    at ``path``; returns a one-line summary. Raises ValueError (the scenario cannot be set up, or
    the set-up has problems, each named) or OSError (cannot write)."""
    from cli.vassal_module import write_vmod
    from core.ironcross.vassal_plan import plan_from_documents

    doc = _scenario_document(win)
    if doc is None:
        raise ValueError("no Iron Cross scenario is open")
    source = str(doc.path) if doc.path else "the open scenario"
    plan = plan_from_documents(doc.scenario, doc.hexmap, doc.roster, doc.fixed_setup(), source=source,
                               placement_source=f"{source} (set-up)")
    s = write_vmod(plan, path)
    return f"wrote {path}: {s['pieces']} counters, {s['placed']} set up, {s['size'] / 1e6:.1f} MB"


def export_tiled(win, path: str) -> str:
    """Write the open map (the in-memory map document) as a Tiled map at ``path``; returns a
    one-line summary. Raises ValueError (not .tmx/.tmj) or OSError (cannot write)."""
    from cli.tiled_map import export_tiled as write

    written = write(win.document.map, path)
    return f"wrote {' and '.join(Path(p).name for p in written)}"
