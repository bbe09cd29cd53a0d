"""The designer's forms without detours (Scenario mode): one region field (named regions, map
features, hexes) for initial control, caps and mines areas; the cap form says its problems under
it; an OOB line the roster cannot build is refused where it is typed, in the loader's words with
the roster change that would make it valid (24.1); the regions of initial control and caps are
named in words; the North tool's placement is one undo step. Headless (pytest-qt, offscreen);
message boxes answered by the ``dialogs`` fixture (tests/editor/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.builders.region_picking import picker  # noqa: E402
from editor.scenario.builders.setup_forms import region_field  # noqa: E402
from editor.scenario.wording import loc_label  # noqa: E402
from tests.editor.test_walkthrough_scenario4 import click_hex, type_into  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S4 = ROOT / "scenarios" / "data" / "scenario_4_tula.json"


@pytest.fixture
def window(qtbot, dialogs):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    assert w.open_file(S4, offer_recovery=False)
    yield w
    picker().stop()
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


def setup_tab(w, side="german"):
    sides = w.scenario_ctl.sides
    w.scenario_ctl.docks["sides"].show()
    w.scenario_ctl.docks["sides"].raise_()
    sides.side.setCurrentText(side)
    sides.tabs.setCurrentIndex(2)
    return sides.setup_tab


def test_one_region_field_takes_regions_features_and_hexes(window, qtbot, dialogs):
    doc = window.scenario_ctl.doc
    assert region_field(doc, "hill k") == {"kind": "feature", "name": "Hill K"}
    assert region_field(doc, "Road network") == {"kind": "named", "name": "road network"}
    assert region_field(doc, "Hill K, Hill J") == {"kind": "union", "of": [{"kind": "feature", "name": "Hill K"},
                                                                          {"kind": "feature", "name": "Hill J"}]}
    assert region_field(doc, "4307, 4308") == {"kind": "hexes", "hexes": ["4307", "4308"]}
    with pytest.raises(ValueError, match="features: .*Hill K"):
        region_field(doc, "Hill Z")
    tab = setup_tab(window)
    type_into(qtbot, tab.control, "Hill K", enter=True)          # Controls at start: a named feature
    ic = doc.scenario.initial_control
    assert [(c.side, c.region.kind, c.region.name) for c in ic] == [("german", "feature", "Hill K")]
    assert tab.control.text() == "Hill K" and not [d for d in dialogs if d[0] == "warning"]
    # the cap's region field takes it too
    type_into(qtbot, tab.cap_region, "Hill J")
    type_into(qtbot, tab.cap_limits, "LMG 1")
    tab.cap_buttons["Add cap"].click()
    cap = doc.scenario.german.caps[0]
    assert (cap.region.kind, cap.region.name, cap.max[0].type) == ("feature", "Hill J", "LMG")
    words = tab._region_words.stringList()
    assert "Hill K" in words and "road network" in words        # the fields complete both


def test_initial_control_and_caps_are_named_in_words(window, qtbot):
    doc = window.scenario_ctl.doc
    setup_tab(window).set_initial_control("Hill K")
    labels = [loc_label(doc, loc) for loc, _r in doc.regions()]
    assert "Germans control from the start: on Hill K" in labels
    assert not [x for x in labels if x.startswith("$")]
    listed = [window.scenario_ctl.regions.list.topLevelItem(i).text(0)
              for i in range(window.scenario_ctl.regions.list.topLevelItemCount())]
    assert "Germans control from the start: on Hill K" in listed


def test_cap_form_says_its_problems_inline(window, qtbot, dialogs):
    tab = setup_tab(window)
    assert not tab.cap_buttons["Apply"].isEnabled() and not tab.cap_buttons["Remove"].isEnabled()
    assert tab.apply_cap() is False and "No cap is selected" in tab.cap_error.text()
    tab.cap_buttons["Add cap"].click()                           # empty fields
    assert not dialogs, dialogs                                  # no modal box
    assert tab.cap_error.isVisible() and "a cap needs its region" in tab.cap_error.text()
    assert "not limit" in tab.cap_others.toolTip() or "no 'At most' limit names" in tab.cap_others.toolTip()
    assert tab.cap_others_note.isVisible()
    type_into(qtbot, tab.cap_region, "4307, 4308")
    type_into(qtbot, tab.cap_limits, "R 2")
    tab.cap_buttons["Add cap"].click()
    assert not tab.cap_error.isVisible() and tab.cap_buttons["Apply"].isEnabled()
    # at 1366 x 768 the button row is inside the Set-up tab's width (no horizontal scrolling)
    scroll = window.scenario_ctl.sides.tabs.widget(2)
    for b in tab.cap_buttons.values():
        right = b.mapTo(scroll.viewport(), QPoint(b.width(), 0)).x()
        assert 0 < right <= scroll.viewport().width(), (b.text(), right, scroll.viewport().width())


def test_unbuildable_oob_line_refused_where_typed(window, qtbot, dialogs):
    ctl = window.scenario_ctl
    doc = ctl.doc
    ctl.docks["oob"].show()
    ctl.docks["oob"].raise_()
    oob = ctl.oob
    assert oob.select_loc(("german", "groups", 0))
    before = doc.scenario.model_dump(mode="json")
    type_into(qtbot, oob.entry_text, "Squad E (12) less R PR10", enter=True)
    assert doc.scenario.model_dump(mode="json") == before        # not taken
    assert oob.entry_text.text() == "Squad E (12) less R PR10"    # the field keeps it to be fixed
    said = oob.info.text()
    assert "german Squad E has no R PR10 to leave out" in said     # the loader's sentence (24.1)
    assert "SetupError" not in said and "Counter roster" in said and "Override value" in said
    assert not dialogs
    oob.refresh()   # a redraw of the document (a map pause, an autosave) keeps why it was refused
    assert oob.info.text() == said
    oob.entry_text.setText("Squad C")
    oob.refresh()   # the field holds other text now: the usual hint
    assert "Type entries as printed" in oob.info.text()
    # a buildable line is taken
    type_into(qtbot, oob.entry_text, "Squad E (12) less R PR8", enter=True)
    assert doc.scenario.model_dump(mode="json") != before and oob.entry_text.text() == ""


def test_setup_error_has_no_class_name(window):
    doc = window.scenario_ctl.doc
    doc.edit("break", lambda d: d["german"]["groups"][0]["oob"].append(
        {"kind": "squad", "letter": "E", "less": [{"type": "R", "pr": 10, "count": 1}], "text": "Squad E less R PR10"}))
    err = doc.setup_error()
    assert err and "has no R PR10" in err and not err.startswith("SetupError")


def test_north_tool_click_is_one_undo_step(window, qtbot):
    w = window
    doc = w.scenario_ctl.doc
    old = doc.scenario.north
    w.tool_actions["north"].trigger()
    w.scenario_ctl.activate_stack(False)           # the map's stack active (e.g. a map dock had the focus)
    click_hex(qtbot, w, "3002")
    QTest.keyClick(w.view, Qt.Key.Key_Escape)       # Esc drops the first click
    assert w.tools.current.first is None
    click_hex(qtbot, w, "3002")
    click_hex(qtbot, w, "3001")
    assert (doc.scenario.north.hex, doc.scenario.north.points_to) == ("3002", "3001")
    assert w.undo_action.text() == "&Undo North indicator 3002 -> 3001"
    QTest.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.scenario.north == old and w.document.undo_stack.index() == 0
