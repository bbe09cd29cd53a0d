"""One truth for the scenarios of the other rule systems (Red Flags, 20 mm): while the map window
shows the scenario's map file, the scenario document reads that live map
(``SystemScenarioDocument.bind_map``): the system's validation checks it, and the games the editor
starts (the snapshot of ``playable_copy`` read by the batch and the Watch, the Hot-seat) play it,
unsaved map edits included, while the map file on disk stays as saved; the panel says the map has
unsaved edits; unbound (another map shown, the scenario closed), the map file as saved again.
Headless (pytest-qt, offscreen)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from editor.drawing.canvas import ToolEvent  # noqa: E402
from maps import hexgrid  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RF = ROOT / "scenarios" / "data" / "redflags_1_hill_j.json"
S20 = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"


@pytest.fixture(autouse=True)
def tmp_settings(dialogs):
    return dialogs


def _copy(tmp_path: Path, src: Path) -> Path:
    """The scenario and the shipped maps copied under ``tmp_path`` (the same relative reference)."""
    folder = tmp_path / "scenarios" / "data"
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "maps" / "data", tmp_path / "maps" / "data",
                    ignore=shutil.ignore_patterns("*.png", "*.pdf"))
    dst = folder / src.name
    shutil.copy(src, dst)
    return dst


def _window(qtbot, path: Path):
    from editor.main_window import MainWindow

    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    assert w.open_file(path)
    return w


def _opened(qtbot, tmp_path, src: Path):
    """The main window on a copy of the scenario ``src``; closed afterwards without asking to save."""
    w = _window(qtbot, _copy(tmp_path, src))
    yield w
    w.scenario_ctl.shutdown()
    w.document.undo_stack.setClean()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()


@pytest.fixture
def rfwin(qtbot, tmp_path):
    yield from _opened(qtbot, tmp_path, RF)


@pytest.fixture
def win20(qtbot, tmp_path):
    yield from _opened(qtbot, tmp_path, S20)


def _open_hex(hm, area) -> str:
    """A hex of the playing area, not on its edge, that is open ground with open neighbours
    (no trees, building, marsh, road, gully; level 0)."""
    ids = {h.id for h in area}

    def open_(h):
        return h.id in ids and hm.trees(h) == 0 and not hm.is_building_hex(h) and not hm.is_marsh(h) \
            and not hm.is_road(h) and not hm.is_gully(h) and hm.level(h) == 0

    for h in sorted(area, key=lambda x: (x.col, x.row)):
        if open_(h) and all(open_(n) for n in hexgrid.neighbours(h)):
            return h.id
    raise AssertionError("no open hex in the playing area")


def _paint_woods(w, hid: str) -> None:
    """Four tree symbols painted in ``hid`` with the Trees tool: a map edit, not saved."""
    t = w.tools.set_tool("trees")
    t.count = 4
    t.press(ToolEvent.at_hex(hid))
    t.release(ToolEvent.at_hex(hid))
    assert w.document.is_dirty and w.document.hexmap.trees(hexgrid.parse_hex_id(hid)) == 4


def _note(ctl) -> str:
    return ctl.system_panel.note.text()


# ------------------------------------------------------------------------------------ Red Flags
def test_redflags_editor_game_plays_unsaved_map_edits(rfwin, qtbot, tmp_path):
    from core.redflags.scenario import load_setup
    from core.redflags.terrain import Terrain
    from editor.play.game_record import GameRecording

    ctl, mdoc = rfwin.scenario_ctl, rfwin.document
    doc = ctl.doc
    assert doc.map_document is mdoc                       # bound: the map window shows its map file
    map_file = doc.map_file()
    saved = map_file.read_text()
    hid = _open_hex(doc.hexmap, doc.context.area)
    h = hexgrid.parse_hex_id(hid)
    assert Terrain(doc.hexmap).feature(hid) == "clear"
    _paint_woods(rfwin, hid)
    assert doc.hexmap.trees(h) == 4 and doc.map_unsaved     # the document reads the live map
    # the panel says that the map has unsaved edits and that the games play them
    qtbot.waitUntil(lambda: "map has unsaved edits" in _note(ctl), timeout=5000)
    assert "unsaved edits" in ctl.system_panel.info.text()
    # the snapshot the batch and the Watch read: the live map beside the scenario, chart embedded
    played = Path(ctl.playable_file(str(tmp_path / "games")))
    data = json.loads(played.read_text())
    assert data["map"]["file"] == "map.json" and data["map"]["sections"] == ["Map 2"]
    m = json.loads((played.parent / "map.json").read_text())
    assert m["terrain_chart"]["format"] == "ironcross-terrain-chart"
    assert next(r for r in m["hexes"] if r["id"] == hid)["trees"] == 4
    # Red Flags reads the map with its embedded chart as it reads the saved file: woods at the hex
    st = load_setup(played)
    assert st.hexmap.trees(h) == 4 and Terrain(st.hexmap, st.area).feature(hid) == "woods"
    rec = GameRecording.play(str(played), 5, {"german": "random", "russian": "random"}, max_actions=5)
    assert rec.game.terrain.feature(hid) == "woods"
    # the Hot-seat plays it too
    assert ctl.hotseat.new_game()
    assert ctl.hotseat.game.terrain.feature(hid) == "woods"
    # the map file on disk is as saved
    assert map_file.read_text() == saved


def test_redflags_validation_reads_the_live_map(rfwin, qtbot):
    from editor.map.commands import ReplaceMapCommand
    from editor.scenario.system.scenario import SystemScenarioDocument

    ctl, mdoc = rfwin.scenario_ctl, rfwin.document
    doc, panel = ctl.doc, ctl.system_panel
    assert doc.check()[1] == []
    # Map 2 renamed in the map window, not saved: the scenario's section is gone from the live map
    new = mdoc.map.model_copy(update={"sections": [s.model_copy(update={"name": "Map B"}) if s.name == "Map 2" else s
                                                   for s in mdoc.map.sections]})
    mdoc.undo_stack.push(ReplaceMapCommand(mdoc, new, "Rename Map 2"))
    _summary, problems, _w = doc.check()
    assert [(p.path, "no section 'Map 2'" in p.message) for p in problems] == [("$.map.sections[0]", True)]
    qtbot.waitUntil(lambda: any("no section 'Map 2'" in panel.problems.item(i).text()
                                for i in range(panel.problems.count())), timeout=5000)
    # the file as saved still has Map 2 (an unbound document of the same file: OK)
    alone = SystemScenarioDocument.open(doc.path)
    assert alone.map_document is None and alone.check()[1] == []
    # undo of the map edit: the validation follows back
    mdoc.undo_stack.undo()
    assert doc.check()[1] == []
    qtbot.waitUntil(lambda: panel.problems.item(0).text().startswith("OK - "), timeout=5000)


def test_redflags_unbinding_returns_to_the_saved_map_file(rfwin, qtbot, tmp_path):
    from editor.map.document import MapDocument, new_map

    ctl, mdoc = rfwin.scenario_ctl, rfwin.document
    doc = ctl.doc
    hid = _open_hex(doc.hexmap, doc.context.area)
    h = hexgrid.parse_hex_id(hid)
    _paint_woods(rfwin, hid)
    assert doc.hexmap.trees(h) == 4
    # the window shows another map: the scenario reads its map file as saved again
    mdoc.undo_stack.setClean()   # (nothing asks to save it here)
    rfwin.set_document(MapDocument(new_map(), None))
    assert doc.map_document is None and not doc.map_unsaved
    assert doc.hexmap.trees(h) == 0
    played = Path(ctl.playable_file(str(tmp_path / "games")))
    data = json.loads(played.read_text())
    assert Path(data["map"]["file"]) == doc.map_file() and not (played.parent / "map.json").exists()
    qtbot.waitUntil(lambda: "unsaved edits" not in _note(ctl), timeout=5000)
    # the map file shown again: bound again, nothing unsaved
    rfwin.set_document(MapDocument.open(doc.map_file()))
    assert doc.map_document is rfwin.document and not doc.map_unsaved
    # another scenario opened (the first one closed): the first one is unbound
    first = doc
    other = ctl.open(doc.path)
    assert other.map_document is rfwin.document and first.map_document is None
    # the window closes: unbound
    ctl.shutdown()
    assert other.map_document is None


def test_redflags_map_saved_as_another_file_is_named_by_the_scenario(rfwin, tmp_path):
    ctl, mdoc = rfwin.scenario_ctl, rfwin.document
    doc = ctl.doc
    hid = _open_hex(doc.hexmap, doc.context.area)
    _paint_woods(rfwin, hid)
    out = mdoc.save(tmp_path / "scenarios" / "hill.json")
    # the scenario names the new file (relative to the scenario, an undoable edit) and stays bound
    assert doc.data["map"]["file"] == "../hill.json" and doc.map_file() == out.resolve()
    assert doc.map_document is mdoc and not doc.map_unsaved and doc.is_dirty
    assert doc.hexmap.trees(hexgrid.parse_hex_id(hid)) == 4
    doc.undo_stack.undo()
    assert doc.map_file().name == "iron_cross_mapsheet_corrected.json" and doc.map_document is None


# ------------------------------------------------------------------------------------ 20 mm
def test_twentymm_editor_game_plays_unsaved_map_edits(win20, qtbot, tmp_path):
    from core.twentymm.scenario import load_setup

    ctl = win20.scenario_ctl
    doc = ctl.doc
    assert doc.map_document is win20.document
    map_file = doc.map_file()
    saved = map_file.read_text()
    hid = _open_hex(doc.hexmap, doc.context.area)
    before = load_setup(doc.path).table
    assert not before.terrain_at(before.hex_centre(hid)).woods
    _paint_woods(win20, hid)
    qtbot.waitUntil(lambda: "map has unsaved edits" in _note(ctl), timeout=5000)
    played = Path(ctl.playable_file(str(tmp_path / "games")))
    data = json.loads(played.read_text())
    assert data["map"]["file"] == "map.json"
    assert json.loads((played.parent / "map.json").read_text())["terrain_chart"]["format"] == "ironcross-terrain-chart"
    # the 20 mm table of the game reads woods at the hex (cover for a man standing there)
    table = load_setup(played).table
    t = table.terrain_at(table.hex_centre(hid))
    assert t.woods and t.cover == "soft"
    assert ctl.hotseat.new_game()
    g = ctl.hotseat.game
    assert g.table.terrain_at(g.table.hex_centre(hid)).woods
    assert map_file.read_text() == saved   # the file on disk as saved
    # the scenario file as saved, read again, still plays the saved map
    again = load_setup(doc.path).table
    assert not again.terrain_at(again.hex_centre(hid)).woods


def test_twentymm_validation_reads_the_live_map(win20, qtbot):
    """A unit set up hidden in the open is a problem (Setup: only troops in cover begin hidden);
    woods painted at its hex in the map window, not saved, give it cover: the problem goes."""
    from editor.scenario.system.form import DataCommand

    ctl = win20.scenario_ctl
    doc, panel = ctl.doc, ctl.system_panel
    hid = _open_hex(doc.hexmap, doc.context.area)
    i = next(k for k, u in enumerate(doc.data["russian"]) if u["id"] == "R-M")
    after = copy.deepcopy(doc.data)
    after["russian"][i].pop("at", None)
    after["russian"][i].update({"hex": hid, "hidden": True})
    doc.push(DataCommand(doc, "R-M hidden in the open", copy.deepcopy(doc.data), after))
    assert [p.path for p in doc.check()[1]] == [f"$.russian[{i}].hidden"]
    _paint_woods(win20, hid)
    assert doc.check()[1] == []
    qtbot.waitUntil(lambda: panel.problems.count() > 0 and panel.problems.item(0).text().startswith("OK - "),
                    timeout=5000)
    win20.document.undo_stack.undo()   # the trees taken away again: the problem is back
    assert [p.path for p in doc.check()[1]] == [f"$.russian[{i}].hidden"]


def test_twentymm_setup_tool_reads_the_live_map(win20):
    """The Set-up tool's refusals read the map the games play: a hidden unit may not set up in the
    open (Setup), and may once woods are painted there, not saved; the scenario in memory still
    names its own map file."""
    from core.twentymm.scenario import load_setup

    ctl = win20.scenario_ctl
    doc = ctl.doc
    ref = doc.data["map"]["file"]
    hid = _open_hex(doc.hexmap, doc.context.area)
    t = load_setup(doc.path).table
    at = t.from_table(*t.hex_centre(hid))
    tool = win20.tools.set_tool("tableplace")
    assert not tool.place("R-HQ", at, 90.0)
    assert "only troops in cover may begin the game hidden" in win20.tool_label.text()
    _paint_woods(win20, hid)
    tool = win20.tools.set_tool("tableplace")
    assert tool.place("R-HQ", at, 90.0)
    spec = next(u for u in doc.data["russian"] if u["id"] == "R-HQ")
    assert spec["at"] == pytest.approx(list(t.hex_centre(hid)), abs=0.01) and spec["hidden"]
    assert doc.data["map"]["file"] == ref   # never the live map's temporary file
