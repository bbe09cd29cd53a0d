"""``ironcross-editor [FILE] [--screenshot OUT.png]``: the map editor application.

``--screenshot OUT.png`` opens FILE, renders the main window offscreen (``QWidget.grab()``),
saves the picture and exits: 0 on success, 1 with a message for an invalid file or an unwritable
output (for docs and checks). ``--size WxH`` sets the window size (default 1366x768, a laptop screen);
``--los FROM TO`` shows the LOS tool between two hexes (the picture is framed on the line);
``--errata FILE`` previews errata; ``--mode map|scenario|play`` shows a mode of a scenario's
window. The offscreen platform's "This plugin does not support propagateSizeHints()" warnings
are not printed (they say nothing about the picture); every other Qt message is.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ironcross-editor", description="Iron Cross map editor")
    p.add_argument("file", nargs="?", help="map or scenario file to open (detected by its format)")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the main window offscreen to OUT.png and exit")
    p.add_argument("--size", default="1366x768", help="window size WxH (default 1366x768)")
    p.add_argument("--los", nargs=2, metavar=("FROM", "TO"), help="show the LOS tool from one hex to another")
    p.add_argument("--errata", metavar="ERRATA", help="preview an errata file")
    p.add_argument("--tool", help="start with this tool (select, terrain, trees, level, building, path, feature, los)")
    p.add_argument("--mode", choices=("map", "scenario", "play"),
                   help="show this mode of the window (scenario and play need a scenario file)")
    return p


_QUIET = ("This plugin does not support propagateSizeHints()", "This plugin does not support raise()")


def quiet_qt_messages() -> None:
    """Drop the offscreen platform's propagateSizeHints warnings (about 30 per window); print
    every other Qt message to stderr as Qt does."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind, _context, message):
        if any(q in message for q in _QUIET):
            return
        prefix = {QtMsgType.QtWarningMsg: "", QtMsgType.QtCriticalMsg: "critical: ",
                  QtMsgType.QtFatalMsg: "fatal: "}.get(kind, "")
        print(f"{prefix}{message}", file=sys.stderr)

    qInstallMessageHandler(handler)


def frame_los(win, a: str, b: str) -> None:
    """Frame the view on the line from hex ``a`` to hex ``b`` (two hexes of margin)."""
    from editor.drawing.canvas import hex_path
    from maps import hexgrid

    ha, hb = hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b)
    r = hex_path([ha, hb]).boundingRect()
    m = 200.0   # two hexes (a hex is 100 scene units across flats)
    win.view.fitInView(r.adjusted(-m, -m, m, m), Qt.AspectRatioMode.KeepAspectRatio)
    win.view.zoom_changed.emit(win.view.scale_factor())


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"ironcross-editor: --size must be WxH, not {args.size!r}", file=sys.stderr)
        return 2
    if args.screenshot and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.screenshot:
        quiet_qt_messages()

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["ironcross-editor"])
    app.setOrganizationName("IronCross")
    app.setApplicationName("editor")

    from maps.document_file import DocumentError
    from editor.map.document import MapDocument
    from editor.main_window import MainWindow
    from editor.scenario.scenario_files import file_format, is_scenario_format

    if args.file and is_scenario_format(file_format(args.file)):
        return _scenario_main(app, args, w, h)
    if args.screenshot:
        doc = None
        if args.file:
            try:
                doc = MapDocument.open(args.file)
            except (DocumentError, OSError) as e:
                print(f"ironcross-editor: {e}", file=sys.stderr)
                return 1
        win = MainWindow(doc, persist_settings=False)
        win.resize(w, h)
    else:
        win = map_window(args.file, w, h)
    if args.tool:
        win.tools.set_tool(args.tool)
    if args.errata:
        try:
            win.errata_panel.open(args.errata)
        except DocumentError as e:
            print(f"ironcross-editor: {e}", file=sys.stderr)
            return 1
        win.errata_dock.show()
        win.errata_dock.raise_()
    if args.los:
        tool = win.tools.set_tool("los")
        try:
            tool.measure(*args.los)
        except KeyError as e:
            print(f"ironcross-editor: {e}", file=sys.stderr)
            return 1
    if args.screenshot:
        win.show()
        app.processEvents()
        if args.los:
            frame_los(win, *args.los)
        else:
            win.view.fit()
        app.processEvents()
        ok = win.grab().save(args.screenshot, "PNG")
        win.document.undo_stack.setClean()
        win.close()
        if not ok:
            print(f"ironcross-editor: cannot write {args.screenshot}", file=sys.stderr)
            return 1
        return 0
    win.show()
    return app.exec()


def map_window(path: str | None, w: int, h: int):
    """The main window at ``w`` x ``h`` px with the map ``path`` open as *File > Open* opens it: a
    file that cannot be opened is said in a dialog (the window starts with a new map), and a newer
    autosave (the editor crashed) is offered for recovery."""
    from editor.main_window import MainWindow

    win = MainWindow(persist_settings=True)
    win.resize(w, h)
    if path:
        win.open_file(path)
    return win


def _scenario_main(app, args, w: int, h: int) -> int:
    """``ironcross-editor SCENARIO``: the scenario with its map, set-up zones, entries, victory
    areas and north indicator (and the designer's placement when saved beside it)."""
    from maps.document_file import DocumentError
    from editor.main_window import MainWindow

    win = MainWindow(persist_settings=not args.screenshot)
    win.resize(w, h)
    if args.screenshot:
        win.show()
        app.processEvents()
    try:
        win.scenario_ctl.open(args.file)
    except (DocumentError, OSError) as e:
        if args.screenshot:
            print(f"ironcross-editor: {e}", file=sys.stderr)
            win.close()
            return 1
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(win, "Cannot open scenario", str(e))
    else:
        if not args.screenshot:
            win._add_recent(Path(args.file))
    if args.mode:
        win.set_mode(args.mode)
    if args.tool:
        win.tools.set_tool(args.tool)
    if args.screenshot:
        win.resize(w, h)
        app.processEvents()
        win.scenario_ctl.fit()
        app.processEvents()
        ok = win.grab().save(args.screenshot, "PNG")
        win.document.undo_stack.setClean()
        win.scenario_ctl.doc.undo_stack.setClean()
        win.close()
        if not ok:
            print(f"ironcross-editor: cannot write {args.screenshot}", file=sys.stderr)
            return 1
        return 0
    win.show()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
