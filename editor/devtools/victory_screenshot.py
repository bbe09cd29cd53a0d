"""The victory builder's picture for ``docs/scenario-design.md`` and ``docs/editor.md``:
``python -m editor.devtools.victory_screenshot [OUT.png]`` (offscreen; default
``docs/images/scenario-victory-builder.png``).

Opens Scenario 4 (Tula) in the editor at 1366 x 768, places three Russian units of one squad
south of the east-west road as a trial set-up, evaluates the victory conditions (*Evaluate now*:
the Russians win, outcome 2) and grabs the whole Victory dock's panel with the Russian outcome
selected in the form.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else ROOT / "docs" / "images" / "scenario-victory-builder.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages

    quiet_qt_messages()
    from editor.main_window import MainWindow

    w = MainWindow(persist_settings=False)   # never the user's window layout
    w.resize(1366, 768)
    w.show()
    app.processEvents()
    if not w.open_file(ROOT / "scenarios" / "data" / "scenario_4_tula.json"):
        print("cannot open Scenario 4", file=sys.stderr)
        return 1
    ctl = w.scenario_ctl
    doc = ctl.doc
    # a trial set-up: three Russian units of one squad in the Russian zone, south of the road
    south = doc.resolve(doc.scenario.regions["south of the east-west road"])[0]
    zone = sorted(doc.side_zone("russian") & south)
    st = doc.setup()
    by_squad: dict[str, list[str]] = {}
    for uid in (u for d in st.deployments if d.side == "russian" for u in d.units):
        u = st.units[uid]
        if u.side == "russian" and u.kind.value == "infantry" and u.squad:
            by_squad.setdefault(u.squad, []).append(uid)
    squad = sorted(by_squad)[0]
    placed = 0
    for uid in by_squad[squad]:
        for h in zone:
            if doc.place(uid, h) is None:
                placed += 1
                break
        if placed == 3:
            break
    ctl.docks["victory"].show()
    ctl.docks["victory"].raise_()
    v = ctl.victory
    v.evaluate_now()
    v.select(("outcomes", 1))
    for _ in range(5):
        app.processEvents()
    v.grab().save(str(out), "PNG")
    doc.undo_stack.setClean()
    ctl.shutdown()
    w.close()
    print(f"screenshot written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
