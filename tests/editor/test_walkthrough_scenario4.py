"""A scenario built without typing JSON: Scenario 4 of the rulebook (24.7, Tula) rebuilt in the editor from a NEW
scenario, with GUI operations only, as a designer who has read the README and
docs/scenario-design.md would: the printed lines typed into the widgets, the map clicked, the
dialogs filled. Nothing is written as JSON. At the end the built scenario validates with no
problems, equals the shipped ``scenarios/data/scenario_4_tula.json`` once normalised (the same
regions evaluate to the same hexes, the same orders of battle build the same units, the same
victory results on positions) and plays the same games from the same seeds.

The same driver makes the walk-through's screenshots: ``WALKTHROUGH_SHOTS=docs/images pytest
tests/editor/test_walkthrough_scenario4.py`` saves ``walkthrough-*.png`` there (offscreen,
1366 x 768). Headless (pytest-qt, offscreen); message boxes answered by the ``dialogs`` fixture
(tests/editor/conftest.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtGui import QAction  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.builders.region_picking import picker  # noqa: E402
from editor.scenario.builders.side_forms import GroupDialog  # noqa: E402
from editor.drawing.pieces import hex_centre  # noqa: E402
from maps import hexgrid  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
S4 = ROOT / "scenarios" / "data" / "scenario_4_tula.json"
SHOTS = os.environ.get("WALKTHROUGH_SHOTS")

# -- the rulebook's text (24.7 Scenario 4), as printed (the erratum applied where it says)
BACKGROUND = ("During the end of November, 1941, Panzergruppe Guderian loses the remaining strength from some of the "
              "best German units in futile attempts to capture Tula during the Moscow Campaign. Assault teams from the "
              "Grossdeutschland Regiment supported by tanks attempt to clear the outskirts of Tula. The initial "
              "attacks go well but it is soon stopped by units of the Russian 50th Army, leaving Tula in Russian "
              "hands, thus blunting the drive for Moscow.")
MAP_TEXT = "Map 1 (hex columns 1001/1027 to 3001/3027) is used."
NORTH_TEXT = "Place in hex 1026 pointing to hex 1027."
RUSSIAN_SETUP = ("Squad A (7) less LMG PR8; Squad D (7) less R PR8; Squad F (3 units, MP PR9, PR8, PR6 only); APL PR9; "
                 "MMG #2 (10); 45AT #'s 1 & 2; IP1 x 3; IP2 x 1; 10 AT Mine Factors; Grenades (10).")
GERMAN_SETUP = ("Squad B (6); Squad C (6); Squad D; Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only); "
                "PL; MMG #1 (11); IVe #1; IP2 x 1; Grenades (24).")
RUSSIAN_NOTES = ["Russian player sets up first.", "May have 3 hidden hexes.",
                 "Deploy anywhere north of road network bounded by hexes 1014 - 1315 - 1608 - 2108 - 2106 - 2608 - "
                 "2613 - 2913 - 3014."]
GERMAN_NOTES = ["German player moves first.", "Deploy anywhere south of the road network listed in the Russian set-up."]
VICTORY_TEXT = ("The German player wins if there are no Russian units south of the east-west road (hexes 1014 - 1315 - "
                "1715 - 2215 - 2613 - 2913 - 3014) and no Russian units in either Building 1 or Building 2 at the end "
                "of the game. The Russian player wins by having at least three units south of the east-west road, "
                "described above, at the end of the game. These three units must be any commander unit(s) or "
                "non-commander units from the same squad.")
ROAD_NETWORK = "1014 - 1315 - 1608 - 2108 - 2106 - 2608 - 2613 - 2913 - 3014"   # Russian note 3, corrected
EAST_WEST_ROAD = "1014 - 1315 - 1715 - 2215 - 2613 - 2913 - 3014"             # the victory conditions


# ============================================================================ what a user does
def click_hex(qtbot, w, hid: str, button=Qt.MouseButton.LeftButton, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A real mouse click on the map view, at the centre of hex ``hid``."""
    w.view.centre_on_hex(hexgrid.parse_hex_id(hid))
    QApplication.processEvents()
    p = w.view.mapFromScene(hex_centre(hid))
    qtbot.mouseClick(w.view.viewport(), button, modifier, pos=QPoint(p.x(), p.y()))
    QApplication.processEvents()


def type_into(qtbot, edit, text: str, enter: bool = False) -> None:
    """Select all, type ``text``, then leave the field (Return for a line edit: editingFinished)."""
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)
    if enter:
        qtbot.keyClick(edit, Qt.Key.Key_Return)
    QApplication.processEvents()


def choose(combo, key) -> None:
    """Pick the item whose data (else text) is ``key``, as a user does (``activated`` too)."""
    i = combo.findData(key)
    if i < 0:
        i = combo.findText(key)
    assert i >= 0, (key, [combo.itemText(k) for k in range(combo.count())])
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    QApplication.processEvents()


def menu_action(w, text: str) -> QAction:
    return next(a for a in w.findChildren(QAction) if a.text().replace("&", "") == text)


def tree_item(tree, pred):
    """The first item of a QTreeWidget (depth first) for which ``pred(item)`` holds."""
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())][::-1]
    while stack:
        it = stack.pop()
        if pred(it):
            return it
        stack += [it.child(i) for i in range(it.childCount())][::-1]
    raise AssertionError("no such item in the tree")


def click_item(tree, it) -> None:
    """Select a tree row as a click does."""
    tree.scrollToItem(it)
    tree.setCurrentItem(it)
    QApplication.processEvents()


class Shots:
    """``walkthrough-NAME.png`` of the whole window (only with WALKTHROUGH_SHOTS=DIR)."""

    def __init__(self, w):
        self.w = w
        self.taken: list[str] = []

    def __call__(self, name: str) -> None:
        if not SHOTS:
            return
        QApplication.processEvents()
        out = Path(SHOTS) / f"walkthrough-{name}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        assert self.w.grab().save(str(out), "PNG")
        self.taken.append(out.name)


# ============================================================================ the walk-through
@pytest.fixture
def window(qtbot, dialogs):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    yield w
    picker().stop()
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


def build_scenario_4(qtbot, w, dialogs, shot) -> None:
    """Every step of docs/scenario-design.md, through the widgets."""
    # -- 1. the map, then File > New scenario on this map
    assert w.open_file(MAP, offer_recovery=False)
    menu_action(w, "New scenario on this map...").trigger()
    ctl = w.scenario_ctl
    doc = ctl.doc
    assert doc is not None and w.mode == "scenario"
    ctl.docks["properties"].raise_()
    props = ctl.properties
    type_into(qtbot, props.title, "Tula", enter=True)
    type_into(qtbot, props.number, "4", enter=True)
    type_into(qtbot, props.map_text, MAP_TEXT, enter=True)
    for i in range(props.sections.count()):                  # Map 1 only
        it = props.sections.item(i)
        want = Qt.CheckState.Checked if it.text().startswith("Map 1 ") else Qt.CheckState.Unchecked
        if it.checkState() != want:
            props.sections.item(i).setCheckState(want)
            QApplication.processEvents()
    type_into(qtbot, props.turns, "6", enter=True)
    choose(props.sets_up, "russian")
    choose(props.moves, "german")
    props.background.setPlainText(BACKGROUND)
    props.apply_bg.click()
    # the North tool: click 1026, then 1027
    w.tool_actions["north"].trigger()
    click_hex(qtbot, w, "1026")
    click_hex(qtbot, w, "1027")
    type_into(qtbot, props.north_text, NORTH_TEXT, enter=True)
    ctl.fit()
    shot("1-properties")
    sc = doc.scenario
    assert (sc.title, sc.number, sc.turns, sc.sets_up_first, sc.moves_first) == ("Tula", 4, 6, "russian", "german")
    assert sc.map.sections == ["Map 1"] and (sc.north.hex, sc.north.points_to) == ("1026", "1027")

    # -- 2. orders of battle: the Russians set up too (Edit group...), the printed lines pasted
    ctl.docks["oob"].raise_()
    oob = ctl.oob

    def fill_group(panel, side, index):
        dlg = GroupDialog(doc, side, index, panel)
        choose(dlg.deploy, "setup")                           # "sets up on the map"
        return dlg.values()

    oob.group_form = fill_group                               # the dialog's OK, without a modal loop
    click_item(oob.tree, tree_item(oob.tree, lambda it: it.text(0).startswith("Russian force")))
    oob.edit_group_dialog()
    assert doc.scenario.russian.groups[0].setup is not None and doc.scenario.russian.groups[0].entry is None
    for side, line in (("Russian", RUSSIAN_SETUP), ("German", GERMAN_SETUP)):
        click_item(oob.tree, tree_item(oob.tree, lambda it: it.text(0).startswith(f"{side} force")))
        assert oob.target.text() == f"Add to {side} group {side} force:"
        type_into(qtbot, oob.entry_text, line, enter=True)
        assert oob.entry_text.text() == "", dialogs           # read: the field is emptied
    assert [e.text for e in doc.scenario.russian.oob] == ["Grenades (10)"]   # grenades went side-wide (15.9)
    assert [e.text for e in doc.scenario.german.oob] == ["Grenades (24)"]
    oob.tree.expandToDepth(1)
    shot("2-oob")

    # -- 3. the Sides dock: notes, set-up texts, hidden hexes
    ctl.docks["sides"].raise_()
    sides = ctl.sides
    for side, notes, text in (("russian", RUSSIAN_NOTES, RUSSIAN_SETUP), ("german", GERMAN_NOTES, GERMAN_SETUP)):
        choose(sides.side, side)
        sides.tabs.setCurrentIndex(3)                                            # Notes
        for n in notes:
            sides.note_text.setPlainText(n)
            next(b for b in sides.findChildren(type(props.apply_bg)) if b.text() == "Add note").click()
        sides.tabs.setCurrentIndex(2)                                            # Set-up
        sides.setup_tab.setup_text.setPlainText(text)
        next(b for b in sides.setup_tab.findChildren(type(props.apply_bg)) if b.text() == "Apply set-up text").click()
    choose(sides.side, "russian")
    sides.tabs.setCurrentIndex(2)
    type_into(qtbot, sides.hidden, "3", enter=True)
    assert doc.scenario.russian.hidden_hexes == 3
    shot("3-sides")

    # -- 4. regions: the two roads, south of the east-west road, the two set-up zones
    ctl.docks["regions"].raise_()
    regions = ctl.regions

    def new_named(name: str, build) -> None:
        regions.new_region()
        type_into(qtbot, regions.name, name)
        build(regions.editor.form)
        regions.ok_button.click()
        assert regions.message.isHidden(), regions.message.text()
        assert name in doc.scenario.regions

    def road(through: str):
        def build(form):
            choose(form.kind_combo, "path")                   # "Road or gully"
            type_into(qtbot, form.editor.through.edit, through)
        return build

    new_named("road network", road(ROAD_NETWORK))
    ctl.docks["oob"].raise_()
    ctl.fit()
    shot("4-road")
    # the east-west road: its waypoints clicked on the map, in order
    regions.new_region()
    type_into(qtbot, regions.name, "east-west road")
    form = regions.editor.form
    choose(form.kind_combo, "path")
    form.editor.through.pick_button.click()
    for h in EAST_WEST_ROAD.split(" - "):
        click_hex(qtbot, w, h)
    form.editor.through.pick_button.click()
    regions.ok_button.click()
    assert regions.message.isHidden(), regions.message.text()

    def side_of_named(direction: str, name: str):
        def build(form):
            choose(form.kind_combo, "side_of")                # "Side of a path or hex line"
            choose(form.editor.direction, direction)
            of = form.parts()[0]
            choose(of.kind_combo, "named")
            of.editor.combo.setCurrentText(name)
            QApplication.processEvents()
        return build

    new_named("south of the east-west road", side_of_named("south", "east-west road"))
    for side, direction in (("Russian", "north"), ("German", "south")):
        it = tree_item(regions.list, lambda it: it.text(0).startswith(f"{side} set-up zone"))
        click_item(regions.list, it)
        side_of_named(direction, "road network")(regions.editor.form)
        regions.ok_button.click()
        assert regions.message.isHidden(), regions.message.text()
    ctl.fit()
    shot("5-zone")

    # -- 5. victory: the victory builder
    ctl.docks["victory"].raise_()
    v = ctl.victory
    f = v.fields
    v.text.setFocus()
    v.text.setPlainText(VICTORY_TEXT)
    v.commit_text()                                           # the box loses the focus
    assert v.select(("outcomes", 0))                          # the new scenario's placeholder outcome...
    placeholder = doc.scenario.victory.outcomes[0]
    assert placeholder.result == "russian"
    v.buttons["Add outcome"].click()                          # 2. (another side's win: German)
    assert v.loc == ("outcomes", 1) and f["result"].currentData() == "german"
    choose(f["kind"], "all_of")
    assert v.select(("outcomes", 1, "condition", "of", 0))
    choose(f["kind"], "none_in")
    choose(f["side"], "russian")
    region_named(v, "south of the east-west road")
    v.buttons["Add sub-condition"].click()
    region_features(v, ["Building 1", "Building 2"])
    v.buttons["Add outcome"].click()                          # 3. the Russian win
    assert v.loc == ("outcomes", 2) and f["result"].currentData() == "russian"
    choose(f["kind"], "at_least")
    choose(f["side"], "russian")
    f["count"].setValue(3)
    choose(f["grouping"], "same_squad_or_commanders")
    region_named(v, "south of the east-west road")
    assert v.select(("outcomes", 0))                          # the placeholder goes
    v.buttons["Remove"].click()
    choose(v.default, "draw")                                 # "any other result": not printed; a draw
    ctl.fit()
    shot("6-victory")

    # -- 6. a trial set-up: the Marks tool (K) for a hidden hex, the AT mines and the IPs, the Place
    # tool (U) for a few Russian units; Evaluate now
    ctl.docks["setup"].raise_()
    sp = ctl.setup_panel
    w.tool_actions["marks"].trigger()
    choose(sp.mark_side, "russian")
    for mode, factors, hexes in (("hidden hex", 2, ["2010"]), ("AT mines", 5, ["2209", "2309"]),
                                 ("IP", 1, ["2109"]), ("IP", 2, ["2110"])):
        choose(sp.mark_mode, mode)
        sp.mark_factors.setValue(factors)
        for h in hexes:
            click_hex(qtbot, w, h)
    assert "AT mines 10/10" in sp.marks.text(), sp.marks.text()
    w.tool_actions["place"].trigger()
    russians = next(d for d in doc.setup().deployments if d.side == "russian").units
    for uid, h in zip([u for u in russians if u.startswith("R-A-")][:3] + ["R-MMG-2"], ["2010"] * 3 + ["2109"]):
        sp.select_unit(uid)
        click_hex(qtbot, w, h)
        assert doc.placement.get(uid) is not None and doc.placement[uid].hex == h, w.statusBar().currentMessage()
    w.view.resetTransform()
    w.view.scale(0.9, 0.9)
    w.view.centre_on_hex(hexgrid.parse_hex_id("2110"))
    shot("7-setup")
    ctl.docks["victory"].raise_()
    v.buttons["Evaluate now"].click()
    shot("8-evaluate")


def region_named(panel, name: str) -> None:
    rf = panel.region_field
    choose(rf.mode, "named")
    choose(rf.named, name)


def region_features(panel, names: list[str]) -> None:
    rf = panel.region_field
    choose(rf.mode, "features")
    for n in names:
        it = next(rf.features.item(i) for i in range(rf.features.count()) if rf.features.item(i).text() == n)
        it.setCheckState(Qt.CheckState.Checked)
        QApplication.processEvents()


def test_scenario_4_rebuilt_in_the_editor_from_nothing(qtbot, window, dialogs, tmp_path):
    w = window
    shot = Shots(w)
    build_scenario_4(qtbot, w, dialogs, shot)
    doc = w.scenario_ctl.doc
    assert dialogs == []
    assert doc.problems() == []
    # -- 6. validation: nothing in the Validation dock, the same as `ironcross validate`
    ctl = w.scenario_ctl
    ctl.docks["validation"].raise_()
    QApplication.processEvents()
    assert ctl.validation.problems() == [] and doc.problems() == []
    shot("9-validation")
    out = tmp_path / "scenarios" / "data" / "scenario_4_tula.json"    # where the shipped one lies
    out.parent.mkdir(parents=True)
    doc.save(out)
    from scenarios.scenario_file import check_scenario, iter_regions, load_scenario, load_scenario_map, scenario_context

    assert check_scenario(load_scenario(out), out) == []
    built = json.loads(out.read_text(encoding="utf-8"))
    shipped = json.loads(S4.read_text(encoding="utf-8"))

    # -- the file, normalised: what differs is text the GUI cannot enter (see the docstring of TEXT_ONLY)
    found = {p for p, *_ in diff(built, shipped)}
    assert found == TEXT_ONLY, sorted(found ^ TEXT_ONLY)
    assert built["map"]["file"].endswith("maps/data/iron_cross_mapsheet_corrected.json")
    assert (out.parent / built["map"]["file"]).resolve() == MAP.resolve()
    assert "caps" not in built["german"] and "initial_control" not in built   # unused: left out, as shipped

    # -- the same regions evaluate to the same hexes
    a, b = load_scenario(out), load_scenario(S4)
    ca, cb = scenario_context(a, load_scenario_map(a, out)), scenario_context(b, load_scenario_map(b, S4))
    ra, rb = dict(iter_regions(a)), dict(iter_regions(b))
    assert [tuple(loc) for loc in ra] == [tuple(loc) for loc in rb]
    for loc, r in rb.items():
        hexes = {h.id for h in r.resolve(cb)}
        assert {h.id for h in ra[loc].resolve(ca)} == hexes and hexes, loc
    assert a.regions == b.regions and a.victory == b.victory
    for side in ("german", "russian"):
        sa, sb = a.side(side), b.side(side)
        assert [g.model_dump(exclude={"setup": {"note"}}) for g in sa.groups] == \
            [g.model_dump(exclude={"setup": {"note"}}) for g in sb.groups]
        assert (sa.oob, sa.hidden_hexes, sa.setup_text, [n.text for n in sa.notes]) == \
            (sb.oob, sb.hidden_hexes, sb.setup_text, [n.text for n in sb.notes])

    # -- the same units, zones and allotments in a game's set-up
    from core.ironcross.scenario_setup import load_setup

    for seed in (1, 2):
        (_, ga), (_, gb) = load_setup(out, seed=seed), load_setup(S4, seed=seed)
        assert ga.units == gb.units and len(ga.units) == 61
        assert [(d.side, d.zone, d.units) for d in ga.deployments] == [(d.side, d.zone, d.units) for d in gb.deployments]
        assert (ga.allotments, ga.grenades, ga.setup_order, ga.first_side, ga.game_length, ga.playing_area) == \
            (gb.allotments, gb.grenades, gb.setup_order, gb.first_side, gb.game_length, gb.playing_area)

    # -- the same victory results on positions
    from scenarios.victory import UnitRef, evaluate

    south = sorted(h.id for h in rb[("regions", "south of the east-west road")].resolve(cb))
    b1 = sorted(h.id for h in ca.hexmap.feature_hexes("Building 1"))[0]

    def R(uid, kind="infantry", squad="A"):
        return UnitRef("russian", uid, kind, squad if kind == "infantry" else None)

    positions = [{}, {south[0]: [R("a1"), R("a2")], south[1]: [R("a3")]},
                 {south[0]: [R("a1"), R("a2")], south[1]: [R("c1", "commander")]},
                 {south[0]: [R("a1"), R("a2")], south[1]: [R("d1", squad="D")]},
                 {b1: [R("a1")]}, {"1025": [R("a1")]}]   # north is down the sheet: 1025 is north of the road
    got = [evaluate(a.victory, p, ca).result for p in positions]
    assert got == [evaluate(b.victory, p, cb).result for p in positions]
    assert got == ["german", "russian", "russian", "draw", "draw", "german"]

    # -- 7. a playtest from the Playtest dock (Play mode), against the command line's on the shipped file
    assert w.set_mode("play")
    ctl.docks["playtest"].raise_()
    p = ctl.playtest
    p.games.setValue(GAMES)
    p.seed.setValue(SEED)
    p.workers.setValue(1)
    assert p.ai_spec() == {"german": "heuristic", "russian": "heuristic"} and p.rules.currentText() == "basic"
    p.run_btn.click()
    qtbot.waitUntil(lambda: p.summary is not None, timeout=120_000)
    ctl.fit()
    shot("10-playtest")
    from core.playtest import run_batch

    ref = run_batch(str(S4), GAMES, SEED, {"german": "heuristic", "russian": "heuristic"}, workers=1)
    assert [r.outcome for r in p.results] == [r.outcome for r in ref] and "error" not in {r.outcome for r in ref}
    for x, y in zip(p.results, ref):    # the same games, decision for decision
        assert (x.turns, x.actions, x.casualties, x.eliminated_at) == (y.turns, y.actions, y.casualties, y.eliminated_at)
    assert dialogs == []


#: one game checks the dock against the command line decision for decision; the walk-through's
#: pictures show a batch of three
GAMES, SEED = (3 if os.environ.get("WALKTHROUGH_SHOTS") else 1), 1

#: What the rebuilt file lacks against the shipped one, all of it text that changes no game:
#: the designer's notes and the errata log (top-level ``notes``, ``errata``), the ``provenance``,
#: the printed form and erratum of Russian note 3 (the Notes tab takes the corrected text only),
#: the number of the player note each set-up zone comes from (``setup.note``), and the map file
#: named relative to another folder (the same file). Unused ``caps`` and ``initial_control`` are
#: left out, as in the shipped file.
TEXT_ONLY = {"$.errata", "$.notes", "$.provenance", "$.map.file", "$.german.groups[0].setup.note",
             "$.russian.groups[0].setup.note", "$.russian.notes[2].erratum", "$.russian.notes[2].printed"}

def diff(a, b, path="$"):
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append((f"{path}.{k}", "missing in built", b[k]))
            elif k not in b:
                out.append((f"{path}.{k}", a[k], "missing in shipped"))
            else:
                out += diff(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, f"{path}[{i}]")
    elif a != b:
        out.append((path, a, b))
    return out
