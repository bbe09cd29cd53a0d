"""Movement (8.0), opportunity fire windows (13.0), mines met on the move (19.2), pushing wrecks
(8.65) and crew replacements (20.0).

Movement is hex by hex (``StartMove`` then ``Step``/``Enter``/``Overrun`` per hex) so that
opportunity fire, mines and overruns can interrupt it. A mixin of
:class:`core.ironcross.game.Game`; overruns (9.0) are in :mod:`core.ironcross.overrun`.
Readings of unclear clauses are listed in ``docs/rules-interpretations.md`` ("Movement,
overruns, opportunity fire").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.ironcross import combat_tables as ct
from core.ironcross.actions import (
    Action, CrewReplacement, Enter, Face, Halt, IllegalAction, Overrun, PushWreck, StartMove, Step, StopMove,
    ToggleState)
from core.ironcross.hex_terrain import in_frontal_area
from core.ironcross.state import Morale, Phase, Unit, other_side, stacking_problem, unit_changes
from maps import hexgrid


@dataclass
class MoveContext:
    """The group moving now: units, MPs left each, hexes entered, and how the move started.

    ``leader``: the leader the group moves with (8.3 B); ``afv``: the AFV infantry accompany
    (8.4); ``free_turn``: the AFV's free one-hexside facing change is still available in this
    hex (8.74); ``overrun_from``: the hex the AFV overran and must now leave (9.0)."""

    units: list[str]
    mp: dict[str, float]
    one_hex: dict[str, bool]
    hexes_moved: int = 0
    leader: str | None = None
    afv: str | None = None
    entering: bool = False
    free_turn: bool = True
    path: list[str] = field(default_factory=list)
    overrun_from: str | None = None
    morale0: dict[str, str] = field(default_factory=dict)


@dataclass
class OpportunityWindow:
    """The opponent of the moving side may opportunity-fire at ``hex`` (13.0) before movement goes on."""

    side: str
    hex: str


class MovementRules:
    """Movement, facing, state changes during movement, stacking (8.6), mines, opportunity fire
    windows, and the end-of-Movement-Phase steps (8.65, 20.0)."""

    # ================================================================== per-phase bookkeeping
    def _mph(self) -> dict:
        """State that lasts one movement phase: leaders who passed their PC per hex (8.3 C), hexes
        whose special AT fire was used (9.2 A), whether end-of-phase steps began (8.65, 20.1)."""
        key = (self.state.player_turn, self.state.phase)
        ps = getattr(self, "_mv_phase", None)
        if ps is None or ps["key"] != key:
            ps = {"key": key, "lead": {}, "failed_lead": set(), "overrun_at": set(), "end_steps": False}
            self._mv_phase = ps
        return ps

    def _stack_key(self, u: Unit) -> str:
        """The hex of ``u``, or its entry group while it waits off the map (24.1)."""
        return u.hex if u.entered else f"entry:{self._entry_of[u.id].group}"

    def _stack_of(self, u: Unit) -> list[Unit]:
        """``u``'s side's units stacked with it (or entering with it)."""
        k = self._stack_key(u)
        return [x for x in self.state.units_of(u.side) if not x.eliminated and (x.hex is not None or not x.entered)
                and self._stack_key(x) == k]

    # ================================================================== allowances (8.1)
    def _allowance(self, u: Unit, reaction: bool) -> tuple[float, bool]:
        """(movement points, one-hex-only) for ``u`` (8.1 and the Movement Point Allowance Chart)."""
        if u.morale is Morale.SUPPRESSED or u.immobilized:
            return (0, False)  # 8.15; 8.54/8.55 immobilized AFVs
        if u.support_fired and not reaction:
            return (0, False)  # 8.21 no movement out of the hex (an MG may still turn, 8.73)
        if u.is_afv:
            ma = 12 if u.weapon.upper().startswith("BT7") else 10  # 8.13 (BT7M exception)
            return (ma / 2, False) if reaction else (ma, False)
        if u.is_cw:
            if u.ma == 0 or not u.full_crew:
                return (0, False)  # 8.12: MA 0 or not fully crewed: never
            if u.morale is Morale.PINNED:
                return (0, False) if reaction else (0, True)  # 8.12 PINNED: one hex / none
            return (0, True) if reaction else (u.ma, False)  # 8.12
        if u.is_ft:
            if u.morale is Morale.PINNED:
                return (0, False) if reaction else (0, True)  # 8.14 PINNED: one hex / none
            return (2, False) if reaction else (4, False)  # 8.14
        if u.morale is Morale.PINNED:
            return (0, True) if reaction else (3, False)  # 8.11 PINNED: 3 MP / one hex
        return (3, False) if reaction else (6, False)  # 8.11

    def _can_turn(self, u: Unit, reaction: bool) -> bool:
        """May ``u`` change facing (8.71-8.75) although it may not leave its hex? MGs whatever their
        crew (8.73) and ATGs with 3-4 crew that have not fired (8.72); SUPPRESSED units never
        (8.15), PINNED CWs not in the Reaction Movement Phase (8.12)."""
        if not u.has_facing or u.is_afv or u.morale is Morale.SUPPRESSED:
            return False
        if u.is_cw and u.morale is Morale.PINNED and reaction:
            return False
        if u.is_atg:
            return u.crew >= 3 and not u.fired  # 8.72
        return u.is_mg  # 8.73

    def _can_start_moving(self, u: Unit, reaction: bool) -> bool:
        s = self.state
        if u.eliminated or u.moved or u.reaction_moved:
            return False  # 4.0: attempted counts as performed
        if u.side != self._decider:
            return False
        if not u.entered:
            e = self._entry_of.get(u.id)
            if not self._entry_open(e, u):
                return False
            if u.hex is not None:
                return False
        elif u.hex is None:
            return False  # off the map (e.g. a crew replacement, 20.1)
        if not reaction and (u.support_fired or u.fired) and not u.is_mg:
            return False  # 8.21 (8.73: an MG that fired may still change facing, alone, below)
        first = self.setup.no_move_before.get(u.id)
        if first is not None and s.turn < first:
            return False
        mp, one = self._allowance(u, reaction)
        return mp > 0 or one or (u.entered and self._can_turn(u, reaction))

    def _entry_open(self, e, u: Unit) -> bool:
        """24.1: may ``u``, waiting off the map with entry ``e``, enter now? Units entering during
        the game do so in their side's Movement Phase, or in the phase the scenario names (Scenario
        5's T-34a: the Reaction Movement Phase), on the turn listed **or any later turn**: the turn
        listed is the first on which they may enter, not the only one (a failed PC only delays them)."""
        s = self.state
        return e is not None and e.side == u.side and s.turn >= e.turn and s.phase is e.phase

    # ================================================================== starting a move (8.0, 8.2-8.4)
    @staticmethod
    def _stage_of(units: list[Unit]) -> int:
        """8.0 movement sequence: 0 AFVs alone, 1 AFV/infantry stacks, 2 all other units."""
        if any(u.is_afv for u in units):
            return 0 if len(units) == 1 else 1
        return 2

    def _start_move_actions(self, side: str, stack: str | None = None) -> list[Action]:
        """The StartMove actions of ``side`` now (8.0-8.4), then its end-of-phase steps (8.65,
        20.1). ``stack``: only the StartMoves of the units of that stack (:meth:`_stack_key`),
        and no end-of-phase steps: every listed StartMove names units of one stack, so an action
        whose first unit stands there is listed in full exactly when it is listed here."""
        s = self.state
        reaction = s.phase is Phase.REACTION_MOVEMENT
        ps = self._mph()
        out: list[Action] = []
        if ps["end_steps"]:
            return self._end_step_actions(side) if stack is None else []
        movers = [u for u in s.units_of(side) if self._can_start_moving(u, reaction)]
        if stack is not None:
            movers = [u for u in movers if self._stack_key(u) == stack]
        # 8.21 / 8.73: an MG that fired in the Support Fire Phase only changes facing, on its own
        turners = [u for u in movers if u.support_fired and not reaction]
        movers = [u for u in movers if u not in turners]
        out.extend(StartMove((u.id,)) for u in sorted(turners, key=lambda x: x.id))
        stage = self._movement_stage
        by_hex: dict[str, list[Unit]] = {}
        for u in movers:
            by_hex.setdefault(self._stack_key(u), []).append(u)
        for hx, group in sorted(by_hex.items(), key=lambda kv: str(kv[0])):
            group = sorted(group, key=lambda x: x.id)
            afvs = [u for u in group if u.is_afv]
            others = [u for u in group if not u.is_afv]
            on_map = not hx.startswith("entry:")
            if stage <= 0:  # 8.0 first: AFVs alone
                out.extend(StartMove((u.id,)) for u in afvs)
            # 8.0 second: AFV/infantry stacks (8.41), leader-directed with the AFV (8.42); 8.44 no CWs
            inf = [u for u in others if u.is_infantry and u.normal and self._allowance(u, reaction)[0] > 0]
            if stage <= 1 and on_map and inf:
                for a_ in afvs:
                    if self._allowance(a_, reaction)[0] <= 0:
                        continue
                    if any(u.is_commander for u in inf):
                        out.append(StartMove((a_.id,) + tuple(u.id for u in inf)))
                    else:
                        squads: dict[str | None, list[Unit]] = {}
                        for u in inf:
                            squads.setdefault(u.squad, []).append(u)
                        for sq in sorted(squads, key=str):
                            out.append(StartMove((a_.id,) + tuple(u.id for u in squads[sq])))
                    for ld in inf:
                        led = [u for u in inf if u is not ld and ld.is_leader_for(u)]
                        if led and ld.id not in ps["failed_lead"]:
                            out.append(StartMove((a_.id, ld.id) + tuple(u.id for u in led), leader=ld.id))
            if stage <= 2:  # 8.0 third: all other infantry and CW units
                out.extend(StartMove((u.id,)) for u in others)
                for ld in others:  # 8.3 leader-directed movement
                    if not ld.is_infantry or not ld.normal or ld.id in ps["failed_lead"]:
                        continue
                    led = [u for u in others if u is not ld and ld.is_leader_for(u) and u.normal
                           and (u.is_infantry or u.is_cw)]  # 8.31
                    if led:
                        for grp in self._groups_within_limit(ld, led):  # 8.62: a group that can end a move
                            out.append(StartMove((ld.id,) + tuple(u.id for u in grp), leader=ld.id))
                        out.append(StartMove((ld.id,), leader=ld.id))  # 8.3 C: the leader may stay
                        if len(led) > 1:
                            out.extend(StartMove((ld.id, u.id), leader=ld.id) for u in led)  # 8.32
                info = ps["lead"].get(hx)
                if info is not None:  # 8.3 C: units moving apart from the leader, with his PR
                    lid, _pr, eligible = info
                    cands = [u for u in others if u.id in eligible and u.id != lid and u.normal]
                    out.extend(StartMove((u.id,), directed_by=lid) for u in cands)
                    sq = [u for u in cands if u.is_infantry]
                    if len(sq) > 1 and len({u.squad for u in sq}) == 1 and stacking_problem(sq) is None:
                        out.append(StartMove(tuple(u.id for u in sq), directed_by=lid))
        if stack is None:
            out.extend(self._end_step_actions(side))
        return out

    @staticmethod
    def _groups_within_limit(ld: Unit, led: list[Unit]) -> list[list[Unit]]:
        """The groups ``ld`` is offered to lead (8.3 B): all of ``led`` when leader and led fit in one
        hex (8.61-8.63); else, since such a group could never end its move together, each squad's
        men that fit with him, then the first men (by id) that fit, CWs last. Subsets of a stack
        are always allowed (8.32); these are the representative ones listed."""
        if stacking_problem([ld] + led) is None:
            return [led]
        out: list[list[Unit]] = []
        squads: dict[str | None, list[Unit]] = {}
        for u in led:
            squads.setdefault(u.squad if u.is_infantry else None, []).append(u)
        for sq in sorted(squads, key=str):
            if sq is not None and stacking_problem([ld] + squads[sq]) is None:
                out.append(squads[sq])
        greedy: list[Unit] = []
        for u in sorted(led, key=lambda x: (x.is_cw, x.id)):
            if stacking_problem([ld] + greedy + [u]) is None:
                greedy.append(u)
        if greedy and greedy not in out:
            out.append(greedy)
        return out

    def _check_start(self, a: StartMove) -> None:
        """Refuse a StartMove the rules forbid (any subset of a stack may be named, 8.32)."""
        s = self.state
        reaction = s.phase is Phase.REACTION_MOVEMENT
        # a listed StartMove is headed by a unit that may start moving: only its stack's are made
        first = s.units.get(a.units[0]) if a.units and isinstance(a.units[0], str) else None
        if first is not None and self._can_start_moving(first, reaction) and \
                a in self._start_move_actions(self._decider, self._stack_key(first)):
            return
        ps = self._mph()
        if ps["end_steps"]:
            raise IllegalAction("8.65", "the end-of-phase steps have begun: no more movement")
        if not a.units or len(set(a.units)) != len(a.units):
            raise IllegalAction("8.0", "name each moving unit once")
        units = [self.unit(x) for x in a.units]
        for u in units:
            if u.side != self._decider:
                raise IllegalAction("8.0", f"{u.id} is not yours to move now")
            if u.support_fired or (u.fired and not reaction):
                raise IllegalAction("8.21", f"{u.id} fired in the Support Fire Phase")
            if u.moved or u.reaction_moved:
                raise IllegalAction("4.0", f"{u.id} has already moved (attempted counts as performed)")
            if not self._can_start_moving(u, reaction):
                raise IllegalAction("8.1", f"{u.id} has no movement allowance now")
        if len({self._stack_key(u) for u in units}) > 1:
            raise IllegalAction("8.3", "units moving together must start stacked")
        afvs = [u for u in units if u.is_afv]
        if self._stage_of(units) < self._movement_stage:
            raise IllegalAction("8.0", "movement order: AFVs alone, then AFV/infantry stacks, then the rest")
        if len(afvs) > 1:
            raise IllegalAction("8.61", "two AFVs never move as one stack")
        if afvs and any(u.is_cw for u in units):
            raise IllegalAction("8.44", "CW units may not move with AFVs")
        others = [u for u in units if not u.is_afv]
        if a.leader is not None:
            ld = self.unit(a.leader)
            if ld not in units:
                raise IllegalAction("8.3 B", "the leader moves with the units he leads")
            if ld.id in ps["failed_lead"]:
                raise IllegalAction("8.3 A", f"{ld.id} failed his leader PC this phase")
            for u in others:
                if u is not ld and not (ld.is_leader_for(u) and u.normal and (u.is_infantry or u.is_cw)):
                    raise IllegalAction("8.31", f"{ld.id} may not lead {u.id}")
            return
        if a.directed_by is not None:
            info = ps["lead"].get(self._stack_key(units[0]))
            if info is None or info[0] != a.directed_by:
                raise IllegalAction("8.3 C", f"{a.directed_by} has not passed a leader PC in this hex")
            for u in units:
                if u.id not in info[2] or not u.normal or u.is_afv:
                    raise IllegalAction("8.31", f"{u.id} may not use {a.directed_by}'s PR")
            if len({u.squad for u in units if u.is_infantry}) > 1:
                raise IllegalAction("8.64", "units of different squads move together only with a commander")
            return
        if afvs and others:
            if any(not (u.is_infantry and u.normal) for u in others):
                raise IllegalAction("8.41", "only NORMAL infantry accompany an AFV")
            if not any(u.is_commander for u in others) and len({u.squad for u in others}) > 1:
                raise IllegalAction("8.64", "units of different squads move together only with a commander")
            return
        raise IllegalAction("8.0", "units move individually except with a leader (8.3) or an AFV (8.4)")

    def _start_move(self, a: StartMove) -> None:
        s = self.state
        reaction = s.phase is Phase.REACTION_MOVEMENT
        self._check_start(a)
        ps = self._mph()
        units = [self.units[u] for u in a.units]
        self._movement_stage = max(self._movement_stage, self._stage_of(units))
        need_pc = not self._exempt_from_movement_pc()
        hx = units[0].hex
        key = self._stack_key(units[0])
        afv = next((u for u in units if u.is_afv), None)
        movers: list[Unit] = []
        directed = False

        def fail(us: list[Unit], rule: str) -> None:
            for u in us:
                self._mark_moved(u, reaction)
            self._event("move_failed", rule=rule, units=[u.id for u in us])

        def lead_ok(ld: Unit, rule: str) -> bool:
            """8.3 A/B: the leader's PC; on a failure nobody else in the hex may move."""
            stack = self._stack_of(ld)
            eligible = frozenset(x.id for x in stack if x is not ld and x.normal
                                 and (x.is_infantry or x.is_cw) and ld.is_leader_for(x))
            if need_pc and not self.pc(ld, "leader directed movement", rule):
                ps["failed_lead"].add(ld.id)
                # 8.3 A: nobody in his hex moves; off the map (24.1) there is no hex: only the units
                # the PC covered have moved, and they may enter in a later phase
                covered = stack if ld.entered else units
                fail([x for x in covered if not x.is_afv and not x.moved], "8.3 A")
                return False
            ps["lead"][key] = (ld.id, ld.pr, eligible)  # his PR stays usable (8.3 example)
            return True

        if afv is not None and len(units) > 1:
            # 8.41 the AFV's PC, then a regular PC for each infantry unit; 8.42 or the leader's
            if need_pc and not self.pc(afv, "movement", "8.22"):
                return fail([afv], "8.22")
            movers = [afv]
            inf = [u for u in units if u is not afv]
            if a.leader is not None:
                if lead_ok(self.units[a.leader], "8.42"):
                    movers += inf
            else:
                for u in inf:
                    if not need_pc or self.pc(u, f"accompany {afv.id}", "8.41"):
                        movers.append(u)
                    else:
                        fail([u], "8.41")
        elif a.leader is not None:
            if not lead_ok(self.units[a.leader], "8.3 A"):
                return
            movers = units
        elif a.directed_by is not None:
            _lid, pr, _el = ps["lead"][key]
            # 8.3 C: one modified PC (+2) with the leader's PR for a unit or a group moving together
            if need_pc and not self.pc(units[0], f"directed by {a.directed_by}", "8.3 C", modifier=2, pr=pr):
                return fail(units, "8.3 C")
            movers = units
            directed = True
        else:
            u = units[0]
            if need_pc and not self.pc(u, "movement", "8.22"):
                return fail([u], "8.22")
            movers = [u]
        mp: dict[str, float] = {}
        one: dict[str, bool] = {}
        for u in movers:
            m, o = self._allowance(u, reaction)
            if directed:
                m = min(m, 2 if reaction else 4)  # 8.3 C
            mp[u.id], one[u.id] = m, o
            self._mark_moved(u, reaction)
        afv_id = afv.id if afv is not None and afv in movers and len(movers) > 1 else None
        leader = a.leader if a.leader and (afv is None or len(movers) > 1) else None
        self.moving = MoveContext([u.id for u in movers], mp, one, leader=leader, afv=afv_id,
                                  entering=not movers[0].entered, path=[hx] if hx else [],
                                  morale0={u.id: u.morale.value for u in movers})
        if afv_id:
            for u in movers:
                if u.is_infantry:
                    u.moved_with_afv = afv_id  # 11.33
        self._event("move_start", rule="8.0", units=[u.id for u in movers], leader=a.leader,
                    directed_by=a.directed_by, mp=mp)

    def _mark_moved(self, u: Unit, reaction: bool) -> None:
        u.moved = True
        if reaction:
            u.reaction_moved = True
        self._note_moved(u)  # 23.2 history (advanced rules)

    def _exempt_from_movement_pc(self) -> bool:
        """8.22 exception: no movement PCs until the first shot; from the next Phasing Player on."""
        s = self.state
        if s.movement_pcs_from_player_turn is None:
            return True
        return s.player_turn < s.movement_pcs_from_player_turn

    def _group(self) -> list[Unit]:
        assert self.moving is not None
        return [self.units[u] for u in self.moving.units if not self.units[u].eliminated]

    # ================================================================== hex to hex (8.5, 8.6)
    def _step_cost(self, u: Unit, frm: str | None, to: str) -> float | None:
        """8.5: terrain cost by UP/DOWN (8.51), road rate for NORMAL UP units along the road
        (8.52), +1 uphill (8.53); entering from off the map: the hex's own cost."""
        if frm is None:
            return self.terrain.entry_cost(to, "afv" if u.is_afv else "infantry", u.down)
        return self._cost_as(u, u.down, frm, to)

    def _can_enter(self, units: list[Unit], to: str) -> tuple[bool, str, str]:
        side = units[0].side
        h = hexgrid.parse_hex_id(to)
        if not self.map.contains(h):
            return (False, "2.1", "off the map")
        if self.enemy_in(to, side):
            return (False, "8.23", "only an overrunning AFV (Overrun) may enter an enemy-occupied hex")
        if any(u.is_afv for u in units):
            if self.state.wrecks.get(to):
                return (False, "12.4", "AFVs may not enter a hex containing a Wreck")
            ids = {u.id for u in units}
            if any(x.is_afv and x.id not in ids for x in self.state.units_at(to)):
                return (False, "8.61", "an AFV may not enter a hex containing another AFV")
        return (True, "", "")

    def _able_to_enter(self, u: Unit, frm: str | None, to: str, extra: float = 0) -> bool:
        mv = self.moving
        cost = self._step_cost(u, frm, to)
        if cost is None:
            return False
        if mv.one_hex[u.id]:
            return mv.hexes_moved == 0  # 8.11, 8.12, 8.14: one hex regardless of terrain costs
        return cost + extra <= mv.mp[u.id] + 1e-9

    def _move_options(self) -> list[tuple[str, list[Unit]]]:
        """(hex, units able to enter it) for each hex the group may step or enter into next and
        from which a stop within the stacking limit stays reachable (8.62, :meth:`_step_keeps_a_stop`).
        Cached per state of the move (the legal actions and ``apply`` ask for it several times)."""
        c = self._stack_ctx()
        if c["opts"] is None:
            c["opts"] = [(to, able) for to, able in self._raw_move_options() if self._step_keeps_a_stop(c, to, able)]
        return c["opts"]

    def _raw_move_options(self) -> list[tuple[str, list[Unit]]]:
        """(hex, units able to enter it) for each hex the group may step or enter into next, by
        terrain, MPs and the 8.3 B / 8.43 following rules only (no stacking look-ahead)."""
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
            cands = self._nbrs(frm)  # the neighbours in the playing area, in hexside order
        out = []
        for to in cands:
            ok, _, _ = self._can_enter(group, to)
            if not ok:
                continue
            able = [u for u in group if self._able_to_enter(u, frm, to)]
            # a leader stack follows its leader (8.3 B), an AFV stack its AFV (8.41, 8.43): those
            # that cannot follow stop; other groups (8.3 C) move together or not at all
            if mv.leader and self.units[mv.leader] not in able:
                continue
            if mv.afv and self.units[mv.afv] not in able:
                continue
            if not mv.leader and not mv.afv and len(able) != len(group):
                continue
            if able:
                out.append((to, able))
        return out

    def _facer(self) -> Unit | None:
        """The unit of the moving group that may change facing: the AFV, or a lone MG/ATG/AFV."""
        group = self._group()
        if self.moving.afv:
            return self.units[self.moving.afv]
        if len(group) == 1 and group[0].has_facing:
            return group[0]
        return None

    def _move_actions(self) -> list[Action]:
        mv = self.moving
        out: list[Action] = []
        opts = self._move_options()
        for to, _ in opts:
            out.append(Enter(to) if mv.entering else Step(to))
        if mv.entering:
            out.append(StopMove())  # stay off the map this turn
            return out
        out.extend(self._overrun_actions())
        group = self._group()
        if not group:
            return out + [StopMove()]
        if mv.overrun_from is None:
            if self._toggle_rule_ok() and self._toggle_keeps_a_stop(group):  # 3.13, 8.62
                out.append(ToggleState())
            if mv.afv and len(group) > 1:
                halt = tuple(u.id for u in group if u.id != mv.afv)
                if self._halt_problem(halt) is None:  # 8.62
                    out.append(Halt(halt))  # 8.43
        f = self._facer()
        if f is not None:
            for side_ in range(1, 7):
                if side_ != f.facing and self._facing_cost(f, side_) is not None:
                    out.append(Face(side_))
            if f.is_afv and len(group) > 1 and not self._stop_ok():  # 8.62: MPs for a legal stop
                out = [a for a in out if not isinstance(a, Face) or self._face_keeps_a_stop(f, a.hexside)]
        if mv.overrun_from is not None:
            if not opts:
                out.append(StopMove())  # cannot leave (e.g. immobilized in the overrun hex)
        elif self._stop_ok() or not opts:
            out.append(StopMove())
        return out

    def _facing_cost(self, u: Unit, side_: int) -> float | None:
        """MP to turn ``u`` to ``side_`` (None: not allowed): 8.72 ATGs (3-4 crew, not after firing),
        8.73 MGs any hexside, 8.74/8.75 AFVs one hexside free per hex then 1 MP each."""
        mv = self.moving
        if u.is_atg:
            return 0.0 if (u.crew >= 3 and not u.fired) else None  # 8.72
        if not u.is_afv:
            return 0.0 if u.is_mg else None  # 8.73
        if u.immobilized:
            return None  # 8.54/8.55
        cur = u.facing or 1
        d = min((side_ - cur) % 6, (cur - side_) % 6)
        cost = max(0, d - (1 if mv.free_turn else 0))
        if cost > mv.mp[u.id] + 1e-9:
            return None
        return float(cost)

    def _stop_ok(self) -> bool:
        """May the moving group end its move where it stands (8.62)? Always off the map (it stays
        off) and in the hex it started from (it has not moved); elsewhere only within the limit."""
        group = self._group()
        if not group or group[0].hex is None or self.moving.hexes_moved == 0:
            return True
        return self._stack_ok(group[0].hex, group)

    # ================================================================== stacking on the move (8.6)
    # 8.62 is a limit at the end of the phase, with no penalty in the rulebook: the legal actions
    # never offer a step, entry, state change, facing change, Halt or overrun after which the
    # moving units (and those of a leader/AFV group that cannot follow and stop, 8.3 B, 8.43)
    # could no longer end their move within the limit. Only a forced stop (13.18, 19.27, 8.54,
    # 8.55, 8.33, 8.43, 9.31, 24.23) may leave a hex over it; nothing is eliminated for it.
    def _stack_ctx(self) -> dict:
        """The state the 8.62 look-ahead reads, rebuilt when the move or any unit changes: ``base``
        hex -> units not moving, ``enemy`` hexes holding enemy units the mover knows of (8.23),
        ``afv_at`` hexes holding an AFV outside the group (8.61), ``memo`` look-ahead results and
        ``opts`` the filtered move options."""
        mv = self.moving
        s = self.state
        head = (tuple(mv.units), tuple(sorted(mv.mp.items())), mv.hexes_moved, mv.leader, mv.afv, mv.entering,
                mv.overrun_from, tuple(sorted(s.wrecks.items())))
        c = getattr(self, "_stk", None)
        # no unit attribute set since the context was built (unit_changes): the units' part stands
        changes = (unit_changes(), id(s.units), len(s.units))
        if c is not None and c["changes"] == changes and c["fp"][:-1] == head:
            return c
        fp = head + (tuple((u.id, u.hex, u.crew, u.down, u.morale, u.hidden, u.immobilized)
                           for u in s.units.values() if (u.hex is not None or u.id in mv.mp) and not u.eliminated),)
        if c is not None and c["fp"] == fp:
            c["changes"] = changes
            return c
        group = self._group()
        side = group[0].side if group else None
        ids = set(mv.units)
        base: dict[str, list[Unit]] = {}
        enemy: set[str] = set()
        afv_at: set[str] = set()
        for u in s.units.values():
            if u.hex is None or u.eliminated or u.id in ids:
                continue
            base.setdefault(u.hex, []).append(u)
            if u.is_afv:
                afv_at.add(u.hex)
            if u.side != side and not u.hidden:
                enemy.add(u.hex)  # as enemy_in: the opponent's hidden units are not known (24.2)
        c = {"fp": fp, "base": base, "enemy": enemy, "afv_at": afv_at, "memo": {}, "opts": None, "changes": changes}
        self._stk = c
        return c

    def _nbrs(self, hex_id: str) -> tuple[str, ...]:
        """The neighbours of ``hex_id`` in the playing area (cached for the game)."""
        cache = self.__dict__.setdefault("_nbr_cache", {})
        out = cache.get(hex_id)
        if out is None:
            out = cache[hex_id] = tuple(n.id for n in hexgrid.neighbours(hexgrid.parse_hex_id(hex_id))
                                        if self.map.contains(n))
        return out

    def _cost_as(self, u: Unit, down: bool, frm: str, to: str) -> float | None:
        """:meth:`_step_cost` of ``u`` as if it were ``down`` (8.5), cached for the game (the map
        and the chart do not change during a game)."""
        kind = "afv" if u.is_afv else "infantry"
        road = u.normal and not down
        key = (frm, to, kind, down, road)
        cache = self.__dict__.setdefault("_cost_cache", {})
        if key not in cache:
            cache[key] = self.terrain.move_cost(frm, to, kind, down, road_rate=road)
        return cache[key]

    def _limit_ok(self, c: dict, hex_id: str, units: list[Unit], drops: tuple = ()) -> bool:
        """``units`` may end their move in ``hex_id`` with the units there and those dropped there
        earlier in the look-ahead (8.61-8.63, :func:`stacking_problem`)."""
        here = c["base"].get(hex_id, [])
        dropped = [self.units[x] for h, x in drops if h == hex_id]
        return stacking_problem(here + dropped + list(units)) is None

    def _can_finish(self, c: dict, at: str, grp: tuple[str, ...], mp: tuple[float, ...], moved: bool,
                    leader: str | None, afv: str | None, drops: tuple = (), down: dict | None = None) -> bool:
        """8.62 look-ahead: can the units ``grp`` (MPs left ``mp``, same order) standing in ``at``
        still end their move within the stacking limit, stopping there or after more steps?

        A bounded search over the hexes the MPs left reach (costs by :meth:`_cost_as`, UP/DOWN
        from ``down`` or the units), following the move rules of :meth:`_raw_move_options`:
        enemy-occupied hexes excluded (8.23), AFVs not into wrecks or other AFVs (8.61, 12.4),
        one-hex units only before their first hex (8.11-8.14), a leader/AFV group going on with
        those able to follow while the others stop where they are (8.3 B, 8.43) -- where they
        too must be within the limit (``drops``: (hex, unit id) stopped on the way) -- and other
        groups moving together or not at all. Passing through a full hex is allowed (8.61);
        ``moved`` False means the units have not left their starting hex, where they may always
        stay. Facing changes, state changes and overruns are not searched (a smaller set of
        continuations, so a True answer always has its steps offered).

        Units with the same costs, MPs and one-hex flag (a cohort) always follow, stop and stay
        behind together, so the search moves cohorts, and a cohort over the limit on its own can
        never stop anywhere."""
        key = (at, grp, mp, moved, leader, afv, drops, tuple(sorted(down.items())) if down else None)
        memo = c["memo"]
        if key in memo:
            return memo[key]
        units = self.units
        one = self.moving.one_hex
        if not moved or self._limit_ok(c, at, [units[x] for x in grp], drops):
            memo[key] = True
            return True
        by: dict[tuple, list[str]] = {}
        for x, mx in zip(grp, mp):
            u = units[x]
            d = down[x] if down and x in down else u.down
            by.setdefault((u.is_afv, d, u.normal and not d, one[x], round(mx, 6)), []).append(x)
        kinds = list(by)  # cohort i: (is_afv, down, road rate, one-hex, MPs at the start)
        ids = [tuple(by[k]) for k in kinds]
        if any(stacking_problem([units[x] for x in xs]) is not None for xs in ids):
            memo[key] = False  # e.g. a whole entering group led by its commander
            return False
        lead_c = next((i for i, xs in enumerate(ids) if leader in xs), None)
        tank_c = next((i for i, xs in enumerate(ids) if afv in xs), None)
        splitting = lead_c is not None or tank_c is not None
        reps = [units[xs[0]] for xs in ids]
        wrecks = self.state.wrecks
        seen: set = set()
        best: dict = {}  # (hex, cohorts) -> MP vectors reached (groups moving together: more MP is better)
        todo = [(at, tuple(range(len(ids))), tuple(k[4] for k in kinds), True, drops)]
        found = False
        while todo and not found:
            h, alive, m, mvd, dr = todo.pop()
            if (h, dr) != (at, drops) and self._limit_ok(c, h, [units[x] for i in alive for x in ids[i]], dr):
                found = True  # (the starting state was judged above)
                break
            lead = lead_c if lead_c in alive else None
            tank = tank_c if tank_c in alive and sum(len(ids[i]) for i in alive) > 1 else None
            has_afv = any(kinds[i][0] for i in alive)
            for to in self._nbrs(h):
                if to in c["enemy"] or (has_afv and (wrecks.get(to) or to in c["afv_at"])):
                    continue  # 8.23, 12.4, 8.61
                able: list[int] = []
                left: list[int] = []
                nm: list[float] = []
                for i, mx in zip(alive, m):
                    k = kinds[i]
                    cost = self._cost_as(reps[i], k[1], h, to)
                    if cost is not None and (not mvd if k[3] else cost <= mx + 1e-9):
                        able.append(i)
                        nm.append(0.0 if k[3] else mx - cost)
                    else:
                        left.append(i)
                if not able or (lead is not None and lead not in able) or (tank is not None and tank not in able):
                    continue  # 8.3 B, 8.43: the leader / the AFV leads the way
                if lead is None and tank is None and left:
                    continue  # other groups move together or not at all
                nd = dr
                if left:
                    stay = [x for i in left for x in ids[i]]
                    if mvd and not self._limit_ok(c, h, [units[x] for x in stay], dr):
                        continue  # those that cannot follow stop here: within the limit too
                    nd = dr + tuple((h, x) for x in stay)
                st = (to, tuple(able), tuple(nm), True, nd)
                if st in seen:
                    continue
                if not splitting:
                    vs = best.setdefault((to, st[1]), [])
                    if any(all(a >= b - 1e-9 for a, b in zip(v, st[2])) for v in vs):
                        continue
                    vs.append(st[2])
                seen.add(st)
                todo.append(st)
        memo[key] = found
        return found

    def _step_keeps_a_stop(self, c: dict, to: str, able: list[Unit]) -> bool:
        """May the group step (or enter) into ``to`` with ``able`` going on (8.62)? Those that
        cannot follow stop where they are and must be within the limit there (unless they have
        not moved or are still off the map); from ``to`` a stop within the limit must remain
        reachable (:meth:`_can_finish`)."""
        mv = self.moving
        group = self._group()
        frm = None if mv.entering else group[0].hex
        left = [u for u in group if u not in able]
        drops: tuple = ()
        if left and frm is not None:
            if mv.hexes_moved and not self._limit_ok(c, frm, left):
                return False
            drops = tuple((frm, u.id) for u in left)
        if self._limit_ok(c, to, able, drops):
            return True  # they may stop right there (the look-ahead's first answer)
        ids = tuple(u.id for u in able)
        mp = tuple(0.0 if mv.one_hex[u.id] else mv.mp[u.id] - (self._step_cost(u, frm, to) or 0) for u in able)
        leader = mv.leader if mv.leader in ids else None
        afv = mv.afv if mv.afv in ids and len(ids) > 1 else None
        return self._can_finish(c, to, ids, mp, True, leader, afv, drops)

    def _toggle_rule_ok(self) -> bool:
        """3.13 on the move: NORMAL units, 2 MP infantry/CW, 5 MP AFV; 3.27; 11.43 a tank whose
        commander was killed stays DOWN."""
        mv = self.moving
        group = self._group()
        if mv is None or mv.overrun_from is not None or mv.entering or not group:
            return False
        if not all(u.normal for u in group) or any(u.is_afv and u.commander_killed for u in group):
            return False
        return all(mv.mp[u.id] >= (5 if u.is_afv else 2) - 1e-9 for u in group)

    def _toggle_keeps_a_stop(self, group: list[Unit]) -> bool:
        """8.62 for a state change on the move (3.13): after paying its MPs the group must still be
        able to end its move within the limit with its new UP/DOWN costs."""
        mv = self.moving
        if mv.hexes_moved == 0:
            return True
        c = self._stack_ctx()
        ids = tuple(u.id for u in group)
        mp = tuple(mv.mp[u.id] - (5 if u.is_afv else 2) for u in group)
        return self._can_finish(c, group[0].hex, ids, mp, True, mv.leader, mv.afv, (),
                                {u.id: not u.down for u in group})

    def _face_keeps_a_stop(self, f: Unit, hexside: int) -> bool:
        """8.62 for an AFV's paid facing change (8.74) while infantry move with it in a hex where
        they may not stop: the AFV must keep the MPs to lead them to a legal stop."""
        mv = self.moving
        c = self._stack_ctx()
        group = self._group()
        cost = self._facing_cost(f, hexside) or 0
        ids = tuple(u.id for u in group)
        mp = tuple(mv.mp[u.id] - (cost if u is f else 0) for u in group)
        return self._can_finish(c, group[0].hex, ids, mp, mv.hexes_moved > 0, mv.leader, mv.afv)

    def _halt_problem(self, halted: tuple[str, ...]) -> str | None:
        """Why infantry moving with an AFV may not cease movement here (8.43 ``Halt``), or None:
        they must be within the limit in this hex (unless they have not moved), and the units
        going on must still be able to end their move within it (8.62)."""
        mv = self.moving
        c = self._stack_ctx()
        group = self._group()
        hx = group[0].hex
        stop = [self.units[x] for x in halted]
        if mv.hexes_moved and not self._limit_ok(c, hx, stop):
            return f"8.62: {', '.join(halted)} would stop over the stacking limit in {hx}"
        rest = tuple(u.id for u in group if u.id not in halted)
        leader = mv.leader if mv.leader in rest else None
        afv = mv.afv if mv.afv in rest and len(rest) > 1 else None
        mp = tuple(mv.mp[x] for x in rest)
        if not self._can_finish(c, hx, rest, mp, mv.hexes_moved > 0, leader, afv, tuple((hx, x) for x in halted)):
            return "8.62: the units going on could no longer end their move within the stacking limit"
        return None

    def _apply_move(self, a: Action) -> None:
        mv = self.moving
        assert mv is not None
        if self._hidden_entry_blocked(a):
            return  # 24.23: the hidden units there were placed on the map; the move did not happen
        if isinstance(a, Overrun):
            return self._overrun(a)
        if isinstance(a, StopMove):
            if a not in self._move_actions():
                if mv.overrun_from is not None:
                    raise IllegalAction("9.0", "the overrunning AFV must exit the overrun hex")
                raise IllegalAction("8.62", "stacking limit: six men plus one AFV, one CW per hex")
            if self._stop_ok():
                self._event("move_end", rule="8.0", units=mv.units, hex=self._group()[0].hex if self._group() else None)
            else:  # 8.62: a forced stop (no step left after fire, mines, a fallen leader, ...)
                self._event("move_end", rule="8.62", units=mv.units, hex=self._group()[0].hex, forced=True,
                            reason="no legal continuation: stopped over the stacking limit by force")
            self.moving = None
            return
        if isinstance(a, Halt):
            inf = [uid for uid in mv.units if uid != mv.afv]
            if not mv.afv or mv.overrun_from or not a.units or any(x not in inf for x in a.units):
                raise IllegalAction("8.43", "only infantry moving with an AFV may cease movement apart from it")
            why = self._halt_problem(tuple(a.units))
            if why is not None:
                raise IllegalAction("8.62", why)
            for uid in a.units:
                mv.units.remove(uid)
            self._event("halt", rule="8.43", units=list(a.units), hex=self.units[mv.afv].hex)
            if mv.leader and mv.leader not in mv.units:
                mv.leader = None  # 8.43: the AFV may continue without the infantry (and their leader)
            if len(mv.units) == 1:
                mv.afv = None
            return
        if isinstance(a, ToggleState):
            if a not in self._move_actions():
                if self._toggle_rule_ok():
                    raise IllegalAction("8.62", "after the state change the units could no longer stop within "
                                                "the stacking limit")
                raise IllegalAction("3.13", "cannot change state now")
            for u in self._group():
                mv.mp[u.id] -= 5 if u.is_afv else 2
                u.down = not u.down
            self._event("state_change", rule="3.13", units=mv.units, down=self._group()[0].down)
            return
        if isinstance(a, Face):
            if a not in self._move_actions():
                raise IllegalAction("8.7", "illegal facing change")
            u = self._facer()
            mv.mp[u.id] -= self._facing_cost(u, a.hexside) or 0
            if mv.hexes_moved == 0:
                u.changed_facing_only = True  # 10.14, 12.2; 8.72/8.73
            if u.is_afv:
                mv.free_turn = False
            u.facing = a.hexside
            # 8.71: no opportunity fire window for a facing change
            self._event("facing", rule="8.7", unit=u.id, facing=a.hexside)
            return
        if isinstance(a, (Step, Enter)):
            opts = dict(self._move_options())
            if a.hex not in opts or (isinstance(a, Enter) != mv.entering):
                if isinstance(a, Enter) == mv.entering and a.hex in dict(self._raw_move_options()):
                    raise IllegalAction("8.62", f"from {a.hex} the moving units could no longer end their move "
                                                "within the stacking limit")
                ok, rule, why = self._can_enter(self._group(), a.hex) if self._group() else (False, "8.0", "")
                raise IllegalAction(rule if not ok else "8.5", why or f"the moving units cannot enter {a.hex} now")
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
                u.changed_facing_only = False
            if mv.leader and mv.leader not in mv.units:
                mv.leader = None
            if mv.afv and len(mv.units) == 1:
                mv.afv = None
            mv.hexes_moved += 1
            mv.entering = False
            mv.free_turn = True  # 8.74
            mv.overrun_from = None  # 9.0 the overrunning AFV has exited
            mv.path.append(a.hex)
            self._event("moved", rule="8.0", units=[u.id for u in able], frm=frm, to=a.hex,
                        mp_left={u.id: mv.mp[u.id] for u in able})
            self._update_control(a.hex)
            self._reveal_on_move(frm, a.hex)  # 24.22 moving into or out of a hidden hex
            self._after_entering_hex(a.hex)
            return
        raise IllegalAction("8.0", f"{a.kind} is not possible while moving")

    def _after_entering_hex(self, hex_id: str) -> None:
        """Mines (19.2), AFV immobilisation (8.54, 8.55), then the opportunity fire window (13.0)."""
        side = self._group()[0].side
        attacked = self._mine_attack(hex_id, self._group())
        self._immobilisation(hex_id, self._group())
        self._prune_group("19.27", strict=attacked)
        self._open_window(hex_id, other_side(side))

    def _immobilisation(self, hex_id: str, units: list[Unit]) -> None:
        """8.54 woods (2d6 <= trees) and 8.55 marsh (2d6 <= 4): the AFV is immobilized for the game."""
        for u in units:
            if not u.is_afv or u.immobilized or u.eliminated:
                continue
            trees = self.terrain.trees(hex_id)
            if trees >= 2:
                r = self.roll(2, f"woods immobilisation {u.id}", "8.54")
                if r.total <= trees:
                    u.immobilized = True
                    self._event("immobilized", rule="8.54", unit=u.id, hex=hex_id)
            if self.terrain.is_marsh(hex_id) and not u.immobilized:
                r = self.roll(2, f"marsh immobilisation {u.id}", "8.55")
                if r.total <= 4:
                    u.immobilized = True
                    self._event("immobilized", rule="8.55", unit=u.id, hex=hex_id)
            if u.immobilized and self.moving is not None and u.id in self.moving.mp:
                self.moving.mp[u.id] = 0

    def _prune_group(self, rule: str, strict: set[str] | frozenset = frozenset()) -> None:
        """Units whose morale got worse during the move stop where they are (13.18), and so do
        units of ``strict`` (attacked by mines) not NORMAL (19.27); a group goes on
        without its fallen leader (8.33); when the AFV of an AFV/infantry stack stops, the
        infantry stop too (8.43)."""
        mv = self.moving
        if mv is None:
            return
        def stops(uid: str) -> bool:
            u = self.units[uid]
            if u.eliminated:
                return True
            if uid in strict and not u.normal:
                return True  # 19.27
            return u.morale.value != mv.morale0.get(uid, "NORMAL")  # 13.18 became PINNED/SUPPRESSED

        stopped = [uid for uid in mv.units if stops(uid)]
        for uid in stopped:
            mv.units.remove(uid)
            mv.mp[uid] = 0
        if stopped:
            self._event("move_stopped", rule=rule, units=stopped)
        if mv.leader and mv.leader not in mv.units:
            mv.leader = None  # 8.33
        if mv.afv:
            a = self.units[mv.afv]
            if mv.afv not in mv.units or a.immobilized:
                self._event("move_end", rule="8.43", units=list(mv.units), hex=a.hex)
                self.moving = None
                return
            if len(mv.units) == 1:
                mv.afv = None
        if not mv.units:
            self._event("move_end", rule=rule, units=[], hex=None)
            self.moving = None

    # ================================================================== mines (19.2)
    def _mine_attack(self, hex_id: str, group: list[Unit]) -> set[str]:
        """19.2 mines met by ``group`` entering ``hex_id`` (on the move, pushing a wreck, in an
        overrun): AP factors are revealed and detonate for any unit (19.22); when an infantry/CW
        unit detonates them (19.26: infantry moving with an AFV; an AFV alone rolls nothing), one
        die is rolled for EACH infantry/CW unit in the hex (19.24): the entering units and those
        already there, of either side (not hidden units, 24.23). AT factors only for AFVs (19.21,
        19.23), 2d6 <= factors destroys (19.25). Mine dice are not the first shot (8.22). Units of
        ``group`` eliminated before the detonation (an overrun's 9.33 assault) still set it off.
        Returns the ids of the units attacked."""
        m = self.state.mines.get(hex_id)
        if not m or not group:
            return set()
        by_infantry = any(not u.is_afv for u in group)  # 19.24, 19.26
        group = [u for u in group if not u.eliminated]
        attacked: set[str] = set()
        inf = [u for u in group if not u.is_afv]
        afvs = [u for u in group if u.is_afv]
        if m.get("ap", 0) > 0:
            m["revealed_ap"] = True  # 19.22
            self._event("mines_revealed", rule="19.22", hex=hex_id, ap=m["ap"])
            here = [u for u in self.state.units_at(hex_id) if not u.is_afv and not u.hidden] if by_infantry else []
            for u in sorted(here, key=lambda x: x.id):  # 19.24: EACH infantry/CW unit in the hex
                if u.eliminated:
                    continue
                attacked.add(u.id)
                r = self.roll(1, f"AP mine attack on {u.id}", "19.24")
                f = m["ap"]
                res = ct.ap_mine_result(r.total, f)
                self._event("mine_result", rule="19.24", unit=u.id, die=r.total, factors=f, result=res.value)
                self._apply_ap_result(u, res, "19.24")
        if m.get("at", 0) > 0 and afvs:
            m["revealed_at"] = True  # 19.23
            self._event("mines_revealed", rule="19.23", hex=hex_id, at=m["at"])
            for u in afvs:
                r = self.roll(2, f"AT mine attack on {u.id}", "19.25")
                hit = r.total <= m["at"]
                self._event("mine_result", rule="19.25", unit=u.id, total=r.total, factors=m["at"], destroyed=hit)
                attacked.add(u.id)
                if hit:
                    self._destroy_afv(u, "19.25")  # infantry with it SUPPRESSED (19.25, 12.34)
                    attacked.update(x.id for x in inf)
        return attacked

    # ================================================================== opportunity fire (13.0)
    def _opp_firers(self, side: str, hex_id: str) -> list[Unit]:
        """13.11/13.12 who may fire, 13.15 once per Player Turn, 13.14 AFV frontal area, 13.2 ranges."""
        s = self.state
        reaction = s.phase is Phase.REACTION_MOVEMENT
        out = []
        for u in s.units_of(side):
            if not u.on_map or not u.normal or u.fired or u.opp_fired:
                continue  # 10.11, 13.15
            if reaction:
                # 13.12: Phasing ATR/ATG that did not move in the preceding Movement Phase (8.72: an
                # ATG that only changed facing may still fire)
                if not (u.is_atr or u.is_atg) or (u.moved and not self._turned_only(u)):
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

    def _open_window(self, hex_id: str, side: str) -> None:
        """13.16: each hex entered may be fired upon; the opponent decides (Fire or Pass)."""
        self.window = OpportunityWindow(side, hex_id)
        self._prev_decider = self._decider
        self._decider = side
        if not self._opportunity_actions():
            self.window = None
            self._after_window()

    def _refresh_window(self) -> None:
        if self.window is not None and not self._opportunity_actions():
            self.window = None
            self._after_window()

    def _after_window(self) -> None:
        self._decider = self._prev_decider
        self._crew_reversion()
        # 13.18 moving units that became PINNED (or worse) may move no further
        self._prune_group("13.18")

    def _opportunity_actions(self) -> list[Action]:
        w = self.window
        if w is None:
            return []
        targets = [u for u in self.state.units_at(w.hex) if u.side != w.side]
        if not targets:
            return []
        firers = self._opp_firers(w.side, w.hex)
        # 21.22/21.32 (advanced): FL/SP MGs at the hex just entered, also in the Reaction Movement
        # Phase (13.12); 21.42 change to SP
        return self._fire_options(firers, w.hex, targets, opportunity=True) + self._mode_opportunity_actions()

    # ================================================================== end of the movement phase
    def _end_step_actions(self, side: str) -> list[Action]:
        """Steps taken at the end of the (friendly) Movement Phase: pushing wrecks (8.65) and crew
        replacements (20.1). Not in the Reaction Movement Phase."""
        s = self.state
        if s.phase is not Phase.MOVEMENT or side != s.phasing or self.moving is not None:
            return []
        out: list[Action] = []
        for u in sorted(s.units_of(side), key=lambda x: x.id):
            if not u.is_afv or not u.on_map or u.moved or u.fired or u.support_fired:
                continue  # 8.65 the whole phase in its hex; 8.21
            if self._allowance(u, False)[0] <= 0:
                continue
            for n in hexgrid.neighbours(hexgrid.parse_hex_id(u.hex)):
                if not self.map.contains(n):   # off the map first: left of column 00 is no hex id
                    continue
                w = n.id
                if s.wrecks.get(w, 0) != 1:
                    continue
                if s.units_at(w) and (self.enemy_in(w, side) or any(x.is_afv for x in s.units_at(w))):
                    continue  # 8.23, 8.61
                if self._step_cost(u, u.hex, w) is None:
                    continue
                for t in hexgrid.neighbours(n):
                    if (self.map.contains(t) and t.id != u.hex and not s.wrecks.get(t.id)
                            and not any(x.is_afv for x in s.units_at(t.id))
                            and self.terrain.entry_cost(t.id, "afv", False) is not None):
                        out.append(PushWreck(u.id, w, t.id))
        for c in sorted(s.units_of(side), key=lambda x: x.id):
            if not c.is_cw or not c.on_map or c.crew >= c.crew_max or c.crew - len(c.replacements) <= 0:
                continue  # 20.0 not fully crewed; 20.2 an original crew member left
            for u in s.units_at(c.hex):
                if u.side == side and u.kind.value == "infantry" and u.normal:
                    out.append(CrewReplacement(u.id, c.id))
        return out

    def _end_step(self, a: Action) -> None:
        """Apply a PushWreck (8.65) or CrewReplacement (20.1); no movement after it this phase."""
        s = self.state
        if self.moving is not None or a not in self._end_step_actions(self._decider):
            rule = "8.65" if isinstance(a, PushWreck) else "20.1"
            raise IllegalAction(rule, f"{a} is not possible now (end of the friendly Movement Phase only)")
        self._mph()["end_steps"] = True
        if isinstance(a, CrewReplacement):
            u, c = self.units[a.unit], self.units[a.cw]
            u.hex = None  # 20.1 removed from the map, part of the crew for the rest of the scenario
            c.crew += 1
            c.replacements.append(u.id)
            self._event("crew_replacement", rule="20.1", unit=u.id, cw=c.id, crew=c.crew)
            return
        u = self.units[a.afv]
        u.moved = True  # pushing is movement (8.65)
        ok = self.pc(u, f"push wreck in {a.wreck}", "8.65")
        if not ok:
            self._event("push_wreck", rule="8.65", unit=u.id, wreck=a.wreck, to=a.to, passed=False)
            return
        s.wrecks[a.wreck] -= 1
        if not s.wrecks[a.wreck]:
            del s.wrecks[a.wreck]
        s.wrecks[a.to] = s.wrecks.get(a.to, 0) + 1
        frm, u.hex = u.hex, a.wreck
        self._event("push_wreck", rule="8.65", unit=u.id, wreck=a.wreck, to=a.to, frm=frm, passed=True)
        self._update_control(a.wreck)
        self._mine_attack(a.wreck, [u])  # 19.2: the AFV enters the hex
        self._immobilisation(a.wreck, [u])

    def _end_of_movement_phase(self) -> None:
        """8.62: at the end of a friendly Movement or Reaction Movement Phase no more than six men
        plus one AFV (and one CW counter, 8.63) a hex. The rulebook gives no penalty: the legal
        actions never let a move end voluntarily over the limit (:meth:`_can_finish`), and a hex
        over it because of a forced stop (13.18, 19.27, 8.54/8.55, ...) or from before the phase is
        not punished: it is logged (``over_stacked``) and nothing is eliminated."""
        s = self.state
        side = s.phasing if s.phase is Phase.MOVEMENT else s.non_phasing
        for hx in sorted({u.hex for u in s.units_of(side) if u.on_map}):
            mine = [u for u in s.units_at(hx) if u.side == side]
            why = stacking_problem(mine)
            if why is not None:
                self._event("over_stacked", rule="8.62", side=side, hex=hx, units=[u.id for u in mine], why=why,
                            penalty=None)
        self._crew_reversion()
        sup = super()
        if hasattr(sup, "_end_of_movement_phase"):
            sup._end_of_movement_phase()

    def _crew_reversion(self) -> None:
        """20.3: when only replacements are left in a crew, the CW is removed and they return as
        SUPPRESSED infantry. Crew losses fall on the original crew first; a CW eliminated with its
        whole crew takes its replacements with it."""
        for c in sorted(self.state.units.values(), key=lambda x: x.id):
            if not c.is_cw or not c.replacements:
                continue
            if c.eliminated:
                for rid in c.replacements:
                    r = self.units[rid]
                    if not r.eliminated and r.hex is None:
                        r.eliminated = True
                        self._event("eliminated", rule="20.3", unit=rid, side=r.side, hex=None)
                c.replacements = []
                continue
            if c.crew > len(c.replacements):
                continue
            where = c.hex
            keep = c.replacements[:c.crew]
            for rid in c.replacements[c.crew:]:
                self.units[rid].eliminated = True
                self._event("eliminated", rule="20.3", unit=rid, side=c.side, hex=None)
            c.replacements = []
            self._eliminate(c, "20.3")
            for rid in keep:
                r = self.units[rid]
                r.hex, r.morale, r.down = where, Morale.SUPPRESSED, True
                self._event("crew_reverted", rule="20.3", unit=rid, hex=where)
