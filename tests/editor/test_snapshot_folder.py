"""The play panels' temporary folder for the playable copy of the scenario
(editor/play/snapshot_folder.py): made at the first run, removed with the panel, nothing left
behind by a panel that never runs (the test suite's parallel workers end without the interpreter's
exit hooks, which used to leave one empty folder per panel in the system's temporary folder)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")


@pytest.fixture
def temp_root(tmp_path, monkeypatch):
    root = tmp_path / "temp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


def test_a_play_panel_that_never_runs_makes_no_folder(qtbot, temp_root):
    from editor.play.balance_dock import BalancePanel
    from editor.play.playtest_dock import PlaytestPanel
    from editor.play.robust_dock import RobustPanel

    for panel in (BalancePanel(lambda folder: None), PlaytestPanel(lambda folder: None),
                  RobustPanel(lambda folder: None)):
        qtbot.addWidget(panel)
        if hasattr(panel, "shutdown"):
            panel.shutdown()
    assert list(temp_root.iterdir()) == []


def test_the_folder_is_made_at_first_use_and_removed_with_its_panel(qtbot, temp_root):
    from shiboken6 import delete

    from editor.play.playtest_dock import PlaytestPanel

    panel = PlaytestPanel(lambda folder: None)
    name = panel._tmp.name
    assert name == panel._tmp.name   # one folder for the panel's runs
    folder = temp_root / Path(name).name
    assert folder.is_dir() and folder.name.startswith("ironcross-playtest-")
    (folder / "scenario.json").write_text("{}")
    delete(panel)
    assert list(temp_root.iterdir()) == []
