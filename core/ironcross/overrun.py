"""Overruns (9.0-9.3, 18.4, 19.2): an AFV moving in the Movement Phase enters an adjacent
enemy-occupied hex, the defenders' special AT fire (9.2 A, the defending player's decision:
``OverrunAtFire`` per eligible unit or ``Pass``, while the overrun waits) and infantry fire (9.2 B)
try to stop it, it attacks every defender (9.2 C), mines attack it (19.2), and it must exit. A combined
overrun (9.3) takes the infantry moving with it (8.4) into the hex, where they stay and assault
at once (9.33). A mixin of :class:`core.ironcross.game.Game`; readings of unclear clauses are in
``docs/rules-interpretations.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, IllegalAction, Overrun, OverrunAtFire, Pass
from core.ironcross.state import Morale, Phase, Unit, other_side, stacking_problem
from maps import hexgrid


@dataclass
class OverrunFireWindow:
    """9.2 A: the overrun of ``hex`` by ``afv`` (about to enter from ``frm`` with the accompanying
    infantry ``infantry``, 9.3) waits while the defending ``side`` decides, unit by unit, which of
    its eligible ATR/ATG units (``pending``, ids) fire at it; ``resume`` decides again afterwards."""

    side: str
    hex: str
    afv: str
    frm: str
    infantry: list[str]
    pending: list[str]
    resume: str | None


class OverrunRules:
    """Overrun options and resolution."""

    def _overrunner(self) -> Unit | None:
        """The AFV of the moving group that could overrun now (9.11: Movement Phase, once per
        Player Turn; not while leaving an overrun hex or entering the map)."""
        mv = self.moving
        if mv is None or mv.entering or mv.overrun_from is not None:
            return None
        if self.state.phase is not Phase.MOVEMENT:
            return None  # 9.11 only in the friendly Movement Phase
        group = self._group()
        afv = self.units[mv.afv] if mv.afv else (group[0] if len(group) == 1 and group[0].is_afv else None)
        if afv is None or afv.overrun_done or afv.immobilized or not afv.normal:
            return None
        return afv

    def _overrun_exit_cost(self, afv: Unit, target: str) -> float | None:
        """The cheapest legal exit from ``target`` (9.0: no hex entered may be prohibited)."""
        best = None
        for n in hexgrid.neighbours(hexgrid.parse_hex_id(target)):
            if not self.map.contains(n):
                continue
            ok, _, _ = self._can_enter([afv], n.id)
            if not ok:
                continue
            c = self._step_cost(afv, target, n.id)
            if c is not None and (best is None or c < best):
                best = c
        return best

    def _overrun_targets(self) -> list[str]:
        afv = self._overrunner()
        if afv is None:
            return []
        side = afv.side
        out = []
        for n in hexgrid.neighbours(hexgrid.parse_hex_id(afv.hex)):
            if not self.map.contains(n):   # off the map first: left of column 00 is no hex id
                continue
            h = n.id
            enemies = self.enemy_in(h, side)
            if not enemies:
                continue
            if any(e.is_afv for e in enemies) or self.state.wrecks.get(h):
                continue  # 9.13
            if any(x.is_afv and x.side == side for x in self.state.units_at(h)):
                continue  # 8.61
            cin = self._step_cost(afv, afv.hex, h)
            cout = self._overrun_exit_cost(afv, h)
            if cin is None or cout is None:
                continue  # 9.0 no prohibited hex
            if cin + 1 + cout <= self.moving.mp[afv.id] + 1e-9:  # 9.0: +1 MP, and MPs to exit
                out.append(h)
        return out

    def _overrun_actions(self) -> list[Action]:
        out: list[Action] = []
        targets = self._overrun_targets()
        if not targets:
            return out
        inf = len(self._group()) > 1
        for h in targets:
            if self._overrun_stacking_ok(h, False):
                out.append(Overrun(h, False))
            if inf and self._overrun_stacking_ok(h, True):
                out.append(Overrun(h, True))  # 9.3
        return out

    def _overrun_stacking_ok(self, target: str, with_infantry: bool) -> bool:
        """8.62: the infantry of the group that do not go into ``target`` end their move in the
        adjacent hex (9.3, 8.43) and those that go in stay there (9.33): each within the stacking
        limit (the infantry that never left their hex may stay). The AFV itself must exit."""
        mv = self.moving
        group = self._group()
        afv = self._overrunner()
        others = [u for u in group if u is not afv]
        if not others:
            return True
        frm = afv.hex
        going: list[Unit] = []
        if with_infantry:
            able = [u for u in others if self._able_to_enter(u, frm, target)]
            if able and sum(e.men for e in self.enemy_in(target, afv.side)) <= sum(u.men for u in able):
                going = able  # 9.3: not refused
        staying = [u for u in others if u not in going]
        if staying and mv.hexes_moved:
            if stacking_problem([u for u in self.state.units_at(frm) if u not in group] + staying) is not None:
                return False
        return not going or stacking_problem(self.state.units_at(target) + going) is None

    def _overrun(self, a: Overrun) -> None:
        mv = self.moving
        if a not in self._overrun_actions():
            if a.hex in self._overrun_targets() and not self._overrun_stacking_ok(a.hex, a.with_infantry):
                raise IllegalAction("8.62", "the infantry would end their move over the stacking limit")
            raise IllegalAction("9.0", f"{a} is not a legal overrun now (9.0, 9.11, 9.13)")
        afv = self._overrunner()
        side, frm, target = afv.side, afv.hex, a.hex
        afv.overrun_done = True  # 9.11
        others = [u for u in self._group() if u is not afv]
        inf: list[Unit] = []
        if a.with_infantry:
            able = [u for u in others if self._able_to_enter(u, frm, target)]
            enemy_men = sum(e.men for e in self.enemy_in(target, side))
            if able and enemy_men <= sum(u.men for u in able):
                inf = able
            else:
                self._event("combined_overrun_refused", rule="9.3", units=[u.id for u in others],
                            enemy_men=enemy_men)
        # infantry not going in end their movement in the adjacent hex (9.3, 8.43)
        for u in others:
            if u not in inf:
                mv.units.remove(u.id)
        self._event("overrun", rule="9.0", unit=afv.id, hex=target, frm=frm, combined=[u.id for u in inf])
        # ---- A) defensive AT fire, once per Movement Phase, at the first AFV (9.2 A): it "may" be
        # tried, so the defending player decides, unit by unit (OverrunAtFire or Pass)
        ps = self._mph()
        if target not in ps["overrun_at"]:
            ps["overrun_at"].add(target)  # the one chance, used even if every unit declines
            shooters = [d.id for d in sorted(self.enemy_in(target, side), key=lambda x: x.id)
                        if self._overrun_at_eligible(d)]
            if shooters:
                defender = other_side(side)
                self.overrun_window = OverrunFireWindow(defender, target, afv.id, frm, [u.id for u in inf],
                                                        shooters, self._decider)
                self._decider = defender
                self._event("overrun_at_fire_window", rule="9.2 A", side=defender, hex=target, unit=afv.id,
                            eligible=list(shooters))
                return
        self._overrun_enter(afv, frm, target, inf)

    # ------------------------------------------------------------------ 9.2 A decisions
    @staticmethod
    def _overrun_at_eligible(d: Unit) -> bool:
        """9.2 A: a NORMAL ATR (full crew, 10.16) or ATG with AT factors; facing and earlier fire in
        the Player Turn do not matter ("regardless")."""
        return (not d.eliminated and d.on_map and d.normal and (d.is_atr or d.is_atg) and d.at > 0
                and not (d.is_atr and not d.full_crew))

    def _overrun_fire_actions(self) -> list[Action]:
        """The special AT fire shots the defending side may still take (9.2 A), one per unit."""
        w = self.overrun_window
        if w is None:
            return []
        return [OverrunAtFire(x) for x in w.pending if self._overrun_at_eligible(self.units[x])]

    def _apply_overrun_window(self, a: Action) -> None:
        """Apply the defending side's 9.2 A decision: ``OverrunAtFire(unit)`` (a normal fire PC,
        10.12, then 12.2 dice against the AFV's frontal armour, +1 if the AFV's hex is higher) or
        ``Pass`` (no more shots). The overrun goes on when no shot is left, unless the AFV was
        destroyed (Wreck in the hex it came from, 9.2 A / 9.31). Raises IllegalAction (9.2 A)."""
        w = self.overrun_window
        if isinstance(a, Pass):
            if w.pending:
                self._event("overrun_at_fire_declined", rule="9.2 A", units=list(w.pending))
            return self._close_overrun_window(resume=True)
        if not isinstance(a, OverrunAtFire) or a not in self._overrun_fire_actions():
            raise IllegalAction("9.2 A", f"{a} is not possible now: special AT fire by an eligible unit or Pass")
        w.pending.remove(a.unit)
        d, afv = self.units[a.unit], self.units[w.afv]
        if self.pc(d, f"special AT fire at {afv.id}", "9.2 A"):  # 10.12, no modifier
            self._note_first_shot()
            n = 3 if d.moved else 2  # 12.2
            r = self.roll(n, f"special AT fire {d.id} at {afv.id}", "9.2 A")
            higher = self.terrain.level(w.frm) > self.terrain.level(w.hex)
            kill = ct.at_destroys(d.at, r.dice, afv.frontal, higher)  # frontal armour (9.2 A)
            self._event("at_result", rule="9.2 A", firer=d.id, unit=afv.id, dice=list(r.dice), at=d.at,
                        armour=afv.frontal, frontal=True, higher=higher, destroyed=kill)
            if kill:
                self._close_overrun_window(resume=False)
                self._overrun_afv_destroyed_outside(afv, w.frm, [self.units[x] for x in w.infantry])
                return
        if not self._overrun_fire_actions():
            self._close_overrun_window(resume=True)

    def _close_overrun_window(self, resume: bool) -> None:
        """End the 9.2 A decision; the moving side decides again; with ``resume`` the AFV enters."""
        w = self.overrun_window
        self.overrun_window = None
        self._decider = w.resume
        if resume:
            self._overrun_enter(self.units[w.afv], w.frm, w.hex, [self.units[x] for x in w.infantry])

    def _overrun_enter(self, afv: Unit, frm: str, target: str, inf: list[Unit]) -> None:
        """The overrun after 9.2 A: the AFV (and the infantry of a combined overrun) enter, 9.2 B,
        9.2 C, the 9.33 assault, then mines and the exit (:meth:`_overrun_finish`)."""
        mv = self.moving
        side = afv.side
        # ---- the AFV (and accompanying infantry) enter the hex: terrain cost, +1 MP for the AFV
        for u in [afv] + inf:
            c = self._step_cost(u, frm, target) or 0
            mv.mp[u.id] = 0 if mv.one_hex[u.id] else mv.mp[u.id] - c - (1 if u is afv else 0)
            u.hex = target
            u.changed_facing_only = False
        mv.hexes_moved += 1
        mv.free_turn = True
        mv.path.append(target)
        self._event("moved", rule="9.0", units=[u.id for u in [afv] + inf], frm=frm, to=target,
                    mp_left={u.id: mv.mp[u.id] for u in [afv] + inf})
        defenders = sorted(self.enemy_in(target, side), key=lambda x: x.id)
        # ---- B) defensive infantry fire, for every AFV; skipped in a combined overrun (9.32)
        if not inf and self._overrun_infantry_fire(afv, target, defenders):
            self._overrun_finish(afv, target, [])
            return
        # ---- C) the AFV attacks every defending unit
        self._overrun_attack(afv, target, defenders)
        # ---- 9.33 the infantry stay; an immediate assault without PC if enemies remain
        if inf:
            for u in inf:
                mv.units.remove(u.id)
            enemies = sorted(self.enemy_in(target, side), key=lambda x: x.id)
            if enemies:
                self._event("assault", rule="9.33", side=side, target=target, attackers=[u.id for u in inf],
                            immediate=True)
                self._note_first_shot()
                # 17.2 rounds, no PC (9.33); the owners choose their casualties (17.23), then
                # _overrun_assault_over finishes the overrun
                self._start_fight("overrun", side, target, list(inf), enemies, {"afv": afv.id})
                return
        self._overrun_finish(afv, target, inf)  # those eliminated in 9.33 set the AP mines off too (19.24)

    def _overrun_assault_over(self, fight) -> None:
        """The end of the 9.33 immediate assault (``fight``: the finished
        :class:`core.ironcross.assault.AssaultFight`): survivors DOWN (17.0 f), the infantry's
        participation complete (9.34), then mines and the AFV's exit (:meth:`_overrun_finish`)."""
        target = fight.target
        inf = [self.units[x] for x in fight.attackers]
        for u in self.state.units_at(target):
            if not u.is_afv:
                u.down = True  # 17.0 f
        for u in inf:
            u.fired = True  # 9.34 their participation in this Player Turn is complete
            u.moving_fired = True
            u.assault_hex = None
        # those eliminated in 9.33 set the AP mines off too (19.24)
        self._overrun_finish(self.units[fight.after["afv"]], target, inf)

    def _overrun_afv_destroyed_outside(self, afv: Unit, frm: str, inf: list[Unit]) -> None:
        """9.2 A / 9.31: the Wreck goes in the hex the AFV came from; the accompanying infantry
        go DOWN there and have completed their move (they are not SUPPRESSED by it)."""
        mv = self.moving
        self._eliminate(afv, "9.2 A")
        self.state.wrecks[frm] = self.state.wrecks.get(frm, 0) + 1
        self._event("wreck", rule="9.2 A", hex=frm, unit=afv.id)
        for u in self.state.units_at(frm):
            if u.side == afv.side and u.is_infantry and u not in inf:
                self._set_morale(u, ct.ApResult.SUPPRESSED, "12.34")
        for u in inf:
            u.down = True  # 9.31
        self._event("move_end", rule="9.31", units=[u.id for u in inf], hex=frm)
        if mv is not None:
            self.moving = None

    def _overrun_infantry_fire(self, afv: Unit, target: str, defenders: list[Unit]) -> bool:
        """9.2 B; True when the AFV is destroyed (Wreck in the overrun hex)."""
        normal_inf = [d for d in defenders if d.is_infantry and d.normal]
        if not normal_inf:
            self._event("overrun_infantry_fire", rule="9.2 B", unit=afv.id, possible=False)
            return False
        best = min(normal_inf, key=lambda d: (-d.pr, d.id))  # the highest PR NORMAL infantry unit
        if not self.pc(best, f"defensive infantry fire at {afv.id}", "9.2 B"):
            return False
        men = sum(d.men for d in defenders if d.normal and (d.is_infantry or d.is_cw))
        commanders = sum(1 for d in defenders if d.normal and d.is_commander)
        trees = self.terrain.trees(target)
        ips = self.state.ips.get(target, 0)  # 18.3
        marsh = 2 if self.terrain.is_marsh(target) else 0
        number = men + trees + ips + commanders + marsh
        self._note_first_shot()
        r = self.roll(3, f"defensive infantry fire at {afv.id} (number {number})", "9.2 B")
        kill = r.total <= number
        self._event("overrun_infantry_fire", rule="9.2 B", unit=afv.id, number=number, men=men, trees=trees,
                    ips=ips, commanders=commanders, marsh=marsh, total=r.total, destroyed=kill)
        if kill:
            self._destroy_afv(afv, "9.2 B")
        return kill

    def _overrun_attack(self, afv: Unit, target: str, defenders: list[Unit]) -> None:
        """9.2 C: per defender 2d6 + trees + IP points + 1 if all are PINNED/SUPPRESSED <= overrun
        factor eliminates, else SUPPRESSED (cumulative, 11.45) and DOWN; 18.4 in an IP hex NORMAL
        units are only PINNED and SUPPRESSED ones stay SUPPRESSED."""
        live = [d for d in defenders if not d.eliminated]
        if not live:
            return
        trees = self.terrain.trees(target)
        ips = self.state.ips.get(target, 0)
        all_down = all(d.morale is not Morale.NORMAL for d in live)
        mod = trees + ips + (1 if all_down else 0)
        self._note_first_shot()
        for d in live:
            if d.eliminated:
                continue
            r = self.roll(2, f"overrun attack on {d.id}", "9.2 C")
            elim = r.total + mod <= afv.overrun
            self._event("overrun_result", rule="9.2 C", unit=d.id, total=r.total, modifier=mod,
                        overrun=afv.overrun, eliminated=elim)
            if elim:
                self._eliminate(d, "9.2 C")
            elif ips and d.morale is Morale.NORMAL:
                self._set_morale(d, ct.ApResult.PINNED, "18.4")
            elif ips and d.morale is Morale.SUPPRESSED:
                d.down = True  # 18.4 SUPPRESSED units remain so
                self._event("morale", rule="18.4", unit=d.id, before="SUPPRESSED", after="SUPPRESSED")
            else:
                self._set_morale(d, ct.ApResult.SUPPRESSED, "9.2 C")

    def _overrun_finish(self, afv: Unit, target: str, inf: list[Unit]) -> None:
        """19.2: mines attack after the resolution (AT factors the AFV before it leaves; AP
        factors, when infantry went in with it, every infantry/CW unit in the hex after their
        assault, defenders included, 19.24/19.26); 8.54/8.55; then the AFV must exit (no
        opportunity fire at the overrun hex)."""
        mv = self.moving
        self._update_control(target)
        self._mine_attack(target, [afv] + inf)
        self._immobilisation(target, [afv])
        if mv is None or self.moving is None:
            return
        mv.units = [afv.id] if not afv.eliminated else []
        mv.afv = None
        mv.leader = None
        if not mv.units or not afv.normal:
            self._event("move_end", rule="9.0", units=list(mv.units), hex=target)
            self.moving = None
            return
        mv.overrun_from = target
