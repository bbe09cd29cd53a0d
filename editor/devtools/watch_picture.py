"""Pictures of a watched game on the painted map, offscreen, for any rule system:
``python -m editor.devtools.watch_picture SCENARIO [--seed N] [--ai german=heuristic,russian=random]
[--steps 20,40] [--arcs] [--select UID] [-o DIR]``.

Plays the game as the editor's Watch plays it (:class:`editor.play.game_record.GameRecording`), opens
the scenario in the editor's window and saves, for each decision number in ``--steps`` (or, with
``--fire N``, the first N decisions with lines of fire or templates after ``--steps``' first), a
PNG of the map view centred on what that decision did: ``watch-STEP.png``. The view is the
Watch's own (the pieces, the decision's marks); ``--arcs`` ticks *Fire arcs of every piece*.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _parse_ai(text: str) -> dict[str, str]:
    out = {}
    for part in filter(None, text.split(",")):
        side, _, name = part.partition("=")
        out[side.strip()] = name.strip()
    return out


def fire_steps(rec, start: int = 0) -> list[int]:
    """The decision numbers (1-based: the state after decision i) after ``start`` whose events the
    system marks with a line of fire, a template or a corridor."""
    out = []
    if rec.system.marks is None:
        return out
    for i, st in enumerate(rec.steps, 1):
        if i > start and any(m.kind in ("fire", "template", "corridor") for m in rec.system.marks(rec.game, st.events)):
            out.append(i)
    return out


def render(scenario: str, seed: int, ai: dict[str, str], steps: list[int], out: Path, arcs: bool = False,
           fire: int = 0, size: tuple[int, int] = (1400, 1000), zoom: float = 1.0,
           select: str | None = None) -> list[Path]:
    """Render the Watch of game ``seed`` of ``scenario`` at ``steps`` (see the module docstring);
    returns the files written. Raises what loading the scenario or playing the game raises."""
    from PySide6.QtCore import QPointF, QSettings
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages
    from editor.play.game_record import GameRecording
    from editor.main_window import MainWindow
    from editor.drawing.pieces import PiecesItem

    from PySide6.QtWidgets import QMessageBox

    def said(kind):
        def box(_parent, title, text, *a, **k):
            print(f"{kind}: {title}: {text}", file=sys.stderr)
            return QMessageBox.StandardButton.Discard
        return staticmethod(box)

    for kind in ("critical", "warning", "question", "information"):   # offscreen: no modal loop
        setattr(QMessageBox, kind, said(kind))
    quiet_qt_messages()
    out.mkdir(parents=True, exist_ok=True)
    rec = GameRecording.play(scenario, seed, ai)
    if fire:
        steps = fire_steps(rec, steps[0] if steps else 0)[:fire]
    w = MainWindow(persist_settings=False)
    w.resize(*size)
    w.show()
    if not w.open_file(scenario):
        raise ValueError(f"the editor cannot open {scenario}")
    app.processEvents()
    ctl = w.scenario_ctl
    w.set_mode("play")
    ctl.docks["watch"].raise_()
    app.processEvents()
    ctl.update_game_view()
    watch = ctl.watch
    watch.set_recording(rec)
    watch.arcs.setChecked(arcs)
    written = []
    try:
        for step in steps:
            watch.go(step)
            if select:   # the selected piece's arc, as the Hot-seat draws it
                snap = rec.snapshots[watch.pos]
                ctl.overlay.set_layer("game", [PiecesItem(snap.pieces, select, arcs)])
            app.processEvents()
            items = ctl.overlay.layers.get("game-lines") or []
            box = None
            for it in items:
                r = it.sceneBoundingRect()
                box = r if box is None else box.united(r)
            if box is None:
                box = ctl.overlay.layers["game"][0].sceneBoundingRect()
            w.view.resetTransform()
            w.view.scale(zoom, zoom)
            w.view.centerOn(QPointF(box.center()))
            app.processEvents()
            path = out / f"watch-{step:03d}.png"
            w.view.viewport().grab().save(str(path), "PNG")
            written.append(path)
    finally:
        ctl.shutdown()
        w.close()
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m editor.devtools.watch_picture", description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ai", default="german=heuristic,russian=heuristic")
    ap.add_argument("--steps", default="20")
    ap.add_argument("--fire", type=int, default=0, help="the first N decisions with fire after the first --steps")
    ap.add_argument("--arcs", action="store_true")
    ap.add_argument("--select", default=None, help="draw this piece selected (its fire arc)")
    ap.add_argument("--zoom", type=float, default=1.0, help="device pixels per scene unit (a hex is 100)")
    ap.add_argument("-o", "--out", default="watch-pictures")
    a = ap.parse_args(argv)
    steps = [int(x) for x in a.steps.split(",") if x.strip()]
    for p in render(a.scenario, a.seed, _parse_ai(a.ai), steps, Path(a.out), a.arcs, a.fire, zoom=a.zoom,
                    select=a.select):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
