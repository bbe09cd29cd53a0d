"""The Iron Cross rules engine: one game, its legal actions and their effects.

``Game(setup, seed)`` starts at set-up. ``current_side()`` says who must decide,
``legal_actions()`` what they may do, ``apply(action)`` checks it, changes the state and
returns the events (every die roll among them); illegal actions raise
:class:`core.ironcross.actions.IllegalAction` naming the rule. The sequence of play is 6.0:
A Morale, B Support Fire, C Movement (with opportunity fire, 13.0, and assault designation),
D Reaction Movement, E Defensive Fire, F Moving Fire, G Assault, H free UP/DOWN change.

The rules live in mixins, one module per part of the rulebook: :mod:`.deployment` (set-up, 24.1,
18.1, 19.1), :mod:`.movement` (8.0, 13.0 windows, 19.2), :mod:`.fire_combat` (10.0-12.0, 15.0,
16.0), :mod:`.assault` (17.0). This module holds the sequence of play (6.0), morale (7.0), PCs
(4.0), the free state change (6.0 H), control of hexes and the end of the game. See
``docs/engine.md`` for the state of each rule.
"""

from __future__ import annotations

from typing import Any

from core.dice import Dice, Roll
from core.ironcross.actions import (
    Action, DesignateAssault, EndPhase, Fire, Flame, Grenade, IllegalAction, MortarFire, Pass, RevealHidden, SetState,
    StartMove, TakeCasualty, action_to_json)
from core.ironcross.ammo import AmmoRules
from core.ironcross.assault import AssaultRules
from core.ironcross.deployment import DeploymentRules
from core.ironcross.detachment import DetachmentRules
from core.ironcross.fire_combat import FireRules
from core.ironcross.hex_terrain import HexTerrain
from core.ironcross.hidden import HiddenRules
from core.ironcross.mg_modes import MgModeRules
from core.ironcross.observation import ObservationRules, check_rules
from core.ironcross.infiltration import InfiltrationRules
from core.ironcross.mortars import MortarRules
from core.ironcross.movement import MoveContext, MovementRules, OpportunityWindow
from core.ironcross.overrun import OverrunRules
from core.ironcross.setup import GameSetup
from core.ironcross.state import PHASE_ORDER, GameState, Morale, Phase, Unit, other_side, positions_changed, unit_changes
from maps import hexgrid
from maps.los import HexOccupancy
from maps.los_table import FrozenOccupancy, LosOracle, los_oracle

__all__ = ["Game", "MoveContext", "OpportunityWindow"]

FIRE_PHASES = (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE, Phase.MOVING_FIRE)


def event_value(v: Any) -> Any:
    """A snapshot of ``v`` for the event log: dicts, lists and tuples are copied recursively
    (tuples become lists, as in JSON); anything else (str, int, float, bool, None) is immutable.
    Raises TypeError for a value the log cannot hold (e.g. a set), so no live object slips in."""
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, dict):
        return {k: event_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [event_value(x) for x in v]
    raise TypeError(f"event data must be JSON values, not {type(v).__name__}: {v!r}")


class PlayingArea:
    """The map as the scenario uses it: ``contains`` is limited to the scenario's sections (24.1
    "MAP"), so nothing moves, enters, scatters or is placed outside them; everything else is the
    underlying :class:`maps.hexmap.HexMap`."""

    def __init__(self, hexmap, hex_ids):
        self._map = hexmap
        self._area = frozenset(hexgrid.parse_hex_id(h) for h in hex_ids)

    def contains(self, h) -> bool:
        return h in self._area

    def __getattr__(self, name):
        return getattr(self._map, name)


def _shared(hexmap, key: tuple, make):
    """One object per map object and ``key`` (a :class:`PlayingArea`, a :class:`HexTerrain` and the
    caches they and the players keep of the map), shared by the games played on that map object (a
    playtest batch loads its map once): maps are never changed in place (the editor builds a new
    one after an edit), so what is derived from one stays true."""
    memo = hexmap.__dict__.setdefault("_games_share", {})
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= 16:
            memo.clear()
        hit = memo[key] = make()
    return hit


class Game(HiddenRules, InfiltrationRules, DeploymentRules, MovementRules, OverrunRules, FireRules, MortarRules,
           AssaultRules, MgModeRules, AmmoRules, ObservationRules, DetachmentRules):
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
        check_rules(rules, self.options)  # "basic" | "advanced", named optional rules
        self.map = _shared(setup.hexmap, ("area", frozenset(setup.playing_area)),
                           lambda: PlayingArea(setup.hexmap, setup.playing_area)) \
            if setup.playing_area else setup.hexmap
        self._check_setup_hexes()  # 24.1: nothing is placed, entered or infiltrated off the map
        self.terrain = _shared(setup.hexmap, ("terrain", id(setup.chart)),
                               lambda: HexTerrain(setup.hexmap, setup.chart))
        self.events: list[dict] = []
        self.actions: list[Action] = []
        self.dice = Dice(seed, on_roll=self._log_roll)
        self.state = GameState(game_length=setup.game_length, first_side=setup.first_side,
                               phasing=setup.first_side, grenades=dict(setup.grenades))
        for uid, u in setup.units.items():
            u2 = Unit(**u.fields_dict())
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
        self.overrun_window = None  # 9.2 A: overrun.OverrunFireWindow while the defender decides
        self.fight = None  # 17.2: an assault being fought out, waiting for a casualty choice (17.23)
        self._decider: str | None = None
        self._sub: str = ""  # sub-step within a phase: "", "assault_designation", "second"
        self._movement_stage = 0
        self._led_from: dict[str, str] = {}  # hex -> leader id who passed a leader PC there this phase
        self._failed_lead: set[str] = set()
        self._grenade_hexes: set[str] = set()
        self._state_changed: set[str] = set()  # 6.0 H: units that changed their state this phase
        self._assault_cleared: set[str] = set()  # 17.32: hexes whose defenders an assault eliminated
        self._queue_detachments()  # 24.1 special options, chosen before the (enemy's or own) set-up
        self._queue_infiltration()  # 24.31 after the German set-up (where the scenario allows it)
        self._event("game_start", rule="24.1", seed=seed, rules=rules, options=list(self.options),
                    title=setup.title)
        if setup.initial_control:  # the scenario's initial control: kept until the enemy occupies (24.9)
            self.state.control.update(setup.initial_control)
            for side in sorted(set(setup.initial_control.values())):
                self._event("initial_control", rule="24.1", side=side,
                            hexes=sorted(h for h, s in setup.initial_control.items() if s == side))
        self._advance_setup()

    # ================================================================== logging
    def _event(self, kind: str, rule: str = "", **data: Any) -> dict:
        """Log an event. Its data is copied as it is now (``event_value``): an event is a snapshot,
        never a live view of state that changes later (e.g. a move's MP dictionary)."""
        e = {"i": len(self.events), "kind": kind, "rule": rule, "turn": self.state.turn,
             "player_turn": self.state.player_turn, "phase": self.state.phase.value,
             **{k: event_value(v) for k, v in data.items()}}
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

    @property
    def turn(self) -> int:
        """The current Game Turn, 1 to the scenario's length (the rule-system boundary's
        :class:`core.rule_system.RuleGame`; read-only: ``state.turn``)."""
        return self.state.turn

    @property
    def outcome(self) -> str | None:
        """"german", "russian" or "draw" once the game is over (24.1 victory conditions), else None
        (read-only: ``state.outcome``)."""
        return self.state.outcome

    def current_side(self) -> str | None:
        """The side that must choose the next action (None when the game is over)."""
        return None if self.is_terminal() else self._decider

    def occupancy(self) -> dict:
        """AFVs and wrecks per hex for LOS (10.31 b), ``Hex -> HexOccupancy`` (read-only: a
        :class:`maps.los_table.FrozenOccupancy`, rebuilt only when an AFV or a wreck changed)."""
        s = self.state
        units = s.units
        # no unit placed, moved or eliminated (positions_changed) and the same wrecks: the same
        # answer, without a pass over the AFVs (the engine asks for it with every LOS)
        moved = positions_changed()
        fast = self.__dict__.get("_occ_fast_cache")
        if fast is not None and fast[0] == moved and fast[1] is units and fast[2] == len(units) \
                and fast[3] == s.wrecks:
            return fast[4]
        afvs = self.__dict__.get("_afv_units")
        if afvs is None or afvs[0] is not units or afvs[1] != len(units):
            afvs = (units, len(units), [u for u in units.values() if u.is_afv])
            self._afv_units = afvs
        sig = (tuple([(u.hex, u.eliminated) for u in afvs[2]]), tuple(s.wrecks.items()))
        cached = self.__dict__.get("_occ_cache")
        if cached is not None and cached[0] == sig:
            self._occ_fast_cache = (moved, units, len(units), dict(s.wrecks), cached[1])
            return cached[1]
        occ: dict = {}
        for u in afvs[2]:
            if u.on_map:
                h = hexgrid.parse_hex_id(u.hex)
                o = occ.get(h, HexOccupancy())
                occ[h] = HexOccupancy(o.afvs + 1, o.wrecks)
        for hid, n in s.wrecks.items():
            h = hexgrid.parse_hex_id(hid)
            o = occ.get(h, HexOccupancy())
            occ[h] = HexOccupancy(o.afvs, o.wrecks + n)
        frozen = FrozenOccupancy(occ)
        self._occ_cache = (sig, frozen)
        self._occ_fast_cache = (moved, units, len(units), dict(s.wrecks), frozen)
        return frozen

    def los_oracle(self) -> LosOracle:
        """Where this game's LOS answers come from (:mod:`maps.los_table`): the terrain LOS table
        of the playing area, cached on disk, with every line that meets AFVs or wrecks checked by
        :func:`maps.los.line_of_sight` itself. Loaded (or built) on first use."""
        o = self.__dict__.get("_los_oracle")
        if o is None:
            self.prepare_los()
            o = self._los_oracle
        return o

    def prepare_los(self, background: bool = False) -> None:
        """Load (or build) the playing area's LOS table now; with ``background`` on a worker
        thread, every LOS answered exactly until it is ready (the same answers: the editor's
        hot-seat games, so that the UI thread never waits for a table)."""
        if "_los_oracle" not in self.__dict__:
            self._los_oracle = los_oracle(self.setup.hexmap, self.setup.playing_area or None,
                                          chart=self.setup.chart, wait=not background)

    def los(self, a: str, b: str, firer_down: bool = False):
        """LOS from hex ``a`` to hex ``b`` (10.3) with the current AFVs and wrecks: the answer of
        :func:`maps.los.line_of_sight` (a :class:`maps.los.LosResult`, or the table's
        :class:`maps.los_table.TableLos` / :class:`maps.los_table.OccupiedLos`, which have its
        attributes). The answers are remembered while the AFVs and wrecks stay where they are
        (the same :meth:`occupancy` object): a fire phase asks for the same lines at every decision."""
        occ = self.occupancy()
        memo = self.__dict__.get("_los_answers_cache")
        if memo is None or memo[0] is not occ or len(memo[1]) > 100_000:
            memo = self._los_answers_cache = (occ, {})
        k = (a, b, firer_down)
        r = memo[1].get(k)
        if r is None:
            r = memo[1][k] = self.los_oracle().los(a, b, firer_down=firer_down, occupancy=occ)
        return r

    def enemy_in(self, hex_id: str, side: str) -> list[Unit]:
        # 24.2: the opponent's hidden units are not on the map for ``side``
        return [u for u in self.state.units_at(hex_id) if u.side != side and not u.hidden]

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
            if self._skip_morale_phase():  # 24.34 infiltration: begin with the Support Fire Phase
                return self._enter_phase(Phase.SUPPORT_FIRE)
            self._morale_phase_reveals()  # 24.22
            self._morale_phase()
            if self._start_mg_mode_choice():  # 21.41 (advanced): MG modes at the end of the phase
                return
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
            self._start_assault_phase()  # 6.0 G: the Phasing Player's assaults first (17.0)
            self._decider = s.phasing
        elif phase is Phase.FREE_STATE_CHANGE:
            self._state_changed = set()  # 3.13: once per unit
            self._decider = s.phasing
        # skip decisions nobody can take
        if self._decider is not None and self._only_end_phase():
            self._end_phase_step()

    def _end_phase_step(self) -> None:
        """The decider ended its part of the phase: go to the next sub-step or phase."""
        s = self.state
        ph = s.phase
        if ph is Phase.MORALE:
            return self._end_mg_mode_step()  # 21.41
        if ph in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT) and self._sub == "":
            self._end_of_movement_phase()
            self._sub = "assault_designation"
            if not self._only_end_phase():
                return
        if ph in (Phase.ASSAULT, Phase.FREE_STATE_CHANGE) and self._sub == "":
            # 6.0 G/H: both players participate, the Phasing Player first
            self._sub = "second"
            self._decider = s.non_phasing
            if not self._only_end_phase():
                return
        if ph is Phase.ASSAULT:
            self._end_assault_phase()
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
    #: Game attributes that legal_actions does not read, or that are caches of what it reads
    #: (left out of :meth:`_decision_fingerprint`; so is every ``*_cache``).
    _NOT_FINGERPRINTED = frozenset(("setup", "seed", "rules", "options", "map", "terrain", "events", "actions",
                                    "dice", "state", "_entry_of", "_afv_units", "_occ_cache", "_los_oracle",
                                    "_legal_memo", "_stk"))

    def _decision_fingerprint(self) -> tuple:
        """What the legal actions depend on, cheaply: the log's and the decisions' lengths, every
        change to any unit (:data:`core.ironcross.state.unit_changes`), the markers, the turn and
        phase, and the engine's own step state. Equal fingerprints, equal legal actions."""
        s = self.state
        own = tuple((k, repr(v)) for k, v in self.__dict__.items()
                    if k not in self._NOT_FINGERPRINTED and not k.endswith("_cache"))
        return (len(self.events), len(self.actions), unit_changes(), id(s), id(s.units), len(s.units),
                sum(len(u.replacements) for u in s.units.values()), s.turn, s.player_turn, s.phasing, s.phase,
                s.first_side, s.game_length, s.first_shot, s.movement_pcs_from_player_turn, s.outcome,
                repr(s.wrecks), repr(s.ips), repr(s.grenades), repr(s.mines), repr(s.control), repr(s.records),
                repr(s.hidden_hexes), own)

    def _only_end_phase(self) -> bool:
        """6.0: the auto-skip check. True when the decider may do nothing but end the phase; else
        the legal actions just computed are kept for the next :meth:`legal_actions` call at this
        same decision point (the runner's), so they are computed once."""
        acts = self.legal_actions()
        if acts == [EndPhase()]:
            return True
        self._legal_memo = (self._decision_fingerprint(), acts)
        return False

    def legal_actions(self, side: str | None = None) -> list[Action]:
        """Every action the deciding side may take now (empty for the other side)."""
        dec = self.current_side()
        if dec is None or (side is not None and side != dec):
            return []
        memo = self.__dict__.pop("_legal_memo", None)  # from the auto-skip check (_only_end_phase)
        if memo is not None and memo[0] == self._decision_fingerprint():
            return memo[1]
        s = self.state
        if s.phase is Phase.SETUP:
            return self._setup_actions()
        if self.overrun_window is not None:
            return self._overrun_fire_actions() + [Pass()]  # 9.2 A
        if self.fight is not None:
            return self._casualty_actions(dec)  # 17.23 the owner removes his units
        if self.window is not None:
            return self._opportunity_actions() + [Pass()]
        if s.phase is Phase.MORALE:
            return self._mg_mode_actions(dec) + [EndPhase()]  # 21.41
        if s.phase in FIRE_PHASES:
            return (self._fire_actions(dec) + self._mode_actions(dec, opportunity=False) + self._reveal_actions(dec)
                    + [EndPhase()])
        if s.phase in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT):
            if self._sub == "assault_designation":
                return self._assault_designations(dec) + [EndPhase()]
            if self.moving is not None:
                return self._move_actions()
            return self._start_move_actions(dec) + self._reveal_actions(dec) + [EndPhase()]
        if s.phase is Phase.ASSAULT:
            return self._assault_actions(dec) + [EndPhase()]
        if s.phase is Phase.FREE_STATE_CHANGE:
            return self._state_change_actions(dec) + self._reveal_actions(dec) + [EndPhase()]
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
        revealed = self._reveal_firers(action, side)  # 24.22 a hidden unit that fires is revealed
        try:
            self._apply(action)
        except IllegalAction:
            # nothing changed: drop the logged action
            for u in revealed:
                u.hidden = True
            self.actions.pop()
            del self.events[start:]
            raise
        return self.events[start:]

    def _apply(self, a: Action) -> None:
        s = self.state
        if s.phase is Phase.SETUP:
            return self._apply_setup(a)
        if self.overrun_window is not None:
            return self._apply_overrun_window(a)  # 9.2 A special AT fire decisions
        if self.fight is not None:
            if isinstance(a, TakeCasualty):
                return self._take_casualty(a)  # 17.23
            raise IllegalAction("17.23", "choose the units removed by the assault fire first (TakeCasualty)")
        if self.window is not None:
            if isinstance(a, Pass):
                self.window = None
                return self._after_window()
            if isinstance(a, Fire):
                if a not in self._opportunity_actions():
                    raise IllegalAction("13.0", f"{a} is not a legal opportunity fire now")
                self._resolve_fire(a, opportunity=True)
                return self._refresh_window()
            if a.kind in ("lane_fire", "spray_fire", "spray_change"):  # 21.2, 21.3, 21.42
                self._apply_mode_action(a, opportunity=True)
                return self._refresh_window()
            raise IllegalAction("13.0", "opportunity fire or Pass expected")
        if isinstance(a, EndPhase):
            if self.moving is not None:
                raise IllegalAction("8.0", "finish the current move first (StopMove)")
            return self._end_phase_step()
        if isinstance(a, RevealHidden):
            if a not in self.legal_actions():
                raise IllegalAction("24.22", f"{a} is not possible now")
            return self._voluntary_reveal(a, self._decider)  # 24.22
        if s.phase in FIRE_PHASES:
            if isinstance(a, Fire):
                self._check_fire(a, self._decider)
                return self._resolve_fire(a, opportunity=False)
            if isinstance(a, Grenade):
                return self._grenade(a)
            if isinstance(a, Flame):
                return self._flame(a)
            if isinstance(a, MortarFire):
                return self._mortar_fire(a)  # 14.0
            if a.kind in ("lane_fire", "spray_fire", "spray_change"):
                return self._apply_mode_action(a, opportunity=False)  # 21.2, 21.3, 21.42
            raise IllegalAction("10.0", f"{a.kind} is not possible in the {s.phase.value} phase")
        if s.phase in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT):
            if self._sub == "assault_designation":
                if isinstance(a, DesignateAssault):
                    return self._designate_assault(a, self._decider)
                raise IllegalAction("17.0", "assault designations or EndPhase expected")
            if self.moving is None:
                if isinstance(a, StartMove):
                    return self._start_move(a)
                if a.kind in ("push_wreck", "crew_replacement"):
                    return self._end_step(a)  # 8.65, 20.1
                raise IllegalAction("8.0", f"{a.kind} is not possible now; start a move or end the phase")
            return self._apply_move(a)
        if s.phase is Phase.ASSAULT and isinstance(a, DesignateAssault):
            return self._perform_assault(a, self._decider)
        if s.phase is Phase.FREE_STATE_CHANGE and isinstance(a, SetState):
            return self._free_state_change(a, self._decider)
        if s.phase is Phase.MORALE and a.kind == "mg_mode":
            return self._set_mg_mode(a)  # 21.41
        raise IllegalAction("6.0", f"{a.kind} is not possible in the {s.phase.value} phase")

    # ================================================================== H free state change
    def _may_change_state(self, u: Unit, side: str) -> tuple[str, str] | None:
        """3.13, 3.26, 3.27, 6.0 H: why ``u`` may not change its UP/DOWN state now, or None."""
        if u.side != side or not u.on_map:
            return ("6.0 H", f"{u.id} is not an on-map unit of {side}")
        if not u.normal:
            return ("3.26", f"{u.id} is {u.morale.value} and must stay DOWN (3.26, 3.27)")
        if u.is_afv and u.commander_killed:
            return ("11.43", f"{u.id} lost its commander and stays DOWN")
        if u.id in self._state_changed:
            return ("3.13", f"{u.id} already changed its state once in this phase")
        return None

    def _state_change_actions(self, side: str) -> list[Action]:
        """6.0 H: one SetState per unit that may change (UP -> DOWN or DOWN -> UP)."""
        out: list[Action] = []
        for u in sorted(self.state.units_of(side), key=lambda x: x.id):
            if self._may_change_state(u, side) is None:
                out.append(SetState((u.id,), not u.down))
        return out

    def _free_state_change(self, a: SetState, side: str) -> None:
        """6.0 H / 3.13: free UP/DOWN change, once per unit, NORMAL units only (3.27)."""
        if not a.units or len(set(a.units)) != len(a.units):
            raise IllegalAction("6.0 H", "name each unit once")
        us = [self.unit(x) for x in a.units]
        for u in us:
            why = self._may_change_state(u, side)
            if why is not None:
                raise IllegalAction(*why)
            if u.down == a.down:
                raise IllegalAction("3.1", f"{u.id} is already {'DOWN' if a.down else 'UP'}")
        for u in us:
            u.down = a.down
            self._state_changed.add(u.id)
        self._event("state_change", rule="6.0 H", side=side, units=list(a.units), down=a.down)

    # ================================================================== control (Scenario 6: "last to occupy")
    def _update_control(self, hex_id: str | None) -> None:
        """A hex entered or held by units of one side only becomes that side's (the last player to
        occupy it). Every kind of unit counts, AFVs included; a hex with both sides' units (during an
        overrun or an assault) does not change hands; a hex left empty keeps its last occupant."""
        if hex_id is None:
            return
        sides = {u.side for u in self.state.units_at(hex_id)}
        if len(sides) == 1:
            side = next(iter(sides))
            if self.state.control.get(hex_id) != side:
                self.state.control[hex_id] = side
                self._event("control", rule="24.9", hex=hex_id, side=side)

    # ================================================================== views
    def view(self, side: str) -> dict:
        """What ``side`` may know: the state without the opponent's unrevealed mines and without
        the opponent's hidden units (24.2, :meth:`HiddenRules.is_visible_to`)."""
        snap = self._hide_in_view(self.state.snapshot(), side)
        snap["casualty_choice"] = self.casualty_choice(side)  # 17.23 an open choice (None: none)
        self._hide_detachments(snap, side)  # 24.1 special option: secret until the units enter
        self._redact_modes(snap, side)  # 21.0 modes hidden until the MG fires
        snap["mines"] = {h: m for h, m in snap["mines"].items() if m.get("side") == side or m.get("revealed_ap")
                         or m.get("revealed_at")}
        for h, m in list(snap["mines"].items()):
            if m.get("side") != side:
                snap["mines"][h] = {k: v for k, v in m.items() if (k != "ap" or m.get("revealed_ap"))
                                    and (k != "at" or m.get("revealed_at"))}
        return snap
