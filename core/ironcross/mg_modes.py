"""Machine gun modes (21.0, advanced rules): Direct Fire (DF), Fire Lane (FL) and Spray (SP).
A mixin of :class:`core.ironcross.game.Game`.

Under the basic rules every MG is in DF and nothing here runs. With ``rules="advanced"``:

* **Mode choice** (21.41): at the end of each Morale Phase (after 7.0 recovery) the Phasing Player,
  then the Non-phasing Player, may set the mode of each of his NORMAL on-map MGs once
  (:class:`SetMgMode`, then ``EndPhase``). FL names its target hex (21.21): a hex on the MG's level,
  in its frontal area (10.23), within its initial range and unblocked LOS. The mode lives on the
  unit (``mg_mode``, ``fl_target``) and is hidden from the opponent until the MG fires in it
  (``mg_mode_known``; :meth:`MgModeRules.visible_mode`, ``Game.view``); a new choice hides it again.
* **DF** (21.1): the basic rules' fire; intensive fire only in DF; DF MGs opportunity-fire only in
  the enemy Movement Phase (13.11/13.12 as in the basic rules).
* **Change to SP** (21.42, :class:`ChangeToSpray`): any time the MG is eligible to fire and has not
  fired this Player Turn (fire phases where SP may fire, and opportunity windows), once per Player
  Turn: a PC (rule 21.42). Success: SP mode, AP factors halved for the rest of the Player Turn
  (so SP fire uses one quarter). Failure: the MG stays in its mode.
* **FL** (21.2, :class:`LaneFire`): the lane is every hex the line from the MG's hex centre to the
  target hex centre touches (``maps.los`` hexes: crossed, along a hexside or at a corner), on the
  MG's level, up to and including a hex that blocks the LOS now (10.33: not beyond it). In the
  Support and Defensive Fire Phases (21.22) with an enemy unit in the lane, one LaneFire attacks every
  unit in the lane, friendly units included (21.23); as opportunity fire (Movement and Reaction
  Movement Phases, 13.12 advanced) the units of the hex just entered (13.13).
* **SP** (21.3, :class:`SprayFire`): the spray area is the frontal area within the initial range,
  on the MG's level and in unblocked LOS; the owner picks which enemy units to attack (21.33).
* Each FL/SP attack is a separate AP attack (21.25/21.35) at the MG's full (FL) or half rounded down
  (SP) AP factors, then the per-hex reductions of 11.16 a-c (trees/AFVs/wrecks in that hex, along the
  LOS to it, higher hex), its own dice (11.3); never combined (21.26/21.36); never halved for
  observation (23.35), so no observation attempt is made.
* **One fire combat** (21.27/21.37): the fire PC is taken at the first attack of a phase (21.24/
  21.34, with the 13.17 modifiers in opportunity fire); a failure ends the MG's fire for the Player
  Turn; after a success it may make further FL/SP attacks in that phase only (``mg_fire_phase``).
  Within the one fire combat each unit is attacked at most once (10.24).
* **Ammo** (22.2): FL 2 points at the first attack; SP 1 point, 2 in all once it attacks a second hex.
"""

from __future__ import annotations

from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, ChangeToSpray, IllegalAction, LaneFire, SetMgMode, SprayFire
from core.ironcross.hex_terrain import in_frontal_area
from core.ironcross.observation import fire_category
from core.ironcross.state import Phase, Unit
from maps import hexgrid
from maps.los import HexOccupancy

__all__ = ["MgModeRules", "MG_MODES"]

MG_MODES = ("DF", "FL", "SP")
#: 21.22/21.32: the fire phases in which FL/SP MGs fire (besides opportunity fire).
_MODE_FIRE_PHASES = (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE)


def _dist(a: str, b: str) -> int:
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


class MgModeRules:
    """21.0 MG modes."""

    def _mg_modes_on(self) -> bool:
        return getattr(self, "rules", "basic") == "advanced"

    def _phase_key(self) -> str:
        s = self.state
        return f"{s.player_turn}:{s.phase.value}"

    def visible_mode(self, unit: Unit | str, side: str) -> str | None:
        """The mode of ``unit`` as ``side`` may know it: always for its own MGs; for the opponent's
        only once the MG has fired in its current mode (21.0), else None. None for non-MGs."""
        u = self.units[unit] if isinstance(unit, str) else unit
        if not u.is_mg:
            return None
        if u.side == side or u.mg_mode_known or not self._mg_modes_on():
            return u.mg_mode
        return None

    def _redact_modes(self, snap: dict, side: str) -> None:
        """Hide the opponent's unrevealed MG modes in a state snapshot (21.0)."""
        for uid, d in snap.get("units", {}).items():
            u = self.units.get(uid)
            if u is None or u.side == side or not u.is_mg:
                continue
            if self.visible_mode(u, side) is None:
                d["mg_mode"] = None
                d["fl_target"] = None
                d["sp_halved_turn"] = 0

    # ================================================================== 21.41 mode choice
    def _start_mg_mode_choice(self) -> bool:
        """After the Morale Phase's recovery: start the mode choice (Phasing Player first).
        Returns True when a side has a decision to make."""
        if not self._mg_modes_on():
            return False
        s = self.state
        self._mode_set_now: set[str] = set()
        for side, sub in ((s.phasing, "mg_modes"), (s.non_phasing, "mg_modes_second")):
            self._sub = sub
            self._decider = side
            self._hide_modes(side)
            if self.legal_actions() != [self._end_phase_action()]:
                return True
        return False

    def _end_phase_action(self):
        from core.ironcross.actions import EndPhase
        return EndPhase()

    def _hide_modes(self, side: str) -> None:
        for u in self.state.units_of(side):
            if u.is_mg and u.on_map and u.normal:
                u.mg_mode_known = False  # a new choice: the opponent no longer knows

    def _end_mg_mode_step(self) -> None:
        """EndPhase during the mode choice: the other side chooses, then the Support Fire Phase."""
        s = self.state
        if self._sub == "mg_modes":
            self._sub = "mg_modes_second"
            self._decider = s.non_phasing
            self._hide_modes(s.non_phasing)
            if self.legal_actions() != [self._end_phase_action()]:
                return
        return self._enter_phase(Phase.SUPPORT_FIRE)

    def _fl_targets(self, u: Unit) -> list[str]:
        """21.21: hexes on the MG's level, in its frontal area, within initial range and LOS."""
        cache = self.__dict__.setdefault("_fl_cache", {})
        key = (self.state.player_turn, self.state.phase.value, u.id, u.hex, u.facing, u.down)
        if key in cache:
            return cache[key]
        out = []
        lvl = self.terrain.level(u.hex)
        h0 = hexgrid.parse_hex_id(u.hex)
        for h in hexgrid.area(h0, max(1, u.ap_range))[1:]:
            if not self.map.contains(h) or self.terrain.level(h.id) != lvl:
                continue
            if u.facing and not in_frontal_area(u.hex, u.facing, h.id):
                continue
            if self.los(u.hex, h.id, firer_down=u.down).clear:
                out.append(h.id)
        out.sort()
        cache.clear()  # keep one entry set per phase
        cache[key] = out
        return out

    def _mode_choosers(self, side: str) -> list[Unit]:
        return [u for u in sorted(self.state.units_of(side), key=lambda x: x.id)
                if u.is_mg and u.on_map and u.normal and not u.mg_broken
                and u.id not in getattr(self, "_mode_set_now", set())]

    def _mg_mode_actions(self, side: str) -> list[Action]:
        out: list[Action] = []
        for u in self._mode_choosers(side):
            for m in ("DF", "SP"):
                if u.mg_mode != m:
                    out.append(SetMgMode(u.id, m))
            for h in self._fl_targets(u):
                if not (u.mg_mode == "FL" and u.fl_target == h):
                    out.append(SetMgMode(u.id, "FL", h))
        return out

    def _set_mg_mode(self, a: SetMgMode) -> None:
        side = self._decider
        u = self.units.get(a.unit)
        if u is None or u.side != side:
            raise IllegalAction("21.41", f"{a.unit} is not one of your units")
        if not u.is_mg:
            raise IllegalAction("21.0", f"{u.id} is not an MG")
        if not u.on_map or not u.normal:
            raise IllegalAction("21.41", f"only NORMAL MGs on the map may change their mode ({u.id})")
        if u.mg_broken:
            raise IllegalAction("11.15", f"{u.id}: the MG is broken")
        if u.id in self._mode_set_now:
            raise IllegalAction("21.41", f"{u.id} has already chosen its mode")
        if a.mode not in MG_MODES:
            raise IllegalAction("21.0", f"unknown MG mode {a.mode!r}")
        if a.mode == "FL":
            if a.target not in self._fl_targets(u):
                raise IllegalAction("21.21", "a Fire Lane target hex must be on the MG's level, in its frontal "
                                             "area, within its initial range and unblocked LOS")
        elif a.target is not None:
            raise IllegalAction("21.21", "only FL names a target hex")
        self._mode_set_now.add(u.id)
        u.mg_mode = a.mode
        u.fl_target = a.target if a.mode == "FL" else None
        u.mg_mode_known = False
        self._event("mg_mode", rule="21.41", side=side, unit=u.id, mode=a.mode, target=u.fl_target)
        if self.legal_actions() == [self._end_phase_action()]:
            self._end_mg_mode_step()  # every MG of this side has chosen

    # ================================================================== areas
    def _fire_lane(self, u: Unit) -> list[str]:
        """21.21 the Fire Lane's hexes now (empty when the lane cannot be fired)."""
        t = u.fl_target
        if u.mg_mode != "FL" or t is None or not u.on_map or t == u.hex or _dist(u.hex, t) > u.ap_range:
            return []
        if u.facing and not in_frontal_area(u.hex, u.facing, t):
            return []
        los = self.los(u.hex, t, firer_down=u.down)
        ids = [h for h in los.hex_ids if h != u.hex]
        if not los.clear and los.blocking_hex in ids:
            ids = ids[:ids.index(los.blocking_hex) + 1]  # 10.33 into, not through, a blocking hex
        lvl = self.terrain.level(u.hex)
        return [h for h in ids if self.map.contains(hexgrid.parse_hex_id(h)) and self.terrain.level(h) == lvl]

    def _in_spray_area(self, u: Unit, h: str) -> bool:
        """21.31: frontal area, initial range, the MG's level, unblocked LOS."""
        if h == u.hex or _dist(u.hex, h) > u.ap_range:
            return False
        if u.facing and not in_frontal_area(u.hex, u.facing, h):
            return False
        if self.terrain.level(h) != self.terrain.level(u.hex):
            return False
        return self.los(u.hex, h, firer_down=u.down).clear

    # ================================================================== eligibility
    def _mg_memory(self, u: Unit) -> dict:
        mem = self.state.records.setdefault("mg", {})
        m = mem.get(u.id)
        if m is None or m.get("phase") != u.mg_fire_phase:
            m = {"phase": u.mg_fire_phase, "attacked": [], "hexes": [], "paid": 0}
            mem[u.id] = m
        return m

    def _continuing(self, u: Unit) -> bool:
        """21.24/21.34: it passed its fire PC earlier in this phase (the same fire combat)."""
        return u.mg_fire_phase is not None and u.mg_fire_phase == self._phase_key()

    def _mode_unit_problem(self, u: Unit, side: str, mode: str, opportunity: bool) -> tuple[str, str] | None:
        s = self.state
        if not self._mg_modes_on():
            return ("21.0", "MG modes are an advanced rule")
        if u.side != side:
            return ("10.1", f"{u.id} is not yours")
        if not u.is_mg or u.mg_mode != mode or mode not in ("FL", "SP"):
            return ("21.0", f"{u.id} is not an MG in {mode} mode")
        if opportunity:
            if s.phase not in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT):
                return ("13.0", "opportunity fire happens in the Movement and Reaction Movement Phases")
        elif s.phase not in _MODE_FIRE_PHASES:
            return ("21.22" if mode == "FL" else "21.32",
                    f"{mode} MGs fire in the Support and Defensive Fire Phases and as opportunity fire")
        if self._continuing(u):
            if not u.on_map or not u.normal:
                return ("10.11", f"{u.id} is not a NORMAL unit on the map")
            return None
        bad = self._ineligibility(u)
        if bad:
            return bad
        need = 2 if mode == "FL" else 1
        if not self._has_ammo(u, need):
            return ("22.1", f"{u.id} has not the {need} ammo points an {mode} fire costs")
        return None

    def _mode_targets(self, u: Unit, opportunity: bool) -> list[Unit]:
        """Units the MG may attack now (not yet attacked in this fire combat, 10.24)."""
        done = set(self._mg_memory(u)["attacked"]) if self._continuing(u) else set()
        w = self.window if opportunity else None
        if u.mg_mode == "FL":
            lane = self._fire_lane(u)
            hexes = [w.hex] if w is not None and w.hex in lane else ([] if w is not None else lane)
            us = [x for h in hexes for x in self.state.units_at(h) if x.id not in done and x.id != u.id
                  and self.is_visible_to(x, u.side)]  # 24.2: hidden units are not attacked
            if not any(x.side != u.side for x in us):
                return []  # 21.22 an enemy unit in the lane
            return us
        cands = [x for x in self.state.units.values() if x.on_map and x.side != u.side and x.id not in done
                 and self.is_visible_to(x, u.side)]  # 24.2
        if w is not None:
            cands = [x for x in cands if x.hex == w.hex]
        ok: dict[str, bool] = {}
        out = []
        for x in sorted(cands, key=lambda x: x.id):
            if x.hex not in ok:
                ok[x.hex] = self._in_spray_area(u, x.hex)
            if ok[x.hex]:
                out.append(x)
        return out

    def _spray_cost(self, u: Unit, hexes: set[str]) -> int:
        """22.2: SP costs 1 for one hex, 2 in all for several hexes (extra points still due)."""
        m = self._mg_memory(u) if self._continuing(u) else {"hexes": [], "paid": 0}
        allh = set(m["hexes"]) | hexes
        return (2 if len(allh) > 1 else 1) - m["paid"]

    # ================================================================== legal actions
    def _mode_actions(self, side: str, opportunity: bool) -> list[Action]:
        """ChangeToSpray, LaneFire and SprayFire options of ``side`` now."""
        if not self._mg_modes_on():
            return []
        s = self.state
        out: list[Action] = []
        for u in sorted(s.units_of(side), key=lambda x: x.id):
            if not u.is_mg or not u.on_map:
                continue
            if u.mg_mode != "SP" and self._spray_change_problem(u, side, opportunity) is None:
                out.append(ChangeToSpray(u.id))
            if u.mg_mode not in ("FL", "SP") or self._mode_unit_problem(u, side, u.mg_mode, opportunity) is not None:
                continue
            targets = self._mode_targets(u, opportunity)
            if not targets:
                continue
            if u.mg_mode == "FL":
                out.append(LaneFire(u.id))
            else:
                by_hex: dict[str, list[str]] = {}
                for t in targets:
                    by_hex.setdefault(t.hex, []).append(t.id)
                opts: list[tuple[str, ...]] = [(t.id,) for t in targets]
                opts += [tuple(v) for v in by_hex.values() if len(v) > 1]
                if len(by_hex) > 1:
                    opts.append(tuple(sorted(t.id for t in targets)))
                for ids in dict.fromkeys(tuple(sorted(o)) for o in opts):
                    hexes = {self.units[x].hex for x in ids}
                    if self._has_ammo(u, max(0, self._spray_cost(u, hexes))):
                        out.append(SprayFire(u.id, ids))
        return out

    def _mode_opportunity_actions(self) -> list[Action]:
        """FL/SP opportunity fire at the hex just entered (21.22, 21.32; 13.12 advanced)."""
        w = self.window
        if w is None or not self._mg_modes_on():
            return []
        if not any(x.side != w.side for x in self.state.units_at(w.hex)):
            return []
        return self._mode_actions(w.side, opportunity=True)

    def _spray_change_problem(self, u: Unit, side: str, opportunity: bool) -> tuple[str, str] | None:
        s = self.state
        if not self._mg_modes_on():
            return ("21.42", "MG modes are an advanced rule")
        if u.side != side or not u.is_mg:
            return ("21.42", f"{u.id} is not one of your MGs")
        if u.mg_mode == "SP":
            return ("21.42", f"{u.id} is already in SP mode")
        if u.sp_change_turn == s.player_turn:
            return ("21.42", f"{u.id} already tried to change to SP this Player Turn")
        if opportunity:
            if s.phase not in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT) or self.window is None:
                return ("21.42", "not in an opportunity window")
            if not self._in_spray_area(u, self.window.hex):
                return ("21.42", "the hex entered would not be in its spray fire area")
        elif s.phase not in _MODE_FIRE_PHASES:
            return ("21.32", "SP MGs fire in the Support and Defensive Fire Phases and as opportunity fire")
        bad = self._ineligibility(u)  # 21.42 eligible to fire and not yet fired this Player Turn
        if bad:
            return bad
        if not self._has_ammo(u, 1):
            return ("22.1", f"{u.id} is out of ammo")
        return None

    # ================================================================== apply
    def _apply_mode_action(self, a: Action, opportunity: bool) -> None:
        side = self._decider
        u = self.units.get(getattr(a, "unit", ""))
        if u is None:
            raise IllegalAction("24.1", f"no unit {getattr(a, 'unit', None)!r} in this game")
        if isinstance(a, ChangeToSpray):
            bad = self._spray_change_problem(u, side, opportunity)
            if bad:
                raise IllegalAction(*bad)
            u.sp_change_turn = self.state.player_turn
            ok = self.pc(u, "change to SP mode", "21.42")
            if ok:
                u.mg_mode = "SP"
                u.fl_target = None
                u.mg_mode_known = False
                u.sp_halved_turn = self.state.player_turn
            self._event("spray_change", rule="21.42", unit=u.id, passed=ok)
            return
        mode = "FL" if isinstance(a, LaneFire) else "SP"
        bad = self._mode_unit_problem(u, side, mode, opportunity)
        if bad:
            raise IllegalAction(*bad)
        allowed = self._mode_targets(u, opportunity)
        if not allowed:
            raise IllegalAction("21.22" if mode == "FL" else "21.32", f"no unit for {u.id} to attack now")
        if mode == "FL":
            targets = allowed
        else:
            ids = a.targets
            if not ids or len(set(ids)) != len(ids):
                raise IllegalAction("21.33", "name each target unit once")
            by_id = {x.id: x for x in allowed}
            bad_ids = [x for x in ids if x not in by_id]
            if bad_ids:
                raise IllegalAction("21.31", f"{bad_ids} are not enemy units in its spray fire area now")
            targets = [by_id[x] for x in ids]
            cost = self._spray_cost(u, {t.hex for t in targets})
            if not self._has_ammo(u, max(0, cost)):
                raise IllegalAction("22.1", f"{u.id} has not the ammo to spray several hexes")
        s = self.state
        if not self._continuing(u):
            if not opportunity:
                self._note_non_mortar_fire()  # 14.0
            self._mark_fired(u, opportunity)  # 4.0 attempted counts as performed
            reaction = s.phase is Phase.REACTION_MOVEMENT
            rule = "21.24" if mode == "FL" else "21.34"
            ok = self.pc(u, f"{mode} fire", rule, modifier=1 if (opportunity and reaction) else 0)  # 13.17
            self._event("mode_fire", rule=rule, unit=u.id, mode=mode, passed=ok, opportunity=opportunity)
            if not ok:
                return  # 21.24/21.34: it will not fire this Player Turn (22.1: no ammo spent)
            u.mg_fire_phase = self._phase_key()
            u.mg_mode_known = True  # 21.0 revealed when it fires
            self._note_fired(u, fire_category(u))
            if mode == "FL":
                self._spend_ammo(u, 2, "21.2 FL fire")  # 22.2
        mem = self._mg_memory(u)
        if mode == "SP":
            due = self._spray_cost(u, {t.hex for t in targets})
            if due > 0:
                self._spend_ammo(u, due, "21.3 SP fire")  # 22.2
                mem["paid"] += due
        elif mem["paid"] == 0:
            mem["paid"] = 2
        self._note_first_shot()
        for t in sorted(targets, key=lambda x: (x.hex or "", x.id)):
            if t.eliminated or not t.on_map:
                continue
            self._mode_attack(u, t, mode, mem)

    def _mode_firepower(self, u: Unit, h: str, mode: str) -> dict:
        """21.25/21.35 firepower against a unit in ``h``: 11.2, then halvings (11.16 d, 21.35 SP,
        21.42 change), then 11.16 a-c for that hex."""
        s = self.state
        rng = _dist(u.hex, h)
        f = ct.attenuated(u.ap, u.ap_range, rng)
        halvings = []
        if u.weapon == "MMG" and not u.full_crew:
            halvings.append("11.16 d")
        if mode == "SP":
            halvings.append("21.35")
        if mode == "SP" and u.sp_halved_turn == s.player_turn:
            halvings.append("21.42")
        for _ in halvings:
            f //= 2
        o = self.occupancy().get(hexgrid.parse_hex_id(h), HexOccupancy())
        red_a = self.terrain.trees(h) + o.afvs + o.wrecks
        los = self.los(u.hex, h, firer_down=u.down)
        red_b = los.trees_afvs_wrecks
        higher = 1 if los.level_difference > 0 else 0
        return {"base": f, "halvings": halvings, "target_hex_reduction": red_a, "los_reduction": red_b,
                "higher": bool(higher), "final": f - red_a - red_b - higher}

    def _mode_attack(self, u: Unit, t: Unit, mode: str, mem: dict) -> None:
        h = t.hex
        fp = self._mode_firepower(u, h, mode)
        final = fp["final"]
        mem["attacked"].append(t.id)
        if h not in mem["hexes"]:
            mem["hexes"].append(h)
        rule = "21.25" if mode == "FL" else "21.35"
        self._event("mode_attack", rule=rule, unit=u.id, mode=mode, target=t.id, hex=h, **fp)
        n = self._ap_dice_against(t, h, self._counts_moved(u))
        r = self.roll(n, f"{mode} attack by {u.id} on {t.id} (firepower {final})", rule)
        res = ct.ap_result(final, r.dice)
        self._event("ap_result", rule="11.44" if r.all_ones else "11.43", unit=t.id, dice=list(r.dice),
                    firepower=final, levels=list(ct.result_levels(final)), result=res.value, mg=u.id, mode=mode)
        self._apply_ap_result(t, res, rule)

