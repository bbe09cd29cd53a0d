"""The Validation dock shows the design checks as warnings, apart from the errors: their
own list, icon and colour; clicking one shows its place as an error's does. Headless (pytest-qt)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from editor.main_window import MainWindow  # noqa: E402
from editor.scenario.docks.validation import ValidationPanel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
ENTRY = ("russian", "groups", 0, "entry", "options", 0, "region")
WIN_REGION = ("victory", "outcomes", 0, "condition", "region")


@pytest.fixture
def win(qtbot, dialogs):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    assert w.open_file(S1)
    yield w
    w.scenario_ctl.shutdown()
    w.scenario_ctl.doc.undo_stack.setClean()


def _texts(lst):
    return [lst.item(i).text() for i in range(lst.count())]


def test_validation_dock_lists_design_warnings_apart_from_errors(win):
    ctl = win.scenario_ctl
    doc, val = ctl.doc, ctl.validation
    assert val.problems() == [] and val.warnings() == []
    assert "no warnings" in val.warnings_label.text()
    # an entry inside the map (a warning) and a squad the roster lacks (an error)
    doc.edit("entry inside the map", lambda d: d["russian"]["groups"][0]["entry"]["options"][0].__setitem__(
        "region", {"kind": "hexes", "hexes": ["4010"]}))
    assert ctl.oob.add_entry("german", 0, "Squad Z (10)") is False      # the OOB dock refuses it where typed
    doc.edit("a line written in the file by hand", lambda d: d["german"]["groups"][0]["oob"].append(
        {"kind": "squad", "letter": "Z", "ammo": 10, "text": "Squad Z (10)"}))
    errors, warnings = val.problems(), val.warnings()
    assert any("Squad Z" in p for p in errors) and not any("Squad Z" in w for w in warnings)
    assert warnings == [w for w in _texts(val.warnings_list)]
    (w,) = [w for w in warnings if w.startswith("$.russian.groups[0].entry.options[0].region:")]
    assert "not on the edge of the playing area" in w and "4010" in w
    assert not any("edge of the playing area" in p for p in errors)
    assert "1 warning" in val.warnings_label.text()
    # their own colour and icon
    wi = val.warnings_list.item(0)
    ei = val.list.item(0)
    assert wi.foreground().color() == ValidationPanel.WARNING_COLOUR
    assert ei.foreground().color() == ValidationPanel.ERROR_COLOUR
    assert ValidationPanel.WARNING_COLOUR != ValidationPanel.ERROR_COLOUR
    assert not wi.icon().isNull() and not ei.icon().isNull()
    assert wi.icon().cacheKey() != ei.icon().cacheKey()
    # clicking the warning selects the entry region, as clicking an error does
    val.warnings_list.itemClicked.emit(wi)
    assert ctl.regions.loc == ENTRY
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert val.problems() == [] and val.warnings() == []


def test_validation_dock_reach_warning_selects_the_victory_region(win):
    """A region the Germans must hold that no German unit can reach in a one-turn game."""
    ctl = win.scenario_ctl
    doc, val = ctl.doc, ctl.validation

    def change(d):
        d["turns"] = 1
        d["victory"]["outcomes"][0]["condition"] = {"kind": "at_least", "side": "german",
                                                    "region": {"kind": "hexes", "hexes": ["3027"]}}

    doc.edit("far objective", change)
    assert val.problems() == []
    (w,) = val.warnings()
    assert w.startswith("$.victory.outcomes[0].condition.region: German must have at least 1 units in hex 3027")
    assert "Game Turn 2 at the earliest" in w
    val.warnings_list.itemClicked.emit(val.warnings_list.item(0))
    assert ctl.regions.loc == WIN_REGION
    doc.undo_stack.undo()
    assert val.warnings() == []
