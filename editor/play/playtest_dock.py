"""Batch playtests from the editor: a :class:`BatchRunner` (``QThread``) runs the games in worker
processes and reports progress through a signal; the :class:`PlaytestPanel` shows the outcome
bars with 95 % confidence intervals, casualties by side and unit kind, and a heat map of
eliminations, fire targets and fire origins on the map.

Each game ``i`` uses seed ``derive_seed(seed, i)`` exactly as ``ironcross playtest`` does
(:func:`core.playtest.play_game`), so results match the CLI whatever the number of workers.
Games go to a ``ProcessPoolExecutor`` in small chunks so that *Cancel* takes effect after the
running chunks (pending ones are cancelled); with one worker they run in the thread itself.
The UI thread only receives signals; the worker processes run at a lower CPU priority
(``nice`` 5) so that the UI stays responsive when they use every core
(``benchmarks/editor_playtest.py`` measures both).
"""

from __future__ import annotations

import math
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from PySide6.QtCore import QRectF, Qt, QThread, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.drawing.pieces import SIDE_COLOURS
from editor.drawing.widgets import TimeLeft, run_controls
from editor.play.snapshot_folder import SnapshotFolder

__all__ = ["BatchRunner", "OutcomeBars", "PlaytestPanel"]


class BatchRunner(QThread):
    """Runs a batch; signals ``progress(done, total)``, ``done(list of GameResult)``, ``failed(str)``."""

    progress = Signal(int, int)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, scenario_path: str, games: int, seed: int, ai: dict[str, str], rules: str = "basic",
                 workers: int = 1, options: tuple[str, ...] = (), parent=None, fixed_setup: dict | None = None):
        super().__init__(parent)
        self.args = (str(scenario_path), games, seed, dict(ai), rules, max(1, workers), tuple(options))
        self.fixed_setup = fixed_setup
        self._cancel = False
        self.results: list = []

    def cancel(self) -> None:
        self._cancel = True

    @property
    def cancelled(self) -> bool:
        return self._cancel

    def run(self) -> None:  # in the thread
        from core.dice import derive_seed
        from core.playtest import GameResult
        from editor.play.game_record import run_games

        path, games, seed, ai, rules, workers, options = self.args
        fixed = self.fixed_setup
        items = [(i, derive_seed(seed, i)) for i in range(games)]
        out: list = []
        try:
            if workers == 1:
                for it in items:
                    if self._cancel:
                        break
                    out += [GameResult(**d) for d in run_games(path, [it], ai, rules, options, fixed)]
                    self.progress.emit(len(out), games)
            else:
                import multiprocessing as mp

                size = max(1, min(5, math.ceil(games / (workers * 4))))
                chunks = [items[k:k + size] for k in range(0, games, size)]
                from core.rule_system import SYSTEM_MODULES
                from editor.play.game_record import init_worker

                # the workers start afresh (spawn): a rule system added at run time is sent by module
                ex = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                                         initializer=init_worker, initargs=(dict(SYSTEM_MODULES),))
                try:
                    pending = {ex.submit(run_games, path, c, ai, rules, options, fixed) for c in chunks}
                    while pending:
                        finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                        for f in finished:
                            out += [GameResult(**d) for d in f.result()]
                        if finished:
                            self.progress.emit(len(out), games)
                        if self._cancel:
                            for f in pending:
                                f.cancel()
                            break
                finally:
                    ex.shutdown(wait=True, cancel_futures=True)
        except Exception as e:  # noqa: BLE001 - reported in the panel
            self.failed.emit(f"{type(e).__name__}: {e}")
            return
        out.sort(key=lambda r: r.index)
        self.results = out
        self.done.emit(out)


class OutcomeBars(QWidget):
    """Horizontal bars of the outcome rates with their 95 % Wilson intervals."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.summary: dict | None = None
        self.setMinimumHeight(110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_summary(self, summary: dict | None) -> None:
        self.summary = summary
        self.update()

    def paintEvent(self, ev) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(255, 255, 255))
        if not self.summary:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "no results yet")
            return
        rates = self.summary["rates"]
        keys = [k for k in ("german", "russian", "draw", "error") if k in rates]
        left, right = 70.0, 60.0
        w = self.width() - left - right
        row = (self.height() - 10) / max(1, len(keys))
        f = QFont()
        f.setPixelSize(12)
        p.setFont(f)
        for i, k in enumerate(keys):
            y = 5 + i * row
            r = rates[k]
            lo, hi = r["ci95"]
            p.setPen(QColor(30, 30, 30))
            p.drawText(QRectF(2, y, left - 6, row), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, k)
            p.fillRect(QRectF(left, y + row * 0.2, w, row * 0.6), QColor(238, 238, 238))
            p.fillRect(QRectF(left, y + row * 0.2, w * r["rate"], row * 0.6), SIDE_COLOURS.get(k, QColor(120, 120, 120)))
            p.setPen(QPen(QColor(0, 0, 0), 2))
            cy = y + row / 2
            p.drawLine(int(left + w * lo), int(cy), int(left + w * hi), int(cy))
            for x in (lo, hi):
                p.drawLine(int(left + w * x), int(cy - row * 0.22), int(left + w * x), int(cy + row * 0.22))
            p.drawText(QRectF(left + w + 4, y, right - 4, row), Qt.AlignmentFlag.AlignVCenter,
                       f"{100 * r['rate']:.0f}%")
        p.end()


class PlaytestPanel(QWidget):
    """Batch playtest controls and results. ``scenario_file(folder)`` gives the scenario to play
    (the window writes a snapshot of the documents in memory there); ``fixed_setup()`` the
    designer's set-up for "Use this set-up" (raises ValueError with its problems, and the batch is
    refused); ``heat_changed(dict, str)`` asks the window to draw a heat map."""

    heat_changed = Signal(object, str)
    #: a batch ended with games (the results list, as :attr:`results` holds it)
    batch_finished = Signal(object)
    #: the seed, an AI, the rules or *Use this set-up* changed (Watch and Hot-seat show them)
    settings_changed = Signal()

    def __init__(self, scenario_file=None, parent=None, fixed_setup=None, system=None):
        super().__init__(parent)
        from PySide6.QtWidgets import QCheckBox

        self.scenario_file = scenario_file
        #: () -> the designer's set-up as JSON (``ScenarioDocument.fixed_setup``) or None
        self.fixed_setup = fixed_setup
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.games = QSpinBox()
        self.games.setRange(1, 100000)
        self.games.setValue(20)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.seed.setValue(1)
        self.ai = {}
        for side in ("german", "russian"):
            self.ai[side] = QComboBox()
        self.rules = QComboBox()
        #: the scenario's rule system (its players and rule levels are offered)
        self.system = None
        self.set_system(system)
        self.workers = QSpinBox()
        self.workers.setRange(1, max(1, os.cpu_count() or 1))
        self.workers.setValue(max(1, (os.cpu_count() or 2) - 1))
        form.addRow("Games", self.games)
        form.addRow("Seed", self.seed)
        form.addRow("German AI", self.ai["german"])
        form.addRow("Russian AI", self.ai["russian"])
        form.addRow("Rules", self.rules)
        form.addRow("Worker processes", self.workers)
        self.use_setup = QCheckBox("Use this set-up")
        self.use_setup.setToolTip("Start every game from the units, hidden hexes and mines placed on the map "
                                  "(Set-up panel); the AIs set up only what is not placed")
        self.use_setup.setEnabled(self.system.load_placement is not None)   # a system with designer's set-ups
        form.addRow("", self.use_setup)
        lay.addLayout(form)
        self.run_btn, self.cancel_btn, self.bar, self.status = run_controls(lay, "Run batch", self.start, self.cancel)
        self.time_left = TimeLeft()
        self.outcomes = OutcomeBars()
        lay.addWidget(self.outcomes)
        # the heat map chooser right under the outcomes: in sight however long the tables below are
        hrow = QHBoxLayout()
        hrow.addWidget(QLabel("Heat map"))
        self.heat = QComboBox()
        self.heat.addItems(["none", "eliminations", "fire targets", "fire origins"])
        self.heat.currentTextChanged.connect(lambda _t: self._emit_heat())
        hrow.addWidget(self.heat, 1)
        lay.addLayout(hrow)
        self.casualties = QTableWidget(0, 3)
        self.casualties.setHorizontalHeaderLabels(["Unit kind", "German", "Russian"])
        self.casualties.verticalHeader().hide()
        self.casualties.horizontalHeader().setStretchLastSection(True)
        rows = self.casualties.fontMetrics().height() + 8   # a row of these tables: compact
        self.casualties.verticalHeader().setDefaultSectionSize(rows)
        self.casualties.setMaximumHeight(5 * rows + 4)   # the header and infantry, commanders, CWs, AFVs
        lay.addWidget(QLabel("Casualties per game (mean)"))
        lay.addWidget(self.casualties)
        # the blunder report (docs/ai.md) as the command line prints it: a row a side and kind, its
        # definition on the row; it takes the room left and scrolls, so the dock keeps its size
        self.blunders_label = QLabel("Blunders")
        self.blunders = QTableWidget(0, 5)
        self.blunders.setHorizontalHeaderLabels(["Side", "Kind", "A game", "Games", "1st turn"])
        self.blunders.verticalHeader().hide()
        self.blunders.horizontalHeader().setStretchLastSection(True)
        self.blunders.setEditTriggers(QTableWidget.NoEditTriggers)
        self.blunders.verticalHeader().setDefaultSectionSize(rows)
        self.blunders.setMinimumHeight(3 * rows)
        self.blunders.setToolTip("Blunders a game, by side and kind: hover a row for the kind's definition "
                                 "(docs/ai.md, \"Blunder report\")")
        lay.addWidget(self.blunders_label)
        lay.addWidget(self.blunders, 1)
        for sig in (self.seed.valueChanged, self.ai["german"].currentTextChanged, self.ai["russian"].currentTextChanged,
                    self.rules.currentTextChanged, self.use_setup.toggled):
            sig.connect(lambda *_a: self.settings_changed.emit())
        self.runner: BatchRunner | None = None
        self.results: list = []
        self.summary: dict | None = None
        self._tmp = SnapshotFolder(self, "ironcross-playtest-")

    def set_system(self, system=None) -> None:
        """Offer the players (``RuleSystem.players``) and rule levels (``RuleSystem.rules``, the
        first the default) of ``system`` (None: the default system, Iron Cross), with the defaults
        of ``ironcross playtest``; a choice the system also has is kept."""
        from core.playtest import DEFAULT_AI
        from core.rule_system import get

        system = system if system is not None else get(None)
        same = self.system is system
        self.system = system
        for side, c in self.ai.items():
            old = c.currentText() if same else ""
            c.blockSignals(True)
            c.clear()
            c.addItems(sorted(system.players))
            want = old if old in system.players else DEFAULT_AI.get(side, "random")
            c.setCurrentText(want if want in system.players else sorted(system.players)[0])
            c.setToolTip("; ".join(f"{n}: {d}" for n, d in sorted(system.players.items())))
            c.blockSignals(False)
        old = self.rules.currentText() if same else ""
        self.rules.blockSignals(True)
        self.rules.clear()
        self.rules.addItems(list(system.rules))
        self.rules.setCurrentText(old if old in system.rules else system.rules[0])
        self.rules.blockSignals(False)
        self.rules.setToolTip(f"the rule level of {system.title} ({', '.join(system.rules)}; the first is the "
                              "default of ironcross playtest)")
        if hasattr(self, "use_setup"):
            self.use_setup.setEnabled(system.load_placement is not None)
            if system.load_placement is None:
                self.use_setup.setChecked(False)
        self.settings_changed.emit()

    def ai_spec(self) -> dict[str, str]:
        return {s: c.currentText() for s, c in self.ai.items()}

    def game_settings(self) -> dict:
        """What a game started from this panel plays with, for Watch and Hot-seat too (one
        truth: the same settings for every game): ``{"seed", "ai": {side: player}, "rules", "options", "fixed_setup"}``, where
        ``fixed_setup`` is the designer's set-up when *Use this set-up* is ticked (else None).
        Raises ValueError when that set-up has problems (the game is refused, as the batch)."""
        fixed = None
        if self.use_setup.isChecked() and self.fixed_setup is not None:
            fixed = self.fixed_setup()
        return {"seed": self.seed.value(), "ai": self.ai_spec(), "rules": self.rules.currentText(),
                "options": (), "fixed_setup": fixed}

    def describe_settings(self) -> str:
        """"German heuristic vs Russian random, basic rules, designer's set-up"."""
        ai = self.ai_spec()
        return (f"German {ai['german']} vs Russian {ai['russian']}, {self.rules.currentText()} rules"
                + (", the designer's set-up" if self.use_setup.isChecked() else ""))

    def start(self) -> bool:
        if self.runner is not None and self.runner.isRunning():
            return False
        fixed = None
        if self.use_setup.isChecked() and self.fixed_setup is not None:
            try:   # refused when the games would not start from what is placed
                fixed = self.fixed_setup()
            except ValueError as e:
                self.status.setText(f"<span style='color:#b00'>cannot use this set-up: {e}</span>")
                return False
        try:   # a snapshot of what the designer sees: scenario, map and chart, roster
            path = self.scenario_file(self._tmp.name)
        except Exception as e:  # noqa: BLE001
            self.status.setText(f"cannot write the scenario: {e}")
            return False
        n = self.games.value()
        self.bar.setRange(0, n)
        self.bar.setValue(0)
        self.status.setText(f"running {n} games on {self.workers.value()} worker(s)...")
        self.time_left.start(self.workers.value())
        self.runner = BatchRunner(str(path), n, self.seed.value(), self.ai_spec(), self.rules.currentText(),
                                  self.workers.value(), parent=self, fixed_setup=fixed)
        self.runner.progress.connect(self._progress)
        self.runner.done.connect(self._done)
        self.runner.failed.connect(self._failed)
        self.run_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        self.runner.start()
        return True

    def cancel(self) -> None:
        if self.runner is not None:
            self.runner.cancel()
            self.status.setText("cancelling (the running games finish first)...")

    def _progress(self, done: int, total: int) -> None:
        self.bar.setValue(done)
        self.time_left.set_played(done)
        self.status.setText(f"{done} of {total} games played{self.time_left.text(total - done)}")

    def _failed(self, msg: str) -> None:
        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        self.status.setText(f"<span style='color:#b00'>batch failed: {msg}</span>")

    def _done(self, results: list) -> None:
        from core.playtest import summarise

        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        self.results = list(results)
        self.summary = summarise(self.results) if self.results else None
        self.outcomes.set_summary(self.summary)
        s = self.summary
        if s is None:
            self.status.setText("cancelled before any game finished")
            return
        cancelled = " (cancelled)" if self.runner is not None and self.runner.cancelled else ""
        o = s["outcomes"]
        self.status.setText(f"{s['games']} games{cancelled}: German {o['german']}, Russian {o['russian']}, "
                            f"draw {o['draw']}" + (f", errors {o['error']}" if o.get("error") else "")
                            + f"; mean length {s['turns']['mean']:.1f} turns"
                            + "".join(f"\nWARNING: {w}" for w in s["trust"]["warnings"]))
        self._show_blunders(s["trust"].get("blunders") or {}, s["games"])
        cas = s["casualties_per_game"]
        kinds = sorted(set(cas.get("german", {})) | set(cas.get("russian", {})))
        self.casualties.setRowCount(len(kinds))
        for i, k in enumerate(kinds):
            self.casualties.setItem(i, 0, QTableWidgetItem(k))
            for j, side in enumerate(("german", "russian")):
                self.casualties.setItem(i, j + 1, QTableWidgetItem(f"{cas.get(side, {}).get(k, 0):.2f}"))
        if self.heat.currentText() == "none":
            self.heat.setCurrentText("eliminations")
        else:
            self._emit_heat()
        self.batch_finished.emit(self.results)

    def _show_blunders(self, report: dict, games: int) -> None:
        """Fill the blunder table from a batch's report (:func:`blunder_rows`)."""
        rows, kinds = blunder_rows(report), report.get("kinds")
        self.blunders_label.setText(f"Blunders (a game; games with one, of {games}; 1st Game Turn, mean)"
                                    if rows else "Blunders: none committed" if kinds else "Blunders: none reported")
        # the kinds the rule system watches for, named where there is room for them
        self.blunders_label.setToolTip("Kinds watched for: " + ", ".join(kinds) if kinds and not rows else "")
        self.blunders.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row[:5]):
                item = QTableWidgetItem(text)
                item.setToolTip(row[5])
                if j >= 2:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.blunders.setItem(i, j, item)
        self.blunders.resizeColumnsToContents()

    def batch_settings(self) -> dict | None:
        """What the last batch played (None before one ran): ``{"path"`` (its snapshot),
        ``"games", "seed", "ai", "rules", "workers", "options", "fixed_setup"}``."""
        if self.runner is None:
            return None
        path, games, seed, ai, rules, workers, options = self.runner.args
        return {"path": path, "games": games, "seed": seed, "ai": dict(ai), "rules": rules, "workers": workers,
                "options": options, "fixed_setup": self.runner.fixed_setup}

    def heat_counts(self, which: str | None = None) -> dict[str, int]:
        """Hex id -> count over the batch for the heat map ``which`` (default: the one chosen;
        "none": empty), as the report pictures count it (:func:`cli.playtest_report.heat_counts`)."""
        from cli.playtest_report import HEAT_KINDS, heat_counts

        which = which or self.heat.currentText()
        return heat_counts(self.results, which) if which in HEAT_KINDS else {}

    def _emit_heat(self) -> None:
        self.heat_changed.emit(self.heat_counts(), self.heat.currentText())

    def shutdown(self) -> None:
        if self.runner is not None and self.runner.isRunning():
            self.runner.cancel()
            self.runner.wait(30000)


def blunder_rows(report: dict) -> list[tuple[str, str, str, str, str, str]]:
    """The blunder report (docs/ai.md) as table rows, as ``ironcross playtest`` prints it: (side,
    kind, count a game, games with one, mean Game Turn of the first, the kind's definition); empty
    when no kind was found or the system reports none."""
    defs = report.get("kinds") or {}
    out = []
    for side, kinds in (report.get("per_side") or {}).items():
        for k, d in kinds.items():
            first = f"{d['first_turn']:.1f}" if d.get("first_turn") is not None else ""
            out.append((side.capitalize(), k.replace("_", " "), f"{d['per_game']:.2f}", str(d["games"]), first,
                        f"{k}: {defs.get(k, '')}"))
    return out

