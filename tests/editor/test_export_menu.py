"""File > Export writes the documents the designer has open (one truth): an unsaved change of the
scenario's game length reaches the VASSAL module's turn track, an unsaved map edit the Tiled map."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from editor.export_menu import export_tiled, export_vassal  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"

pytestmark = pytest.mark.usefixtures("dialogs")  # tests/editor/conftest.py


@pytest.fixture
def win(qtbot):
    w = MainWindow(persist_settings=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_file(S1)
    yield w
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()


def test_the_file_menu_offers_both_exports(win) -> None:
    texts = [a.text() for a in win.menuBar().actions()[0].menu().actions()]
    assert "Export scenario as VASSAL module..." in texts and "Export map as Tiled map..." in texts


def test_vassal_export_takes_the_unsaved_scenario(win, tmp_path: Path) -> None:
    from pywargame.vassal import BuildFile, VMod

    doc = win.scenario_ctl.doc
    doc.edit("game length", lambda d: d.update(turns=9))
    out = tmp_path / "s1.vmod"
    assert "wrote" in export_vassal(win, str(out))
    with VMod(str(out), "r") as v:
        build = BuildFile(v.getBuildFile())
    assert int(build.getGame().getTurnTracks()["Game Turn"]["length"]) == 9


def test_tiled_export_takes_the_map_in_memory(win, tmp_path: Path) -> None:
    from cli.tiled_map import import_tiled

    out = tmp_path / "m.tmx"
    export_tiled(win, str(out))
    assert import_tiled(out) == win.document.map
