"""Assault (17.0): designation at the end of movement phases and resolution in the Assault Phase.

A mixin of :class:`core.ironcross.game.Game`.

* Designation (17.0, 6.0 C/D): at the end of the Movement Phase (Phasing Player) and of the
  Reaction Movement Phase (Non-phasing Player) the deciding side places Assault markers with
  :class:`DesignateAssault` on NORMAL infantry units of one hex, pointing at an adjacent hex. The hex
  need not be enemy occupied (17.0): empty hexes may be designated too. Hexes holding friendly
  units only, hexes infantry may not enter and hexes holding an enemy AFV (17.13) may not.
* Resolution (6.0 G, 17.0 a-f): the Phasing Player performs his assaults first, then the
  Non-phasing Player; each performs one marked stack at a time by choosing ``DesignateAssault``
  again (the stack's units and its marked hex) in the Assault Phase, or ends his part with
  ``EndPhase`` (assault is voluntary, 17.0). Each assault is completed before the next (17.31).
* Casualties (17.23): the owner picks which unit he loses; the engine picks for him by a fixed,
  documented policy (:meth:`AssaultRules._casualty`), so that no decision interrupts a fire round.
"""

from __future__ import annotations

from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, DesignateAssault, IllegalAction
from core.ironcross.state import Morale, Unit
from maps import hexgrid


class AssaultRules:
    """Assault designation (17.0) and resolution (17.1-17.3)."""

    def _end_of_movement_phase(self) -> None:
        """8.62 is enforced when each move ends; nothing else happens here yet."""
        return

    # ================================================================== designation (17.0, 17.11)
    def _can_be_marked(self, u: Unit, side: str) -> bool:
        """17.11/17.13: only NORMAL infantry units (commanders included) of ``side`` on the map,
        not yet marked, may receive an Assault marker. CWs and AFVs never assault (17.13)."""
        return u.side == side and u.on_map and u.is_infantry and u.normal and u.assault_hex is None

    def _assault_target_problem(self, from_hex: str, target: str, side: str,
                                designating: bool = True) -> tuple[str, str] | None:
        """Why ``target`` may not be assaulted from ``from_hex`` by ``side`` now (rule, message), or None.
        A hex holding friendly units only may not be designated; by the Assault Phase it may hold the
        side's own units from an earlier assault (17.32), which is no obstacle then."""
        a, b = hexgrid.parse_hex_id(from_hex), hexgrid.parse_hex_id(target)
        if not self.map.contains(b):
            return ("17.0", f"{target} is not on the map")
        if hexgrid.distance(a, b) != 1:
            return ("17.0", f"{target} is not adjacent to {from_hex}")
        units = self.state.units_at(target)
        if any(u.is_afv and u.side != side for u in units):
            return ("17.13", f"{target} holds an enemy AFV, which may not be assaulted")
        if designating and units and all(u.side == side for u in units):
            return ("17.0", f"{target} holds friendly units only (an assault is made against enemy or empty hexes)")
        if self.terrain.entry_cost(target, "infantry", False) is None:
            return ("17.0", f"infantry may not enter {target}")
        return None

    def _assault_designations(self, side: str) -> list[Action]:
        """DesignateAssault for every marked-able stack (all its eligible units, and each unit alone)
        and every adjacent hex it may assault."""
        out: list[Action] = []
        by_hex: dict[str, list[Unit]] = {}
        for u in self.state.units_of(side):
            if self._can_be_marked(u, side):
                by_hex.setdefault(u.hex, []).append(u)
        for hx, us in sorted(by_hex.items()):
            ids = sorted(u.id for u in us)
            groups = [tuple(ids)] + ([(i,) for i in ids] if len(ids) > 1 else [])
            for n in hexgrid.neighbours(hexgrid.parse_hex_id(hx)):
                if self._assault_target_problem(hx, n.id, side) is not None:
                    continue
                out.extend(DesignateAssault(g, n.id) for g in groups)
        return out

    def _designate_assault(self, a: DesignateAssault, side: str) -> None:
        """Place Assault markers (17.0): any non-empty set of markable units of one hex."""
        if not a.units or len(set(a.units)) != len(a.units):
            raise IllegalAction("17.0", "name each unit to be marked once")
        us = [self.unit(x) for x in a.units]
        for u in us:
            if not self._can_be_marked(u, side):
                raise IllegalAction("17.11" if not u.is_infantry else "17.13",
                                    f"{u.id} may not receive an Assault marker (NORMAL infantry of the "
                                    f"deciding side, not yet marked)")
        if len({u.hex for u in us}) != 1:
            raise IllegalAction("17.0", "an Assault marker is placed on the units of one hex")
        p = self._assault_target_problem(us[0].hex, a.target, side)
        if p is not None:
            raise IllegalAction(*p)
        for u in us:
            u.assault_hex = a.target
        self._event("assault_designated", rule="17.0", side=side, units=list(a.units), frm=us[0].hex,
                    target=a.target)

    # ================================================================== the Assault Phase (6.0 G)
    def _start_assault_phase(self) -> None:
        self._assault_cleared: set[str] = set()

    def _end_assault_phase(self) -> None:
        """Assault markers are removed at the end of the Assault Phase (unused ones lapse)."""
        for u in self.state.units.values():
            u.assault_hex = None

    def _may_assault_now(self, u: Unit, target: str) -> tuple[str, str] | None:
        """17.13-17.15: why marked unit ``u`` may not assault ``target`` now, or None."""
        if not u.on_map:
            return ("17.15", f"{u.id} is no longer on the map")
        if not u.normal:
            return ("17.13", f"{u.id} is not NORMAL (3.22, 17.13)")
        if u.moving_fired and u.grenade_hex != target:
            return ("17.14", f"{u.id} fired in the Moving Fire Phase (only grenades into {target} allow an assault)")
        return None

    def _assault_actions(self, side: str) -> list[Action]:
        """One DesignateAssault per marked stack (its units in one hex and its marked hex) that has
        at least one unit still able to assault."""
        groups: dict[tuple[str, str], list[str]] = {}
        for u in self.state.units_of(side):
            if u.assault_hex and u.on_map:
                groups.setdefault((u.hex, u.assault_hex), []).append(u.id)
        out: list[Action] = []
        for (hx, target), ids in sorted(groups.items()):
            if self._assault_target_problem(hx, target, side, designating=False) is not None:
                continue
            if any(self._may_assault_now(self.units[i], target) is None for i in ids):
                out.append(DesignateAssault(tuple(sorted(ids)), target))
        return out

    def _perform_assault(self, a: DesignateAssault, side: str) -> None:
        """Resolve one assault (17.0 a-f) by the marked units ``a.units`` (one hex) into ``a.target``."""
        if not a.units or len(set(a.units)) != len(a.units):
            raise IllegalAction("17.0", "name each assaulting unit once")
        us = [self.unit(x) for x in a.units]
        for u in us:
            if u.side != side or u.assault_hex != a.target or not u.on_map:
                raise IllegalAction("17.11", f"{u.id} is not stacked with an Assault marker pointing at {a.target}")
        if len({u.hex for u in us}) != 1:
            raise IllegalAction("17.0", "an assault is made by the units of one hex (one stack at a time)")
        origin = us[0].hex
        p = self._assault_target_problem(origin, a.target, side, designating=False)
        if p is not None:
            raise IllegalAction(*p)
        target = a.target
        eligible = []
        for u in us:
            u.assault_hex = None  # the marker is used now (assaulting or not)
            why = self._may_assault_now(u, target)
            if why is None:
                eligible.append(u)
            else:
                self._event("cannot_assault", rule=why[0], unit=u.id, reason=why[1])
        if not eligible:
            raise IllegalAction("17.13", "no unit of this stack may assault now")
        s = self.state
        defenders_at_start = bool(self.enemy_in(target, side))
        # 17.0 a / 17.12: the PCs
        if target in self._assault_cleared and not defenders_at_start:
            passed = list(eligible)  # 17.32: defenders eliminated by an earlier assault: no PC
            self._event("assault_no_pc", rule="17.32", units=[u.id for u in passed], target=target)
        else:
            passed = self._assault_pcs(eligible, target)
        if not passed:
            self._event("assault", rule="17.0", side=side, frm=origin, target=target, attackers=[])
            return
        concealed = self._unconceal_for_assault(target, side)  # 24.23 hidden defenders fight
        defenders_at_start = defenders_at_start or bool(concealed)
        # move in, up to the stacking limit (8.62; 17.32 "up to the normal stacking limit")
        moved_in: list[Unit] = []
        for u in passed:
            if self._stack_ok(target, moved_in + [u]):
                moved_in.append(u)
            else:
                self._event("assault_stays", rule="8.62", unit=u.id, reason="stacking limit in the assaulted hex")
        for u in moved_in:
            u.hex = target
        self._event("assault", rule="17.0", side=side, frm=origin, target=target, attackers=[u.id for u in moved_in])
        defenders = sorted(self.enemy_in(target, side), key=lambda x: x.id)
        if defenders:
            self._note_first_shot()
            self._assault_rounds(moved_in, defenders)
        survivors = s.units_at(target)
        for u in survivors:
            u.down = True  # 17.0 f: all surviving units DOWN
        if survivors:
            self._event("assault_over", rule="17.0 f", target=target, survivors=[u.id for u in survivors],
                        winner=survivors[0].side)
        if defenders_at_start and not self.enemy_in(target, side) and survivors:
            self._assault_cleared.add(target)  # 17.32
        self._update_control(target)
        # 19.2: in an assault the mines detonate after the assault resolution
        m = s.mines.get(target)
        if m and m.get("ap") and moved_in:
            self._mine_attack_after_assault(target)
        self._reveal_after_assault(target, concealed, origin, moved_in)  # 24.23, 24.22

    def _assault_pcs(self, eligible: list[Unit], target: str) -> list[Unit]:
        """17.12: a modified PC (+1) for each unit; a leader in the stack may take one PC with his PR
        for himself and every unit he leads (5.1, 5.2); if he passes they all assault. Units he does
        not lead take their own PCs. Taking the PC counts as assaulting (4.0)."""
        leaders = [u for u in eligible if any(u.is_leader_for(o) for o in eligible if o is not u)]
        passed: list[Unit] = []
        rest = list(eligible)
        if leaders:
            ld = max(leaders, key=lambda x: (x.pr, x.is_commander, x.id))
            led = [ld] + [o for o in eligible if o is not ld and ld.is_leader_for(o)]
            ok = self.pc(ld, f"assault {target} (leading {len(led) - 1})", "17.12", modifier=1)
            if ok:
                passed.extend(led)
            else:
                self._event("assault_failed", rule="17.12", units=[u.id for u in led], target=target)
            rest = [u for u in eligible if u not in led]
        for u in rest:
            if self.pc(u, f"assault {target}", "17.12", modifier=1):
                passed.append(u)
            else:
                self._event("assault_failed", rule="17.12", units=[u.id], target=target)
        return passed

    def _mine_attack_after_assault(self, hex_id: str) -> None:
        """19.2/19.22/19.24: AP mines in the assaulted hex are revealed and attack EACH infantry/CW
        unit in the hex after the assault. AT mines are not detonated by infantry (19.21)."""
        m = self.state.mines[hex_id]
        m["revealed_ap"] = True
        self._event("mines_revealed", rule="19.22", hex=hex_id, ap=m["ap"])
        for u in sorted(self.state.units_at(hex_id), key=lambda x: x.id):
            if u.is_afv:
                continue
            r = self.roll(1, f"AP mine attack on {u.id}", "19.24")
            self._apply_ap_result(u, ct.ap_mine_result(r.total, m["ap"]), "19.24")

    # ================================================================== assault fire (17.2)
    def _casualty(self, side_units: list[Unit]) -> Unit | None:
        """17.23: the owner picks which unit to remove. The engine picks for him, the unit whose
        loss costs the least: a crew member of a CW that keeps firing (crew > 1, 17.24) first, then
        the lowest assault factor, non-commanders before commanders, lowest PR, then by id."""
        alive = [u for u in side_units if not u.eliminated]
        if not alive:
            return None
        return min(alive, key=lambda u: (0 if (u.is_cw and u.crew > 1) else 1, u.assault, u.is_commander, u.pr, u.id))

    def _assault_fire(self, u: Unit, purpose: str) -> bool:
        """17.23: one die <= the Assault factor eliminates an enemy unit; one shot per round even
        for a CW with several crew members (17.24)."""
        r = self.roll(1, f"assault fire {u.id} ({purpose})", "17.23")
        hit = r.total <= u.assault
        self._event("assault_fire", rule="17.23", unit=u.id, die=r.total, rating=u.assault, hit=hit, step=purpose)
        return hit

    def _take_casualties(self, units: list[Unit], hits: int) -> None:
        for _ in range(hits):
            v = self._casualty(units)
            if v is None:
                return
            if v.is_cw and v.crew > 1:
                v.crew -= 1  # a CW's crew members are lost one per hit (8.63 men; 17.24)
                self._event("crew_losses", rule="17.23", unit=v.id, lost=1, crew=v.crew)
                if v.replacements:
                    self._crew_reversion()  # 20.3 "at any time"
            else:
                self._eliminate(v, "17.23")

    def _assault_rounds(self, attackers: list[Unit], defenders: list[Unit]) -> None:
        """17.21 the initial round in sequence a/b/c, 17.22, then simultaneous rounds (17.0 e)
        until only one side is left."""
        def alive(us: list[Unit]) -> list[Unit]:
            return [u for u in us if not u.eliminated]

        normal = [d for d in defenders if d.morale is Morale.NORMAL]
        pinned = [d for d in defenders if d.morale is Morale.PINNED]
        supp = [d for d in defenders if d.morale is Morale.SUPPRESSED]
        # 17.21 a: NORMAL defenders fire, results applied immediately
        hits = sum(self._assault_fire(d, "initial a") for d in normal)
        self._take_casualties(attackers, hits)
        # 17.21 b: PINNED defenders and all attackers fire, results applied together afterwards
        h_att = sum(self._assault_fire(u, "initial b") for u in alive(attackers))
        h_def = sum(self._assault_fire(d, "initial b") for d in alive(pinned))
        self._take_casualties(defenders, h_att)
        self._take_casualties(attackers, h_def)
        # 17.21 c: SUPPRESSED defenders still there fire, results applied immediately
        hits = sum(self._assault_fire(d, "initial c") for d in alive(supp))
        self._take_casualties(attackers, hits)
        if not (alive(attackers) and alive(defenders)):
            return  # 17.0 d: only one side (or nobody) is left -> f
        for d in alive(defenders):
            if d.morale is not Morale.NORMAL:
                d.morale = Morale.NORMAL  # 17.22
                self._event("recovered", rule="17.22", unit=d.id)
        rounds = 1
        while alive(attackers) and alive(defenders):
            rounds += 1  # 17.0 e: simultaneous rounds; eliminated units still fire (17.23)
            a_hits = sum(self._assault_fire(u, f"round {rounds}") for u in alive(attackers))
            d_hits = sum(self._assault_fire(d, f"round {rounds}") for d in alive(defenders))
            self._take_casualties(defenders, a_hits)
            self._take_casualties(attackers, d_hits)
            if rounds >= 500:  # both sides with assault factor 0: nobody can ever hit
                self._event("assault_stalemate", rule="17.0 e", rounds=rounds)
                break
