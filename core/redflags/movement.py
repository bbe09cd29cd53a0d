"""Movement of Red Flags and Iron Crosses (Turn Sequence: Movement), a mixin of :class:`~.game.Game`.

Ground units move up to their movement table distance (the maximum; +1 hex with the commander
along, +1 for a complete move along a road); a move with an uphill step is at most 1 hex; an AFV
moving on a hill or in woods moves at most 1 hex; transport on hills or in woods needs a black
card, as does entering or leaving a mined hex; entering a mined hex ends the move (and the
minefield attacks, r.mines); a unit other than an AFV that enters barbed wire stops there and may
not move again until it has removed the wire on a later turn's black card. Troops embus and debus
(the vehicle stays stationary that turn), guns limber and unlimber (it takes a turn), units spread
into a second hex and close up again (General Rules: more than one hex). Aircraft fly hex by hex,
turning 60 degrees after every 2 (single-engined) or 3 (multi-engined) hexes flown straight.
"""

from __future__ import annotations

import math
from collections import deque

from core.redflags.actions import (AirStep, Contract, Debus, Embus, Extend, IllegalAction, Limber, Move, RemoveWire,
                                   Unlimber)
from core.redflags.state import MULTI_HEX_KINDS, TROOP_KINDS, Unit
from core.redflags.tables import rules_value
from maps import hexgrid

__all__ = ["MovementRules"]


class MovementRules:
    """Mixin: reachability, Move and the other movement actions (needs the game's state)."""

    # ------------------------------------------------------------------ what a unit is, for moving
    def is_vehicle(self, u: Unit) -> bool:
        """Vehicles and guns for the terrain mapping (marsh, gully): AFVs, armoured cars,
        transport, artillery, motorcycles."""
        return u.armoured or u.kind in ("transport", "artillery") or (u.kind == "recon" and u.recon_mode == "motorcycle")

    def move_allowance(self, u: Unit, with_commander: bool = False) -> int:
        """Hexes ``u`` may move this turn before the road bonus (Movement table; +1 with the
        commander along or carried, Units: Commander). 0 = it may not move by itself."""
        g = self.move_table["ground"]
        k = u.kind
        if k in ("infantry", "engineer", "cavalry", "observer", "commander"):
            base = g[k]
        elif k == "recon":
            base = self.move_table["recon"][u.recon_mode or "infantry"]
        elif k == "artillery":
            if u.limbered:
                return 0  # moved by its towing vehicle
            base = g["light_artillery"] if u.size == "light" else g["heavy_artillery"]
        elif k == "afv":
            base = g[f"{u.afv_class}_afv"]
        elif k == "transport":
            base = g[f"{u.transport}_transport"]
            if u.carrying and self.units[u.carrying].kind == "commander":
                base += self.move_table["rules"]["commander_bonus"]
        else:
            return 0
        if base == 0:
            return 0
        if with_commander:
            base += self.move_table["rules"]["commander_bonus"]
        return base

    def commander_with(self, u: Unit) -> Unit | None:
        """The side's commander standing in ``u``'s hex, free to go along this turn."""
        if u.kind == "commander" or len(u.hexes) != 1:
            return None
        for c in self.units.values():
            if (c.kind == "commander" and c.side == u.side and c.status == "ok" and c.hexes == u.hexes
                    and c.moved_turn != self.turn_no):
                return c
        return None

    def _blocked_move(self, u: Unit) -> tuple[str, str] | None:
        """(rule, reason) when ``u`` may not move at all now, else None."""
        if u.kind == "aircraft":
            return ("movement.aircraft", "aircraft fly hex by hex (AirStep)")
        if not u.in_play or not u.hexes:
            return ("activation", f"{u.uid} is not on the map")
        if u.status == "shaken":
            return ("r.rally", f"{u.uid} is shaken")
        if u.moved:
            return ("general.move_fire", f"{u.uid} has already moved in this activation")
        if u.kind == "commander" and u.moved_turn == self.turn_no:
            return ("r.commander", f"{u.uid} has moved this turn with a unit")
        if len(u.hexes) > 1:
            return ("r.multi_hex", f"{u.uid} occupies two hexes; it must close up before it moves")
        if u.wire_held:
            return ("movement.wire", f"{u.uid} must remove the barbed wire in {u.hexes[0]} before it can move again")
        if u.kind == "transport" and u.stationary_turn == self.turn_no:
            return ("movement.embus", f"{u.uid} must remain stationary this turn (troops embussed, debussed or a gun was "
                                      "limbered or unlimbered)")
        if u.kind == "artillery" and u.limber_turn == self.turn_no:
            return ("movement.limber", f"{u.uid} is limbering or unlimbering this turn")
        if u.hexes[0] in self.mines and not self.black_card():
            return ("movement.mines", f"{u.uid} must be activated by a black card to leave the mined hex {u.hexes[0]}")
        return None

    def _step(self, u: Unit, a: str, b: str, first: bool) -> tuple[str | None, bool]:
        """Whether ``u`` may step from ``a`` into adjacent ``b``: (rule that forbids it or None,
        the step ends the move)."""
        t = self.terrain
        if not t.in_area(b):
            return ("r.area", False)
        if self.enemy_in(b, u.side):
            return ("r.stacking", False)
        if self.is_vehicle(u) and not t.vehicles_may_enter(a, b):
            return ("r.terrain", False)
        ends = False
        if t.level(b) > t.level(a):  # Movement: uphill at most 1 hex
            if not first:
                return ("movement.uphill", False)
            ends = True
        rough = t.is_hill(a) or t.is_hill(b) or t.woods_for_vehicles(a) or t.woods_for_vehicles(b)
        if u.armoured and rough:
            # Movement: "AFV units may not move more than 1 hex per turn on hills or in woods": one
            # step of the move may start or end on a hill or in woods, the rest of it runs in the
            # open (reading in docs/redflags.md). The move's first step left a hill or woods: that
            # was the one; a step into a hill or woods: any further step would be a second.
            start = u.hexes[0]
            if not first and (t.is_hill(start) or t.woods_for_vehicles(start)):
                return ("movement.afv_hills_woods", False)
            if t.is_hill(b) or t.woods_for_vehicles(b):
                ends = True
        if u.kind == "transport" and not self.black_card() and (
                t.is_hill(a) or t.is_hill(b) or t.woods_for_vehicles(a) or t.woods_for_vehicles(b)):
            return ("movement.transport_hills_woods", False)
        if b in self.mines:
            if not self.black_card():
                return ("movement.mines", False)
            ends = True
        if b in self.wire and not u.armoured:
            ends = True  # r.wire: it must remove the wire before it can move again
        return (None, ends)

    def reachable(self, u: Unit, with_commander: bool = False) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
        """Where ``u`` may move now: ``({hex: path from its hex}, {hex: rule that stops it there})``.

        Shortest legal paths (breadth first, hexsides in order), each at most the allowance, or the
        allowance + 1 when every step runs along a road (Movement: road)."""
        out: dict[str, tuple[str, ...]] = {}
        blocked: dict[str, str] = {}
        if self._blocked_move(u) is not None:
            return out, blocked
        allowance = self.move_allowance(u, with_commander)
        if allowance <= 0:
            return out, blocked
        bonus = self.move_table["rules"]["road_bonus"]
        start = u.hexes[0]
        space = self.space_of(u)
        carry = self._carried_space(u)
        if with_commander:
            com = self.commander_with(u)
            carry += self.space_of(com) if com is not None else 0
        seen: dict[tuple[str, bool], int] = {(start, True): 0}
        queue = deque([(start, (start,), True)])
        t = self.terrain
        while queue:
            h, path, road = queue.popleft()
            steps = len(path) - 1
            hh = t.hex(h)
            for side in hexgrid.HEXSIDES:
                nbh = hexgrid.neighbour(hh, side)
                if not (0 <= nbh.col <= 99 and 0 <= nbh.row <= 99):
                    continue
                nb = nbh.id
                if nb == start or nb in path:
                    continue
                rule, ends = self._step(u, h, nb, steps == 0)
                if rule is not None:
                    blocked.setdefault(nb, rule)
                    continue
                nroad = road and t.road_connected(h, nb)
                if steps + 1 > allowance + (bonus if nroad else 0):
                    blocked.setdefault(nb, "movement")
                    continue
                npath = path + (nb,)
                if nb not in out:
                    if self.free_space(nb, exclude=u.uid) >= space + carry:
                        out[nb] = npath
                    else:
                        blocked.setdefault(nb, "r.stacking")
                if ends:
                    continue
                key = (nb, nroad)
                if seen.get(key, 1 << 30) <= steps + 1:
                    continue
                seen[key] = steps + 1
                queue.append((nb, npath, nroad))
        for h in out:
            blocked.pop(h, None)
        return out, blocked

    def _carried_space(self, u: Unit) -> int:
        """Space of what moves with ``u``: a limbered gun it tows (passengers ride inside)."""
        if u.kind == "transport" and u.towing:
            return self.space_of(self.units[u.towing])
        return 0

    def _move_actions(self, u: Unit) -> list:
        out = []
        dests, _ = self.reachable(u)
        out.extend(Move(u.uid, h) for h in sorted(dests))
        if self.commander_with(u) is not None and u.kind not in ("transport",) and self.move_allowance(u) > 0:
            more, _ = self.reachable(u, with_commander=True)
            out.extend(Move(u.uid, h, True) for h in sorted(more))
        return out

    # ------------------------------------------------------------------ Move
    def _apply_move(self, a: Move) -> None:
        u = self._own_unit(a.unit)
        why = self._blocked_move(u)
        if why is not None:
            raise IllegalAction(*why)
        com = None
        if a.with_commander:
            com = self.commander_with(u)
            if com is None or u.kind == "transport":
                raise IllegalAction("units.commander", f"no commander free to go along with {u.uid} in {u.hexes[0]}")
        dests, blocked = self.reachable(u, with_commander=a.with_commander)
        path = dests.get(a.to)
        if path is None:
            rule = blocked.get(a.to, "movement")
            raise IllegalAction(rule, f"{u.uid} cannot move from {u.hexes[0]} to {a.to} "
                                      f"(allowance {self.move_allowance(u, a.with_commander)} hexes)")
        if com is not None and self.free_space(a.to, exclude=u.uid) < self.space_of(u) + self.space_of(com):
            raise IllegalAction("r.stacking", f"no space in {a.to} for {u.uid} and the commander")
        road = all(self.terrain.road_connected(x, y) for x, y in zip(path, path[1:]))
        self._relocate(u, [a.to])
        u.moved = True
        u.moved_turn = self.turn_no
        u.dug_in = False
        u.facing = hexgrid.hexside_between(self.terrain.hex(path[-2]), self.terrain.hex(path[-1])) or u.facing
        rule = "movement.road" if road and len(path) - 1 > self.move_allowance(u, a.with_commander) else "movement"
        self._event("move", rule=rule, unit=u.uid, path=list(path), hexes=len(path) - 1, facing=u.facing,
                    with_commander=com.uid if com else None)
        if com is not None:
            self._relocate(com, [a.to])
            com.moved_turn = self.turn_no
            com.moved = True
            com.dug_in = False  # r.setup: a unit loses dug in when it moves, the commander going along too
            self._event("move", rule="units.commander", unit=com.uid, path=list(path), hexes=len(path) - 1,
                        facing=com.facing, with_unit=u.uid)
        if u.kind == "transport":
            for other_uid in (u.carrying, u.towing):
                if other_uid:
                    o = self.units[other_uid]
                    o.moved_turn = self.turn_no
                    if o.hexes:
                        self._relocate(o, [a.to])
        if a.to in self.wire and not u.armoured:
            u.wire_held = True
            u.wire_turn = self.turn_no
            self._event("wire", rule="movement.wire", unit=u.uid, hex=a.to)
        if a.to in self.mines:
            self._event("mined_hex", rule="movement.mines", unit=u.uid, hex=a.to)
            self._minefield(u, a.to)

    def _relocate(self, u: Unit, hexes: list[str]) -> None:
        u.hexes = list(hexes)
        if u.kind == "transport" and u.towing:
            g = self.units[u.towing]
            if g.limbered:
                g.hexes = list(hexes)
        self._dirty()

    # ------------------------------------------------------------------ wire
    def _remove_wire_ok(self, u: Unit) -> tuple[str, str] | None:
        if not u.wire_held or not u.hexes:
            return ("movement.wire", f"{u.uid} is not held by barbed wire")
        if u.wire_turn >= self.turn_no:
            return ("movement.wire", f"{u.uid} entered the wire this turn; it removes it next turn")
        if u.moved or u.status != "ok":
            return ("general.move_fire", f"{u.uid} has already moved in this activation")
        if not self.black_card():
            return ("movement.wire", "removing barbed wire needs a black card (clubs, spades)")
        return None

    def _apply_remove_wire(self, a: RemoveWire) -> None:
        u = self._own_unit(a.unit)
        why = self._remove_wire_ok(u)
        if why is not None:
            raise IllegalAction(*why)
        h = u.hexes[0]
        self.wire.discard(h)
        u.moved = True
        for o in self.units.values():
            if o.wire_held and h in o.hexes:
                o.wire_held = False
        self._event("wire_removed", rule="movement.wire", unit=u.uid, hex=h)

    # ------------------------------------------------------------------ embus / debus
    def _embus_ok(self, u: Unit, v: Unit) -> tuple[str, str] | None:
        if u.kind not in TROOP_KINDS or u.carried_by or not u.hexes or len(u.hexes) != 1:
            return ("units.transport", f"{u.uid} cannot embus (an infantry or engineer unit, an observer or a commander "
                                       "in one hex)")
        if u.moved or u.status != "ok" or u.wire_held:
            return ("general.move_fire", f"{u.uid} cannot move now")
        if v.kind != "transport" or v.transport != "motor" or v.side != u.side or not v.on_map:
            return ("units.transport", f"{v.uid} is not a motorized transport of the side")
        if v.hexes != u.hexes:
            return ("movement.embus", f"{u.uid} and {v.uid} are not in the same hex")
        if v.carrying or v.towing:
            return ("units.transport", f"{v.uid} already carries or tows a unit")
        if v.moved_turn == self.turn_no:
            return ("movement.embus", f"{v.uid} has moved this turn; the vehicle must remain stationary during the turn")
        return None

    def _apply_embus(self, a: Embus) -> None:
        u = self._own_unit(a.unit)
        v = self.unit(a.vehicle)
        why = self._embus_ok(u, v)
        if why is not None:
            raise IllegalAction(*why)
        h = u.hexes[0]
        u.hexes = []
        u.carried_by = v.uid
        u.moved = True
        u.moved_turn = self.turn_no
        u.dug_in = False
        v.carrying = u.uid
        v.stationary_turn = self.turn_no
        self._dirty()
        self._event("embus", rule="movement.embus", unit=u.uid, vehicle=v.uid, hex=h)

    def _debus_ok(self, u: Unit) -> tuple[str, str] | None:
        if not u.carried_by:
            return ("movement.embus", f"{u.uid} is not aboard a vehicle")
        if u.moved or u.status != "ok":
            return ("general.move_fire", f"{u.uid} cannot move now")
        v = self.units[u.carried_by]
        if v.moved_turn == self.turn_no:
            return ("movement.embus", f"{v.uid} has moved this turn; the vehicle must remain stationary during the turn")
        if self.free_space(v.hexes[0]) < self.space_of(u):
            return ("r.stacking", f"no space in {v.hexes[0]} for {u.uid}")
        return None

    def _apply_debus(self, a: Debus) -> None:
        u = self._own_unit(a.unit)
        why = self._debus_ok(u)
        if why is not None:
            raise IllegalAction(*why)
        v = self.units[u.carried_by]  # type: ignore[index]
        self._set_down(u, v)
        u.moved = True
        u.moved_turn = self.turn_no
        v.stationary_turn = self.turn_no
        self._event("debus", rule="movement.embus", unit=u.uid, vehicle=v.uid, hex=v.hexes[0])

    def _set_down(self, u: Unit, v: Unit) -> None:
        u.hexes = list(v.hexes[:1])
        u.carried_by = None
        u.facing = v.facing
        v.carrying = None
        self._dirty()

    # ------------------------------------------------------------------ limber / unlimber
    def _limber_ok(self, u: Unit, limber: bool) -> tuple[str, str] | None:
        if u.kind != "artillery" or not u.tow:
            return ("movement.limber", f"{u.uid} is not a towed artillery unit")
        if u.status != "ok" or u.moved or u.fired:
            return ("general.move_fire", f"{u.uid} has already acted in this activation")
        if u.limber_turn == self.turn_no:
            return ("movement.limber", f"{u.uid} has limbered or unlimbered this turn")
        v = self.units[u.tow]
        if not v.on_map:
            return ("movement.limber", f"its towing vehicle {v.uid} is not on the map")
        if limber:
            if u.limbered:
                return ("movement.limber", f"{u.uid} is already limbered")
            if len(u.hexes) != 1 or v.hexes != u.hexes:
                return ("movement.limber", f"{u.uid} and its towing vehicle {v.uid} are not together in one hex")
            if v.carrying or v.towing:
                return ("units.transport", f"{v.uid} already carries or tows a unit")
            if v.moved_turn == self.turn_no:
                return ("movement.limber", f"{v.uid} has moved this turn")
        else:
            if not u.limbered:
                return ("movement.limber", f"{u.uid} is not limbered")
            if v.moved_turn == self.turn_no:
                return ("movement.limber", f"{v.uid} has moved this turn")
        return None

    def _apply_limber(self, a: Limber | Unlimber) -> None:
        u = self._own_unit(a.unit)
        limber = isinstance(a, Limber)
        why = self._limber_ok(u, limber)
        if why is not None:
            raise IllegalAction(*why)
        v = self.units[u.tow]  # type: ignore[index]
        u.limbered = limber
        u.limber_turn = self.turn_no
        u.moved = u.fired = True
        u.dug_in = False
        v.towing = u.uid if limber else None
        v.stationary_turn = self.turn_no
        self._dirty()
        self._event("limber" if limber else "unlimber", rule="movement.limber", unit=u.uid, vehicle=v.uid,
                    hex=u.hexes[0] if u.hexes else None)

    # ------------------------------------------------------------------ two hexes
    def _extend_ok(self, u: Unit, h: str) -> tuple[str, str] | None:
        if u.kind not in MULTI_HEX_KINDS or (u.kind == "artillery" and not u.tow) or u.armoured:
            return ("general.multi_hex", f"a {u.kind} unit cannot occupy more than one hex")
        why = self._blocked_move(u)
        if why is not None:
            return why
        if u.kind == "artillery" and u.limbered:
            return ("movement.limber", f"{u.uid} is limbered")
        a = u.hexes[0]
        if hexgrid.distance(self.terrain.hex(a), self.terrain.hex(h)) != 1:
            return ("r.multi_hex", f"{h} does not adjoin {a}")
        rule, _ends = self._step(u, a, h, True)
        if rule is not None:
            return (rule, f"{u.uid} cannot extend from {a} into {h}")
        half = math.ceil(self.space_of(u) / 2)
        if self.free_space(h) < half:
            return ("r.stacking", f"no space in {h} for half of {u.uid}")
        return None

    def _apply_extend(self, a: Extend) -> None:
        u = self._own_unit(a.unit)
        why = self._extend_ok(u, a.hex)
        if why is not None:
            raise IllegalAction(*why)
        self._relocate(u, [u.hexes[0], a.hex])
        u.moved = True
        u.moved_turn = self.turn_no
        u.dug_in = False
        self._event("extend", rule="general.multi_hex", unit=u.uid, hexes=list(u.hexes))
        if a.hex in self.wire and not u.armoured:
            u.wire_held = True
            u.wire_turn = self.turn_no
            self._event("wire", rule="movement.wire", unit=u.uid, hex=a.hex)
        if a.hex in self.mines:
            self._event("mined_hex", rule="movement.mines", unit=u.uid, hex=a.hex)
            self._minefield(u, a.hex)

    def _contract_ok(self, u: Unit, h: str) -> tuple[str, str] | None:
        if len(u.hexes) != 2 or h not in u.hexes:
            return ("r.multi_hex", f"{u.uid} does not occupy two hexes including {h}")
        if u.moved or u.status != "ok":
            return ("general.move_fire", f"{u.uid} cannot move now")
        other = u.hexes[1] if u.hexes[0] == h else u.hexes[0]
        if u.wire_held:
            return ("movement.wire", f"{u.uid} must remove the barbed wire first")
        if other in self.mines and not self.black_card():
            return ("movement.mines", f"leaving the mined hex {other} needs a black card")
        if self.free_space(h, exclude=u.uid) < self.space_of(u):
            return ("r.stacking", f"no space in {h} for all of {u.uid}")
        return None

    def _apply_contract(self, a: Contract) -> None:
        u = self._own_unit(a.unit)
        why = self._contract_ok(u, a.hex)
        if why is not None:
            raise IllegalAction(*why)
        self._relocate(u, [a.hex])
        u.moved = True
        u.moved_turn = self.turn_no
        self._event("contract", rule="r.multi_hex", unit=u.uid, hex=a.hex)

    # ------------------------------------------------------------------ aircraft
    def turn_every(self, u: Unit) -> int:
        """Hexes an aircraft flies straight before it may turn 60 degrees (Movement)."""
        every = self.move_table["rules"]["aircraft_turn_every"]
        return every["single"] if u.engines <= 1 else every["multi"]

    def _air_step_ok(self, u: Unit, turn: int) -> tuple[str, str] | None:
        if u.kind != "aircraft" or u.status != "ok" or not u.hexes:
            return ("movement.aircraft", f"{u.uid} is not an aircraft over the battlefield")
        if turn not in (-1, 0, 1):
            return ("movement.aircraft", "an aircraft turns 60 degrees at a time (-1, 0 or +1)")
        if u.steps >= u.speed:
            return ("movement.aircraft", f"{u.uid} has flown its {u.speed} hexes this turn")
        if turn and u.straight < self.turn_every(u):
            return ("movement.aircraft", f"{u.uid} may turn 60 degrees only after {self.turn_every(u)} hexes straight "
                                         f"(flown {u.straight})")
        return None

    def _apply_air_step(self, a: AirStep) -> None:
        u = self._own_unit(a.unit)
        why = self._air_step_ok(u, a.turn)
        if why is not None:
            raise IllegalAction(*why)
        if a.turn:
            u.heading = (u.heading - 1 + a.turn) % 6 + 1
            u.straight = 0
        nxt = self.terrain.in_front(u.hexes[0], u.heading, (0,))
        u.steps += 1
        u.straight += 1
        if nxt is None or not self.terrain.in_area(nxt):
            self._event("air_step", rule="movement.aircraft", unit=u.uid, turned=a.turn, heading=u.heading,
                        hex=nxt, left=True)
            self._aircraft_leaves(u, "flew off the battlefield")
            return
        u.hexes = [nxt]
        self._event("air_step", rule="movement.aircraft", unit=u.uid, turned=a.turn, heading=u.heading, hex=nxt)

    def _aircraft_leaves(self, u: Unit, why: str) -> None:
        u.status = "gone"
        u.hexes = []
        self._event("aircraft_leaves", rule="r.aircraft", unit=u.uid, reason=why)
