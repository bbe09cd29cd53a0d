"""One truth: what the designer sees in the editor is what every game plays.

1. an open scenario sees map edits made in the same window at once (a hex added to Hill K with
   the Feature tool changes zones, placement checks and victory);
2. games the editor starts (batch, Watch, Hot-seat) play the map, terrain chart, roster and
   scenario in memory; the chart a map uses is saved with it;
3. a 24.1 "less" choice is made once, visibly, in the OOB tree, changeable there, and kept by every
   game that uses the designer's set-up;
4. stale placements are listed in the Validation dock; a bad placement file is named;
7. errata follow the CLI's rule (refused on a mismatch unless the designer confirms);
8. the margin is not a hex: no tool acts there, the status bar says "off the map".

Headless (pytest-qt, QT_QPA_PLATFORM=offscreen); dialogs are patched so nothing blocks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt  # noqa: E402

from maps import hexgrid  # noqa: E402
from maps.los import line_of_sight  # noqa: E402
from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.map.document import MapDocument  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y  # noqa: E402
from editor.scenario.document import ScenarioDocument
from editor.scenario.scenario_files import placement_path
from tests.mapbuilder import make_map  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
SETUP_ZONE = ("german", "groups", 0, "setup", "region")


from tests.editor.conftest import opened_window  # noqa: E402

pytestmark = pytest.mark.usefixtures("dialogs")  # tests/editor/conftest.py


@pytest.fixture
def win(qtbot):
    yield from opened_window(qtbot, S1)


def sdoc(w) -> ScenarioDocument:
    return w.scenario_ctl.doc


def German_hill_victory(d):  # noqa: N802 - reads as the condition it sets
    d["victory"]["outcomes"] = [{"result": "german", "condition": {
        "kind": "at_least", "side": "german", "count": 1, "region": {"kind": "feature", "name": "Hill K"}}}]
    d["victory"]["default"] = "russian"


# ------------------------------------------------------------------------------------ item 1
def test_1_scenario_sees_a_hill_grown_with_the_feature_tool_at_once(win, qtbot, tmp_path):
    doc, mdoc, ctl = sdoc(win), win.document, win.scenario_ctl
    assert doc.map_document is mdoc                      # resolved on the live map document
    doc.edit("Germans hold Hill K", German_hill_victory)
    region = doc.scenario.german.groups[0].setup.region  # its zone is built on Hill K
    before, _ = doc.resolve(region)
    hill = set(mdoc.hexmap.feature_hexes("Hill K"))
    area = {h.id for h in doc.context.area}
    new = next(n for h in sorted(hill) for n in hexgrid.neighbours(h)
               if n.id in area and n.id not in before and n not in hill)
    ctl.regions.select(SETUP_ZONE)
    uid = doc.setup().deployments[0].units[0]
    assert "outside the set-up zone" in doc.place(uid, new.id)
    # the Feature tool adds the hex to Hill K (a map edit, not saved)
    ft = win.tools.set_tool("feature")
    ft.select_feature("Hill K")
    win.ctx.set_selection(set(win.ctx.selection) | {new})
    assert ft.name_selection("Hill K")
    after, _ = doc.resolve(region)
    assert after == before | {new.id}                    # the zone at once
    assert doc.place(uid, new.id) is None                # the placement check at once
    assert doc.evaluate().result == "german"             # victory counts the new hill hex
    qtbot.waitUntil(lambda: ctl.regions.count.text() == f"{len(after)} hexes", timeout=5000)   # the views follow
    assert ctl.validation.problems() == []
    # undo of the map edit: the scenario follows back; the placement is now stale and listed
    mdoc.undo_stack.undo()
    assert doc.resolve(region)[0] == before
    qtbot.waitUntil(lambda: any("outside the set-up zone" in p for p in ctl.validation.problems()), timeout=5000)
    mdoc.undo_stack.redo()
    # saved under another name: the scenario names the new map file and still sees it live
    out = mdoc.save(tmp_path / "map2.json")
    assert doc.map_file() == out.resolve() and doc.map_document is mdoc
    assert doc.resolve(region)[0] == after
    # the saved scenario, reopened on its own (as the CLI reads it), has the same zone
    path = doc.save(tmp_path / "s1.json")
    again = ScenarioDocument.open(path)
    assert again.resolve(again.scenario.german.groups[0].setup.region)[0] == after
    assert again.placement[uid].hex == new.id and again.setup_problems() == []


# ------------------------------------------------------------------------------------ item 2
def _clear_pair(hm, area):
    """(a, middle, b): three hexes down a column, level 0, no trees or buildings, LOS clear."""
    for h in sorted(area):
        c, r = int(h[:2]), int(h[2:])
        a, m, b = hexgrid.Hex(c, r), hexgrid.Hex(c, r + 1), hexgrid.Hex(c, r + 2)
        if not all(x.id in area and hm.level(x) == 0 and hm.trees(x) == 0 and not hm.buildings_at(x)
                   for x in (a, m, b)):
            continue
        if line_of_sight(hm, a, b).clear:
            return a.id, m.id, b.id
    raise AssertionError("no clear pair")


def test_2_every_game_plays_the_map_chart_and_roster_in_memory(win, qtbot, tmp_path, monkeypatch):
    from core.playtest import _setup_for
    from editor.play.game_record import GameRecording

    doc, mdoc, ctl = sdoc(win), win.document, win.scenario_ctl
    area = {h.id for h in doc.context.area}
    a, m, b = _clear_pair(mdoc.hexmap, area)
    # 4 trees painted in the middle hex, not saved: the LOS tool says BLOCKED
    t = win.tools.set_tool("trees")
    t.count = 4
    t.press(ToolEvent.at_hex(m))
    t.release(ToolEvent.at_hex(m))
    assert mdoc.is_dirty and mdoc.hexmap.trees(hexgrid.parse_hex_id(m)) == 4
    los = win.tools.set_tool("los")
    assert not los.measure(a, b).clear
    # a chart edit, not saved: Woods 3 levels high blocks 4411 -> 4607 (clear at 1/2 level)
    panel = win.chart_panel
    assert panel.set_value(panel.chart.keys.index("woods"), "level", "3")
    assert mdoc.chart.row("woods").level.value == 3 and win.ctx.chart is mdoc.chart
    assert not los.measure("4411", "4607").clear
    # a roster edit, not saved
    ctl.roster.set_value("G-MMG-1", "crew", 2)
    assert doc.roster.unit("G-MMG-1").crew == 2 and ctl.validation.problems() == []
    # hot-seat: the game sees the same trees, chart and roster
    hs = ctl.hotseat
    hs.new_game()
    g = hs.game
    assert not g.los(a, b).clear and not g.los("4411", "4607").clear
    assert g.setup.chart.row("woods").level.value == 3 and g.units["G-MMG-1"].crew == 2
    # batch and Watch read the same snapshot (the panels' scenario_file is the controller's)
    assert ctl.playtest.scenario_file == ctl.playable_file and ctl.watch.scenario_file == ctl.playable_file
    seen = []
    import editor.play.game_record as gr
    from dataclasses import asdict
    from core.playtest import GameResult

    def fake_run_games(path, items, ai, rules, options, fixed_setup=None):
        seen.append(path)
        return [asdict(GameResult(i, s, "draw", 1)) for i, s in items]

    monkeypatch.setattr(gr, "run_games", fake_run_games)
    p = ctl.playtest
    p.games.setValue(1)
    p.workers.setValue(1)
    assert p.start()
    qtbot.waitUntil(lambda: p.summary is not None, timeout=20_000)
    st = _setup_for(seen[0], 3)
    assert st.hexmap.trees(hexgrid.parse_hex_id(m)) == 4 and st.chart.row("woods").level.value == 3
    assert st.units["G-MMG-1"].crew == 2 and set(st.units) == set(doc.setup().units)
    rec = GameRecording._start(seen[0], 3, "basic", (), {"german": "random", "russian": "random"})
    assert not rec.game.los(a, b).clear and not rec.game.los("4411", "4607").clear
    # the chart is part of what is saved: the map file carries it, the CLI plays it
    out = mdoc.save(tmp_path / "map.json")
    saved = json.loads(out.read_text())
    assert saved["terrain_chart"]["rows"][panel.chart.keys.index("woods")]["level"]["value"] == 3
    from click.testing import CliRunner
    from cli.main import cli

    res = CliRunner().invoke(cli, ["los", str(out), "4411", "4607"])
    assert res.exit_code == 0 and "BLOCKED" in res.output, res.output
    # "Save chart as...": a chart file the map then names (relative to the map file)
    assert panel.save(tmp_path / "charts" / "my_chart.json") and not panel.dirty
    assert mdoc.map.terrain_chart == str((tmp_path / "charts" / "my_chart.json").resolve())
    mdoc.save()
    assert json.loads(out.read_text())["terrain_chart"] == "charts/my_chart.json"
    again = MapDocument.open(out)
    assert again.chart.row("woods").level.value == 3 and not again.is_dirty


def test_2_unsaved_map_scenario_snapshot_is_consistent(win, tmp_path):
    """The snapshot names its own map and roster: it plays the same from any folder."""
    from core.ironcross.scenario_setup import load_setup

    path = sdoc(win).playable_copy(tmp_path)
    data = json.loads(path.read_text())
    assert data["map"]["file"] == "map.json" and data["counters"] == "counters.json"
    m = json.loads((path.parent / "map.json").read_text())
    assert m["terrain_chart"]["format"] == "ironcross-terrain-chart"     # the chart travels with the map
    _sc, st = load_setup(path)
    assert set(st.units) == set(sdoc(win).setup().units)
    assert sdoc(win).playable_copy(tmp_path).parent != path.parent       # each game its own snapshot


# ------------------------------------------------------------------------------------ item 3
def test_3_less_choice_made_once_visible_changeable_and_kept_by_every_game(win, qtbot, tmp_path):
    from core.playtest import _play, _setup_for

    doc, ctl = sdoc(win), win.scenario_ctl
    oob = ctl.oob
    assert oob.add_entry("german", 0, "Squad B (10) less R PR9")   # Squad B has two R PR9
    ch = next(c for c in doc.random_choices() if c["squad"] == "B")
    assert sorted(ch["among"]) == ["G-B-3", "G-B-4"] and len(ch["out"]) == 1
    out = ch["out"][0]
    kept = next(x for x in ch["among"] if x != out)
    st = doc.setup()
    assert out not in st.units and kept in st.units

    def engine_left_out():
        st = doc.setup()
        men = set()
        for side in ("german", "russian"):
            for g in doc.scenario.side(side).groups:
                for e in g.oob:
                    if e.kind == "squad":
                        men |= {m.id for m in doc.roster.squad(side, e.letter).men if m.id not in st.units}
        return men

    assert oob.left_out_men() == engine_left_out() and out in oob.left_out_men()   # exactly the engine's
    # place the kept man; then change the choice in the OOB tree: he is left out, the other man
    # is kept and takes his place
    zone = sorted(doc.unit_zone(kept))
    assert doc.place(kept, zone[2]) is None
    assert oob.toggle_left_out(kept)
    assert kept not in doc.setup().units and out in doc.setup().units
    assert doc.placement[out].hex == zone[2] and kept not in doc.placement
    assert oob.left_out_men() == engine_left_out() and kept in oob.left_out_men()
    assert doc.setup_problems() == []
    doc.undo_stack.undo()
    assert out not in doc.setup().units and doc.placement[kept].hex == zone[2]
    doc.undo_stack.redo()
    # every game that uses the designer's set-up leaves out the same man; the placed man exists
    fixed = ctl.designers_setup()
    assert fixed["left_out"] == doc.effective_left_out() and kept in fixed["left_out"]
    path = ctl.playable_file(str(tmp_path))
    for seed in range(6):
        s = _setup_for(str(path), seed, fixed)
        assert set(s.units) == set(doc.setup().units)
    res, payload = _play(str(path), 0, 5, {"german": "random", "russian": "random"}, "basic", (), True, 120, fixed)
    placed = {e["unit"]: e["hex"] for e in payload["events"] if e["kind"] == "placed"}
    assert placed[out] == zone[2]
    assert any(e["kind"] == "pre_game_choice" and f"{kept} left out, chosen in the designer's set-up" in e["text"]
               for e in payload["events"])
    # stored with the designer's set-up and read back
    saved = doc.save(tmp_path / "s1.json")
    assert json.loads(placement_path(saved).read_text())["left_out"] == [kept]
    again = ScenarioDocument.open(saved)
    assert kept not in again.setup().units and again.placement[out].hex == zone[2]


# ------------------------------------------------------------------------------------ item 4
def test_4_stale_placements_are_listed_and_refused_by_the_batch(win, qtbot):
    doc, ctl = sdoc(win), win.scenario_ctl
    st = doc.setup()
    uid = st.deployments[0].units[0]
    zone = sorted(doc.unit_zone(uid))
    assert doc.place(uid, zone[0]) is None and ctl.validation.problems() == []
    # the zone changes: the placement is now outside it
    win.scenario_ctl.regions.select(SETUP_ZONE)
    t = win.tools.set_tool("region")
    t.paint([zone[0]], adding=False)
    probs = ctl.validation.problems()
    assert any(f"$.units.{uid}.hex: {zone[0]} is outside the set-up zone" in p for p in probs), probs
    assert "in the set-up" in ctl.validation.summary.text() and ctl.validation.fix_btn.isEnabled()
    # "use this set-up" refuses, saying why; nothing silently ignored
    p = ctl.playtest
    p.use_setup.setChecked(True)
    assert not p.start()
    assert "cannot use this set-up" in p.status.text() and "outside the set-up zone" in p.status.text()
    # clicking the problem shows the unit; "Remove invalid placements" takes it off (one undo step)
    i = next(k for k in range(ctl.validation.list.count()) if uid in ctl.validation.list.item(k).text())
    ctl.validation.list.itemClicked.emit(ctl.validation.list.item(i))
    assert ctl.setup_panel.selected_unit() == uid
    ctl.validation.fix_btn.click()
    assert uid not in doc.placement and ctl.validation.problems() == []
    doc.undo_stack.undo()
    assert doc.placement[uid].hex == zone[0]


def test_4_a_bad_placement_file_is_named_never_a_traceback(win, tmp_path, dialogs):
    doc, ctl = sdoc(win), win.scenario_ctl
    uid = doc.setup().deployments[0].units[0]
    path = doc.save(tmp_path / "s1.json")
    pp = placement_path(path)
    pp.write_text(json.dumps({"format": "ironcross-placement", "version": 1,
                              "units": {"G-ZZ-9": {"hex": "4307"}, uid: {"hex": "9999"}},
                              "mines": {"4307": {"side": "german", "ap": 2}}}))
    assert win.open_file(path)
    assert win.statusBar().currentMessage() == "s1.placement.json: 3 set-up problem(s), listed in the Validation dock"
    probs = ctl.validation.problems()
    assert any("set-up (s1.placement.json) $.units.G-ZZ-9: no unit G-ZZ-9" in p for p in probs), probs
    assert any(f"$.units.{uid}.hex: hex 9999 is not on map" in p for p in probs)
    assert any("$.mines.4307: the german side has no mine factors" in p for p in probs)
    # a file that cannot be read at all: the scenario opens without it, the message names the place
    pp.write_text(json.dumps({"format": "ironcross-placement", "version": 1, "units": {uid: {"hex": 4307}}}))
    n = len(dialogs)
    assert win.open_file(path)
    warn = [c for c in dialogs[n:] if c[0] == "warning"]
    assert warn and f"{pp}: $.units.{uid}.hex" in warn[-1][1][2]
    assert any(f"$.units.{uid}.hex" in p for p in ctl.validation.problems())
    assert sdoc(win).placement == {}


# ------------------------------------------------------------------------------------ item 7
def test_7_errata_refused_on_a_mismatch_unless_confirmed(qtbot, tmp_path, monkeypatch):
    import editor.map.docks as docks

    w = MainWindow(MapDocument(make_map((10, 20), (1, 10), trees={"1204": 2}, levels={"1503": 1}).doc),
                   persist_settings=False)
    qtbot.addWidget(w)
    doc = w.document
    errata = {"format": "ironcross-errata", "version": 1, "title": "Other edition", "source": "test",
              "corrections": [
                  {"hex": "1204", "attribute": "trees", "printed": 2, "corrected": 1, "line": "1204 has 1 tree."},
                  {"hex": "1503", "attribute": "level", "printed": 1, "corrected": 2, "line": "1503 is level 2."},
                  {"hex": "1909", "attribute": "trees", "printed": 3, "corrected": 1, "line": "1909 has 1 tree."}]}
    path = tmp_path / "errata.json"
    path.write_text(json.dumps(errata))
    assert w.open_errata(path)
    panel = w.errata_panel
    before = doc.map
    answers = [None]
    asked = []
    monkeypatch.setattr(docks, "confirm_errata_mismatches",
                        lambda parent, mismatches, pending: asked.append([c.hex for c in mismatches]) or answers[0])
    assert "asks first" in panel.apply_button.text()
    assert not panel.apply()                                   # refused: nothing applied
    assert asked == [["1909"]] and doc.map == before and "Nothing applied" in panel.message.text()
    answers[0] = "force"                                       # confirmed, forced (as --force)
    assert panel.apply()
    hm = doc.hexmap
    assert (hm.trees(hexgrid.Hex(12, 4)), hm.level(hexgrid.Hex(15, 3)), hm.trees(hexgrid.Hex(19, 9))) == (1, 2, 1)
    doc.undo_stack.undo()
    assert doc.map == before
    # errata that all match are applied without a question
    errata["corrections"] = errata["corrections"][:2]
    path.write_text(json.dumps(errata))
    assert w.open_errata(path)
    asked.clear()
    assert panel.apply() and asked == []


# ------------------------------------------------------------------------------------ item 8
def _mouse(widget, kind, pos, button=Qt.MouseButton.NoButton, buttons=Qt.MouseButton.NoButton):
    """Send a real mouse event to the view's viewport (QTest.mouseMove does not reach the scene
    on the offscreen platform)."""
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    p = QPointF(pos)
    ev = QMouseEvent(kind, p, widget.mapToGlobal(p), button, buttons, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, ev)


def test_8_the_margin_of_a_map_from_column_00_is_not_a_hex(qtbot, tmp_path):
    from maps.mapfile import save_map

    mp = tmp_path / "edge.json"
    save_map(mp, make_map((0, 8), (1, 8), trees={"0103": 2}).doc)
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    assert w.open_file(mp)
    ctl = w.scenario_ctl
    ctl.new_scenario()
    doc = ctl.doc
    ctl.hotseat.new_game()
    # a point left of column 00 (column -1), and one above row 01
    x, y = hexgrid.centre(hexgrid.Hex(0, 4))
    margins = [QPointF((x - 3) * SCENE_PER_X, y * SCENE_PER_Y), QPointF(x * SCENE_PER_X, (y - 9) * SCENE_PER_Y)]
    assert hexgrid.point_to_hex(x - 3, y).col == -1
    map_before, sc_before = w.document.map, doc.scenario
    vp = w.view.viewport()
    for name in list(w.tools.tools):
        w.tools.set_tool(name)
        for pt in margins:
            w.view.centerOn(pt)
            pos = w.view.mapFromScene(pt)
            assert vp.rect().contains(pos)
            _mouse(vp, QEvent.Type.MouseMove, pos)
            assert w.hex_label.text() == "off the map", name
            for button in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
                _mouse(vp, QEvent.Type.MouseButtonPress, pos, button, button)
                _mouse(vp, QEvent.Type.MouseMove, pos + QPoint(3, 2), Qt.MouseButton.NoButton, button)
                _mouse(vp, QEvent.Type.MouseButtonRelease, pos + QPoint(3, 2), button)
            _mouse(vp, QEvent.Type.MouseButtonDblClick, pos, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
            _mouse(vp, QEvent.Type.MouseButtonRelease, pos, Qt.MouseButton.LeftButton)
    assert w.document.map == map_before and doc.scenario == sc_before   # nothing happened there
    # a tool called with such an event directly also ignores it
    place = w.tools.set_tool("place")
    ev = ToolEvent.at_scene(margins[0])
    place.press(ev)
    assert place.status == "off the map"
    # on the map the status bar describes the hex again
    w.view.centerOn(QPointF(x * SCENE_PER_X, y * SCENE_PER_Y))
    _mouse(vp, QEvent.Type.MouseMove, w.view.mapFromScene(QPointF(x * SCENE_PER_X, y * SCENE_PER_Y)))
    assert w.hex_label.text().startswith("0004")
    ctl.shutdown()
    doc.undo_stack.setClean()
    w.document.undo_stack.setClean()
