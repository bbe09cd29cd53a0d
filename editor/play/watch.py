"""Watch a game on the map: one AI-vs-AI game played now (in a ``QThread``) or a saved replay,
stepped decision by decision forward and back, or played at a chosen speed -- of any rule system
(the scenario's, through :class:`editor.play.game_record.GameRecording`).

The :class:`editor.play.game_record.GameRecording` keeps a light snapshot after every decision, so
stepping back is instant. The map shows the units (side colour, facing, UP/DOWN, morale) and the
lines of fire of the current decision (a system without the richer editor state: its pieces,
drawn generically, and a blue line for each piece that changed hexes); the panel shows turn,
phase, the side to act, the decision and its events (dice and results) in the event log.

A measured system (pieces with a ``point``, e.g. the 20 mm rules) is drawn as on a table: each
piece where it stands with its footprint, figures, facing and turret, and the decision's marks
(the system's ``marks``: lines of fire, templates, fire corridors, scatter, moves); *Fire arcs of
every piece* shows each piece's arc.
"""

from __future__ import annotations

from PySide6.QtCore import QThread, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from PySide6.QtCore import Qt

from editor.play.game_record import GameRecording, log_lines, state_text
from editor.drawing.pieces import (
    CounterSpec,
    CountersItem,
    PiecesItem,
    cross_item,
    fire_line_item,
    mark_items,
    point_cross_item,
)

__all__ = ["WatchPanel", "GameThread", "counters_of", "game_items", "decision_items"]


def counters_of(units: dict[str, tuple], selected: str | None = None) -> list[CounterSpec]:
    return [CounterSpec(h, side, label, facing, down, morale, uid == selected)
            for uid, (h, facing, down, morale, side, label) in sorted(units.items())]


def game_items(snap, selected: str | None = None, arcs: bool = False) -> list:
    """The counters of a snapshot: the system's pieces drawn generically (:class:`PiecesItem`;
    ``arcs``: every piece's fire arc, not only the selected one's) when the snapshot has them,
    else the richer counters of ``units`` (UP/DOWN, morale)."""
    if snap.pieces:
        return [PiecesItem(snap.pieces, selected, arcs)]
    return [CountersItem(counters_of(snap.units, selected))]


def decision_items(system, game, events: list[dict], before, after) -> list:
    """What one decision did, on the map, for a system drawn from its pieces (snapshots
    ``before`` and ``after`` it, with ``pieces``): the system's ``marks(game, events)`` (lines of
    fire, templates, corridors, moves: :func:`editor.scenario.overlay.mark_items`) when it has
    them, else a blue line for each piece that changed hexes; a red cross where a piece standing
    at a point (a measured system) was before it was removed."""
    items = []
    if system.marks is not None:
        items += mark_items(system.marks(game, events))
    else:
        was = {p.uid: p.hexes for p in before.pieces}
        for p in after.pieces:
            old = was.get(p.uid)
            if old and p.hexes and old != p.hexes:
                items.append(fire_line_item(old[0], p.hexes[0], QColor(30, 120, 230), 5))
    now = {p.uid for p in after.pieces}
    for p in before.pieces:
        if p.uid not in now and getattr(p, "point", None) is not None:
            items.append(point_cross_item(p.point))
    return items


class GameThread(QThread):
    """Plays one recorded game in the background; ``finished_game(GameRecording)``."""

    finished_game = Signal(object)
    failed = Signal(str)
    progress = Signal(int)

    def __init__(self, scenario_path: str, seed: int, ai: dict, rules: str, parent=None,
                 options: tuple[str, ...] = (), fixed_setup: dict | None = None):
        super().__init__(parent)
        self.args = (scenario_path, seed, ai, rules)
        self.options = tuple(options)
        self.fixed_setup = fixed_setup

    def run(self) -> None:
        try:
            rec = GameRecording.play(self.args[0], self.args[1], self.args[2], self.args[3], self.options,
                                     progress=lambda n: self.progress.emit(n) or True, fixed_setup=self.fixed_setup)
        except Exception as e:  # noqa: BLE001
            self.failed.emit(f"{type(e).__name__}: {e}")
            return
        self.finished_game.emit(rec)


class WatchPanel(QWidget):
    """Controls: play game N of the Playtest panel's batch (its seed, AIs, rules and *Use this
    set-up*: the watched game is the batch's game N) or open a replay; first / back / forward /
    last, play-pause with a speed; the event log in sentences with their rules."""

    def __init__(self, overlay=None, scenario_file=None, parent=None, settings=None, describe_settings=None):
        super().__init__(parent)
        self.overlay = overlay
        self.scenario_file = scenario_file
        #: () -> the Playtest panel's game settings (``PlaytestPanel.game_settings``)
        self.settings = settings
        self.describe_settings = describe_settings
        self.recording: GameRecording | None = None
        self.pos = 0
        self.shown = True   # False while another view hides the game (the window decides)
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Game"))
        self.game_no = QSpinBox()
        self.game_no.setRange(1, 100000)
        self.game_no.setToolTip("game N of the Playtest panel's batch: the same seed, players, rules and set-up")
        row.addWidget(self.game_no)
        self.play_btn = QPushButton("Play this game")
        self.play_btn.clicked.connect(self.start_game)
        row.addWidget(self.play_btn, 1)
        lay.addLayout(row)
        self.settings_label = QLabel()
        self.settings_label.setWordWrap(True)
        lay.addWidget(self.settings_label)
        b = QPushButton("Open replay...")
        b.clicked.connect(self.open_replay_dialog)
        lay.addWidget(b)
        nav = QHBoxLayout()
        self.nav_buttons = []
        for text, tip, slot in (("|<", "first decision", lambda: self.go(0)), ("<", "back one decision", self.back),
                                (">", "forward one decision", self.forward),
                                (">|", "last decision", lambda: self.go(len(self.recording) if self.recording else 0))):
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            nav.addWidget(b)
            self.nav_buttons.append(b)
        self.auto_btn = QPushButton("Play")
        self.auto_btn.setCheckable(True)
        self.auto_btn.toggled.connect(self._auto)
        nav.addWidget(self.auto_btn)
        self.speed = QSlider(Qt.Orientation.Horizontal)
        self.speed.setRange(1, 50)
        self.speed.setValue(10)
        self.speed.setToolTip("decisions per second")
        self.speed.valueChanged.connect(lambda v: self.timer.setInterval(int(1000 / v)))
        nav.addWidget(self.speed, 1)
        lay.addLayout(nav)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.valueChanged.connect(lambda v: v != self.pos and self.go(v))
        lay.addWidget(self.slider)
        self.arcs = QCheckBox("Fire arcs of every piece")
        self.arcs.setToolTip("a measured system's pieces: the wedge each can fire into (+-arc, out to its range)")
        self.arcs.toggled.connect(lambda _on: self.draw())
        lay.addWidget(self.arcs)
        self.state_label = QLabel("no game")
        self.state_label.setWordWrap(True)
        lay.addWidget(self.state_label)
        #: the system's status lines (Red Flags: the activation cards up, turned and to come)
        self.status_label = QLabel("")
        self.status_label.setWordWrap(True)
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setStyleSheet("QLabel { background: #f4f1e6; border: 1px solid #c9c2a8; padding: 3px; }")
        self.status_label.hide()
        lay.addWidget(self.status_label)
        self.log = QListWidget()
        self.log.setWordWrap(True)
        lay.addWidget(self.log, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._tick)
        self.thread: GameThread | None = None
        self.update_settings()

    def update_settings(self) -> None:
        """Show what the next game plays with (the Playtest panel's choices)."""
        text = self.describe_settings() if self.describe_settings is not None else "random AIs, the first rule level"
        self.settings_label.setText(f"<i>{text}</i> (Playtest panel)")

    # -- loading
    def start_game(self) -> bool:
        """Play game N (``game_no``) of the Playtest panel's batch in the background: seed
        ``derive_seed(seed, N - 1)`` as ``ironcross playtest`` gives game N."""
        if self.thread is not None and self.thread.isRunning():
            return False
        import tempfile

        from core.dice import derive_seed

        try:
            st = self.settings() if self.settings is not None else \
                {"seed": 1, "ai": {"german": "random", "russian": "random"}, "rules": None, "options": (),
                 "fixed_setup": None}
            self._tmp = tempfile.TemporaryDirectory(prefix="ironcross-watch-")
            path = self.scenario_file(self._tmp.name)
        except Exception as e:  # noqa: BLE001 - a refused set-up or an unwritable snapshot: said in the panel
            self.state_label.setText(f"<span style='color:#b00'>cannot play: {e}</span>")
            return False
        self.update_settings()
        seed = derive_seed(st["seed"], self.game_no.value() - 1)
        self.state_label.setText("playing the game...")
        self.thread = GameThread(str(path), seed, st["ai"], st["rules"], self, options=st.get("options", ()),
                                 fixed_setup=st.get("fixed_setup"))
        self.thread.finished_game.connect(self.set_recording)
        self.thread.failed.connect(lambda m: self.state_label.setText(f"game failed: {m}"))
        self.thread.progress.connect(lambda n: self.state_label.setText(f"playing the game... {n} decisions"))
        self.thread.start()
        return True

    def open_replay(self, path: str, scenario: str | None = None) -> None:
        self.set_recording(GameRecording.from_replay(path, scenario))

    def open_replay_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open replay", "", "Replays (*.jsonl *.json);;All files (*)")
        if path:
            try:
                self.open_replay(path)
            except Exception as e:  # noqa: BLE001
                self.state_label.setText(f"cannot open the replay: {e}")

    def set_recording(self, rec: GameRecording) -> None:
        self.recording = rec
        self.slider.setRange(0, len(rec))
        self.go(0)

    # -- stepping
    def forward(self) -> None:
        if self.recording is not None and self.pos < len(self.recording):
            self.go(self.pos + 1)

    def back(self) -> None:
        if self.pos > 0:
            self.go(self.pos - 1)

    def _auto(self, on: bool) -> None:
        (self.timer.start if on else self.timer.stop)()
        self.auto_btn.setText("Pause" if on else "Play")

    def _tick(self) -> None:
        if self.recording is None or self.pos >= len(self.recording):
            self.auto_btn.setChecked(False)
            return
        self.forward()

    def snapshot(self):
        return self.recording.snapshots[self.pos] if self.recording is not None else None

    def go(self, pos: int) -> None:
        """Show the state after ``pos`` decisions (0: the start), the decision ``pos`` led to and
        its events."""
        rec = self.recording
        if rec is None:
            return
        self.pos = max(0, min(pos, len(rec)))
        self.slider.blockSignals(True)
        self.slider.setValue(self.pos)
        self.slider.blockSignals(False)
        snap = rec.snapshots[self.pos]
        self.state_label.setText(f"{state_text(snap)}. Decision {self.pos} of {len(rec)}.")
        self.status_label.setText("\n".join(snap.status))
        self.status_label.setVisible(bool(snap.status))
        self.log.clear()
        lo = max(0, self.pos - 12)
        for i in range(lo, self.pos):
            st = rec.steps[i]
            units = rec.snapshots[i].units   # where each unit stood when the decision was made
            lines = log_lines(rec.system, st.events, lambda u, units=units: (units.get(u) or (None,))[0])
            if rec.system.log_events is not None:   # one sentence per event: the decision's is numbered
                for e, text in zip(st.events, lines):
                    self.log.addItem(f"{i + 1}. {text}" if e.get("kind") == "action" else text)
            else:
                for k, text in enumerate(lines):
                    self.log.addItem(f"{i + 1}. {text}" if k == 0 else f"  {text}")
        self.log.scrollToBottom()
        self.draw()

    def draw(self) -> None:
        """The game's counters and the last decision's fire (red), moves (blue) and eliminations
        (a red cross) on the map."""
        rec = self.recording
        if self.overlay is None or rec is None:
            return
        snap = rec.snapshots[self.pos]
        last = rec.steps[self.pos - 1] if self.pos > 0 else None
        self.overlay.set_layer("game", game_items(snap, arcs=self.arcs.isChecked()))
        lines = []
        if last is not None and snap.pieces:   # any system: its marks, else a blue line per piece that changed hexes
            lines = decision_items(rec.system, rec.game, last.events, rec.snapshots[self.pos - 1], snap)
        elif last is not None:
            before = rec.snapshots[self.pos - 1].units
            for e in last.events:
                if e.get("kind") == "fire" and e.get("target"):
                    for f in e.get("firers") or []:
                        if f in before and before[f][0]:
                            lines.append(fire_line_item(before[f][0], e["target"]))
                elif e.get("kind") == "moved" and e.get("to") and e.get("frm"):
                    lines.append(fire_line_item(e["frm"], e["to"], QColor(30, 120, 230), 5))
                elif e.get("kind") == "eliminated" and e.get("hex"):
                    lines.append(cross_item(e["hex"]))
        self.overlay.set_layer("game-lines", lines)

    def shutdown(self) -> None:
        self.timer.stop()
        if self.thread is not None and self.thread.isRunning():
            self.thread.wait(60000)
