"""Fire combat: eligibility and combination (10.1, 11.1), AP fire and results (11.1-11.45), AT fire
(12.0), grenades (15.0) and flamethrowers (16.0). A mixin of :class:`core.ironcross.game.Game`.
"""

from __future__ import annotations


from core.ironcross import combat_tables as ct
from core.ironcross.actions import (
    Action, Fire, Flame, Grenade, IllegalAction)
from core.ironcross.hex_terrain import in_frontal_area
from core.ironcross.state import Morale, Phase, Unit
from maps import hexgrid
from maps.los import HexOccupancy


class FireRules:
    """Fire combat and its results."""

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

