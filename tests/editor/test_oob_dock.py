"""The Orders of battle dock without JSON: side-wide entries, every
printed form and its refusal, set-up and entering groups at distinct places inside the map
sections, "may not move until Player Turn N", new-scenario placeholders inside the chosen
sections. Everything is one undo step. Headless (pytest-qt, offscreen)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.wording import SIDE_WIDE  # noqa: E402
from editor.scenario.builders.side_forms import GroupDialog  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
MAPSHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"


def open_window(qtbot, path):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    assert w.open_file(path, offer_recovery=False)
    return w


@pytest.fixture
def win(qtbot, dialogs):
    w = open_window(qtbot, DATA / "scenario_1_demyansk_pocket.json")
    yield w
    w.scenario_ctl.shutdown()
    w.scenario_ctl.doc.undo_stack.setClean()


def item_of(oob, loc):
    return next(it for it in oob._items() if it.data(0, 0x0100) is not None and tuple(it.data(0, 0x0100)) == loc)


def type_entry(oob, loc, text):
    """Select ``loc`` in the tree, type ``text`` in the entry field and press Add."""
    oob.tree.setCurrentItem(item_of(oob, loc))
    oob.entry_text.setText(text)
    oob.add_from_field()


def undo_all(doc, before):
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.scenario == before


# ------------------------------------------------------------------ side-wide entries (15.9, 18.1, 19.1)

def test_15_9_grenades_go_to_the_side_wide_node_not_the_first_group(win, dialogs):
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    german = before.german
    sw = item_of(oob, ("german", "oob"))
    assert sw.text(0) == SIDE_WIDE and sw.parent() is item_of(oob, ("german",))
    assert [sw.child(i).text(0) for i in range(sw.childCount())] == ["Grenades (6)"]
    # the side's own node: side-wide entries
    type_entry(oob, ("german",), "8 Grenades")
    assert doc.scenario.german.groups == german.groups
    assert [e.text for e in doc.scenario.german.oob] == ["Grenades (6)", "8 Grenades"]
    assert doc.scenario.german.grenades == 14 and oob.entry_text.text() == ""
    assert oob.current_loc() == ("german", "oob", 1)
    # the Side-wide node: IPs and mines stay side-wide too
    type_entry(oob, ("german", "oob"), "IP1 x2")
    assert doc.scenario.german.oob[-1].kind == "ip" and doc.scenario.german.groups == german.groups
    # grenades typed while a group is selected are the side's (15.9), said in the dock
    type_entry(oob, ("russian", "groups", 0), "6 grenades")
    assert doc.scenario.russian.groups == before.russian.groups
    assert doc.scenario.russian.grenades == 16 and "side-wide" in oob.info.text()
    # the group stays the target of the next line
    assert oob.current_loc()[:3] == ("russian", "groups", 0)
    assert oob.target.text() == "Add to Russian group Russian force:"
    assert doc.undo_stack.count() == 3 and dialogs == []
    # a line of units that ends in grenades: the units in the group, the grenades the side's, and
    # the group still the target
    type_entry(oob, ("russian", "groups", 0), "PL PR10; Grenades (2)")
    assert oob.current_loc()[:3] == ("russian", "groups", 0)
    assert doc.scenario.russian.grenades == 18
    undo_all(doc, before)


def test_24_1_a_unit_typed_at_side_level_is_refused_with_the_reason(win, dialogs):
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    type_entry(oob, ("german", "oob"), "Squad D (10)")
    assert doc.scenario == before and doc.undo_stack.count() == 0
    assert oob.entry_text.text() == "Squad D (10)"          # kept for correcting
    (kind, args), = dialogs
    assert kind == "warning" and "belongs to a group" in args[2] and "24.1" in args[2]


def test_target_label_says_where_an_entry_goes(win):
    oob = win.scenario_ctl.oob
    oob.tree.setCurrentItem(item_of(oob, ("russian", "groups", 0)))
    assert oob.target.text() == "Add to Russian group Russian force:"
    oob.tree.setCurrentItem(item_of(oob, ("russian", "oob")))
    assert oob.target.text() == "Add to Russian the side-wide entries (grenades, IPs, mines):"


# ------------------------------------------------------------------ printed forms and refusals

def test_24_1_the_rosters_spellings_and_variants_make_units(win, dialogs):
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    for text in ("Mor #1 (12)", "BT7m #1 and #2", "mmg #'s 1 & 2 (14 each)"):
        type_entry(oob, ("russian", "groups", 0), text)
    assert dialogs == []
    oob_r = doc.scenario.russian.groups[0].oob
    assert (oob_r[-3].kind, oob_r[-3].weapon, oob_r[-3].ammo) == ("crew_weapon", "MOR", 12)
    assert (oob_r[-2].kind, oob_r[-2].type, oob_r[-2].numbers) == ("afv", "BT7m", [1, 2])
    st = doc.setup()
    assert doc.setup_error() is None
    units = set(st.entries[0].units)
    assert {"R-Mor-1", "R-BT7M-1", "R-BT7M-2"} <= units
    assert st.units["R-Mor-1"].ammo == 12
    undo_all(doc, before)


def test_24_1_several_entries_separated_by_semicolons_are_one_undo_step(win, dialogs):
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    type_entry(oob, ("german", "groups", 0), "Squad D less R PR9; PS; IP1 x2; 6 grenades")
    assert dialogs == [] and doc.undo_stack.count() == 1
    assert [e.text for e in doc.scenario.german.groups[0].oob[-3:]] == ["Squad D less R PR9", "PS", "IP1 x2"]
    assert doc.scenario.german.oob[-1].text == "6 grenades"
    doc.undo_stack.undo()
    assert doc.scenario == before


@pytest.mark.parametrize("text, problem", [
    ("T34a #1 (10)", "24.1 gives ammo points only to a squad's LMG and to crew weapons"),
    ("Squad D (ten)", "cannot read '(ten)' after Squad D"),
])
def test_24_1_a_refused_entry_shows_the_problem_and_the_accepted_forms(win, dialogs, text, problem):
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    type_entry(oob, ("russian", "groups", 0), text)
    assert doc.scenario == before and oob.entry_text.text() == text
    (kind, args), = dialogs
    assert kind == "warning" and args[1] == "Cannot read the entry"
    assert text in args[2] and problem in args[2]
    assert "Accepted forms:" in args[2] and "e.g. BT7m #1 and #2" in args[2] and "e.g. 6 grenades" in args[2]


# ------------------------------------------------------------------ groups

def test_new_set_up_groups_get_distinct_places_inside_the_sections(win, dialogs):
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    area = {h.id for h in doc.context.area}
    old = set()
    for side in ("german", "russian"):
        for g in doc.scenario.side(side).groups:
            for r in ([g.setup.region] if g.setup else [o.region for o in g.entry.options]):
                old |= doc.resolve(r)[0]
    zones = []
    for i in range(3):
        assert oob.add_group("german", f"Reserve {i + 1}")
        g = doc.scenario.german.groups[-1]
        assert g.setup is not None and g.setup.region.kind == "hexes"
        hexes, err = doc.resolve(g.setup.region)
        assert err is None and len(hexes) >= 2 and hexes <= area       # inside Map 2
        zones.append(hexes)
    assert not (zones[0] & zones[1]) and not (zones[1] & zones[2]) and not (zones[0] & zones[2])
    assert not (zones[0] & old)
    assert oob.current_loc() == ("german", "groups", 3)
    assert [p for p in doc.problems() if "groups[1]" in p.path or "groups[2]" in p.path or "groups[3]" in p.path] == []
    assert doc.undo_stack.count() == 3 and dialogs == []
    undo_all(doc, before)


def test_new_groups_on_a_narrowed_scenario_stay_inside_its_sections(qtbot, dialogs, tmp_path):
    """Scenario 2 plays Map 1 (columns 10-30): a new group never lands at a fixed hex of the
    whole sheet."""
    w = open_window(qtbot, DATA / "scenario_2_khristishche.json")
    ctl = w.scenario_ctl
    doc = ctl.doc
    assert ctl.oob.add_group("russian", "Second wave")
    g = doc.scenario.russian.groups[-1]
    hexes, err = doc.resolve(g.setup.region)
    assert err is None and all(10 <= int(h[:2]) <= 30 for h in hexes)
    ctl.shutdown()
    doc.undo_stack.setClean()


def test_24_1_an_entering_group_from_the_dialog(win, qtbot, dialogs):
    """Add group... with the real dialog: enters on turn 3 through hexes 3001-3013, may not move
    until Player Turn 4 (Scenario 3's Squad D and PS, Scenario 5's BT7m's)."""
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    oob.tree.setCurrentItem(item_of(oob, ("russian",)))
    seen = []

    def fill():
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, GroupDialog)
        seen.append(dlg.windowTitle())
        dlg.name.setText("Second wave")
        dlg.deploy.setCurrentIndex(dlg.deploy.findData("entry"))
        assert dlg.turn.isEnabled() and not dlg.hexes.isEnabled()
        dlg.turn.setValue(3)
        dlg.through.setCurrentIndex(dlg.through.findData("hexes"))
        assert dlg.hexes.isEnabled()
        dlg.hexes.setText("3001-3013")
        dlg.restrict.setChecked(True)
        dlg.until.setValue(4)
        dlg.accept()

    QTimer.singleShot(0, fill)
    oob.add_group_dialog()
    assert seen == ["Add russian group"]
    g = doc.scenario.russian.groups[-1]
    assert g.name == "Second wave" and g.setup is None
    o = g.entry.options[0]
    assert (o.turn, o.phase, o.region.kind) == (3, "movement", "hex_range")
    assert (o.region.first, o.region.last) == ("3001", "3013")
    assert [(r.kind, r.until_turn) for r in g.restrictions] == [("no_movement", 4)]
    assert doc.resolve(o.region)[1] is None
    assert item_of(oob, ("russian", "groups", 1)).text(1) == "enters turn 3, no move before turn 4"
    # the engine brings its units in on turn 3 through those hexes and holds them until turn 4
    assert oob.add_entry("russian", 1, "Squad D")
    st = doc.setup()
    assert doc.setup_error() is None
    e, = (x for x in st.entries if x.group == "Second wave")
    assert e.turn == 3 and len(e.units) == 10 and e.hexes == frozenset(f"30{r:02d}" for r in range(1, 14))
    assert {st.no_move_before[u] for u in e.units} == {4}
    assert doc.undo_stack.count() == 2 and dialogs == []
    undo_all(doc, before)


def test_entering_groups_get_distinct_edges(win, dialogs):
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    used = set()
    for o in doc.scenario.russian.groups[0].entry.options:
        stack = [o.region]
        while stack:
            r = stack.pop()
            if r.kind == "map_edge":
                used.add(r.direction)
            stack.extend(c for _l, c in r.children())
    assert oob.add_group("russian", "Wave 2", setup=False)
    assert oob.add_group("russian", "Wave 3", setup=False, turn=2)
    e2, e3 = (doc.scenario.russian.groups[i].entry.options[0] for i in (1, 2))
    assert e2.region.kind == e3.region.kind == "map_edge"
    assert e2.region.direction not in used and e3.region.direction not in used | {e2.region.direction}
    assert e3.turn == 2


def test_24_8_may_not_move_until_turn_2_on_an_existing_group(win, dialogs):
    """Scenario 5's "the two BT7m's ... may not move until Russian Player Turn 2", as a form:
    Edit group... on a set-up group (the form answered through the panel's hook)."""
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    oob.tree.setCurrentItem(item_of(oob, ("german", "groups", 0)))
    asked = []
    oob.group_form = lambda panel, side, index: asked.append((side, index)) or {"until_turn": 2}
    oob.edit_group_dialog()
    assert asked == [("german", 0)]
    g = doc.scenario.german.groups[0]
    assert [(r.kind, r.until_turn) for r in g.restrictions] == [("no_movement", 2)]
    assert g.setup == before.german.groups[0].setup and g.oob == before.german.groups[0].oob
    assert "no move before turn 2" in item_of(oob, ("german", "groups", 0)).text(1)
    st = doc.setup()
    assert st is not None and doc.setup_error() is None
    oob.group_form = lambda panel, side, index: {"until_turn": None}
    oob.edit_group_dialog()
    assert doc.scenario.german.groups[0].restrictions == []
    assert doc.undo_stack.count() == 2
    undo_all(doc, before)


def test_group_dialog_shows_an_existing_entering_group(win, qtbot):
    doc = win.scenario_ctl.doc
    dlg = GroupDialog(doc, "russian", 0)
    qtbot.addWidget(dlg)
    o = doc.scenario.russian.groups[0].entry.options[0]
    assert dlg.name.text() == "Russian force" and dlg.deploy.currentData() == "entry"
    assert dlg.turn.value() == o.turn
    # Scenario 1's entry is a union of edges: kept as it is unless another edge is chosen
    assert dlg.through.currentData() == "keep" and o.region.describe() in dlg.through.currentText()
    v = dlg.values()
    assert (v["deploy"], v["through"], v["until_turn"]) == ("entry", "keep", None)


def test_renaming_a_group_follows_into_its_detachments(qtbot, dialogs):
    w = open_window(qtbot, DATA / "scenario_5_through_the_marshes.json")
    ctl = w.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    det = doc.scenario.german.detachments[0]
    gi = next(i for i, g in enumerate(doc.scenario.german.groups) if g.name == det.from_group)
    before = doc.scenario.german.groups[gi]
    assert oob.edit_group("german", gi, name="Kampfgruppe Raus")
    g = doc.scenario.german.groups[gi]
    assert g.name == "Kampfgruppe Raus" and (g.entry, g.oob) == (before.entry, before.oob)
    assert doc.scenario.german.detachments[0].from_group == "Kampfgruppe Raus"
    assert doc.problems() == []
    doc.undo_stack.undo()
    assert doc.scenario.german.detachments[0].from_group == det.from_group
    ctl.shutdown()
    doc.undo_stack.setClean()


def test_a_duplicate_group_name_is_refused(win, dialogs):
    doc, oob = win.scenario_ctl.doc, win.scenario_ctl.oob
    assert not oob.add_group("german", "German force")
    assert doc.undo_stack.count() == 0 and "already has a group named" in dialogs[0][1][2]


# ------------------------------------------------------------------ new-scenario placeholders

@pytest.mark.parametrize("sections", [["Map 1"], ["Map 3"], ["Map 2", "Map 3"]])
def test_new_scenario_placeholders_stay_inside_the_chosen_sections(qtbot, dialogs, sections):
    w = open_window(qtbot, MAPSHEET)
    ctl = w.scenario_ctl
    doc = ctl.new_scenario()
    assert "4014" not in json.dumps(doc.data())
    assert doc.problems() == []
    # narrow the sections in the Scenario dock (ticks)
    props = ctl.properties
    for i in range(props.sections.count()):
        it = props.sections.item(i)
        it.setCheckState(Qt_checked(it.data(0x0100) in sections))
    assert doc.scenario.map.sections == sections
    assert doc.problems() == []
    area = {h.id for h in doc.context.area}
    for loc, region in doc.regions():
        hexes, err = doc.resolve(region)
        assert err is None and hexes and hexes <= area, loc
    # a new group lands inside too
    assert ctl.oob.add_group("german", "Reserve")
    assert doc.resolve(doc.scenario.german.groups[-1].setup.region)[0] <= area
    assert doc.problems() == []
    ctl.shutdown()
    doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


def Qt_checked(on: bool):
    from PySide6.QtCore import Qt

    return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked


# ------------------------------------------------------------------ the dock, drawn

def test_the_oob_dock_renders_with_its_side_wide_nodes(win, tmp_path):
    ctl = win.scenario_ctl
    ctl.oob.add_group("russian", "Second wave", setup=False, turn=3, until_turn=4)
    ctl.docks["oob"].show()
    ctl.docks["oob"].raise_()
    ctl.oob.tree.expandToDepth(1)
    QApplication.processEvents()
    img = ctl.docks["oob"].grab().toImage()
    out = tmp_path / "oob.png"
    assert img.save(str(out)) and out.stat().st_size > 1000
    texts = [it.text(0) for it in ctl.oob._items()]
    assert texts.count(SIDE_WIDE) == 2 and "Second wave" in texts
    assert "several separated by ';'" in ctl.oob.info.text()
    # the "Deploys" column never takes more than 40% of the tree: the entries stay readable
    assert ctl.oob.tree.header().sectionSize(1) <= ctl.oob.tree.viewport().width() * 2 // 5


def test_an_ambiguous_commander_is_refused_with_the_form_that_names_one(win, dialogs):
    """The Russians have two APLs (PR9, PR10): a plain 'APL' is refused where it is typed with the
    form to type ('APL PR9'), not with a pointer to adding a counter."""
    ctl = win.scenario_ctl
    doc, oob = ctl.doc, ctl.oob
    before = doc.scenario
    type_entry(oob, ("russian", "groups", 0), "APL")
    assert doc.scenario == before and oob.entry_text.text() == "APL"
    text = oob.info.text()
    assert "ambiguous" in text and "APL PR9" in text and "Add commander" not in text
    type_entry(oob, ("russian", "groups", 0), "APL PR9")
    assert doc.scenario.russian.groups[0].oob[-1].text == "APL PR9"
    undo_all(doc, before)
