"""The victory builder: victory conditions made with forms, no JSON typed.

Scenarios 4, 5 and 6 are built from nothing with the form and compared with the shipped files
(the JSON, and the result of positions); Move up / Move down change the order and the result;
the printed text keeps quotes, line breaks and non-ASCII characters; each edit undoes and redoes;
the six shipped scenarios open in the builder and save unchanged, byte for byte. Headless
(pytest-qt, offscreen).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtGui import QFocusEvent  # noqa: E402
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox  # noqa: E402

from scenarios.scenario_file import SHIPPED_SCENARIOS, load_scenario  # noqa: E402
from scenarios.victory import UnitRef, Victory, evaluate  # noqa: E402
from editor.scenario.undo_commands import PlacedUnit, PlacementCommand
from editor.scenario.document import ScenarioDocument
from editor.scenario.builders.victory_region_field import RegionField
from editor.scenario.builders.victory_builder import VictoryPanel
from editor.scenario.builders.victory_conditions import convert_condition, parse_hex_list, region_mode

ROOT = Path(__file__).resolve().parents[2]
S1, S2, S3, S4, S5, S6 = SHIPPED_SCENARIOS


@pytest.fixture(autouse=True)
def _dialogs(dialogs):
    """Settings in a temporary folder, message boxes recorded (tests/editor/conftest.py)."""
    return dialogs


def shipped_victory(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["victory"]


@pytest.fixture
def open_panel(qtbot):
    _PANELS.clear()

    def make(path: Path) -> tuple[ScenarioDocument, VictoryPanel]:
        doc = ScenarioDocument.open(path)
        panel = VictoryPanel()
        qtbot.addWidget(panel)
        panel.resize(380, 900)
        panel.show()
        panel.set_document(doc)
        _PANELS.append(panel)
        return doc, panel

    return make


def from_nothing(doc: ScenarioDocument) -> None:
    """Replace the victory by the least the model takes (one placeholder outcome, no text) and
    forget the undo history: what follows is built with the form only."""
    area = sorted(h.id for h in doc.context.area)
    doc.edit("start", lambda d: d.__setitem__("victory", {
        "text": "", "default": "draw",
        "outcomes": [{"result": "draw", "condition": {"kind": "controls", "side": "german",
                                                      "region": {"kind": "hexes", "hexes": [area[0]]}}}]}))
    doc.undo_stack.clear()


def step(doc: ScenarioDocument, action) -> None:
    """Do one form action: exactly one undo step, which undoes and redoes exactly. The panel's
    selection after the action is selected again after the undo and redo (a node that an undo
    removes cannot stay selected)."""
    panels = [p for p in _PANELS if p.doc is doc]
    before, n = doc.scenario.victory, doc.undo_stack.count()
    action()
    after = doc.scenario.victory
    locs = [p.loc for p in panels]
    assert after != before, "the action changed nothing"
    assert doc.undo_stack.count() == n + 1
    doc.undo_stack.undo()
    assert doc.scenario.victory == before
    doc.undo_stack.redo()
    assert doc.scenario.victory == after
    for p, loc in zip(panels, locs):
        assert p.select(loc)


_PANELS: list[VictoryPanel] = []


def choose(combo: QComboBox, key) -> None:
    """Pick the item whose data (else text) is ``key``, as a user does."""
    i = combo.findData(key)
    if i < 0:
        i = combo.findText(key)
    assert i >= 0, (key, [combo.itemText(k) for k in range(combo.count())])
    combo.setCurrentIndex(i)
    combo.activated.emit(i)


def type_line(qtbot, edit, text: str) -> None:
    edit.clear()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def region_named(panel: VictoryPanel, name: str) -> None:
    rf = panel.region_field
    rf.mode.setCurrentIndex(list(rf.mode.itemData(i) for i in range(rf.mode.count())).index("named"))
    choose(rf.named, name)


def region_features(panel: VictoryPanel, names: list[str]) -> None:
    rf = panel.region_field
    rf.mode.setCurrentIndex([rf.mode.itemData(i) for i in range(rf.mode.count())].index("features"))
    for n in names:
        it = next(rf.features.item(i) for i in range(rf.features.count()) if rf.features.item(i).text() == n)
        it.setCheckState(Qt.CheckState.Checked)


def region_hexes(qtbot, panel: VictoryPanel, text: str) -> None:
    rf = panel.region_field
    rf.mode.setCurrentIndex([rf.mode.itemData(i) for i in range(rf.mode.count())].index("hexes"))
    type_line(qtbot, rf.hexes, text)


def region_json(panel: VictoryPanel, data: dict) -> None:
    rf = panel.region_field
    rf.mode.setCurrentIndex([rf.mode.itemData(i) for i in range(rf.mode.count())].index("json"))
    rf.json.setPlainText(json.dumps(data))
    rf.apply_json.click()


def set_text(panel: VictoryPanel, text: str) -> None:
    panel.text.setPlainText(text)
    assert panel.commit_text()


def results(victory: Victory, ctx, positions) -> list[tuple]:
    out = []
    for placement, control in positions:
        r = evaluate(victory, placement, ctx, control)
        out.append((r.result, r.outcome, r.points))
    return out


def R(uid, kind="infantry", squad="A"):
    return UnitRef("russian", uid, kind, squad if kind == "infantry" else None)


def G(uid, kind="infantry", squad="A"):
    return UnitRef("german", uid, kind, squad if kind == "infantry" else None)


# ------------------------------------------------------------------------------ from nothing
def test_scenario_4_victory_built_from_nothing_with_the_form(open_panel, qtbot):
    doc, v = open_panel(S4)
    from_nothing(doc)
    f = v.fields
    shipped = shipped_victory(S4)
    step(doc, lambda: set_text(v, shipped["text"]))
    # 2. the German outcome: all of (no Russian south of the road, none in Building 1 or 2)
    step(doc, v.buttons["Add outcome"].click)
    assert v.loc == ("outcomes", 1) and f["result"].currentData() == "german"
    step(doc, lambda: choose(f["result"], "draw"))
    step(doc, lambda: choose(f["result"], "german"))
    step(doc, lambda: choose(f["kind"], "all_of"))
    assert v.select(("outcomes", 1, "condition", "of", 0))
    step(doc, lambda: choose(f["kind"], "none_in"))
    step(doc, lambda: choose(f["side"], "russian"))
    step(doc, lambda: region_named(v, "south of the east-west road"))
    step(doc, v.buttons["Add sub-condition"].click)
    assert v.loc == ("outcomes", 1, "condition", "of", 1)
    step(doc, lambda: region_features(v, ["Building 1"]))
    step(doc, lambda: region_features(v, ["Building 2"]))
    # 3. the Russian outcome: at least 3 (commanders or one squad's units) south of the road
    step(doc, v.buttons["Add outcome"].click)
    assert v.loc == ("outcomes", 2) and f["result"].currentData() == "russian"
    assert f["side"].currentData() == "russian"
    step(doc, lambda: f["count"].setValue(3))
    step(doc, lambda: choose(f["grouping"], "same_squad_or_commanders"))
    step(doc, lambda: region_named(v, "south of the east-west road"))
    # the placeholder goes; any other result is a draw
    assert v.select(("outcomes", 0))
    step(doc, v.buttons["Remove"].click)
    step(doc, lambda: choose(v.default, "russian"))
    step(doc, lambda: choose(v.default, "draw"))
    built = doc.data()["victory"]
    assert built == shipped
    assert Victory.model_validate(built) == load_scenario(S4).victory
    # the same results on positions
    ctx = doc.context
    south = sorted(doc.resolve(doc.scenario.regions["south of the east-west road"])[0])
    b1 = sorted(doc.hexmap.feature_hexes("Building 1"))[0].id
    positions = [
        ({}, None),
        ({south[0]: [R("a1"), R("a2")], south[1]: [R("a3")]}, None),
        ({south[0]: [R("a1"), R("a2")], south[1]: [R("c1", "commander")]}, None),
        ({south[0]: [R("a1"), R("a2")], south[1]: [R("b1", squad="B")]}, None),
        ({b1: [R("a1")]}, None),
        ({south[0]: [G("g1")], "1001": [R("r1")]}, None),
    ]
    got = results(Victory.model_validate(built), ctx, positions)
    assert got == results(load_scenario(S4).victory, ctx, positions)
    assert [g[0] for g in got[:4]] == ["german", "russian", "russian", "draw"]


def test_scenario_5_victory_built_from_nothing_with_the_form(open_panel, qtbot):
    doc, v = open_panel(S5)
    from_nothing(doc)
    f = v.fields
    shipped = shipped_victory(S5)
    step(doc, lambda: set_text(v, shipped["text"]))
    assert v.select(("outcomes", 0))
    step(doc, lambda: choose(f["result"], "german"))
    step(doc, lambda: choose(f["kind"], "none_in"))
    step(doc, lambda: choose(f["side"], "russian"))
    # the bridge hexes typed as a list, in the printed order
    step(doc, lambda: region_hexes(qtbot, v, "5806, 6410 6521;6815"))
    step(doc, lambda: choose(f["kind"], "all_of"))     # the condition so far becomes the first of two
    assert v.select(("outcomes", 0, "condition", "of", 0))
    step(doc, v.buttons["Add sub-condition"].click)
    for hill in ("Hill M", "Hill N", "Hill O", "Hill P"):          # each tick one undo step
        step(doc, lambda: region_features(v, [hill]))
    step(doc, lambda: choose(v.default, "russian"))
    built = doc.data()["victory"]
    assert built == shipped
    ctx = doc.context
    hill_m = sorted(doc.hexmap.feature_hexes("Hill M"))[0].id
    positions = [({}, None), ({"5806": [R("r1")]}, None), ({hill_m: [R("r1")]}, None),
                 ({"6410": [G("g1")], hill_m: [G("g2")]}, None), ({"6815": [R("c", "commander")]}, None)]
    got = results(Victory.model_validate(built), ctx, positions)
    assert got == results(load_scenario(S5).victory, ctx, positions)
    assert [g[0] for g in got] == ["german", "russian", "russian", "german", "russian"]


def test_scenario_6_victory_points_built_from_nothing_with_the_form(open_panel, qtbot):
    doc, v = open_panel(S6)
    from_nothing(doc)
    f = v.fields
    shipped = shipped_victory(S6)
    step(doc, lambda: set_text(v, shipped["text"]))
    step(doc, v.buttons["Add victory points"].click)
    assert v.loc == ("points",) and not v.buttons["Add victory points"].isEnabled()
    assert v.select(("points", "awards", 0))
    for b in ("Building 1", "Building 3", "Building 4"):
        step(doc, lambda: region_features(v, [b]))
    step(doc, v.buttons["Add award"].click)
    assert v.loc == ("points", "awards", 1)
    step(doc, lambda: choose(f["award"], "per_building"))
    step(doc, lambda: f["points"].setValue(3))
    step(doc, lambda: region_json(v, shipped["points"]["awards"][1]["region"]))
    # the schedule: 0-13 Russian, 14-18 draw, 19-34 German
    assert v.select(("points", "schedule", 1))
    step(doc, lambda: f["band_max"].setValue(34))
    step(doc, lambda: f["band_min"].setValue(19))
    assert v.select(("points", "schedule", 0))
    step(doc, lambda: f["band_max"].setValue(13))
    step(doc, v.buttons["Add band"].click)            # the gap 14-18, between the two bands
    assert v.loc == ("points", "schedule", 1)
    assert (f["band_min"].value(), f["band_max"].value(), f["band_result"].currentData()) == (14, 18, "draw")
    # a band overlapping another is refused with a message, nothing changes
    n = doc.undo_stack.count()
    f["band_max"].setValue(20)
    assert doc.undo_stack.count() == n and doc.scenario.victory.points.schedule[1].max == 18
    assert f["band_max"].value() == 18
    # the placeholder outcome goes: the points decide
    assert v.select(("outcomes", 0))
    step(doc, v.buttons["Remove"].click)
    built = doc.data()["victory"]
    assert built == shipped
    ctx = doc.context
    hexes = {n: sorted(h.id for h in doc.hexmap.feature_hexes(n)) for n in ("Building 1", "Building 3", "Building 4")}
    everything = {h.id: "german" for h in ctx.area}
    positions = [({}, None), ({}, {h: "german" for h in hexes["Building 1"]}),
                 ({}, {h: "german" for n in hexes for h in hexes[n]}), ({}, everything)]
    got = results(Victory.model_validate(built), ctx, positions)
    assert got == results(load_scenario(S6).victory, ctx, positions)
    assert [(g[0], g[2]) for g in got] == [("russian", 0), ("russian", 13), ("german", 25), ("german", 34)]


# ------------------------------------------------------------------------------ order
def test_move_up_and_down_change_the_order_and_the_result(open_panel):
    """Scenario 1 with Germans and Russians both in 4307 and 4308: both outcomes hold, the first
    decides."""
    doc, v = open_panel(S1)
    st = doc.setup()
    ger = [u for u in st.units.values() if u.side == "german"][:2]
    rus = [u for u in st.units.values() if u.side == "russian"][:2]
    both = {ger[0].id: PlacedUnit("4307"), ger[1].id: PlacedUnit("4308"),
            rus[0].id: PlacedUnit("4307"), rus[1].id: PlacedUnit("4308")}
    doc.undo_stack.push(PlacementCommand(doc, "both sides in 4307 and 4308", both))
    r = v.evaluate_now()
    assert (r.result, r.outcome) == ("german", 0) and "GERMAN" in v.result.text()
    assert v.tree.topLevelItem(0).text(1) == "decides" and v.tree.topLevelItem(1).text(1) == "holds"
    assert v.select(("outcomes", 1))
    n = doc.undo_stack.count()
    v.buttons["Move down"].click()                        # already last: nothing happens
    assert doc.undo_stack.count() == n
    step(doc, v.buttons["Move up"].click)
    assert [o.result for o in doc.scenario.victory.outcomes] == ["russian", "german"]
    assert v.loc == ("outcomes", 0)                       # the selection follows the outcome
    r = v.evaluate_now()
    assert (r.result, r.outcome) == ("russian", 0) and "RUSSIAN" in v.result.text()
    n = doc.undo_stack.count()
    v.buttons["Move up"].click()                          # already first: nothing happens
    assert doc.undo_stack.count() == n
    step(doc, v.buttons["Move down"].click)
    assert [o.result for o in doc.scenario.victory.outcomes] == ["german", "russian"]
    assert v.evaluate_now().result == "german"
    doc.undo_stack.undo()
    assert v.evaluate_now().result == "russian"


def test_move_a_sub_condition_and_an_award(open_panel):
    doc, v = open_panel(S4)
    assert v.select(("outcomes", 0, "condition", "of", 1))
    step(doc, v.buttons["Move up"].click)
    of = doc.scenario.victory.outcomes[0].condition.of
    assert [c.region.kind for c in of] == ["union", "named"]
    assert v.loc == ("outcomes", 0, "condition", "of", 0)
    doc6, v6 = open_panel(S6)
    assert v6.select(("points", "awards", 0))
    step(doc6, v6.buttons["Move down"].click)
    assert [a.kind for a in doc6.scenario.victory.points.awards] == ["per_building", "per_hex"]


# ------------------------------------------------------------------------------ text
TEXT = 'The Germans win if they hold "Hill K" (the \'Kessel\').\nAny other result: a draw — Ärger für beide, 5 €.'


def test_printed_text_with_quotes_newline_and_non_ascii_round_trips(open_panel, tmp_path):
    doc, v = open_panel(S1)
    v.text.setPlainText(TEXT)
    v.text.document().setModified(True)
    n = doc.undo_stack.count()
    # leaving the box stores the text as typed
    v.text.setFocus()
    v.eventFilter(v.text, QFocusEvent(QEvent.Type.FocusOut))
    assert doc.scenario.victory.text == TEXT and doc.undo_stack.count() == n + 1
    assert json.loads(v.json.toPlainText())["text"] == TEXT      # the JSON view shows the same
    doc.undo_stack.undo()
    assert v.text.toPlainText() == shipped_victory(S1)["text"]
    doc.undo_stack.redo()
    assert v.text.toPlainText() == TEXT
    out = doc.save(tmp_path / "s1.json")
    assert json.loads(out.read_text(encoding="utf-8"))["victory"]["text"] == TEXT
    assert load_scenario(out).victory.text == TEXT
    doc2 = ScenarioDocument.open(out)
    v.set_document(doc2)
    assert v.text.toPlainText() == TEXT
    assert v.commit_text() is False and doc2.undo_stack.count() == 0


# ------------------------------------------------------------------------------ JSON view
def test_advanced_json_view_round_trips_with_the_form(open_panel, dialogs):
    doc, v = open_panel(S4)
    data = json.loads(v.json.toPlainText())
    assert data == shipped_victory(S4)
    data["outcomes"][1]["condition"]["count"] = 4
    v.json.setPlainText(json.dumps(data, ensure_ascii=False))
    step(doc, v.apply_json)
    assert v.select(("outcomes", 1)) and v.fields["count"].value() == 4     # the form shows it
    step(doc, lambda: v.fields["count"].setValue(5))
    assert json.loads(v.json.toPlainText())["outcomes"][1]["condition"]["count"] == 5   # and back
    n = doc.undo_stack.count()
    v.json.setPlainText("{not json")
    assert v.apply_json() is False and dialogs[-1][0] == "warning"
    v.json.setPlainText('{"text": ' + "[" * 5000 + "]" * 5000 + "}")   # the safe parser: said, never raised
    assert v.apply_json() is False and "nested deeper than" in dialogs[-1][1][2]
    v.json.setPlainText(json.dumps({"text": "x", "outcomes": []}))       # neither outcomes nor points
    assert v.apply_json() is False and "outcomes" in dialogs[-1][1][2]
    assert doc.undo_stack.count() == n


# ------------------------------------------------------------------------------ kinds
def test_kind_changes_keep_what_carries_over(open_panel):
    doc, v = open_panel(S2)
    f = v.fields
    assert v.select(("outcomes", 1))                   # Russians: sole occupant of 1 multi-hex building
    assert f["scope"].currentData() == "each_building" and f["min_buildings"].value() == 1
    rf = v.region_field
    assert rf.current_mode() == "terrain" and rf.terrain.currentData() == "multi_hex_buildings"
    step(doc, lambda: choose(rf.terrain, "building_hexes"))
    assert doc.scenario.victory.outcomes[1].condition.region.feature == "building_hexes"
    step(doc, lambda: f["min_buildings"].setValue(2))
    step(doc, lambda: choose(f["scope"], "region"))
    assert not v.form.isRowVisible(f["min_buildings"])
    step(doc, lambda: choose(f["kind"], "not"))
    c = doc.scenario.victory.outcomes[1].condition
    assert c.kind == "not" and c.of.kind == "sole_occupant"
    assert not v.buttons["Add sub-condition"].isEnabled()
    step(doc, lambda: choose(f["kind"], "any_of"))
    c = doc.scenario.victory.outcomes[1].condition
    assert c.kind == "any_of" and [x.kind for x in c.of] == ["sole_occupant"]
    step(doc, lambda: choose(f["kind"], "controls"))
    c = doc.scenario.victory.outcomes[1].condition
    assert (c.kind, c.side, c.region.feature) == ("controls", "russian", "building_hexes")
    step(doc, lambda: choose(f["kind"], "at_least"))
    step(doc, lambda: v.kind_boxes["afv"].click())
    step(doc, lambda: v.kind_boxes["infantry"].click())
    assert doc.scenario.victory.outcomes[1].condition.units.kinds == ["infantry", "afv"]
    step(doc, lambda: v.kind_boxes["afv"].click())
    step(doc, lambda: v.kind_boxes["infantry"].click())
    assert doc.scenario.victory.outcomes[1].condition.units.kinds is None     # none ticked: every kind
    step(doc, lambda: _reason(f["reason"], "Russians hold a building"))
    assert doc.scenario.victory.outcomes[1].text == "Russians hold a building"


def _reason(edit, text: str) -> None:
    edit.setText(text)
    edit.setModified(True)
    edit.editingFinished.emit()


def test_refused_edits_change_nothing_and_say_why(open_panel, dialogs):
    doc, v = open_panel(S3)
    assert v.select(("outcomes", 0))
    v.buttons["Remove"].click()                       # the only outcome, no points
    assert dialogs and dialogs[-1][0] == "warning" and "outcomes" in dialogs[-1][1][2]
    assert doc.undo_stack.count() == 0 and len(doc.scenario.victory.outcomes) == 1
    doc4, v4 = open_panel(S4)
    assert v4.select(("outcomes", 1, "condition")) is False     # an outcome's condition is the outcome
    v4.select(("outcomes", 0))
    step(doc4, lambda: choose(v4.fields["kind"], "not"))
    assert v4.select(("outcomes", 0, "condition", "of"))
    v4.buttons["Remove"].click()                      # the one condition of a 'not'
    assert "'not'" in dialogs[-1][1][2] and doc4.undo_stack.count() == 1
    # a hex list with a typo is not applied; the field says why
    v4.select(("outcomes", 1))
    rf = v4.region_field
    rf.mode.setCurrentIndex(1)
    rf.hexes.setText("4307, 43O8")
    rf.hexes.setModified(True)
    rf.hexes.editingFinished.emit()
    assert "'43O8' is not a hex id" in rf.info.text() and doc4.undo_stack.count() == 1


# ------------------------------------------------------------------------------ round trip
def _reapply_every_field(v: VictoryPanel) -> None:
    """Give every visible field of the form its own value again, as a user re-choosing it."""
    for key, w in v.fields.items():
        if not v.form.isRowVisible(w):
            continue
        if isinstance(w, QComboBox):
            w.activated.emit(w.currentIndex())
        elif isinstance(w, QSpinBox):
            w.valueChanged.emit(w.value())
        elif key == "reason":
            w.setModified(True)
            w.editingFinished.emit()
        elif key == "kinds":
            for cb in w.findChildren(QCheckBox):
                cb.toggled.emit(cb.isChecked())
        elif isinstance(w, RegionField):
            mode = w.current_mode()
            if mode == "named":
                w.named.activated.emit(w.named.currentIndex())
            elif mode == "hexes":
                w.hexes.setModified(True)
                w.hexes.editingFinished.emit()
            elif mode == "features":
                w.features.itemChanged.emit(w.features.item(0))
            elif mode == "terrain":
                w.terrain.activated.emit(w.terrain.currentIndex())
            else:
                w.apply_json.click()
    v.default.activated.emit(v.default.currentIndex())


@pytest.mark.parametrize("path", SHIPPED_SCENARIOS, ids=lambda p: p.name.split("_")[1])
def test_shipped_scenario_opens_in_the_builder_and_saves_unchanged(open_panel, path, tmp_path, dialogs):
    # a copy beside a copy of its map (the file names the map relative to itself), saved over itself
    (tmp_path / "scenarios" / "data").mkdir(parents=True)
    (tmp_path / "maps" / "data").mkdir(parents=True)
    copy = tmp_path / "scenarios" / "data" / path.name
    shutil.copy(path, copy)
    shutil.copy(ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json", tmp_path / "maps" / "data")
    doc, v = open_panel(copy)
    shipped = shipped_victory(path)
    assert v.text.toPlainText() == shipped["text"]
    assert v.default.currentData() == shipped["default"]
    assert json.loads(v.json.toPlainText()) == shipped
    locs = [tuple(it.data(0, Qt.ItemDataRole.UserRole)) for it in v._items()]
    assert len([x for x in locs if len(x) == 2 and x[0] == "outcomes"]) == len(shipped["outcomes"])
    for loc in locs:
        assert v.select(loc)
        if v.node_kind() in ("outcome", "condition", "award"):
            c = v.victory_data()
            for k in loc + (("condition",) if v.node_kind() == "outcome" else ()):
                c = c[k]
            if "region" in c:   # the region field shows the region, in the page that fits it
                assert v.region_field.region() == c["region"]
                assert v.region_field.current_mode() == region_mode(c["region"])
        _reapply_every_field(v)
        v.commit_text()
        v.apply_json()
    assert doc.undo_stack.count() == 0 and dialogs == []
    assert doc.save() == copy
    assert copy.read_bytes() == path.read_bytes()


# ------------------------------------------------------------------------------ the window
def test_pick_on_map_paints_the_victory_region_and_evaluate_now_stays(qtbot):
    from editor.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    assert w.open_file(S1)
    ctl = w.scenario_ctl
    v, doc = ctl.victory, ctl.doc
    try:
        assert v.select(("outcomes", 0, "condition", "of", 1))
        assert v.region_field.current_mode() == "hexes" and v.region_field.hexes.text() == "4308"
        v.region_field.pick.click()
        loc = ("victory", "outcomes", 0, "condition", "of", 1, "region")
        assert w.tools.current.name == "region" and w.ctx.region_loc == loc
        assert w.dock_on_top(ctl.docks["victory"])
        t = w.tools.current
        step(doc, lambda: t.paint(["4408"], adding=True, stroke=doc.new_stroke()))
        assert doc.scenario.victory.outcomes[0].condition.of[1].region.hexes == ["4308", "4408"]
        assert v.region_field.hexes.text() == "4308, 4408" and "2 hexes" in v.region_field.info.text()
        r = ctl.victory.evaluate_now()
        assert r.result == "draw" and "DRAW" in v.result.text()
    finally:
        ctl.shutdown()
        doc.undo_stack.setClean()
        w.document.undo_stack.setClean()


# ------------------------------------------------------------------------------ pure helpers
def test_convert_condition_parse_hex_list_and_region_mode():
    leaf = {"kind": "at_least", "side": "german", "count": 2, "region": {"kind": "hexes", "hexes": ["4307"]}}
    r0 = {"kind": "hexes", "hexes": ["1001"]}
    assert convert_condition(leaf, "all_of", "russian", r0) == {"kind": "all_of", "of": [leaf]}
    assert convert_condition(leaf, "not", "russian", r0) == {"kind": "not", "of": leaf}
    assert convert_condition(leaf, "none_in", "russian", r0) == {"kind": "none_in", "side": "german",
                                                                  "region": leaf["region"]}
    both = {"kind": "all_of", "of": [leaf, {"kind": "none_in", "side": "russian", "region": r0}]}
    assert convert_condition(both, "any_of", "russian", r0) == {"kind": "any_of", "of": both["of"]}
    assert convert_condition(both, "at_least", "russian", r0) == leaf      # its first leaf, as it is
    assert convert_condition({"kind": "not", "of": leaf}, "any_of", "german", r0) == {"kind": "any_of", "of": [leaf]}
    assert parse_hex_list(" 5806, 6410 6521;6815,5806 ") == ["5806", "6410", "6521", "6815"]
    with pytest.raises(ValueError, match="'43O8' is not a hex id"):
        parse_hex_list("4307 43O8")
    with pytest.raises(ValueError):
        parse_hex_list("  ")
    assert region_mode({"kind": "named", "name": "x"}) == "named"
    assert region_mode({"kind": "union", "of": [{"kind": "feature", "name": "Hill M"}]}) == "features"
    assert region_mode({"kind": "union", "of": [{"kind": "feature", "name": "Hill M"}, r0]}) == "json"
    assert region_mode({"kind": "feature_kind", "feature": "bridge"}) == "terrain"


def test_switching_to_map_features_says_the_count_is_of_the_region_as_it_was(open_panel):
    """The count line under the region field describes the region shown; after switching to
    *Map features* it says the region changes when features are ticked."""
    doc, v = open_panel(S4)
    assert v.select(("outcomes", 0, "condition", "of", 0))
    rf = v.region_field
    rf.mode.setCurrentIndex([rf.mode.itemData(i) for i in range(rf.mode.count())].index("features"))
    assert "tick the features" in rf.info.text()
    assert rf.features.minimumHeight() >= 72
    it = next(rf.features.item(i) for i in range(rf.features.count()) if rf.features.item(i).text() == "Building 1")
    it.setCheckState(Qt.CheckState.Checked)
    assert "tick the features" not in rf.info.text() and "Building 1" in rf.info.text()
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
