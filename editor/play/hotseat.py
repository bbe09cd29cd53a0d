"""Hot-seat play in the editor: people play one or both sides of the scenario, AIs the others --
in any rule system (the scenario's, through :class:`editor.play.game_record.HotseatSession`).

The :class:`HotseatPanel` lists the legal actions of the side to act (``legal_actions()``),
grouped by kind, each with its readable label (the system's ``describe_action``, else its JSON)
and the system's note (Iron Cross: the exact odds of each AP fire); double-click or *Do it*
applies one -- only a listed, legal action can be applied. What the side to act must decide
beyond the usual is said above the list (the system's ``decision_note``; Iron Cross: an assault
that waits for its owner's casualty choice, 17.23, which lists one "Lose UNIT (weapon PR, ...)"
per candidate). On the
map the :class:`HotseatTool` (H) selects a piece of the side to act by clicking it: the list
narrows to the actions naming it (and those naming no piece); a system with ``click_action``
(Iron Cross) also acts on a click on a hex -- a set-up placement, a step of the moving unit
(starting its move when needed), or fire / grenade / flame at the hex -- and outlines the
selected unit's moves (blue) and targets (red). A piece standing at a point (a measured system,
e.g. the 20 mm rules) is selected by a click near it (:meth:`HotseatPanel.piece_near`: the nearest
within :data:`PICK_RADIUS`, of the side to act first); the selected piece's fire arc is drawn, its
movement reach (the system's ``move_reach``, a green area: :func:`editor.drawing.pieces.reach_item`), and
the marks of the last decisions (the system's ``marks``: shots, templates, moves) since a human
last acted.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from maps import hexgrid
from editor.drawing.canvas import ToolEvent, hex_path
from editor.play.game_record import HotseatSession, action_label, action_uids, log_lines, snapshot, state_text, system_of
from editor.drawing.tool import Tool
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
from editor.play.watch import decision_items, game_items
from editor.drawing.widgets import button_grid

__all__ = ["HotseatPanel", "HotseatTool", "action_for_click", "PICK_RADIUS"]

ACTION_ROLE = Qt.ItemDataRole.UserRole
MAX_PER_GROUP = 400
#: how near (scene units; a hex is 100 across flats) a click must be to a piece standing at a point
PICK_RADIUS = 60.0


def action_for_click(game, selected: str | None, hid: str, system=None):
    """The legal action a click on ``hid`` means with ``selected`` (a unit id) selected, or None;
    may be a list ``[first action, hex]`` when an action must come first (the system's
    ``click_action``; None for a system without one: a click only selects)."""
    system = system_of(system)
    if system.click_action is None:
        return None
    return system.click_action(game, selected, hid)


class HotseatPanel(QWidget):
    """The game, the legal actions (grouped, with odds) and the log."""

    changed = Signal()

    def __init__(self, overlay=None, scenario_file=None, parent=None, settings=None, fixed_setup=None,
                 describe_settings=None):
        super().__init__(parent)
        self.overlay = overlay
        self.scenario_file = scenario_file
        #: () -> the Playtest panel's settings (its AIs play the sides no human plays, with its rules)
        self.settings = settings
        self.describe_settings = describe_settings
        #: () -> the designer's set-up (``ScenarioController.designers_setup``; ValueError: problems)
        self.fixed_setup = fixed_setup
        self.session: HotseatSession | None = None
        self.selected: str | None = None
        #: where in the session's log the decisions shown on the map begin (the last human one)
        self.marks_from = 0
        #: the snapshot before them
        self._before = None
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.human = {}
        for side in ("german", "russian"):
            cb = QCheckBox(f"{side.capitalize()} human")
            cb.setChecked(True)
            self.human[side] = cb
            row.addWidget(cb)
        lay.addLayout(row)
        row = QHBoxLayout()
        row.addWidget(QLabel("Seed"))
        self.seed = QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.seed.setValue(1)
        row.addWidget(self.seed)
        self.use_setup = QCheckBox("Designer's set-up")
        self.use_setup.setToolTip("Start from the units, hidden hexes and mines placed on the map (Set-up "
                                  "panel), for the human sides too; what is not placed is set up by its player")
        row.addWidget(self.use_setup, 1)
        lay.addLayout(row)
        self.settings_label = QLabel()
        self.settings_label.setWordWrap(True)
        lay.addWidget(self.settings_label)
        self.do_btn = QPushButton("Do it")
        self.do_btn.clicked.connect(self.do_selected)
        self.auto_btn = QPushButton("AI finishes set-up")
        self.auto_btn.setToolTip("the AI decides for both sides until the set-up phase is over")
        self.auto_btn.clicked.connect(self.auto_setup)
        lay.addLayout(button_grid([("New game", self.new_game), self.auto_btn,
                                   ("AI decides once", self.ai_once), self.do_btn]))
        self.state_label = QLabel("no game: press New game")
        self.state_label.setWordWrap(True)
        lay.addWidget(self.state_label)
        self.actions = QTreeWidget()
        # one column: an AP fire's odds go on a second line under it, so neither is cut
        self.actions.setHeaderLabels(["Legal action (AP fire: firepower, then per target dice and E/S/P)"])
        self.actions.setUniformRowHeights(False)
        self.actions.setWordWrap(True)
        self.actions.itemDoubleClicked.connect(lambda it, _c: self.do_selected())
        lay.addWidget(self.actions, 2)
        self.log = QListWidget()
        self.log.setWordWrap(True)
        lay.addWidget(self.log, 1)
        self.update_settings()

    def set_system(self, system) -> None:
        """The open scenario's rule system: *Designer's set-up* is offered when it reads designer's
        set-ups (``load_placement``)."""
        self.use_setup.setEnabled(system.load_placement is not None)
        if system.load_placement is None:
            self.use_setup.setChecked(False)

    def update_settings(self) -> None:
        text = self.describe_settings() if self.describe_settings is not None else "random AIs, the first rule level"
        self.settings_label.setText(f"<i>AIs and rules: {text}</i> (Playtest panel)")

    # -- game
    def new_game(self) -> bool:
        """A new game of the scenario in memory; with *Designer's set-up* it starts from the
        designer's placement (refused, with its problems, when the set-up has any)."""
        import tempfile

        humans = {s for s, cb in self.human.items() if cb.isChecked()}
        try:
            st = self.settings() if self.settings is not None else {"ai": {}, "rules": None, "options": ()}
            fixed = self.fixed_setup() if self.use_setup.isChecked() and self.fixed_setup is not None else None
            self._tmp = tempfile.TemporaryDirectory(prefix="ironcross-hotseat-")
            path = self.scenario_file(self._tmp.name)
            session = HotseatSession(str(path), self.seed.value(), humans, ai=st.get("ai"), rules=st.get("rules"),
                                     options=tuple(st.get("options", ())), fixed_setup=fixed)
        except Exception as e:  # noqa: BLE001 - a refused set-up, an unwritable snapshot: said in the panel
            self.state_label.setText(f"<span style='color:#b00'>cannot start the game: {e}</span>")
            return False
        self.update_settings()
        self.session = session
        self.selected = None
        self.marks_from = len(session.log)
        self._before = snapshot(session.game, session.rules_system)
        self.log.clear()
        self._log(self.session.log)
        self._after(logged=len(self.session.log))
        return True

    @property
    def system(self):
        """The game's rule system (the default one before a game)."""
        return self.session.rules_system if self.session is not None else system_of()

    def _log(self, events: list[dict]) -> None:
        g = self.game
        where = None
        if g is not None:
            units = snapshot(g, self.system).units
            where = lambda uid: (units.get(uid) or (None,))[0]  # noqa: E731
        for text in log_lines(self.system, events, where):
            self.log.addItem(text)

    @property
    def game(self):
        return self.session.game if self.session is not None else None

    def _mark_start(self) -> None:
        """The decisions shown on the map (marks) start now."""
        self.marks_from = len(self.session.log)
        self._before = snapshot(self.session.game, self.system)

    def apply(self, action) -> list[dict]:
        self._mark_start()
        ev = self.session.apply(action)
        self._log(ev)
        self._after()
        return ev

    def ai_once(self) -> None:
        if self.session is not None and not self.game.is_terminal():
            self._mark_start()
            n = len(self.session.log)
            self.session.ai_step()
            self._log(self.session.log[n:])
            self._after()

    def auto_setup(self) -> None:
        if self.session is None:
            return
        n = len(self.session.log)
        g = self.session.game
        system = self.system
        # the whole set-up, while the system's state names a "setup" phase (Iron Cross: placements
        # 24.1, hidden hexes 24.21, IPs, mines and the infiltration steps 24.3); nothing otherwise
        self.session.advance_until(lambda _acts: snapshot(g, system).phase != "setup")
        self._log(self.session.log[n:])
        self._after()

    def _after(self, logged: int | None = None) -> None:
        s = self.session
        if s is None:
            return
        n = len(s.log) if logged is None else logged
        s.run_ai()
        self._log(s.log[n:])
        self.log.scrollToBottom()
        self.refresh()
        self.changed.emit()

    def refresh(self) -> None:
        g = self.game
        if g is None:
            return
        system = self.system
        snap = snapshot(g, system)
        dec = g.current_side()
        self.auto_btn.setEnabled(snap.phase == "setup")
        self.state_label.setText(
            state_text(snap, bold=True) + (f"; selected {self.selected}" if self.selected else "")
            + self._decision_note(g, dec)
            + "".join(f"<br>{html.escape(line)}" for line in snap.status))   # the system's status lines
        self.actions.setHeaderLabels(["Legal action (AP fire: firepower, then per target dice and E/S/P)"
                                      if system.action_notes is not None else "Legal action"])
        self.actions.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        acts = g.legal_actions()
        if self.selected is not None:   # the actions naming the selected piece, and those naming none
            uids = set(snap.units) | {p.uid for p in snap.pieces}
            named = [(a, action_uids(system, a, uids)) for a in acts]
            mine = [a for a, us in named if self.selected in us or not us]
            acts = mine or acts
        for a in acts:
            d = system.action_to_json(a)
            k = str(d.get("kind", type(a).__name__)).replace("_", " ")
            if k not in groups:
                groups[k] = QTreeWidgetItem([k])
                self.actions.addTopLevelItem(groups[k])
            gi = groups[k]
            if gi.childCount() >= MAX_PER_GROUP:
                continue
            note = system.action_notes(g, a) if system.action_notes is not None else ""
            label = action_label(system, a, g)
            it = QTreeWidgetItem([label + (f"\n    {note}" if note else "")])
            it.setData(0, ACTION_ROLE, a)
            it.setToolTip(0, label + (f": {note}" if note else ""))
            gi.addChild(it)
        for k, gi in groups.items():
            gi.setText(0, f"{k} ({gi.childCount()})")
        if len(groups) <= 3:
            self.actions.expandAll()
        self.draw()

    def _decision_note(self, g, dec) -> str:
        """What the side to act must decide now beyond the usual (the system's ``decision_note``;
        Iron Cross: the casualty choice an assault waits for, 17.23), on a line of its own."""
        system = self.system
        note = system.decision_note(g, dec) if dec and system.decision_note is not None else ""
        return f"<br>{note}" if note else ""

    def do_selected(self) -> bool:
        it = self.actions.currentItem()
        a = it.data(0, ACTION_ROLE) if it is not None else None
        if a is None or self.session is None:
            return False
        self.apply(a)
        return True

    # -- map
    def draw(self) -> None:
        if self.overlay is None or self.game is None:
            return
        system = self.system
        snap = snapshot(self.game, system)
        items = game_items(snap, self.selected)
        if snap.pieces and self._before is not None and (system.marks is not None or
                                                         any(p.point is not None for p in snap.pieces)):
            items += decision_items(system, self.game, self.session.log[self.marks_from:], self._before, snap)
        if self.selected is not None and system.click_targets is not None:
            moves, targets = system.click_targets(self.game, self.selected)
            from editor.drawing.pieces import _path_item

            if moves:
                items.append(_path_item(hex_path([hexgrid.parse_hex_id(h) for h in moves]), QColor(40, 120, 255, 60),
                                        QPen(QColor(30, 90, 220), 3), 48))
            if targets:
                items.append(_path_item(hex_path([hexgrid.parse_hex_id(h) for h in targets]), QColor(255, 40, 40, 60),
                                        QPen(QColor(220, 0, 0), 4), 48))
        if self.selected is not None and system.move_reach is not None:   # a measured system: where it can move
            from editor.drawing.pieces import reach_item

            it = reach_item(system.move_reach(self.game, self.selected))
            if it is not None:
                items.append(it)
        self.overlay.set_layer("hotseat", items)

    def pieces_at(self, hid: str) -> list[str]:
        """The uids of the pieces in hex ``hid`` (a piece spanning several hexes is in each)."""
        snap = snapshot(self.game, self.system)
        if snap.pieces:
            return [p.uid for p in snap.pieces if hid in p.hexes]
        return [uid for uid, u in snap.units.items() if u[0] == hid]

    def piece_near(self, point: tuple[float, float], radius: float = PICK_RADIUS) -> str | None:
        """The piece standing at a point (``Piece.point``) nearest to ``point`` (map units) within
        ``radius`` scene units: of the side to act when one is that near, else of any side (a
        system without ``click_action``); the next one (by distance) when the nearest is already
        selected. None: no such piece."""
        snap = snapshot(self.game, self.system)
        near = []
        for p in snap.pieces:
            if p.point is None:
                continue
            d = ((p.point[0] - point[0]) * SCENE_PER_X) ** 2 + ((p.point[1] - point[1]) * SCENE_PER_Y) ** 2
            if d <= radius * radius:
                near.append((d, p.uid, p.side))
        near.sort()
        dec = self.game.current_side()
        mine = [u for _d, u, side in near if side == dec]
        if not mine and self.system.click_action is None:
            mine = [u for _d, u, _s in near]
        if not mine:
            return None
        if self.selected in mine and len(mine) > 1:
            return mine[(mine.index(self.selected) + 1) % len(mine)]
        return mine[0]

    def _side_of(self, uid: str) -> str | None:
        snap = snapshot(self.game, self.system)
        p = next((p for p in snap.pieces if p.uid == uid), None)
        if p is not None:
            return p.side
        u = snap.units.get(uid)
        return u[4] if u else None

    def click(self, hid: str, point: tuple[float, float] | None = None) -> str:
        """A click on the map: act (a system with ``click_action``), or select a piece of the side
        to act there (the next one on each click; a piece of the other side when it has none);
        ``point`` (map units): where exactly, so a piece standing at a point near it is selected
        (:meth:`piece_near`). Returns what happened."""
        g = self.game
        if g is None or g.is_terminal():
            return "no game"
        if not self.session.human_to_act():
            return "the AI is to act"
        system = self.system
        a = action_for_click(g, self.selected, hid, system)
        if a is not None:
            if isinstance(a, list):  # an action first (Iron Cross: start the move), then the click's own
                self.apply(a[0])
                nxt = action_for_click(g, self.selected, a[1], system)
                if nxt is not None and not isinstance(nxt, list):
                    self.apply(nxt)
                    return f"moved to {a[1]}"
                return "move started"
            self.apply(a)
            return action_label(system, a)
        if point is not None:
            near = self.piece_near(point)
            if near is not None:
                self.selected = near
                self.refresh()
                return f"selected {self.selected}"
        dec = g.current_side()
        all_here = self.pieces_at(hid)
        here = [u for u in all_here if self._side_of(u) == dec]
        if not here and system.click_action is None:   # a piece of the other side: its actions, if any
            here = all_here
        if here:
            i = (here.index(self.selected) + 1) % len(here) if self.selected in here else 0
            self.selected = here[i]
            self.refresh()
            return f"selected {self.selected}"
        self.selected = None
        self.refresh()
        return "nothing to do there"


class HotseatTool(Tool):
    name = "hotseat"
    label = "Play"
    shortcut = "H"
    help = "Hot-seat: click a piece of the side to act (the list shows its actions), then a hex to move to or fire at"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.panel: HotseatPanel | None = None

    def press(self, ev: ToolEvent) -> None:
        if self.panel is None or ev.button != Qt.MouseButton.LeftButton:
            return
        g = self.panel.game
        gmap = getattr(g, "map", None)
        if not ev.on_map or (gmap is not None and not gmap.contains(ev.hex)):
            self.set_status("off the map")   # the margin is not a hex
            return
        self.set_status(self.panel.click(ev.hex.id, (ev.x, ev.y)))
