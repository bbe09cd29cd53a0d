"""The Robust panel of the Play mode: "Does this answer depend on the AI?"
(:func:`core.robust_balance.robust_balance`, as ``ironcross playtest SCENARIO --robust``).

A batch of heuristic against heuristic says who wins; whether that belongs to the scenario or to
the AI it cannot say. The panel plays the defaults against each other, then tunes each side against
the other's defaults (Optuna trials of the behaviour settings) and plays each tuned side on the same
seeds, and shows the three pairings' shares with their 95 % intervals, each side's gain from
tuning with its paired interval and the settings that moved, and the verdict: robust, AI-dependent
or undecided (from 30 check games a pairing on, with which way it leans and how many games would
decide it).

A check takes an hour or more for a real scenario, so a :class:`RobustRunner` (``QThread``) runs it
in the background, its games on a local pool of worker processes, and *Cancel* stops it after the
running trial or part of a batch. For a saved scenario the tuning studies and the check games are
kept beside it, in ``<scenario>.robust/<version>/`` (``--storage`` of the command line; the
version names the scenario in memory, the map and roster it names and the code,
:func:`core.robust_balance.scenario_version`): *Check* again after a Cancel, or with more games a
pairing, plays only what is missing, and an edited scenario starts afresh in a folder of its own.
The games are the command line's: the same seeds, the same players, the same answer.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt, QThread, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.drawing.widgets import TimeLeft, run_controls
from editor.play.snapshot_folder import SnapshotFolder

__all__ = ["RobustRunner", "RobustPanel", "verdict_colour", "tunable_player", "storage_beside", "planned_games"]

#: the sides a check tunes (the table's columns): the systems' two sides
_SIDES = 2

#: the verdict's colour in the panel (robust: green, AI-dependent: red, undecided and the rest: amber)
_COLOURS = {"robust": "#1b7a1b", "AI-dependent": "#b00000"}


def verdict_colour(verdict: str) -> str:
    """The HTML colour the panel writes ``verdict`` in."""
    return _COLOURS.get(verdict, "#a06000")


def planned_games(games: int, trials: int, tune_games: int, sides: int = _SIDES) -> list[int]:
    """The games of each stage of a check (:func:`core.robust_balance.robust_stages`): the
    default pairing's ``games``, then per side its tuning (``trials`` x ``tune_games``) and its
    tuned pairing's ``games``. Games an earlier run kept are not played again, so these are the
    most a check plays."""
    return [games] + [trials * tune_games, games] * sides


def tunable_player(system) -> str | None:
    """The player a robust check tunes: the heuristic when its behaviour settings can be tuned,
    else the first player (by name) whose can; None when no player of ``system`` has settings."""
    if system.settings_space is None:
        return None
    for p in ("heuristic", *sorted(system.players)):
        try:
            system.settings_space(p)
        except KeyError:
            continue
        return p
    return None


class RobustRunner(QThread):
    """Runs :func:`core.robust_balance.robust_balance` on the scenario file ``path`` with the
    player ``player`` on both sides (None: :func:`tunable_player` of its system); ``storage``: the
    folder that keeps the studies and check games (None: nothing kept). Signals ``stage(str)`` as
    each stage starts and as the kept files are read, ``step(i, n)`` as stage i of n starts,
    ``trial(done, score, best)`` after each tuning trial, ``games_done(n)`` as n more check games
    end, ``games_kept(n)`` as a check stage takes n games an earlier run kept, ``done(RobustAnswer)``
    (its verdict "interrupted" when a tuning or a tuned side's games were cancelled: the rows done,
    the stopped side's over its games so far), ``cancelled()`` (stopped in the default games: its
    games so far kept) and ``failed(str)``."""

    stage = Signal(str)
    step = Signal(int, int)
    trial = Signal(int, float, float)
    games_done = Signal(int)
    games_kept = Signal(int)
    done = Signal(object)
    cancelled = Signal()
    failed = Signal(str)

    def __init__(self, path: str, *, games: int, seed: int, trials: int, tune_games: int, workers: int = 1,
                 player: str | None = None, storage: str | None = None, parent=None):
        super().__init__(parent)
        self.path, self.games, self.seed, self.trials, self.tune_games = str(path), games, seed, trials, tune_games
        self.workers, self.player, self.storage = max(1, workers), player, storage
        self._cancel = False

    def cancel(self) -> None:
        self._cancel = True

    def run(self) -> None:  # in the thread
        from cli.tune_command import kept_files, study_files
        from core.robust_balance import robust_balance
        from core.rule_system import for_scenario

        try:
            system = for_scenario(self.path)
            self.player = self.player or tunable_player(system)
            if self.player is None:
                self.failed.emit(f"{system.title}'s players take no behaviour settings to tune")
                return
            ans = robust_balance(self.path, system, games=self.games, seed=self.seed, trials=self.trials,
                                 tune_games=self.tune_games, workers=self.workers, player=self.player,
                                 storage=study_files(self.storage, self.path) if self.storage else None,
                                 kept=kept_files(self.storage, self.path) if self.storage else None,
                                 on_stage=self.stage.emit, on_trial=self.trial.emit, on_games=self.games_done.emit,
                                 should_stop=lambda: self._cancel, on_step=self.step.emit,
                                 on_kept=self.games_kept.emit)
        except KeyboardInterrupt:
            self.cancelled.emit()
            return
        except Exception as e:  # noqa: BLE001 - shown in the panel, never a crash of the UI
            self.failed.emit(f"{type(e).__name__}: {e}")
            return
        self.done.emit(ans)


class RobustPanel(QWidget):
    """The Robust dock (see the module docstring). ``playable_file(folder)`` -> the snapshot of
    the scenario in memory to check; ``storage_dir()`` -> the folder that keeps the check's studies
    and games (``<scenario>.robust`` beside a saved scenario) or None (an unsaved one: nothing is
    kept after the run)."""

    def __init__(self, playable_file, storage_dir=None, parent=None):
        super().__init__(parent)
        self.playable_file, self.storage_dir = playable_file, storage_dir
        self.runner: RobustRunner | None = None
        self.answer = None
        # the playable copy of the scenario in memory: made at the first run, removed with the panel
        self._tmp = SnapshotFolder(self, "ironcross-robust-")
        self._stage_no = 0
        self._stage_games = 0
        self._stage_kept = 0
        self._stage_trials = 0  # the trials of the running tuning stage done (kept ones too)
        # the time left: the pace of the games played this run, the games a stage plays at most
        self.time_left = TimeLeft()
        self._plan_games: list[int] = []
        lay = QVBoxLayout(self)
        intro = QLabel("Does the balance answer belong to the scenario or to the AI? Default against default, "
                       "then each side tuned against the other's defaults, on the same seeds.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.games = QSpinBox()
        self.games.setRange(2, 100_000)
        self.games.setValue(200)
        self.games.setToolTip("check games of each pairing (default vs default, German tuned, Russian tuned); "
                              "from 30 on, an undecided verdict says which way it leans and about how many "
                              "would decide it")
        self.trials = QSpinBox()
        self.trials.setRange(1, 10_000)
        self.trials.setValue(30)
        self.tune_games = QSpinBox()
        self.tune_games.setRange(1, 10_000)
        self.tune_games.setValue(20)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.seed.setValue(1)
        self.workers = QSpinBox()
        self.workers.setRange(1, max(1, os.cpu_count() or 1))
        self.workers.setValue(max(1, os.cpu_count() or 1))
        form.addRow("Games a pairing", self.games)
        form.addRow("Tuning trials a side", self.trials)
        form.addRow("Games a trial", self.tune_games)
        form.addRow("Seed", self.seed)
        form.addRow("Worker processes", self.workers)
        lay.addLayout(form)
        # how much a check plays, before it starts (its time shows once the first games are played)
        self.plan = QLabel("")
        self.plan.setWordWrap(True)
        lay.addWidget(self.plan)
        for box in (self.games, self.trials, self.tune_games):
            box.valueChanged.connect(self._show_plan)
        self._show_plan()
        self.run_btn, self.cancel_btn, self.bar, self.status = run_controls(lay, "Check", self.start, self.cancel)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["pairing", "German wins", "Russian wins", "draw"])
        self.table.setToolTip("each pairing's share of the games with its 95 % interval")
        self.table.verticalHeader().hide()
        lay.addWidget(self.table)
        self.verdict = QLabel("")
        self.verdict.setWordWrap(True)
        self.verdict.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        lay.addWidget(self.verdict, 1)

    # ------------------------------------------------------------------ running
    def start(self) -> bool:
        """Start a check on a snapshot of the scenario in memory; False when one runs or the
        snapshot cannot be made (the reason in the status line)."""
        if self.runner is not None and self.runner.isRunning():
            return False
        try:
            path = self.playable_file(self._tmp.name)
        except (ValueError, OSError) as e:
            self.status.setText(f"cannot check: {e}")
            return False
        storage = self.storage_dir() if self.storage_dir is not None else None
        if storage is not None:
            from core.robust_balance import scenario_version

            try:  # one folder per version of the scenario (and of the code): an edit starts afresh
                storage = Path(storage) / scenario_version(str(path))
            except Exception as e:  # noqa: BLE001 - a snapshot that cannot be read: said in the panel
                self.status.setText(f"cannot check: {e}")
                return False
        self.answer = None
        self.table.setRowCount(0)
        self.verdict.setText("")
        self._stage_no, self._stage_games, self._stage_kept, self._stage_trials = 0, 0, 0, 0
        self.time_left.start(self.workers.value())
        self._plan_games = planned_games(self.games.value(), self.trials.value(), self.tune_games.value())
        self.bar.setRange(0, 0)  # busy until the run says how many stages it has (_step)
        kept = (f"kept in {storage}" if storage else
                "not kept (save the scenario to keep the studies and games beside it)")
        self.status.setText(f"starting; the trials and games are {kept}")
        self.runner = RobustRunner(str(path), games=self.games.value(), seed=self.seed.value(),
                                   trials=self.trials.value(), tune_games=self.tune_games.value(),
                                   workers=self.workers.value(), storage=str(storage) if storage else None,
                                   parent=self)
        self.runner.stage.connect(self._stage)
        self.runner.step.connect(self._step)
        self.runner.trial.connect(self._trial)
        self.runner.games_done.connect(self._games)
        self.runner.games_kept.connect(self._kept)
        self.runner.done.connect(self._done)
        self.runner.cancelled.connect(self._cancelled)
        self.runner.failed.connect(self._failed)
        self.run_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        self.runner.start()
        return True

    def cancel(self) -> None:
        if self.runner is not None and self.runner.isRunning():
            self.runner.cancel()
            self.status.setText("cancelling after the running trial or part of a batch ...")

    def _show_plan(self) -> None:
        g, t, tg = self.games.value(), self.trials.value(), self.tune_games.value()
        total = sum(planned_games(g, t, tg))
        self.plan.setText(f"At most {total:,} games: {_SIDES + 1} pairings x {g:,} check games and {_SIDES} sides x {t:,} "
                          f"tuning trials x {tg:,} games (games an earlier run kept are not played again)")

    def _eta(self) -> str:
        """"; 12 min left at most" for the games of the check still to play (:class:`TimeLeft`): at
        most, since the stages ahead may take games or trials an earlier run kept, and a side whose
        best trial is its defaults plays no games of its own."""
        done = self._stage_trials * self.tune_games.value() if self._stage_no % 2 else self._stage_games
        return self.time_left.text(sum(self._plan_games[self._stage_no:]) - done, at_most=True)

    def _stage(self, text: str) -> None:
        self.status.setText(f"{text} ...{self._eta()}")

    def _step(self, i: int, n: int) -> None:
        """Stage ``i`` of ``n`` starts (core.robust_balance.robust_stages): the bar's part of it."""
        self._stage_no, self._stage_games, self._stage_kept, self._stage_trials = i, 0, 0, 0
        self.bar.setRange(0, 1000 * n)
        self.bar.setValue(1000 * i)

    def _trial(self, done: int, score: float, best: float) -> None:
        # ``done`` counts the trials an earlier run kept; this call is one trial played now
        self.time_left.add_played(self.tune_games.value())
        self._trials_done(done)
        self.status.setText(f"tuning: trial {done} of {self.trials.value()}, score {score:.3f}, best {best:.3f}"
                            f"{self._eta()}")

    def _games(self, n: int, played: bool = True) -> None:
        """``n`` more check games of the running stage: ``played`` now, or kept from an earlier run."""
        self._stage_games += n
        if played:
            self.time_left.add_played(n)
        total = max(1, self.games.value())
        self.bar.setValue(1000 * self._stage_no + int(1000 * min(1.0, self._stage_games / total)))
        kept = f" ({self._stage_kept} of them kept from an earlier run)" if self._stage_kept else ""
        self.status.setText(f"check games: {self._stage_games} of {total}{kept}{self._eta()}")

    def _kept(self, n: int) -> None:
        """The running stage takes what an earlier run kept: a check stage ``n`` games (or a side
        at its defaults the default games), a tuning stage ``n`` trials. They count on the bar as
        done, not in the pace."""
        if self._stage_no % 2:  # a tuning stage (robust_stages: odd stages tune)
            self._trials_done(n)
            return
        self._stage_kept += n
        self._games(n, played=False)

    def _trials_done(self, done: int) -> None:
        """``done`` trials of the running tuning stage are done (played or kept): the bar's part."""
        self._stage_trials = done
        self.bar.setValue(1000 * self._stage_no + int(1000 * min(1.0, done / max(1, self.trials.value()))))

    def _idle(self) -> None:
        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        if self.bar.maximum() == 0:  # ended before its first stage: no busy bar left running
            self.bar.setRange(0, 1)
            self.bar.setValue(0)

    def _cancelled(self) -> None:
        self._idle()
        kept = self.runner.storage if self.runner is not None else None
        self.status.setText("cancelled" + (f": the trials and games done are kept in {kept}; Check again to go on"
                                           if kept else ": nothing is kept (the scenario is not saved)"))

    def _failed(self, message: str) -> None:
        self._idle()
        self.status.setText(f"<span style='color:#b00'>check failed: {message}</span>")

    def _done(self, ans) -> None:
        self._idle()
        self.answer = ans
        self.bar.setValue(self.bar.maximum() if ans.verdict != "interrupted" else self.bar.value())
        rows = [("default vs default", ans.default)]
        for s, t in ans.tuned.items():
            rows.append((f"{s.capitalize()} tuned" + (f" ({t.played} games)" if t.played is not None else ""),
                         t.shares))
            if t.default_shares is not None:  # stopped in these games: the default over the same seeds
                rows.append((f"Default, the same {t.played}", t.default_shares))
        self.table.setRowCount(len(rows))
        for i, (label, shares) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(label))
            for j, k in enumerate(("german", "russian", "draw")):
                v = shares.get(k) or {"share": 0.0, "ci95": [0.0, 0.0]}
                self.table.setItem(i, j + 1, QTableWidgetItem(
                    f"{100 * v['share']:.0f} % [{100 * v['ci95'][0]:.0f}-{100 * v['ci95'][1]:.0f}]"))
        self.table.resizeColumnsToContents()
        self.table.setFixedHeight(self.table.horizontalHeader().height() + sum(
            self.table.rowHeight(i) for i in range(len(rows))) + 2 * self.table.frameWidth())
        lines = []
        for side, t in ans.tuned.items():
            g = t.gain
            moved = ", ".join(f"{k} {a:g} -> {b:.3g}" for k, (a, b) in t.moved.items()) or "none"
            over = (f" over the first {t.played} of {ans.games} paired games" if t.played is not None else "")
            lines.append(f"{side.capitalize()} gains {g[0]:+.1f} points [{g[1]:+.1f}, {g[2]:+.1f}]{over} from "
                         f"tuning ({t.tuning.trials} trials; settings moved: {moved})")
        if ans.verdict == "interrupted":
            stopped = ans.stopped_in
            head = (f"<b>Cancelled during the {stopped.capitalize()} tuned games</b>: no verdict yet" if stopped
                    else "<b>Cancelled during a tuning</b>: no verdict yet")
        else:
            head = (f"<b style='color:{verdict_colour(ans.verdict)}'>{ans.verdict.upper()}</b>: "
                    f"{_html(ans.text)}")
        self.verdict.setText("<br>".join([head] + [_html(x) for x in lines]))
        where = f"; kept in {self.runner.storage}" if self.runner is not None and self.runner.storage else ""
        player = self.runner.player if self.runner is not None else "?"
        head = "cancelled; " if ans.verdict == "interrupted" else ""
        self.status.setText(f"{head}{player} against {player}: {ans.games} games a pairing, seed {ans.seed}{where}"
                            + ("; Check again to go on" if head and where else ""))

    def shutdown(self) -> None:
        if self.runner is not None and self.runner.isRunning():
            self.runner.cancel()
            self.runner.wait(60000)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def storage_beside(path: str | os.PathLike[str] | None) -> Path | None:
    """``<scenario stem>.robust`` beside the scenario file ``path`` (None for an unsaved scenario)."""
    if not path:
        return None
    p = Path(path)
    return p.with_name(p.stem + ".robust")
