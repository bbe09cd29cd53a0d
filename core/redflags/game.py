"""The Red Flags and Iron Crosses engine: one game, its legal actions and their effects.

``Game(setup, seed)`` starts at the set-up (r.setup): each side places its units in its zone, the
side named first first. Then turns: the activation cards are shuffled (every shuffle step a logged
die), the top card is turned, the division or group of assets it names is activated and its
owner moves and fires with its units (``legal_actions``) until he ends the activation, the next
card is turned, and the turn ends when every card has been turned (Activation). After the last
turn (or when a side has no combat unit left) the victory conditions give the outcome (r.victory).

``current_side()`` says who decides, ``legal_actions()`` what he may do, ``apply(action)`` checks
it (raising :class:`core.redflags.actions.IllegalAction` with the rule, nothing changed), changes the
state and returns the events. ``events`` are JSON dicts with ``kind``, ``rule``, ``turn`` and
``card``; every die is an event ``{"kind": "roll", "dice": [...], "purpose": ..., "rule": ...}``.
Same seed + same actions = same events.

Movement is in :mod:`.movement`, firing and bombing in :mod:`.combat`.
"""

from __future__ import annotations

import math
from typing import Any

from core.dice import Dice, Roll
from core.redflags.actions import (Action, AirStep, Bomb, Contract, Debus, Embus, EndActivation, Extend, Fire,
                                   IllegalAction, Limber, Move, Place, RemoveWire, Strafe, Unlimber, action_to_json)
from core.redflags.combat import CombatRules
from core.redflags.movement import MovementRules
from core.redflags.scenario import BLACK_SUITS, Setup
from core.redflags.state import COMBAT_KINDS, Unit, other
from core.redflags.tables import OPTIONS, aircraft_table, movement_table, rules_value, weapon_table
from core.redflags.terrain import Sight, Terrain
from core.rule_system import ScenarioError

__all__ = ["Game", "RULES"]

#: Keys every event has; an event's own data never uses them.
_RESERVED = frozenset({"i", "kind", "rule", "turn", "card"})

#: Rule levels (the fragment has one).
RULES = ("standard",)


def event_value(v: Any) -> Any:
    """A JSON snapshot of ``v`` (tuples become lists); raises TypeError for anything else."""
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, dict):
        return {str(k): event_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [event_value(x) for x in v]
    raise TypeError(f"event data must be JSON values, not {type(v).__name__}: {v!r}")


class Game(MovementRules, CombatRules):
    """One game of Red Flags and Iron Crosses (see the module docstring).

    ``rules``: "standard"; ``options``: names of :data:`core.redflags.tables.OPTIONS`. Raises
    ValueError for an unknown rule level or option."""

    rule_system = "redflags"

    def __init__(self, setup: Setup, seed: int, rules: str = "standard", options: tuple[str, ...] = ()):
        if rules not in RULES:
            raise ValueError(f"unknown rules {rules!r}; Red Flags has {', '.join(RULES)}")
        bad = [o for o in options if o not in OPTIONS]
        if bad:
            raise ValueError(f"unknown option(s) {', '.join(bad)}; known: {', '.join(OPTIONS)}")
        self.setup = setup
        self.seed = seed
        self.rules = rules
        self.options = tuple(options)
        sc = setup.scenario
        self.terrain = Terrain(setup.hexmap, setup.area)
        self.sight = Sight(self.terrain)
        self.weapons = weapon_table(tuple(sorted(self.options)))
        self.move_table = movement_table()
        self.hits = {k: v["value"] for k, v in _values("hit_number").items()}
        self.armour = {k: v["value"] for k, v in _values("armour_class").items()}
        self.htd = {k: v["value"] for k, v in _values("hits_to_destroy").items()}
        self.morale = {k: v["value"] for k, v in _values("morale").items()}
        self.capacity = rules_value("hex_capacity")
        self.space = {k: v["value"] for k, v in _values("space").items()}
        self.events: list[dict] = []
        self.actions: list[Action] = []
        self.dice = Dice(seed, on_roll=self._log_roll)
        self.turn_no = 0
        self.game_length = sc.turns
        self.phase = "setup"
        self._outcome: str | None = None
        self.reason = ""
        self.wire: set[str] = set(sc.fortifications.wire)
        self.mines: set[str] = set(sc.fortifications.mines)
        self.objectives: list[str] = list(sc.victory.objectives)
        self.control: dict[str, str | None] = {h: sc.victory.initial_control for h in self.objectives}
        self.units: dict[str, Unit] = {}
        self.groups: dict[tuple[str, str], list[str]] = {}
        self.cards: list[dict] = []
        self._pending_morale: list[str] = []
        self._occ: frozenset[str] | None = None
        self._legal: list[Action] | None = None
        self._build_units()
        self.deck: list[dict] = []
        self.turned: list[dict] = []
        self.card: dict | None = None
        self._decider: str | None = None
        self._setup_queue: list[tuple[str, str]] = []
        for side in (sc.sets_up_first, other(sc.sets_up_first)):
            for u in self.units.values():
                if u.side == side and self._placeable(u):
                    self._setup_queue.append((side, u.uid))
        self._event("game_start", rule="r.setup", seed=seed, rules=rules, options=list(self.options), title=sc.title,
                    turns=sc.turns, objectives=self.objectives, control=dict(self.control))
        self._advance_setup()

    # ================================================================== building
    def _build_units(self) -> None:
        sc = self.setup.scenario
        air = aircraft_table()
        for side in ("german", "russian"):
            spec = sc.side(side)
            for g in spec.groups:
                self.groups[(side, g.name)] = [u.id for u in g.units]
                self.cards.append({"rank": g.card.rank, "suit": g.card.suit, "side": side, "group": g.name,
                                   "label": g.card.label(), "black": g.card.suit in BLACK_SUITS})
                for us in g.units:
                    e = self.setup.roster[us.type]
                    u = Unit(us.id, side, g.name, e.kind, e.id, e.name, us.quality, facing=spec.facing)
                    if e.kind in ("infantry", "engineer", "cavalry") or (e.kind == "recon" and e.recon_mode != "armoured_car"):
                        u.figures = list(e.figures)
                        sup = e.support if us.support is None else (None if us.support == "none" else us.support)
                        u.support, u.support_crew = sup, (1 if sup else 0)
                        if e.kind == "engineer":
                            u.charges = len(u.figures)
                        u.recon_mode = e.recon_mode
                    elif e.kind in ("observer", "commander"):
                        u.figures = ["figure"]
                    elif e.kind == "artillery":
                        u.gun, u.size, u.crew, u.tow, u.limbered = e.gun, e.size, 2, us.tow, us.limbered
                    elif e.kind == "afv" or e.kind == "recon":
                        u.afv_class, u.gun, u.vehicles, u.recon_mode = e.afv_class, e.gun, e.vehicles, e.recon_mode
                    elif e.kind == "transport":
                        u.transport = e.transport
                    elif e.kind == "aircraft":
                        u.role, u.engines = e.role, e.engines or 1
                        u.speed, u.sortie = air[e.role]  # type: ignore[index]
                        u.arrives, u.entry, u.heading = us.arrives, us.entry, us.heading or 1
                        u.status = "waiting"
                        u.bombs = 1 if e.role in ("dive_bomber", "ground_attack", "bomber") else 0
                        u.strafes = (self.weapons["strafing"].uses or 0) if e.role == "fighter" else 0
                    if sc.side(side).dug_in and e.kind in ("infantry", "engineer", "cavalry", "recon", "artillery",
                                                           "observer", "commander") and not u.armoured:
                        u.dug_in = True
                    u.start_strength = u.strength
                    self.units[u.uid] = u
        for s, _g, us, _l in sc.units():
            if us.aboard:
                self.units[us.id].carried_by = us.aboard
                self.units[us.aboard].carrying = us.id
                self.units[us.id].dug_in = False
            if us.tow and us.limbered:
                self.units[us.tow].towing = us.id

    def _placeable(self, u: Unit) -> bool:
        return u.kind != "aircraft" and not u.carried_by and not (u.kind == "artillery" and u.limbered)

    # ================================================================== logging and dice
    def _event(self, kind: str, rule: str = "", **data: Any) -> dict:
        clash = _RESERVED.intersection(data)
        if clash:
            raise ValueError(f"event data may not use the reserved key(s) {', '.join(sorted(clash))}")
        e = {"i": len(self.events), "kind": kind, "rule": rule, "turn": self.turn_no,
             "card": self.card["label"] if self.card else None, **{k: event_value(v) for k, v in data.items()}}
        self.events.append(e)
        return e

    def _log_roll(self, r: Roll) -> None:
        self._event("roll", rule=r.rule, purpose=r.purpose, dice=list(r.dice), total=r.total, roll_index=r.index)

    def roll(self, n: int, purpose: str, rule: str) -> Roll:
        return self.dice.roll(n, purpose, rule)

    # ================================================================== the RuleGame shape
    @property
    def turn(self) -> int:
        """The current turn (1-based; 0 during the set-up; the last turn played once over)."""
        return self.turn_no

    @property
    def outcome(self) -> str | None:
        """"german", "russian" or "draw" once the game is over, else None."""
        return self._outcome

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def current_side(self) -> str | None:
        return None if self.is_terminal() else self._decider

    def apply(self, action: Action) -> list[dict]:
        """Check and apply ``action`` for the deciding side; returns the events it caused. Raises
        :class:`IllegalAction` naming the rule (nothing changed) when it is not legal now."""
        if self.is_terminal():
            raise IllegalAction("r.victory", "the game is over")
        start = len(self.events)
        snapshot = self._snapshot()
        self._legal = None
        self.actions.append(action)
        self._event("action", rule="actions", side=self._decider, action=action_to_json(action))
        try:
            self._apply(action)
        except IllegalAction:
            self._restore(snapshot)
            self.actions.pop()
            del self.events[start:]
            raise
        return self.events[start:]

    def _snapshot(self):
        """What an action may change before it turns out illegal (checks come first; this is a guard)."""
        return (len(self.dice.rolls), self.dice._rng.getstate())

    def _restore(self, snap) -> None:
        n, state = snap
        del self.dice.rolls[n:]
        self.dice._rng.setstate(state)

    def _apply(self, a: Action) -> None:
        if self.phase == "setup":
            if not isinstance(a, Place):
                raise IllegalAction("r.setup", "during the set-up the only action is Place")
            return self._apply_place(a)
        handlers = {Move: self._apply_move, Fire: self._apply_fire, Embus: self._apply_embus, Debus: self._apply_debus,
                    Limber: self._apply_limber, Unlimber: self._apply_limber, RemoveWire: self._apply_remove_wire,
                    Extend: self._apply_extend, Contract: self._apply_contract, AirStep: self._apply_air_step,
                    Bomb: self._apply_air_attack, Strafe: self._apply_air_attack}
        if isinstance(a, EndActivation):
            self._event("activation_end", rule="activation", side=self._decider, group=self.card["group"] if self.card else None)
            self._after_action()
            return self._next_card()
        h = handlers.get(type(a))
        if h is None:
            raise IllegalAction("actions", f"{type(a).__name__} is not an action of the play")
        h(a)  # type: ignore[operator]
        self._legal = None
        self._after_action()
        if not self.is_terminal() and not self._group_can_act():
            self._event("activation_end", rule="activation", side=self._decider, group=self.card["group"], auto=True)
            self._next_card()

    def _after_action(self) -> None:
        self._update_control()
        self._check_sudden_death()

    # ================================================================== queries
    def unit(self, uid: str) -> Unit:
        try:
            return self.units[uid]
        except KeyError:
            raise IllegalAction("units", f"no unit {uid!r} in this game") from None

    def _own_unit(self, uid: str) -> Unit:
        """The unit ``uid`` of the activated group (Activation)."""
        u = self.unit(uid)
        if self.card is None or u.side != self.card["side"] or u.group != self.card["group"]:
            raise IllegalAction("activation", f"{uid} is not in the activated group "
                                              f"({self.card['group'] if self.card else 'none'})")
        return u

    def black_card(self) -> bool:
        """The activation card turned now is black (clubs, spades)."""
        return bool(self.card and self.card["black"])

    def _dirty(self) -> None:
        self._occ = None

    def occupied(self) -> frozenset[str]:
        """Hex ids holding ground units (vertical obstacles for LOS)."""
        if self._occ is None:
            self._occ = frozenset(h for u in self.units.values() if u.ground and u.in_play for h in u.hexes)
        return self._occ

    def los(self, a: str, b: str) -> bool:
        """The Red Flags LOS between two hexes with the units now on the map (General Rules, r.los)."""
        return self.sight.los(a, b, self.occupied())

    def units_in(self, h: str) -> list[Unit]:
        """Ground units in play standing in hex ``h`` (carried units excluded)."""
        return [u for u in self.units.values() if u.ground and u.in_play and h in u.hexes]

    def enemy_in(self, h: str, side: str) -> bool:
        return any(u.side != side for u in self.units_in(h))

    def space_of(self, u: Unit) -> int:
        """Bases ``u`` takes in a hex (r.stacking)."""
        s = self.space
        if u.kind == "aircraft":
            return s["aircraft"]
        if u.armoured:
            return s["afv"] * max(1, u.vehicles)
        if u.kind == "transport":
            return s["transport"]
        if u.kind == "artillery":
            return s["gun"] + u.crew * s["figure"]
        return len(u.figures) * s["figure"] + (s["support_weapon"] + s["figure"] if u.support and u.support_crew else 0)

    def free_space(self, h: str, exclude: str | None = None) -> int:
        """Bases still free in ``h`` (r.stacking; a unit in two hexes takes half in each)."""
        used = 0
        for u in self.units_in(h):
            if u.uid == exclude:
                continue
            sp = self.space_of(u)
            used += math.ceil(sp / 2) if len(u.hexes) == 2 else sp
        return self.capacity - used

    # ================================================================== set-up
    def _advance_setup(self) -> None:
        while self._setup_queue:
            side, uid = self._setup_queue[0]
            fixed = self.setup.fixed.get(uid)
            if fixed is None:
                self._decider = side
                return
            if fixed not in self.place_options(uid):
                raise ScenarioError(f"{self.setup.path}: fixed set-up: {uid} does not fit in {fixed} (its zone, "
                                    f"space for {self.space_of(self.units[uid])} bases, no enemy there; r.stacking)")
            self._setup_queue.pop(0)
            self._place(self.units[uid], fixed, fixed_by_designer=True)
        self._legal = None
        self._decider = None
        self._event("setup_end", rule="r.setup")
        self.phase = "play"
        self._start_turn()

    def place_options(self, uid: str) -> list[str]:
        """Hexes of its zone where ``uid`` may be set up (space and no enemy)."""
        u = self.units[uid]
        need = self.space_of(u) + self._carried_space(u)
        out = []
        for h in sorted(self.setup.zone(u.side)):
            if self.enemy_in(h, u.side) or self.free_space(h) < need:
                continue
            if self.is_vehicle(u) and self.terrain.features[self.terrain.feature(h)]["vehicles"] is False:
                continue
            out.append(h)
        return out

    def _apply_place(self, a: Place) -> None:
        if not self._setup_queue or self._setup_queue[0][1] != a.unit:
            nxt = self._setup_queue[0][1] if self._setup_queue else None
            raise IllegalAction("r.setup", f"the unit to place now is {nxt}, not {a.unit}")
        if a.hex not in self.place_options(a.unit):
            raise IllegalAction("r.setup", f"{a.unit} cannot be set up in {a.hex} (outside its zone or no space)")
        self._setup_queue.pop(0)
        self._place(self.units[a.unit], a.hex)
        self._advance_setup()

    def _place(self, u: Unit, h: str, fixed_by_designer: bool = False) -> None:
        u.hexes = [h]
        if u.kind == "transport" and u.towing:
            self.units[u.towing].hexes = [h]
            self.units[u.towing].facing = u.facing
        self._dirty()
        self._event("place", rule="r.setup", unit=u.uid, side=u.side, hex=h, fixed=fixed_by_designer, dug_in=u.dug_in)

    # ================================================================== turns and cards
    def _start_turn(self) -> None:
        self.turn_no += 1
        for u in self.units.values():
            u.directed = None
        self.card = None
        self._event("turn_start", rule="activation", turn_of=self.game_length)
        deck = list(self.cards)
        for i in range(len(deck) - 1, 0, -1):  # Activation: 'Shuffle the pack of activation cards'
            j = self.dice.choice_index(i + 1, "shuffle the activation cards", "activation")
            deck[i], deck[j] = deck[j], deck[i]
        self.deck = deck
        self.turned = []
        self._event("shuffle", rule="activation", cards=len(deck))
        self._next_card()

    def _next_card(self) -> None:
        while True:
            if self.is_terminal():
                return
            if not self.deck:
                return self._end_turn()
            self.card = self.deck.pop(0)
            self.turned.append(self.card)
            self._decider = self.card["side"]
            self._event("card", rule="activation", side=self.card["side"], group=self.card["group"],
                        suit=self.card["suit"], rank=self.card["rank"], black=self.card["black"])
            self._activate()
            self._legal = None
            if self.is_terminal():
                return
            if self._group_can_act():
                return
            self._event("activation_end", rule="activation", side=self._decider, group=self.card["group"], auto=True)

    def _activate(self) -> None:
        side, group = self.card["side"], self.card["group"]  # type: ignore[index]
        for uid in self.groups[(side, group)]:
            u = self.units[uid]
            if not u.in_play and u.status != "waiting":
                continue
            u.moved = u.fired = u.attacked = False
            u.steps = 0
            if u.enfiladed:  # Firing and bombing: enfiladed 'until they are activated'
                u.enfiladed = False
                self._event("enfilade_ends", rule="fire.initiative", unit=uid)
            if u.status == "shaken":  # r.rally
                u.status = "ok"
                u.moved = u.fired = True
                self._event("rally", rule="r.rally", unit=uid)
            if u.kind == "aircraft":
                if u.status == "waiting" and u.arrives is not None and u.arrives <= self.turn_no:
                    u.status = "ok"
                    u.hexes = [u.entry]  # type: ignore[list-item]
                    u.straight = 0
                    self._event("aircraft_arrives", rule="r.aircraft", unit=uid, hex=u.entry, heading=u.heading,
                                turns=u.sortie, hexes_per_turn=u.speed)
                if u.status == "ok":
                    u.flown += 1
                    if u.flown > u.sortie:  # movement.aircraft: turns over the battlefield
                        self._aircraft_leaves(u, f"its {u.sortie} turns over the battlefield are spent")

    def _group_can_act(self) -> bool:
        return any(not isinstance(a, EndActivation) for a in self.legal_actions())

    def _end_turn(self) -> None:
        self.card = None
        self._update_control()
        held = self.held()
        self._event("turn_end", rule="activation", held=held, standing=self.standing())
        if self.turn_no >= self.game_length:
            outcome = self.standing()
            self._finish(outcome, f"victory conditions at the end of turn {self.turn_no}: "
                                  + ", ".join(f"{s} controls {n} of {len(self.objectives)} objectives" for s, n in held.items()))
            return
        self._start_turn()

    # ================================================================== control and victory
    def _update_control(self) -> None:
        for h in self.objectives:
            sides = {u.side for u in self.units_in(h) if u.kind in COMBAT_KINDS}
            if len(sides) == 1:
                s = next(iter(sides))
                if self.control.get(h) != s:
                    self.control[h] = s
                    self._event("control", rule="r.control", hex=h, side=s)

    def held(self) -> dict[str, int]:
        """Side -> objective hexes it controls now (r.control)."""
        return {s: sum(1 for h in self.objectives if self.control.get(h) == s) for s in ("german", "russian")}

    def standing(self) -> str:
        """The outcome the scenario's results give now (r.victory)."""
        v = self.setup.scenario.victory
        held = self.held()
        for r in v.results:
            if held[r.side] >= r.controls_at_least:
                return r.outcome
        return v.default

    def has_combat_units(self, side: str) -> bool:
        return any(u.side == side and u.kind in COMBAT_KINDS and u.in_play for u in self.units.values())

    def _check_sudden_death(self) -> None:
        if self.is_terminal() or self.phase != "play" or not self.setup.scenario.victory.sudden_death:
            return
        g, r = self.has_combat_units("german"), self.has_combat_units("russian")
        if g and r:
            return
        if not g and not r:
            self._finish("draw", "sudden death: neither side has a combat unit left")
        else:
            loser = "german" if not g else "russian"
            self._finish(other(loser), f"sudden death: the {loser} side has no combat unit left")

    def _finish(self, outcome: str, reason: str) -> None:
        self.phase = "over"
        self._outcome = outcome
        self.reason = reason
        self._decider = None
        self._event("game_over", rule="r.victory", outcome=outcome, reason=reason, held=self.held(),
                    details={"reason": reason})

    # ================================================================== legal actions
    def legal_actions(self) -> list[Action]:
        """What the deciding side may do now, in a fixed order."""
        if self._legal is None:
            self._legal = self._legal_actions()
        return list(self._legal)

    def _legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        if self.phase == "setup":
            side, uid = self._setup_queue[0]
            return [Place(uid, h) for h in self.place_options(uid)]
        if self.card is None:
            return []
        out: list[Action] = []
        for uid in self.groups[(self.card["side"], self.card["group"])]:
            u = self.units[uid]
            if not u.in_play:
                continue
            if u.kind == "aircraft":
                if u.status != "ok" or not u.hexes:
                    continue
                for t in (0, -1, 1):
                    if self._air_step_ok(u, t) is None:
                        out.append(AirStep(uid, t))
                if self._air_attack_ok(u, True) is None:
                    out.append(Bomb(uid))
                if self._air_attack_ok(u, False) is None:
                    out.append(Strafe(uid))
                continue
            if u.status != "ok":
                continue
            if u.carried_by:
                if self._debus_ok(u) is None:
                    out.append(Debus(uid))
                continue
            out.extend(self.fire_options(u))
            if not u.moved:
                out.extend(self._move_actions(u))
                if u.kind in ("infantry", "engineer", "observer", "commander") and len(u.hexes) == 1:
                    for v in self.units_in(u.hexes[0]):
                        if v.kind == "transport" and self._embus_ok(u, v) is None:
                            out.append(Embus(uid, v.uid))
                if u.kind == "artillery":
                    if self._limber_ok(u, True) is None:
                        out.append(Limber(uid))
                    if self._limber_ok(u, False) is None:
                        out.append(Unlimber(uid))
                if u.wire_held and self._remove_wire_ok(u) is None:
                    out.append(RemoveWire(uid))
                if len(u.hexes) == 1 and u.kind in ("infantry", "engineer", "cavalry", "recon", "artillery"):
                    for nb in self._adjacent(u.hexes[0]):
                        if self._extend_ok(u, nb) is None:
                            out.append(Extend(uid, nb))
                if len(u.hexes) == 2:
                    for h in u.hexes:
                        if self._contract_ok(u, h) is None:
                            out.append(Contract(uid, h))
        out.append(EndActivation())
        return out

    def _adjacent(self, h: str) -> list[str]:
        from maps import hexgrid

        hh = self.terrain.hex(h)
        return [n.id for n in hexgrid.neighbours(hh) if 0 <= n.col <= 99 and 0 <= n.row <= 99 and self.terrain.in_area(n.id)]


def _values(name: str) -> dict:
    from core.redflags.tables import _rules_doc

    return _rules_doc()["values"][name]
