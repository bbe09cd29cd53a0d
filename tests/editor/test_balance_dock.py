"""The Play mode's Balance panel: it runs a what-if search in the background on the scenario in
memory (fake games here, so the test plays none), shows the ranked table live, lists an invalid
candidate without playing it, and Apply is one undoable edit of the scenario document."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402


ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"

from tests.editor.conftest import opened_window, search_finished  # noqa: E402

pytestmark = pytest.mark.usefixtures("dialogs")  # tests/editor/conftest.py


@pytest.fixture
def win(qtbot):
    yield from opened_window(qtbot, S1)


def fake(arm, seeds):
    """A fake game: more Game Turns help the Germans (25 % a turn added), as a known law."""
    p = 0.1 + 0.2 * sum(int(c.text[-1]) for c in arm.candidate.changes if c.text.startswith("turns+="))
    return ["german" if random.Random(s).random() < p else "russian" for s in seeds]


def test_balance_panel_runs_lists_and_applies_one_undo_step(win, qtbot):
    ctl = win.scenario_ctl
    assert "balance" in ctl.docks and ctl.docks["balance"] in win.mode_docks["play"]
    panel = ctl.play.balance
    for i in range(panel.kinds.count()):   # turns and hidden hexes only: a quick search
        it = panel.kinds.item(i)
        it.setCheckState(Qt.CheckState.Checked if it.data(Qt.ItemDataRole.UserRole) in ("turns", "hidden")
                         else Qt.CheckState.Unchecked)
    panel.budget.setValue(40)
    panel.first.setValue(4)
    assert panel.start(play=fake)
    search_finished(panel, qtbot)
    rows = {r["change"]: r for r in panel.rows}
    assert rows["russian.hidden+=1"]["status"] == "invalid"           # 24.21: reported, never played
    assert rows["russian.hidden+=1"]["games"] == 0
    assert rows["turns+=2"]["games"] >= 4
    assert panel.table.rowCount() == len(panel.rows)
    doc = ctl.doc
    before, depth = doc.scenario.turns, doc.undo_stack.count()
    row = next(i for i, r in enumerate(panel.rows) if r["change"] == "turns+=2")
    panel.table.selectRow(row)
    assert panel.apply_btn.isEnabled()
    assert panel.apply_selected()
    assert doc.scenario.turns == before + 2
    assert doc.undo_stack.count() == depth + 1                           # one undo step
    assert panel.confirm_btn.isEnabled()
    doc.undo_stack.undo()
    assert doc.scenario.turns == before


def test_cancel_keeps_the_table_so_far(win, qtbot):
    panel = win.scenario_ctl.play.balance
    for i in range(panel.kinds.count()):
        it = panel.kinds.item(i)
        it.setCheckState(Qt.CheckState.Checked if it.data(Qt.ItemDataRole.UserRole) == "turns"
                         else Qt.CheckState.Unchecked)
    calls = []

    def slow(arm, seeds):
        calls.append(arm.candidate.label)
        if len(calls) == 2:
            panel.cancel()
        return fake(arm, seeds)

    panel.first.setValue(4)
    assert panel.start(play=slow)
    search_finished(panel, qtbot)
    assert panel.result.interrupted
    assert len(calls) == 2 and sum(r["games"] for r in panel.rows) == 8
