"""Assault (17.0): designation at the end of movement phases and resolution in the Assault Phase.

A mixin of :class:`core.ironcross.game.Game`.
"""

from __future__ import annotations


from core.ironcross import combat_tables as ct
from core.ironcross.actions import (
    Action, DesignateAssault)
from core.ironcross.state import Morale, Unit
from maps import hexgrid


class AssaultRules:
    """Assault designation (17.0) and resolution (17.1-17.3)."""

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

