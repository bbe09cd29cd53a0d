"""Hot-seat play in the editor: people play one or both sides of the scenario, AIs the others.

The :class:`HotseatPanel` lists the legal actions of the side to act (``Game.legal_actions``),
grouped by kind, with the exact odds of each AP fire (``combat_tables.ap_result_probabilities``
through :func:`editor.game_record.fire_odds`); double-click or *Do it* applies one. An assault that
waits for its owner's casualty choice (17.23) lists one "Lose UNIT (weapon PR, ...)" per candidate. On the map
the :class:`HotseatTool` (H) selects a unit of the side to act by clicking it (its moves are
outlined blue, its fire targets red) and acts by clicking a hex: a set-up placement, a step of
the moving unit (starting its move when needed), or fire / grenade / flame at the hex.
"""

from __future__ import annotations

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
from editor.canvas import ToolEvent, hex_path
from editor.game_record import HotseatSession, describe_action, describe_events, fire_odds, snapshot
from editor.scenario_overlay import CountersItem
from editor.tools import Tool
from editor.watch import counters_of
from editor.widgets import button_grid

__all__ = ["HotseatPanel", "HotseatTool", "action_for_click"]

ACTION_ROLE = Qt.ItemDataRole.UserRole
MAX_PER_GROUP = 400


def _units_of(a) -> tuple[str, ...]:
    for f in ("units", "firers"):
        if hasattr(a, f):
            return tuple(getattr(a, f))
    for f in ("unit", "thrower"):
        if hasattr(a, f):
            return (getattr(a, f),)
    return ()


def action_for_click(game, selected: str | None, hid: str):
    """The legal action a click on ``hid`` means with ``selected`` (a unit id) selected, or None;
    may be a list ``[StartMove, Step]`` when a move must start first."""
    acts = game.legal_actions()
    places = [a for a in acts if a.kind == "place" and a.hex == hid]
    if places:
        return sorted(places, key=lambda a: (a.down, a.facing or 0))[0]
    for a in acts:
        if a.kind in ("step", "enter") and a.hex == hid:
            return a
    if selected is None:
        return None
    fires = [a for a in acts if a.kind == "fire" and a.target == hid and selected in a.firers]
    if fires:
        return sorted(fires, key=lambda a: (a.mode != "AP", len(a.firers), len(a.intensive)))[0]
    for a in acts:
        if a.kind in ("grenade", "flame", "mortar") and a.target == hid and selected in _units_of(a):
            return a
    starts = [a for a in acts if a.kind == "start_move" and a.units == (selected,) and a.directed_by is None]
    if starts:
        return [starts[0], hid]
    return None


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
        lay.addLayout(button_grid([("New game", self.new_game), ("AI finishes set-up", self.auto_setup),
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

    def update_settings(self) -> None:
        text = self.describe_settings() if self.describe_settings is not None else "random AIs, basic rules"
        self.settings_label.setText(f"<i>AIs and rules: {text}</i> (Playtest panel)")

    # -- game
    def new_game(self) -> bool:
        """A new game of the scenario in memory; with *Designer's set-up* it starts from the
        designer's placement (refused, with its problems, when the set-up has any)."""
        import tempfile

        humans = {s for s, cb in self.human.items() if cb.isChecked()}
        try:
            st = self.settings() if self.settings is not None else {"ai": {}, "rules": "basic", "options": ()}
            fixed = self.fixed_setup() if self.use_setup.isChecked() and self.fixed_setup is not None else None
            self._tmp = tempfile.TemporaryDirectory(prefix="ironcross-hotseat-")
            path = self.scenario_file(self._tmp.name)
            session = HotseatSession(str(path), self.seed.value(), humans, ai=st.get("ai"), rules=st.get("rules", "basic"),
                                     options=tuple(st.get("options", ())), fixed_setup=fixed)
        except Exception as e:  # noqa: BLE001 - a refused set-up, an unwritable snapshot: said in the panel
            self.state_label.setText(f"<span style='color:#b00'>cannot start the game: {e}</span>")
            return False
        self.update_settings()
        self.session = session
        self.selected = None
        self.log.clear()
        self._log(self.session.log)
        self._after(logged=len(self.session.log))
        return True

    def _log(self, events: list[dict]) -> None:
        g = self.game
        where = (lambda uid: getattr(g.state.units.get(uid), "hex", None)) if g is not None else None
        for text in describe_events(events, where):
            self.log.addItem(text)

    @property
    def game(self):
        return self.session.game if self.session is not None else None

    def apply(self, action) -> list[dict]:
        ev = self.session.apply(action)
        self._log(ev)
        self._after()
        return ev

    def ai_once(self) -> None:
        if self.session is not None and not self.game.is_terminal():
            n = len(self.session.log)
            self.session.ai_step()
            self._log(self.session.log[n:])
            self._after()

    def auto_setup(self) -> None:
        if self.session is None:
            return
        from core.ironcross.state import Phase

        n = len(self.session.log)
        g = self.session.game
        # the whole set-up: placements (24.1), hidden hexes (24.21), IPs, mines and the infiltration
        # steps (24.3, whose Infiltration Hex choice offers neither Place nor EndSetup)
        self.session.advance_until(lambda _acts: g.state.phase is not Phase.SETUP)
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
        st = g.state
        dec = g.current_side()
        self.state_label.setText(
            f"<b>Turn {st.turn}/{st.game_length}</b>, {st.phasing} phasing, phase <b>{st.phase.value.replace('_', ' ')}"
            f"</b>; " + (f"<b>{dec}</b> to act" if dec else f"game over: <b>{st.outcome}</b>")
            + (f"; selected {self.selected}" if self.selected else "") + self._casualty_note(g, dec))
        self.actions.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        acts = g.legal_actions()
        if self.selected is not None:
            mine = [a for a in acts if self.selected in _units_of(a) or a.kind in ("step", "enter", "stop_move",
                                                                                   "end_phase", "pass", "face")]
            acts = mine or acts
        for a in acts:
            k = a.kind.replace("_", " ")
            if k not in groups:
                groups[k] = QTreeWidgetItem([k])
                self.actions.addTopLevelItem(groups[k])
            gi = groups[k]
            if gi.childCount() >= MAX_PER_GROUP:
                continue
            odds = ""
            if a.kind == "fire" and a.mode == "AP":
                o = fire_odds(g, a)
                if o:
                    odds = f"FP {o['firepower']}: " + "; ".join(
                        f"{t} {v['dice']}d {100 * v['E']:.0f}/{100 * v['S']:.0f}/{100 * v['P']:.0f}%"
                        for t, v in o["targets"].items())
            it = QTreeWidgetItem([describe_action(a, g) + (f"\n    {odds}" if odds else "")])
            it.setData(0, ACTION_ROLE, a)
            it.setToolTip(0, describe_action(a, g) + (f": {odds}" if odds else ""))
            gi.addChild(it)
        for k, gi in groups.items():
            gi.setText(0, f"{k} ({gi.childCount()})")
        if len(groups) <= 3:
            self.actions.expandAll()
        self.draw()

    @staticmethod
    def _casualty_note(g, dec) -> str:
        """17.23: what the side to act must decide while an assault waits for its casualties."""
        c = g.casualty_choice(dec) if dec else None
        if not c:
            return ""
        return (f"<br><b>Assault in {c['hex']}: {dec} removes {c['hits']} more unit(s) of his choice (17.23)</b>"
                f" - choose in the list")

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
        snap = snapshot(self.game)
        items = [CountersItem(counters_of(snap.units, self.selected))]
        if self.selected is not None:
            acts = self.game.legal_actions()
            moves, targets = set(), set()
            for a in acts:
                if a.kind in ("step", "enter"):
                    moves.add(a.hex)
                elif a.kind == "start_move" and a.units == (self.selected,):
                    u = self.game.state.units[self.selected]
                    if u.hex:
                        moves.update(h.id for h in hexgrid.neighbours(hexgrid.parse_hex_id(u.hex))
                                     if self.game.map.contains(h))
                elif a.kind in ("fire", "grenade", "flame", "mortar") and self.selected in _units_of(a):
                    targets.add(a.target)
            from editor.scenario_overlay import _path_item

            if moves:
                items.append(_path_item(hex_path([hexgrid.parse_hex_id(h) for h in moves]), QColor(40, 120, 255, 60),
                                        QPen(QColor(30, 90, 220), 3), 48))
            if targets:
                items.append(_path_item(hex_path([hexgrid.parse_hex_id(h) for h in targets]), QColor(255, 40, 40, 60),
                                        QPen(QColor(220, 0, 0), 4), 48))
        self.overlay.set_layer("hotseat", items)

    def click(self, hid: str) -> str:
        """A click on the map: act, or select a unit of the side to act. Returns what happened."""
        g = self.game
        if g is None or g.is_terminal():
            return "no game"
        if not self.session.human_to_act():
            return "the AI is to act"
        a = action_for_click(g, self.selected, hid)
        if a is not None:
            if isinstance(a, list):  # start the move, then step
                self.apply(a[0])
                nxt = action_for_click(g, self.selected, a[1])
                if nxt is not None and not isinstance(nxt, list):
                    self.apply(nxt)
                    return f"moved to {a[1]}"
                return "move started"
            self.apply(a)
            return describe_action(a)
        dec = g.current_side()
        here = [u.id for u in g.state.units_at(hid) if u.side == dec]
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
    help = "Hot-seat: click a unit of the side to act, then a hex to move to or fire at"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.panel: HotseatPanel | None = None

    def press(self, ev: ToolEvent) -> None:
        if self.panel is None or ev.button != Qt.MouseButton.LeftButton:
            return
        g = self.panel.game
        if not ev.on_map or (g is not None and not g.map.contains(ev.hex)):
            self.set_status("off the map")   # the margin is not a hex
            return
        self.set_status(self.panel.click(ev.hex.id))
