"""The Balance panel of the Play mode: "What would balance it?" (:mod:`core.whatif`).

The designer sets the target (a side's share of wins), the band around it, the budget of games
and the kinds of change to try, and presses *Run*: a :class:`BalanceRunner` (``QThread``) races
the candidate changes on a snapshot of the documents in memory (the scenario, the live map and
the roster, as the Playtest panel plays them), its games in the thread itself or on a local pool
of worker processes, and the ranked table fills in as the games come in. *Cancel* stops the race
after the running candidate's games and keeps the table so far. *Apply* makes the selected change
one undoable edit of the scenario document (``apply_change``, given by the shell) and then offers
a confirming playtest (``playtest_requested``).

After the confirming playtest the heat maps of the change are drawn beside today's
(:class:`editor.play.heat_comparison.HeatComparison`, reopened with *Compare heat maps*): today's
batch is the Playtest panel's last batch when it played exactly the scenario before *Apply* (its
snapshot's scenario, map and roster equal the one taken just before the edit), else the panel
plays the as-is scenario (that snapshot) with the confirming batch's games, seed, players and rules,
in the background, so both sides meet the same dice. Both pictures come from the batches' results
as the panels hold them and from the map in memory.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt, QThread, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.drawing.widgets import TimeLeft, button_grid
from editor.play.snapshot_folder import SnapshotFolder

__all__ = ["BalanceRunner", "BalancePanel"]


class BalanceRunner(QThread):
    """Runs :func:`core.whatif.search` on the scenario file ``path``; signals ``progress(spent,
    budget, rows)`` (rows: :func:`core.whatif.arm_rows`), ``done(WhatIfSearch)``, ``failed(str)``.
    ``play``: replaces the games (tests); default :func:`core.playtest.run_batch` with ``workers``."""

    progress = Signal(int, int, object)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, path: str, *, side: str, target: float, band: float, budget: int, first: int,
                 kinds: tuple[str, ...], seed: int = 1, workers: int = 1, ai: dict | None = None,
                 rules: str | None = None, play=None, parent=None):
        super().__init__(parent)
        self.path, self.side, self.target, self.band = str(path), side, target, band
        self.budget, self.first, self.kinds, self.seed, self.workers = budget, first, kinds, seed, max(1, workers)
        self.ai, self.rules, self._play = ai, rules, play
        self._cancel = False

    def cancel(self) -> None:
        self._cancel = True

    def run(self) -> None:  # in the thread
        from core.playtest import run_batch
        from core.rule_system import load_scenario
        from core.whatif import arm_rows, search

        def play(arm, seeds):
            if self._cancel:   # the race ends here and keeps its table (core.whatif.race)
                raise KeyboardInterrupt
            if self._play is not None:
                return self._play(arm, seeds)
            rs = run_batch(arm.path, 0, self.seed, dict(self.ai or {"german": "heuristic", "russian": "heuristic"}),
                           rules=self.rules, workers=self.workers, seeds=seeds)
            return [r.outcome for r in rs]

        try:
            loaded = load_scenario(self.path)
            kinds = loaded.system.whatif_changes()
            changes = kinds.default_changes(loaded.data, self.path, self.kinds)
            if not changes:
                self.failed.emit("no change of the kinds chosen applies to this scenario")
                return
            res = search(loaded, side=self.side, target=self.target, changes=changes, band=self.band,
                         budget=self.budget, seed=self.seed, first=self.first, play=play,
                         folder=os.path.join(os.path.dirname(self.path), "whatif"),
                         on_progress=lambda s, b, arms: self.progress.emit(
                             s, b, arm_rows(arms, self.side, self.target)))
        except Exception as e:  # shown in the panel, never a crash of the UI
            self.failed.emit(f"{type(e).__name__}: {e}")
            return
        self.done.emit(res)


class BalancePanel(QWidget):
    """The Balance dock (see the module docstring). ``playable_file(folder)`` -> the snapshot to
    search on; ``apply_change(texts, scenario_path) -> str | None`` makes the changes one undoable
    edit of the scenario (None) or says why not; ``playtest``: the Playtest panel (its last batch
    may be today's, it plays the confirming batch); ``map_source() -> (HexMap, [section names])``:
    the map in memory the heat maps are drawn on. Signals ``applied(label)``,
    ``playtest_requested()`` (the confirming playtest) and ``comparison_ready()`` (both heat maps
    can be drawn; the comparison window is shown)."""

    applied = Signal(str)
    playtest_requested = Signal()
    #: both heat maps are ready (today's batch, the changed scenario's batch)
    comparison_ready = Signal()

    def __init__(self, playable_file, apply_change=None, parent=None, playtest=None, map_source=None):
        super().__init__(parent)
        self.playable_file, self.apply_change = playable_file, apply_change
        #: the Playtest panel (its last batch is today's; it plays the confirming batch)
        self.playtest = playtest
        #: () -> (HexMap, [section names]) in memory, for the heat maps
        self.map_source = map_source
        #: the applied change (its label), the snapshot of the scenario just before it, and the two
        #: batches of the comparison (:class:`editor.play.heat_comparison.HeatBatch`)
        self.change_label: str | None = None
        self.change_description = ""
        self.before_path: str | None = None
        self.today = None
        self.changed = None
        self._confirming = False
        self.today_runner = None
        self.comparison = None
        if playtest is not None:
            playtest.batch_finished.connect(self._batch_finished)
        self.runner: BalanceRunner | None = None
        self.result = None
        self.rows: list[dict] = []
        self.run_target = ("german", 0.5)   # the target side and share of the last run (start)
        self.scenario_path: str | None = None
        # the playable copy of the scenario in memory: made at the first run, removed with the panel
        self._tmp = SnapshotFolder(self, "ironcross-balance-")
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.side = QComboBox()
        self.side.addItems(["german", "russian"])
        self.share = QSpinBox()
        self.share.setRange(0, 100)
        self.share.setValue(50)
        self.share.setSuffix(" %")
        tgt = QHBoxLayout()
        tgt.addWidget(self.side)
        tgt.addWidget(self.share)
        form.addRow("Target wins", tgt)
        self.band = QDoubleSpinBox()
        self.band.setRange(0, 50)
        self.band.setValue(5)
        self.band.setSuffix(" points")
        form.addRow("Band +-", self.band)
        self.budget = QSpinBox()
        self.budget.setRange(1, 100_000)
        self.budget.setValue(400)
        self.budget.setSuffix(" games")
        form.addRow("Budget", self.budget)
        self.first = QSpinBox()
        self.first.setRange(1, 200)
        self.first.setValue(8)
        form.addRow("First round", self.first)
        self.workers = QSpinBox()
        self.workers.setRange(1, max(1, os.cpu_count() or 1))
        self.workers.setValue(1)
        form.addRow("Workers", self.workers)
        lay.addLayout(form)
        from core.rule_system import get

        wk = get(None).whatif_changes()   # the default system's kinds (Iron Cross)
        KINDS, DEFAULT_KINDS = wk.KINDS, wk.DEFAULT_KINDS
        self.kinds = QListWidget()
        for k, text in KINDS.items():
            it = QListWidgetItem(f"{k}: {text}")
            it.setToolTip(f"{k}: {text}")   # the whole text: the list is narrower than its longest lines
            it.setData(Qt.ItemDataRole.UserRole, k)
            it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Checked if k in DEFAULT_KINDS else Qt.CheckState.Unchecked)
            self.kinds.addItem(it)
        self.kinds.setMaximumHeight(120)
        lay.addWidget(QLabel("Kinds of change to try:"))
        lay.addWidget(self.kinds)
        row = QHBoxLayout()
        self.run_btn = QPushButton("Run")
        self.cancel_btn = QPushButton("Cancel")
        self.cancel_btn.setEnabled(False)
        row.addWidget(self.run_btn)
        row.addWidget(self.cancel_btn)
        lay.addLayout(row)
        self.bar = QProgressBar()
        lay.addWidget(self.bar)
        self.time_left = TimeLeft()
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["change", "target side", "95 % interval", "games", "dist", "status"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        lay.addWidget(self.table)
        self.apply_btn = QPushButton("Apply")
        self.apply_btn.setEnabled(False)
        self.confirm_btn = QPushButton("Confirm with a playtest")
        self.confirm_btn.setEnabled(False)
        self.compare_btn = QPushButton("Compare heat maps")
        self.compare_btn.setToolTip("today's heat maps beside the changed scenario's (after the confirming playtest)")
        self.compare_btn.setEnabled(False)
        # two a row, so the dock keeps to about 360 pixels (a laptop's 1366 x 768 screen)
        lay.addLayout(button_grid([self.apply_btn, self.confirm_btn, self.compare_btn]))
        self.status = QLabel("")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.run_btn.clicked.connect(self.start)
        self.cancel_btn.clicked.connect(self.cancel)
        self.apply_btn.clicked.connect(self.apply_selected)
        self.confirm_btn.clicked.connect(self.confirm)
        self.compare_btn.clicked.connect(self.compare)
        self.table.itemSelectionChanged.connect(self._selection)

    # ------------------------------------------------------------------ running
    def chosen_kinds(self) -> tuple[str, ...]:
        return tuple(self.kinds.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.kinds.count())
                     if self.kinds.item(i).checkState() == Qt.CheckState.Checked)

    def start(self, play=None) -> bool:
        """Start a search on a snapshot of the scenario in memory; False when one runs or the
        snapshot cannot be made (the reason in the status line). ``play``: fake games (tests)."""
        if self.runner is not None and self.runner.isRunning():
            return False
        try:
            path = self.playable_file(self._tmp.name)
        except (ValueError, OSError) as e:
            self.status.setText(f"cannot search: {e}")
            return False
        self.scenario_path = str(path)
        self.rows, self.result = [], None
        # the table ranks the candidates for this run's target: its side and share stay with it
        # when the target is changed afterwards (a new run ranks for the new one)
        self.run_target = (self.side.currentText(), self.share.value() / 100)
        self.table.setHorizontalHeaderItem(1, QTableWidgetItem(f"{self.run_target[0]} wins"))
        self.table.setRowCount(0)
        self.bar.setRange(0, self.budget.value())
        self.bar.setValue(0)
        self.time_left.start(self.workers.value())
        self.runner = BalanceRunner(path, side=self.side.currentText(), target=self.share.value() / 100,
                                    band=self.band.value() / 100, budget=self.budget.value(), first=self.first.value(),
                                    kinds=self.chosen_kinds(), workers=self.workers.value(),
                                    play=play if callable(play) else None, parent=self)
        self.runner.progress.connect(self._progress)
        self.runner.done.connect(self._done)
        self.runner.failed.connect(self._failed)
        self.run_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        self.apply_btn.setEnabled(False)
        self.status.setText("validating the candidate changes ...")
        self.runner.start()
        return True

    def cancel(self) -> None:
        if self.today_runner is not None and self.today_runner.isRunning():
            self.today_runner.cancel()
            self.status.setText("cancelling today's games (the running games finish first) ...")
            return
        if self.runner is not None:
            self.runner.cancel()
            self.status.setText("cancelling after the running candidate's games ...")

    def _progress(self, spent: int, budget: int, rows: list) -> None:
        self.bar.setValue(spent)
        self._show(rows)
        # the search may end before its budget (no candidate left in the race): at most
        self.time_left.set_played(spent)
        self.status.setText(f"{spent} of {budget} games{self.time_left.text(budget - spent, at_most=True)}")

    def _done(self, res) -> None:
        from core.whatif import table_rows

        self.result = res
        self._show(table_rows(res, *self.run_target))
        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        best = res.best
        spent = res.pairs.spent if res.pairs else res.singles.spent
        head = "cancelled: the table so far. " if res.interrupted else ""
        from core.playtest import games_text

        as_is = res.as_is_on_target()
        if as_is is not None:
            p, lo, hi = as_is.share(self.run_target[0])
            self.status.setText(f"{head}{games_text(spent)}. No change needed: the scenario as it is, "
                                f"{p:.0%} [{lo:.0%}-{hi:.0%}] over {games_text(len(as_is.played))}, is in the band "
                                "and no change comes closer")
        elif best is not None:
            p, lo, hi = best.share(self.run_target[0])
            self.status.setText(f"{head}{games_text(spent)}. Best change: {best.candidate.label}: "
                                f"{p:.0%} [{lo:.0%}-{hi:.0%}] over {games_text(len(best.played))}")
        else:
            self.status.setText(f"{head}{games_text(spent)}; no change played")

    def _failed(self, message: str) -> None:
        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        self.status.setText(f"<span style='color:#b00'>{message}</span>")

    def _show(self, rows: list[dict]) -> None:
        self.rows = list(rows)
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            if r["status"] == "invalid":
                cells = [r["change"], "", "", "0", "", f"invalid: {r['reason']}"]
            elif not r["games"]:  # the budget never reached it: no shares to show, not 0 %
                cells = [r["change"], "", "", "0", "", "not played: the budget ran out" if r["status"] == "kept"
                         else r["reason"]]
            else:
                s = r["shares"][self.run_target[0]]
                cells = [r["change"], f"{s['share']:.0%}", f"{s['ci95'][0]:.0%}-{s['ci95'][1]:.0%}", str(r["games"]),
                         "" if r["distance"] is None else f"{r['distance']:.0f}",
                         "kept" if r["status"] == "kept" else r["reason"]]
            for j, c in enumerate(cells):
                it = QTableWidgetItem(c)
                it.setToolTip(r.get("description", ""))
                self.table.setItem(i, j, it)
        self.table.resizeColumnsToContents()
        self._selection()

    # ------------------------------------------------------------------ applying
    def _selection(self) -> None:
        r = self.selected_row()
        running = self.runner is not None and self.runner.isRunning()
        self.apply_btn.setEnabled(bool(r and r["changes"] and r["status"] != "invalid" and not running
                                       and self.apply_change is not None))

    def selected_row(self) -> dict | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.rows[rows[0].row()] if rows and rows[0].row() < len(self.rows) else None

    def apply_selected(self) -> bool:
        """Apply the selected change to the scenario (one undo step); then offer the playtest."""
        r = self.selected_row()
        if r is None or not r["changes"] or self.apply_change is None:
            return False
        try:   # today's scenario, for today's heat maps
            before = str(self.playable_file(self._tmp.name))
        except (ValueError, OSError):
            before = None
        why = self.apply_change(list(r["changes"]), self.scenario_path)
        if why:
            self.status.setText(f"<span style='color:#b00'>cannot apply {r['change']}: {why}</span>")
            return False
        self.change_label, self.before_path, self.changed = r["change"], before, None
        self.change_description = r.get("description", "")
        self.today = self._todays_batch()
        self.compare_btn.setEnabled(False)
        self.confirm_btn.setEnabled(True)
        self.status.setText(f"applied {r['change']} (Edit > Undo takes it back); confirm it with a playtest")
        self.applied.emit(r["change"])
        return True

    # ------------------------------------------------------------------ heat maps beside today's
    def _todays_batch(self):
        """The Playtest panel's last batch as today's (a ``HeatBatch``) when it played exactly the
        scenario before the change (same scenario, map and roster as :attr:`before_path`), else None."""
        from editor.play.heat_comparison import HeatBatch

        pt = self.playtest
        if pt is None or self.before_path is None or not pt.results:
            return None
        if pt.runner is not None and pt.runner.isRunning():
            return None
        played = pt.batch_settings()
        if played is None or not same_snapshot(played["path"], self.before_path):
            return None
        return HeatBatch("Today", pt.results, "the last Playtest batch before Apply")

    def confirm(self) -> None:
        """The confirming playtest (the Playtest panel's batch of the changed scenario); its end
        brings the heat maps beside today's."""
        self._confirming = self.change_label is not None
        self.playtest_requested.emit()

    def _batch_finished(self, results: list) -> None:
        from editor.play.heat_comparison import HeatBatch

        if not self._confirming or not results:
            return
        self._confirming = False
        played = self.playtest.batch_settings() if self.playtest is not None else None
        if played is not None and self.before_path is not None and same_snapshot(played["path"], self.before_path):
            self.status.setText(f"the playtest played the scenario as it was before {self.change_label} "
                                "(undone?): no heat maps to compare")
            return
        self.changed = HeatBatch(f"With {self.change_label}", results, "the confirming playtest")
        if self.today is None:
            self._play_today()
        else:
            self._ready()

    def _play_today(self) -> None:
        """Play today's scenario (the snapshot before the change) as the confirming batch was
        played, in the background; its end shows the comparison."""
        from editor.play.playtest_dock import BatchRunner

        played = self.playtest.batch_settings() if self.playtest is not None else None
        if self.before_path is None or played is None:
            self.status.setText("today's scenario could not be kept: no heat maps to compare")
            return
        n = len(self.changed.results)
        self.today_runner = BatchRunner(self.before_path, n, played["seed"], played["ai"], played["rules"],
                                        played["workers"], played["options"], parent=self,
                                        fixed_setup=played["fixed_setup"])
        self.today_runner.progress.connect(
            lambda d, t: (self.bar.setRange(0, t), self.bar.setValue(d),
                          self.status.setText(f"today's scenario for the heat maps: {d} of {t} games")))
        self.today_runner.done.connect(self._today_done)
        self.today_runner.failed.connect(self._failed)
        self.cancel_btn.setEnabled(True)
        self.status.setText(f"playing today's scenario ({n} games, the confirming batch's seed and players) "
                            "for the heat maps ...")
        self.today_runner.start()

    def _today_done(self, results: list) -> None:
        from editor.play.heat_comparison import HeatBatch

        self.cancel_btn.setEnabled(False)
        if not results:
            self.status.setText("today's games were cancelled: no heat maps to compare")
            return
        self.today = HeatBatch("Today", results, "as it was before Apply, on the same seeds")
        self._ready()

    def _ready(self) -> None:
        self.compare_btn.setEnabled(True)
        self.status.setText(f"{self.change_label}: {self._share(self.today.results)} today, "
                            f"{self._share(self.changed.results)} changed")
        self.comparison_ready.emit()
        self.compare()

    def _share(self, results: list) -> str:
        from editor.play.heat_comparison import share_text

        return share_text(results, self.side.currentText())

    def compare(self) -> bool:
        """Show the heat maps of the change beside today's (False until both batches exist)."""
        if self.today is None or self.changed is None or self.map_source is None:
            return False
        from editor.play.heat_comparison import HeatComparison

        if self.comparison is None:
            self.comparison = HeatComparison(self.map_source, parent=self)
        kind = self.playtest.heat.currentText() if self.playtest is not None else None
        try:
            self.comparison.show_batches(self.change_label, self.today, self.changed, self.side.currentText(), kind,
                                         self.change_description)
        except Exception as e:  # noqa: BLE001 - a map that cannot be drawn is said, never a crash of the UI
            self.status.setText(f"<span style='color:#b00'>cannot draw the heat maps: {type(e).__name__}: {e}</span>")
            return False
        return True

    def shutdown(self) -> None:
        """Stop the search and today's games (the window closes)."""
        for r in (self.runner, self.today_runner):
            if r is not None and r.isRunning():
                r.cancel()
                r.wait(30000)


def same_snapshot(a: str, b: str) -> bool:
    """Whether the snapshots (``ScenarioDocument.playable_copy``) of scenario files ``a`` and ``b``
    hold the same scenario, map and roster (their files equal byte for byte)."""
    from pathlib import Path

    da, db = Path(a).parent, Path(b).parent
    try:
        return all((da / n).read_bytes() == (db / n).read_bytes()
                   for n in (Path(a).name, "map.json", "counters.json"))
    except OSError:
        return False
