"""The Iron Cross rules engine: one game, its legal actions and their effects.

``Game(setup, seed)`` starts at set-up. ``current_side()`` says who must decide,
``legal_actions()`` what they may do, ``apply(action)`` checks it, changes the state and
returns the events (every die roll among them); illegal actions raise
:class:`core.ironcross.actions.IllegalAction` naming the rule. The sequence of play is 6.0:
A Morale, B Support Fire, C Movement (with opportunity fire, 13.0, and assault designation),
D Reaction Movement, E Defensive Fire, F Moving Fire, G Assault, H free UP/DOWN change.

Implemented here: set-up (24.1), UP/DOWN and morale statuses (3.0), PCs (4.0), leaders (5.0),
morale (7.0), movement (8.1-8.7 without wreck pushing), opportunity fire (13.0), AP fire
(10.0-11.4), AT fire (12.0), grenades (15.0), flamethrowers (16.0), assault (17.0), IPs (18.0),
AP/AT mines on movement (19.2), the end of the game with the scenario's victory conditions.
See ``docs/engine.md`` for what is not implemented yet.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from core.dice import Dice, Roll
from core.ironcross import combat_tables as ct
from core.ironcross.actions import (
    Action, DesignateAssault, EndPhase, EndSetup, Enter, Face, Fire, Flame, Grenade, IllegalAction, Pass, Place,
    SetState, StartMove, Step, StopMove, ToggleState, action_to_json)
from core.ironcross.hex_terrain import HexTerrain, in_frontal_area
from core.ironcross.setup import GameSetup
from core.ironcross.state import PHASE_ORDER, SIDES, GameState, Morale, Phase, Unit, UnitKind, other_side
from maps import hexgrid
from maps.los import HexOccupancy, line_of_sight

__all__ = ["Game", "MoveContext"]

FIRE_PHASES = (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE, Phase.MOVING_FIRE)


@dataclass
class MoveContext:
    """The group moving now: units, MPs left each, hexes entered, and how the move started."""

    units: list[str]
    mp: dict[str, float]
    one_hex: dict[str, bool]
    hexes_moved: int = 0
    leader: str | None = None
    afv: str | None = None
    entering: bool = False
    free_turn: bool = False
    path: list[str] = field(default_factory=list)


@dataclass
class OpportunityWindow:
    """The opponent of the moving side may opportunity-fire at ``hex`` (13.0) before movement goes on."""

    side: str
    hex: str


class Game:
    """One game of Iron Cross under the basic rules.

    ``setup`` (:class:`GameSetup`) gives the map, chart, units and scenario data; ``seed`` the
    dice. ``events`` is the event log (dicts, JSON-ready); ``actions`` the applied actions.
    """

    rule_system = "ironcross"

    def __init__(self, setup: GameSetup, seed: int, *, rules: str = "basic", options: tuple[str, ...] = ()):
        self.setup = setup
        self.seed = seed
        self.rules = rules
        self.options = tuple(options)
        self.map = setup.hexmap
        self.terrain = HexTerrain(setup.hexmap, setup.chart)
        self.events: list[dict] = []
        self.actions: list[Action] = []
        self.dice = Dice(seed, on_roll=self._log_roll)
        self.state = GameState(game_length=setup.game_length, first_side=setup.first_side,
                               phasing=setup.first_side, grenades=dict(setup.grenades))
        for uid, u in setup.units.items():
            u2 = Unit(**{**u.__dict__})
            u2.replacements = list(u.replacements)
            if u2.is_cw and u2.crew == 0:
                u2.crew = u2.crew_max
            self.state.units[uid] = u2
        self._entry_of: dict[str, Any] = {}
        for e in setup.entries:
            for uid in e.units:
                self._entry_of[uid] = e
                self.state.units[uid].entered = False
        # set-up queue: per side in order: units to place, then IPs, then mines
        self._setup_queue: list[tuple[str, str, Any]] = []
        for side in setup.setup_order:
            for d in setup.deployments:
                if d.side == side:
                    for uid in d.units:
                        self._setup_queue.append((side, "unit", (uid, d.zone)))
            for al in setup.allotments:
                if al.side == side:
                    for pts in al.ips:
                        self._setup_queue.append((side, "ip", (pts, al.zone)))
                    if al.ap_mines:
                        self._setup_queue.append((side, "ap_mines", (al.ap_mines, al.zone)))
                    if al.at_mines:
                        self._setup_queue.append((side, "at_mines", (al.at_mines, al.zone)))
        self.moving: MoveContext | None = None
        self.window: OpportunityWindow | None = None
        self._decider: str | None = None
        self._sub: str = ""  # sub-step within a phase: "", "assault_designation", "second"
        self._movement_stage = 0
        self._led_from: dict[str, str] = {}  # hex -> leader id who passed a leader PC there this phase
        self._failed_lead: set[str] = set()
        self._grenade_hexes: set[str] = set()
        self._event("game_start", rule="24.1", seed=seed, rules=rules, options=list(self.options),
                    title=setup.title)
        self._advance_setup()

    # ================================================================== logging
    def _event(self, kind: str, rule: str = "", **data: Any) -> dict:
        e = {"i": len(self.events), "kind": kind, "rule": rule, "turn": self.state.turn,
             "player_turn": self.state.player_turn, "phase": self.state.phase.value, **data}
        self.events.append(e)
        return e

    def _log_roll(self, r: Roll) -> None:
        self._event("roll", rule=r.rule, purpose=r.purpose, dice=list(r.dice), total=r.total, roll_index=r.index)

    def roll(self, n: int, purpose: str, rule: str) -> Roll:
        return self.dice.roll(n, purpose, rule)

    def pc(self, unit: Unit, purpose: str, rule: str, modifier: int = 0, pr: int | None = None) -> bool:
        """A Performance Check (4.0): 2d6 + ``modifier`` <= PR passes. Taking it counts as
        performing the action ("attempted counts as performed")."""
        r = self.roll(2, f"PC: {purpose} ({unit.id})", rule)
        target = unit.pr if pr is None else pr
        ok = r.total + modifier <= target
        self._event("pc", rule=rule, unit=unit.id, purpose=purpose, total=r.total, modifier=modifier, pr=target,
                    passed=ok)
        return ok

    # ================================================================== queries
    @property
    def units(self) -> dict[str, Unit]:
        return self.state.units

    def unit(self, uid: str) -> Unit:
        try:
            return self.state.units[uid]
        except KeyError:
            raise IllegalAction("24.1", f"no unit {uid!r} in this game") from None

    def is_terminal(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    def current_side(self) -> str | None:
        """The side that must choose the next action (None when the game is over)."""
        return None if self.is_terminal() else self._decider

    def occupancy(self) -> dict:
        """AFVs and wrecks per hex for LOS (10.31 b)."""
        occ: dict = {}
        for u in self.state.units.values():
            if u.is_afv and u.on_map:
                h = hexgrid.parse_hex_id(u.hex)
                o = occ.get(h, HexOccupancy())
                occ[h] = HexOccupancy(o.afvs + 1, o.wrecks)
        for hid, n in self.state.wrecks.items():
            h = hexgrid.parse_hex_id(hid)
            o = occ.get(h, HexOccupancy())
            occ[h] = HexOccupancy(o.afvs, o.wrecks + n)
        return occ

    def los(self, a: str, b: str, firer_down: bool = False):
        return line_of_sight(self.map, a, b, occupancy=self.occupancy(), firer_down=firer_down,
                             chart=self.setup.chart)

    def enemy_in(self, hex_id: str, side: str) -> list[Unit]:
        return [u for u in self.state.units_at(hex_id) if u.side != side]

    # ================================================================== set-up
    def _advance_setup(self) -> None:
        while self._setup_queue:
            side, what, data = self._setup_queue[0]
            if what == "unit" and self.units[data[0]].hex is not None:
                self._setup_queue.pop(0)
                continue
            self._decider = side
            return
        self._event("setup_done", rule="24.1")
        self._start_player_turn()

    def _stack_ok(self, hex_id: str, adding: list[Unit]) -> bool:
        """8.62/8.63: at most six men plus one AFV, and one CW counter, in a hex."""
        present = [u for u in self.state.units_at(hex_id) if u.id not in {a.id for a in adding}]
        allu = present + adding
        for side in SIDES:
            mine = [u for u in allu if u.side == side]
            if sum(u.men for u in mine) > 6 or sum(1 for u in mine if u.is_afv) > 1 or sum(1 for u in mine if u.is_cw) > 1:
                return False
        if sum(1 for u in allu if u.is_afv) > 1:
            return False  # 8.61: an AFV may not enter a hex containing another AFV
        return True

    def _setup_actions(self) -> list[Action]:
        side, what, data = self._setup_queue[0]
        out: list[Action] = []
        if what == "unit":
            uid, zone = data
            u = self.units[uid]
            for h in sorted(zone):
                if self.enemy_in(h, side):
                    continue
                if u.is_afv and self.state.wrecks.get(h):
                    continue
                if u.is_afv and self.terrain.entry_cost(h, "afv", False) is None:
                    continue
                if not self._stack_ok(h, [u]):
                    continue
                facings = (1, 2, 3, 4, 5, 6) if u.has_facing else (None,)
                for f in facings:
                    out.append(Place(uid, h, False, f))
                    if not u.is_afv:
                        out.append(Place(uid, h, True, f))
        elif what == "ip":
            pts, zone = data
            for h in sorted(zone):
                if h not in self.state.ips:
                    out.append(Place(f"IP{pts}", h))
        else:
            _, zone = data
            for h in sorted(zone):
                if self.terrain.is_building(h):
                    continue  # 19.14 mines may not be in buildings
                m = self.state.mines.get(h, {})
                if what == "ap_mines" and m.get("ap", 0) < 4:
                    out.append(Place("AP-mines", h))
                if what == "at_mines" and m.get("at", 0) < 7:
                    out.append(Place("AT-mines", h))
        out.append(EndSetup())
        return out

    def _apply_setup(self, a: Action) -> None:
        side, what, data = self._setup_queue[0]
        if isinstance(a, EndSetup):
            # skip the rest of this item (an unplaced unit stays off the map)
            self._setup_queue.pop(0)
            if what == "unit":
                self._event("not_placed", rule="24.1", unit=data[0])
            self._advance_setup()
            return
        if not isinstance(a, Place):
            raise IllegalAction("24.1", "during set-up only Place and EndSetup are possible")
        if a not in self._setup_actions():
            raise IllegalAction("24.1", f"{a} is not a legal placement now")
        if what == "unit":
            u = self.units[a.unit]
            u.hex, u.down, u.facing = a.hex, a.down, a.facing
            self._event("placed", rule="24.1", unit=u.id, hex=a.hex, down=a.down, facing=a.facing)
            self._update_control(a.hex)
            self._setup_queue.pop(0)
        elif what == "ip":
            self.state.ips[a.hex] = data[0]
            self._event("ip_placed", rule="18.1", side=side, hex=a.hex, points=data[0])
            self._setup_queue.pop(0)
        else:
            left, zone = data
            m = self.state.mines.setdefault(a.hex, {"side": side, "ap": 0, "at": 0, "revealed_ap": False,
                                                    "revealed_at": False})
            if what == "ap_mines":
                n = min(left, 4 - m["ap"])  # 19.12 at most four AP factors in a hex
                m["ap"] += n
            else:
                n = min(left, 7 - m["at"])  # 19.12 at most seven AT factors, at least two
                if n < 2 and m["at"] == 0:
                    n = 0
                m["at"] += n
            self._event("mines_placed", rule="19.11", side=side, secret=True, hex=a.hex, factors=n, type=what)
            left -= n
            if left > 0 and n > 0:
                self._setup_queue[0] = (side, what, (left, zone))
            else:
                self._setup_queue.pop(0)
        self._advance_setup()

    # ================================================================== turn structure
    def _player_turn_side_number(self, side: str) -> int:
        """How many Player Turns ``side`` has had as phasing player, this one included."""
        return self.state.turn

    def _start_player_turn(self) -> None:
        s = self.state
        for u in s.units.values():
            u.reset_player_turn()
        self._grenade_hexes.clear()
        self._event("player_turn", rule="6.0", phasing=s.phasing, game_turn=s.turn)
        self._enter_phase(Phase.MORALE)

    def _enter_phase(self, phase: Phase) -> None:
        s = self.state
        s.phase = phase
        self._sub = ""
        self._event("phase", rule="6.0", phasing=s.phasing)
        if phase is Phase.MORALE:
            self._morale_phase()
            return self._enter_phase(Phase.SUPPORT_FIRE)
        if phase is Phase.SUPPORT_FIRE:
            self._decider = s.phasing
        elif phase is Phase.MOVEMENT:
            self._movement_stage = 0
            self._led_from.clear()
            self._failed_lead.clear()
            self._decider = s.phasing
        elif phase is Phase.REACTION_MOVEMENT:
            self._movement_stage = 0
            self._led_from.clear()
            self._failed_lead.clear()
            self._decider = s.non_phasing
        elif phase is Phase.DEFENSIVE_FIRE:
            self._decider = s.non_phasing
        elif phase is Phase.MOVING_FIRE:
            self._decider = s.phasing
        elif phase is Phase.ASSAULT:
            self._assault_phase()
            return self._enter_phase(Phase.FREE_STATE_CHANGE)
        elif phase is Phase.FREE_STATE_CHANGE:
            self._decider = s.phasing
        # skip decisions nobody can take
        if self._decider is not None and self.legal_actions() == [EndPhase()]:
            self._end_phase_step()

    def _end_phase_step(self) -> None:
        """The decider ended its part of the phase: go to the next sub-step or phase."""
        s = self.state
        ph = s.phase
        if ph in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT) and self._sub == "":
            self._end_of_movement_phase()
            self._sub = "assault_designation"
            if self.legal_actions() != [EndPhase()]:
                return
        if ph is Phase.FREE_STATE_CHANGE and self._sub == "":
            self._sub = "second"
            self._decider = s.non_phasing
            if self.legal_actions() != [EndPhase()]:
                return
        idx = PHASE_ORDER.index(ph)
        if idx + 1 < len(PHASE_ORDER):
            return self._enter_phase(PHASE_ORDER[idx + 1])
        # end of the Player Turn
        self._end_player_turn()

    def _end_player_turn(self) -> None:
        s = self.state
        if s.phasing != s.first_side:
            # both Player Turns of this Game Turn are done
            if s.turn >= s.game_length:
                return self._end_game()
            s.turn += 1
        s.phasing = other_side(s.phasing)
        s.player_turn += 1
        self._start_player_turn()

    def _end_game(self) -> None:
        s = self.state
        s.phase = Phase.GAME_OVER
        self._decider = None
        outcome = "draw"
        details: Any = None
        if self.setup.victory is not None:
            res = self.setup.victory(s, self)
            if isinstance(res, tuple):
                outcome, details = res
            else:
                outcome = res
        s.outcome = outcome
        self._event("game_over", rule="24.1", outcome=outcome, details=details)

    # ================================================================== A morale
    def _morale_phase(self) -> None:
        """7.0: P markers removed from both sides' units; each S unit rolls 2d6 + 2 <= PR to
        recover, else becomes PINNED."""
        for u in sorted(self.state.units.values(), key=lambda x: x.id):
            if not u.on_map:
                continue
            if u.morale is Morale.PINNED:
                u.morale = Morale.NORMAL
                self._event("recovered", rule="7.0 a", unit=u.id)
            elif u.morale is Morale.SUPPRESSED:
                if self.pc(u, "morale recovery", "7.0 b", modifier=2):
                    u.morale = Morale.NORMAL
                    self._event("recovered", rule="7.0 b", unit=u.id)
                else:
                    u.morale = Morale.PINNED
                    self._event("still_pinned", rule="7.0 b", unit=u.id)

    # ================================================================== legal actions
    def legal_actions(self, side: str | None = None) -> list[Action]:
        """Every action the deciding side may take now (empty for the other side)."""
        dec = self.current_side()
        if dec is None or (side is not None and side != dec):
            return []
        s = self.state
        if s.phase is Phase.SETUP:
            return self._setup_actions()
        if self.window is not None:
            return self._opportunity_actions() + [Pass()]
        if s.phase in FIRE_PHASES:
            return self._fire_actions(dec) + [EndPhase()]
        if s.phase in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT):
            if self._sub == "assault_designation":
                return self._assault_designations(dec) + [EndPhase()]
            if self.moving is not None:
                return self._move_actions()
            return self._start_move_actions(dec) + [EndPhase()]
        if s.phase is Phase.FREE_STATE_CHANGE:
            return self._state_change_actions(dec) + [EndPhase()]
        return [EndPhase()]

    # ================================================================== apply
    def apply(self, action: Action) -> list[dict]:
        """Check and apply ``action`` for the deciding side; returns the events it caused.

        Raises :class:`IllegalAction` (with the rule) when it is not legal now.
        """
        if self.is_terminal():
            raise IllegalAction("24.1", "the game is over")
        start = len(self.events)
        side = self._decider
        self.actions.append(action)
        self._event("action", side=side, action=action_to_json(action))
        try:
            self._apply(action)
        except IllegalAction:
            # nothing changed: drop the logged action
            self.actions.pop()
            del self.events[start:]
            raise
        return self.events[start:]

    def _apply(self, a: Action) -> None:
        s = self.state
        if s.phase is Phase.SETUP:
            return self._apply_setup(a)
        if self.window is not None:
            if isinstance(a, Pass):
                self.window = None
                return self._after_window()
            if isinstance(a, Fire):
                if a not in self._opportunity_actions():
                    raise IllegalAction("13.0", f"{a} is not a legal opportunity fire now")
                self._resolve_fire(a, opportunity=True)
                return self._refresh_window()
            raise IllegalAction("13.0", "opportunity fire or Pass expected")
        if isinstance(a, EndPhase):
            if self.moving is not None:
                raise IllegalAction("8.0", "finish the current move first (StopMove)")
            return self._end_phase_step()
        if s.phase in FIRE_PHASES:
            if isinstance(a, Fire):
                self._check_fire(a, self._decider)
                return self._resolve_fire(a, opportunity=False)
            if isinstance(a, Grenade):
                return self._grenade(a)
            if isinstance(a, Flame):
                return self._flame(a)
            raise IllegalAction("10.0", f"{a.kind} is not possible in the {s.phase.value} phase")
        if s.phase in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT):
            if self._sub == "assault_designation":
                if isinstance(a, DesignateAssault):
                    if a not in self._assault_designations(self._decider):
                        raise IllegalAction("17.0", f"{a} is not a legal assault designation")
                    for uid in a.units:
                        self.units[uid].assault_hex = a.target
                    self._event("assault_designated", rule="17.0", units=list(a.units), target=a.target)
                    return
                raise IllegalAction("17.0", "assault designations or EndPhase expected")
            if self.moving is None:
                if isinstance(a, StartMove):
                    return self._start_move(a)
                raise IllegalAction("8.0", f"{a.kind} is not possible now; start a move or end the phase")
            return self._apply_move(a)
        if s.phase is Phase.FREE_STATE_CHANGE:
            if isinstance(a, SetState):
                if a not in self._state_change_actions(self._decider):
                    raise IllegalAction("3.27", f"{a} is not a legal state change")
                for uid in a.units:
                    self.units[uid].down = a.down
                self._event("state_change", rule="6.0 H", units=list(a.units), down=a.down)
                return
        raise IllegalAction("6.0", f"{a.kind} is not possible in the {s.phase.value} phase")

    # ================================================================== movement (8.0)
    def _allowance(self, u: Unit, reaction: bool) -> tuple[float, bool]:
        """(movement points, one-hex-only) for ``u`` (8.1 and the Movement Point Allowance Chart)."""
        if u.morale is Morale.SUPPRESSED or u.immobilized:
            return (0, False)  # 8.15; 8.54/8.55 immobilized AFVs
        if u.is_afv:
            if reaction:
                return (u.ma / 2, False)  # 8.13: 5 (BT7M 6) in the Reaction Movement Phase
            return (u.ma, False)
        if u.is_cw:
            if u.ma == 0 or not u.full_crew:
                return (0, False)  # 8.12
            if u.morale is Morale.PINNED:
                return (0, not reaction) if not reaction else (0, False)
            return (0, True) if reaction else (u.ma, False)
        if u.is_ft:
            if u.morale is Morale.PINNED:
                return (0, not reaction) if not reaction else (0, False)  # 8.14
            return (2, False) if reaction else (4, False)
        if u.morale is Morale.PINNED:
            return (0, True) if reaction else (3, False)  # 8.11
        return (3, False) if reaction else (6, False)

    def _can_start_moving(self, u: Unit, reaction: bool) -> bool:
        s = self.state
        if u.eliminated or u.moved or u.reaction_moved:
            return False
        if u.side != self._decider:
            return False
        if not u.entered:
            e = self._entry_of.get(u.id)
            if e is None or e.side != u.side or e.turn != s.turn or e.phase != s.phase:
                return False
            if u.hex is not None:
                return False
        elif u.hex is None:
            return False
        if not reaction and u.support_fired:
            return False  # 8.21
        if u.fired and not reaction:
            return False  # fired in Support Fire (8.21)
        first = self.setup.no_move_before.get(u.id)
        if first is not None and s.turn < first:
            return False
        mp, one = self._allowance(u, reaction)
        return mp > 0 or one

    def _start_move_actions(self, side: str) -> list[Action]:
        reaction = self.state.phase is Phase.REACTION_MOVEMENT
        out: list[Action] = []
        movers = [u for u in self.state.units_of(side) if self._can_start_moving(u, reaction)]
        stage = self._movement_stage
        by_hex: dict[str | None, list[Unit]] = {}
        for u in movers:
            by_hex.setdefault(u.hex if u.entered else f"entry:{self._entry_of[u.id].group}", []).append(u)
        for hx, group in sorted(by_hex.items(), key=lambda kv: str(kv[0])):
            group = sorted(group, key=lambda x: x.id)
            afvs = [u for u in group if u.is_afv]
            others = [u for u in group if not u.is_afv]
            # first: AFVs alone (8.0)
            if stage <= 0:
                out.extend(StartMove((u.id,)) for u in afvs)
            # second: AFV and infantry stacks (8.4): the AFV with every infantry unit it can take
            inf = [u for u in others if u.is_infantry and u.normal]
            if stage <= 1 and afvs and inf and hx is not None and not hx.startswith("entry:"):
                for a_ in afvs:
                    out.append(StartMove((a_.id,) + tuple(u.id for u in inf)))
            if stage <= 2:
                for u in others:
                    out.append(StartMove((u.id,)))
                # leader-directed stacks (8.3): a leader with every unit he can lead here
                for ld in others:
                    if not ld.is_infantry or not ld.normal:
                        continue
                    led = [u for u in others if u is not ld and ld.is_leader_for(u) and u.normal
                           and (u.is_infantry or u.is_cw)]
                    if led and ld.id not in self._failed_lead:
                        out.append(StartMove((ld.id,) + tuple(u.id for u in led), leader=ld.id))
                    # 8.3 C: units moving apart from a leader who stays or went elsewhere
                if hx in self._led_from:
                    ld = self.units[self._led_from[hx]]
                    for u in others:
                        if u.id != ld.id and ld.is_leader_for(u) and u.normal:
                            out.append(StartMove((u.id,), directed_by=ld.id))
        return out

    def _start_move(self, a: StartMove) -> None:
        s = self.state
        reaction = s.phase is Phase.REACTION_MOVEMENT
        legal = self._start_move_actions(self._decider)
        if a not in legal:
            raise IllegalAction("8.0", f"{a} is not a legal start of movement now (order: AFVs alone, then "
                                f"AFV/infantry stacks, then the rest; 8.0, 8.3, 8.4)")
        units = [self.units[u] for u in a.units]
        stage = 0 if (len(units) == 1 and units[0].is_afv) else 1 if any(u.is_afv for u in units) else 2
        self._movement_stage = max(self._movement_stage, stage)
        need_pc = not self._exempt_from_movement_pc()
        movers: list[Unit] = []
        directed = False
        if a.leader is not None:
            ld = self.units[a.leader]
            ok = True
            if need_pc:
                ok = self.pc(ld, "leader directed movement", "8.3 A")
            if not ok:
                # 8.3 A: no unit in the hex may move but all are considered to have moved
                for u in self.state.units_at(ld.hex):
                    if u.side == ld.side and not u.is_afv:
                        self._mark_moved(u, reaction)
                self._failed_lead.add(ld.id)
                self._event("move_failed", rule="8.3 A", units=[u.id for u in units])
                return
            self._led_from[ld.hex] = ld.id
            movers = units
        elif a.directed_by is not None:
            ld = self.units[a.directed_by]
            u = units[0]
            ok = True
            if need_pc:
                ok = self.pc(u, f"directed by {ld.id}", "8.3 C", modifier=2, pr=ld.pr)
            if not ok:
                self._mark_moved(u, reaction)
                self._event("move_failed", rule="8.3 C", units=[u.id])
                return
            movers = [u]
            directed = True
        elif len(units) > 1:
            # 8.41 AFV with infantry: the AFV's PC, then a regular PC for each infantry unit
            afv = units[0]
            if need_pc and not self.pc(afv, "movement", "8.22"):
                self._mark_moved(afv, reaction)
                self._event("move_failed", rule="8.22", units=[afv.id])
                return
            movers = [afv]
            for u in units[1:]:
                if not need_pc or self.pc(u, f"accompany {afv.id}", "8.41"):
                    movers.append(u)
                else:
                    self._mark_moved(u, reaction)
        else:
            u = units[0]
            if need_pc and not self.pc(u, "movement", "8.22"):
                self._mark_moved(u, reaction)
                self._event("move_failed", rule="8.22", units=[u.id])
                return
            movers = [u]
        mp: dict[str, float] = {}
        one: dict[str, bool] = {}
        for u in movers:
            m, o = self._allowance(u, reaction)
            if directed:
                m = min(m, 2 if reaction else 4)  # 8.3 C
            mp[u.id], one[u.id] = m, o
            self._mark_moved(u, reaction)
        afv_id = next((u.id for u in movers if u.is_afv), None)
        entering = not movers[0].entered
        self.moving = MoveContext([u.id for u in movers], mp, one, leader=a.leader, afv=afv_id if len(movers) > 1 else None,
                                  entering=entering, path=[movers[0].hex] if movers[0].hex else [])
        if afv_id and len(movers) > 1:
            for u in movers:
                if u.is_infantry:
                    u.moved_with_afv = afv_id
        self._event("move_start", rule="8.0", units=[u.id for u in movers], leader=a.leader,
                    directed_by=a.directed_by, mp=mp)

    def _mark_moved(self, u: Unit, reaction: bool) -> None:
        u.moved = True
        if reaction:
            u.reaction_moved = True

    def _exempt_from_movement_pc(self) -> bool:
        """8.22 exception: no movement PCs until the first shot; from the next Phasing Player on."""
        s = self.state
        if s.movement_pcs_from_player_turn is None:
            return True
        return s.player_turn < s.movement_pcs_from_player_turn

    def _group(self) -> list[Unit]:
        assert self.moving is not None
        return [self.units[u] for u in self.moving.units if not self.units[u].eliminated]

    def _step_cost(self, u: Unit, frm: str | None, to: str) -> float | None:
        kind = "afv" if u.is_afv else "infantry"
        if frm is None:
            return self.terrain.entry_cost(to, kind, u.down)
        return self.terrain.move_cost(frm, to, kind, u.down, road_rate=u.normal and not u.down)

    def _can_enter(self, units: list[Unit], to: str) -> tuple[bool, str, str]:
        side = units[0].side
        h = hexgrid.parse_hex_id(to)
        if not self.map.contains(h):
            return (False, "2.1", "off the map")
        if self.enemy_in(to, side):
            return (False, "8.23", "only overrunning AFVs may enter an enemy-occupied hex (overruns: not yet)")
        if any(u.is_afv for u in units):
            if self.state.wrecks.get(to):
                return (False, "12.4", "AFVs may not enter a hex containing a Wreck")
            if any(x.is_afv for x in self.state.units_at(to)):
                return (False, "8.61", "an AFV may not enter a hex containing another AFV")
        return (True, "", "")

    def _move_options(self) -> list[tuple[str, list[Unit]]]:
        """(hex, units able to enter it) for each hex the group may step or enter into next."""
        mv = self.moving
        assert mv is not None
        group = self._group()
        if not group:
            return []
        if mv.entering:
            e = self._entry_of[group[0].id]
            cands = sorted(e.hexes)
            frm = None
        else:
            frm = group[0].hex
            cands = [n.id for n in hexgrid.neighbours(hexgrid.parse_hex_id(frm))
                     if self.map.contains(n)]
        out = []
        for to in cands:
            ok, _, _ = self._can_enter(group, to)
            if not ok:
                continue
            able = []
            for u in group:
                cost = self._step_cost(u, frm, to)
                if cost is None:
                    continue
                if mv.one_hex[u.id]:
                    if mv.hexes_moved == 0:
                        able.append(u)
                elif cost <= mv.mp[u.id] + 1e-9:
                    able.append(u)
            # a group that moves together must move together: leader stacks and AFV stacks need
            # the leader / the AFV able to enter; the others that cannot stay behind (8.43)
            if mv.leader and self.units[mv.leader] not in able:
                continue
            if mv.afv and self.units[mv.afv] not in able:
                continue
            if not mv.leader and not mv.afv and len(able) != len(group):
                continue
            if able:
                out.append((to, able))
        return out

    def _move_actions(self) -> list[Action]:
        mv = self.moving
        out: list[Action] = []
        for to, _ in self._move_options():
            out.append(Enter(to) if mv.entering else Step(to))
        group = self._group()
        if not mv.entering and group:
            if all(u.normal and not (u.is_afv and u.commander_killed and not u.down) for u in group):
                cost = max(5 if u.is_afv else 2 for u in group)
                if all(mv.mp[u.id] >= (5 if u.is_afv else 2) for u in group) and not any(
                        u.is_afv and u.commander_killed for u in group):
                    out.append(ToggleState())
            if len(group) == 1 and group[0].has_facing and not group[0].immobilized:
                u = group[0]
                for side_ in range(1, 7):
                    if side_ != u.facing and self._facing_cost(u, side_) is not None:
                        out.append(Face(side_))
            if self._stop_ok():
                out.append(StopMove())
        elif mv.entering:
            out.append(StopMove())  # stay off the map this turn
        return out

    def _facing_cost(self, u: Unit, side_: int) -> float | None:
        mv = self.moving
        if u.is_atg and u.crew <= 2:
            return None  # 8.72
        if not u.is_afv:
            return 0.0  # 8.72/8.73: MGs and full-crew ATGs turn to any hexside
        cur = u.facing or 1
        d = min((side_ - cur) % 6, (cur - side_) % 6)
        cost = max(0, d - (1 if mv.free_turn or mv.hexes_moved == 0 else 0))  # 8.74/8.75
        if cost > mv.mp[u.id] + 1e-9:
            return None
        return float(cost)

    def _stop_ok(self) -> bool:
        group = self._group()
        if not group or group[0].hex is None:
            return True
        return self._stack_ok(group[0].hex, group)

    def _apply_move(self, a: Action) -> None:
        mv = self.moving
        assert mv is not None
        reaction = self.state.phase is Phase.REACTION_MOVEMENT
        if isinstance(a, StopMove):
            if not self._stop_ok() and not (mv.entering and self._group()[0].hex is None):
                raise IllegalAction("8.62", "stacking limit: six men plus one AFV, one CW per hex")
            self._event("move_end", rule="8.0", units=mv.units, hex=self._group()[0].hex if self._group() else None)
            self.moving = None
            return
        if isinstance(a, ToggleState):
            if a not in self._move_actions():
                raise IllegalAction("3.13", "cannot change state now")
            for u in self._group():
                mv.mp[u.id] -= 5 if u.is_afv else 2
                u.down = not u.down
            self._event("state_change", rule="3.13", units=mv.units, down=self._group()[0].down)
            return
        if isinstance(a, Face):
            if a not in self._move_actions():
                raise IllegalAction("8.7", "illegal facing change")
            u = self._group()[0]
            mv.mp[u.id] -= self._facing_cost(u, a.hexside) or 0
            if mv.hexes_moved == 0 and u.is_afv:
                u.changed_facing_only = True
            mv.free_turn = False
            u.facing = a.hexside
            self._event("facing", rule="8.7", unit=u.id, facing=a.hexside)
            return
        if isinstance(a, (Step, Enter)):
            opts = dict(self._move_options())
            if a.hex not in opts or (isinstance(a, Enter) != mv.entering):
                raise IllegalAction("8.5", f"the moving units cannot enter {a.hex} now")
            able = opts[a.hex]
            frm = None if mv.entering else self._group()[0].hex
            for u in self._group():
                if u not in able:
                    mv.units.remove(u.id)  # 8.43: infantry that cannot follow stop here
            for u in able:
                cost = self._step_cost(u, frm, a.hex) or 0
                mv.mp[u.id] = 0 if mv.one_hex[u.id] else mv.mp[u.id] - cost
                u.hex = a.hex
                u.entered = True
                if u.is_afv:
                    u.changed_facing_only = False
            mv.hexes_moved += 1
            mv.entering = False
            mv.free_turn = True
            mv.path.append(a.hex)
            self._event("moved", rule="8.0", units=[u.id for u in able], frm=frm, to=a.hex,
                        mp_left={u.id: mv.mp[u.id] for u in able})
            self._update_control(a.hex)
            self._after_entering_hex(a.hex)
            return
        raise IllegalAction("8.0", f"{a.kind} is not possible while moving")

    def _after_entering_hex(self, hex_id: str) -> None:
        """Mines (19.2), AFV immobilisation (8.54, 8.55), then the opportunity fire window (13.0)."""
        mv = self.moving
        group = self._group()
        self._mine_attack(hex_id, group)
        for u in self._group():
            if u.is_afv and not u.immobilized:
                trees = self.terrain.trees(hex_id)
                if trees >= 2:
                    r = self.roll(2, f"woods immobilisation {u.id}", "8.54")
                    if r.total <= trees:
                        u.immobilized = True
                        mv.mp[u.id] = 0
                        self._event("immobilized", rule="8.54", unit=u.id, hex=hex_id)
                if self.terrain.is_marsh(hex_id) and not u.immobilized:
                    r = self.roll(2, f"marsh immobilisation {u.id}", "8.55")
                    if r.total <= 4:
                        u.immobilized = True
                        mv.mp[u.id] = 0
                        self._event("immobilized", rule="8.55", unit=u.id, hex=hex_id)
        self._open_window(hex_id)

    def _mine_attack(self, hex_id: str, group: list[Unit]) -> None:
        m = self.state.mines.get(hex_id)
        if not m:
            return
        inf = [u for u in group if not u.is_afv]
        afvs = [u for u in group if u.is_afv]
        if m.get("ap", 0) > 0 and group:
            m["revealed_ap"] = True  # 19.22
            self._event("mines_revealed", rule="19.22", hex=hex_id, ap=m["ap"])
            for u in inf:  # 19.24 (and 19.26 for infantry moving with an AFV)
                r = self.roll(1, f"AP mine attack on {u.id}", "19.24")
                f = m["ap"]
                q, h2 = -(-f // 4), -(-f // 2)
                res = (ct.ApResult.ELIMINATED if r.total <= q else ct.ApResult.SUPPRESSED if r.total <= h2
                       else ct.ApResult.PINNED if r.total <= f else ct.ApResult.NO_EFFECT)
                self._apply_ap_result(u, res, "19.24")
        if m.get("at", 0) > 0 and afvs:
            m["revealed_at"] = True  # 19.23
            self._event("mines_revealed", rule="19.23", hex=hex_id, at=m["at"])
            for u in afvs:
                r = self.roll(2, f"AT mine attack on {u.id}", "19.25")
                if r.total <= m["at"]:
                    self._destroy_afv(u, "19.25")
        # 19.27 only NORMAL units may go on moving
        for u in list(self._group()):
            if not u.normal:
                self.moving.mp[u.id] = 0
                self.moving.one_hex[u.id] = False

    # ================================================================== opportunity fire (13.0)
    def _opp_firers(self, side: str, hex_id: str) -> list[Unit]:
        s = self.state
        reaction = s.phase is Phase.REACTION_MOVEMENT
        out = []
        for u in s.units_of(side):
            if not u.on_map or not u.normal or u.fired or u.opp_fired:
                continue
            if reaction:
                # 13.12: Phasing ATR/ATG that did not move in the preceding Movement Phase
                if not (u.is_atr or u.is_atg) or u.moved:
                    continue
            else:
                # 13.11: infantry, AFV, MG, ATR, ATG of the Non-phasing Player
                if not (u.is_infantry or u.is_afv or u.is_mg or u.is_atr or u.is_atg):
                    continue
                if u.is_ft or u.is_mortar:
                    continue
            if not self._can_fire_basic(u):
                continue
            rng = hexgrid.distance(hexgrid.parse_hex_id(u.hex), hexgrid.parse_hex_id(hex_id))
            if u.is_afv:
                if not in_frontal_area(u.hex, u.facing or 1, hex_id):
                    continue  # 13.14
            elif u.is_mg:
                if rng > u.ap_range:
                    continue  # 13.2 MGs: initial range
            elif u.is_infantry and rng > 3:
                continue  # 13.2 infantry: three hexes
            if (u.is_atg or u.is_mg) and u.facing and not in_frontal_area(u.hex, u.facing, hex_id):
                continue  # 10.23
            out.append(u)
        return out

    def _open_window(self, hex_id: str) -> None:
        mv = self.moving
        side = other_side(self._group()[0].side) if self._group() else None
        if side is None:
            return
        self.window = OpportunityWindow(side, hex_id)
        self._prev_decider = self._decider
        self._decider = side
        if not self._opportunity_actions():
            self.window = None
            self._decider = self._prev_decider
            self._after_window()

    def _refresh_window(self) -> None:
        if self.window is not None and not self._opportunity_actions():
            self.window = None
            self._decider = self._prev_decider
            self._after_window()

    def _after_window(self) -> None:
        self._decider = self._prev_decider
        mv = self.moving
        if mv is None:
            return
        # 13.18 moving units that became PINNED may move no further; eliminated ones are gone
        for u in list(self._group()):
            if not u.normal:
                mv.mp[u.id] = 0
                mv.one_hex[u.id] = False
        mv.units = [u.id for u in self._group()]
        if not mv.units:
            self._event("move_end", rule="13.18", units=[], hex=None)
            self.moving = None

    def _opportunity_actions(self) -> list[Action]:
        w = self.window
        if w is None:
            return []
        targets = [u for u in self.state.units_at(w.hex) if u.side != w.side]
        if not targets:
            return []
        firers = self._opp_firers(w.side, w.hex)
        return self._fire_options(firers, w.hex, targets, opportunity=True)

    # ================================================================== fire combat (10.0-12.0)
    def _can_fire_basic(self, u: Unit) -> bool:
        """10.11, 10.14-10.16: NORMAL, not yet fired, crews and Stugs."""
        s = self.state
        if not u.on_map or not u.normal or u.fired or u.opp_fired:
            return False
        if u.is_ft or u.is_mortar:
            return False  # their own procedures (16.0, 14.0)
        if u.ap <= 0 and u.at <= 0:
            return False
        if u.is_atr and not u.full_crew:
            return False  # 10.16
        if u.is_atg and u.crew <= 2 and u.last_atg_fire_turn == s.turn:
            return False  # 10.15
        if u.is_mg and (u.mg_broken or u.mg_out_until >= s.player_turn):
            return False  # 11.15 jammed / malfunction / broken
        if u.is_stug and u.moved and not u.changed_facing_only:
            return False  # 10.14
        if u.is_cw and s.phase is Phase.MOVING_FIRE and u.moved:
            return False  # 6.0 F / 10.13
        return True

    def _phase_firers(self, side: str) -> list[Unit]:
        s = self.state
        out = []
        for u in s.units_of(side):
            if not self._can_fire_basic(u):
                continue
            if s.phase is Phase.DEFENSIVE_FIRE and (u.reaction_moved or u.opp_fired):
                continue  # 6.0 E
            out.append(u)
        return out

    def _fire_actions(self, side: str) -> list[Action]:
        s = self.state
        firers = self._phase_firers(side)
        enemy_hexes = sorted({u.hex for u in s.units.values() if u.on_map and u.side != side})
        out: list[Action] = []
        for h in enemy_hexes:
            targets = self.enemy_in(h, side)
            out.extend(self._fire_options(firers, h, targets, opportunity=False))
        out.extend(self._grenade_actions(side))
        out.extend(self._flame_actions(side))
        return out

    def _fire_options(self, firers: list[Unit], target: str, targets: list[Unit], opportunity: bool) -> list[Action]:
        """Fire actions at ``target``: each unit alone (AP; AT at each AFV), and for each hex the
        largest legal combination (11.13, 11.14)."""
        out: list[Action] = []
        los_ok: dict[str, bool] = {}
        usable = []
        for u in firers:
            if u.hex == target:
                continue
            if u.hex not in los_ok:
                los_ok[u.hex] = self.los(u.hex, target, firer_down=u.down).clear
            if not los_ok[u.hex]:
                continue
            if (u.is_atg or u.is_mg or u.is_stug) and u.facing and not in_frontal_area(u.hex, u.facing, target):
                continue  # 10.23
            usable.append(u)
        rng_of = {u.id: hexgrid.distance(hexgrid.parse_hex_id(u.hex), hexgrid.parse_hex_id(target)) for u in usable}
        afv_targets = [t for t in targets if t.is_afv]
        for u in usable:
            if u.ap > 0 and not (u.is_afv and opportunity and rng_of[u.id] > 10):
                out.append(Fire((u.id,), target, "AP"))
                if u.is_mg and not opportunity:
                    out.append(Fire((u.id,), target, "AP", intensive=(u.id,)))
            if u.at > 0:
                for t in afv_targets:
                    out.append(Fire((u.id,), target, "AT", target_unit=t.id))
        # combinations: per firing hex, all infantry/MMG that may combine
        by_hex: dict[str, list[Unit]] = {}
        for u in usable:
            if (u.is_infantry and not u.is_ft) or u.weapon == "MMG":
                by_hex.setdefault(u.hex, []).append(u)
        for hx, us in sorted(by_hex.items()):
            if len(us) < 2:
                continue
            combo = self._largest_combination(us)
            if len(combo) >= 2:
                out.append(Fire(tuple(sorted(u.id for u in combo)), target, "AP"))
        return out

    def _largest_combination(self, us: list[Unit]) -> list[Unit]:
        """The stack's units that may combine into one attack (11.13 a/b, 11.14, 8.64)."""
        commander = any(u.is_commander and u.normal for u in self.state.units_at(us[0].hex))
        if commander:
            return us
        squads: dict[str | None, list[Unit]] = {}
        for u in us:
            if u.is_infantry:
                squads.setdefault(u.squad, []).append(u)
        best = max(squads.values(), key=len, default=[])
        mgs = [u for u in us if u.weapon == "MMG"]
        return best + mgs if best else mgs

    def _check_fire(self, a: Fire, side: str) -> None:
        if a not in self._fire_actions(side):
            # also accept any legal combination beyond the enumerated ones
            self._validate_combination(a, side)

    def _validate_combination(self, a: Fire, side: str) -> None:
        firers = [self.unit(x) for x in a.firers]
        eligible = {u.id for u in self._phase_firers(side)}
        for u in firers:
            if u.side != side:
                raise IllegalAction("10.1", f"{u.id} is not yours")
            if u.id not in eligible:
                raise IllegalAction("10.11", f"{u.id} is not eligible to fire now")
        targets = self.enemy_in(a.target, side)
        if not targets:
            raise IllegalAction("10.21", f"{a.target} holds no enemy unit")
        if a.mode != "AP" or len(firers) < 2:
            raise IllegalAction("10.2", f"{a} is not a legal attack")
        for u in firers:
            if not self.los(u.hex, a.target, firer_down=u.down).clear:
                raise IllegalAction("10.21", f"{u.id} has no LOS to {a.target}")
            if u.is_afv or u.is_atg or u.is_ft or u.is_mortar:
                raise IllegalAction("11.12", f"{u.id} may not combine its AP factors")
        hexes = sorted({u.hex for u in firers})
        if len(hexes) > 2:
            raise IllegalAction("11.13", "combined fire comes from one hex or two adjacent hexes")
        if len(hexes) == 2:
            a_, b_ = (hexgrid.parse_hex_id(h) for h in hexes)
            if hexgrid.distance(a_, b_) != 1:
                raise IllegalAction("11.13 c", "group fire needs two adjacent hexes")
            if self.state.phase not in (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE) and not any(
                    u.weapon == "MMG" for u in firers):
                raise IllegalAction("11.13 c", "group fire only in the Support and Defensive Fire Phases")
            inf = [u for u in firers if u.is_infantry]
            squads = {u.squad for u in inf if not u.is_commander}
            leader = any(u.normal and (u.is_commander or any(u.is_leader_for(o) for o in inf if o is not u))
                         for u in inf)
            if len(squads) > 1 or not leader:
                raise IllegalAction("11.13 c", "group fire: one squad, with a NORMAL leader in one of the hexes")
        else:
            commander = any(u.is_commander and u.normal for u in self.state.units_at(hexes[0]))
            squads = {u.squad for u in firers if u.is_infantry and not u.is_commander}
            if len(squads) > 1 and not commander:
                raise IllegalAction("11.13 b", "different squads combine only with a NORMAL commander (8.64)")

    def _note_first_shot(self) -> None:
        s = self.state
        if not s.first_shot:
            s.first_shot = True
            s.movement_pcs_from_player_turn = s.player_turn + 1  # 8.22
            self._event("first_shot", rule="8.22")

    def _resolve_fire(self, a: Fire, opportunity: bool) -> None:
        s = self.state
        firers = [self.unit(x) for x in a.firers]
        reaction = s.phase is Phase.REACTION_MOVEMENT
        # PCs (10.12; 13.17 +1 for opportunity fire by infantry and AFVs in the Movement Phase,
        # everybody in the Reaction Movement Phase)
        passed = []
        for u in firers:
            mod = 0
            if opportunity and (reaction or u.is_infantry or u.is_afv):
                mod = 1
            if u.is_atg and u.crew <= 2:
                u.last_atg_fire_turn = s.turn
            u.fired = True
            if opportunity:
                u.opp_fired = True
            if s.phase is Phase.SUPPORT_FIRE:
                u.support_fired = True
            if s.phase is Phase.MOVING_FIRE:
                u.moving_fired = True
            if self.pc(u, f"fire at {a.target}", "13.17" if opportunity else "10.12", modifier=mod):
                passed.append(u)
        self._event("fire", rule="10.0", firers=list(a.firers), target=a.target, mode=a.mode,
                    passed=[u.id for u in passed], opportunity=opportunity)
        if not passed:
            return
        if a.mode == "AT":
            return self._resolve_at(passed[0], a.target_unit, a.target)
        self._resolve_ap(passed, a.target, set(a.intensive), opportunity)

    def _resolve_ap(self, firers: list[Unit], target: str, intensive: set[str], opportunity: bool) -> None:
        s = self.state
        th = hexgrid.parse_hex_id(target)
        total = 0
        for u in firers:
            rng = hexgrid.distance(hexgrid.parse_hex_id(u.hex), th)
            f = ct.attenuated(u.ap, u.ap_range, rng)  # 11.2 first
            if u.is_afv and opportunity:
                f = min(f, 4)  # 13.2 AFV AP opportunity fire: 4 factors at most
            if u.id in intensive and u.is_mg:
                f *= 2  # 11.15
            if u.weapon == "MMG" and not u.full_crew:
                f //= 2  # 11.16 d
            total += f
        # other reductions (11.16 a-c)
        occ = self.occupancy()
        o = occ.get(th, HexOccupancy())
        red_a = self.terrain.trees(target) + o.afvs + o.wrecks
        red_b = 0
        higher = False
        for hx in sorted({u.hex for u in firers}):
            down = any(u.down for u in firers if u.hex == hx)
            r = self.los(hx, target, firer_down=down)
            red_b += r.trees_afvs_wrecks
            if r.level_difference > 0:
                higher = True
        final = total - red_a - red_b - (1 if higher else 0)
        moved = any(u.moved for u in firers)  # 11.32
        self._event("ap_firepower", rule="11.1", firers=[u.id for u in firers], target=target, base=total,
                    target_hex_reduction=red_a, los_reduction=red_b, higher=higher, final=final)
        for u in intensive:
            mg = self.units[u]
            r = self.roll(2, f"intensive fire {mg.id}", "11.15")
            eff, turns = ct.intensive_fire_effect(r.total)
            if turns is None:
                mg.mg_broken = True
            elif turns:
                mg.mg_out_until = s.player_turn + turns
            self._event("intensive_fire", rule="11.15", unit=mg.id, effect=eff)
        self._note_first_shot()
        for t in sorted(self.enemy_in(target, firers[0].side), key=lambda x: x.id):  # 11.41 every unit
            if t.eliminated:
                continue
            if t.is_afv:
                n = (4 if t.down else 2) + (1 if moved else 0)  # 11.34
            else:
                cover = (not t.is_cw) and self._afv_cover(t)
                n = self.terrain.ap_dice(target, target_down=t.down, firer_moved=moved, afv_cover=cover,
                                         ip_points=self.state.ips.get(target, 0))
            r = self.roll(n, f"AP fire at {t.id} (firepower {final})", "11.43")
            res = ct.ap_result(final, r.dice)
            self._event("ap_result", rule="11.44" if r.all_ones else "11.43", unit=t.id, dice=list(r.dice),
                        firepower=final, levels=list(ct.result_levels(final)), result=res.value)
            self._apply_ap_result(t, res, "11.43")

    def _afv_cover(self, t: Unit) -> bool:
        """11.33: an AFV or wreck in the hex covers infantry if it has not moved in the Player
        Turn, or if the infantry moved with it throughout and ended stacked with it."""
        if self.state.wrecks.get(t.hex):
            return True
        for a in self.state.units_at(t.hex):
            if a.is_afv and a.side == t.side:
                if not a.moved or t.moved_with_afv == a.id:
                    return True
        return False

    def _apply_ap_result(self, t: Unit, res: ct.ApResult, rule: str) -> None:
        """Apply an AP result (11.43) with the Cumulative Combat Results Table (11.45)."""
        if res is ct.ApResult.NO_EFFECT:
            return
        if t.is_afv:
            if res is ct.ApResult.PINNED:
                return  # AFVs: pinned has no effect
            if res is ct.ApResult.ELIMINATED:
                t.commander_killed = True  # treat as suppressed; stays DOWN for the game
                self._event("tank_commander_killed", rule="11.43", unit=t.id)
            self._set_morale(t, ct.ApResult.SUPPRESSED, rule)
            return
        if res is ct.ApResult.ELIMINATED:
            if t.is_cw:
                return self._cw_crew_losses(t, 8, rule)
            return self._eliminate(t, rule)
        self._set_morale(t, res, rule)

    def _set_morale(self, t: Unit, res: ct.ApResult, rule: str) -> None:
        before = t.morale.value
        out = ct.cumulative(before, res)
        if out is ct.CumulativeOutcome.SPECIAL_ROLL:
            if self.pc(t, "cumulative special roll", "11.45"):
                out = ct.CumulativeOutcome.SUPPRESSED
            else:
                if t.is_afv:
                    t.commander_killed = True
                    out = ct.CumulativeOutcome.SUPPRESSED
                elif t.is_cw:
                    return self._cw_crew_losses(t, 8, "11.45")
                else:
                    return self._eliminate(t, "11.45")
        t.morale = Morale.PINNED if out is ct.CumulativeOutcome.PINNED else Morale.SUPPRESSED
        t.down = True  # 3.25
        self._event("morale", rule=rule, unit=t.id, before=before, after=t.morale.value)

    def _cw_crew_losses(self, t: Unit, threshold: int, rule: str) -> None:
        """CW eliminated result (11.43, 15.8): 2d6 per crew member, <= threshold kills him."""
        lost = 0
        for i in range(t.crew):
            r = self.roll(2, f"crew member {i + 1} of {t.id}", rule)
            if r.total <= threshold:
                lost += 1
        t.crew -= lost
        self._event("crew_losses", rule=rule, unit=t.id, lost=lost, crew=t.crew)
        if t.crew <= 0:
            return self._eliminate(t, rule)
        self._set_morale(t, ct.ApResult.SUPPRESSED, rule)

    def _eliminate(self, t: Unit, rule: str) -> None:
        t.eliminated = True
        where = t.hex
        t.hex = None
        self._event("eliminated", rule=rule, unit=t.id, side=t.side, hex=where)
        if self.moving is not None and t.id in self.moving.units:
            self.moving.units.remove(t.id)

    def _destroy_afv(self, t: Unit, rule: str) -> None:
        where = t.hex
        self._eliminate(t, rule)
        self.state.wrecks[where] = self.state.wrecks.get(where, 0) + 1  # 12.32 / 12.4
        self._event("wreck", rule="12.4", hex=where, unit=t.id)
        for u in self.state.units_at(where):
            if u.side == t.side and u.is_infantry:
                self._set_morale(u, ct.ApResult.SUPPRESSED, "12.34")

    def _resolve_at(self, u: Unit, target_uid: str | None, target: str) -> None:
        t = self.units.get(target_uid or "")
        if t is None or t.hex != target or not t.is_afv:
            raise IllegalAction("12.12", "AT fire needs an AFV target in the target hex")
        rng = hexgrid.distance(hexgrid.parse_hex_id(u.hex), hexgrid.parse_hex_id(target))
        at = ct.attenuated(u.at, u.ap_range, rng) if u.is_atr else u.at  # 12.16
        n = 3 if (u.moved or u.changed_facing_only) else 2  # 12.2
        frontal = in_frontal_area(target, t.facing or 1, u.hex)
        armour = t.frontal if frontal else t.flank
        higher = self.terrain.level(target) > self.terrain.level(u.hex)
        self._note_first_shot()
        r = self.roll(n, f"AT fire {u.id} at {t.id}", "12.31")
        kill = ct.at_destroys(at, r.dice, armour, higher)
        self._event("at_result", rule="12.33" if r.all_ones else "12.32", firer=u.id, unit=t.id, dice=list(r.dice),
                    at=at, armour=armour, frontal=frontal, higher=higher, destroyed=kill)
        if kill:
            self._destroy_afv(t, "12.32")

    # ================================================================== grenades (15.0), flamethrowers (16.0)
    def _grenade_actions(self, side: str) -> list[Action]:
        s = self.state
        if s.grenades.get(side, 0) <= 0:
            return []
        out = []
        for u in self._phase_firers(side):
            if not u.is_infantry or u.is_ft or u.hex in self._grenade_hexes:
                continue
            h = hexgrid.parse_hex_id(u.hex)
            for t in hexgrid.area(h, 2)[1:]:
                if not self.map.contains(t):
                    continue
                tid = t.id
                if not self.enemy_in(tid, side):
                    continue
                if all(x.is_afv for x in self.enemy_in(tid, side)):
                    continue  # 15.6 AFVs are not affected
                d = hexgrid.distance(h, t)
                if d == 2 and (self.terrain.is_building(tid) or self.terrain.is_building(u.hex)):
                    continue  # 15.4
                if not self.los(u.hex, tid, firer_down=u.down).clear:
                    continue
                out.append(Grenade(u.id, tid))
        return out

    def _grenade(self, a: Grenade) -> None:
        side = self._decider
        if a not in self._grenade_actions(side):
            raise IllegalAction("15.0", f"{a} is not a legal grenade attack")
        u = self.units[a.thrower]
        self._grenade_hexes.add(u.hex)  # 15.3 one throw per hex per Player Turn
        for x in self.state.units_at(u.hex):
            if x.side == side and x.id != u.id and not x.fired:
                x.fired = True  # 15.3 all units in the hex are considered to have fired
                if self.state.phase is Phase.MOVING_FIRE:
                    x.moving_fired = True
                    x.grenade_hex = a.target
        u.fired = True
        if self.state.phase is Phase.MOVING_FIRE:
            u.moving_fired = True
            u.grenade_hex = a.target  # 17.14
        if not self.pc(u, f"grenade at {a.target}", "15.3", modifier=2):
            return
        self.state.grenades[side] -= 1  # 15.9
        self._note_first_shot()
        building = self.terrain.is_building(a.target)
        for t in sorted(self.enemy_in(a.target, side), key=lambda x: x.id):
            if t.is_afv:
                continue
            r = self.roll(1, f"grenade at {t.id}", "15.6")
            res = ct.grenade_result(r.total, building)
            self._event("grenade_result", rule="15.6", unit=t.id, die=r.total, result=res.value)
            if res is ct.ApResult.ELIMINATED and t.is_cw:
                self._cw_crew_losses(t, 10, "15.8")
            else:
                self._apply_ap_result(t, res, "15.7")

    def _flame_actions(self, side: str) -> list[Action]:
        out = []
        for u in self.state.units_of(side):
            if not u.is_ft or not u.on_map or not u.normal or u.fired or u.down:
                continue  # 16.2 only from the UP state
            if self.state.phase is Phase.DEFENSIVE_FIRE and (u.reaction_moved or u.opp_fired):
                continue
            h = hexgrid.parse_hex_id(u.hex)
            for t in hexgrid.area(h, 2)[1:]:
                if not self.map.contains(t):
                    continue
                tg = [x for x in self.enemy_in(t.id, side) if not x.is_afv]
                if tg and self.los(u.hex, t.id).clear:
                    out.append(Flame(u.id, t.id))
        return out

    def _flame(self, a: Flame) -> None:
        side = self._decider
        if a not in self._flame_actions(side):
            raise IllegalAction("16.0", f"{a} is not a legal flamethrower attack")
        u = self.units[a.unit]
        u.fired = True
        if self.state.phase is Phase.MOVING_FIRE:
            u.moving_fired = True
        if not self.pc(u, f"flamethrower at {a.target}", "16.0"):
            return
        self._note_first_shot()
        rng = hexgrid.distance(hexgrid.parse_hex_id(u.hex), hexgrid.parse_hex_id(a.target))
        for t in sorted(self.enemy_in(a.target, side), key=lambda x: x.id):
            if t.is_afv:
                continue  # 16.1
            r = self.roll(2, f"flamethrower at {t.id}", "16.3")
            res = ct.flamethrower_result(r.total, rng)
            self._event("flame_result", rule="16.3", unit=t.id, total=r.total, result=res.value)
            self._apply_ap_result(t, res, "16.3")

    # ================================================================== end of movement, assault (17.0)
    def _end_of_movement_phase(self) -> None:
        """8.62 is enforced when each move ends; nothing else happens here yet."""
        return

    def _assault_designations(self, side: str) -> list[Action]:
        out: list[Action] = []
        by_hex: dict[str, list[Unit]] = {}
        for u in self.state.units_of(side):
            if u.on_map and u.is_infantry and u.normal and u.assault_hex is None:
                by_hex.setdefault(u.hex, []).append(u)
        for hx, us in sorted(by_hex.items()):
            h = hexgrid.parse_hex_id(hx)
            for n in hexgrid.neighbours(h):
                if not self.map.contains(n):
                    continue
                enemies = self.enemy_in(n.id, side)
                if not enemies or any(e.is_afv for e in enemies):
                    continue  # 17.13 (empty hexes may be assaulted, but there is no point in offering it)
                out.append(DesignateAssault(tuple(sorted(u.id for u in us)), n.id))
        return out

    def _assault_phase(self) -> None:
        s = self.state
        for side in (s.phasing, s.non_phasing):  # 17.0: Phasing Player's assaults first
            targets = sorted({u.assault_hex for u in s.units_of(side) if u.assault_hex and u.on_map})
            for target in targets:
                self._resolve_assault(side, target)
        for u in s.units.values():
            u.assault_hex = None

    def _resolve_assault(self, side: str, target: str) -> None:
        s = self.state
        attackers_all = [u for u in s.units_of(side) if u.on_map and u.assault_hex == target]
        # 17.13-17.15: NORMAL infantry only, not after Moving Fire (except grenades into this hex)
        attackers_all = [u for u in attackers_all if u.normal and u.is_infantry and not (
            u.moving_fired and u.grenade_hex != target)]
        if not attackers_all:
            return
        if any(e.is_afv for e in self.enemy_in(target, side)):
            return  # 17.13
        attackers: list[Unit] = []
        by_hex: dict[str, list[Unit]] = {}
        for u in attackers_all:
            by_hex.setdefault(u.hex, []).append(u)
        defenders_present = bool(self.enemy_in(target, side))
        for hx, us in sorted(by_hex.items()):
            leaders = [u for u in us if any(u.is_leader_for(o) for o in us if o is not u) or u.is_commander]
            if not defenders_present and not self.enemy_in(target, side) and attackers:
                # 17.32 after the defenders are gone, further assaulting units move in without a PC
                attackers.extend(us)
                continue
            if leaders:
                ld = max(leaders, key=lambda x: x.pr)
                if self.pc(ld, f"assault {target} (leader)", "17.12", modifier=1):
                    attackers.extend(us)
            else:
                for u in us:
                    if self.pc(u, f"assault {target}", "17.12", modifier=1):
                        attackers.append(u)
        for u in attackers_all:
            u.assault_hex = None
        if not attackers:
            return
        # stacking on entry: move in up to the limit
        moved_in = []
        for u in attackers:
            if self._stack_ok(target, moved_in + [u]):
                moved_in.append(u)
        for u in moved_in:
            u.hex = target
        self._event("assault", rule="17.0", side=side, target=target, attackers=[u.id for u in moved_in])
        defenders = sorted(self.enemy_in(target, side), key=lambda x: x.id)
        if defenders:
            self._note_first_shot()
            self._assault_rounds(moved_in, defenders, target)
        survivors = self.state.units_at(target)
        for u in survivors:
            u.down = True  # 17.0 f
        self._update_control(target)
        # mines detonate after the assault (19.2)
        m = s.mines.get(target)
        if m and m.get("ap"):
            self._mine_attack_static(target, [u for u in survivors if u.side == side])

    def _mine_attack_static(self, hex_id: str, units: list[Unit]) -> None:
        m = self.state.mines[hex_id]
        m["revealed_ap"] = True
        self._event("mines_revealed", rule="19.2", hex=hex_id, ap=m["ap"])
        for u in units:
            if u.is_afv:
                continue
            r = self.roll(1, f"AP mine attack on {u.id}", "19.24")
            f = m["ap"]
            q, h2 = -(-f // 4), -(-f // 2)
            res = (ct.ApResult.ELIMINATED if r.total <= q else ct.ApResult.SUPPRESSED if r.total <= h2
                   else ct.ApResult.PINNED if r.total <= f else ct.ApResult.NO_EFFECT)
            self._apply_ap_result(u, res, "19.24")

    def _casualty(self, side_units: list[Unit]) -> Unit | None:
        """17.23: the owner picks which unit to remove; the engine removes the lowest-PR
        non-commander first (deterministic, documented in docs/rules-interpretations.md)."""
        alive = [u for u in side_units if not u.eliminated]
        if not alive:
            return None
        return min(alive, key=lambda u: (u.is_commander, u.pr, u.id))

    def _assault_fire(self, u: Unit, purpose: str) -> bool:
        r = self.roll(1, f"assault fire {u.id} ({purpose})", "17.23")
        hit = r.total <= u.assault
        self._event("assault_fire", rule="17.23", unit=u.id, die=r.total, rating=u.assault, hit=hit)
        return hit

    def _take_casualties(self, units: list[Unit], hits: int) -> None:
        for _ in range(hits):
            v = self._casualty(units)
            if v is None:
                return
            if v.is_cw and v.crew > 1:
                v.crew -= 1
                self._event("crew_losses", rule="17.23", unit=v.id, lost=1, crew=v.crew)
            else:
                self._eliminate(v, "17.23")

    def _assault_rounds(self, attackers: list[Unit], defenders: list[Unit], target: str) -> None:
        """17.2: the initial round in sequence (17.21), then simultaneous rounds until one side is left."""
        def alive(us):
            return [u for u in us if not u.eliminated]
        # initial round
        normal = [d for d in defenders if d.morale is Morale.NORMAL]
        pinned = [d for d in defenders if d.morale is Morale.PINNED]
        supp = [d for d in defenders if d.morale is Morale.SUPPRESSED]
        hits = sum(self._assault_fire(d, "initial a") for d in normal)  # 17.21 a
        self._take_casualties(attackers, hits)
        h_att = sum(self._assault_fire(u, "initial b") for u in alive(attackers))  # 17.21 b (simultaneous)
        h_def = sum(self._assault_fire(d, "initial b") for d in alive(pinned))
        self._take_casualties(defenders, h_att)
        self._take_casualties(attackers, h_def)
        hits = sum(self._assault_fire(d, "initial c") for d in alive(supp))  # 17.21 c
        self._take_casualties(attackers, hits)
        for d in alive(defenders):
            if d.morale is not Morale.NORMAL:
                d.morale = Morale.NORMAL  # 17.22
        rounds = 0
        while alive(attackers) and alive(defenders) and rounds < 100:
            rounds += 1
            a_hits = sum(self._assault_fire(u, f"round {rounds + 1}") for u in alive(attackers))
            d_hits = sum(self._assault_fire(d, f"round {rounds + 1}") for d in alive(defenders))
            self._take_casualties(defenders, a_hits)
            self._take_casualties(attackers, d_hits)

    # ================================================================== H free state change
    def _state_change_actions(self, side: str) -> list[Action]:
        out: list[Action] = []
        ups, downs = [], []
        for u in self.state.units_of(side):
            if not u.on_map or not u.normal:
                continue  # 3.27 only NORMAL units change voluntarily
            if u.is_afv and u.commander_killed:
                continue
            (downs if u.down else ups).append(u.id)
        for uid in ups:
            out.append(SetState((uid,), True))
        for uid in downs:
            out.append(SetState((uid,), False))
        return out

    # ================================================================== control (Scenario 6)
    def _update_control(self, hex_id: str | None) -> None:
        if hex_id is None:
            return
        sides = {u.side for u in self.state.units_at(hex_id) if not u.is_afv or True}
        if len(sides) == 1:
            self.state.control[hex_id] = next(iter(sides))

    # ================================================================== views
    def view(self, side: str) -> dict:
        """What ``side`` may know: the state without the opponent's unrevealed mines."""
        snap = self.state.snapshot()
        snap["mines"] = {h: m for h, m in snap["mines"].items() if m.get("side") == side or m.get("revealed_ap")
                         or m.get("revealed_at")}
        for h, m in list(snap["mines"].items()):
            if m.get("side") != side:
                snap["mines"][h] = {k: v for k, v in m.items() if (k != "ap" or m.get("revealed_ap"))
                                    and (k != "at" or m.get("revealed_at"))}
        return snap
