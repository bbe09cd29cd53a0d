"""Fire combat: eligibility and combination (10.1, 11.1), AP fire and results (11.1-11.45), AT fire
(12.0), grenades (15.0) and flamethrowers (16.0). A mixin of :class:`core.ironcross.game.Game`.

Every clause is cited where it is enforced; the readings chosen where the rulebook is unclear are
listed in ``docs/rules-interpretations.md`` ("Fire combat, mortars, grenades, flamethrowers").

* :meth:`FireRules._fire_problem` is the one authority on whether a :class:`Fire` is legal
  (10.1x eligibility, 10.2x target hex, 10.3 LOS from ``maps.los`` only, 11.0, 11.12-11.15, 12.1x);
  :meth:`FireRules._fire_options` enumerates a representative set of legal attacks for the players
  (every unit alone, AP and AT, with and without Intensive Fire, the largest combination of each
  hex, MG assisted fire and group fire).
* Nothing changes before an attack has been fully checked: an illegal action never rolls a die.
"""

from __future__ import annotations

import math

from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, Fire, Flame, Grenade, IllegalAction
from core.ironcross.ammo import fire_cost
from core.ironcross.observation import OPTION_SPECIAL_ROLL, fire_category
from core.ironcross.hex_terrain import in_frontal_area
from core.ironcross.state import Morale, Phase, Unit
from maps import hexgrid
from maps.los import HexOccupancy

#: Fire phases in which the deciding side may fire (6.0 B, E, F; 10.13).
_FIRE_PHASES = (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE, Phase.MOVING_FIRE)


def _dist(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


def _combinable(u: Unit) -> bool:
    """11.12-11.14: only infantry (not flamethrowers, 16.0) and MMGs combine AP factors."""
    return (u.is_infantry and not u.is_ft) or u.weapon == "MMG"


class FireRules:
    """Fire combat and its results."""

    # ================================================================== bookkeeping
    def _fire_memory(self) -> dict:
        """Per-game bookkeeping that is not unit state: the (player turn, phase) in which the
        deciding side resolved a non-mortar attack (14.0: mortar fire comes first)."""
        return self.state.records.setdefault("fire", {"other_fire": []})

    def _note_non_mortar_fire(self) -> None:
        s = self.state
        key = [s.player_turn, s.phase.value]
        mem = self._fire_memory()["other_fire"]
        if key not in mem:
            mem.append(key)

    def _non_mortar_fire_done(self) -> bool:
        s = self.state
        return [s.player_turn, s.phase.value] in self._fire_memory()["other_fire"]

    def _mark_fired(self, u: Unit, opportunity: bool = False) -> None:
        """4.0: a unit that took a PC to fire has FIRED for the rest of the Player Turn (10.11)."""
        s = self.state
        u.fired = True
        if opportunity:
            u.opp_fired = True
        if s.phase is Phase.SUPPORT_FIRE:
            u.support_fired = True  # 8.21
        if s.phase is Phase.MOVING_FIRE:
            u.moving_fired = True  # 17.14
        if u.is_atg:
            u.last_atg_fire_turn = s.turn  # 10.15 (recorded for every ATG fire)

    # ================================================================== 10.1 eligibility
    def _ineligibility(self, u: Unit) -> tuple[str, str] | None:
        """Why ``u`` may not perform fire combat now (rule, reason), or None (10.11-10.16, 11.15)."""
        s = self.state
        if not u.on_map:
            return ("10.11", f"{u.id} is not on the map")
        if not u.normal:
            return ("10.11", f"{u.id} is {u.morale.value}: PINNED/SUPPRESSED units may not fire (3.22)")
        if u.fired or u.opp_fired:
            return ("10.11", f"{u.id} has already fired (or attempted to) this Player Turn")
        if u.is_ft:
            return ("16.0", f"{u.id} is a flamethrower: it attacks with Flame")
        if u.is_mortar:
            return ("14.0", f"{u.id} is a mortar: it fires with MortarFire")
        if u.ap <= 0 and u.at <= 0:
            return ("10.1", f"{u.id} has no fire factors")
        if u.is_atr and not u.full_crew:
            return ("10.16", f"{u.id}: an ATR without a full crew may not fire at all")
        if u.is_atg and u.crew <= 2 and u.crew < u.crew_max and u.last_atg_fire_turn == s.turn:
            return ("10.15", f"{u.id}: an ATG with a crew of 1 or 2 fires only once a Game Turn")
        if u.is_mg and u.mg_broken:
            return ("11.15", f"{u.id}: the MG is broken for the rest of the game")
        if u.is_mg and u.mg_out_until >= s.player_turn:
            return ("11.15", f"{u.id}: the MG is jammed / malfunctioning until Player Turn {u.mg_out_until + 1}")
        if u.is_stug and u.moved and not u.changed_facing_only:
            return ("10.14", f"{u.id}: a Stug that moved this Player Turn may not fire")
        if u.is_cw and s.phase is Phase.MOVING_FIRE and u.moved and not self._turned_only(u):
            return ("10.13", f"{u.id}: CW units that moved may not fire in the Moving Fire Phase")
        if s.phase is Phase.DEFENSIVE_FIRE and u.reaction_moved and not self._turned_only(u):
            return ("10.13", f"{u.id} moved in the Reaction Movement Phase")
        return None

    @staticmethod
    def _turned_only(u: Unit) -> bool:
        """8.72 / 8.73: an ATG (3-4 crew when it turned) or an MG (any crew) whose only movement this
        Player Turn was a facing change in its own hex may still fire: the 10.13 bars on moved CWs
        in the Moving Fire Phase and on reaction movers in the Defensive Fire Phase, and the 13.12
        "have not moved" condition, do not apply to it. It has moved all the same (8.71 "for all
        purposes": 11.32 one more AP die, 12.2 three AT dice). Moving to another hex, or a movement
        PC without a facing change, is not covered."""
        return (u.is_mg or u.is_atg) and u.moved and u.changed_facing_only

    def _can_fire_basic(self, u: Unit) -> bool:
        """10.11, 10.13-10.16, 11.15: may ``u`` perform (AP/AT) fire combat now?"""
        return self._ineligibility(u) is None

    def _phase_firers(self, side: str) -> list[Unit]:
        """The units of ``side`` eligible to fire in the current fire phase (10.13)."""
        return [u for u in self.state.units_of(side) if u.on_map and self._can_fire_basic(u)]

    # ================================================================== legal attacks
    def _fire_actions(self, side: str) -> list[Action]:
        s = self.state
        out: list[Action] = []
        if hasattr(self, "_mortar_actions"):
            out.extend(self._mortar_actions(side))  # 14.0 (listed first: mortar fire comes first)
        firers = self._phase_firers(side)
        enemy_hexes = sorted({u.hex for u in s.units.values() if u.on_map and u.side != side})
        for h in enemy_hexes:
            out.extend(self._fire_options(firers, h, self.enemy_in(h, side), opportunity=False))
        out.extend(self._grenade_actions(side))
        out.extend(self._flame_actions(side))
        return out

    def _fire_options(self, firers: list[Unit], target: str, targets: list[Unit], opportunity: bool) -> list[Action]:
        """Fire actions at ``target``: each unit alone (AP, with Intensive Fire for MGs; AT at each
        AFV), the largest combination of each hex (11.13 a/b, 11.14), MG assisted fire from two
        adjacent hexes (11.14) and group fire (11.13 c; Support and Defensive Fire only)."""
        if not targets:
            return []
        out: list[Action] = []
        los_ok: dict[tuple[str, bool], bool] = {}
        usable: list[Unit] = []
        afv_targets = [t for t in targets if t.is_afv]
        for u in firers:
            if u.hex == target:
                continue
            if not (u.ap > 0 or (u.at > 0 and afv_targets) or _combinable(u)):
                continue  # no AP fire, no AFV for its AT factor, no combination: nothing to offer
            if self._advanced_fire_problem(u) is not None:
                continue  # 21.0 FL/SP MGs fire with LaneFire/SprayFire; 22.1 out of ammo
            if self._needs_frontal(u) and not in_frontal_area(u.hex, u.facing, target):
                continue  # 10.23 (checked before the LOS: cheaper)
            key = (u.hex, u.down)
            if key not in los_ok:
                los_ok[key] = self.los(u.hex, target, firer_down=u.down).clear  # 10.21 / 10.3
            if not los_ok[key]:
                continue
            usable.append(u)
        for u in usable:
            if u.ap > 0 and not (u.is_afv and opportunity and _dist(u.hex, target) > 10):  # 13.2
                out.append(Fire((u.id,), target, "AP"))
                if u.is_mg and self._has_ammo(u, 3):
                    out.append(Fire((u.id,), target, "AP", intensive=(u.id,)))  # 11.15, 22.2
            if u.at > 0 and not self._observation_failed(u.hex, target, u.side):  # 23.31
                for t in afv_targets:
                    out.append(Fire((u.id,), target, "AT", target_unit=t.id))
        by_hex: dict[str, list[Unit]] = {}
        for u in usable:
            if _combinable(u):
                by_hex.setdefault(u.hex, []).append(u)
        combos: list[tuple[str, ...]] = []
        best: dict[str, list[Unit]] = {}
        for hx, us in sorted(by_hex.items()):
            best[hx] = self._largest_combination(us)
            if len(best[hx]) >= 2:
                combos.append(tuple(sorted(u.id for u in best[hx])))
        group_ok = not opportunity and self.state.phase in (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE)
        hexes = sorted(by_hex)
        for i, h1 in enumerate(hexes):
            for h2 in hexes[i + 1:]:
                if _dist(h1, h2) != 1:
                    continue
                mg1 = [u for u in by_hex[h1] if u.weapon == "MMG"]
                mg2 = [u for u in by_hex[h2] if u.weapon == "MMG"]
                # 11.14 MG assisted fire: the MMGs of one hex with the best combination of the other
                if mg1:
                    combos.append(tuple(sorted({u.id for u in mg1} | {u.id for u in best[h2]})))
                if mg2:
                    combos.append(tuple(sorted({u.id for u in mg2} | {u.id for u in best[h1]})))
                if group_ok:  # 11.13 c group fire, one squad (plus commanders and MMGs)
                    squads = sorted({u.squad for u in by_hex[h1] + by_hex[h2]
                                     if u.is_infantry and not u.is_commander})
                    for sq in squads:
                        ids = tuple(sorted(u.id for u in by_hex[h1] + by_hex[h2]
                                           if u.squad == sq or u.is_commander or u.weapon == "MMG"))
                        combos.append(ids)
        seen = set()
        for ids in combos:
            if len(ids) < 2 or ids in seen:
                continue
            seen.add(ids)
            a = Fire(ids, target, "AP")
            if self._combination_problem([self.units[x] for x in ids], opportunity) is None:
                out.append(a)
                mgs = tuple(x for x in ids if self.units[x].is_mg)
                if mgs and all(self._has_ammo(self.units[x], 3) for x in mgs):
                    out.append(Fire(ids, target, "AP", intensive=mgs))  # 11.15 with every MG
        return out

    def _needs_frontal(self, u: Unit) -> bool:
        """10.23: ATGs, MGs and German Stugs fire only into their frontal area (AFVs otherwise
        through any hexside)."""
        return (u.is_atg or u.is_mg or u.is_stug) and u.facing is not None

    def _advanced_fire_problem(self, u: Unit) -> tuple[str, str] | None:
        """Advanced rules: only DF MGs fire with Fire (21.1; FL/SP use LaneFire/SprayFire, 21.2,
        21.3); a unit out of ammo fires no more (22.1)."""
        if u.is_mg and u.mg_mode != "DF" and self._mg_modes_on():
            return ("21.0", f"{u.id} is in {u.mg_mode} mode: it fires with "
                            f"{'LaneFire' if u.mg_mode == 'FL' else 'SprayFire'}")
        if not self._has_ammo(u, 1):
            return ("22.1", f"{u.id} is out of ammo")
        return None

    def _largest_combination(self, us: list[Unit]) -> list[Unit]:
        """The largest set of one hex's units that may combine (11.13 a/b, 11.14)."""
        if self._normal_commander_in(us[0].hex, us[0].side):
            return [u for u in us if _combinable(u)]  # 11.13 b
        squads: dict[str | None, list[Unit]] = {}
        for u in us:
            if u.is_infantry and not u.is_ft:
                squads.setdefault(u.squad, []).append(u)
        best = max(sorted(squads.values(), key=lambda g: g[0].id), key=len, default=[])
        mgs = [u for u in us if u.weapon == "MMG"]  # 11.14
        return best + mgs

    def _normal_commander_in(self, hex_id: str, side: str) -> bool:
        return any(u.is_commander and u.normal and u.side == side for u in self.state.units_at(hex_id))

    def _combination_problem(self, firers: list[Unit], opportunity: bool) -> tuple[str, str] | None:
        """Why ``firers`` (two or more) may not combine their AP factors (11.12-11.14), or None."""
        for u in firers:
            if u.is_afv or u.is_atg:
                return ("11.12", f"{u.id}: AFVs and ATGs resolve their AP fire alone")
            if not _combinable(u):
                return ("11.13", f"{u.id} ({u.weapon}) may not combine its AP factors")
        hexes = sorted({u.hex for u in firers})
        if len(hexes) > 2:
            return ("11.13", "combined fire comes from one hex or from two adjacent hexes (11.13 c, 11.14)")
        if len(hexes) == 2 and _dist(hexes[0], hexes[1]) != 1:
            return ("11.13 c", "combined fire from two hexes needs adjacent hexes (11.13 c, 11.14)")
        side = firers[0].side
        inf_hexes = []
        for hx in hexes:
            inf = [u for u in firers if u.hex == hx and u.is_infantry]
            if not inf:
                continue
            inf_hexes.append(hx)
            squads = {u.squad for u in inf if not u.is_commander}
            if len(squads) > 1 and not self._normal_commander_in(hx, side):
                return ("11.13 b", f"different squads in {hx} combine only with a NORMAL commander there")
        if len(inf_hexes) == 2:
            # 11.13 c group fire
            if opportunity or self.state.phase not in (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE):
                return ("11.13 c", "group fire only in the Support Fire and Defensive Fire Phases")
            squads = {u.squad for u in firers if u.is_infantry and not u.is_commander}
            if len(squads) > 1:
                return ("11.13 c", "group fire: infantry units of the same squad")
            sq = next(iter(squads), None)
            leader = any(x.side == side and x.normal and not x.eliminated and (
                x.is_commander or (x.is_infantry and not x.is_ft and x.pr >= 9 and x.squad == sq))
                for hx in hexes for x in self.state.units_at(hx))
            if not leader:
                return ("11.13 c", "group fire needs a NORMAL leader (5.1/5.2) in one of the two hexes")
        return None

    # ================================================================== checking an attack
    def _fire_problem(self, a: Fire, side: str, opportunity: bool = False) -> tuple[str, str] | None:
        """Why ``a`` is not a legal attack by ``side`` now (rule, reason), or None."""
        if not a.firers or len(set(a.firers)) != len(a.firers):
            return ("10.0", "an attack names each firing unit once")
        firers = []
        for x in a.firers:
            u = self.units.get(x)
            if u is None:
                return ("24.1", f"no unit {x!r} in this game")
            if u.side != side:
                return ("10.1", f"{x} is not yours")
            bad = self._ineligibility(u) or self._advanced_fire_problem(u)
            if bad:
                return bad
            firers.append(u)
        if a.mode not in ("AP", "AT"):
            return ("10.0", f"unknown fire mode {a.mode!r}")
        targets = self.enemy_in(a.target, side)
        if not targets:
            return ("10.21", f"{a.target} holds no enemy unit")
        for u in firers:
            if u.hex == a.target:
                return ("10.21", f"{u.id} is in the target hex")
            if not self.los(u.hex, a.target, firer_down=u.down).clear:
                return ("10.21", f"{u.id} has no unblocked LOS to {a.target} (10.3)")
            if self._needs_frontal(u) and not in_frontal_area(u.hex, u.facing, a.target):
                return ("10.23", f"{u.id} may fire only at hexes in its frontal area")
        for x in a.intensive:
            if x not in a.firers or not self.units[x].is_mg:
                return ("11.15", f"only firing MGs may use Intensive Fire ({x})")
            if a.mode != "AP":
                return ("11.15", "Intensive Fire doubles AP factors only")
            if not self._has_ammo(self.units[x], 3):
                return ("22.2", f"{x}: Intensive Fire costs 3 ammo points")
        if a.mode == "AT":
            if len(firers) != 1:
                return ("12.14", "AT factors are never combined: one unit per AT attack (10.17)")
            u = firers[0]
            if u.at <= 0:
                return ("12.1", f"{u.id} has no AT factor")
            t = self.units.get(a.target_unit or "")
            if t is None or t.hex != a.target or not t.is_afv or t.eliminated or t.side == side:
                return ("12.12", "AT fire needs an enemy AFV in the target hex as target_unit")
            if self._observation_failed(u.hex, a.target, side):
                return ("23.31", f"AT fire needs an observed target: {u.hex} does not observe {a.target}")
            return None
        if a.target_unit is not None:
            return ("10.24", "AP fire attacks every unit in the target hex; it names no target unit")
        for u in firers:
            if u.ap <= 0:
                return ("11.0", f"{u.id} has no AP factor")
        if len(firers) > 1:
            return self._combination_problem(firers, opportunity)
        return None

    def _check_fire(self, a: Fire, side: str) -> None:
        bad = self._fire_problem(a, side, opportunity=False)
        if bad:
            raise IllegalAction(*bad)

    def _validate_combination(self, a: Fire, side: str) -> None:
        """Kept for callers of the earlier interface: raises like :meth:`_check_fire`."""
        self._check_fire(a, side)

    def _note_first_shot(self) -> None:
        """8.22: the first combat dice of the game (not PCs, not mines): movement PCs start with
        the next Phasing Player's Player Turn."""
        s = self.state
        if not s.first_shot:
            s.first_shot = True
            s.movement_pcs_from_player_turn = s.player_turn + 1  # 8.22
            self._event("first_shot", rule="8.22")

    # ================================================================== resolving an attack
    def _resolve_fire(self, a: Fire, opportunity: bool) -> None:
        s = self.state
        firers = [self.unit(x) for x in a.firers]
        reaction = s.phase is Phase.REACTION_MOVEMENT
        if not opportunity:
            self._note_non_mortar_fire()  # 14.0
        # 10.0 b (advanced): observation (23.0) before the PCs
        unobserved = self._observe_for_fire(a, firers)
        if a.mode == "AT" and unobserved:
            self._event("fire", rule="23.31", firers=list(a.firers), target=a.target, mode=a.mode, passed=[],
                        opportunity=opportunity, observed=False)
            return  # 23.31 AT fire must be directed at an observed target: no PC, nothing fired
        # 10.0 c: PCs (10.12; 13.17 +1 for opportunity fire by infantry and AFVs in the Movement
        # Phase -- MGs (LMGs included), ATRs and ATGs without -- and everybody in the Reaction
        # Movement Phase)
        passed = []
        for u in firers:
            mod = 0
            if opportunity and (reaction or (u.is_infantry and not u.is_mg) or u.is_afv):
                mod = 1
            self._mark_fired(u, opportunity)  # 4.0 attempted counts as performed
            if self.pc(u, f"fire at {a.target}", "13.17" if opportunity else "10.12", modifier=mod):
                passed.append(u)
        self._event("fire", rule="10.0", firers=list(a.firers), target=a.target, mode=a.mode,
                    passed=[u.id for u in passed], opportunity=opportunity)
        if not passed:
            return
        for u in passed:  # 22.1 only units that actually fire spend ammo; 23.2 fire history
            self._spend_ammo(u, fire_cost(u, intensive=u.id in a.intensive), f"{a.mode} fire at {a.target}")
            self._note_fired(u, fire_category(u, intensive=u.id in a.intensive, mode=a.mode))
        if a.mode == "AT":
            return self._resolve_at(passed[0], a.target_unit, a.target)
        self._resolve_ap(passed, a.target, set(a.intensive), opportunity, unobserved=unobserved)

    def _observe_for_fire(self, a: Fire, firers: list[Unit]) -> set[str]:
        """10.0 b / 23.1: observation attempts for a Fire; returns the firing hexes that do not
        observe the target hex (empty without the advanced rules). 23.34: AFVs and MGs firing AP at
        a building hex need no observation; 23.14 group fire: one leader observes for the attack."""
        if not self._observation_on():
            return set()
        side = firers[0].side
        hexes = sorted({u.hex for u in firers})
        building = self.terrain.is_building(a.target)

        def needs(hx: str) -> bool:
            if a.mode == "AT":
                return True
            return not all(building and (u.is_afv or u.is_mg) for u in firers if u.hex == hx)

        need = [hx for hx in hexes if needs(hx)]
        if not need:
            return set()
        inf_hexes = {u.hex for u in firers if u.is_infantry}
        if a.mode == "AP" and len(inf_hexes) == 2:  # 23.14 group fire (11.13 c)
            squads = {u.squad for u in firers if u.is_infantry and not u.is_commander}
            leaders = sorted((x for hx in hexes for x in self.state.units_at(hx)
                              if x.side == side and x.normal and (x.is_commander or (
                                  x.is_infantry and not x.is_ft and x.pr >= 9 and x.squad in squads))),
                             key=lambda x: (not x.is_commander, x.id))
            if leaders:
                lh = leaders[0].hex
                ok = self._observe(side, lh, a.target, only=[x for x in leaders if x.hex == lh])
                return set() if ok else set(need)
        return {hx for hx in need if not self._observe(side, hx, a.target)}

    def _ap_firepower(self, firers: list[Unit], target: str, intensive: set[str], opportunity: bool,
                      unobserved: set[str] | frozenset = frozenset()) -> dict:
        """AP firepower (11.1) in the order 11.1 gives: range attenuation (11.2) for each unit (an
        AFV's opportunity fire is first capped at 4 factors, 13.2, and then attenuated), then
        doubling (Intensive Fire 11.15) and halving (under-crewed MMGs 11.16 d), then the other
        reductions: 11.16 a (target hex), b (along each firing hex's LOS), c (once)."""
        units = []
        total = 0
        for u in firers:
            rng = _dist(u.hex, target)
            ap = u.ap
            if u.is_afv and opportunity:
                ap = min(ap, 4)  # 13.2 AFV AP opportunity fire: "4 factors maximum", then attenuated
            f = ct.attenuated(ap, u.ap_range, rng)  # 11.2 first of the 11.1 steps
            if u.id in intensive and u.is_mg:
                f *= 2  # 11.15
            if u.weapon == "MMG" and not u.full_crew:
                f //= 2  # 11.16 d (rounded down)
            units.append({"unit": u.id, "range": rng, "factor": f})
            total += f
        halved_part = 0
        if unobserved:
            # 23.32 unobserved: the firepower is halved (rounded up), in the halving step of 11.1;
            # 23.34 AFVs and MGs keep their factors against building hexes
            building = self.terrain.is_building(target)
            part = sum(d["factor"] for d, u in zip(units, firers)
                       if u.hex in unobserved and not (building and (u.is_afv or u.is_mg)))
            if part:
                halved_part = part - math.ceil(part / 2)
                total -= halved_part
        o = self.occupancy().get(hexgrid.parse_hex_id(target), HexOccupancy())
        red_a = self.terrain.trees(target) + o.afvs + o.wrecks  # 11.16 a
        red_b = 0
        higher = False
        for hx in sorted({u.hex for u in firers}):
            down = any(u.down for u in firers if u.hex == hx)
            r = self.los(hx, target, firer_down=down)  # the one LOS (10.3)
            red_b += r.trees_afvs_wrecks  # 11.16 b per firing hex
            if r.level_difference > 0:
                higher = True  # 11.16 c: once, even if both hexes are lower
        final = total - red_a - red_b - (1 if higher else 0)
        out = {"units": units, "base": total, "target_hex_reduction": red_a, "los_reduction": red_b,
               "higher": higher, "final": final}
        if unobserved:
            out["unobserved"] = sorted(unobserved)
            out["unobserved_reduction"] = halved_part  # 23.32
        return out

    def _resolve_ap(self, firers: list[Unit], target: str, intensive: set[str], opportunity: bool,
                    unobserved: set[str] | frozenset = frozenset()) -> None:
        s = self.state
        intensive = {x for x in intensive if x in {u.id for u in firers}}  # only MGs that fired
        fp = self._ap_firepower(firers, target, intensive, opportunity, unobserved)
        final = fp["final"]
        moved = any(self._counts_moved(u) for u in firers)  # 11.32: any firing unit moved
        self._event("ap_firepower", rule="11.1", firers=[u.id for u in firers], target=target, **fp)
        self._note_first_shot()
        side = firers[0].side
        for t in sorted(self.enemy_in(target, side), key=lambda x: x.id):  # 11.41 every unit, once (10.24)
            if t.eliminated or t.hex != target:
                continue
            n = self._ap_dice_against(t, target, moved)
            r = self.roll(n, f"AP fire at {t.id} (firepower {final})", "11.43")
            res = ct.ap_result(final, r.dice)
            self._event("ap_result", rule="11.44" if r.all_ones else "11.43", unit=t.id, dice=list(r.dice),
                        firepower=final, levels=list(ct.result_levels(final)), result=res.value)
            self._apply_ap_result(t, res, "11.43")
        for x in sorted(intensive):  # 11.15: after each use, two dice on the Intensive Fire Table
            mg = self.units[x]
            r = self.roll(2, f"intensive fire {mg.id}", "11.15")
            eff, turns = ct.intensive_fire_effect(r.total)
            if turns is None:
                mg.mg_broken = True
            elif turns:
                mg.mg_out_until = s.player_turn + turns
            self._event("intensive_fire", rule="11.15", unit=mg.id, total=r.total, effect=eff)

    def _ap_dice_against(self, t: Unit, target: str, moved: bool, *, mortar: bool = False) -> int:
        """Dice for an AP attack on ``t`` (11.3): AFVs 2 UP / 4 DOWN (11.34); infantry and CWs by
        the target hex's row, DOWN, AFV/wreck cover (11.33, not CWs, not mortars 14.4) and IPs
        (18.2, 18.3); one more if any firer moved (11.32). Mortars ignore trees (14.4)."""
        if t.is_afv:
            return (4 if t.down else 2) + (1 if moved else 0)  # 11.34
        cover = (not mortar) and (not t.is_cw) and self._afv_cover(t)
        return self.terrain.ap_dice(target, target_down=t.down, firer_moved=moved, afv_cover=cover,
                                    ip_points=self.state.ips.get(target, 0), ignore_trees=mortar)

    def _afv_cover(self, t: Unit) -> bool:
        """11.33: an AFV or wreck in the hex covers infantry if it has not moved in the Player
        Turn (wrecks never move), or if the infantry moved with it throughout and ended stacked
        with it. CW units never get this cover."""
        if t.is_cw or t.is_afv:
            return False
        if self.state.wrecks.get(t.hex):
            return True
        for a in self.state.units_at(t.hex):
            if a.is_afv and a.side == t.side:
                if not a.moved or t.moved_with_afv == a.id:
                    return True
        return False

    # ================================================================== results (11.4, 11.45)
    def _apply_ap_result(self, t: Unit, res: ct.ApResult, rule: str) -> None:
        """Apply an AP result (11.43) with the Cumulative Combat Results Table (11.45)."""
        if res is ct.ApResult.NO_EFFECT or t.eliminated:
            return
        if t.is_afv:
            if res is ct.ApResult.PINNED:
                self._event("no_effect", rule="11.43", unit=t.id, reason="AFVs: Pinned has no effect")
                return
            if res is ct.ApResult.ELIMINATED:
                self._kill_tank_commander(t, "11.43")
            self._set_morale(t, ct.ApResult.SUPPRESSED, rule)
            return
        if res is ct.ApResult.ELIMINATED:
            if t.is_cw:
                return self._cw_crew_losses(t, 8, rule)  # 11.43 CW: 8 or less kills a crew member
            return self._eliminate(t, rule)
        self._set_morale(t, res, rule)

    def _kill_tank_commander(self, t: Unit, rule: str) -> None:
        """11.43: an E result on an AFV: SUPPRESSED, and DOWN for the rest of the game."""
        if not t.commander_killed:
            t.commander_killed = True
            self._event("tank_commander_killed", rule=rule, unit=t.id)

    def _set_morale(self, t: Unit, res: ct.ApResult, rule: str) -> None:
        """A P or S result through the Cumulative Combat Results Table (11.45); 3.25 DOWN."""
        before = t.morale.value
        out = ct.cumulative(before, res)
        if out is None:
            return
        if out is ct.CumulativeOutcome.SPECIAL_ROLL:
            # 11.45 Special Roll: a PC; fail = eliminated (the E result of the unit's type), pass =
            # remains SUPPRESSED
            if self._option(OPTION_SPECIAL_ROLL) and t.hex is not None:
                ok = not self._special_roll_by_observation(t)  # optional Special Roll (observation)
            else:
                ok = self.pc(t, "cumulative special roll", "11.45")
                self._event("special_roll", rule="11.45", unit=t.id, passed=ok)
            if not ok:
                if t.is_afv:
                    self._kill_tank_commander(t, "11.45")
                elif t.is_cw:
                    return self._cw_crew_losses(t, 8, "11.45")
                else:
                    return self._eliminate(t, "11.45")
            out = ct.CumulativeOutcome.SUPPRESSED
        self._put_status(t, Morale.PINNED if out is ct.CumulativeOutcome.PINNED else Morale.SUPPRESSED, rule,
                         before)

    def _put_status(self, t: Unit, status: Morale, rule: str, before: str | None = None) -> None:
        t.morale = status
        t.down = True  # 3.25 PINNED/SUPPRESSED units go DOWN at once
        self._event("morale", rule=rule, unit=t.id, before=before or status.value, after=t.morale.value)

    def _cw_crew_losses(self, t: Unit, threshold: int, rule: str) -> None:
        """CW eliminated result (11.43: 8 or less; 15.8: 10 or less): 2d6 per crew member, a total
        <= ``threshold`` kills him; survivors are SUPPRESSED (set, not cumulated: the E result is
        the whole effect of this attack)."""
        lost = 0
        for i in range(t.crew):
            r = self.roll(2, f"crew member {i + 1} of {t.id}", rule)
            if r.total <= threshold:
                lost += 1
        t.crew -= lost
        self._event("crew_losses", rule=rule, unit=t.id, lost=lost, crew=t.crew)
        if t.crew <= 0:
            return self._eliminate(t, rule)
        if t.replacements:
            self._crew_reversion()  # 20.3 "at any time": only replacements left -> infantry again
            if t.eliminated:
                return
        self._put_status(t, Morale.SUPPRESSED, rule, t.morale.value)

    def _eliminate(self, t: Unit, rule: str) -> None:
        t.eliminated = True
        where = t.hex
        t.hex = None
        self._event("eliminated", rule=rule, unit=t.id, side=t.side, hex=where)
        if self.moving is not None and t.id in self.moving.units:
            self.moving.units.remove(t.id)

    def _destroy_afv(self, t: Unit, rule: str) -> None:
        """12.32: the AFV is removed and replaced by a Wreck (12.4); 12.34 friendly infantry stacked
        with it are SUPPRESSED at once (through the cumulative table, 11.45)."""
        where = t.hex
        self._eliminate(t, rule)
        self.state.wrecks[where] = self.state.wrecks.get(where, 0) + 1  # 12.32 / 12.4
        self._event("wreck", rule="12.4", hex=where, unit=t.id)
        for u in self.state.units_at(where):
            if u.side == t.side and u.is_infantry:
                self._set_morale(u, ct.ApResult.SUPPRESSED, "12.34")

    # ================================================================== AT fire (12.0)
    def _resolve_at(self, u: Unit, target_uid: str | None, target: str) -> None:
        t = self.units.get(target_uid or "")
        if t is None or t.hex != target or not t.is_afv:
            raise IllegalAction("12.12", "AT fire needs an AFV target in the target hex")  # checked before
        rng = _dist(u.hex, target)
        at = ct.attenuated(u.at, u.ap_range, rng) if u.is_atr else u.at  # 12.15 no terrain; 12.16 ATR only
        n = 3 if (self._counts_moved(u) or u.changed_facing_only) else 2  # 12.2 (Stug that only changed facing: 3)
        frontal = in_frontal_area(target, t.facing or 1, u.hex)  # 12.31 firer in the target's frontal area
        armour = t.frontal if frontal else t.flank
        higher = self.los(u.hex, target, firer_down=u.down).level_difference > 0  # 12.31 +1
        self._note_first_shot()
        r = self.roll(n, f"AT fire {u.id} at {t.id}", "12.31")
        kill = ct.at_destroys(at, r.dice, armour, higher)  # 12.32, 12.33
        self._event("at_result", rule="12.33" if r.all_ones else "12.32", firer=u.id, unit=t.id, dice=list(r.dice),
                    at=at, armour=armour, frontal=frontal, higher=higher,
                    total=r.total if r.all_ones else r.total + armour + (1 if higher else 0), destroyed=kill)
        if kill:
            self._destroy_afv(t, "12.32")

    # ================================================================== grenades (15.0)
    def _grenade_hexes_now(self) -> set:
        return self._grenade_hexes

    def _grenade_actions(self, side: str) -> list[Action]:
        s = self.state
        if s.grenades.get(side, 0) <= 0:
            return []  # 15.9
        out = []
        # hexes holding enemy units (15.1): the others fail the target problem's first test
        enemy = {u.hex for u in s.units.values() if u.side != side and u.on_map}
        near = self.__dict__.setdefault("_grenade_area_cache", {})  # hex -> the map's hexes 1-2 away
        for u in self._phase_firers(side):
            if not u.is_infantry or u.is_ft or u.hex in self._grenade_hexes:
                continue  # 15.1, 15.2, 15.3
            ts = near.get(u.hex)
            if ts is None:
                ts = near[u.hex] = tuple(t.id for t in hexgrid.area(hexgrid.parse_hex_id(u.hex), 2)[1:]
                                         if self.map.contains(t))
            for tid in ts:
                if tid in enemy and self._grenade_target_problem(u, tid, side) is None:
                    out.append(Grenade(u.id, tid))
        return out

    def _grenade_target_problem(self, u: Unit, tid: str, side: str) -> tuple[str, str] | None:
        en = self.enemy_in(tid, side)
        if not en:
            return ("15.1", f"{tid} holds no enemy unit")
        if all(x.is_afv for x in en):
            return ("15.6", "AFVs are not affected by grenades")
        d = _dist(u.hex, tid)
        if d < 1 or d > 2:
            return ("15.4", "grenades reach one or two hexes")
        if d == 2 and (self.terrain.is_building(tid) or self.terrain.is_building(u.hex)):
            return ("15.4", "two hexes only if neither hex holds a Building")
        if not self.los(u.hex, tid, firer_down=u.down).clear:
            return ("10.21", f"no LOS from {u.hex} to {tid}")
        return None

    def _grenade(self, a: Grenade) -> None:
        side = self._decider
        u = self.units.get(a.thrower)
        if u is None or u.side != side:
            raise IllegalAction("15.2", f"{a.thrower} is not one of your units")
        if not u.is_infantry or u.is_ft:
            raise IllegalAction("15.2", "only infantry (not flamethrowers) throw grenades")
        if self.state.grenades.get(side, 0) <= 0:
            raise IllegalAction("15.9", "no grenades left")
        bad = self._ineligibility(u)
        if bad:
            raise IllegalAction(*bad)  # 15.3 eligible as in 10.1
        if u.hex in self._grenade_hexes:
            raise IllegalAction("15.3", f"a grenade was already thrown (or attempted) from {u.hex} this Player Turn")
        bad = self._grenade_target_problem(u, a.target, side)
        if bad:
            raise IllegalAction(*bad)
        self._note_non_mortar_fire()  # 14.0
        self._grenade_hexes.add(u.hex)  # 15.3 one throw per hex per Player Turn
        for x in self.state.units_at(u.hex):
            if x.side == side and x.id != u.id and not x.fired:
                self._mark_fired(x)  # 15.3 all units in the hex have performed fire combat
                if self.state.phase is Phase.MOVING_FIRE:
                    x.grenade_hex = a.target  # 17.14
        self._mark_fired(u)
        if self.state.phase is Phase.MOVING_FIRE:
            u.grenade_hex = a.target  # 17.14
        ok = self.pc(u, f"grenade at {a.target}", "15.3", modifier=2)
        self._event("grenade", rule="15.3", thrower=u.id, target=a.target, passed=ok)
        if not ok:
            return  # 15.9 attempts do not use a grenade
        self.state.grenades[side] -= 1  # 15.9
        self._note_first_shot()
        building = self.terrain.is_building(a.target)
        for t in sorted(self.enemy_in(a.target, side), key=lambda x: x.id):
            if t.is_afv:
                continue  # 15.6
            r = self.roll(1, f"grenade at {t.id}", "15.6")
            res = ct.grenade_result(r.total, building)
            self._event("grenade_result", rule="15.6", unit=t.id, die=r.total, result=res.value)
            if res is ct.ApResult.ELIMINATED and t.is_cw:
                self._cw_crew_losses(t, 10, "15.8")
            else:
                self._apply_ap_result(t, res, "15.7")

    # ================================================================== flamethrowers (16.0)
    def _flame_problem(self, u: Unit, tid: str, side: str) -> tuple[str, str] | None:
        s = self.state
        if not u.is_ft:
            return ("16.0", f"{u.id} is not a flamethrower")
        if s.phase not in _FIRE_PHASES:
            return ("16.0", "flamethrowers attack in the Support, Defensive and Moving Fire Phases")
        if not u.on_map or not u.normal:
            return ("10.11", f"{u.id} is not a NORMAL unit on the map")
        if u.fired or u.opp_fired:
            return ("10.11", f"{u.id} has already fired this Player Turn")
        if s.phase is Phase.DEFENSIVE_FIRE and u.reaction_moved:
            return ("10.13", f"{u.id} moved in the Reaction Movement Phase")
        if u.down:
            return ("16.2", "flamethrowers fire only from the UP state")
        if not self._has_ammo(u, 1):  # 22.1 an FT with an ammo number (Scenario 4's "FT PR9 (4)")
            return ("22.1", f"{u.id} is out of ammo")
        d = _dist(u.hex, tid)
        if d < 1 or d > 2:
            return ("16.1", "flamethrowers reach one or two hexes")
        tg = self.enemy_in(tid, side)
        if not tg:
            return ("10.21", f"{tid} holds no enemy unit")
        if all(x.is_afv for x in tg):
            return ("16.1", "flamethrowers may not fire at AFVs")
        if not self.los(u.hex, tid).clear:
            return ("10.21", f"no LOS from {u.hex} to {tid}")
        return None

    def _flame_actions(self, side: str) -> list[Action]:
        out = []
        for u in self.state.units_of(side):
            if not u.is_ft or not u.on_map:
                continue
            h = hexgrid.parse_hex_id(u.hex)
            for t in hexgrid.area(h, 2)[1:]:
                if self.map.contains(t) and self._flame_problem(u, t.id, side) is None:
                    out.append(Flame(u.id, t.id))
        return out

    def _flame(self, a: Flame) -> None:
        side = self._decider
        u = self.units.get(a.unit)
        if u is None or u.side != side:
            raise IllegalAction("16.0", f"{a.unit} is not one of your units")
        bad = self._flame_problem(u, a.target, side)
        if bad:
            raise IllegalAction(*bad)
        self._note_non_mortar_fire()  # 14.0
        self._mark_fired(u)
        if not self.pc(u, f"flamethrower at {a.target}", "10.12"):  # 16.0 same PC as other units
            self._event("flame", rule="16.0", unit=u.id, target=a.target, passed=False)
            return
        self._event("flame", rule="16.0", unit=u.id, target=a.target, passed=True)
        self._spend_ammo(u, 1, f"flame attack at {a.target}")  # 22.1: one fire combat, one point (advanced)
        self._note_fired(u, "g")  # 23.2 observer g
        self._note_first_shot()
        rng = _dist(u.hex, a.target)
        for t in sorted(self.enemy_in(a.target, side), key=lambda x: x.id):
            if t.is_afv:
                continue  # 16.1
            r = self.roll(2, f"flamethrower at {t.id}", "16.3")  # 16.3 always two dice
            res = ct.flamethrower_result(r.total, rng)
            self._event("flame_result", rule="16.3", unit=t.id, total=r.total, result=res.value)
            self._apply_ap_result(t, res, "16.3")
