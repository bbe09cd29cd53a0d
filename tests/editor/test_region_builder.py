"""The region builder: regions built by choosing a kind, filling its form and
clicking hexes and roads on the map, with the resulting hexes live on the map and their count;
the JSON stays as an Advanced view that round-trips; editing a stored region fills the form;
painting over a relational region asks before freezing it into hexes. Headless (pytest-qt,
offscreen); dialogs answered by the shared ``dialogs`` fixture (tests/editor/conftest.py)."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QDockWidget, QMessageBox, QPushButton, QScrollArea, QToolButton  # noqa: E402

from editor.drawing.canvas import ToolEvent  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.builders.region_kinds import KINDS, convert_region
from editor.scenario.builders.region_builder import RegionEditor, RegionForm
from editor.scenario.builders.region_picking import picker
from editor.drawing.pieces import hex_centre  # noqa: E402
from scenarios import regions as R  # noqa: E402
from scenarios.regions import region_from_data  # noqa: E402
from scenarios.scenario_file import iter_regions, load_scenario, load_scenario_map, scenario_context  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
S1 = DATA / "scenario_1_demyansk_pocket.json"
S2 = DATA / "scenario_2_khristishche.json"
S5 = DATA / "scenario_5_through_the_marshes.json"
SETUP_ZONE = ("german", "groups", 0, "setup", "region")
ROAD = ["1014", "1715", "3014"]   # three hexes of Scenario 2's east-west road (Map 1, north at the top)


@pytest.fixture
def open_window(qtbot, dialogs):
    made = []

    def make(path):
        w = MainWindow(persist_settings=False)
        qtbot.addWidget(w)
        w.resize(1366, 768)
        w.show()
        assert w.open_file(path)
        w.scenario_ctl.docks["regions"].raise_()
        QApplication.processEvents()
        made.append(w)
        return w

    yield make
    for w in made:
        picker().stop()
        w.scenario_ctl.shutdown()
        w.scenario_ctl.doc.undo_stack.setClean()
        w.document.undo_stack.setClean()


def expected(path, data) -> frozenset[str]:
    """What scenarios/regions.py evaluates for ``data`` on the scenario's own map (read from files)."""
    sc = load_scenario(path)
    ctx = scenario_context(sc, load_scenario_map(sc, path))
    return frozenset(h.id for h in region_from_data(data).resolve(ctx))


def canonical(data) -> dict:
    return region_from_data(data).model_dump(mode="json", exclude_none=True)


def click_hex(qtbot, w, hid: str, button=Qt.MouseButton.LeftButton) -> None:
    """A real mouse click on the map view, at the centre of hex ``hid``."""
    from maps import hexgrid

    w.view.centre_on_hex(hexgrid.parse_hex_id(hid))
    QApplication.processEvents()
    p = w.view.mapFromScene(hex_centre(hid))
    qtbot.mouseClick(w.view.viewport(), button, pos=QPoint(p.x(), p.y()))
    QApplication.processEvents()


def choose(combo, data) -> None:
    i = combo.findData(data)
    assert i >= 0, data
    combo.setCurrentIndex(i)


def count_text(n: int) -> str:
    return f"{n} hex{'es' if n != 1 else ''}"


def pick_path(qtbot, w, field, hexes) -> None:
    """Press the field's Pick button, click ``hexes`` on the map in order, press it again."""
    field.pick_button.click()
    assert picker().field is field and w.tools.current.name == "pick"
    for h in hexes:
        click_hex(qtbot, w, h)
    field.pick_button.click()
    assert picker().field is None and w.tools.current.name != "pick"


# ---------------------------------------------------------------------------- the issue's examples
def test_south_or_east_of_the_road_through_three_hexes_by_clicks(open_window, qtbot, dialogs):
    w = open_window(S2)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    panel.new_region()
    panel.name.clear()
    qtbot.keyClicks(panel.name, "south or east of the road")
    form = panel.editor.form
    choose(form.kind_combo, "union")                          # the list of kinds
    south, east = form.parts()
    for part, word in ((south, "south"), (east, "east")):
        choose(part.kind_combo, "side_of")                    # a side of a path (a road by default)
        choose(part.editor.direction, word)
    assert south.parts()[0].kind() == "path"
    pick_path(qtbot, w, south.parts()[0].editor.through, ROAD)
    assert south.parts()[0].editor.through.ids() == ROAD
    assert south.status.text() == count_text(len(expected(S2, south.region())))
    # the other side's road typed as printed
    qtbot.keyClicks(east.parts()[0].editor.through.edit, "1014-1715-3014")
    road = {"kind": "path", "network": "road", "through": ROAD}
    want = {"kind": "union", "of": [{"kind": "side_of", "direction": "south", "of": road},
                                    {"kind": "side_of", "direction": "east", "of": road}]}
    hexes = expected(S2, want)
    assert panel.editor.region() == canonical(want)
    assert panel.preview_hexes() == hexes and panel.count.text() == count_text(len(hexes))
    assert ctl.overlay.count("region") > 0                    # shown live on the map
    n = doc.undo_stack.count()
    panel.ok_button.click()
    assert doc.undo_stack.count() == n + 1                    # one undoable command
    assert doc.scenario.regions["south or east of the road"] == region_from_data(want)
    assert doc.resolve(doc.scenario.regions["south or east of the road"])[0] == hexes
    assert panel.loc == ("regions", "south or east of the road") and not panel.dirty()
    doc.undo_stack.undo()
    assert "south or east of the road" not in doc.scenario.regions
    doc.undo_stack.redo()
    assert doc.resolve(doc.scenario.regions["south or east of the road"])[0] == hexes
    assert dialogs == []                                      # nothing asked, nothing refused


def test_reachable_from_the_north_edge_with_the_road_as_barrier(open_window, qtbot):
    w = open_window(S2)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    panel.new_region()
    panel.name.setText("north of the road")
    form = panel.editor.form
    choose(form.kind_combo, "reachable")
    start, barrier = form.parts()
    assert start.region() == {"kind": "map_edge", "direction": "north"}   # the builder's default start
    assert barrier.kind() == "path"
    pick_path(qtbot, w, barrier.editor.through, ROAD)
    want = {"kind": "reachable", "start": {"kind": "map_edge", "direction": "north"},
            "barrier": {"kind": "path", "network": "road", "through": ROAD}}
    hexes = expected(S2, want)
    assert form.region() == canonical(want)
    assert panel.count.text() == count_text(len(hexes)) and panel.preview_hexes() == hexes
    # the same with the scenario's named road as the barrier
    choose(barrier.kind_combo, "named")
    barrier.editor.combo.setEditText("road 1014-3014")
    named = dict(want, barrier={"kind": "named", "name": "road 1014-3014"})
    assert form.region() == canonical(named)
    assert panel.preview_hexes() == expected(S2, named)
    assert panel.apply()
    assert doc.resolve(doc.scenario.regions["north of the road"])[0] == expected(S2, named)


def test_south_of_the_hex_line_5014_7014(open_window, qtbot):
    w = open_window(S5)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    panel.new_region()
    panel.name.setText("south of 5014-7014")
    form = panel.editor.form
    choose(form.kind_combo, "side_of")
    choose(form.editor.direction, "south")
    line = form.parts()[0]
    choose(line.kind_combo, "hex_range")
    first, last = line.editor.first, line.editor.last
    first.pick_button.click()
    click_hex(qtbot, w, "5014")
    assert picker().field is last                            # picking passes to the other end
    click_hex(qtbot, w, "7014")
    assert picker().field is None and w.tools.current.name != "pick"
    want = {"kind": "side_of", "direction": "south", "of": {"kind": "hex_range", "first": "5014", "last": "7014"}}
    hexes = expected(S5, want)
    assert form.region() == canonical(want)
    assert panel.count.text() == count_text(len(hexes)) and len(hexes) > 0
    assert line.status.text() == "21 hexes"                    # each part shows its own count
    assert panel.apply()
    assert doc.resolve(doc.scenario.regions["south of 5014-7014"])[0] == hexes


def test_hill_k_minus_another_region(open_window, qtbot):
    w = open_window(S1)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    panel.new_region()
    panel.name.setText("Hill K south part")
    form = panel.editor.form
    choose(form.kind_combo, "feature")
    form.editor.field.pick_button.click()                     # the feature picker takes a hex of the hill
    click_hex(qtbot, w, "4512")
    assert form.editor.field.value() == "Hill K" and picker().field is None
    choose(form.kind_combo, "difference")                     # Hill K becomes the "of" of the difference
    of, minus = form.parts()
    assert of.region() == {"kind": "feature", "name": "Hill K"}
    choose(minus.kind_combo, "beyond")
    choose(minus.editor.direction, "north")                   # north is the bottom of the sheet (5001 -> 5002)
    choose(minus.editor.bound, "row")
    minus.editor.row.setValue(12)
    want = {"kind": "difference", "of": {"kind": "feature", "name": "Hill K"},
            "minus": [{"kind": "beyond", "direction": "north", "row": 12}]}
    hexes = expected(S1, want)
    assert form.region() == canonical(want)
    assert hexes < expected(S1, {"kind": "feature", "name": "Hill K"}) and hexes
    assert panel.count.text() == count_text(len(hexes))
    assert panel.apply()
    assert doc.resolve(doc.scenario.regions["Hill K south part"])[0] == hexes


# ---------------------------------------------------------------------------- editing stored regions
@pytest.mark.parametrize("path", sorted(DATA.glob("scenario_*.json")), ids=lambda p: p.stem)
def test_every_shipped_region_fills_the_form_and_comes_back_unchanged(open_window, path):
    w = open_window(path)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    n = doc.undo_stack.count()
    for loc, r in iter_regions(doc.scenario):
        panel.select(loc)
        assert panel.loc == tuple(loc)
        stored = r.model_dump(mode="json", exclude_none=True)
        assert panel.editor.form.kind() == stored["kind"]
        assert panel.editor.region() == stored, loc
        assert json.loads(panel.text.toPlainText()) == stored      # the Advanced (JSON) view
        assert not panel.dirty()
        assert panel.preview_hexes() == doc.resolve(r)[0]
        panel.editor.tabs.setCurrentIndex(1)                          # to the JSON and back: unchanged
        panel.editor.tabs.setCurrentIndex(0)
        assert panel.apply()                                          # OK with nothing changed...
    assert doc.undo_stack.count() == n and not doc.is_dirty          # ... pushes nothing


def test_editing_a_relational_region_is_one_undo_step(open_window, qtbot):
    w = open_window(S2)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    loc = ("regions", "Squad D deployment area")
    panel.select(loc)
    form = panel.editor.form
    assert [f.kind() for f in form.forms()] == ["intersection", "feature_kind", "side_of", "named"]
    before = doc.scenario.regions["Squad D deployment area"]
    side = form.parts()[1]
    choose(side.editor.direction, "north")
    assert panel.dirty()
    draft = form.region()
    assert doc.scenario.regions["Squad D deployment area"] == before   # nothing stored before OK
    assert panel.preview_hexes() == expected(S2, draft) != doc.resolve(before)[0]
    n = doc.undo_stack.count()
    panel.ok_button.click()
    assert doc.undo_stack.count() == n + 1
    assert doc.scenario.regions["Squad D deployment area"] == region_from_data(draft)
    assert not panel.dirty()
    doc.undo_stack.undo()                                            # the form follows the undo
    assert doc.scenario.regions["Squad D deployment area"] == before
    assert form.region() == before.model_dump(mode="json", exclude_none=True)
    assert panel.count.text() == count_text(len(doc.resolve(before)[0]))
    doc.undo_stack.redo()
    assert form.region() == canonical(draft)
    # Cancel drops a draft (the form was filled again after the redo: its parts are new)
    choose(form.parts()[1].editor.direction, "south")
    assert panel.dirty()
    panel.cancel_button.click()
    assert form.region() == canonical(draft) and not panel.dirty()


def test_renaming_a_named_region_renames_every_reference(open_window):
    w = open_window(S1)
    doc, panel = w.scenario_ctl.doc, w.scenario_ctl.regions
    before = {tuple(loc): doc.resolve(r)[0] for loc, r in doc.regions() if loc[0] != "regions"}
    panel.select(("regions", "road 4001-5014"))
    panel.name.setText("the Demyansk road")
    n = doc.undo_stack.count()
    assert panel.apply()
    assert doc.undo_stack.count() == n + 1
    assert list(doc.scenario.regions) == ["the Demyansk road"]
    text = json.dumps(doc.data())
    assert "road 4001-5014\"}" not in text and '"name": "the Demyansk road"' in text
    assert {tuple(loc): doc.resolve(r)[0] for loc, r in doc.regions() if loc[0] != "regions"} == before
    assert doc.problems() == []
    doc.undo_stack.undo()
    assert list(doc.scenario.regions) == ["road 4001-5014"]


def test_naming_a_zone_stores_it_as_a_named_region(open_window):
    w = open_window(S1)
    doc, panel = w.scenario_ctl.doc, w.scenario_ctl.regions
    panel.select(SETUP_ZONE)
    zone = doc.scenario.german.groups[0].setup.region
    panel.name.setText("German strongpoints")
    assert panel.apply()
    assert doc.scenario.regions["German strongpoints"] == zone
    assert doc.scenario.german.groups[0].setup.region == region_from_data(
        {"kind": "named", "name": "German strongpoints"})
    assert doc.resolve(doc.scenario.german.groups[0].setup.region)[0] == doc.resolve(zone)[0]
    # a name already used is refused inline, nothing changes
    panel.select(("russian", "infiltration", "zone"))
    panel.name.setText("German strongpoints")
    n = doc.undo_stack.count()
    assert not panel.apply()
    assert "already has a region named" in panel.message.text() and doc.undo_stack.count() == n


# ---------------------------------------------------------------------------- painting: freeze prompt
def test_painting_a_relational_region_asks_before_freezing_no(open_window, dialogs):
    w = open_window(S1)
    doc, ctl = w.scenario_ctl.doc, w.scenario_ctl
    ctl.regions.select(SETUP_ZONE)
    before = doc.scenario.german.groups[0].setup.region
    n = doc.undo_stack.count()
    t = w.tools.set_tool("region")
    t.press(ToolEvent.at_hex("3505"))                 # the dialogs fixture answers: not Yes
    t.move(ToolEvent.at_hex("3506", buttons=Qt.MouseButton.LeftButton))
    t.release(ToolEvent.at_hex("3506"))
    assert [k for k, _a in dialogs] == ["question"]
    assert "Freeze" in dialogs[0][1][1]
    assert doc.scenario.german.groups[0].setup.region == before and doc.undo_stack.count() == n
    assert "not painted" in t.status


def test_painting_a_relational_region_asks_before_freezing_yes(open_window, dialogs, monkeypatch):
    w = open_window(S1)
    doc, ctl = w.scenario_ctl.doc, w.scenario_ctl
    asked = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.Yes))
    ctl.regions.select(SETUP_ZONE)
    before = doc.scenario.german.groups[0].setup.region
    old = doc.resolve(before)[0]
    n = doc.undo_stack.count()
    t = w.tools.set_tool("region")
    t.press(ToolEvent.at_hex("3505"))
    t.move(ToolEvent.at_hex("3506", buttons=Qt.MouseButton.LeftButton))
    t.release(ToolEvent.at_hex("3506"))
    assert len(asked) == 1
    zone = doc.scenario.german.groups[0].setup.region
    assert zone.kind == "hexes" and set(zone.hexes) == set(old) | {"3505", "3506"}
    assert doc.undo_stack.count() == n + 1                         # the freeze and the stroke: one step
    assert ctl.regions.editor.form.kind() == "hexes"                # the builder shows the frozen list
    # a plain hex list is painted without a question
    t.press(ToolEvent.at_hex("3507"))
    t.release(ToolEvent.at_hex("3507"))
    assert len(asked) == 1
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.scenario.german.groups[0].setup.region == before
    assert ctl.regions.editor.form.kind() == before.kind


# ---------------------------------------------------------------------------- live count, errors, JSON
def test_live_count_and_inline_errors(open_window, qtbot, dialogs):
    w = open_window(S1)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    panel.new_region()
    field = panel.editor.form.editor.field
    assert "at least one hex" in panel.count.text() and not panel.ok_button.isEnabled()
    qtbot.keyClicks(field.edit, "4307")
    assert panel.count.text() == "1 hex" and panel.ok_button.isEnabled()
    qtbot.keyClicks(field.edit, ", 4308")
    assert panel.count.text() == "2 hexes" and ctl.overlay.count("region") > 0
    field.pick_button.click()
    click_hex(qtbot, w, "4309")                                        # a click adds...
    assert panel.count.text() == "3 hexes" and field.ids() == ["4307", "4308", "4309"]
    assert ctl.overlay.count("pick") == 3                              # the picked hexes are marked
    click_hex(qtbot, w, "4308")                                        # ... a second click removes
    assert panel.count.text() == "2 hexes"
    # a drag adds several (as the Region paint tool)
    t = w.tools.current
    t.press(ToolEvent.at_hex("4407"))
    t.move(ToolEvent.at_hex("4408", buttons=Qt.MouseButton.LeftButton))
    t.release(ToolEvent.at_hex("4408"))
    assert panel.count.text() == "4 hexes"
    qtbot.keyClick(w.view, Qt.Key.Key_Escape)                          # Esc ends picking
    assert picker().field is None and w.tools.current.name != "pick" and ctl.overlay.count("pick") == 0
    field.edit.setText("4307, 43x7")
    field.edit.textEdited.emit(field.edit.text())
    assert "43x7" in panel.count.text() and not panel.ok_button.isEnabled()
    assert "43x7" in panel.editor.form.error_label.text() and not panel.editor.form.error_label.isHidden()
    field.edit.setText("4307, 1005")                                   # off the playing area (Map 2)
    field.edit.textEdited.emit(field.edit.text())
    assert "outside the scenario's playing area" in panel.count.text()
    assert not panel.apply() and "Not applied" in panel.message.text()
    assert dialogs == []                                               # inline, never a dialog


def test_nested_part_errors_are_shown_where_they_are(open_window):
    w = open_window(S2)
    panel = w.scenario_ctl.regions
    panel.new_region()
    form = panel.editor.form
    choose(form.kind_combo, "side_of")
    road = form.parts()[0]
    road.editor.through.edit.setText("1014 - 1001")                    # 1001 is no road hex
    road.editor.through.edit.textEdited.emit(road.editor.through.edit.text())
    assert "1001" in road.error_label.text() and not road.error_label.isHidden()
    assert form.error_label.isHidden() and "1001" in (form.error() or "")
    assert "1001" in panel.count.text()


def test_the_json_view_round_trips_with_the_form(open_window, qtbot):
    w = open_window(S1)
    panel = w.scenario_ctl.regions
    panel.select(SETUP_ZONE)
    ed = panel.editor
    ed.tabs.setCurrentIndex(1)
    data = {"kind": "within", "of": {"kind": "feature", "name": "Hill K"}, "distance": 2}
    ed.text.setPlainText(json.dumps(data))                          # valid JSON: the form follows
    assert ed.form.kind() == "within" and ed.form.editor.distance.value() == 2
    assert ed.form.editor.distance.suffix() == " hexes"
    ed.form.editor.distance.setValue(1)
    assert ed.form.editor.distance.suffix() == " hex"                # "1 hex", not "1 hexes"
    ed.form.editor.distance.setValue(2)
    assert ed.form.region() == canonical(data)
    assert panel.count.text() == count_text(len(expected(S1, data)))
    ed.text.setPlainText('{"kind": "within", "of": ')                # not JSON: said inline, form kept
    assert "not JSON" in ed.json_error.text() and not ed.json_error.isHidden()
    assert ed.form.region() == canonical(data) and not panel.ok_button.isEnabled()
    ed.text.setPlainText('{"kind": "blob"}')
    assert "unknown region kind 'blob'" in ed.json_error.text()
    ed.tabs.setCurrentIndex(0)
    ed.form.editor.distance.setValue(3)                              # a form edit rewrites the JSON
    assert json.loads(ed.text.toPlainText()) == canonical(dict(data, distance=3)) and ed.json_error.isHidden()
    assert panel.apply()
    assert w.scenario_ctl.doc.scenario.german.groups[0].setup.region == region_from_data(dict(data, distance=3))
    # Apply JSON of the old panel still works
    ed.text.setPlainText(json.dumps({"kind": "hexes", "hexes": ["4307", "4308", "4309"]}))
    assert panel.apply_text()
    assert panel.count.text() == "3 hexes"
    # typed JSON goes through the safe parser: deep nesting, an endless number or NaN is said, never raised
    for typed, words in (("[" * 5000 + "]" * 5000, "nested deeper than"),
                         ('{"kind": "within", "distance": ' + "9" * 5000 + "}", "integer literal of 5000 digits"),
                         ('{"kind": "within", "distance": NaN}', "NaN is not a number")):
        ed.text.setPlainText(typed)
        assert "not JSON" in ed.json_error.text() and words in ed.json_error.text()
        assert panel.apply_text() is False and words in panel.message.text()


# ---------------------------------------------------------------------------- the reusable widget
ALL_KINDS = {"kind": "union", "of": [
    {"kind": "hexes", "hexes": ["4307", "4308"]},
    {"kind": "hex_range", "first": "5015", "last": "5027"},
    {"kind": "area"},
    {"kind": "section", "name": "Map 2"},
    {"kind": "map_edge", "direction": "east", "sections": ["Map 2"]},
    {"kind": "feature", "name": "Hill K"},
    {"kind": "feature_kind", "feature": "tree_hexes"},
    {"kind": "side_of", "direction": "north", "of": {"kind": "path", "network": "road", "through": ["4001", "5014"]},
     "include_boundary": True},
    {"kind": "beyond", "direction": "west", "hex": "3901", "inclusive": True},
    {"kind": "beyond", "direction": "east", "column": 35, "inclusive": False},
    {"kind": "adjacent_to", "of": {"kind": "path", "network": "road", "through": ["5014", "4001"]}},
    {"kind": "within", "of": {"kind": "named", "name": "road 4001-5014"}, "distance": 2},
    {"kind": "reachable", "start": {"kind": "intersection", "of": [{"kind": "map_edge", "direction": "north"},
                                                                   {"kind": "map_edge", "direction": "east"}]},
     "barrier": {"kind": "named", "name": "road 4001-5014"}},
    {"kind": "difference", "of": {"kind": "feature", "name": "Hill K"},
     "minus": [{"kind": "beyond", "direction": "north", "row": 12}, {"kind": "hexes", "hexes": ["4512"]}]},
]}


def test_the_builder_offers_every_kind_of_the_region_language():
    union = typing.get_args(typing.get_args(R.Region)[0])
    kinds = {c.model_fields["kind"].default for c in union}
    assert {k for k, _label in KINDS} == kinds
    assert kinds <= {d["kind"] for d in ALL_KINDS["of"]} | {"union", "named", "path", "intersection"}


def test_region_form_is_a_reusable_widget(qtbot):
    """The API another panel (the victory builder) embeds: set_source, set_region, region(),
    changed, hexes(), error()."""
    sc = load_scenario(S1)
    ctx = scenario_context(sc, load_scenario_map(sc, S1))
    form = RegionForm(source=ctx)
    qtbot.addWidget(form)
    form.set_region(ALL_KINDS)                        # every kind, nested
    assert form.region() == canonical(ALL_KINDS)
    assert form.hexes() == frozenset(h.id for h in region_from_data(ALL_KINDS).resolve(ctx)) and form.error() is None
    seen = []
    form.changed.connect(seen.append)
    diff = form.parts()[-1]
    choose(diff.parts()[1].kind_combo, "within")      # a nested part switched: it becomes the "of" of within
    assert seen and seen[-1] == form.region()
    assert diff.parts()[1].region()["kind"] == "within"
    assert diff.parts()[1].parts()[0].region() == {"kind": "beyond", "direction": "north", "row": 12,
                                                   "inclusive": False}
    # a union's part chosen from the scenario's named regions
    parts = form.editor.parts
    n, before = len(parts.forms), form.region()
    choose(parts.named_combo, "road 4001-5014")
    assert len(parts.forms) == n + 1 and parts.forms[-1].region() == {"kind": "named", "name": "road 4001-5014"}
    assert parts.named_combo.currentIndex() == 0 and seen[-1] == form.region()
    parts.forms[-1].remove_button.click()                 # and removed again
    assert len(parts.forms) == n and form.region() == before
    ed = RegionEditor(source=ctx)
    qtbot.addWidget(ed)
    ed.set_region({"kind": "feature", "name": "Hill K"})
    assert ed.count.text() == count_text(len(ctx.hexmap.feature_hexes("Hill K"))) and ed.describe.text() == "Hill K"


def test_switching_kinds_keeps_what_fits():
    assert convert_region({"kind": "hexes", "hexes": ["1014", "1315"]}, "path")["through"] == ["1014", "1315"]
    assert convert_region({"kind": "path", "network": "road", "through": ["5014", "6014", "7014"]},
                          "hex_range") == {"kind": "hex_range", "first": "5014", "last": "7014"}
    road = {"kind": "path", "network": "road", "through": ["1014", "3014"]}
    assert convert_region(road, "reachable")["barrier"] == road
    assert convert_region(road, "side_of")["of"] == road
    u = convert_region({"kind": "intersection", "of": [road, {"kind": "area"}]}, "union")
    assert u == {"kind": "union", "of": [road, {"kind": "area"}]}
    assert convert_region({"kind": "map_edge", "direction": "west"}, "beyond")["direction"] == "west"


@pytest.mark.parametrize("loc", [("russian", "infiltration", "zone"), SETUP_ZONE])
def test_the_regions_dock_fits_1366_by_768_with_a_nested_region(open_window, loc):
    w = open_window(S1)
    ctl = w.scenario_ctl
    ctl.regions.select(loc)
    QApplication.processEvents()
    # the nested parts are never squeezed: the dock scrolls instead
    for f in ctl.regions.editor.form.forms():
        assert f.height() >= f.minimumSizeHint().height(), f.kind()
    dock: QDockWidget = ctl.docks["regions"]
    assert w.dock_on_top(dock)
    sa = dock.widget().findChild(QScrollArea)   # the dock's own scroll area, under the read-only line
    assert isinstance(sa, QScrollArea) and sa.parentWidget() is dock.widget() and not sa.horizontalScrollBar().isVisible()
    for b in dock.findChildren(QPushButton) + dock.findChildren(QToolButton):
        if b.isVisible() and not b.visibleRegion().isEmpty():
            assert b.width() >= b.sizeHint().width(), b.text()


def test_picking_survives_other_edits_and_ends_with_another_tool(open_window, qtbot):
    w = open_window(S1)
    ctl, doc = w.scenario_ctl, w.scenario_ctl.doc
    panel = ctl.regions
    panel.select(("regions", "road 4001-5014"))
    field = panel.editor.form.editor.through
    field.pick_button.click()
    assert field.pick_button.text() == "Picking" and w.tools.current.name == "pick"
    doc.edit("Turns", lambda d: d.__setitem__("turns", 8))          # an edit elsewhere in the scenario
    assert picker().field is field
    click_hex(qtbot, w, "5014")                                      # the last waypoint again: taken back
    assert field.ids() == ["4001"] and "at least two" in panel.count.text()
    click_hex(qtbot, w, "5014")
    assert field.ids() == ["4001", "5014"] and not panel.dirty()
    w.tools.set_tool("north")                                        # another tool ends picking
    assert picker().field is None and not field.pick_button.isChecked() and field.pick_button.text() == "Pick"
    assert w.tools.current.name == "north"


def test_picking_leaves_no_tool_button_pressed_and_never_re_arms_the_north_tool(open_window, qtbot):
    """While the Pick hexes tool takes the map's clicks no tool button is shown pressed; when
    picking ends the tool chosen before comes back, but never the North tool (any click with it
    moves the north indicator)."""
    w = open_window(S1)
    ctl = w.scenario_ctl
    w.tools.set_tool("north")
    panel = ctl.regions
    panel.select(("regions", "road 4001-5014"))
    field = panel.editor.form.editor.through
    field.pick_button.click()
    assert w.tools.current.name == "pick"
    assert not any(a.isChecked() for a in w.tool_actions.values())
    field.pick_button.click()                                        # picking ends
    assert picker().field is None and w.tools.current.name not in ("pick", "north")
    assert w.tool_actions[w.tools.current.name].isChecked()
