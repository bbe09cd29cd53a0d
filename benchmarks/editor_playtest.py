"""Editor playtest figure, target: "A batch of 100 games of Scenario 1 started from the editor runs as fast as the
CLI with the same workers, and the UI answers within 100 ms throughout."

Runs N games (heuristic AIs on both sides) of Scenario 1

1. through the editor's batch runner: the Playtest panel (:class:`editor.play.playtest_dock.PlaytestPanel`,
   offscreen) started as the *Run batch* button does, with the Qt event loop running until its
   results are shown; meanwhile a ``QTimer`` fires every 20 ms on the GUI thread and the lateness
   of each firing (interval - 20 ms) is recorded: its maximum and 99th percentile are how long the
   UI could have kept a user waiting;
2. through :func:`core.playtest.run_batch` directly (what ``ironcross playtest`` calls), with the
   same number of workers and seed.

Prints both wall times, their ratio (editor / CLI; target <= about 1) and the timer figures
(target: max < 100 ms). Asserts nothing.

Run: .venv/bin/python benchmarks/editor_playtest.py              (100 games, 2 workers)
     .venv/bin/python benchmarks/editor_playtest.py --games 40
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchmarks.arguments import positive_int  # noqa: E402

S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"
AI = {"german": "heuristic", "russian": "heuristic"}


def editor_batch(games: int, workers: int, seed: int) -> tuple[float, list, list[float]]:
    """(wall seconds, results, lateness of each 20 ms timer firing in seconds)."""
    from PySide6.QtCore import QEventLoop, QTimer, Qt
    from PySide6.QtWidgets import QApplication

    from editor.play.playtest_dock import PlaytestPanel

    app = QApplication.instance() or QApplication([])
    panel = PlaytestPanel(lambda _folder: S1)
    panel.resize(420, 700)
    panel.show()
    panel.games.setValue(games)
    panel.seed.setValue(seed)
    panel.workers.setMaximum(max(workers, panel.workers.maximum()))
    panel.workers.setValue(workers)
    for side, name in AI.items():
        panel.ai[side].setCurrentText(name)
    app.processEvents()

    ticks: list[float] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    loop = QEventLoop()
    finished: list[float] = []

    def done(_results) -> None:
        finished.append(time.perf_counter())
        QTimer.singleShot(0, loop.quit)

    t0 = time.perf_counter()
    ticks.append(t0)
    timer.start()
    assert panel.start(), "the batch did not start"
    panel.runner.done.connect(done)
    panel.runner.failed.connect(lambda msg: (print("batch failed:", msg), loop.quit()))
    loop.exec()
    timer.stop()
    wall = (finished[0] if finished else time.perf_counter()) - t0
    late = [max(0.0, b - a - 0.020) for a, b in zip(ticks, ticks[1:])]
    results = list(panel.results)
    panel.shutdown()
    return wall, results, late


def cli_batch(games: int, workers: int, seed: int) -> tuple[float, list]:
    from core.playtest import run_batch

    t0 = time.perf_counter()
    rs = run_batch(str(S1), games, seed, AI, workers=workers)
    return time.perf_counter() - t0, rs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=100)
    ap.add_argument("--workers", type=positive_int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    from benchmarks.yardstick import Yardstick

    ys = Yardstick.measure()
    print(ys.describe())
    print(f"Scenario 1, {a.games} games, heuristic vs heuristic, {a.workers} workers, seed {a.seed} "
          f"({os.cpu_count()} CPUs)")
    wall_e, res_e, late = editor_batch(a.games, a.workers, a.seed)
    print(f"editor batch runner: {ys.fmt(wall_e, 1)}  ({len(res_e)} games)")
    wall_c, res_c = cli_batch(a.games, a.workers, a.seed)
    print(f"core.playtest.run_batch (CLI): {ys.fmt(wall_c, 1)}  ({len(res_c)} games)")
    print(f"ratio editor / CLI: {wall_e / wall_c:.3f}")
    same = [(r.seed, r.outcome, r.turns) for r in res_e] == [(r.seed, r.outcome, r.turns) for r in res_c]
    print(f"same results game by game: {same}")
    if late:
        q = statistics.quantiles(late, n=100)[98] if len(late) >= 100 else max(late)
        print(f"UI timer (20 ms, GUI thread) during the editor batch: {len(late)} firings, "
              f"lateness max {1000 * max(late):.1f} ms = {ys.multiple(max(late)):.2f} yardsticks, "
              f"99th percentile {1000 * q:.1f} ms, "
              f"median {1000 * statistics.median(late):.1f} ms")


if __name__ == "__main__":
    main()
