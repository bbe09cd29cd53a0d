"""The Balance panel's heat maps of the applied change beside today's: after *Apply* and the
confirming playtest both maps are drawn (the report pictures, on one scale), titled with the change
and each side's share and games; today's batch is the Playtest panel's last one when it played the
scenario before the change, else the panel plays the as-is scenario on the confirming batch's seeds.
Short games (Scenario 1 cut to 2 Game Turns, random players, 2 games a side) keep it quick."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402

from tests.editor.conftest import opened_window, search_finished  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"

pytestmark = pytest.mark.usefixtures("dialogs")  # tests/editor/conftest.py


@pytest.fixture
def win(qtbot):
    yield from opened_window(qtbot, S1)


def fake(arm, seeds):
    """Fake search games (the search itself is tested in test_balance_dock.py)."""
    return ["german" if random.Random(s).random() < 0.3 else "russian" for s in seeds]


def searched(win, qtbot):
    """Scenario 1 cut to 2 Game Turns (short games), the Playtest panel set to 2 random-player
    games, and a search over game length done with fake games: the Balance panel."""
    ctl = win.scenario_ctl
    assert ctl.play.apply_change(["turns=2"], None) is None
    p = ctl.playtest
    for c in p.ai.values():
        c.setCurrentText("random")
    p.games.setValue(2)
    p.workers.setValue(1)
    p.seed.setValue(3)
    panel = ctl.play.balance
    for i in range(panel.kinds.count()):
        it = panel.kinds.item(i)
        it.setCheckState(Qt.CheckState.Checked if it.data(Qt.ItemDataRole.UserRole) == "turns"
                         else Qt.CheckState.Unchecked)
    panel.budget.setValue(8)
    panel.first.setValue(2)
    assert panel.start(play=fake)
    search_finished(panel, qtbot)
    return panel


def apply(panel, change):
    panel.table.selectRow(next(i for i, r in enumerate(panel.rows) if r["change"] == change))
    assert panel.apply_selected()


def test_heat_maps_of_the_change_beside_the_as_is_games(win, qtbot, tmp_path):
    panel = searched(win, qtbot)
    assert not panel.compare()                       # nothing to compare yet
    apply(panel, "turns+=1")                         # 2 -> 3 Game Turns
    assert panel.today is None                       # no Playtest batch before Apply
    with qtbot.waitSignal(panel.comparison_ready, timeout=120_000):
        panel.confirm_btn.click()                    # the confirming playtest, then today's games
    today, changed = panel.today, panel.changed
    assert len(today.results) == len(changed.results) == 2
    assert changed.results is win.scenario_ctl.playtest.results    # the batch the Playtest panel holds
    assert [r.seed for r in today.results] == [r.seed for r in changed.results]   # the same dice
    assert {r.turns for r in today.results} <= {1, 2} and max(r.turns for r in changed.results) > 2
    dlg = panel.comparison
    assert dlg is not None and dlg.isVisible() and panel.compare_btn.isEnabled()
    assert "turns+=1" in dlg.windowTitle() and "turns+=1" in dlg.heading.text()
    assert today.title == "Today" and changed.title == "With turns+=1"
    left, right = dlg.images
    assert not left.isNull() and not right.isNull() and left.size() == right.size()   # one map, one scale
    from cli.playtest_report import heat_counts

    differ = 0
    for kind in ("eliminations", "fire targets", "fire origins"):
        dlg.kind.setCurrentText(kind)
        a, b = dlg.images
        if heat_counts(today.results, kind) != heat_counts(changed.results, kind):
            assert a != b                            # other counts, other pictures
            differ += 1
    assert differ                                    # two more Game Turns: more fire somewhere
    out = dlg.save(tmp_path / "heat.png")
    img = QImage(str(out))
    assert img.width() > left.width() and img.height() == left.height()


def test_todays_heat_map_is_the_last_playtest_batch_before_apply(win, qtbot):
    panel = searched(win, qtbot)
    pt = win.scenario_ctl.playtest
    with qtbot.waitSignal(pt.batch_finished, timeout=120_000):
        assert pt.start()                            # today's batch, played by the designer
    before = pt.results
    apply(panel, "turns-=1")
    assert panel.today is not None and panel.today.results is before    # reused, not played again
    assert panel.today.note == "the last Playtest batch before Apply"
    with qtbot.waitSignal(panel.comparison_ready, timeout=120_000):
        panel.confirm_btn.click()
    assert panel.today_runner is None                # no as-is games were needed
    assert panel.changed.results is pt.results and panel.changed.results is not before
    assert panel.comparison.images is not None
    # a batch of another scenario (edited after it) is not today's
    assert win.scenario_ctl.play.apply_change(["turns=4"], None) is None
    apply(panel, "turns+=1")
    assert panel.today is None


def test_a_confirming_batch_of_the_undone_change_is_not_compared(win, qtbot):
    panel = searched(win, qtbot)
    apply(panel, "turns-=1")
    win.scenario_ctl.doc.undo_stack.undo()           # the change taken back before the playtest
    with qtbot.waitSignal(win.scenario_ctl.playtest.batch_finished, timeout=120_000):
        panel.confirm_btn.click()
    assert panel.changed is None and panel.today_runner is None and panel.comparison is None
    assert "no heat maps to compare" in panel.status.text()
