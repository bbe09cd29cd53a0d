"""The scenario's Roster panel: add a squad, a commander, a CW or an AFV (of a
new type) with the forms, override a shipped value, remove them; each change one undo step; the
units reach the OOB, the engine's set-up and the games; the shipped counters file is never
written and the scenario file keeps a stable format. Headless (pytest-qt, offscreen)."""

from __future__ import annotations

import difflib
import hashlib
import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.builders.roster_values import ADDED_COLOUR, parse_value
from editor.scenario.builders.roster_entry_dialog import RosterEntryDialog
from scenarios.counters import shipped_counters_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"
S1 = DATA / "scenario_1_demyansk_pocket.json"


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture
def shipped_hash():
    """The shipped counters file: the same bytes before and after the test."""
    before = sha(shipped_counters_path())
    yield before
    assert sha(shipped_counters_path()) == before


def open_window(qtbot, path):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    assert w.open_file(path, offer_recovery=False)
    return w


@pytest.fixture
def win(qtbot, dialogs, shipped_hash):
    w = open_window(qtbot, S1)
    yield w
    w.scenario_ctl.shutdown()
    w.scenario_ctl.doc.undo_stack.setClean()


@pytest.fixture
def copy_of_s1(tmp_path):
    """Scenario 1 in a folder of its own, with the map files where its relative reference points."""
    (tmp_path / "maps" / "data").mkdir(parents=True)
    for f in (ROOT / "maps" / "data").glob("*.json"):
        shutil.copy(f, tmp_path / "maps" / "data" / f.name)
    (tmp_path / "scenarios" / "data").mkdir(parents=True)
    out = tmp_path / "scenarios" / "data" / S1.name
    shutil.copy(S1, out)
    return out


def type_entry(oob, loc, text):
    it = next(i for i in oob._items() if i.data(0, 0x0100) is not None and tuple(i.data(0, 0x0100)) == loc)
    oob.tree.setCurrentItem(it)
    oob.entry_text.setText(text)
    oob.add_from_field()


def squad_form(panel, side="russian", letter="P", men=(("MP", 9), ("LMG", 8), ("R", 7), ("R", 6))):
    dlg = RosterEntryDialog(panel, "squad")
    dlg.side.setCurrentText(side)
    dlg.letter.setText(letter)
    dlg.set_men(list(men))
    dlg.description.setText("assault engineers")
    dlg.note.setText("my own squad")
    return dlg


# ------------------------------------------------------------------ squads (2.21)

def test_2_21_a_new_squad_p_from_the_form_used_in_the_oob_and_set_up(win, dialogs):
    ctl = win.scenario_ctl
    doc, panel, oob = ctl.doc, ctl.roster, ctl.oob
    before, n0 = doc.scenario, doc.undo_stack.count()
    panel.side.setCurrentText("russian")
    dlg = squad_form(panel)
    assert dlg.submit() and dlg.error.text() == ""
    assert doc.undo_stack.count() == n0 + 1 and doc.undo_stack.undoText() == "Roster: add russian Squad P (4 men)"
    add = doc.scenario.roster.add[0]
    assert (add.kind, add.side, add.letter, [(m.weapon, m.pr) for m in add.men]) == (
        "squad", "russian", "P", [("MP", 9), ("LMG", 8), ("R", 7), ("R", 6)])
    assert add.provenance.source == "designer" and add.note == "my own squad"
    # the panel shows the squad as added: "+", green, its men marked too
    sq = panel.item(("squad", "russian", "P"))
    assert sq is not None and sq.text(0) == "+ Squad P" and sq.background(0).color() == ADDED_COLOUR
    man = panel.item(("unit", "R-P-2"))
    assert man.text(0).startswith("+ R-P-2 LMG") and man.text(1) == "PR8"
    assert panel.item(("squad", "russian", "A")) is None and panel.item(("unit", "R-A-1")).text(0).startswith("R-A-1")
    assert "adds 1 squad" in panel.summary.text()
    # the OOB reads "Squad P" and the engine sets its men up
    type_entry(oob, ("russian", "groups", 0), "Squad P (9) less R PR6")
    e = doc.scenario.russian.groups[0].oob[-1]
    assert (e.kind, e.letter, e.ammo) == ("squad", "P", 9) and doc.problems() == []
    st = doc.setup()
    assert {"R-P-1", "R-P-2", "R-P-3"} <= set(st.units) and "R-P-4" not in st.units
    assert st.units["R-P-2"].ammo == 9 and st.units["R-P-1"].pr == 9
    # undo: the OOB entry, then the squad; redo both
    doc.undo_stack.undo()
    assert doc.scenario.russian.groups[0].oob == before.russian.groups[0].oob
    doc.undo_stack.undo()
    assert doc.scenario == before and doc.scenario.roster is None and panel.item(("squad", "russian", "P")) is None
    doc.undo_stack.redo()
    doc.undo_stack.redo()
    assert "R-P-2" in doc.setup().units and panel.item(("unit", "R-P-2")) is not None


def test_2_21_refusals_are_said_in_the_form_and_change_nothing(win, dialogs):
    ctl = win.scenario_ctl
    doc, panel = ctl.doc, ctl.roster
    n0 = doc.undo_stack.count()
    dlg = squad_form(panel, letter="A")
    assert not dlg.submit() and "the russian roster already has Squad A" in dlg.error.text()
    dlg = squad_form(panel, letter="P", men=[("FT", 9)])
    assert not dlg.submit() and "$.roster.add[0].men[0].weapon: no russian weapon profile for 'FT'" in dlg.error.text()
    dlg = squad_form(panel, letter="P", men=[])
    assert not dlg.submit() and "men" in dlg.error.text()
    dlg = squad_form(panel, letter="7")
    assert not dlg.submit() and "one capital letter (2.21)" in dlg.error.text()
    # an override out of range, by the form
    dlg = RosterEntryDialog(panel, "override")
    dlg.side.setCurrentText("russian")
    dlg.unit.setCurrentIndex(dlg.unit.findData("R-A-1"))
    dlg.field.setCurrentText("pr")
    dlg.value.setText("13")
    assert not dlg.submit() and "PR must be 2-12" in dlg.error.text()
    dlg.value.setText("eight")
    assert not dlg.submit() and "pr is a whole number" in dlg.error.text()
    assert doc.undo_stack.count() == n0 and doc.scenario.roster is None


def test_2_21_the_dialog_stays_open_on_a_refusal_and_closes_on_success(win, qtbot, dialogs):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    panel = win.scenario_ctl.roster
    panel.side.setCurrentText("german")
    seen = []

    def fill():
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, RosterEntryDialog)
        dlg.letter.setText("B")     # the Germans have a Squad B
        dlg.accept()
        seen.append(dlg.isVisible() and "already has Squad B" in dlg.error.text())
        dlg.letter.setText("K")
        dlg.set_men([("MP", 10), ("LMG", 9), ("FT", 8)])
        dlg.accept()
        seen.append(not dlg.isVisible())

    QTimer.singleShot(0, fill)
    assert panel.open_form("squad")
    assert seen == [True, True]
    assert [m.weapon for m in win.scenario_ctl.doc.roster.squad("german", "K").men] == ["MP", "LMG", "FT"]


# ------------------------------------------------------------------ AFVs (2.22), CWs (2.23), commanders (5.1)

def test_2_22_an_afv_of_a_new_type_used_in_the_oob(win, dialogs):
    ctl = win.scenario_ctl
    doc, panel, oob = ctl.doc, ctl.roster, ctl.oob
    n0 = doc.undo_stack.count()
    panel.side.setCurrentText("russian")
    dlg = RosterEntryDialog(panel, "afv")
    assert dlg.side.currentText() == "russian"   # the panel's side
    assert "BT7M" in [dlg.type.itemText(i) for i in range(dlg.type.count())]
    dlg.type.setEditText("T60")
    assert "A new AFV type" in dlg.type_note.text() and dlg.number.value() == 1
    for f, v in (("ap_factor", 5), ("ap_range", 8), ("frontal_modifier", 3), ("flank_modifier", 2),
                 ("at_factor", 7), ("overrun_factor", 4), ("pr", 7), ("movement", 10)):
        dlg.values[f].setValue(v)
    dlg.description.setText("T-60 light tank")
    assert dlg.submit()
    assert doc.undo_stack.count() == n0 + 1   # the type and its counter: one undo step
    assert [a.kind for a in doc.scenario.roster.add] == ["afv_type", "afv"], doc.scenario.roster.add
    assert panel.item(("type", 0)) is not None and panel.item(("unit", "R-T60-1")).text(0).startswith("+ R-T60-1")
    type_entry(oob, ("russian", "groups", 0), "T60 #1")
    e = doc.scenario.russian.groups[0].oob[-1]
    assert (e.kind, e.type, e.numbers) == ("afv", "T60", [1]) and doc.problems() == []
    u = doc.setup().units["R-T60-1"]
    assert u.is_afv and (u.at, u.ap, u.frontal, u.flank, u.ma) == (7, 5, 3, 2, 10)
    # a second counter of the new type: the form knows the type now and numbers it #2
    dlg = RosterEntryDialog(panel, "afv")
    dlg.side.setCurrentText("russian")
    dlg.type.setEditText("T60")
    assert "A counter of the AFV type T60" in dlg.type_note.text() and dlg.number.value() == 2
    dlg.values["pr"].setValue(8)
    assert dlg.submit()
    assert doc.scenario.roster.add[-1].model_dump(exclude_none=True) == {
        "kind": "afv", "side": "russian", "type": "T60", "number": 2, "pr": 8, "provenance": {"source": "designer"}}
    # the type cannot go while its counters are there
    panel.tree.setCurrentItem(panel.item(("type", 0)))
    panel.remove_selected()
    assert dialogs and "unknown russian AFV type 'T60'" in dialogs[-1][1][2]


def test_2_23_5_1_a_cw_of_a_shipped_type_and_a_commander(win, dialogs):
    ctl = win.scenario_ctl
    doc, panel, oob = ctl.doc, ctl.roster, ctl.oob
    dlg = RosterEntryDialog(panel, "crew_weapon")
    dlg.side.setCurrentText("german")
    dlg.type.setCurrentText("MMG")
    assert dlg.number.value() == 3 and not dlg.description.isEnabled()
    assert dlg.modes["DF"].isChecked()   # the type's values, to change
    dlg.values["pr"].setValue(7)
    assert dlg.submit()
    assert doc.scenario.roster.add[-1].model_dump(exclude_none=True) == {
        "kind": "crew_weapon", "side": "german", "type": "MMG", "number": 3, "pr": 7,
        "provenance": {"source": "designer"}}
    dlg = RosterEntryDialog(panel, "commander")
    dlg.side.setCurrentText("german")
    dlg.rank.setCurrentText("APL")
    assert dlg.number.value() == 2
    dlg.pr.setValue(9)
    assert dlg.submit()
    type_entry(oob, ("german", "groups", 0), "MMG #3 (10); APL PR9")
    assert doc.problems() == []
    st = doc.setup()
    assert st.units["G-MMG-3"].pr == 7 and st.units["G-MMG-3"].ammo == 10 and st.units["G-APL-2"].pr == 9


# ------------------------------------------------------------------ overrides

def test_an_overridden_pr_reaches_the_games_unit(win, dialogs, tmp_path):
    from core.playtest import _setup_for

    ctl = win.scenario_ctl
    doc, panel = ctl.doc, ctl.roster
    panel.side.setCurrentText("russian")
    panel.tree.setCurrentItem(panel.item(("value", "R-A-1", "pr")))
    dlg = RosterEntryDialog(panel, "override")
    assert dlg.unit.currentData() == "R-A-1" and dlg.field.currentText() == "pr"   # the selected value
    shipped = doc.base_roster.unit("R-A-1").pr
    assert dlg.value.text() == str(shipped) and dlg.current.text() == f"shipped: {shipped}"
    dlg.value.setText(str(shipped - 2))
    dlg.note.setText("the printed counter")
    assert dlg.submit()
    o = doc.scenario.roster.override[0]
    assert (o.unit, o.field, o.value, o.note) == ("R-A-1", "pr", shipped - 2, "the printed counter")
    it = panel.item(("value", "R-A-1", "pr"))
    assert it.text(0) == "* pr" and it.font(0).bold() and it.text(1) == str(shipped - 2)
    assert it.text(2).startswith("designer: the printed counter")
    assert panel.item(("unit", "R-A-1")).text(0).startswith("* R-A-1")
    assert doc.setup().units["R-A-1"].pr == shipped - 2
    # the games play a snapshot of the scenario: the override is in it
    copy = doc.playable_copy(tmp_path)
    assert _setup_for(str(copy), 1).units["R-A-1"].pr == shipped - 2
    assert json.loads((copy.parent / "counters.json").read_text())["russian"]["squads"]["A"]["men"][0]["pr"] == shipped
    # double-click edit: a second value changes the same override; the shipped value removes it
    panel.prompt = lambda *a: str(shipped - 1)
    panel._edit(panel.item(("value", "R-A-1", "pr")), 1)
    assert [o.value for o in doc.scenario.roster.override] == [shipped - 1]
    panel.set_value("R-A-1", "pr", shipped)
    assert doc.scenario.roster is None and panel.item(("unit", "R-A-1")).text(0).startswith("R-A-1")
    for _ in range(3):
        doc.undo_stack.undo()
    assert doc.scenario.roster is None
    doc.undo_stack.redo()
    assert doc.setup().units["R-A-1"].pr == shipped - 2


def test_remove_an_addition_and_an_override_from_the_tree(win, dialogs):
    ctl = win.scenario_ctl
    doc, panel = ctl.doc, ctl.roster
    before = doc.scenario
    panel.side.setCurrentText("russian")
    assert squad_form(panel).submit()
    panel.set_value("R-B-3", "pr", 5)
    panel.set_value("R-P-3", "pr", 9)        # an addition's own value changes in its entry
    assert doc.scenario.roster.add[0].men[2].pr == 9 and len(doc.scenario.roster.override) == 1
    panel.tree.setCurrentItem(panel.item(("unit", "R-A-3")))
    panel.remove_selected()
    assert "R-A-3 is a counter of the base roster" in dialogs[-1][1][2]
    panel.tree.setCurrentItem(panel.item(("value", "R-B-3", "pr")))
    panel.remove_selected()
    assert doc.scenario.roster.override == []
    panel.tree.setCurrentItem(panel.item(("unit", "R-P-1")))   # a man of the squad: the squad goes
    panel.remove_selected()
    assert doc.scenario == before
    assert doc.undo_stack.undoText() == "Roster: remove russian Squad P (4 men)"


def test_parse_value_reads_the_typed_forms():
    assert parse_value("pr", " 8 ") == 8 and parse_value("weapon", "lmg") == "LMG"
    assert parse_value("mg_modes", "df, fl") == ["DF", "FL"] and parse_value("turreted", "no") is False
    assert parse_value("at_factor", "none") is None
    with pytest.raises(ValueError, match="turreted is yes or no"):
        parse_value("turreted", "maybe")


# ------------------------------------------------------------------ files

def test_saving_keeps_the_counters_file_and_a_stable_scenario_file(qtbot, dialogs, shipped_hash, copy_of_s1):
    w = open_window(qtbot, copy_of_s1)
    try:
        doc, panel = w.scenario_ctl.doc, w.scenario_ctl.roster
        text = copy_of_s1.read_text(encoding="utf-8")
        doc.save()
        assert copy_of_s1.read_text(encoding="utf-8") == text        # unchanged: byte-identical
        assert squad_form(panel).submit()
        panel.set_value("R-A-1", "pr", 8)
        doc.save()
        saved = copy_of_s1.read_text(encoding="utf-8")
        data = json.loads(saved)
        assert list(data)[-1] == "roster" and data["roster"]["override"] == [
            {"unit": "R-A-1", "field": "pr", "value": 8, "provenance": {"source": "designer"}}]
        assert saved.startswith(text.rstrip("}\n"))                    # only the block is new
        # one value changed: one line
        panel.set_value("R-A-1", "pr", 7)
        doc.save()
        diff = [x for x in difflib.unified_diff(saved.splitlines(), copy_of_s1.read_text().splitlines(),
                                                lineterm="", n=0) if x[:1] in "+-" and x[:3] not in ("+++", "---")]
        assert [x.replace(" ", "") for x in diff] == ['-"value":8,', '+"value":7,']
        # reopened: the same merged roster
        w.scenario_ctl.doc.undo_stack.setClean()
        w2 = open_window(qtbot, copy_of_s1)
        r = w2.scenario_ctl.doc.roster
        assert r.unit("R-A-1").pr == 7 and r.origin("R-P-1") == "added"
        w2.scenario_ctl.shutdown()
    finally:
        w.scenario_ctl.shutdown()
        w.scenario_ctl.doc.undo_stack.setClean()
    assert not any(p.name.endswith("counters.json") for p in copy_of_s1.parent.iterdir())


def test_no_save_roster_button_any_more(win):
    from PySide6.QtWidgets import QPushButton

    texts = {b.text() for b in win.scenario_ctl.roster.findChildren(QPushButton)}
    assert not any("Save roster" in t for t in texts)
    assert {"Add squad...", "Add commander...", "Add CW...", "Add AFV...", "Override value...", "Remove"} <= texts
