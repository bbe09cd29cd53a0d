"""A scenario is shown and edited on its own map only, and a resize says what it changes in it.

- opening another map while a scenario is open asks: keep the scenario (its overlay hidden, the
  Scenario mode says which map it needs, with a button to reopen it), close it (Save / Discard /
  Cancel for unsaved edits) or cancel;
- *Edit > Resize map* with a scenario open on the map says first what the resize changes in it
  (sections that grow, zones on a map edge that move, placed units and the north indicator left
  off the map) and lets the designer keep the sections where they are on the ground, extend
  them, or cancel.

Headless (pytest-qt, QT_QPA_PLATFORM=offscreen); the question boxes are patched (conftest.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor.drawing import widgets  # noqa: E402
from editor.scenario import own_map, resize_impact  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
MAPSHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"

from tests.editor.conftest import opened_window  # noqa: E402

pytestmark = pytest.mark.usefixtures("dialogs")  # tests/editor/conftest.py


@pytest.fixture
def win(qtbot):
    yield from opened_window(qtbot, S1, (1366, 768))


@pytest.fixture
def other_map(tmp_path) -> Path:
    """A map file that is not the scenario's (a copy of the mapsheet under another name)."""
    p = tmp_path / "another_map.json"
    shutil.copyfile(MAPSHEET, p)
    return p


def answer(monkeypatch, choice):
    """Answer the next ask_choice boxes with ``choice`` (None: Cancel); returns the questions asked."""
    asked = []
    monkeypatch.setattr(widgets, "ask_choice", lambda parent, title, text, choices, detail="": (
        asked.append((title, text, list(choices), detail)) or choice))
    return asked


def overlay_drawn(ctl) -> int:
    return sum(1 for items in ctl.overlay.layers.values() for it in items if it.isVisible())


def test_4_another_map_kept_scenario_hidden_with_a_banner_and_reopened(win, qtbot, other_map, monkeypatch):
    ctl = win.scenario_ctl
    qtbot.waitUntil(lambda: overlay_drawn(ctl) > 0)
    asked = answer(monkeypatch, own_map.KEEP_SCENARIO)
    assert win.open_file(other_map)
    assert len(asked) == 1 and "iron_cross_mapsheet_corrected.json" in asked[0][1]
    assert Path(win.document.path) == other_map and ctl.doc is not None
    assert not ctl.on_own_map()
    assert ctl.doc.map_document is None   # resolved and checked on the file it names, never on this map
    win.set_mode("scenario")
    assert overlay_drawn(ctl) == 0   # nothing of the scenario over a map it does not name
    ctl.redraw("scenario")
    assert overlay_drawn(ctl) == 0
    assert ctl.map_banner.isVisible()
    assert "iron_cross_mapsheet_corrected.json" in ctl.map_banner.label.text()
    assert "another_map.json" in ctl.map_banner.label.text()
    win.set_mode("map")
    assert not ctl.map_banner.isVisible()   # the Map mode edits the map shown: no banner
    win.set_mode("play")
    assert ctl.map_banner.isVisible()
    ctl.map_banner.reopen.click()   # back to the scenario's own map: drawn again, no question
    assert len(asked) == 1
    assert ctl.on_own_map() and Path(win.document.path).resolve() == MAPSHEET.resolve()
    assert not ctl.map_banner.isVisible()
    assert ctl.doc.map_document is win.document
    qtbot.waitUntil(lambda: overlay_drawn(ctl) > 0)


def test_4_another_map_closes_the_scenario_after_save_discard_cancel(win, qtbot, other_map, monkeypatch, dialogs):
    ctl = win.scenario_ctl
    ctl.doc.edit("Title", lambda d: d.__setitem__("title", "Edited"))
    assert ctl.doc.is_dirty
    answer(monkeypatch, own_map.CLOSE_SCENARIO)
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))
    assert not win.open_file(other_map)   # Cancel on "Save changes?": nothing closed, nothing opened
    assert ctl.doc is not None and Path(win.document.path).resolve() == MAPSHEET.resolve()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    assert win.open_file(other_map)
    assert ctl.doc is None and win.mode == "map" and Path(win.document.path) == other_map
    assert not win.mode_actions["scenario"].isEnabled() and not ctl.close_action.isEnabled()
    assert overlay_drawn(ctl) == 0 and not ctl.map_banner.isVisible()
    assert win.undo_group.activeStack() is win.document.undo_stack


def test_4_cancel_keeps_both_and_the_own_map_is_not_asked(win, other_map, monkeypatch):
    ctl = win.scenario_ctl
    asked = answer(monkeypatch, None)
    assert not win.open_file(other_map)
    assert ctl.doc is not None and Path(win.document.path).resolve() == MAPSHEET.resolve()
    assert win.open_file(MAPSHEET)   # the scenario's own map: no question
    assert len(asked) == 1 and ctl.on_own_map()


def test_4_close_scenario_action(win, qtbot):
    ctl = win.scenario_ctl
    assert ctl.close_action.isEnabled() and ctl.close_action.text() == "Close scenario"
    ctl.close_action.trigger()
    assert ctl.doc is None and win.mode == "map"
    assert win.open_file(S1)   # and it opens again
    assert ctl.doc is not None and win.mode == "scenario" and ctl.close_action.isEnabled()


# ------------------------------------------------------------------------------------ resize
WEST_ZONE = ("german", "groups", 0, "setup", "region")


def on_map_1_west_edge(w):
    """The scenario played on Map 1 (the sheet's west section), north up, the first German group
    set up on the west map edge, one of its units placed in 1005 (column 10, the west edge)."""
    doc = w.scenario_ctl.doc

    def change(d):
        d["map"]["sections"] = ["Map 1"]
        d["north"] = {"hex": "1003", "points_to": "1002"}
        d["german"]["groups"][0]["setup"]["region"] = {"kind": "map_edge", "direction": "west"}

    doc.edit("West edge", change)
    zone = dict(doc.regions())[WEST_ZONE]
    hexes, err = doc.resolve(zone)
    assert err is None and "1005" in hexes and all(h.startswith("10") for h in hexes)
    uid = next(u for u in sorted(doc.setup().units) if (doc.unit_zone(u) or set()) >= {"1005"})
    assert doc.place(uid, "1005") is None
    return doc, zone, hexes, uid


def test_13_adding_a_west_column_asks_keep_or_extend(win, monkeypatch):
    doc, zone, hexes, _uid = on_map_1_west_edge(win)
    asked = answer(monkeypatch, None)
    assert not win.resize_map(left=1)   # Cancel: nothing changes
    title, text, choices, _ = asked[0]
    assert choices == [resize_impact.KEEP, resize_impact.EXTEND]
    assert "map section Map 1 grows: columns 10-30 become 09-30" in text
    assert "German set-up zone" in text and "moves" in text
    assert win.document.map.extent.first_column == 10 and win.document.undo_stack.count() == 0
    answer(monkeypatch, resize_impact.KEEP)
    assert win.resize_map(left=1)
    assert win.document.map.extent.first_column == 9
    assert next(s for s in win.document.map.sections if s.name == "Map 1").first_column == 10
    assert doc.resolve(zone) == (hexes, None)   # the zone stays where it is on the ground
    win.document.undo_stack.undo()
    answer(monkeypatch, resize_impact.EXTEND)
    assert win.resize_map(left=1)
    assert next(s for s in win.document.map.sections if s.name == "Map 1").first_column == 9
    moved, _ = doc.resolve(zone)
    assert moved and all(h.startswith("09") for h in moved)   # the edge zone follows the map's edge


def test_13_removing_a_column_names_the_placed_unit_and_the_north_indicator_first(win, monkeypatch):
    doc, _zone, _hexes, uid = on_map_1_west_edge(win)
    asked = answer(monkeypatch, None)
    assert not win.resize_map(left=-1)
    text = asked[0][1]
    assert f"placed unit {uid} in 1005 is left off the map" in text
    assert "the north indicator's hex 1003 is left off the map" in text
    assert "map section Map 1 shrinks: columns 10-30 become 11-30" in text
    assert asked[0][2] == [resize_impact.RESIZE]   # keeping or extending the sections is the same here
    assert win.document.map.extent.first_column == 10
    answer(monkeypatch, resize_impact.RESIZE)
    assert win.resize_map(left=-1) and win.document.map.extent.first_column == 11


def test_13_a_resize_that_leaves_the_scenario_alone_asks_nothing(win, monkeypatch):
    asked = answer(monkeypatch, None)
    assert win.resize_map(right=1)   # scenario 1 plays on Map 2; a column added east of Map 3 changes none of it
    assert win.document.map.extent.last_column == 71 and asked == []
    assert not win.resize_map(bottom=1)   # its north is down the sheet: a row added there moves its north edge
    assert len(asked) == 1 and "moves" in asked[0][1]
    win.scenario_ctl.close_scenario()
    assert win.resize_map(left=1) and len(asked) == 1   # no scenario open: nothing to say
