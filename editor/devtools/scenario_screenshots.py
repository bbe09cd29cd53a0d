"""Screenshots of the scenario editor for the Reference part of ``docs/scenario-design.md``:
``python -m editor.devtools.scenario_screenshots [OUT_DIR]`` (offscreen; a few seconds of playtest). The
walk-through's own pictures (``walkthrough-*.png``) are taken by
``tests/editor/test_walkthrough_scenario4.py`` with ``WALKTHROUGH_SHOTS=DIR``.

Builds a small scenario on Map 2 from scratch and grabs the window at
each stage with ``QWidget.grab()``, at 1366 x 768: the Scenario mode for the properties, orders of
battle, regions, set-up, victory and validation, the Play mode for the batch, the robust check,
Watch and Hot-seat.
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

    out = Path((argv or sys.argv[1:] or [str(ROOT / "docs" / "images")])[0])
    out.mkdir(parents=True, exist_ok=True)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages

    quiet_qt_messages()   # no propagateSizeHints lines
    from editor.main_window import MainWindow

    w = MainWindow(persist_settings=False)   # never the user's window layout
    w.resize(1366, 768)
    w.show()
    app.processEvents()
    w.open_file(ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json", offer_recovery=False)
    ctl = w.scenario_ctl
    doc = ctl.new_scenario()
    app.processEvents()

    def shot(name):
        app.processEvents()
        w.grab().save(str(out / name), "PNG")

    # properties: title, Map 2 only, north at the bottom of the sheet as in Scenario 1
    doc.edit("Title", lambda d: d.__setitem__("title", "Hill K Crossroads"))
    doc.edit("Sections", lambda d: d["map"].__setitem__("sections", ["Map 2"]))
    t = w.tools.set_tool("north")
    t.place_click("5001")
    t.place_click("5002")
    ctl.docks["properties"].raise_()
    ctl.docks["regions"].raise_()
    ctl.fit()
    shot("scenario-properties.png")

    # orders of battle
    for text in ("Squad C (10)", "MMG #1 (12)", "PL", "IP1 x 2"):
        ctl.oob.add_entry("german", 0, text)
    ctl.oob.add_entry("german", None, "Grenades (6)")
    for text in ("Squad A (8) less LMG PR8", "Squad B (8)", "PL PR10"):
        ctl.oob.add_entry("russian", 0, text)
    # regions: the German zone painted around the crossroads, victory area 4307/4308
    ctl.regions.select(("german", "groups", 0, "setup", "region"))
    rt = w.tools.set_tool("region")
    rt.paint(["4305", "4306", "4307", "4308", "4309", "4406", "4407", "4408", "4206", "4207", "4208"], adding=True,
             stroke=doc.new_stroke())
    cur = doc.resolve(doc.scenario.german.groups[0].setup.region)[0]
    extra = sorted(set(cur) - {"4305", "4306", "4307", "4308", "4309", "4406", "4407", "4408", "4206", "4207", "4208"})
    if extra:
        rt.paint(extra, adding=False, stroke=doc.new_stroke())
    doc.edit("Victory", lambda d: d["victory"].update(
        text="The Germans win if they hold 4307 or 4308 at the end; otherwise the Russians win.", default="russian",
        outcomes=[{"result": "german", "condition": {"kind": "at_least", "side": "german", "count": 1,
                                                     "region": {"kind": "hexes", "hexes": ["4307", "4308"]}}}]))
    ctl.docks["oob"].raise_()
    ctl.docks["regions"].raise_()
    app.processEvents()   # the panels refresh first (a deferred redraw), then the tree is opened
    ctl.oob.tree.expandAll()
    ctl.fit()
    w.view.scale(1.6, 1.6)
    from maps.hexgrid import Hex

    w.view.centre_on_hex(Hex(42, 10))
    shot("scenario-oob-regions.png")

    # set-up: place the German force
    st = doc.setup()
    units = st.deployments[0].units
    hexes = ["4307", "4307", "4307", "4307", "4308", "4308", "4308", "4406", "4406", "4406", "4306", "4306"]
    place = w.tools.set_tool("place")
    for uid, h in zip(units, hexes):
        place.drop(uid, h)
    ctl.docks["oob"].raise_()
    ctl.docks["victory"].raise_()
    ctl.victory.evaluate_now()
    w.view.resetTransform()
    w.view.scale(0.5, 0.5)
    w.view.centre_on_hex(Hex(43, 8))
    shot("scenario-setup-victory.png")

    # validation: a squad the roster lacks, as a hand-edited file has it (the OOB dock refuses
    # such a line where it is typed)
    doc.edit("a squad the roster lacks", lambda d: d["russian"]["groups"][0]["oob"].append(
        {"kind": "squad", "letter": "Q", "text": "Squad Q (8)"}))
    ctl.docks["validation"].raise_()
    ctl.validation.list.setCurrentRow(0)
    ctl.go_to(ctl.validation.list.item(0).data(256))
    shot("scenario-validation.png")
    doc.undo_stack.undo()
    roster_shot(w, shot)

    # playtest batch with a heat map
    p = ctl.playtest
    p.games.setValue(12)
    p.workers.setValue(max(1, min(4, os.cpu_count() or 1)))
    w.set_mode("play")
    ctl.docks["playtest"].raise_()
    p.start()
    while p.runner.isRunning() or p.summary is None:
        app.processEvents()
        p.runner.wait(50)
        if not p.runner.isRunning():
            app.processEvents()
            if p.summary is None and p.runner.results == [] and "failed" in p.status.text():
                break
    p.heat.setCurrentText("fire targets")
    ctl.fit()
    shot("scenario-playtest.png")

    # does its answer depend on the AI? a small robust check (a real one plays hundreds of games)
    r = ctl.play.robust
    r.games.setValue(30)
    r.trials.setValue(3)
    r.tune_games.setValue(6)
    r.workers.setValue(max(1, min(4, os.cpu_count() or 1)))
    ctl.docks["robust"].raise_()
    r.start()
    while r.runner.isRunning() or not r.run_btn.isEnabled():
        app.processEvents()
        r.runner.wait(50)
    ctl.overlay.clear("heat")
    ctl.fit()
    shot("scenario-robust.png")

    # watch a game
    ctl.overlay.clear("heat")
    # game 5 of the batch, with the Playtest panel's players and rules
    ctl.watch.game_no.setValue(5)
    ctl.watch.start_game()
    while ctl.watch.recording is None:
        app.processEvents()
        ctl.watch.thread.wait(50)
    rec = ctl.watch.recording
    target = next((i + 1 for i, s in enumerate(rec.steps) if any(e["kind"] == "ap_result" for e in s.events)
                   and rec.snapshots[i].turn >= 2), len(rec) // 3)
    ctl.watch.go(target)
    ctl.docks["watch"].raise_()   # a game view: the designer's set-up is hidden under the game
    fire = next((e for e in reversed(rec.steps[target - 1].events) if e["kind"] == "fire"), None)
    w.view.resetTransform()
    w.view.scale(0.6, 0.6)
    from maps.hexgrid import parse_hex_id

    w.view.centre_on_hex(parse_hex_id(fire["target"]) if fire else Hex(42, 9))
    shot("scenario-watch.png")

    # hot-seat
    hs = ctl.hotseat
    w.tools.set_tool("hotseat")
    hs.new_game()
    hs.auto_setup()
    hs.session.advance_until(lambda acts: any(a.kind == "fire" and a.mode == "AP" for a in acts))
    fire = next(a for a in hs.game.legal_actions() if a.kind == "fire" and a.mode == "AP")
    hs.selected = fire.firers[0]
    hs.refresh()
    hs.actions.expandAll()
    ctl.docks["hotseat"].raise_()
    w.view.resetTransform()
    w.view.scale(0.6, 0.6)
    from editor.drawing.pieces import hex_centre

    w.view.centerOn((hex_centre(hs.game.state.units[hs.selected].hex) + hex_centre(fire.target)) / 2)
    shot("scenario-hotseat.png")
    doc.undo_stack.setClean()
    w.document.undo_stack.setClean()
    ctl.shutdown()
    w.close()
    print(f"screenshots written to {out}")
    return 0


def roster_shot(w, shot) -> None:
    """The Roster panel with a squad of the scenario's own (Squad P) and an overridden PR
    (``scenario-roster.png``); both are undone afterwards."""
    ctl = w.scenario_ctl
    doc, panel = ctl.doc, ctl.roster
    n = doc.undo_stack.index()
    panel.side.setCurrentText("russian")
    panel.add_squad("russian", "P", [("MP", 9), ("LMG", 8), ("R", 7), ("R", 6)], "assault engineers",
                    "a squad of the designer's")
    panel.set_value("R-A-2", "pr", 8, "the printed counter reads PR8")
    ctl.docks["roster"].raise_()
    for key in (("squad", "russian", "P"), ("unit", "R-P-2"), ("unit", "R-A-2")):
        panel.item(key).setExpanded(True)
    panel.item(("unit", "R-A-2")).parent().setExpanded(True)
    panel.tree.setCurrentItem(panel.item(("value", "R-A-2", "pr")))
    shot("scenario-roster.png")
    while doc.undo_stack.index() > n:
        doc.undo_stack.undo()


if __name__ == "__main__":
    sys.exit(main())
