"""Nothing a designer did is lost when the editor dies: for each document kind (the map, an
Iron Cross scenario, another rule system's scenario) a child editor makes an edit, waits for the
autosave and is killed with SIGKILL; the next open offers the autosave and restores the edit.
The autosave interval is shortened in the child (its timer), never by waiting a minute."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "scenarios" / "data"


def _copy(tmp_path: Path, src: Path | None) -> Path:
    shutil.copytree(ROOT / "maps" / "data", tmp_path / "maps" / "data", ignore=shutil.ignore_patterns("*.png", "*.pdf"))
    if src is None:
        return tmp_path / "maps" / "data" / "iron_cross_mapsheet_corrected.json"
    (tmp_path / "scenarios" / "data").mkdir(parents=True)
    for f in DATA.glob("iron_cross_counters.json"):
        shutil.copy(f, tmp_path / "scenarios" / "data" / f.name)
    dst = tmp_path / "scenarios" / "data" / src.name
    shutil.copy(src, dst)
    return dst


def _crash_after_autosave(kind: str, path: Path) -> Path:
    """Run the child editor until its autosave is on disk, then SIGKILL it; the autosave path."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    p = subprocess.Popen([sys.executable, "-m", "tests.editor.crash_driver", kind, str(path)], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([p.stdout], [], [], 180)   # never a hang: a child that does not autosave fails
        line = p.stdout.readline() if ready else ""
        assert line.startswith("AUTOSAVED "), (line, p.stderr.read() if p.poll() is not None else "no autosave")
        os.kill(p.pid, signal.SIGKILL)
        assert p.wait(30) == -signal.SIGKILL
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return Path(line.split(" ", 1)[1].strip())


@pytest.mark.parametrize("kind,src", [("map", None), ("ironcross", DATA / "scenario_2_khristishche.json"),
                                      ("system", DATA / "redflags_1_hill_j.json"),
                                      ("system", DATA / "twentymm_1_village_counterattack.json")])
def test_killed_editor_autosave_offered_and_restores_the_edit(qtbot, tmp_path, dialogs, monkeypatch, kind, src):
    from PySide6.QtWidgets import QMessageBox

    from editor.main_window import MainWindow

    path = _copy(tmp_path, src)
    before = json.loads(path.read_text())
    auto = _crash_after_autosave(kind, path)
    assert auto.is_file() and json.loads(path.read_text()) == before   # the file itself untouched
    asked = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: asked.append(a[1]) or QMessageBox.StandardButton.Yes))
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    assert w.open_file(path)
    assert asked == ["Recover autosave"]
    if kind == "map":
        assert w.document.map.name == "Renamed before the crash" and w.document.is_dirty
        w.save()
        assert json.loads(path.read_text())["name"] == "Renamed before the crash"
    else:
        doc = w.scenario_ctl.doc
        assert doc.is_dirty
        if kind == "ironcross":
            assert doc.scenario.title == "Retitled before the crash"
            doc.undo_stack.undo()   # one undo step takes the recovery back
            assert doc.scenario.title == before["title"]
            doc.undo_stack.redo()
        else:
            assert doc.data["turns"] == 5
        w.scenario_ctl.save()
        assert "before the crash" in path.read_text() or json.loads(path.read_text())["turns"] == 5
    assert not auto.exists()   # saved: the autosave is gone, nothing offered next time
    w.scenario_ctl.shutdown()


def test_an_autosave_that_cannot_be_removed_is_logged_not_hidden(tmp_path, monkeypatch, caplog):
    import errno
    import logging
    from pathlib import Path

    from editor.map.document import autosave_path, remove_autosave

    remove_autosave(tmp_path / "none.json")          # no autosave: nothing to do, nothing said
    f = tmp_path / "map.json"
    autosave_path(f).write_text("{}")

    def refuse(self, missing_ok=False):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    with caplog.at_level(logging.WARNING):
        remove_autosave(f)
    assert f"cannot remove the autosave {autosave_path(f)}: Permission denied" in caplog.text
