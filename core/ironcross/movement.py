"""Movement (8.0), opportunity fire windows (13.0) and mines met on the move (19.2).

Movement is hex by hex (``StartMove`` then ``Step``/``Enter``) so that opportunity fire, mines
and overruns can interrupt it. A mixin of :class:`core.ironcross.game.Game`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.ironcross import combat_tables as ct
from core.ironcross.actions import (
    Action, Enter, Face, IllegalAction, StartMove, Step, StopMove, ToggleState)
from core.ironcross.hex_terrain import in_frontal_area
from core.ironcross.state import Morale, Phase, Unit, other_side
from maps import hexgrid


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


class MovementRules:
    """Movement, facing, state changes during movement, mines and opportunity fire windows."""

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
                    # a led stack that can end its move within the stacking limit (8.62): the
                    # leader and as many of the others as make six men
                    room, take = 6 - ld.men, []
                    for u in led:
                        if u.men <= room and not (u.is_cw and any(t.is_cw for t in take)):
                            take.append(u)
                            room -= u.men
                    if take and ld.id not in self._failed_lead:
                        out.append(StartMove((ld.id,) + tuple(u.id for u in take), leader=ld.id))
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
            # 8.62: never step where the group would be stuck over the stacking limit with no MP left
            left = [0.0 if mv.one_hex[u.id] else mv.mp[u.id] - (self._step_cost(u, frm, to) or 0) for u in able]
            if able and max(left) <= 1e-9 and not self._stack_ok(to, able):
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
            # 3.13 (NORMAL units, 2 MP infantry/CW, 5 MP AFV); 3.27; 11.43 a tank whose commander
            # was killed stays DOWN
            if all(u.normal for u in group) and not any(u.is_afv and u.commander_killed for u in group):
                if all(mv.mp[u.id] >= (5 if u.is_afv else 2) for u in group):
                    out.append(ToggleState())
            if len(group) == 1 and group[0].has_facing and not group[0].immobilized:
                u = group[0]
                for side_ in range(1, 7):
                    if side_ != u.facing and self._facing_cost(u, side_) is not None:
                        out.append(Face(side_))
            if self._stop_ok() or not out:
                out.append(StopMove())  # over the limit only when nothing else is possible (8.62)
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
        if isinstance(a, StopMove):
            if StopMove() not in self._move_actions():
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
        if not self._group():  # every mover fell to the mines: the move is over
            self._event("move_end", rule="19.2", units=[], hex=hex_id)
            self.moving = None
            return
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

