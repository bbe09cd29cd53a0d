"""Random input on the editor: 10,000 seeded mouse, key, dock, tool, mode and
menu events (:mod:`editor.devtools.fuzz`) on a copy of Scenario 1 with its map, on a new scenario on a
map whose first column is 00, on the corrected map sheet alone (the map mode), and on the shipped Red Flags and 20 mm scenarios (their schema form). Prints the events per second and the exceptions (0 expected: one
that reached the event loop, or one an event returned to the driver), then checks that every
document still validates (saved and loaded back). Exit status 1 when anything raised.

    python benchmarks/editor_fuzz.py [--events N] [--seed S] [--only map,redflags,twentymm]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.yardstick import Yardstick  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


class _Patch:
    """``monkeypatch.setattr`` for a script (the patches last for the run)."""

    def setattr(self, target, name, value):
        setattr(target, name, value)


def _validate(w, tmp: Path) -> str:
    """The map saved and loaded back with every map check; the scenario saved by the editor and
    opened again as the same scenario and set-up (see tests/editor/test_legible.py)."""
    from editor.scenario.document import ScenarioDocument
    from maps.mapfile import load_map_file, save_map

    save_map(tmp / "fuzzed_map.json", w.document.map)
    load_map_file(tmp / "fuzzed_map.json")
    doc = w.scenario_ctl.doc
    if doc is None:
        return "map valid"
    from editor.scenario.system.scenario import SystemScenarioDocument

    if isinstance(doc, SystemScenarioDocument):   # another rule system's scenario: saved, opened again, checked
        data = json.loads(json.dumps(doc.data))
        # saved beside the file (its map reference stays the same relative path)
        again = SystemScenarioDocument.open(doc.save(doc.path.parent / f"fuzzed_{doc.system.name}.json"))
        if again.data != data:
            return "THE SCENARIO DOES NOT LOAD BACK AS IT WAS"
        summary, problems, _warnings = again.check()
        # problems the random form edits made are shown with their paths, as to a designer; the file
        # itself loads back as it was and is checked without an exception: valid as a document
        return f"scenario loads back as it was and is checked ({len(problems)} problem(s) shown); map and scenario valid"
    doc.problems()
    doc.setup_problems()
    before = (dict(doc.placement), dict(doc.hidden), dict(doc.mines))
    again = ScenarioDocument.open(doc.save(tmp / "fuzzed_scenario.json"))
    if again.placement_error is not None or again.scenario.model_dump() != doc.scenario.model_dump() \
            or (again.placement, again.hidden, again.mines) != before:
        return "THE SCENARIO DOES NOT LOAD BACK AS IT WAS"
    return "map and scenario valid"


def run(label: str, open_window, n: int, seed: int, tmp: Path, yard: float = 0.0) -> int:
    from editor.devtools.fuzz import ExceptionTrap, Fuzzer

    w = open_window()
    QApplication.processEvents()
    fz = Fuzzer(w, seed)
    log: list[str] = []
    t0 = time.perf_counter()
    with ExceptionTrap() as trap:
        stats = fz.run(n, log=log)
    dt = time.perf_counter() - t0
    errors = trap.errors + fz.errors
    valid = _validate(w, tmp)
    print(f"{label}: {stats.events} events in {dt:.1f} s"
          + (f" ({dt / yard:.0f} yardsticks)" if yard else "") + f" ({stats.events / dt:.0f} events/s), "
          f"{len(errors)} exceptions; {valid}", flush=True)
    print("   events: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.by_kind.items(), key=lambda kv: -kv[1])), flush=True)
    for e in errors[:3]:
        print(e)
    w.scenario_ctl.shutdown()
    if w.scenario_ctl.doc is not None:
        w.scenario_ctl.doc.undo_stack.setClean()
    w.document.undo_stack.setClean()
    w.close()
    return len(errors) + (0 if valid.endswith("valid") else 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--only", default=None, help="comma-separated runs: ironcross, edge, map, redflags, twentymm")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="ironcross-fuzz-"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp / "settings"))
    app = QApplication.instance() or QApplication([])
    from editor.app import quiet_qt_messages
    from editor.devtools.fuzz import patch_dialogs
    from editor.main_window import MainWindow
    from maps.mapfile import save_map
    from tests.mapbuilder import make_map

    quiet_qt_messages()
    patch_dialogs(_Patch(), random.Random(args.seed))
    (tmp / "scenarios" / "data").mkdir(parents=True)
    (tmp / "maps" / "data").mkdir(parents=True)
    shutil.copy(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json", tmp / "scenarios" / "data" / "s1.json")
    shutil.copy(ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json", tmp / "maps" / "data")
    save_map(tmp / "edge.json", make_map((0, 8), (1, 8), trees={"0103": 2}).doc)

    def window(path: Path, new_scenario: bool = False):
        """A window at 1366 x 768 with ``path`` open (and a new scenario on its map)."""
        w = MainWindow(persist_settings=False)
        w.resize(1366, 768)
        w.show()
        w.open_file(path, offer_recovery=False)
        if new_scenario:
            w.scenario_ctl.new_scenario()
        return w

    def scenario():
        return window(tmp / "scenarios" / "data" / "s1.json")

    def map_only():
        return window(tmp / "maps" / "data" / "iron_cross_mapsheet_corrected.json")

    def edge():
        return window(tmp / "edge.json", new_scenario=True)

    def system_scenario(name: str):
        def opener():
            shutil.copy(ROOT / "scenarios" / "data" / name, tmp / "scenarios" / "data" / name)
            return window(tmp / "scenarios" / "data" / name)
        return opener

    only = set(args.only.split(",")) if args.only else None
    ys = Yardstick.measure()
    yard = ys.seconds
    print(ys.describe())
    bad = 0
    for key, label, opener, seed in (
            ("ironcross", "Scenario 1", scenario, args.seed),
            ("edge", "map from column 00, new scenario", edge, args.seed + 1),
            ("map", "the corrected map sheet alone (map mode)", map_only, args.seed + 4),
            ("redflags", "Red Flags scenario 1 (Hill J)", system_scenario("redflags_1_hill_j.json"), args.seed + 2),
            ("twentymm", "20 mm scenario 1 (village counterattack)",
             system_scenario("twentymm_1_village_counterattack.json"), args.seed + 3)):
        if only is None or key in only:
            bad += run(label, opener, args.events, seed, tmp, yard)
    del app
    if bad:
        # the documents the events left behind, for the failure's reader
        print(f"the fuzzed documents are kept in {tmp}")
    else:
        shutil.rmtree(tmp)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
