"""The editor's tabletop tools (docs/tabletop.md): the
measuring tape (inches at the scenario's scale and hexes; hexes only for a hex system), units of a
measured scenario set up at free positions with a facing (drag, handle, keys, snapping), each
placement an undo step written into the file, refusals explained; the movement reach drawn in
the set-up and the Hot-seat. Headless (pytest-qt, offscreen); generic: only the rule-system
boundary is used."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPointF, Qt  # noqa: E402

from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y  # noqa: E402
from editor.drawing.pieces import PiecesItem, map_point  # noqa: E402
from editor.tabletop import tools as T  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S20 = ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
L = Qt.MouseButton.LeftButton


@pytest.fixture(autouse=True)
def tmp_settings(dialogs):
    return dialogs


def copy_20mm(tmp_path) -> Path:
    """The shipped 20 mm scenario copied beside the test (its map named by absolute path)."""
    data = json.loads(S20.read_text())
    data["map"]["file"] = str((S20.parent / data["map"]["file"]).resolve())
    p = tmp_path / "village.json"
    p.write_text(json.dumps(data, indent=2))
    return p


@pytest.fixture
def win(qtbot, tmp_path):
    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    w.s20 = copy_20mm(tmp_path)
    assert w.open_file(w.s20)
    w.set_mode("scenario")
    yield w
    w.scenario_ctl.shutdown()


def ev_at(pt, **kw) -> ToolEvent:
    """A tool event at ``pt`` (map units)."""
    return ToolEvent.at_scene(QPointF(pt[0] * SCENE_PER_X, pt[1] * SCENE_PER_Y), **kw)


def drag(tool, a, b) -> None:
    tool.press(ev_at(a, button=L, buttons=L))
    tool.move(ev_at(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), buttons=L))
    tool.move(ev_at(b, buttons=L))
    tool.release(ev_at(b, button=L))


def table(win):
    from core.twentymm.system import _setup_game

    return _setup_game(str(win.s20)).table


# ------------------------------------------------------------------------------- pure
def test_tape_reading_in_inches_and_hexes():
    a = (30.0, 20.0)   # hex 1010's centre
    b = (36.0, 20.0)   # two columns right, same Y: 2 hexes across flats... in true scale
    r = T.tape_reading(a, b, 4.0)
    assert r["count"] == 2 and r["hexes"] == pytest.approx(math.sqrt(3.0), abs=1e-6)   # 6 X units = sqrt 3 hexes
    assert r["inches"] == pytest.approx(4 * math.sqrt(3.0))
    r = T.tape_reading((30.0, 20.0), (30.0, 26.0), None)   # three hexes down the column
    assert (r["count"], r["hexes"], r["inches"]) == (3, pytest.approx(3.0), None)
    assert T.tape_text(r) == "3 hexes"
    assert T.tape_text(T.tape_reading((30.0, 20.0), (30.0, 26.0), 4.0)).startswith("12.0 in (3.00 hexes")


def test_snapping_to_hex_centres_and_the_half_inch_grid():
    assert T.snap_point((31.2, 20.7), "hex", 4.0) == (30.0, 20.0)
    x, y = T.snap_point((31.2, 20.7), "half-inch", 4.0)
    kx, ky = 4.0 / (2 * math.sqrt(3.0)), 2.0
    assert (x * kx * 2) == pytest.approx(round(x * kx * 2)) and (y * ky * 2) == pytest.approx(round(y * ky * 2))
    assert abs(x * kx - 31.2 * kx) <= 0.25 + 1e-9 and abs(y * ky - 20.7 * ky) <= 0.25 + 1e-9
    assert T.snap_point((31.2, 20.7), "off", 4.0) == (31.2, 20.7)


def test_scenario_json_text_keeps_a_unit_per_line_and_round_trips():
    data = json.loads(S20.read_text())
    text = T.scenario_json_text(data)
    assert json.loads(text) == data
    assert sum(1 for line in text.splitlines() if line.lstrip().startswith('{"id"')) == len(data["german"]) + len(data["russian"])


# ------------------------------------------------------------------------------- the tape
def test_tape_measures_inches_at_the_20mm_scenarios_scale(win):
    tool = win.tools.set_tool("tape")
    a, b = (420.0, 40.0), (426.0, 40.0)
    drag(tool, a, b)
    assert tool.reading["inches"] == pytest.approx(4 * math.sqrt(3.0), abs=1e-6)
    assert "6.9 in" in win.tool_label.text() and "hexes" in win.tool_label.text()
    assert len(tool._items) == 2   # the tape (with its inch ticks) and its label
    assert tool.key(Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier) and tool._items == []


def test_tape_counts_hexes_only_for_a_hex_system(qtbot, tmp_path):
    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.open_file(S1)
    w.set_mode("scenario")
    tool = w.tools.set_tool("tape")
    drag(tool, (30.0, 20.0), (30.0, 26.0))
    assert tool.reading["inches"] is None and w.tool_label.text() == "Tape: 3 hexes"
    w.scenario_ctl.shutdown()


# ------------------------------------------------------------------------------- set-up
def test_20mm_setup_is_drawn_where_the_units_stand_when_the_scenario_opens(win):
    items = win.scenario_ctl.overlay.layers["units"]
    assert len(items) == 1 and isinstance(items[0], PiecesItem)
    assert {p.uid for p in items[0].pieces} >= {"G-T1", "R-AT", "R-1"}


def test_setup_tool_drag_places_a_unit_in_the_scenario_as_one_undo_step_saved_by_save(win):
    tool = win.tools.set_tool("tableplace")
    assert win.scenario_ctl.overlay.layers["units"] == []   # the tool draws the set-up itself
    t = table(win)
    start = t.from_table(150.0, 56.0)   # G-1
    to = t.from_table(152.0, 50.0)
    on_disk = win.s20.read_text()
    drag(tool, start, to)
    data = win.scenario_ctl.doc.data   # one truth: the scenario in memory (form, games, Save)
    assert win.s20.read_text() == on_disk and win.scenario_ctl.doc.is_dirty   # saved only by Save
    g1 = next(u for u in data["german"] if u["id"] == "G-1")
    assert g1["at"] == pytest.approx([152.0, 50.0], abs=0.01) and g1["facing"] == 250   # moved, not turned
    doc = win.scenario_ctl.doc
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "set up G-1"
    assert "G-1 set up at (152.0, 50.0) in facing" in win.tool_label.text()
    # the selected piece is drawn with its arc, its reach and its handle
    kinds = [type(i).__name__ for i in tool._items]
    assert kinds.count("PiecesItem") == 1 and tool._items[0].selected == "G-1" and len(tool._items) == 3
    doc.undo_stack.undo()
    g1 = next(u for u in win.scenario_ctl.doc.data["german"] if u["id"] == "G-1")
    assert g1["at"] == [150.0, 56.0]
    assert t.to_table(*tool.piece("G-1").point) == pytest.approx((150.0, 56.0), abs=1e-3)   # redrawn as undone
    doc.undo_stack.redo()
    assert next(u for u in doc.data["german"] if u["id"] == "G-1")["at"] == pytest.approx([152.0, 50.0], abs=0.01)
    doc.save()   # atomic; the file now holds the placement
    g1 = next(u for u in json.loads(win.s20.read_text())["german"] if u["id"] == "G-1")
    assert g1["at"] == pytest.approx([152.0, 50.0], abs=0.01) and not doc.is_dirty


def test_setup_tool_refuses_a_position_the_rules_refuse_and_says_why(win):
    tool = win.tools.set_tool("tableplace")
    t = table(win)
    before = win.s20.read_text()
    a, b = t.from_table(166.0, 60.0), t.from_table(142.03, 28.0)   # the Pz IV into the west house
    tool.press(ev_at(a, button=L, buttons=L))
    tool.move(ev_at(b, buttons=L))   # while dragging: drawn there, marked refused, the reason shown
    assert "refused: Vehicle Movement" in win.tool_label.text()
    assert "refused" in next(p for p in tool._items[0].pieces if p.uid == "G-T1").status
    tool.release(ev_at(b, button=L))
    assert win.s20.read_text() == before and win.scenario_ctl.doc.undo_stack.count() == 0
    assert "G-T1 not placed: Vehicle Movement: a vehicle cannot stand in a building" in win.tool_label.text()


def test_setup_tool_turns_a_unit_by_its_handle_and_by_keys_with_snapping(win):
    tool = win.tools.set_tool("tableplace")
    t = table(win)
    g1 = t.from_table(150.0, 56.0)
    tool.press(ev_at(g1, button=L, buttons=L))
    tool.release(ev_at(g1, button=L))
    assert tool.selected == "G-1"
    pc = tool.piece("G-1")
    h = tool.handle_scene(pc.point, pc.bearing)
    tool.set_snap("hex")   # with snapping on, facings snap to 15 degrees
    tool.press(ToolEvent.at_scene(h, button=L, buttons=L))
    east = map_point(pc.point) + QPointF(100.0, 3.0)   # drag the handle to the right: bearing ~90
    tool.move(ToolEvent.at_scene(east, buttons=L))
    tool.release(ToolEvent.at_scene(east, button=L))
    spec = next(u for u in win.scenario_ctl.doc.data["german"] if u["id"] == "G-1")
    assert spec["facing"] == 0.0 and spec["at"] == [150.0, 56.0]   # 90 clockwise from the top = +x = 0
    assert tool.key(Qt.Key.Key_BracketRight, Qt.KeyboardModifier.NoModifier)
    spec = next(u for u in win.scenario_ctl.doc.data["german"] if u["id"] == "G-1")
    assert spec["facing"] == 15.0 and win.scenario_ctl.doc.undo_stack.count() == 2


def test_setup_tool_snaps_a_dropped_unit_to_a_hex_centre(win):
    tool = win.tools.set_tool("tableplace")
    tool.set_snap("hex")
    t = table(win)
    drag(tool, t.from_table(150.0, 56.0), t.from_table(151.0, 49.3))
    spec = next(u for u in win.scenario_ctl.doc.data["german"] if u["id"] == "G-1")
    centre = t.hex_centre(t.hex_at((151.0, 49.3)))
    assert spec["at"] == pytest.approx(list(centre), abs=0.01)
    with pytest.raises(ValueError, match="unknown snapping"):
        tool.set_snap("grid")


def test_setup_tool_preview_shows_the_piece_and_its_reach_where_it_would_stand(win):
    tool = win.tools.set_tool("tableplace")
    t = table(win)
    a, b = t.from_table(150.0, 56.0), t.from_table(150.0, 50.0)
    tool.press(ev_at(a, button=L, buttons=L))
    tool.move(ev_at(b, buttons=L))
    assert "release to set it up" in win.tool_label.text()
    piece = next(p for p in tool._items[0].pieces if p.uid == "G-1")
    assert "placing" in piece.status and t.to_table(*piece.point) == pytest.approx((150.0, 50.0), abs=0.01)
    reach = tool._items[1].path().boundingRect()
    assert reach.contains(map_point(b)) and not reach.contains(map_point(a))   # 6 inches away: out of a 3-inch reach
    assert win.scenario_ctl.doc.undo_stack.count() == 0   # nothing written before the release


def test_setup_tool_draws_a_scenario_opened_while_it_is_the_current_tool(win, tmp_path):
    tool = win.tools.set_tool("tableplace")
    tool.press(ev_at(table(win).from_table(150.0, 56.0), button=L, buttons=L))
    assert tool.selected == "G-1"
    other = copy_20mm(tmp_path / "other") if (tmp_path / "other").mkdir() is None else None
    assert win.open_file(other)
    assert tool.selected is None and tool.pieces and tool._items   # the new scenario's set-up, drawn
    assert win.scenario_ctl.doc.path == other


def test_setup_tool_options_offer_the_snapping_modes(win):
    from PySide6.QtWidgets import QRadioButton

    tool = win.tools.set_tool("tableplace")
    buttons = tool.options_widget().findChildren(QRadioButton)
    assert [b.text() for b in buttons] == ["No snapping", "Snap to hex centres", "Snap to a 0.5-inch grid"]
    buttons[2].setChecked(True)
    assert tool.snap == "half-inch"


# ------------------------------------------------------------------------------- Hot-seat
def test_hotseat_draws_the_selected_pieces_movement_reach(win):
    from editor.drawing.pieces import _path_item  # noqa: F401 - the reach is a path item

    win.set_mode("play")
    ctl = win.scenario_ctl
    hs = ctl.hotseat
    ctl.docks["hotseat"].raise_()
    assert hs.new_game()
    t = hs.game.table
    p = t.from_table(*hs.game.units["G-1"].pos)
    assert "selected G-1" in hs.click(t.hex_at(hs.game.units["G-1"].pos).id, p)
    ring = hs.system.move_reach(hs.game, "G-1")
    items = ctl.overlay.layers["hotseat"]
    reach = [i for i in items if hasattr(i, "path") and i.path().elementCount() == len(ring) + 1]
    assert len(ring) == 36 and reach
    assert reach[0].path().boundingRect().contains(map_point(p))


def test_tape_escape_mid_drag_clears_the_tape_and_ends_the_drag(win):
    tool = win.tools.set_tool("tape")
    a, b = (420.0, 40.0), (426.0, 40.0)
    tool.press(ev_at(a, button=L, buttons=L))
    tool.move(ev_at(b, buttons=L))
    assert tool.reading is not None and len(tool._items) == 2
    assert tool.key(Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    assert (tool.start, tool.end, tool.reading, tool._items, tool.status) == (None, None, None, [], tool.help)
    tool.move(ev_at((430.0, 40.0), buttons=L))   # the rest of the drag measures nothing
    tool.release(ev_at((430.0, 40.0), button=L))
    assert tool.reading is None and tool._items == []


def test_setup_tool_options_start_with_its_help(win):
    from PySide6.QtWidgets import QLabel

    tool = win.tools.set_tool("tableplace")
    labels = tool.options_widget().findChildren(QLabel)
    assert labels[0].text() == tool.help and labels[0].wordWrap()
